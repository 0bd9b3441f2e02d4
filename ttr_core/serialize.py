"""JSON forms of actions, events, states and records, through one cattrs converter.

Actions and events are tagged unions: ``{"tag": "claim_route", ...}``, the tag being the
class's stable ``tag``, never its Python name. Cards appear by name: a single card as
``"red"`` (``null`` where hidden), a list of cards as ``["red", "locomotive"]``, a payment
as ``{"red": 2, "locomotive": 1}``; only a shuffle's ``order`` keeps card numbers (see
:mod:`ttr_core.cards`), as it is long and read by programs. Structuring is strict:
unknown tags, missing or extra keys and wrong types raise ``ValueError`` naming the
offending key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import cattrs

from ttr_core.actions import ACTION_TYPES, Action
from ttr_core.cards import CARD_NAMES, NUM_KINDS, card_index, counts_from_mapping, counts_to_mapping
from ttr_core.events import EVENT_TYPES, Event
from ttr_core.state import GameState, Phase
from ttr_core.strict import error_text, strict_converter


def _card_out(value: int) -> str | None:
    return None if value < 0 else CARD_NAMES[value]


def _card_in(value: Any) -> int:
    if value is None:
        return -1
    if not isinstance(value, str):
        raise ValueError(f"expected a card name, got {value!r}")
    return card_index(value)


def _cards_in(value: Any) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise ValueError(f"expected an object of card counts, got {value!r}")
    return counts_from_mapping(value)


def _card_list_in(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list of card names, got {value!r}")
    return tuple(_card_in(v) for v in value)


def _plain_in(value: Any, kind: Any) -> Any:
    if kind in (int, "int"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"expected an integer, got {value!r}")
        return value
    if kind in (str, "str"):
        if not isinstance(value, str):
            raise ValueError(f"expected a string, got {value!r}")
        return value
    # tuple[int, ...]
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise ValueError(f"expected a list of integers, got {value!r}")
    return tuple(value)


def _tagged_hooks(
    kind: str, classes: tuple[type[Action], ...] | tuple[type[Event], ...]
) -> tuple[Callable[[Any], dict[str, Any]], Callable[[Any, Any], Any]]:
    """Unstructure and structure functions for a family of tagged attrs classes."""
    by_tag: dict[str, type[Any]] = {cls.tag: cls for cls in classes}
    fields = {cls: attrs.fields(cls) for cls in classes}

    def unstructure(obj: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"tag": type(obj).tag}
        for f in fields[type(obj)]:
            value = getattr(obj, f.name)
            wire = f.metadata.get("wire")
            if wire == "card":
                out[f.name] = _card_out(value)
            elif wire == "cards":
                out[f.name] = counts_to_mapping(value)
            elif wire == "card_list":
                out[f.name] = [_card_out(v) for v in value]
            elif isinstance(value, tuple):
                out[f.name] = list(value)
            else:
                out[f.name] = value
        return out

    def structure(raw: Any, _: Any) -> Any:
        if not isinstance(raw, dict):
            raise ValueError(f"expected an object with a 'tag', got {raw!r}")
        tag = raw.get("tag")
        cls = by_tag.get(tag) if isinstance(tag, str) else None
        if cls is None:
            raise ValueError(f"unknown {kind} tag {tag!r}")
        kwargs: dict[str, Any] = {}
        names = {f.name for f in fields[cls]}
        extra = set(raw) - names - {"tag"}
        if extra:
            raise ValueError(f"{tag}: unexpected keys {sorted(extra)}")
        for f in fields[cls]:
            if f.name not in raw:
                raise ValueError(f"{tag}: missing key {f.name!r}")
            value = raw[f.name]
            wire = f.metadata.get("wire")
            try:
                if wire == "card":
                    kwargs[f.name] = _card_in(value)
                elif wire == "cards":
                    kwargs[f.name] = _cards_in(value)
                elif wire == "card_list":
                    kwargs[f.name] = _card_list_in(value)
                else:
                    kwargs[f.name] = _plain_in(value, f.type)
            except ValueError as exc:
                raise ValueError(f"{tag}.{f.name}: {exc}") from None
        return cls(**kwargs)

    return unstructure, structure


def _phase_in(value: Any, _: Any) -> Phase:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected a phase number, got {value!r}")
    return Phase(value)


def _subclass_of(base: type[Any]) -> Callable[[Any], bool]:
    def check(t: Any) -> bool:
        return isinstance(t, type) and issubclass(t, base)

    return check


def make_converter() -> cattrs.Converter:
    """A converter for every type the library writes as JSON (built after all types exist)."""
    conv = strict_converter()
    families: tuple[tuple[str, type[Any], tuple[type[Any], ...]], ...] = (
        ("action", Action, ACTION_TYPES),
        ("event", Event, EVENT_TYPES),
    )
    for kind, base, classes in families:
        un, st = _tagged_hooks(kind, classes)
        conv.register_unstructure_hook_func(_subclass_of(base), un)
        conv.register_structure_hook_func(_subclass_of(base), st)
    conv.register_structure_hook(Phase, _phase_in)
    return conv


CONVERTER = make_converter()


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON object of an action."""
    out: dict[str, Any] = CONVERTER.unstructure(action, Action)
    return out


def action_from_json(raw: Any) -> Action:
    """An action from its JSON object; raises ``ValueError`` naming what is wrong."""
    return CONVERTER.structure(raw, Action)


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON object of an event."""
    out: dict[str, Any] = CONVERTER.unstructure(event, Event)
    return out


def event_from_json(raw: Any) -> Event:
    """An event from its JSON object; raises ``ValueError`` naming what is wrong."""
    return CONVERTER.structure(raw, Event)


def state_to_json(state: GameState) -> dict[str, Any]:
    """The JSON object of a full game state (secrets included: not a view)."""
    out: dict[str, Any] = CONVERTER.unstructure(state)
    return out


def state_from_json(raw: Any) -> GameState:
    """A game state from its JSON object."""
    try:
        return CONVERTER.structure(raw, GameState)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        raise ValueError(error_text(exc)) from None


__all__ = [
    "CONVERTER",
    "NUM_KINDS",
    "action_from_json",
    "action_to_json",
    "event_from_json",
    "event_to_json",
    "make_converter",
    "state_from_json",
    "state_to_json",
]
