"""A ruleset: one edition, its options and any house-rule plugins, compiled for play.

Each ruleset owns its own plugin manager (never a global one), reached through the typed hook calls
of [`Ruleset.hooks`][ttr_core.ruleset.ruleset.Ruleset.hooks]. Building it calls the build-time hooks
once, validates the options, and indexes cities, tracks and tickets to small integers for the
engine's hot path (`RulesetIndex`, kept privately).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ttr_core.model.errors import MapDataError, OptionError, UnknownIdError, quote
from ttr_core.model.mapdata import MapData, Parameters, validate_map
from ttr_core.rules.index import RulesetIndex, RulesetMemos
from ttr_core.ruleset.editions import find_edition
from ttr_core.ruleset.metadata import EditionInfo, OptionSpec, options_doc
from ttr_core.ruleset.plugins import Hooks


class Ruleset:
    """The compiled rules of one edition with options and extra plugins.

    Build one with [`Ruleset.build`][ttr_core.ruleset.ruleset.Ruleset.build] (or
    [`ttr_core.ruleset_for`][ttr_core.ruleset_for]). It never changes after building (setting an
    attribute raises ``AttributeError``), and any number of games can share it; only its memos
    (keyed by the hands listed) fill during play, so bots get a [`private_copy`][].
    """

    hooks: Hooks
    """The typed calls of this ruleset's hooks: the edition's and the extra plugins'."""
    info: EditionInfo
    """What the edition says about itself."""
    option_specs: tuple[OptionSpec, ...]
    """The options the plugins declare, the core's last."""
    options: dict[str, Any]
    """The options in force, defaults filled in."""
    map: MapData
    """The map data, with the parameters in force."""
    params: Parameters
    """The parameters in force (``map.parameters``)."""
    map_hash: str
    """The digest of [`map`][], recorded in saved games."""
    _index: RulesetIndex
    _memos: RulesetMemos

    def __init__(
        self,
        edition_plugin: object,
        options: Mapping[str, Any] | None = None,
        plugins: Iterable[object] = (),
    ) -> None:
        hooks = Hooks(edition_plugin, plugins)
        info = hooks.edition_info()
        if not isinstance(info, EditionInfo):
            raise MapDataError("the edition plugin does not implement ttr_edition_info")
        specs = tuple(spec for declared in reversed(hooks.options()) for spec in declared)
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(f"options are a mapping of names to values, not {quote(options)}")
        resolved = _resolve_options(info, specs, dict(options or {}))
        data = hooks.map_data(resolved)
        if not isinstance(data, MapData):
            raise MapDataError(f"edition {info.id!r} returned no map data")
        params = hooks.parameters(data, resolved)
        if not isinstance(params, Parameters):
            raise MapDataError(f"edition {info.id!r} returned no parameters")
        if params is not data.parameters:
            data = attrs.evolve(data, parameters=params)
        validate_map(data)
        index = RulesetIndex.build(data, params)
        # Assigned past __setattr__, which refuses every change once built.
        vars(self).update(
            hooks=hooks,
            info=info,
            option_specs=specs,
            options=resolved,
            map=data,
            params=params,
            map_hash=data.digest(),
            _index=index,
            _memos=RulesetMemos(),
        )

    @classmethod
    def build(
        cls,
        edition: str,
        options: Mapping[str, Any] | None = None,
        plugins: Iterable[object] = (),
    ) -> Ruleset:
        """Build the ruleset of an installed edition, found by id or alias.

        :raises UnknownEditionError: no such edition is installed (or it failed to load,
            or it is disabled).
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
        vars(twin)["_memos"] = RulesetMemos()
        return twin

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Ruleset does not change after building; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Ruleset does not change after building; cannot delete {name!r}")

    @property
    def id(self) -> str:
        """The edition id."""
        return self.info.id

    def __repr__(self) -> str:
        return f"Ruleset.build({self.info.id!r}, {self.options!r})"

    def place_cities(self, name: str) -> tuple[int, ...]:
        """The cities a ticket's place means: a city (by id or alias), or every border
        arrow of a country (by name or alias); empty if the map knows no such place."""
        index = self._index
        c = index.city_index.get(name)
        if c is not None:
            return (c,)
        country = index.country_id.get(name)
        return () if country is None else index.country_arrows[country]

    def route_index_of(self, route_id: int) -> int:
        """The index of the track with map id ``route_id``: its place in ``map.routes``,
        in the state's ``owners`` and in every other list of tracks.

        :raises UnknownIdError: the map has no track with that id.
        """
        return self._lookup(self._index.route_index, route_id, int, "track with id")

    def ticket_index_of(self, ticket_id: int) -> int:
        """The index of the ticket with map id ``ticket_id``: its place in ``map.tickets``,
        and what a state's ticket lists hold.

        :raises UnknownIdError: the map has no ticket with that id.
        """
        return self._lookup(self._index.ticket_index, ticket_id, int, "ticket with id")

    def city_index_of(self, city: str) -> int:
        """The index of a city, named by id or alias: its place in ``map.cities`` and in a
        state's ``station_owners``.

        :raises UnknownIdError: the map has no city of that name.
        """
        return self._lookup(self._index.city_index, city, str, "city")

    def _lookup(self, index: Mapping[Any, int], key: object, kind: type, what: str) -> int:
        """``index[key]`` for a ``key`` of exactly type ``kind``, else `UnknownIdError`."""
        found = index.get(key, -1) if type(key) is kind else -1
        if found < 0:
            raise UnknownIdError(f"{self.info.id} has no {what} {quote(key)}")
        return found

    def route_name(self, r: int) -> str:
        """A readable name of the track with index ``r``, e.g. ``Denver-Omaha (track 40)``."""
        index = self._index
        a, b = index.city_ids[index.route_a[r]], index.city_ids[index.route_b[r]]
        return f"{a}-{b} (track {index.route_ids[r]})"

    def ticket_name(self, i: int) -> str:
        """A readable name of the ticket with index ``i``."""
        t = self._index.tickets[i]
        target = t.b if t.b is not None else "/".join(t.targets or {})
        return f"{t.a}-{target} (ticket {t.id})"


def _resolve_options(
    info: EditionInfo, specs: tuple[OptionSpec, ...], given: dict[str, Any]
) -> dict[str, Any]:
    """The options in force: ``given`` checked against ``specs``, defaults filled in."""
    by_name = {s.name: s for s in specs}
    if len(by_name) != len(specs):
        raise OptionError("an option is declared by more than one plugin")
    for name, value in given.items():
        spec = by_name.get(name)
        if spec is None:
            raise OptionError(
                f"edition {info.id!r} has no option {quote(name)}; options: {options_doc(specs)}"
            )
        if type(value) is not type(spec.default) or value not in spec.choices:
            raise OptionError(
                f"option {quote(name)} cannot be {quote(value)}; choices: {list(spec.choices)}"
            )
    return {s.name: given.get(s.name, s.default) for s in specs}
