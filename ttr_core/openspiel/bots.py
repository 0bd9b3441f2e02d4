"""Bots for the OpenSpiel game: ttr's own bots as OpenSpiel bots, and a playout evaluator.

[`EngineBot`][] plays a seat with one of ttr's bots (``"random"``, ``"greedy"``...), given
only the seat's view and legal actions. [`PlayoutEvaluator`][] values a state for
OpenSpiel's search algorithms (``mcts.MCTSBot``, ``ismcts.ISMCTSBot``) by playing it out
with ttr's fast greedy playouts (`ttr_core.bots.rollout`). [`play_game`][] plays one game
between bots and returns its returns.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from attrs import evolve
from open_spiel.python.algorithms import mcts

from ttr_core.bots.base import Bot
from ttr_core.bots.greedy import GreedyBot
from ttr_core.bots.registry import make_bot
from ttr_core.bots.rollout import Rollout
from ttr_core.model import rng
from ttr_core.openspiel.game import TtrGame, TtrState
from ttr_core.play.simulator import Simulator
from ttr_core.rl.env import placing_rewards

PLAYOUT_LIMIT = 2000
"""A playout still running after this many decisions is scored where it stands."""


class EngineBot(pyspiel.Bot):  # type: ignore[misc]
    """A seat played by one of ttr's bots, by name (see `ttr_core.bots.find_bot`)."""

    def __init__(self, game: TtrGame, seat: int, name: str = "greedy", seed: int = 0) -> None:
        super().__init__()
        self._bot = make_bot(name, game.context.ruleset, seat, seed)
        self._seat = seat

    def step(self, state: TtrState) -> int:
        """The code of the action the bot chooses from the seat's view."""
        return self.choice(self._bot, state)

    @staticmethod
    def choice(bot: Bot, state: TtrState) -> int:
        """The code of the action ``bot`` chooses for the seat to act in ``state``."""
        view = state.view(state.current_player())
        assert view is not None
        by_code = state.actions_by_code()
        codes = {action: code for code, action in by_code.items()}
        return codes[bot.choose(view, list(by_code.values()))]

    def restart_at(self, state: TtrState) -> None:
        """Nothing to forget: the bot reads the view afresh at every decision."""

    def inform_action(self, state: TtrState, player_id: int, action: int) -> None:
        """Nothing to learn from other seats' actions."""


class PlayoutEvaluator:
    """An OpenSpiel search evaluator: a state's value is the placing reward of playouts
    from it (the chance nodes of a half-played decision drawn first), and the prior
    spreads evenly over the legal actions, or favours the greedy bot's choice. The
    hidden order of the piles is drawn afresh for each playout.

    ``policy`` is ``"greedy"`` (every seat plays as the greedy bot, with
    `ttr_core.bots.rollout`: informative, about 0.2 s a playout from the start of a
    two-player USA game) or ``"random"`` (uniform legal actions: noisy, about five times
    faster, random games being long).
    """

    def __init__(
        self,
        game: TtrGame,
        playouts: int = 1,
        seed: int = 0,
        policy: str = "greedy",
        greedy_prior: float = 0.0,
    ) -> None:
        """``greedy_prior`` is the prior's share put on the greedy bot's choice (the
        rest spread evenly), for searches that use priors, as ``mcts.MCTSBot`` with
        ``SearchNode.puct_value`` does."""
        if policy not in ("greedy", "random"):
            raise ValueError(f"policy is 'greedy' or 'random', not {policy!r}")
        if not 0.0 <= greedy_prior <= 1.0:
            raise ValueError(f"greedy_prior is from 0 to 1, not {greedy_prior!r}")
        self._ctx = game.context
        self._rollout = Rollout(game.context.ruleset) if policy == "greedy" else None
        self._playouts = playouts
        self._random = random.Random(seed)
        self._greedy_prior = greedy_prior
        self._greedy = [
            GreedyBot(game.context.ruleset, seat, seed) for seat in range(game.context.players)
        ]

    def evaluate(self, state: TtrState) -> Any:
        """Each seat's mean placing reward over the playouts."""
        total = np.zeros(self._ctx.players)
        for _ in range(self._playouts):
            total += self._one(state)
        return total / self._playouts

    def prior(self, state: TtrState) -> list[tuple[int, float]]:
        """At a decision, ``greedy_prior`` on the greedy bot's choice and the rest spread
        evenly over the legal actions; at a chance node, the chance outcomes."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        even = (1.0 - self._greedy_prior) / len(legal)
        if not self._greedy_prior:
            return [(a, even) for a in legal]
        greedy = EngineBot.choice(self._greedy[state.current_player()], state)
        return [(a, even + (self._greedy_prior if a == greedy else 0.0)) for a in legal]

    def _one(self, state: TtrState) -> list[float]:
        while state.is_chance_node():
            state = state.child(self._draw(state.chance_outcomes()))
        if state.is_terminal():
            return list(state.returns())
        position = state.position()
        assert position is not None
        seed = self._random.getrandbits(64)
        deck, seed = rng.shuffled(seed, position.state.deck)
        k = position.shuffled_tickets
        top, seed = rng.shuffled(seed, position.state.ticket_deck[:k])
        playout = evolve(
            position.state,
            deck=tuple(deck),
            ticket_deck=(*top, *position.state.ticket_deck[k:]),
            rng=seed,
        )
        sim = Simulator.from_state(self._ctx.ruleset, playout, record=False)
        if self._rollout is not None:
            self._rollout.play(sim, PLAYOUT_LIMIT)
        else:
            for _ in range(PLAYOUT_LIMIT):
                if sim.is_over:
                    break
                k, seed = rng.below(seed, sim.legal_count())
                sim.apply_index(k)
        return placing_rewards(sim.scores())

    def _draw(self, outcomes: Sequence[tuple[int, float]]) -> int:
        actions = [a for a, _ in outcomes]
        weights = [p for _, p in outcomes]
        return self._random.choices(actions, weights)[0]


class DeterminizedMctsBot(pyspiel.Bot):  # type: ignore[misc]
    """OpenSpiel's MCTS (``mcts.MCTSBot``) over determinised states: at each decision,
    ``determinizations`` states are drawn with ``resample_from_infostate`` (that is,
    `ttr_core.sample_state`), each searched with ``simulations`` simulations, and the
    action visited most in all of them is played."""

    def __init__(
        self,
        game: TtrGame,
        evaluator: PlayoutEvaluator,
        *,
        simulations: int = 8,
        determinizations: int = 1,
        uct_c: float = 1.5,
        seed: int = 0,
    ) -> None:
        super().__init__()
        self._random = random.Random(seed)
        self._determinizations = determinizations
        self._mcts = mcts.MCTSBot(
            game,
            uct_c,
            simulations,
            evaluator,
            solve=False,
            random_state=np.random.RandomState(seed),
            child_selection_fn=mcts.SearchNode.puct_value,
        )

    def step(self, state: TtrState) -> int:
        """The action visited most over the determinised searches."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        seat = state.current_player()
        visits = dict.fromkeys(legal, 0)
        for _ in range(self._determinizations):
            world = state.resample_from_infostate(seat, self._random.random)
            for child in self._mcts.mcts_search(world).children:
                visits[child.action] += child.explore_count
        return int(max(legal, key=lambda a: visits[a]))

    def restart_at(self, state: TtrState) -> None:
        """Nothing to forget: every decision is searched afresh."""

    def inform_action(self, state: TtrState, player_id: int, action: int) -> None:
        """Nothing to learn from other seats' actions."""


def play_game(game: TtrGame, bots: Sequence[Any], seed: int = 0) -> list[float]:
    """Play one game, seat ``i`` played by ``bots[i]`` (OpenSpiel bots), the chance
    outcomes drawn with ``seed``; return the returns."""
    draw = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(draw.choices(actions, weights)[0])
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return list(state.returns())
