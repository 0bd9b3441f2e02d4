"""The payment-count index: per seat and route class, how many payments its hand affords.

Listing claims needs, for every route class (the tracks that accept the same payments),
how many of its payments the hand of the seat to act holds. Counting them afresh at
every decision would walk every payment of every class; this index keeps the counts
current as hands change instead, so that listing only adds them up.

The model:

* When a ruleset is first played, [`ClaimTables`][] asks
  [`payment_error`][ttr_core.rules.payments.payment_error], once per route class, which payments
  of one colour plus locomotives it accepts (`ClaimTables.payments`, in listing
  order). Per class and card colour, a running sum over the locomotives and the cards of
  the colour held then says how many of them a hand affords. Both counts are clamped to
  the longest track: more cards never allow more payments.
* Route classes are numbered by colour (gray last), then length, so each route colour's
  classes form one block. A coloured block's counts depend only on the locomotives and
  the cards of its colour, so ``rows[c]`` holds them for every such pair. The gray
  block's counts depend on every colour count; they are numbered by clamped hand
  ([`ClaimTables.gray_number`][ttr_core.rules.payment_counts.ClaimTables.gray_number]) and memoised.
* Each seat's counts (``Table.pay_count``: per seat and route colour, the counts of the
  colour's block as a shared tuple, so that a change stores one reference) are kept
  current as its hand changes
  ([`gain_card`][], [`pay_cards`][]): a card of one colour changes the counts of that
  colour's block and of the gray block, a locomotive all of them ([`recount_hand`][]).
* The claims a colour block offers are its free tracks times its counts. Which of its tracks are
  free is the block's *signature*; per signature and hand the coloured blocks' sums are kept
  ([`ClaimTables.block_row`][ttr_core.rules.payment_counts.ClaimTables.block_row]), and
  [`count_claims`][ttr_core.rules.claims.count_claims] reads them (the gray block's sum it
  works out from the seat's gray counts).

The tables depend only on the route classes, so rulesets with the same classes share
them; the memos keyed by hands are each ruleset object's own (see [`claim_tables`][]).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ttr_core.model.cards import GRAY, LOCO, NUM_KINDS
from ttr_core.rules.index import index_of, memos_of
from ttr_core.rules.payments import max_groups, payment_error, payment_size

if TYPE_CHECKING:
    from ttr_core.rules.index import GroupShape
    from ttr_core.rules.table import Table
    from ttr_core.ruleset.ruleset import Ruleset


BLOCK_ROWS_LIMIT: Final = 50_000
"""How many colour-block rows ``ClaimTables.block_rows`` holds before it is emptied."""

GRAY_NEXT_ROOM: Final = 64
"""How many gray numbers ``ClaimTables.gray_next`` makes room for at a time."""


class GroupClass:
    """A route class that takes groups of any cards, as the listing of its claims reads it.

    The numbers of groups a hand can pay it with depend on the hand's size, its
    locomotives (if they may be played as singles) and its cards of the class's colour
    (of the colour held most, for gray), and on none of them beyond the size of the
    largest payment (``bound``): clamped there, they name one of ``cells`` cells.
    """

    def __init__(self, klass: int, color: int, shape: GroupShape, offset: int) -> None:
        self.klass = klass
        self.color = color
        self.length = shape.length
        self.shape = shape
        self.locos_ok = shape.locos_ok
        self.bound = payment_size(shape, max_groups(shape))
        self.side = self.bound + 1
        self.locos_side = self.side if shape.locos_ok else 1
        """How many locomotive counts the cells tell apart."""
        self.size_step = self.locos_side * self.side
        """How far apart the cells of hands one card apart in size are."""
        self.cells = self.side * self.size_step
        self.offset = offset
        """Where its cells start in ``ClaimTables.group_codes``."""

    def cell(self, size: int, locos: int, held: int) -> int:
        """The cell of a hand of ``size`` cards, ``locos`` locomotives and ``held`` cards of
        the colour (in ``ClaimTables.group_codes``)."""
        bound = self.bound
        if size > bound:
            size = bound
        if not self.locos_ok:
            locos = 0
        elif locos > bound:
            locos = bound
        if held > bound:
            held = bound
        return self.offset + size * self.size_step + locos * self.side + held


class ClaimTables:
    """Per route class, the payments [`payment_error`][ttr_core.rules.payments.payment_error]
    accepts, and how many of them a hand affords.

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
        ix = index_of(rs)
        if like is None:
            top = ix.max_route_length
            size = top + 1
            self.top = top
            self.size = size
            self.classes = len(ix.class_keys)
            self.class_len: list[int] = [key.length for key in ix.class_keys]
            self.class_color: list[int] = [key.color for key in ix.class_keys]
            self.payments: list[list[tuple[int, int, int, tuple[int, ...]]]] = []
            part: list[list[list[int]]] = []
            only: list[list[int]] = []
            for k, routes in enumerate(ix.class_routes):
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
            self.widest: int = max([len(found) for found in self.payments], default=0)
            """The most payments of a track class."""
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
                    place *= len(ix.class_routes[k]) + 1
            self.block_of: list[int] = [self.class_color[k] for k in range(self.classes)]
            self.block_rows: dict[int, list[int]] = {}
            """Per (signature, colour), the colour's claim counts by hand (see ``block_row``)."""
            self.colored: list[int] = [c for c in range(LOCO) if self.start[c + 1] > self.start[c]]
            """The card colours that have tracks of their own colour."""
            self.has_gray = self.start[GRAY] < self.classes
            self.digit: list[int] = [NUM_KINDS**n for n in range(size)]
            """Per clamped colour count, what it adds to a symmetric gray key (``gray_key``)."""
            self.digit_span: int = NUM_KINDS**size
            self.place: list[int] = [
                k - self.start[self.class_color[k]] for k in range(self.classes)
            ]
            """Per class, its place in its colour's block (an index into a seat's counts)."""
            self.groups: list[GroupClass] = []
            """The route classes that take groups of any cards (``rs.group_classes`` order)."""
            offset = 0
            for k, color in zip(ix.group_classes, ix.group_class_colors, strict=True):
                group = GroupClass(k, color, ix.group_shapes[k], offset)
                self.groups.append(group)
                offset += group.cells
            self.group_cells = offset
            """How many hands ``group_codes`` holds room for, over all group classes."""
        else:
            self.top = like.top
            self.size = like.size
            self.classes = like.classes
            self.class_len = like.class_len
            self.class_color = like.class_color
            self.payments = like.payments
            self.widest = like.widest
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
            self.digit = like.digit
            self.digit_span = like.digit_span
            self.place = like.place
            self.groups = like.groups
            self.group_cells = like.group_cells
        self.class_of: list[int] = list(ix.class_of)
        """Per track, its route class (the map's own, so not shared with ``like``)."""
        self._memos()

    def _memos(self) -> None:
        """Start the memos keyed by hands, which are the ruleset's own (see ``claim_tables``)."""
        self.gray_ids: dict[int, int] = {}
        """Gray payment counts are numbered by clamped hand (see [`gray_number`][])."""
        self.gray_values: list[tuple[int, ...]] = []
        """The gray payment counts of each number."""
        self.gray_keys: list[int] = []
        """The key (see ``gray_key``) of each number."""
        self.gray_next: list[int] = []
        """Gray numbers after one colour count changes, at ``(number * size + old) * size
        + new``, -1 where not met yet (where gray classes treat every colour alike)."""
        self.gray_loco_next: list[int] = []
        """The same after the locomotive count changes, at ``number * size + new``: the
        old count is the key's leading digit, so the number holds it already."""
        self.group_codes: list[int] = [-1] * self.group_cells
        """The numbers of groups a hand can pay each group class with, at its
        ``GroupClass.offset`` plus the cell of the hand, -1 where not met yet (see
        [`count_group_claims`][ttr_core.rules.card_groups.count_group_claims])."""

    def block_row(self, c: int, sig: int, free: list[int]) -> list[int]:
        """Colour ``c``'s claim counts with its free tracks as ``free`` says (whose
        signature is ``sig``), at ``locos * size + held`` (both clamped)."""
        key = sig * NUM_KINDS + c
        found = self.block_rows.get(key)
        if found is None:
            if len(self.block_rows) >= BLOCK_ROWS_LIMIT:
                self.block_rows.clear()
            lo = self.start[c]
            found = []
            for counts in self.rows[c]:
                n = 0
                for i in range(len(counts)):
                    n += free[lo + i] * counts[i]
                found.append(n)
            self.block_rows[key] = found
        return found

    def block_row_closed(self, c: int, sig: int, before: list[int], k: int) -> list[int]:
        """[`block_row`][] of colour ``c`` for signature ``sig``, reached from the row
        ``before`` by closing one track of class ``k`` (of that colour): each count loses
        the class's payments."""
        key = sig * NUM_KINDS + c
        found = self.block_rows.get(key)
        if found is None:
            if len(self.block_rows) >= BLOCK_ROWS_LIMIT:
                self.block_rows.clear()
            at = self.place[k]
            rows = self.rows[c]
            found = [before[i] - rows[i][at] for i in range(len(rows))]
            self.block_rows[key] = found
        return found

    def gray_number(self, key: int, hand: list[int], base: int) -> int:
        """The number of the gray payment counts of ``key`` (see ``gray_key``), for
        the nine counts of ``hand`` from ``base`` on (clamped here).

        Numbers are never reused; there are at most as many as (locomotives, multiset of
        colour counts) pairs, so the table stays bounded.
        """
        found = self.gray_ids.get(key)
        if found is None:
            top = self.top
            held = [n if n < top else top for n in hand[base : base + NUM_KINDS]]
            row = held[LOCO] * self.size
            values: list[int] = []
            for g, tables in enumerate(self.gray_part):
                n = self.gray_only[g][row]
                for c in range(LOCO):
                    n += tables[c][row + held[c]]
                values.append(n)
            found = self._number(key, tuple(values))
        return found

    def gray_shifted(self, gid: int, c: int, old: int, new: int, row: int) -> int:
        """The number of the gray payment counts of a hand with the counts ``gid`` once
        its cards of colour ``c`` go from ``old`` to ``new`` (both clamped), where gray
        classes treat every colour alike; ``row`` is its clamped locomotives times
        ``size``. Key and counts change by colour ``c``'s part alone, so neither is
        worked out from the whole hand again."""
        digit = self.digit
        key = self.gray_keys[gid] - digit[old] + digit[new]
        found = self.gray_ids.get(key)
        if found is None:
            before = self.gray_values[gid]
            values: list[int] = []
            for g, tables in enumerate(self.gray_part):
                part = tables[c]
                values.append(before[g] - part[row + old] + part[row + new])
            found = self._number(key, tuple(values))
        return found

    def _number(self, key: int, values: tuple[int, ...]) -> int:
        """Number the new gray payment counts ``values`` of ``key``."""
        found = self.gray_ids[key] = len(self.gray_values)
        self.gray_values.append(values)
        self.gray_keys.append(key)
        if self.gray_symmetric:
            span = self.size * self.size
            if len(self.gray_next) < (found + 1) * span:
                # Room for the next numbers too: lists grown now and then, not each time.
                self.gray_next.extend([-1] * (span * GRAY_NEXT_ROOM))
                self.gray_loco_next.extend([-1] * (self.size * GRAY_NEXT_ROOM))
        return found


def gray_key(tab: ClaimTables, hand: list[int], base: int) -> int:
    """The key of the gray payment counts of the nine counts of ``hand`` from ``base`` on.

    Counts are clamped to the longest track. Where gray classes treat every colour alike,
    only the multiset of colour counts matters: a colour holding ``n`` cards adds
    ``NUM_KINDS ** n`` (``tab.digit[n]``), and as at most eight colours share a count
    these base-9 digits never carry, so the sum names the multiset without a sort. Else
    the counts are the digits of a number in base ``size``, locomotives first.
    """
    top = tab.top
    size = tab.size
    locos = hand[base + LOCO]
    key = locos if locos < top else top
    if tab.gray_symmetric:
        digit = tab.digit
        key *= tab.digit_span
        for c in range(LOCO):
            n = hand[base + c]
            key += digit[n if n < top else top]
        return key
    for c in range(LOCO):
        n = hand[base + c]
        key = key * size + (n if n < top else top)
    return key


def _affordable(size: int, payments: list[tuple[int, int]]) -> list[int]:
    """For each (locomotives, cards) held, how many of ``payments`` (cards of the colour,
    locomotives) the hand affords: a 2-D running sum, flat at ``locos * size + held``."""
    table = [0] * (size * size)
    for n, nl in payments:
        table[nl * size + n] = table[nl * size + n] + 1
    for locos in range(size):
        row = locos * size
        for held in range(1, size):
            table[row + held] = table[row + held] + table[row + held - 1]
        if locos:
            for held in range(size):
                table[row + held] = table[row + held] + table[row - size + held]
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
    memos = memos_of(rs)
    tables: ClaimTables | None = memos.claim_tables
    if tables is None:
        ix = index_of(rs)
        key = (ix.class_keys, ix.max_route_length)
        shared = _BUILT.get(key)
        if shared is None:
            if len(_BUILT) >= MAX_SHARED_TABLES:
                _BUILT.clear()
            shared = _BUILT[key] = ClaimTables(rs)
        tables = memos.claim_tables = ClaimTables(rs, shared)
    return tables


# -- payment counts, kept current as hands change ----------------------------------------


def recount_hand(t: Table, p: int) -> None:
    """Recompute every payment count of seat ``p`` from its hand."""
    _recount_colored(t, p)
    tab = t.claims
    if tab.has_gray:
        hands = t.hands
        base = p * NUM_KINDS
        _set_gray(t, p, tab.gray_number(gray_key(tab, hands, base), hands, base))


def copy_hand_counts(src: Table, dst: Table, p: int) -> None:
    """Give ``dst`` seat ``p``'s payment counts from ``src``, whose seat ``p`` holds the
    same hand and whose colour blocks' claim counts are the same: what [`recount_hand`][]
    of ``dst`` makes, without counting again (as a seat's view of a position is brought
    up to date). The gray counts are numbered in ``dst``'s own memo, which so learns that
    hand and no other, as it would by counting."""
    tab = dst.claims
    had = src.claims
    if had.rows is not tab.rows:  # tables not shared: nothing to take over
        recount_hand(dst, p)
        return
    base = p * NUM_KINDS
    pay = dst.pay_count
    held = src.pay_count
    for c in tab.colored:
        pay[base + c] = held[base + c]
    dst.claim_sum[p] = src.claim_sum[p]
    if tab.has_gray:
        g = src.gray_id[p]
        key = had.gray_keys[g]
        found = tab.gray_ids.get(key)
        if found is None:
            found = tab._number(key, had.gray_values[g])
        _set_gray(dst, p, found)


def _recount_colored(t: Table, p: int) -> None:
    """Recompute seat ``p``'s payment counts of the coloured blocks and its ``claim_sum``."""
    tab = t.claims
    top = tab.top
    base = p * NUM_KINDS
    hands = t.hands
    locos = hands[base + LOCO]
    row = (locos if locos < top else top) * tab.size
    pay = t.pay_count
    rows = tab.rows
    counts = t.block_counts
    colored = 0
    for c in tab.colored:
        held = hands[base + c]
        at = row + (held if held < top else top)
        pay[base + c] = rows[c][at]
        colored += counts[c][at]
    t.claim_sum[p] = colored


def _shift_locos(t: Table, p: int, old: int, new: int) -> None:
    """Seat ``p`` went from ``old`` to ``new`` locomotives: update its counts."""
    tab = t.claims
    top = tab.top
    if old > top:
        old = top
    if new > top:
        new = top
    if old == new:
        return
    _recount_colored(t, p)
    if not tab.has_gray:
        return
    hands = t.hands
    base = p * NUM_KINDS
    if tab.gray_symmetric:
        # The locomotives are the key's leading digit (see ``gray_key``).
        size = tab.size
        gid = t.gray_id[p]
        at = gid * size + new
        found = tab.gray_loco_next[at]
        if found < 0:
            key = tab.gray_keys[gid] + (new - old) * tab.digit_span
            found = tab.gray_loco_next[at] = tab.gray_number(key, hands, base)
        _set_gray(t, p, found)
        return
    _set_gray(t, p, tab.gray_number(gray_key(tab, hands, base), hands, base))


def _set_gray(t: Table, p: int, gid: int) -> None:
    """Set seat ``p``'s gray payment counts to those numbered ``gid``."""
    t.gray_id[p] = gid
    t.pay_count[p * NUM_KINDS + GRAY] = t.claims.gray_values[gid]


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
    hands = t.hands
    if tab.start[c + 1] > tab.start[c]:
        locos = hands[base + LOCO]
        row = (locos if locos < top else top) * tab.size
        t.pay_count[base + c] = tab.rows[c][row + new]
        counts = t.block_counts[c]
        t.claim_sum[p] = t.claim_sum[p] + counts[row + new] - counts[row + old]
    if not tab.has_gray:
        return
    if tab.gray_symmetric:
        # The gray counts depend on the multiset of colour counts: one moves old -> new.
        size = tab.size
        gid = t.gray_id[p]
        at = (gid * size + old) * size + new
        found = tab.gray_next[at]
        if found < 0:
            locos = hands[base + LOCO]
            row = (locos if locos < top else top) * size
            found = tab.gray_next[at] = tab.gray_shifted(gid, c, old, new, row)
        _set_gray(t, p, found)
        return
    _set_gray(t, p, tab.gray_number(gray_key(tab, hands, base), hands, base))


def gain_card(t: Table, p: int, card: int) -> None:
    """Add one card to seat ``p``'s hand."""
    i = p * NUM_KINDS + card
    hands = t.hands
    old = hands[i]
    hands[i] = old + 1
    t.seat_changed(p)
    if card == LOCO:
        _shift_locos(t, p, old, old + 1)
    elif old < t.claims.top:
        _shift(t, p, card, old, old + 1)


def pay_cards(t: Table, p: int, cards: tuple[int, ...]) -> None:
    """Take nine counts of cards out of seat ``p``'s hand."""
    t.seat_changed(p)
    base = p * NUM_KINDS
    hands = t.hands
    if cards[LOCO]:
        for k in range(NUM_KINDS):
            hands[base + k] = hands[base + k] - cards[k]
        recount_hand(t, p)
        return
    for c in range(LOCO):
        n = cards[c]
        if n:
            old = hands[base + c]
            hands[base + c] = old - n
            _shift(t, p, c, old, old - n)
