"""Reading the end-of-game position that ``ttr score`` scores.

The input format is a public contract::

    {"edition": "usa",
     "players": [{"name": "Ann",
                  "routes": [{"a": "Denver", "b": "Omaha", "color": "pink"}],
                  "tickets": [{"a": "Denver", "b": "El Paso"}],
                  "stations": []}]}

* ``edition``: an installed edition's id or alias.
* ``players``: 1 to the edition's maximum number of players, in seat order, with unique
  non-empty names. A single player is accepted: scoring one player's holdings is
  meaningful (e.g. to check a score sheet), and every rule that involves other players
  simply has nothing to compare.
* ``routes``: the tracks a player claimed. ``a`` and ``b`` are the city names as printed
  (or a city's alias), in either order. A border arrow (a city with a country) may also be
  named by its bare country name when the other endpoint, and the colour if needed, leave
  just one track. ``color`` is optional and checked when given (``"gray"`` for a gray
  track); on a double route whose tracks differ it picks the track, with ``length`` when
  the colour is not enough. Tracks that are interchangeable (the same colour and length)
  need neither: the first one that no earlier player or route took is used.
* ``tickets``: the names printed on the card, ``{"a": ..., "b": ...}`` in either order, or
  for a country ticket ``{"a": origin, "to_any": [countries]}`` (the set of countries must
  match the card; a country may be named by an alias, e.g. ``Italien`` for ``Italia``).
  When the deck has several cards with the same places, ``"id"`` (the map's ticket id)
  or, for a city ticket, ``"points"`` tells them apart. Identical copies (Switzerland's
  doubled country cards) are interchangeable and need neither: the first copy no earlier
  entry took is used. Cards that differ and are not told apart are refused, naming them.
  A ticket may be held, over all players, as many times as the deck has such cards.
* ``stations`` (optional): names of the cities with the player's stations; only in
  editions with stations.

Impossible positions are refused with a [`PositionError`][ttr_core.model.errors.PositionError]
naming the player and item, e.g. ``players[1].routes[3]: no track between Denver and Boston``:
unknown cities or tickets, a track owned twice, both tracks of a double route in one hand or in use
with too few players, more trains or stations than a player has, two stations in one city, wrong
types, missing fields, unknown keys, a key given twice in one object, and text that UTF-8 cannot
encode (a lone surrogate such as ``"\\ud800"``).

[`position_to_json`][] writes the same format, so a finished game can be re-scored.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import evolve

from ttr_core.model.cards import ROUTE_COLOR_NAMES
from ttr_core.model.errors import PositionError, quote
from ttr_core.model.strict import JsonTextError, check_text, parse_json
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position
from ttr_core.ruleset.ruleset import Ruleset

POSITION_KEYS = ("edition", "players")
PLAYER_KEYS = ("name", "routes", "tickets", "stations")
ROUTE_KEYS = ("a", "b", "color", "length")


def _fail(where: str, message: str) -> PositionError:
    return PositionError(f"{where}: {message}")


def _object(
    value: Any, where: str, required: Sequence[str], optional: Sequence[str]
) -> dict[str, Any]:
    """Check that ``value`` is an object with the required keys and no unknown ones."""
    if not isinstance(value, dict):
        raise _fail(where, f"expected an object, got {_kind(value)}")
    for key in value:
        if key not in required and key not in optional:
            allowed = ", ".join((*required, *optional))
            raise _fail(where, f"unknown key {quote(key)} (expected {allowed})")
    for key in required:
        if key not in value:
            raise _fail(where, f"missing key {key!r}")
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {quote(value)}"
    if isinstance(value, str):
        return f"the string {quote(value)}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(where, f"expected a string, got {_kind(value)}")
    if not value.strip():
        raise _fail(where, "expected a non-empty string")
    try:
        return check_text(value)
    except ValueError as exc:
        raise _fail(where, str(exc)) from None


def _shown(name: str) -> str:
    """A name as given, or quoted and cut when it is long or holds unprintable characters."""
    return name if len(name) <= 40 and name.isprintable() else quote(name)


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"expected a list, got {_kind(value)}")
    return value


def _suggest(name: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(choices), n=3)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


class _Resolver:
    """Name lookups for one ruleset: cities, border-arrow countries, tracks and tickets."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.ix = ix = index_of(rs)
        """The rules' index of ``rs``: cities, tracks and tickets by number."""
        self.countries: dict[str, str] = ix.country_id
        """Country names and aliases -> the country's id."""
        self.pair_tracks: dict[frozenset[int], list[int]] = {}
        for r in range(len(ix.routes)):
            key = frozenset((ix.route_a[r], ix.route_b[r]))
            self.pair_tracks.setdefault(key, []).append(r)

    def city(self, name: str, where: str) -> int:
        """The index of a city named by its id or an alias."""
        c = self.ix.city_index.get(name)
        if c is None:
            raise _fail(where, f"unknown city {quote(name)}{_suggest(name, self.ix.city_index)}")
        return c

    def endpoint(self, name: str, where: str) -> tuple[int, ...]:
        """The cities a route endpoint may mean: one city, or a country's border arrows."""
        c = self.ix.city_index.get(name)
        if c is not None:
            return (c,)
        arrows = self.rs.place_cities(name)
        if arrows:
            return arrows
        names = [*self.ix.city_index, *self.countries]
        raise _fail(where, f"unknown city {quote(name)}{_suggest(name, names)}")

    def place(self, name: str, where: str) -> str:
        """A ticket origin: a city (returned by id) or a country name."""
        c = self.ix.city_index.get(name)
        if c is not None:
            return self.ix.city_ids[c]
        if name in self.countries:
            return self.countries[name]
        names = [*self.ix.city_index, *self.countries]
        raise _fail(where, f"unknown city or country {quote(name)}{_suggest(name, names)}")


def _describe(rs: Ruleset, r: int) -> str:
    t = rs.map.routes[r]
    return f"{t.color} {t.length}"


def _interchangeable(rs: Ruleset, tracks: Sequence[int]) -> bool:
    ix = index_of(rs)
    first = tracks[0]
    return all(
        ix.route_color[r] == ix.route_color[first]
        and ix.route_len[r] == ix.route_len[first]
        and ix.route_ferry[r] == ix.route_ferry[first]
        and ix.route_tunnel[r] == ix.route_tunnel[first]
        for r in tracks
    )


def _track_candidates(res: _Resolver, raw: dict[str, Any], where: str) -> tuple[list[int], str]:
    """The tracks a route entry may mean (one city pair), and its readable name."""
    rs, ix = res.rs, res.ix
    a = _string(raw["a"], f"{where}.a")
    b = _string(raw["b"], f"{where}.b")
    color: str | None = None
    if "color" in raw:
        color = _string(raw["color"], f"{where}.color")
        if color not in ROUTE_COLOR_NAMES:
            raise _fail(
                f"{where}.color",
                f"unknown colour {quote(color)}; expected one of {', '.join(ROUTE_COLOR_NAMES)}",
            )
    length = raw.get("length")
    if "length" in raw and (not isinstance(length, int) or isinstance(length, bool) or length < 1):
        raise _fail(f"{where}.length", f"expected a positive integer, got {_kind(length)}")
    ends_a = res.endpoint(a, f"{where}.a")
    ends_b = res.endpoint(b, f"{where}.b")
    tracks = sorted(
        r
        for x in ends_a
        for y in ends_b
        if x != y
        for r in res.pair_tracks.get(frozenset((x, y)), ())
    )
    if not tracks:
        raise _fail(where, f"no track between {a} and {b}")
    if color is not None:
        kept = [r for r in tracks if ix.routes[r].color == color]
        if not kept:
            found = ", ".join(_describe(rs, r) for r in tracks)
            raise _fail(where, f"no {color} track between {a} and {b} (there is: {found})")
        tracks = kept
    if length is not None:
        kept = [r for r in tracks if ix.route_len[r] == length]
        if not kept:
            found = ", ".join(_describe(rs, r) for r in tracks)
            raise _fail(
                where, f"no track of length {length} between {a} and {b} (there is: {found})"
            )
        tracks = kept
    pairs = {frozenset((ix.route_a[r], ix.route_b[r])) for r in tracks}
    if len(pairs) > 1:
        arrows = {c for pair in pairs for c in pair if ix.city_country[c] is not None}
        shown = ", ".join(sorted(ix.city_ids[c] for c in arrows))
        raise _fail(where, f"{a}-{b} could be several tracks; name the border arrow ({shown})")
    pair = sorted(next(iter(pairs)), key=lambda c: (c not in ends_a, c))
    name = f"{ix.city_ids[pair[0]]}-{ix.city_ids[pair[1]]}"
    if len(tracks) > 1 and not _interchangeable(rs, tracks):
        colors = {ix.routes[r].color for r in tracks}
        if len(colors) > 1:
            shown = ", ".join(sorted(colors))
            raise _fail(where, f'{name} is a double route ({shown}); give its "color"')
        if len({ix.route_len[r] for r in tracks}) > 1:
            shown = ", ".join(str(ix.route_len[r]) for r in tracks)
            raise _fail(where, f'{name} has tracks of lengths {shown}; give its "length"')
        # The tracks differ only in ferry or tunnel marks, which scoring never reads:
        # they are taken in map order like interchangeable ones.
    return tracks, name


def _ticket_key(res: _Resolver, raw: dict[str, Any], where: str) -> tuple[Any, ...]:
    """A key equal for every card printed with the same places (see ``_card_key``)."""
    if "to_any" in raw:
        if "b" in raw:
            raise _fail(where, "give either 'b' or 'to_any', not both")
        if "points" in raw:
            raise _fail(
                f"{where}.points",
                "a country ticket has a value per country; tell it apart by its 'id'",
            )
        origin = res.place(_string(raw["a"], f"{where}.a"), f"{where}.a")
        targets = _list(raw["to_any"], f"{where}.to_any")
        if not targets:
            raise _fail(f"{where}.to_any", "expected at least one country")
        names: list[str] = []
        for j, t in enumerate(targets):
            name = _string(t, f"{where}.to_any[{j}]")
            country = res.countries.get(name)
            if country is None:
                shown = _suggest(name, res.countries)
                raise _fail(f"{where}.to_any[{j}]", f"unknown country {quote(name)}{shown}")
            if country in names:
                raise _fail(f"{where}.to_any[{j}]", f"{quote(name)} is listed twice")
            names.append(country)
        return ("country", origin, frozenset(names))
    if "b" not in raw:
        raise _fail(where, "missing key 'b' (or 'to_any' for a country ticket)")
    a = res.city(_string(raw["a"], f"{where}.a"), f"{where}.a")
    b = res.city(_string(raw["b"], f"{where}.b"), f"{where}.b")
    return ("cities", frozenset((a, b)))


def _card_key(rs: Ruleset, i: int) -> tuple[Any, ...]:
    ix = index_of(rs)
    t = ix.tickets[i]
    if t.targets is not None:
        origin = ix.city_ids[ix.city_index[t.a]] if t.a in ix.city_index else t.a
        return ("country", origin, frozenset(t.targets))
    return ("cities", frozenset((ix.city_index[t.a], ix.city_index[t.b or ""])))


def _card_value(rs: Ruleset, i: int) -> tuple[Any, ...]:
    """What tells two cards with the same places apart: equal for identical copies."""
    t = rs.map.tickets[i]
    targets = None if t.targets is None else frozenset(t.targets.items())
    return (t.kind, t.points, targets)


def _card_text(rs: Ruleset, i: int) -> str:
    """A card for messages: ``ticket 7 (6 points)`` or ``ticket 43 (Deutschland 5, ...)``."""
    t = rs.map.tickets[i]
    if t.targets is not None:
        values = ", ".join(f"{country} {points}" for country, points in t.targets.items())
        return f"ticket {t.id} ({values})"
    return f"ticket {t.id} ({t.points} points)"


def _ticket_name(raw: dict[str, Any]) -> str:
    if "to_any" in raw:
        return _shown(f"{raw['a']}-{'/'.join(str(t) for t in raw['to_any'])}")
    return _shown(f"{raw['a']}-{raw['b']}")


def _ticket_cards(
    rs: Ruleset, cards: Sequence[int], raw: dict[str, Any], where: str
) -> tuple[int, ...]:
    """The cards a ticket entry may mean: all identical copies of one card, in deck order.

    ``id`` picks one card, ``points`` (city tickets) keeps the cards of that value; when
    cards that are not identical remain, the entry is refused naming them.
    """
    name = _ticket_name(raw)
    if "id" in raw:
        tid = raw["id"]
        if not isinstance(tid, int) or isinstance(tid, bool):
            raise _fail(f"{where}.id", f"expected a ticket id (an integer), got {_kind(tid)}")
        kept = [i for i in cards if rs.map.tickets[i].id == tid]
        if not kept:
            found = ", ".join(_card_text(rs, i) for i in cards)
            raise _fail(f"{where}.id", f"ticket {tid} is not {name} (there is: {found})")
        cards = kept
    if "points" in raw:
        points = raw["points"]
        if not isinstance(points, int) or isinstance(points, bool):
            raise _fail(f"{where}.points", f"expected an integer, got {_kind(points)}")
        kept = [i for i in cards if rs.map.tickets[i].points == points]
        if not kept:
            found = ", ".join(_card_text(rs, i) for i in cards)
            raise _fail(f"{where}.points", f"no ticket {name} worth {points} (there is: {found})")
        cards = kept
    values = {_card_value(rs, i) for i in cards}
    if len(values) > 1:
        found = " or ".join(_card_text(rs, i) for i in cards)
        hint = "its 'id'" if "to_any" in raw else "its 'id' or 'points'"
        raise _fail(where, f"{name} could be {found}; give {hint}")
    return tuple(cards)


def parse_position(rs: Ruleset, raw: Any) -> Position:
    """Turn decoded position JSON into a [`Position`][ttr_core.rules.scoring.Position] for ``rs``.

    ``raw["edition"]`` must name ``rs``'s edition (by id or alias).

    :raises PositionError: the position is malformed or impossible; the message starts
        with the path of the offending item, e.g. ``players[0].routes[2]``.
    """
    top = _object(raw, "position", POSITION_KEYS, ())
    edition = _string(top["edition"], "edition")
    info = rs.info
    if edition.strip().lower() not in {info.id.lower(), *(x.lower() for x in info.aliases)}:
        raise _fail("edition", f"the position is for {quote(edition)}, not {info.id!r}")
    players = _list(top["players"], "players")
    params = rs.params
    hi = params.players[1]
    if not players:
        raise _fail("players", "expected at least one player")
    if len(players) > hi:
        raise _fail("players", f"{info.id} is played by at most {hi} players, got {len(players)}")
    res = _Resolver(rs)
    ix = res.ix
    entries = [
        _object(p, f"players[{i}]", ("name", "routes", "tickets"), ("stations",))
        for i, p in enumerate(players)
    ]
    names: dict[str, int] = {}
    for i, p in enumerate(entries):
        name = _string(p["name"], f"players[{i}].name")
        if name in names:
            raise _fail(
                f"players[{i}].name",
                f"{quote(name)} is already the name of players[{names[name]}]",
            )
        names[name] = i
    owner: dict[int, tuple[int, int]] = {}
    ticket_cards: dict[tuple[Any, ...], list[int]] = {}
    for t in range(len(ix.tickets)):
        ticket_cards.setdefault(_card_key(rs, t), []).append(t)
    asked: list[list[tuple[str, str, tuple[int, ...], bool]]] = []
    station_city: dict[int, tuple[int, int]] = {}
    out: list[PlayerPosition] = []
    few = len(entries) < params.double_routes_min_players
    for i, p in enumerate(entries):
        pname = p["name"]
        shown = _shown(pname)
        routes: list[int] = []
        for j, item in enumerate(_list(p["routes"], f"players[{i}].routes")):
            where = f"players[{i}].routes[{j}]"
            item = _object(item, where, ("a", "b"), ("color", "length"))
            tracks, name = _track_candidates(res, item, where)
            free = [r for r in tracks if r not in owner]
            if not free:
                holders = sorted({owner[r] for r in tracks})
                if holders[0][0] == i:
                    raise _fail(where, f"{name} is already listed at routes[{holders[0][1]}]")
                who = ", ".join(f"players[{k}] ({_shown(entries[k]['name'])})" for k, _ in holders)
                raise _fail(where, f"{name} is already owned by {who}")
            r = free[0]
            twin = ix.route_twin[r]
            if twin >= 0 and twin in owner:
                k, jj = owner[twin]
                if k == i:
                    raise _fail(
                        where,
                        f"{shown} cannot own both tracks of the double route {name} "
                        f"(see routes[{jj}]; rule DOUBLE-1)",
                    )
                if few:
                    raise _fail(
                        where,
                        f"the other track of the double route {name} is owned by players[{k}] "
                        f"({_shown(entries[k]['name'])}); with {len(entries)} players only one "
                        f"track of a double route is used (rule DOUBLE-2, both from "
                        f"{params.double_routes_min_players} players)",
                    )
            owner[r] = (i, j)
            routes.append(r)
        used = sum(ix.route_len[r] for r in routes)
        if used > params.trains:
            raise _fail(
                f"players[{i}].routes",
                f"{shown}'s routes use {used} trains, but a player has only {params.trains}",
            )
        mine: list[tuple[str, str, tuple[int, ...], bool]] = []
        for j, item in enumerate(_list(p["tickets"], f"players[{i}].tickets")):
            where = f"players[{i}].tickets[{j}]"
            item = _object(item, where, ("a",), ("b", "to_any", "id", "points"))
            cards = ticket_cards.get(_ticket_key(res, item, where), [])
            if not cards:
                raise _fail(where, f"no ticket {_ticket_name(item)} in the {info.id} deck")
            copies = _ticket_cards(rs, cards, item, where)
            mine.append((where, _ticket_name(item), copies, "id" in item))
        asked.append(mine)
        stations: list[int] = []
        listed = p.get("stations", [])
        items = _list(listed, f"players[{i}].stations")
        if items and not params.stations:
            raise _fail(f"players[{i}].stations", f"{info.id} has no stations")
        if len(items) > params.stations:
            raise _fail(
                f"players[{i}].stations",
                f"{shown} lists {len(items)} stations, but a player has only {params.stations}",
            )
        for j, item in enumerate(items):
            where = f"players[{i}].stations[{j}]"
            c = res.city(_string(item, where), where)
            if c in station_city:
                k, jj = station_city[c]
                raise _fail(
                    where,
                    f"{ix.city_ids[c]} already has a station (players[{k}].stations[{jj}]); "
                    "a city holds one station",
                )
            station_city[c] = (i, j)
            stations.append(c)
        out.append(
            PlayerPosition(name=pname, routes=tuple(routes), tickets=(), stations=tuple(stations))
        )
    # Tickets named by id are handed out first, then the others get the first free copy.
    holder: dict[int, str] = {}
    for mine in asked:
        for where, _, copies, by_id in mine:
            if by_id:
                if copies[0] in holder:
                    raise _fail(
                        f"{where}.id",
                        f"ticket {ix.ticket_ids[copies[0]]} is already held at {holder[copies[0]]}",
                    )
                holder[copies[0]] = where
    held: list[list[int]] = []
    for mine in asked:
        tickets_held = []
        for where, name, copies, by_id in mine:
            if not by_id:
                free = [c for c in copies if c not in holder]
                if not free:
                    n = sum(1 for c in copies if c in holder) + 1
                    count = "1 card" if len(copies) == 1 else f"{len(copies)} cards"
                    raise _fail(
                        where, f"ticket {name} is held {n} times, but the deck has {count} of it"
                    )
                holder[free[0]] = where
                tickets_held.append(free[0])
            else:
                tickets_held.append(copies[0])
        held.append(tickets_held)
    return Position(
        players=tuple(evolve(pp, tickets=tuple(t)) for pp, t in zip(out, held, strict=True))
    )


def load_position(
    raw: Any, *, options: Mapping[str, Any] | None = None, plugins: Iterable[object] = ()
) -> tuple[Ruleset, Position]:
    """Build the ruleset the position names (with ``options``) and parse the position.

    :raises PositionError: as [`parse_position`][].
    :raises UnknownEditionError: the edition is not installed.
    :raises OptionError: an option is unknown or has a value the edition does not offer.
    """
    top = _object(raw, "position", POSITION_KEYS, ())
    edition = _string(top["edition"], "edition")
    rs = Ruleset.build(edition, options, plugins)
    return rs, parse_position(rs, top)


def read_position(
    text: str | bytes, *, options: Mapping[str, Any] | None = None, plugins: Iterable[object] = ()
) -> tuple[Ruleset, Position]:
    """Parse position JSON text; see [`load_position`][].

    :raises PositionError: the text is not valid JSON, an object has a key twice
        (``players[1]: duplicate key 'name'``), or as [`load_position`][].
    """
    try:
        raw = parse_json(text, root="")
    except JsonTextError as exc:
        raise PositionError(f"{exc.path or 'position'}: {exc.problem}") from None
    return load_position(raw, options=options, plugins=plugins)


def position_to_json(rs: Ruleset, position: Position) -> dict[str, Any]:
    """Write a position in the ``ttr score`` input format (what [`parse_position`][] reads).

    Colour and length are given only where the track's double route needs them, and a
    ticket's id only where the deck has another card with the same places, so that the
    position names exactly the cards held.
    """
    ix = index_of(rs)
    same: dict[tuple[Any, ...], list[int]] = {}
    for k in range(len(ix.tickets)):
        same.setdefault(_card_key(rs, k), []).append(k)
    players = []
    for pp in position.players:
        routes = []
        for r in pp.routes:
            t = ix.routes[r]
            entry: dict[str, Any] = {"a": t.cities[0], "b": t.cities[1]}
            twin = ix.route_twin[r]
            if twin >= 0 and not _interchangeable(rs, (r, twin)):
                entry["color"] = t.color
                if ix.route_color[twin] == ix.route_color[r]:
                    entry["length"] = t.length
            routes.append(entry)
        tickets: list[dict[str, Any]] = []
        for i in pp.tickets:
            tk = ix.tickets[i]
            if tk.targets is not None:
                ticket: dict[str, Any] = {"a": tk.a, "to_any": list(tk.targets)}
            else:
                ticket = {"a": tk.a, "b": tk.b}
            if len(same[_card_key(rs, i)]) > 1:
                ticket["id"] = tk.id
            tickets.append(ticket)
        player: dict[str, Any] = {"name": pp.name, "routes": routes, "tickets": tickets}
        if rs.params.stations:
            player["stations"] = [ix.city_ids[c] for c in pp.stations]
        players.append(player)
    return {"edition": rs.id, "players": players}
