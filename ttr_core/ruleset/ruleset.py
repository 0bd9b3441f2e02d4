"""A ruleset: one edition, its options and any house-rule plugins, compiled for play.

Each ruleset owns its own plugin manager (never a global one). Building it calls the
build-time hooks once, validates the options, and indexes cities, tracks and tickets
to small integers with the tables the engine needs on its hot path.
"""

from __future__ import annotations

import copy
import os
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import pluggy

from ttr_core.model.cards import NUM_KINDS, card_index, route_color_index
from ttr_core.model.errors import MapDataError, OptionError, quote
from ttr_core.model.mapdata import MapData, Parameters, Ticket, Track, validate_map
from ttr_core.rules.card_groups import GroupShape
from ttr_core.ruleset import core_plugin, hookspecs
from ttr_core.ruleset.editions import EditionInfo, OptionSpec, find_edition, options_doc

if TYPE_CHECKING:
    from ttr_core.rules.claims import ClaimTables

TRACE_ENV = "TTR_TRACE_HOOKS"
"""Set this environment variable to print every hook call of new rulesets to stderr."""


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


class Ruleset:
    """The compiled rules of one edition with options and extra plugins.

    Build one with :meth:`Ruleset.build` (or :func:`ttr_core.ruleset_for`). Its rules
    never change after building, and any number of games can share it; only memos
    (keyed by the hands listed) fill during play, so bots get a :meth:`private_copy`.
    """

    def __init__(
        self,
        edition_plugin: object,
        options: Mapping[str, Any] | None = None,
        plugins: Iterable[object] = (),
    ) -> None:
        pm = pluggy.PluginManager(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
        pm.register(core_plugin, name="ttr-core")
        pm.register(edition_plugin)
        for plugin in plugins:
            pm.register(plugin)
        pm.check_pending()
        if os.environ.get(TRACE_ENV):
            pm.trace.root.setwriter(sys.stderr.write)
            pm.enable_tracing()
        self.plugin_manager = pm
        info = pm.hook.ttr_edition_info()
        if not isinstance(info, EditionInfo):
            raise MapDataError("the edition plugin does not implement ttr_edition_info")
        self.info: EditionInfo = info
        self.option_specs: tuple[OptionSpec, ...] = tuple(
            spec for specs in reversed(pm.hook.ttr_options()) for spec in specs
        )
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(f"options are a mapping of names to values, not {quote(options)}")
        self.options: dict[str, Any] = self._resolve_options(dict(options or {}))
        data = pm.hook.ttr_map_data(options=self.options)
        if not isinstance(data, MapData):
            raise MapDataError(f"edition {info.id!r} returned no map data")
        params = pm.hook.ttr_parameters(map_data=data, options=self.options)
        if not isinstance(params, Parameters):
            raise MapDataError(f"edition {info.id!r} returned no parameters")
        if params is data.parameters:
            validate_map(data)
        else:
            data = MapData(
                edition=data.edition,
                name=data.name,
                cities=data.cities,
                routes=data.routes,
                tickets=data.tickets,
                parameters=params,
                format=data.format,
                source=data.source,
            )
            validate_map(data)
        self.map: MapData = data
        self.params: Parameters = params
        self.map_hash: str = data.digest()
        self._index()

    @classmethod
    def build(
        cls,
        edition: str,
        options: Mapping[str, Any] | None = None,
        plugins: Iterable[object] = (),
    ) -> Ruleset:
        """Build the ruleset of an installed edition, found by id or alias.

        :raises UnknownEditionError: no such edition is installed.
        :raises OptionError: an option is unknown or has a value the edition does not offer.
        """
        return cls(find_edition(edition).plugin, options, plugins)

    def private_copy(self) -> Ruleset:
        """The same rules, with memos of its own, all empty: what a bot is given.

        Play fills a ruleset's memos with the hands it lists, so a ruleset that a game is
        played on must not be handed to a bot of that game; a copy costs microseconds
        and shares everything that does not change.
        """
        twin = copy.copy(self)
        twin._start_memos()
        return twin

    @property
    def id(self) -> str:
        """The edition id."""
        return self.info.id

    def __repr__(self) -> str:
        return f"Ruleset.build({self.info.id!r}, {self.options!r})"

    def _resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        specs = {s.name: s for s in self.option_specs}
        if len(specs) != len(self.option_specs):
            raise OptionError("an option is declared by more than one plugin")
        for name, value in given.items():
            spec = specs.get(name)
            if spec is None:
                raise OptionError(
                    f"edition {self.info.id!r} has no option {quote(name)}; "
                    f"options: {options_doc(self.option_specs)}"
                )
            if type(value) is not type(spec.default) or value not in spec.choices:
                raise OptionError(
                    f"option {quote(name)} cannot be {quote(value)}; choices: {list(spec.choices)}"
                )
        return {s.name: given.get(s.name, s.default) for s in self.option_specs}

    def _index(self) -> None:
        data, p = self.map, self.params
        self.city_ids: tuple[str, ...] = tuple(c.id for c in data.cities)
        self.city_index: dict[str, int] = {}
        for i, c in enumerate(data.cities):
            for name in (c.id, *c.aliases):
                self.city_index[name] = i
        self.city_country: tuple[str | None, ...] = tuple(c.country for c in data.cities)
        # Countries of border arrows: name or alias -> id, and id -> arrows.
        self.country_arrows: dict[str, tuple[int, ...]] = {}
        for i, country in enumerate(self.city_country):
            if country is not None:
                self.country_arrows[country] = (*self.country_arrows.get(country, ()), i)
        self.country_id: dict[str, str] = {name: name for name in self.country_arrows}
        for declared in data.countries:
            for name in (declared.id, *declared.aliases):
                self.country_id[name] = declared.id
        routes: tuple[Track, ...] = data.routes
        self.routes = routes
        self.route_ids: tuple[int, ...] = tuple(t.id for t in routes)
        self.route_index: dict[int, int] = {t.id: i for i, t in enumerate(routes)}
        self.route_a: tuple[int, ...] = tuple(self.city_index[t.cities[0]] for t in routes)
        self.route_b: tuple[int, ...] = tuple(self.city_index[t.cities[1]] for t in routes)
        self.route_len: tuple[int, ...] = tuple(t.length for t in routes)
        self.route_color: tuple[int, ...] = tuple(route_color_index(t.color) for t in routes)
        self.route_ferry: tuple[int, ...] = tuple(t.ferry for t in routes)
        self.route_tunnel: tuple[bool, ...] = tuple(t.tunnel for t in routes)
        self.route_points: tuple[int, ...] = tuple(p.route_points[t.length] for t in routes)
        self.route_twin: tuple[int, ...] = tuple(
            -1 if t.parallel is None else self.route_index[t.parallel] for t in routes
        )
        self.max_route_length = max(self.route_len, default=0)
        # Locomotives allowed as single cards on each route (edition declaration).
        self.route_locos_ok: tuple[bool, ...] = tuple(
            p.locomotives == "anywhere"
            or (p.locomotives == "tunnels" and t.tunnel)
            or (p.locomotives == "tunnels_and_ferries" and (t.tunnel or t.ferry > 0))
            for t in routes
        )
        # Groups of any cards (ferries of some editions, tracks declaring card_groups).
        self.route_group: tuple[int, ...] = tuple(
            t.card_groups or (p.ferry_groups if t.ferry and not t.tunnel else 0) for t in routes
        )
        self.route_group_covers_color: tuple[bool, ...] = tuple(
            bool(t.card_groups) or p.ferry_group_stacking for t in routes
        )
        self.has_groups = any(self.route_group)
        # Route classes: tracks that accept exactly the same payments.
        keys: dict[RouteClass, int] = {}
        class_of: list[int] = []
        for r in range(len(routes)):
            key = RouteClass(
                self.route_color[r],
                self.route_len[r],
                self.route_ferry[r],
                self.route_tunnel[r],
                self.route_locos_ok[r],
                self.route_group[r],
                self.route_group[r] > 0 and self.route_group_covers_color[r],
            )
            class_of.append(keys.setdefault(key, len(keys)))
        # Classes are numbered by colour (gray last), then length, then first appearance
        # in the map: the order claims are listed in.
        order = sorted(keys, key=lambda key: (key.color, key.length, keys[key]))
        number = {keys[key]: i for i, key in enumerate(order)}
        class_of = [number[k] for k in class_of]
        keys = {key: i for i, key in enumerate(order)}
        self.class_of: tuple[int, ...] = tuple(class_of)
        self.class_keys: tuple[RouteClass, ...] = tuple(keys)
        self.group_shapes: tuple[GroupShape, ...] = tuple(
            GroupShape(key.color, key.length, key.ferry, key.group, key.locos_ok, key.covers_color)
            for key in self.class_keys
        )
        self.group_classes: tuple[int, ...] = tuple(
            k for k, shape in enumerate(self.group_shapes) if shape.size
        )
        self.group_class_colors: tuple[int, ...] = tuple(
            self.group_shapes[k].color for k in self.group_classes
        )
        self.group_class_position: dict[int, int] = {k: i for i, k in enumerate(self.group_classes)}
        self.class_routes: tuple[tuple[int, ...], ...] = tuple(
            tuple(r for r in range(len(routes)) if class_of[r] == k) for k in range(len(keys))
        )
        self.class_len: tuple[int, ...] = tuple(key.length for key in self.class_keys)
        # Adjacency: city -> routes touching it.
        adj: list[list[int]] = [[] for _ in data.cities]
        for r in range(len(routes)):
            adj[self.route_a[r]].append(r)
            adj[self.route_b[r]].append(r)
        self.city_routes: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in adj)
        # Tickets.
        self.tickets: tuple[Ticket, ...] = data.tickets
        self.ticket_ids: tuple[int, ...] = tuple(t.id for t in data.tickets)
        self.ticket_index: dict[int, int] = {t.id: i for i, t in enumerate(data.tickets)}
        self.regular_tickets: tuple[int, ...] = tuple(
            i for i, t in enumerate(data.tickets) if t.kind != "long"
        )
        self.long_tickets: tuple[int, ...] = tuple(
            i for i, t in enumerate(data.tickets) if t.kind == "long"
        )
        # Train deck composition, as card numbers.
        deck: list[int] = []
        for name, n in p.train_cards.items():
            deck.extend([card_index(name)] * n)
        self.train_deck: tuple[int, ...] = tuple(sorted(deck))
        self.deck_counts: tuple[int, ...] = tuple(
            self.train_deck.count(k) for k in range(NUM_KINDS)
        )
        self.face_up_loco_whole_draw = p.face_up_locomotive == "whole_draw"
        self.flush_at = p.display.flush_locomotives
        self.double_open_min = p.double_routes_min_players
        self.has_tunnels = any(self.route_tunnel)
        self._start_memos()

    def _start_memos(self) -> None:
        """The tables built on first use and the memos filled during play, all empty.

        The memos are keyed by the hands that were listed, so they are this ruleset
        object's own: see :meth:`private_copy`.
        """
        self.claim_tables: ClaimTables | None = None
        self.group_option_memo: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        self.group_options_by_hand: dict[bytes, tuple[tuple[int, ...], ...]] = {}
        self.station_payment_cache: dict[tuple[int, bytes], list[tuple[int, ...]]] = {}

    def place_cities(self, name: str) -> tuple[int, ...]:
        """The cities a ticket's place means: a city (by id or alias), or every border
        arrow of a country (by name or alias); empty if the map knows no such place."""
        c = self.city_index.get(name)
        if c is not None:
            return (c,)
        country = self.country_id.get(name)
        return () if country is None else self.country_arrows[country]

    def route_name(self, r: int) -> str:
        """A readable name of the track with index ``r``, e.g. ``Denver-Omaha (id 40)``."""
        return (
            f"{self.city_ids[self.route_a[r]]}-{self.city_ids[self.route_b[r]]}"
            f" (track {self.route_ids[r]})"
        )

    def ticket_name(self, i: int) -> str:
        """A readable name of the ticket with index ``i``."""
        t = self.tickets[i]
        target = t.b if t.b is not None else "/".join(t.targets or {})
        return f"{t.a}-{target} (ticket {t.id})"
