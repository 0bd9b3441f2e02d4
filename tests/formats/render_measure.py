"""Measures of a drawn map, read back from its SVG: where the track spaces and the city
names are, and how much of the tracks the names hide."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from attrs import frozen

from ttr_core.formats.render_geometry import (
    Box,
    Point,
    area_in_box,
    bounds,
    boxes_meet,
    polygon_area,
    rect_corners,
    text_box,
)

SVG = "{http://www.w3.org/2000/svg}"
_PLACE = re.compile(r"translate\(([-\d.]+) ([-\d.]+)\) rotate\(([-\d.]+)\)")


@frozen
class DrawnSpace:
    """One space as drawn: the track it belongs to and its corners."""

    track: str
    corners: tuple[Point, ...]
    width: float


@frozen
class DrawnName:
    """One city name as drawn: the city element's id, the text and its estimated box."""

    city: str
    text: str
    box: Box


def drawn_spaces(root: ET.Element) -> list[DrawnSpace]:
    """Every track space of a drawing, from the rectangles of its ``route`` groups."""
    out = []
    for group in root.iter(f"{SVG}g"):
        if "route" not in group.get("class", "").split():
            continue
        for rect in group.findall(f"{SVG}rect"):
            found = _PLACE.fullmatch(rect.get("transform", ""))
            assert found, rect.attrib
            x, y, angle = (float(v) for v in found.groups())
            length, width = float(rect.get("width", "0")), float(rect.get("height", "0"))
            corners = rect_corners(x, y, length, width, angle)
            out.append(DrawnSpace(group.get("id", ""), tuple(corners), width))
    return out


def drawn_names(root: ET.Element) -> list[DrawnName]:
    """Every city's name (the text that is not its halo), with the box it takes."""
    out = []
    for group in root.iter(f"{SVG}g"):
        if "city" not in group.get("class", "").split():
            continue
        for text in group.findall(f"{SVG}text"):
            if text.get("class") == "halo":
                continue
            x, y = float(text.get("x", "0")), float(text.get("y", "0"))
            size = float(text.get("font-size", "0"))
            anchor = text.get("text-anchor", "start")
            box = text_box(x, y, text.text or "", size, anchor)
            out.append(DrawnName(group.get("id", ""), text.text or "", box))
    return out


@frozen
class Hidden:
    """How much of the tracks the names hide: the names that cover any part of a space
    (more than a hundredth of a space's width squared), and the total length of track
    under names (the area of spaces inside name boxes over the width of a space)."""

    names: tuple[str, ...]
    length: float
    space_width: float


def hidden_tracks(root: ET.Element) -> Hidden:
    """The part of the tracks the city names of a drawing cover."""
    spaces = drawn_spaces(root)
    boxes = [bounds(s.corners) for s in spaces]
    width = spaces[0].width
    touched = []
    total = 0.0
    for name in drawn_names(root):
        area = sum(
            area_in_box(s.corners, name.box)
            for s, b in zip(spaces, boxes, strict=True)
            if boxes_meet(b, name.box)
        )
        total += area
        if area > 0.01 * width * width:
            touched.append(name.city)
    return Hidden(names=tuple(touched), length=total / width, space_width=width)


def convex_overlap(a: tuple[Point, ...], b: tuple[Point, ...]) -> float:
    """The area two convex polygons (corners in order) share."""
    inside = list(a)
    for i, p in enumerate(b):
        q = b[(i + 1) % len(b)]
        if not inside:
            return 0.0
        inside = _keep_left(inside, p, q, _orientation(b))
    return polygon_area(inside) if len(inside) >= 3 else 0.0


def _orientation(poly: tuple[Point, ...]) -> float:
    total = 0.0
    for i, (x0, y0) in enumerate(poly):
        x1, y1 = poly[(i + 1) % len(poly)]
        total += x0 * y1 - x1 * y0
    return 1.0 if total > 0 else -1.0


def _keep_left(poly: list[Point], p: Point, q: Point, sign: float) -> list[Point]:
    """The part of ``poly`` on the inner side of the edge from ``p`` to ``q``."""

    def side(r: Point) -> float:
        return sign * ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))

    out: list[Point] = []
    for i, r in enumerate(poly):
        s = poly[(i + 1) % len(poly)]
        r_in, s_in = side(r) >= 0, side(s) >= 0
        if r_in:
            out.append(r)
        if r_in != s_in:
            t = side(r) / (side(r) - side(s))
            out.append((r[0] + (s[0] - r[0]) * t, r[1] + (s[1] - r[1]) * t))
    return out


def crossing_tracks(root: ET.Element, twins: dict[str, str]) -> dict[str, set[str]]:
    """For each track, the other tracks (not its twin) whose spaces overlap its own by
    more than a tenth of a space's width squared."""
    spaces = drawn_spaces(root)
    boxes = [bounds(s.corners) for s in spaces]
    out: dict[str, set[str]] = {}
    for i, a in enumerate(spaces):
        for j in range(i + 1, len(spaces)):
            b = spaces[j]
            if a.track == b.track or twins.get(a.track) == b.track:
                continue
            if not boxes_meet(boxes[i], boxes[j]):
                continue
            if convex_overlap(a.corners, b.corners) > 0.1 * a.width * a.width:
                out.setdefault(a.track, set()).add(b.track)
                out.setdefault(b.track, set()).add(a.track)
    return out
