"""The mutable table that play happens on: typed ints and flat lists, changed in place.

A [`Table`][] holds everything a [`GameState`][ttr_core.model.state.GameState] holds, in a form that
is cheap to change and to copy: hands as one flat list of nine counts per seat, track owners as a
list, and tables kept current as play goes on (payments each hand offers per route class, free
tracks per class). Piles that are only ever replaced whole (the train deck, the ticket deck) are
tuples, so copies share them. The mechanics in [`ttr_core.rules`][ttr_core.rules] change a table;
[`Table.snapshot`][ttr_core.rules.table.Table.snapshot] and
[`Table.load`][ttr_core.rules.table.Table.load] convert to and from the frozen state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol

from ttr_core.model.actions import Action
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.filled import filled
from ttr_core.model.state import CardChoice, GameState, Phase, PlayerState, TunnelAttempt
from ttr_core.rules.double_routes import claim_closes_parallel, tracks_of
from ttr_core.rules.index import GroupShape, RulesetIndex, RulesetMemos, index_of, memos_of
from ttr_core.rules.payment_counts import claim_tables, copy_hand_counts, recount_hand

if TYPE_CHECKING:
    from ttr_core.model import events as ev
    from ttr_core.rules.payment_counts import ClaimTables
    from ttr_core.ruleset.ruleset import Ruleset

OPENING_TICKETS: Final = 0
TURN: Final = 1
SECOND_CARD: Final = 2
KEEP_TICKETS: Final = 3
TUNNEL: Final = 4
GAME_OVER: Final = 5
CHOOSE_CARDS: Final = 6
"""Phases as plain ints (the values of [`Phase`][ttr_core.model.state.Phase])."""

FREE: Final = -1
"""The owner of an unclaimed track."""

_PHASES = tuple(Phase)


_Owners = tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]
"""A snapshot's track owners, free tracks per route class and station owners."""


class Chance(Protocol):
    """A source of shuffle outcomes other than the table's generator (replays)."""

    def shuffle(self, pile: str, reason: str, items: Sequence[int]) -> tuple[int, ...]:
        """Return the order (top first) of ``items`` after shuffling."""
        ...


class Field(NamedTuple):
    """One field of a [`Table`][]: how a copy takes it and what of the frozen state it
    holds. [`FIELDS`][] declares them all."""

    name: str
    copy: str
    """How [`Table.copy_into`][ttr_core.rules.table.Table.copy_into] gives it to a copy:
    ``"fixed"``, set when the table is made and the same for its copies (the ruleset); ``"shared"``,
    an immutable value the copy shares; ``"list"``, a list the copy gets its own of (its items are
    immutable or replaced whole); ``"own"``, the table's own working state, set afresh."""
    state: str = ""
    """The [`GameState`][ttr_core.model.state.GameState] field it holds, ``"seat.<name>"`` for a
    [`PlayerState`][ttr_core.model.state.PlayerState] field held per seat, or empty when it is
    worked out from other fields (and kept current with them) or is not part of the state."""


FIELDS: Final = (
    Field("rs", "fixed"),
    Field("ix", "fixed"),
    Field("memos", "fixed"),
    Field("players", "fixed"),
    Field("events", "own"),
    Field("chance", "own"),
    Field("claims", "fixed"),
    Field("route_len", "fixed"),
    Field("route_points", "fixed"),
    Field("route_twin", "fixed"),
    Field("route_tunnel", "fixed"),
    Field("flush_at", "fixed"),
    Field("flush_repeats", "fixed"),
    Field("loco_whole_draw", "fixed"),
    Field("closes_parallel", "fixed"),
    Field("opening_keep", "fixed"),
    Field("draw_keep", "fixed"),
    Field("draw_deal", "fixed"),
    Field("opening_to_bottom", "fixed"),
    Field("draw_to_bottom", "fixed"),
    Field("phase", "shared", "phase"),
    Field("current", "shared", "current"),
    Field("start_player", "shared", "start_player"),
    Field("final_trigger", "shared", "final_trigger"),
    Field("passes", "shared", "passes"),
    Field("turn", "shared", "turn"),
    Field("rng", "shared", "rng"),
    Field("ended_by", "shared", "ended_by"),
    Field("hands", "list", "seat.hand"),
    Field("trains", "list", "seat.trains"),
    Field("score_track", "list", "seat.score"),
    Field("stations", "list", "seat.stations"),
    Field("tickets", "list", "seat.tickets"),
    Field("blocked", "list", "seat.blocked"),
    Field("deck", "shared", "deck"),
    Field("deck_pos", "shared", "deck_pos"),
    Field("discard", "list", "discard"),
    Field("display", "list", "display"),
    Field("faceup", "shared"),
    Field("shown", "shared", "display"),
    Field("ticket_deck", "shared", "ticket_deck"),
    Field("pending", "shared", "pending_tickets"),
    Field("offers", "shared", "offers"),
    Field("owners", "list", "owners"),
    Field("free", "list", "free"),
    Field("free_count", "list"),
    Field("pay_count", "list"),
    Field("gray_id", "list"),
    Field("sig", "list"),
    Field("block_counts", "list"),
    Field("claim_sum", "list"),
    Field("station_owners", "list", "station_owners"),
    Field("tunnel", "shared", "tunnel"),
    Field("choice", "shared", "choice"),
    Field("version", "own"),
    Field("_snap", "own"),
    Field("_snap_version", "own"),
    Field("_snap_players", "list"),
    Field("_snap_seats", "shared"),
    Field("_snap_owners", "shared"),
)
"""Every field of a [`Table`][], in the order `Table.__init__` sets them.

[`Table.copy_into`][ttr_core.rules.table.Table.copy_into],
[`Table.snapshot`][ttr_core.rules.table.Table.snapshot] and
[`Table.load`][ttr_core.rules.table.Table.load] follow it field by field, written out rather than
looped over by name: they are on the hot paths of search and of the functional API, where a loop of
``getattr``/``setattr`` costs twice the time of the copy. A test checks that each does what the
declaration says."""


class Choosing:
    """The payment with groups whose cards are being chosen, as the mechanics keep it: the
    fields of a [`CardChoice`][ttr_core.model.state.CardChoice] read without attribute
    lookups, and the track's group shape.

    Immutable, like the frozen state's (a new one follows each card chosen), so that
    copies of the table share it.
    """

    def __init__(
        self, route: int, groups: int, size: int, chosen: tuple[int, ...], shape: GroupShape
    ) -> None:
        self.route = route
        """The track's index."""
        self.groups = groups
        self.size = size
        self.chosen = chosen
        """Nine card counts: the cards chosen so far."""
        self.shape = shape

    def frozen(self) -> CardChoice:
        """The frozen state's form."""
        return CardChoice(route=self.route, groups=self.groups, size=self.size, chosen=self.chosen)


class Table:
    """One game's position, changed in place by the mechanics."""

    def __init__(self, rs: Ruleset, players: int, *, copy_of: Table | None = None) -> None:
        """A table at the start of a game, or with ``copy_of`` (a table of the same
        ruleset and seats) a copy of that one."""
        self.rs = rs
        self.ix: RulesetIndex = index_of(rs)
        """The ruleset's index tables, read by the mechanics."""
        self.memos: RulesetMemos = memos_of(rs)
        """The ruleset's memos, filled by the mechanics as hands are listed."""
        self.players = players
        self.events: list[ev.Event] | None = None
        """Where the mechanics append events; None when nothing is recorded."""
        self.chance: Chance | None = None
        """Where shuffles come from instead of ``rng`` (replays of seedless records)."""
        self.claims: ClaimTables = claim_tables(rs) if copy_of is None else copy_of.claims
        """The ruleset's claim tables (built once per ruleset)."""
        ix = self.ix
        # The index's tables and rules that every turn reads, as attributes of this
        # compiled class (the index's own are generic attribute lookups).
        self.route_len: tuple[int, ...] = ix.route_len
        self.route_points: tuple[int, ...] = ix.route_points
        self.route_twin: tuple[int, ...] = ix.route_twin
        self.route_tunnel: tuple[bool, ...] = ix.route_tunnel
        self.flush_at: int = -1 if ix.flush_at is None else ix.flush_at
        """Face-up locomotives that flush the display, -1 for never."""
        self.flush_repeats: int = rs.params.display.flush_repeats
        self.loco_whole_draw: bool = ix.face_up_loco_whole_draw
        """Whether a face-up locomotive is the whole draw (DRAW-4, DRAW-5)."""
        self.closes_parallel: bool = claim_closes_parallel(rs, players)
        """Whether a claim closes its track's parallel for everyone (DOUBLE-2)."""
        opening, drawn = rs.params.opening_tickets, rs.params.ticket_draw
        self.opening_keep: int = opening.keep
        """Opening tickets to keep at least (SETUP-5), and the same for drawn tickets."""
        self.draw_keep: int = drawn.keep
        self.draw_deal: int = drawn.deal
        """Tickets a draw takes."""
        self.opening_to_bottom: bool = opening.returned == "bottom"
        """Whether opening tickets not kept go under the ticket deck, and drawn ones."""
        self.draw_to_bottom: bool = drawn.returned == "bottom"
        if copy_of is not None:
            copy_of.copy_into(self)
            return
        self.phase = OPENING_TICKETS
        self.current = 0
        self.start_player = 0
        self.final_trigger = -1
        self.passes = 0
        self.turn = 0
        self.rng = -1
        self.ended_by = ""
        self.hands: list[int] = [0] * (players * NUM_KINDS)
        self.trains: list[int] = [rs.params.trains] * players
        self.score_track: list[int] = [0] * players
        self.stations: list[int] = [rs.params.stations] * players
        self.tickets: list[tuple[int, ...]] = [()] * players
        self.blocked: list[tuple[int, ...]] = [()] * players
        self.deck: tuple[int, ...] = ()
        self.deck_pos = 0
        self.discard: list[int] = [0] * NUM_KINDS
        self.display: list[int] = [-1] * rs.params.display.size
        self.faceup: tuple[int, ...] = ()
        """The kinds of card on display, in card order (kept current with ``display``)."""
        self.shown: tuple[int, ...] = tuple(self.display)
        """The display as a tuple, for snapshots to share; empty (shorter than the
        display) when the display changed since, until a snapshot builds it again."""
        self.ticket_deck: tuple[int, ...] = ()
        self.pending: tuple[int, ...] = ()
        self.offers: tuple[tuple[int, ...], ...] = ()
        self.owners: list[int] = [FREE] * len(ix.routes)
        self.free: list[tuple[int, ...]] = list(ix.class_routes)
        """Per route class, its tracks that are unclaimed and not closed, in map order."""
        self.free_count: list[int] = [len(routes) for routes in ix.class_routes]
        self.pay_count: list[tuple[int, ...]] = [()] * (players * NUM_KINDS)
        """Per seat and route colour, how many payments the seat's hand affords on each
        class of the colour's block (see `ttr_core.rules.payment_counts`)."""
        self.gray_id: list[int] = [0] * players
        """Per seat, the number of its gray payment counts (see ``ClaimTables.gray_number``)."""
        self.sig: list[int] = []
        """Per route colour, a number saying which tracks of that colour are free."""
        self.block_counts: list[list[int]] = []
        """Per card colour, its claim counts by hand for its free tracks (``block_row``)."""
        self.claim_sum: list[int] = [0] * players
        """Per seat, its claims of coloured tracks with the whole train supply: the sum over
        the colours of ``block_counts`` at its hand (kept with hands and free tracks)."""
        self._sign()
        self.station_owners: list[int] = [-1] * len(ix.city_ids) if rs.params.stations else []
        self.tunnel: TunnelAttempt | None = None
        """The tunnel claim waiting for its extra cards (phase ``TUNNEL``)."""
        self.choice: Choosing | None = None
        """The claim whose cards are being chosen (phase ``CHOOSE_CARDS``)."""
        self.version = 0
        """Counts changes, so a listing knows whether it is still current."""
        self._snap: GameState | None = None
        self._snap_version = -1
        self._snap_players: list[PlayerState | None] = [None] * players
        self._snap_seats: tuple[PlayerState, ...] | None = None
        self._snap_owners: _Owners | None = None
        """The last snapshot's parts, shared by the next one where unchanged: a seat's
        holdings are forgotten (None) by [`seat_changed`][], the owners of tracks and
        stations and the free tracks when a track is claimed or closed or a station built."""

    def _sign(self) -> None:
        """Compute every colour block's signature from the free counts."""
        tab = self.claims
        sig = [0] * NUM_KINDS
        for k, n in enumerate(self.free_count):
            c = tab.block_of[k]
            sig[c] = sig[c] + tab.weight[k] * n
        self.sig = sig
        self.block_counts = [tab.block_row(c, sig[c], self.free_count) for c in range(LOCO)]

    def copy_into(self, other: Table) -> None:
        """Make ``other`` (a table of the same ruleset and seats) a copy of this one."""
        other.phase = self.phase
        other.current = self.current
        other.start_player = self.start_player
        other.final_trigger = self.final_trigger
        other.passes = self.passes
        other.turn = self.turn
        other.rng = self.rng
        other.ended_by = self.ended_by
        other.hands = self.hands[:]
        other.trains = self.trains[:]
        other.score_track = self.score_track[:]
        other.stations = self.stations[:]
        other.tickets = self.tickets[:]
        other.blocked = self.blocked[:]
        other.deck = self.deck
        other.deck_pos = self.deck_pos
        other.discard = self.discard[:]
        other.display = self.display[:]
        other.faceup = self.faceup
        other.shown = self.shown
        other.ticket_deck = self.ticket_deck
        other.pending = self.pending
        other.offers = self.offers
        other.owners = self.owners[:]
        other.free = self.free[:]
        other.free_count = self.free_count[:]
        other.pay_count = self.pay_count[:]
        other.gray_id = self.gray_id[:]
        other.sig = self.sig[:]
        other.block_counts = self.block_counts[:]
        other.claim_sum = self.claim_sum[:]
        other.station_owners = self.station_owners[:]
        other.tunnel = self.tunnel
        other.choice = self.choice
        other.version = self.version + 1
        other._snap = None
        other._snap_version = -1
        other._snap_players = self._snap_players[:]
        other._snap_seats = self._snap_seats
        other._snap_owners = self._snap_owners

    def copy_seat_view_into(self, other: Table, seat: int) -> None:
        """Bring ``other`` to what ``seat``, the seat to act, may know of this table: what
        loading ``ttr_core.hidden.seat_actions.redacted`` of this table's snapshot would
        make it, without building either state.

        ``other`` is a table of the same game (a ruleset of the same rules, the same seats)
        that was loaded with a redacted state of ``seat`` and has not changed since, so
        the other seats already hold nothing there. Only the seat's own hand is counted
        again, and only when it changed. A test checks it against the load at every
        decision.
        """
        base = seat * NUM_KINDS
        end = base + NUM_KINDS
        other.phase = self.phase
        other.current = self.current
        other.start_player = self.start_player
        other.final_trigger = self.final_trigger
        other.passes = self.passes
        other.turn = self.turn
        other.ended_by = self.ended_by
        other.trains = self.trains[:]
        other.score_track = self.score_track[:]
        other.stations = self.stations[:]
        other.tickets[seat] = self.tickets[seat]
        other.blocked = self.blocked[:]
        left = len(self.deck) - self.deck_pos
        if len(other.deck) != left:
            other.deck = (-1,) * left
        other.deck_pos = 0
        other.discard = self.discard[:]
        other.display = self.display[:]
        other.faceup = self.faceup
        other.shown = self.shown
        if len(other.ticket_deck) != len(self.ticket_deck):
            other.ticket_deck = (-1,) * len(self.ticket_deck)
        other.pending = self.pending
        other.offers = tuple(o if i == seat else () for i, o in enumerate(self.offers))
        other.owners = self.owners[:]
        other.free = self.free[:]
        if other.free_count != self.free_count:
            # The colour blocks' rows depend on the free tracks alone (the claim tables
            # of rulesets of the same rules agree on them), so they are shared.
            other.free_count = self.free_count[:]
            other.sig = self.sig[:]
            other.block_counts = self.block_counts[:]
        other.station_owners = self.station_owners[:]
        other.tunnel = self.tunnel
        other.choice = self.choice
        if other.hands[base:end] != self.hands[base:end]:
            other.hands[base:end] = self.hands[base:end]
            copy_hand_counts(self, other, seat)
        other.claim_sum[seat] = self.claim_sum[seat]  # the same hand and rows
        other.version += 1
        other._snap = None
        other._snap_version = -1
        other._snap_players = [None] * self.players
        other._snap_seats = None
        other._snap_owners = None

    # -- conversion to and from the frozen state -------------------------------------

    def seat_changed(self, seat: int) -> None:
        """Note that ``seat``'s holdings (hand, trains, tickets, score, stations, blocked
        tracks) changed, so the next snapshot builds them again."""
        self._snap_players[seat] = None
        self._snap_seats = None

    def owners_changed(self) -> None:
        """Note that a track was claimed or closed, or a station built, so the next
        snapshot builds the owners and free tracks again."""
        self._snap_owners = None

    def hand(self, seat: int) -> tuple[int, ...]:
        """The nine card counts of ``seat``'s hand."""
        base = seat * NUM_KINDS
        return tuple(self.hands[base : base + NUM_KINDS])

    def snapshot(self) -> GameState:
        """The frozen [`GameState`][ttr_core.model.state.GameState] of this position.

        Parts that did not change since the last snapshot (a player's holdings, the
        track owners) are shared with it rather than built again: the mechanics call
        [`seat_changed`][] when they change a seat's holdings. Right after
        [`load`][], it is the state loaded.
        """
        if self._snap is not None and self._snap_version == self.version:
            return self._snap
        seats = self.seat_states()
        owners, free, station_owners = self.board_tuples()
        state = filled(
            GameState,
            {
                "phase": self.frozen_phase(),
                "current": self.current,
                "players": seats,
                "deck": self.deck,
                "deck_pos": self.deck_pos,
                "discard": tuple(self.discard),
                "display": self.shown_display(),
                "ticket_deck": self.ticket_deck,
                "pending_tickets": self.pending,
                "owners": owners,
                "free": free,
                "start_player": self.start_player,
                "final_trigger": self.final_trigger,
                "passes": self.passes,
                "turn": self.turn,
                "rng": self.rng,
                "tunnel": self.tunnel,
                "station_owners": station_owners,
                "offers": self.offers,
                "ended_by": self.ended_by,
                "choice": None if self.choice is None else self.choice.frozen(),
            },
        )
        self._snap = state
        self._snap_version = self.version
        return state

    def seat_states(self) -> tuple[PlayerState, ...]:
        """The [`PlayerState`][ttr_core.model.state.PlayerState] of every seat, as the
        next [`snapshot`][] holds them: built again only for the seats whose holdings
        changed since the last one (see [`seat_changed`][])."""
        seats = self._snap_seats
        if seats is None:
            kept = self._snap_players
            players = []
            for p in range(self.players):
                old = kept[p]
                if old is None:
                    old = kept[p] = filled(
                        PlayerState,
                        {
                            "hand": self.hand(p),
                            "trains": self.trains[p],
                            "tickets": self.tickets[p],
                            "score": self.score_track[p],
                            "stations": self.stations[p],
                            "blocked": self.blocked[p],
                        },
                    )
                players.append(old)
            seats = self._snap_seats = tuple(players)
        return seats

    def board_tuples(self) -> _Owners:
        """The track owners, the free tracks per route class and the station owners as
        the next [`snapshot`][] holds them (made again only after a claim or a station)."""
        if self._snap_owners is None:
            self._snap_owners = tuple(self.owners), tuple(self.free), tuple(self.station_owners)
        return self._snap_owners

    def frozen_phase(self) -> Phase:
        """The phase as a [`Phase`][ttr_core.model.state.Phase]."""
        return _PHASES[self.phase]

    def shown_display(self) -> tuple[int, ...]:
        """The face-up display as the next [`snapshot`][] holds it."""
        if len(self.shown) != len(self.display):
            self.shown = tuple(self.display)
        return self.shown

    def load(self, state: GameState) -> None:
        """Set this table (built for the state's ruleset and seats) to ``state``.

        The free tracks and each seat's blocked tracks are worked out from the owners by
        the double-route rules (`ttr_core.rules.double_routes`), whatever the state
        says. Until the table changes, [`snapshot`][] gives back ``state`` itself if it
        agrees with them, else a state that differs from it only there."""
        n = self.players
        seats = state.players
        self.phase = int(state.phase)
        self.current = state.current
        self.start_player = state.start_player
        self.final_trigger = state.final_trigger
        self.passes = state.passes
        self.turn = state.turn
        self.rng = state.rng
        self.ended_by = state.ended_by
        hands: list[int] = []
        for player in seats:
            hands.extend(player.hand)
        self.hands = hands
        self.trains = [p.trains for p in seats]
        self.score_track = [p.score for p in seats]
        self.stations = [p.stations for p in seats]
        self.tickets = [p.tickets for p in seats]
        self.deck = state.deck
        self.deck_pos = state.deck_pos
        self.discard = list(state.discard)
        self.display = list(state.display)
        self.faceup = tuple(sorted(set(state.display) - {-1}))
        self.shown = state.display
        self.ticket_deck = state.ticket_deck
        self.pending = state.pending_tickets
        self.offers = state.offers
        self.owners = list(state.owners)
        # The double-route rules decide the free and blocked tracks; a state's own lists
        # are kept when they agree, since a game lists blocked tracks in claim order.
        free, by_seat = tracks_of(self.rs, state.owners, n)
        blocked = [
            given if given == derived or sorted(given) == sorted(derived) else derived
            for given, derived in zip((p.blocked for p in seats), by_seat, strict=True)
        ]
        self.blocked = blocked
        self.free = list(free)
        self.free_count = [len(routes) for routes in free]
        self.pay_count = [()] * (n * NUM_KINDS)
        self.gray_id = [0] * n
        self._sign()
        self.claim_sum = [0] * n
        for p in range(n):
            recount_hand(self, p)
        self.station_owners = list(state.station_owners)
        self.tunnel = state.tunnel
        choice = state.choice
        self.choice = (
            None
            if choice is None
            else Choosing(
                choice.route,
                choice.groups,
                choice.size,
                choice.chosen,
                self.ix.group_shapes[self.ix.class_of[choice.route]],
            )
        )
        self.version += 1
        agrees = free == state.free and all(
            b is p.blocked for b, p in zip(blocked, seats, strict=True)
        )
        self._snap = state if agrees else None
        self._snap_version = self.version if agrees else -1
        self._snap_players = [None] * n
        self._snap_seats = None
        self._snap_owners = None


Check = Callable[[Table, Action], Callable[[], None]]
"""How a mechanic checks an action of one type against the rules: raise
[`IllegalActionError`][ttr_core.model.errors.IllegalActionError] (naming the rule) unless it is
legal at the table, else return the function that applies it. Each mechanic module offers its
``CHECKS``, by action type."""
