"""OpenSpiel's own checks pass on ``python_ttr`` for every edition and player count, and
OpenSpiel's RL environment and search algorithms play it."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts

import ttr_core as ttr
from ttr_core.openspiel import load
from ttr_core.openspiel.bots import DeterminizedMctsBot, EngineBot, PlayoutEvaluator, play_game

SEATINGS = [
    (edition.info.id, players)
    for edition in sorted(ttr.installed_editions().values(), key=lambda e: e.info.id)
    if edition.builtin
    for players in range(edition.players[0], edition.players[1] + 1)
]


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "players"), SEATINGS)
def test_random_sim_test_passes(edition: str, players: int) -> None:
    """OpenSpiel's random simulation test (clones, serialisation, sorted legal actions,
    unique action strings, observations, returns) for one game."""
    game = pyspiel.load_game(f"python_ttr(edition={edition},players={players})")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_builtin_edition_and_seating_is_checked() -> None:
    assert {e for e, _ in SEATINGS} == {"usa", "europe", "india", "switzerland", "nordic"}
    assert ("usa", 5) in SEATINGS and ("switzerland", 3) in SEATINGS


@pytest.mark.slow
def test_rl_environment_runs_whole_episodes() -> None:
    """``rl_environment.Environment`` plays episodes to the end with random agents; the
    chance nodes are drawn by the environment; the last step gives the placings."""
    game = load("usa", 2)
    env = rl_environment.Environment(game, seed=3)
    assert env.observation_spec()["info_state"] == (game.context.observations.size,)
    pick = random.Random(3)
    for _ in range(2):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([pick.choice(step.observations["legal_actions"][seat])])
        assert sorted(step.rewards) == [-1.0, 1.0] or step.rewards == [0.0, 0.0]


def test_engine_bots_play_a_game_through_openspiel() -> None:
    game = load("usa", 2)
    returns = play_game(game, [EngineBot(game, 0, "greedy", 1), EngineBot(game, 1, "random", 2)])
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]


@pytest.mark.slow
def test_python_ismcts_plays_a_whole_game() -> None:
    """OpenSpiel's Python ISMCTS drives the game through ``resample_from_infostate``."""
    game = load("usa", 2)
    bot = ismcts.ISMCTSBot(
        game,
        PlayoutEvaluator(game, seed=1, policy="random"),
        uct_c=2.0,
        max_simulations=3,
        random_state=np.random.RandomState(1),
        use_observation_string=True,
        allow_inconsistent_action_sets=True,
    )
    returns = play_game(game, [bot, EngineBot(game, 1, "random", 2)], seed=4)
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]


@pytest.mark.slow
def test_determinized_mcts_plays_a_whole_game() -> None:
    game = load("usa", 2)
    evaluator = PlayoutEvaluator(game, seed=1, policy="random", greedy_prior=0.5)
    bot = DeterminizedMctsBot(game, evaluator, simulations=3, seed=1)
    returns = play_game(game, [EngineBot(game, 0, "random", 2), bot], seed=5)
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]


def test_the_evaluator_values_a_state_and_its_prior_sums_to_one() -> None:
    game = load("usa", 2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    evaluator = PlayoutEvaluator(game, seed=2, policy="random", greedy_prior=0.5)
    value = evaluator.evaluate(state)
    assert value.shape == (2,) and value.sum() == pytest.approx(0.0)
    prior = dict(evaluator.prior(state))
    assert sorted(prior) == state.legal_actions()
    assert sum(prior.values()) == pytest.approx(1.0)
    assert max(prior.values()) > 0.5
    with pytest.raises(ValueError, match="policy"):
        PlayoutEvaluator(game, policy="clever")
