"""Machine integer types and class options for the compiled build, no-ops as Python.

The type checker (and so mypyc) reads ``native.pyi``, where ``i64`` is mypyc's 64-bit
machine integer and ``mypyc_attr`` its class options; at run time this module gives
``int`` and a decorator that changes nothing, so no extra package is needed.
Code annotated with ``i64`` must never leave the signed 64-bit range.
"""

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

i64 = int


def mypyc_attr(*attrs: str, **kwattrs: Any) -> Callable[[T], T]:
    """mypyc's class options (such as ``allow_interpreted_subclasses``): none here."""
    return lambda cls: cls


class _Unsubclassed:
    """``SequenceBase``: subscripted, it gives ``object``."""

    def __class_getitem__(cls, item: object) -> type[object]:
        return object


SequenceBase = _Unsubclassed
"""A base that the type checker reads as ``collections.abc.Sequence`` and that is
``object`` at run time; a class on it is registered as a ``Sequence`` and defines every
method that Sequence would give it.

That is for compiled classes that ``len()`` is called on from interpreted code: one that
inherits ``Sequence`` takes the generic length slot of its ``Sized`` base instead of its
own, which looks ``__len__`` up by name: ``len()`` of it costs about 600 instructions
instead of about 50.
"""


def is_compiled(module_file: str) -> bool:
    """Whether the module whose ``__file__`` is given runs compiled (an extension module).

    A few hot spots pick, by this, the form of a step that is fastest in each build;
    both forms give the same results.
    """
    return not module_file.endswith(".py")
