"""Finding the installed editions through the ``ttr.editions`` entry-point group.

Built-in editions are declared in the same group as third-party ones, so both are
found, described and loaded the same way. Loading is guarded: an edition whose entry
point fails to load (an exception on import or while describing itself, or a plugin
that does not implement ``ttr_edition_info``) is skipped and reported
([`broken_editions`][], ``ttr editions``), and the others still work. The environment
variable ``TTR_DISABLE_EDITIONS`` (edition ids, comma-separated) switches editions off.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
from typing import Any

from attrs import frozen

from ttr_core.model.errors import UnknownEditionError, quote
from ttr_core.model.mapdata import MapData
from ttr_core.ruleset.metadata import (
    EditionInfo,
    OptionSpec,
    PackagedEdition,
    load_packaged_map,
    options_doc,
    packaged_edition,
)
from ttr_core.ruleset.plugins import Hooks

__all__ = [
    "BUILTIN_DISTRIBUTION",
    "DISABLE_ENV",
    "ENTRY_POINT_GROUP",
    "REASON_MAX_CHARS",
    "BrokenEdition",
    "EditionInfo",
    "InstalledEdition",
    "OptionSpec",
    "PackagedEdition",
    "broken_editions",
    "describe_editions",
    "find_edition",
    "installed_editions",
    "load_packaged_map",
    "options_doc",
    "packaged_edition",
]

ENTRY_POINT_GROUP = "ttr.editions"
BUILTIN_DISTRIBUTION = "ttr-engine"
"""The distribution that ships the built-in editions (its name on PyPI)."""

DISABLE_ENV = "TTR_DISABLE_EDITIONS"
"""Edition ids, comma-separated, that are switched off: not loaded, not listed, and
[`find_edition`][] says they are disabled. Read at every discovery."""

REASON_MAX_CHARS = 300
"""The longest reason given for an edition that failed to load; a longer one is cut."""


@frozen
class InstalledEdition:
    """An edition found through the entry points, with the plugin object it provides."""

    info: EditionInfo
    plugin: object
    distribution: str
    builtin: bool
    players: tuple[int, int]


@frozen
class BrokenEdition:
    """An edition whose entry point failed to load: skipped, and reported here."""

    name: str
    """The entry point's name (the edition's id is not known)."""
    distribution: str
    builtin: bool
    reason: str
    """Why, in one line: ``ModuleNotFoundError: No module named 'shapely'``."""


@frozen
class _Discovery:
    """What one look at the entry points found."""

    editions: dict[str, InstalledEdition]
    broken: dict[str, BrokenEdition]
    disabled: frozenset[str]
    """Disabled edition ids and aliases, lower case."""


_CACHE: tuple[str, _Discovery] | None = None
"""The last discovery, with the value of ``TTR_DISABLE_EDITIONS`` it was made under."""


def _canonical(name: str) -> str:
    """A distribution name in PyPI's normal form (``TTR_Engine`` and ``ttr.engine`` are
    ``ttr-engine``), as installers may record it either way."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _describe(plugin: object, distribution: str) -> InstalledEdition:
    """The edition a plugin provides, with the player counts of its map data.

    :raises UnknownEditionError: the plugin does not implement ``ttr_edition_info``.
    """
    hooks = Hooks(plugin)
    info = hooks.edition_info()
    if not isinstance(info, EditionInfo):
        raise UnknownEditionError("the plugin does not implement ttr_edition_info")
    defaults = {spec.name: spec.default for specs in hooks.options() for spec in specs}
    data = hooks.map_data(defaults)
    lo, hi = data.parameters.players if isinstance(data, MapData) else (0, 0)
    return InstalledEdition(
        info=info,
        plugin=plugin,
        distribution=distribution,
        builtin=distribution == BUILTIN_DISTRIBUTION,
        players=(lo, hi),
    )


def _reason(exc: Exception) -> str:
    """Why an edition failed to load, in one line of at most ``REASON_MAX_CHARS``."""
    text = str(exc) if isinstance(exc, UnknownEditionError) else f"{type(exc).__name__}: {exc}"
    line = " ".join(text.split())
    return line if len(line) <= REASON_MAX_CHARS else line[: REASON_MAX_CHARS - 3] + "..."


def _discover(*, refresh: bool = False) -> _Discovery:
    global _CACHE
    setting = os.environ.get(DISABLE_ENV, "")
    if _CACHE is not None and _CACHE[0] == setting and not refresh:
        return _CACHE[1]
    off = {name.strip().lower() for name in setting.split(",")} - {""}
    disabled = set(off)
    found: dict[str, InstalledEdition] = {}
    broken: dict[str, BrokenEdition] = {}
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name.lower() in off:
            continue  # not even loaded, so a broken edition can be switched off
        dist = _canonical(ep.dist.name) if ep.dist is not None else "unknown"
        try:
            edition = _describe(ep.load(), dist)
        except Exception as exc:  # a broken edition must not break the others
            broken[ep.name] = BrokenEdition(
                name=ep.name,
                distribution=dist,
                builtin=dist == BUILTIN_DISTRIBUTION,
                reason=_reason(exc),
            )
            continue
        if edition.info.id.lower() in off:
            disabled.update(alias.lower() for alias in edition.info.aliases)
            continue
        found[edition.info.id] = edition
    discovery = _Discovery(
        editions=dict(sorted(found.items())),
        broken=dict(sorted(broken.items())),
        disabled=frozenset(disabled),
    )
    _CACHE = (setting, discovery)
    return discovery


def installed_editions(*, refresh: bool = False) -> dict[str, InstalledEdition]:
    """All installed editions that loaded, by id, from the ``ttr.editions`` entry points.

    The entry points are read once and again when ``refresh`` is given or
    ``TTR_DISABLE_EDITIONS`` has changed; disabled editions are left out, and so are those
    that failed to load ([`broken_editions`][]).
    """
    return _discover(refresh=refresh).editions


def broken_editions() -> dict[str, BrokenEdition]:
    """The editions whose entry point failed to load, by entry point name."""
    return _discover().broken


def find_edition(name: str) -> InstalledEdition:
    """Find an installed edition by id or alias (case-insensitive).

    :raises UnknownEditionError: listing the installed editions (also for a name that
        is not a string); for an edition that failed to load, saying why, and for one
        switched off by ``TTR_DISABLE_EDITIONS``, saying so.
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
    discovery = _discover()
    if key in discovery.disabled:
        raise UnknownEditionError(
            f"edition {quote(name)} is disabled by {DISABLE_ENV}; installed editions: {listing}"
        )
    for broken in discovery.broken.values():
        if key == broken.name.lower():
            raise UnknownEditionError(
                f"edition {quote(name)} failed to load ({broken.reason}); "
                f"installed editions: {listing}"
            )
    raise UnknownEditionError(f"unknown edition {quote(name)}; installed editions: {listing}")


def describe_editions() -> list[dict[str, Any]]:
    """The installed editions as JSON-ready objects, sorted by id (``ttr editions --json``).

    An edition that failed to load is listed too, under its entry point's name, with
    ``error`` giving the reason (and no name, aliases, players or rules version).
    """
    out: list[dict[str, Any]] = []
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
    for broken in broken_editions().values():
        out.append(
            {
                "id": broken.name,
                "name": None,
                "aliases": [],
                "players": None,
                "builtin": broken.builtin,
                "distribution": broken.distribution,
                "rules_version": None,
                "error": broken.reason,
            }
        )
    return sorted(out, key=lambda ed: str(ed["id"]))
