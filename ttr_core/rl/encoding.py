"""A fixed integer action space per ruleset: every legal action has exactly one code.

[`ActionEncoding`][] numbers the actions of a ruleset from 0 to ``size - 1``, in
sections, in this order (an edition without stations, tunnels or card groups has no
codes for them):

- ``take_face_up``: 9 codes, the kind of face-up card taken (colours, then locomotive).
- ``draw_blind`` and ``draw_tickets``: one code each.
- ``claim_route``: for each track in map order, each payment it accepts without groups
  (all locomotives first, then each colour with the most coloured cards first).
- ``claim_with_groups``: for each track that takes groups of any cards, in map order, 1
  group up to the most the track can take.
- ``build_station``: for each city in map order, ``1 + 8 * top`` payment slots, ``top``
  being the price of the dearest station: slot 0 pays with locomotives only, slot
  ``1 + colour * top + n`` with ``n`` locomotives and the rest of the price in that
  colour.
- ``pass``: one code.
- ``keep_tickets``: ``2 ** offer`` codes, ``offer`` being the largest ticket offer:
  bit ``i`` of ``code - start`` keeps the ``i``-th ticket of ``view.offered``.
- ``pay_tunnel``: ``tunnel_reveal + 1`` codes, the number of locomotives among the
  extra cards, the rest in the colour the tunnel demands.
- ``withdraw_tunnel``: one code.
- ``choose_card``: 9 codes, the kind of card chosen next.

Keeping tickets, stations and tunnel payments are coded relative to the position (the
offer, the price of the seat's next station, the pending tunnel), so they are read
against the view of the seat to act; every other code names the same action in every
position.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Iterable, Sequence
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt
from attrs import frozen

from ttr_core.hidden.determinize import known_state
from ttr_core.model.actions import (
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
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.errors import ActionCodeError, quote
from ttr_core.model.state import Phase
from ttr_core.play.simulator import Simulator
from ttr_core.rules.queries import is_counts, max_groups, payment_error, track_cost
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset


@frozen
class Section:
    """One kind of action's block of codes: ``start`` to ``start + size - 1``."""

    name: str
    start: int
    size: int

    @property
    def stop(self) -> int:
        """The first code after the section."""
        return self.start + self.size


def _tunnel_color(paid: tuple[int, ...]) -> int:
    """The card a tunnel's extra cards must match: the colour of the cards laid down, or
    the locomotive when only locomotives were laid down (TUNNEL-6)."""
    for k in range(LOCO):
        if paid[k]:
            return k
    return LOCO


def _claim_payments(rs: Ruleset, r: int) -> list[tuple[int, ...]]:
    """The payments without groups that track ``r`` accepts, in listing order."""
    length = rs.map.routes[r].length
    out = []
    for c, n in [(-1, 0)] + [(c, n) for c in range(LOCO) for n in range(length, 0, -1)]:
        cards = [0] * NUM_KINDS
        if c >= 0:
            cards[c] = n
        cards[LOCO] = length - n
        if payment_error(rs, r, tuple(cards)) is None:
            out.append(tuple(cards))
    return out


class _Layout:
    """The code tables of one ruleset, built once (see `_layout`)."""

    def __init__(self, rs: Ruleset) -> None:
        params = rs.params
        self.fixed: list[Action | None] = []
        """Per code, its action where the code means one action in every position."""
        self.sections: list[Section] = []
        self.face = self._add("take_face_up", [TakeFaceUp(card=k) for k in range(NUM_KINDS)])
        self.blind = self._add("draw_blind", [DrawBlind()])
        self.draw = self._add("draw_tickets", [DrawTickets()])
        tracks = rs.map.routes
        claims: list[Action | None] = []
        for r, track in enumerate(tracks):
            claims.extend(
                ClaimRoute(route=track.id, cards=cards) for cards in _claim_payments(rs, r)
            )
        self._add("claim_route", claims)
        groups: list[Action | None] = []
        takes_groups = False
        for r, track in enumerate(tracks):
            if track_cost(rs, r).group_size:
                takes_groups = True
                top = max_groups(rs, r)
                groups.extend(ClaimWithGroups(route=track.id, groups=g) for g in range(1, top + 1))
        self._add("claim_with_groups", groups)
        self.claim_code: dict[tuple[int, tuple[int, ...]], int] = {}
        self.group_code: dict[tuple[int, int], int] = {}
        for code, action in enumerate(self.fixed):
            if isinstance(action, ClaimRoute):
                self.claim_code[action.route, action.cards] = code
            elif isinstance(action, ClaimWithGroups):
                self.group_code[action.route, action.groups] = code
        self.station_top = max(params.station_cost, default=0) if params.stations else 0
        self.station_slots = 1 + LOCO * self.station_top if self.station_top else 0
        self.city_ids = tuple(city.id for city in rs.map.cities)
        self.city_index = {
            name: c for c, city in enumerate(rs.map.cities) for name in (city.id, *city.aliases)
        }
        """City index by id or alias, as actions may name a city."""
        cities = len(self.city_ids) if self.station_slots else 0
        self.station = self._add("build_station", [None] * (cities * self.station_slots))
        self.pass_ = self._add("pass", [Pass()])
        self.offer = max(params.opening_tickets.deal, params.ticket_draw.deal)
        self.keep = self._add("keep_tickets", [None] * (1 << self.offer))
        self.has_tunnels = any(track.tunnel for track in tracks)
        reveal = params.tunnel_reveal + 1 if self.has_tunnels else 0
        self.tunnel = self._add("pay_tunnel", [None] * reveal)
        self.withdraw = self._add("withdraw_tunnel", [WithdrawTunnel()] if reveal else [])
        self.has_groups = takes_groups
        chooses = [ChooseCard(card=k) for k in range(NUM_KINDS)] if takes_groups else []
        self.choose = self._add("choose_card", chooses)
        self.size = len(self.fixed)

    def _add(self, name: str, actions: Sequence[Action | None]) -> int:
        start = len(self.fixed)
        self.fixed.extend(actions)
        self.sections.append(Section(name, start, len(actions)))
        return start


_LAYOUTS: weakref.WeakKeyDictionary[Ruleset, _Layout] = weakref.WeakKeyDictionary()


def _layout(rs: Ruleset) -> _Layout:
    """The code tables of ``rs``, built on first use and kept while the ruleset lives."""
    found = _LAYOUTS.get(rs)
    if found is None:
        found = _LAYOUTS[rs] = _Layout(rs)
    return found


class ActionEncoding:
    """The fixed integer codes of a ruleset's actions (see the module for the layout).

    Every legal action has exactly one code and every code names at most one action of a
    position. [`encode`][] and [`decode`][] read the position from the view of the
    seat to act. The tables are built once per ruleset and shared.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._tables = _layout(ruleset)
        self.size: int = self._tables.size
        """How many codes there are (``Discrete(size)``), known before any game."""
        self.sections: tuple[Section, ...] = tuple(self._tables.sections)
        """The sections of the layout, in code order."""
        self._view: PlayerView | None = None
        self._known: Simulator | None = None

    def section(self, name: str) -> Section:
        """The section called ``name`` (``"claim_route"``, ...).

        :raises KeyError: there is no section of that name.
        """
        for s in self.sections:
            if s.name == name:
                return s
        raise KeyError(name)

    def section_of(self, code: SupportsIndex) -> Section:
        """The section ``code`` belongs to.

        :raises ActionCodeError: ``code`` is not from 0 to ``size - 1``.
        """
        c = self.check(code)
        for s in self.sections:
            if c < s.stop:
                return s
        raise AssertionError("the sections cover every code")

    # -- encoding ----------------------------------------------------------------------

    def encode(self, action: Action, view: PlayerView) -> int:
        """The code of ``action``, one of the legal actions of the seat whose view is
        ``view`` (the view places ticket choices, stations and tunnel payments).

        :raises ActionCodeError: no code means this action in this position.
        """
        tab = self._tables
        kind = type(action)
        code: int | None = None
        if kind is TakeFaceUp and isinstance(action, TakeFaceUp):
            card = action.card
            if type(card) is int and 0 <= card < NUM_KINDS:
                code = tab.face + card
        elif kind is DrawBlind:
            code = tab.blind
        elif kind is DrawTickets:
            code = tab.draw
        elif kind is ClaimRoute and isinstance(action, ClaimRoute):
            if type(action.route) is int and is_counts(action.cards):
                code = tab.claim_code.get((action.route, action.cards))
        elif kind is ClaimWithGroups and isinstance(action, ClaimWithGroups):
            if type(action.route) is int and type(action.groups) is int:
                code = tab.group_code.get((action.route, action.groups))
        elif kind is BuildStation and isinstance(action, BuildStation):
            code = self._station_code(action)
        elif kind is Pass:
            code = tab.pass_
        elif kind is KeepTickets and isinstance(action, KeepTickets):
            code = self._keep_code(action, view)
        elif kind is PayTunnel and isinstance(action, PayTunnel):
            code = self._tunnel_code(action, view)
        elif kind is WithdrawTunnel and tab.has_tunnels:
            code = tab.withdraw
        elif kind is ChooseCard and isinstance(action, ChooseCard) and tab.has_groups:
            card = action.card
            if type(card) is int and 0 <= card < NUM_KINDS:
                code = tab.choose + card
        if code is None:
            raise ActionCodeError(
                f"{quote(action)} has no code in the {self.ruleset.id} action encoding "
                f"for seat {quote(view.seat)} in this position"
            )
        return code

    def _station_code(self, action: BuildStation) -> int | None:
        tab = self._tables
        city = action.city
        c = tab.city_index.get(city, -1) if type(city) is str else -1
        cards = action.cards
        if c < 0 or not tab.station_slots or not is_counts(cards):
            return None
        cost = sum(cards)
        colours = [k for k in range(LOCO) if cards[k]]
        if not 1 <= cost <= tab.station_top or len(colours) > 1:
            return None
        locos = cards[LOCO]
        slot = 0 if not colours else 1 + colours[0] * tab.station_top + locos
        return tab.station + c * tab.station_slots + slot

    def _keep_code(self, action: KeepTickets, view: PlayerView) -> int | None:
        offered = view.offered
        tickets = action.tickets
        if type(tickets) is not tuple or len(set(tickets)) != len(tickets):
            return None
        bits = 0
        for t in tickets:
            if type(t) is not int or t not in offered:
                return None
            bits |= 1 << offered.index(t)
        return self._tables.keep + bits

    def _tunnel_code(self, action: PayTunnel, view: PlayerView) -> int | None:
        tunnel = view.tunnel
        cards = action.cards
        if tunnel is None or not is_counts(cards):
            return None
        locos = cards[LOCO]
        if self._tunnel_payment(view, locos) != cards:
            return None
        return self._tables.tunnel + locos

    @staticmethod
    def _tunnel_payment(view: PlayerView, locos: int) -> tuple[int, ...] | None:
        """The extra payment of the pending tunnel with ``locos`` locomotives, if any."""
        tunnel = view.tunnel
        if tunnel is None or not 0 <= locos <= tunnel.extra:
            return None
        color = _tunnel_color(tunnel.paid)
        if color == LOCO and locos != tunnel.extra:
            return None
        cards = [0] * NUM_KINDS
        cards[color] += tunnel.extra - locos
        cards[LOCO] += locos
        return tuple(cards)

    def codes(self, view: PlayerView, legal: Iterable[Action]) -> list[int]:
        """The codes of ``legal``, the legal actions of the seat whose view is ``view``."""
        encode = self.encode
        return [encode(action, view) for action in legal]

    def mask(self, view: PlayerView, legal: Iterable[Action]) -> npt.NDArray[np.int8]:
        """The action mask: 1 at the code of each action of ``legal``, 0 elsewhere."""
        out = np.zeros(self.size, dtype=np.int8)
        out[self.codes(view, legal)] = 1
        return out

    # -- decoding ----------------------------------------------------------------------

    def check(self, code: object) -> int:
        """``code`` as an ``int``, checked to be a code: a Python or NumPy integer scalar
        from 0 to ``size - 1``. A ``bool`` (an ``int`` to Python) and an array, even of one
        element, are refused, as a policy that returns them has a bug.

        :raises ActionCodeError: ``code`` is not an integer or is out of range (however
            large: the message gives a huge one by its number of digits).
        """
        if isinstance(code, bool) or not isinstance(code, int | np.integer):
            raise ActionCodeError(f"an action code is an integer, not {quote(code)}")
        c = operator.index(code)
        if not 0 <= c < self.size:
            raise ActionCodeError(
                f"action code {quote(c)} is out of range: the {self.ruleset.id} encoding has "
                f"codes 0 to {self.size - 1}"
            )
        return c

    def decode(self, code: SupportsIndex, view: PlayerView) -> Action:
        """The action that ``code`` names for the seat whose view is ``view``.

        Legality is the engine's: the code's action must be among the legal actions of
        [`known_state`][ttr_core.hidden.determinize.known_state] of the view, the position with the
        view's public parts and nothing hidden, whose seat to act has exactly the legal
        actions of any position the view comes from.

        :raises ActionCodeError: the code is not an integer or is out of range (see
            [`check`][]), the seat is not the one to act, or the code names no legal
            action in this position.
        :raises ViewError: the view cannot be a view of this ruleset (checked before
            anything else of the view is read).
        """
        c = self.check(code)
        known = self._known_at(view)
        if view.phase is Phase.GAME_OVER:
            raise ActionCodeError("the game is over: no action code is legal")
        if view.seat != view.current:
            raise ActionCodeError(
                f"seat {quote(view.seat)} is not the seat to act (seat "
                f"{quote(view.current)} is): decode codes with the view of the seat to act"
            )
        action = self._name(c, view)
        if not known.is_legal(action):
            raise ActionCodeError(
                f"action code {c} ({quote(action)}) is not a legal action of seat "
                f"{quote(view.seat)} in this position"
            )
        return action

    def _name(self, c: int, view: PlayerView) -> Action:
        """The action code ``c`` names in ``view``'s position, legal or not."""
        tab = self._tables
        fixed = tab.fixed[c]
        if fixed is not None:
            return fixed
        rs = self.ruleset
        if tab.station <= c < tab.pass_:
            city, slot = divmod(c - tab.station, tab.station_slots)
            params = rs.params
            left = view.players[view.seat].stations
            if left <= 0:
                raise ActionCodeError(
                    f"action code {c} builds a station, but seat {quote(view.seat)} has none left"
                )
            cost = params.station_cost[params.stations - left]
            cards = [0] * NUM_KINDS
            if slot == 0:
                cards[LOCO] = cost
            else:
                colour, locos = divmod(slot - 1, tab.station_top)
                if locos >= cost:
                    raise ActionCodeError(
                        f"action code {c} pays a station with {locos} locomotives and at "
                        f"least one coloured card, but the next station costs {cost} cards"
                    )
                cards[colour] = cost - locos
                cards[LOCO] = locos
            return BuildStation(city=tab.city_ids[city], cards=tuple(cards))
        if tab.keep <= c < tab.tunnel:
            bits = c - tab.keep
            offered = view.offered
            if bits >> len(offered):
                raise ActionCodeError(
                    f"action code {c} keeps ticket slots beyond the {len(offered)} tickets "
                    f"offered to seat {quote(view.seat)}"
                )
            return KeepTickets(tickets=tuple(t for i, t in enumerate(offered) if bits >> i & 1))
        locos = c - tab.tunnel
        payment = self._tunnel_payment(view, locos)
        if payment is None:
            raise ActionCodeError(
                f"action code {c} pays a tunnel's extra cards with {locos} locomotives, "
                "but no tunnel claim waits for such a payment"
            )
        return PayTunnel(cards=payment)

    def _known_at(self, view: PlayerView) -> Simulator:
        """A simulator whose seat to act has exactly the legal actions ``view`` allows
        (kept for the last view asked about, by identity: an unchecked view may hold
        values that cannot be compared).

        :raises ViewError: the view cannot be a view of this ruleset.
        """
        if self._known is None or view is not self._view:
            state = known_state(self.ruleset, view)
            self._known = Simulator.from_state(self.ruleset, state, record=False)
            self._view = view
        return self._known

    def __repr__(self) -> str:
        return f"<ActionEncoding {self.ruleset.id}: {self.size} codes>"
