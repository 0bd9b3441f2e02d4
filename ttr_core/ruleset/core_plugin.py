"""The core's default hook implementations, registered ``trylast`` in every ruleset.

They implement the shared mechanics an edition switches on by its parameters: the
two-city and country tickets, the longest-path bonus and the points for unbuilt stations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ttr_core.plugin import (
    MapData,
    OptionSpec,
    Parameters,
    PlayerNetwork,
    ScoringContext,
    Ticket,
    TicketResult,
    hookimpl,
)

CORE_OPTIONS = ("longest_path_at_zero", "tie_break")
"""Names of the options every edition offers through the core."""


@hookimpl(trylast=True)
def ttr_options() -> Sequence[OptionSpec]:
    """Options of the shared mechanics, offered by every edition."""
    return (
        OptionSpec(
            name="longest_path_at_zero",
            default=False,
            choices=(False, True),
            doc="Award the longest-path bonus even when the longest path is 0, i.e. to "
            "everyone when nobody claimed a route (rule PATH-5).",
        ),
        OptionSpec(
            name="tie_break",
            default="rules",
            choices=("rules", "auxiliary"),
            doc="Break ties on points by the edition's rules, or by an auxiliary score of "
            "1000 per completed ticket + 100 per unbuilt station + the longest path "
            "(rule TIE-6).",
        ),
    )


@hookimpl(trylast=True)
def ttr_parameters(map_data: MapData, options: Mapping[str, Any]) -> Parameters:
    """The parameters as declared in the map data."""
    return map_data.parameters


@hookimpl(trylast=True)
def ttr_ticket_result(
    ticket: Ticket, network: PlayerNetwork, context: ScoringContext
) -> TicketResult | None:
    """A two-city ticket: its points if completed, minus them otherwise (TICKET-6, TICKET-7).

    A country ticket (Switzerland): the highest value among the listed countries its
    origin is connected to, or minus the lowest value when none is (COUNTRY-5 to
    COUNTRY-9). A country origin means any of its border arrows.
    """
    if ticket.targets is not None:
        reached = network.reached(ticket.a, ticket.targets)
        if reached:
            best = max(ticket.targets[country] for country in reached)
            return TicketResult(ticket=ticket.id, points=best, completed=True)
        lowest = min(ticket.targets.values())
        return TicketResult(ticket=ticket.id, points=-lowest, completed=False)
    if ticket.b is None or ticket.points is None:
        return None
    done = network.connected(ticket.a, ticket.b)
    return TicketResult(
        ticket=ticket.id, points=ticket.points if done else -ticket.points, completed=done
    )


@hookimpl(trylast=True)
def ttr_final_bonuses(context: ScoringContext) -> Mapping[str, Sequence[int]]:
    """Longest-path bonus to every player on the longest path (PATH-4, PATH-5), unbuilt stations."""
    p = context.parameters
    out: dict[str, list[int]] = {}
    if p.longest_path_bonus:
        lengths = context.longest_paths
        top = max(lengths, default=0)
        at_zero = bool(context.options.get("longest_path_at_zero", False))
        out[p.longest_path_bonus_name] = [
            p.longest_path_bonus if (top > 0 or at_zero) and n == top else 0 for n in lengths
        ]
    if p.stations and p.unbuilt_station_points:
        out["unbuilt_stations"] = [
            (p.stations - len(built)) * p.unbuilt_station_points for built in context.stations
        ]
    return out
