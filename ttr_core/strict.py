"""A cattrs converter that accepts JSON values only of exactly the declared types.

cattrs converts by default (``"4"`` becomes 4, ``true`` becomes 1, a string becomes a
tuple of characters). Data files and saved records must not be silently reinterpreted,
so this converter rejects every value whose JSON type differs from the declared one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, get_args, get_origin

import cattrs
from cattrs.errors import IterableValidationError, IterableValidationNote


def _strict_int(value: Any, _: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _strict_str(value: Any, _: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {value!r}")
    return value


def _strict_bool(value: Any, _: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _is_tuple(t: Any) -> bool:
    return get_origin(t) is tuple


def _is_mapping(t: Any) -> bool:
    return get_origin(t) in (dict, Mapping)


def strict_converter() -> cattrs.Converter:
    """A converter with strict hooks for ints, strings, booleans, tuples and mappings.

    Register class hooks after calling this, so they pick up the strict hooks.
    """
    conv = cattrs.Converter(forbid_extra_keys=True)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(bool, _strict_bool)

    # cattrs' tuple handler (generic over the element type) reports the index of a bad
    # element; keep it and only refuse containers of the wrong JSON type first. Mappings
    # are structured here, with the key of a bad value noted the way cattrs does.
    default_tuple = conv.get_structure_hook(tuple[int, ...])

    def tuple_hook(value: Any, t: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise ValueError(f"expected a list, got {value!r}")
        args = get_args(t)
        if not (len(args) == 2 and args[1] is Ellipsis) and len(value) != len(args):
            raise ValueError(f"expected a list of {len(args)} items, got {len(value)}")
        out: tuple[Any, ...] = default_tuple(value, t)
        return out

    def mapping_hook(value: Any, t: Any) -> dict[Any, Any]:
        if not isinstance(value, dict):
            raise ValueError(f"expected an object, got {value!r}")
        key_type, value_type = get_args(t) or (Any, Any)
        out: dict[Any, Any] = {}
        errors: list[Exception] = []
        for k, v in value.items():
            try:
                out[conv.structure(k, key_type)] = conv.structure(v, value_type)
            except Exception as exc:
                note = IterableValidationNote(
                    f"Structuring mapping value @ key {k!r}", k, value_type
                )
                exc.__notes__ = [*getattr(exc, "__notes__", []), note]
                errors.append(exc)
        if errors:
            raise IterableValidationError(f"While structuring {t!r}", errors, t)
        return out

    conv.register_structure_hook_func(_is_tuple, tuple_hook)
    conv.register_structure_hook_func(_is_mapping, mapping_hook)
    conv.register_structure_hook(Any, lambda v, _: v)
    return conv


def error_text(exc: Exception, path: str = "$") -> str:
    """One line describing a structuring failure, keeping our own messages."""
    if isinstance(exc, cattrs.BaseValidationError):
        messages = cattrs.transform_error(exc, path=path, format_exception=_format)
        # cattrs writes "message @ $.path"; the project writes "$.path: message".
        return "; ".join(
            f"{where}: {what}" if sep else what
            for what, sep, where in (m.rpartition(" @ ") for m in messages)
        )
    return str(exc)


def _format(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, ValueError) and str(exc):
        return str(exc)
    if isinstance(exc, KeyError):
        return "required field missing"
    return cattrs.v.format_exception(exc, type_)


StructureHook = Callable[[Any, Any], Any]
