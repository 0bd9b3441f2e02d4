"""Fictional Coast: a tiny invented edition of ttr, registered like any third-party one.

The module is the plugin: ttr finds it through the ``ttr.editions`` entry point declared
in ``pyproject.toml``. The map and its parameters are data (``fictional.json``); Python
adds an option and a bonus of the edition's own, the lighthouse bonus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from ttr_core.plugin import (
    EditionInfo,
    MapData,
    OptionSpec,
    ScoringContext,
    hookimpl,
    load_packaged_map,
)

__version__ = "0.1.0"

LIGHTHOUSES = ("Brinecliff", "Greyhaven")
"""The two lighthouse cities."""


@hookimpl
def ttr_edition_info() -> EditionInfo:
    """Identify the edition."""
    return EditionInfo(
        id="fictional", name="Fictional Coast", aliases=("coast",), rules_version="1"
    )


@hookimpl
def ttr_options() -> Sequence[OptionSpec]:
    """One option: the points of the lighthouse bonus (0 switches it off)."""
    return (
        OptionSpec(
            name="lighthouse_bonus",
            default=4,
            choices=(0, 4),
            doc="Points for a player whose own tracks reach both lighthouses.",
        ),
    )


@cache
def _map() -> MapData:
    return load_packaged_map(__name__, "fictional.json")


@hookimpl
def ttr_map_data(options: Mapping[str, Any]) -> MapData:
    """The map data file shipped in this package."""
    return _map()


@hookimpl
def ttr_final_bonuses(context: ScoringContext) -> Mapping[str, Sequence[int]]:
    """The lighthouse bonus, to every player whose own tracks touch both lighthouses."""
    bonus: int = context.options["lighthouse_bonus"]
    return {
        "lighthouses": [
            bonus if network.cities.issuperset(LIGHTHOUSES) else 0
            for network in context.own_networks
        ]
    }
