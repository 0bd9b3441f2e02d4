"""Final scoring's worst case: the longest path of the densest networks one player can hold.

For each edition it builds legal one-player positions whose network is as knotted as the
map and the player's trains allow, scores each through ``score_position`` and prints the
worst time. The candidates, all with one track per double route (DOUBLE-1) and at most
the player's trains:

- ``packed``: from each city in turn, the shortest tracks that touch the network so far,
  those that close a cycle first;
- ``search``: a local search from the slowest packed network, dropping a few tracks and
  adding others, keeping the change when scoring is no faster;
- ``found``: the slowest networks found while the search was developed (track ids below).

Every position is read back with ``parse_position``, which refuses an illegal one. With
``--compare FILE``, the same positions are scored again with the ``longest_trail`` of
another ``graph.py`` (for example the previous version, ``git show HEAD~1:ttr_core/rules/graph.py
> /tmp/old_graph.py``), each stopped after ``--timeout`` seconds (POSIX only).

    python benchmarks/scoring_worst.py --search 300 --repeat 5
    python benchmarks/scoring_worst.py --compare /tmp/old_graph.py --timeout 20
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import signal
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any

import ttr_core.rules.network
from ttr_core import Ruleset
from ttr_core.formats.position import parse_position, position_to_json
from ttr_core.rules.scoring import PlayerPosition, Position, score_position

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")

FOUND: dict[str, tuple[tuple[int, ...], ...]] = {
    "usa": (
        (19, 65, 84, 85, 17, 41, 75, 21, 63, 76, 1, 10, 70, 62, 6, 91, 78, 16, 3, 58),
        (82, 6, 58, 19, 28, 1, 63, 74, 62, 75, 54, 64, 17, 85, 3, 56, 76, 53, 21, 31),
        (39, 58, 62, 24, 33, 63, 80, 18, 54, 27, 17, 65, 21, 84, 3, 76, 56, 28, 25),
    ),
    "europe": (
        (29, 90, 25, 2, 92, 40, 88, 38, 36, 17, 67, 18, 16, 30, 1, 24, 89, 3, 55, 35, 57),
        (1, 28, 37, 18, 19, 36, 6, 11, 88, 89, 29, 55, 3, 17, 52, 2, 25, 16, 35, 65),
        (89, 88, 90, 40, 30, 65, 38, 17, 67, 52, 18, 19, 16, 12, 36, 35, 43, 55, 92, 48, 3),
    ),
    "india": (
        (1, 78, 6, 35, 104, 87, 4, 22, 95, 23, 33, 106, 38, 97, 75, 73, 91, 8, 40, 19, 12, 20,
         74, 47, 64, 76, 3, 46, 13),
        (7, 104, 6, 96, 45, 75, 9, 86, 74, 29, 33, 47, 12, 106, 79, 35, 76, 87, 38, 95, 8, 46,
         103, 40, 4, 64, 91),
        (105, 25, 36, 87, 23, 78, 38, 6, 64, 11, 107, 104, 86, 91, 95, 79, 76, 35, 47, 4, 1,
         37, 12, 40, 103, 26, 46, 106),
        # 31 tracks in 19 cities (tests/rules/test_longest_trail.py): 4.6 s before
        (1, 4, 12, 19, 20, 25, 38, 45, 46, 47, 76, 87, 91, 95, 103, 104, 106, 3, 6, 7, 11, 22,
         33, 35, 36, 64, 65, 73, 75, 97, 105),
    ),
    "switzerland": (
        (1, 72, 43, 4, 3, 11, 51, 73, 25, 21, 71, 45, 44, 6, 8, 16, 69, 22, 10, 70, 80, 17,
         23, 78, 19),
        (4, 16, 12, 69, 45, 22, 44, 8, 26, 10, 19, 3, 23, 70, 6, 71, 32, 1, 72, 43, 21, 17,
         11, 65),
        (16, 72, 17, 73, 69, 44, 50, 8, 45, 6, 46, 22, 11, 23, 70, 19, 43, 71, 65, 1, 21, 4,
         3, 10, 80),
    ),
    "nordic": (
        (75, 49, 50, 12, 34, 15, 63, 32, 47, 14, 27, 41, 31, 46, 71, 81, 80, 79, 64, 33, 26,
         25, 22),
        (40, 49, 30, 15, 64, 50, 80, 63, 32, 12, 33, 48, 14, 71, 25, 79, 81, 46, 22, 26),
        (63, 32, 30, 31, 64, 81, 78, 14, 33, 80, 71, 22, 46, 79, 65, 26, 69, 27, 34, 47, 40,
         25),
    ),
}  # fmt: skip
"""Track ids of the slowest networks found by a longer search while the search was written."""

LongestTrail = Callable[[Sequence[tuple[int, int, int]]], int]


class Board:
    """One edition's map as one player sees it: the shortest track of each city pair."""

    def __init__(self, edition: str) -> None:
        self.rs = rs = Ruleset.build(edition)
        self.trains = rs.map.parameters.trains
        city = {name: c for c, x in enumerate(rs.map.cities) for name in (x.id, *x.aliases)}
        self.ends: tuple[tuple[int, int], ...] = tuple(
            (city[t.cities[0]], city[t.cities[1]]) for t in rs.map.routes
        )
        """Track index -> the indices of the two cities it joins."""
        self.lengths: tuple[int, ...] = tuple(t.length for t in rs.map.routes)
        """Track index -> its length."""
        shortest: dict[frozenset[int], int] = {}
        for r, ends in enumerate(self.ends):
            pair = frozenset(ends)
            if pair not in shortest or self.lengths[r] < self.lengths[shortest[pair]]:
                shortest[pair] = r
        self.tracks = sorted(shortest.values())

    def length(self, tracks: Sequence[int]) -> int:
        return sum(self.lengths[r] for r in tracks)

    def cities(self, tracks: Sequence[int]) -> set[int]:
        return {c for r in tracks for c in self.ends[r]}

    def fill(self, tracks: list[int], rnd: random.Random | None) -> list[int]:
        """Add the shortest tracks touching the network (cycles first) while trains last."""
        ends, lengths = self.ends, self.lengths
        cities = self.cities(tracks)
        used = self.length(tracks)
        free = [r for r in self.tracks if r not in set(tracks)]
        while True:
            best: tuple[float, ...] | None = None
            pick = -1
            for r in free:
                if used + lengths[r] > self.trains:
                    continue
                a, b = ends[r]
                inside = (a in cities) + (b in cities)
                if cities and not inside:
                    continue
                key = (-float(inside == 2), lengths[r], rnd.random() if rnd else r)
                if best is None or key < best:
                    best, pick = key, r
            if pick < 0:
                return tracks
            tracks.append(pick)
            free.remove(pick)
            used += lengths[pick]
            cities |= set(ends[pick])

    def packed(self, city: int) -> list[int]:
        """The network packed from ``city`` outwards."""
        first = [r for r in self.tracks if city in self.ends[r]]
        start = min(first, key=lambda r: self.lengths[r])
        return self.fill([start], None)

    def position(self, tracks: Sequence[int]) -> Position:
        """The legal position of one player holding ``tracks``, as ``ttr score`` reads it."""
        held = Position(players=(PlayerPosition(name="Ann", routes=tuple(tracks), tickets=()),))
        return parse_position(self.rs, position_to_json(self.rs, held))


def score_time(rs: Ruleset, position: Position, repeat: int) -> tuple[float, int]:
    """The fastest of ``repeat`` scorings of ``position`` in CPU seconds, and its longest path."""
    times = []
    longest = 0
    for _ in range(repeat):
        start = time.process_time()
        sheet = score_position(rs, position)
        times.append(time.process_time() - start)
        longest = sheet.players[0].longest_path
    return min(times), longest


def search(board: Board, start: list[int], steps: int, rnd: random.Random) -> list[list[int]]:
    """Networks met by a local search for the slowest to score, the slowest last."""
    rs = board.rs
    current = start
    slowest, _ = score_time(rs, board.position(current), 3)
    met = [current]
    for _ in range(steps):
        trial = list(current)
        for _ in range(rnd.randint(1, 3)):
            trial.pop(rnd.randrange(len(trial)))
        trial = board.fill(trial, rnd)
        seconds, _ = score_time(rs, board.position(trial), 3)
        if seconds >= slowest:
            current, slowest = trial, seconds
            met.append(current)
    return met


class Timeout(Exception):
    """A comparison run stopped after ``--timeout`` seconds."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Timeout` in the body after ``seconds`` of wall time."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Timeout

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def load_longest_trail(path: str) -> LongestTrail:
    """``longest_trail`` of the ``graph.py`` at ``path``."""
    spec = importlib.util.spec_from_file_location("compared_graph", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    function: LongestTrail = module.longest_trail
    return function


def compared(
    rs: Ruleset, position: Position, other: LongestTrail, limit: float
) -> tuple[float | None, int | None]:
    """Seconds and longest path when scored with ``other`` (None for both on a timeout)."""
    network: Any = ttr_core.rules.network  # scoring calls the longest_trail it imported
    saved = network.longest_trail
    network.longest_trail = other
    try:
        with time_limit(limit):
            start = time.process_time()
            sheet = score_position(rs, position)
            return time.process_time() - start, sheet.players[0].longest_path
    except Timeout:
        return None, None
    finally:
        network.longest_trail = saved


def cycles(board: Board, tracks: Sequence[int]) -> int:
    """Independent cycles of the network: tracks minus cities plus pieces."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for r in tracks:
        a, b = board.ends[r]
        parent[find(a)] = find(b)
    cities = board.cities(tracks)
    return len(tracks) - len(cities) + len({find(c) for c in cities})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The slowest positions to score, by edition.")
    parser.add_argument("--editions", default=",".join(EDITIONS))
    parser.add_argument("--search", type=int, default=300, help="local search steps")
    parser.add_argument("--repeat", type=int, default=5, help="scorings per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", metavar="FILE", help="a graph.py to compare with")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds, for --compare")
    args = parser.parse_args(argv)
    other = load_longest_trail(args.compare) if args.compare else None
    for edition in args.editions.split(","):
        board = Board(edition)
        rs = board.rs
        rnd = random.Random(args.seed)
        candidates: list[tuple[str, list[int]]] = [
            (f"packed from {city.id}", board.packed(c)) for c, city in enumerate(rs.map.cities)
        ]
        slowest = max(candidates, key=lambda c: score_time(rs, board.position(c[1]), 3)[0])
        candidates += [("search", t) for t in search(board, slowest[1], args.search, rnd)]
        track_index = {t.id: r for r, t in enumerate(rs.map.routes)}
        candidates += [("found", [track_index[i] for i in ids]) for ids in FOUND.get(edition, ())]
        rows = []
        for kind, tracks in candidates:
            assert board.length(tracks) <= board.trains
            position = board.position(tracks)
            seconds, longest = score_time(rs, position, args.repeat)
            rows.append((seconds, longest, kind, tracks, position))
        rows.sort(key=lambda row: row[0])
        seconds, longest, kind, tracks, position = rows[-1]
        print(
            f"edition={edition} trains={board.trains} candidates={len(rows)}"
            f" median_ms={statistics.median(r[0] for r in rows) * 1000:.2f}"
            f" worst_ms={seconds * 1000:.2f} worst=({kind}: tracks={len(tracks)}"
            f" cities={len(board.cities(tracks))} cycles={cycles(board, tracks)}"
            f" longest={longest})",
            flush=True,
        )
        if other is None:
            continue
        worst_old: tuple[float, float] = (0.0, 0.0)  # its time, and the new one's
        timeouts = 0
        for seconds, longest, kind, _, position in rows:
            taken, value = compared(rs, position, other, args.timeout)
            if taken is None:
                timeouts += 1
                worst_old = max(worst_old, (args.timeout, seconds))
            else:
                assert value == longest, (edition, kind, value, longest)
                worst_old = max(worst_old, (taken, seconds))
        on_worst, _ = compared(rs, rows[-1][4], other, args.timeout)
        shown = "timeout" if on_worst is None else f"{on_worst * 1000:.1f}"
        print(
            f"  compare={args.compare} worst_ms={worst_old[0] * 1000:.1f}"
            f" (new: {worst_old[1] * 1000:.2f}) timeouts={timeouts}/{len(rows)}"
            f" (limit {args.timeout:g} s) on_new_worst_ms={shown}",
            flush=True,
        )


if __name__ == "__main__":
    main()
