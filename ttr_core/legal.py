"""The legal actions of a state, as a lazy sequence.

``LegalActions`` counts and indexes the legal actions without building them (like
python-chess's ``LegalMoveGenerator``): claims are counted per route class from a table
of payment counts, and an action object is made only when it is asked for. It is
complete and sound: every action the rules allow is listed exactly once (payments are
distinct multisets of cards) and every listed action applies without error.

Listing order (stable): face-up cards by card number, the blind draw, drawing tickets,
claims (route classes in map order, tracks in map order, payments as in
:mod:`ttr_core.payments`), claims paid with groups of any cards (route classes, tracks,
then the number of groups), stations (cities in map order, then payments), pass. While
a payment with groups is being chosen, the cards that may come next, in card order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, compress
from operator import mul
from typing import overload

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
from ttr_core.cards import LOCO, NUM_KINDS
from ttr_core.groups import choosable, group_options_per_class
from ttr_core.payments import (
    all_class_payment_counts,
    class_payment,
    is_counts,
    payment_error,
    station_payments,
)
from ttr_core.ruleset import Ruleset
from ttr_core.state import GameState, Phase

_TAKE = tuple(TakeFaceUp(card=k) for k in range(NUM_KINDS))
_BLIND = DrawBlind()
_TICKETS = DrawTickets()
_PASS = Pass()
_WITHDRAW = WithdrawTunnel()
_CHOOSE = tuple(ChooseCard(card=k) for k in range(NUM_KINDS))
_CACHE_LIMIT = 200_000


def payment_counts(rs: Ruleset, hand: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The route classes that ``hand`` can pay for and how many payments each offers.

    Returns ``(classes, counts)`` with only the classes whose count is not zero, memoised
    per ruleset by the hand clamped to the longest route length (larger counts never
    change the result).
    """
    key = bytes(hand).translate(rs.clamp_table)
    cache = rs.payment_count_cache
    found = cache.get(key)
    if found is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        counts = all_class_payment_counts(rs, key)
        found = (tuple(compress(range(len(counts)), counts)), tuple(filter(None, counts)))
        cache[key] = found
    return found


class LegalActions(Sequence[Action]):
    """The legal actions of the player to decide in ``state``: ``len``, index, iterate, ``in``."""

    # Defaults for the parts a phase does not use; ``__init__`` sets only what applies.
    _faceup: tuple[int, ...] = ()
    _blind = False
    _tickets = False
    _claims = 0
    _classes: tuple[int, ...] = ()
    _counts: tuple[int, ...] = ()
    _sizes: Sequence[int] = ()
    _skip: tuple[int, ...] = ()
    _hand: tuple[int, ...] = ()
    _station_cities: tuple[int, ...] = ()
    _station_pay: Sequence[tuple[int, ...]] = ()
    _list: Sequence[Action] = ()
    _pass = False
    _group_claims = 0
    _group_options: Sequence[tuple[int, ...]] = ()
    _group_sizes: Sequence[int] = ()

    def __init__(self, rs: Ruleset, state: GameState) -> None:
        self.rs = rs
        self.state = state
        phase = state.phase
        if phase is Phase.TURN:
            self._n = self._init_turn(rs, state)
        elif phase is Phase.SECOND_CARD:
            faceup = set(state.display)
            faceup.discard(-1)
            if rs.face_up_loco_whole_draw:
                faceup.discard(LOCO)
            self._faceup = tuple(sorted(faceup))
            self._blind = blind = state.deck_pos < len(state.deck) or sum(state.discard) > 0
            self._n = len(faceup) + blind
        elif phase is Phase.OPENING_TICKETS or phase is Phase.KEEP_TICKETS:
            self._list = self._keep_options(rs, state)
            self._n = len(self._list)
        elif phase is Phase.TUNNEL:
            self._list = self._tunnel_options(state)
            self._n = len(self._list)
        elif phase is Phase.CHOOSE_CARDS:
            self._list = self._card_options(rs, state)
            self._n = len(self._list)
        else:
            self._n = 0

    def _init_turn(self, rs: Ruleset, state: GameState) -> int:
        display = state.display
        faceup = rs.face_up_cache.get(display)
        if faceup is None:
            faceup = rs.face_up_cache[display] = tuple(sorted(set(display) - {-1}))
        self._faceup = faceup
        self._blind = blind = state.deck_pos < len(state.deck) or sum(state.discard) > 0
        self._tickets = tickets = len(state.ticket_deck) > 0
        player = state.players[state.current]
        self._hand = hand = player.hand
        classes, counts = payment_counts(rs, hand)
        trains = player.trains
        if trains < rs.max_route_length:
            lengths = rs.class_len
            keep = [i for i, k in enumerate(classes) if lengths[k] <= trains]
            classes = tuple(classes[i] for i in keep)
            counts = tuple(counts[i] for i in keep)
        free = state.free
        sizes = list(map(len, map(free.__getitem__, classes)))
        if player.blocked:
            # Parallels of the player's own tracks: free for others, not for this player.
            class_of = rs.class_of
            for b in player.blocked:
                k = class_of[b]
                if k in classes:
                    sizes[classes.index(k)] -= 1
            self._skip = player.blocked
        self._classes = classes
        self._counts = counts
        self._sizes = sizes
        claims: int = sum(map(mul, sizes, counts))
        self._claims = claims
        n = len(faceup) + blind + tickets + claims
        if rs.has_groups:
            n += self._init_group_claims(rs, state, trains)
        if player.stations > 0:
            params = rs.params
            pay = station_payments(params.station_cost[params.stations - player.stations], hand)
            if pay:
                self._station_pay = pay
                self._station_cities = cities = tuple(
                    c for c, owner in enumerate(state.station_owners) if owner < 0
                )
                n += len(cities) * len(pay)
        if n == 0:
            self._pass = True
            n = 1
        return n

    def _init_group_claims(self, rs: Ruleset, state: GameState, trains: int) -> int:
        """Count the claims paid with groups of any cards (listed after the other claims)."""
        hand = self._hand
        key = bytes(hand)
        cache = rs.group_options_by_hand
        options = cache.get(key)
        if options is None:
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            options = cache[key] = group_options_per_class(rs, hand)
        sizes = list(map(len, map(state.free.__getitem__, rs.group_classes)))
        if self._skip:
            position = rs.group_class_position
            for b in self._skip:
                i = position.get(rs.class_of[b], -1)
                if i >= 0:
                    sizes[i] -= 1
        if trains < rs.max_route_length:
            for i, length in enumerate(rs.group_class_lengths):
                if length > trains:
                    sizes[i] = 0
        # Per group class, in rs.group_classes order (classes with nothing to offer count 0).
        self._group_options = options
        self._group_sizes = sizes
        total: int = sum(map(mul, sizes, map(len, options)))
        self._group_claims = total
        return total

    @staticmethod
    def _card_options(rs: Ruleset, state: GameState) -> list[Action]:
        c = state.choice
        assert c is not None
        hand = state.players[state.current].hand
        shape = rs.group_shapes[rs.class_of[c.route]]
        return [_CHOOSE[k] for k in choosable(shape, c.groups, c.chosen, hand)]

    @staticmethod
    def _keep_options(rs: Ruleset, state: GameState) -> list[Action]:
        if state.phase is Phase.OPENING_TICKETS:
            offer, keep = state.offers[state.current], rs.params.opening_tickets.keep
        else:
            offer, keep = state.pending_tickets, rs.params.ticket_draw.keep
        ids = tuple(rs.ticket_ids[t] for t in offer)
        need = min(keep, len(ids))
        return [
            KeepTickets(tickets=combo)
            for size in range(len(ids), need - 1, -1)
            for combo in combinations(ids, size)
        ]

    @staticmethod
    def _tunnel_options(state: GameState) -> list[Action]:
        t = state.tunnel
        assert t is not None
        hand = state.players[state.current].hand
        spare_color = hand[t.color] - t.paid[t.color] if t.color != LOCO else 0
        spare_loco = hand[LOCO] - t.paid[LOCO]
        out: list[Action] = []
        for locos in range(t.extra + 1):
            colored = t.extra - locos
            if locos <= spare_loco and colored <= spare_color:
                cards = [0] * NUM_KINDS
                if colored:
                    cards[t.color] = colored
                cards[LOCO] += locos
                out.append(PayTunnel(cards=tuple(cards)))
        out.append(_WITHDRAW)
        return out

    # -- the sequence protocol ------------------------------------------------------------

    def __len__(self) -> int:
        return self._n

    def count(self, value: object = None) -> int:
        """With no argument, the number of legal actions; with one, 1 if it is legal else 0."""
        if value is None:
            return self._n
        return 1 if value in self else 0

    def count_without_pass(self) -> int:
        """How many legal actions there are besides passing."""
        return self._n - self._pass

    def __bool__(self) -> bool:
        return self._n > 0

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("legal action index out of range")
        n = len(self._faceup)
        if i < n:
            return _TAKE[self._faceup[i]]
        i -= n
        if self._blind:
            if i == 0:
                return _BLIND
            i -= 1
        if self._tickets:
            if i == 0:
                return _TICKETS
            i -= 1
        if i < self._claims:
            return self._claim_at(i)
        i -= self._claims
        if i < self._group_claims:
            return self._group_claim_at(i)
        i -= self._group_claims
        stations = len(self._station_cities) * len(self._station_pay)
        if i < stations:
            per = len(self._station_pay)
            city = self.rs.city_ids[self._station_cities[i // per]]
            return BuildStation(city=city, cards=self._station_pay[i % per])
        i -= stations
        if i < len(self._list):
            return self._list[i]
        return _PASS

    def _claim_at(self, i: int) -> ClaimRoute:
        rs = self.rs
        counts = self._counts
        for pos, size in enumerate(self._sizes):
            n = size * counts[pos]
            if i >= n:
                i -= n
                continue
            k = self._classes[pos]
            pick, j = divmod(i, counts[pos])
            skip = self._skip
            for r in self.state.free[k]:
                if r in skip:
                    continue
                if pick == 0:
                    return ClaimRoute(
                        route=rs.route_ids[r], cards=class_payment(rs, k, self._hand, j)
                    )
                pick -= 1
        raise IndexError("claim index out of range")

    def _group_claim_at(self, i: int) -> ClaimWithGroups:
        rs = self.rs
        for k, opts, size in zip(
            rs.group_classes, self._group_options, self._group_sizes, strict=True
        ):
            n = size * len(opts)
            if i >= n:
                i -= n
                continue
            pick, j = divmod(i, len(opts))
            routes = [r for r in self.state.free[k] if r not in self._skip]
            return ClaimWithGroups(route=rs.route_ids[routes[pick]], groups=opts[j])
        raise IndexError("claim index out of range")

    def __iter__(self) -> Iterator[Action]:
        for i in range(self._n):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        if isinstance(action, TakeFaceUp):
            return type(action.card) is int and action.card in self._faceup
        if isinstance(action, DrawBlind):
            return self._blind
        if isinstance(action, DrawTickets):
            return self._tickets
        if isinstance(action, Pass):
            return self._pass
        if isinstance(action, ClaimRoute):
            return self._claim_ok(action)
        if isinstance(action, ClaimWithGroups):
            return self._group_claim_ok(action)
        if isinstance(action, ChooseCard):
            return type(action.card) is int and action in self._list
        if isinstance(action, BuildStation):
            if type(action.city) is not str or not is_counts(action.cards):
                return False
            c = self.rs.city_index.get(action.city, -1)
            return c in self._station_cities and action.cards in self._station_pay
        if isinstance(action, KeepTickets):
            tickets = action.tickets
            if type(tickets) is not tuple or any(type(t) is not int for t in tickets):
                return False
            wanted = sorted(tickets)
            return any(
                isinstance(a, KeepTickets) and sorted(a.tickets) == wanted for a in self._list
            )
        if isinstance(action, PayTunnel) and not is_counts(action.cards):
            return False
        return action in self._list

    def _claim_ok(self, action: ClaimRoute) -> bool:
        rs = self.rs
        if type(action.route) is not int:
            return False
        r = rs.route_index.get(action.route, -1)
        if r < 0 or not self._claims:
            return False
        k = rs.class_of[r]
        if k not in self._classes or r in self._skip or r not in self.state.free[k]:
            return False
        cards = action.cards
        if payment_error(rs, r, cards) is not None:
            return False
        hand = self._hand
        return all(cards[x] <= hand[x] for x in range(NUM_KINDS))

    def _group_claim_ok(self, action: ClaimWithGroups) -> bool:
        rs = self.rs
        if type(action.route) is not int or type(action.groups) is not int:
            return False
        r = rs.route_index.get(action.route, -1)
        if r < 0:
            return False
        k = rs.class_of[r]
        i = rs.group_class_position.get(k, -1)
        if i < 0 or not self._group_claims or r in self._skip or r not in self.state.free[k]:
            return False
        return self._group_sizes[i] > 0 and action.groups in self._group_options[i]

    def __repr__(self) -> str:
        return f"<LegalActions: {self._n} actions>"


def legal_actions(rs: Ruleset, state: GameState) -> LegalActions:
    """The legal actions of the player to decide in ``state`` (empty once the game is over)."""
    return LegalActions(rs, state)
