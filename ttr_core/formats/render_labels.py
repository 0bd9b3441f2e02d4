"""Where each city's name goes on a map drawing: beside its dot, off the tracks.

Every name has candidate places around its city: sixteen directions at three distances.
Each candidate's box is estimated from the text and the font size
([`text_box`][ttr_core.formats.render_geometry.text_box]) and scored by what it would
hide: the area of track spaces under it, the other cities' dots and the names already
placed, and a little for being far from its city or in a less usual direction. The names
with the fewest free places are placed first, each in its best place; then each name in
turn moves to its best place given all the others, until none moves. The same map always
gets the same places.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from attrs import frozen

from ttr_core.formats.render_geometry import (
    TEXT_ASCENT,
    TEXT_DESCENT,
    Box,
    Point,
    area_in_box,
    bounds,
    box_overlap,
    boxes_meet,
    grow,
    text_width,
)

DIRECTIONS = (
    0.0, 180.0, -90.0, 90.0, -45.0, -135.0, 45.0, 135.0,
    -22.5, -157.5, 22.5, 157.5, -67.5, -112.5, 67.5, 112.5,
)  # fmt: skip
"""The directions a name may lie in from its city, in degrees from the x axis (y down),
the more usual first."""
GAPS = (0.04, 0.16, 0.28, 0.4)
"""How far a name may lie beyond its city's mark, in spaces (the map's unit)."""

_TRACK_AREA = 6.0
"""The cost of hiding track spaces, per square of the track's width."""
_TRACK_TOUCH = 3.0
"""The cost of touching any track at all."""
_DOT = 40.0
"""The cost of covering another city."""
_NAME = 40.0
"""The cost of covering another name."""
_AMBIGUOUS = 12.0
"""The cost of lying about as near another city as one's own."""
_AMBIGUITY = 0.25
"""How much nearer, in spaces, a name must be to its own city than to any other."""
_FAR = 0.9
"""The cost of each step further from the city."""
_TURN = 0.03
"""The cost of each step down the list of directions."""
_PASSES = 6


@frozen
class Label:
    """A placed name: its text's anchor point (``x`` and the baseline ``y``), its
    ``text-anchor`` and the box it takes."""

    x: float
    y: float
    anchor: str
    box: Box


@frozen
class LabelSizes:
    """The dimensions placement depends on, in map units."""

    font: float
    unit: float
    """The map's length of one space."""
    thick: float
    """The width of a space."""
    pad: float
    """The room kept free around a name."""


def place_labels(
    points: Sequence[Point],
    texts: Sequence[str],
    reaches: Sequence[float],
    first: Sequence[float | None],
    spaces: Sequence[Sequence[Point]],
    sizes: LabelSizes,
) -> tuple[Label, ...]:
    """The place of each city's name.

    :param points: the cities' centres.
    :param texts: each city's name as shown.
    :param reaches: how far each city's mark (its dot or arrow) reaches from its centre.
    :param first: a direction to try before all others for each city, or None.
    :param spaces: the corners of every track space drawn.

    The last few maps' places are kept, so drawing a map again costs little.
    """
    return _place(
        tuple(points),
        tuple(texts),
        tuple(reaches),
        tuple(first),
        tuple(tuple(s) for s in spaces),
        sizes,
    )


@functools.lru_cache(maxsize=32)
def _place(
    points: tuple[Point, ...],
    texts: tuple[str, ...],
    reaches: tuple[float, ...],
    first: tuple[float | None, ...],
    spaces: tuple[tuple[Point, ...], ...],
    sizes: LabelSizes,
) -> tuple[Label, ...]:
    placer = _Placer(points, texts, reaches, first, spaces, sizes)
    return placer.place()


class _Placer:
    """The candidates of every name, their fixed costs, and the search."""

    def __init__(
        self,
        points: tuple[Point, ...],
        texts: tuple[str, ...],
        reaches: tuple[float, ...],
        first: tuple[float | None, ...],
        spaces: tuple[tuple[Point, ...], ...],
        sizes: LabelSizes,
    ) -> None:
        self.sizes = sizes
        self.cell = sizes.unit
        self.grid: dict[tuple[int, int], list[int]] = {}
        self.space_boxes = [bounds(s) for s in spaces]
        self.spaces = spaces
        for i, box in enumerate(self.space_boxes):
            for key in self._cells(box):
                self.grid.setdefault(key, []).append(i)
        self.points = points
        self.dots = [
            (p[0] - r, p[1] - r, p[0] + r, p[1] + r) for p, r in zip(points, reaches, strict=True)
        ]
        self.candidates: list[list[tuple[float, Label]]] = []
        """Each city's candidates with the part of their cost that other names do not
        change, best first."""
        for c, p in enumerate(points):
            preferred = first[c]
            ways = DIRECTIONS if preferred is None else (preferred, *DIRECTIONS)
            options = []
            for step, gap in enumerate(GAPS):
                for turn, direction in enumerate(ways):
                    label = self._candidate(p, texts[c], reaches[c] + gap * sizes.unit, direction)
                    cost = self._fixed_cost(c, label.box) + _FAR * step + _TURN * turn
                    cost += self._ambiguity(c, label.box)
                    options.append((cost, label))
            options.sort(key=lambda o: o[0])  # stable: ties keep the order of preference
            self.candidates.append(options)

    def place(self) -> tuple[Label, ...]:
        """Greedy placement, then moves of single names while any improves."""
        count = len(self.candidates)
        chosen: list[Label | None] = [None] * count
        free = [sum(1 for cost, _ in options if cost < 1) for options in self.candidates]
        for c in sorted(range(count), key=lambda c: (free[c], c)):
            chosen[c] = self._best(c, chosen)
        for _ in range(_PASSES):
            moved = False
            for c in range(count):
                best = self._best(c, chosen)
                if best != chosen[c]:
                    chosen[c] = best
                    moved = True
            if not moved:
                break
        return tuple(label for label in chosen if label is not None)

    def _best(self, c: int, chosen: Sequence[Label | None]) -> Label:
        """City ``c``'s candidate of least cost with the other names where they are."""
        others = [
            grow(label.box, self.sizes.pad)
            for o, label in enumerate(chosen)
            if label is not None and o != c
        ]
        best: tuple[float, Label] | None = None
        for fixed, label in self.candidates[c]:
            if best is not None and fixed >= best[0]:
                break  # the rest cost at least this much before the names are counted
            cost = fixed + sum(
                _NAME + box_overlap(label.box, box) / self.sizes.font**2
                for box in others
                if boxes_meet(label.box, box)
            )
            if best is None or cost < best[0]:
                best = (cost, label)
        assert best is not None, "every name has candidates"
        return best[1]

    def _candidate(self, p: Point, text: str, distance: float, direction: float) -> Label:
        """The name ``text`` with its nearest side ``distance`` from ``p`` in
        ``direction``."""
        font = self.sizes.font
        width = text_width(text, font)
        height = (TEXT_ASCENT + TEXT_DESCENT) * font
        cos, sin = math.cos(math.radians(direction)), math.sin(math.radians(direction))
        reach = distance + abs(cos) * width / 2 + abs(sin) * height / 2
        cx, cy = p[0] + cos * reach, p[1] + sin * reach
        box = (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
        anchor = "start" if cos > 0.38 else "end" if cos < -0.38 else "middle"
        x = box[0] if anchor == "start" else box[2] if anchor == "end" else cx
        return Label(x=x, y=box[3] - TEXT_DESCENT * font, anchor=anchor, box=box)

    def _fixed_cost(self, c: int, box: Box) -> float:
        """What a name at ``box`` hides besides other names: tracks and cities."""
        wide = grow(box, self.sizes.pad)
        cost = 0.0
        near: set[int] = set()
        for key in self._cells(wide):
            near.update(self.grid.get(key, ()))
        square = self.sizes.thick**2
        touched = False
        for i in sorted(near):
            if boxes_meet(self.space_boxes[i], wide):
                area = area_in_box(self.spaces[i], wide)
                if area > 0:
                    touched = True
                    cost += _TRACK_AREA * area / square
        if touched:
            cost += _TRACK_TOUCH
        for o, dot in enumerate(self.dots):
            if o != c and boxes_meet(dot, wide):
                cost += _DOT
        return cost

    def _ambiguity(self, c: int, box: Box) -> float:
        """The cost of a name at ``box`` seeming to name another city than ``c``."""
        own = _distance(self.points[c], box) + _AMBIGUITY * self.sizes.unit
        for o, p in enumerate(self.points):
            near = abs(p[0] - (box[0] + box[2]) / 2) < own + (box[2] - box[0]) / 2
            if o != c and near and _distance(p, box) < own:
                return _AMBIGUOUS
        return 0.0

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        x0, y0 = math.floor(box[0] / self.cell), math.floor(box[1] / self.cell)
        x1, y1 = math.floor(box[2] / self.cell), math.floor(box[3] / self.cell)
        return [(i, j) for i in range(x0, x1 + 1) for j in range(y0, y1 + 1)]


def _distance(p: Point, box: Box) -> float:
    """The distance from ``p`` to the nearest point of ``box``."""
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)
