"""The PettingZoo environment of ``ttr_core.rl``: PettingZoo's own checks, seeding,
observations from views only, rewards, rendering and the optional dependency."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import ttr_core as ttr
from ttr_core import ActionCodeError, SetupError, Simulator, view_of
from ttr_core.errors import MissingExtraError
from ttr_core.rl import ObservationEncoding, env, placing_rewards, raw_env
from ttr_core.scoring import Scoresheet
from ttr_core.testing.play import ruleset

GAMES = [
    (edition, players)
    for edition, installed in sorted(ttr.installed_editions().items())
    for players in range(installed.players[0], installed.players[1] + 1)
]

ADVISORY = (
    # PettingZoo exempts its own classic games, whose observations are dictionaries with
    # an action mask as ours are, from these two advisories by name.
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


@pytest.fixture
def pettingzoo_advisories() -> Iterator[None]:
    with warnings.catch_warnings():
        for message in ADVISORY:
            warnings.filterwarnings("ignore", message=message, category=UserWarning)
        yield


def masked_random_game(environment: Any, seed: int) -> Iterator[str]:
    """Play a whole game with uniformly random legal codes; yield each agent stepped."""
    environment.reset(seed=seed)
    chooser = np.random.default_rng(seed)
    for agent in environment.agent_iter():
        obs, _, terminated, truncated, _ = environment.last()
        action = None
        if not (terminated or truncated):
            action = int(chooser.choice(np.flatnonzero(obs["action_mask"])))
        yield agent
        environment.step(action)


# -- PettingZoo's own checks ---------------------------------------------------------------


@pytest.mark.usefixtures("pettingzoo_advisories")
@pytest.mark.parametrize(("edition", "players"), GAMES)
def test_pettingzoo_api_test_passes(edition: str, players: int) -> None:
    api_test(env(edition, players=players), num_cycles=200)


@pytest.mark.usefixtures("pettingzoo_advisories")
@pytest.mark.parametrize(("edition", "players"), GAMES)
def test_pettingzoo_seed_test_passes(edition: str, players: int) -> None:
    seed_test(lambda: env(edition, players=players), num_cycles=200)


def test_pettingzoo_api_test_passes_on_the_raw_environment(pettingzoo_advisories: None) -> None:
    api_test(raw_env("nordic", players=3), num_cycles=60)


# -- seeding -------------------------------------------------------------------------------


def test_reset_with_a_seed_deals_that_seeds_game() -> None:
    """``reset(seed=s)`` deals the game ``Simulator.new`` deals with ``s``; resets without
    a seed go on deterministically from it."""
    e = raw_env("europe", players=3)
    e.reset(seed=42)
    assert e.simulator.snapshot() == Simulator.new("europe", 3, seed=42).snapshot()
    e.reset()
    second = e.simulator.snapshot()
    e.reset()
    third = e.simulator.snapshot()
    assert len({second, third, Simulator.new("europe", 3, seed=42).snapshot()}) == 3
    e.reset(seed=42)
    e.reset()
    assert e.simulator.snapshot() == second
    unseeded = raw_env("europe", players=3)
    unseeded.reset()
    assert unseeded.simulator.snapshot().rng >= 0


def test_same_seed_same_game_through_the_wrapped_environment() -> None:
    def record(seed: int) -> list[tuple[str, float]]:
        e = env("switzerland", players=2)
        out = []
        for agent in masked_random_game(e, seed):
            out.append((agent, float(e.rewards.get(agent, 0.0))))
        return out

    assert record(3) == record(3)
    assert record(3) != record(4)


# -- a whole game --------------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "players"), [("usa", 4), ("nordic", 2), ("europe", 3)])
def test_observations_come_from_each_agents_view(edition: str, players: int) -> None:
    """At every step every agent's observation is the encoding of its view, and only the
    agent to act has a mask, which is its legal set."""
    e = env(edition, players=players)
    raw = e.unwrapped
    rs = raw.ruleset
    enc = ObservationEncoding(rs, players)
    steps = 0
    for agent in masked_random_game(e, seed=players):
        sim = raw.simulator
        state = sim.snapshot()
        for other in e.possible_agents:
            seat = int(other.removeprefix("player_"))
            obs = e.observe(other) if other in e.agents else raw.observe(other)
            assert np.array_equal(obs["observation"], enc.encode(view_of(rs, state, seat)))
            if seat == state.current and not state.is_over:
                legal = sim.legal_actions()
                assert obs["action_mask"].sum() == len(legal)
                assert (
                    obs["action_mask"].tolist()
                    == raw.actions.mask(view_of(rs, state, seat), legal).tolist()
                )
            else:
                assert not obs["action_mask"].any()
        assert agent in e.agents
        steps += 1
    assert not e.agents
    assert steps > 50


def test_a_whole_game_ends_with_zero_sum_placing_rewards() -> None:
    e = raw_env("usa", players=4)
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    for agent in masked_random_game(e, seed=5):
        _, reward, terminated, _, info = e.last()
        rewards[agent] += reward
        if terminated:
            assert info["winners"] == list(e.simulator.scores().winners)
    sheet = e.simulator.scores()
    assert [rewards[a] for a in e.possible_agents] == placing_rewards(sheet)
    assert sum(rewards.values()) == pytest.approx(0.0)
    assert max(rewards.values()) > 0


def sheet(totals: list[int], winners: tuple[int, ...]) -> Scoresheet:
    class Player:
        def __init__(self, total: int) -> None:
            self.total = total

    return Scoresheet(edition="usa", players=tuple(Player(t) for t in totals), winners=winners)  # type: ignore[arg-type]


def test_placing_rewards_are_zero_sum_by_place() -> None:
    assert placing_rewards(sheet([80, 60], (0,))) == [1.0, -1.0]
    assert placing_rewards(sheet([70, 70], (1,))) == [-1.0, 1.0]  # a tie-breaker decided
    assert placing_rewards(sheet([70, 70], (0, 1))) == [0.0, 0.0]
    four = placing_rewards(sheet([50, 90, 50, 20], (1,)))
    assert four == [0.0, 1.0, 0.0, -1.0]  # the two on 50 beat one seat and lose to one
    five = placing_rewards(sheet([10, 20, 30, 40, 50], (4,)))
    assert five == [-1.0, -0.5, 0.0, 0.5, 1.0]
    assert sum(four) == pytest.approx(0.0)


# -- refusals and rendering ----------------------------------------------------------------


def test_raw_environment_refuses_an_illegal_code_and_changes_nothing() -> None:
    e = raw_env("usa", players=2)
    e.reset(seed=1)
    before = e.simulator.snapshot()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ActionCodeError, match=f"action code {illegal} is not legal for player_0"):
        e.step(illegal)
    with pytest.raises(ActionCodeError, match="out of range"):
        e.step(e.actions.size)
    assert e.simulator.snapshot() == before
    e.step(int(np.flatnonzero(mask)[0]))
    assert e.simulator.snapshot() != before


def test_wrapped_environment_ends_the_game_on_an_illegal_code() -> None:
    e = env("usa", players=3)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.last()[0]["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert sum(e.rewards.values()) == -1.0


def test_environment_refuses_bad_setups() -> None:
    with pytest.raises(SetupError, match="played by 2 to 3 players, not 4"):
        raw_env("nordic", players=4)
    with pytest.raises(SetupError, match="render mode 'rgb_array'"):
        raw_env("usa", render_mode="rgb_array")
    with pytest.raises(ttr.UnknownEditionError):
        raw_env("atlantis")
    with pytest.raises(ttr.OptionError):
        raw_env("usa", options={"colour": "blue"})
    with pytest.raises(SetupError, match="a ruleset has its own"):
        raw_env(ruleset("usa"), options={"tie_break": "rules"})
    with pytest.raises(SetupError, match="call reset"):
        raw_env("usa").observe("player_0")
    with pytest.raises(SetupError, match="a seed is an integer, not 'one'"):
        raw_env("usa").reset(seed="one")  # type: ignore[arg-type]


def test_render_ansi_shows_the_public_table_only(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env("europe", players=2, render_mode="ansi")
    e.reset(seed=9)
    text = e.render()
    assert isinstance(text, str)
    assert text.startswith("Ticket to Ride Europe, turn 0: player_0 to act (opening_tickets)")
    assert "player_1: 4 cards, 45 trains, 0 tickets, 0 tracks, 0 points, 3 stations left" in text
    for agent in masked_random_game(e, seed=9):
        assert agent
    assert "final scores:" in str(e.render())
    human = raw_env("usa", players=2, render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert "Ticket to Ride (USA), turn 0: player_0 to act" in capsys.readouterr().out


def test_ruleset_and_agents() -> None:
    e = env(ruleset("india"), players=4)
    e.reset(seed=1)
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert e.action_space("player_3").n == e.unwrapped.actions.size
    assert e.observation_space("player_0")["observation"].shape == (e.unwrapped.observations.size,)
    assert e.unwrapped.view("player_2").seat == 2


# -- the optional dependency ---------------------------------------------------------------


def test_rl_without_its_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(sys.modules):
        if name == "ttr_core.rl" or name.startswith("ttr_core.rl."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(MissingExtraError, match=r'pip install "ttr-engine\[rl\]"') as info:
        importlib.import_module("ttr_core.rl")
    assert isinstance(info.value, ImportError)
    assert "pettingzoo cannot be imported" in str(info.value)


def test_the_core_does_not_import_rl() -> None:
    code = (
        "import sys, ttr_core, ttr_core.cli, ttr_core.bots, ttr_core.simulate;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pettingzoo', 'gymnasium')"
        " or m.startswith('ttr_core.rl')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
