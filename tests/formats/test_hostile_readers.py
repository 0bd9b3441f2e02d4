"""Hostile input to every JSON reader: each problem is refused with a precise, short TtrError.

Records, positions, map data, actions, events, states and views: a key given twice, edited
options, blank player names, a missing ``format``, ticket deals and counts out of range,
text that UTF-8 cannot encode, values of the wrong type and very long values. Every
refusal is a documented ``TtrError`` with a one-line message of at most ``MAX_MESSAGE``
characters that names where the problem is.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ttr_core
from ttr_core import Game, Ruleset
from ttr_core.formats.position import read_position
from ttr_core.formats.serialize import (
    action_from_json,
    event_from_json,
    state_from_json,
    state_to_json,
    view_from_json,
    view_to_json,
)
from ttr_core.model.errors import (
    MAX_MESSAGE,
    IllegalActionError,
    JsonFormatError,
    MapDataError,
    PositionError,
    RecordError,
    SetupError,
    TtrError,
    quote,
    shorten,
)
from ttr_core.model.mapdata import (
    MAX_CARDS_PER_KIND,
    MAX_DISPLAY,
    MAX_PLAYERS,
    MAX_ROUTE_LENGTH,
    MAX_TICKET_DEAL,
    MAX_TRAINS,
    load_map_data,
    unstructure_map,
)
from ttr_core.model.strict import JsonTextError, parse_json
from ttr_core.play.records import options_digest
from ttr_core.rules.index import index_of
from ttr_core.testing import play_game, ruleset
from ttr_core.testing.scenarios import FixtureEdition

FIXTURES = Path(__file__).parents[1] / "fixtures"
DOCS = Path(__file__).parents[2] / "docs"
Raw = dict[str, Any]


def short(exc: BaseException) -> str:
    """The message of a library error: one line, at most MAX_MESSAGE characters."""
    assert isinstance(exc, TtrError), type(exc)
    message = str(exc)
    assert message
    assert "\n" not in message
    assert len(message) <= MAX_MESSAGE, len(message)
    return message


def refused(error: type[TtrError], read: Callable[[], object], pattern: str) -> str:
    """``read()`` raises ``error`` with a short message matching ``pattern``; return it."""
    with pytest.raises(error) as info:
        read()
    message = short(info.value)
    assert re.search(pattern, message), message
    return message


@pytest.fixture(scope="module")
def usa_text() -> str:
    """A part-played three-player USA game's record."""
    return play_game(ruleset("usa"), 3, 2, 30).save(compact=False)


def position_text() -> str:
    return (FIXTURES / "score_usa_three_players.json").read_text(encoding="utf-8")


def raw_map(edition: str) -> Raw:
    raw: Raw = json.loads(json.dumps(unstructure_map(ruleset(edition).map)))
    return raw


# -- 1. a key given twice ---------------------------------------------------------------------


def test_parse_json_names_the_object_that_repeats_a_key() -> None:
    """The path of the first object (in document order) that repeats a key, and the key."""
    cases = {
        '{"a": 1, "a": 2}': "$: duplicate key 'a'",
        '{"p": [{"name": 1}, {"name": 1, "x": 0, "name": 2}]}': "$.p[1]: duplicate key 'name'",
        '{"x": {"two words": {"k": 1, "k": 1}}}': "$.x['two words']: duplicate key 'k'",
        '{"a": {"b": 1, "b": 2}, "a": 3}': "$: duplicate key 'a'",
        '[{"z": 0}, {"y": [{"q": 1, "q": 1}]}, {"w": 1, "w": 1}]': "$[1].y[0]: duplicate key 'q'",
    }
    for text, message in cases.items():
        with pytest.raises(JsonTextError) as info:
            parse_json(text)
        assert str(info.value) == message
    assert parse_json('{"a": [1, {"b": 2}], "c": {}}') == {"a": [1, {"b": 2}], "c": {}}


def test_a_position_with_a_repeated_key_is_refused_with_its_path() -> None:
    """``players[1]: duplicate key 'name'``; at the top level the path is ``position``."""
    text = position_text()
    twice = text.replace('"name": "Bob"', '"name": "Bob", "name": "Eve"')
    refused(PositionError, lambda: read_position(twice), r"^players\[1\]: duplicate key 'name'$")
    top = text.replace('"edition": "usa"', '"edition": "usa", "edition": "europe"')
    refused(PositionError, lambda: read_position(top), r"^position: duplicate key 'edition'$")
    route = text.replace('"color": "pink"', '"color": "pink", "color": "red"')
    refused(PositionError, lambda: read_position(route), r"^players\[0\]\.routes\[0\]: duplicate")
    read_position(text)


def test_a_record_with_a_repeated_key_is_refused_with_its_path(usa_text: str) -> None:
    """The edition, an option or a key deep in the log given twice: never the last one kept."""
    edition = usa_text.replace('"edition": "usa"', '"edition": "usa", "edition": "europe"', 1)
    assert edition != usa_text
    refused(
        RecordError, lambda: Game.load(edition), r"^malformed record: \$: duplicate key 'edition'"
    )
    option = usa_text.replace('"tie_break": "rules"', '"tie_break": "rules", "tie_break": "rules"')
    assert option != usa_text
    refused(RecordError, lambda: Game.load(option), r"\$\.options: duplicate key 'tie_break'$")
    raw = json.loads(usa_text)
    action = json.dumps(raw["log"][3]["action"])
    deep = usa_text.replace(action, action[:-1] + ', "tag": "pass"}', 1)
    refused(RecordError, lambda: Game.load(deep), r"\$\.log\[3\]\.action: duplicate key 'tag'$")
    refused(RecordError, lambda: Game.load(deep.encode("utf-8")), r"duplicate key 'tag'")
    Game.load(usa_text)


def test_map_data_with_a_repeated_key_is_refused_with_its_path() -> None:
    """A track's length or a card count given twice is refused, not silently overwritten."""
    text = json.dumps(raw_map("usa"))
    assert '"red": 12' in text
    cards = text.replace('"red": 12', '"red": 12, "red": 99', 1)
    refused(
        MapDataError,
        lambda: load_map_data(cards),
        r"^\$\.parameters\.train_cards: duplicate key 'red'$",
    )
    routes = raw_map("usa")
    track = json.dumps(routes["routes"][3])
    again = text.replace(track, track[:-1] + ', "length": 6}', 1)
    assert again != text
    refused(
        MapDataError, lambda: load_map_data(again), r"^\$\.routes\[3\]: duplicate key 'length'$"
    )


# -- 2. edited options ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edition", "option", "value", "shown", "was"),
    [
        ("usa", "opening_tickets", 4, "4", "3"),
        ("nordic", "ferry_group_stacking", False, "false", "true"),
        ("example", "trains", 14, "14", "10"),
    ],
)
def test_a_record_whose_options_were_edited_says_the_options_differ(
    edition: str, option: str, value: Any, shown: str, was: str
) -> None:
    """Not "different map data": the options changed the map's parameters, so its hash."""
    raw = json.loads(play_game(ruleset(edition), 2, 4, 12).save(compact=False))
    raw["options"][option] = value
    refused(
        RecordError,
        lambda: Game.load(json.dumps(raw)),
        rf"^record's options differ from those the game was played with: "
        rf"'{option}' is {shown} in the record but was {was}",
    )


@pytest.mark.parametrize(
    ("option", "value"), [("tie_break", "auxiliary"), ("longest_path_at_zero", True)]
)
def test_a_record_whose_scoring_option_was_edited_is_refused(option: str, value: Any) -> None:
    """An option read only by scoring leaves the map hash as it is; the options hash
    still tells that the options differ."""
    raw = json.loads(play_game(ruleset("usa"), 2, 4, 12).save(compact=False))
    raw["options"][option] = value
    refused(
        RecordError,
        lambda: Game.load(json.dumps(raw)),
        r"^record's options differ from those the game was played with \(their hash",
    )


def test_an_edited_options_hash_is_refused_and_a_record_without_one_loads() -> None:
    """The options hash is checked; records saved before it existed replay unchanged."""
    game = play_game(ruleset("usa"), 2, 4, 12)
    raw = json.loads(game.save(compact=False))
    assert raw["options_hash"] == options_digest(game.ruleset.options)
    edited = dict(raw, options_hash="0" * 64)
    refused(RecordError, lambda: Game.load(json.dumps(edited)), r"options differ")
    older = {k: v for k, v in raw.items() if k != "options_hash"}
    again = Game.load(json.dumps(older))
    assert again.state == game.state
    assert json.loads(again.save(compact=False))["options_hash"] == raw["options_hash"]


def test_a_record_of_other_map_data_still_says_the_map_differs(usa_text: str) -> None:
    """A hash that no option values give means the map data itself differs."""
    raw = json.loads(usa_text)
    raw["map_hash"] = "0" * 64
    refused(RecordError, lambda: Game.load(json.dumps(raw)), r"different 'usa' map data")


def test_the_map_hash_covers_the_options_that_change_the_map_data_only() -> None:
    """As the record format says: the digest of the map data after the options applied."""
    base = Ruleset.build("usa")
    assert base.map_hash == base.map.digest()
    assert Ruleset.build("usa", {"opening_tickets": 4}).map_hash != base.map_hash
    # Options read only by scoring leave the map data, and so the hash, as it is.
    assert Ruleset.build("usa", {"tie_break": "auxiliary"}).map_hash == base.map_hash
    page = (DOCS / "reference" / "record-format.md").read_text(encoding="utf-8")
    assert "MapData.digest()" in page and "tie_break" in page


# -- 3. short messages ------------------------------------------------------------------------


def test_every_library_error_is_at_most_max_message_characters_on_one_line() -> None:
    """TtrError cuts a long message in the middle and joins its lines."""
    long = "a" * 200 + "MIDDLE" + "z" * 800
    exc = RecordError(long)
    message = str(exc)
    assert len(message) == MAX_MESSAGE
    assert message.startswith("a" * 100) and message.endswith("z" * 100)
    assert " ... " in message and "MIDDLE" not in message
    assert str(RecordError("two\nlines\r\nhere")) == "two lines here"
    assert str(RecordError("x" * MAX_MESSAGE)) == "x" * MAX_MESSAGE
    illegal = IllegalActionError("CLAIM-2", "q" * 1000)
    assert str(illegal).endswith("(rule CLAIM-2)") and len(str(illegal)) == MAX_MESSAGE
    assert shorten("short") == "short"


def test_quote_summarises_long_values() -> None:
    """Long text says its length; long lists their item count; depth is cut."""
    assert quote("x" * 54_000).endswith("(54000 characters)")
    assert len(quote("x" * 54_000)) < 80
    assert quote(list(range(110))).endswith("(110 items)")
    assert quote("red") == "'red'"
    assert quote(2**64) == str(2**64)
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    assert len(quote(deep)) < 40
    assert quote("\ud800") == "'\\ud800'"


def test_an_edited_seed_names_the_first_differing_card(usa_text: str) -> None:
    """Not two 110-card shuffles: the first position that differs, and the length."""
    raw = json.loads(usa_text)
    raw["seed"] += 1
    message = refused(
        RecordError,
        lambda: Game.load(json.dumps(raw)),
        r"^setup: event 1 does not follow \(the seed does not give the recorded outcome\): "
        r"shuffled\.order differs first at \[\d+\]: the game gives \d, the record says \d "
        r"\(110 items\)$",
    )
    assert len(message) < 200


def test_a_changed_event_names_its_key(usa_text: str) -> None:
    """A changed card in the log: the event's tag and key, and both values."""
    raw = json.loads(usa_text)
    for i, entry in enumerate(raw["log"]):
        for j, event in enumerate(entry["events"]):
            if event["tag"] == "blind_drawn":
                event["card"] = "white" if event["card"] != "white" else "red"
                pattern = (
                    rf"^log\[{i}\]: event {j} does not follow .*: blind_drawn\.card: the game "
                    r"gives '\w+', the record says '\w+'$"
                )
                refused(RecordError, lambda: Game.load(json.dumps(raw)), pattern)
                return
    raise AssertionError("no blind draw in the game")


def test_a_huge_value_is_quoted_short_by_every_reader(usa_text: str) -> None:
    """A 54 KB string where a number belongs is shown by its start, end and length."""
    huge = "x" * 54_000
    data = raw_map("usa")
    data["cities"][0]["x"] = huge
    message = refused(
        MapDataError, lambda: load_map_data(json.dumps(data)), r"^\$\.cities\[0\]\.x: expected"
    )
    assert "(54000 characters)" in message
    raw = json.loads(usa_text)
    raw["start_player"] = huge
    message = refused(RecordError, lambda: Game.load(json.dumps(raw)), r"\$\.start_player")
    assert "(54000 characters)" in message
    position = json.loads(position_text())
    position["players"][0]["routes"][0]["a"] = huge
    refused(
        PositionError,
        lambda: read_position(json.dumps(position)),
        r"^players\[0\]\.routes\[0\]\.a: unknown city 'x+\.\.\.x+' \(54000 characters\)",
    )
    message = refused(
        JsonFormatError, lambda: action_from_json({"tag": huge}), r"unknown action tag"
    )
    assert "(54000 characters)" in message
    refused(JsonFormatError, lambda: event_from_json({"tag": "passed", "player": huge}), "54000")


def test_many_map_errors_are_summarised_in_one_short_line() -> None:
    """A city renamed breaks dozens of tracks; the message still fits, start and end kept."""
    data = raw_map("usa")
    old = data["cities"][0]["id"]
    data["cities"][0]["id"] = "Nowhere"
    message = refused(MapDataError, lambda: load_map_data(json.dumps(data)), r"^\$\.routes\[")
    assert " ... " in message and old in message


# -- 4. blank player names --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["", " ", "\t\n", "\u3000"])
def test_blank_player_names_are_refused_by_game_new(name: str) -> None:
    """As ``ttr score`` refuses them, a new game refuses blank names."""
    refused(
        SetupError,
        lambda: Game.new("usa", ["Ann", name]),
        r"^players\[1\]: a player name cannot be blank$",
    )


def test_player_names_must_be_strings_in_game_new() -> None:
    refused(
        SetupError, lambda: Game.new("usa", ["Ann", 7]), r"^players\[1\]: a player name is a string"
    )  # type: ignore[list-item]


@pytest.mark.parametrize("name", ["", "   "])
def test_blank_player_names_are_refused_in_records(usa_text: str, name: str) -> None:
    """A record whose player name was blanked does not load, seeded or not."""
    raw = json.loads(usa_text)
    raw["players"][2] = name
    refused(
        RecordError,
        lambda: Game.load(json.dumps(raw)),
        r"^\$\.players\[2\]: a player name cannot be blank$",
    )
    raw["seed"] = None
    refused(RecordError, lambda: Game.load(json.dumps(raw)), r"cannot be blank")


# -- 5. the record format ---------------------------------------------------------------------


def test_a_record_without_format_says_the_key_is_missing() -> None:
    """``{}`` is not "unsupported record format None"."""
    message = refused(RecordError, lambda: Game.load("{}"), r"^record has no 'format' key")
    assert "None" not in message
    refused(RecordError, lambda: Game.load('{"format": null}'), r"format None")
    refused(RecordError, lambda: Game.load('{"format": 3}'), r"^unsupported record format 3")


def run_cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    """The ``ttr`` command in a new process (its real standard output and error bytes)."""
    return subprocess.run(
        [sys.executable, "-m", "ttr_core", *args], capture_output=True, timeout=120, check=False
    )


def test_ttr_replay_of_an_empty_object_says_the_format_key_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("{}", encoding="utf-8")
    done = run_cli("replay", str(path))
    assert done.returncode == 1
    assert done.stdout == b""
    (line,) = done.stderr.decode("utf-8").splitlines()
    assert line.startswith(f"ttr: error: {path}: record has no 'format' key"), line


# -- 6 and 7. deal parameters and counts out of range -----------------------------------------


def with_parameters(edition: str, **changes: Any) -> Raw:
    data = raw_map(edition)
    for key, value in changes.items():
        target = data["parameters"]
        *path, last = key.split("__")
        for part in path:
            target = target[part]
        target[last] = value
    return data


OUT_OF_RANGE: list[tuple[str, dict[str, Any], str]] = [
    ("usa", {"opening_tickets__keep": -1}, r"opening_tickets\.keep: expected 0 <= keep <= deal"),
    ("usa", {"opening_tickets__keep": 4}, r"opening_tickets\.keep: expected 0 <= keep"),
    ("usa", {"opening_tickets__deal": -1}, r"opening_tickets\.deal: must be between 0 and 10"),
    ("usa", {"opening_tickets__deal": 30}, r"opening_tickets\.deal: must be between 0 and 10"),
    ("europe", {"opening_tickets__long": 5}, r"opening_tickets\.long: must be between 0 and 4"),
    ("europe", {"opening_tickets__long": -1}, r"opening_tickets\.long: must be between"),
    ("usa", {"ticket_draw__keep": 0}, r"ticket_draw\.keep: expected 1 <= keep <= deal"),
    ("usa", {"ticket_draw__deal": 0}, r"ticket_draw\.deal: must be between 1 and 10"),
    ("usa", {"ticket_draw__long": 1}, r"ticket_draw\.long: only the opening deal"),
    ("usa", {"players": [2, 99]}, r"players\[1\]: must be between 1 and 10"),
    ("usa", {"trains": 0}, r"trains: must be between 1 and 200"),
    ("usa", {"trains": 10**9}, r"trains: must be between 1 and 200"),
    ("usa", {"train_cards__red": 2**64}, r"train_cards\.red: must be between 0 and 255"),
    ("usa", {"train_cards__locomotive": 10**9}, r"train_cards\.locomotive: must be between"),
    ("usa", {"route_points": {"1": 1, "99": 5}}, r"route_points\['99'\]: must be between 1 and 12"),
    ("usa", {"route_points__1": -1}, r"route_points\['1'\]: must be between 0 and 1000"),
    ("usa", {"double_routes_min_players": 0}, r"double_routes_min_players: must be between 1"),
    ("usa", {"starting_hand": 21}, r"starting_hand: must be between 0 and 20"),
    ("usa", {"starting_hand": -1}, r"starting_hand: must be between 0 and 20"),
    ("europe", {"stations": 11}, r"stations: must be between 0 and 10"),
    ("europe", {"station_cost": [1, 2, 99]}, r"station_cost\[2\]: must be between 0 and 12"),
    ("europe", {"unbuilt_station_points": -4}, r"unbuilt_station_points: must be between 0"),
    ("usa", {"display__size": 11}, r"display\.size: must be between 0 and 10"),
    ("usa", {"display__size": -1}, r"display\.size: must be between 0 and 10"),
    (
        "usa",
        {"display__flush_locomotives": 0},
        r"display\.flush_locomotives: must be null or between",
    ),
    ("usa", {"display__flush_locomotives": 6}, r"display\.flush_locomotives: must be null or"),
    ("usa", {"display__flush_repeats": 10**6}, r"display\.flush_repeats: must be between 0 and 10"),
    ("usa", {"tunnel_reveal": -1}, r"tunnel_reveal: must be between 0 and 10"),
    ("nordic", {"ferry_groups": 1}, r"ferry_groups: a group has at least 2 cards, not 1"),
    ("nordic", {"ferry_groups": 50}, r"ferry_groups: must be 0 \(no groups\) or 2 to 10, not 50"),
    ("usa", {"longest_path_bonus": -10}, r"longest_path_bonus: must be between 0 and 1000"),
    ("usa", {"longest_path_bonus": 10**6}, r"longest_path_bonus: must be between 0 and 1000"),
]


@pytest.mark.parametrize(
    ("edition", "changes", "pattern"), OUT_OF_RANGE, ids=[str(c) for _, c, _ in OUT_OF_RANGE]
)
def test_parameters_out_of_range_are_refused_with_their_path(
    edition: str, changes: dict[str, Any], pattern: str
) -> None:
    """Every rule parameter is checked against its documented range, at once and cheaply."""
    data = with_parameters(edition, **changes)
    start = time.perf_counter()
    refused(MapDataError, lambda: load_map_data(json.dumps(data)), r"\$\.parameters\." + pattern)
    assert time.perf_counter() - start < 1.0


def edit_map(edition: str, change: Callable[[Raw], object]) -> Raw:
    data = raw_map(edition)
    change(data)
    return data


MAP_OUT_OF_RANGE: list[tuple[str, Callable[[Raw], object], str]] = [
    ("track id", lambda d: d["routes"][0].update(id=-1), r"\$\.routes\[0\]\.id: must be between 0"),
    ("ticket id", lambda d: d["tickets"][0].update(id=10**6), r"\$\.tickets\[0\]\.id: must be"),
    ("ticket points", lambda d: d["tickets"][0].update(points=10**4), r"tickets\[0\]\.points"),
    ("city x", lambda d: d["cities"][0].update(x=10**7), r"\$\.cities\[0\]\.x: must be between"),
    ("city y", lambda d: d["cities"][0].update(y=-(10**7)), r"\$\.cities\[0\]\.y: must be"),
    ("card groups", lambda d: d["routes"][0].update(card_groups=99), r"routes\[0\]\.card_groups"),
    ("route points key", lambda d: d["parameters"]["route_points"].update({"٣": 4}), "'٣'"),
    ("route points key", lambda d: d["parameters"]["route_points"].update({" 3": 4}), "' 3'"),
]


@pytest.mark.parametrize(
    ("name", "change", "pattern"), MAP_OUT_OF_RANGE, ids=[n for n, _, _ in MAP_OUT_OF_RANGE]
)
def test_ids_points_and_coordinates_out_of_range_are_refused(
    name: str, change: Callable[[Raw], object], pattern: str
) -> None:
    data = edit_map("usa", change)
    refused(MapDataError, lambda: load_map_data(json.dumps(data)), pattern)


def play_a_little(data: Raw, players: int = 2, moves: int = 12) -> Game:
    """Load the map, build its ruleset and play a few legal moves."""
    rs = Ruleset(FixtureEdition(load_map_data(json.dumps(data)), "served", ()))
    game = Game.new(rs, players, seed=3)
    for _ in range(moves):
        legal = game.legal_actions()
        if game.is_over:
            break
        game.apply(legal[len(legal) - 1])
    return game


def test_a_map_at_every_upper_limit_builds_and_plays_quickly() -> None:
    """The limits are safe: a map at each of them loads, builds and plays in moments."""
    data = raw_map("usa")
    p = data["parameters"]
    p["players"] = [2, MAX_PLAYERS]
    p["trains"] = MAX_TRAINS
    p["train_cards"] = {name: MAX_CARDS_PER_KIND for name in p["train_cards"]}
    p["route_points"][str(MAX_ROUTE_LENGTH)] = 40
    data["routes"][0]["length"] = MAX_ROUTE_LENGTH
    p["opening_tickets"] = {"deal": MAX_TICKET_DEAL, "keep": 0, "returned": "bottom"}
    p["ticket_draw"] = {"deal": MAX_TICKET_DEAL, "keep": 1, "returned": "bottom"}
    p["display"] = {"size": MAX_DISPLAY, "flush_locomotives": MAX_DISPLAY, "flush_repeats": 10}
    start = time.perf_counter()
    game = play_a_little(data, players=3)
    assert len(game.log) >= 3
    assert len(index_of(game.ruleset).train_deck) == 9 * MAX_CARDS_PER_KIND
    assert time.perf_counter() - start < 10


def test_an_opening_deal_that_keeps_none_plays() -> None:
    """keep 0 is in range for the opening deal: legal actions list keeping none."""
    data = with_parameters("usa", opening_tickets__keep=0)
    game = play_a_little(data)
    assert len(game.log) == 12


# -- 8. text that UTF-8 cannot encode ---------------------------------------------------------


SURROGATE = r"not valid text: lone surrogate '\\ud800' at index \d+ \(UTF-8 cannot encode it\)"


@pytest.mark.parametrize(
    ("where", "change"),
    [
        (r"\$\.name", lambda d: d.update(name="Map \ud800")),
        (r"\$\.cities\[0\]\.id", lambda d: d["cities"][0].update(id="\ud800")),
        (r"\$\.cities\[1\]\.aliases\[0\]", lambda d: d["cities"][1].update(aliases=["a\ud800"])),
        (r"\$\.source", lambda d: d.update(source="\ud800")),
        (
            r"\$\.parameters\.longest_path_bonus_name",
            lambda d: d["parameters"].update(longest_path_bonus_name="\ud800"),
        ),
    ],
)
def test_map_data_with_a_lone_surrogate_is_refused(
    where: str, change: Callable[[Raw], object]
) -> None:
    """Refused when read, with its path: not a UnicodeEncodeError from MapData.digest()."""
    data = edit_map("usa", change)
    refused(MapDataError, lambda: load_map_data(json.dumps(data)), rf"{where}: {SURROGATE}")
    # The same as bytes: UTF-8 for a surrogate (ED A0 80) is not valid UTF-8 either.
    raw = json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    refused(MapDataError, lambda: load_map_data(raw), r"^\$")


def test_records_with_a_lone_surrogate_are_refused(usa_text: str) -> None:
    """A player name or a shuffle's pile: RecordError, seeded or not, as text or bytes."""
    raw = json.loads(usa_text)
    raw["players"][1] = "Bob\ud800"
    for seed in (raw["seed"], None):
        text = json.dumps({**raw, "seed": seed})
        refused(RecordError, lambda t=text: Game.load(t), rf"\$\.players\[1\]: {SURROGATE}")
    raw = json.loads(usa_text)
    raw["setup"][1]["pile"] = "\ud800"
    refused(RecordError, lambda: Game.load(json.dumps(raw)), r"\$\.setup\[1\].*lone surrogate")
    data = json.dumps(raw, ensure_ascii=False).encode("utf-8", "surrogatepass")
    refused(RecordError, lambda: Game.load(data), r"^record is not valid JSON|lone surrogate")


def test_a_position_with_a_lone_surrogate_is_refused() -> None:
    position = json.loads(position_text())
    position["players"][0]["name"] = "Ann\ud800"
    refused(
        PositionError,
        lambda: read_position(json.dumps(position)),
        rf"^players\[0\]\.name: {SURROGATE}$",
    )


def test_game_new_refuses_a_lone_surrogate_in_a_name() -> None:
    refused(
        SetupError, lambda: Game.new("usa", ["Ann", "\udfff"]), r"^players\[1\]: not valid text"
    )


def test_ttr_score_refuses_a_lone_surrogate_and_writes_nothing(tmp_path: Path) -> None:
    """Exit status 1, one error line, no output (never invalid UTF-8 on standard output)."""
    position = json.loads(position_text())
    position["players"][2]["name"] = "\ud800"
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    done = run_cli("score", str(path))
    assert done.returncode == 1
    assert done.stdout == b""
    lines = done.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"ttr: error: {path}: players[2].name: not valid text"), lines


def test_actions_events_and_views_with_a_lone_surrogate_are_refused() -> None:
    refused(
        JsonFormatError,
        lambda: event_from_json(
            {"tag": "shuffled", "pile": "\ud800", "reason": "setup", "order": []}
        ),
        r"^shuffled\.pile: not valid text",
    )
    refused(JsonFormatError, lambda: action_from_json({"tag": "\ud800"}), r"unknown action tag")
    view = view_to_json(Game.new("usa", 2, seed=1).view(0))
    view["edition"] = "\ud800"
    refused(JsonFormatError, lambda: view_from_json(view), rf"^\$\.edition: {SURROGATE}$")


# -- 9. every JSON reader raises only documented TtrErrors --------------------------------------


@pytest.mark.parametrize("raw", ["gray", [], None, 3, True, 1.5])
def test_state_from_json_refuses_a_value_that_is_not_an_object(raw: Any) -> None:
    """Not an AttributeError: a JsonFormatError, which is also a ValueError."""
    with pytest.raises(ValueError):
        state_from_json(raw)
    refused(JsonFormatError, lambda: state_from_json(raw), r"^\$: expected an object, got ")


def test_state_from_json_names_the_path_of_a_nested_problem() -> None:
    raw = state_to_json(Game.new("usa", 2, seed=1).state)
    raw["players"][1] = "gray"
    refused(JsonFormatError, lambda: state_from_json(raw), r"^\$\.players\[1\]: expected an object")
    raw = state_to_json(Game.new("usa", 2, seed=1).state)
    del raw["players"][0]["hand"]
    refused(JsonFormatError, lambda: state_from_json(raw), r"\$\.players\[0\]\.hand: required")
    assert state_from_json(state_to_json(Game.new("usa", 2, seed=1).state)).turn == 0


@pytest.mark.parametrize(
    ("read", "raw", "pattern"),
    [
        (action_from_json, "gray", r"expected an object with a 'tag'"),
        (action_from_json, {"tag": "nope"}, r"unknown action tag 'nope'"),
        (action_from_json, {"tag": "claim_route", "route": 1}, r"claim_route: missing key 'cards'"),
        (
            action_from_json,
            {"tag": "claim_route", "route": "1", "cards": {}},
            r"claim_route\.route",
        ),
        (action_from_json, {"tag": "draw_blind", "x": 1}, r"unexpected keys \['x'\]"),
        (event_from_json, [], r"expected an object with a 'tag', got \[\]"),
        (
            event_from_json,
            {"tag": "passed", "player": True},
            r"passed\.player: expected an integer",
        ),
        (view_from_json, [], r"^\$: expected an object"),
    ],
)
def test_action_event_and_view_readers_raise_json_format_errors(
    read: Callable[[Any], object], raw: Any, pattern: str
) -> None:
    """A JsonFormatError is a TtrError and a ValueError (code catching ValueError works)."""
    with pytest.raises(ValueError):
        read(raw)
    refused(JsonFormatError, lambda: read(raw), pattern)


def test_json_format_error_is_exported_and_documented() -> None:
    assert ttr_core.JsonFormatError is JsonFormatError
    assert issubclass(JsonFormatError, TtrError) and issubclass(JsonFormatError, ValueError)
    page = (DOCS / "reference" / "errors.md").read_text(encoding="utf-8")
    section = page.split("## JsonFormatError", 1)[1].split("\n## ", 1)[0]
    for name in ("action_from_json", "event_from_json", "state_from_json", "view_from_json"):
        assert name in section, name
    assert str(MAX_MESSAGE) in page


def test_the_cli_prints_one_short_line_for_a_huge_bad_value(tmp_path: Path, usa_text: str) -> None:
    """``ttr replay`` of a record with a 54 KB bad value: one line, not 54 KB."""
    raw = json.loads(usa_text)
    raw["log"][0]["action"]["tag"] = "y" * 54_000
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    done = run_cli("replay", str(path))
    assert done.returncode == 1
    lines = done.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1, lines
    assert len(lines[0]) <= len("ttr: error: ") + MAX_MESSAGE
    assert "(54000 characters)" in lines[0]


def test_a_broken_input_leaves_nothing_changed(usa_text: str) -> None:
    """Refusing input never touches shared data: the edition's map and ruleset are as before."""
    before = copy.deepcopy(raw_map("usa"))
    with pytest.raises(MapDataError):
        load_map_data(json.dumps(with_parameters("usa", opening_tickets__keep=-1)))
    with pytest.raises(RecordError):
        Game.load(usa_text.replace('"edition": "usa"', '"edition": "usa", "edition": "x"', 1))
    assert raw_map("usa") == before
    assert Game.load(usa_text).save(compact=False) == usa_text


def test_the_cli_shortens_its_own_errors_too(tmp_path: Path) -> None:
    """A command error that is not a library error (a long missing path) is one short line."""
    missing = tmp_path / ("d" * 400) / "game.json"
    done = run_cli("replay", str(missing))
    assert done.returncode == 1
    lines = done.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("ttr: error: cannot read ")
    assert len(lines[0]) <= len("ttr: error: ") + MAX_MESSAGE
