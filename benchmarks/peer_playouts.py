"""Uniformly random full games on another engine: edwisdom/ticket_to_ride's Python engine.

The peer engine is not part of this project and is not installed with it: ``--peer`` names
the folder that holds its ``ticket_to_ride`` package (it needs ``msgspec``). The games are
played the way the peer's own benchmark plays them: its Python engine on the USA map,
history off, game ``i`` from seed ``i``, every decision drawn by its uniform legal-action
sampler from its ``"bench"`` stream; set-up included, final scoring left out. A decision is
one applied action. The line printed has the form of ``playouts.py``'s, plus the total
number of decisions (what callgrind counts are divided by).

    python benchmarks/peer_playouts.py --peer PATH --players 4 --games 200
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import time
from typing import Any


def peer_engine(folder: str) -> tuple[Any, Any, Any]:
    """The peer's ``Game``, ``RuleConfig`` and ``stream``, imported from ``folder``."""
    sys.path.insert(0, folder)
    try:
        engine = importlib.import_module("ticket_to_ride.engine")
        rng = importlib.import_module("ticket_to_ride.engine.rng")
    except ImportError as error:
        raise SystemExit(f"cannot import the peer engine from {folder}: {error}") from error
    return engine.Game, engine.RuleConfig, rng.stream


def play(game: Any, stream: Any, seed: int) -> int:
    """Play the peer's game ``seed`` to its end; return the number of decisions."""
    state = game.new_initial_state(seed)
    chooser = stream(seed, "bench")
    decisions = 0
    while not state.is_terminal():
        state.step(state.sample_legal(chooser))
        decisions += 1
    return decisions


def main(argv: list[str] | None = None) -> None:
    """Play the games and print one ``key=value`` line."""
    parser = argparse.ArgumentParser(description="The peer engine's random full games.")
    parser.add_argument("--peer", required=True, help="folder holding its ticket_to_ride")
    parser.add_argument("--edition", default="usa", help="its map (default usa)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=5, help="untimed games first")
    args = parser.parse_args(argv)
    game_class, config, stream = peer_engine(args.peer)
    game = game_class(config(map_name=args.edition, n_players=args.players, track_history=False))
    for seed in range(args.games, args.games + args.warmup):
        play(game, stream, seed)
    gc.collect()  # what was made so far goes to the oldest generation, as in counted_games
    start = time.perf_counter()
    decisions = sum(play(game, stream, seed) for seed in range(args.games))
    elapsed = time.perf_counter() - start
    games = max(args.games, 1)
    per_decision = elapsed / decisions * 1e6 if decisions else 0.0
    print(
        f"engine=peer edition={args.edition} players={args.players} games={args.games} "
        f"games_per_s={args.games / elapsed:.1f} "
        f"decisions_per_game={decisions / games:.1f} "
        f"us_per_decision={per_decision:.2f} decisions={decisions}"
    )


if __name__ == "__main__":
    main()
