"""Play one seeded game with random legal moves, print the scores, save and replay it.

python examples/quickstart.py                      # USA, 4 players, seed 1
python examples/quickstart.py example --players 2  # the example edition, if installed
"""

from __future__ import annotations

import argparse
import random

import ttr_core as ttr


def play(edition: str, players: int, seed: int) -> ttr.Game:
    """Play a whole game, every player choosing uniformly among the legal actions."""
    game = ttr.Game.new(edition, players=players, seed=seed)
    chooser = random.Random(seed)  # the players' choices; the game's chance comes from `seed`
    while not game.is_over:
        legal = game.legal_actions()  # a lazy sequence: len() and indexing are cheap
        game.apply(legal[chooser.randrange(len(legal))])
    return game


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Play one random game of ttr.")
    parser.add_argument("edition", nargs="?", default="usa", help="edition id or alias")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    game = play(args.edition, args.players, args.seed)
    sheet = game.scores()
    print(f"{game.ruleset.info.name}: {len(game.log)} actions, ended by {game.state.ended_by}")
    for score in sheet.players:
        bonuses = ", ".join(f"{name} {points}" for name, points in score.bonuses.items())
        print(
            f"  {score.name:10} {score.total:4} points  (routes {score.route_points}, "
            f"tickets {score.ticket_points}, {score.tickets_completed} completed; {bonuses})"
        )
    print("winners:", ", ".join(game.names[seat] for seat in sheet.winners))

    # A saved game is JSON; loading replays it and checks every recorded event.
    again = ttr.Game.load(game.save())
    assert again.state == game.state
    print("saved and replayed: same final state")


if __name__ == "__main__":
    main()
