"""The table's fields are declared once, in ``FIELDS``, and copying, loading and
snapshots follow it.

The declaration names every attribute ``Table.__init__`` sets, and between them its
fields hold every field of ``GameState`` and ``PlayerState``. ``copy_into``, ``load`` and
``snapshot`` are written out field by field (for speed), so their code is read here and
checked against the declaration: a copy shares, copies or sets afresh each field as
declared, a load sets every field from the state field it holds, and a snapshot names
every state field from the table field declared for it. At run time, a copy gives the
same snapshot and a loaded table gives back the state it was loaded with.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import attrs
import pytest

import ttr_core
from ttr_core.model.state import GameState, PlayerState
from ttr_core.rules.table import FIELDS, Table
from ttr_core.testing.play import play_game, ruleset

SOURCE = Path(ttr_core.__file__).parent / "rules" / "table.py"
KINDS = {"fixed", "shared", "list", "own"}


BY_NAME = {f.name: f for f in FIELDS}


def method(name: str) -> ast.FunctionDef:
    """The definition of ``Table.<name>`` in the source."""
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    (table,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Table")
    (found,) = (n for n in table.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return found


def assignments(function: ast.FunctionDef, owner: str) -> dict[str, ast.expr]:
    """``owner.x = value`` statements of ``function`` (``+=`` too): each ``x`` with its
    (last) value; a chain ``a.x = a.y = v`` gives both."""
    found: dict[str, ast.expr] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            for part in ast.walk(target):
                if (
                    isinstance(part, ast.Attribute)
                    and isinstance(part.value, ast.Name)
                    and part.value.id == owner
                ):
                    found[part.attr] = value
    return found


def read_from(value: ast.expr, owner: str) -> set[str]:
    """The attributes of ``owner`` that an expression reads."""
    return {
        node.attr
        for node in ast.walk(value)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == owner
    }


def set_in_init() -> list[str]:
    """The attributes ``Table.__init__`` assigns (``self.x = ...``), in order."""
    return list(assignments(method("__init__"), "self"))


def test_the_declaration_covers_every_field_of_the_table() -> None:
    """``FIELDS`` names each attribute ``Table.__init__`` sets, once, in that order, and
    says how a copy takes it in one of the known ways."""
    assert [f.name for f in FIELDS] == set_in_init()
    assert {f.copy for f in FIELDS} <= KINDS


def test_the_declaration_covers_every_field_of_the_state() -> None:
    """Every field of ``GameState`` and of ``PlayerState`` is held by a declared table
    field, and every field a declaration names exists."""
    held = {f.state for f in FIELDS if f.state}
    state_fields = {a.name for a in attrs.fields(GameState)} - {"players"}
    seat_fields = {f"seat.{a.name}" for a in attrs.fields(PlayerState)}
    assert held == state_fields | seat_fields


def test_copy_into_copies_each_field_as_declared() -> None:
    """``copy_into`` gives ``other`` each shared field as it is (``other.x = self.x``) and
    each list as a copy (``self.x[:]``), sets the table's own working state afresh, and
    leaves the fixed fields to the constructor."""
    done = assignments(method("copy_into"), "other")
    assert set(done) <= set(BY_NAME)
    for f in FIELDS:
        value = done.get(f.name)
        if f.copy == "shared":
            assert value is not None and ast.unparse(value) == f"self.{f.name}", f.name
        elif f.copy == "list":
            assert value is not None and ast.unparse(value) == f"self.{f.name}[:]", f.name
        elif f.copy == "fixed":
            assert value is None, f.name
        elif value is not None:
            assert ast.unparse(value) not in (f"self.{f.name}", f"self.{f.name}[:]"), f.name


DERIVED_ON_LOAD = {"free": "free", "blocked": "by_seat"}
"""The fields that ``load`` works out from the owners by the double-route rules (DOUBLE-1,
DOUBLE-2) instead of reading them from the state, and the local of ``tracks_of`` each is
built from."""


def test_load_sets_each_field_from_the_state_field_it_holds() -> None:
    """``load`` (with the ``_sign`` it calls) sets every field but the fixed ones and the
    events and chance of a recording, and each field that holds a state field is set
    from it: ``state.x`` for a ``GameState`` field, a seat's ``.x`` for a
    ``PlayerState`` one; the free and blocked tracks are worked out by the double-route
    rules instead."""
    load = method("load")
    done = assignments(load, "self") | assignments(method("_sign"), "self")
    expected = {f.name for f in FIELDS if f.copy != "fixed"} - {"events", "chance"}
    assert set(done) == expected
    for f in FIELDS:
        if not f.state:
            continue
        value = done[f.name]
        source = ast.unparse(value)
        # A local built up first: what builds it counts.
        for name in {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}:
            source += " ".join(
                ast.unparse(node)
                for node in load.body
                if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))
            )
        if f.name in DERIVED_ON_LOAD:
            assert re.search(rf"\b{DERIVED_ON_LOAD[f.name]}\b", source), (f.name, source)
        elif f.state.startswith("seat."):
            assert f".{f.state.removeprefix('seat.')}" in source, (f.name, source)
        else:
            assert f"state.{f.state}" in source, (f.name, source)
    (derived,) = (
        node
        for node in load.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and ast.unparse(node.value.func) == "tracks_of"
    )
    assert ast.unparse(derived.targets[0]) == "(free, by_seat)"


def test_snapshot_names_every_state_field_from_its_table_field() -> None:
    """``snapshot`` builds ``GameState``, and ``seat_states`` (which it calls) each
    ``PlayerState``, with ``filled`` from a dictionary naming every field of each in
    order, and a field given a table field reads the field declared for it."""
    calls: dict[str, ast.Dict] = {}
    nodes = [*ast.walk(method("snapshot")), *ast.walk(method("seat_states"))]
    for node in nodes:
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "filled":
            kind, values = node.args
            assert isinstance(kind, ast.Name) and isinstance(values, ast.Dict)
            calls[kind.id] = values
    for cls, prefix in ((GameState, ""), (PlayerState, "seat.")):
        values = calls[cls.__name__]
        keys = [k.value for k in values.keys if isinstance(k, ast.Constant)]
        assert keys == [a.name for a in attrs.fields(cls)]
        for key, value in zip(keys, values.values, strict=True):
            for name in read_from(value, "self") & set(BY_NAME):
                assert BY_NAME[name].state == prefix + str(key), (key, name)


@pytest.mark.parametrize("edition", ["usa", "europe", "nordic"])
def test_a_snapshot_equals_the_state_built_by_keyword(edition: str) -> None:
    """A snapshot and its players equal, hash and print as the same states built
    through ``__init__``, and stay frozen."""
    rs = ruleset(edition)
    table = Table(rs, 3)
    table.load(play_game(rs, 3, seed=4, actions=30).state)
    table.seat_changed(0)
    table.owners_changed()
    table.version += 1
    state = table.snapshot()
    players = tuple(PlayerState(**attrs.asdict(p, recurse=False)) for p in state.players)
    by_keyword = GameState(**{**attrs.asdict(state, recurse=False), "players": players})
    assert state == by_keyword and hash(state) == hash(by_keyword)
    assert repr(state) == repr(by_keyword)
    assert vars(state) == vars(by_keyword)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.turn = 3  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.players[0].trains = 3  # type: ignore[misc]


@pytest.mark.parametrize("edition", ["usa", "europe", "nordic"])
def test_a_copy_takes_each_field_as_declared(edition: str) -> None:
    """Mid-game, a copy shares the fixed and shared fields, has equal lists of its own,
    and sets its own working state afresh; it gives the same snapshot."""
    rs = ruleset(edition)
    table = Table(rs, 3)
    table.load(play_game(rs, 3, seed=2, actions=40).state)
    copy = Table(rs, 3, copy_of=table)
    for f in FIELDS:
        mine, theirs = getattr(table, f.name), getattr(copy, f.name)
        if f.copy in ("fixed", "shared"):
            # A compiled table holds its ints unboxed: equal, not the same object.
            assert theirs is mine or (type(mine) is int and theirs == mine), f.name
        elif f.copy == "list":
            assert theirs == mine and theirs is not mine, f.name
    assert copy.version == table.version + 1
    assert copy.events is None and copy.chance is None
    assert copy.snapshot() == table.snapshot()


@pytest.mark.parametrize("edition", ["usa", "europe", "nordic"])
def test_load_gives_back_the_state_it_loaded(edition: str) -> None:
    """A table loaded with a state gives that very state as its snapshot, and once its
    parts are built again (a seat changed, a track claimed), an equal one; loading its
    snapshot into another table sets every field equal, but the working state and the
    last snapshot's parts."""
    rs = ruleset(edition)
    state = play_game(rs, 2, seed=5, actions=60).state
    table = Table(rs, 2)
    table.load(state)
    assert table.snapshot() is state
    table.seat_changed(0)
    table.owners_changed()
    table.version += 1
    again = table.snapshot()
    assert again == state and again is not state
    other = Table(rs, 2)
    other.load(again)
    for f in FIELDS:
        if f.copy != "own" and not f.name.startswith("_snap"):
            assert getattr(other, f.name) == getattr(table, f.name), f.name
