"""The USA edition (the base game): map data and the opening-deal option.

Registered through the ``ttr.editions`` entry point like any third-party edition.
Everything else is declared in ``usa.json`` and played by the core's shared mechanics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ttr_core.plugin import MapData, OptionSpec, Parameters, evolve, hookimpl, packaged_edition

ttr_edition_info, ttr_map_data = packaged_edition(
    __name__, "usa.json", name="Ticket to Ride (USA)", aliases=("base", "us", "zug-um-zug")
)


@hookimpl
def ttr_options() -> Sequence[OptionSpec]:
    return (
        OptionSpec(
            name="opening_tickets",
            default=3,
            choices=(3, 4),
            doc="Opening tickets dealt to each player (keep at least 2): 3 by the rulebook, "
            "4 as described for a newer German printing (rules USA-4, USA-5).",
        ),
    )


@hookimpl
def ttr_parameters(map_data: MapData, options: Mapping[str, Any]) -> Parameters:
    params = map_data.parameters
    deal = options.get("opening_tickets", params.opening_tickets.deal)
    return evolve(params, opening_tickets=evolve(params.opening_tickets, deal=deal))
