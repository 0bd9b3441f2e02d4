"""Which bots sit where: the seatings of a block and the games of an arena.

An arena plays *blocks*. Block ``b`` of an arena with seed ``S`` is one deal, the game seed
``game_seed(S, b)`` (block 0 uses ``S`` itself, as game 0 of ``ttr simulate`` does), and it
is played once with every seating of the bots, so every bot meets the same cards, the same
start player and the same seat in turn. With ``k`` bots and ``P`` seats the seatings are:

* ``k == P``: every permutation of the bots, ``P!`` seatings;
* ``k > P``: every combination of ``P`` different bots, each turned by every number of
  seats, ``C(k, P) * P`` seatings (with two seats, every ordered pair): every pair of bots
  meets equally often, and each bot sits in each seat equally often, without the
  ``k! / (k - P)!`` games that every ordering would take (840 a deal for seven bots on four
  seats, against 140);
* ``k < P``: the bots listed cyclically from bot ``r`` fill the seats, and that list is
  turned by ``t`` seats, for ``r`` in ``0..k-1`` and ``t`` in ``0..P-1``, each distinct
  seating kept once (the first time it comes). With ``random,greedy`` on four seats that
  is ``ABAB`` and ``BABA``; with three bots on four seats, twelve seatings in which each
  bot has two seats in four of them.

Either way each bot sits in each seat equally often over a block, and a bot that has more
seats than another in one seating has fewer in another. Seatings are listed in order (the
first by bot order), and game ``g`` of an arena is seating ``g % n`` of block ``g // n``
for ``n`` seatings.
"""

from __future__ import annotations

import itertools

from ttr_core.batch.runs import game_seed

Seating = tuple[int, ...]
"""The bot of each seat, as an index into the arena's list of bots."""


def seatings(bots: int, players: int) -> tuple[Seating, ...]:
    """The seatings of a block for ``bots`` bots on ``players`` seats (see the module).

    :raises ValueError: fewer than 2 bots or fewer than 1 seat.
    """
    if bots < 2:
        raise ValueError(f"an arena needs at least 2 bots, got {bots}")
    if players < 1:
        raise ValueError(f"an arena needs at least 1 seat, got {players}")
    if bots == players:
        return tuple(itertools.permutations(range(bots)))
    if bots > players:
        return tuple(
            chosen[turn:] + chosen[:turn]
            for chosen in itertools.combinations(range(bots), players)
            for turn in range(players)
        )
    found: dict[Seating, None] = {}
    for first in range(bots):
        listed = [(first + i) % bots for i in range(players)]
        for turn in range(players):
            found.setdefault(tuple(listed[(s + turn) % players] for s in range(players)))
    return tuple(found)


def block_seed(seed: int, block: int) -> int:
    """The deal (game seed) of block ``block`` of an arena with seed ``seed``."""
    return game_seed(seed, block)


def blocks_for(games: int, per_block: int) -> int:
    """The blocks that play at least ``games`` games, ``per_block`` games a block."""
    return -(-games // per_block)
