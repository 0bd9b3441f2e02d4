"""The players at the other seats of a single-agent environment: bots, by spec or as given.

An opponent is one of:

- a bot spec, as ``ttr simulate`` takes it (``"random"``, ``"greedy"``,
  ``"mcts:playouts=20"``, ``"my_package.bots:CleverBot"``): the bot is built anew at each
  reset, for its seat, seeded from the game's seed;
- a bot class (any [`BotFactory`][ttr_core.bots.base.BotFactory] that is a class), built
  in the same way;
- a [`Bot`][ttr_core.bots.base.Bot] instance, used as it is in every game;
- a function ``policy(view, legal) -> Action``, called as a bot's ``choose`` is, with the
  seat's view and its [`SeatActions`][ttr_core.hidden.seat_actions.SeatActions].

Every opponent gets its seat's view and legal actions listed without the hidden cards,
on its seat's own private copy of the ruleset, as the batch runner gives its bots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from ttr_core.bots.base import Bot, BotFactory
from ttr_core.bots.registry import find_bot
from ttr_core.hidden.seat_actions import SeatActions, SeatLister
from ttr_core.model import rng
from ttr_core.model.actions import Action
from ttr_core.model.errors import BotError, SetupError, quote
from ttr_core.play.simulator import Simulator
from ttr_core.rules.views import PlayerView, view_of
from ttr_core.ruleset.ruleset import Ruleset

Policy: TypeAlias = Callable[[PlayerView, SeatActions], Action]
"""A function that plays a seat: given its view and legal actions, one of those actions."""

Opponent: TypeAlias = str | type | Bot | Policy
"""One other seat's player: a bot spec, a bot class, a bot, or a policy function."""


class _Seat:
    """One opponent seat: how its player is made for a game, and that player."""

    def __init__(self, opponent: object, rs: Ruleset, players: int) -> None:
        self.rs = rs
        self.factory: BotFactory | None = None
        self.choose: Policy | None = None
        if isinstance(opponent, str):
            self.factory = find_bot(opponent)
        elif isinstance(opponent, type):
            if not callable(getattr(opponent, "choose", None)):
                raise BotError(f"{quote(opponent)} is not a bot class (it needs a choose method)")
            self.factory = opponent
        elif isinstance(opponent, Bot):
            self.choose = opponent.choose
        elif callable(opponent):
            self.choose = opponent
        else:
            raise BotError(
                "an opponent is a bot spec, a bot class, a bot or a function "
                f"policy(view, legal), not {quote(opponent)}"
            )
        self.lister = SeatLister(rs, players)

    def start(self, seat: int, seed: int) -> None:
        """Build this game's bot for ``seat`` from ``seed``, if the seat builds its bots."""
        if self.factory is not None:
            self.choose = self.factory(self.rs, seat, seed).choose


class Opponents:
    """The players of every seat but the learner's, for games of ``players`` players."""

    def __init__(self, opponents: Opponent | Sequence[Opponent], rs: Ruleset, players: int) -> None:
        """One player per other seat: ``opponents`` is one opponent for all of them, or a
        sequence of one per other seat, in seat order.

        :raises BotError: an unknown bot spec, or something that is no opponent.
        :raises SetupError: a sequence whose length is not the number of other seats.
        """
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            given: Sequence[object] = [opponents] * (players - 1)
        else:
            given = opponents
            if len(given) != players - 1:
                raise SetupError(
                    f"a {players}-player game has {players - 1} other seats, and "
                    f"{len(given)} opponents are given"
                )
        self._players = players
        self._seats = [_Seat(o, rs.private_copy(), players) for o in given]
        self._at: dict[int, _Seat] = {}

    def start(self, learner: int, game_seed: int) -> None:
        """Seat the opponents around ``learner`` (in seat order) for the game dealt from
        ``game_seed``; the bot of seat ``s`` is seeded with ``derive_seed(game_seed, s + 1)``."""
        others = [s for s in range(self._players) if s != learner]
        self._at = dict(zip(others, self._seats, strict=True))
        for seat, player in self._at.items():
            player.start(seat, rng.derive_seed(game_seed, seat + 1))

    def play(self, sim: Simulator) -> None:
        """Let the seat to act, an opponent's, choose and apply its action.

        :raises IllegalActionError: the opponent chose an action that is not legal
            (nothing changes); whatever the opponent raises passes through.
        """
        seat = sim.current_player
        player = self._at[seat]
        legal = player.lister.actions(sim, seat)
        if player.choose is None:
            raise AssertionError("start() seats every opponent before play")
        action = player.choose(view_of(sim.ruleset, sim.snapshot(), seat), legal)
        del legal  # a kept listing would make the next one copy its simulator
        sim.apply(action)
