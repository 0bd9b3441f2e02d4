"""Uniformly random full games: the project's speed benchmark.

Every decision picks uniformly among the listed legal actions (their count and one
index, the index drawn with the project's own generator); a decision is one applied
player action (the second card, the ticket keep and a tunnel payment each count; chance
steps do not). Game setup is included. Final scoring is not, unless ``--score`` is
given. One process, one core. Game ``i`` of a run uses the same seed as game ``i`` of
``ttr simulate`` with the same ``--seed``.

``--engine`` picks what plays:

- ``simulator`` (the default): the in-place simulator with ``record=False``, as search
  playouts use it (``legal_count`` and ``apply_index``; no events, no log);
- ``simulator-record``: the same, recording events and the log;
- ``functional``: ``LegalActions(rs, state)`` and ``apply(rs, state, action)``, a new
  frozen state per decision;
- ``game``: the :class:`~ttr_core.Game` class, with its events and log (``apply``
  returns each action's events, as ``simulator-record`` collects them, so that is the
  engine to hold it against).

All engines play the same games for the same seeds.

    python benchmarks/playouts.py --edition usa --players 4 --games 500 --seed 1
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

from ttr_core import Game, Ruleset, Simulator
from ttr_core.batch.runs import game_seed
from ttr_core.model import rng
from ttr_core.play.functional import apply, new_game
from ttr_core.play.legal import LegalActions
from ttr_core.rules.scoring import score_game

ENGINES = ("simulator", "simulator-record", "functional", "game")


def play_simulator(rs: Ruleset, players: int, seed: int, *, score: bool, record: bool) -> int:
    """Play one random game on the simulator; return the number of decisions."""
    sim = Simulator.new(rs, players, seed=seed, record=record)
    chooser = rng.Stream(seed ^ 0x5DEECE66D)
    decisions = 0
    while not sim.is_over:
        k = chooser.below(sim.legal_count())
        sim.apply_index(k)
        decisions += 1
    if score:
        sim.scores()
    return decisions


def play_functional(rs: Ruleset, players: int, seed: int, *, score: bool) -> int:
    """Play one random game through the functional API; return the number of decisions."""
    state = new_game(rs, players, seed=seed)
    chooser = rng.Stream(seed ^ 0x5DEECE66D)
    decisions = 0
    while not state.is_over:
        legal = LegalActions(rs, state)
        k = chooser.below(len(legal))
        state = apply(rs, state, legal[k])
        decisions += 1
    if score:
        score_game(rs, state)
    return decisions


def play_game(rs: Ruleset, players: int, seed: int, *, score: bool) -> int:
    """Play one random game through :class:`Game`; return the number of decisions."""
    game = Game.new(rs, players, seed=seed)
    chooser = rng.Stream(seed ^ 0x5DEECE66D)
    decisions = 0
    while not game.is_over:
        legal = game.legal_actions()
        k = chooser.below(len(legal))
        game.apply(legal[k])
        decisions += 1
    if score:
        game.scores()
    return decisions


def player(engine: str) -> Callable[..., int]:
    """The function that plays one game with ``engine``."""
    if engine == "simulator":
        return lambda rs, n, seed, score: play_simulator(rs, n, seed, score=score, record=False)
    if engine == "simulator-record":
        return lambda rs, n, seed, score: play_simulator(rs, n, seed, score=score, record=True)
    if engine == "functional":
        return lambda rs, n, seed, score: play_functional(rs, n, seed, score=score)
    return lambda rs, n, seed, score: play_game(rs, n, seed, score=score)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Uniformly random full games per second.")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--score", action="store_true", help="include final scoring")
    parser.add_argument("--engine", choices=ENGINES, default="simulator", help="what plays")
    parser.add_argument(
        "--warmup", type=int, default=5, help="untimed games played first (default 5)"
    )
    args = parser.parse_args(argv)
    rs = Ruleset.build(args.edition)
    play = player(args.engine)
    for i in range(args.warmup):
        play(rs, args.players, game_seed(args.seed + 1, i), args.score)
    gc.collect()  # what was made so far goes to the oldest generation, as in counted_games
    start = time.perf_counter()
    decisions = 0
    for i in range(args.games):
        decisions += play(rs, args.players, game_seed(args.seed, i), args.score)
    elapsed = time.perf_counter() - start
    print(
        f"engine={args.engine} edition={rs.id} players={args.players} games={args.games} "
        f"games_per_s={args.games / elapsed:.1f} "
        f"decisions_per_game={decisions / args.games:.1f} "
        f"us_per_decision={elapsed / decisions * 1e6:.2f}"
    )


if __name__ == "__main__":
    main()
