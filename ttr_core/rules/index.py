"""The rules' index of a ruleset: cities, tracks and tickets as small integers, and memos.

A [`Ruleset`][ttr_core.ruleset.ruleset.Ruleset] keeps its map data and parameters in map
ids; the mechanics play on integer indices instead. `RulesetIndex` holds every
table derived from the map data and the parameters (nothing about plugins), built once
per ruleset; `RulesetMemos` holds what fills during play.

`index_of` and `memos_of` are internal to the rules, play, hidden, formats and testing
layers: plugins see map ids only ([`ttr_core.plugin`][ttr_core.plugin]).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from attrs import Factory, define, frozen

from ttr_core.model.cards import NUM_KINDS, card_index, route_color_index
from ttr_core.model.mapdata import MapData, Parameters, Ticket, Track

if TYPE_CHECKING:
    from ttr_core.model.actions import ClaimRoute, KeepTickets
    from ttr_core.rules.payment_counts import ClaimTables
    from ttr_core.ruleset.ruleset import Ruleset


class RouteClass(NamedTuple):
    """What makes tracks interchangeable: tracks of one class accept the same payments."""

    color: int
    """Route colour number (8 for gray)."""
    length: int
    ferry: int
    """Locomotive symbols."""
    tunnel: bool
    locos_ok: bool
    """Whether locomotives may be played as single cards."""
    group: int
    """Cards per group of any cards, 0 if the track takes no groups."""
    covers_color: bool
    """Whether a group may cover a space of the colour (tracks taking groups only)."""


class GroupShape(NamedTuple):
    """What a route class accepts as payment with groups of any cards."""

    color: int
    """The track's colour (8 for gray)."""
    length: int
    """Spaces on the track."""
    symbols: int
    """Locomotive symbols (ferry spaces)."""
    size: int
    """Cards per group of any cards; 0 if the track takes no groups."""
    locos_ok: bool
    """Whether locomotives may be played as single cards."""
    covers_color: bool
    """Whether a group may cover a space of the colour, not only a locomotive symbol."""


@frozen(eq=False, repr=False)
class RulesetIndex:
    """Every table the mechanics read, built from one map and its parameters.

    Cities, tracks and tickets are numbered in map order; a track's *class* groups the
    tracks that accept exactly the same payments. Build one with `build`.
    """

    # Cities.
    city_ids: tuple[str, ...]
    city_index: dict[str, int]
    """City id or alias -> city index."""
    city_country: tuple[str | None, ...]
    """The country of each border arrow, None for a city."""
    country_arrows: dict[str, tuple[int, ...]]
    """Country id -> its border arrows."""
    country_id: dict[str, str]
    """Country name or alias -> country id."""
    city_routes: tuple[tuple[int, ...], ...]
    """City -> the tracks touching it."""
    # Tracks.
    routes: tuple[Track, ...]
    route_ids: tuple[int, ...]
    route_index: dict[int, int]
    """Track id -> track index."""
    route_a: tuple[int, ...]
    route_b: tuple[int, ...]
    route_len: tuple[int, ...]
    route_color: tuple[int, ...]
    route_ferry: tuple[int, ...]
    route_tunnel: tuple[bool, ...]
    route_points: tuple[int, ...]
    route_twin: tuple[int, ...]
    """The other track of a double route, -1 for none."""
    max_route_length: int
    route_locos_ok: tuple[bool, ...]
    """Whether locomotives may be played as single cards on the track."""
    route_group: tuple[int, ...]
    """Cards per group of any cards on the track, 0 for none."""
    route_group_covers_color: tuple[bool, ...]
    has_groups: bool
    has_tunnels: bool
    # Route classes, numbered by colour (gray last), then length, then first appearance.
    class_of: tuple[int, ...]
    class_keys: tuple[RouteClass, ...]
    class_routes: tuple[tuple[int, ...], ...]
    class_len: tuple[int, ...]
    group_shapes: tuple[GroupShape, ...]
    group_classes: tuple[int, ...]
    """The classes that take groups of any cards."""
    group_class_colors: tuple[int, ...]
    group_class_position: dict[int, int]
    """Class -> its position in ``group_classes``."""
    # Tickets.
    tickets: tuple[Ticket, ...]
    ticket_ids: tuple[int, ...]
    ticket_index: dict[int, int]
    """Ticket id -> ticket index."""
    regular_tickets: tuple[int, ...]
    long_tickets: tuple[int, ...]
    # Cards and the rules that read them on every turn.
    train_deck: tuple[int, ...]
    """The train deck as card numbers, sorted."""
    deck_counts: tuple[int, ...]
    """Cards of each kind in the train deck."""
    face_up_loco_whole_draw: bool
    flush_at: int | None
    """Face-up locomotives that flush the display, None for never."""
    double_open_min: int
    """Players from which both tracks of a double route are open."""

    @classmethod
    def build(cls, data: MapData, p: Parameters) -> RulesetIndex:
        """Index ``data`` played by the parameters ``p`` (which may differ from the
        parameters the map data declares)."""
        city_ids = tuple(c.id for c in data.cities)
        city_index: dict[str, int] = {}
        for i, c in enumerate(data.cities):
            for name in (c.id, *c.aliases):
                city_index[name] = i
        city_country = tuple(c.country for c in data.cities)
        # Countries of border arrows: name or alias -> id, and id -> arrows.
        country_arrows: dict[str, tuple[int, ...]] = {}
        for i, country in enumerate(city_country):
            if country is not None:
                country_arrows[country] = (*country_arrows.get(country, ()), i)
        country_id: dict[str, str] = {name: name for name in country_arrows}
        for declared in data.countries:
            for name in (declared.id, *declared.aliases):
                country_id[name] = declared.id
        routes = data.routes
        route_index = {t.id: i for i, t in enumerate(routes)}
        route_a = tuple(city_index[t.cities[0]] for t in routes)
        route_b = tuple(city_index[t.cities[1]] for t in routes)
        route_len = tuple(t.length for t in routes)
        route_color = tuple(route_color_index(t.color) for t in routes)
        route_ferry = tuple(t.ferry for t in routes)
        route_tunnel = tuple(t.tunnel for t in routes)
        # Locomotives allowed as single cards on each route (edition declaration).
        route_locos_ok = tuple(
            p.locomotives == "anywhere"
            or (p.locomotives == "tunnels" and t.tunnel)
            or (p.locomotives == "tunnels_and_ferries" and (t.tunnel or t.ferry > 0))
            for t in routes
        )
        # Groups of any cards (ferries of some editions, tracks declaring card_groups).
        route_group = tuple(
            t.card_groups or (p.ferry_groups if t.ferry and not t.tunnel else 0) for t in routes
        )
        route_group_covers_color = tuple(
            bool(t.card_groups) or p.ferry_group_stacking for t in routes
        )
        # Route classes: tracks that accept exactly the same payments.
        keys: dict[RouteClass, int] = {}
        first_seen: list[int] = []
        for r in range(len(routes)):
            key = RouteClass(
                route_color[r],
                route_len[r],
                route_ferry[r],
                route_tunnel[r],
                route_locos_ok[r],
                route_group[r],
                route_group[r] > 0 and route_group_covers_color[r],
            )
            first_seen.append(keys.setdefault(key, len(keys)))
        # Classes are numbered by colour (gray last), then length, then first appearance
        # in the map: the order claims are listed in.
        class_keys = tuple(sorted(keys, key=lambda key: (key.color, key.length, keys[key])))
        number = {keys[key]: i for i, key in enumerate(class_keys)}
        class_of = tuple(number[k] for k in first_seen)
        group_shapes = tuple(
            GroupShape(key.color, key.length, key.ferry, key.group, key.locos_ok, key.covers_color)
            for key in class_keys
        )
        group_classes = tuple(k for k, shape in enumerate(group_shapes) if shape.size)
        # Adjacency: city -> routes touching it.
        adjacent: list[list[int]] = [[] for _ in data.cities]
        for r in range(len(routes)):
            adjacent[route_a[r]].append(r)
            adjacent[route_b[r]].append(r)
        deck: list[int] = []
        for name, n in p.train_cards.items():
            deck.extend([card_index(name)] * n)
        train_deck = tuple(sorted(deck))
        return cls(
            city_ids=city_ids,
            city_index=city_index,
            city_country=city_country,
            country_arrows=country_arrows,
            country_id=country_id,
            city_routes=tuple(tuple(x) for x in adjacent),
            routes=routes,
            route_ids=tuple(t.id for t in routes),
            route_index=route_index,
            route_a=route_a,
            route_b=route_b,
            route_len=route_len,
            route_color=route_color,
            route_ferry=route_ferry,
            route_tunnel=route_tunnel,
            route_points=tuple(p.route_points[t.length] for t in routes),
            route_twin=tuple(-1 if t.parallel is None else route_index[t.parallel] for t in routes),
            max_route_length=max(route_len, default=0),
            route_locos_ok=route_locos_ok,
            route_group=route_group,
            route_group_covers_color=route_group_covers_color,
            has_groups=any(route_group),
            has_tunnels=any(route_tunnel),
            class_of=class_of,
            class_keys=class_keys,
            class_routes=tuple(
                tuple(r for r in range(len(routes)) if class_of[r] == k)
                for k in range(len(class_keys))
            ),
            class_len=tuple(key.length for key in class_keys),
            group_shapes=group_shapes,
            group_classes=group_classes,
            group_class_colors=tuple(group_shapes[k].color for k in group_classes),
            group_class_position={k: i for i, k in enumerate(group_classes)},
            tickets=data.tickets,
            ticket_ids=tuple(t.id for t in data.tickets),
            ticket_index={t.id: i for i, t in enumerate(data.tickets)},
            regular_tickets=tuple(i for i, t in enumerate(data.tickets) if t.kind != "long"),
            long_tickets=tuple(i for i, t in enumerate(data.tickets) if t.kind == "long"),
            train_deck=train_deck,
            deck_counts=tuple(train_deck.count(k) for k in range(NUM_KINDS)),
            face_up_loco_whole_draw=p.face_up_locomotive == "whole_draw",
            flush_at=p.display.flush_locomotives,
            double_open_min=p.double_routes_min_players,
        )


@define(eq=False, repr=False)
class RulesetMemos:
    """What fills during play, keyed by the hands that were listed: a ruleset object's own.

    A [`private_copy`][ttr_core.ruleset.ruleset.Ruleset.private_copy] starts a new, empty one, so
    a ruleset handed to a bot holds no hand the bot has not seen.
    """

    claim_tables: ClaimTables | None = None
    """The claim tables, built on first use
    ([`ttr_core.rules.payment_counts.claim_tables`][ttr_core.rules.payment_counts.claim_tables])."""
    station_payment_cache: dict[tuple[int, bytes], list[tuple[int, ...]]] = Factory(dict)
    claim_actions: list[ClaimRoute | None] = Factory(list)
    """The claims that listings built, so that a listing hands out the same frozen object
    again rather than building it ([`ttr_core.play.simulator.Simulator.legal_action`][]):
    one cell for each track and place of a payment among its class's payments, sized
    on first use."""
    keep_actions: dict[tuple[int, ...], KeepTickets] = Factory(dict)
    """The ticket choices that listings built, by the kept ticket indices, handed out
    again as claims are (see ``claim_actions``)."""
    tracks_by_owners: dict[
        tuple[tuple[int, ...], int], tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    ] = Factory(dict)
    """The free and blocked tracks that loading worked out, by the track owners and the
    number of players ([`ttr_core.rules.double_routes.tracks_of`][])."""


HAND_MEMO_LIMIT: Final = 200_000
"""How many entries a memo of [`RulesetMemos`][] keyed by hands (or by track owners)
holds before it is emptied and fills again: enough for every hand of long simulation runs,
and a bound on the memory a ruleset keeps."""


def index_of(rs: Ruleset) -> RulesetIndex:
    """The index of ``rs`` (internal to the rules, play, hidden, formats and testing layers)."""
    return rs._index


def memos_of(rs: Ruleset) -> RulesetMemos:
    """The memos of ``rs`` (internal to the rules, play, hidden, formats and testing layers)."""
    return rs._memos
