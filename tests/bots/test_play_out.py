"""``play_out``: the rest of a game, or a whole one, played by bots in one call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

import ttr_core as ttr
from ttr_core.bots import BaseBot, GreedyBot
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model.actions import Action
from ttr_core.rules.views import PlayerView

EDITIONS = [("usa", 2), ("europe", 5), ("india", 4), ("switzerland", 3), ("nordic", 2)]


def test_a_whole_game_ends_with_a_record_that_replays_to_it() -> None:
    start = ttr.Game.new("usa", players=["Ann", "Bob", "Cat"], seed=2026)
    done = ttr.play_out(start, ["greedy", "random", "greedy"])
    assert done.is_over and done.names == ("Ann", "Bob", "Cat")
    again = ttr.Game.load(done.save())
    assert again.state == done.state
    assert again.scores() == done.scores()


def test_the_game_given_is_left_as_it_was() -> None:
    start = ttr.Game.new("usa", players=2, seed=3)
    for _ in range(6):
        start.apply(start.legal_actions()[0])
    state, log = start.state, list(start.log)
    done = ttr.play_out(start, "random")
    assert start.state == state and start.log == log
    assert done.log[: len(log)] == log and len(done.log) > len(log)


def test_the_same_call_plays_the_same_game_and_another_seed_another() -> None:
    start = ttr.Game.new("europe", players=3, seed=11)
    first = ttr.play_out(start, ["greedy", "random", "random"])
    assert ttr.play_out(start, ["greedy", "random", "random"]).log == first.log
    assert ttr.play_out(start, ["greedy", "random", "random"], seed=12).log != first.log


@pytest.mark.parametrize(("edition", "players"), EDITIONS)
def test_every_edition_is_played_to_its_end(edition: str, players: int) -> None:
    done = ttr.play_out(ttr.Game.new(edition, players=players, seed=5), "random")
    assert done.is_over
    assert ttr.Game.load(done.save()).state == done.state


def test_one_spec_or_class_for_every_seat_or_one_per_seat() -> None:
    start = ttr.Game.new("usa", players=2, seed=8)
    by_class = ttr.play_out(start, GreedyBot)
    assert by_class.log == ttr.play_out(start, ["greedy", "greedy"]).log
    assert ttr.play_out(start, ["mcts:playouts=2", GreedyBot]).is_over


class Spy(BaseBot):
    """Records what it is given, and plays the first legal action."""

    seen: ClassVar[list[tuple[int, int, int]]] = []

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        assert isinstance(legal, SeatActions)
        Spy.seen.append((self.seat, view.seat, len(legal)))
        return legal[0]


def test_each_bot_sees_its_own_seat_and_lists_what_the_game_allows() -> None:
    Spy.seen = []
    start = ttr.Game.new("usa", players=3, seed=4)
    game = ttr.play_out(start, Spy)
    replay = ttr.Game.new("usa", players=3, seed=4)
    for (seat, view_seat, listed), entry in zip(Spy.seen, game.log, strict=True):
        assert seat == view_seat == replay.current_player
        assert listed == len(replay.legal_actions())
        replay.apply(entry.action)
    assert replay.state == game.state


def test_a_game_set_to_a_position_is_played_on_without_a_record() -> None:
    start = ttr.Game.new("usa", players=2, seed=1)
    start.state = start.state  # forgets the deal
    done = ttr.play_out(start, "random")
    assert done.is_over
    with pytest.raises(ttr.SetupError):
        done.record()


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (["greedy"] * 3, "expected 1 or 2 bots for the 2 seats, got 3"),
        ([], "expected 1 or 2 bots for the 2 seats, got 0"),
        ("nobody", "unknown bot 'nobody'"),
        (["greedy", 7], "a bot is a spec or a bot class, not 7"),
        ("mcts:playouts=x", "playouts"),
        (7, "bots are a spec, a bot class or a sequence of them, not 7"),
    ],
)
def test_bad_bots_are_refused_before_any_move(bots: Any, message: str) -> None:
    start = ttr.Game.new("usa", players=2, seed=1)
    with pytest.raises(ttr.BotError, match=message):
        ttr.play_out(start, bots)
    assert start.log == []


class Failing(BaseBot):
    """Plays five legal actions, then raises."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        self.moves = getattr(self, "moves", 0) + 1
        if self.moves > 5:
            raise RuntimeError("out of ideas")
        return legal[0]


class Cheating(BaseBot):
    """Keeps a ticket it was never dealt."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return ttr.KeepTickets(tickets=(10_000,))


def test_a_bot_that_raises_is_named_with_its_seat_and_the_game_is_kept() -> None:
    start = ttr.Game.new("usa", players=2, seed=1)
    with pytest.raises(
        ttr.BotError, match=r"^bot 'Failing' in seat [01], at action 1[01] failed: RuntimeError"
    ):
        ttr.play_out(start, Failing)
    assert start.log == [] and not start.is_over


def test_a_bot_that_chooses_an_illegal_action_is_refused_and_named() -> None:
    start = ttr.Game.new("usa", players=2, seed=1)
    with pytest.raises(
        ttr.BotError, match=r"^bot 'Cheating' in seat 0, at action 0 chose .*, which is illegal"
    ):
        ttr.play_out(start, [Cheating, "greedy"])
    assert start.log == []
