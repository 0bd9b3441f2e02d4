"""The route planner (``planner``): plans one network for all of its tickets and builds it.

Where the greedy bot plans a shortest path per ticket in a fixed order, the planner plans a
cheap network joining all of its unfinished tickets' cities together (see
[`ticket_network`][ttr_core.bots.networks.ticket_network]: the ticket cheapest to join to the
network so far first, then every track no ticket needs dropped), leaving out the tickets
its trains cannot reach. It

* keeps the offered tickets (the fewest it must) that add least to its network, the
  more valuable among equals, and any further one that adds at most
  [`PlannerBot.extra_ticket_cost`][] trains;
* claims the tracks of its network, longest first, and draws the colours the network still
  lacks (as the greedy bot does);
* once its tickets are done, draws new tickets while it holds plenty of trains, and
  otherwise claims the longest tracks it can pay for.

It never builds stations. Ties are broken by map and listing order, so it plays
deterministically.
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.bots.greedy import Board, Edge, Goal, GreedyBot
from ttr_core.bots.networks import keep_options, pending_goals, ticket_network
from ttr_core.model.actions import Action, KeepTickets
from ttr_core.rules.views import PlayerView


class PlannerBot(GreedyBot):
    """Plans a network for its tickets; see the module documentation."""

    extra_ticket_cost = 2
    """Keep a further offered ticket when it adds this many trains or fewer to the network."""

    def _plan(self, board: Board, view: PlayerView) -> tuple[list[Edge], list[Goal]]:
        """The network for the unfinished tickets and those tickets' goals."""
        pending = pending_goals(board, self.goals, self._ticket_index(view.tickets))
        return ticket_network(board, pending).edges(board), pending

    def _keep(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The fewest tickets that add least to the network, plus nearly free ones."""
        options = keep_options(legal)
        if not options:
            return self._fallback(legal)
        need = min(len(a.tickets) for a in options)
        board = Board(self.ruleset, view)
        held = pending_goals(board, self.goals, self._ticket_index(view.tickets))
        base = ticket_network(board, held)
        index = self.facts.ticket_index
        best: tuple[tuple[int, int, int], KeepTickets] | None = None
        for option in options:
            if len(option.tickets) != need:
                continue
            kept = [self.goals[index[t]] for t in option.tickets]
            net = ticket_network(board, [*held, *kept])
            lost = sum(goal.value for goal in net.left)
            key = (lost, net.cost - base.cost, -sum(goal.value for goal in kept))
            if best is None or key < best[0]:
                best = (key, option)
        assert best is not None
        chosen = list(best[1].tickets)
        kept_goals = [self.goals[index[t]] for t in chosen]
        net = ticket_network(board, [*held, *kept_goals])
        for t in view.offered:
            if t in chosen:
                continue
            goal = self.goals[index[t]]
            wider = ticket_network(board, [*held, *kept_goals, goal])
            if len(wider.left) == len(net.left) and wider.cost - net.cost <= self.extra_ticket_cost:
                chosen.append(t)
                kept_goals.append(goal)
                net = wider
        action = KeepTickets(tickets=tuple(t for t in view.offered if t in chosen))
        return action if action in legal else best[1]
