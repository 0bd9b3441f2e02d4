"""Frozen states built from a dictionary of their fields, without the attrs ``__init__``.

The simulator builds a frozen state, and a view of it, at every decision a bot or a
``Game`` sees. The generated ``__init__`` of a frozen class (keyword parsing, then one
``object.__setattr__`` a field) costs several times the dictionary it fills, so a class
that keeps its fields in an instance dictionary is given that dictionary directly. That
is the same object only while the class checks and converts nothing on the way in, so
[`filled`][] looks once per class and calls ``__init__`` for any other class.
"""

from __future__ import annotations

from typing import Final, TypeVar

import attrs

T = TypeVar("T")

_NEW: Final = object.__new__
"""``object.__new__``, looked up once: the compiled build would look it up at every call."""

_FILLABLE: dict[type, bool] = {}
"""Whether each class seen so far may be given its dictionary (see [`fillable`][])."""


def fillable(kind: type) -> bool:
    """Whether giving an instance of ``kind`` its field dictionary makes the object that
    ``kind(**fields)`` makes: an attrs class with its own generated ``__init__``, its
    fields in an instance dictionary, and no validator, converter, ``on_setattr``,
    excluded field or pre- or post-init step."""
    if not attrs.has(kind) or "__slots__" in vars(kind):
        return False
    init = vars(kind).get("__init__")
    code = getattr(init, "__code__", None)
    if code is None or not code.co_filename.startswith("<attrs generated"):
        return False
    if hasattr(kind, "__attrs_pre_init__") or hasattr(kind, "__attrs_post_init__"):
        return False
    return all(
        f.init and f.validator is None and f.converter is None and f.on_setattr is None
        for f in attrs.fields(kind)
    )


def filled(kind: type[T], fields: dict[str, object]) -> T:
    """An instance of ``kind`` holding ``fields``, which names every field of it in order
    (for a class that is not [`fillable`][], ``kind(**fields)``)."""
    fits = _FILLABLE.get(kind)
    if fits is None:
        fits = _FILLABLE[kind] = fillable(kind)
    if not fits:
        return kind(**fields)
    made: T = _NEW(kind)
    object.__setattr__(made, "__dict__", fields)
    return made
