"""The map data format: cities, tracks, tickets and the edition's rule parameters.

An edition ships its map as a JSON file in this format. [`load_map_data`][] structures
it into frozen attrs classes with cattrs (unknown keys are errors) and validates it, so
that every problem is reported with the path of the offending value, e.g.
``$.routes[3].length: must be one of the lengths in route_points``.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

import cattrs
from attrs import frozen

from ttr_core.model.cards import CARD_NAMES, ROUTE_COLOR_NAMES
from ttr_core.model.errors import MapDataError, quote
from ttr_core.model.strict import JsonTextError, error_text, parse_json, strict_converter

MAP_FORMAT = 1
"""Version of the map data format described here."""

Returned = Literal["bottom", "removed"]

TIE_BREAKERS = ("completed_tickets", "fewest_stations", "longest_path_bonus")
"""The tie-breakers the core knows, by the name used in ``Parameters.tie_breakers``."""

# Limits on the numbers in map data. They are far above any printed edition and keep a
# ruleset cheap to build and play: a hand is stored as bytes (at most 255 of a kind),
# ticket choices are enumerated (2 ** deal of them), payments are tabulated per length.
MAX_PLAYERS = 10
"""Most players a map may allow (``players[1]``)."""
MAX_TRAINS = 200
"""Most trains per player."""
MAX_CARDS_PER_KIND = 255
"""Most cards of one kind (a colour or locomotives) in the train deck."""
MAX_ROUTE_LENGTH = 12
"""Longest track (and largest key of ``route_points``, ``station_cost`` entry)."""
MAX_POINTS = 1000
"""Most points of a track, a ticket, a country target, a bonus or an unbuilt station."""
MAX_CITIES = 1000
"""Most cities (and border arrows) on a map."""
MAX_TRACKS = 2000
"""Most tracks on a map."""
MAX_TICKETS = 2000
"""Most destination tickets on a map."""
MAX_ID = 999_999
"""Largest track or ticket id (ids are 0 or more)."""
MAX_COORDINATE = 100_000
"""Largest ``x`` or ``y`` of a city, either sign."""
MAX_TICKET_DEAL = 10
"""Most tickets dealt in one go (opening deal and ticket draw)."""
MAX_STARTING_HAND = 20
"""Most train cards dealt to each player at setup."""
MAX_DISPLAY = 10
"""Most face-up cards."""
MAX_FLUSH_REPEATS = 10
"""Most display flushes in a row."""
MAX_STATIONS = 10
"""Most stations per player."""
MAX_TUNNEL_REVEAL = 10
"""Most cards turned over for a tunnel."""
MAX_GROUP = 10
"""Largest group of any cards (``card_groups``, ``ferry_groups``)."""


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
        raise ValueError(f"expected an object of length: points, got {quote(value)}")
    out: dict[int, int] = {}
    for k, v in value.items():
        # Plain decimal digits only: int() would also take " 3", "3_0" or other scripts.
        if isinstance(k, int) and not isinstance(k, bool):
            k = str(k)
        elif not (isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 6):
            raise ValueError(f"route length {quote(k)} is not an integer")
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(f"points for length {k} must be an integer, got {quote(v)}")
        out[int(k)] = v
    return out


def _converter() -> cattrs.Converter:
    conv = strict_converter()
    conv.register_structure_hook_func(lambda t: t == Mapping[int, int], _points_table)
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
    """Structure and validate raw JSON data; raise `MapDataError` with a path."""
    if not isinstance(raw, dict):
        raise MapDataError("$: map data must be a JSON object")
    try:
        data = _CONVERTER.structure(raw, MapData)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        raise MapDataError(error_text(exc)) from None
    validate_map(data)
    return data


def load_map_data(text: str | bytes) -> MapData:
    """Parse map data from JSON text; raise `MapDataError` on any problem.

    An object with a key twice is refused (``$.routes[3]: duplicate key 'length'``).
    """
    try:
        raw = parse_json(text)
    except JsonTextError as exc:
        raise MapDataError(f"{exc.path or '$'}: {exc.problem}") from None
    return structure_map(raw)


def validate_map(data: MapData) -> None:
    """Check ids, endpoints, double routes, lengths, colours, tickets and every limit."""
    errors: list[str] = []
    bound = functools.partial(_bound, errors)
    p = data.parameters
    if data.format != MAP_FORMAT:
        errors.append(f"$.format: unsupported map format {data.format} (expected {MAP_FORMAT})")
    for key, items, most in (
        ("cities", data.cities, MAX_CITIES),
        ("routes", data.routes, MAX_TRACKS),
        ("tickets", data.tickets, MAX_TICKETS),
    ):
        if len(items) > most:
            errors.append(f"$.{key}: at most {most} entries, not {len(items)}")
    names: dict[str, str] = {}
    for i, city in enumerate(data.cities):
        for name in (city.id, *city.aliases):
            if name in names:
                errors.append(
                    f"$.cities[{i}]: name {quote(name)} is already used by {quote(names[name])}"
                )
            else:
                names[name] = city.id
        bound(f"$.cities[{i}].x", city.x, -MAX_COORDINATE, MAX_COORDINATE)
        bound(f"$.cities[{i}].y", city.y, -MAX_COORDINATE, MAX_COORDINATE)
    city_ids = {c.id for c in data.cities}
    countries = {c.country for c in data.cities if c.country is not None}
    for i, country in enumerate(data.countries):
        if country.id not in countries:
            errors.append(f"$.countries[{i}].id: no border arrow leads to {quote(country.id)}")
        for name in (country.id, *country.aliases):
            if name in names:
                errors.append(
                    f"$.countries[{i}]: name {quote(name)} is already used by {quote(names[name])}"
                )
            else:
                names[name] = country.id
    track_ids: dict[int, int] = {}
    for i, t in enumerate(data.routes):
        where = f"$.routes[{i}]"
        if t.id in track_ids:
            errors.append(f"{where}.id: duplicate track id {t.id}")
        track_ids[t.id] = i
        bound(f"{where}.id", t.id, 0, MAX_ID)
        for j, c in enumerate(t.cities):
            if c not in city_ids:
                errors.append(f"{where}.cities[{j}]: unknown city {quote(c)}")
        if t.cities[0] == t.cities[1]:
            errors.append(f"{where}.cities: a track cannot join a city to itself")
        if t.length < 1:
            errors.append(f"{where}.length: a track has at least one space, not {t.length}")
        elif t.length not in p.route_points:
            errors.append(
                f"{where}.length: {quote(t.length)} has no entry in parameters.route_points"
            )
        if t.color not in ROUTE_COLOR_NAMES:
            errors.append(
                f"{where}.color: unknown colour {quote(t.color)}; expected one of "
                + ", ".join(ROUTE_COLOR_NAMES)
            )
        if not 0 <= t.ferry <= t.length:
            errors.append(f"{where}.ferry: must be between 0 and the length {t.length}")
        in_range = _group_size(errors, f"{where}.card_groups", t.card_groups)
        if t.card_groups and in_range and (t.tunnel or t.ferry):
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
            errors.append(f"{where}: unknown track id {quote(t.parallel)}")
        elif other.parallel != t.id:
            errors.append(f"{where}: track {t.parallel} does not name track {t.id} back")
        elif frozenset(other.cities) != frozenset(t.cities) or other.id == t.id:
            errors.append(f"{where}: track {t.parallel} does not join the same two cities")
    for pair, n in pair_tracks.items():
        if n > 2:
            shown = " and ".join(quote(c) for c in sorted(pair))
            errors.append(f"$.routes: more than two tracks join {shown}")
    ticket_ids: set[int] = set()
    for i, tk in enumerate(data.tickets):
        where = f"$.tickets[{i}]"
        if tk.id in ticket_ids:
            errors.append(f"{where}.id: duplicate ticket id {tk.id}")
        ticket_ids.add(tk.id)
        bound(f"{where}.id", tk.id, 0, MAX_ID)
        if tk.kind == "country":
            if tk.targets is None or not tk.targets or tk.b is not None or tk.points is not None:
                errors.append(f"{where}: a country ticket has 'targets' and no 'b' or 'points'")
            else:
                for name, points in tk.targets.items():
                    if name not in countries:
                        errors.append(f"{where}.targets: unknown country {quote(name)}")
                    bound(f"{where}.targets[{quote(name)}]", points, 1, MAX_POINTS)
            if tk.a not in city_ids and tk.a not in countries:
                errors.append(f"{where}.a: unknown city or country {quote(tk.a)}")
            continue
        if tk.b is None or tk.points is None or tk.targets is not None:
            errors.append(f"{where}: a {tk.kind} ticket has 'a', 'b' and 'points'")
            continue
        for key, c in (("a", tk.a), ("b", tk.b)):
            if c not in city_ids:
                errors.append(f"{where}.{key}: unknown city {quote(c)}")
        if tk.a == tk.b:
            errors.append(f"{where}: a ticket needs two different cities")
        if tk.points <= 0:
            errors.append(f"{where}.points: must be positive")
        else:
            bound(f"{where}.points", tk.points, 1, MAX_POINTS)
    _check_parameters(p, errors)
    if errors:
        raise MapDataError("; ".join(errors))


def _bound(errors: list[str], where: str, value: int, lo: int, hi: int) -> bool:
    """Note an error unless ``lo <= value <= hi``; return whether it is in range."""
    if lo <= value <= hi:
        return True
    errors.append(f"{where}: must be between {lo} and {hi}, not {quote(value)}")
    return False


def _group_size(errors: list[str], where: str, value: int) -> bool:
    """Note an error unless ``value`` is 0 (no groups) or a group size of 2 to MAX_GROUP."""
    if value == 0 or 2 <= value <= MAX_GROUP:
        return True
    if 0 < value < 2:
        errors.append(f"{where}: a group has at least 2 cards, not {value}")
    else:
        errors.append(f"{where}: must be 0 (no groups) or 2 to {MAX_GROUP}, not {quote(value)}")
    return False


def _check_parameters(p: Parameters, errors: list[str]) -> None:
    """Note the problems of the parameters in ``errors``."""
    bound = functools.partial(_bound, errors)
    where = "$.parameters"
    lo, hi = p.players
    if not 1 <= lo <= hi:
        errors.append(f"{where}.players: expected [min, max] with 1 <= min <= max")
    bound(f"{where}.players[1]", hi, 1, MAX_PLAYERS)
    bound(f"{where}.trains", p.trains, 1, MAX_TRAINS)
    for name, count in p.train_cards.items():
        if name not in CARD_NAMES:
            errors.append(f"{where}.train_cards: unknown card {quote(name)}")
        elif count < 0:
            errors.append(f"{where}.train_cards.{name}: a count cannot be negative")
        else:
            bound(f"{where}.train_cards.{name}", count, 0, MAX_CARDS_PER_KIND)
    for length, points in p.route_points.items():
        at = f"{where}.route_points['{length}']"
        if bound(at, length, 1, MAX_ROUTE_LENGTH):
            bound(at, points, 0, MAX_POINTS)
    bound(f"{where}.double_routes_min_players", p.double_routes_min_players, 1, MAX_PLAYERS + 1)
    for key, deal, least_kept in (
        ("opening_tickets", p.opening_tickets, 0),
        ("ticket_draw", p.ticket_draw, 1),
    ):
        at = f"{where}.{key}"
        if bound(f"{at}.deal", deal.deal, least_kept, MAX_TICKET_DEAL):
            if not least_kept <= deal.keep <= deal.deal:
                errors.append(f"{at}.keep: expected {least_kept} <= keep <= deal ({deal.deal})")
            if key == "ticket_draw" and deal.long:
                errors.append(f"{at}.long: only the opening deal deals long tickets")
            else:
                bound(f"{at}.long", deal.long, 0, deal.deal)
    bound(f"{where}.starting_hand", p.starting_hand, 0, MAX_STARTING_HAND)
    deck = sum(n for n in p.train_cards.values() if n > 0)
    if 1 <= hi <= MAX_PLAYERS and deck < hi * p.starting_hand:
        errors.append(
            f"{where}.train_cards: {deck} cards cannot deal {p.starting_hand} to each of "
            f"{hi} players"
        )
    in_range = bound(f"{where}.stations", p.stations, 0, MAX_STATIONS)
    if in_range and p.stations and len(p.station_cost) != p.stations:
        errors.append(f"{where}.station_cost: needs one cost per station")
    for i, cost in enumerate(p.station_cost):
        bound(f"{where}.station_cost[{i}]", cost, 0, MAX_ROUTE_LENGTH)
    bound(f"{where}.unbuilt_station_points", p.unbuilt_station_points, 0, MAX_POINTS)
    d = p.display
    bound(f"{where}.display.size", d.size, 0, MAX_DISPLAY)
    if d.flush_locomotives is not None and not 1 <= d.flush_locomotives <= d.size:
        errors.append(
            f"{where}.display.flush_locomotives: must be null or between 1 and the display "
            f"size {d.size}, not {quote(d.flush_locomotives)}"
        )
    bound(f"{where}.display.flush_repeats", d.flush_repeats, 0, MAX_FLUSH_REPEATS)
    bound(f"{where}.tunnel_reveal", p.tunnel_reveal, 0, MAX_TUNNEL_REVEAL)
    _group_size(errors, f"{where}.ferry_groups", p.ferry_groups)
    if p.longest_path_bonus is not None:
        bound(f"{where}.longest_path_bonus", p.longest_path_bonus, 0, MAX_POINTS)
    for i, key in enumerate(p.tie_breakers):
        if key not in TIE_BREAKERS:
            errors.append(
                f"{where}.tie_breakers[{i}]: unknown tie-breaker {quote(key)}; expected one of "
                + ", ".join(TIE_BREAKERS)
            )
