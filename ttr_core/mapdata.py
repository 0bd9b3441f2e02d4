"""The map data format: cities, tracks, tickets and the edition's rule parameters.

An edition ships its map as a JSON file in this format. :func:`load_map_data` structures
it into frozen attrs classes with cattrs (unknown keys are errors) and validates it, so
that every problem is reported with the path of the offending value, e.g.
``$.routes[3].length: must be one of the lengths in route_points``.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

import cattrs
from attrs import frozen
from cattrs.gen import make_dict_structure_fn

from ttr_core.cards import CARD_NAMES, ROUTE_COLOR_NAMES
from ttr_core.errors import MapDataError
from ttr_core.strict import error_text, strict_converter

MAP_FORMAT = 1
"""Version of the map data format described here."""

Returned = Literal["bottom", "removed"]

TIE_BREAKERS = ("completed_tickets", "fewest_stations", "longest_path_bonus")
"""The tie-breakers the core knows, by the name used in ``Parameters.tie_breakers``."""


@frozen
class City:
    """A city (or, on some maps, a border arrow of a neighbouring country)."""

    id: str
    """The name as printed on the board; unique within the map."""
    aliases: tuple[str, ...] = ()
    """Other spellings a user may type (printed variants on ticket cards)."""
    country: str | None = None
    """For a border arrow: the country it leads to. ``None`` for an ordinary city."""
    x: int = 0
    y: int = 0


@frozen
class Country:
    """A neighbouring country whose border arrows are cities with this ``country``."""

    id: str
    """The name as printed on the board and the tickets."""
    aliases: tuple[str, ...] = ()
    """Other names a user may type (the country's name in another language)."""


@frozen
class Track:
    """One track between two cities. A double route is two tracks naming each other."""

    id: int
    cities: tuple[str, str]
    length: int
    color: str
    """A colour name or ``"gray"``."""
    tunnel: bool = False
    ferry: int = 0
    """Number of locomotive symbols printed on the track (0 = not a ferry)."""
    parallel: int | None = None
    """The id of the other track of a double route, if any."""
    card_groups: int = 0
    """Any this many cards may replace one missing card of the chosen colour (0 = never).

    Nordic Countries' Murmansk-Lieksa declares 4. Locomotives then count only inside
    such groups unless the edition allows them on the track anyway.
    """


@frozen
class Ticket:
    """A destination ticket: two cities, or one origin and a choice of countries."""

    id: int
    a: str
    b: str | None = None
    points: int | None = None
    targets: Mapping[str, int] | None = None
    """Country tickets: points per country that completes the ticket."""
    kind: Literal["regular", "long", "country"] = "regular"


@frozen
class TicketDeal:
    """How many tickets are dealt in one go, how many must be kept, where the rest go."""

    deal: int
    keep: int
    returned: Returned
    long: int = 0
    """Opening deal only: how many of the deal come from the long-ticket pile."""


@frozen
class DisplayRules:
    """The face-up display: its size and the locomotive flush."""

    size: int = 5
    flush_locomotives: int | None = 3
    """Flush the display when this many face-up cards are locomotives; ``None`` = never."""
    flush_repeats: int = 3
    """At most this many flushes in a row; then the locomotives stay (ruling FLUSH)."""


@frozen
class Parameters:
    """An edition's declared rule parameters. Shared mechanics read them; nothing else."""

    players: tuple[int, int]
    trains: int
    train_cards: Mapping[str, int]
    route_points: Mapping[int, int]
    double_routes_min_players: int
    opening_tickets: TicketDeal
    ticket_draw: TicketDeal
    stations: int = 0
    station_cost: tuple[int, ...] = ()
    unbuilt_station_points: int = 0
    starting_hand: int = 4
    display: DisplayRules = DisplayRules()
    face_up_locomotive: Literal["whole_draw", "ordinary"] = "whole_draw"
    locomotives: Literal["anywhere", "tunnels", "tunnels_and_ferries"] = "anywhere"
    tunnel_reveal: int = 3
    ferry_groups: int = 0
    """Any this many cards may stand in for one locomotive owed on a ferry (0 = never)."""
    ferry_group_stacking: bool = True
    """Whether such a group may also cover a space of the ferry's colour."""
    longest_path_bonus: int | None = 10
    longest_path_bonus_name: str = "longest_path"
    tie_breakers: tuple[str, ...] = ("completed_tickets", "longest_path_bonus")


@frozen
class MapData:
    """Everything an edition's data file holds."""

    edition: str
    name: str
    cities: tuple[City, ...]
    routes: tuple[Track, ...]
    tickets: tuple[Ticket, ...]
    parameters: Parameters
    format: int = MAP_FORMAT
    source: str = ""
    """Where the map facts come from (free text)."""
    countries: tuple[Country, ...] = ()
    """Aliases of the countries border arrows lead to; a country need not be listed."""

    def digest(self) -> str:
        """A stable SHA-256 of the data, recorded in saved games to detect map changes.

        Fields added to the format later are left out while they hold their defaults,
        so records saved before they existed still replay.
        """
        raw = unstructure_map(self)
        if not raw["countries"]:
            del raw["countries"]
        for key, default in _LATER_PARAMETERS.items():
            if raw["parameters"].get(key) == default:
                del raw["parameters"][key]
        for track in raw["routes"]:
            for key, default in _LATER_TRACK_FIELDS.items():
                if track.get(key) == default:
                    del track[key]
        text = json.dumps(raw, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


_LATER_PARAMETERS: dict[str, object] = {"ferry_groups": 0, "ferry_group_stacking": True}
_LATER_TRACK_FIELDS: dict[str, object] = {"card_groups": 0}


def _points_table(value: Any, _: Any) -> Mapping[int, int]:
    if not isinstance(value, dict):
        raise ValueError(f"expected an object of length: points, got {value!r}")
    out: dict[int, int] = {}
    for k, v in value.items():
        try:
            length = int(k)
        except (TypeError, ValueError):
            raise ValueError(f"route length {k!r} is not an integer") from None
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(f"points for length {k} must be an integer, got {v!r}")
        out[length] = v
    return out


def _converter() -> cattrs.Converter:
    conv = strict_converter()
    conv.register_structure_hook_func(lambda t: t == Mapping[int, int], _points_table)
    for cls in (City, Country, Track, Ticket, TicketDeal, DisplayRules, Parameters, MapData):
        conv.register_structure_hook(
            cls, make_dict_structure_fn(cls, conv, _cattrs_forbid_extra_keys=True)
        )
    return conv


_CONVERTER = _converter()


def unstructure_map(data: MapData) -> dict[str, Any]:
    """Turn map data back into plain JSON-ready objects (the documented format)."""
    out: dict[str, Any] = _CONVERTER.unstructure(data)
    out["parameters"]["route_points"] = {
        str(k): v for k, v in sorted(data.parameters.route_points.items())
    }
    return out


def structure_map(raw: Any) -> MapData:
    """Structure and validate raw JSON data; raise :class:`MapDataError` with a path."""
    if not isinstance(raw, dict):
        raise MapDataError("$: map data must be a JSON object")
    try:
        data = _CONVERTER.structure(raw, MapData)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        raise MapDataError(error_text(exc)) from None
    validate_map(data)
    return data


def load_map_data(text: str | bytes) -> MapData:
    """Parse map data from JSON text; raise :class:`MapDataError` on any problem."""
    try:
        raw = json.loads(text)
    except RecursionError:
        raise MapDataError("$: not valid JSON (nested too deeply)") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise MapDataError(f"$: not valid JSON ({exc})") from None
    return structure_map(raw)


def validate_map(data: MapData) -> None:
    """Check ids, endpoints, double routes, lengths, colours and tickets."""
    errors: list[str] = []
    p = data.parameters
    if data.format != MAP_FORMAT:
        errors.append(f"$.format: unsupported map format {data.format} (expected {MAP_FORMAT})")
    names: dict[str, str] = {}
    for i, city in enumerate(data.cities):
        for name in (city.id, *city.aliases):
            if name in names:
                errors.append(f"$.cities[{i}]: name {name!r} is already used by {names[name]!r}")
            else:
                names[name] = city.id
    city_ids = {c.id for c in data.cities}
    countries = {c.country for c in data.cities if c.country is not None}
    for i, country in enumerate(data.countries):
        if country.id not in countries:
            errors.append(f"$.countries[{i}].id: no border arrow leads to {country.id!r}")
        for name in (country.id, *country.aliases):
            if name in names:
                errors.append(f"$.countries[{i}]: name {name!r} is already used by {names[name]!r}")
            else:
                names[name] = country.id
    track_ids: dict[int, int] = {}
    for i, t in enumerate(data.routes):
        where = f"$.routes[{i}]"
        if t.id in track_ids:
            errors.append(f"{where}.id: duplicate track id {t.id}")
        track_ids[t.id] = i
        for j, c in enumerate(t.cities):
            if c not in city_ids:
                errors.append(f"{where}.cities[{j}]: unknown city {c!r}")
        if t.cities[0] == t.cities[1]:
            errors.append(f"{where}.cities: a track cannot join a city to itself")
        if t.length < 1:
            errors.append(f"{where}.length: a track has at least one space, not {t.length}")
        elif t.length not in p.route_points:
            errors.append(f"{where}.length: {t.length} has no entry in parameters.route_points")
        if t.color not in ROUTE_COLOR_NAMES:
            errors.append(
                f"{where}.color: unknown colour {t.color!r}; expected one of "
                + ", ".join(ROUTE_COLOR_NAMES)
            )
        if not 0 <= t.ferry <= t.length:
            errors.append(f"{where}.ferry: must be between 0 and the length {t.length}")
        if t.card_groups:
            if t.card_groups < 2:
                errors.append(f"{where}.card_groups: a group has at least 2 cards (0 = none)")
            elif t.tunnel or t.ferry:
                errors.append(f"{where}.card_groups: not allowed on a tunnel or a ferry")
    by_id = {t.id: t for t in data.routes}
    pair_tracks: Counter[frozenset[str]] = Counter(frozenset(t.cities) for t in data.routes)
    for i, t in enumerate(data.routes):
        where = f"$.routes[{i}].parallel"
        if t.parallel is None:
            if pair_tracks[frozenset(t.cities)] > 1:
                errors.append(
                    f"{where}: parallel tracks between the same cities must name each other"
                )
            continue
        other = by_id.get(t.parallel)
        if other is None:
            errors.append(f"{where}: unknown track id {t.parallel}")
        elif other.parallel != t.id:
            errors.append(f"{where}: track {t.parallel} does not name track {t.id} back")
        elif frozenset(other.cities) != frozenset(t.cities) or other.id == t.id:
            errors.append(f"{where}: track {t.parallel} does not join the same two cities")
    for pair, n in pair_tracks.items():
        if n > 2:
            errors.append(f"$.routes: more than two tracks join {' and '.join(sorted(pair))}")
    ticket_ids: set[int] = set()
    for i, tk in enumerate(data.tickets):
        where = f"$.tickets[{i}]"
        if tk.id in ticket_ids:
            errors.append(f"{where}.id: duplicate ticket id {tk.id}")
        ticket_ids.add(tk.id)
        if tk.kind == "country":
            if tk.targets is None or not tk.targets or tk.b is not None or tk.points is not None:
                errors.append(f"{where}: a country ticket has 'targets' and no 'b' or 'points'")
            else:
                for name in tk.targets:
                    if name not in countries:
                        errors.append(f"{where}.targets: unknown country {name!r}")
            if tk.a not in city_ids and tk.a not in countries:
                errors.append(f"{where}.a: unknown city or country {tk.a!r}")
            continue
        if tk.b is None or tk.points is None or tk.targets is not None:
            errors.append(f"{where}: a {tk.kind} ticket has 'a', 'b' and 'points'")
            continue
        for key, c in (("a", tk.a), ("b", tk.b)):
            if c not in city_ids:
                errors.append(f"{where}.{key}: unknown city {c!r}")
        if tk.a == tk.b:
            errors.append(f"{where}: a ticket needs two different cities")
        if tk.points <= 0:
            errors.append(f"{where}.points: must be positive")
    for name, count in p.train_cards.items():
        if name not in CARD_NAMES:
            errors.append(f"$.parameters.train_cards: unknown card {name!r}")
        elif count < 0:
            errors.append(f"$.parameters.train_cards.{name}: a count cannot be negative")
    max_players = p.players[1]
    deck = sum(n for n in p.train_cards.values() if n > 0)
    if deck < max_players * p.starting_hand:
        errors.append(
            f"$.parameters.train_cards: {deck} cards cannot deal {p.starting_hand} to each of "
            f"{max_players} players"
        )
    lo, hi = p.players
    if not 1 <= lo <= hi:
        errors.append("$.parameters.players: expected [min, max] with 1 <= min <= max")
    if p.stations and len(p.station_cost) != p.stations:
        errors.append("$.parameters.station_cost: needs one cost per station")
    if p.ferry_groups and p.ferry_groups < 2:
        errors.append("$.parameters.ferry_groups: a group has at least 2 cards (0 = none)")
    if p.opening_tickets.keep > p.opening_tickets.deal:
        errors.append("$.parameters.opening_tickets.keep: cannot exceed deal")
    if not 1 <= p.ticket_draw.keep <= p.ticket_draw.deal:
        errors.append("$.parameters.ticket_draw: expected 1 <= keep <= deal")
    for i, key in enumerate(p.tie_breakers):
        if key not in TIE_BREAKERS:
            errors.append(
                f"$.parameters.tie_breakers[{i}]: unknown tie-breaker {key!r}; expected one of "
                + ", ".join(TIE_BREAKERS)
            )
    if errors:
        raise MapDataError("; ".join(errors))
