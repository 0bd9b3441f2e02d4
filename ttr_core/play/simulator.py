"""The in-place simulator: play on a mutable table, in OpenSpiel's vocabulary.

A [`Simulator`][] is one game's position, changed in place by the mechanics of
[`ttr_core.rules`][ttr_core.rules] on a [`Table`][ttr_core.rules.table.Table] it keeps to itself. It
lists its legal actions (counted and indexed without building them), applies an action or the
``k``-th legal action, clones cheaply and converts to the frozen
[`GameState`][ttr_core.model.state.GameState] that the functional API, views, scoring and records
use::

    sim = Simulator.new("usa", players=4, seed=1)
    while not sim.is_over:
        sim.apply_index(0)
    print(sim.scores().winners)

By default a simulator records what happens (the events, chance outcomes included, and
the log of actions), so `ttr_core.Game.from_simulator` makes a game of it that
saves and replays like any other; search playouts pass ``record=False`` and record
nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from ttr_core.model import events as ev
from ttr_core.model import rng
from ttr_core.model.action_fields import field_problem
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
    TakeFaceUp,
)
from ttr_core.model.errors import IllegalActionError, SetupError, quote
from ttr_core.model.events import LogEntry
from ttr_core.model.filled import filled
from ttr_core.model.mapdata import MAX_PLAYERS
from ttr_core.model.state import GameState, Phase, PlayerState
from ttr_core.model.strict import check_text
from ttr_core.rules import (
    card_groups,
    claims,
    drawing,
    payment_counts,
    piles,
    stations,
    tickets,
    tunnels,
    turn,
)
from ttr_core.rules.index import HAND_MEMO_LIMIT, index_of, memos_of
from ttr_core.rules.scoring import Scoresheet, score_game
from ttr_core.rules.table import (
    CHOOSE_CARDS,
    GAME_OVER,
    KEEP_TICKETS,
    OPENING_TICKETS,
    SECOND_CARD,
    TUNNEL,
    TURN,
    Chance,
    Check,
    Table,
)
from ttr_core.rules.views import PlayerView, PublicPlayer, public_player, view_from
from ttr_core.ruleset.ruleset import Ruleset

_TAKE: Final = tuple(TakeFaceUp(card=k) for k in range(9))
_BLIND: Final = DrawBlind()
_TICKETS: Final = DrawTickets()
_PASS: Final = Pass()
_CHOOSE: Final = tuple(ChooseCard(card=k) for k in range(9))


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name (not a string, blank, not text), or None."""
    if not isinstance(name, str):
        return f"a player name is a string, not {quote(name)}"
    if not name.strip():
        return "a player name cannot be blank"
    try:
        check_text(name)
    except ValueError as exc:
        return str(exc)
    return None


MAX_SEED_BITS: Final = 4096
"""The largest seed, in bits (either sign): a record must be able to write it as text."""


def player_names(players: object) -> tuple[str, ...]:
    """The seats' names: ``Player 1``... for a count, else the names given, checked.

    :raises SetupError: a count that is not an ``int`` from 1 to ``MAX_PLAYERS``, a
        name that is not a string, blank or not valid text, or a name given twice.
    """
    if isinstance(players, int):
        if type(players) is not int or not 0 < players <= MAX_PLAYERS:
            raise SetupError(
                f"a player count is an integer from 1 to {MAX_PLAYERS}, not {quote(players)}"
            )
        return tuple(f"Player {i + 1}" for i in range(players))
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise SetupError(f"players is a count or a list of names, not {quote(players)}")
    if len(players) > MAX_PLAYERS:
        raise SetupError(f"at most {MAX_PLAYERS} players, not {len(players)}")
    names = tuple(players)
    for i, name in enumerate(names):
        problem = name_problem(name)
        if problem:
            raise SetupError(f"players[{i}]: {problem}")
    if len(set(names)) != len(names):
        raise SetupError("player names must be unique")
    return names


def _checks(*parts: Mapping[type[Action], Check]) -> dict[type, Check]:
    """The mechanics' checks in one table, by action type (no type checked twice)."""
    found: dict[type, Check] = {}
    for part in parts:
        for kind, check in part.items():
            if kind in found:
                raise TypeError(f"two mechanics check {kind.__name__}")
            found[kind] = check
    return found


_CHECKS: Final = _checks(
    drawing.CHECKS, tickets.CHECKS, tunnels.CHECKS, card_groups.CHECKS, stations.CHECKS
)
"""Every action type but [`Pass`][ttr_core.model.actions.Pass] and the check of its
mechanic. Passing is the simulator's own: it is legal when nothing else is listed."""


class DecisionFacts:
    """What a playout policy reads of the position at each decision: the phase, the seat
    to act with its hand, trains and tickets, the display, the track owners, the
    final-round trigger and the number of seats, as a snapshot would hold them.

    Made by ``Simulator._decision_facts`` for the search bot's playouts
    (`ttr_core.bots.rollout`), which decide at every step on a position only they see and
    need no snapshot. Read-only by convention.
    """

    __slots__ = (
        "display",
        "final_trigger",
        "hand",
        "owners",
        "phase",
        "players",
        "seat",
        "tickets",
        "trains",
    )

    def __init__(
        self,
        phase: Phase,
        seat: int,
        hand: tuple[int, ...],
        trains: int,
        tickets: tuple[int, ...],
        display: tuple[int, ...],
        owners: tuple[int, ...],
        final_trigger: int,
        players: int,
    ) -> None:
        self.phase = phase
        self.seat = seat
        self.hand = hand
        self.trains = trains
        self.tickets = tickets
        self.display = display
        self.owners = owners
        self.final_trigger = final_trigger
        self.players = players


class Simulator:
    """One game, played in place. Build one with [`new`][] or [`from_state`][] (or
    `ttr_core.Game.simulator`) and copy it with [`clone`][].

    These twenty names are all it offers, in OpenSpiel's vocabulary:

    - making one: [`new`][], [`from_state`][], [`clone`][], and [`load`][] to move it to
      another state;
    - listing: [`legal_count`][], [`legal_action`][], [`legal_actions`][] and
      [`is_legal`][];
    - applying: [`apply`][] (an action; its ``events`` and ``chance`` arguments collect
      the events and take the shuffles from a record) and [`apply_index`][] (the
      ``k``-th legal action);
    - the position: [`snapshot`][], [`view`][], [`current_player`][],
      [`is_over`][] and [`scores`][];
    - facts: [`ruleset`][] and [`names`][];
    - what it recorded: [`seed`][], [`setup`][] and [`log`][], from which
      `ttr_core.Game.from_simulator` makes a game to save.
    """

    # The counted listing: scratch, rebuilt when ``_listed`` is not the table's version.
    # Class-level defaults, so a new copy starts with none and copies nothing.
    _listed = -1
    _faces: tuple[int, ...] = ()
    _blind = False
    _tickets = False
    _claims = 0
    _groups = 0
    _cities: tuple[int, ...] = ()
    _station_pay: Sequence[tuple[int, ...]] = ()
    _list: Sequence[Action] = ()
    _choices: tuple[int, ...] = ()
    """The card kinds that may be chosen next, while a payment's cards are chosen (the
    listing then has no ``_list``)."""
    _keeps: Sequence[tuple[int, ...]] = ()
    """Places in the offer of each ticket choice (see ``tickets.keep_places``)."""
    _pass = False
    _count = 0
    _built: Action | None = None
    """The action object last built by the listing, at version ``_built_at``: applying
    that very object needs no check. It was found in section ``_built_kind`` of the
    listing at places ``_built_a`` and ``_built_b`` (see ``_locate``), but for a claim
    ``_built_a`` is its track and ``_built_cards`` its payment."""
    _built_at = -1
    _built_kind = 0
    _built_a = 0
    _built_b = 0
    _built_cards: tuple[int, ...] = ()
    _checked: object = None
    """The action that [`is_legal`][] last found legal with its rule's check, at version
    ``_checked_at``, and the function that check gave to apply it: applying that very
    object at that version needs no second check."""
    _checked_at = -1
    _checked_do: Callable[[], None] | None = None

    def __init__(
        self,
        rs: Ruleset,
        names: Sequence[str],
        *,
        record: bool = True,
        copy_of: Simulator | None = None,
    ) -> None:
        """A simulator before the deal, or with ``copy_of`` a copy of that simulator
        (prefer [`new`][], [`from_state`][] and [`clone`][])."""
        ix = index_of(rs)
        self._table: Table = Table(
            rs, len(names), copy_of=None if copy_of is None else copy_of._table
        )
        """The position, which only this simulator changes."""
        self._names: tuple[str, ...] = tuple(names)
        self._record = record
        """Whether events and the log are kept."""
        self._seed: int | None = None if copy_of is None else copy_of._seed
        self._setup: tuple[ev.Event, ...] = ()
        self._log: list[LogEntry] = []
        if copy_of is not None and record:
            self._setup = copy_of._setup
            self._log = list(copy_of._log)
        memos = memos_of(rs)
        self._claim_width: int = self._table.claims.widest
        """The most payments of a track class: the claim memo's cells for each track."""
        self._claim_actions: list[ClaimRoute | None] = memos.claim_actions
        """The ruleset's memo of claim objects, at ``track * _claim_width + payment``."""
        if not self._claim_actions:
            self._claim_actions.extend([None] * (len(ix.route_ids) * self._claim_width))
        self._keep_actions: dict[tuple[int, ...], KeepTickets] = memos.keep_actions
        """The ruleset's memo of ticket choice objects (see ``_build``)."""
        self._extras = ix.has_groups or rs.params.stations > 0
        """Whether turns may offer claims with card groups or stations."""
        self._seeded: bool = False if copy_of is None else copy_of._seeded
        """Whether the table has a generator (its ``rng`` is not negative), kept with it
        so that each decision need not compare a 64-bit state."""
        self._public_of: list[PlayerState | None] = [None] * len(names)
        self._public: list[PublicPlayer | None] = [None] * len(names)
        """Per seat, the public part of the seat's holdings in the snapshot, and the
        holdings it was read from (see `view`)."""

    # -- making one ----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        edition: str | Ruleset,
        players: int | Sequence[str] = 2,
        *,
        seed: object = 0,
        start_player: object = 0,
        options: Mapping[str, Any] | None = None,
        plugins: Iterable[object] = (),
        record: bool = True,
        events: list[ev.Event] | None = None,
        chance: Chance | None = None,
    ) -> Simulator:
        """Deal a game: shuffle, deal the hands, lay out the display, deal the tickets.
        The same arguments as `ttr_core.Game.new` deal the same game.

        Pass ``seed=None`` and ``chance`` to take the shuffles from a record instead. The
        deal's events are appended to ``events`` if given, and kept as [`setup`][]
        when recording.

        :raises UnknownEditionError: no such edition is installed.
        :raises OptionError: an option is unknown or has a value the edition does not offer.
        :raises SetupError: bad player count, bad names (see `ttr_core.Game.new`), a
            bad start player, or neither ``seed`` nor ``chance`` given.
        """
        rs = edition if isinstance(edition, Ruleset) else Ruleset.build(edition, options, plugins)
        names = player_names(players)
        n = len(names)
        lo, hi = rs.params.players
        if not lo <= n <= hi:
            raise SetupError(f"{rs.id} is played by {lo} to {hi} players, not {n}")
        start = start_player if type(start_player) is int else -1
        if not 0 <= start < n:
            raise SetupError(
                f"start player must be a seat from 0 to {n - 1}, not {quote(start_player)}"
            )
        if seed is None and chance is None:
            raise SetupError("a new game needs a seed (or recorded chance outcomes)")
        given = seed if type(seed) is int and seed.bit_length() <= MAX_SEED_BITS else None
        if seed is not None and given is None:
            raise SetupError(
                f"a seed is an integer of at most {MAX_SEED_BITS} bits, not {quote(seed)}"
            )
        sim = cls(rs, names, record=record)
        sim._seed = given
        t = sim._table
        ix = t.ix
        dealt: list[ev.Event] | None = [] if record or events is not None else None
        t.events = dealt
        t.chance = chance
        t.current = t.start_player = start
        t.rng = -1 if given is None else rng.seed_state(given)
        sim._seeded = given is not None
        if dealt is not None:
            dealt.append(ev.GameStarted(players=n, start_player=start))
        t.deck = piles.shuffle(t, "train", "setup", ix.train_deck)
        ticket_order = piles.shuffle(
            t, "tickets", "setup", [ix.ticket_ids[i] for i in ix.regular_tickets]
        )
        long_order: tuple[int, ...] = ()
        if rs.params.opening_tickets.long:
            long_order = piles.shuffle(
                t, "tickets", "setup_long", [ix.ticket_ids[i] for i in ix.long_tickets]
            )
        piles.deal_hands(t)
        for p in range(n):
            payment_counts.recount_hand(t, p)
        piles.refill(t)
        index = ix.ticket_index
        t.ticket_deck = tuple(index[x] for x in ticket_order)
        tickets.deal_opening(t, tuple(index[x] for x in long_order))
        t.events = None
        t.chance = None
        if dealt is not None:
            if record:
                sim._setup = tuple(dealt)
            if events is not None:
                events.extend(dealt)
        return sim

    @classmethod
    def from_state(
        cls,
        ruleset: Ruleset,
        state: GameState,
        *,
        names: Sequence[str] | None = None,
        record: bool = True,
        seed: int | None = None,
        setup: Iterable[ev.Event] = (),
        log: Iterable[LogEntry] = (),
    ) -> Simulator:
        """A simulator at ``state`` (a state of a game of ``ruleset``).

        Its log starts empty and it has no deal to save, unless it records and is given
        the game's deal (``setup``, its events, and the ``seed`` it was dealt with) and
        the ``log`` of the actions that led from the deal to ``state``: then it carries on
        that game's record, as `ttr_core.Game.simulator` does.
        """
        sim = cls(
            ruleset,
            names if names is not None else player_names(len(state.players)),
            record=record,
        )
        sim.load(state)
        sim._seed = seed
        if record:
            sim._setup = tuple(setup)
            sim._log = list(log)
        return sim

    def load(self, state: GameState) -> None:
        """Set this simulator to ``state`` (of its ruleset and seats).

        The deal and the log no longer lead to it, so they are forgotten, as for a
        simulator made with [`from_state`][]: recording goes on from an empty log, and
        `ttr_core.Game.from_simulator` refuses it (there is no deal to save or replay).
        """
        self._table.load(state)
        self._seeded = self._table.rng >= 0
        self._seed = None
        self._setup = ()
        self._log = []

    def _seat_view_into(self, listing: Simulator, seat: int) -> None:
        """Bring ``listing`` to what ``seat``, the seat to act, may know of this position (see
        [`Table.copy_seat_view_into`][ttr_core.rules.table.Table.copy_seat_view_into]):
        ``listing`` plays the same game and was loaded with a redacted state of ``seat``,
        with no change since but those of this method (see ``_changes``)."""
        self._table.copy_seat_view_into(listing._table, seat)

    def _decision_facts(self) -> DecisionFacts:
        """The [`DecisionFacts`][] of the position: what the search bot's playouts read at
        each step, from the table, where a snapshot would build the whole position."""
        t = self._table
        seat = t.current
        return DecisionFacts(
            t.frozen_phase(),
            seat,
            t.hand(seat),
            t.trains[seat],
            t.tickets[seat],
            t.shown_display(),
            t.board_tuples()[0],
            t.final_trigger,
            t.players,
        )

    def _changes(self) -> int:
        """A number that is different after every change of the position."""
        return self._table.version

    def clone(self) -> Simulator:
        """An independent copy (its log, when recording, is copied too)."""
        return Simulator(self._table.rs, self._names, record=self._record, copy_of=self)

    # -- what it is ----------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset of the game."""
        return self._table.rs

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, by seat."""
        return self._names

    @property
    def seed(self) -> int | None:
        """The seed the game was dealt with; None if dealt from recorded outcomes, made
        from a state or loaded with one."""
        return self._seed

    @property
    def setup(self) -> tuple[ev.Event, ...]:
        """The events of the deal (when recording; empty without a deal)."""
        return self._setup

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every applied action with its events, in order (when recording)."""
        return tuple(self._log)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._table.phase == GAME_OVER

    @property
    def current_player(self) -> int:
        """The seat that decides next."""
        return self._table.current

    def snapshot(self) -> GameState:
        """The position as a frozen [`GameState`][ttr_core.model.state.GameState] (the same
        object until the position changes)."""
        return self._table.snapshot()

    def view(self, seat: object) -> PlayerView:
        """What ``seat`` may see of the position (see [`view_of`][ttr_core.rules.views.view_of]).

        :raises SetupError: ``seat`` is not a seat of the game.
        """
        t = self._table
        seat = turn.require_seat(seat, t.players)
        # The view's parts, as a snapshot would hold them, without building the snapshot.
        seats = t.seat_states()
        owners, _, station_owners = t.board_tuples()
        return view_from(
            t.rs,
            seat,
            t.frozen_phase(),
            t.current,
            seats[seat],
            tickets.offered(t, seat),
            t.shown_display(),
            len(t.deck) - t.deck_pos,
            tuple(t.discard),
            len(t.ticket_deck),
            owners,
            station_owners,
            self._public_players(seats),
            t.final_trigger,
            t.turn,
            t.tunnel,
            None if t.choice is None else t.choice.frozen(),
        )

    def _public_players(self, players: tuple[PlayerState, ...]) -> tuple[PublicPlayer, ...]:
        """[`public_player`][ttr_core.rules.views.public_player] of every seat of
        ``players`` (a snapshot's), read again only for the seats whose holdings changed:
        a snapshot shares the others' `PlayerState` with the one before."""
        read_of = self._public_of
        public = self._public
        found: list[PublicPlayer] = []
        for i in range(len(players)):
            p = players[i]
            known = public[i]
            if known is None or read_of[i] is not p:
                known = public[i] = public_player(i, p)
                read_of[i] = p
            found.append(known)
        return tuple(found)

    def scores(self) -> Scoresheet:
        """The final scoring (of the current position, if the game is not over yet)."""
        t = self._table
        return score_game(t.rs, t.snapshot(), self._names)

    def __repr__(self) -> str:
        t = self._table
        return f"<Simulator {t.rs.id}: {t.players} players, turn {t.turn}, seat {t.current} to act>"

    # -- listing -------------------------------------------------------------------------

    def _list_now(self) -> None:
        """Count the legal actions of this position, by section, once per change."""
        t = self._table
        self._listed = t.version
        phase = t.phase
        if phase == TURN:
            self._faces = faces = t.faceup
            self._blind = blind = t.deck_pos < len(t.deck) or any(t.discard)
            self._tickets = tix = len(t.ticket_deck) > 0
            self._claims = n = claims.count_claims(t)
            n += len(faces) + blind + tix
            if self._extras:
                n = self._list_extras(t, n)
            self._pass = n == 0
            self._count = n if n else 1
            return
        if phase == SECOND_CARD:
            self._faces = faces = drawing.face_up_choices(t)
            self._blind = blind = piles.can_draw(t)
            self._count = len(faces) + blind
            return
        if phase in (OPENING_TICKETS, KEEP_TICKETS):
            self._keeps = tickets.keep_places(t)
            self._count = len(self._keeps)
            return
        if phase == CHOOSE_CARDS:
            self._choices = choices = card_groups.card_choices(t)
            self._count = len(choices)
            return
        self._list = tunnels.options(t) if phase == TUNNEL else []
        self._count = len(self._list)

    def _list_extras(self, t: Table, n: int) -> int:
        """Add the claims with card groups and the stations to a turn's count ``n``."""
        self._groups = groups = card_groups.count_group_claims(t) if t.ix.has_groups else 0
        n += groups
        if t.stations[t.current] > 0:
            self._cities, self._station_pay = stations.choices(t)
            n += len(self._cities) * len(self._station_pay)
        else:
            self._cities = ()
            self._station_pay = []
        return n

    def legal_count(self) -> int:
        """How many legal actions the player to decide has (0 once the game is over)."""
        if self._listed != self._table.version:
            self._list_now()
        return self._count

    def _count_without_pass(self) -> int:
        """How many legal actions there are besides passing."""
        n = self.legal_count()
        return n - 1 if self._table.phase == TURN and self._pass else n

    def legal_action(self, k: object) -> Action:
        """The ``k``-th legal action (in the documented listing order).

        (Parameters that the methods check themselves are typed ``object`` throughout, so
        that a bad value gets the same error in the compiled build as in pure Python.)

        :raises IndexError: ``k`` is not an ``int`` from 0 to ``legal_count() - 1``.
        """
        n = self.legal_count()
        if type(k) is not int or not 0 <= k < n:
            raise IndexError(f"legal action index {quote(k)} out of range (0 to {n - 1})")
        return self._listed_action(k)

    def _listed_action(self, k: int) -> Action:
        """The ``k``-th action of the current listing (counted at this version), remembered
        so that applying this very object needs no check (see ``apply``)."""
        kind, a, b = self._locate(k)
        action = self._build(kind, a, b)
        self._built = action
        self._built_at = self._table.version
        return action

    def legal_actions(self) -> list[Action]:
        """Every legal action, built (prefer ``legal_count`` and ``legal_action``)."""
        return [self.legal_action(k) for k in range(self.legal_count())]

    def _locate(self, k: int) -> tuple[int, int, int]:
        """Where the ``k``-th action of the current listing is: its section, and its
        place there (the card of a face-up draw; the index of a claim, a claim with
        groups, a ticket choice or a listed action; a station's city and payment)."""
        phase = self._table.phase
        if phase in (OPENING_TICKETS, KEEP_TICKETS):
            return _KEEP, k, 0
        if phase != TURN and phase != SECOND_CARD:
            return _LISTED, k, 0
        n = len(self._faces)
        if k < n:
            return _FACE, self._faces[k], 0
        if phase == SECOND_CARD:
            return _BLIND_DRAW, 0, 0
        k -= n
        if self._blind:
            if k == 0:
                return _BLIND_DRAW, 0, 0
            k -= 1
        if self._tickets:
            if k == 0:
                return _TICKET_DRAW, 0, 0
            k -= 1
        if k < self._claims:
            return _CLAIM, k, 0
        k -= self._claims
        if k < self._groups:
            return _GROUP_CLAIM, k, 0
        k -= self._groups
        per = len(self._station_pay)
        if k < len(self._cities) * per:
            return _STATION, k // per, k % per
        return _PASS_TURN, 0, 0

    def _build(self, kind: int, a: int, b: int) -> Action:
        """The action found in section ``kind`` of the current listing at places ``a`` and
        ``b``, as an object; where it was found is kept (for a claim, its track)."""
        self._built_kind = kind
        self._built_a = a
        self._built_b = b
        t = self._table
        if kind == _CLAIM:
            r, q, cards = claims.claim_at(t, a)
            self._built_a = r
            self._built_cards = cards
            # Actions are frozen values: one object per claim serves every listing of it.
            cell = r * self._claim_width + q
            action = self._claim_actions[cell]
            if action is None:
                # Given its fields directly: the generated __init__ costs half as much again.
                action = filled(ClaimRoute, {"route": t.ix.route_ids[r], "cards": cards})
                self._claim_actions[cell] = action
            return action
        if kind == _FACE:
            return _TAKE[a]
        if kind == _BLIND_DRAW:
            return _BLIND
        if kind == _KEEP:
            kept = tickets.kept_at(t, self._keeps[a])
            keeps = self._keep_actions
            choice = keeps.get(kept)
            if choice is None:
                if len(keeps) >= HAND_MEMO_LIMIT:
                    keeps.clear()
                choice = keeps[kept] = tickets.keep_action(t, kept)
            return choice
        if kind == _TICKET_DRAW:
            return _TICKETS
        if kind == _LISTED:
            return _CHOOSE[self._choices[a]] if t.phase == CHOOSE_CARDS else self._list[a]
        if kind == _GROUP_CLAIM:
            r, groups = card_groups.group_claim_at(t, a)
            return filled(ClaimWithGroups, {"route": t.ix.route_ids[r], "groups": groups})
        if kind == _STATION:
            city = t.ix.city_ids[self._cities[a]]
            return filled(BuildStation, {"city": city, "cards": self._station_pay[b]})
        return _PASS

    # -- applying ------------------------------------------------------------------------

    def apply_index(self, k: object) -> None:
        """Apply the ``k``-th legal action in place.

        :raises IndexError: ``k`` is not from 0 to ``legal_count() - 1``; nothing changes.
        """
        if type(k) is not int:
            raise IndexError(f"legal action index must be an int, not {quote(k)}")
        t = self._table
        if self._record or not self._seeded:
            self.apply(self.legal_action(k))
            return
        if self._listed != t.version:
            self._list_now()
        if not 0 <= k < self._count:
            raise IndexError(f"legal action index {quote(k)} out of range (0 to {self._count - 1})")
        t.version += 1
        self._apply_listed(k)

    def _apply_listed(self, k: int) -> None:
        """Apply the ``k``-th action of the current listing (counted at the version just
        before this change began)."""
        kind, a, b = self._locate(k)
        if kind == _CLAIM:
            t = self._table
            r, _, cards = claims.claim_at(t, a)
            tunnels.claim(t, r, cards)
        else:
            self._apply_located(kind, a, b)

    def _apply_located(self, kind: int, a: int, b: int) -> None:
        """Apply the action found in section ``kind`` of the current listing at places
        ``a`` and ``b`` (see ``_locate``); not a claim, which needs its payment."""
        t = self._table
        if kind == _FACE:
            drawing.take_face_up(t, a)
        elif kind == _BLIND_DRAW:
            drawing.draw_blind(t)
        elif kind == _KEEP:
            tickets.keep(t, tickets.kept_at(t, self._keeps[a]))
        elif kind == _TICKET_DRAW:
            tickets.draw(t)
        elif kind == _LISTED:
            if t.phase == CHOOSE_CARDS:
                card_groups.choose_card(t, self._choices[a])
            else:
                self._check(self._list[a])()
        elif kind == _GROUP_CLAIM:
            r, groups = card_groups.group_claim_at(t, a)
            card_groups.start_group_claim(t, r, groups)
        elif kind == _STATION:
            stations.build(t, self._cities[a], self._station_pay[b])
        else:
            turn.pass_turn(t)

    def apply(
        self,
        action: object,
        *,
        seat: object = None,
        events: list[ev.Event] | None = None,
        chance: Chance | None = None,
    ) -> list[ev.Event]:
        """Apply ``action`` of the player to decide, in place; return the events it caused
        (an empty list when not recording and not given ``events``).

        Pass ``seat``, the seat the action comes from, to have it refused unless that
        seat is the one to act (rule TURN-4); ``events``, a list to append the events to;
        and ``chance``, to take the action's shuffles from a record instead of the
        position's generator (replays).

        :raises IllegalActionError: the action is not legal here (naming the rule), or
            ``seat`` is not the seat to act; nothing changes.
        :raises SetupError: ``seat`` is not a seat of this game; nothing changes.
        """
        if not self._record and events is None and chance is None:
            self._apply_unrecorded(action, seat)
            return []
        t = self._table
        if seat is not None:
            turn.check_seat(t, seat)
        caused: list[ev.Event] = []
        t.events = caused if self._record or events is not None else None
        t.chance = chance
        try:
            self._apply_checked(action)
        finally:
            t.events = None
            t.chance = None
        if events is not None:
            events.extend(caused)
        if self._record and isinstance(action, Action):  # it is one: it was applied
            self._log.append(LogEntry(action=action, events=tuple(caused)))
        return caused

    def _apply_unrecorded(self, action: object, seat: object) -> None:
        """[`apply`][] for a simulator that records nothing, without events or a record's
        chance outcomes (what `ttr_core.Game` asks for as it plays)."""
        if seat is not None:
            turn.check_seat(self._table, seat)
        self._apply_checked(action)

    def _refuse(self, action: object, seat: object = None) -> None:
        """Raise what [`apply`][] would raise for ``action`` from ``seat``, changing
        nothing; return if it would apply."""
        t = self._table
        if seat is not None:
            turn.check_seat(t, seat)
        if t.phase == GAME_OVER:
            raise IllegalActionError("END-2", "the game is over")
        if not (action is self._built and self._built_at == t.version == self._listed):
            self._check(action)

    def _apply_checked(self, action: object) -> None:
        """Check ``action`` against the listing's rules, then apply it; all or nothing."""
        t = self._table
        if t.phase == GAME_OVER:
            raise IllegalActionError("END-2", "the game is over")
        do: Callable[[], None] | None = None
        if action is self._built and self._built_at == t.version == self._listed:
            # The very object the listing built at this position: legal by construction.
            self._built = None
        elif action is self._checked and self._checked_at == t.version:
            do = self._checked_do  # checked by is_legal at this very position
        else:
            do = self._check(action)
        self._checked = self._checked_do = None
        if self._seeded and t.chance is None:
            t.version += 1
            if do is not None:
                do()
            elif self._built_kind == _CLAIM:  # _apply_built written out: a call fewer
                tunnels.claim(t, self._built_a, self._built_cards)
            else:
                self._apply_located(self._built_kind, self._built_a, self._built_b)
            return
        # Outcomes from a record can be refused midway: keep a copy to go back to.
        backup = Table(t.rs, t.players, copy_of=t)
        events = t.events
        n = len(events) if events is not None else 0
        try:
            t.version += 1
            if do is None:
                self._apply_built()
            else:
                do()
        except BaseException:
            backup.copy_into(t)
            t.version += 1
            if events is not None:
                del events[n:]
            raise

    def _apply_built(self) -> None:
        """Apply the action that the listing built last (see ``_built``)."""
        if self._built_kind == _CLAIM:
            tunnels.claim(self._table, self._built_a, self._built_cards)
        else:
            self._apply_located(self._built_kind, self._built_a, self._built_b)

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` is among the legal actions (it would apply without error)."""
        t = self._table
        phase = t.phase
        if phase == GAME_OVER or not isinstance(action, Action):
            return False
        kind = type(action)
        if phase in (TURN, SECOND_CARD) and (
            kind is TakeFaceUp or kind is DrawBlind or kind is DrawTickets
        ):
            # Draws are read from the counted listing, which lists exactly these; a field
            # of another type is refused before it is read, as in ``_check``.
            if field_problem(action) is not None:
                return False
            if self._listed != t.version:
                self._list_now()
            if isinstance(action, TakeFaceUp):
                return action.card in self._faces
            if kind is DrawBlind:
                return self._blind
            return phase == TURN and self._tickets
        try:
            do = self._check(action)
        except IllegalActionError:
            return False
        self._checked = action
        self._checked_at = t.version
        self._checked_do = do
        return True

    def _check(self, action: object) -> Callable[[], None]:
        """Raise unless ``action`` is legal; return a function that applies it."""
        mistyped = field_problem(action)
        if mistyped is not None:
            raise IllegalActionError("TURN-1", mistyped)
        t = self._table
        check = _CHECKS.get(type(action))
        if check is not None and isinstance(action, Action):
            return check(t, action)
        if type(action) is Pass:
            why = turn.pass_error(t, self._count_without_pass())
            if why is not None:
                raise IllegalActionError(*why)
            return lambda: turn.pass_turn(t)
        raise IllegalActionError("TURN-1", f"{quote(action)} is not an action of this game")


_FACE: Final = 0
_BLIND_DRAW: Final = 1
_TICKET_DRAW: Final = 2
_CLAIM: Final = 3
_GROUP_CLAIM: Final = 4
_STATION: Final = 5
_LISTED: Final = 6
_PASS_TURN: Final = 7
_KEEP: Final = 8
"""Sections of the listing, in listing order."""
