"""A game session: a ruleset, the current state, the log, and saved records.

:class:`Game` is the convenient, mutable front of the engine: it plays on its own
:class:`~ttr_core.play.simulator.Simulator`, keeps the log (outside the state, so applying an
action never copies it) and turns it into a :class:`GameRecord` that replays to an equal
state.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import cattrs
from attrs import evolve, frozen

from ttr_core.formats.serialize import CONVERTER, event_to_json
from ttr_core.model import rng
from ttr_core.model.actions import Action
from ttr_core.model.errors import IllegalActionError, RecordError, SetupError, TtrError, quote
from ttr_core.model.events import Event, Shuffled
from ttr_core.model.events import LogEntry as LogEntry
from ttr_core.model.state import GameState
from ttr_core.model.strict import JsonTextError, error_text, parse_json
from ttr_core.play import functional as engine
from ttr_core.play.legal import LegalActions
from ttr_core.play.simulator import Simulator, name_problem, player_names
from ttr_core.rules.scoring import Scoresheet, score_game
from ttr_core.rules.views import PlayerView, view_of
from ttr_core.ruleset.ruleset import Ruleset

RECORD_FORMAT = 1
MAX_RECORD_BYTES = 64 * 1024 * 1024
"""Records larger than this are refused before parsing."""
MAX_OPTION_SETS = 64
"""Most option combinations tried to explain a record's map hash (see :meth:`Game.replay`)."""


@frozen
class GameRecord:
    """Everything needed to replay a game exactly, and to check that it is the same game."""

    edition: str
    rules_version: str
    map_hash: str
    options: Mapping[str, Any]
    seed: int | None
    players: tuple[str, ...]
    start_player: int
    setup: tuple[Event, ...]
    log: tuple[LogEntry, ...]
    rng: int | None
    """For records without a seed: the generator state at the end of the log, so that a
    replayed game can go on (its next shuffles come from this generator); else None."""
    options_hash: str | None = None
    """:func:`options_digest` of ``options`` as the game was played; None in records saved
    before it existed. It tells an edited option apart even where the map hash cannot."""
    format: int = RECORD_FORMAT

    def to_json(self) -> str:
        """The record as JSON text (``options_hash`` left out while None, as records saved
        before it existed were written)."""
        raw = CONVERTER.unstructure(self)
        if raw["options_hash"] is None:
            del raw["options_hash"]
        return json.dumps(raw, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Parse a record; raise :class:`RecordError` if it is not well formed.

        This checks the shape only (JSON with no key twice in one object, the keys and
        types of the format, text that UTF-8 can encode); :meth:`Game.replay` checks that
        it is consistent.
        """
        size = len(text.encode("utf-8", "surrogatepass")) if isinstance(text, str) else len(text)
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"record is larger than {MAX_RECORD_BYTES} bytes")
        try:
            raw = parse_json(text)
        except JsonTextError as exc:
            if exc.path is None:
                raise RecordError(f"record is {exc.problem}") from None
            raise RecordError(f"malformed record: {exc.path}: {exc.problem}") from None
        if not isinstance(raw, dict):
            raise RecordError("record must be a JSON object")
        if "format" not in raw:
            raise RecordError(
                f"record has no 'format' key (this library reads record format {RECORD_FORMAT})"
            )
        if raw["format"] != RECORD_FORMAT:
            raise RecordError(
                f"unsupported record format {quote(raw['format'])} "
                f"(this library reads record format {RECORD_FORMAT})"
            )
        try:
            return CONVERTER.structure(raw, GameRecord)
        except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
            raise RecordError(f"malformed record: {error_text(exc)}") from None


class _RecordedChance:
    """Shuffle outcomes taken from recorded events, checked against the cards shuffled."""

    def __init__(self, events: Iterable[Event], where: str) -> None:
        self._shuffles: Iterator[Shuffled] = iter([e for e in events if isinstance(e, Shuffled)])
        self._where = where

    def shuffle(self, pile: str, reason: str, items: Sequence[int]) -> tuple[int, ...]:
        event = next(self._shuffles, None)
        if event is None or event.pile != pile or event.reason != reason:
            raise RecordError(f"{self._where}: a {pile} shuffle ({reason}) is not recorded")
        if Counter(event.order) != Counter(items):
            raise RecordError(
                f"{self._where}: the recorded {pile} shuffle does not hold the cards that "
                "were shuffled (a card cannot be where the record says)"
            )
        return event.order


class Game:
    """A game in progress: apply actions, list legal ones, view, score, save, replay.

    It plays on its own :class:`~ttr_core.play.simulator.Simulator`, and keeps the names,
    the seed, the deal's events and the log that make its record.
    """

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
        self.ruleset = ruleset
        self.names = tuple(names)
        self.seed = seed
        self.setup = tuple(setup)
        self.log: list[LogEntry] = list(log)
        self._sim = Simulator.from_state(ruleset, state, names=self.names, record=False)
        self._state: GameState | None = state
        self._legal: LegalActions | None = None

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
        on from there, but has no record to save (:meth:`record` raises ``SetupError``).
        """
        self._put(state)
        self.seed = None
        self.setup = ()
        self.log = []

    def _put(self, state: GameState) -> None:
        """Move the simulator to ``state``, keeping the deal and the log."""
        self._sim.load(state)
        self._state = state
        self._legal = None

    def simulator(self, *, record: bool = True) -> Simulator:
        """An independent simulator at the game's current position (playing on it never
        changes the game); when recording, it carries on this game's deal and log."""
        sim = self._sim.clone()
        sim.record = record
        sim.names = self.names
        sim.seed = self.seed
        sim.setup = list(self.setup) if record else []
        sim.log = list(self.log) if record else []
        return sim

    @classmethod
    def new(
        cls,
        edition: str | Ruleset,
        players: int | Sequence[str] = 2,
        *,
        seed: int = 0,
        start_player: int = 0,
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
        rs = edition if isinstance(edition, Ruleset) else Ruleset.build(edition, options, plugins)
        sim = Simulator.deal(rs, player_names(players), seed=seed, start_player=start_player)
        return cls.from_simulator(sim)

    @classmethod
    def from_simulator(cls, sim: Simulator) -> Game:
        """A game at a simulator's position, with its names, seed, deal and log (the
        simulator is copied, not shared)."""
        game = cls.__new__(cls)
        game.ruleset = sim.rs
        game.names = sim.names
        game.seed = sim.seed
        game.setup = tuple(sim.setup)
        game.log = list(sim.log)
        game._sim = sim.clone()
        game._sim.record = False
        game._sim.setup = []
        game._sim.log = []
        game._state = None
        game._legal = None
        return game

    # -- play ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_over

    @property
    def current_player(self) -> int:
        """The seat that decides next."""
        return self.state.current

    def legal_actions(self) -> LegalActions:
        """The legal actions of the player to decide (a lazy sequence)."""
        if self._legal is None:
            self._legal = LegalActions(self.ruleset, self.state, simulator=self._sim)
        return self._legal

    def apply(self, action: Action, *, seat: int | None = None) -> list[Event]:
        """Apply an action of the current player and return the events it caused.

        A server passes ``seat``, the seat the action comes from, so that an action from
        any other seat than the one to act is refused (rule TURN-4).

        :raises IllegalActionError: naming the rule broken; nothing changes.
        :raises SetupError: ``seat`` is not a seat of this game; nothing changes.
        """
        events: list[Event] = []
        sim = self._sim
        sim.events = events
        try:
            sim.apply(action, seat=seat)
        finally:
            sim.events = None
        self._state = None
        self._legal = None
        self.log.append(LogEntry(action=action, events=tuple(events)))
        return events

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see."""
        return view_of(self.ruleset, self.state, seat)

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
            chance=None if seeded else _RecordedChance(self.setup, "setup"),
        )
        for i, entry in enumerate(self.log):
            yield state
            chance = None if seeded else _RecordedChance(entry.events, f"log[{i}]")
            state = engine.apply(rs, state, entry.action, chance=chance)
        yield self.state

    # -- records -------------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game so far as a replayable record.

        :raises SetupError: the game has no recorded deal: it was made from a state, or
            moved to one by setting :attr:`state`.
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

    def save(self) -> str:
        """The record as JSON text."""
        return self.record().to_json()

    @classmethod
    def load(cls, text: str | bytes, *, plugins: Iterable[object] = ()) -> Game:
        """Parse and replay a saved record; raise :class:`RecordError` if it is not sound."""
        return cls.replay(GameRecord.from_json(text), plugins=plugins)

    @classmethod
    def replay(cls, record: GameRecord, *, plugins: Iterable[object] = ()) -> Game:
        """Replay a record from its recorded outcomes (and check its seed where present).

        :raises RecordError: the record names another edition version or map, its options
            were edited (other option values give the recorded map hash), a player name is
            blank or given twice, an action is illegal, or an event does not follow.
        """
        try:
            rs = Ruleset.build(record.edition, dict(record.options), plugins)
        except TtrError as exc:
            raise RecordError(f"record cannot be replayed here: {exc}") from None
        if record.rules_version != rs.info.rules_version:
            raise RecordError(
                f"record was made with rules version {record.rules_version!r} of "
                f"{rs.id!r}; this installation has {rs.info.rules_version!r}"
            )
        if record.map_hash != rs.map_hash:
            raise RecordError(_hash_mismatch(record, rs, plugins))
        if record.options_hash is not None and record.options_hash != options_digest(rs.options):
            raise RecordError(
                "record's options differ from those the game was played with "
                "(their hash is not the recorded options_hash)"
            )
        names = record.players
        for i, name in enumerate(names):
            problem = name_problem(name)
            if problem:
                raise RecordError(f"$.players[{i}]: {problem}")
        if len(set(names)) != len(names):
            raise RecordError("record has duplicate player names")
        setup: list[Event] = []
        chance = None if record.seed is not None else _RecordedChance(record.setup, "setup")
        try:
            state = engine.new_game(
                rs,
                len(names),
                seed=record.seed,
                start_player=record.start_player,
                events=setup,
                chance=chance,
            )
        except ValueError as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"setup: {exc}") from None
        _compare("setup", setup, record.setup, seeded=record.seed is not None)
        game = cls(rs, state, names, seed=record.seed, setup=setup)
        for i, entry in enumerate(record.log):
            where = f"log[{i}]"
            if game.is_over:
                raise RecordError(f"{where}: the game was already over")
            events: list[Event] = []
            source = None if record.seed is not None else _RecordedChance(entry.events, where)
            sim = game._sim
            sim.events = events
            sim.chance = source
            try:
                sim.apply(entry.action)
            except IllegalActionError as exc:
                shown = repr(entry.action)
                if len(shown) > 100:
                    shown = shown[:97] + "..."
                raise RecordError(f"{where}: {shown} is illegal: {exc}") from None
            finally:
                sim.events = None
                sim.chance = None
            game._state = None
            _compare(where, events, entry.events, seeded=record.seed is not None)
            game.log.append(LogEntry(action=entry.action, events=tuple(events)))
        if record.seed is None:
            game._put(evolve(game.state, rng=_continuation_rng(record)))
        return game


def options_digest(options: Mapping[str, Any]) -> str:
    """SHA-256 of a ruleset's options as canonical JSON (keys sorted, UTF-8): what a record
    keeps as ``options_hash``."""
    text = json.dumps(dict(options), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _continuation_rng(record: GameRecord) -> int:
    """The generator a seedless record's game goes on with: recorded, or derived from it."""
    if record.rng is not None:
        return rng.seed_state(record.rng)
    digest = hashlib.sha256(record.to_json().encode("utf-8")).digest()
    return rng.seed_state(int.from_bytes(digest[:8], "big"))


def _hash_mismatch(record: GameRecord, rs: Ruleset, plugins: Iterable[object]) -> str:
    """Why the record's map hash is not the ruleset's: edited options, or other map data.

    The hash covers the map data after the options changed its parameters, so options
    that change parameters change it: if other values of the edition's options give the
    recorded hash, the record's options were edited.
    """
    plugins = tuple(plugins)
    specs = rs.option_specs
    given = rs.options
    combos: Iterable[tuple[Any, ...]]
    if all(len(s.choices) for s in specs) and _product_size(specs) <= MAX_OPTION_SETS:
        combos = sorted(
            itertools.product(*(s.choices for s in specs)),
            key=lambda combo: sum(v != given[s.name] for s, v in zip(specs, combo, strict=True)),
        )
    else:
        combos = (
            tuple(v if t is s else given[t.name] for t in specs) for s in specs for v in s.choices
        )
    for combo in combos:
        options = {s.name: v for s, v in zip(specs, combo, strict=True)}
        if options == given:
            continue
        try:
            other = Ruleset.build(record.edition, options, plugins)
        except TtrError:
            continue
        if other.map_hash == record.map_hash:
            changed = [s.name for s in specs if options[s.name] != given[s.name]]
            shown = ", ".join(
                f"{name!r} is {_json(given[name])} in the record but was {_json(options[name])}"
                for name in changed
            )
            return (
                f"record's options differ from those the game was played with: {shown} "
                "(the recorded map hash is that of the game's options)"
            )
    return f"record was made with different {rs.id!r} map data (hash differs)"


def _json(value: Any) -> str:
    """An option value as JSON (``false``, ``"rules"``), cut if long."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _product_size(specs: Sequence[Any]) -> int:
    """The number of option combinations, counted up to just past ``MAX_OPTION_SETS``."""
    size = 1
    for spec in specs:
        size *= len(spec.choices)
        if size > MAX_OPTION_SETS:
            break
    return size


def _compare(where: str, got: Sequence[Event], recorded: Sequence[Event], *, seeded: bool) -> None:
    for j, (a, b) in enumerate(zip(got, recorded, strict=False)):
        if a != b:
            hint = " (the seed does not give the recorded outcome)" if seeded else ""
            raise RecordError(f"{where}: event {j} does not follow{hint}: {_difference(a, b)}")
    if len(got) != len(recorded):
        raise RecordError(
            f"{where}: the game gives {len(got)} events, the record has {len(recorded)}"
        )


def _difference(game: Event, record: Event) -> str:
    """The first difference between two events, in their JSON form, kept short.

    Long lists (a shuffle's ``order``) are shown by their first differing item and length.
    """
    a, b = event_to_json(game), event_to_json(record)
    if a["tag"] != b["tag"]:
        return f"the game gives a {a['tag']} event, the record has a {b['tag']} event"
    for key, x in a.items():
        y = b.get(key)
        if x == y:
            continue
        where = f"{a['tag']}.{key}"
        if isinstance(x, list) and isinstance(y, list):
            i = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), None)
            if i is None:
                return f"{where} has {len(x)} items in the game, {len(y)} in the record"
            sizes = f"{len(x)} items" if len(x) == len(y) else f"{len(x)} and {len(y)} items"
            return (
                f"{where} differs first at [{i}]: the game gives {quote(x[i])}, "
                f"the record says {quote(y[i])} ({sizes})"
            )
        return f"{where}: the game gives {quote(x)}, the record says {quote(y)}"
    return f"the game gives {quote(a)}, the record says {quote(b)}"
