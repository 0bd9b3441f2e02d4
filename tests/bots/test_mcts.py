"""The search bot: legal and reproducible games at a small budget, and how it decides."""

from __future__ import annotations

import functools

import pytest

from ttr_core import Ruleset
from ttr_core.batch.runs import play_game
from ttr_core.bots import GreedyBot
from ttr_core.bots.mcts import MctsBot
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.testing.play import play_game as random_game
from ttr_core.testing.play import ruleset


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "seed"), [("europe", 1), ("nordic", 2)])
def test_small_budget_games_are_legal(edition: str, seed: int) -> None:
    """A whole game against greedy: every choice applies (play_game refuses an illegal
    one), tunnels, stations and payments with groups included."""
    rs = ruleset(edition)
    mcts = functools.partial(MctsBot, playouts=2)
    result = play_game(rs, ["mcts", "greedy"], seed, factories=[mcts, GreedyBot])
    assert result.turns > 20


@pytest.mark.slow
def test_the_same_seed_plays_the_same_game(usa: Ruleset) -> None:
    """Two games from one seed are the same game, each of them legal to the end."""
    mcts = functools.partial(MctsBot, playouts=2)
    first = play_game(usa, ["greedy", "mcts"], 8, factories=[GreedyBot, mcts], record=True)
    again = play_game(usa, ["greedy", "mcts"], 8, factories=[GreedyBot, mcts], record=True)
    assert first == again
    assert first.record is not None and again.record is not None
    assert first.record.log == again.record.log


def test_candidates_start_with_the_greedy_choice_and_are_legal(usa: Ruleset) -> None:
    for actions in (0, 20, 45):
        game = random_game(usa, 2, seed=7, actions=actions)
        state = game.state
        seat = state.current
        view = game.view(seat)
        legal = SeatActions(usa, state, seat)
        bot = MctsBot(usa, seat, 1, playouts=4)
        arms = bot.candidates(view, legal)
        assert arms[0] == GreedyBot(usa, seat, 1).choose(view, legal)
        assert len(set(arms)) == len(arms)
        assert all(a in legal for a in arms)


def test_every_candidate_is_compared_with_greedy_on_the_same_states(usa: Ruleset) -> None:
    for actions in range(30, 60):
        game = random_game(usa, 2, seed=5, actions=actions)
        seat = game.state.current
        view = game.view(seat)
        bot = MctsBot(usa, seat, 9, playouts=24)
        arms = bot.candidates(view, SeatActions(usa, game.state, seat))
        if len(arms) > 2:
            break
    assert len(arms) > 2
    rewards = bot.search(view, arms)
    assert sum(map(len, rewards)) in (24, 25)
    assert all(len(rewards[0]) >= len(r) for r in rewards[1:])
    assert all(0 < x < 1 for r in rewards for x in r)
    assert bot.search(view, arms) == rewards


@pytest.mark.parametrize(
    ("rewards", "picked"),
    [
        ([[0.5, 0.5, 0.5], [0.9, 0.1, 0.9]], 0),  # a noisy gain is not enough
        ([[0.5, 0.5, 0.5], [0.6, 0.6, 0.61]], 1),  # a steady gain is
        ([[0.5, 0.4, 0.5], [0.6, 0.5, 0.62], [0.7, 0.61, 0.7]], 2),  # the surest of two
        ([[0.5, 0.5], [0.4, 0.45]], 0),
    ],
)
def test_the_greedy_choice_stands_without_a_clear_paired_gain(
    usa: Ruleset, rewards: list[list[float]], picked: int
) -> None:
    assert MctsBot(usa, 0, 1).best_arm(rewards) == picked


def test_one_legal_action_needs_no_search(usa: Ruleset) -> None:
    game = random_game(usa, 2, seed=3, actions=0)
    seat = game.state.current
    bot = MctsBot(usa, seat, 1, playouts=1000)
    only = [game.legal_actions()[0]]
    assert bot.choose(game.view(seat), only) == only[0]
