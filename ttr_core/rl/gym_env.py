"""A game of Ticket to Ride as a single-agent Gymnasium environment against bots.

One seat learns; the others are played by opponents (see [`ttr_core.rl.opponents`][]),
between the learner's decisions, so every step is one decision of the learner. Importing
``ttr_core.rl`` registers the environment as ``ttr/TicketToRide-v0``::

    env = gymnasium.make("ttr/TicketToRide-v0", edition="europe", players=3, opponents="greedy")

Observations, by the ``observation`` option:

- ``"dict"`` (the default): ``{"observation": vector, "action_mask": mask}``, as each agent
  of the PettingZoo environment observes, for policies that read the mask from the
  observation (sb3's ``MultiInputPolicy``);
- ``"flat"``: the vector alone, a ``float32`` ``Box``, for wrappers and policies that take
  one array (SuperSuit's observation wrappers, an MLP).

Either way the vector is what [`ObservationEncoding`][ttr_core.rl.ObservationEncoding]
makes of the learner's view, and the mask, 1 at each legal code of
[`ActionEncoding`][ttr_core.rl.ActionEncoding], is also in ``info["action_mask"]`` and
returned by [`action_masks`][ttr_core.rl.gym_env.TicketToRideEnv.action_masks] as sb3-contrib's
``MaskablePPO`` expects. An action is a code.

Rewards, by the ``reward`` option:

- ``"placing"`` (the default): 0 until the game ends, then the learner's
  [`placing_rewards`][ttr_core.rl.env.placing_rewards] (1 for a 2-player win, -1 for a loss);
- ``"margin"``: the placing reward at the end, plus at every step the change of the
  learner's lead, ``(own score - best other score) / MARGIN_SCALE``, counted on the
  public scores during the game and on the final totals at the end. The steps' shares
  add up to the final lead over ``MARGIN_SCALE``, so the shaping rewards claims at once
  and leaves the best play unchanged.

A code outside the mask ends the episode with [`ILLEGAL_REWARD`][ttr_core.rl.env.ILLEGAL_REWARD]
and ``info["illegal_action"]`` true, as the PettingZoo ``env`` does; the episode otherwise
ends (``terminated``) when the game does, never truncated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ttr_core.model import rng
from ttr_core.model.errors import ActionCodeError, SetupError, quote
from ttr_core.play.simulator import Simulator
from ttr_core.rl.encoding import ActionEncoding
from ttr_core.rl.env import ILLEGAL_REWARD, placing_rewards
from ttr_core.rl.observation import ObservationEncoding
from ttr_core.rl.opponents import Opponent, Opponents
from ttr_core.rl.setup import RENDER_MODES, check_render_mode, game_ruleset, table_text
from ttr_core.rules.views import PlayerView, view_of
from ttr_core.ruleset.ruleset import Ruleset

ENV_ID = "ttr/TicketToRide-v0"
"""The id the environment is registered under when ``ttr_core.rl`` is imported."""

OBSERVATIONS = ("dict", "flat")
"""The values of the ``observation`` option (see the module)."""

REWARDS = ("placing", "margin")
"""The values of the ``reward`` option (see the module)."""

MARGIN_SCALE = 100.0
"""The points a lead is divided by in the ``"margin"`` reward."""

Observation = dict[str, npt.NDArray[Any]] | npt.NDArray[np.float32]
"""An observation: a dictionary of the vector and the mask, or the vector alone."""


class TicketToRideEnv(gymnasium.Env[Any, np.int64]):
    """One seat of a game of an edition learning against opponents; see the module.

    :param edition: an edition id, or a [`Ruleset`][ttr_core.ruleset.ruleset.Ruleset].
    :param players: the number of seats.
    :param options: the edition's options (with an edition id only).
    :param opponents: one opponent for every other seat, or a sequence of one per other
        seat in seat order (see [`ttr_core.rl.opponents`][]); by default the random bot.
    :param seat: the learner's seat, or ``"random"`` for a seat drawn at each reset from
        the game's seed. Seat 0 always starts.
    :param observation: ``"dict"`` or ``"flat"``.
    :param reward: ``"placing"`` or ``"margin"``.
    :param render_mode: ``None``, ``"ansi"`` (render returns the public table as text) or
        ``"human"`` (it prints it after every reset and step).
    :raises UnknownEditionError: no such edition, or ``edition`` is no id or ruleset.
    :raises OptionError: a bad ``options``.
    :raises SetupError: a bad player count, seat, observation, reward or render mode, or a
        sequence of opponents of the wrong length.
    :raises BotError: an unknown bot spec, or an opponent that is none.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        edition: str | Ruleset = "usa",
        players: int = 2,
        *,
        options: Mapping[str, Any] | None = None,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int | str = 0,
        observation: str = "dict",
        reward: str = "placing",
        render_mode: str | None = None,
    ) -> None:
        rs = game_ruleset(edition, players, options)
        self.render_mode = check_render_mode(render_mode)
        if seat != "random" and (type(seat) is not int or not 0 <= seat < players):
            raise SetupError(
                f"the learner's seat is 0 to {players - 1} or 'random', not {quote(seat)}"
            )
        if observation not in OBSERVATIONS:
            raise SetupError(
                f"observation {quote(observation)} is not one of {', '.join(OBSERVATIONS)}"
            )
        if reward not in REWARDS:
            raise SetupError(f"reward {quote(reward)} is not one of {', '.join(REWARDS)}")
        self.ruleset = rs
        """The ruleset the games are played by."""
        self.players = players
        self.actions = ActionEncoding(rs)
        """The action encoding: codes to actions and back."""
        self.observations = ObservationEncoding(rs, players)
        """The observation encoding: views to vectors."""
        self._seat_option = seat
        self._flat = observation == "flat"
        self._margin_reward = reward == "margin"
        self._opponents = Opponents(opponents, rs, players)
        self.action_space = spaces.Discrete(self.actions.size)
        mask_space = spaces.Box(0, 1, shape=(self.actions.size,), dtype=np.int8)
        if self._flat:
            self.observation_space = self.observations.space
        else:
            self.observation_space = spaces.Dict(
                {"observation": self.observations.space, "action_mask": mask_space}
            )
        self.seat = 0 if seat == "random" else int(seat)
        """The learner's seat in the game in progress."""
        self._sim: Simulator | None = None
        self._index: dict[int, int] = {}
        self._mask = np.zeros(self.actions.size, dtype=np.int8)
        self._lead = 0.0
        self._over = True

    @property
    def simulator(self) -> Simulator:
        """The simulator of the game in progress: the whole position, hidden cards
        included (for inspecting, never for the learner's observation).

        :raises SetupError: no game yet (call ``reset`` first).
        """
        if self._sim is None:
            raise SetupError("no game yet: call reset() first")
        return self._sim

    def view(self) -> PlayerView:
        """What the learner may see of the game in progress.

        :raises SetupError: no game yet.
        """
        return view_of(self.ruleset, self.simulator.snapshot(), self.seat)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and play the opponents up to the learner's first decision.

        With ``seed``, the game is the one ``Simulator.new`` deals with that seed, and the
        bots and the random seat follow from it, so the same seed and the same actions
        give the same episode. Without one, the game's seed is drawn from the
        environment's generator (``np_random``), itself seeded by the last seed given.
        ``options`` is accepted for Gymnasium's interface and unused.

        :raises SetupError: ``seed`` is not a non-negative integer.
        :raises IllegalActionError: an opponent chose an action that is not legal; what
            an opponent raises passes through.
        """
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0
        ):
            raise SetupError(f"a seed is a non-negative integer, not {quote(seed)}")
        super().reset(seed=None if seed is None else int(seed))
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63))
        if self._seat_option == "random":
            self.seat, _ = rng.below(rng.seed_state(rng.derive_seed(game_seed, 0)), self.players)
        self._sim = Simulator.new(self.ruleset, self.players, seed=game_seed, record=False)
        self._opponents.start(self.seat, game_seed)
        self._over = False
        self._lead = 0.0
        self._play_opponents()
        observation, info = self._observe()
        info["seed"] = game_seed
        info["seat"] = self.seat
        if self.render_mode == "human":
            self.render()
        return observation, info

    def step(self, action: object) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's code ``action``, then the opponents up to its next decision
        or the end of the game.

        :raises ActionCodeError: ``action`` is not an integer code of the action space
            (a Python or NumPy integer), or the episode is over (call ``reset``). Nothing
            changes.
        :raises SetupError: no game yet (call ``reset`` first).
        :raises IllegalActionError: an opponent chose an action that is not legal; what
            an opponent raises passes through.
        """
        sim = self.simulator
        if self._over:
            raise ActionCodeError("the episode is over: call reset() for a new game")
        code = self.actions.check(action)
        k = self._index.get(code)
        if k is None:
            self._over = True
            observation, info = self._observe()
            info["illegal_action"] = True
            return observation, ILLEGAL_REWARD, True, False, info
        sim.apply_index(k)
        self._play_opponents()
        reward = 0.0
        over = sim.is_over
        if self._margin_reward:
            lead = self._current_lead()
            reward += lead - self._lead
            self._lead = lead
        observation, info = self._observe()
        if over:
            self._over = True
            sheet = sim.scores()
            reward += placing_rewards(sheet)[self.seat]
            info["score"] = sheet.players[self.seat].total
            info["scores"] = [p.total for p in sheet.players]
            info["winners"] = list(sheet.winners)
        if self.render_mode == "human":
            self.render()
        return observation, reward, over, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal codes of the learner's decision as booleans, all false once the
        episode is over: what sb3-contrib's ``MaskablePPO`` asks for."""
        return self._mask.astype(bool)

    def _play_opponents(self) -> None:
        """Let the opponents act until the learner is to act or the game is over."""
        sim = self.simulator
        while not sim.is_over and sim.current_player != self.seat:
            self._opponents.play(sim)

    def _current_lead(self) -> float:
        """The learner's lead over the best other seat, in points over ``MARGIN_SCALE``:
        public scores during the game, final totals at the end."""
        sim = self.simulator
        if sim.is_over:
            scores = [p.total for p in sim.scores().players]
        else:
            scores = [p.score for p in sim.snapshot().players]
        own = scores[self.seat]
        best = max(s for i, s in enumerate(scores) if i != self.seat)
        return (own - best) / MARGIN_SCALE

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        """The learner's observation and a fresh info holding its mask, listing the
        legal codes of its decision once."""
        sim = self.simulator
        view = view_of(self.ruleset, sim.snapshot(), self.seat)
        mask = np.zeros(self.actions.size, dtype=np.int8)
        self._index = {}
        if not self._over and not sim.is_over and sim.current_player == self.seat:
            encode = self.actions.encode
            self._index = {encode(sim.legal_action(k), view): k for k in range(sim.legal_count())}
            mask[list(self._index)] = 1
        self._mask = mask
        vector = self.observations.encode(view)
        info: dict[str, Any] = {"action_mask": mask.copy()}
        if self._flat:
            return vector, info
        return {"observation": vector, "action_mask": mask.copy()}, info

    def render(self) -> str | None:
        """The public part of the table as text: returned in ``"ansi"`` mode, printed in
        ``"human"`` mode, nothing without a render mode. Hands, tickets and the decks'
        order are never shown."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode; nothing shown")
            return None
        text = table_text(self.simulator)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None
