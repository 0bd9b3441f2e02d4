"""Every draw of a card or a ticket as a chance event of its own, with its probabilities.

The engine shuffles a pile once and then deals from its top. OpenSpiel wants a chance
node per draw, so this module defers each shuffle's decisions to the moment a card is
drawn (the principle of deferred decisions): between decisions, the cards left in the
train deck and the tickets still in shuffled order at the top of the ticket deck are kept
sorted, an order that says nothing, and each draw picks one of them at random, in
proportion to how many of each the pile holds.

A [`Step`][] is one decision being played out (a player's action, or the deal) with the
draws chosen for it so far, pile by pile. [`play`][] (or [`deal`][], for the deal) plays
the step on a simulator whose piles hold the chosen draws on top, through the public
chance interface of `ttr_core.Simulator` (the ``chance`` argument, which orders every
shuffle, so the engine's generator decides nothing). If the step reads no further than
the chosen draws, its outcome depends on them alone and it is done; otherwise it needs one
more draw, from the pile it read too far into, and the [`Need`][] it returns says which
cards may come and how many of each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from attrs import evolve, field, frozen

from ttr_core.model.actions import Action
from ttr_core.model.cards import NUM_KINDS
from ttr_core.model.events import Event
from ttr_core.model.state import GameState
from ttr_core.play.simulator import Simulator
from ttr_core.ruleset.ruleset import Ruleset

TRAIN = "train"
"""The train deck (and the discard pile reshuffled into it)."""
TICKETS = "tickets"
"""The ticket deck (the regular tickets in the deal)."""
LONG = "long"
"""The long tickets of the deal (editions that deal one from a pile of their own)."""
PILES = (TRAIN, TICKETS, LONG)
"""The piles, in the order their draws are chosen."""


@frozen
class Position:
    """A position between decisions, with the order of what is unseen left out.

    ``state.deck`` holds exactly the cards left in the train deck, sorted, from
    ``deck_pos`` 0; the first ``shuffled_tickets`` of ``state.ticket_deck`` are the
    tickets still in shuffled order, sorted; below them lie the tickets returned under
    the deck, in the order they were returned. The state has no generator (``rng`` -1).
    """

    state: GameState
    shuffled_tickets: int

    def __deepcopy__(self, memo: object) -> Position:
        return self  # immutable


@frozen
class Step:
    """One decision being played out: ``action`` (None for the deal) and the draws
    chosen for it so far, per pile (card kinds for the train deck, ticket indices)."""

    action: Action | None
    train: tuple[int, ...] = ()
    tickets: tuple[int, ...] = ()
    long: tuple[int, ...] = ()

    def drawn(self, pile: str) -> tuple[int, ...]:
        """The draws chosen from ``pile``."""
        return self.train if pile == TRAIN else self.tickets if pile == TICKETS else self.long

    def with_draw(self, pile: str, item: int) -> Step:
        """This step with one more draw from ``pile``."""
        if pile == TRAIN:
            return evolve(self, train=(*self.train, item))
        if pile == TICKETS:
            return evolve(self, tickets=(*self.tickets, item))
        return evolve(self, long=(*self.long, item))

    def __deepcopy__(self, memo: object) -> Step:
        return self  # immutable


@frozen
class Need:
    """The next draw a step needs: from ``pile``, one of ``counts`` (item, how many of it
    the pile holds), in item order."""

    pile: str
    counts: tuple[tuple[int, int], ...]

    @property
    def total(self) -> int:
        """How many cards or tickets the draw is made from."""
        return sum(n for _, n in self.counts)


@frozen
class Done:
    """A step played out: the position it reached and the events it caused."""

    position: Position
    events: tuple[Event, ...] = field(eq=False)


def arrange(top: Sequence[int], items: Sequence[int]) -> tuple[int, ...]:
    """``items`` ordered with ``top`` (some of them, in this order) first, then the
    rest sorted. ``top`` must be drawable from ``items``."""
    rest = Counter(items)
    rest.subtract(top)
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"{tuple(top)} cannot be drawn from {tuple(items)}")
    return (*top, *sorted(rest.elements()))


class _Tape:
    """The chance source of one try: orders every shuffle with the step's draws on top,
    and notes which cards each shuffle was given."""

    def __init__(self, rs: Ruleset, step: Step, train_start: int) -> None:
        self._ids = [t.id for t in rs.map.tickets]
        self._index = {tid: i for i, tid in enumerate(self._ids)}
        self._step = step
        self.train_at = train_start
        """Where in the step's train draws the next shuffled deck begins."""
        self.segments: list[tuple[int, tuple[int, ...]]] = []
        """Each train shuffle: where its cards begin in the step's draws, and its cards."""
        self.regular: tuple[int, ...] = ()
        self.long: tuple[int, ...] = ()

    def shuffle(self, pile: str, reason: str, items: Sequence[int]) -> tuple[int, ...]:
        """The order of a shuffle of ``items``: the chosen draws first."""
        if pile == TRAIN:
            start = self.train_at
            self.segments.append((start, tuple(items)))
            self.train_at += len(items)
            return arrange(self._step.train[start : start + len(items)], items)
        indices = [self._index[x] for x in items]
        if reason == "setup_long":
            self.long = tuple(indices)
            top = self._step.long
        else:
            self.regular = tuple(indices)
            top = self._step.tickets
        return tuple(self._ids[i] for i in arrange(top, indices))


def position_of(state: GameState, shuffled_tickets: int) -> Position:
    """``state`` with the order of what is unseen left out (see [`Position`][]): the
    cards left in its deck and its first ``shuffled_tickets`` tickets sorted, and no
    generator."""
    left = state.deck[state.deck_pos :]
    tickets = state.ticket_deck
    return Position(
        evolve(
            state,
            deck=tuple(sorted(left)),
            deck_pos=0,
            ticket_deck=(*sorted(tickets[:shuffled_tickets]), *tickets[shuffled_tickets:]),
            rng=-1,
        ),
        shuffled_tickets,
    )


def _train_need(start: tuple[int, ...], tape: _Tape, step: Step, read: int) -> Need | None:
    """The train draw the step needs next, if it read ``read`` cards, more than chosen."""
    at = len(step.train)
    if read <= at:
        return None
    begin, cards = 0, start
    for seg_start, items in tape.segments:
        if seg_start <= at:
            begin, cards = seg_start, items
    return _need(TRAIN, cards, step.train[begin:at])


def _need(pile: str, items: Sequence[int], drawn: Sequence[int]) -> Need:
    left = Counter(items)
    left.subtract(drawn)
    return Need(pile, tuple(sorted((k, n) for k, n in left.items() if n > 0)))


def deal(rs: Ruleset, players: int, step: Step) -> Done | Need:
    """Play out the deal of a game of ``players`` with the draws of ``step`` (seat 0
    starts)."""
    tape = _Tape(rs, step, 0)
    events: list[Event] = []
    made = Simulator.new(rs, players, seed=None, chance=tape, record=False, events=events)
    state = made.snapshot()
    need = _train_need((), tape, step, tape.segments[-1][0] + state.deck_pos)
    if need is not None:
        return need
    regular_read = len(tape.regular) - len(state.ticket_deck)
    if regular_read > len(step.tickets):
        return _need(TICKETS, tape.regular, step.tickets)
    long_read = rs.params.opening_tickets.long * players
    if long_read > len(step.long):
        return _need(LONG, tape.long, step.long)
    return Done(position_of(state, len(state.ticket_deck)), tuple(events))


def play(rs: Ruleset, position: Position, step: Step, sim: Simulator) -> Done | Need:
    """Play out ``step``'s action at ``position`` with its draws, on ``sim`` (a simulator
    of the game that records nothing, moved to the position)."""
    assert step.action is not None
    base = position.state
    left = base.deck
    shuffled = position.shuffled_tickets
    top = base.ticket_deck[:shuffled]
    sim.load(
        evolve(
            base,
            deck=arrange(step.train[: len(left)], left),
            ticket_deck=(*arrange(step.tickets, top), *base.ticket_deck[shuffled:]),
        )
    )
    tape = _Tape(rs, step, len(left))
    events: list[Event] = []
    sim.apply(step.action, events=events, chance=tape)
    state = sim.snapshot()
    read = state.deck_pos + (tape.segments[-1][0] if tape.segments else 0)
    need = _train_need(left, tape, step, read)
    if need is not None:
        return need
    ticket_read = min(max(0, len(base.ticket_deck) - len(state.ticket_deck)), shuffled)
    if ticket_read > len(step.tickets):
        return _need(TICKETS, top, step.tickets)
    return Done(position_of(state, shuffled - ticket_read), tuple(events))


def card_counts(need: Need) -> list[int]:
    """Nine counts of the cards a train draw is made from (for tests and displays)."""
    out = [0] * NUM_KINDS
    for k, n in need.counts:
        out[k] = n
    return out
