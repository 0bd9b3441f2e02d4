"""Tunnels: cards turned over after the claim's payment may demand extra cards.

Claiming a tunnel lays the payment down and turns over cards from the deck
(TUNNEL-2, TUNNEL-3); each one matching the payment's colour, and each locomotive,
demands one extra card (TUNNEL-4). With nothing demanded the claim completes at once.
Otherwise the player pays exactly the extra cards, of the payment's colour or
locomotives (TUNNEL-6), or withdraws: the cards go back to the hand and the turn ends
(TUNNEL-7). The turned-over cards go to the discard pile either way.

Listing order: the extra payments with the fewest locomotives first, then withdrawing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from ttr_core.model import events as ev
from ttr_core.model.actions import Action, ClaimRoute, PayTunnel, WithdrawTunnel
from ttr_core.model.cards import CARD_NAMES, LOCO, NUM_KINDS
from ttr_core.model.errors import IllegalActionError
from ttr_core.model.state import TunnelAttempt
from ttr_core.rules import claims, piles
from ttr_core.rules.claims import complete_claim
from ttr_core.rules.payments import is_counts
from ttr_core.rules.table import TUNNEL, Check, Table
from ttr_core.rules.turn import end_turn

WITHDRAW = WithdrawTunnel()


def tunnel_matching_kinds(paid: Sequence[int]) -> tuple[int, ...]:
    """The card kinds that demand an extra card when turned over for a tunnel paid with
    ``paid`` (nine counts): the payment's colour and locomotives, or only locomotives for
    an all-locomotive payment (TUNNEL-4, TUNNEL-5). The first is the kind the extra
    cards must be, besides locomotives (TUNNEL-6)."""
    for k in range(LOCO):
        if paid[k]:
            return (k, LOCO)
    return (LOCO,)


def reveal(t: Table, r: int, cards: tuple[int, ...]) -> None:
    """Turn over cards for a listed tunnel claim; claim at once if nothing matches."""
    rs = t.rs
    ix = t.ix
    revealed: list[int] = []
    for _ in range(rs.params.tunnel_reveal):
        card = piles.draw(t)
        if card < 0:
            break
        revealed.append(card)
    matching = tunnel_matching_kinds(cards)
    match = matching[0]
    extra = sum(1 for c in revealed if c in matching)
    shown = tuple(revealed)
    if t.events is not None:
        t.events.append(
            ev.TunnelRevealed(player=t.current, route=ix.route_ids[r], cards=shown, extra=extra)
        )
    if extra == 0:
        complete_claim(t, r, cards, shown)
        return
    t.phase = TUNNEL
    t.tunnel = TunnelAttempt(route=r, paid=cards, revealed=shown, extra=extra, color=match)


def extra_payments(t: Table) -> list[tuple[int, ...]]:
    """The extra payments the pending tunnel may be completed with (listing)."""
    attempt = t.tunnel
    if t.phase != TUNNEL or attempt is None:
        return []
    base = t.current * NUM_KINDS
    color, paid, extra = attempt.color, attempt.paid, attempt.extra
    spare_color = t.hands[base + color] - paid[color] if color != LOCO else 0
    spare_loco = t.hands[base + LOCO] - paid[LOCO]
    out: list[tuple[int, ...]] = []
    for locos in range(extra + 1):
        colored = extra - locos
        if locos <= spare_loco and colored <= spare_color:
            cards = [0] * NUM_KINDS
            if colored:
                cards[color] = colored
            cards[LOCO] = cards[LOCO] + locos
            out.append(tuple(cards))
    return out


def options(t: Table) -> list[Action]:
    """The legal actions while a tunnel waits: each extra payment, then withdrawing."""
    if t.phase != TUNNEL:
        return []
    out: list[Action] = [PayTunnel(cards=cards) for cards in extra_payments(t)]
    out.append(WITHDRAW)
    return out


def payment_error(t: Table, cards: object) -> tuple[str, str]:
    """Why ``cards`` cannot pay the pending tunnel's extra cost (it is not listed)."""
    attempt = t.tunnel
    if t.phase != TUNNEL or attempt is None:
        return "TUNNEL-6", "no tunnel claim is waiting for payment"
    if not is_counts(cards):
        return "TUNNEL-6", "a payment is a tuple of nine card counts"
    assert isinstance(cards, tuple)
    if sum(cards) != attempt.extra:
        return "TUNNEL-6", f"the reveal demands exactly {attempt.extra} extra cards"
    color = attempt.color
    if any(cards[k] for k in range(NUM_KINDS) if k != color and k != LOCO):
        what = "locomotives" if color == LOCO else f"{CARD_NAMES[color]} cards or locomotives"
        return "TUNNEL-6", f"the extra cards must be {what}"
    return "TUNNEL-6", "you do not hold these cards besides the ones laid down"


def check_pay(t: Table, cards: object) -> None:
    """Raise unless ``cards`` is a listed extra payment."""
    if not is_counts(cards) or cards not in extra_payments(t):
        raise IllegalActionError(*payment_error(t, cards))


def pay(t: Table, cards: tuple[int, ...]) -> None:
    """Complete the tunnel claim with a listed extra payment."""
    attempt = t.tunnel
    assert attempt is not None
    total = tuple(attempt.paid[k] + cards[k] for k in range(NUM_KINDS))
    complete_claim(t, attempt.route, total, attempt.revealed)


def check_withdraw(t: Table) -> None:
    """Raise unless a tunnel claim waits to be withdrawn from."""
    if t.phase != TUNNEL:
        raise IllegalActionError("TUNNEL-7", "no tunnel claim to withdraw from")


def withdraw(t: Table) -> None:
    """Give up the tunnel claim: the turned-over cards are discarded and the turn ends."""
    attempt = t.tunnel
    assert attempt is not None
    for c in attempt.revealed:
        t.discard[c] = t.discard[c] + 1
    if t.events is not None:
        t.events.append(ev.TunnelWithdrawn(player=t.current, route=t.ix.route_ids[attempt.route]))
    piles.refill(t)
    end_turn(t)


def claim(t: Table, r: int, cards: tuple[int, ...]) -> None:
    """Claim listed track index ``r`` with ``cards``: a tunnel's reveal, else the claim."""
    if t.route_tunnel[r]:
        reveal(t, r, cards)
    else:
        complete_claim(t, r, cards, ())


def _claim_checked(t: Table, action: Action) -> Callable[[], None]:
    assert isinstance(action, ClaimRoute)
    cards = action.cards
    r = claims.check_claim(t, action.route, cards)
    if t.route_tunnel[r]:
        return lambda: reveal(t, r, cards)
    return lambda: complete_claim(t, r, cards, ())


def _pay_checked(t: Table, action: Action) -> Callable[[], None]:
    assert isinstance(action, PayTunnel)
    cards = action.cards
    check_pay(t, cards)
    return lambda: pay(t, cards)


def _withdraw_checked(t: Table, action: Action) -> Callable[[], None]:
    check_withdraw(t)
    return lambda: withdraw(t)


CHECKS: Final[Mapping[type[Action], Check]] = {
    ClaimRoute: _claim_checked,
    PayTunnel: _pay_checked,
    WithdrawTunnel: _withdraw_checked,
}
"""The checks of claiming a track (a tunnel's reveal, for a tunnel: hence here rather
than in [`claims`][ttr_core.rules.claims]), of paying a tunnel's extra cards and of
withdrawing, by action type (see [`Check`][ttr_core.rules.table.Check])."""
