"""Final scoring of uniformly random full games: milliseconds per finished game.

For each edition and each player count it allows, plays ``--games`` games in which every
decision picks uniformly among the listed legal actions (the index drawn with the
project's own generator, as in ``playouts.py``), then times ``score_game`` on each
finished state: ``--repeat`` times, keeping the median of each game. It prints one line
per edition and player count (every count the edition allows, unless ``--players`` says)
with the median and the largest of those per-game times, and which game was the slowest.

With ``--compare FILE``, the same states are also scored by the ``score_game`` of another
scoring module (for example the previous version, ``git show
HEAD:ttr_core/rules/scoring.py > /tmp/old/scoring.py``), timed the same way, its times
printed beside these; both must give the same score sheets. Modules beside ``FILE`` can
be imported by it, so it may bring its own copies of ``network.py`` or ``graph.py``.

    python benchmarks/scoring.py --games 200 --repeat 5
    python benchmarks/scoring.py --edition europe --compare /tmp/old/scoring.py
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ttr_core import Ruleset, Simulator
from ttr_core.batch.runs import game_seed
from ttr_core.model import rng
from ttr_core.model.state import GameState
from ttr_core.rules.scoring import score_game, scoresheet_json

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")

Scorer = Callable[[Ruleset, GameState], Any]
"""A ``score_game``: a ruleset and a finished state in, a score sheet out."""


def finished_game(rs: Ruleset, players: int, seed: int) -> GameState:
    """The final state of one uniformly random game."""
    sim = Simulator.new(rs, players, seed=seed, record=False)
    chooser = rng.seed_state(seed ^ 0x5DEECE66D)
    while not sim.is_over:
        k, chooser = rng.below(chooser, sim.legal_count())
        sim.apply_index(k)
    return sim.snapshot()


def time_ms(score: Scorer, rs: Ruleset, state: GameState, repeat: int) -> float:
    """The median over ``repeat`` runs of the time ``score`` takes on ``state``, in ms.

    As with ``timeit``, the garbage collector is off while timing: its passes cost what
    the whole process holds (the games played, the ruleset's memos), not the scoring.
    """
    times = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            score(rs, state)
            times.append(time.perf_counter() - start)
    finally:
        if enabled:
            gc.enable()
    return statistics.median(times) * 1e3


def load_scorer(path: str) -> Scorer:
    """The ``score_game`` of the scoring module in file ``path`` (its folder importable)."""
    sys.path.insert(0, str(Path(path).resolve().parent))
    spec = importlib.util.spec_from_file_location("ttr_compared_scoring", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    scorer: Scorer = module.score_game
    return scorer


def summary(times: Sequence[float], prefix: str = "") -> str:
    """``median_ms=… max_ms=… slowest=…`` of per-game times, each key starting with
    ``prefix``: ``slowest`` is the number of the slowest game (``game_seed(seed, number)``
    plays it again)."""
    slowest = max(range(len(times)), key=times.__getitem__)
    return (
        f"{prefix}median_ms={statistics.median(times):.3f} {prefix}max_ms={times[slowest]:.3f}"
        f" {prefix}slowest={slowest}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Final scoring time of random full games.")
    parser.add_argument("--edition", action="append", help="an edition (default: all five)")
    parser.add_argument("--players", type=int, action="append", help="a player count")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5, help="timings per game (median)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", metavar="FILE", help="another scoring module to time")
    args = parser.parse_args(argv)
    other = load_scorer(args.compare) if args.compare else None
    for edition in args.edition or EDITIONS:
        rs = Ruleset.build(edition)
        lo, hi = rs.params.players
        for players in args.players or range(lo, hi + 1):
            if not lo <= players <= hi:
                continue
            states = [
                finished_game(rs, players, game_seed(args.seed, i)) for i in range(args.games)
            ]
            score_game(rs, states[0])  # warm the ruleset's memos and the imports
            times: list[float] = []
            before: list[float] = []
            for state in states:  # side by side: each state timed by both in turn
                times.append(time_ms(score_game, rs, state, args.repeat))
                if other is not None:
                    if scoresheet_json(rs, other(rs, state)) != scoresheet_json(
                        rs, score_game(rs, state)
                    ):
                        raise SystemExit(f"{rs.id}: the compared module scores differently")
                    before.append(time_ms(other, rs, state, args.repeat))
            line = f"edition={rs.id} players={players} games={args.games} {summary(times)}"
            if before:
                speedup = statistics.median(before) / statistics.median(times)
                line += f" {summary(before, 'compare_')} speedup={speedup:.2f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
