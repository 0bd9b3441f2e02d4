"""Claiming a track: who may claim it, which payments are listed, and what a claim does.

What pays for a track is [`payment_error`][ttr_core.rules.payments.payment_error] (CLAIM-1
to CLAIM-4, FERRY-2). Who may claim it is the double-route rule (DOUBLE-1, DOUBLE-2,
`ttr_core.rules.double_routes.parallel_rule`) plus an unclaimed track (CLAIM-8) and
enough trains (CLAIM-7). The table keeps what that rule implies current as tracks are
claimed (its free tracks per route class and each seat's blocked parallels), as
`ttr_core.rules.double_routes` works them out from the track owners when a state is
loaded.

Listing claims walks each route colour's classes from the shortest and stops at the
first one the player cannot pay for (its length is more than the colour's cards plus
locomotives, or more than the player's trains); how many payments each class offers the
hand is the index of [`ttr_core.rules.payment_counts`][ttr_core.rules.payment_counts].

Listing order: route colours in card order, gray last; within a colour, classes by length;
within a class, tracks in map order; per track, the payments of
`ttr_core.rules.payment_counts.ClaimTables.payments` that the hand holds (all
locomotives first, then each colour in card order, the most coloured cards first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ttr_core.model import events as ev
from ttr_core.model.cards import GRAY, LOCO, NUM_KINDS, describe
from ttr_core.model.errors import IllegalActionError, quote
from ttr_core.rules import piles
from ttr_core.rules.double_routes import OWN_PARALLEL, parallel_rule
from ttr_core.rules.index import index_of
from ttr_core.rules.payment_counts import claim_tables, pay_cards
from ttr_core.rules.payments import fits, is_counts, payment_error, route_shape
from ttr_core.rules.table import TURN, Table
from ttr_core.rules.turn import end_turn

if TYPE_CHECKING:
    from ttr_core.rules.payment_counts import ClaimTables
    from ttr_core.ruleset.ruleset import Ruleset

# -- who may claim a track, on the table -------------------------------------------------


def blocked_in(t: Table, p: int, k: int) -> int:
    """How many tracks of route class ``k`` seat ``p`` may not claim as parallels of its own."""
    blocked = t.blocked[p]
    if not blocked:
        return 0
    class_of = t.claims.class_of
    n = 0
    for b in blocked:
        if class_of[b] == k:
            n += 1
    return n


def open_to(t: Table, r: int, p: int) -> bool:
    """Whether seat ``p`` may claim track ``r`` as far as owners go (trains aside): it is
    free (unclaimed and not closed) and not the parallel of one of ``p``'s tracks."""
    return r in t.free[t.claims.class_of[r]] and r not in t.blocked[p]


def track_error(t: Table, route: object) -> tuple[int, tuple[str, str] | None]:
    """The index of track id ``route`` and why the current seat may not claim it now."""
    rs = t.rs
    ix = t.ix
    if t.phase != TURN:
        return -1, ("TURN-1", "a route can only be claimed as the turn's action")
    r = ix.route_index.get(route, -1) if type(route) is int else -1
    if r < 0:
        return -1, ("CLAIM-1", f"there is no track with id {quote(route)}")
    p = t.current
    if t.owners[r] >= 0:
        return r, ("CLAIM-8", f"{rs.route_name(r)} is already claimed")
    if parallel_rule(rs, t.owners, r, p, t.players) == OWN_PARALLEL or r in t.blocked[p]:
        return r, ("DOUBLE-1", f"you own the parallel track of {rs.route_name(r)}")
    if not open_to(t, r, p):
        return r, (
            "DOUBLE-2",
            f"{rs.route_name(r)} is closed: its parallel track is claimed and fewer than "
            f"{ix.double_open_min} players are playing",
        )
    trains = t.trains[p]
    if trains < ix.route_len[r]:
        return r, (
            "CLAIM-7",
            f"{rs.route_name(r)} needs {ix.route_len[r]} trains, you have {trains}",
        )
    return r, None


def claim_error(t: Table, route: object, cards: object) -> tuple[int, tuple[str, str] | None]:
    """The track index of a claim of ``route`` paying ``cards``, and why it is refused."""
    r, why = track_error(t, route)
    if why is not None:
        return r, why
    rs = t.rs
    why = payment_error(rs, r, cards)
    if why is not None:
        shape = route_shape(rs, r)
        if shape.size and is_counts(cards) and fits(shape, cards) > 0:
            return r, (
                "GROUP-2",
                "this payment holds groups of any cards: claim with ClaimWithGroups, "
                "then choose the cards",
            )
        return r, why
    assert isinstance(cards, tuple)
    base = t.current * NUM_KINDS
    for k in range(NUM_KINDS):
        if cards[k] > t.hands[base + k]:
            return r, ("CLAIM-1", f"you do not hold {describe(cards)}")
    return r, None


def check_claim(t: Table, route: object, cards: object) -> int:
    """The track index of a listed claim; raise `IllegalActionError` otherwise."""
    r, why = claim_error(t, route, cards)
    if why is not None:
        raise IllegalActionError(*why)
    return r


# -- listing -----------------------------------------------------------------------------


def _reach(t: Table, p: int, c: int) -> int:
    """The longest track of route colour ``c`` (gray is 8) seat ``p`` might pay for: cards
    of the colour (for gray, of the colour held most) plus locomotives, at most its trains."""
    base = p * NUM_KINDS
    hands = t.hands
    if c == GRAY:
        n = 0
        for k in range(LOCO):
            held = hands[base + k]
            if held > n:
                n = held
    else:
        n = hands[base + c]
    n += hands[base + LOCO]
    trains = t.trains[p]
    return n if n < trains else trains


def count_claims(t: Table) -> int:
    """How many claims (track and payment, without card groups) are legal now.

    Each class contributes its open tracks times the payments the hand affords. A
    colour's classes together depend only on which of its tracks are free (the block's
    signature), the locomotives and the cards of that colour held: the table keeps, per
    colour, those sums for its current signature, indexed by the hand, and per seat their
    total over the colours for its hand (``claim_sum``). The gray classes' sum is worked
    out from the free tracks and the hand's gray counts. With fewer trains than the
    longest track, the classes are walked instead.
    """
    p = t.current
    tab = t.claims
    top = tab.top
    if t.trains[p] < top:
        return _walk_count(t, p)
    base = p * NUM_KINDS
    total = t.claim_sum[p]
    if tab.has_gray:
        free = t.free_count
        at = tab.start[GRAY]
        for per in t.pay_count[base + GRAY]:
            if per:
                total += free[at] * per
            at += 1
    blocked = t.blocked[p]
    if blocked:
        pay = t.pay_count
        class_of = tab.class_of
        block_of = tab.block_of
        place = tab.place
        for b in blocked:
            k = class_of[b]
            total -= pay[base + block_of[k]][place[k]]
    return total


def _walk_count(t: Table, p: int) -> int:
    """``count_claims`` by walking each colour's classes from the shortest, stopping at
    the first one too long for the cards or the trains."""
    tab = t.claims
    base = p * NUM_KINDS
    pay = t.pay_count
    free = t.free_count
    total = 0
    for c, block in tab.blocks:
        most = _reach(t, p, c)
        counts = pay[base + c]
        for i, (k, length) in enumerate(block):
            if length > most:
                break
            n = counts[i]
            if n:
                total += (free[k] - blocked_in(t, p, k)) * n
    return total


def claim_at(t: Table, i: int) -> tuple[int, int, tuple[int, ...]]:
    """The ``i``-th legal claim, in listing order: its track index, the place of its
    payment among its track class's payments (``ClaimTables.payments``), and the payment."""
    p = t.current
    tab = t.claims
    base = p * NUM_KINDS
    pay = t.pay_count
    free = t.free_count
    blocked = t.blocked[p]
    top = tab.top
    # With trains for any track, a coloured block's claims are its row of the table's
    # ``block_counts`` less its blocked tracks (as ``count_claims`` adds them up), so a
    # block before the claim is passed over whole.
    whole = t.trains[p] >= top
    hands = t.hands
    locos = hands[base + LOCO]
    row = (locos if locos < top else top) * tab.size
    rows = t.block_counts
    class_of = tab.class_of
    block_of = tab.block_of
    for c, block in tab.blocks:
        if whole and c < LOCO:
            held = hands[base + c]
            span = rows[c][row + (held if held < top else top)]
            for b in blocked:
                k = class_of[b]
                if block_of[k] == c:
                    span -= pay[base + c][tab.place[k]]
            if i >= span:
                i -= span
                continue
        most = _reach(t, p, c)
        counts = pay[base + c]
        for at, (k, length) in enumerate(block):
            if length > most:
                break
            n = counts[at]
            if not n:
                continue
            span = (free[k] - blocked_in(t, p, k) if blocked else free[k]) * n
            if i >= span:
                i -= span
                continue
            pick = i // n
            j = i - pick * n
            for r in t.free[k]:
                if not blocked or not _holds(blocked, r):
                    if not pick:
                        q, cards = _payment_at(tab, k, t.hands, base, j)
                        return r, q, cards
                    pick -= 1
    raise IndexError("claim index out of range")


def _holds(tracks: tuple[int, ...], r: int) -> bool:
    """Whether ``tracks`` holds ``r`` (a loop: compiled, ``in`` boxes ``r`` to compare)."""
    for x in tracks:  # noqa: SIM110
        if x == r:
            return True
    return False


def track_payments(rs: Ruleset, r: int, hand: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The payments without groups of track ``r`` that ``hand`` (nine counts) holds, in
    listing order; owners and trains aside."""
    ix = index_of(rs)
    locos = hand[LOCO]
    return tuple(
        cards
        for c, n, nl, cards in claim_tables(rs).payments[ix.class_of[r]]
        if nl <= locos and (c < 0 or n <= hand[c])
    )


def _payment_at(
    tab: ClaimTables, k: int, hands: list[int], base: int, j: int
) -> tuple[int, tuple[int, ...]]:
    """The ``j``-th payment of class ``k`` that the hand at ``base`` holds, and its place
    among the class's payments."""
    locos = hands[base + LOCO]
    for q, (c, n, nl, cards) in enumerate(tab.payments[k]):
        if nl <= locos and (c < 0 or n <= hands[base + c]):
            if not j:
                return q, cards
            j -= 1
    raise IndexError("payment index out of range")


# -- applying a claim --------------------------------------------------------------------


def _close(t: Table, r: int) -> None:
    """Take track ``r`` out of its class's free tracks (if it is there)."""
    tab = t.claims
    k = tab.class_of[r]
    routes = t.free[k]
    for at, x in enumerate(routes):
        if x == r:
            t.free[k] = routes[:at] + routes[at + 1 :]
            t.free_count[k] = t.free_count[k] - 1
            c = tab.block_of[k]
            t.sig[c] = t.sig[c] - tab.weight[k]
            if c < LOCO:
                before = t.block_counts[c]
                after = t.block_counts[c] = tab.block_row_closed(c, t.sig[c], before, k)
                _resum(t, c, before, after)
            return


def _resum(t: Table, c: int, before: list[int], after: list[int]) -> None:
    """Bring every seat's ``claim_sum`` from colour ``c``'s row ``before`` to ``after``."""
    tab = t.claims
    top = tab.top
    size = tab.size
    hands = t.hands
    sums = t.claim_sum
    for q in range(t.players):
        base = q * NUM_KINDS
        locos = hands[base + LOCO]
        held = hands[base + c]
        at = (locos if locos < top else top) * size + (held if held < top else top)
        sums[q] = sums[q] + after[at] - before[at]


def complete_claim(t: Table, r: int, cards: tuple[int, ...], revealed: tuple[int, ...]) -> None:
    """Pay, place the trains, score, and close the parallel track as the rules say."""
    p = t.current
    pay_cards(t, p, cards)
    piles.to_discard(t, cards)
    for c in revealed:
        t.discard[c] = t.discard[c] + 1
    owners = t.owners
    owners[r] = p
    t.owners_changed()
    _close(t, r)
    twin = t.route_twin[r]
    if twin >= 0:
        q = owners[twin]
        if q < 0:
            # The claim keeps the parallel track from everyone or from this seat only.
            if t.closes_parallel:
                _close(t, twin)
            else:
                t.blocked[p] = (*t.blocked[p], twin)
        else:
            # The twin's owner kept this track in its blocked list while it was free.
            kept = t.blocked[q]
            if r in kept:
                i = kept.index(r)
                t.blocked[q] = kept[:i] + kept[i + 1 :]
                t.seat_changed(q)
    points = t.route_points[r]
    if t.events is not None:
        t.events.append(
            ev.RouteClaimed(player=p, route=t.ix.route_ids[r], cards=cards, points=points)
        )
    t.trains[p] = t.trains[p] - t.route_len[r]
    t.seat_changed(p)
    t.score_track[p] = t.score_track[p] + points
    piles.refill(t)
    end_turn(t)
