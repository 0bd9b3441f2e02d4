"""Everything an edition or house-rule plugin imports, in one public module.

A plugin needs nothing else from ``ttr_core``: the hook marker, the types the hooks take
and return, the scoring objects, which speak in map ids (city names, track and ticket
ids), never in the engine's internal indices, and ``attrs.evolve`` to change frozen
parameters::

    from ttr_core.plugin import ScoringContext, hookimpl

    @hookimpl
    def ttr_final_bonuses(context: ScoringContext) -> dict[str, list[int]]:
        loops = [len(n.own_routes) - len(n.own.bridges()) for n in context.networks]
        return {"loops": [2 if n > 0 else 0 for n in loops]}

An edition that is a packaged map data file needs one statement for its identity and
map hooks, `packaged_edition`::

    ttr_edition_info, ttr_map_data = packaged_edition(__name__, "isles.json", aliases=("i",))

The hooks are described in the hooks reference; the names here are the stable surface
that plugins are written against.
"""

from __future__ import annotations

from attrs import evolve

from ttr_core.model.mapdata import City, MapData, Parameters, Ticket, TicketDeal, Track
from ttr_core.rules.network import PlayerNetwork
from ttr_core.rules.scoring import ScoringContext, TicketResult
from ttr_core.ruleset.hookspecs import hookimpl
from ttr_core.ruleset.metadata import (
    EditionInfo,
    OptionSpec,
    PackagedEdition,
    load_packaged_map,
    packaged_edition,
)

__all__ = [
    "City",
    "EditionInfo",
    "MapData",
    "OptionSpec",
    "PackagedEdition",
    "Parameters",
    "PlayerNetwork",
    "ScoringContext",
    "Ticket",
    "TicketDeal",
    "TicketResult",
    "Track",
    "evolve",
    "hookimpl",
    "load_packaged_map",
    "packaged_edition",
]
