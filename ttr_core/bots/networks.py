"""Ticket networks for the play-style bots: which free tracks join a set of tickets.

The greedy bot plans each ticket's cheapest path in a fixed order. The play styles need a
little more: how many trains a set of tickets costs together (to judge which offered
tickets to keep), which tickets do not fit in the trains left, and a network without
detours. [`ticket_network`][] builds one the way the shortest-path heuristic for Steiner
trees does: it joins the ticket cheapest to join to the network built so far, again and
again, and then drops every planned track that no joined ticket needs.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from ttr_core.bots.greedy import Board, Edge, Goal
from ttr_core.model.actions import Action, KeepTickets


@frozen
class Network:
    """A planned network: the free tracks to claim and the tickets they complete."""

    cost: int
    """Trains the planned free tracks take."""
    tracks: frozenset[int]
    """The planned free tracks (track indices), besides the ones given as planned."""
    joined: tuple[Goal, ...]
    """The tickets the network completes (with the bot's own tracks)."""
    left: tuple[Goal, ...]
    """The tickets left out: no way is open, or not enough trains are left for it."""

    def edges(self, board: Board) -> list[Edge]:
        """The planned steps, longest first (then in map order), as the greedy bot claims."""
        length = board.facts.length
        return [board.edge(r) for r in sorted(self.tracks, key=lambda r: (-length[r], r))]

    @property
    def value(self) -> int:
        """The points of the joined tickets."""
        return sum(goal.value for goal in self.joined)


def ticket_network(
    board: Board, goals: Sequence[Goal], zero: frozenset[int] = frozenset()
) -> Network:
    """The network joining as many of ``goals`` as the trains allow, cheapest first.

    At each step the ticket whose cheapest way to the network so far (``zero`` and the
    bot's own tracks cost nothing) is cheapest is joined, the more valuable one among
    equals; a ticket whose way no longer fits in the trains left is left out. Then each
    planned track, the longest first, is dropped if every joined ticket stays complete
    without it.
    """
    length = board.facts.length
    planned = set(zero)
    spent = sum(length[r] for r in zero)
    remaining = list(goals)
    joined: list[Goal] = []
    left: list[Goal] = []
    while remaining:
        best: tuple[tuple[int, int, int], list[int]] | None = None
        frozen_plan = frozenset(planned)
        dropped = []
        for i, goal in enumerate(remaining):
            found = board.path(goal, frozen_plan)
            if found is None or spent + found[0] > board.trains:
                dropped.append(i)
                continue
            key = (found[0], -goal.value, i)
            if best is None or key < best[0]:
                best = (key, found[1])
        if best is None:
            left.extend(remaining)
            break
        (cost, _, pick), tracks = best
        spent += cost
        planned.update(tracks)
        joined.append(remaining[pick])
        left.extend(remaining[i] for i in dropped)
        remaining = [g for i, g in enumerate(remaining) if i != pick and i not in dropped]
    for r in sorted(planned - zero, key=lambda r: (-length[r], r)):
        rest = planned - {r}
        if all(board.completed(goal, rest) for goal in joined):
            planned = rest
            spent -= length[r]
    return Network(
        cost=spent - sum(length[r] for r in zero),
        tracks=frozenset(planned - zero),
        joined=tuple(joined),
        left=tuple(left),
    )


def keep_options(legal: Sequence[Action]) -> list[KeepTickets]:
    """The ticket choices among ``legal``, in listing order."""
    return [a for a in legal if isinstance(a, KeepTickets)]


def pending_goals(board: Board, goals: Sequence[Goal], tickets: Sequence[int]) -> list[Goal]:
    """The goals of ``tickets`` (ticket indices) that the bot's tracks do not yet complete."""
    return [goals[t] for t in tickets if not board.completed(goals[t])]
