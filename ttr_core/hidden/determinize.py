"""Hidden states sampled from a view: the determinisation step of search over hidden cards.

A seat's [`PlayerView`][ttr_core.rules.views.PlayerView] leaves out the other players' cards,
tickets and ticket offers, the order of both decks and the random generator.
[`sample_state`][] fills them in at random, so that a search can play on a full
[`GameState`][ttr_core.model.state.GameState] that gives the seat exactly its view.

What is drawn, and how:

* The unseen train cards (the deck's composition less the viewer's hand, the display,
  the discard pile and a tunnel's turned-over cards) are shuffled and dealt into the
  opponents' hands (their sizes are public) and the deck. Cards laid down for a pending
  tunnel or chosen for a payment with groups are public, so they stay in their owner's
  hand.
* The unseen tickets (every ticket less the viewer's own and those offered to it) are
  dealt to the opponents' kept tickets, their opening offers, the tickets they drew and
  are choosing from, and the ticket deck; what is left over is out of the game (returned
  where the edition removes returned tickets, or never dealt, as Europe's spare long
  tickets). Each pile keeps its own tickets: an opening offer holds exactly the long
  tickets it was dealt, and long tickets reach the ticket deck only where returned
  opening tickets go back under it.
* Every assignment of the unseen cards and tickets to these places that the view allows
  is equally likely. Where the view leaves a number open (how many long tickets an
  opponent kept, how many tickets an opponent drew from a deck that is now empty), it is
  drawn in proportion to the assignments it allows. When an opponent is choosing the
  cards of a payment with groups, only hands that can complete the payment are drawn:
  the cards are drawn again, and where such hands are rare, one of them is drawn from all
  of them counted out, each in proportion to the ways the unseen cards deal it.
* The generator state is drawn afresh, so a search cannot learn future reshuffles.

The view does not say how many players passed in a row, so the state counts no passes
(a game over in deadlock counts a full round). Only ``rng.random()`` is called, which
Python keeps identical across versions, so a seeded generator gives the same sample
everywhere.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from attrs import evolve, frozen

from ttr_core.hidden.view_check import validate_view
from ttr_core.model import rng as ttr_rng
from ttr_core.model.cards import NUM_KINDS
from ttr_core.model.errors import ViewError
from ttr_core.model.state import CardChoice, GameState, Phase, PlayerState, TunnelAttempt
from ttr_core.rules.card_groups import choosable
from ttr_core.rules.double_routes import blocked_tracks, free_tracks
from ttr_core.rules.index import index_of
from ttr_core.rules.payments import route_shape
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

__all__ = ["StateSampler", "known_state", "sample_state"]

_REDRAWS = 200
"""How many times the hidden cards are drawn again, when an opponent is choosing the
cards of a payment with groups, before the completing hands are counted out instead."""
_MOST_COUNTED = 100_000
"""The most possible hands of that opponent that are counted out."""

_REGULAR = 0
_LONG = 1


@frozen
class _Slots:
    """Hidden ticket places of one kind: ``size`` places that take tickets of ``piles``.

    ``most_long`` bounds how many of them may hold long tickets.
    """

    place: str
    size: int
    piles: tuple[int, ...]
    most_long: int


@frozen
class _Reading:
    """What a view says, checked against the ruleset and worked out into state parts."""

    start_player: int
    free: tuple[tuple[int, ...], ...]
    blocked: tuple[tuple[int, ...], ...]
    tunnel: TunnelAttempt | None
    choice: CardChoice | None
    fixed: tuple[tuple[int, ...], ...]
    """Per seat, the cards known to be in its hand (all of the viewer's)."""
    unseen_cards: tuple[int, ...]
    """Nine counts of the train cards the viewer cannot place."""
    my_tickets: tuple[int, ...]
    my_offer: tuple[int, ...]
    unseen_tickets: tuple[tuple[int, ...], tuple[int, ...]]
    """Regular and long ticket indices the viewer cannot place."""
    waiting: tuple[int, ...]
    """Opponents dealt opening tickets and not yet choosing from them."""


def sample_state(ruleset: Ruleset, view: PlayerView, rng: random.Random) -> GameState:
    """A complete state consistent with ``view``, its hidden parts drawn with ``rng``.

    ``view_of(ruleset, state, view.seat) == view`` holds for the state returned; see the
    module documentation for what is drawn and how. To draw many states from one view,
    a [`StateSampler`][] reads the view once.

    :raises ViewError: the view does not belong to ``ruleset``: no position of its game
        shows it (see [`validate_view`][ttr_core.hidden.view_check.validate_view]), or its ticket
        counts fit no deal of the unseen tickets; the message gives the path of the field.
    """
    return StateSampler(ruleset, view).sample(rng)


class StateSampler:
    """Draws states consistent with one view, as [`sample_state`][] does; the view is
    read and checked once, when the sampler is made.

    :raises ViewError: as [`sample_state`][].
    """

    def __init__(self, ruleset: Ruleset, view: PlayerView) -> None:
        self.ruleset = ruleset
        self.view = view
        self._reading = _read(ruleset, view)
        self._options = _ticket_options(ruleset, view, self._reading)
        self._completing: list[tuple[int, tuple[int, ...]]] | None = None

    def sample(self, rng: random.Random) -> GameState:
        """A state consistent with the view, its hidden parts drawn with ``rng``.

        :raises ViewError: an opponent is choosing the cards of a payment with groups
            that no hand of theirs can complete.
        """
        rs, view, reading = self.ruleset, self.view, self._reading
        tickets = _deal_tickets(view, reading, self._options, rng)
        choosing = view.phase is Phase.CHOOSE_CARDS and view.current != view.seat
        tries = _REDRAWS if choosing else 1
        for _ in range(tries):
            hands, deck = _deal_cards(view, reading, rng)
            if not choosing or _completes(rs, reading, hands[view.current]):
                break
        else:
            # Few hands complete the payment: draw one of them by its number of deals,
            # then deal the other unseen cards as usual.
            hand = self._completing_hand(rng)
            fixed = list(reading.fixed)
            fixed[view.current] = hand
            unseen = [
                u - (hand[k] - reading.fixed[view.current][k])
                for k, u in enumerate(reading.unseen_cards)
            ]
            dealt = evolve(reading, fixed=tuple(fixed), unseen_cards=tuple(unseen))
            hands, deck = _deal_cards(view, dealt, rng)
        state = _assemble(rs, view, reading, hands, deck, tickets)
        return _with_rng(state, rng)

    def _completing_hand(self, rng: random.Random) -> tuple[int, ...]:
        """A hand of the opponent choosing a payment that completes it, drawn in proportion
        to the ways the unseen cards deal it."""
        if self._completing is None:
            self._completing = _completing_hands(self.ruleset, self.view, self._reading)
        if not self._completing:
            raise ViewError(
                f"$.choice.chosen: no hand of seat {self.view.current} can complete the "
                "payment being chosen"
            )
        weights = [w for w, _ in self._completing]
        return self._completing[_weighted(rng, weights)][1]


def known_state(ruleset: Ruleset, view: PlayerView) -> GameState:
    """The state as far as ``view`` knows it, for listing the viewer's own actions.

    The viewer's holdings and everything public are as in the view. What it hides is left
    empty: opponents hold no cards and no tickets, the decks hold the right number of
    placeholder entries (-1), and there is no generator. It is not a position a game can
    reach, but the legal actions of the viewer, when it is to act, are those of the
    real position.

    :raises ViewError: as [`sample_state`][].
    """
    reading = _read(ruleset, view)
    _ticket_options(ruleset, view, reading)
    n = len(view.players)
    hands = tuple(reading.fixed[p] if p == view.seat else (0,) * NUM_KINDS for p in range(n))
    opening = view.phase is Phase.OPENING_TICKETS
    tickets = _Tickets(
        kept=tuple(reading.my_tickets if p == view.seat else () for p in range(n)),
        offers=tuple(reading.my_offer if p == view.seat else () for p in range(n))
        if opening
        else (),
        pending=reading.my_offer if view.phase is Phase.KEEP_TICKETS else (),
        deck=(-1,) * view.ticket_deck_size,
    )
    return _assemble(ruleset, view, reading, hands, (-1,) * view.deck_size, tickets)


# -- reading the view ----------------------------------------------------------------------


def _read(rs: Ruleset, view: PlayerView) -> _Reading:
    """Check ``view`` against ``rs`` and work out the public parts of its state."""
    checked = validate_view(rs, view)
    known = set(checked.tickets) | set(checked.offered)
    ix = index_of(rs)
    unseen_tickets = (
        tuple(t for t in ix.regular_tickets if t not in known),
        tuple(t for t in ix.long_tickets if t not in known),
    )
    n = len(view.players)
    return _Reading(
        start_player=checked.start_player,
        free=free_tracks(rs, view.owners, n),
        blocked=tuple(blocked_tracks(rs, view.owners, p, n) for p in range(n)),
        tunnel=checked.tunnel,
        choice=checked.choice,
        fixed=checked.fixed,
        unseen_cards=checked.unseen_cards,
        my_tickets=checked.tickets,
        my_offer=checked.offered,
        unseen_tickets=unseen_tickets,
        waiting=checked.waiting,
    )


# -- dealing the hidden parts ----------------------------------------------------------------


@frozen
class _Tickets:
    """Where the tickets are: per seat its kept tickets and opening offer, the drawn
    tickets waiting for a choice, and the ticket deck (top first)."""

    kept: tuple[tuple[int, ...], ...]
    offers: tuple[tuple[int, ...], ...]
    pending: tuple[int, ...]
    deck: tuple[int, ...]


def _below(rng: random.Random, n: int) -> int:
    """A number in ``range(n)`` from ``rng.random()`` alone (stable across Python versions)."""
    k = int(rng.random() * n)
    return k if k < n else n - 1


def _shuffle(rng: random.Random, items: list[int]) -> list[int]:
    """Shuffle ``items`` in place (Fisher-Yates, top index down) and return it."""
    for i in range(len(items) - 1, 0, -1):
        j = _below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _weighted(rng: random.Random, weights: Sequence[int]) -> int:
    """An index drawn in proportion to ``weights`` (non-negative integers, some positive)."""
    top = max(weights)
    scaled = [w * (1 << 53) // top for w in weights]
    target = _below(rng, sum(scaled))
    for i, w in enumerate(scaled):
        if target < w:
            return i
        target -= w
    return len(scaled) - 1


def _deal_cards(
    view: PlayerView, reading: _Reading, rng: random.Random
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Shuffle the unseen train cards into the opponents' hands and the deck."""
    cards = [k for k in range(NUM_KINDS) for _ in range(reading.unseen_cards[k])]
    _shuffle(rng, cards)
    hands = []
    at = 0
    for p, public in enumerate(view.players):
        hand = list(reading.fixed[p])
        if p != view.seat:
            extra = public.hand_size - sum(hand)
            for c in cards[at : at + extra]:
                hand[c] += 1
            at += extra
        hands.append(tuple(hand))
    return tuple(hands), tuple(cards[at:])


def _ticket_slots(rs: Ruleset, view: PlayerView, reading: _Reading, drawn: int) -> list[_Slots]:
    """The hidden ticket places, with ``drawn`` tickets drawn by an opponent choosing now."""
    opening = rs.params.opening_tickets
    long_in_deck = opening.long > 0 and opening.returned == "bottom"
    deck_piles = (_REGULAR, _LONG) if long_in_deck else (_REGULAR,)
    kept_piles = (_REGULAR, _LONG) if index_of(rs).long_tickets else (_REGULAR,)
    slots: list[_Slots] = []
    for p, public in enumerate(view.players):
        if p == view.seat:
            continue
        k = public.tickets
        most = k if long_in_deck else min(k, opening.long)
        slots.append(_Slots(f"seat {p}'s tickets", k, kept_piles, most))
    for p in reading.waiting:
        slots.append(_Slots(f"seat {p}'s long offer", opening.long, (_LONG,), opening.long))
        slots.append(
            _Slots(f"seat {p}'s offer", opening.deal - opening.long, (_REGULAR,), 0),
        )
    if drawn:
        slots.append(_Slots("drawn tickets", drawn, deck_piles, drawn))
    deck = view.ticket_deck_size
    slots.append(_Slots("ticket deck", deck, deck_piles, deck))
    return slots


def _sinks(rs: Ruleset, n: int) -> tuple[bool, bool]:
    """Whether regular and long tickets can be out of the game."""
    opening, draw = rs.params.opening_tickets, rs.params.ticket_draw
    regular = "removed" in (opening.returned, draw.returned)
    longs = index_of(rs).long_tickets
    long = bool(longs) and (len(longs) > n * opening.long or opening.returned == "removed")
    return regular, long


def _falling(n: int, k: int) -> int:
    """``n * (n - 1) * ... * (n - k + 1)``: ways to fill ``k`` ordered places from ``n``."""
    if k > n:
        return 0
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _comb(n: int, k: int) -> int:
    return _falling(n, k) // _falling(k, k)


def _mixed_counts(slots: Sequence[_Slots]) -> list[list[int]]:
    """``table[i][j]``: the ways for the mixed places ``slots[i:]`` to hold ``j`` long
    tickets in all (which of each place's positions are long)."""
    table: list[list[int]] = [[1]]
    for s in reversed(slots):
        after = table[0]
        row = [0] * (len(after) + s.most_long)
        for j in range(s.most_long + 1):
            ways = _comb(s.size, j)
            for rest, count in enumerate(after):
                row[j + rest] += ways * count
        table.insert(0, row)
    return table


def _weights(
    slots: Sequence[_Slots], unseen: tuple[int, int], sinks: tuple[bool, bool]
) -> tuple[list[int], list[_Slots], list[list[int]]]:
    """Per total of long tickets in the mixed places, the number of assignments."""
    fixed = [0, 0]
    mixed = []
    for s in slots:
        if len(s.piles) == 1:
            fixed[s.piles[0]] += s.size
        else:
            mixed.append(s)
    table = _mixed_counts(mixed)
    size = sum(s.size for s in mixed)
    weights = []
    for j, ways in enumerate(table[0]):
        need = (fixed[_REGULAR] + size - j, fixed[_LONG] + j)
        fits = all(sinks[i] or need[i] == unseen[i] for i in (_REGULAR, _LONG))
        weights.append(
            ways * _falling(unseen[_REGULAR], need[_REGULAR]) * _falling(unseen[_LONG], need[_LONG])
            if fits
            else 0
        )
    return weights, mixed, table


_Option = tuple[list[_Slots], list[int], list[_Slots], list[list[int]]]
"""Hidden ticket places, the weight of each total of long tickets in the mixed places,
the mixed places, and their table of ways (see `_weights`)."""


def _ticket_options(rs: Ruleset, view: PlayerView, reading: _Reading) -> list[_Option]:
    """The ways the hidden ticket places can be laid out: one, or one per number of
    tickets an opponent may have drawn from a deck that is now empty."""
    n = len(view.players)
    unseen = (len(reading.unseen_tickets[_REGULAR]), len(reading.unseen_tickets[_LONG]))
    sinks = _sinks(rs, n)
    draws = [0]
    if view.phase is Phase.KEEP_TICKETS and view.current != view.seat:
        deal = rs.params.ticket_draw.deal
        draws = [deal] if view.ticket_deck_size else list(range(1, deal + 1))
    options = [
        (slots, *_weights(slots, unseen, sinks))
        for slots in (_ticket_slots(rs, view, reading, d) for d in draws)
    ]
    if not any(any(option[1]) for option in options):
        raise ViewError(
            "$.players: the ticket counts of the seats and the ticket deck fit no deal of the "
            "unseen tickets"
        )
    return options


def _deal_tickets(
    view: PlayerView, reading: _Reading, options: list[_Option], rng: random.Random
) -> _Tickets:
    """Deal the unseen tickets into their hidden places (see the module documentation)."""
    n = len(view.players)
    totals = [sum(option[1]) for option in options]
    slots, weights, mixed, table = options[_weighted(rng, totals)]
    long_total = _weighted(rng, weights)
    long_in: dict[str, int] = {}
    for i, s in enumerate(mixed):
        after = table[i + 1]
        split = [
            _comb(s.size, j) * after[long_total - j] if 0 <= long_total - j < len(after) else 0
            for j in range(s.most_long + 1)
        ]
        long_in[s.place] = j = _weighted(rng, split)
        long_total -= j
    piles = [_shuffle(rng, list(reading.unseen_tickets[i])) for i in (_REGULAR, _LONG)]
    placed: dict[str, tuple[int, ...]] = {}
    for s in slots:
        longs = long_in.get(s.place, s.size if s.piles == (_LONG,) else 0)
        kinds = [_LONG] * longs + [_REGULAR] * (s.size - longs)
        if len(s.piles) > 1:
            _shuffle(rng, kinds)
        placed[s.place] = tuple(piles[kind].pop() for kind in kinds)
    me = view.seat
    kept = tuple(reading.my_tickets if p == me else placed[f"seat {p}'s tickets"] for p in range(n))
    offers: tuple[tuple[int, ...], ...] = ()
    if view.phase is Phase.OPENING_TICKETS:
        offers = tuple(
            reading.my_offer
            if p == me
            else placed[f"seat {p}'s long offer"] + placed[f"seat {p}'s offer"]
            if p in reading.waiting
            else ()
            for p in range(n)
        )
    pending: tuple[int, ...] = ()
    if view.phase is Phase.KEEP_TICKETS:
        pending = reading.my_offer if view.current == me else placed["drawn tickets"]
    return _Tickets(kept=kept, offers=offers, pending=pending, deck=placed["ticket deck"])


# -- the state -----------------------------------------------------------------------------


def _assemble(
    rs: Ruleset,
    view: PlayerView,
    reading: _Reading,
    hands: Sequence[tuple[int, ...]],
    deck: tuple[int, ...],
    tickets: _Tickets,
) -> GameState:
    """The state with the view's public parts and the given hidden ones."""
    n = len(view.players)
    over = view.phase is Phase.GAME_OVER
    ended_by = ""
    if over:
        ended_by = "final_round" if view.final_trigger == view.current else "deadlock"
    players = tuple(
        PlayerState(
            hand=hands[p],
            trains=public.trains,
            tickets=tickets.kept[p],
            score=public.score,
            stations=public.stations,
            blocked=reading.blocked[p],
        )
        for p, public in enumerate(view.players)
    )
    return GameState(
        phase=view.phase,
        current=view.current,
        players=players,
        deck=deck,
        deck_pos=0,
        discard=view.discard,
        display=view.display,
        ticket_deck=tickets.deck,
        pending_tickets=tickets.pending,
        owners=view.owners,
        free=reading.free,
        start_player=reading.start_player,
        final_trigger=view.final_trigger,
        passes=n if ended_by == "deadlock" else 0,
        turn=view.turn,
        rng=-1,
        tunnel=reading.tunnel,
        station_owners=view.station_owners,
        offers=tickets.offers,
        ended_by=ended_by,
        choice=reading.choice,
    )


def _with_rng(state: GameState, rng: random.Random) -> GameState:
    """``state`` with a fresh generator state drawn from ``rng``."""
    high = _below(rng, 1 << 32)
    low = _below(rng, 1 << 32)
    return evolve(state, rng=ttr_rng.seed_state((high << 32) | low))


def _completes(rs: Ruleset, reading: _Reading, hand: tuple[int, ...]) -> bool:
    """Whether ``hand`` can complete the payment with groups being chosen."""
    choice = reading.choice
    assert choice is not None
    shape = route_shape(rs, choice.route)
    return bool(choosable(shape, choice.groups, choice.chosen, hand))


def _hands_of(pool: Sequence[int], size: int) -> int:
    """How many different hands of ``size`` cards the ``pool`` (nine counts) can deal."""
    counts = [1] + [0] * size
    for available in pool:
        counts = [
            sum(counts[total - n] for n in range(min(available, total) + 1))
            for total in range(size + 1)
        ]
    return counts[size]


def _completing_hands(
    rs: Ruleset, view: PlayerView, reading: _Reading
) -> list[tuple[int, tuple[int, ...]]]:
    """Every hand of the opponent choosing a payment that can complete it, with the
    number of ways the unseen cards deal its hidden part (when there are at most
    `_MOST_COUNTED` hands to look at)."""
    seat = view.current
    known = reading.fixed[seat]
    hidden = view.players[seat].hand_size - sum(known)
    unseen = reading.unseen_cards
    if _hands_of(unseen, hidden) > _MOST_COUNTED:
        raise ViewError(
            f"$.choice.chosen: no hand of seat {seat} that completes the payment being "
            f"chosen turned up in {_REDRAWS} draws"
        )
    out: list[tuple[int, tuple[int, ...]]] = []
    extra = [0] * NUM_KINDS

    def fill(kind: int, left: int, ways: int) -> None:
        if kind == NUM_KINDS - 1:
            if left > unseen[kind]:
                return
            extra[kind] = left
            hand = tuple(known[k] + extra[k] for k in range(NUM_KINDS))
            if _completes(rs, reading, hand):
                out.append((ways * math.comb(unseen[kind], left), hand))
            return
        for n in range(min(left, unseen[kind]) + 1):
            extra[kind] = n
            fill(kind + 1, left - n, ways * math.comb(unseen[kind], n))
        extra[kind] = 0

    fill(0, hidden, 1)
    return out
