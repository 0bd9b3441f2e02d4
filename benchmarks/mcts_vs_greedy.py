"""The search bot against the greedy bot: its win rate in 2-player USA games.

Game ``i`` of a run is played from the seed ``game_seed(seed, i)`` (as ``ttr simulate``
numbers its games), with ``mcts`` in seat ``i % 2`` and ``greedy`` in the other, so each
bot plays each seat in half the games. A tie counts as half a win. The 95 % interval is
Wilson's score interval for a proportion. Every game depends on its seed alone, so
``--jobs`` changes only how long the run takes. The speed is given as the search bot's
playouts per CPU second of the games (both bots' decisions counted).

    python benchmarks/mcts_vs_greedy.py --games 100 --playouts 100 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import time

from attrs import frozen

from ttr_core.batch.parallel import GameFailure, run_in_order
from ttr_core.batch.runs import game_seed, play_game, shared_ruleset
from ttr_core.bots.base import BotFactory
from ttr_core.bots.greedy import GreedyBot
from ttr_core.bots.mcts import DEFAULT_C, DEFAULT_PLAYOUTS, MctsBot
from ttr_core.ruleset.ruleset import Ruleset

Z95 = 1.959964
"""The standard normal quantile of a two-sided 95 % interval."""


@frozen
class Outcome:
    """One game: the search bot's seat, both totals, and the winners' seats."""

    seat: int
    totals: tuple[int, int]
    winners: tuple[int, ...]
    turns: int
    playouts: int
    """Playouts the search bot played in the game."""
    seconds: float
    """CPU seconds the game took, both bots' decisions included."""


@frozen
class Match:
    """Plays game ``index`` of a run: picklable, so worker processes can play it."""

    edition: str
    playouts: int
    c: float

    def __call__(self, index: int, seed: int) -> Outcome:
        rs = shared_ruleset(self.edition, ())
        seat = index % 2
        built: list[MctsBot] = []

        def mcts(rs: Ruleset, seat: int, seed: int) -> MctsBot:
            bot = MctsBot(rs, seat, seed, playouts=self.playouts, c=self.c)
            built.append(bot)
            return bot

        names = ["mcts", "greedy"] if seat == 0 else ["greedy", "mcts"]
        factories: list[BotFactory] = [mcts, GreedyBot] if seat == 0 else [GreedyBot, mcts]
        start = time.process_time()
        result = play_game(rs, names, seed, factories=factories)
        seconds = time.process_time() - start
        won = tuple(int(name.split()[-1]) - 1 for name in result.winners)
        totals = (result.players[0].total, result.players[1].total)
        return Outcome(
            seat=seat,
            totals=totals,
            winners=won,
            turns=result.turns,
            playouts=sum(bot.played for bot in built),
            seconds=seconds,
        )


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion of ``successes`` in ``n`` trials."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The mcts bot's win rate against greedy.")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    parser.add_argument("--c", type=float, default=DEFAULT_C)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="local processes (default 1)")
    parser.add_argument("--progress", action="store_true", help="print a line per game")
    args = parser.parse_args(argv)
    match = Match("usa", args.playouts, args.c)
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    start = time.perf_counter()
    wins = ties = losses = 0
    margin = 0
    playouts = 0
    seconds = 0.0
    for i, outcome in enumerate(run_in_order(match, seeds, jobs=args.jobs)):
        if isinstance(outcome, GameFailure):
            raise SystemExit(outcome.message)
        me, other = outcome.totals[outcome.seat], outcome.totals[1 - outcome.seat]
        margin += me - other
        playouts += outcome.playouts
        seconds += outcome.seconds
        if outcome.winners == (outcome.seat,):
            wins += 1
        elif outcome.seat in outcome.winners:
            ties += 1
        else:
            losses += 1
        if args.progress:
            print(f"game {i}: mcts in seat {outcome.seat}, {me} to {other}", flush=True)
    elapsed = time.perf_counter() - start
    n = args.games
    rate = (wins + ties / 2) / n
    low, high = wilson(wins + ties / 2, n)
    print(
        f"mcts (playouts={args.playouts}, c={args.c}) against greedy, usa, 2 players, "
        f"{n} games, seats alternating: won {wins}, tied {ties}, lost {losses}; "
        f"win rate {rate:.1%} (95% interval {low:.1%} to {high:.1%}); "
        f"mean margin {margin / n:+.1f} points; {elapsed / n * args.jobs:.1f} s per game "
        f"on one core; {playouts / seconds:.1f} playouts per CPU second"
    )


if __name__ == "__main__":
    main()
