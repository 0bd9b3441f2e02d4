"""The ticket chaser (``tickets``): keeps as many tickets as its trains can join, and draws
more as soon as its plan is nearly built.

In the spirit of the "hungry" agent of the playtesting studies, its game is tickets:

* of the offered tickets it keeps the set that adds the most tickets per train to its
  planned network (see [`ticket_network`][ttr_core.bots.networks.ticket_network]), as long as
  the network leaves [`TicketsBot.keep_margin`][] trains spare and completes every ticket;
  failing that the set it can complete with the fewest trains, and failing that the one
  that risks the fewest points;
* once its plan needs [`TicketsBot.nearly_done`][] trains or fewer and leaves
  [`TicketsBot.ticket_slack`][] spare, it draws new tickets, before the last steps are built;
* otherwise it plays as the greedy bot does: claims along the plan, longest track first,
  and draws the colours the plan lacks.

Ties are broken by map and listing order, so it plays deterministically.
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.bots.greedy import Board, Edge, Goal, GreedyBot
from ttr_core.bots.networks import Network, keep_options, pending_goals, ticket_network
from ttr_core.model.actions import Action, DrawTickets
from ttr_core.model.state import Phase
from ttr_core.rules.views import PlayerView


class TicketsBot(GreedyBot):
    """Chases tickets; see the module documentation. The class attributes are its knobs."""

    ticket_slack = 6
    """Draw new tickets only while the plan leaves this many trains spare."""
    nearly_done = 3
    """Draw new tickets once the plan for the unfinished ones needs this many trains or fewer."""
    keep_margin = 5
    """A kept set of tickets should leave this many trains spare after its planned network."""
    train_weight = 3
    """Kept sets are ranked by tickets per train added, counting this many trains more."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """New tickets once the plan is nearly built; otherwise the greedy choice."""
        if view.phase is Phase.TURN and view.final_trigger < 0 and DrawTickets() in legal:
            board, plan, _ = self._board(view)
            left = sum(edge.length for edge in plan)
            if left <= self.nearly_done and left + self.ticket_slack <= board.trains:
                return DrawTickets()
        return super().choose(view, legal)

    def _plan(self, board: Board, view: PlayerView) -> tuple[list[Edge], list[Goal]]:
        """The network for the unfinished tickets and those tickets' goals."""
        pending = pending_goals(board, self.goals, self._ticket_index(view.tickets))
        return ticket_network(board, pending).edges(board), pending

    def _keep(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The offered tickets that add most tickets per train (see the module docs)."""
        options = keep_options(legal)
        if not options:
            return self._fallback(legal)
        board = Board(self.ruleset, view)
        held = pending_goals(board, self.goals, self._ticket_index(view.tickets))
        offered = self.facts.ticket_index
        base = ticket_network(board, held).cost
        best: tuple[tuple[float, ...], int] | None = None
        for k, option in enumerate(options):
            kept = [self.goals[offered[t]] for t in option.tickets]
            net = ticket_network(board, [*held, *kept])
            key = self._rank(board, net, base, kept)
            if best is None or key > best[0]:
                best = (key, k)
        assert best is not None
        return options[best[1]]

    def _rank(
        self, board: Board, net: Network, base: int, kept: Sequence[Goal]
    ) -> tuple[float, ...]:
        """How good a kept set is (greater is better): complete within the margin, by
        tickets per train added to the ``base`` network's trains; else complete, by fewest
        trains; else by fewest points at risk."""
        lost = sum(goal.value for goal in net.left)
        if lost == 0 and net.cost + self.keep_margin <= board.trains:
            per_train = len(kept) / (net.cost - base + self.train_weight)
            return (2, per_train, len(kept))
        if lost == 0:
            return (1, -net.cost, -len(kept))
        return (0, -lost, -len(kept))
