"""The hook implementations of the Example Isles edition.

Most of the edition is data (``example.json``): cities, tracks, tickets and the rule
parameters that switch the core's shared mechanics on. Python is needed only for what
the data cannot say: an option that changes a parameter, and the harbour bonus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ttr_core.plugin import (
    MapData,
    OptionSpec,
    Parameters,
    ScoringContext,
    evolve,
    hookimpl,
    packaged_edition,
)

HARBOURS = ("Quillmere", "Saltreach", "Tidewick")
"""The three harbour cities of the harbour bonus."""

HARBOUR_BONUS = 4
"""Points for a player whose own tracks reach every harbour."""

# The edition's id ("example", what users type) and name come from the map data file.
ttr_edition_info, ttr_map_data = packaged_edition(
    "ttr_example_edition", "example.json", aliases=("isles",)
)


@hookimpl
def ttr_options() -> Sequence[OptionSpec]:
    """Offer one option: a longer game with more trains per player."""
    return (
        OptionSpec(
            name="trains",
            default=10,
            choices=(10, 14),
            doc="Trains per player: 10 for a short game, 14 for a longer one.",
        ),
    )


@hookimpl
def ttr_parameters(map_data: MapData, options: Mapping[str, Any]) -> Parameters:
    """Apply the ``trains`` option to the declared parameters."""
    return evolve(map_data.parameters, trains=options["trains"])


@hookimpl
def ttr_final_bonuses(context: ScoringContext) -> Mapping[str, Sequence[int]]:
    """Harbour bonus: 4 points to every player whose own tracks touch all three harbours."""
    return {
        "harbours": [
            HARBOUR_BONUS if network.cities.issuperset(HARBOURS) else 0
            for network in context.own_networks
        ]
    }
