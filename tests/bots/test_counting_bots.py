"""The faster bot protocol: a bot that decides from the number of legal actions alone
(``choose_index``) plays the same games as by ``choose``, and a wrong index is refused."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ttr_core import Game, Ruleset, play_out
from ttr_core.batch.runs import SimulationError, play_game
from ttr_core.bots import CountingBot, RandomBot
from ttr_core.bots.base import index_chooser
from ttr_core.model.actions import Action
from ttr_core.model.errors import BotError
from ttr_core.rules.views import PlayerView


class AskedToChoose(RandomBot):
    """The random bot without its faster method: always asked with ``choose``."""

    def choose_index(self, count: int) -> int | None:
        return None


class Overriding(RandomBot):
    """A subclass that chooses otherwise: the first legal action."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return legal[0]


class OutOfRange(RandomBot):
    """Answers with an index one past the last action."""

    def choose_index(self, count: int) -> int:
        return count


@pytest.mark.parametrize("edition", ["usa", "nordic", "switzerland"])
def test_random_bot_plays_the_same_game_by_index_as_by_choose(edition: str) -> None:
    """The count-only path draws what ``choose`` draws and applies the same action: the
    records of both games are the same."""
    rs = Ruleset.build(edition)
    players = rs.params.players[1]
    fast = play_game(rs, ["random"] * players, 11, factories=[RandomBot] * players, record=True)
    slow = play_game(rs, ["random"] * players, 11, factories=[AskedToChoose] * players, record=True)
    assert fast.record is not None and slow.record is not None
    assert fast.record.log == slow.record.log
    assert fast == slow


def test_play_out_by_index_plays_the_same_game_as_by_choose(usa: Ruleset) -> None:
    """``play_out`` takes the same path: the same actions either way."""
    start = Game.new(usa, players=3, seed=4)
    fast = play_out(start, RandomBot)
    slow = play_out(start, AskedToChoose)
    assert [e.action for e in fast.log] == [e.action for e in slow.log]


def test_a_subclass_that_chooses_otherwise_is_asked_with_choose(usa: Ruleset) -> None:
    """A random bot's subclass overriding ``choose`` gets None from ``choose_index``,
    so its own choice is played."""
    bot = Overriding(usa, 0, 1)
    assert bot.choose_index(5) is None
    assert RandomBot(usa, 0, 1).choose_index(5) in range(5)
    game = play_out(Game.new(usa, players=2, seed=3), Overriding)
    first = Game.new(usa, players=2, seed=3)
    assert game.log[0].action == first.legal_actions()[0]


def test_the_protocol_is_recognised() -> None:
    """The random bot has the faster method; a bot with only ``choose`` has not."""
    usa = Ruleset.build("usa")
    assert isinstance(RandomBot(usa, 0, 1), CountingBot)
    assert index_chooser(RandomBot(usa, 0, 1)) is not None
    assert index_chooser(object()) is None


def test_an_index_out_of_range_is_a_simulation_error(usa: Ruleset) -> None:
    with pytest.raises(SimulationError, match="chose index"):
        play_game(usa, ["bad", "bad"], 1, factories=[OutOfRange] * 2)


def test_an_index_out_of_range_in_play_out_is_a_bot_error(usa: Ruleset) -> None:
    start = Game.new(usa, players=2, seed=1)
    with pytest.raises(BotError, match="chose index"):
        play_out(start, OutOfRange)
    assert list(start.log) == []
