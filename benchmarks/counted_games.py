"""Plays games with ``playouts.py``'s engines and prints how many decisions they took.

This is the program callgrind runs for the instruction counts of ``figures.py``: a run of
``--games N`` and a run of ``--games 0`` differ only by the games, so the difference of
their instruction counts divided by the decisions printed is the cost of a decision.
``--playouts`` names the ``playouts.py`` to use (by default the one beside this file), so
an older version's own benchmark plays its games.

    python benchmarks/counted_games.py --engine game --edition usa --players 4 --games 20
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
from pathlib import Path
from typing import Any


def load_playouts(path: str) -> Any:
    """The ``playouts.py`` module in file ``path``."""
    spec = importlib.util.spec_from_file_location("counted_playouts", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> None:
    """Play the warm-up games and the counted ones; print the decisions."""
    parser = argparse.ArgumentParser(description="Random full games, decisions counted.")
    parser.add_argument("--playouts", default=str(Path(__file__).with_name("playouts.py")))
    parser.add_argument("--engine", default="simulator")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=1, help="games played first")
    args = parser.parse_args(argv)
    playouts = load_playouts(args.playouts)
    if args.engine not in playouts.ENGINES:
        raise SystemExit(f"{args.playouts} has no engine {args.engine!r}")
    rs = playouts.Ruleset.build(args.edition)
    play = playouts.player(args.engine)
    for i in range(args.warmup):
        play(rs, args.players, playouts.game_seed(args.seed + 1, i), False)
    # The objects made so far (the ruleset's tables, the warm-up's memos) are moved to the
    # oldest generation now, so that no engine pays for that once-only pass in its count.
    gc.collect()
    decisions = sum(
        play(rs, args.players, playouts.game_seed(args.seed, i), False) for i in range(args.games)
    )
    print(
        f"engine={args.engine} edition={rs.id} players={args.players} "
        f"games={args.games} decisions={decisions}"
    )


if __name__ == "__main__":
    main()
