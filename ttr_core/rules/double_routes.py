"""Double routes (DOUBLE-1, DOUBLE-2): who may claim a track whose parallel is claimed.

Everything here is worked out from the track owners alone (a seat or -1 per track), so
it holds for any position: a table's free and blocked tracks are set from [`tracks_of`][]
when a state is loaded, and kept current by the claims as play goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ttr_core.rules.index import HAND_MEMO_LIMIT, index_of, memos_of

if TYPE_CHECKING:
    from ttr_core.ruleset.ruleset import Ruleset

OWN_PARALLEL: Final = "DOUBLE-1"
"""`parallel_rule`: the seat owns the parallel track."""
CLOSED_PARALLEL: Final = "DOUBLE-2"
"""`parallel_rule`: another seat owns the parallel track, and with this few players
that closes it for everyone."""


def parallel_rule(rs: Ruleset, owners: Sequence[int], r: int, seat: int, players: int) -> str:
    """The double-route rule that keeps ``seat`` from claiming the unclaimed track ``r``.

    `OWN_PARALLEL` (DOUBLE-1) if ``seat`` owns the parallel track: no seat takes
    both tracks of a double route. `CLOSED_PARALLEL` (DOUBLE-2) if another seat
    owns it and fewer players play than the edition's ``double_routes_min_players``: then
    a claimed track closes its parallel for everyone. An empty string if neither rule
    applies. A ``seat`` of -1 asks for everyone: only a closed track is refused.
    """
    ix = index_of(rs)
    return _parallel(ix.route_twin, owners, r, seat, players < ix.double_open_min)


def claim_closes_parallel(rs: Ruleset, players: int) -> bool:
    """Whether, in a game of ``players``, claiming a track closes its unclaimed parallel
    for everyone (DOUBLE-2), rather than only for the seat that claimed it (DOUBLE-1):
    `parallel_rule` of that parallel with seat -1, read once for a whole game."""
    return players < index_of(rs).double_open_min


def _parallel(twins: Sequence[int], owners: Sequence[int], r: int, seat: int, few: bool) -> str:
    """`parallel_rule` with the parallel tracks ``twins`` and whether the game has
    ``few`` players read once, for the callers that ask about every track."""
    twin = twins[r]
    return _twin_owned(owners[twin] if twin >= 0 else -1, seat, few)


def _twin_owned(owner: int, seat: int, few: bool) -> str:
    """`parallel_rule` of a track whose parallel track ``owner`` owns (-1: none owns it,
    or the track has no parallel)."""
    if owner < 0:
        return ""
    if owner == seat:
        return OWN_PARALLEL
    return CLOSED_PARALLEL if few else ""


def free_tracks(rs: Ruleset, owners: Sequence[int], players: int) -> tuple[tuple[int, ...], ...]:
    """Per route class, its tracks that are unclaimed and not closed (DOUBLE-2), in map
    order: what [`free`][ttr_core.model.state.GameState.free] holds for these owners."""
    ix = index_of(rs)
    twins = ix.route_twin
    # With few players a claimed track closes its parallel (`parallel_rule` with seat -1).
    closed = (
        {twins[r] for r, owner in enumerate(owners) if owner >= 0 and twins[r] >= 0}
        if players < ix.double_open_min
        else set()
    )
    return tuple(
        tuple([r for r in routes if owners[r] < 0 and r not in closed])
        for routes in ix.class_routes
    )


def blocked_by_seat(
    rs: Ruleset, owners: Sequence[int], players: int
) -> tuple[tuple[int, ...], ...]:
    """Per seat, the free tracks it may not claim because it owns their parallel
    (DOUBLE-1), ordered as its own tracks are in the map: what each seat's
    [`blocked`][ttr_core.model.state.PlayerState.blocked] holds for these owners (a game
    lists them in the order they were claimed). With fewer players than double routes
    need, a claimed track closes its parallel for everyone instead, so none is blocked."""
    ix = index_of(rs)
    blocked: list[list[int]] = [[] for _ in range(players)]
    if players >= ix.double_open_min:
        twins = ix.route_twin
        for r, owner in enumerate(owners):
            if 0 <= owner < players:
                twin = twins[r]
                if twin >= 0 and owners[twin] < 0:
                    blocked[owner].append(twin)
    return tuple(tuple(seat) for seat in blocked)


def tracks_of(
    rs: Ruleset, owners: tuple[int, ...], players: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """[`free_tracks`][] and [`blocked_by_seat`][] together, memoised by the owners: what
    loading a state works out (a game has only as many owners as claims)."""
    memo = memos_of(rs).tracks_by_owners
    key = (owners, players)
    found = memo.get(key)
    if found is None:
        if len(memo) >= HAND_MEMO_LIMIT:
            memo.clear()
        found = memo[key] = free_tracks(rs, owners, players), blocked_by_seat(rs, owners, players)
    return found


def blocked_tracks(rs: Ruleset, owners: Sequence[int], seat: int, players: int) -> tuple[int, ...]:
    """The tracks of [`blocked_by_seat`][] for one seat."""
    return blocked_by_seat(rs, owners, players)[seat]


def open_tracks(rs: Ruleset, owners: Sequence[int], seat: int, players: int) -> tuple[int, ...]:
    """The tracks ``seat`` may claim as far as owners go (trains and cards aside), in map
    order: unclaimed, and kept from it by no double-route rule (`parallel_rule`)."""
    ix = index_of(rs)
    twins: tuple[int, ...] = ix.route_twin
    few = players < ix.double_open_min
    owned = tuple(owners)  # a tuple as given, else one copy: cheap to index when compiled
    found: list[int] = []
    for r in range(len(owned)):
        if owned[r] < 0:
            twin = twins[r]
            if twin < 0 or not _twin_owned(owned[twin], seat, few):
                found.append(r)
    return tuple(found)
