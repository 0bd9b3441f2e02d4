"""Maps drawn as SVG from the city coordinates of the map data.

[`draw_map`][] draws an edition's map: the cities as labelled dots (border arrows as
arrows named by their country), every track as one rectangle per space in its colour,
the two tracks of a double route side by side, tunnels with a dashed outline, ferries with
one locomotive symbol per locomotive they demand, and tracks that take groups of any cards
with the size of the group in each space. Given a game state or an end-of-game position,
it also shows each claimed track in its owner's colour (the others fade) and each station
in its owner's colour, and given the final scoring, the score sheet beside the map.
[`draw_heatmap`][] colours every track, and optionally every city, by a value from 0 to 1
instead, with the scale in the legend.

A track is straight unless a straight line would run over other tracks or cities; then it
bows into a curve (``ttr_core.formats.render_shapes``). Each city's name goes where it
hides the least (``ttr_core.formats.render_labels``).

The markup is a contract that programs and style sheets can rely on:

* every track is a ``<g id="route-<track id>">`` of class ``route`` (with ``tunnel``,
  ``ferry``, ``card-groups`` or ``double`` as they apply) holding one ``<rect>`` per space;
  a claimed track carries ``data-owner="<seat>"``, a track with a heatmap value
  ``data-value``, a curved track ``data-bow`` (how far the middle of the curve lies from
  the straight line, as a share of the distance between its cities);
* every city is a ``<g id="city-<city id>">`` of class ``city`` (``city border-arrow`` for
  a border arrow), the city id written as in the map data (it may hold spaces and letters
  of any script); a station is an element of class ``station`` inside it, with
  ``data-owner``; its name is the text of class ``name`` (over a ``halo``);
* the score sheet is a ``<g id="scores">`` holding a ``<g class="player-score">`` with
  ``data-seat`` for each player;
* each of them has a ``<title>`` in words, which viewers show as a tooltip.

The drawing uses the map's own coordinates (``x`` to the right, ``y`` down, as on a
picture of the board) and sizes everything from the median distance per space, so any
scale works. The same input always gives the same text, byte for byte. Only the standard
library is needed.
"""

from __future__ import annotations

import math
import numbers
import statistics
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from attrs import frozen

from ttr_core.formats.render_geometry import rect_corners, text_width
from ttr_core.formats.render_labels import LabelSizes, place_labels
from ttr_core.formats.render_scores import ScoreStyle, draw_score_panel
from ttr_core.formats.render_shapes import Sizes, track_shapes
from ttr_core.model.errors import RenderError, quote
from ttr_core.model.state import GameState
from ttr_core.rules.scoring import Position, Scoresheet
from ttr_core.ruleset.ruleset import Ruleset

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

ROUTE_COLORS: Mapping[str, str] = MappingProxyType(
    {
        "red": "#d9312b",
        "orange": "#f29a2e",
        "yellow": "#f5d82a",
        "green": "#3d9a47",
        "blue": "#2f6fc2",
        "pink": "#ea8cbd",
        "black": "#2b2b2b",
        "white": "#fbfaf5",
        "gray": "#a9a49b",
    }
)
"""The fill of the spaces of each route colour."""

PLAYER_COLORS: tuple[str, ...] = (
    "#1f4fd1",
    "#d42a2a",
    "#17944a",
    "#e2ad0c",
    "#7b3fe0",
    "#0b8fae",
    "#e8621a",
    "#8c4a1c",
    "#d6337f",
    "#1c2430",
)
"""The colour of each seat's trains and stations, by seat: enough for the most players a
map may allow."""

HEAT_COLORS: tuple[str, ...] = ("#fff6c2", "#fdc450", "#f3722c", "#c8142f", "#5a0b3d")
"""The heatmap's colour scale: evenly spaced stops from 0 to 1, mixed linearly between."""

NO_VALUE_COLOR = "#ffffff"
"""The fill of a track or city that a heatmap has no value for."""

_BACKGROUND = "#f6f1e3"
_INK = "#2d2a26"
_CITY_FILL = "#fffdf6"
_CITY_RING = "#8e2a1f"
_ARROW_FILL = "#d8cdb4"
_FAINT = "#6b645a"
"""The colour of the lesser lines of the score sheet."""
_FADED = "0.35"
"""The opacity of the unclaimed tracks when claims are shown."""


def heat_color(value: float) -> str:
    """The colour of ``value`` on the heatmap scale [`HEAT_COLORS`][], as ``#rrggbb``.

    :raises RenderError: ``value`` is not a number from 0 to 1.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value <= 1:
        raise RenderError(f"a heatmap value is a number from 0 to 1, not {quote(value)}")
    position = float(value) * (len(HEAT_COLORS) - 1)
    i = min(int(position), len(HEAT_COLORS) - 2)
    t = position - i
    low, high = _rgb(HEAT_COLORS[i]), _rgb(HEAT_COLORS[i + 1])
    r, g, b = (round(x + (y - x) * t) for x, y in zip(low, high, strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def draw_map(
    rs: Ruleset,
    *,
    state: GameState | Position | None = None,
    names: Sequence[str] | None = None,
    title: str | None = None,
    scores: Scoresheet | None = None,
) -> str:
    """The map of ``rs`` as SVG text; with ``state``, also who claimed what.

    :param state: a game state, or an end-of-game position (as ``ttr score`` reads it):
        each claimed track is drawn in its owner's colour from [`PLAYER_COLORS`][] and
        marked ``data-owner``, the other tracks fade, and each station is drawn on its city.
    :param names: the players' names by seat, for the legend (by default a position's own
        names, or ``seat 0``, ``seat 1``... for a game state).
    :param title: the heading (the map's name by default).
    :param scores: the final scoring of ``state`` (e.g. ``Game.scores()`` of a finished
        game), drawn as a score sheet beside the map (below it when the map is wider than
        tall): each player's total, route points, tickets completed and failed, and
        bonuses.
    :raises RenderError: the cities have no coordinates, ``state`` or ``names`` do not
        fit the map, or ``scores`` comes without a state or does not fit it.
    """
    claims = None if state is None else _claims(rs, state, names)
    if scores is not None:
        _check_scores(rs, scores, claims)
    drawing = _Drawing(rs, rs.map.name if title is None else title)
    if claims is None:
        drawing.add_routes(lambda r: _Look(fill=ROUTE_COLORS[rs.map.routes[r].color]))
    else:
        drawing.add_routes(lambda r: _claimed_look(rs, r, claims))
    drawing.add_cities(lambda c: None)
    if claims is not None:
        drawing.add_stations(claims)
        drawing.add_player_legend(claims)
        if scores is not None:
            drawing.scores = (scores, claims)
    drawing.add_marks_legend(stations=claims is not None and max(claims.stations, default=-1) >= 0)
    return drawing.svg()


def draw_heatmap(
    rs: Ruleset,
    values: Mapping[int, float],
    *,
    city_values: Mapping[str, float] | None = None,
    title: str | None = None,
    label: str = "value",
) -> str:
    """The map of ``rs`` as SVG text with each track coloured by a value from 0 to 1.

    A track's spaces take the [`heat_color`][] of its value and its element carries
    ``data-value``; a track without a value is drawn in [`NO_VALUE_COLOR`][]. The legend
    shows the scale, captioned ``label``.

    :param values: a value for each track, by track id (e.g. the share of games in which
        the track was claimed).
    :param city_values: a value for each city, by city id or alias, filling its dot (e.g.
        how often the city is part of a player's network).
    :param title: the heading (the map's name by default).
    :raises RenderError: the cities have no coordinates, a track or city is not on the
        map, or a value is not a number from 0 to 1.
    """
    tracks = _track_values(rs, values)
    cities = _city_values(rs, city_values or {})
    drawing = _Drawing(rs, rs.map.name if title is None else title)
    drawing.add_routes(lambda r: _heat_look(tracks[r]))
    drawing.add_cities(lambda c: None if cities is None else cities[c])
    missing = None in tracks or (cities is not None and None in cities)
    drawing.add_heat_legend(label, missing=missing)
    drawing.add_marks_legend(stations=False)
    return drawing.svg()


# -- what is drawn: claims and values -------------------------------------------------------


@frozen
class _Claims:
    """Who holds what, by index: the owner seat of each track and of each city's station."""

    owners: tuple[int, ...]
    stations: tuple[int, ...]
    names: tuple[str, ...]


def _claims(rs: Ruleset, state: GameState | Position, names: Sequence[str] | None) -> _Claims:
    """The claims of a state or a position, checked against the map."""
    tracks, cities = len(rs.map.routes), len(rs.map.cities)
    seats = len(state.players)
    if isinstance(state, GameState):
        if len(state.owners) != tracks or len(state.station_owners) not in (0, cities):
            raise RenderError(f"the game state is not one of the map of {rs.id!r}")
        owners = tuple(state.owners)
        stations = tuple(state.station_owners) or (-1,) * cities
        default = tuple(f"seat {s}" for s in range(seats))
    else:
        found, placed = [-1] * tracks, [-1] * cities
        for seat, player in enumerate(state.players):
            for r in player.routes:
                if not 0 <= r < tracks:
                    raise RenderError(f"the position holds track index {r}, not on the map")
                found[r] = seat
            for c in player.stations:
                if not 0 <= c < cities:
                    raise RenderError(f"the position holds city index {c}, not on the map")
                placed[c] = seat
        owners, stations = tuple(found), tuple(placed)
        default = tuple(p.name for p in state.players)
    shown = default if names is None else tuple(names)
    if len(shown) != seats:
        raise RenderError(f"{len(shown)} names given for {seats} players")
    if seats > len(PLAYER_COLORS):
        raise RenderError(f"at most {len(PLAYER_COLORS)} players can be drawn, not {seats}")
    if any(not -1 <= s < seats for s in (*owners, *stations)):
        raise RenderError(f"the state names a seat that is not one of its {seats} players")
    return _Claims(owners=owners, stations=stations, names=shown)


def _check_scores(rs: Ruleset, scores: Scoresheet, claims: _Claims | None) -> None:
    """Refuse a score sheet that is not one of the drawn state."""
    if claims is None:
        raise RenderError("a score sheet is drawn with the state it scores; no state given")
    if scores.edition != rs.id:
        raise RenderError(f"the score sheet is one of {scores.edition!r}, not of {rs.id!r}")
    if len(scores.players) != len(claims.names):
        raise RenderError(
            f"the score sheet has {len(scores.players)} players and the state {len(claims.names)}"
        )


def _ticket_names(rs: Ruleset) -> dict[int, str]:
    """Each ticket in words by id: ``Denver–El Paso``, or ``Genève → France, Italia``."""
    out = {}
    for t in rs.map.tickets:
        if t.targets is not None:
            out[t.id] = f"{t.a} → {', '.join(t.targets)}"
        else:
            out[t.id] = f"{t.a}–{t.b}"
    return out


def _track_values(rs: Ruleset, values: Mapping[int, float]) -> list[float | None]:
    """The heatmap value of each track by index (None where none is given), checked."""
    index = {t.id: r for r, t in enumerate(rs.map.routes)}
    out: list[float | None] = [None] * len(index)
    for track_id, value in values.items():
        r = None if isinstance(track_id, bool) else index.get(track_id)
        if r is None:
            raise RenderError(f"heatmap: no track {quote(track_id)} on the map of {rs.id!r}")
        heat_color(value)
        out[r] = float(value)
    return out


def _city_values(rs: Ruleset, values: Mapping[str, float]) -> list[float | None] | None:
    """The heatmap value of each city by index, checked; None when no city has one."""
    if not values:
        return None
    index = {n: c for c, city in enumerate(rs.map.cities) for n in (city.id, *city.aliases)}
    out: list[float | None] = [None] * len(rs.map.cities)
    for name, value in values.items():
        c = index.get(name) if isinstance(name, str) else None
        if c is None:
            raise RenderError(f"heatmap: no city {quote(name)} on the map of {rs.id!r}")
        heat_color(value)
        out[c] = float(value)
    return out


@frozen
class _Look:
    """How one track is drawn: the fill of its spaces and what sets it apart."""

    fill: str
    faded: bool = False
    owner: int = -1
    value: float | None = None
    note: str = ""
    """Added to the track's title."""


def _claimed_look(rs: Ruleset, r: int, claims: _Claims) -> _Look:
    seat = claims.owners[r]
    if seat < 0:
        return _Look(fill=ROUTE_COLORS[rs.map.routes[r].color], faded=True)
    return _Look(fill=PLAYER_COLORS[seat], owner=seat, note=f"claimed by {_player(claims, seat)}")


def _heat_look(value: float | None) -> _Look:
    if value is None:
        return _Look(fill=NO_VALUE_COLOR, note="no value")
    return _Look(fill=heat_color(value), value=value, note=f"value {_value_text(value)}")


def _player(claims: _Claims, seat: int) -> str:
    """A seat for titles and the legend: ``Ann (seat 0)``, or ``seat 0`` without a name."""
    name = claims.names[seat]
    return name if name == f"seat {seat}" else f"{name} (seat {seat})"


# -- the drawing ----------------------------------------------------------------------------


@frozen
class _LegendItem:
    """One entry of the legend: a sample of what it explains, then its text."""

    sample: str
    """``space`` (a colour), ``tunnel``, ``ferry``, ``groups``, ``arrow``, ``station``."""
    text: str
    fill: str = ROUTE_COLORS["gray"]
    number: int = 0


class _Drawing:
    """An SVG drawing of one map, built in layers: tracks, cities, legend."""

    def __init__(self, rs: Ruleset, title: str) -> None:
        self.rs = rs
        self.points = _points(rs)
        tracks = rs.map.routes
        city = {c.id: i for i, c in enumerate(rs.map.cities)}
        self.ends = [(city[t.cities[0]], city[t.cities[1]]) for t in tracks]
        """The city indices at the two ends of each track."""
        track = {t.id: r for r, t in enumerate(tracks)}
        self.twins = [-1 if t.parallel is None else track[t.parallel] for t in tracks]
        """The other track of each double route, -1 for none."""
        self.city_tracks: list[list[int]] = [[] for _ in rs.map.cities]
        """The tracks touching each city, in map order."""
        for r, (a, b) in enumerate(self.ends):
            self.city_tracks[a].append(r)
            self.city_tracks[b].append(r)
        pitches = [
            math.dist(self.points[a], self.points[b]) / t.length
            for (a, b), t in zip(self.ends, tracks, strict=True)
        ]
        xs = [x for x, _ in self.points]
        ys = [y for _, y in self.points]
        span = max(max(xs) - min(xs), max(ys) - min(ys))
        u = statistics.median(pitches) if pitches else (span / 10 or 80.0)
        self.unit = u
        self.thick = 0.26 * u
        """The width of a space, across its track."""
        self.gap = 0.07 * u
        self.radius = 0.12 * u
        self.clear = self.radius + 0.07 * u
        self.side = self.thick / 2 + 0.035 * u
        """How far each track of a double route lies from the line between its cities."""
        self.font = 0.19 * u
        self.stroke = 0.022 * u
        self.margin = 0.5 * u
        self.title = title
        self.extent = [min(xs), min(ys), max(xs), max(ys)]
        self.legend: list[_LegendItem] = []
        self.heat_label: str | None = None
        self.heat_missing = False
        self.root = ET.Element("svg")
        ET.SubElement(self.root, "title").text = title
        self.defs = ET.SubElement(self.root, "defs")
        self.background = ET.SubElement(self.root, "rect", {"fill": _BACKGROUND})
        self.heading = ET.SubElement(self.root, "text", {"class": "heading"})
        self.routes = ET.SubElement(self.root, "g", {"id": "routes"})
        self.cities = ET.SubElement(self.root, "g", {"id": "cities"})
        self.city_groups: list[ET.Element] = []
        self.scores: tuple[Scoresheet, _Claims] | None = None
        self.shapes = track_shapes(
            self.points,
            self.ends,
            self.twins,
            [t.length for t in tracks],
            Sizes(
                thick=self.thick,
                side=self.side,
                clear=self.clear,
                gap=self.gap,
                radius=self.radius,
            ),
        )

    # -- extent ---------------------------------------------------------------------------

    def _include(self, x0: float, y0: float, x1: float, y1: float) -> None:
        e = self.extent
        self.extent = [min(e[0], x0), min(e[1], y0), max(e[2], x1), max(e[3], y1)]

    # -- tracks ---------------------------------------------------------------------------

    def add_routes(self, look: Callable[[int], _Look]) -> None:
        """Draw every track, each as `look` says."""
        rs = self.rs
        for r, track in enumerate(rs.map.routes):
            lk = look(r)
            classes = ["route"]
            if track.tunnel:
                classes.append("tunnel")
            if track.ferry:
                classes.append("ferry")
            if track.card_groups:
                classes.append("card-groups")
            if track.parallel is not None:
                classes.append("double")
            attrs = {"id": f"route-{track.id}", "class": " ".join(classes)}
            if lk.owner >= 0:
                attrs["data-owner"] = str(lk.owner)
            if lk.value is not None:
                attrs["data-value"] = _value_text(lk.value)
            if lk.faded:
                attrs["opacity"] = _FADED
            group = ET.SubElement(self.routes, "g", attrs)
            ET.SubElement(group, "title").text = _track_title(rs, r, lk.note)
            shape = self.shapes[r]
            if shape.bow:
                group.set("data-bow", _value_text(shape.bow))
            strong = lk.owner >= 0
            for i, space in enumerate(shape.spaces):
                x, y = space.x, space.y
                self._space(
                    group,
                    x,
                    y,
                    space.length,
                    space.angle,
                    lk.fill,
                    tunnel=track.tunnel,
                    strong=strong,
                )
                if i < track.ferry:
                    self._locomotive(group, x, y)
                if track.card_groups:
                    self._number(group, x, y, track.card_groups, lk.fill)
                reach = space.length / 2 + self.thick / 2
                self._include(x - reach, y - reach, x + reach, y + reach)

    def _space(
        self,
        parent: ET.Element,
        x: float,
        y: float,
        length: float,
        angle: float,
        fill: str,
        *,
        tunnel: bool,
        strong: bool = False,
    ) -> None:
        """One space: a rectangle centred on ``(x, y)``, along ``angle``."""
        attrs = {
            "x": _n(-length / 2),
            "y": _n(-self.thick / 2),
            "width": _n(length),
            "height": _n(self.thick),
            "rx": _n(self.thick * 0.12),
            "transform": f"translate({_n(x)} {_n(y)}) rotate({_n(angle)})",
            "fill": fill,
            "stroke": _INK,
            "stroke-width": _n(self.stroke * (2.2 if tunnel or strong else 1)),
        }
        if tunnel:
            attrs["stroke-dasharray"] = f"{_n(self.thick * 0.3)} {_n(self.thick * 0.18)}"
        ET.SubElement(parent, "rect", attrs)

    def _locomotive(self, parent: ET.Element, x: float, y: float) -> None:
        """The locomotive symbol of a ferry space."""
        ET.SubElement(
            parent,
            "circle",
            {
                "class": "locomotive",
                "cx": _n(x),
                "cy": _n(y),
                "r": _n(self.thick * 0.28),
                "fill": "#ffffff",
                "stroke": _INK,
                "stroke-width": _n(self.stroke * 1.4),
            },
        )

    def _number(self, parent: ET.Element, x: float, y: float, number: int, on: str) -> None:
        """The size of the groups of any cards a space takes, readable on the fill ``on``."""
        size = self.thick * 0.72
        text = ET.SubElement(
            parent,
            "text",
            {
                "class": "group-size",
                "x": _n(x),
                "y": _n(y + size * 0.36),
                "font-size": _n(size),
                "font-weight": "bold",
                "text-anchor": "middle",
                "fill": "#ffffff" if _is_dark(on) else _INK,
            },
        )
        text.text = str(number)

    # -- cities ---------------------------------------------------------------------------

    def add_cities(self, value: Callable[[int], float | None]) -> None:
        """Draw every city: a dot (an arrow for a border arrow) and its name.

        ``value`` gives a city's heatmap value, if it has one, which fills its dot.
        """
        rs = self.rs
        requests: list[tuple[str, float, float | None]] = []
        for c, city in enumerate(rs.map.cities):
            v = value(c)
            x, y = self.points[c]
            arrow = city.country is not None
            group = ET.SubElement(
                self.cities,
                "g",
                {"id": f"city-{city.id}", "class": "city border-arrow" if arrow else "city"},
            )
            self.city_groups.append(group)
            shown = f"{city.id}: border arrow to {city.country}" if arrow else city.id
            if v is not None:
                group.set("data-value", _value_text(v))
                shown += f", value {_value_text(v)}"
            ET.SubElement(group, "title").text = shown
            if arrow:
                direction = self._outward(c)
                self._arrow(group, x, y, direction, _ARROW_FILL if v is None else heat_color(v))
                requests.append((city.country or city.id, self.radius * 1.9, direction))
                continue
            ET.SubElement(
                group,
                "circle",
                {
                    "cx": _n(x),
                    "cy": _n(y),
                    "r": _n(self.radius),
                    "fill": _CITY_FILL if v is None else heat_color(v),
                    "stroke": _CITY_RING,
                    "stroke-width": _n(self.stroke * 1.8),
                },
            )
            requests.append((city.id, self.radius, None))
        self._add_labels(requests)

    def _neighbours(self, c: int) -> list[tuple[float, float]]:
        ends = self.ends
        return [
            self.points[ends[r][1] if ends[r][0] == c else ends[r][0]] for r in self.city_tracks[c]
        ]

    def _outward(self, c: int) -> float:
        """The direction, in degrees, a border arrow points: away from its neighbours."""
        x, y = self.points[c]
        others = self._neighbours(c) or list(self.points)
        mx = sum(p[0] for p in others) / len(others)
        my = sum(p[1] for p in others) / len(others)
        if math.isclose(mx, x) and math.isclose(my, y):
            return -90.0
        return math.degrees(math.atan2(y - my, x - mx))

    def _arrow(self, parent: ET.Element, x: float, y: float, direction: float, fill: str) -> None:
        """A border arrow: a triangle at ``(x, y)`` pointing in ``direction``."""
        ux, uy = math.cos(math.radians(direction)), math.sin(math.radians(direction))
        r = self.radius
        corners = [
            (x + ux * r * 1.9, y + uy * r * 1.9),
            (x - ux * r * 0.7 - uy * r * 1.3, y - uy * r * 0.7 + ux * r * 1.3),
            (x - ux * r * 0.7 + uy * r * 1.3, y - uy * r * 0.7 - ux * r * 1.3),
        ]
        ET.SubElement(
            parent,
            "polygon",
            {
                "points": " ".join(f"{_n(px)},{_n(py)}" for px, py in corners),
                "fill": fill,
                "stroke": _INK,
                "stroke-width": _n(self.stroke * 1.4),
            },
        )
        self._include(x - r * 2, y - r * 2, x + r * 2, y + r * 2)

    def _add_labels(self, requests: Sequence[tuple[str, float, float | None]]) -> None:
        """Name every city: ``requests`` holds each city's text, how far its mark reaches
        and a direction to try first; [`place_labels`][] chooses the places."""
        spaces = [
            rect_corners(space.x, space.y, space.length, self.thick, space.angle)
            for shape in self.shapes
            for space in shape.spaces
        ]
        labels = place_labels(
            self.points,
            [text for text, _, _ in requests],
            [reach + self.stroke for _, reach, _ in requests],
            [first for _, _, first in requests],
            spaces,
            LabelSizes(font=self.font, unit=self.unit, thick=self.thick, pad=0.03 * self.unit),
        )
        for group, (text, _, _), label in zip(self.city_groups, requests, labels, strict=True):
            place = {
                "x": _n(label.x),
                "y": _n(label.y),
                "font-size": _n(self.font),
                "text-anchor": label.anchor,
            }
            # A halo of the background under the name keeps it readable where it meets a
            # track; it is a text of its own because not every renderer knows paint-order.
            halo = {"class": "halo", "fill": _BACKGROUND, "stroke": _BACKGROUND}
            halo |= {"stroke-width": _n(self.font * 0.25), "stroke-linejoin": "round"}
            for attrs in (place | halo, place | {"class": "name", "fill": _INK}):
                ET.SubElement(group, "text", attrs).text = text
            box = label.box
            self._include(box[0], box[1] - self.font * 0.2, box[2], box[3] + self.font * 0.1)

    def add_stations(self, claims: _Claims) -> None:
        """Draw each station on its city, in its owner's colour."""
        for c, seat in enumerate(claims.stations):
            if seat < 0:
                continue
            x, y = self.points[c]
            group = self.city_groups[c]
            station = self._station(x, y, PLAYER_COLORS[seat])
            station.set("data-owner", str(seat))
            ET.SubElement(station, "title").text = f"station of {_player(claims, seat)}"
            group.insert(len(group) - 2, station)  # under the city's name and its halo

    def _station(self, x: float, y: float, fill: str) -> ET.Element:
        """A station: a small house centred on ``(x, y)``."""
        s = self.radius * 2.6
        corners = [
            (x - s / 2, y + s / 2),
            (x + s / 2, y + s / 2),
            (x + s / 2, y - s * 0.1),
            (x, y - s * 0.6),
            (x - s / 2, y - s * 0.1),
        ]
        return ET.Element(
            "polygon",
            {
                "class": "station",
                "points": " ".join(f"{_n(px)},{_n(py)}" for px, py in corners),
                "fill": fill,
                "stroke": _INK,
                "stroke-width": _n(self.stroke * 1.4),
            },
        )

    # -- legend ---------------------------------------------------------------------------

    def add_player_legend(self, claims: _Claims) -> None:
        """A legend entry for each player's colour."""
        for seat in range(len(claims.names)):
            self.legend.append(
                _LegendItem("space", _player(claims, seat), fill=PLAYER_COLORS[seat])
            )

    def add_marks_legend(self, *, stations: bool) -> None:
        """Legend entries for the marks the map has: tunnels, ferries, groups, arrows."""
        data = self.rs.map
        if any(t.tunnel for t in data.routes):
            self.legend.append(_LegendItem("tunnel", "tunnel"))
        if any(t.ferry for t in data.routes):
            self.legend.append(_LegendItem("ferry", "ferry: a locomotive per symbol"))
        for size in sorted({t.card_groups for t in data.routes if t.card_groups}):
            text = f"any {size} cards for one of the colour"
            self.legend.append(_LegendItem("groups", text, number=size))
        if any(c.country is not None for c in data.cities):
            self.legend.append(_LegendItem("arrow", "border arrow to a country"))
        if stations:
            self.legend.append(_LegendItem("station", "station", fill=_CITY_FILL))

    def add_heat_legend(self, label: str, *, missing: bool) -> None:
        """The heatmap's colour scale, captioned ``label``, first in the legend."""
        self.heat_label = label
        self.heat_missing = missing
        gradient = ET.SubElement(
            self.defs, "linearGradient", {"id": "heat-scale", "x1": "0", "x2": "1"}
        )
        last = len(HEAT_COLORS) - 1
        for i, color in enumerate(HEAT_COLORS):
            ET.SubElement(gradient, "stop", {"offset": _n(i / last), "stop-color": color})

    def _legend_width(self, item: _LegendItem) -> float:
        return self.unit * 0.9 + text_width(item.text, self.font) + self.unit * 0.45

    def _draw_legend(self, top: float, width: float) -> float:
        """Draw the legend in rows from ``top``; return the bottom of the last row."""
        if not self.legend and self.heat_label is None:
            return top
        legend = ET.SubElement(self.root, "g", {"id": "legend"})
        row = max(self.thick, self.font) * 1.6
        left = self.extent[0]
        x, y = left, top + row / 2
        if self.heat_label is not None:
            x = self._draw_scale(legend, x, y)
            if self.heat_missing:
                item = _LegendItem("space", "no value", fill=NO_VALUE_COLOR)
                self._draw_item(legend, item, x, y)
            x, y = left, y + row * 1.5
        for item in self.legend:
            size = self._legend_width(item)
            if x > left and x + size > left + width:
                x, y = left, y + row
            self._draw_item(legend, item, x, y)
            x += size
        return y + row / 2

    def _draw_scale(self, parent: ET.Element, x: float, y: float) -> float:
        """The heatmap's scale at ``(x, y)``: its caption, the bar and the ends."""
        self._text(parent, x, y, self.heat_label or "")
        x += text_width(self.heat_label or "", self.font) + self.unit * 0.3
        bar = self.unit * 4
        ET.SubElement(
            parent,
            "rect",
            {
                "x": _n(x),
                "y": _n(y - self.thick / 2),
                "width": _n(bar),
                "height": _n(self.thick),
                "fill": "url(#heat-scale)",
                "stroke": _INK,
                "stroke-width": _n(self.stroke),
            },
        )
        for share in (0.0, 0.5, 1.0):
            tick = ET.SubElement(
                parent,
                "text",
                {
                    "x": _n(x + bar * share),
                    "y": _n(y + self.thick / 2 + self.font * 1.05),
                    "font-size": _n(self.font * 0.85),
                    "text-anchor": "middle",
                    "fill": _INK,
                },
            )
            tick.text = _value_text(share)
        return x + bar + self.unit * 0.6

    def _draw_item(self, parent: ET.Element, item: _LegendItem, x: float, y: float) -> None:
        """One legend entry with its sample at the left of ``(x, y)``."""
        sample = x + self.unit * 0.35
        length = self.unit * 0.55
        if item.sample == "arrow":
            self._arrow(parent, sample, y, 0.0, _ARROW_FILL)
        elif item.sample == "station":
            parent.append(self._station(sample, y, item.fill))
        else:
            self._space(parent, sample, y, length, 0.0, item.fill, tunnel=item.sample == "tunnel")
            if item.sample == "ferry":
                self._locomotive(parent, sample, y)
            elif item.sample == "groups":
                self._number(parent, sample, y, item.number, item.fill)
        self._text(parent, x + self.unit * 0.8, y, item.text)

    def _text(self, parent: ET.Element, x: float, y: float, text: str) -> None:
        """Legend text starting at ``x``, centred on ``y``."""
        element = ET.SubElement(
            parent,
            "text",
            {"x": _n(x), "y": _n(y + self.font * 0.35), "font-size": _n(self.font), "fill": _INK},
        )
        element.text = text

    # -- the whole -------------------------------------------------------------------------

    def _draw_scores(self, right: float, bottom: float) -> tuple[float, float]:
        """Draw the score sheet beside a map taller than wide, else below the legend;
        return the new right and bottom edges of the drawing."""
        assert self.scores is not None, "only called with a score sheet"
        sheet, claims = self.scores
        x0, y0, x1, y1 = self.extent
        style = ScoreStyle(font=self.font, ink=_INK, faint=_FAINT, swatch=self.font * 0.9)
        headings = [_player(claims, seat) for seat in range(len(claims.names))]
        panel = (sheet, headings, PLAYER_COLORS, _ticket_names(self.rs), style)
        if y1 - y0 > x1 - x0:
            origin = (right + self.margin * 1.5, y0)
            w, h = draw_score_panel(self.root, *panel, origin, down=y1 - y0)
            return origin[0] + w, max(bottom, y0 + h)
        origin = (x0, bottom + self.margin * 0.8)
        w, h = draw_score_panel(self.root, *panel, origin, across=right - x0)
        return max(right, x0 + w), origin[1] + h

    def svg(self) -> str:
        """The finished drawing as SVG text."""
        x0, y0, x1, y1 = self.extent
        heading = self.font * 1.6
        width = max(x1 - x0, text_width(self.title, heading), self.unit * 8)
        bottom = self._draw_legend(y1 + self.margin * 0.8, width)
        for item in self.legend:
            width = max(width, self._legend_width(item))
        right = x0 + width
        if self.scores is not None:
            right, bottom = self._draw_scores(right, bottom)
        left, top = x0 - self.margin, y0 - self.margin - heading * 1.6
        full_width = right - x0 + 2 * self.margin
        full_height = bottom + self.margin - top
        self.heading.text = self.title
        for key, value in {
            "x": _n(x0),
            "y": _n(y0 - self.margin * 0.6),
            "font-size": _n(heading),
            "font-weight": "bold",
            "fill": _INK,
        }.items():
            self.heading.set(key, value)
        for key, value in {
            "x": _n(left),
            "y": _n(top),
            "width": _n(full_width),
            "height": _n(full_height),
        }.items():
            self.background.set(key, value)
        if not len(self.defs):
            self.root.remove(self.defs)
        root = self.root
        for key, value in {
            "xmlns": SVG_NAMESPACE,
            "viewBox": f"{_n(left)} {_n(top)} {_n(full_width)} {_n(full_height)}",
            "width": str(math.ceil(full_width)),
            "height": str(math.ceil(full_height)),
            "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif",
        }.items():
            root.set(key, value)
        _clean(root)
        ET.indent(root, space=" ")
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


# -- helpers ----------------------------------------------------------------------------------


def _points(rs: Ruleset) -> list[tuple[float, float]]:
    """The cities' coordinates by index; refused when they cannot place the cities apart.

    :raises RenderError: the map has no cities, or two cities share a point (all of them
        do when the map data gives no coordinates).
    """
    cities = rs.map.cities
    if not cities:
        raise RenderError(f"the map of {rs.id!r} has no cities to draw")
    if len(cities) > 1 and len({(c.x, c.y) for c in cities}) == 1:
        raise RenderError(
            f"the map data of {rs.id!r} gives its cities no coordinates (every city is at "
            f"({cities[0].x}, {cities[0].y})); a map is drawn from the x and y of its cities"
        )
    seen: dict[tuple[int, int], str] = {}
    for c in cities:
        other = seen.setdefault((c.x, c.y), c.id)
        if other != c.id:
            raise RenderError(
                f"cannot draw the map of {rs.id!r}: {other!r} and {c.id!r} are both at "
                f"({c.x}, {c.y})"
            )
    return [(float(c.x), float(c.y)) for c in cities]


def _track_title(rs: Ruleset, r: int, note: str) -> str:
    """A track in words: ``Denver–Omaha: 4 pink spaces (track 40), ferry ...``."""
    t = rs.map.routes[r]
    a, b = t.cities
    spaces = "1 space" if t.length == 1 else f"{t.length} spaces"
    parts = [f"{a}–{b}: {t.color}, {spaces} (track {t.id})"]
    if t.tunnel:
        parts.append("tunnel")
    if t.ferry:
        parts.append(f"ferry ({t.ferry} locomotive{'s' if t.ferry > 1 else ''})")
    if t.card_groups:
        parts.append(f"any {t.card_groups} cards for one of the colour")
    if t.parallel is not None:
        parts.append(f"double with track {t.parallel}")
    if note:
        parts.append(note)
    return ", ".join(parts)


def _is_dark(color: str) -> bool:
    """Whether white text reads better than dark text on ``color``: its brightness, with
    the channels weighted as the eye sees them, is below half."""
    r, g, b = _rgb(color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5 * 255


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _n(value: float) -> str:
    """A coordinate for the markup: one decimal at most, never ``-0``."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _value_text(value: float) -> str:
    """A heatmap value as written in the markup and titles: ``0.25``, ``1``."""
    return f"{value:.4g}"


def _xml_text(text: str) -> str:
    """``text`` with the characters XML cannot hold (control characters, lone surrogates)
    replaced by U+FFFD."""
    return "".join(
        ch
        if ch in "\t\n\r"
        or "\x20" <= ch <= "\ud7ff"
        or "\ue000" <= ch <= "\ufffd"
        or ch >= "\U00010000"
        else "\ufffd"
        for ch in text
    )


def _clean(root: ET.Element) -> None:
    """Make every text and attribute of the tree something XML can hold."""
    for element in root.iter():
        if element.text:
            element.text = _xml_text(element.text)
        for key, value in list(element.attrib.items()):
            element.set(key, _xml_text(value))
