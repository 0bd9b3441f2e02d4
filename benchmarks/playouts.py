"""Uniformly random full games: the project's speed benchmark.

Every decision picks uniformly among the listed legal actions (``len`` and one index of
the lazy legal-action sequence, the index drawn with the project's own generator); a
decision is one applied player action (the second card, the ticket keep and a tunnel
payment each count; chance steps do not). Game setup is included. Final scoring is not,
unless ``--score`` is given. One process, one core. Game ``i`` of a run uses the same seed
as game ``i`` of ``ttr simulate`` with the same ``--seed``.

    python benchmarks/playouts.py --edition usa --players 4 --games 500 --seed 1
"""

from __future__ import annotations

import argparse
import time

from ttr_core import Ruleset, rng
from ttr_core.engine import apply, new_game
from ttr_core.legal import LegalActions
from ttr_core.scoring import score_game
from ttr_core.simulate import game_seed


def play(rs: Ruleset, players: int, seed: int, *, score: bool = False) -> int:
    """Play one random game; return the number of decisions."""
    state = new_game(rs, players, seed=seed)
    chooser = rng.seed_state(seed ^ 0x5DEECE66D)
    decisions = 0
    while not state.is_over:
        legal = LegalActions(rs, state)
        k, chooser = rng.below(chooser, len(legal))
        state = apply(rs, state, legal[k])
        decisions += 1
    if score:
        score_game(rs, state)
    return decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Uniformly random full games per second.")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--score", action="store_true", help="include final scoring")
    parser.add_argument(
        "--warmup", type=int, default=5, help="untimed games played first (default 5)"
    )
    args = parser.parse_args(argv)
    rs = Ruleset.build(args.edition)
    for i in range(args.warmup):
        play(rs, args.players, game_seed(args.seed + 1, i), score=args.score)
    start = time.perf_counter()
    decisions = 0
    for i in range(args.games):
        decisions += play(rs, args.players, game_seed(args.seed, i), score=args.score)
    elapsed = time.perf_counter() - start
    print(
        f"edition={rs.id} players={args.players} games={args.games} "
        f"games_per_s={args.games / elapsed:.1f} "
        f"decisions_per_game={decisions / args.games:.1f} "
        f"us_per_decision={elapsed / decisions * 1e6:.2f}"
    )


if __name__ == "__main__":
    main()
