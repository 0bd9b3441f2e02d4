"""Checking a player view against its ruleset: the one place a view is read and refused.

[`validate_view`][] is what [`sample_state`][ttr_core.hidden.determinize.sample_state],
[`StateSampler`][ttr_core.hidden.determinize.StateSampler],
[`known_state`][ttr_core.hidden.determinize.known_state],
[`SeatActions.from_view`][ttr_core.hidden.seat_actions.SeatActions.from_view] and
[`tunnel_odds_for_view`][ttr_core.hidden.odds.tunnel_odds_for_view] read a view with. It accepts
exactly what a position of the ruleset's game can show a seat, as far as the view tells: every value
of the right type, every count within the edition's parameters and consistent with the rest of the
view (trains, scores and stations with the board, hands and piles with the edition's train cards,
tickets with the deals, the pending tunnel or payment with its phase and its cards). A refusal is a
[`ViewError`][ttr_core.model.errors.ViewError] naming the offending field by its path in the view's
JSON form (as [`view_to_json`][ttr_core.formats.serialize.view_to_json] writes it), e.g.
``$.players[1].stations: Nordic Countries has no stations, the view gives 1``.
"""

from __future__ import annotations

from collections import Counter

from attrs import frozen

from ttr_core.model.cards import CARD_NAMES, LOCO, NUM_KINDS
from ttr_core.model.errors import ViewError, quote
from ttr_core.model.state import CardChoice, Phase, TunnelAttempt
from ttr_core.rules.card_groups import choosable
from ttr_core.rules.double_routes import CLOSED_PARALLEL, OWN_PARALLEL, parallel_rule
from ttr_core.rules.index import index_of
from ttr_core.rules.payments import max_groups, payment_error, payment_size, route_shape
from ttr_core.rules.piles import unseen_cards
from ttr_core.rules.tunnels import tunnel_matching_kinds
from ttr_core.rules.views import CardChoiceView, PlayerView, PublicPlayer, TunnelView
from ttr_core.ruleset.ruleset import Ruleset

__all__ = ["ValidatedView", "validate_view"]


@frozen
class ValidatedView:
    """A view [`validate_view`][] accepted, with what the checks worked out of it."""

    view: PlayerView
    tunnel: TunnelAttempt | None
    """The pending tunnel claim, its track as an index and the colour of its extra cards."""
    choice: CardChoice | None
    """The payment with groups being chosen, its track as an index."""
    tickets: tuple[int, ...]
    """Indices of the viewer's kept tickets."""
    offered: tuple[int, ...]
    """Indices of the tickets offered to the viewer."""
    start_player: int
    waiting: tuple[int, ...]
    """Opponents dealt opening tickets and not yet choosing from them."""
    fixed: tuple[tuple[int, ...], ...]
    """Per seat, the cards known to be in its hand (all of the viewer's)."""
    unseen_cards: tuple[int, ...]
    """Nine counts of the train cards the viewer cannot place."""


def validate_view(rs: Ruleset, view: object) -> ValidatedView:
    """``view`` with what it implies, if some position of ``rs``'s game shows it to a seat.

    :raises ViewError: a value of the wrong type (also inside a view built by hand), a
        count outside what the edition allows, or values that contradict each other or
        the ruleset; the message gives the path of the field (``$.tunnel.extra: ...``).
    """
    if not isinstance(view, PlayerView):
        raise ViewError(f"$: expected a PlayerView, got {quote(view)}")
    edition = view.edition
    if not isinstance(edition, str) or edition != rs.id:
        raise ViewError(f"$.edition: the view is of edition {quote(edition)}, not {rs.id!r}")
    players = _players(rs, view)
    n = len(players)
    seat = _seat(view.seat, "$.seat", n)
    _seat(view.current, "$.current", n)
    if not isinstance(view.phase, Phase):
        raise ViewError(f"$.phase: expected a Phase, got {quote(view.phase)}")
    _piles(rs, view)
    _board(rs, view, players)
    hand = _cards(rs, view.hand, "$.hand")
    if sum(hand) != players[seat].hand_size:
        raise ViewError(
            f"$.hand: the hand holds {sum(hand)} cards but $.players[{seat}].hand_size is "
            f"{players[seat].hand_size}"
        )
    _turn(rs, view, players)
    tunnel = _tunnel(rs, view, hand)
    choice = _choice(rs, view, hand)
    tickets, offered = _tickets(rs, view)
    start, waiting = _opening(rs, view)
    fixed = _fixed_cards(view, hand, tunnel, choice)
    unseen = _unseen(rs, view, fixed, tunnel)
    return ValidatedView(
        view=view,
        tunnel=tunnel,
        choice=choice,
        tickets=tickets,
        offered=offered,
        start_player=start,
        waiting=waiting,
        fixed=fixed,
        unseen_cards=unseen,
    )


# -- values --------------------------------------------------------------------------------


def _int(value: object, path: str) -> int:
    """``value`` if it is an ``int`` (a ``bool`` is not)."""
    if type(value) is not int:
        raise ViewError(f"{path}: expected an integer, got {quote(value)}")
    return value


def _in(value: object, path: str, lo: int, hi: int, what: str) -> int:
    """``value`` if it is an ``int`` from ``lo`` to ``hi``; ``what`` says what those are."""
    n = _int(value, path)
    if not lo <= n <= hi:
        raise ViewError(f"{path}: must be {lo} to {hi} ({what}), the view gives {quote(n)}")
    return n


def _tuple(value: object, path: str) -> tuple[object, ...]:
    if not isinstance(value, tuple):
        raise ViewError(f"{path}: expected a tuple, got {quote(value)}")
    return value


def _seat(value: object, path: str, n: int) -> int:
    return _in(value, path, 0, n - 1, f"the seats of a {n}-player game")


def _cards(rs: Ruleset, value: object, path: str) -> tuple[int, ...]:
    """Nine card counts, none more than the edition's train cards of its kind."""
    counts = _tuple(value, path)
    if len(counts) != NUM_KINDS:
        raise ViewError(f"{path}: expected {NUM_KINDS} card counts, got {quote(counts)}")
    ix = index_of(rs)
    return tuple(
        _in(
            c,
            f"{path}.{CARD_NAMES[k]}",
            0,
            ix.deck_counts[k],
            f"the {CARD_NAMES[k]} cards of {rs.map.name}",
        )
        for k, c in enumerate(counts)
    )


def _ids(value: object, path: str) -> tuple[int, ...]:
    return tuple(_int(x, f"{path}[{i}]") for i, x in enumerate(_tuple(value, path)))


# -- the parts of a view --------------------------------------------------------------------


def _players(rs: Ruleset, view: PlayerView) -> tuple[PublicPlayer, ...]:
    """The public records, each of the right type and within the edition's counts."""
    records = _tuple(view.players, "$.players")
    lo, hi = rs.params.players
    if not lo <= len(records) <= hi:
        raise ViewError(
            f"$.players: {rs.map.name} is played by {lo} to {hi} players, the view shows "
            f"{len(records)}"
        )
    params = rs.params
    ix = index_of(rs)
    out: list[PublicPlayer] = []
    for i, p in enumerate(records):
        at = f"$.players[{i}]"
        if not isinstance(p, PublicPlayer):
            raise ViewError(f"{at}: expected a PublicPlayer, got {quote(p)}")
        if _int(p.seat, f"{at}.seat") != i:
            raise ViewError(f"{at}.seat: the record of seat {i} gives seat {quote(p.seat)}")
        _in(p.hand_size, f"{at}.hand_size", 0, sum(ix.deck_counts), f"the cards of {rs.map.name}")
        _in(p.trains, f"{at}.trains", 0, params.trains, "the trains of a seat")
        _in(p.tickets, f"{at}.tickets", 0, len(ix.tickets), f"the tickets of {rs.map.name}")
        _int(p.score, f"{at}.score")
        stations = _int(p.stations, f"{at}.stations")
        if not params.stations and stations:
            raise ViewError(
                f"{at}.stations: {rs.map.name} has no stations, the view gives {quote(stations)}"
            )
        _in(stations, f"{at}.stations", 0, params.stations, "the stations of a seat")
        out.append(p)
    return tuple(out)


def _piles(rs: Ruleset, view: PlayerView) -> None:
    """The deck sizes, the discard pile and the display."""
    ix = index_of(rs)
    _in(view.deck_size, "$.deck_size", 0, sum(ix.deck_counts), f"the cards of {rs.map.name}")
    tickets = len(ix.tickets)
    _in(view.ticket_deck_size, "$.ticket_deck_size", 0, tickets, f"the tickets of {rs.map.name}")
    discard = _cards(rs, view.discard, "$.discard")
    display = _tuple(view.display, "$.display")
    size = rs.params.display.size
    if len(display) != size:
        raise ViewError(
            f"$.display: {rs.map.name} shows {size} cards face up, the view {len(display)}"
        )
    slots = [
        _in(c, f"$.display[{i}]", -1, LOCO, "a card number, -1 for an empty slot")
        for i, c in enumerate(display)
    ]
    if -1 in slots and (view.deck_size or any(discard)):
        raise ViewError(
            f"$.display[{slots.index(-1)}]: a slot stays empty only when the deck and the "
            "discard pile are"
        )


def _board(rs: Ruleset, view: PlayerView, players: tuple[PublicPlayer, ...]) -> None:
    """Track and station owners, and the trains, scores and stations they imply."""
    ix = index_of(rs)
    n = len(players)
    owners = _ids(view.owners, "$.owners")
    if len(owners) != len(ix.routes):
        raise ViewError(
            f"$.owners: {rs.map.name} has {len(ix.routes)} tracks, the view gives "
            f"{len(owners)} owners"
        )
    for r, o in enumerate(owners):
        _in(o, f"$.owners[{r}]", -1, n - 1, "a seat, -1 for none")
    for r, twin in enumerate(ix.route_twin):
        if twin < r or owners[r] < 0 or owners[twin] < 0:
            continue
        if owners[r] == owners[twin]:
            raise ViewError(
                f"$.owners[{r}]: seat {owners[r]} owns both tracks of {rs.route_name(r)}"
            )
        if n < ix.double_open_min:
            raise ViewError(
                f"$.owners[{r}]: both tracks of {rs.route_name(r)} are claimed by {n} players "
                f"(both open from {ix.double_open_min})"
            )
    cities = len(ix.city_ids) if rs.params.stations else 0
    station_owners = _ids(view.station_owners, "$.station_owners")
    if len(station_owners) != cities:
        raise ViewError(
            f"$.station_owners: {rs.map.name} takes {cities} station owners, one per city, "
            f"the view gives {len(station_owners)}"
        )
    for c, o in enumerate(station_owners):
        _in(o, f"$.station_owners[{c}]", -1, n - 1, "a seat, -1 for none")
    built = Counter(station_owners)
    params = rs.params
    for i, p in enumerate(players):
        mine = [r for r, o in enumerate(owners) if o == i]
        trains = params.trains - sum(ix.route_len[r] for r in mine)
        if p.trains != trains:
            raise ViewError(
                f"$.players[{i}].trains: seat {i}'s tracks leave it {trains} of its "
                f"{params.trains} trains, the view gives {quote(p.trains)}"
            )
        points = sum(ix.route_points[r] for r in mine)
        if p.score != points:
            raise ViewError(
                f"$.players[{i}].score: seat {i}'s tracks score {points}, the view gives "
                f"{quote(p.score)}"
            )
        if p.stations != params.stations - built[i]:
            raise ViewError(
                f"$.players[{i}].stations: seat {i} built {built[i]} of its {params.stations} "
                f"stations, the view gives {quote(p.stations)} left"
            )


def _turn(rs: Ruleset, view: PlayerView, players: tuple[PublicPlayer, ...]) -> None:
    """The turn count, the final round and what the phase needs of the seat to act."""
    n = len(players)
    turn = _int(view.turn, "$.turn")
    taken = sum(1 for o in view.owners if o >= 0) + sum(1 for o in view.station_owners if o >= 0)
    if turn < taken:
        raise ViewError(
            f"$.turn: {taken} tracks and stations are taken, a turn each, the view gives "
            f"{quote(turn)} turns"
        )
    trigger = _in(view.final_trigger, "$.final_trigger", -1, n - 1, "a seat, -1 for none")
    if trigger >= 0 and players[trigger].trains > 2:
        raise ViewError(
            f"$.final_trigger: seat {trigger} started the final round but holds "
            f"{players[trigger].trains} trains"
        )
    if trigger < 0:
        for i, p in enumerate(players):
            # A seat with fewer trains than it started with ended a turn with them.
            if p.trains <= 2 and p.trains < rs.params.trains:
                raise ViewError(
                    f"$.final_trigger: seat {i} ended a turn with {p.trains} trains, which "
                    "starts the final round"
                )
    phase = view.phase
    if phase is Phase.OPENING_TICKETS:
        if turn:
            raise ViewError(f"$.turn: opening tickets are chosen before turn 0, not {quote(turn)}")
        if trigger >= 0:
            raise ViewError("$.final_trigger: no final round starts before the first turn")
        hand = rs.params.starting_hand
        for i, p in enumerate(players):
            if p.hand_size != hand:
                raise ViewError(
                    f"$.players[{i}].hand_size: every seat holds its {hand} dealt cards "
                    f"while opening tickets are chosen, the view gives {p.hand_size}"
                )
    if phase is Phase.SECOND_CARD:
        whole = index_of(rs).face_up_loco_whole_draw
        second = any(c >= 0 and not (whole and c == LOCO) for c in view.display)
        if not (view.deck_size or any(view.discard) or second):
            raise ViewError(
                "$.phase: a second card is drawn only if one can be, and the deck, the "
                "discard pile and the display offer none"
            )
        if not players[view.current].hand_size:
            raise ViewError(
                f"$.players[{view.current}].hand_size: seat {view.current} drew a first card "
                "but holds none"
            )


def _route(rs: Ruleset, path: str, value: object) -> int:
    r = index_of(rs).route_index.get(_int(value, path), -1)
    if r < 0:
        raise ViewError(f"{path}: {rs.map.name} has no track {quote(value)}")
    return r


def _claimable(rs: Ruleset, view: PlayerView, r: int, path: str) -> None:
    """Refuse a pending claim of track ``r`` the seat to act could not have made."""
    p = view.current
    owners = view.owners
    if owners[r] >= 0:
        raise ViewError(f"{path}: {rs.route_name(r)} is claimed by seat {owners[r]}")
    rule = parallel_rule(rs, owners, r, p, len(view.players))
    if rule == OWN_PARALLEL:
        raise ViewError(f"{path}: seat {p} owns the parallel track of {rs.route_name(r)}")
    if rule == CLOSED_PARALLEL:
        raise ViewError(f"{path}: {rs.route_name(r)} is closed, its parallel track is claimed")
    trains = view.players[p].trains
    length = rs.map.routes[r].length
    if trains < length:
        raise ViewError(
            f"{path}: {rs.route_name(r)} needs {length} trains, seat {p} holds {trains}"
        )


def _laid_down(view: PlayerView, hand: tuple[int, ...], cards: tuple[int, ...], path: str) -> None:
    """Refuse cards laid down by the viewer that its hand does not hold."""
    if view.current != view.seat:
        return
    for k in range(NUM_KINDS):
        if cards[k] > hand[k]:
            raise ViewError(
                f"{path}.{CARD_NAMES[k]}: seat {view.seat} laid down {cards[k]} "
                f"{CARD_NAMES[k]} cards but holds {hand[k]}"
            )


def _tunnel(rs: Ruleset, view: PlayerView, hand: tuple[int, ...]) -> TunnelAttempt | None:
    """The pending tunnel claim; the colour the extra cards must match is the payment's."""
    t = view.tunnel
    waits = view.phase is Phase.TUNNEL
    if t is None:
        if waits:
            raise ViewError("$.tunnel: a tunnel claim waits in phase TUNNEL, the view has none")
        return None
    if not isinstance(t, TunnelView):
        raise ViewError(f"$.tunnel: expected a TunnelView or None, got {quote(t)}")
    if not waits:
        raise ViewError(f"$.tunnel: no tunnel claim waits in phase {view.phase.name}")
    r = _route(rs, "$.tunnel.route", t.route)
    if not rs.map.routes[r].tunnel:
        raise ViewError(f"$.tunnel.route: {rs.route_name(r)} is not a tunnel")
    _claimable(rs, view, r, "$.tunnel.route")
    paid = _cards(rs, t.paid, "$.tunnel.paid")
    why = payment_error(rs, r, paid)
    if why is not None:
        raise ViewError(f"$.tunnel.paid: {why[1]} (rule {why[0]})")
    _laid_down(view, hand, paid, "$.tunnel.paid")
    shown = _tuple(t.revealed, "$.tunnel.revealed")
    reveal = rs.params.tunnel_reveal
    if len(shown) > reveal:
        raise ViewError(
            f"$.tunnel.revealed: {rs.map.name} turns over {reveal} cards for a tunnel, the "
            f"view shows {len(shown)}"
        )
    revealed = tuple(
        _in(c, f"$.tunnel.revealed[{i}]", 0, LOCO, "a card number") for i, c in enumerate(shown)
    )
    if len(revealed) < reveal and (view.deck_size or any(view.discard)):
        raise ViewError(
            f"$.tunnel.revealed: {len(revealed)} of {reveal} cards were turned over, but the "
            "deck or the discard pile holds more"
        )
    matching = tunnel_matching_kinds(paid)
    color = matching[0]
    demanded = sum(1 for c in revealed if c in matching)
    if not demanded:
        raise ViewError(
            "$.tunnel.revealed: no turned-over card demands an extra card, so the claim "
            "would have completed"
        )
    if _int(t.extra, "$.tunnel.extra") != demanded:
        raise ViewError(
            f"$.tunnel.extra: the turned-over cards demand {demanded} extra cards, the view "
            f"gives {quote(t.extra)}"
        )
    return TunnelAttempt(route=r, paid=paid, revealed=revealed, extra=demanded, color=color)


def _choice(rs: Ruleset, view: PlayerView, hand: tuple[int, ...]) -> CardChoice | None:
    """The payment with groups whose cards the seat to act is choosing."""
    c = view.choice
    waits = view.phase is Phase.CHOOSE_CARDS
    if c is None:
        if waits:
            raise ViewError(
                "$.choice: a payment is being chosen in phase CHOOSE_CARDS, the view has none"
            )
        return None
    if not isinstance(c, CardChoiceView):
        raise ViewError(f"$.choice: expected a CardChoiceView or None, got {quote(c)}")
    if not waits:
        raise ViewError(f"$.choice: no payment is being chosen in phase {view.phase.name}")
    r = _route(rs, "$.choice.route", c.route)
    shape = route_shape(rs, r)
    if not shape.size:
        raise ViewError(
            f"$.choice.route: {rs.route_name(r)} cannot be paid with groups of any cards"
        )
    _claimable(rs, view, r, "$.choice.route")
    top = max_groups(shape)
    groups = _in(c.groups, "$.choice.groups", 1, top, f"groups for {rs.route_name(r)}")
    size = payment_size(shape, groups)
    if _int(c.size, "$.choice.size") != size:
        raise ViewError(
            f"$.choice.size: a payment with {groups} groups holds {size} cards, the view gives "
            f"{quote(c.size)}"
        )
    chosen = _cards(rs, c.chosen, "$.choice.chosen")
    if sum(chosen) >= size:
        raise ViewError(
            f"$.choice.chosen: {sum(chosen)} cards are chosen, the payment of {size} would "
            "have completed"
        )
    _laid_down(view, hand, chosen, "$.choice.chosen")
    if view.current == view.seat and not choosable(shape, groups, chosen, hand):
        raise ViewError(
            f"$.choice.chosen: the hand of seat {view.seat} cannot complete the payment"
        )
    return CardChoice(route=r, groups=groups, size=size, chosen=chosen)


def _ticket_indices(rs: Ruleset, value: object, path: str) -> tuple[int, ...]:
    ids = _ids(value, path)
    index = index_of(rs).ticket_index
    out = []
    for i, t in enumerate(ids):
        x = index.get(t, -1)
        if x < 0:
            raise ViewError(f"{path}[{i}]: {rs.map.name} has no ticket {quote(t)}")
        if x in out:
            raise ViewError(f"{path}[{i}]: ticket {t} is listed twice")
        out.append(x)
    return tuple(out)


def _tickets(rs: Ruleset, view: PlayerView) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The viewer's kept and offered tickets as indices, checked against the deals."""
    tickets = _ticket_indices(rs, view.tickets, "$.tickets")
    offered = _ticket_indices(rs, view.offered, "$.offered")
    me = view.players[view.seat]
    if len(tickets) != me.tickets:
        raise ViewError(
            f"$.tickets: the view lists {len(tickets)} tickets, $.players[{view.seat}].tickets "
            f"counts {me.tickets}"
        )
    both = set(tickets) & set(offered)
    if both:
        raise ViewError(f"$.offered: {rs.ticket_name(min(both))} is both kept and offered")
    opening, draw = rs.params.opening_tickets, rs.params.ticket_draw
    long_in_deck = opening.long > 0 and opening.returned == "bottom"
    longs = set(index_of(rs).long_tickets)
    if not long_in_deck and sum(1 for t in tickets if t in longs) > opening.long:
        raise ViewError(
            f"$.tickets: {rs.map.name} deals {opening.long} long tickets to a seat, the view "
            "lists more"
        )
    phase = view.phase
    if phase is Phase.OPENING_TICKETS and offered:
        dealt = (opening.long, opening.deal - opening.long)
        long_offered = sum(1 for t in offered if t in longs)
        if (long_offered, len(offered) - long_offered) != dealt:
            raise ViewError(
                f"$.offered: {rs.map.name} deals {dealt[0]} long and {dealt[1]} other opening "
                f"tickets, the view offers {long_offered} and {len(offered) - long_offered}"
            )
    elif phase is Phase.KEEP_TICKETS and view.current == view.seat:
        # Fewer than a full draw only from a deck that ran out.
        short = len(offered) < draw.deal and not view.ticket_deck_size
        if not offered or (len(offered) != draw.deal and not short):
            raise ViewError(
                f"$.offered: {rs.map.name} deals {draw.deal} tickets to draw, fewer only from "
                f"a deck that runs out, the view offers {len(offered)}"
            )
        if not long_in_deck and any(t in longs for t in offered):
            raise ViewError(f"$.offered: {rs.map.name} deals no long tickets in play")
    elif offered:
        raise ViewError(
            f"$.offered: no tickets are offered to seat {view.seat} in phase {phase.name}"
        )
    if phase is not Phase.OPENING_TICKETS:
        least = min(opening.keep, opening.deal)
        for i, p in enumerate(view.players):
            if p.tickets < least:
                raise ViewError(
                    f"$.players[{i}].tickets: every seat kept at least {least} opening "
                    f"tickets, the view gives {p.tickets}"
                )
    return tickets, offered


def _opening(rs: Ruleset, view: PlayerView) -> tuple[int, tuple[int, ...]]:
    """The start player, and the opponents still to choose their opening tickets.

    After the opening the seat to act is the start player's plus the turns played. During
    it, the seats from the start player on have chosen (each kept at least the edition's
    minimum), and the current seat and those after it, up to the start player, have not.
    """
    n = len(view.players)
    turn = view.turn
    if view.phase is Phase.GAME_OVER:
        return (view.current - turn + 1) % n, ()
    if view.phase is not Phase.OPENING_TICKETS:
        return (view.current - turn) % n, ()
    deal = rs.params.opening_tickets
    least = min(deal.keep, deal.deal)
    for start in range(n):
        chosen = {(start + i) % n for i in range((view.current - start) % n)}
        fits = all(
            least <= p.tickets <= deal.deal if p.seat in chosen else p.tickets == 0
            for p in view.players
        )
        if deal.deal and (view.seat in chosen) == bool(view.offered):
            fits = False
        if fits:
            waiting = tuple(p for p in range(n) if p not in chosen and p != view.seat)
            return start, waiting
    raise ViewError(
        "$.players: the ticket counts fit no order of choosing opening tickets "
        f"(each seat keeps {least} to {deal.deal})"
    )


def _fixed_cards(
    view: PlayerView,
    hand: tuple[int, ...],
    tunnel: TunnelAttempt | None,
    choice: CardChoice | None,
) -> tuple[tuple[int, ...], ...]:
    """Per seat, the cards known to be in its hand: all of the viewer's, and the cards an
    opponent laid down for a tunnel or chose for a payment, which stay in its hand."""
    out = []
    for p, public in enumerate(view.players):
        cards: tuple[int, ...] = (0,) * NUM_KINDS
        if p == view.seat:
            cards = hand
        elif p == view.current and tunnel is not None:
            cards = tunnel.paid
        elif p == view.current and choice is not None:
            cards = choice.chosen
        if sum(cards) > public.hand_size:
            raise ViewError(
                f"$.players[{p}].hand_size: seat {p} holds {public.hand_size} cards, fewer "
                f"than the {sum(cards)} it laid down"
            )
        out.append(cards)
    return tuple(out)


def _unseen(
    rs: Ruleset,
    view: PlayerView,
    fixed: tuple[tuple[int, ...], ...],
    tunnel: TunnelAttempt | None,
) -> tuple[int, ...]:
    """The train cards the viewer cannot place; they must fill the hidden hands and the deck."""
    shown = [*view.display, *(tunnel.revealed if tunnel is not None else ())]
    unseen = unseen_cards(rs, fixed[view.seat], view.discard, shown)
    for p, counts in enumerate(fixed):
        if p != view.seat:
            for k in range(NUM_KINDS):
                unseen[k] -= counts[k]  # laid down in public, so in that opponent's hand
    deck_counts = index_of(rs).deck_counts
    for k in range(NUM_KINDS):
        if unseen[k] < 0:
            raise ViewError(
                f"$: the view shows {deck_counts[k] - unseen[k]} {CARD_NAMES[k]} cards "
                f"(hands, discard pile, display, tunnel), {rs.map.name} has "
                f"{deck_counts[k]}"
            )
    hidden = view.deck_size + sum(
        p.hand_size - sum(fixed[i]) for i, p in enumerate(view.players) if i != view.seat
    )
    if hidden != sum(unseen):
        raise ViewError(
            f"$.deck_size: {sum(unseen)} train cards are unseen but the hidden hands and the "
            f"deck hold {hidden}"
        )
    return tuple(unseen)
