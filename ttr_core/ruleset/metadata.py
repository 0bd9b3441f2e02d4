"""What an edition says about itself: its identity, its options, its packaged map data.

These are the values the identity hooks return (`hookspecs`), and
`packaged_edition`, which gives an edition that is a map data file both its
identity and its map hooks from that file. Finding the installed editions is
[`ttr_core.ruleset.editions`][ttr_core.ruleset.editions].
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache
from importlib.resources import files
from typing import Any, NamedTuple

from attrs import frozen

from ttr_core.model.mapdata import MapData, load_map_data
from ttr_core.ruleset.hookspecs import hookimpl


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


def load_packaged_map(package: str, resource: str) -> MapData:
    """Load and validate a map data file shipped inside an edition package."""
    text = files(package).joinpath(resource).read_text(encoding="utf-8")
    return load_map_data(text)


class PackagedEdition(NamedTuple):
    """The identity and map hooks of an edition that is its packaged map data file.

    Unpack it into the edition's module, so that its two functions are the module's
    ``ttr_edition_info`` and ``ttr_map_data`` (see `packaged_edition`).
    """

    ttr_edition_info: Callable[[], EditionInfo]
    ttr_map_data: Callable[[], MapData]


def packaged_edition(
    package: str,
    resource: str,
    *,
    name: str | None = None,
    aliases: Sequence[str] = (),
    rules_version: str = "1",
) -> PackagedEdition:
    """The ``ttr_edition_info`` and ``ttr_map_data`` hooks of an edition whose map data
    file ``resource`` ships in ``package``::

        ttr_edition_info, ttr_map_data = packaged_edition(__name__, "isles.json", aliases=("i",))

    The edition's id is the file's ``edition`` and its name the file's ``name`` unless
    ``name`` is given; the file is loaded and validated once, when first needed.
    """
    chosen = tuple(aliases)

    @cache
    def load() -> MapData:
        return load_packaged_map(package, resource)

    @hookimpl
    def ttr_edition_info() -> EditionInfo:
        data = load()
        return EditionInfo(
            id=data.edition,
            name=data.name if name is None else name,
            aliases=chosen,
            rules_version=rules_version,
        )

    @hookimpl
    def ttr_map_data() -> MapData:
        return load()

    return PackagedEdition(ttr_edition_info, ttr_map_data)


def options_doc(specs: Sequence[OptionSpec]) -> str:
    """One line per option, for error messages."""
    return "; ".join(f"{s.name} in {json.dumps(list(s.choices))}" for s in specs) or "none"
