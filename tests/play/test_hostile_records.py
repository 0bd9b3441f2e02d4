"""Hostile game records: malformed, truncated, oversized and inconsistent ones.

Every bad record is refused by ``Game.load`` with a ``RecordError`` whose message says
what is wrong and where (``log[57]: event 1 does not follow ...``); nothing else is
raised, and the game the record was saved from is left exactly as it was.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import ttr_core.play.records as records_module
from ttr_core.model.cards import CARD_NAMES
from ttr_core.model.errors import RecordError
from ttr_core.play.game import Game
from ttr_core.play.records import MAX_RECORD_BYTES
from ttr_core.testing import play_game, ruleset

EDITIONS = ("usa", "europe", "india", "switzerland", "fictional")
Raw = dict[str, Any]


@pytest.fixture(scope="module", params=EDITIONS)
def saved(request: pytest.FixtureRequest) -> tuple[Game, str]:
    """A finished 3-player game of each edition and its saved text."""
    game = play_game(ruleset(request.param), 3, 5)
    return game, game.save(compact=False)


def refused(text: str | bytes, pattern: str = "") -> str:
    """Load ``text``; it must raise RecordError (matching ``pattern``); return the message."""
    with pytest.raises(RecordError) as info:
        Game.load(text)
    message = str(info.value)
    assert message
    assert "\n" not in message
    if pattern:
        assert re.search(pattern, message), message
    return message


def edited(text: str, change: Callable[[Raw], object]) -> str:
    raw = json.loads(text)
    change(raw)
    return json.dumps(raw)


def unchanged(game: Game, text: str) -> None:
    """The game the record came from is as it was."""
    assert game.save(compact=False) == text
    assert Game.load(text).state == game.state


# -- malformed JSON --------------------------------------------------------------------------

MALFORMED: list[str | bytes] = [
    "",
    " ",
    "{",
    "}",
    "[",
    '{"format": 1',
    "{'format': 1}",
    '{"format": 1,}',
    '{"format": 1} trailing',
    '{"a":}',
    "nul",
    "\x00",
    "\ufeff{}",
    b"\xff\xfe\x00\x00",
    b"\xc3\x28",
    b'{"format": 1, "edition": "\xff"}',
]
NOT_AN_OBJECT = ["[]", "null", "42", '"record"', "true", "1e400", "NaN", "[{}]"]


@pytest.mark.parametrize("text", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_json(text: str | bytes) -> None:
    """Text that is not JSON is refused as such."""
    refused(text, r"not valid JSON|unsupported record format")


@pytest.mark.parametrize("text", NOT_AN_OBJECT)
def test_json_that_is_not_a_record_object(text: str) -> None:
    """JSON that is not an object is refused."""
    refused(text, r"must be a JSON object")


def test_records_of_the_wrong_format_version() -> None:
    """A record format other than 1, or none, is refused before anything else."""
    for value in (0, 3, "1", None, 1.5, [1]):
        refused(json.dumps({"format": value}), r"unsupported record format")
    for value in (1.0, True):
        refused(json.dumps({"format": value}), r"record format|\$\.format")
    refused("{}", r"^record has no 'format' key")


# -- truncated records -----------------------------------------------------------------------


def cut_points(length: int) -> list[int]:
    """The first 24 lengths and 48 spread over the whole text."""
    return sorted({*range(24), *(length * k // 48 for k in range(1, 48)), length - 1})


def test_truncated_records(saved: tuple[Game, str]) -> None:
    """A record cut anywhere is refused as invalid JSON."""
    game, text = saved
    points = cut_points(len(text))
    for n in points:
        refused(text[:n], r"not valid JSON|unsupported record format")
    for n in points[::4]:
        refused(text[:n].encode("utf-8"), r"not valid JSON|unsupported record format")
    unchanged(game, text)


# -- oversized records -------------------------------------------------------------------------


def test_a_record_over_the_size_limit_is_refused_before_parsing() -> None:
    """More than MAX_RECORD_BYTES is refused by size, as text and as bytes."""
    huge = "{" + " " * MAX_RECORD_BYTES + "}"
    refused(huge, r"larger than")
    refused(huge.encode("ascii"), r"larger than")


def test_the_size_limit_is_the_one_enforced(
    saved: tuple[Game, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A valid record just over a lowered limit is refused; at the limit it loads."""
    game, text = saved
    monkeypatch.setattr(records_module, "MAX_RECORD_BYTES", len(text))
    assert Game.load(text).state == game.state
    refused(text + " ", r"larger than")


def test_oversized_values(saved: tuple[Game, str]) -> None:
    """Huge numbers, huge names and a log far longer than the game are refused."""
    game, text = saved
    refused(text.replace('"seed": ', '"seed": ' + "9" * 5000, 1), r"not valid JSON|seed")
    refused(edited(text, lambda r: r.update(start_player=10**30)), r"^setup: start player")
    refused(edited(text, lambda r: r.update(players=["x" * 100_000] * 2)), r"duplicate player")
    refused(
        edited(text, lambda r: r["log"].extend([r["log"][-1]] * 5000)),
        rf"^log\[{len(game.log)}\]: the game was already over",
    )
    unchanged(game, text)


def test_deeply_nested_json_is_a_record_error() -> None:
    """JSON nested deeper than the parser's recursion limit is refused as a RecordError."""
    refused("[" * 100_000 + "]" * 100_000)


# -- wrong shapes and types ------------------------------------------------------------------

WRONG_VALUES: list[Any] = [None, True, 1.5, "x", [], {}, -1, [1, "a"]]
FIELD_TYPES = {
    "edition": str,
    "rules_version": str,
    "map_hash": str,
    "options": dict,
    "seed": (int, type(None)),
    "players": list,
    "start_player": int,
    "setup": list,
    "log": list,
    "rng": (int, type(None)),
}


def wrong_type_cases() -> Iterator[tuple[str, Any]]:
    for key, kind in FIELD_TYPES.items():
        for value in WRONG_VALUES:
            ok = isinstance(value, kind) and not (isinstance(value, bool) and kind is not str)
            if key in ("setup", "log", "players") and value == []:
                ok = True
            if not ok:
                yield key, value


@pytest.mark.parametrize(("key", "value"), list(wrong_type_cases()))
def test_wrong_types_at_the_top(saved: tuple[Game, str], key: str, value: Any) -> None:
    """A top-level key of the wrong type is refused, naming the key."""
    text = saved[1]
    message = refused(edited(text, lambda r: r.update({key: value})))
    assert key in message or "edition" in message or "options" in message, message


@pytest.mark.parametrize("key", [*FIELD_TYPES, "format"])
def test_missing_and_extra_keys(saved: tuple[Game, str], key: str) -> None:
    """A missing key or an unknown one is refused."""
    text = saved[1]
    if key != "rng":  # optional: only seedless records need it
        refused(edited(text, lambda r: r.pop(key)), rf"{key}|format")
    refused(edited(text, lambda r: r.update({key + "_x": 1})), rf"{key}_x")


def test_malformed_actions_and_events(saved: tuple[Game, str]) -> None:
    """Unknown tags, missing and extra keys, wrong types and card names in the log."""
    game, text = saved
    i = len(game.log) // 2

    def entry(change: Callable[[Raw], object]) -> Callable[[Raw], object]:
        return lambda r: change(r["log"][i])

    cases: list[tuple[Callable[[Raw], object], str]] = [
        (entry(lambda e: e["action"].update(tag="teleport")), r"unknown action tag 'teleport'"),
        (entry(lambda e: e["action"].pop("tag")), r"unknown action tag None"),
        (entry(lambda e: e["action"].update(extra=1)), r"unexpected keys \['extra'\]"),
        (entry(lambda e: e.update(action=[])), r"expected an object"),
        (entry(lambda e: e.update(action=None)), r"expected an object"),
        (entry(lambda e: e.update(events={})), r"events"),
        (entry(lambda e: e["events"].append({"tag": "meteor"})), r"unknown event tag 'meteor'"),
        (entry(lambda e: e["events"].append({"tag": "passed"})), r"missing key 'player'"),
        (entry(lambda e: e["events"].append({"tag": "passed", "player": "1"})), r"integer"),
        (entry(lambda e: e.update(note="x")), r"note"),
        (entry(lambda e: e.pop("events")), r"events"),
        (
            entry(lambda e: e.update(action={"tag": "take_face_up", "card": "purple"})),
            r"unknown card 'purple'",
        ),
        (
            entry(lambda e: e.update(action={"tag": "claim_route", "route": 1, "cards": []})),
            r"expected an object of card counts",
        ),
        (
            entry(
                lambda e: e.update(action={"tag": "claim_route", "route": 1, "cards": {"red": -2}})
            ),
            r"non-negative integer",
        ),
        (
            entry(lambda e: e.update(action={"tag": "keep_tickets", "tickets": [1.5]})),
            r"list of integers",
        ),
    ]
    for change, pattern in cases:
        refused(edited(text, change), pattern)
    unchanged(game, text)


# -- records edited to be inconsistent ------------------------------------------------------


def test_wrong_map_hash_rules_version_edition_and_options(saved: tuple[Game, str]) -> None:
    """A record of another map, rules version, edition or option set is refused."""
    game, text = saved
    edition = game.ruleset.id
    refused(edited(text, lambda r: r.update(map_hash="0" * 64)), rf"different '{edition}' map")
    refused(edited(text, lambda r: r.update(map_hash="")), r"map data")
    refused(edited(text, lambda r: r.update(rules_version="99")), r"rules version '99'")
    refused(edited(text, lambda r: r.update(edition="atlantis")), r"unknown edition 'atlantis'")
    refused(edited(text, lambda r: r["options"].update(speed=2)), r"no option 'speed'")
    for name in game.ruleset.options:
        refused(
            edited(text, lambda r, n=name: r["options"].update({n: "x"})),
            rf"option '{name}'|options\['{name}'\]",
        )
    unchanged(game, text)


def test_impossible_players(saved: tuple[Game, str]) -> None:
    """Duplicate names, player counts outside the edition's range, bad start players."""
    game, text = saved
    lo, hi = game.ruleset.params.players
    refused(edited(text, lambda r: r.update(players=["A", "A", "B"])), r"duplicate player")
    refused(edited(text, lambda r: r.update(players=[f"P{i}" for i in range(hi + 1)])), r"setup")
    refused(edited(text, lambda r: r.update(players=["Solo"][: lo - 1])), r"setup")
    refused(edited(text, lambda r: r.update(players=[])), r"setup")
    refused(edited(text, lambda r: r.update(start_player=3)), r"setup: start player")
    refused(edited(text, lambda r: r.update(start_player=-1)), r"setup: start player")
    refused(edited(text, lambda r: r.update(start_player=1)), r"^setup: event 0 does not follow")


def other_card(name: str | None) -> str:
    return CARD_NAMES[(CARD_NAMES.index(name) + 1) % len(CARD_NAMES)] if name else "red"


@pytest.mark.slow
def test_cards_that_cannot_be_where_the_record_says(saved: tuple[Game, str]) -> None:
    """Dealt, revealed, drawn and taken cards edited in the record, with and without the seed:
    the first event that does not follow is named."""
    game, text = saved
    raw = json.loads(text)
    seedless = json.dumps({**raw, "seed": None})
    assert Game.load(seedless).state.players == game.state.players
    for source in (text, seedless):
        tried = 0
        for where, events in [("setup", raw["setup"])] + [
            (f"log[{i}]", e["events"]) for i, e in enumerate(raw["log"])
        ]:
            for j, event in enumerate(events):
                if event["tag"] not in ("cards_dealt", "card_revealed", "blind_drawn"):
                    continue
                if tried > 40:
                    break
                tried += 1

                def change(r: Raw, where: str = where, j: int = j) -> None:
                    if where == "setup":
                        e = r["setup"][j]
                    else:
                        e = r["log"][int(where[4:-1])]["events"][j]
                    if e["tag"] == "cards_dealt":
                        e["cards"][0] = other_card(e["cards"][0])
                    else:
                        e["card"] = other_card(e["card"])

                message = refused(edited(source, change))
                if source is text or event["tag"] != "cards_dealt":
                    assert message.startswith(f"{where}: event "), message
        assert tried > 10
    unchanged(game, text)


def test_shuffle_outcomes_that_are_not_the_cards_shuffled(saved: tuple[Game, str]) -> None:
    """Without a seed, a shuffle must hold exactly the cards shuffled; with a seed, it must
    be the seed's outcome."""
    game, text = saved
    raw = json.loads(text)
    seedless = json.dumps({**raw, "seed": None})
    shuffles = [j for j, e in enumerate(raw["setup"]) if e["tag"] == "shuffled"]
    assert shuffles
    for j in shuffles:

        def replace(r: Raw, j: int = j) -> None:
            order = r["setup"][j]["order"]
            order[0] = max(order) + 1000

        def swap(r: Raw, j: int = j) -> None:
            order = r["setup"][j]["order"]
            k = next(k for k in range(1, len(order)) if order[k] != order[0])
            order[0], order[k] = order[k], order[0]

        def drop(r: Raw, j: int = j) -> None:
            r["setup"][j]["order"].pop()

        refused(edited(seedless, replace), r"^setup: the recorded .* shuffle does not hold")
        refused(edited(seedless, drop), r"^setup: the recorded .* shuffle does not hold")
        refused(edited(seedless, swap), r"^setup: event \d+ does not follow")
        refused(edited(text, swap), rf"^setup: event {j} does not follow \(the seed")
    refused(
        edited(seedless, lambda r: r["setup"].pop(shuffles[-1])), r"^setup: a .* is not recorded"
    )
    unchanged(game, text)


def mutations(event: Raw) -> Iterator[tuple[str, Raw]]:
    """Small edits of one event, each giving a different event."""
    for key, value in event.items():
        if key == "tag":
            continue
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            yield key, {**event, key: value + 1}
        elif isinstance(value, str) and value in CARD_NAMES:
            yield key, {**event, key: other_card(value)}
        elif isinstance(value, str):
            yield key, {**event, key: value + "x"}
        elif isinstance(value, list) and value:
            if value[::-1] != value:
                yield key, {**event, key: value[::-1]}
            yield key, {**event, key: value[:-1]}
        elif isinstance(value, dict):
            extra = dict(value)
            extra["red"] = extra.get("red", 0) + 1
            yield key, {**event, key: extra}


@pytest.mark.slow
def test_every_kind_of_event_edited_is_caught_where_it_is(saved: tuple[Game, str]) -> None:
    """Each field of events spread over the game, edited: the edited entry is named."""
    game, text = saved
    raw = json.loads(text)
    kinds: set[str] = set()
    count = 0
    for i, entry in enumerate(raw["log"]):
        for j, event in enumerate(entry["events"]):
            if event["tag"] in kinds and i % 9:
                continue
            kinds.add(event["tag"])
            for key, changed in mutations(event):
                bad = copy.deepcopy(raw)
                bad["log"][i]["events"][j] = changed
                message = refused(json.dumps(bad))
                count += 1
                assert message.startswith(f"log[{i}]: "), (key, message)
    assert count > 50
    assert {"route_claimed", "card_revealed", "tickets_kept", "game_ended"} <= kinds
    unchanged(game, text)


@pytest.mark.slow
def test_events_that_do_not_follow(saved: tuple[Game, str]) -> None:
    """Events dropped, repeated, reordered, moved to another entry or invented."""
    game, text = saved
    raw = json.loads(text)
    last = len(raw["log"]) - 1
    for i in range(0, last, max(1, last // 12)):
        events = raw["log"][i]["events"]

        def drop(r: Raw, i: int = i) -> None:
            r["log"][i]["events"].pop()

        def repeat(r: Raw, i: int = i) -> None:
            r["log"][i]["events"].append(r["log"][i]["events"][-1])

        def move(r: Raw, i: int = i) -> None:
            r["log"][i + 1]["events"].insert(0, r["log"][i]["events"].pop())

        def invent(r: Raw, i: int = i) -> None:
            r["log"][i]["events"].append({"tag": "game_ended", "reason": "final_round"})

        if events:
            refused(edited(text, drop), rf"^log\[{i}\]: the game gives \d+ events")
            refused(edited(text, repeat), rf"^log\[{i}\]: the game gives \d+ events")
            refused(edited(text, move), rf"^log\[{i}\]: the game gives \d+ events")
        refused(edited(text, invent), rf"^log\[{i}\]: the game gives \d+ events")
        if len(events) > 1 and events[0] != events[1]:

            def swap(r: Raw, i: int = i) -> None:
                e = r["log"][i]["events"]
                e[0], e[1] = e[1], e[0]

            refused(edited(text, swap), rf"^log\[{i}\]: event 0 does not follow")
    unchanged(game, text)


@pytest.mark.slow
def test_actions_that_are_illegal_where_they_stand(saved: tuple[Game, str]) -> None:
    """Entries reordered, dropped or replaced by illegal actions; entries after the end."""
    game, text = saved
    raw = json.loads(text)
    n = len(raw["log"])
    refused(edited(text, lambda r: r["log"].insert(0, r["log"][-1])), r"^log\[0\]: ")
    refused(edited(text, lambda r: r["log"].append(r["log"][-1])), rf"^log\[{n}\]: .*over")
    for i in range(1, n - 1, max(1, n // 10)):

        def swap(r: Raw, i: int = i) -> None:
            r["log"][i], r["log"][i + 1] = r["log"][i + 1], r["log"][i]

        def illegal(r: Raw, i: int = i) -> None:
            r["log"][i]["action"] = {"tag": "claim_route", "route": 10**6, "cards": {"red": 1}}

        def passing(r: Raw, i: int = i) -> None:
            r["log"][i]["action"] = {"tag": "pass"}

        if raw["log"][i] != raw["log"][i + 1]:
            swapped = edited(text, swap)
            try:
                other = Game.load(swapped)
            except RecordError as exc:
                assert str(exc).startswith(f"log[{i}]: "), exc
            else:  # two actions that commute, such as two face-up cards revealing alike
                assert other.state == game.state
                assert other.log[i].action == game.log[i + 1].action
        refused(edited(text, illegal), rf"^log\[{i}\]: ClaimRoute.* is illegal: .*\(rule \w+-\d+\)")
        refused(edited(text, passing), rf"^log\[{i}\]: .*(rule PASS-1|does not follow)")
        refused(edited(text, lambda r, i=i: r["log"].pop(i)), r"^log\[\d+\]: ")
    unchanged(game, text)
