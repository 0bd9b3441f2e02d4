"""The hooks an edition or a house-rule plugin implements.

Every hook takes keyword arguments only; an implementation may accept fewer arguments
than the specification, so hooks can grow without breaking plugins. Hooks marked
*build time* are called once when a [`Ruleset`][ttr_core.ruleset.ruleset.Ruleset] is built and their
results are cached; hooks marked *play time* are called while a game is scored.
The core's own implementations are registered ``trylast``, so an edition or a house
rule registered later wins every ``firstresult`` hook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from ttr_core.model.mapdata import MapData, Parameters, Ticket
    from ttr_core.rules.network import PlayerNetwork
    from ttr_core.rules.scoring import ScoringContext, TicketResult
    from ttr_core.ruleset.metadata import EditionInfo, OptionSpec

PROJECT = "ttr"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# --- identity (build time) -------------------------------------------------------------


@hookspec(firstresult=True)
def ttr_edition_info() -> EditionInfo | None:
    """Describe the edition: id, name, aliases, rules version.

    Build time. Stops at the first non-None result. Every edition plugin implements it.

    :returns: the edition's [`EditionInfo`][ttr_core.ruleset.editions.EditionInfo].
    """


@hookspec
def ttr_options() -> Sequence[OptionSpec]:
    """Declare the options this plugin understands, with their defaults and choices.

    Build time. All results are collected; an option name may be declared only once.

    :returns: a sequence of [`OptionSpec`][ttr_core.ruleset.editions.OptionSpec].
    """
    return ()


# --- data and parameters (build time) -------------------------------------------------


@hookspec(firstresult=True)
def ttr_map_data(options: Mapping[str, Any]) -> MapData | None:
    """Return the edition's map data (cities, tracks, tickets, parameters).

    Build time. Stops at the first non-None result.

    :param options: the ruleset's options, defaults filled in.
    :returns: validated [`MapData`][ttr_core.model.mapdata.MapData].
    """


@hookspec(firstresult=True)
def ttr_parameters(map_data: MapData, options: Mapping[str, Any]) -> Parameters | None:
    """Return the rule parameters in force, after applying options.

    Build time. Stops at the first non-None result. The core's default returns
    ``map_data.parameters``; an edition implements it to apply its options, and a house
    rule can wrap it (``wrapper=True``) to adjust the edition's result.

    :param map_data: the edition's map data.
    :param options: the ruleset's options, defaults filled in.
    :returns: the [`Parameters`][ttr_core.model.mapdata.Parameters] the engine plays by.
    """


# --- final scoring (play time) ---------------------------------------------------------


@hookspec(firstresult=True)
def ttr_ticket_result(
    ticket: Ticket, network: PlayerNetwork, context: ScoringContext
) -> TicketResult | None:
    """Score one kept ticket of one player at the end of the game.

    Play time (once per ticket per final scoring, and with stations once per distinct
    set of borrowed tracks tried: the result may depend on nothing but the ticket and the
    network). Stops at the first non-None result. The core's default scores a two-city ticket: its
    points if ``network.connected(a, b)``, minus its points otherwise.

    :param ticket: the ticket to score.
    :param network: the player's tracks (with borrowed ones, where stations apply).
    :param context: the scoring in progress; its networks and ticket results are not
        ready yet (``context.complete`` is False).
    :returns: a [`TicketResult`][ttr_core.rules.scoring.TicketResult] naming the ticket by id, or
        None to let another plugin decide.
    """


@hookspec
def ttr_final_bonuses(context: ScoringContext) -> Mapping[str, Sequence[int]] | None:
    """Award end-of-game bonuses.

    Play time (once per final scoring). All results are collected; each maps a bonus
    name to the points of every player, in seat order. The core awards the longest
    path bonus when the parameters declare one and the unbuilt-station points.

    :param context: the complete, read-only scoring: networks, ticket results, longest paths.
    :returns: ``{bonus_name: [points per player]}`` or None.
    """
