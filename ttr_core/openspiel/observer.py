"""What a seat observes of an OpenSpiel state, read from its view alone.

The observation is the seat's [`PlayerView`][ttr_core.rules.views.PlayerView] of the
position reached: as a string, the view's JSON; as a tensor, the vector of
`ttr_core.rl.ObservationEncoding`. The information state (perfect recall) is, as a
string, the record of every step the seat has seen: who acted, and the events of the step
with what the seat may not see blanked (`ttr_core.rules.views.redact`). Its tensor is the
observation vector, which is not perfect recall: a fixed-size vector of the whole record
would be far larger than the game needs.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

import numpy as np

from ttr_core.formats.serialize import event_to_json, view_to_json
from ttr_core.model.events import Event
from ttr_core.openspiel.context import Context
from ttr_core.rules.views import PlayerView, redact


class _Observed(Protocol):
    """What the observer reads of a state."""

    def view(self, seat: int) -> PlayerView | None: ...

    @property
    def node(self) -> Any: ...


def seen_line(actor: str, events: tuple[Event, ...], seat: int) -> str:
    """One line of what ``seat`` (-1, a spectator) saw of a step: who acted, then the
    step's events as that seat may see them, as JSON."""
    shown = [event_to_json(redact(e, seat)) for e in events]
    return f"{actor}: {json.dumps(shown, separators=(',', ':'), sort_keys=True)}"


def view_text(view: PlayerView) -> str:
    """A view as one line of JSON (the observation string)."""
    return json.dumps(view_to_json(view), separators=(",", ":"), sort_keys=True)


class TtrObserver:
    """OpenSpiel's Python observer for the ttr game (``tensor``, ``dict``, ``set_from``
    and ``string_from``)."""

    def __init__(self, context: Context, *, perfect_recall: bool) -> None:
        self._ctx = context
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(context.observations.size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: _Observed, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation vector (zeros before the deal)."""
        self._check(player)
        view = state.view(player)
        if view is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self._ctx.observations.encode(view)

    def string_from(self, state: _Observed, player: int) -> str:
        """``player``'s information state or observation as text."""
        self._check(player)
        if self.perfect_recall:
            return "\n".join(state.node.seen[player])
        view = state.view(player)
        return "before the deal" if view is None else view_text(view)

    def _check(self, player: int) -> None:
        if type(player) is not int or not 0 <= player < self._ctx.players:
            raise ValueError(f"no seat {player!r} in a game of {self._ctx.players} players")
