"""A conformance kit for editions: property-based rule tests in a few lines.

Install it with the ``testing`` extra (``pip install ".[testing]"`` in a clone), which brings in
Hypothesis. An edition author gets the whole suite by subclassing one class::

    from ttr_core.testing import EditionContract


    class TestMyEdition(EditionContract):
        edition = "my-edition"

or, without pytest, by calling [`check_edition`][]. The parts are public too:
Hypothesis strategies (`ttr_core.testing.strategies`), a stateful test machine
(`ttr_core.testing.machine`), the invariant checks
(`ttr_core.testing.invariants`), golden games (`ttr_core.testing.golden`) and the
helpers for rule tests written by hand: boards in code, states set up in a chosen
position, one action checked ([`ttr_core.testing.scenarios`][ttr_core.testing.scenarios]).
"""

from __future__ import annotations

from ttr_core.model.extras import install_command

try:
    import hypothesis  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised in a subprocess
    raise ImportError(
        "ttr_core.testing needs Hypothesis, which the 'testing' extra installs: "
        f"{install_command('testing')}"
    ) from exc

from ttr_core.testing.check import EditionCheck, check_edition
from ttr_core.testing.contract import EditionContract, kit_settings
from ttr_core.testing.invariants import (
    check_action,
    check_end,
    check_events_redacted,
    check_legal_actions,
    check_records,
    check_state,
    check_view,
)
from ttr_core.testing.machine import EditionMachine, edition_machine
from ttr_core.testing.play import (
    Chooser,
    game_at,
    option_sets,
    play_game,
    player_counts,
    ruleset,
)
from ttr_core.testing.space import arbitrary_action, arbitrary_actions, random_position
from ttr_core.testing.strategies import (
    ActionSequence,
    action_sequences,
    any_actions,
    end_positions,
    games,
)

__all__ = [
    "ActionSequence",
    "Chooser",
    "EditionCheck",
    "EditionContract",
    "EditionMachine",
    "action_sequences",
    "any_actions",
    "arbitrary_action",
    "arbitrary_actions",
    "check_action",
    "check_edition",
    "check_end",
    "check_events_redacted",
    "check_legal_actions",
    "check_records",
    "check_state",
    "check_view",
    "edition_machine",
    "end_positions",
    "game_at",
    "games",
    "kit_settings",
    "option_sets",
    "play_game",
    "player_counts",
    "random_position",
    "ruleset",
]
