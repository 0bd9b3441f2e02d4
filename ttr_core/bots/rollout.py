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

from ttr_core.bots.greedy import Board, Edge, Goal, GreedyBot, situation
from ttr_core.model.state import GameState, Phase
from ttr_core.play.legal import LegalActions
from ttr_core.play.simulator import Simulator
from ttr_core.rules.views import view_of
from ttr_core.ruleset.ruleset import Ruleset


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
        state = sim.snapshot()
        seat = state.current
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = GreedyBot(self.rs, seat, 0)
        legal = LegalActions(self.rs, state, simulator=sim)
        phase = state.phase
        if phase is Phase.TURN or phase is Phase.SECOND_CARD:
            plan = self._plan(state, plans)
            seen = situation(phase, state.players[seat].hand, state.display, state.final_trigger)
            action = bot.turn_choice(seen, plan.board, plan.edges, plan.goals, legal)
        else:
            action = bot.choose(view_of(self.rs, state, seat), legal)
        sim.apply(action)

    def _board(self, state: GameState) -> Board:
        seat = state.current
        return Board.at(self.rs, seat, state.owners, state.players[seat].trains, len(state.players))

    def _plan(self, state: GameState, plans: list[_Plan | None]) -> _Plan:
        """The board and plan of the seat to act, made again only when its tickets or
        trains changed or another seat took every track of one of the planned steps."""
        seat = state.current
        me = state.players[seat]
        owners = state.owners
        plan = plans[seat]
        if (
            plan is not None
            and plan.tickets is me.tickets
            and plan.trains == me.trains
            and all(any(owners[r] < 0 for r in edge.tracks) for edge in plan.edges)
        ):
            return plan
        board = self._board(state)
        bot = self.bots[seat]
        goals = bot.goals
        pending = [goals[t] for t in me.tickets if not board.completed(goals[t])]
        edges, _ = bot._route(board, pending)
        plan = plans[seat] = _Plan(me.tickets, me.trains, board, edges, pending)
        return plan
