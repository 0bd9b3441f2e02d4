"""Strict JSON reading: a parser that refuses duplicate keys, and a strict cattrs converter.

cattrs converts by default (``"4"`` becomes 4, ``true`` becomes 1, a string becomes a
tuple of characters). Data files and saved records must not be silently reinterpreted,
so this converter rejects every value whose JSON type differs from the declared one, and
every string that UTF-8 cannot encode (a lone surrogate such as ``"\\ud800"``).
`parse_json` refuses an object that holds a key twice, naming its path, where
`json.loads` would silently keep the last value.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import ForbiddenExtraKeysError, IterableValidationError, IterableValidationNote
from cattrs.gen import make_dict_structure_fn

from ttr_core.model.errors import quote


class JsonTextError(ValueError):
    """Text that is not JSON (``path`` is None), or JSON with a key twice in one object."""

    def __init__(self, problem: str, path: str | None = None) -> None:
        super().__init__(problem if path is None else f"{path}: {problem}")
        self.problem = problem
        self.path = path


def parse_json(text: str | bytes, root: str = "$") -> Any:
    """Parse JSON text like `json.loads`, refusing an object with a duplicate key.

    The error's ``path`` starts with ``root`` (``$.players[1]``); an empty ``root`` gives
    paths such as ``players[1]`` and an empty path for the top level.

    :raises JsonTextError: the text is not JSON, is nested too deeply, or repeats a key.
    """
    repeated: dict[int, str] = {}
    keep: list[dict[str, Any]] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    repeated[id(obj)] = key
                    keep.append(obj)  # keeps the id valid until the walk below
                    break
                seen.add(key)
        return obj

    try:
        value = json.loads(text, object_pairs_hook=pairs_hook)
    except RecursionError:
        raise JsonTextError("not valid JSON (nested too deeply)") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise JsonTextError(f"not valid JSON ({quote_error(exc)})") from None
    if repeated:
        parts, key = _first_repeated(value, repeated)
        raise JsonTextError(f"duplicate key {quote(key)}", json_path(parts, root))
    return value


def quote_error(exc: Exception) -> str:
    """The text of a parser's exception, shortened (it may quote the input)."""
    text = str(exc)
    return text if len(text) <= 120 else text[:117] + "..."


def _first_repeated(value: Any, repeated: dict[int, str]) -> tuple[tuple[str | int, ...], str]:
    """The path (in document order) of the first object with a repeated key, and the key."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, parts = stack.pop()
        if isinstance(item, dict):
            if id(item) in repeated:
                return parts, repeated[id(item)]
            stack.extend((v, (*parts, k)) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((v, (*parts, i)) for i, v in reversed(list(enumerate(item))))
    # An object with a repeated key whose value was itself replaced by the repeat: its
    # parent repeats a key too and is found above, so this is not reached.
    return (), next(iter(repeated.values()))


def json_path(parts: Sequence[str | int], root: str = "$") -> str:
    """A path such as ``$.players[1].name``; keys that are not names are quoted."""
    out = root
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}" if out else part
        else:
            out += f"[{quote(part)}]"
    return out


def check_text(value: str) -> str:
    """``value`` if UTF-8 can encode it; else raise ``ValueError`` naming the lone surrogate."""
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"not valid text: lone surrogate {quote(value[exc.start])} at index {exc.start} "
            "(UTF-8 cannot encode it)"
        ) from None
    return value


def _strict_int(value: Any, _: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, got {quote(value)}")
    return value


def _strict_str(value: Any, _: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {quote(value)}")
    return check_text(value)


def _strict_bool(value: Any, _: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {quote(value)}")
    return value


def _is_tuple(t: Any) -> bool:
    return get_origin(t) is tuple


def _is_mapping(t: Any) -> bool:
    return get_origin(t) in (dict, Mapping)


def strict_converter() -> cattrs.Converter:
    """A converter with strict hooks for ints, strings, booleans, tuples, mappings and attrs
    classes (an object with exactly the declared keys).

    Register other hooks after calling this, so they pick up the strict hooks.
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
            raise ValueError(f"expected a list, got {quote(value)}")
        args = get_args(t)
        if not (len(args) == 2 and args[1] is Ellipsis) and len(value) != len(args):
            raise ValueError(f"expected a list of {len(args)} items, got {len(value)}")
        out: tuple[Any, ...] = default_tuple(value, t)
        return out

    def mapping_hook(value: Any, t: Any) -> dict[Any, Any]:
        if not isinstance(value, dict):
            raise ValueError(f"expected an object, got {quote(value)}")
        key_type, value_type = get_args(t) or (Any, Any)
        out: dict[Any, Any] = {}
        errors: list[Exception] = []
        for k, v in value.items():
            try:
                out[conv.structure(k, key_type)] = conv.structure(v, value_type)
            except Exception as exc:
                note = IterableValidationNote(
                    f"Structuring mapping value @ key {quote(k)}", k, value_type
                )
                exc.__notes__ = [*getattr(exc, "__notes__", []), note]
                errors.append(exc)
        if errors:
            raise IterableValidationError(f"While structuring {t!r}", errors, t)
        return out

    def attrs_hook(cls: type[Any]) -> Callable[[Any, Any], Any]:
        inner = make_dict_structure_fn(cls, conv, _cattrs_forbid_extra_keys=True)

        def hook(value: Any, t: Any) -> Any:
            if not isinstance(value, dict):
                raise ValueError(f"expected an object, got {quote(value)}")
            return inner(value, t)

        return hook

    conv.register_structure_hook_func(_is_tuple, tuple_hook)
    conv.register_structure_hook_func(_is_mapping, mapping_hook)
    conv.register_structure_hook_factory(attrs.has, attrs_hook)
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
    return _format(exc, None)


def _format(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, ForbiddenExtraKeysError):
        keys = sorted(exc.extra_fields)
        shown = ", ".join(quote(k) for k in keys[:5]) + (", ..." if len(keys) > 5 else "")
        return f"unknown keys {shown}" if len(keys) > 1 else f"unknown key {shown}"
    if isinstance(exc, ValueError) and str(exc):
        return str(exc)
    if isinstance(exc, KeyError):
        return "required field missing"
    return cattrs.v.format_exception(exc, type_)


StructureHook = Callable[[Any, Any], Any]
