"""Fast playouts for search: every seat plays as the greedy bot, keeping its plans.

A playout plays a [`Simulator`][ttr_core.play.simulator.Simulator] (a determinised position)
on. Every seat decides as the greedy bot (`GreedyBot`) does, faster: the legal actions are
read from the simulator itself, which holds a whole (sampled) position, and a seat's plan
for its unfinished tickets, with the board it was made on, is kept from decision to
decision. Where the greedy bot keeps a plan only while planning afresh would make the same one,
a seat plans again only when its tickets or trains change or another seat takes every track
of one of its planned steps.
"""

from __future__ import annotations

from typing import Final

from ttr_core.bots.greedy import Board, Edge, Goal, GreedyBot, Situation
from ttr_core.model.state import Phase
from ttr_core.play.legal import LegalActions
from ttr_core.play.simulator import DecisionFacts, Simulator
from ttr_core.ruleset.ruleset import Ruleset

_TURN: Final = Phase.TURN
_SECOND_CARD: Final = Phase.SECOND_CARD
"""Read once: ``Phase.X`` goes through the enum class's attribute hook at every step."""


class _Plan:
    """A seat's planned steps, its unfinished tickets' goals and the board they were
    planned on, with the tickets and trains they were planned for."""

    __slots__ = ("board", "edges", "goals", "tickets", "trains")

    def __init__(
        self,
        tickets: tuple[int, ...],
        trains: int,
        board: Board,
        edges: list[Edge],
        goals: list[Goal],
    ) -> None:
        self.tickets = tickets
        self.trains = trains
        self.board = board
        self.edges = edges
        self.goals = goals


class Rollout:
    """The playout policy of one ruleset (see the module documentation)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.bots: dict[int, GreedyBot] = {}
        """The greedy bot of each seat, whose decisions the policy takes."""

    def play(self, sim: Simulator, limit: int) -> int:
        """Play ``sim`` on until the game ends or ``limit`` decisions were taken; return
        the number of decisions taken."""
        plans: list[_Plan | None] = [None] * len(sim.names)
        steps = 0
        while steps < limit and not sim.is_over:
            self.step(sim, plans)
            steps += 1
        return steps

    def step(self, sim: Simulator, plans: list[_Plan | None]) -> None:
        """Take the decision of the seat to act; ``plans`` holds each seat's kept plan."""
        facts = sim._decision_facts()  # what a turn decision reads, without a snapshot
        seat = facts.seat
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = GreedyBot(self.rs, seat, 0)
        legal = LegalActions(self.rs, None, simulator=sim)
        phase = facts.phase
        if phase is _TURN or phase is _SECOND_CARD:
            plan = self._plan(facts, plans)
            seen = Situation(phase, facts.hand, facts.display, facts.final_trigger)
            action = bot.turn_choice(seen, plan.board, plan.edges, plan.goals, legal)
        else:
            action = bot.choose(sim.view(seat), legal)
        sim.apply(action)

    def _board(self, facts: DecisionFacts) -> Board:
        return Board.at(self.rs, facts.seat, facts.owners, facts.trains, facts.players)

    def _plan(self, facts: DecisionFacts, plans: list[_Plan | None]) -> _Plan:
        """The board and plan of the seat to act, made again only when its tickets or
        trains changed or another seat took every track of one of the planned steps."""
        seat = facts.seat
        owners = facts.owners
        plan = plans[seat]
        if (
            plan is not None
            and plan.tickets is facts.tickets
            and plan.trains == facts.trains
            and all(any(owners[r] < 0 for r in edge.tracks) for edge in plan.edges)
        ):
            return plan
        board = self._board(facts)
        bot = self.bots[seat]
        goals = bot.goals
        pending = [goals[t] for t in facts.tickets if not board.completed(goals[t])]
        edges, _ = bot._route(board, pending)
        plan = plans[seat] = _Plan(facts.tickets, facts.trains, board, edges, pending)
        return plan
