"""The actions a player can take. Each class has a stable ``tag`` used on the wire.

Routes are named by track id, tickets by ticket id and cities by name, as in the map data; cards are
card numbers (see [`ttr_core.model.cards`][ttr_core.model.cards]) and payments nine-count tuples. In
JSON, cards appear by name: ``{"tag": "claim_route", "route": 40, "cards": {"red": 3}}``.
"""

from __future__ import annotations

from typing import ClassVar

from attrs import field, frozen

CARD = {"wire": "card"}
CARDS = {"wire": "cards"}


@frozen(slots=False)
class Action:
    """Base class of all actions.

    Actions keep their fields in an instance dictionary rather than slots: the functional
    API builds one per decision, and attrs sets dictionary fields faster.
    """

    tag: ClassVar[str] = ""


@frozen(slots=False)
class TakeFaceUp(Action):
    """Take a face-up card of the given kind (the leftmost slot showing it)."""

    tag: ClassVar[str] = "take_face_up"
    card: int = field(metadata=CARD)


@frozen(slots=False)
class DrawBlind(Action):
    """Take the top card of the train deck."""

    tag: ClassVar[str] = "draw_blind"


@frozen(slots=False)
class DrawTickets(Action):
    """Draw destination tickets (then choose which to keep)."""

    tag: ClassVar[str] = "draw_tickets"


@frozen(slots=False)
class KeepTickets(Action):
    """Keep these of the tickets just drawn (or dealt); the rest are returned."""

    tag: ClassVar[str] = "keep_tickets"
    tickets: tuple[int, ...]


@frozen(slots=False)
class ClaimRoute(Action):
    """Claim a track, paying exactly these cards."""

    tag: ClassVar[str] = "claim_route"
    route: int
    cards: tuple[int, ...] = field(metadata=CARDS)


@frozen(slots=False)
class ClaimWithGroups(Action):
    """Claim a track paying partly with groups of any cards; the cards are chosen next.

    ``groups`` is how many groups of any cards the payment holds (at least 1). The
    player then names the cards one at a time with [`ChooseCard`][], and the claim
    completes with the last one. Payments without groups use [`ClaimRoute`][].
    """

    tag: ClassVar[str] = "claim_with_groups"
    route: int
    groups: int


@frozen(slots=False)
class ChooseCard(Action):
    """Add one card of this kind to the payment being chosen.

    Cards are named in card order (colours by number, then locomotives), so every
    payment is reached by exactly one sequence of choices.
    """

    tag: ClassVar[str] = "choose_card"
    card: int = field(metadata=CARD)


@frozen(slots=False)
class PayTunnel(Action):
    """Pay the extra cards a tunnel reveal demanded, completing the claim."""

    tag: ClassVar[str] = "pay_tunnel"
    cards: tuple[int, ...] = field(metadata=CARDS)


@frozen(slots=False)
class WithdrawTunnel(Action):
    """Give up a tunnel claim: the cards go back to the hand and the turn ends."""

    tag: ClassVar[str] = "withdraw_tunnel"


@frozen(slots=False)
class BuildStation(Action):
    """Build a station in a city, paying these cards."""

    tag: ClassVar[str] = "build_station"
    city: str
    cards: tuple[int, ...] = field(metadata=CARDS)


@frozen(slots=False)
class Pass(Action):
    """Do nothing this turn; legal only when no other action is."""

    tag: ClassVar[str] = "pass"


ACTION_TYPES: tuple[type[Action], ...] = (
    TakeFaceUp,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    ClaimRoute,
    ClaimWithGroups,
    ChooseCard,
    PayTunnel,
    WithdrawTunnel,
    BuildStation,
    Pass,
)
