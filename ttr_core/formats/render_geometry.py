"""Plane geometry for the map drawings: boxes, polygons, lines and the size of text.

Everything here is plain arithmetic on floats (``x`` to the right, ``y`` down), shared by
the track shapes, the placement of city names and the checks of both.
"""

from __future__ import annotations

import itertools
import math
import unicodedata
from collections.abc import Sequence

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""A rectangle with sides along the axes: left, top, right, bottom."""

# The advance widths of DejaVu Sans (the drawing's first font) for the printable ASCII
# characters (from the space to the tilde) and for Latin-1 (from the no-break space to ÿ),
# in thousandths of the font size.
_ASCII_WIDTHS = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
    1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
    603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
    500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
)  # fmt: skip
_LATIN1_WIDTHS = (
    318, 401, 636, 636, 636, 636, 337, 500, 500, 1000, 471, 612, 838, 0, 1000, 500,
    500, 838, 401, 401, 500, 636, 636, 318, 500, 401, 471, 612, 969, 969, 969, 531,
    684, 684, 684, 684, 684, 684, 974, 698, 632, 632, 632, 632, 295, 295, 295, 295,
    775, 748, 787, 787, 787, 787, 787, 838, 787, 732, 732, 732, 732, 611, 605, 630,
    613, 613, 613, 613, 613, 613, 982, 550, 615, 615, 615, 615, 278, 278, 278, 278,
    612, 634, 612, 612, 612, 612, 612, 838, 612, 634, 634, 634, 634, 592, 635, 592,
)  # fmt: skip
_OTHER_WIDTH = 0.68
"""The width assumed for a character of another script (generous: most are narrower)."""
_WIDE_WIDTH = 1.0
"""The width of a full-width character (CJK and the like)."""

TEXT_ASCENT = 0.76
"""How far a line of text reaches above its baseline, in font sizes."""
TEXT_DESCENT = 0.24
"""How far it reaches below (the tails of g, p, y), in font sizes."""


def char_width(ch: str) -> float:
    """The estimated advance width of one character, in font sizes.

    ASCII and Latin-1 have the widths of DejaVu Sans; another letter with accents is as
    wide as its base letter; a full-width character is one font size wide; anything else
    is a generous average, so that names rather overestimate than underestimate their
    extent.
    """
    code = ord(ch)
    if 32 <= code < 127:
        return _ASCII_WIDTHS[code - 32] / 1000
    if 0xA0 <= code <= 0xFF:
        return _LATIN1_WIDTHS[code - 0xA0] / 1000
    base = unicodedata.normalize("NFD", ch)[:1]
    if base != ch and base and 32 <= ord(base) < 127:
        return _ASCII_WIDTHS[ord(base) - 32] / 1000
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return _WIDE_WIDTH
    if unicodedata.category(ch).startswith(("M", "C")):
        return 0.0
    return _OTHER_WIDTH


def text_width(text: str, size: float) -> float:
    """The estimated width of ``text`` set at font size ``size``."""
    return size * sum(char_width(ch) for ch in text)


def text_box(x: float, baseline: float, text: str, size: float, anchor: str) -> Box:
    """The box a line of text takes: at ``x`` (its start, middle or end as ``anchor``
    says) with its baseline at ``baseline``."""
    width = text_width(text, size)
    left = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
    return (left, baseline - TEXT_ASCENT * size, left + width, baseline + TEXT_DESCENT * size)


def grow(box: Box, by: float) -> Box:
    """``box`` with every side moved out by ``by``."""
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def boxes_meet(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def box_overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def bounds(points: Sequence[Point]) -> Box:
    """The smallest box holding ``points``."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def rect_corners(x: float, y: float, length: float, width: float, angle: float) -> list[Point]:
    """The corners of a ``length`` by ``width`` rectangle centred on ``(x, y)`` whose
    length runs along ``angle`` (degrees)."""
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    hx, hy = ux * length / 2, uy * length / 2
    vx, vy = -uy * width / 2, ux * width / 2
    return [
        (x - hx - vx, y - hy - vy),
        (x + hx - vx, y + hy - vy),
        (x + hx + vx, y + hy + vy),
        (x - hx + vx, y - hy + vy),
    ]


def polygon_area(points: Sequence[Point]) -> float:
    """The area of a simple polygon (the shoelace formula)."""
    total = 0.0
    for i, (x0, y0) in enumerate(points):
        x1, y1 = points[(i + 1) % len(points)]
        total += x0 * y1 - x1 * y0
    return abs(total) / 2


def clip_to_box(points: Sequence[Point], box: Box) -> list[Point]:
    """The part of a convex polygon inside ``box`` (clipped against each side in turn)."""
    out = list(points)
    for axis, limit, keep_below in ((0, box[0], False), (0, box[2], True),
                                    (1, box[1], False), (1, box[3], True)):  # fmt: skip
        if not out:
            break
        clipped: list[Point] = []
        for i, p in enumerate(out):
            q = out[(i + 1) % len(out)]
            p_in = p[axis] <= limit if keep_below else p[axis] >= limit
            q_in = q[axis] <= limit if keep_below else q[axis] >= limit
            if p_in:
                clipped.append(p)
            if p_in != q_in:
                t = (limit - p[axis]) / (q[axis] - p[axis])
                clipped.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
        out = clipped
    return out


def area_in_box(points: Sequence[Point], box: Box) -> float:
    """The area of a convex polygon that lies inside ``box``."""
    inside = clip_to_box(points, box)
    return polygon_area(inside) if len(inside) >= 3 else 0.0


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """The distance from ``p`` to the segment from ``a`` to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / span))
    return math.hypot(p[0] - a[0] - dx * t, p[1] - a[1] - dy * t)


def point_line_distance(p: Point, line: Sequence[Point]) -> float:
    """The distance from ``p`` to a polyline."""
    return min(point_segment_distance(p, a, b) for a, b in itertools.pairwise(line))


def bezier(a: Point, control: Point, b: Point, pieces: int) -> list[Point]:
    """A quadratic Bézier curve from ``a`` to ``b`` pulled towards ``control``, as a
    polyline of ``pieces`` segments."""
    out = []
    for i in range(pieces + 1):
        t = i / pieces
        s = 1 - t
        out.append(
            (
                s * s * a[0] + 2 * s * t * control[0] + t * t * b[0],
                s * s * a[1] + 2 * s * t * control[1] + t * t * b[1],
            )
        )
    return out


def offset_line(line: Sequence[Point], by: float) -> list[Point]:
    """A polyline moved sideways by ``by``, each vertex along the normal ``(-dy, dx)`` of
    the line's direction ``(dx, dy)`` there."""
    out = []
    last = len(line) - 1
    for i, (x, y) in enumerate(line):
        (ax, ay), (bx, by_) = line[max(i - 1, 0)], line[min(i + 1, last)]
        dx, dy = bx - ax, by_ - ay
        d = math.hypot(dx, dy) or 1.0
        out.append((x - dy / d * by, y + dx / d * by))
    return out


def line_length(line: Sequence[Point]) -> float:
    """The length of a polyline."""
    return sum(math.dist(a, b) for a, b in itertools.pairwise(line))


def point_along(line: Sequence[Point], at: float) -> tuple[Point, float]:
    """The point ``at`` along a polyline from its start, and the direction of the line
    there in degrees."""
    left = at
    last = len(line) - 2
    for i, (a, b) in enumerate(itertools.pairwise(line)):
        step = math.dist(a, b)
        if left <= step or i == last:
            t = 0.0 if step == 0 else min(max(left / step, 0.0), 1.0)
            point = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            return point, math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
        left -= step
    raise ValueError("a polyline has at least two points")


def resample(line: Sequence[Point], distances: Sequence[float]) -> list[Point]:
    """The points of a polyline at each of ``distances`` (ascending) from its start."""
    out = []
    i, start = 0, 0.0
    last = len(line) - 2
    step = math.dist(line[0], line[1])
    for at in distances:
        while at > start + step and i < last:
            start += step
            i += 1
            step = math.dist(line[i], line[i + 1])
        t = 0.0 if step == 0 else min(max((at - start) / step, 0.0), 1.0)
        a, b = line[i], line[i + 1]
        out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    return out
