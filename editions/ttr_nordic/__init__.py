"""The Nordic Countries edition: map data, the triple-stacking option and the Globetrotter.

Registered through the ``ttr.editions`` entry point like any third-party edition. The
map, the parameters and the card rules are declared in ``nordic.json`` and played by the
core's shared mechanics: locomotives only on tunnels and ferries, face-up locomotives as
ordinary draws, no display flush, groups of 3 cards for ferry locomotives and groups of 4
on Murmansk-Lieksa. Two things are this plugin's own: the option that allows a group of 3
to cover a coloured ferry space (rule NC-14), and the Globetrotter bonus, which replaces
the longest path bonus (rules NC-18, GLOBE-1 to GLOBE-4).
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

GLOBETROTTER = "globetrotter"
"""The name of the bonus in score sheets and in the ``ttr score`` output."""

GLOBETROTTER_POINTS = 10
"""What the Globetrotter is worth to each player who earns it (rule GLOBE-1)."""

ttr_edition_info, ttr_map_data = packaged_edition(
    __name__,
    "nordic.json",
    name="Ticket to Ride Nordic Countries",
    aliases=("scandinavia", "skandinavien", "nordic-countries"),
)


@hookimpl
def ttr_options() -> Sequence[OptionSpec]:
    return (
        OptionSpec(
            name="ferry_group_stacking",
            default=True,
            choices=(True, False),
            doc="Let a group of 3 cards cover a space of a ferry's colour as well as an owed "
            "locomotive (True, the default), or only owed locomotives, so that a ferry "
            "payment holds at most as many groups as the ferry has symbols (rule NC-14).",
        ),
    )


@hookimpl
def ttr_parameters(map_data: MapData, options: Mapping[str, Any]) -> Parameters:
    """The declared parameters with the triple-stacking option applied (rule NC-14)."""
    params = map_data.parameters
    stacking = options.get("ferry_group_stacking", params.ferry_group_stacking)
    return evolve(params, ferry_group_stacking=stacking)


@hookimpl
def ttr_final_bonuses(context: ScoringContext) -> Mapping[str, Sequence[int]]:
    """The Globetrotter: 10 points to every player with the most completed tickets.

    Tickets are counted from the finished ticket evaluation the context holds (GLOBE-3),
    and every player tied for the most shares the bonus in full (GLOBE-1, GLOBE-2). When
    nobody completed a ticket, nobody earns it (GLOBE-4): the bonus rewards completed
    tickets, and awarding it to everyone at 0 would change nothing but the totals. This
    matches the core's longest path bonus, which is not given for a longest path of 0
    (PATH-5).
    """
    completed = [sum(r.completed for r in results) for results in context.ticket_results]
    top = max(completed, default=0)
    return {GLOBETROTTER: [GLOBETROTTER_POINTS if top > 0 and n == top else 0 for n in completed]}
