"""Property tests: every JSON reader refuses mutated input with a TtrError and nothing else.

Each reader (records, positions, map data, actions, events, states and views) is fed
valid inputs of every installed edition, mutated: keys deleted, repeated, added or given
another type; numbers made huge, negative or fractional; text given a lone surrogate or
invalid UTF-8 bytes; the text cut short; values nested deeply. Whatever comes in, the
reader either accepts it or raises a documented ``TtrError`` with a one-line message of
at most ``MAX_MESSAGE`` characters. A map that still loads is also built into a ruleset
and played for a few moves, which must stay cheap and fail only with a ``TtrError``.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core import Game, Ruleset, TtrError
from ttr_core.formats.position import position_to_json, read_position
from ttr_core.formats.serialize import (
    action_from_json,
    action_to_json,
    event_from_json,
    event_to_json,
    state_from_json,
    state_to_json,
    view_from_json,
    view_to_json,
)
from ttr_core.model.errors import MAX_MESSAGE
from ttr_core.model.mapdata import load_map_data, unstructure_map
from ttr_core.rules.scoring import position_of, score_position, scoresheet_json
from ttr_core.ruleset.editions import installed_editions
from ttr_core.testing import play_game, ruleset
from ttr_core.testing.scenarios import FixtureEdition

EDITIONS = sorted(installed_editions())
Json = Any
Path = tuple[str | int, ...]

# Values a mutation puts in place of another: every JSON type, and numbers and text that
# are out of every range.
HOSTILE: tuple[Json, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1.5,
    -0.0,
    1e300,
    2**64,
    -(2**63),
    10**9,
    10**30,
    "",
    " ",
    "\ud800",
    "x\udfffy",
    "x" * 5000,
    "red",
    [],
    {},
    [1, "a"],
    {"": 1},
    {"tag": "pass"},
)
NUMBERS: tuple[Json, ...] = (-1, -(2**63), 2**64, 10**9, 1.5, 0.0, 1e300)
DEEP = 60
"""Depth of the nested lists a mutation may put in place of a value."""
DEEP_TEXT = 5000
"""Depth of the nesting written into the text (past the JSON parser's recursion limit)."""
BAD_BYTES = (b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\x00", b"\xf4\x90\x80\x80")


# -- the valid inputs the mutations start from --------------------------------------------


@functools.cache
def games() -> tuple[Game, ...]:
    """A game of each edition, part played (short records keep each replay fast)."""
    return tuple(play_game(ruleset(e), 3 if e != "nordic" else 2, 7, 40) for e in EDITIONS)


@functools.cache
def records() -> tuple[Json, ...]:
    """Each game's record, seeded and seedless."""
    out = []
    for game in games():
        raw = json.loads(game.save())
        out += [raw, {**raw, "seed": None}]
    return tuple(out)


@functools.cache
def positions() -> tuple[Json, ...]:
    """A finished game's position of each edition, in the ``ttr score`` format."""
    out = []
    for e in EDITIONS:
        rs = ruleset(e)
        game = play_game(rs, 2, 3)
        out.append(position_to_json(rs, position_of(rs, game.state, game.names)))
    return tuple(out)


@functools.cache
def maps() -> tuple[Json, ...]:
    """Each installed edition's map data in the documented JSON form."""
    return tuple(json.loads(json.dumps(unstructure_map(ruleset(e).map))) for e in EDITIONS)


@functools.cache
def actions() -> tuple[Json, ...]:
    """One action of each kind and edition, from the games."""
    found: dict[str, Json] = {}
    for game in games():
        for entry in game.log:
            raw = action_to_json(entry.action)
            found.setdefault(json.dumps(raw, sort_keys=True)[:40], raw)
    return tuple(found.values())


@functools.cache
def events() -> tuple[Json, ...]:
    """One event of each kind and edition, from the games (setup included)."""
    found: dict[str, Json] = {}
    for game in games():
        for event in (*game.setup, *(e for entry in game.log for e in entry.events)):
            raw = event_to_json(event)
            found.setdefault(json.dumps(raw, sort_keys=True)[:40], raw)
    return tuple(found.values())


@functools.cache
def states() -> tuple[Json, ...]:
    """Each game's state."""
    return tuple(json.loads(json.dumps(state_to_json(g.state))) for g in games())


@functools.cache
def views() -> tuple[Json, ...]:
    """Each game's view of seat 0."""
    return tuple(json.loads(json.dumps(view_to_json(g.view(0)))) for g in games())


# -- mutations ------------------------------------------------------------------------------


def node_paths(value: Json) -> list[Path]:
    """The path of every value in ``value`` (the root's is ``()``), in document order."""
    out: list[Path] = []
    stack: list[tuple[Json, Path]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        out.append(path)
        if isinstance(item, dict):
            stack.extend((v, (*path, k)) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((v, (*path, i)) for i, v in reversed(list(enumerate(item))))
    return out


def at(value: Json, path: Path) -> Json:
    for part in path:
        value = value[part]
    return value


def nested(depth: int) -> Json:
    out: Json = []
    for _ in range(depth):
        out = [out]
    return out


@st.composite
def mutated_value(draw: st.DrawFn, bases: tuple[Json, ...]) -> Json:
    """A copy of one of ``bases`` with one to three values deleted, retyped or changed."""
    value = copy.deepcopy(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 3))):
        paths = node_paths(value)
        path = paths[draw(st.integers(0, len(paths) - 1))]
        node = at(value, path)
        kind = draw(st.sampled_from(("delete", "retype", "number", "text", "key", "nest")))
        if kind == "number" and isinstance(node, int):
            small = (0, 1, node - 1, node + 1, -node)
            new = draw(st.sampled_from((*small, *NUMBERS, node * 1000)))
        elif kind == "text" and isinstance(node, str):
            new = draw(st.sampled_from((node + "\ud800", "\udc80" + node, node * 500, "")))
        elif kind == "key" and isinstance(node, dict):
            key = draw(st.sampled_from(("zz", "tag", "format", "\ud800", "")))
            node[key] = copy.deepcopy(draw(st.sampled_from(HOSTILE)))
            continue
        elif kind == "nest":
            new = nested(DEEP)
        elif kind == "delete" and path:
            parent = at(value, path[:-1])
            del parent[path[-1]]
            continue
        else:
            new = copy.deepcopy(draw(st.sampled_from(HOSTILE)))
        if not path:
            value = new
        else:
            at(value, path[:-1])[path[-1]] = new
    return value


SENTINEL = "\x00sentinel\x00"


@st.composite
def mutated_text(draw: st.DrawFn, bases: tuple[Json, ...]) -> str | bytes:
    """JSON text of a mutated value, then maybe a repeated key, a cut, bad bytes or nesting."""
    value = draw(mutated_value(bases))
    kind = draw(st.sampled_from(("plain", "repeat", "cut", "bytes", "deep")))
    text: str | bytes
    if kind in ("repeat", "deep"):
        paths = [p for p in node_paths(value) if p]
        objects = [p for p in paths if isinstance(at(value, p), dict) and at(value, p)]
        pool = objects if kind == "repeat" and objects else paths
        if not pool:
            return json.dumps(value)
        path = pool[draw(st.integers(0, len(pool) - 1))]
        node = at(value, path)
        if kind == "repeat" and isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            again = json.dumps({key: draw(st.sampled_from((node[key], *HOSTILE[:4])))})
            inner = json.dumps(node)[:-1] + ", " + again[1:]
        else:
            inner = "[" * DEEP_TEXT + "]" * DEEP_TEXT
        at(value, path[:-1])[path[-1]] = SENTINEL
        return json.dumps(value).replace(json.dumps(SENTINEL), inner)
    text = json.dumps(value, ensure_ascii=draw(st.booleans()))
    if kind == "cut":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if kind == "bytes":
        data = text.encode("utf-8", "surrogatepass")
        i = draw(st.integers(0, len(data)))
        return data[:i] + draw(st.sampled_from(BAD_BYTES)) + data[i:]
    return text if draw(st.booleans()) else text.encode("utf-8", "surrogatepass")


def only_ttr_errors(read: Callable[[Any], object], value: Any) -> None:
    """``read(value)`` succeeds or raises a TtrError with a short one-line message."""
    try:
        read(value)
    except TtrError as exc:
        message = str(exc)
        assert message
        assert len(message) <= MAX_MESSAGE, message
        assert "\n" not in message, message


# -- the readers ----------------------------------------------------------------------------


def load_and_save(text: str | bytes) -> None:
    """Load a record; if it loads, save it again as UTF-8 (what ``ttr replay`` prints)."""
    Game.load(text).save().encode("utf-8")


def read_and_score(text: str | bytes) -> None:
    """Read a position; if it reads, score it and write the sheet as UTF-8 (``ttr score``)."""
    rs, position = read_position(text)
    sheet = scoresheet_json(rs, score_position(rs, position))
    json.dumps(sheet, ensure_ascii=False).encode("utf-8")


def load_and_play(text: str | bytes) -> None:
    """Load map data; if it loads, build its ruleset and play a few moves."""
    data = load_map_data(text)
    rs = Ruleset(FixtureEdition(data, "served", ()))
    game = Game.new(rs, rs.params.players[0], seed=1)
    for _ in range(6):
        legal = game.legal_actions()
        if game.is_over or not len(legal):
            break
        game.apply(legal[len(legal) // 2])


@settings(max_examples=60)
@given(mutated_text(records()))
def test_mutated_records_raise_only_ttr_errors(text: str | bytes) -> None:
    """Game.load refuses every broken record with a TtrError; one it loads saves again."""
    only_ttr_errors(load_and_save, text)


@settings(max_examples=40)
@given(mutated_text(positions()))
def test_mutated_positions_raise_only_ttr_errors(text: str | bytes) -> None:
    """read_position refuses every broken position with a TtrError; one it reads scores."""
    only_ttr_errors(read_and_score, text)


@settings(max_examples=100)
@given(mutated_text(maps()))
def test_mutated_map_data_raises_only_ttr_errors(text: str | bytes) -> None:
    """load_map_data refuses broken maps; a map it accepts builds and plays."""
    only_ttr_errors(load_and_play, text)


@settings(max_examples=50)
@given(mutated_value(actions()))
def test_mutated_actions_raise_only_ttr_errors(raw: Json) -> None:
    """action_from_json refuses every broken action with a TtrError."""
    only_ttr_errors(action_from_json, raw)


@settings(max_examples=50)
@given(mutated_value(events()))
def test_mutated_events_raise_only_ttr_errors(raw: Json) -> None:
    """event_from_json refuses every broken event with a TtrError."""
    only_ttr_errors(event_from_json, raw)


@settings(max_examples=40)
@given(mutated_value(states()))
def test_mutated_states_raise_only_ttr_errors(raw: Json) -> None:
    """state_from_json refuses every broken state with a TtrError."""
    only_ttr_errors(state_from_json, raw)


@settings(max_examples=40)
@given(mutated_value(views()))
def test_mutated_views_raise_only_ttr_errors(raw: Json) -> None:
    """view_from_json refuses every broken view with a TtrError."""
    only_ttr_errors(view_from_json, raw)
