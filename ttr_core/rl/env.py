"""A game of Ticket to Ride as a PettingZoo AEC environment.

The agents ``player_0``, ``player_1``... are the seats; seat 0 starts. The game is dealt by
[`raw_env.reset`][ttr_core.rl.env.raw_env.reset] from its seed and played on a
[`Simulator`][ttr_core.play.simulator.Simulator]. Each agent observes a dictionary:
``"observation"``, the vector `ObservationEncoding` makes of that agent's view, and
``"action_mask"``, an ``int8`` vector over the codes of `ActionEncoding`, 1 at the legal
ones (all 0 for an agent that is not to act). Actions are codes. Rewards come at the end
only: see [`placing_rewards`][].

Once the game is over, each agent is stepped with ``None`` and leaves ``agents``, as in
PettingZoo's classic games. After the last one, [`env`][] ignores a step with
PettingZoo's warning, as their order-enforcing wrapper does, and [`raw_env`][]
refuses it with [`ActionCodeError`][ttr_core.model.errors.ActionCodeError] (where theirs fail on a
``KeyError``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any, ClassVar, SupportsIndex

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers import BaseWrapper

from ttr_core.model import rng
from ttr_core.model.errors import ActionCodeError, SetupError, quote
from ttr_core.play.simulator import Simulator
from ttr_core.rl.encoding import ActionEncoding
from ttr_core.rl.observation import ObservationEncoding
from ttr_core.rl.setup import RENDER_MODES, check_render_mode, game_ruleset, table_text
from ttr_core.rules.scoring import Scoresheet
from ttr_core.rules.views import PlayerView, view_of
from ttr_core.ruleset.ruleset import Ruleset

ILLEGAL_REWARD = -1.0
"""What [`env`][] gives an agent that plays a code its mask rules out (the game ends)."""


def placing_rewards(sheet: Scoresheet) -> list[float]:
    """The final reward of each seat: zero-sum, from the placings, between -1 and 1.

    Each seat gains 1 for every other seat it places above and loses 1 for every seat
    placed above it, divided by the number of other seats. The winners (after the
    edition's tie-breakers) place above everyone else, and the others by total score;
    equal places count for nothing. Two players: 1 for a win, -1 for a loss, 0 for a
    shared win.
    """
    winners = set(sheet.winners)
    places = [(seat in winners, p.total) for seat, p in enumerate(sheet.players)]
    others = len(places) - 1
    return [sum((mine > theirs) - (mine < theirs) for theirs in places) / others for mine in places]


def env(
    edition: str | Ruleset = "usa",
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
) -> Any:
    """The environment wrapped as PettingZoo's classic games are, with a check of actions.

    A step takes an integer code (a Python or NumPy integer) from 0 to ``size - 1`` for the agent to
    act, ``None`` for an agent whose game is over. Anything else (a bool, a float, an array, a
    string, ``None`` for the agent to act, a code out of range however large) raises
    [`ActionCodeError`][ttr_core.model.errors.ActionCodeError] and changes nothing, checked before
    PettingZoo's wrappers read it. A code the mask rules out ends the game with [`ILLEGAL_REWARD`][]
    for the agent that played it and 0 for the others. The calls must come in order: a step, an
    observation or a render before ``reset`` fails PettingZoo's assertion, and a step once every
    agent has left after the end does nothing but log PettingZoo's warning.

    :raises UnknownEditionError: as [`raw_env`][].
    :raises OptionError: as [`raw_env`][].
    :raises SetupError: as [`raw_env`][].
    """
    wrapped: Any = raw_env(edition, players, options, render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    # Inside the order-enforcing wrapper, which reads no action and must stay outermost
    # for its agent_iter checks; outside those that read it.
    wrapped = _ActionCheckWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class _ActionCheckWrapper(BaseWrapper):  # type: ignore[misc]  # PettingZoo ships no types
    """Refuses, as [`raw_env`][] does, what is neither a code of the action space nor
    a finished agent's ``None``, and hands the wrappers inside a plain ``int``:
    ``TerminateIllegalWrapper`` indexes the mask with the action, and
    ``AssertOutOfBoundsWrapper`` cannot convert a huge integer."""

    def step(self, action: object) -> None:
        """Check ``action`` (see [`env`][]), then step the wrapped environment with it."""
        super().step(self.unwrapped._checked(action))

    def __str__(self) -> str:
        return str(self.env)


class _Listing:
    """The legal codes of one decision: the mask, and each code's index in the listing."""

    def __init__(self, mask: npt.NDArray[np.int8], index: dict[int, int]) -> None:
        self.mask = mask
        self.index = index


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A game of an edition (an id, or a [`Ruleset`][ttr_core.ruleset.ruleset.Ruleset]) as an
    unwrapped PettingZoo AEC environment; see the module and [`env`][].

    :raises UnknownEditionError: no such edition is installed, or ``edition`` is neither
        a string nor a ruleset.
    :raises OptionError: ``options`` is not a mapping, or an option is unknown or has a
        value the edition does not offer.
    :raises SetupError: a player count the edition does not allow, options given with a
        ruleset, or an unknown render mode.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "ttr_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        edition: str | Ruleset = "usa",
        players: int = 4,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        rs = game_ruleset(edition, players, options)
        render_mode = check_render_mode(render_mode)
        self.render_mode = render_mode
        self.ruleset = rs
        """The ruleset the games are played by."""
        self.actions = ActionEncoding(rs)
        """The action encoding: codes to actions and back."""
        self.observations = ObservationEncoding(rs, players)
        """The observation encoding: views to vectors."""
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        mask_space = spaces.Box(0, 1, shape=(self.actions.size,), dtype=np.int8)
        self.action_spaces = {a: spaces.Discrete(self.actions.size) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({"observation": self.observations.space, "action_mask": mask_space})
            for a in self.possible_agents
        }
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._base_seed: int | None = None
        self._games = 0
        self._sim: Simulator | None = None
        self._listing: _Listing | None = None
        self._listed_at = -1
        self._moves = 0

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent).

        :raises SetupError: ``agent`` is not one of ``possible_agents``.
        """
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(size)`` of the action encoding.

        :raises SetupError: ``agent`` is not one of ``possible_agents``.
        """
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent: object) -> str:
        """``agent``, checked to be one of ``possible_agents``."""
        if type(agent) is not str or agent not in self._seat:
            last = self.possible_agents[-1]
            raise SetupError(f"no agent {quote(agent)}: the agents are player_0 to {last}")
        return agent

    # -- playing -----------------------------------------------------------------------

    @property
    def simulator(self) -> Simulator:
        """The simulator of the game in progress: the whole position, hidden cards
        included (for inspecting or searching, never for an agent's observation).

        :raises SetupError: no game has been dealt yet (call ``reset`` first).
        """
        if self._sim is None:
            raise SetupError("no game yet: call reset() first")
        return self._sim

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new game.

        With ``seed``, the game is the one ``Simulator.new`` deals with that seed, and
        the resets after it without a seed deal games derived from it, so a run is
        reproducible. Without any seed, the first game's seed is drawn from the
        operating system. ``options`` is accepted for PettingZoo's interface and unused.

        :raises SetupError: ``seed`` is not an integer.
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
                raise SetupError(f"a seed is an integer, not {quote(seed)}")
            self._base_seed = int(seed)
            self._games = 0
        elif self._base_seed is None:
            self._base_seed = secrets.randbits(63)
        base = self._base_seed
        game_seed = base if self._games == 0 else rng.derive_seed(base, self._games)
        self._games += 1
        self._sim = Simulator.new(
            self.ruleset, len(self.possible_agents), seed=game_seed, record=False
        )
        self._listing = None
        self._moves = 0
        self._listed_at = -1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._sim.current_player]
        if self.render_mode == "human":
            self.render()

    def view(self, agent: str) -> PlayerView:
        """What ``agent`` may see of the game in progress.

        :raises SetupError: no game yet, or ``agent`` is not one of ``possible_agents``.
        """
        return view_of(self.ruleset, self.simulator.snapshot(), self._seat[self._agent(agent)])

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation: its view as a vector, and its action mask.

        :raises SetupError: no game yet, or ``agent`` is not one of ``possible_agents``.
        """
        sim = self.simulator
        seat = self._seat[self._agent(agent)]
        view = view_of(self.ruleset, sim.snapshot(), seat)
        if seat == sim.current_player and not sim.is_over:
            mask = self._legal(view).mask.copy()
        else:
            mask = np.zeros(self.actions.size, dtype=np.int8)
        return {"observation": self.observations.encode(view), "action_mask": mask}

    def _legal(self, view: PlayerView | None = None) -> _Listing:
        """The legal codes of the seat to act, listed once per decision (``view`` is its
        view, if already made)."""
        if self._listing is None or self._listed_at != self._moves:
            sim = self.simulator
            if view is None:
                view = view_of(self.ruleset, sim.snapshot(), sim.current_player)
            encode = self.actions.encode
            index = {encode(sim.legal_action(k), view): k for k in range(sim.legal_count())}
            if len(index) != sim.legal_count():
                raise AssertionError("two legal actions share an action code")
            mask = np.zeros(self.actions.size, dtype=np.int8)
            mask[list(index)] = 1
            self._listing = _Listing(mask, index)
            self._listed_at = self._moves
        return self._listing

    def step(self, action: SupportsIndex | None) -> None:
        """Play the code ``action`` for the agent to act, or step with ``None`` an agent
        whose game is over, which leaves ``agents`` (as PettingZoo asks).

        :raises ActionCodeError: ``action`` is not one of the legal codes of the agent to
            act (not an integer, out of range, or ruled out by its mask), is not ``None``
            for an agent whose game is over, or comes when every agent has left after the
            end (``agents`` is empty: call ``reset``). Nothing changes.
        :raises SetupError: no game yet (call ``reset`` first).
        """
        code = self._checked(action)
        agent = self.agent_selection
        if code is None:
            self._was_dead_step(None)
            return
        sim = self.simulator
        k = self._legal().index.get(code)
        if k is None:
            raise ActionCodeError(
                f"action code {code} is not legal for {agent} now: the action mask of its "
                "observation shows the legal codes"
            )
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        sim.apply_index(k)
        self._moves += 1
        if sim.is_over:
            sheet = sim.scores()
            for seat_, reward in enumerate(placing_rewards(sheet)):
                self.rewards[self.possible_agents[seat_]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {
                a: {"score": sheet.players[self._seat[a]].total, "winners": list(sheet.winners)}
                for a in self.agents
            }
        else:
            # New dictionaries at every step: a caller's info is never changed later.
            self.infos = {a: {} for a in self.agents}
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[sim.current_player]
        if self.render_mode == "human":
            self.render()

    def _checked(self, action: object) -> int | None:
        """What a step plays for ``action``: a code for the agent to act, ``None`` for an
        agent whose game is over; refused as [`step`][] says, before anything changes
        (legality by the mask apart, which [`env`][] leaves to its wrappers)."""
        if self._sim is None:
            raise SetupError("no game yet: call reset() first")
        if not self.agents:
            raise ActionCodeError(
                "the game is over and every agent has been stepped with None (agents is "
                "empty): call reset() for a new game"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ActionCodeError(
                    f"the game of {agent} is over: step it with None, not {quote(action)}"
                )
            return None
        if action is None:
            raise ActionCodeError(
                f"{agent} is to act: None is the step of an agent whose game is over"
            )
        return self.actions.check(action)

    # -- showing -----------------------------------------------------------------------

    def render(self) -> str | None:
        """The public part of the table as text: returned in ``"ansi"`` mode, printed in
        ``"human"`` mode. Hands, tickets and the decks' order are never shown."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode; nothing shown")
            return None
        text = self.table_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def table_text(self) -> str:
        """What everyone can see of the game in progress, as a few lines of text."""
        return table_text(self.simulator)

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""
