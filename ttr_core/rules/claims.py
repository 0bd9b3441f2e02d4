"""Claiming a track: which cards pay for it, who may claim it, and what a claim does.

:func:`payment_error` is the one definition of a valid payment without card groups
(CLAIM-1 to CLAIM-4, FERRY-2). When a ruleset is built, :class:`ClaimTables` asks it,
once per route class, which payments of one colour plus locomotives it accepts; the
listing then counts and indexes claims from those tables. Who may claim a track is
:func:`open_to` (CLAIM-8, DOUBLE-1, DOUBLE-2) plus enough trains (CLAIM-7).

Every seat's payment counts per route class are kept current as its hand changes: a
card of one colour changes the classes of that colour and the gray ones, a locomotive
all of them. Listing claims walks each route colour's classes from the shortest and
stops at the first one the player cannot pay for (its length is more than the
colour's cards plus locomotives, or more than the player's trains).

Listing order: route colours in card order, gray last; within a colour, classes by
length; within a class, tracks in map order; per track, the payments of
:attr:`ClaimTables.payments` that the hand holds (all locomotives first, then each
colour in card order, the most coloured cards first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeGuard

from ttr_core.model import events as ev
from ttr_core.model.cards import CARD_NAMES, GRAY, LOCO, NUM_KINDS, describe
from ttr_core.model.errors import IllegalActionError, quote
from ttr_core.model.native import is_compiled
from ttr_core.rules import piles
from ttr_core.rules.table import TURN, Table
from ttr_core.rules.turn import end_turn

if TYPE_CHECKING:
    from ttr_core.ruleset.ruleset import Ruleset


def is_counts(cards: object) -> TypeGuard[tuple[int, ...]]:
    """Whether ``cards`` is a payment: a tuple of nine non-negative integers (not bools)."""
    return (
        type(cards) is tuple
        and len(cards) == NUM_KINDS
        and set(map(type, cards)) == {int}
        and min(cards) >= 0
    )


def payment_error(rs: Ruleset, r: int, cards: object) -> tuple[str, str] | None:
    """Why ``cards`` cannot pay for track ``r``, as ``(rule id, message)``; None if they can."""
    length = rs.route_len[r]
    if not is_counts(cards):
        return "CLAIM-1", "a payment is a tuple of nine card counts"
    if sum(cards) != length:
        return "CLAIM-1", f"the track has {length} spaces but {sum(cards)} cards were paid"
    colored = cards[:LOCO]
    used = LOCO - colored.count(0)
    if used > 1:
        return "CLAIM-4", "a payment may not mix colours"
    route_color = rs.route_color[r]
    if used and route_color != GRAY and not colored[route_color]:
        paid = colored.index(max(colored))
        return (
            "CLAIM-2",
            f"the track is {CARD_NAMES[route_color]} but {CARD_NAMES[paid]} cards were paid",
        )
    locos = cards[LOCO]
    if locos and not rs.route_locos_ok[r]:
        return "CLAIM-3", "locomotives cannot be played on this track in this edition"
    ferry = rs.route_ferry[r]
    if locos < ferry:
        return "FERRY-2", f"the ferry needs at least {ferry} locomotives"
    return None


class ClaimTables:
    """Per route class, the payments :func:`payment_error` accepts, and their counts.

    Route classes are numbered by colour (gray last), then length, so each colour's
    classes form one block, ``start[c]`` to ``start[c + 1]``. ``payments[k]`` lists the
    payments of class ``k`` as ``(colour, coloured cards, locomotives, nine counts)``,
    colour -1 for locomotives only. ``rows[c][locos * size + held]`` gives the payment
    counts of colour ``c``'s block for a hand holding that many locomotives and cards
    of ``c`` (both clamped to the longest track); ``gray_part[g][c]`` gives, the same
    way, what colour ``c`` adds to the ``g``-th gray class.
    """

    def __init__(self, rs: Ruleset, like: ClaimTables | None = None) -> None:
        """The tables of ``rs``; with ``like``, built for the same route classes, its
        tables are shared and only the memos keyed by hands start empty."""
        if like is None:
            top = rs.max_route_length
            size = top + 1
            self.top = top
            self.size = size
            self.classes = len(rs.class_keys)
            self.class_len: list[int] = [key.length for key in rs.class_keys]
            self.class_color: list[int] = [key.color for key in rs.class_keys]
            self.payments: list[list[tuple[int, int, int, tuple[int, ...]]]] = []
            part: list[list[list[int]]] = []
            only: list[list[int]] = []
            for k, routes in enumerate(rs.class_routes):
                length = self.class_len[k]
                found: list[tuple[int, int, int, tuple[int, ...]]] = []
                candidates = [(-1, 0)] + [(c, n) for c in range(LOCO) for n in range(length, 0, -1)]
                for c, n in candidates:
                    cards = [0] * NUM_KINDS
                    if c >= 0:
                        cards[c] = n
                    cards[LOCO] = length - n
                    if payment_error(rs, routes[0], tuple(cards)) is None:
                        found.append((c, n, length - n, tuple(cards)))
                self.payments.append(found)
                part.append(
                    [
                        _affordable(size, [(n, nl) for pc, n, nl, _ in found if pc == c])
                        for c in range(LOCO)
                    ]
                )
                only.append(_affordable(size, [(0, nl) for pc, _, nl, _ in found if pc < 0]))
            self.start: list[int] = [
                sum(1 for c in self.class_color if c < color) for color in range(NUM_KINDS + 1)
            ]
            """Where each route colour's block of classes starts (and, at 9, where all end)."""
            self.blocks: list[tuple[int, list[tuple[int, int]]]] = [
                (c, [(k, self.class_len[k]) for k in range(self.start[c], self.start[c + 1])])
                for c in range(NUM_KINDS)
                if self.start[c + 1] > self.start[c]
            ]
            """Per route colour that has tracks, its classes as (class, length), shortest first."""
            self.within: list[list[int]] = [
                [1 if length <= trains else 0 for length in self.class_len]
                for trains in range(size)
            ]
            """Per number of trains (up to the longest track), 1 for the classes it can cover."""
            self.rows: list[list[tuple[int, ...]]] = []
            for c in range(LOCO):
                block = range(self.start[c], self.start[c + 1])
                self.rows.append(
                    [tuple(only[k][i] + part[k][c][i] for k in block) for i in range(size * size)]
                )
            gray = range(self.start[GRAY], self.classes)
            self.gray_part: list[list[list[int]]] = [part[k] for k in gray]
            self.gray_only: list[list[int]] = [only[k] for k in gray]
            self.gray_symmetric = all(
                table == tables[0] for tables in self.gray_part for table in tables
            )
            """Whether gray classes treat every colour alike (then sorted hands share counts)."""
            self.weight: list[int] = [0] * self.classes
            """Per class, its place value in its colour block's signature (see ``Table.sig``)."""
            for c in range(NUM_KINDS):
                place = 1
                for k in range(self.start[c], self.start[c + 1]):
                    self.weight[k] = place
                    place *= len(rs.class_routes[k]) + 1
            self.block_of: list[int] = [self.class_color[k] for k in range(self.classes)]
            self.block_rows: dict[int, list[int]] = {}
            """Per (signature, colour), the colour's claim counts by hand (see ``block_row``)."""
            self.colored: list[int] = [c for c in range(LOCO) if self.start[c + 1] > self.start[c]]
            """The card colours that have tracks of their own colour."""
            self.has_gray = self.start[GRAY] < self.classes
        else:
            self.top = like.top
            self.size = like.size
            self.classes = like.classes
            self.class_len = like.class_len
            self.class_color = like.class_color
            self.payments = like.payments
            self.start = like.start
            self.blocks = like.blocks
            self.within = like.within
            self.rows = like.rows
            self.gray_part = like.gray_part
            self.gray_only = like.gray_only
            self.gray_symmetric = like.gray_symmetric
            self.weight = like.weight
            self.block_of = like.block_of
            self.block_rows = like.block_rows
            self.colored = like.colored
            self.has_gray = like.has_gray
        self._memos()

    def _memos(self) -> None:
        """Start the memos keyed by hands, which are the ruleset's own (see ``claim_tables``)."""
        self.gray_ids: dict[int, int] = {}
        """Gray payment counts are numbered by clamped hand (see :meth:`gray_lookup`)."""
        self.gray_values: list[tuple[int, ...]] = []
        """The gray payment counts of each number."""
        self.gray_next: dict[int, int] = {}
        """Gray numbers after one colour count changes, at ``(number * size + old) * size
        + new`` (where gray classes treat every colour alike)."""
        self.count_memo: dict[int, int] = {}
        """The gray block's claim count by (signature, gray number)."""

    def block_row(self, c: int, sig: int, free: list[int]) -> list[int]:
        """Colour ``c``'s claim counts with its free tracks as ``free`` says (whose
        signature is ``sig``), at ``locos * size + held`` (both clamped)."""
        key = sig * NUM_KINDS + c
        found = self.block_rows.get(key)
        if found is None:
            if len(self.block_rows) >= 50_000:
                self.block_rows.clear()
            lo = self.start[c]
            found = self.block_rows[key] = [
                sum(free[lo + i] * per for i, per in enumerate(counts)) for counts in self.rows[c]
            ]
        return found

    def gray_lookup(self, held: list[int]) -> int:
        """The number of the gray payment counts for clamped hand counts ``held``.

        Numbers are never reused; there are at most as many as (locomotives, multiset of
        colour counts) pairs, so the table stays bounded.
        """
        locos = held[LOCO]
        colours = sorted(held[:LOCO]) if self.gray_symmetric else held[:LOCO]
        size = self.size
        key = locos  # the counts as the digits of a number in base ``size`` (top + 1)
        for n in colours:
            key = key * size + n
        found = self.gray_ids.get(key)
        if found is None:
            row = locos * self.size
            values = tuple(
                only[row] + sum(tables[c][row + held[c]] for c in range(LOCO))
                for tables, only in zip(self.gray_part, self.gray_only, strict=True)
            )
            found = self.gray_ids[key] = len(self.gray_values)
            self.gray_values.append(values)
        return found


def _affordable(size: int, payments: list[tuple[int, int]]) -> list[int]:
    """For each (locomotives, cards) held, how many of ``payments`` (cards of the colour,
    locomotives) the hand affords: a 2-D running sum, flat at ``locos * size + held``."""
    table = [0] * (size * size)
    for n, nl in payments:
        table[nl * size + n] += 1
    for locos in range(size):
        row = locos * size
        for held in range(1, size):
            table[row + held] += table[row + held - 1]
        if locos:
            for held in range(size):
                table[row + held] += table[row - size + held]
    return table


MAX_SHARED_TABLES: Final = 64
"""How many sets of route classes keep their shared claim tables before all are rebuilt."""

_BUILT: dict[tuple[Any, ...], ClaimTables] = {}
"""The shared claim tables, by route classes; their memos keyed by hands stay empty."""


def claim_tables(rs: Ruleset) -> ClaimTables:
    """The claim tables of ``rs``, built on first use.

    They depend only on the route classes (which decide what ``payment_error`` accepts),
    so rulesets with the same classes share them; but the memos keyed by hands are each
    ruleset object's own, so a ruleset given to a bot holds no hand the bot has not seen
    (see ``Ruleset.private_copy``).
    """
    tables: ClaimTables | None = rs.claim_tables
    if tables is None:
        key = (rs.class_keys, rs.max_route_length)
        shared = _BUILT.get(key)
        if shared is None:
            if len(_BUILT) >= MAX_SHARED_TABLES:
                _BUILT.clear()
            shared = _BUILT[key] = ClaimTables(rs)
        tables = rs.claim_tables = ClaimTables(rs, shared)
    return tables


# -- payment counts, kept current as hands change ----------------------------------------


def recount_hand(t: Table, p: int) -> None:
    """Recompute every payment count of seat ``p`` from its hand."""
    tab = t.claims
    top = tab.top
    base = p * NUM_KINDS
    held = [n if n < top else top for n in t.hands[base : base + NUM_KINDS]]
    row = held[LOCO] * tab.size
    pay = t.pay_count
    pb = p * tab.classes
    start = tab.start
    for c in tab.colored:
        _put(pay, pb + start[c], tab.rows[c][row + held[c]])
    if tab.has_gray:
        _set_gray(t, p, held)


def _put(pay: list[int], at: int, counts: tuple[int, ...]) -> None:
    """Write ``counts`` into ``pay`` from index ``at`` on.

    Compiled, a loop stores machine integers where a slice assignment would build a
    slice object and set items generically; in plain Python the slice is faster.
    """
    if _COMPILED:
        for n in counts:
            pay[at] = n
            at += 1
    else:
        pay[at : at + len(counts)] = counts


_COMPILED: Final = is_compiled(__file__)


def _set_gray(t: Table, p: int, held: list[int]) -> None:
    """Set seat ``p``'s gray payment counts for its clamped hand counts ``held``."""
    tab = t.claims
    gid = tab.gray_lookup(held)
    t.gray_id[p] = gid
    pb = p * tab.classes
    _put(t.pay_count, pb + tab.start[GRAY], tab.gray_values[gid])


def _shift(t: Table, p: int, c: int, old: int, new: int) -> None:
    """Seat ``p`` went from ``old`` to ``new`` cards of colour ``c``: update its counts."""
    tab = t.claims
    top = tab.top
    if old > top:
        old = top
    if new > top:
        new = top
    if old == new:
        return
    base = p * NUM_KINDS
    locos = t.hands[base + LOCO]
    if locos > top:
        locos = top
    lo, hi = tab.start[c], tab.start[c + 1]
    if hi > lo:
        pb = p * tab.classes
        _put(t.pay_count, pb + lo, tab.rows[c][locos * tab.size + new])
    if not tab.has_gray:
        return
    if tab.gray_symmetric:
        # The gray counts depend on the multiset of colour counts: one moves old -> new.
        size = tab.size
        key = (t.gray_id[p] * size + old) * size + new
        gid = tab.gray_next.get(key)
        if gid is not None:
            t.gray_id[p] = gid
            pb = p * tab.classes
            _put(t.pay_count, pb + tab.start[GRAY], tab.gray_values[gid])
            return
        held = [n if n < top else top for n in t.hands[base : base + NUM_KINDS]]
        _set_gray(t, p, held)
        tab.gray_next[key] = t.gray_id[p]
        return
    _set_gray(t, p, [n if n < top else top for n in t.hands[base : base + NUM_KINDS]])


def gain_card(t: Table, p: int, card: int) -> None:
    """Add one card to seat ``p``'s hand."""
    i = p * NUM_KINDS + card
    old = t.hands[i]
    t.hands[i] = old + 1
    t.seat_changed(p)
    if card == LOCO:
        recount_hand(t, p)
    elif old < t.claims.top:
        _shift(t, p, card, old, old + 1)


def pay_cards(t: Table, p: int, cards: tuple[int, ...]) -> None:
    """Take nine counts of cards out of seat ``p``'s hand."""
    t.seat_changed(p)
    base = p * NUM_KINDS
    hands = t.hands
    if cards[LOCO]:
        for k in range(NUM_KINDS):
            hands[base + k] -= cards[k]
        recount_hand(t, p)
        return
    for c in range(LOCO):
        n = cards[c]
        if n:
            old = hands[base + c]
            hands[base + c] = old - n
            _shift(t, p, c, old, old - n)


# -- who may claim a track ---------------------------------------------------------------


def blocked_in(t: Table, p: int, k: int) -> int:
    """How many tracks of route class ``k`` seat ``p`` may not claim as parallels of its own."""
    blocked = t.blocked[p]
    if not blocked:
        return 0
    class_of = t.rs.class_of
    return sum(1 for b in blocked if class_of[b] == k)


def open_to(t: Table, r: int, p: int) -> bool:
    """Whether seat ``p`` may claim track ``r`` as far as owners go (trains aside): it is
    free (unclaimed and not closed) and not the parallel of one of ``p``'s tracks."""
    return r in t.free[t.rs.class_of[r]] and r not in t.blocked[p]


def track_error(t: Table, route: object) -> tuple[int, tuple[str, str] | None]:
    """The index of track id ``route`` and why the current seat may not claim it now."""
    rs = t.rs
    if t.phase != TURN:
        return -1, ("TURN-1", "a route can only be claimed as the turn's action")
    r = rs.route_index.get(route, -1) if type(route) is int else -1
    if r < 0:
        return -1, ("CLAIM-1", f"there is no track with id {quote(route)}")
    p = t.current
    owner = t.owners[r]
    twin = rs.route_twin[r]
    if owner >= 0:
        return r, ("CLAIM-8", f"{rs.route_name(r)} is already claimed")
    if (twin >= 0 and t.owners[twin] == p) or (not open_to(t, r, p) and r in t.blocked[p]):
        return r, ("DOUBLE-1", f"you own the parallel track of {rs.route_name(r)}")
    if not open_to(t, r, p):
        return r, (
            "DOUBLE-2",
            f"{rs.route_name(r)} is closed: its parallel track is claimed and fewer than "
            f"{rs.double_open_min} players are playing",
        )
    trains = t.trains[p]
    if trains < rs.route_len[r]:
        return r, (
            "CLAIM-7",
            f"{rs.route_name(r)} needs {rs.route_len[r]} trains, you have {trains}",
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
        from ttr_core.rules.card_groups import fits, route_shape

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
    """The track index of a listed claim; raise :class:`IllegalActionError` otherwise."""
    r, why = claim_error(t, route, cards)
    if why is not None:
        raise IllegalActionError(*why)
    return r


# -- listing -----------------------------------------------------------------------------


def _reach(t: Table, p: int) -> list[int]:
    """Per route colour (gray last), the longest track seat ``p`` might pay for: cards of
    the colour (for gray, of the colour held most) plus locomotives, at most its trains."""
    base = p * NUM_KINDS
    reach = t.hands[base : base + NUM_KINDS]
    locos = reach[LOCO]
    reach[LOCO] = max(reach[:LOCO])
    trains = t.trains[p]
    return [n + locos if n + locos < trains else trains for n in reach]


def count_claims(t: Table) -> int:
    """How many claims (track and payment, without card groups) are legal now.

    Each class contributes its open tracks times the payments the hand affords. A
    colour's classes together depend only on which of its tracks are free (the block's
    signature), the locomotives and the cards of that colour held: the table keeps, per
    colour, those sums for its current signature, indexed by the hand. The gray classes'
    sum is memoised on the signature and the hand's gray counts. With fewer trains than
    the longest track, the classes are walked instead.
    """
    p = t.current
    tab = t.claims
    top = tab.top
    if t.trains[p] < top:
        return _walk_count(t, p)
    base = p * NUM_KINDS
    hands = t.hands
    locos = hands[base + LOCO]
    row = (locos if locos < top else top) * tab.size
    rows = t.block_counts
    total = 0
    for c in tab.colored:
        held = hands[base + c]
        total += rows[c][row + (held if held < top else top)]
    sig = t.sig
    memo = tab.count_memo
    if tab.has_gray:
        key = (sig[GRAY] << 24 | t.gray_id[p]) * NUM_KINDS + GRAY
        n = memo.get(key)
        if n is None:
            n = _memo_block(t, key, tab.gray_values[t.gray_id[p]], tab.start[GRAY])
        total += n
    if t.blocked[p]:
        pb = p * tab.classes
        class_of = t.rs.class_of
        for b in t.blocked[p]:
            total -= t.pay_count[pb + class_of[b]]
    return total


def _memo_block(t: Table, key: int, counts: tuple[int, ...], lo: int) -> int:
    """A colour block's claim count: its classes' free tracks times ``counts``."""
    memo = t.claims.count_memo
    if len(memo) >= 500_000:
        memo.clear()
    free = t.free_count
    n = 0
    for i, per in enumerate(counts):
        if per:
            n += free[lo + i] * per
    memo[key] = n
    return n


def _walk_count(t: Table, p: int) -> int:
    """``count_claims`` by walking each colour's classes from the shortest, stopping at
    the first one too long for the cards or the trains."""
    tab = t.claims
    pb = p * tab.classes
    pay = t.pay_count
    free = t.free_count
    reach = _reach(t, p)
    total = 0
    for c, block in tab.blocks:
        most = reach[c]
        for k, length in block:
            if length > most:
                break
            n = pay[pb + k]
            if n:
                total += (free[k] - blocked_in(t, p, k)) * n
    return total


def claim_at(t: Table, i: int) -> tuple[int, tuple[int, ...]]:
    """The ``i``-th legal claim as (track index, payment), in listing order."""
    p = t.current
    tab = t.claims
    pb = p * tab.classes
    pay = t.pay_count
    free = t.free_count
    reach = _reach(t, p)
    blocked = t.blocked[p]
    for c, block in tab.blocks:
        most = reach[c]
        for k, length in block:
            if length > most:
                break
            n = pay[pb + k]
            if not n:
                continue
            span = (free[k] - blocked_in(t, p, k) if blocked else free[k]) * n
            if i >= span:
                i -= span
                continue
            pick, j = divmod(i, n)
            for r in t.free[k]:
                if r not in blocked:
                    if not pick:
                        return r, _payment_at(tab, k, t.hands, p * NUM_KINDS, j)
                    pick -= 1
    raise IndexError("claim index out of range")


def _payment_at(tab: ClaimTables, k: int, hands: list[int], base: int, j: int) -> tuple[int, ...]:
    locos = hands[base + LOCO]
    for c, n, nl, cards in tab.payments[k]:
        if nl <= locos and (c < 0 or n <= hands[base + c]):
            if not j:
                return cards
            j -= 1
    raise IndexError("payment index out of range")


# -- applying a claim --------------------------------------------------------------------


def _close(t: Table, r: int) -> None:
    """Take track ``r`` out of its class's free tracks (if it is there)."""
    k = t.rs.class_of[r]
    routes = t.free[k]
    if r in routes:
        i = routes.index(r)
        t.free[k] = routes[:i] + routes[i + 1 :]
        t.free_count[k] -= 1
        tab = t.claims
        c = tab.block_of[k]
        t.sig[c] -= tab.weight[k]
        if c < LOCO:
            t.block_counts[c] = tab.block_row(c, t.sig[c], t.free_count)


def complete_claim(t: Table, r: int, cards: tuple[int, ...], revealed: tuple[int, ...]) -> None:
    """Pay, place the trains, score, and close the parallel track as the rules say."""
    rs = t.rs
    p = t.current
    pay_cards(t, p, cards)
    piles.to_discard(t, cards)
    for c in revealed:
        t.discard[c] += 1
    owners = t.owners
    owners[r] = p
    t.owners_changed()
    _close(t, r)
    twin = rs.route_twin[r]
    if twin >= 0:
        if t.players < rs.double_open_min:
            _close(t, twin)
        elif owners[twin] < 0:
            t.blocked[p] = (*t.blocked[p], twin)
        else:
            # The twin's owner kept this track in its blocked list while it was free.
            q = owners[twin]
            kept = t.blocked[q]
            if r in kept:
                i = kept.index(r)
                t.blocked[q] = kept[:i] + kept[i + 1 :]
                t.seat_changed(q)
    points = rs.route_points[r]
    if t.events is not None:
        t.events.append(
            ev.RouteClaimed(player=p, route=rs.route_ids[r], cards=cards, points=points)
        )
    t.trains[p] -= rs.route_len[r]
    t.seat_changed(p)
    t.score_track[p] += points
    piles.refill(t)
    end_turn(t)
