"""The compact record form (format 2): the same games in a few kilobytes, replayed to the
same events, and refused where edited, with the position named."""

from __future__ import annotations

import base64
import json
import statistics
from collections.abc import Callable
from typing import Any

import pytest

from ttr_core import Game, GameRecord, RecordError, Ruleset
from ttr_core.batch.runs import play_game
from ttr_core.formats.serialize import event_to_json
from ttr_core.model.actions import (
    ACTION_TYPES,
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
from ttr_core.play import compact_records
from ttr_core.play.compact_records import KEYS, action_token, events_bytes, parse_action
from ttr_core.testing.play import play_game as random_game
from ttr_core.testing.play import ruleset

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")


@pytest.fixture(scope="module", params=EDITIONS)
def finished(request: pytest.FixtureRequest) -> Game:
    """A finished game of each edition with the most players it allows."""
    rs = ruleset(request.param)
    return random_game(rs, rs.params.players[1], seed=7)


@pytest.fixture(scope="module")
def usa_game() -> Game:
    return random_game(ruleset("usa"), 3, seed=11)


def compact(game: Game) -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(game.save())
    return raw


def refused(raw: dict[str, Any] | str, pattern: str) -> str:
    """Loading ``raw`` raises RecordError matching ``pattern``, in one line."""
    text = raw if isinstance(raw, str) else json.dumps(raw)
    with pytest.raises(RecordError, match=pattern) as info:
        Game.load(text)
    message = str(info.value)
    assert "\n" not in message and len(message) <= 300
    return message


def edited(raw: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(raw))
    change(copy)
    return copy


# -- round trips ---------------------------------------------------------------------------


def test_a_compact_record_replays_to_the_same_record_and_positions(finished: Game) -> None:
    text = finished.save()
    raw = json.loads(text)
    assert raw["format"] == 2 and list(raw) == list(KEYS)
    loaded = Game.load(text)
    assert loaded.record() == finished.record()
    assert loaded.state == finished.state
    assert list(loaded.history()) == list(finished.history())
    assert GameRecord.from_json(text) == finished.record()
    assert GameRecord.from_json(finished.save(compact=False)) == finished.record()
    assert loaded.save() == text


def test_the_verbose_form_is_still_written_and_read(finished: Game) -> None:
    verbose = json.loads(finished.save(compact=False))
    assert verbose["format"] == 1 and "log" in verbose
    assert Game.load(json.dumps(verbose)).record() == finished.record()


def test_a_compact_record_without_its_seed_replays_from_its_shuffles(usa_game: Game) -> None:
    raw = edited(compact(usa_game), lambda r: r.update(seed=None))
    loaded = Game.load(json.dumps(raw))
    assert loaded.log == usa_game.log and loaded.setup == usa_game.setup
    assert loaded.seed is None


def test_a_game_in_progress_saves_compactly(usa: Ruleset) -> None:
    game = random_game(usa, 2, seed=3, actions=40)
    loaded = Game.load(game.save())
    assert loaded.state == game.state and loaded.log == game.log
    assert list(loaded.legal_actions()) == list(game.legal_actions())


def test_usa_four_player_records_are_at_most_4_kib_on_average() -> None:
    """The size promised for the compact form, on uniformly random bot games."""
    rs = Ruleset.build("usa")
    sizes = []
    for seed in range(1, 11):
        result = play_game(rs, ["random"] * 4, seed, record=True)
        assert result.record is not None
        sizes.append(len(result.record.to_json(compact=True).encode("utf-8")))
    assert statistics.mean(sizes) <= 4096


# -- action tokens -------------------------------------------------------------------------

EXAMPLES = [
    (TakeFaceUp(card=3), "f3"),
    (DrawBlind(), "b"),
    (DrawTickets(), "t"),
    (KeepTickets(tickets=(12, 30)), "k12,30"),
    (KeepTickets(tickets=()), "k"),
    (ClaimRoute(route=40, cards=(0, 0, 0, 0, 3, 0, 0, 0, 1)), "c40:4448"),
    (ClaimWithGroups(route=7, groups=2), "g7:2"),
    (ChooseCard(card=5), "h5"),
    (PayTunnel(cards=(0,) * 8 + (2,)), "p88"),
    (PayTunnel(cards=(0,) * 9), "p"),
    (WithdrawTunnel(), "w"),
    (BuildStation(city="Frankfurt am Main: Hbf,1", cards=(1,) + (0,) * 8), None),
    (BuildStation(city="Zürich", cards=(0, 2) + (0,) * 7), "sZ%C3%BCrich:11"),
    (Pass(), "x"),
]


@pytest.mark.parametrize(("action", "token"), EXAMPLES, ids=range(len(EXAMPLES)))
def test_every_kind_of_action_has_a_token_that_reads_back(action: Any, token: str | None) -> None:
    written = action_token(action)
    assert token is None or written == token
    assert " " not in written
    assert parse_action(written) == action


def test_the_examples_cover_every_kind_of_action() -> None:
    assert {type(a) for a, _ in EXAMPLES} == set(ACTION_TYPES)


def test_every_action_of_whole_games_reads_back(finished: Game) -> None:
    for entry in finished.log:
        assert parse_action(action_token(entry.action)) == entry.action


@pytest.mark.parametrize(
    ("token", "problem"),
    [
        ("q", "unknown action letter"),
        ("", "unknown action letter"),
        ("b1", "takes no fields"),
        ("f9", "not a card number"),
        ("f03", "not a number"),
        ("f-1", "not a number"),
        ("f", "not a number"),
        ("c40", "two fields"),
        ("c40:9", "not a card number"),
        ("c1234567890:4", "too large"),
        ("k1,,2", "not a number"),
        ("g7:x", "not a number"),
        ("c٣:4", "not a number"),
    ],
)
def test_malformed_tokens_are_refused_with_their_place(
    usa_game: Game, token: str, problem: str
) -> None:
    raw = compact(usa_game)
    tokens = raw["actions"].split(" ")
    tokens[5] = token
    raw["actions"] = " ".join(tokens)
    message = refused(raw, r"^malformed record: \$\.actions: token 5 ")
    assert problem in message


# -- edited records ------------------------------------------------------------------------


def test_an_edited_action_is_refused_where_it_is(usa_game: Game) -> None:
    raw = compact(usa_game)
    tokens = raw["actions"].split(" ")
    first_draw = tokens.index("b")
    face_up = next(t for t in tokens if t.startswith("f"))
    tokens[first_draw] = face_up if face_up != "b" else "t"
    refused({**raw, "actions": " ".join(tokens)}, rf"^log\[{first_draw}\]: ")


def test_a_dropped_or_added_action_is_refused(usa_game: Game) -> None:
    raw = compact(usa_game)
    tokens = raw["actions"].split(" ")
    refused({**raw, "actions": " ".join(tokens[:-1])}, r"\$\.digests: holds \d+ digests for")
    refused({**raw, "actions": " ".join([*tokens, "x"])}, r"\$\.digests: holds \d+ digests for")


def test_an_edited_shuffle_is_refused_where_it_is_used(usa_game: Game) -> None:
    for seed in (usa_game.seed, None):
        raw = compact(usa_game)
        raw["seed"] = seed
        order = raw["chance"][0][2]
        swapped = order[1] + order[0] + order[2:] if order[0] != order[1] else order[::-1]
        raw["chance"][0][2] = swapped
        expected = r"^setup: the seed does not give" if seed is not None else r"^setup: "
        refused(raw, expected)
        extra = edited(raw, lambda r: r["chance"].append(["train", "reshuffle", "0"]))
        refused(extra, r"setup|log\[\d+\]|left over")


def test_a_shuffle_of_other_cards_is_refused(usa_game: Game) -> None:
    raw = compact(usa_game)
    raw["seed"] = None
    order = raw["chance"][0][2]
    raw["chance"][0][2] = "8" + order[1:] if order[0] != "8" else "0" + order[1:]
    refused(raw, r"^setup: the recorded train shuffle does not hold the cards")


def test_an_edited_digest_names_its_position(usa_game: Game) -> None:
    raw = compact(usa_game)
    data = bytearray(base64.b64decode(raw["digests"]))
    data[9] ^= 0xFF
    refused({**raw, "digests": base64.b64encode(bytes(data)).decode()}, r"^log\[8\]: ")
    data = bytearray(base64.b64decode(raw["digests"]))
    data[0] ^= 1
    refused({**raw, "digests": base64.b64encode(bytes(data)).decode()}, r"^setup: ")


def test_an_edited_events_digest_is_refused(usa_game: Game) -> None:
    raw = compact(usa_game)
    raw["events_sha256"] = "0" * 64
    refused(raw, r"events_sha256 differs")


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        (lambda r: r.pop("chance"), r"missing key 'chance'"),
        (lambda r: r.update(extra=1), r"unknown key 'extra'"),
        (lambda r: r.update(actions=[]), r"\$\.actions: must be a string"),
        (lambda r: r.update(digests="***"), r"\$\.digests: must be base64"),
        (lambda r: r.update(digests=5), r"\$\.digests: must be a string"),
        (lambda r: r.update(events_sha256="abc"), r"\$\.events_sha256: must be 64 hex"),
        (lambda r: r.update(chance={}), r"\$\.chance: must be a list"),
        (lambda r: r["chance"].__setitem__(0, "x"), r"\$\.chance\[0\]: must be \[pile"),
        (lambda r: r["chance"][0].__setitem__(2, "1a"), r"\$\.chance\[0\]: an order string"),
        (lambda r: r["chance"][1].__setitem__(2, [1, -2]), r"\$\.chance\[1\]: order must be"),
        (lambda r: r["chance"][0].__setitem__(0, 3), r"\$\.chance\[0\]: pile and reason"),
        (lambda r: r.update(players="Ann"), r"malformed record: \$\.players"),
        (lambda r: r.update(map_hash="0" * 64), r"map data"),
        (lambda r: r.update(options_hash="0" * 64), r"options differ"),
        (lambda r: r.update(rules_version="0"), r"rules version"),
        (lambda r: r["players"].__setitem__(1, r["players"][0]), r"duplicate player names"),
    ],
    ids=range(16),
)
def test_malformed_or_edited_keys_are_refused(
    usa_game: Game, change: Callable[[dict[str, Any]], object], pattern: str
) -> None:
    refused(edited(compact(usa_game), change), pattern)


def test_a_record_that_goes_on_after_the_end_is_refused(usa_game: Game) -> None:
    raw = compact(usa_game)
    data = base64.b64decode(raw["digests"]) + b"\0"
    raw["actions"] += " x"
    raw["digests"] = base64.b64encode(data).decode()
    n = len(raw["actions"].split(" ")) - 1
    refused(raw, rf"^log\[{n}\]: the game was already over")


def test_the_digested_text_is_the_canonical_json_of_the_events(finished: Game) -> None:
    """Cached or not, a position's text is its events' JSON, keys sorted, no spaces."""
    positions = [finished.setup, *(e.events for e in finished.log)]
    for cold in (True, False):
        if cold:
            compact_records._EVENT_TEXT.clear()
        for events in positions:
            plain = json.dumps(
                [event_to_json(e) for e in events], sort_keys=True, separators=(",", ":")
            )
            assert events_bytes(events) == plain.encode("utf-8")


def test_records_without_plugins_share_their_ruleset(usa_game: Game) -> None:
    text = usa_game.save()
    assert Game.load(text).ruleset is Game.load(text).ruleset
    assert Game.load(text).ruleset.options == usa_game.ruleset.options
