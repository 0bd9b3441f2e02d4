"""Fictional Coast: a tiny invented edition of ttr, registered like any third-party one.

The module is the plugin: ttr finds it through the ``ttr.editions`` entry point declared
in ``pyproject.toml``. The map and its parameters are data (``fictional.json``); Python
adds an option and a bonus of the edition's own, the lighthouse bonus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ttr_core.plugin import OptionSpec, ScoringContext, hookimpl, packaged_edition

__version__ = "0.1.0"

LIGHTHOUSES = ("Brinecliff", "Greyhaven")
"""The two lighthouse cities."""

ttr_edition_info, ttr_map_data = packaged_edition(__name__, "fictional.json", aliases=("coast",))


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
