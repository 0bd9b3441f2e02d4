"""The long-route grabber (``long-routes``): claims the longest tracks it can, and collects
the cards for them.

Long tracks score far more per train than short ones (a 6-track scores 15 in the USA, six
1-tracks 6). This bot plays for that:

* it keeps the fewest tickets it must: the ones cheapest to join by long tracks (a track
  shorter than [`LongRoutesBot.long_track`][] counts [`LongRoutesBot.detour`][] trains more),
  and never draws more;
* each turn its *targets* are the longest free tracks its trains allow, and the tracks of
  at least ``long_track`` spaces on its tickets' paths; it claims the longest target it
  can pay for (with the fewest locomotives);
* otherwise it collects cards for the longest target closest to being paid for: a face-up
  card of its colour, else a blind card;
* on its last turn it claims whatever scores most, as the greedy bot does.

It never builds stations. Ties are broken by map and listing order, so it plays
deterministically.
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.bots.greedy import Board, Edge, Goal, GreedyBot, Situation
from ttr_core.bots.networks import keep_options, pending_goals, ticket_network
from ttr_core.model.actions import Action, KeepTickets
from ttr_core.model.cards import GRAY, LOCO
from ttr_core.model.state import Phase
from ttr_core.rules.views import PlayerView


class LongRoutesBot(GreedyBot):
    """Grabs the longest tracks; see the module documentation. Class attributes are knobs."""

    long_track = 3
    """Tracks of at least this many spaces count as long on the tickets' paths."""
    detour = 3
    """Extra trains a shorter track counts for when the bot plans its tickets' paths."""

    def _long_board(self, view: PlayerView) -> Board:
        """The board with the short free tracks made dearer, so paths prefer long ones."""
        board = Board(self.ruleset, view)
        length = self.facts.length
        board.cost = [
            c + self.detour if c > 0 and length[r] < self.long_track else c
            for r, c in enumerate(board.cost)
        ]
        return board

    def _plan(self, board: Board, view: PlayerView) -> tuple[list[Edge], list[Goal]]:
        """The long-track paths of the unfinished tickets and those tickets' goals."""
        long_board = self._long_board(view)
        pending = pending_goals(board, self.goals, self._ticket_index(view.tickets))
        return ticket_network(long_board, pending).edges(board), pending

    def turn_choice(
        self,
        seen: Situation,
        board: Board,
        plan: Sequence[Edge],
        goals: Sequence[Goal],
        legal: Sequence[Action],
    ) -> Action:
        """The longest target it can pay for, else cards for one (see the module docs)."""
        if seen.phase is Phase.TURN and seen.final_trigger >= 0:
            last = self._last_turn(board, seen.hand, legal, goals)
            if last is not None:
                return last
        length = self.facts.length
        free = [r for r in range(len(board.cost)) if board.free(r)]
        if not free:
            return self._fallback(legal, seen, board)
        top = max(length[r] for r in free)
        longest = [r for r in free if length[r] == top]
        planned = [
            r for edge in plan for r in edge.tracks if length[r] >= min(self.long_track, top)
        ]
        targets = sorted(set(longest) | set(planned))
        if seen.phase is Phase.TURN:
            claim = self._best_claim(seen.hand, legal, [board.edge(r) for r in targets], plan)
            if claim is not None:
                return claim
        aim = min(longest, key=lambda r: (self._missing(r, seen.hand), r not in planned, r))
        drawn = self._draw(seen, legal, [board.edge(aim)])
        if drawn is not None:
            return drawn
        return self._fallback(legal, seen, board)

    def _missing(self, r: int, hand: tuple[int, ...]) -> int:
        """Cards the hand lacks to pay for track ``r`` in one colour with locomotives."""
        color = self.facts.color[r]
        best = max(hand[:LOCO]) if color == GRAY else hand[color]
        return max(0, self.facts.length[r] - best - hand[LOCO])

    def _keep(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The fewest tickets it must keep: those cheapest to join by long tracks."""
        options = keep_options(legal)
        if not options:
            return self._fallback(legal)
        need = min(len(a.tickets) for a in options)
        board = self._long_board(view)
        index = self.facts.ticket_index
        costed = []
        for pos, t in enumerate(view.offered):
            found = board.path(self.goals[index[t]])
            cost = found[0] if found is not None else 10**6
            costed.append((cost, -self.goals[index[t]].value, pos))
        keep = sorted(pos for _, _, pos in sorted(costed)[:need])
        action = KeepTickets(tickets=tuple(view.offered[p] for p in keep))
        return action if action in legal else options[0]
