"""The type check of action fields (rule TURN-1), compiled with the simulator.

``bool`` does not pass for ``int``, nor a list for a tuple. The engine refuses an action
whose field holds another type than declared before it reads any field, so that pure
Python and the compiled build, whose functions take typed values, refuse exactly the
same actions. The check runs on every action applied or asked about, so it is kept in a
module of its own that the compiled build compiles (the attrs action classes cannot be).
"""

from __future__ import annotations

from typing import Final

from attrs import fields

from ttr_core.model.actions import ACTION_TYPES
from ttr_core.model.errors import quote

_INT: Final = 0
_STR: Final = 1
_INTS: Final = 2
"""The kinds of field an action has."""

_KIND_OF: Final = {"int": _INT, "str": _STR, "tuple[int, ...]": _INTS}
"""Each kind by its type as the action classes declare it."""


def _declared(kind: type) -> tuple[tuple[str, int], ...]:
    """Each field of an action class with the kind it declares."""
    out: list[tuple[str, int]] = []
    for f in fields(kind):
        code = _KIND_OF.get(str(f.type))
        if code is None:
            raise AssertionError(f"no check for fields of type {f.type}")
        out.append((f.name, code))
    return tuple(out)


_FIELDS: Final[dict[type, tuple[tuple[str, int], ...]]] = {
    kind: _declared(kind) for kind in ACTION_TYPES
}
_NAMES: Final = ("int", "str", "tuple[int, ...]")
"""Each kind's type as written, for messages."""


def _fits(value: object, code: int) -> bool:
    if code == _INT:
        return type(value) is int
    if code == _STR:
        return type(value) is str
    return type(value) is tuple and all(type(x) is int for x in value)


def field_problem(action: object) -> str | None:
    """Why a field of ``action`` holds a value of another type than declared, or None
    (for an object that is no action, too: that is refused elsewhere)."""
    declared = _FIELDS.get(type(action))
    if declared is None:
        return None
    for name, code in declared:
        value = getattr(action, name)
        if not _fits(value, code):
            return f"{type(action).__name__}.{name} must be {_NAMES[code]}, not {quote(value)}"
    return None
