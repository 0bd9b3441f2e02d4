"""A game session: a ruleset, the current state, the log, and saved records.

[`Game`][] is the convenient, mutable front of the engine: it plays on its own
[`Simulator`][ttr_core.play.simulator.Simulator], keeps the log (outside the state, so applying an
action never copies it) and turns it into a [`GameRecord`][ttr_core.play.records.GameRecord] that
replays to an equal state.

A game records nothing as it plays until its events are read: it keeps the actions on a
`Tape` (in `ttr_core.play.seeded_replay`), which makes their events (and so the log
entries) when first asked for, by playing the actions again. Once the events are read as
the game goes (a server that sends each action's events), the game makes them as it
applies the actions instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, cast, overload

from ttr_core.model.actions import Action
from ttr_core.model.errors import SetupError
from ttr_core.model.events import Event
from ttr_core.model.events import LogEntry as LogEntry
from ttr_core.model.native import mypyc_attr
from ttr_core.model.state import GameState
from ttr_core.play import functional as engine
from ttr_core.play import records
from ttr_core.play.legal import LegalActions
from ttr_core.play.records import GameRecord, RecordedChance, options_digest
from ttr_core.play.seeded_replay import Tape
from ttr_core.play.simulator import Simulator
from ttr_core.rules.scoring import Scoresheet, score_game
from ttr_core.rules.table import GAME_OVER
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset


class _Events(Sequence[Event]):
    """The events that an action applied by a game caused, made when first read."""

    def __init__(self, tape: Tape, index: int) -> None:
        self._tape = tape
        self._index = index

    def _all(self) -> tuple[Event, ...]:
        return self._tape.events_of(self._index)

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, i: int) -> Event: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Event]: ...

    def __getitem__(self, i: int | slice) -> Event | Sequence[Event]:
        if isinstance(i, slice):
            return list(self._all()[i])
        return self._all()[i]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._all())

    def __contains__(self, event: object) -> bool:
        return event in self._all()

    def __eq__(self, other: object) -> bool:
        """Equal to a list or a tuple of the same events (or to another such sequence)."""
        if isinstance(other, _Events):
            return self._all() == other._all()
        if isinstance(other, list | tuple):
            return list(self._all()) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # unhashable, like the list it stands for

    def __repr__(self) -> str:
        return repr(list(self._all()))


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """A game in progress: apply actions, list legal ones, view, score, save, replay.

    It plays on its own [`Simulator`][ttr_core.play.simulator.Simulator], and keeps the names,
    the seed, the deal's events and the log that make its record. (Parameters that the
    methods check themselves are typed ``object``, as the simulator's are, so that a bad
    value gets the same error in the compiled build as in pure Python.)
    """

    ruleset: Ruleset
    names: tuple[str, ...]
    seed: int | None
    _setup: tuple[Event, ...] | None
    """The deal's events; None until first asked for by a game that [`new`][] dealt."""
    _log: list[LogEntry]
    _tape: Tape
    """The actions applied since the game's first position; ``_logged`` of them are in
    ``_log``."""
    _logged: int
    _sim: Simulator
    _state: GameState | None
    _legal: LegalActions | None

    def __init__(
        self,
        ruleset: Ruleset,
        state: GameState,
        names: Sequence[str],
        *,
        seed: int | None,
        setup: Sequence[Event],
        log: Iterable[LogEntry] = (),
    ) -> None:
        """A game at ``state`` of ``ruleset``, with the seats' ``names``, and the deal
        (``setup``, its events, and the ``seed`` it was dealt with) and the ``log`` that
        led there; without a deal (``setup=()``) it plays on but has no record to save."""
        names = tuple(names)
        self._begin(
            ruleset,
            names,
            seed,
            tuple(setup),
            Simulator.from_state(ruleset, state, names=names, record=False),
            Tape(ruleset, names, state),
        )
        self._state = state
        self._log = list(log)

    def _begin(
        self,
        ruleset: Ruleset,
        names: tuple[str, ...],
        seed: int | None,
        setup: tuple[Event, ...] | None,
        sim: Simulator,
        tape: Tape,
    ) -> None:
        """Set every field: the game plays on ``sim``, from the start of ``tape``."""
        self.ruleset = ruleset
        self.names = names
        self.seed = seed
        self._setup = setup
        self._log = []
        self._tape = tape
        self._logged = 0
        self._sim = sim
        self._state = None
        self._legal = None

    @property
    def setup(self) -> tuple[Event, ...]:
        """The deal's events (empty for a game without a recorded deal)."""
        setup = self._setup
        if setup is None:
            # A game that new() dealt without recording: the same seed deals it again.
            tape = self._tape
            dealt = Simulator.new(
                self.ruleset, self.names, seed=tape.seed, start_player=tape.start_player
            )
            setup = self._setup = dealt.setup
        return setup

    @setup.setter
    def setup(self, setup: Sequence[Event]) -> None:
        """Replace the deal's events."""
        self._setup = tuple(setup)

    @property
    def log(self) -> list[LogEntry]:
        """Every applied action with the events it caused, in order."""
        tape = self._tape
        events = tape.all_events()
        done = self._logged
        if done < len(events):
            self._log.extend(map(_entry, tape.actions[done:], events[done:]))
            self._logged = len(events)
        return self._log

    @log.setter
    def log(self, log: list[LogEntry]) -> None:
        """Replace the log (it is kept as given)."""
        self._log = log
        self._logged = len(self._tape.actions)

    @property
    def state(self) -> GameState:
        """The current position, as a frozen snapshot."""
        if self._state is None:
            self._state = self._sim.snapshot()
        return self._state

    @state.setter
    def state(self, state: GameState) -> None:
        """Move the game to another position (of its ruleset and seats).

        The deal and the log no longer lead to it, so they are forgotten: the game goes
        on from there, but has no record to save ([`record`][] raises ``SetupError``).
        """
        self._sim.load(state)
        self._state = state
        self._legal = None
        self.seed = None
        self._setup = ()
        self._log = []
        self._tape = Tape(self.ruleset, self.names, state)
        self._logged = 0

    def simulator(self, *, record: bool = True) -> Simulator:
        """An independent simulator at the game's current position (playing on it never
        changes the game); when recording, it carries on this game's deal and log."""
        return Simulator.from_state(
            self.ruleset,
            self.state,
            names=self.names,
            record=record,
            seed=self.seed,
            setup=self.setup,
            log=self.log,
        )

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
    ) -> Game:
        """Start a seeded game. ``players`` is a count or a list of unique names.

        :raises UnknownEditionError: no such edition is installed.
        :raises OptionError: an option is unknown or has a value the edition does not offer.
        :raises SetupError: bad player count, a name that is not a string, blank or not
            valid text (a lone surrogate), duplicate names, a bad start player, or a seed
            that is not an ``int`` of at most ``MAX_SEED_BITS`` bits.
        """
        sim = Simulator.new(
            edition,
            players,
            seed=seed,
            start_player=start_player,
            options=options,
            plugins=plugins,
            record=False,
        )
        # Checked by the simulator: an int seed, and a seat to start.
        dealt, first = cast(int, seed), cast(int, start_player)
        # Nothing is recorded or copied: the deal's events and its first position are
        # made from the seed again only when asked for.
        game = cls.__new__(cls)
        game._begin(
            sim.ruleset,
            sim.names,
            dealt,
            None,
            sim,
            Tape(sim.ruleset, sim.names, None, seed=dealt, start_player=first),
        )
        return game

    @classmethod
    def from_simulator(cls, sim: Simulator) -> Game:
        """A game at a recording simulator's position, with its names, seed, deal and log
        (copied: the simulator and the game play on apart).

        :raises SetupError: the simulator has no recorded deal: it records nothing
            (``record=False``), or was made from or loaded with a state.
        """
        if not sim.setup:
            raise SetupError(
                "this simulator has no recorded deal to save or replay: it records nothing "
                "(record=False), or was made from or loaded with a state"
            )
        return cls(
            sim.ruleset, sim.snapshot(), sim.names, seed=sim.seed, setup=sim.setup, log=sim.log
        )

    # -- play ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._sim._table.phase == GAME_OVER  # the simulator's is_over, one call fewer

    @property
    def current_player(self) -> int:
        """The seat that decides next."""
        return self._sim.current_player

    def legal_actions(self) -> LegalActions:
        """The legal actions of the player to decide (a lazy sequence)."""
        legal = self._legal
        if legal is None:
            legal = LegalActions(self.ruleset, self._state, simulator=self._sim, tape=self._tape)
            self._legal = legal
        return legal

    def apply(self, action: object, *, seat: object = None) -> Sequence[Event]:
        """Apply an action of the current player and return the events it caused (a
        sequence, made when first read; it compares equal to a list of the same events).

        A server passes ``seat``, the seat the action comes from, so that an action from
        any other seat than the one to act is refused (rule TURN-4).

        :raises IllegalActionError: naming the rule broken; nothing changes.
        :raises SetupError: ``seat`` is not a seat of this game; nothing changes.
        """
        tape = self._tape
        actions = tape.actions
        if tape.read and len(tape.events) == len(actions):
            # The last events were read: this caller reads them, so make them now.
            caused: list[Event] = []
            self._sim.apply(action, seat=seat, events=caused)
            tape.events.append(tuple(caused))
        elif seat is None:
            self._sim._apply_checked(action)  # the game's simulator records nothing
        else:
            self._sim._apply_unrecorded(action, seat)
        tape.read = False
        self._state = None
        self._legal = None
        actions.append(action)  # type: ignore[arg-type]  # applied, so it is an action
        return _Events(tape, len(actions) - 1)

    def view(self, seat: object) -> PlayerView:
        """What ``seat`` may see.

        :raises SetupError: ``seat`` is not a seat of the game.
        """
        return self._sim.view(seat)

    def scores(self) -> Scoresheet:
        """The final scoring (of the current position, if the game is not over yet)."""
        return score_game(self.ruleset, self.state, self.names)

    def history(self) -> Iterator[GameState]:
        """The state before each logged action, then the current state.

        The earlier states are rebuilt by playing the log again from the setup, with the
        game's seed or, for a game without one, the recorded shuffles; the last one is the
        game's own (for a seedless game it holds the generator the game goes on with).
        """
        rs = self.ruleset
        seeded = self.seed is not None
        state = engine.new_game(
            rs,
            len(self.names),
            seed=self.seed,
            start_player=self.state.start_player,
            chance=None if seeded else RecordedChance(self.setup, "setup"),
        )
        for i, entry in enumerate(self.log):
            yield state
            chance = None if seeded else RecordedChance(entry.events, f"log[{i}]")
            state = engine.apply(rs, state, entry.action, chance=chance)
        yield self.state

    # -- records -------------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game so far as a replayable record.

        :raises SetupError: the game has no recorded deal: it was made from a state, or
            moved to one by setting [`state`][].
        """
        if not self.setup:
            raise SetupError(
                "this game was made from or set to a position: it has no recorded deal "
                "to save or replay"
            )
        rs = self.ruleset
        return GameRecord(
            edition=rs.id,
            rules_version=rs.info.rules_version,
            map_hash=rs.map_hash,
            options=dict(rs.options),
            seed=self.seed,
            players=self.names,
            start_player=self.state.start_player,
            setup=self.setup,
            log=tuple(self.log),
            rng=self.state.rng if self.seed is None and self.state.rng >= 0 else None,
            options_hash=options_digest(rs.options),
        )

    def save(self, *, compact: bool = True) -> str:
        """The record as JSON text: compact (record format 2, a few kilobytes, whose
        events come back by replaying it), or with ``compact=False`` verbose (format 1,
        every event written out). [`load`][] reads both.

        :raises SetupError: as [`record`][].
        """
        return self.record().to_json(compact=compact)

    @classmethod
    def load(cls, text: str | bytes, *, plugins: Iterable[object] = ()) -> Game:
        """Parse and replay a saved record of either form; raise `RecordError` if it is
        not sound."""
        record, sim = records.read(text, plugins)
        if sim is None:
            return cls.replay(record, plugins=plugins)
        return cls.from_simulator(sim)

    @classmethod
    def replay(cls, record: GameRecord, *, plugins: Iterable[object] = ()) -> Game:
        """Replay a record from its recorded outcomes (and check its seed where present);
        see [`replay`][ttr_core.play.records.replay].

        :raises RecordError: the record names another edition version or map, its options
            were edited (other option values give the recorded map hash), a player name is
            blank or given twice, an action is illegal, or an event does not follow.
        """
        return cls.from_simulator(records.replay(record, plugins=plugins))


def _entry(action: Action, events: tuple[Event, ...]) -> LogEntry:
    """The log entry of an action and its events."""
    return LogEntry(action=action, events=events)
