"""Payments with groups of any cards (kept here for code that imports them).

The mechanic lives in :mod:`ttr_core.rules.card_groups`; see it for the model.
"""

from __future__ import annotations

from ttr_core.rules.card_groups import (
    GroupShape,
    can_complete,
    choice_steps,
    choosable,
    claim_actions,
    fits,
    group_options,
    group_options_per_class,
    max_groups,
    payment_size,
    route_shape,
)

__all__ = [
    "GroupShape",
    "can_complete",
    "choice_steps",
    "choosable",
    "claim_actions",
    "fits",
    "group_options",
    "group_options_per_class",
    "max_groups",
    "payment_size",
    "route_shape",
]
