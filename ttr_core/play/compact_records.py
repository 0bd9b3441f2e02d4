"""The compact form of a game record (record format 2): the same game in a few kilobytes.

A verbose record (format 1) writes every event of the game, and the events are most of its
size. The compact form keeps what a replay needs and what shows that the replay is the
same game:

- the header of the verbose form (edition, rules version, map and options hashes, options,
  seed, players, start player, generator);
- ``chance``: the outcome of every shuffle, in the order they happened (the deal's first),
  so that the record replays without the generator;
- ``actions``: every action as a short token ([`action_token`][]), in one string;
- ``digests``: per position (the deal, then each action) one byte of the SHA-256 of its
  events in their JSON form, which names the first position where a replay differs;
- ``events_sha256``: the SHA-256 of all the events, which catches what a byte can miss.

Reading it replays the game ([`replay_compact`][]); the events come from the replay.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final
from urllib.parse import quote as url_quote
from urllib.parse import unquote

from ttr_core.formats.serialize import event_to_json
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
from ttr_core.model.cards import NUM_KINDS
from ttr_core.model.errors import IllegalActionError, RecordError, quote
from ttr_core.model.events import Event, LogEntry, Shuffled
from ttr_core.play.simulator import Simulator, player_names
from ttr_core.ruleset.ruleset import Ruleset

COMPACT_FORMAT: Final = 2
"""The record format number of the compact form."""

KEYS: Final = (
    "format",
    "edition",
    "rules_version",
    "map_hash",
    "options",
    "options_hash",
    "seed",
    "players",
    "start_player",
    "rng",
    "chance",
    "actions",
    "digests",
    "events_sha256",
)
"""The keys of a compact record, in the order it is written."""

HEADER_KEYS: Final = KEYS[1:10]
"""The keys it shares with a verbose record."""

_NO_FIELDS: dict[str, type[Action]] = {
    "b": DrawBlind,
    "t": DrawTickets,
    "w": WithdrawTunnel,
    "x": Pass,
}
_CARD_FIELD: dict[str, type[TakeFaceUp] | type[ChooseCard]] = {"f": TakeFaceUp, "h": ChooseCard}


def cards_token(cards: Sequence[int]) -> str:
    """Nine card counts as card numbers, each written as often as it is counted
    (``(0, 0, 1, 0, 0, 0, 0, 0, 2)`` is ``"288"``)."""
    return "".join(str(kind) * n for kind, n in enumerate(cards))


def action_token(action: Action) -> str:
    """The token of an action in a compact record.

    A letter names the kind, then come its fields, separated by ``:``: ``f3`` (take the
    face-up card 3), ``b`` (draw blind), ``t`` (draw tickets), ``k12,30`` (keep tickets
    12 and 30), ``c40:444`` (claim track 40 with three cards 4), ``g40:2`` (claim with two
    groups), ``h5`` (choose card 5), ``p8`` (pay a tunnel), ``w`` (withdraw), ``sWien:11``
    (a station in the city, its id percent-encoded), ``x`` (pass).
    """
    if isinstance(action, TakeFaceUp):
        return f"f{action.card}"
    if isinstance(action, ChooseCard):
        return f"h{action.card}"
    if isinstance(action, ClaimRoute):
        return f"c{action.route}:{cards_token(action.cards)}"
    if isinstance(action, KeepTickets):
        return "k" + ",".join(str(t) for t in action.tickets)
    if isinstance(action, ClaimWithGroups):
        return f"g{action.route}:{action.groups}"
    if isinstance(action, PayTunnel):
        return f"p{cards_token(action.cards)}"
    if isinstance(action, BuildStation):
        return f"s{url_quote(action.city, safe='')}:{cards_token(action.cards)}"
    for letter, kind in _NO_FIELDS.items():
        if type(action) is kind:
            return letter
    raise TypeError(f"no compact token for {action!r}")


def _number(text: str) -> int:
    """A non-negative decimal number with no sign, spaces or leading zeros."""
    if not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        raise ValueError(f"{quote(text)} is not a number")
    if len(text) > 9:
        raise ValueError(f"{text[:12]}... is too large")
    return int(text)


def _cards(text: str) -> tuple[int, ...]:
    """Nine card counts from a [`cards_token`][]."""
    counts = [0] * NUM_KINDS
    for digit in text:
        if not "0" <= digit < str(NUM_KINDS):
            raise ValueError(f"{quote(digit)} is not a card number")
        counts[int(digit)] += 1
    return tuple(counts)


def parse_action(token: str) -> Action:
    """The action of an [`action_token`][].

    :raises ValueError: the token is not one.
    """
    letter, body = token[:1], token[1:]
    if letter in _NO_FIELDS:
        if body:
            raise ValueError(f"{quote(letter)} takes no fields")
        return _NO_FIELDS[letter]()
    if letter in _CARD_FIELD:
        card = _number(body)
        if card >= NUM_KINDS:
            raise ValueError(f"{card} is not a card number")
        return _CARD_FIELD[letter](card=card)
    if letter == "k":
        return KeepTickets(tickets=tuple(_number(t) for t in body.split(",")) if body else ())
    if letter == "p":
        return PayTunnel(cards=_cards(body))
    if letter not in ("c", "g", "s"):
        raise ValueError(f"unknown action letter {quote(letter)}")
    head, sep, tail = body.partition(":")
    if not sep:
        raise ValueError(f"{quote(letter)} needs two fields separated by ':'")
    if letter == "c":
        return ClaimRoute(route=_number(head), cards=_cards(tail))
    if letter == "g":
        return ClaimWithGroups(route=_number(head), groups=_number(tail))
    city = unquote(head, errors="strict")
    return BuildStation(city=city, cards=_cards(tail))


EVENT_TEXT_LIMIT: Final = 8192
"""How many events keep their canonical JSON text for the next digest before all are
forgotten: a game saved again and again, or loaded, digests mostly events seen before."""

_EVENT_TEXT: dict[Event, bytes] = {}


def _event_text(event: Event) -> bytes:
    """One event as canonical JSON (keys sorted, no spaces, UTF-8)."""
    found = _EVENT_TEXT.get(event)
    if found is None:
        if len(_EVENT_TEXT) >= EVENT_TEXT_LIMIT:
            _EVENT_TEXT.clear()
        text = json.dumps(
            event_to_json(event), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        found = _EVENT_TEXT[event] = text.encode("utf-8", "surrogatepass")
    return found


def events_bytes(events: Iterable[Event]) -> bytes:
    """The events of one position as canonical JSON (a list of event objects, keys sorted,
    no spaces, UTF-8): what the digests are taken of."""
    return b"[" + b",".join(_event_text(e) for e in events) + b"]"


class _Digests:
    """The digests of a game's positions, taken one position at a time."""

    def __init__(self) -> None:
        self.bytes = bytearray()
        self._all = hashlib.sha256()

    def add(self, events: Iterable[Event]) -> int:
        """Take in the events of the next position; return its one-byte digest."""
        data = events_bytes(events)
        self._all.update(data)
        self._all.update(b"\n")
        byte = hashlib.sha256(data).digest()[0]
        self.bytes.append(byte)
        return byte

    def total(self) -> str:
        """The SHA-256 of every position taken in, in hex."""
        return self._all.hexdigest()


def _chance_entry(event: Shuffled) -> list[Any]:
    """A shuffle as ``[pile, reason, order]``; an order of card numbers is a string."""
    order: str | list[int] = list(event.order)
    if event.pile == "train" and all(0 <= n < 10 for n in event.order):
        order = "".join(str(n) for n in event.order)
    return [event.pile, event.reason, order]


def compact_json(header: Mapping[str, Any], setup: Sequence[Event], log: Sequence[LogEntry]) -> str:
    """The compact record of a game: ``header`` holds the verbose form's top-level keys
    (without ``setup``, ``log`` and ``format``)."""
    digests = _Digests()
    digests.add(setup)
    chance = [_chance_entry(e) for e in setup if isinstance(e, Shuffled)]
    tokens = []
    for entry in log:
        digests.add(entry.events)
        chance.extend(_chance_entry(e) for e in entry.events if isinstance(e, Shuffled))
        tokens.append(action_token(entry.action))
    raw = {
        "format": COMPACT_FORMAT,
        **{k: header[k] for k in HEADER_KEYS},
        "chance": chance,
        "actions": " ".join(tokens),
        "digests": base64.b64encode(bytes(digests.bytes)).decode("ascii"),
        "events_sha256": digests.total(),
    }
    return json.dumps(raw, ensure_ascii=False, separators=(",", ":"))


# -- reading ------------------------------------------------------------------------------


def check_keys(raw: dict[str, Any]) -> None:
    """Check a compact record's keys and the types of its own keys (chance, actions,
    digests, events_sha256); the header is checked as a verbose record's is."""
    missing = [k for k in KEYS if k not in raw]
    extra = [k for k in raw if k not in KEYS]
    if missing:
        raise RecordError(f"malformed record: $: missing key {missing[0]!r}")
    if extra:
        raise RecordError(f"malformed record: $: unknown key {extra[0]!r}")
    if not isinstance(raw["actions"], str):
        raise RecordError("malformed record: $.actions: must be a string")
    if not isinstance(raw["digests"], str):
        raise RecordError("malformed record: $.digests: must be a string")
    digest = raw["events_sha256"]
    if not (isinstance(digest, str) and len(digest) == 64 and digest.isascii()):
        raise RecordError("malformed record: $.events_sha256: must be 64 hex digits")
    if not isinstance(raw["chance"], list):
        raise RecordError("malformed record: $.chance: must be a list")


def _shuffles(chance: list[Any]) -> list[Shuffled]:
    """The recorded shuffles of ``$.chance``."""
    found = []
    for i, item in enumerate(chance):
        where = f"malformed record: $.chance[{i}]"
        if not (isinstance(item, list) and len(item) == 3):
            raise RecordError(f"{where}: must be [pile, reason, order]")
        pile, reason, order = item
        if not (isinstance(pile, str) and isinstance(reason, str)):
            raise RecordError(f"{where}: pile and reason must be strings")
        if isinstance(order, str):
            if not (order.isascii() and order.isdigit()) and order:
                raise RecordError(f"{where}: an order string holds card numbers only")
            items = tuple(int(c) for c in order)
        elif isinstance(order, list) and all(type(n) is int and n >= 0 for n in order):
            items = tuple(order)
        else:
            raise RecordError(f"{where}: order must be a string of digits or a list of numbers")
        found.append(Shuffled(pile=pile, reason=reason, order=items))
    return found


def _actions(text: str) -> list[Action]:
    """The actions of ``$.actions``."""
    if not text:
        return []
    found = []
    for i, token in enumerate(text.split(" ")):
        try:
            found.append(parse_action(token))
        except (ValueError, UnicodeError) as exc:
            raise RecordError(
                f"malformed record: $.actions: token {i} {quote(token)}: {exc}"
            ) from None
    return found


def _digest_bytes(text: str, positions: int) -> bytes:
    """The per-position digests of ``$.digests``: one byte for the deal and each action."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeError):
        raise RecordError("malformed record: $.digests: must be base64") from None
    if len(data) != positions:
        raise RecordError(
            f"malformed record: $.digests: holds {len(data)} digests for {positions} positions "
            "(the deal and each action)"
        )
    return data


class _Shuffles:
    """The recorded shuffles, handed out in order: as the chance of a seedless replay, or
    checked against what the seed gives."""

    def __init__(self, shuffles: list[Shuffled]) -> None:
        self._shuffles = shuffles
        self._next = 0
        self.where = "setup"

    def _take(self, pile: str, reason: str) -> Shuffled:
        if self._next >= len(self._shuffles):
            raise RecordError(f"{self.where}: a {pile} shuffle ({reason}) is not recorded")
        event = self._shuffles[self._next]
        self._next += 1
        if event.pile != pile or event.reason != reason:
            raise RecordError(
                f"{self.where}: a {pile} shuffle ({reason}) happens here, the record has a "
                f"{event.pile} shuffle ({event.reason})"
            )
        return event

    def shuffle(self, pile: str, reason: str, items: Sequence[int]) -> tuple[int, ...]:
        """The next recorded order of ``items`` (a replay's chance)."""
        event = self._take(pile, reason)
        if sorted(event.order) != sorted(items):
            raise RecordError(
                f"{self.where}: the recorded {pile} shuffle does not hold the cards that "
                "were shuffled (a card cannot be where the record says)"
            )
        return event.order

    def check(self, events: Iterable[Event]) -> None:
        """Check that the shuffles among ``events`` (the seed's) are the recorded ones."""
        for event in events:
            if isinstance(event, Shuffled) and self._take(event.pile, event.reason) != event:
                raise RecordError(
                    f"{self.where}: the seed does not give the recorded {event.pile} shuffle"
                )

    def left(self) -> int:
        """How many recorded shuffles no replay step took."""
        return len(self._shuffles) - self._next


def replay_compact(
    raw: dict[str, Any], rs: Ruleset, names: Sequence[str], seed: int | None, start_player: int
) -> Simulator:
    """Replay a compact record: a recording simulator at its end.

    ``raw`` is the parsed JSON, whose header (``rs``, the ruleset it names, ``names``,
    ``seed`` and ``start_player``) the caller has checked as a verbose record's. The replay
    checks each position's digest, every recorded shuffle and the digest of all events.

    :raises RecordError: the record's own keys are malformed, an action is illegal, a
        shuffle is not the one recorded, or the events differ from the record's, naming the
        position (``setup``, ``log[12]``).
    """
    shuffles = _Shuffles(_shuffles(raw["chance"]))
    actions = _actions(raw["actions"])
    expected = _digest_bytes(raw["digests"], len(actions) + 1)
    seeded = seed is not None
    digests = _Digests()
    setup: list[Event] = []
    try:
        player_names(len(names))
        sim = Simulator.new(
            rs,
            names,
            seed=seed,
            start_player=start_player,
            events=setup,
            chance=None if seeded else shuffles,
        )
    except ValueError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"setup: {exc}") from None
    if seeded:
        shuffles.check(setup)
    if digests.add(setup) != expected[0]:
        raise RecordError("setup: the deal gives other events than the record's (digest differs)")
    for i, action in enumerate(actions):
        where = shuffles.where = f"log[{i}]"
        if sim.is_over:
            raise RecordError(f"{where}: the game was already over")
        try:
            events = sim.apply(action, chance=None if seeded else shuffles)
        except IllegalActionError as exc:
            raise RecordError(f"{where}: {action_token(action)!r} is illegal: {exc}") from None
        if seeded:
            shuffles.check(events)
        if digests.add(events) != expected[i + 1]:
            raise RecordError(
                f"{where}: the action gives other events than the record's (digest differs)"
            )
    if shuffles.left():
        raise RecordError(
            f"$.chance: {shuffles.left()} recorded shuffles are left over at the end of the game"
        )
    if digests.total() != raw["events_sha256"]:
        raise RecordError("the game's events are not the record's (events_sha256 differs)")
    return sim
