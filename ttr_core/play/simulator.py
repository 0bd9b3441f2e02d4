"""The in-place simulator: play on a mutable table, in OpenSpiel's vocabulary.

A :class:`Simulator` is one game's position on a :class:`~ttr_core.rules.table.Table`,
changed in place by the mechanics of :mod:`ttr_core.rules`. It lists its legal actions
(counted and indexed without building them), applies an action or the ``k``-th legal
action, clones cheaply and converts to the frozen :class:`~ttr_core.model.state.GameState`
that the functional API, views, scoring and records use::

    sim = Simulator.new("usa", players=4, seed=1)
    while not sim.is_over:
        sim.apply_index(0)
    print(sim.scores().winners)

By default a simulator records what happens (the events, chance outcomes included, and
the log of actions), so its game saves and replays like any other; search playouts
pass ``record=False`` and record nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from ttr_core.model import events as ev
from ttr_core.model import rng
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
    field_problem,
)
from ttr_core.model.errors import IllegalActionError, SetupError, quote
from ttr_core.model.events import LogEntry
from ttr_core.model.mapdata import MAX_PLAYERS
from ttr_core.model.state import GameState
from ttr_core.model.strict import check_text
from ttr_core.rules import card_groups, claims, drawing, piles, stations, tickets, tunnels, turn
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
    Table,
)
from ttr_core.ruleset.ruleset import Ruleset

_TAKE = tuple(TakeFaceUp(card=k) for k in range(9))
_BLIND = DrawBlind()
_TICKETS = DrawTickets()
_PASS = Pass()
_CHOOSE = tuple(ChooseCard(card=k) for k in range(9))


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


class Simulator(Table):
    """One game, played in place. Build one with :meth:`new`, :meth:`from_state` or
    :meth:`ttr_core.Game.simulator`."""

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
    _keeps: Sequence[tuple[int, ...]] = ()
    _pass = False
    _count = 0
    _built: Action | None = None
    _built_index = 0
    _built_at = -1
    _built_route = -1

    def __init__(
        self,
        rs: Ruleset,
        names: Sequence[str],
        *,
        record: bool = True,
        copy_of: Simulator | None = None,
    ) -> None:
        """A simulator before the deal, or with ``copy_of`` a copy of that simulator
        (prefer :meth:`new`, :meth:`from_state` and :meth:`clone`)."""
        super().__init__(rs, len(names), copy_of=copy_of)
        self.names: tuple[str, ...] = tuple(names)
        self.seed: int | None = None
        """The seed the game was dealt with; None if dealt from recorded outcomes."""
        self.record = record
        """Whether events and the log are kept."""
        self.setup: list[ev.Event] = []
        """The events of the deal (when recording)."""
        self.log: list[LogEntry] = []
        """Every applied action with its events (when recording)."""
        if copy_of is not None:
            self.seed = copy_of.seed
            if record:
                self.setup = list(copy_of.setup)
                self.log = list(copy_of.log)
        self._extras = rs.has_groups or rs.params.stations > 0
        """Whether turns may offer claims with card groups or stations."""

    # -- building ------------------------------------------------------------------------

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
    ) -> Simulator:
        """Deal a seeded game; the same arguments as :meth:`ttr_core.Game.new` deal the
        same game.

        :raises UnknownEditionError: no such edition is installed.
        :raises OptionError: an option is unknown or has a value the edition does not offer.
        :raises SetupError: bad player count, bad names (see :meth:`ttr_core.Game.new`), or
            a bad start player.
        """
        rs = edition if isinstance(edition, Ruleset) else Ruleset.build(edition, options, plugins)
        return cls.deal(
            rs, player_names(players), seed=seed, start_player=start_player, record=record
        )

    @classmethod
    def deal(
        cls,
        rs: Ruleset,
        names: Sequence[str],
        *,
        seed: object,
        start_player: object = 0,
        record: bool = True,
        chance: Chance | None = None,
        events: list[ev.Event] | None = None,
    ) -> Simulator:
        """Set up a game: shuffle, deal the hands, lay out the display, deal the tickets.

        Pass ``seed`` for a seeded game, or ``chance`` to take the shuffles from a record.
        The deal's events go to ``events`` if given, and to :attr:`setup` when recording.

        :raises SetupError: the player count or start player is out of range, or neither
            ``seed`` nor ``chance`` was given.
        """
        players = len(names)
        lo, hi = rs.params.players
        if not lo <= players <= hi:
            raise SetupError(f"{rs.id} is played by {lo} to {hi} players, not {players}")
        start = start_player if type(start_player) is int else -1
        if not 0 <= start < players:
            raise SetupError(
                f"start player must be a seat from 0 to {players - 1}, not {quote(start_player)}"
            )
        if seed is None and chance is None:
            raise SetupError("a new game needs a seed (or recorded chance outcomes)")
        given = seed if type(seed) is int and seed.bit_length() <= MAX_SEED_BITS else None
        if seed is not None and given is None:
            raise SetupError(
                f"a seed is an integer of at most {MAX_SEED_BITS} bits, not {quote(seed)}"
            )
        sim = cls(rs, names, record=record)
        sim.seed = given
        sink = events if events is not None else (sim.setup if record else None)
        sim.events = sink
        sim.chance = chance
        sim.current = sim.start_player = start
        sim.rng = -1 if given is None else rng.seed_state(given)
        if sink is not None:
            sink.append(ev.GameStarted(players=players, start_player=start))
        sim.deck = piles.shuffle(sim, "train", "setup", rs.train_deck)
        ticket_order = piles.shuffle(
            sim, "tickets", "setup", [rs.ticket_ids[i] for i in rs.regular_tickets]
        )
        long_order: tuple[int, ...] = ()
        if rs.params.opening_tickets.long:
            long_order = piles.shuffle(
                sim, "tickets", "setup_long", [rs.ticket_ids[i] for i in rs.long_tickets]
            )
        piles.deal_hands(sim)
        for p in range(players):
            claims.recount_hand(sim, p)
        piles.refill(sim)
        index = rs.ticket_index
        sim.ticket_deck = tuple(index[x] for x in ticket_order)
        tickets.deal_opening(sim, tuple(index[x] for x in long_order))
        if events is not None and record:
            sim.setup = list(events)
        sim.events = None
        sim.chance = None
        return sim

    @classmethod
    def from_state(
        cls,
        ruleset: Ruleset,
        state: GameState,
        *,
        names: Sequence[str] | None = None,
        record: bool = True,
    ) -> Simulator:
        """A simulator at ``state`` (a state of a game of ``ruleset``); its log starts empty."""
        sim = cls(
            ruleset,
            names if names is not None else player_names(len(state.players)),
            record=record,
        )
        sim.load(state)
        return sim

    def load(self, state: GameState) -> None:
        """Set this simulator to ``state`` (of its ruleset and seats).

        The deal and the log no longer lead to it, so they are forgotten, as for a
        simulator made with :meth:`from_state`: recording goes on from an empty log, and
        :meth:`game` raises ``SetupError`` (there is no deal to save or replay).
        """
        super().load(state)
        self.seed = None
        self.setup = []
        self.log = []

    def clone(self) -> Simulator:
        """An independent copy (its log, when recording, is copied too)."""
        return Simulator(self.rs, self.names, record=self.record, copy_of=self)

    # -- what it is ----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase == GAME_OVER

    @property
    def current_player(self) -> int:
        """The seat that decides next."""
        return self.current

    def scores(self) -> Scoresheet:
        """The final scoring (of the current position, if the game is not over yet)."""
        return score_game(self.rs, self.snapshot(), self.names)

    def __repr__(self) -> str:
        return (
            f"<Simulator {self.rs.id}: {self.players} players, turn {self.turn}, "
            f"seat {self.current} to act>"
        )

    def game(self) -> Any:
        """A :class:`~ttr_core.Game` at this position with this simulator's deal and log
        (recording simulators only), to save, replay or view."""
        from ttr_core.play.game import Game

        if not self.record:
            raise SetupError("this simulator records nothing (record=False): it has no log")
        if not self.setup:
            raise SetupError(
                "this simulator was made from a state: it has no recorded deal to save or replay"
            )
        return Game.from_simulator(self)

    # -- listing -------------------------------------------------------------------------

    def _list_now(self) -> None:
        """Count the legal actions of this position, by section, once per change."""
        self._listed = self.version
        phase = self.phase
        if phase == TURN:
            self._faces = faces = self.faceup
            self._blind = blind = self.deck_pos < len(self.deck) or any(self.discard)
            self._tickets = tix = len(self.ticket_deck) > 0
            self._claims = n = claims.count_claims(self)
            n += len(faces) + blind + tix
            if self._extras:
                n = self._list_extras(n)
            self._pass = n == 0
            self._count = n if n else 1
            return
        if phase == SECOND_CARD:
            self._faces = faces = drawing.face_up_choices(self)
            self._blind = blind = piles.can_draw(self)
            self._count = len(faces) + blind
            return
        if phase in (OPENING_TICKETS, KEEP_TICKETS):
            self._keeps = tickets.keep_choices(self)
            self._count = len(self._keeps)
            return
        if phase == TUNNEL:
            self._list = tunnels.options(self)
        elif phase == CHOOSE_CARDS:
            self._list = [_CHOOSE[k] for k in card_groups.card_choices(self)]
        else:
            self._list = []
        self._count = len(self._list)

    def _list_extras(self, n: int) -> int:
        """Add the claims with card groups and the stations to a turn's count ``n``."""
        self._groups = groups = card_groups.count_group_claims(self) if self.rs.has_groups else 0
        n += groups
        if self.stations[self.current] > 0:
            self._cities, self._station_pay = stations.choices(self)
            n += len(self._cities) * len(self._station_pay)
        else:
            self._cities = ()
            self._station_pay = []
        return n

    def legal_count(self) -> int:
        """How many legal actions the player to decide has (0 once the game is over)."""
        if self._listed != self.version:
            self._list_now()
        return self._count

    def legal_count_without_pass(self) -> int:
        """How many legal actions there are besides passing."""
        n = self.legal_count()
        return n - 1 if self.phase == TURN and self._pass else n

    def legal_action(self, k: object) -> Action:
        """The ``k``-th legal action (in the documented listing order).

        (Parameters that the methods check themselves are typed ``object`` throughout, so
        that a bad value gets the same error in the compiled build as in pure Python.)

        :raises IndexError: ``k`` is not an ``int`` from 0 to ``legal_count() - 1``.
        """
        n = self.legal_count()
        if type(k) is not int or not 0 <= k < n:
            raise IndexError(f"legal action index {quote(k)} out of range (0 to {n - 1})")
        self._built_route = -1
        action = self._build(k)
        # Remembered so that applying this very object needs no check (see ``apply``).
        self._built = action
        self._built_index = k
        self._built_at = self.version
        return action

    def _build(self, k: int) -> Action:
        """The ``k``-th legal action as an object (the listing is current)."""
        kind, a, b = self._locate(k)
        rs = self.rs
        if kind == _FACE:
            return _TAKE[a]
        if kind == _BLIND_DRAW:
            return _BLIND
        if kind == _TICKET_DRAW:
            return _TICKETS
        if kind == _CLAIM:
            r, cards = claims.claim_at(self, a)
            self._built_route = r
            return ClaimRoute(route=rs.route_ids[r], cards=cards)
        if kind == _GROUP_CLAIM:
            r, groups = card_groups.group_claim_at(self, a)
            return ClaimWithGroups(route=rs.route_ids[r], groups=groups)
        if kind == _STATION:
            return BuildStation(city=rs.city_ids[self._cities[a]], cards=self._station_pay[b])
        if kind == _KEEP:
            return tickets.keep_action(self, self._keeps[a])
        if kind == _LISTED:
            return self._list[a]
        return _PASS

    def legal_actions(self) -> list[Action]:
        """Every legal action, built (prefer ``legal_count`` and ``legal_action``)."""
        return [self.legal_action(k) for k in range(self.legal_count())]

    def _locate(self, k: int) -> tuple[int, int, int]:
        """Which section of the listing the ``k``-th action is in, and where in it."""
        phase = self.phase
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

    # -- applying ------------------------------------------------------------------------

    def apply_index(self, k: object) -> None:
        """Apply the ``k``-th legal action in place.

        :raises IndexError: ``k`` is not from 0 to ``legal_count() - 1``; nothing changes.
        """
        if type(k) is not int:
            raise IndexError(f"legal action index must be an int, not {quote(k)}")
        if self.record or self.rng < 0 or self.chance is not None:
            self.apply(self.legal_action(k))
            return
        if self._listed != self.version:
            self._list_now()
        if not 0 <= k < self._count:
            raise IndexError(f"legal action index {quote(k)} out of range (0 to {self._count - 1})")
        self.version += 1
        self._apply_listed(k)

    def _apply_listed(self, k: int) -> None:
        """Apply the ``k``-th action of the current listing (counted at the version just
        before this change began)."""
        phase = self.phase
        if phase in (OPENING_TICKETS, KEEP_TICKETS):
            tickets.keep(self, self._keeps[k])
            return
        if phase != TURN and phase != SECOND_CARD:
            self._apply_checked(self._list[k])
            return
        faces = self._faces
        if k < len(faces):
            drawing.take_face_up(self, faces[k])
            return
        if phase == SECOND_CARD:
            drawing.draw_blind(self)
            return
        k -= len(faces)
        if self._blind:
            if k == 0:
                drawing.draw_blind(self)
                return
            k -= 1
        if self._tickets:
            if k == 0:
                tickets.draw(self)
                return
            k -= 1
        if k < self._claims:
            r, cards = claims.claim_at(self, k)
            self._claim(r, cards)
            return
        k -= self._claims
        if k < self._groups:
            r, groups = card_groups.group_claim_at(self, k)
            card_groups.start_group_claim(self, r, groups)
            return
        k -= self._groups
        per = len(self._station_pay)
        if k < len(self._cities) * per:
            stations.build(self, self._cities[k // per], self._station_pay[k % per])
            return
        turn.pass_turn(self)

    def _claim(self, r: int, cards: tuple[int, ...]) -> None:
        """Claim listed track index ``r`` with ``cards``: a tunnel's reveal, else the claim."""
        if self.rs.route_tunnel[r]:
            tunnels.reveal(self, r, cards)
        else:
            claims.complete_claim(self, r, cards, ())

    def apply(self, action: object, *, seat: object = None) -> list[ev.Event]:
        """Apply ``action`` of the player to decide, in place; return the events it caused
        (an empty list when not recording).

        Pass ``seat``, the seat the action comes from, to have it refused unless that
        seat is the one to act (rule TURN-4).

        :raises IllegalActionError: the action is not legal here (naming the rule), or
            ``seat`` is not the seat to act; nothing changes.
        :raises SetupError: ``seat`` is not a seat of this game; nothing changes.
        """
        if seat is not None:
            turn.check_seat(self, seat)
        if not self.record and self.events is None:
            self._apply_checked(action)
            return []
        events: list[ev.Event] = []
        sink = self.events
        self.events = events if (self.record or sink is not None) else None
        try:
            self._apply_checked(action)
        finally:
            self.events = sink
        if sink is not None:
            sink.extend(events)
        if self.record and isinstance(action, Action):  # it is one: it was applied
            self.log.append(LogEntry(action=action, events=tuple(events)))
        return events

    def _apply_checked(self, action: object) -> None:
        """Check ``action`` against the listing's rules, then apply it; all or nothing."""
        if self.phase == GAME_OVER:
            raise IllegalActionError("END-2", "the game is over")
        if action is self._built and self._built_at == self.version == self._listed:
            # The very object the listing built at this position: legal by construction.
            k = self._built_index
            self._built = None
            if self.rng >= 0 and self.chance is None:
                self.version += 1
                route = self._built_route
                if route >= 0 and isinstance(action, ClaimRoute):
                    self._claim(route, action.cards)  # found when the object was built
                else:
                    self._apply_listed(k)
                return

            def do() -> None:
                self._apply_listed(k)

        else:
            do = self._check(action)
        if self.rng < 0 or self.chance is not None:
            # Outcomes from a record can be refused midway: keep a copy to go back to.
            backup = self.clone()
            events = self.events
            n = len(events) if events is not None else 0
            try:
                self.version += 1
                do()
            except BaseException:
                backup.copy_into(self)
                self.version += 1
                if events is not None:
                    del events[n:]
                raise
            return
        self.version += 1
        do()

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` is among the legal actions (it would apply without error)."""
        if self.phase == GAME_OVER or not isinstance(action, Action):
            return False
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    def _check(self, action: object) -> Callable[[], None]:
        """Raise unless ``action`` is legal; return a function that applies it."""
        mistyped = field_problem(action)
        if mistyped is not None:
            raise IllegalActionError("TURN-1", mistyped)
        kind = type(action)
        if kind is TakeFaceUp and isinstance(action, TakeFaceUp):
            card = action.card
            drawing.check_face_up(self, card)
            return lambda: drawing.take_face_up(self, card)
        if kind is DrawBlind and isinstance(action, DrawBlind):
            drawing.check_blind(self)
            return lambda: drawing.draw_blind(self)
        if kind is ClaimRoute and isinstance(action, ClaimRoute):
            cards = action.cards
            r = claims.check_claim(self, action.route, cards)
            if self.rs.route_tunnel[r]:
                return lambda: tunnels.reveal(self, r, cards)
            return lambda: claims.complete_claim(self, r, cards, ())
        if kind is DrawTickets and isinstance(action, DrawTickets):
            tickets.check_draw(self)
            return lambda: tickets.draw(self)
        if kind is KeepTickets and isinstance(action, KeepTickets):
            kept = tickets.check_keep(self, action.tickets)
            return lambda: tickets.keep(self, kept)
        if kind is ClaimWithGroups and isinstance(action, ClaimWithGroups):
            groups = action.groups
            r = card_groups.check_group_claim(self, action.route, groups)
            return lambda: card_groups.start_group_claim(self, r, groups)
        if kind is ChooseCard and isinstance(action, ChooseCard):
            card = action.card
            card_groups.check_choose(self, card)
            return lambda: card_groups.choose_card(self, card)
        if kind is PayTunnel and isinstance(action, PayTunnel):
            cards = action.cards
            tunnels.check_pay(self, cards)
            return lambda: tunnels.pay(self, cards)
        if kind is WithdrawTunnel and isinstance(action, WithdrawTunnel):
            tunnels.check_withdraw(self)
            return lambda: tunnels.withdraw(self)
        if kind is BuildStation and isinstance(action, BuildStation):
            cards = action.cards
            c = stations.check_build(self, action.city, cards)
            return lambda: stations.build(self, c, cards)
        if kind is Pass and isinstance(action, Pass):
            why = turn.pass_error(self, self.legal_count_without_pass())
            if why is not None:
                raise IllegalActionError(*why)
            return lambda: turn.pass_turn(self)
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
