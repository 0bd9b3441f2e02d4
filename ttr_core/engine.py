"""The rules engine: setting up a game and applying actions to immutable states.

``new_game`` and ``apply`` are pure: they return new states and never change their inputs,
so a rejected action (an :class:`~ttr_core.errors.IllegalActionError`) loses nothing.
When an ``events`` list is passed, every change is appended to it as an event.
Chance comes from the generator state carried in the game state, or, when replaying a
record without a seed, from the recorded shuffle outcomes (a :class:`Chance` source).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import add, sub
from typing import Any, Protocol

from attrs import evolve

from ttr_core import events as ev
from ttr_core import groups, rng
from ttr_core.actions import (
    Action,
    BuildStation,
    ChooseCard,
    ClaimRoute,
    ClaimWithGroups,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.cards import CARD_NAMES, EMPTY, LOCO, NUM_KINDS, describe
from ttr_core.errors import IllegalActionError, SetupError
from ttr_core.payments import is_counts, payment_error, station_payment_error
from ttr_core.ruleset import Ruleset
from ttr_core.state import CardChoice, GameState, Phase, PlayerState, TunnelAttempt


class Chance(Protocol):
    """A source of shuffle outcomes other than the state's generator (replays)."""

    def shuffle(self, pile: str, reason: str, items: Sequence[int]) -> tuple[int, ...]:
        """Return the order (top first) of ``items`` after shuffling."""
        ...


class _Ctx:
    """Scratch space for one ``apply``: the card piles being changed, and the event sink."""

    __slots__ = ("chance", "deck", "discard", "display", "events", "pos", "rng", "rs")

    def __init__(
        self,
        rs: Ruleset,
        state: GameState,
        events: list[ev.Event] | None,
        chance: Chance | None,
    ) -> None:
        self.rs = rs
        self.deck = state.deck
        self.pos = state.deck_pos
        self.discard = list(state.discard)
        self.display = list(state.display)
        self.rng = state.rng
        self.events = events
        self.chance = chance

    def shuffle(self, pile: str, reason: str, items: Sequence[int]) -> tuple[int, ...]:
        if self.chance is not None:
            order = self.chance.shuffle(pile, reason, items)
        else:
            if self.rng < 0:
                raise IllegalActionError(
                    "DECK-1", "this game has no random generator and no recorded outcome"
                )
            out, self.rng = rng.shuffled(self.rng, items)
            order = tuple(out)
        if self.events is not None:
            self.events.append(ev.Shuffled(pile=pile, reason=reason, order=order))
        return order

    def available(self) -> int:
        """Cards that can still be drawn: the deck plus the discard pile."""
        return len(self.deck) - self.pos + sum(self.discard)

    def draw(self) -> int:
        """Take the top card of the deck, reshuffling the discard pile first if needed.

        Returns -1 if deck and discard pile are both empty.
        """
        if self.pos >= len(self.deck):
            discard = self.discard
            if not any(discard):
                return -1
            items = [k for k in range(NUM_KINDS) for _ in range(discard[k])]
            self.deck = self.shuffle("train", "reshuffle", items)
            self.pos = 0
            self.discard = [0] * NUM_KINDS
        card = self.deck[self.pos]
        self.pos += 1
        return card

    def refill(self) -> None:
        """Fill empty display slots; if any card was turned up, apply the flush (FLUSH-2).

        Flushes repeat while the new display again shows too many locomotives, at most
        ``flush_repeats`` times in a row (FLUSH-3), and only while deck or discard pile
        hold a card (FLUSH-4).
        """
        flush_at = self.rs.flush_at
        repeats = 0
        display = self.display
        while True:
            revealed = False
            while -1 in display:
                new = self.draw()
                if new < 0:
                    break
                slot = display.index(-1)
                display[slot] = new
                revealed = True
                if self.events is not None:
                    self.events.append(ev.CardRevealed(slot=slot, card=new))
            if not revealed or flush_at is None or display.count(LOCO) < flush_at:
                return
            if self.available() == 0:
                return
            if repeats >= self.rs.params.display.flush_repeats:
                if self.events is not None:
                    self.events.append(ev.LocomotivesRemain(locomotives=display.count(LOCO)))
                return
            repeats += 1
            flushed = tuple(c for c in display if c >= 0)
            for c in flushed:
                self.discard[c] += 1
            display = self.display = [-1] * len(display)
            if self.events is not None:
                self.events.append(ev.DisplayFlushed(cards=flushed))

    def to_discard(self, cards: Sequence[int]) -> None:
        for k in range(NUM_KINDS):
            self.discard[k] += cards[k]


def _with_player(state: GameState, seat: int, player: PlayerState) -> tuple[PlayerState, ...]:
    players = list(state.players)
    players[seat] = player
    return tuple(players)


def new_game(
    rs: Ruleset,
    players: int,
    *,
    seed: int | None = None,
    start_player: int = 0,
    events: list[ev.Event] | None = None,
    chance: Chance | None = None,
) -> GameState:
    """Set up a game: shuffle, deal 4 cards each, lay out the display, deal opening tickets.

    Pass ``seed`` for a seeded game, or ``chance`` to take the shuffles from a record.

    :raises SetupError: the player count or start player is out of range, or neither
        ``seed`` nor ``chance`` was given.
    """
    lo, hi = rs.params.players
    if not lo <= players <= hi:
        raise SetupError(f"{rs.id} is played by {lo} to {hi} players, not {players}")
    if not 0 <= start_player < players:
        raise SetupError(f"start player must be a seat from 0 to {players - 1}")
    if seed is None and chance is None:
        raise SetupError("a new game needs a seed (or recorded chance outcomes)")
    if events is not None:
        events.append(ev.GameStarted(players=players, start_player=start_player))
    blank = GameState(
        phase=Phase.OPENING_TICKETS,
        current=start_player,
        players=(),
        deck=(),
        deck_pos=0,
        discard=EMPTY,
        display=(-1,) * rs.params.display.size,
        ticket_deck=(),
        pending_tickets=(),
        owners=(),
        free=(),
        start_player=start_player,
        rng=-1 if seed is None else rng.seed_state(seed),
    )
    ctx = _Ctx(rs, blank, events, chance)
    ctx.deck = ctx.shuffle("train", "setup", rs.train_deck)
    ticket_pool = [rs.ticket_ids[i] for i in rs.regular_tickets]
    ticket_order = ctx.shuffle("tickets", "setup", ticket_pool)
    long_order: tuple[int, ...] = ()
    if rs.params.opening_tickets.long:
        long_order = ctx.shuffle(
            "tickets", "setup_long", [rs.ticket_ids[i] for i in rs.long_tickets]
        )
    hands: list[PlayerState] = []
    for seat in range(players):
        hand = [0] * NUM_KINDS
        dealt = []
        for _ in range(rs.params.starting_hand):
            card = ctx.draw()
            hand[card] += 1
            dealt.append(card)
        if events is not None:
            events.append(ev.CardsDealt(player=seat, cards=tuple(dealt)))
        hands.append(
            PlayerState(
                hand=tuple(hand),
                trains=rs.params.trains,
                tickets=(),
                score=0,
                stations=rs.params.stations,
            )
        )
    ctx.refill()
    index = rs.ticket_index
    state = GameState(
        phase=Phase.OPENING_TICKETS,
        current=start_player,
        players=tuple(hands),
        deck=ctx.deck,
        deck_pos=ctx.pos,
        discard=tuple(ctx.discard),
        display=tuple(ctx.display),
        ticket_deck=tuple(index[t] for t in ticket_order),
        pending_tickets=(),
        owners=(-1,) * len(rs.routes),
        free=rs.class_routes,
        start_player=start_player,
        rng=ctx.rng,
        station_owners=(-1,) * len(rs.city_ids) if rs.params.stations else (),
    )
    long_deck = tuple(index[t] for t in long_order)
    return _deal_opening(rs, state, long_deck, events)


def _deal_opening(
    rs: Ruleset, state: GameState, long_deck: tuple[int, ...], events: list[ev.Event] | None
) -> GameState:
    """Deal every player's opening tickets, in seat order from the start player."""
    deal = rs.params.opening_tickets
    n = len(state.players)
    deck = state.ticket_deck
    offers: list[tuple[int, ...]] = [()] * n
    for i in range(n):
        seat = (state.start_player + i) % n
        regular = deal.deal - deal.long
        offers[seat] = long_deck[i * deal.long : (i + 1) * deal.long] + deck[:regular]
        deck = deck[regular:]
        if events is not None:
            events.append(
                ev.TicketsDealt(player=seat, tickets=tuple(rs.ticket_ids[t] for t in offers[seat]))
            )
    return evolve(state, ticket_deck=deck, offers=tuple(offers))


def pending_for(state: GameState, seat: int) -> tuple[int, ...]:
    """Ticket indices waiting for ``seat``'s choice (opening deals included)."""
    if state.phase is Phase.OPENING_TICKETS:
        return state.offers[seat]
    if state.phase is Phase.KEEP_TICKETS and state.current == seat:
        return state.pending_tickets
    return ()


def _illegal(rule: str, message: str) -> IllegalActionError:
    return IllegalActionError(rule, message)


_DECIDING = {
    Phase.OPENING_TICKETS: "choosing opening tickets",
    Phase.TURN: "taking a turn",
    Phase.SECOND_CARD: "drawing a second card",
    Phase.KEEP_TICKETS: "choosing drawn tickets",
    Phase.TUNNEL: "paying for a tunnel",
    Phase.CHOOSE_CARDS: "choosing the cards of a payment",
}
"""What the seat to act is doing, by phase (for the TURN-4 message)."""


def _check_seat(state: GameState, seat: object) -> None:
    """Refuse an action from ``seat`` unless it is the seat to act (rule TURN-4).

    Every decision, the opening ticket choices included, belongs to ``state.current``;
    once the game is over nobody acts, which ``apply`` reports as END-2.

    :raises SetupError: ``seat`` is not an ``int`` seat of this game (``bool`` is refused).
    :raises IllegalActionError: ``seat`` is a seat of the game but not the one to act.
    """
    n = len(state.players)
    if type(seat) is not int or not 0 <= seat < n:
        raise SetupError(f"seat must be an integer from 0 to {n - 1}, not {seat!r}")
    if seat != state.current and state.phase is not Phase.GAME_OVER:
        raise _illegal(
            "TURN-4",
            f"seat {seat} may not act: seat {state.current} is {_DECIDING[state.phase]}",
        )


def apply(
    rs: Ruleset,
    state: GameState,
    action: Action,
    *,
    events: list[ev.Event] | None = None,
    chance: Chance | None = None,
    seat: int | None = None,
) -> GameState:
    """Return the state after the current player takes ``action``.

    Pass ``seat``, the seat the action comes from, to have it refused unless that seat is
    the one to act (rule TURN-4); without it the action is taken as the current player's.

    :raises IllegalActionError: the action is not legal here, or ``seat`` is not the seat
        to act; ``state`` is unchanged and no event was appended.
    :raises SetupError: ``seat`` is not a seat of this game (not an ``int``, or out of range).
    """
    if seat is not None:
        _check_seat(state, seat)
    sink: list[ev.Event] | None = [] if events is not None else None
    if state.phase is Phase.GAME_OVER:
        raise _illegal("END-2", "the game is over")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise _illegal("TURN-1", f"{action!r} is not an action of this game")
    new = handler(rs, state, action, sink, chance)
    if events is not None and sink:
        events.extend(sink)
    return new


def _end_turn(
    state: GameState,
    players: tuple[PlayerState, ...],
    sink: list[ev.Event] | None,
    *,
    ctx: _Ctx | None = None,
    passed: bool = False,
    ticket_deck: tuple[int, ...] | None = None,
    owners: tuple[int, ...] | None = None,
    free: tuple[tuple[int, ...], ...] | None = None,
    station_owners: tuple[int, ...] | None = None,
) -> GameState:
    """Close the current player's turn: final-round trigger, game end, next player.

    Everything not passed in is carried over from ``state`` unchanged.
    """
    p = state.current
    n = len(players)
    trigger = state.final_trigger
    passes = state.passes + 1 if passed else 0
    over = ""
    if trigger < 0:
        if players[p].trains <= 2:
            trigger = p
            if sink is not None:
                sink.append(ev.FinalRoundStarted(player=p, trains=players[p].trains))
    elif trigger == p:
        over = "final_round"
    if not over and passes >= n:
        over = "deadlock"
    if over and sink is not None:
        sink.append(ev.GameEnded(reason=over))
    if ctx is None:
        deck, pos, discard, display, gen = (
            state.deck,
            state.deck_pos,
            state.discard,
            state.display,
            state.rng,
        )
    else:
        deck, pos, discard, display, gen = (
            ctx.deck,
            ctx.pos,
            tuple(ctx.discard),
            tuple(ctx.display),
            ctx.rng,
        )
    return GameState(
        Phase.GAME_OVER if over else Phase.TURN,
        p if over else (p + 1) % n,
        players,
        deck,
        pos,
        discard,
        display,
        state.ticket_deck if ticket_deck is None else ticket_deck,
        (),
        state.owners if owners is None else owners,
        state.free if free is None else free,
        state.start_player,
        trigger,
        passes,
        state.turn + 1,
        gen,
        None,
        state.station_owners if station_owners is None else station_owners,
        state.offers,
        over,
    )


def _mid_turn(
    state: GameState, ctx: _Ctx, players: tuple[PlayerState, ...], phase: Phase
) -> GameState:
    """The state between two steps of one turn (second card, tunnel payment)."""
    return GameState(
        phase,
        state.current,
        players,
        ctx.deck,
        ctx.pos,
        tuple(ctx.discard),
        tuple(ctx.display),
        state.ticket_deck,
        state.pending_tickets,
        state.owners,
        state.free,
        state.start_player,
        state.final_trigger,
        state.passes,
        state.turn,
        ctx.rng,
        state.tunnel,
        state.station_owners,
        state.offers,
        state.ended_by,
    )


def _without(items: tuple[int, ...], x: int) -> tuple[int, ...]:
    """``items`` without ``x`` (if present)."""
    if x not in items:
        return items
    i = items.index(x)
    return items[:i] + items[i + 1 :]


def _second_card_possible(rs: Ruleset, ctx: _Ctx) -> bool:
    """Whether a draw action can continue with a second card (rule DECK-4)."""
    if ctx.pos < len(ctx.deck) or any(ctx.discard):
        return True
    restricted = rs.face_up_loco_whole_draw
    return any(c >= 0 and not (restricted and c == LOCO) for c in ctx.display)


def _players_gaining(state: GameState, card: int) -> tuple[PlayerState, ...]:
    """The players after the current player took one card of kind ``card``."""
    players = list(state.players)
    p = state.current
    player = players[p]
    hand = list(player.hand)
    hand[card] += 1
    players[p] = PlayerState(
        tuple(hand), player.trains, player.tickets, player.score, player.stations, player.blocked
    )
    return tuple(players)


def _take_face_up(
    rs: Ruleset,
    state: GameState,
    action: TakeFaceUp,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    card = action.card
    phase = state.phase
    if phase is not Phase.TURN and phase is not Phase.SECOND_CARD:
        raise _illegal("TURN-1", "train cards can only be drawn as the turn's action")
    if type(card) is not int or not 0 <= card < NUM_KINDS:
        raise _illegal("DRAW-2", f"there is no card kind {card!r}")
    try:
        slot = state.display.index(card)
    except ValueError:
        raise _illegal("DRAW-2", f"no face-up {CARD_NAMES[card]} card to take") from None
    loco_ends = card == LOCO and rs.face_up_loco_whole_draw
    if loco_ends and phase is Phase.SECOND_CARD:
        raise _illegal("DRAW-5", "a face-up locomotive cannot be taken as the second card")
    ctx = _Ctx(rs, state, sink, chance)
    ctx.display[slot] = -1
    if sink is not None:
        sink.append(ev.FaceUpTaken(player=state.current, slot=slot, card=card))
    ctx.refill()
    return _after_draw(rs, state, ctx, card, sink, may_continue=not loco_ends)


def _draw_blind(
    rs: Ruleset,
    state: GameState,
    action: DrawBlind,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    phase = state.phase
    if phase is not Phase.TURN and phase is not Phase.SECOND_CARD:
        raise _illegal("TURN-1", "train cards can only be drawn as the turn's action")
    ctx = _Ctx(rs, state, sink, chance)
    if ctx.available() == 0:
        raise _illegal("DECK-3", "the deck and the discard pile are empty")
    card = ctx.draw()
    if sink is not None:
        sink.append(ev.BlindDrawn(player=state.current, card=card))
    return _after_draw(rs, state, ctx, card, sink, may_continue=True)


def _after_draw(
    rs: Ruleset,
    state: GameState,
    ctx: _Ctx,
    card: int,
    sink: list[ev.Event] | None,
    *,
    may_continue: bool,
) -> GameState:
    """Put the drawn card in the hand; wait for a second card if one may and can follow."""
    players = _players_gaining(state, card)
    if may_continue and state.phase is Phase.TURN and _second_card_possible(rs, ctx):
        return _mid_turn(state, ctx, players, Phase.SECOND_CARD)
    return _end_turn(state, players, sink, ctx=ctx)


def _draw_tickets(
    rs: Ruleset,
    state: GameState,
    action: DrawTickets,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    if state.phase is not Phase.TURN:
        raise _illegal("TURN-1", "tickets can only be drawn as the turn's action")
    if not state.ticket_deck:
        raise _illegal("TICKET-4", "the ticket deck is empty")
    n = rs.params.ticket_draw.deal
    drawn, rest = state.ticket_deck[:n], state.ticket_deck[n:]
    if sink is not None:
        sink.append(
            ev.TicketsDealt(player=state.current, tickets=tuple(rs.ticket_ids[t] for t in drawn))
        )
    return GameState(
        Phase.KEEP_TICKETS,
        state.current,
        state.players,
        state.deck,
        state.deck_pos,
        state.discard,
        state.display,
        rest,
        drawn,
        state.owners,
        state.free,
        state.start_player,
        state.final_trigger,
        state.passes,
        state.turn,
        state.rng,
        None,
        state.station_owners,
        state.offers,
        "",
    )


def _keep(
    rs: Ruleset,
    state: GameState,
    action: KeepTickets,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    ticket_ids = action.tickets
    phase = state.phase
    p = state.current
    if phase is Phase.OPENING_TICKETS:
        offer, deal = state.offers[p], rs.params.opening_tickets
    elif phase is Phase.KEEP_TICKETS:
        offer, deal = state.pending_tickets, rs.params.ticket_draw
    else:
        raise _illegal("TICKET-1", "there are no drawn tickets to choose from")
    index = rs.ticket_index
    try:
        if type(ticket_ids) is not tuple or any(type(t) is not int for t in ticket_ids):
            raise TypeError
        chosen = {index[t] for t in ticket_ids}
    except (KeyError, TypeError):
        raise _illegal("TICKET-1", f"unknown ticket in {ticket_ids!r}") from None
    if len(chosen) != len(ticket_ids):
        raise _illegal("TICKET-1", "a ticket is named twice")
    if not chosen <= set(offer):
        raise _illegal("TICKET-2", "only the tickets just drawn can be kept")
    need = min(deal.keep, len(offer))
    if len(chosen) < need:
        raise _illegal(
            "TICKET-1" if phase is Phase.KEEP_TICKETS else "SETUP-5",
            f"keep at least {need} of the {len(offer)} tickets",
        )
    kept = tuple(t for t in offer if t in chosen)
    returned = tuple(t for t in offer if t not in chosen)
    deck = state.ticket_deck + returned if deal.returned == "bottom" else state.ticket_deck
    if sink is not None:
        ids = rs.ticket_ids
        sink.append(
            ev.TicketsKept(
                player=p,
                kept=tuple(ids[t] for t in kept),
                returned=tuple(ids[t] for t in returned),
                returned_to=deal.returned,
            )
        )
    player = state.players[p]
    player = PlayerState(
        player.hand,
        player.trains,
        player.tickets + kept,
        player.score,
        player.stations,
        player.blocked,
    )
    players = _with_player(state, p, player)
    if phase is Phase.KEEP_TICKETS:
        return _end_turn(state, players, sink, ticket_deck=deck)
    offers = list(state.offers)
    offers[p] = ()
    nxt = (p + 1) % len(players)
    done = nxt == state.start_player
    return evolve(
        state,
        phase=Phase.TURN if done else Phase.OPENING_TICKETS,
        current=nxt,
        players=players,
        ticket_deck=deck,
        offers=() if done else tuple(offers),
    )


def _claimable(rs: Ruleset, state: GameState, route: object) -> int:
    """The index of track ``route`` if the current player may claim it now; else raise."""
    if state.phase is not Phase.TURN:
        raise _illegal("TURN-1", "a route can only be claimed as the turn's action")
    r = rs.route_index.get(route, -1) if type(route) is int else -1
    if r < 0:
        raise _illegal("CLAIM-1", f"there is no track with id {route!r}")
    p = state.current
    if state.owners[r] >= 0:
        raise _illegal("CLAIM-8", f"{rs.route_name(r)} is already claimed")
    twin = rs.route_twin[r]
    if twin >= 0 and state.owners[twin] == p:
        raise _illegal("DOUBLE-1", f"you own the parallel track of {rs.route_name(r)}")
    if r not in state.free[rs.class_of[r]]:
        raise _illegal(
            "DOUBLE-2",
            f"{rs.route_name(r)} is closed: its parallel track is claimed and fewer than "
            f"{rs.double_open_min} players are playing",
        )
    trains = state.players[p].trains
    if trains < rs.route_len[r]:
        raise _illegal(
            "CLAIM-7",
            f"{rs.route_name(r)} needs {rs.route_len[r]} trains, you have {trains}",
        )
    return r


def _claim(
    rs: Ruleset,
    state: GameState,
    action: ClaimRoute,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    cards = action.cards
    r = _claimable(rs, state, action.route)
    why = payment_error(rs, r, cards)
    if why is not None:
        shape = groups.route_shape(rs, r)
        if shape[3] and is_counts(cards) and groups.fits(shape, cards) > 0:
            raise _illegal(
                "GROUP-2",
                "this payment holds groups of any cards: claim with ClaimWithGroups, "
                "then choose the cards",
            )
        raise _illegal(*why)
    if min(map(sub, state.players[state.current].hand, cards)) < 0:
        raise _illegal("CLAIM-1", f"you do not hold {describe(cards)}")
    ctx = _Ctx(rs, state, sink, chance)
    if rs.route_tunnel[r]:
        return _reveal_tunnel(rs, state, ctx, r, cards, sink)
    return _complete_claim(rs, state, ctx, r, cards, (), sink)


def _choosing(state: GameState, choice: CardChoice) -> GameState:
    """The state while the cards of ``choice`` are being chosen (nothing else changes)."""
    return GameState(
        Phase.CHOOSE_CARDS,
        state.current,
        state.players,
        state.deck,
        state.deck_pos,
        state.discard,
        state.display,
        state.ticket_deck,
        state.pending_tickets,
        state.owners,
        state.free,
        state.start_player,
        state.final_trigger,
        state.passes,
        state.turn,
        state.rng,
        None,
        state.station_owners,
        state.offers,
        state.ended_by,
        choice,
    )


def _claim_with_groups(
    rs: Ruleset,
    state: GameState,
    action: ClaimWithGroups,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    r = _claimable(rs, state, action.route)
    shape = groups.route_shape(rs, r)
    if not shape[3]:
        raise _illegal("GROUP-1", f"{rs.route_name(r)} cannot be paid with groups of any cards")
    n = action.groups
    if type(n) is not int or not 1 <= n <= groups.max_groups(shape):
        raise _illegal(
            "GROUP-1",
            f"a payment for {rs.route_name(r)} holds 1 to {groups.max_groups(shape)} groups, "
            f"not {n!r}",
        )
    hand = state.players[state.current].hand
    if not groups.can_complete(shape, n, EMPTY, 0, hand):
        raise _illegal(
            "GROUP-2", f"your hand cannot pay for {rs.route_name(r)} with {n} groups of any cards"
        )
    size = groups.payment_size(shape, n)
    if sink is not None:
        sink.append(
            ev.GroupClaimStarted(player=state.current, route=rs.route_ids[r], groups=n, size=size)
        )
    return _choosing(state, CardChoice(r, n, size, EMPTY))


def _choose_card(
    rs: Ruleset,
    state: GameState,
    action: ChooseCard,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    c = state.choice
    if state.phase is not Phase.CHOOSE_CARDS or c is None:
        raise _illegal("GROUP-3", "no payment is being chosen")
    card = action.card
    if type(card) is not int or not 0 <= card < NUM_KINDS:
        raise _illegal("GROUP-3", f"there is no card kind {card!r}")
    chosen = c.chosen
    if any(chosen[k] for k in range(card + 1, NUM_KINDS)):
        raise _illegal("GROUP-3", "cards are chosen in card order: colours, then locomotives")
    hand = state.players[state.current].hand
    if chosen[card] >= hand[card]:
        raise _illegal("GROUP-3", f"you hold no further {CARD_NAMES[card]} card")
    grown = list(chosen)
    grown[card] += 1
    shape = groups.route_shape(rs, c.route)
    if not groups.can_complete(shape, c.groups, grown, card, hand):
        raise _illegal(
            "GROUP-3",
            f"with another {CARD_NAMES[card]} card the payment for "
            f"{rs.route_name(c.route)} can no longer be completed",
        )
    if sink is not None:
        sink.append(ev.CardChosen(player=state.current, card=card))
    total = tuple(grown)
    if sum(total) < c.size:
        return _choosing(state, CardChoice(c.route, c.groups, c.size, total))
    ctx = _Ctx(rs, state, sink, chance)
    return _complete_claim(rs, state, ctx, c.route, total, (), sink)


def _complete_claim(
    rs: Ruleset,
    state: GameState,
    ctx: _Ctx,
    r: int,
    cards: tuple[int, ...],
    revealed: tuple[int, ...],
    sink: list[ev.Event] | None,
) -> GameState:
    """Pay, place the trains, score, and close the parallel track as the rules say."""
    p = state.current
    player = state.players[p]
    hand = tuple(map(sub, player.hand, cards))
    discard = list(map(add, ctx.discard, cards))
    for c in revealed:
        discard[c] += 1
    ctx.discard = discard
    points = rs.route_points[r]
    twin = rs.route_twin[r]
    owners = state.owners
    owners = (*owners[:r], p, *owners[r + 1 :])
    free = list(state.free)
    k = rs.class_of[r]
    free[k] = _without(free[k], r)
    blocked = player.blocked
    players = list(state.players)
    if twin >= 0:
        if len(players) < rs.double_open_min:
            kt = rs.class_of[twin]
            free[kt] = _without(free[kt], twin)
        elif owners[twin] < 0:
            blocked = (*blocked, twin)
        else:
            # The twin's owner kept this track in its blocked list while it was free.
            q = owners[twin]
            other = players[q]
            players[q] = PlayerState(
                other.hand,
                other.trains,
                other.tickets,
                other.score,
                other.stations,
                _without(other.blocked, r),
            )
    if sink is not None:
        sink.append(ev.RouteClaimed(player=p, route=rs.route_ids[r], cards=cards, points=points))
    players[p] = PlayerState(
        hand,
        player.trains - rs.route_len[r],
        player.tickets,
        player.score + points,
        player.stations,
        blocked,
    )
    ctx.refill()
    return _end_turn(state, tuple(players), sink, ctx=ctx, owners=owners, free=tuple(free))


def _reveal_tunnel(
    rs: Ruleset,
    state: GameState,
    ctx: _Ctx,
    r: int,
    cards: tuple[int, ...],
    sink: list[ev.Event] | None,
) -> GameState:
    """Turn over cards for a tunnel; claim at once if nothing matches (rules TUNNEL-3, TUNNEL-4)."""
    revealed: list[int] = []
    for _ in range(rs.params.tunnel_reveal):
        card = ctx.draw()
        if card < 0:
            break
        revealed.append(card)
    colors = [k for k in range(LOCO) if cards[k]]
    match = colors[0] if colors else LOCO
    extra = sum(1 for c in revealed if c in (match, LOCO))
    shown = tuple(revealed)
    if sink is not None:
        sink.append(
            ev.TunnelRevealed(player=state.current, route=rs.route_ids[r], cards=shown, extra=extra)
        )
    if extra == 0:
        return _complete_claim(rs, state, ctx, r, cards, shown, sink)
    attempt = TunnelAttempt(route=r, paid=cards, revealed=shown, extra=extra, color=match)
    return evolve(_mid_turn(state, ctx, state.players, Phase.TUNNEL), tunnel=attempt)


def tunnel_payment_error(state: GameState, cards: tuple[int, ...]) -> tuple[str, str] | None:
    """Why ``cards`` cannot pay the pending tunnel's extra cost, as (rule, message); or None."""
    t = state.tunnel
    if t is None:
        return "TUNNEL-6", "no tunnel claim is waiting for payment"
    if not is_counts(cards):
        return "TUNNEL-6", "a payment is a tuple of nine card counts"
    if sum(cards) != t.extra:
        return "TUNNEL-6", f"the reveal demands exactly {t.extra} extra cards"
    if any(cards[k] for k in range(NUM_KINDS) if k != t.color and k != LOCO):
        what = "locomotives" if t.color == LOCO else f"{CARD_NAMES[t.color]} cards or locomotives"
        return "TUNNEL-6", f"the extra cards must be {what}"
    hand = state.players[state.current].hand
    if any(t.paid[k] + cards[k] > hand[k] for k in range(NUM_KINDS)):
        return "TUNNEL-6", "you do not hold these cards besides the ones laid down"
    return None


def _pay_tunnel(
    rs: Ruleset,
    state: GameState,
    action: PayTunnel,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    cards = action.cards
    t = state.tunnel
    if state.phase is not Phase.TUNNEL or t is None:
        raise _illegal("TUNNEL-6", "no tunnel claim is waiting for payment")
    why = tunnel_payment_error(state, cards)
    if why is not None:
        raise _illegal(*why)
    total = tuple(t.paid[k] + cards[k] for k in range(NUM_KINDS))
    ctx = _Ctx(rs, state, sink, chance)
    return _complete_claim(rs, state, ctx, t.route, total, t.revealed, sink)


def _withdraw_tunnel(
    rs: Ruleset,
    state: GameState,
    action: WithdrawTunnel,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    t = state.tunnel
    if state.phase is not Phase.TUNNEL or t is None:
        raise _illegal("TUNNEL-7", "no tunnel claim to withdraw from")
    ctx = _Ctx(rs, state, sink, chance)
    for c in t.revealed:
        ctx.discard[c] += 1
    if sink is not None:
        sink.append(ev.TunnelWithdrawn(player=state.current, route=rs.route_ids[t.route]))
    ctx.refill()
    return _end_turn(state, state.players, sink, ctx=ctx)


def _build_station(
    rs: Ruleset,
    state: GameState,
    action: BuildStation,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    city, cards = action.city, action.cards
    if not rs.params.stations:
        raise _illegal("STATION-1", f"{rs.id} has no stations")
    if state.phase is not Phase.TURN:
        raise _illegal("TURN-1", "a station can only be built as the turn's action")
    c = rs.city_index.get(city, -1) if type(city) is str else -1
    if c < 0:
        raise _illegal("STATION-1", f"there is no city {city!r}")
    if state.station_owners[c] >= 0:
        raise _illegal("STATION-2", f"{rs.city_ids[c]} already has a station")
    p = state.current
    player = state.players[p]
    if player.stations <= 0:
        raise _illegal("STATION-3", "you have no stations left")
    cost = rs.params.station_cost[rs.params.stations - player.stations]
    why = station_payment_error(cost, cards)
    if why is not None:
        raise _illegal(*why)
    if any(cards[k] > player.hand[k] for k in range(NUM_KINDS)):
        raise _illegal("STATION-5", f"you do not hold {describe(cards)}")
    ctx = _Ctx(rs, state, sink, chance)
    ctx.to_discard(cards)
    hand = tuple(player.hand[k] - cards[k] for k in range(NUM_KINDS))
    owners = list(state.station_owners)
    owners[c] = p
    if sink is not None:
        sink.append(ev.StationBuilt(player=p, city=rs.city_ids[c], cards=cards))
    ctx.refill()
    player = evolve(player, hand=hand, stations=player.stations - 1)
    return _end_turn(
        state, _with_player(state, p, player), sink, ctx=ctx, station_owners=tuple(owners)
    )


def _pass(
    rs: Ruleset,
    state: GameState,
    action: Pass,
    sink: list[ev.Event] | None,
    chance: Chance | None,
) -> GameState:
    from ttr_core.legal import LegalActions

    if state.phase is not Phase.TURN:
        raise _illegal("PASS-1", "only a whole turn can be passed")
    if LegalActions(rs, state).count_without_pass():
        raise _illegal("PASS-1", "passing is allowed only when no other action is legal")
    if sink is not None:
        sink.append(ev.Passed(player=state.current))
    return _end_turn(state, state.players, sink, passed=True)


_Handler = Callable[[Ruleset, GameState, Any, "list[ev.Event] | None", "Chance | None"], GameState]
_HANDLERS: dict[type[Action], _Handler] = {
    TakeFaceUp: _take_face_up,
    DrawBlind: _draw_blind,
    ClaimRoute: _claim,
    ClaimWithGroups: _claim_with_groups,
    ChooseCard: _choose_card,
    KeepTickets: _keep,
    DrawTickets: _draw_tickets,
    PayTunnel: _pay_tunnel,
    WithdrawTunnel: _withdraw_tunnel,
    BuildStation: _build_station,
    Pass: _pass,
}
