"""The shape of each track on a map drawing: a straight line, or a curve where a straight
line would run over other tracks or cities.

Map data gives only the two cities of a track, so a track is drawn straight between them
unless that hides something: a long ferry along a coast, for example, cuts straight
across the tracks and cities of the coast it follows on the board. Such a track is bowed
into a gentle curve (a quadratic Bézier) to the side where it meets the least, bowed as
little as will do. The choice is made greedily, the tracks that cover the most first,
and is the same for the same map every time. Both tracks of a double route take the same
curve, side by side.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from attrs import frozen

from ttr_core.formats.render_geometry import (
    Point,
    bezier,
    line_length,
    offset_line,
    point_along,
    resample,
)

BOWS = (0.0, 0.07, -0.07, 0.14, -0.14, 0.21, -0.21, 0.28, -0.28)
"""The bows a track may take: how far the middle of the curve lies from the straight line,
as a share of the distance between its cities (positive: to the left going from the city
of lower index to the other), in the order they are preferred."""

_PIECES = 24
"""Segments of the polyline that stands for a curve."""
_CITY_HIT = 4.0
"""The cost of running over a city, in samples of overlap with another track."""
_BEND = 1.5
"""The cost of bowing a track at all, so that only a real gain bends it."""
_BEND_PER_BOW = 12.0
"""The further cost of each unit of bow."""
_PASSES = 2


@frozen
class Space:
    """One space of a track: its centre, its length along the track, its direction in
    degrees."""

    x: float
    y: float
    length: float
    angle: float


@frozen
class TrackShape:
    """How one track is drawn: its bow (0 for straight), the centre line of its spaces and
    the spaces themselves."""

    bow: float
    line: tuple[Point, ...]
    spaces: tuple[Space, ...]


@frozen
class Sizes:
    """The dimensions the shapes depend on, in map units."""

    thick: float
    """The width of a space."""
    side: float
    """How far each track of a double route lies from the line between its cities."""
    clear: float
    """The room left free around a city at each end of a track."""
    gap: float
    """The room between two spaces."""
    radius: float
    """The radius of a city's dot."""


def track_shapes(
    points: Sequence[Point],
    ends: Sequence[tuple[int, int]],
    twins: Sequence[int],
    lengths: Sequence[int],
    sizes: Sizes,
) -> tuple[TrackShape, ...]:
    """The shape of every track: ``ends`` are the city indices of each track, ``twins``
    the other track of each double route (-1 for none), ``lengths`` its spaces.

    The last few maps' shapes are kept, so drawing a map again costs little.
    """
    return _shapes(tuple(points), tuple(ends), tuple(twins), tuple(lengths), sizes)


@functools.lru_cache(maxsize=32)
def _shapes(
    points: tuple[Point, ...],
    ends: tuple[tuple[int, int], ...],
    twins: tuple[int, ...],
    lengths: tuple[int, ...],
    sizes: Sizes,
) -> tuple[TrackShape, ...]:
    planner = _Planner(points, ends, twins, lengths, sizes)
    planner.plan()
    return tuple(planner.shape(r, planner.bows[r]) for r in range(len(ends)))


class _Planner:
    """The greedy choice of bows, over a grid of points sampled along every track."""

    def __init__(
        self,
        points: Sequence[Point],
        ends: Sequence[tuple[int, int]],
        twins: Sequence[int],
        lengths: Sequence[int],
        sizes: Sizes,
    ) -> None:
        self.points = points
        self.ends = ends
        self.twins = twins
        self.lengths = lengths
        self.sizes = sizes
        self.hit = sizes.radius + sizes.thick / 2
        """How near a track may come to a city's centre before it runs over the city."""
        self.cell = max(sizes.thick, self.hit)
        self.bows = [0.0] * len(ends)
        self.sampled: dict[tuple[int, float], list[Point]] = {}
        self.samples = [self._samples(r, 0.0) for r in range(len(ends))]
        self.grid: dict[tuple[int, int], list[tuple[int, float, float]]] = {}
        """The samples of every track (``r``) and the cities (``-1 - c``), by cell."""
        for r, samples in enumerate(self.samples):
            self._enter(r, samples)
        for c, (x, y) in enumerate(points):
            self.grid.setdefault(self._key((x, y)), []).append((-1 - c, x, y))

    def plan(self) -> None:
        """Bow the tracks that hide others, the worst first, in a few passes."""
        units = [r for r in range(len(self.ends)) if self.twins[r] < 0 or r < self.twins[r]]
        least = _BEND + _BEND_PER_BOW * min(abs(b) for b in BOWS if b)
        for _ in range(_PASSES):
            costs = {r: self._unit_cost(r) for r in units}
            changed = False
            worst = sorted((r for r in units if costs[r] > least), key=lambda r: (-costs[r], r))
            for r in worst:
                if self._improve(r):
                    changed = True
            if not changed:
                break

    def shape(self, r: int, bow: float) -> TrackShape:
        """Track ``r`` drawn with ``bow``."""
        line = self._line(r, bow)
        total = line_length(line)
        clear = min(self.sizes.clear, total * 0.3)
        count = self.lengths[r]
        pitch = (total - 2 * clear) / count
        length = pitch - min(self.sizes.gap, pitch * 0.25)
        spaces = []
        for i in range(count):
            (x, y), angle = point_along(line, clear + pitch * (i + 0.5))
            spaces.append(Space(x=x, y=y, length=length, angle=angle))
        return TrackShape(bow=bow, line=tuple(line), spaces=tuple(spaces))

    # -- the cost of a choice -------------------------------------------------------------

    def _improve(self, r: int) -> bool:
        """Give track ``r`` (and its twin) the bow of least cost; whether it changed."""
        members = [r] if self.twins[r] < 0 else [r, self.twins[r]]
        old = self.bows[r]
        for m in members:
            self._leave(m)
        best: tuple[float, float] | None = None
        for bow in BOWS:
            trial = [self._samples(m, bow) for m in members]
            cost = sum(self._cost(m, s, members) for m, s in zip(members, trial, strict=True))
            if bow:
                cost += _BEND + _BEND_PER_BOW * abs(bow)
            if best is None or cost < best[0] - 1e-9:
                best = (cost, bow)
        assert best is not None, "there is always a bow to choose"
        for m in members:
            self.bows[m] = best[1]
            self.samples[m] = self._samples(m, best[1])
            self._enter(m, self.samples[m])
        return best[1] != old

    def _unit_cost(self, r: int) -> float:
        members = [r] if self.twins[r] < 0 else [r, self.twins[r]]
        return sum(self._cost(m, self.samples[m], members) for m in members)

    def _cost(self, r: int, samples: Sequence[Point], skip: Sequence[int]) -> float:
        """How much of track ``r`` drawn through ``samples`` lies on other tracks (not
        those in ``skip``) and on cities other than its own."""
        reach, hit = self.sizes.thick, self.hit
        a, b = self.ends[r]
        ignored = {*skip, -1 - a, -1 - b}
        cost = 0.0
        grid, cell = self.grid, self.cell
        for x, y in samples:
            kx, ky = math.floor(x / cell), math.floor(y / cell)
            covered = False
            for key in ((kx + i, ky + j) for i in (-1, 0, 1) for j in (-1, 0, 1)):
                for other, ox, oy in grid.get(key, ()):
                    if other in ignored:
                        continue
                    if other < 0:
                        if math.hypot(ox - x, oy - y) < hit:
                            cost += _CITY_HIT
                    elif not covered and math.hypot(ox - x, oy - y) < reach:
                        covered = True
                        cost += 1
        return cost

    # -- lines and samples ----------------------------------------------------------------

    def _line(self, r: int, bow: float) -> list[Point]:
        a, b = sorted(self.ends[r])  # both tracks of a double alike
        pa, pb = self.points[a], self.points[b]
        if bow:
            d = math.dist(pa, pb)
            ux, uy = (pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d
            pull = 2 * bow * d  # the middle of the curve lies halfway to its control point
            control = ((pa[0] + pb[0]) / 2 - uy * pull, (pa[1] + pb[1]) / 2 + ux * pull)
            base = bezier(pa, control, pb, _PIECES)
        else:
            base = [pa, pb]
        twin = self.twins[r]
        if twin < 0:
            return base
        return offset_line(base, -self.sizes.side if r < twin else self.sizes.side)

    def _samples(self, r: int, bow: float) -> list[Point]:
        """Points every half space width along the drawn part of track ``r``."""
        known = self.sampled.get((r, bow))
        if known is not None:
            return known
        line = self._line(r, bow)
        total = line_length(line)
        clear = min(self.sizes.clear, total * 0.3)
        count = max(int((total - 2 * clear) / (self.sizes.thick / 2)), 1)
        span = (total - 2 * clear) / count
        out = resample(line, [clear + span * i for i in range(count + 1)])
        self.sampled[(r, bow)] = out
        return out

    def _key(self, p: Point) -> tuple[int, int]:
        return math.floor(p[0] / self.cell), math.floor(p[1] / self.cell)

    def _enter(self, r: int, samples: Sequence[Point]) -> None:
        for x, y in samples:
            self.grid.setdefault(self._key((x, y)), []).append((r, x, y))

    def _leave(self, r: int) -> None:
        for p in self.samples[r]:
            key = self._key(p)
            self.grid[key] = [e for e in self.grid[key] if e[0] != r]
