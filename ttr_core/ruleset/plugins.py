"""The plugin manager of one ruleset, and typed calls of its hooks.

Every plugin manager is built here, the same way: the core's default implementations (each
marked ``trylast``), then the edition, then any extra plugins in the order given, checked
against the hook specifications. `Hooks` calls each hook of `hookspecs` through a method
with its types.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

from ttr_core.ruleset import core_plugin, hookspecs

if TYPE_CHECKING:
    from ttr_core.model.mapdata import MapData, Parameters, Ticket
    from ttr_core.rules.network import PlayerNetwork
    from ttr_core.rules.scoring import ScoringContext, TicketResult
    from ttr_core.ruleset.metadata import EditionInfo, OptionSpec

TRACE_ENV = "TTR_TRACE_HOOKS"
"""Set this environment variable to print every hook call of new rulesets to stderr."""

CORE_PLUGIN_NAME = "ttr-core"
"""The name the core's default implementations are registered under."""


def _plugin_manager(edition_plugin: object, plugins: Iterable[object]) -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(core_plugin, name=CORE_PLUGIN_NAME)
    pm.register(edition_plugin)
    for plugin in plugins:
        pm.register(plugin)
    pm.check_pending()
    if os.environ.get(TRACE_ENV):
        pm.trace.root.setwriter(sys.stderr.write)
        pm.enable_tracing()
    return pm


class Hooks:
    """The hooks of an edition with extra plugins (house rules), one typed method each.

    The methods return what the plugins returned, unchecked: a firstresult hook gives
    the first non-None result or None, a collected hook the list of results, the most
    recently registered plugin's first.

    :raises pluggy.PluginValidationError: a plugin implements a hook that does not exist,
        or asks for an argument the hook does not pass.
    """

    __slots__ = (
        "_hook",
        "_pm",
        "_ticket_result",
        "plugins",
        "tickets_scored_by_core",
        "tickets_scored_directly",
    )

    def __init__(self, edition_plugin: object, plugins: Iterable[object] = ()) -> None:
        extra = tuple(plugins)
        self._pm = _plugin_manager(edition_plugin, extra)
        self._hook = self._pm.hook
        self.plugins: tuple[object, ...] = extra
        """The extra plugins, registered after the edition in this order."""
        caller = self._hook.ttr_ticket_result
        only_core = [impl.plugin_name for impl in caller.get_hookimpls()] == [CORE_PLUGIN_NAME]
        self.tickets_scored_by_core: bool = only_core
        """Whether only the core implements ``ttr_ticket_result``: then a ticket's result
        depends only on which of its places a network connects (final scoring relies on it
        to assign stations by components)."""
        # Final scoring asks for every ticket's result, with stations for several networks.
        # When only the core implements the hook and no tracing is on, pluggy would call
        # that one function and return its result: it is called directly, at a third of
        # the cost.
        self._ticket_result: Callable[..., TicketResult | None] = (
            core_plugin.ttr_ticket_result if only_core and not os.environ.get(TRACE_ENV) else caller
        )
        self.tickets_scored_directly: bool = self._ticket_result is core_plugin.ttr_ticket_result
        """Whether ``ttr_ticket_result`` is the core's, called without pluggy: final scoring
        may then work tickets' results out itself, as the core does, without a call."""

    def edition_info(self) -> EditionInfo | None:
        """``ttr_edition_info``: the edition's identity."""
        info: EditionInfo | None = self._hook.ttr_edition_info()
        return info

    def options(self) -> list[Sequence[OptionSpec]]:
        """``ttr_options``: the options each plugin declares."""
        specs: list[Sequence[OptionSpec]] = self._hook.ttr_options()
        return specs

    def map_data(self, options: Mapping[str, Any]) -> MapData | None:
        """``ttr_map_data``: the edition's map data."""
        data: MapData | None = self._hook.ttr_map_data(options=options)
        return data

    def parameters(self, map_data: MapData, options: Mapping[str, Any]) -> Parameters | None:
        """``ttr_parameters``: the parameters in force."""
        params: Parameters | None = self._hook.ttr_parameters(map_data=map_data, options=options)
        return params

    def ticket_result(
        self, ticket: Ticket, network: PlayerNetwork, context: ScoringContext
    ) -> TicketResult | None:
        """``ttr_ticket_result``: one kept ticket of one player, scored."""
        result: TicketResult | None = self._ticket_result(
            ticket=ticket, network=network, context=context
        )
        return result

    def final_bonuses(self, context: ScoringContext) -> list[Mapping[str, Sequence[int]] | None]:
        """``ttr_final_bonuses``: each plugin's bonuses."""
        bonuses: list[Mapping[str, Sequence[int]] | None] = self._hook.ttr_final_bonuses(
            context=context
        )
        return bonuses

    def implementations(self, hook: str) -> list[pluggy.HookImpl]:
        """The implementations of the hook named ``hook``, the core's included, in the
        order pluggy keeps them (it calls the last one first)."""
        caller: pluggy.HookCaller = getattr(self._hook, hook)
        return caller.get_hookimpls()
