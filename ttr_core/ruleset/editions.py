"""Edition metadata and discovery through the ``ttr.editions`` entry-point group.

Built-in editions are declared in the same group as third-party ones, so both are
found, described and loaded the same way.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

import pluggy
from attrs import frozen

from ttr_core.model.errors import UnknownEditionError, quote
from ttr_core.model.mapdata import MapData, load_map_data
from ttr_core.ruleset import hookspecs

ENTRY_POINT_GROUP = "ttr.editions"
BUILTIN_DISTRIBUTION = "ttr-engine"
"""The distribution that ships the built-in editions (its name on PyPI)."""


@frozen
class EditionInfo:
    """What an edition says about itself."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    rules_version: str = "1"
    """Bumped whenever the edition's behaviour changes; saved games record it."""


@frozen
class OptionSpec:
    """An option a plugin offers, e.g. the USA opening deal of 3 or 4 tickets."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    doc: str


@frozen
class InstalledEdition:
    """An edition found through the entry points, with the plugin object it provides."""

    info: EditionInfo
    plugin: object
    distribution: str
    builtin: bool
    players: tuple[int, int]


def load_packaged_map(package: str, resource: str) -> MapData:
    """Load and validate a map data file shipped inside an edition package."""
    text = files(package).joinpath(resource).read_text(encoding="utf-8")
    return load_map_data(text)


def _plugin_info(plugin: object) -> EditionInfo:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(plugin)
    info = pm.hook.ttr_edition_info()
    if not isinstance(info, EditionInfo):
        raise UnknownEditionError(f"plugin {plugin!r} does not describe an edition")
    return info


def _plugin_players(plugin: object) -> tuple[int, int]:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(plugin)
    specs = [spec for specs in pm.hook.ttr_options() for spec in specs]
    data = pm.hook.ttr_map_data(options={spec.name: spec.default for spec in specs})
    if not isinstance(data, MapData):
        return (0, 0)
    lo, hi = data.parameters.players
    return (lo, hi)


_CACHE: dict[str, InstalledEdition] | None = None


def _canonical(name: str) -> str:
    """A distribution name in PyPI's normal form (``TTR_Engine`` and ``ttr.engine`` are
    ``ttr-engine``), as installers may record it either way."""
    return re.sub(r"[-_.]+", "-", name).lower()


def installed_editions(*, refresh: bool = False) -> dict[str, InstalledEdition]:
    """All installed editions by id, loaded from the ``ttr.editions`` entry points."""
    global _CACHE
    if _CACHE is not None and not refresh:
        return _CACHE
    found: dict[str, InstalledEdition] = {}
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        plugin = ep.load()
        info = _plugin_info(plugin)
        dist = _canonical(ep.dist.name) if ep.dist is not None else "unknown"
        found[info.id] = InstalledEdition(
            info=info,
            plugin=plugin,
            distribution=dist,
            builtin=dist == BUILTIN_DISTRIBUTION,
            players=_plugin_players(plugin),
        )
    _CACHE = dict(sorted(found.items()))
    return _CACHE


def find_edition(name: str) -> InstalledEdition:
    """Find an installed edition by id or alias (case-insensitive).

    :raises UnknownEditionError: listing the installed editions (also for a name that
        is not a string).
    """
    editions = installed_editions()
    listing = ", ".join(editions) or "none"
    if type(name) is not str:
        raise UnknownEditionError(
            f"an edition is named by a string, not {quote(name)}; installed editions: {listing}"
        )
    key = name.strip().lower()
    for ed in editions.values():
        if key == ed.info.id.lower() or key in (a.lower() for a in ed.info.aliases):
            return ed
    raise UnknownEditionError(f"unknown edition {quote(name)}; installed editions: {listing}")


def describe_editions() -> list[dict[str, Any]]:
    """The installed editions as JSON-ready objects, sorted by id (``ttr editions --json``)."""
    out = []
    for ed in installed_editions().values():
        out.append(
            {
                "id": ed.info.id,
                "name": ed.info.name,
                "aliases": list(ed.info.aliases),
                "players": list(ed.players),
                "builtin": ed.builtin,
                "distribution": ed.distribution,
                "rules_version": ed.info.rules_version,
            }
        )
    return out


def options_doc(specs: Sequence[OptionSpec]) -> str:
    """One line per option, for error messages."""
    return "; ".join(f"{s.name} in {json.dumps(list(s.choices))}" for s in specs) or "none"
