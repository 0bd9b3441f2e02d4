"""The search bot: Monte Carlo search over states sampled from the bot's view.

For each decision the bot weighs a few candidate actions
([`MctsBot.candidates`][ttr_core.bots.mcts.MctsBot.candidates]), the greedy bot's choice first, with
playouts:

* **Determinisation.** Playout ``k`` of every candidate starts from the ``k``-th state drawn from
  the view with [`StateSampler`][ttr_core.hidden.determinize.StateSampler] (the opponents' cards and
  tickets and the order of the decks drawn afresh, the generator too).
* **Selection.** The candidates are the arms of a UCB1 bandit, the root of the search:
  each is played once, then each playout goes to the candidate with the best mean reward
  plus ``c * sqrt(ln(playouts so far) / its playouts)``. The greedy choice is also
  played from every state any other candidate is played from.
* **Playouts.** From the candidate, every seat plays to the end of the game as the greedy bot does
  ([`ttr_core.bots.rollout`][ttr_core.bots.rollout]), and the game is scored in full, by the
  edition's own scoring.
* **Reward.** ``1 / (1 + exp(-margin / 10))`` for the bot's margin over the best other
  seat: near 1 for a clear win, 0.5 for a tie.
* **Decision.** Each candidate is compared with the greedy choice in pairs, playout by
  playout from the same states, which cancels most of the luck of the draw. The bot
  plays the candidate whose mean paired gain, less [`CONFIDENCE`][] standard errors,
  is largest, if that is above 0, and the greedy choice otherwise: the best mean of a
  few noisy playouts is mostly luck, and following it plays worse than greedy.

The tree has one level: below the candidate, the bot's own later decisions are the
playout policy's. With a deterministic policy and a sampled state per playout, deeper
levels would mostly split the same few playouts further.

The budget is a number of playouts per decision (default [`DEFAULT_PLAYOUTS`][]; one
more when the last playout of a candidate needs the greedy choice's playout beside it),
never a time, so a seed gives the same game on any machine. Decisions with one legal
action, or one candidate, are played without a search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ttr_core.bots.base import BaseBot
from ttr_core.bots.greedy import GreedyBot
from ttr_core.bots.rollout import Rollout
from ttr_core.hidden.determinize import StateSampler
from ttr_core.model import rng
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    ClaimWithGroups,
    DrawBlind,
)
from ttr_core.model.cards import LOCO
from ttr_core.model.errors import BotError
from ttr_core.model.state import Phase
from ttr_core.play.simulator import Simulator
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

DEFAULT_PLAYOUTS = 50
"""Playouts per decision unless the spec says otherwise (``mcts:playouts=N``)."""
DEFAULT_C = 0.5
"""The exploration constant of UCB1 unless the spec says otherwise (``mcts:c=X``)."""
MARGIN_SCALE = 10.0
"""Points of margin over the best other seat that take the reward from 0.5 to about 0.73."""
PLAYOUT_LIMIT = 2000
"""A playout still running after this many decisions is scored where it stands."""
CONFIDENCE = 2.0
"""Standard errors by which a candidate's paired gain over the greedy choice must exceed 0."""
PLAN_CLAIMS = 2
"""Claims of planned tracks among a turn's candidates: the longest the hand pays for."""
OTHER_CLAIMS = 3
"""Claims off the plan among a turn's candidates: the longest tracks the hand pays for."""


class MctsBot(BaseBot):
    """Searches each decision with ``playouts`` playouts (see the module documentation).

    :raises BotError: ``playouts`` is below 1 or ``c`` is negative.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        seat: int,
        seed: int,
        *,
        playouts: int = DEFAULT_PLAYOUTS,
        c: float = DEFAULT_C,
    ) -> None:
        super().__init__(ruleset, seat, seed)
        if playouts < 1:
            raise BotError(f"mcts: playouts must be at least 1, not {playouts}")
        if not c >= 0:
            raise BotError(f"mcts: c must be at least 0, not {c}")
        self.playouts = playouts
        self.c = c
        self.greedy = GreedyBot(ruleset, seat, seed)
        """The greedy bot, whose choice is always a candidate."""
        self.rollout = Rollout(ruleset)
        self.decisions = 0
        self.played = 0
        """Playouts played so far, over all decisions (for measuring)."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The greedy choice, unless the search found a candidate clearly better (see
        [`best_arm`][])."""
        self.decisions += 1
        if len(legal) == 1:
            return legal[0]
        arms = self.candidates(view, legal)
        if len(arms) == 1:
            return arms[0]
        return arms[self.best_arm(self.search(view, arms))]

    def search(self, view: PlayerView, arms: Sequence[Action]) -> list[list[float]]:
        """Spend the budget's playouts on ``arms``; return each arm's rewards, the ``k``-th
        from the ``k``-th sampled state. The first arm (the greedy choice) is played from
        every state any arm is played from, so that each arm is compared with it in pairs."""
        sampler = StateSampler(self.ruleset, view)
        base = rng.derive_seed(self.seed, self.decisions)
        worlds: list[Simulator] = []
        rewards: list[list[float]] = [[] for _ in arms]
        spent = 0
        while spent < self.playouts:
            a = spent if spent < len(arms) else self._select(rewards, spent)
            for b in (a, 0) if a else (0,):
                k = len(rewards[b])
                if b == 0 and k > len(rewards[a]) - (a != 0):
                    continue
                while len(worlds) <= k:
                    state = sampler.sample(random.Random(rng.derive_seed(base, len(worlds))))
                    worlds.append(Simulator.from_state(self.ruleset, state, record=False))
                sim = worlds[k].clone()
                sim.apply(arms[b])
                self.rollout.play(sim, PLAYOUT_LIMIT)
                rewards[b].append(self._reward(sim))
                spent += 1
        self.played += spent
        return rewards

    def _select(self, rewards: list[list[float]], t: int) -> int:
        """The arm with the best upper confidence bound (UCB1)."""
        log_t = math.log(t)
        c = self.c
        return max(
            range(len(rewards)),
            key=lambda a: (
                sum(rewards[a]) / len(rewards[a]) + c * math.sqrt(log_t / len(rewards[a]))
            ),
        )

    def best_arm(self, rewards: list[list[float]]) -> int:
        """The arm to play: the one whose paired gain over the first arm (the greedy
        choice), less [`CONFIDENCE`][] standard errors, is largest, if that is above 0;
        otherwise the first arm."""
        best, best_bound = 0, 0.0
        base = rewards[0]
        for a in range(1, len(rewards)):
            n = len(rewards[a])
            if n < 2:
                continue
            gains = [rewards[a][k] - base[k] for k in range(n)]
            mean = sum(gains) / n
            var = sum((g - mean) ** 2 for g in gains) / (n - 1)
            bound = mean - CONFIDENCE * math.sqrt(var / n)
            if bound > best_bound:
                best, best_bound = a, bound
        return best

    def _reward(self, sim: Simulator) -> float:
        totals = [p.total for p in sim.scores().players]
        mine = totals[self.seat]
        best_other = max(t for s, t in enumerate(totals) if s != self.seat)
        return 1.0 / (1.0 + math.exp(-(mine - best_other) / MARGIN_SCALE))

    # -- candidates -----------------------------------------------------------------------

    def candidates(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        """The actions the search weighs, the greedy bot's choice first.

        * Choosing tickets, paying for a tunnel: every legal action.
        * A turn: the greedy choice; a claim (with the payment of fewest locomotives) of
          the [`PLAN_CLAIMS`][] longest tracks of the greedy plan and of the
          [`OTHER_CLAIMS`][] longest other tracks the hand pays for; a blind draw.
          Face-up cards, tickets and stations are left to the greedy choice: playouts
          judge them poorly (a new ticket looks better to a policy that always completes
          its plan than it is) or they are rarely worth a search.
        * A second card, the cards of a payment with groups: the greedy choice alone.
        """
        first = self.greedy.choose(view, legal)
        phase = view.phase
        if phase is Phase.SECOND_CARD or phase is Phase.CHOOSE_CARDS:
            return [first]
        if phase is not Phase.TURN:
            return [first, *(a for a in legal if a != first)]
        out: list[Action] = [first]
        rs = self.ruleset
        tracks = rs.map.routes
        board, plan, _ = self.greedy._board(view)  # the greedy choice's own plan
        planned = {r for edge in plan for r in edge.tracks}
        reserved = [0] * (LOCO + 1)
        claims: list[tuple[int, int, ClaimRoute | ClaimWithGroups]] = []
        for r in range(len(view.owners)):
            if not board.free(r):
                continue
            claim = self.greedy._payment(r, view.hand, legal, reserved)
            if claim is not None and claim != first and claim not in (c for *_, c in claims):
                claims.append((0 if r in planned else 1, -tracks[r].length, claim))
        claims.sort(key=lambda item: (item[0], item[1]))
        quota = [PLAN_CLAIMS, OTHER_CLAIMS]
        for off_plan, _, claim in claims:
            if quota[off_plan]:
                quota[off_plan] -= 1
                out.append(claim)
        blind = DrawBlind()
        if blind != first and blind in legal:
            out.append(blind)
        return out
