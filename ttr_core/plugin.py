"""Everything an edition or house-rule plugin imports, in one public module.

A plugin needs nothing else from ``ttr_core``: the hook marker, the types the hooks take
and return, and the scoring objects, which speak in map ids (city names, track and
ticket ids), never in the engine's internal indices::

    from ttr_core.plugin import ScoringContext, hookimpl

    @hookimpl
    def ttr_final_bonuses(context: ScoringContext) -> dict[str, list[int]]:
        loops = [len(n.own_routes) - len(n.own.bridges()) for n in context.networks]
        return {"loops": [2 if n > 0 else 0 for n in loops]}

The hooks are described in the hooks reference; the names here are the stable surface
that plugins are written against.
"""

from __future__ import annotations

from ttr_core.model.mapdata import City, MapData, Parameters, Ticket, TicketDeal, Track
from ttr_core.rules.network import PlayerNetwork
from ttr_core.rules.scoring import ScoringContext, TicketResult
from ttr_core.ruleset.editions import EditionInfo, OptionSpec, load_packaged_map
from ttr_core.ruleset.hookspecs import hookimpl

__all__ = [
    "City",
    "EditionInfo",
    "MapData",
    "OptionSpec",
    "Parameters",
    "PlayerNetwork",
    "ScoringContext",
    "Ticket",
    "TicketDeal",
    "TicketResult",
    "Track",
    "hookimpl",
    "load_packaged_map",
]
