"""The layout of the map drawings, measured on the SVG they give: city names off the
tracks, off each other and near their own cities; curves where straight tracks would run
over others; and the estimate of text widths the layout relies on."""

from __future__ import annotations

import functools
import math
import xml.etree.ElementTree as ET

import pytest
from render_measure import (
    SVG,
    convex_overlap,
    crossing_tracks,
    drawn_names,
    drawn_spaces,
    hidden_tracks,
)

from ttr_core.formats.render import draw_map
from ttr_core.formats.render_geometry import (
    area_in_box,
    bounds,
    boxes_meet,
    char_width,
    grow,
    rect_corners,
    text_box,
    text_width,
)
from ttr_core.formats.render_shapes import BOWS
from ttr_core.ruleset.editions import installed_editions
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing import ruleset

EDITIONS = sorted(installed_editions())

HIDDEN_BOUNDS = {
    "usa": (2, 0.25),
    "europe": (0, 0.0),
    "india": (5, 0.4),
    "switzerland": (3, 0.1),
    "nordic": (1, 0.05),
}
"""For each built-in map, the most names that may touch a track space, and the most track
length, in spaces, that all names together may cover. Drawn straight with each name in
the first of eight directions that crossed the fewest track lines, the maps had 19, 23,
24, 19 and 13 names on tracks, covering 6.6, 5.8, 4.0, 3.3 and 2.4 spaces."""


@functools.cache
def drawing(edition: str) -> tuple[Ruleset, ET.Element]:
    """The ruleset of ``edition`` and its drawing (drawn once: the tests only read it)."""
    rs = ruleset(edition)
    return rs, ET.fromstring(draw_map(rs))


def unit(root: ET.Element) -> float:
    """The map's length of a space: the width of a space is 0.26 of it."""
    return drawn_spaces(root)[0].width / 0.26


@pytest.mark.parametrize("edition", sorted(HIDDEN_BOUNDS))
def test_city_names_leave_the_tracks_clear(edition: str) -> None:
    """Few names touch a track on each built-in map, and together they hide at most a
    fraction of a space: the measure is the area of track spaces inside the names' boxes,
    over the width of a space, in spaces."""
    _, root = drawing(edition)
    hidden = hidden_tracks(root)
    most_names, most_length = HIDDEN_BOUNDS[edition]
    assert len(hidden.names) <= most_names, hidden.names
    assert hidden.length / unit(root) <= most_length


@pytest.mark.parametrize("edition", EDITIONS)
def test_names_cover_no_other_name_and_no_other_city(edition: str) -> None:
    rs, root = drawing(edition)
    names = drawn_names(root)
    assert len(names) == len(rs.map.cities)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not boxes_meet(a.box, b.box), (a.city, b.city)
    marks = {
        f"city-{city.id}": bounds([(c.x, c.y) for c in rs.map.cities if c.id == city.id])
        for city in rs.map.cities
    }
    radius = 0.12 * unit(root)
    for name in names:
        for city, mark in marks.items():
            if city != name.city:
                assert not boxes_meet(grow(mark, radius), name.box), (name.city, city)


@pytest.mark.parametrize("edition", sorted(HIDDEN_BOUNDS))
def test_each_name_lies_nearer_its_own_city_than_any_other(edition: str) -> None:
    """A name is read as the name of the nearest city: its box is nearer its own city's
    centre than any other city's centre."""
    rs, root = drawing(edition)
    centres = {f"city-{c.id}": (float(c.x), float(c.y)) for c in rs.map.cities}
    for name in drawn_names(root):
        own = _distance(centres[name.city], name.box)
        for city, centre in centres.items():
            if city != name.city:
                assert own < _distance(centre, name.box), (name.city, city)


def _distance(p: tuple[float, float], box: tuple[float, float, float, float]) -> float:
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_track_runs_over_a_city_it_does_not_join(edition: str) -> None:
    rs, root = drawing(edition)
    radius = 0.12 * unit(root)
    joins = {f"route-{t.id}": set(t.cities) for t in rs.map.routes}
    for space in drawn_spaces(root):
        for city in rs.map.cities:
            if city.id in joins[space.track]:
                continue
            dot = (city.x - radius, city.y - radius, city.x + radius, city.y + radius)
            assert area_in_box(space.corners, dot) < 0.1 * radius * radius, (
                space.track,
                city.id,
            )


def test_india_coastal_ferries_are_curves_clear_of_the_tracks_they_cut_straight() -> None:
    """Bombay–Calicut, Bombay–Karachi (both tracks) and Calcutta–Madras, drawn straight,
    cut across 8 other tracks; bowed out to sea, they touch only a track they meet at one
    of their own cities."""
    rs, root = drawing("india")
    tracks = {t.id: t for t in rs.map.routes}
    twins = {f"route-{t.id}": f"route-{t.parallel}" for t in rs.map.routes if t.parallel}
    crossed = crossing_tracks(root, twins)
    groups = {g.get("id"): g for g in root.iter(f"{SVG}g")}
    for track_id in (42, 43, 44, 52):
        track = tracks[track_id]
        assert track.ferry and groups[f"route-{track_id}"].get("data-bow") is not None
        for other in crossed.get(f"route-{track_id}", set()):
            shared = set(tracks[int(other.removeprefix("route-"))].cities) & set(track.cities)
            assert shared, (track_id, other)
    assert sum(len(crossed.get(f"route-{t}", ())) for t in (42, 43, 44, 52)) <= 1


def test_a_bowed_track_follows_its_curve_and_a_double_bows_as_one() -> None:
    """The spaces of a bowed track lie on a curve whose middle is its bow times the
    distance between its cities away from the straight line; both tracks of a double
    route take the same bow."""
    bowed = 0
    for edition in sorted(HIDDEN_BOUNDS):
        rs, root = drawing(edition)
        groups = {g.get("id", ""): g for g in root.iter(f"{SVG}g")}
        cities = {c.id: (float(c.x), float(c.y)) for c in rs.map.cities}
        spaces: dict[str, list[tuple[float, float]]] = {}
        for space in drawn_spaces(root):
            xs = [p[0] for p in space.corners]
            ys = [p[1] for p in space.corners]
            spaces.setdefault(space.track, []).append((sum(xs) / 4, sum(ys) / 4))
        for track in rs.map.routes:
            bow = groups[f"route-{track.id}"].get("data-bow")
            if track.parallel is not None:
                assert bow == groups[f"route-{track.parallel}"].get("data-bow")
            if bow is None or track.parallel is not None or track.length % 2 == 0:
                continue
            bowed += 1
            assert float(bow) in BOWS
            (ax, ay), (bx, by) = sorted(cities[c] for c in track.cities)
            middle = spaces[f"route-{track.id}"][track.length // 2]
            chord = math.dist((ax, ay), (bx, by))
            off = abs((bx - ax) * (middle[1] - ay) - (by - ay) * (middle[0] - ax)) / chord
            assert off == pytest.approx(abs(float(bow)) * chord, rel=0.05), track.id
    assert bowed >= 3


def test_the_width_estimate_follows_the_font() -> None:
    """The estimated width of every city name is never below its width in DejaVu Sans,
    the drawing's first font, by more than 1%, nor above it by more than 8% (the font
    kerns a few pairs, such as ``Tu``)."""
    image_font = pytest.importorskip("PIL.ImageFont")
    try:
        font = image_font.truetype("DejaVuSans.ttf", 1000)
    except OSError:
        pytest.skip("DejaVu Sans is not installed")
    for edition in EDITIONS:
        for city in ruleset(edition).map.cities:
            name = city.country or city.id
            real = font.getlength(name)
            guess = text_width(name, 1000)
            assert real * 0.99 <= guess <= real * 1.08, (name, real, guess)


def test_unusual_characters_get_a_width() -> None:
    """Accented letters are as wide as their base letter, full-width characters one font
    size, marks nothing, and any other character a generous average."""
    assert char_width("ő") == char_width("o")
    assert char_width("東") == 1.0
    assert char_width("\u0301") == 0.0
    assert 0.5 < char_width("Ж") <= 1.0


def test_the_measures_are_right_on_simple_shapes() -> None:
    """The area of a rectangle inside a box, and of two rectangles' overlap, as worked
    out by hand: the tools the measures above rely on."""
    square = rect_corners(0.0, 0.0, 2.0, 2.0, 0.0)
    assert area_in_box(square, (0.0, 0.0, 5.0, 5.0)) == pytest.approx(1.0)
    assert area_in_box(square, (3.0, 3.0, 5.0, 5.0)) == 0.0
    diamond = rect_corners(0.0, 0.0, 2.0, 2.0, 45.0)
    assert area_in_box(diamond, (-5.0, -5.0, 5.0, 5.0)) == pytest.approx(4.0)
    assert area_in_box(diamond, (0.0, -5.0, 5.0, 5.0)) == pytest.approx(2.0)
    shifted = tuple(rect_corners(1.0, 1.0, 2.0, 2.0, 0.0))
    assert convex_overlap(tuple(square), shifted) == pytest.approx(1.0)
    assert convex_overlap(tuple(square), tuple(diamond)) == pytest.approx(8 * (2**0.5 - 1))
    assert text_box(10.0, 20.0, "ab", 10.0, "end")[2] == 10.0
