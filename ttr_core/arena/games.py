"""One game of an arena as it is kept, and what it says about each pair of bots.

A game ranks its seats: the winners share rank 1, and the others follow by final score
(seats with equal scores share a rank). Each pair of seats held by two different bots is
one pairwise result: a win for the better rank, a tie for the same rank. Seats of the
same bot are not compared.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import frozen

from ttr_core.batch.runs import GameResult


@frozen
class ArenaGame:
    """One game of an arena: where it stands in the schedule, who sat where, how it ended."""

    block: int
    """The block (deal) it belongs to, from 0."""
    seating: int
    """The number of its seating in the block's list, from 0."""
    seed: int
    """The game seed (the block's deal)."""
    bots: tuple[str, ...]
    """The bot of each seat, by name."""
    scores: tuple[int, ...]
    """The final score of each seat."""
    ranks: tuple[int, ...]
    """The rank of each seat: 1 for the winners (see the module)."""
    turns: int
    """Player turns played."""

    @classmethod
    def of(cls, block: int, seating: int, result: GameResult) -> ArenaGame:
        """The arena game of a played game's result."""
        winners = set(result.winners)
        scores = tuple(p.total for p in result.players)
        won = tuple(p.name in winners for p in result.players)
        return cls(
            block=block,
            seating=seating,
            seed=result.seed,
            bots=tuple(p.bot for p in result.players),
            scores=scores,
            ranks=ranks(scores, won),
            turns=result.turns,
        )


def ranks(scores: Sequence[int], won: Sequence[bool]) -> tuple[int, ...]:
    """The rank of each seat: 1 plus the number of seats that did better (a winner does
    better than a seat that did not win, else the higher score does)."""

    def key(s: int) -> tuple[bool, int]:
        return (won[s], scores[s])

    seats = range(len(scores))
    return tuple(1 + sum(key(o) > key(s) for o in seats) for s in seats)


Tally = list[list[float]]
"""``tally[i][j]``: the pairwise results bot ``i`` won against bot ``j``, a tie counting
one half for each."""


def empty_tally(bots: int) -> Tally:
    """A tally of no results between ``bots`` bots."""
    return [[0.0] * bots for _ in range(bots)]


def add_game(tally: Tally, index: dict[str, int], game: ArenaGame) -> None:
    """Add the pairwise results of ``game`` to ``tally`` (bots numbered by ``index``)."""
    seats = [index[name] for name in game.bots]
    for a, b in _pairs(len(seats)):
        i, j = seats[a], seats[b]
        if i == j:
            continue
        if game.ranks[a] < game.ranks[b]:
            tally[i][j] += 1.0
        elif game.ranks[a] > game.ranks[b]:
            tally[j][i] += 1.0
        else:
            tally[i][j] += 0.5
            tally[j][i] += 0.5


def tally_of(bots: Sequence[str], games: Iterable[ArenaGame]) -> Tally:
    """The pairwise results of ``games`` between ``bots``."""
    index = {name: i for i, name in enumerate(bots)}
    tally = empty_tally(len(bots))
    for game in games:
        add_game(tally, index, game)
    return tally


def _pairs(seats: int) -> Iterable[tuple[int, int]]:
    return ((a, b) for a in range(seats) for b in range(a + 1, seats))
