"""The PettingZoo environment of ``ttr_core.rl``: PettingZoo's own checks, seeding,
observations from views only, rewards, rendering, refusals (Hypothesis feeds ``step``
values of every type and size, in every situation of a game) and the optional
dependency."""

from __future__ import annotations

import functools
import importlib
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger
from test_rl_encoding import HUGE, LEGAL, Legal, any_value, as_code, assert_one_short_line

import ttr_core as ttr
from ttr_core import ActionCodeError, OptionError, SetupError, Simulator, view_of
from ttr_core.model.errors import MissingExtraError
from ttr_core.model.extras import install_command
from ttr_core.rl import ObservationEncoding, env, placing_rewards, raw_env
from ttr_core.rules.scoring import PlayerScore, Scoresheet
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
    """A scoresheet with these totals (all route points) and winners."""
    players = tuple(
        PlayerScore(
            name=f"p{seat}",
            total=total,
            route_points=total,
            ticket_points=0,
            tickets=(),
            tickets_completed=0,
            longest_path=0,
            bonuses={},
        )
        for seat, total in enumerate(totals)
    )
    return Scoresheet(edition="usa", players=players, winners=winners)


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
    with pytest.raises(SetupError, match="not <int of 5001 digits>"):
        raw_env("usa", players=HUGE)
    with pytest.raises(SetupError, match="render mode array"):
        raw_env("usa", render_mode=np.array(["human", "ansi"]))  # type: ignore[arg-type]
    for edition in (None, 7, b"usa", ["usa"]):
        with pytest.raises(ttr.UnknownEditionError, match="an edition is an id or a Ruleset"):
            raw_env(edition)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"options are a mapping .*, not \[\('tie_break'"):
        raw_env("usa", options=[("tie_break", "rules")])  # type: ignore[arg-type]


@pytest.mark.parametrize("wrapped", [False, True])
def test_an_unknown_agent_is_a_setup_error(wrapped: bool) -> None:
    """Observing, viewing or asking the spaces of an agent not in ``possible_agents``."""
    e = arrived(wrapped, "opening")
    calls = [e.observe, e.unwrapped.view, e.action_space, e.observation_space]
    for call in calls:
        for agent in ("player_2", "nobody", 0, ["player_0"], None):
            with pytest.raises(SetupError, match="the agents are player_0 to player_1"):
                call(agent)


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


# -- refusals of any value, in every situation ---------------------------------------------

SITUATIONS = ("opening", "mid-game", "over", "stepping out", "all out")
"""Where a game can be when a step comes: an agent to act at the opening ticket choice or
in a turn; the game over with every agent, or some, still to step out with None; and
every agent gone."""

USA_CODES = 1080


def arrive(environment: Any, situation: str) -> Any:
    """``environment`` dealt with seed 7 and played by masked random codes to
    ``situation``; returned for chaining."""
    environment.reset(seed=7)
    chooser = np.random.default_rng(7)
    moves = {"opening": 0, "mid-game": 30}.get(situation)
    while environment.agents and moves != 0:
        obs, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            left = len(environment.agents) < len(environment.possible_agents)
            if situation == "over" or (situation == "stepping out" and left):
                break
            environment.step(None)
        else:
            environment.step(int(chooser.choice(np.flatnonzero(obs["action_mask"]))))
            moves = None if moves is None else moves - 1
    return environment


def make(wrapped: bool) -> Any:
    return env(ruleset("usa"), players=2) if wrapped else raw_env(ruleset("usa"), players=2)


@functools.cache
def arrived(wrapped: bool, situation: str) -> Any:
    """A shared environment in ``situation``: the tests only step it with values it refuses
    or ignores, which change nothing (and check that they do not)."""
    return arrive(make(wrapped), situation)


def table(environment: Any) -> tuple[object, ...]:
    """Everything a step could change: the position, the agents and their bookkeeping,
    and every agent's observation and mask as the environment gives them."""
    raw = environment.unwrapped
    seen = []
    for agent in raw.possible_agents:
        obs = environment.observe(agent)
        seen.append((obs["observation"].tobytes(), obs["action_mask"].tobytes()))
    return (
        raw.simulator.snapshot(),
        raw.agent_selection,
        list(environment.agents),
        dict(environment.rewards),
        dict(raw._cumulative_rewards),
        dict(environment.terminations),
        dict(environment.truncations),
        repr(environment.infos),
        seen,
    )


def plays(environment: Any, value: object, wrapped: bool) -> bool:
    """Whether ``environment`` plays ``value`` rather than refusing it: ``None`` for an
    agent whose game is over; for the agent to act, a legal code (the wrapped
    environment plays any code, ending the game on one its mask rules out)."""
    raw = environment.unwrapped
    agent = raw.agent_selection
    if not raw.agents:
        return False
    if raw.terminations[agent] or raw.truncations[agent]:
        return value is None
    code = as_code(value)
    if code is None or not 0 <= code < raw.actions.size:
        return False
    return wrapped or bool(raw.observe(agent)["action_mask"][code])


def expected(environment: Any, legal: Legal) -> object:
    """What ``environment`` expects: a legal code of the agent to act, else ``None``."""
    raw = environment.unwrapped
    agent = raw.agent_selection
    if not raw.agents or raw.terminations[agent] or raw.truncations[agent]:
        return None
    return legal.code(np.flatnonzero(raw.observe(agent)["action_mask"]).tolist())


def check_step(value: object, situation: str, wrapped: bool) -> None:
    """Step the shared environment in ``situation`` with ``value``: it is played (on a
    fresh environment, brought to the same situation), ignored after the end by the
    wrapped environment as PettingZoo's order-enforcing wrapper does, or refused with
    ``ActionCodeError`` in one short line; refused or ignored, nothing changes."""
    environment = arrived(wrapped, situation)
    if isinstance(value, Legal):
        value = expected(environment, value)
    before = table(environment)
    if plays(environment, value, wrapped):
        event("played")
        fresh = arrive(make(wrapped), situation)
        fresh.step(value)
        assert table(fresh) != before
    elif wrapped and not environment.agents:
        event("ignored after the end")
        EnvLogger.flush()
        environment.step(value)
        assert EnvLogger.mqueue and "step() called after all agents" in EnvLogger.mqueue[-1]
    else:
        event("refused")
        with pytest.raises(ActionCodeError) as info:
            environment.step(value)
        assert_one_short_line(info.value)
    assert table(environment) == before


@given(value=st.one_of(any_value(USA_CODES), LEGAL), situation=st.sampled_from(SITUATIONS))
def test_raw_step_lets_nothing_but_action_code_error_escape(value: object, situation: str) -> None:
    """``raw_env.step`` plays a legal code or a dead agent's ``None`` and refuses every
    other value of any type or size with ``ActionCodeError``, changing nothing."""
    check_step(value, situation, wrapped=False)


@given(value=st.one_of(any_value(USA_CODES), LEGAL), situation=st.sampled_from(SITUATIONS))
def test_wrapped_step_lets_nothing_but_action_code_error_escape(
    value: object, situation: str
) -> None:
    """The wrapped ``step`` plays any code of the space or a dead agent's ``None``,
    refuses every other value with ``ActionCodeError`` before PettingZoo's wrappers read
    it, and ignores every value once all agents are gone; refused or ignored, nothing
    changes."""
    check_step(value, situation, wrapped=True)


def test_raw_step_after_everyone_left_is_an_action_code_error() -> None:
    """PettingZoo's classic raw environments fail on a ``KeyError`` here; ours refuses
    with ``ActionCodeError``, changes nothing, and plays again after ``reset``."""
    e = arrive(make(wrapped=False), "all out")
    assert e.agents == [] and e.terminations == {}
    before = table(e)
    for value in (None, 0, HUGE):
        with pytest.raises(ActionCodeError, match=r"every agent .* call reset\(\)"):
            e.step(value)
    assert table(e) == before
    e.reset(seed=8)
    assert e.agents == e.possible_agents
    with pytest.raises(SetupError, match=r"no game yet: call reset\(\) first"):
        make(wrapped=False).step(0)


def test_wrapped_step_after_everyone_left_is_ignored_with_pettingzoos_warning() -> None:
    """As in PettingZoo's classic games, the order-enforcing wrapper logs its warning and
    does nothing, whatever the value."""
    e = arrive(make(wrapped=True), "all out")
    before = table(e)
    for value in (None, 0, True, HUGE, "x"):
        EnvLogger.flush()
        e.step(value)
        # One entry or two: PettingZoo queues the message, and its handler too if logging
        # has no other.
        assert set(EnvLogger.mqueue) == {
            "[WARNING]: step() called after all agents are terminated or truncated. "
            "Should reset() first."
        }
    assert table(e) == before


@pytest.mark.parametrize("wrapped", [False, True])
def test_a_finished_agent_steps_with_none_only_or_action_code_error(wrapped: bool) -> None:
    """Once the game is over, a code for an agent still to step out is refused (PettingZoo
    would raise a plain ``ValueError``), also after an illegal code ended the game."""
    e = arrive(make(wrapped), "over")
    before = table(e)
    for value in (0, np.int64(0), False, HUGE):
        with pytest.raises(ActionCodeError, match=f"the game of {e.agent_selection} is over"):
            e.step(value)
    assert table(e) == before
    if wrapped:
        e.reset(seed=1)
        mask = e.last()[0]["action_mask"]
        e.step(int(np.flatnonzero(mask == 0)[0]))  # ends the game: every agent is done
        with pytest.raises(ActionCodeError, match="step it with None, not 3"):
            e.step(3)
        e.step(None)
        assert len(e.agents) == 1


NOT_CODES: list[tuple[object, str]] = [
    (True, "not True"),
    (False, "not False"),
    (1.0, "not 1.0"),
    (np.float64(2.0), "not np.float64(2.0)"),
    (np.bool_(True), "not np.True_"),
    (np.array(3), "not array(3)"),
    (np.array([1, 2]), "not array([1, 2])"),
    ("3", "not '3'"),
    (b"3", "not b'3'"),
    ([3], "not [3]"),
    ((3,), "not (3,)"),
    (None, "None is the step of an agent whose game is over"),
    (HUGE, "action code <int of 5001 digits> is out of range"),
    (-HUGE, "action code <negative int of 5001 digits> is out of range"),
    (-1, "action code -1 is out of range"),
    (USA_CODES, f"action code {USA_CODES} is out of range"),
    (np.uint64(2**64 - 1), f"action code {2**64 - 1} is out of range"),
]


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize(
    ("value", "message"),
    NOT_CODES,
    ids=[f"{type(value).__name__}-{n}" for n, (value, _) in enumerate(NOT_CODES)],
)
def test_step_refuses_what_is_no_code_with_action_code_error(
    wrapped: bool, value: object, message: str
) -> None:
    """A bool, a float, an array, a string, bytes, a list, ``None`` for the agent to act or
    an integer out of range: ``ActionCodeError``, and nothing changes. The wrapped
    environment refuses it before ``TerminateIllegalWrapper`` indexes the mask with it."""
    e = arrived(wrapped, "mid-game")
    before = table(e)
    with pytest.raises(ActionCodeError, match=re.escape(message)):
        e.step(value)
    assert table(e) == before


@pytest.mark.parametrize("wrapped", [False, True])
def test_numpy_integer_codes_play_whole_games(wrapped: bool) -> None:
    """RL libraries hand over NumPy integers: every kind plays like the ``int``."""
    e = make(wrapped)
    e.reset(seed=4)
    kinds = [np.int64, np.int32, np.uint16, np.intp]
    chooser = np.random.default_rng(4)
    for n, agent in enumerate(e.agent_iter()):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(kinds[n % len(kinds)](chooser.choice(np.flatnonzero(obs["action_mask"]))))
        assert agent in e.possible_agents
    assert not e.agents
    assert e.unwrapped.simulator.is_over
    assert all(reward != -1.0 for reward in e.rewards.values())


# -- the optional dependency ---------------------------------------------------------------


def test_rl_without_its_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(sys.modules):
        if name == "ttr_core.rl" or name.startswith("ttr_core.rl."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(MissingExtraError, match=re.escape(install_command("rl"))) as info:
        importlib.import_module("ttr_core.rl")
    assert isinstance(info.value, ImportError)
    assert "pettingzoo cannot be imported" in str(info.value)


def test_the_core_does_not_import_rl() -> None:
    code = (
        "import sys, ttr_core, ttr_core.cli, ttr_core.bots, ttr_core.batch.runs;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pettingzoo', 'gymnasium')"
        " or m.startswith('ttr_core.rl')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
