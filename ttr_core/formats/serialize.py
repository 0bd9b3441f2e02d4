"""JSON forms of actions, events, states and records (one cattrs converter), and of views.

Actions and events are tagged unions: ``{"tag": "claim_route", ...}``, the tag being the class's
stable ``tag``, never its Python name. Cards appear by name: a single card as ``"red"`` (``null``
where hidden), a list of cards as ``["red", "locomotive"]``, a payment as ``{"red": 2, "locomotive":
1}``; only a shuffle's ``order`` keeps card numbers (see
[`ttr_core.model.cards`][ttr_core.model.cards]), as it is long and read by programs. Structuring is
strict: unknown tags, missing or extra keys, wrong types and text that UTF-8 cannot encode raise
[`JsonFormatError`][ttr_core.model.errors.JsonFormatError] (a ``ValueError``) naming the offending
key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import cattrs

from ttr_core.model.actions import ACTION_TYPES, Action
from ttr_core.model.cards import (
    CARD_NAMES,
    NUM_KINDS,
    card_index,
    counts_from_mapping,
    counts_to_mapping,
)
from ttr_core.model.errors import JsonFormatError, quote
from ttr_core.model.events import EVENT_TYPES, Event
from ttr_core.model.state import GameState, Phase
from ttr_core.model.strict import check_text, error_text, strict_converter
from ttr_core.rules.views import CardChoiceView, PlayerView, PublicPlayer, TunnelView


def _card_out(value: int) -> str | None:
    return None if value < 0 else CARD_NAMES[value]


def _card_in(value: Any) -> int:
    if value is None:
        return -1
    if not isinstance(value, str):
        raise ValueError(f"expected a card name, got {quote(value)}")
    return card_index(value)


def _cards_in(value: Any) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise ValueError(f"expected an object of card counts, got {quote(value)}")
    return counts_from_mapping(value)


def _card_list_in(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list of card names, got {quote(value)}")
    return tuple(_card_in(v) for v in value)


def _plain_in(value: Any, kind: Any) -> Any:
    if kind in (int, "int"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"expected an integer, got {quote(value)}")
        return value
    if kind in (str, "str"):
        if not isinstance(value, str):
            raise ValueError(f"expected a string, got {quote(value)}")
        return check_text(value)
    # tuple[int, ...]
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise ValueError(f"expected a list of integers, got {quote(value)}")
    return tuple(value)


def _tagged_hooks(
    kind: str, classes: tuple[type[Action], ...] | tuple[type[Event], ...]
) -> tuple[Callable[[Any], dict[str, Any]], Callable[[Any, Any], Any]]:
    """Unstructure and structure functions for a family of tagged attrs classes."""
    by_tag: dict[str, type[Any]] = {cls.tag: cls for cls in classes}
    fields = {cls: attrs.fields(cls) for cls in classes}
    # Per class, each field's name and how it goes on the wire, read once.
    wires = {
        cls: tuple((f.name, f.metadata.get("wire")) for f in class_fields)
        for cls, class_fields in fields.items()
    }
    names = {
        cls: frozenset(f.name for f in class_fields) | {"tag"}
        for cls, class_fields in fields.items()
    }

    def unstructure(obj: Any) -> dict[str, Any]:
        cls = type(obj)
        out: dict[str, Any] = {"tag": cls.tag}
        for name, wire in wires[cls]:
            value = getattr(obj, name)
            if wire is None:
                out[name] = list(value) if isinstance(value, tuple) else value
            elif wire == "card":
                out[name] = _card_out(value)
            elif wire == "cards":
                out[name] = counts_to_mapping(value)
            else:  # "card_list"
                out[name] = [_card_out(v) for v in value]
        return out

    def structure(raw: Any, _: Any) -> Any:
        if not isinstance(raw, dict):
            raise ValueError(f"expected an object with a 'tag', got {quote(raw)}")
        tag = raw.get("tag")
        cls = by_tag.get(tag) if isinstance(tag, str) else None
        if cls is None:
            raise ValueError(f"unknown {kind} tag {quote(tag)}")
        kwargs: dict[str, Any] = {}
        extra = raw.keys() - names[cls]
        if extra:
            raise ValueError(f"{tag}: unexpected keys {quote(sorted(extra))}")
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
        raise ValueError(f"expected a phase number, got {quote(value)}")
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


def _read(raw: Any, cls: Any, top: str = "") -> Any:
    """Structure ``raw`` as ``cls``; every failure is a `JsonFormatError`.

    ``top`` prefixes a message about the top-level value (nested ones carry their path).
    """
    try:
        return CONVERTER.structure(raw, cls)
    except cattrs.BaseValidationError as exc:
        raise JsonFormatError(error_text(exc)) from None
    except (ValueError, TypeError, AttributeError) as exc:
        raise JsonFormatError(top + error_text(exc)) from None


def action_from_json(raw: Any) -> Action:
    """An action from its JSON object.

    :raises JsonFormatError: naming what is wrong (``claim_route.cards: ...``).
    """
    action: Action = _read(raw, Action)
    return action


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON object of an event."""
    out: dict[str, Any] = CONVERTER.unstructure(event, Event)
    return out


def event_from_json(raw: Any) -> Event:
    """An event from its JSON object.

    :raises JsonFormatError: naming what is wrong (``shuffled.order: ...``).
    """
    event: Event = _read(raw, Event)
    return event


def state_to_json(state: GameState) -> dict[str, Any]:
    """The JSON object of a full game state (secrets included: not a view)."""
    out: dict[str, Any] = CONVERTER.unstructure(state)
    return out


def state_from_json(raw: Any) -> GameState:
    """A game state from its JSON object (its shape only: not whether it can be reached).

    :raises JsonFormatError: naming the path of what is wrong (``$.players[0].hand: ...``).
    """
    state: GameState = _read(raw, GameState, "$: ")
    return state


# -- player views ------------------------------------------------------------------------
#
# A view, the JSON a game server sends each seat, is written and read by hand rather than
# through the converter: its cards appear by name as in actions and events, its phase by
# the lower-case name of its Phase member ("opening_tickets"; a state writes the number),
# and every refusal names the path of the offending value.

_VIEW_KEYS = frozenset(attrs.fields_dict(PlayerView))
_PUBLIC_KEYS = frozenset(attrs.fields_dict(PublicPlayer))
_TUNNEL_KEYS = frozenset(attrs.fields_dict(TunnelView))
_CHOICE_KEYS = frozenset(attrs.fields_dict(CardChoiceView))
_PHASES = {phase.name.lower(): phase for phase in Phase}


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """The JSON object of a player view: what one seat may know, nothing more."""
    tunnel, choice = view.tunnel, view.choice
    return {
        "edition": view.edition,
        "seat": view.seat,
        "phase": view.phase.name.lower(),
        "current": view.current,
        "hand": counts_to_mapping(view.hand),
        "tickets": list(view.tickets),
        "offered": list(view.offered),
        "display": [_card_out(c) for c in view.display],
        "deck_size": view.deck_size,
        "discard": counts_to_mapping(view.discard),
        "ticket_deck_size": view.ticket_deck_size,
        "owners": list(view.owners),
        "station_owners": list(view.station_owners),
        "players": [attrs.asdict(p) for p in view.players],
        "final_trigger": view.final_trigger,
        "turn": view.turn,
        "tunnel": None
        if tunnel is None
        else {
            "route": tunnel.route,
            "paid": counts_to_mapping(tunnel.paid),
            "revealed": [_card_out(c) for c in tunnel.revealed],
            "extra": tunnel.extra,
        },
        "choice": None
        if choice is None
        else {
            "route": choice.route,
            "groups": choice.groups,
            "size": choice.size,
            "chosen": counts_to_mapping(choice.chosen),
        },
    }


def view_from_json(raw: Any) -> PlayerView:
    """A player view from its JSON object (as [`view_to_json`][] writes it).

    :raises JsonFormatError: (a ``ValueError``) a value of the wrong type, a missing or
        extra key, an unknown card or phase name, text that UTF-8 cannot encode; the
        message names the path (``$.players[1].score: ...``).
    """
    obj = _object(raw, "$", _VIEW_KEYS)
    return PlayerView(
        edition=_str(obj["edition"], "$.edition"),
        seat=_int(obj["seat"], "$.seat"),
        phase=_phase(obj["phase"], "$.phase"),
        current=_int(obj["current"], "$.current"),
        hand=_counts(obj["hand"], "$.hand"),
        tickets=_ints(obj["tickets"], "$.tickets"),
        offered=_ints(obj["offered"], "$.offered"),
        display=_cards(obj["display"], "$.display", empty=True),
        deck_size=_int(obj["deck_size"], "$.deck_size"),
        discard=_counts(obj["discard"], "$.discard"),
        ticket_deck_size=_int(obj["ticket_deck_size"], "$.ticket_deck_size"),
        owners=_ints(obj["owners"], "$.owners"),
        station_owners=_ints(obj["station_owners"], "$.station_owners"),
        players=tuple(
            _public_player(p, f"$.players[{i}]")
            for i, p in enumerate(_list(obj["players"], "$.players"))
        ),
        final_trigger=_int(obj["final_trigger"], "$.final_trigger"),
        turn=_int(obj["turn"], "$.turn"),
        tunnel=None if obj["tunnel"] is None else _tunnel(obj["tunnel"], "$.tunnel"),
        choice=None if obj["choice"] is None else _choice(obj["choice"], "$.choice"),
    )


def _bad(message: str) -> JsonFormatError:
    """The error a view reader raises: the same as the other JSON readers of this module."""
    return JsonFormatError(message)


def _public_player(raw: Any, path: str) -> PublicPlayer:
    obj = _object(raw, path, _PUBLIC_KEYS)
    return PublicPlayer(**{key: _int(obj[key], f"{path}.{key}") for key in sorted(_PUBLIC_KEYS)})


def _tunnel(raw: Any, path: str) -> TunnelView:
    obj = _object(raw, path, _TUNNEL_KEYS)
    return TunnelView(
        route=_int(obj["route"], f"{path}.route"),
        paid=_counts(obj["paid"], f"{path}.paid"),
        revealed=_cards(obj["revealed"], f"{path}.revealed", empty=False),
        extra=_int(obj["extra"], f"{path}.extra"),
    )


def _choice(raw: Any, path: str) -> CardChoiceView:
    obj = _object(raw, path, _CHOICE_KEYS)
    return CardChoiceView(
        route=_int(obj["route"], f"{path}.route"),
        groups=_int(obj["groups"], f"{path}.groups"),
        size=_int(obj["size"], f"{path}.size"),
        chosen=_counts(obj["chosen"], f"{path}.chosen"),
    )


def _object(raw: Any, path: str, keys: frozenset[str]) -> dict[str, Any]:
    """``raw`` if it is an object with exactly ``keys``; else raise naming ``path``."""
    if not isinstance(raw, dict):
        raise _bad(f"{path}: expected an object, got {quote(raw)}")
    missing = sorted(keys - raw.keys())
    if missing:
        raise _bad(f"{path}: missing keys {missing}")
    extra = sorted(map(str, raw.keys() - keys))
    if extra:
        raise _bad(f"{path}: unexpected keys {quote(extra)}")
    return raw


def _list(raw: Any, path: str) -> list[Any]:
    if not isinstance(raw, list):
        raise _bad(f"{path}: expected a list, got {quote(raw)}")
    return raw


def _int(raw: Any, path: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise _bad(f"{path}: expected an integer, got {quote(raw)}")
    return raw


def _str(raw: Any, path: str) -> str:
    if not isinstance(raw, str):
        raise _bad(f"{path}: expected a string, got {quote(raw)}")
    try:
        return check_text(raw)
    except ValueError as exc:
        raise _bad(f"{path}: {exc}") from None


def _ints(raw: Any, path: str) -> tuple[int, ...]:
    return tuple(_int(v, f"{path}[{i}]") for i, v in enumerate(_list(raw, path)))


def _phase(raw: Any, path: str) -> Phase:
    phase = _PHASES.get(raw) if isinstance(raw, str) else None
    if phase is None:
        raise _bad(f"{path}: expected one of {', '.join(_PHASES)}, got {quote(raw)}")
    return phase


def _counts(raw: Any, path: str) -> tuple[int, ...]:
    """Nine card counts from ``{"red": 2, ...}``."""
    if not isinstance(raw, dict):
        raise _bad(f"{path}: expected an object of card counts, got {quote(raw)}")
    try:
        return counts_from_mapping(raw)
    except ValueError as exc:
        raise _bad(f"{path}: {exc}") from None


def _cards(raw: Any, path: str, *, empty: bool) -> tuple[int, ...]:
    """Card numbers from card names; ``null`` is an empty slot (-1) where ``empty``."""
    out = []
    for i, v in enumerate(_list(raw, path)):
        if v is None and empty:
            out.append(-1)
            continue
        try:
            if not isinstance(v, str):
                raise ValueError(f"expected a card name, got {quote(v)}")
            out.append(card_index(v))
        except ValueError as exc:
            raise _bad(f"{path}[{i}]: {exc}") from None
    return tuple(out)


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
    "view_from_json",
    "view_to_json",
]
