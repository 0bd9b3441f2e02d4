"""What a bot is: something that picks one of the legal actions from what its seat can see.

A bot is built with ``(ruleset, seat, seed)`` and asked ``choose(view, legal)`` whenever its seat
has to decide. It gets its seat's [`PlayerView`][ttr_core.rules.views.PlayerView] and its legal
actions as a [`SeatActions`][ttr_core.hidden.seat_actions.SeatActions], listed without the hidden
cards, never the game state: nothing it is given leads to other players' cards or the order of the
decks. All of its chance comes from [`ttr_core.model.rng`][ttr_core.model.rng] seeded with ``seed``,
so a bot plays the same way on every Python version.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from ttr_core.model import rng
from ttr_core.model.actions import Action
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

T = TypeVar("T")


@runtime_checkable
class Bot(Protocol):
    """The bot protocol: pick a legal action for the seat the bot plays."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Return one of ``legal``: the seat's legal actions, never empty (``ttr
        simulate`` passes a [`SeatActions`][ttr_core.hidden.seat_actions.SeatActions])."""
        ...


@runtime_checkable
class CountingBot(Protocol):
    """An optional, faster protocol beside [`Bot`][]: a bot that can decide from the number
    of legal actions alone.

    Before asking ``choose``, the runners (``play_game``, ``play_out``, ``ttr simulate``)
    call ``choose_index(count)`` on a bot that has it. It returns an index into the seat's
    legal actions in listing order (from 0 to ``count - 1``), and the runner applies that
    action without building the view or the action; or None, and the runner asks
    ``choose`` as usual. The count is all it is given, so it learns nothing hidden.
    """

    def choose_index(self, count: int) -> int | None:
        """The index of the action to play among ``count`` legal ones, or None to be asked
        with ``choose``."""
        ...


def index_chooser(bot: object) -> Callable[[int], int | None] | None:
    """``bot.choose_index`` if the bot has that faster protocol ([`CountingBot`][]), else
    None."""
    method = getattr(bot, "choose_index", None)
    return method if callable(method) else None


BotFactory = Callable[[Ruleset, int, int], Bot]
"""What builds a bot: a bot class, called with ``(ruleset, seat, seed)``."""


class BaseBot(ABC):
    """A convenient base for bots: keeps the ruleset, the seat and a seeded generator.

    Subclasses implement `choose`; `below` and `pick` give them reproducible chance.
    """

    def __init__(self, ruleset: Ruleset, seat: int, seed: int) -> None:
        self.ruleset = ruleset
        self.seat = seat
        self.seed = seed
        self._rng = rng.Stream(seed)

    def below(self, n: int) -> int:
        """A number uniform in ``range(n)`` from the bot's own generator (``n`` > 0)."""
        return self._rng.below(n)

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items``, uniformly (``items`` must not be empty)."""
        return items[self.below(len(items))]

    @abstractmethod
    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Return one of ``legal``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat}, seed={self.seed})"
