"""Game records: what a saved game holds, and replaying one to the position it reached.

A [`GameRecord`][] holds the edition, its rules version, map hash and options, the seed, the
players, the deal's events and the log of actions with their events. It is saved as JSON
([`GameRecord.to_json`][ttr_core.play.records.GameRecord.to_json]) and read back with checks of its
shape ([`GameRecord.from_json`][ttr_core.play.records.GameRecord.from_json]). [`replay`][] plays it
again on a simulator, from its seed or, for a record without one, from its recorded shuffles, and
checks that every event follows; `ttr_core.Game.replay` and `ttr_core.Game.load` make a game of it.
"""

from __future__ import annotations

import functools
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
from ttr_core.model.errors import IllegalActionError, RecordError, TtrError, quote
from ttr_core.model.events import Event, LogEntry, Shuffled
from ttr_core.model.strict import JsonTextError, error_text, parse_json
from ttr_core.play.compact_records import (
    COMPACT_FORMAT,
    HEADER_KEYS,
    check_keys,
    compact_json,
    replay_compact,
)
from ttr_core.play.simulator import Simulator, name_problem, player_names
from ttr_core.ruleset.ruleset import Ruleset

RECORD_FORMAT = 1
"""The format of the verbose form, which writes every event ([`GameRecord.to_json`][])."""
MAX_RECORD_BYTES = 64 * 1024 * 1024
"""Records larger than this are refused before parsing."""
MAX_OPTION_SETS = 64
"""Most option combinations tried to explain a record's map hash (see [`replay`][])."""


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
    """[`options_digest`][] of ``options`` as the game was played; None in records saved
    before it existed. It tells an edited option apart even where the map hash cannot."""
    format: int = RECORD_FORMAT

    def to_json(self, *, compact: bool = False) -> str:
        """The record as JSON text: verbose (format 1), every event written out
        (``options_hash`` left out while None, as records saved before it existed were
        written), or with ``compact`` the compact form (format 2,
        [`ttr_core.play.compact_records`][]), a few kilobytes that replay to the same
        events."""
        if compact:
            header = {
                "edition": self.edition,
                "rules_version": self.rules_version,
                "map_hash": self.map_hash,
                "options": dict(self.options),
                "options_hash": self.options_hash,
                "seed": self.seed,
                "players": list(self.players),
                "start_player": self.start_player,
                "rng": self.rng,
            }
            return compact_json(header, self.setup, self.log)
        raw = CONVERTER.unstructure(self)
        if raw["options_hash"] is None:
            del raw["options_hash"]
        return json.dumps(raw, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes, *, plugins: Iterable[object] = ()) -> GameRecord:
        """Parse a record; raise `RecordError` if it is not well formed.

        A verbose record (format 1) is checked for shape only (JSON with no key twice in
        one object, the keys and types of the format, text that UTF-8 can encode);
        [`replay`][] checks that it is consistent. A compact record (format 2) holds no
        events, so reading it replays it (on the edition's ruleset with ``plugins``), with
        every check of [`replay`][] and of its digests.
        """
        return read(text, plugins)[0]


def read(text: str | bytes, plugins: Iterable[object] = ()) -> tuple[GameRecord, Simulator | None]:
    """Parse a record of either form: the record, and for a compact one the simulator its
    replay ended at (a verbose one is not replayed: None).

    :raises RecordError: see [`GameRecord.from_json`][].
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
            "record has no 'format' key (this library reads record formats "
            f"{RECORD_FORMAT} and {COMPACT_FORMAT})"
        )
    fmt = raw["format"]
    if fmt == COMPACT_FORMAT and type(fmt) is int:
        return _read_compact(raw, plugins)
    if fmt != RECORD_FORMAT:
        raise RecordError(
            f"unsupported record format {quote(fmt)} "
            f"(this library reads record formats {RECORD_FORMAT} and {COMPACT_FORMAT})"
        )
    return _structure(raw), None


def _structure(raw: dict[str, Any]) -> GameRecord:
    """A verbose record from its parsed JSON, its shape checked."""
    try:
        return CONVERTER.structure(raw, GameRecord)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        raise RecordError(f"malformed record: {error_text(exc)}") from None


def _read_compact(raw: dict[str, Any], plugins: Iterable[object]) -> tuple[GameRecord, Simulator]:
    """A compact record replayed: the record with its events, and the simulator at its end."""
    check_keys(raw)
    header = {k: raw[k] for k in HEADER_KEYS}
    record = _structure({**header, "setup": [], "log": [], "format": RECORD_FORMAT})
    rs = checked_ruleset(record, plugins)
    sim = replay_compact(raw, rs, record.players, record.seed, record.start_player)
    record = evolve(record, setup=sim.setup, log=sim.log)
    if record.seed is None:
        sim = _continued(record, sim)
    return record, sim


class RecordedChance:
    """Shuffle outcomes taken from recorded events, checked against the cards shuffled."""

    def __init__(self, events: Iterable[Event], where: str) -> None:
        """The shuffles among ``events``, in order; ``where`` names them in errors."""
        self._shuffles: Iterator[Shuffled] = iter([e for e in events if isinstance(e, Shuffled)])
        self._where = where

    def shuffle(self, pile: str, reason: str, items: Sequence[int]) -> tuple[int, ...]:
        """The next recorded order of ``items``.

        :raises RecordError: the next recorded shuffle is of another pile or reason, or
            none is left, or it does not hold the cards shuffled.
        """
        event = next(self._shuffles, None)
        if event is None or event.pile != pile or event.reason != reason:
            raise RecordError(f"{self._where}: a {pile} shuffle ({reason}) is not recorded")
        if Counter(event.order) != Counter(items):
            raise RecordError(
                f"{self._where}: the recorded {pile} shuffle does not hold the cards that "
                "were shuffled (a card cannot be where the record says)"
            )
        return event.order


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


def replay(record: GameRecord, *, plugins: Iterable[object] = ()) -> Simulator:
    """Replay a record from its recorded outcomes (and check its seed where present): a
    recording simulator at the record's end, with its deal and log.

    A record without a seed goes on with the generator it recorded (or one derived
    from the record).

    :raises RecordError: the record names another edition version or map, its options
        were edited (other option values give the recorded map hash), a player name is
        blank or given twice, an action is illegal, or an event does not follow.
    """
    rs = checked_ruleset(record, plugins)
    names = record.players
    seeded = record.seed is not None
    setup: list[Event] = []
    chance = None if seeded else RecordedChance(record.setup, "setup")
    try:
        player_names(len(names))  # too many or none: refused as a count is
        sim = Simulator.new(
            rs,
            names,
            seed=record.seed,
            start_player=record.start_player,
            events=setup,
            chance=chance,
        )
    except ValueError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"setup: {exc}") from None
    _compare("setup", setup, record.setup, seeded=seeded)
    for i, entry in enumerate(record.log):
        where = f"log[{i}]"
        if sim.is_over:
            raise RecordError(f"{where}: the game was already over")
        source = None if seeded else RecordedChance(entry.events, where)
        try:
            events = sim.apply(entry.action, chance=source)
        except IllegalActionError as exc:
            shown = repr(entry.action)
            if len(shown) > 100:
                shown = shown[:97] + "..."
            raise RecordError(f"{where}: {shown} is illegal: {exc}") from None
        _compare(where, events, entry.events, seeded=seeded)
    return sim if seeded else _continued(record, sim)


def checked_ruleset(record: GameRecord, plugins: Iterable[object]) -> Ruleset:
    """The ruleset a record names, after checking that the record fits it: its rules
    version, map hash, options hash and player names (see [`replay`][]).

    :raises RecordError: the record does not fit, or the ruleset cannot be built.
    """
    try:
        rs = _ruleset(record.edition, record.options, tuple(plugins))
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
    return rs


def _ruleset(edition: str, options: Mapping[str, Any], plugins: tuple[object, ...]) -> Ruleset:
    """The ruleset of a record: built once per process for each edition and options
    without plugins (its memos stay warm from replay to replay), else built anew."""
    if not plugins:
        try:
            key = json.dumps(dict(options), sort_keys=True)
        except (TypeError, ValueError):
            pass
        else:
            return _shared_ruleset(edition, key)
    return Ruleset.build(edition, dict(options), plugins)


@functools.lru_cache(maxsize=16)
def _shared_ruleset(edition: str, options: str) -> Ruleset:
    """The plugin-free ruleset of ``edition`` with ``options`` (as sorted JSON)."""
    return Ruleset.build(edition, json.loads(options))


def _continued(record: GameRecord, sim: Simulator) -> Simulator:
    """A seedless record's replay going on with the generator the record gives."""
    return Simulator.from_state(
        sim.ruleset,
        evolve(sim.snapshot(), rng=_continuation_rng(record)),
        names=sim.names,
        setup=sim.setup,
        log=sim.log,
    )
