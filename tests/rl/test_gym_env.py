"""The single-agent Gymnasium environment: registration, Gymnasium's checker, masks,
observations, rewards, opponents, seeding, vector environments and SuperSuit."""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import ttr_core as ttr
from ttr_core import ActionCodeError, BotError, SetupError, view_of
from ttr_core.bots import GreedyBot, RandomBot
from ttr_core.model.state import Phase
from ttr_core.rl import ENV_ID, ObservationEncoding, TicketToRideEnv, env, placing_rewards
from ttr_core.rl.env import ILLEGAL_REWARD
from ttr_core.rl.gym_env import MARGIN_SCALE

EDITIONS = sorted(ttr.installed_editions())
GAMES = [
    (edition, players)
    for edition, installed in sorted(ttr.installed_editions().items())
    for players in range(installed.players[0], installed.players[1] + 1)
]


def claims_first(environment: TicketToRideEnv, chooser: np.random.Generator, mask: Any) -> int:
    """A legal code, a claim (of a route, with groups or a station) when there is one, so
    that games reach tunnels and card choices."""
    legal = np.flatnonzero(mask)
    claiming = [
        code
        for code in legal
        if environment.actions.section_of(code).name
        in ("claim_route", "claim_with_groups", "pay_tunnel", "choose_card")
    ]
    return int(chooser.choice(claiming if claiming else legal))


def episode(
    environment: Any, seed: int, policy: str = "random"
) -> Iterator[tuple[Any, float, bool, dict[str, Any]]]:
    """Play one episode with a masked policy; yield (observation, reward, over, info) after
    the reset and each step."""
    obs, info = environment.reset(seed=seed)
    raw = environment.unwrapped
    chooser = np.random.default_rng(seed)
    yield obs, 0.0, False, info
    over = False
    while not over:
        if policy == "claims":
            code = claims_first(raw, chooser, info["action_mask"])
        else:
            code = int(chooser.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, over, truncated, info = environment.step(code)
        assert not truncated
        yield obs, float(reward), over, info


# -- registration and Gymnasium's checker ------------------------------------------------


def test_make_builds_the_registered_environment_with_its_options() -> None:
    """gymnasium.make("ttr/TicketToRide-v0", ...) passes its keywords to the environment."""
    made = gymnasium.make(ENV_ID, edition="europe", players=3, opponents="greedy")
    raw = made.unwrapped
    assert isinstance(raw, TicketToRideEnv)
    assert raw.ruleset.id == "europe"
    assert raw.players == 3
    obs, info = made.reset(seed=5)
    assert obs["observation"].shape == (ObservationEncoding(raw.ruleset, 3).size,)
    assert info["action_mask"].any()
    made.close()


@pytest.mark.slow
@pytest.mark.parametrize("observation", ["dict", "flat"])
@pytest.mark.parametrize("edition", EDITIONS)
def test_gymnasium_env_checker_passes(
    edition: str, observation: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Gymnasium's check_env finds nothing to warn about, in every edition, both layouts."""
    made = gymnasium.make(ENV_ID, edition=edition, players=3, observation=observation)
    check_env(made.unwrapped)


def test_the_flat_observation_is_the_vector_in_a_box() -> None:
    e = TicketToRideEnv("usa", 2, observation="flat")
    obs, info = e.reset(seed=3)
    assert isinstance(e.observation_space, gymnasium.spaces.Box)
    assert isinstance(obs, np.ndarray)
    assert obs.dtype == np.float32 and obs.shape == e.observation_space.shape
    assert e.observation_space.contains(obs)
    assert np.array_equal(info["action_mask"].astype(bool), e.action_masks())


# -- masks and observations ------------------------------------------------------------------


def masked_phases(e: TicketToRideEnv, seed: int) -> set[Phase]:
    """Play one episode, checking at every decision of the learner that the mask of the
    observation, of the info and of action_masks() is the ActionEncoding mask of the
    engine's legal actions; the phases of the decisions met."""
    phases: set[Phase] = set()
    for obs, _, over, info in episode(e, seed=seed, policy="claims"):
        sim = e.simulator
        mask = info["action_mask"]
        assert np.array_equal(obs["action_mask"], mask)
        assert e.action_masks().dtype == np.bool_
        assert np.array_equal(e.action_masks(), mask.astype(bool))
        if over:
            assert not mask.any()
            continue
        assert sim.current_player == e.seat
        view = view_of(e.ruleset, sim.snapshot(), e.seat)
        phases.add(view.phase)
        assert mask.tolist() == e.actions.mask(view, sim.legal_actions()).tolist()
    return phases


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "players"), GAMES)
def test_masks_are_the_engines_legal_actions_at_every_decision(edition: str, players: int) -> None:
    e = TicketToRideEnv(edition, players, opponents="greedy", seat="random")
    assert {Phase.OPENING_TICKETS, Phase.TURN} <= masked_phases(e, seed=100 + players)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("edition", "wanted"),
    [
        ("europe", {Phase.TUNNEL}),
        ("switzerland", {Phase.TUNNEL}),
        ("nordic", {Phase.TUNNEL, Phase.CHOOSE_CARDS}),
    ],
)
def test_masks_are_the_engines_legal_actions_at_tunnels_and_card_choices(
    edition: str, wanted: set[Phase]
) -> None:
    """Games of a claiming learner reach tunnel payments (and in Nordic Countries card
    choices of a ferry payment), and the masks there are the engine's legal actions."""
    e = TicketToRideEnv(edition, 2, opponents="greedy")
    met: set[Phase] = set()
    for seed in range(12):
        met |= masked_phases(e, seed)
        if wanted <= met:
            break
    assert wanted <= met


@pytest.mark.parametrize(("edition", "players"), [("usa", 3), ("europe", 2), ("nordic", 3)])
def test_observations_are_the_learners_view_only(edition: str, players: int) -> None:
    """Every observation is the encoding of the learner's view (no hidden card leaks),
    and the info holds nothing but the mask, the seed, the seat and the final results."""
    e = TicketToRideEnv(edition, players, opponents="random", seat=players - 1)
    enc = ObservationEncoding(e.ruleset, players)
    public = {"action_mask", "seed", "seat", "score", "scores", "winners"}
    for obs, _, _, info in episode(e, seed=7):
        view = view_of(e.ruleset, e.simulator.snapshot(), players - 1)
        assert np.array_equal(obs["observation"], enc.encode(view))
        assert set(info) <= public


def test_the_opponents_hidden_hand_does_not_change_the_observation() -> None:
    """The learner's observation of a position whose opponent holds other cards (the same
    number) is the same vector."""
    e = TicketToRideEnv("usa", 2)
    obs, _ = e.reset(seed=11)
    state = e.simulator.snapshot()
    other = state.players[1]
    swapped = other.hand[1:] + other.hand[:1]
    assert swapped != other.hand
    changed = attrs.evolve(state, players=(state.players[0], attrs.evolve(other, hand=swapped)))
    assert view_of(e.ruleset, changed, 1) != view_of(e.ruleset, state, 1)
    assert isinstance(obs, dict)
    assert np.array_equal(e.observations.encode(view_of(e.ruleset, changed, 0)), obs["observation"])


# -- rewards and the end ------------------------------------------------------------------------


def test_placing_reward_comes_at_the_end_only() -> None:
    e = TicketToRideEnv("usa", 3, opponents="greedy", seat=1)
    rewards = []
    last: dict[str, Any] = {}
    for _, reward, over, info in episode(e, seed=21):
        rewards.append(reward)
        last = info
        assert over == e.simulator.is_over
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    sheet = e.simulator.scores()
    assert rewards[-1] == placing_rewards(sheet)[1]
    assert last["score"] == sheet.players[1].total
    assert last["scores"] == [p.total for p in sheet.players]
    assert last["winners"] == list(sheet.winners)


def test_margin_rewards_add_up_to_the_placing_and_the_final_lead() -> None:
    """With reward="margin" the step rewards sum to the placing reward plus the final lead
    over the best other seat divided by MARGIN_SCALE, and a claim is rewarded at once."""
    e = TicketToRideEnv("usa", 2, reward="margin")
    rewards = [r for _, r, _, _ in episode(e, seed=22, policy="claims")]
    sheet = e.simulator.scores()
    totals = [p.total for p in sheet.players]
    lead = (totals[0] - totals[1]) / MARGIN_SCALE
    assert sum(rewards) == pytest.approx(placing_rewards(sheet)[0] + lead)
    assert any(r > 0 for r in rewards[:-1])


def test_an_illegal_code_ends_the_episode_with_the_illegal_reward() -> None:
    e = TicketToRideEnv("usa", 2)
    _, info = e.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, over, truncated, info = e.step(illegal)
    assert (reward, over, truncated, info["illegal_action"]) == (ILLEGAL_REWARD, True, False, True)
    assert isinstance(obs, dict)
    assert not obs["action_mask"].any() and not e.action_masks().any()
    with pytest.raises(ActionCodeError, match="call reset"):
        e.step(0)


@pytest.mark.parametrize("value", [True, 1.0, "3", None, np.array([1]), -1, 10**30])
def test_a_step_with_no_code_is_an_action_code_error_and_changes_nothing(value: object) -> None:
    e = TicketToRideEnv("usa", 2)
    e.reset(seed=2)
    before = e.simulator.snapshot()
    with pytest.raises(ActionCodeError):
        e.step(value)
    assert e.simulator.snapshot() == before


def test_a_step_before_reset_is_a_setup_error() -> None:
    with pytest.raises(SetupError, match="reset"):
        TicketToRideEnv("usa", 2).step(0)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"players": 6}, SetupError, "2 to 5"),
        ({"seat": 2}, SetupError, "seat"),
        ({"seat": "first"}, SetupError, "seat"),
        ({"observation": "image"}, SetupError, "observation"),
        ({"reward": "points"}, SetupError, "reward"),
        ({"render_mode": "rgb_array"}, SetupError, "render mode"),
        ({"opponents": "nobody"}, BotError, "unknown bot"),
        ({"opponents": ["greedy", "random"]}, SetupError, "1 other seats"),
        ({"opponents": 3}, BotError, "opponent"),
        ({"opponents": int}, BotError, "not a bot class"),
    ],
)
def test_bad_setups_are_refused_with_a_clear_error(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        TicketToRideEnv("usa", **{"players": 2, **kwargs})


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "players"), GAMES)
def test_every_edition_and_player_count_plays_to_the_end(edition: str, players: int) -> None:
    e = gymnasium.make(ENV_ID, edition=edition, players=players, observation="flat")
    steps = list(episode(e, seed=players))
    raw = e.unwrapped
    assert isinstance(raw, TicketToRideEnv)
    assert steps[-1][2] and raw.simulator.is_over
    assert len(steps) > 10


# -- opponents --------------------------------------------------------------------------------


def test_opponents_by_spec_list_class_instance_and_function() -> None:
    """Each other seat plays with what it is given: a spec, a class, a bot, a function."""
    calls: list[int] = []

    def first_legal(view: ttr.PlayerView, legal: Sequence[ttr.Action]) -> ttr.Action:
        calls.append(view.seat)
        return legal[0]

    rs = ttr.Ruleset.build("usa")
    bot = RandomBot(rs, 3, seed=9)
    e = TicketToRideEnv(rs, 5, opponents=["mcts:playouts=1", GreedyBot, bot, first_legal])
    for _, _, over, _ in episode(e, seed=3):
        if len(calls) > 3:
            break
        assert not over
    assert set(calls) == {4}


def test_opponents_see_only_their_seats_actions() -> None:
    """A policy opponent gets its own seat's view and a non-empty listing of its legal
    actions, equal to the engine's."""
    seen: list[tuple[int, int]] = []
    e: TicketToRideEnv

    def check(view: ttr.PlayerView, legal: Sequence[ttr.Action]) -> ttr.Action:
        sim = e.simulator
        assert view == view_of(sim.ruleset, sim.snapshot(), view.seat)
        assert list(legal) == list(sim.legal_actions())
        seen.append((view.seat, len(legal)))
        return legal[len(legal) // 2]

    e = TicketToRideEnv("europe", 3, opponents=check, seat=1)
    for _ in episode(e, seed=4):
        if len(seen) > 20:
            break
    assert {seat for seat, _ in seen} == {0, 2}


def test_a_random_seat_is_drawn_from_the_seed_and_opponents_play_around_it() -> None:
    e = TicketToRideEnv("usa", 4, seat="random", opponents="greedy")
    seats = set()
    for seed in range(40):
        _, info = e.reset(seed=seed)
        assert info["seat"] == e.seat == e.simulator.current_player
        seats.add(e.seat)
    assert seats == {0, 1, 2, 3}


# -- seeds ------------------------------------------------------------------------------------


def trajectory(environment: Any, seed: int, resets: int = 1) -> list[Any]:
    """Everything an episode returns, with a fixed policy (the median legal code); later
    resets without a seed."""
    out: list[Any] = []
    for n in range(resets):
        obs, info = environment.reset(seed=seed if n == 0 else None)
        out.append((obs, info))
        over = False
        while not over:
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, over, _, info = environment.step(int(legal[len(legal) // 2]))
            out.append((obs, reward, info))
    return out


def same(a: Any, b: Any) -> bool:
    """Deep equality of observations, rewards and infos (arrays compared by value)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return bool(a == b)


@pytest.mark.slow
def test_the_same_seed_gives_the_same_episodes_opponents_included() -> None:
    """Two environments reset with one seed, and stepped alike, return the same
    observations, rewards and infos, for the seeded game and the unseeded ones after it;
    another seed gives another game."""
    make = functools.partial(
        TicketToRideEnv, "europe", 3, opponents=["greedy", "mcts:playouts=2"], seat="random"
    )
    first = trajectory(make(), seed=8, resets=2)
    assert same(first, trajectory(make(), seed=8, resets=2))
    assert not same(first[:3], trajectory(make(), seed=9)[:3])


def test_a_seeded_reset_deals_the_game_simulator_new_deals() -> None:
    e = TicketToRideEnv("usa", 2)
    e.reset(seed=42)
    assert e.simulator.snapshot() == ttr.Simulator.new("usa", 2, seed=42).snapshot()


def test_reset_refuses_a_bad_seed() -> None:
    e = TicketToRideEnv("usa", 2)
    for bad in (-1, 1.5, "1", True):
        with pytest.raises(SetupError, match="seed"):
            e.reset(seed=bad)  # type: ignore[arg-type]


def test_each_reset_and_step_returns_a_fresh_info() -> None:
    e = TicketToRideEnv("usa", 2)
    _, info = e.reset(seed=1)
    infos = [info]
    for _ in range(3):
        infos.append(e.step(int(np.flatnonzero(infos[-1]["action_mask"])[0]))[4])
    assert len({id(i) for i in infos}) == len(infos)
    assert len({id(i["action_mask"]) for i in infos}) == len(infos)


# -- PettingZoo's infos -----------------------------------------------------------------------


def test_pettingzoo_infos_are_fresh_dictionaries_after_each_reset_and_step() -> None:
    """The info that last() gives after a step is a new dictionary, so a caller who keeps
    or changes one does not see or cause changes later (Gymnasium's checker flags shared
    ones)."""
    game = env("usa", players=2)
    game.reset(seed=1)
    infos = [game.last()[4]]
    infos[0]["mine"] = 1
    for _ in range(6):
        obs = game.last()[0]
        game.step(int(np.flatnonzero(obs["action_mask"])[0]))
        infos.append(game.last()[4])
    assert len({id(i) for i in infos}) == len(infos)
    assert all("mine" not in i for i in infos[1:])
    game.reset(seed=1)
    assert "mine" not in game.last()[4] and game.last()[4] is not infos[0]


# -- vector environments and SuperSuit ---------------------------------------------------------


def masked_vector_steps(vector: Any, steps: int) -> None:
    """Step a vector environment with the first legal code of each copy."""
    _, info = vector.reset(seed=5)
    for _ in range(steps):
        masks = info["action_mask"]
        assert masks.shape == (vector.num_envs, vector.single_action_space.n)
        actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks])
        _, rewards, _, truncated, info = vector.step(actions)
        assert rewards.shape == (vector.num_envs,) and not truncated.any()
    masks = vector.call("action_masks")
    assert len(masks) == vector.num_envs and all(m.dtype == np.bool_ for m in masks)
    vector.close()


def make_flat() -> gymnasium.Env[Any, Any]:
    return gymnasium.make(ENV_ID, edition="usa", players=2, observation="flat")


def test_sync_vector_env_steps() -> None:
    masked_vector_steps(gymnasium.vector.SyncVectorEnv([make_flat, make_flat]), 5)


@pytest.mark.slow
def test_async_vector_env_steps() -> None:
    masked_vector_steps(gymnasium.vector.AsyncVectorEnv([make_flat, make_flat]), 5)


@pytest.mark.slow
def test_make_vec_async() -> None:
    vector = gymnasium.make_vec(
        ENV_ID, num_envs=2, vectorization_mode="async", edition="switzerland", players=3
    )
    masked_vector_steps(vector, 5)


def test_supersuit_observation_wrappers_take_the_flat_observation() -> None:
    """SuperSuit's dtype_v0, normalize_obs_v0 and frame_stack_v1 wrap the flat layout."""
    ss = pytest.importorskip("supersuit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        wrapped = ss.frame_stack_v1(
            ss.normalize_obs_v0(ss.dtype_v0(make_flat(), np.float64), env_min=0.0, env_max=1.0), 3
        )
    size = wrapped.unwrapped.observations.size
    obs, info = wrapped.reset(seed=1)
    assert obs.shape == (3 * size,) and obs.dtype == np.float64
    assert obs.min() >= 0.0 and obs.max() <= 1.0
    for _ in range(4):
        obs, _, _, _, info = wrapped.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert obs.shape == (3 * size,)
    assert np.array_equal(wrapped.unwrapped.action_masks(), info["action_mask"].astype(bool))


# -- the training guide -------------------------------------------------------------------------


def test_the_guides_training_script_compiles_and_uses_the_guides_setting() -> None:
    """The torch script of the how-to (a ``py`` block, not run by the docs tests, which run
    the ``python`` blocks around it) is valid Python, trains on one thread with
    MaskablePPO on the page's ``make_env`` and measures with its ``win_share``."""
    page = (Path(__file__).parents[2] / "docs" / "how-to" / "train-an-agent.md").read_text()
    scripts = re.findall(r"^```py\n(.*?)^```", page, re.S | re.M)
    assert len(scripts) == 1
    script = scripts[0]
    compile(script, "train-an-agent.md (training script)", "exec")
    python = "".join(re.findall(r"^```python\n(.*?)^```", page, re.S | re.M))
    assert "def make_env(" in python and "def win_share(" in python
    for needed in (
        "torch.set_num_threads(1)",
        "MaskablePPO(",
        "make_env",
        "win_share(trained, 200",
    ):
        assert needed in script
