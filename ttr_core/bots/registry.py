"""Finding bots by name: a short name from the ``ttr.bots`` entry points, or ``module:Class``.

Built-in bots are declared in the same entry-point group as third-party ones, so a package
can add a bot to ``ttr simulate`` by declaring, in its ``pyproject.toml``::

    [project.entry-points."ttr.bots"]
    clever = "my_package.bots:CleverBot"

A bot *spec* is a name followed by parameters, each after a colon: ``mcts:playouts=200``,
``mcts:playouts=200:c=1.4``, ``my_package.bots:CleverBot:depth=3``. A part with ``=`` is a
parameter; the parts before the first parameter are the name, so the colon of a
``module:Class`` path stays part of it, except after a registered short name, which is
never a module: every part after it is a parameter. Parameters are passed to the bot
class as keyword arguments, converted to the type its ``__init__`` declares (``int``,
``float``, ``bool`` or ``str``).
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
import math
import os
import sys
from typing import Any, cast

from ttr_core.bots.base import Bot, BotFactory
from ttr_core.model.errors import BotError, SetupError, quote
from ttr_core.rules.queries import require_seat
from ttr_core.ruleset.ruleset import Ruleset

ENTRY_POINT_GROUP = "ttr.bots"

PLAY_STYLES = ("tickets", "long-routes", "planner", "lookahead")
"""The short names of the four play-style bots, whose win rates characterise a map: the
ticket chaser, the long-route grabber, the route planner and the one-step look-ahead."""


def installed_bots() -> dict[str, str]:
    """The bots declared through the entry points: short name -> ``module:Class``, by name."""
    found = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return dict(sorted(found.items()))


def _known() -> str:
    names = ", ".join(installed_bots()) or "none"
    return f"known bots: {names} (or module:Class)"


def _import(module_name: str) -> object:
    """Import a module, also from the working directory (as ``python -m`` would)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError:
        cwd = os.getcwd()
        if cwd in sys.path:
            raise
        sys.path.append(cwd)
        return importlib.import_module(module_name)


def _load_target(name: str, target: str) -> object:
    module_name, _, attr_path = target.partition(":")
    if not module_name or not attr_path:
        raise BotError(f"bot {name!r}: expected module:Class, got {target!r}; {_known()}")
    try:
        obj: object = _import(module_name)
    except ImportError as exc:
        raise BotError(f"bot {name!r}: cannot import {module_name!r} ({exc}); {_known()}") from None
    for part in attr_path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise BotError(
                f"bot {name!r}: {module_name!r} has no attribute {attr_path!r}; {_known()}"
            ) from None
    return obj


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split a bot spec into its name and its parameters as text (see the module docs).

    :raises BotError: an empty name, a parameter without a key, a key given twice, or a
        part without ``=`` after the first parameter.
    """
    parts = [part.strip() for part in spec.strip().split(":")]
    first = next((i for i, part in enumerate(parts) if "=" in part), len(parts))
    if first > 1 and parts[0] in installed_bots():
        first = 1  # a registered short name is no module: what follows are parameters
    name = ":".join(parts[:first])
    params: dict[str, str] = {}
    for part in parts[first:]:
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise BotError(
                f"bot {spec!r}: expected KEY=VALUE parameters after the name, got {part!r}"
            )
        if key in params:
            raise BotError(f"bot {spec!r}: parameter {key!r} is given twice")
        params[key] = value.strip()
    if not name:
        raise BotError(f"bot {spec!r}: the bot name is missing; {_known()}")
    return name, params


def _find_class(name: str) -> type:
    """The bot class of a short name or a ``module:Class`` path."""
    if ":" in name:
        target = name
    else:
        target = installed_bots().get(name, "")
        if not target:
            raise BotError(f"unknown bot {name!r}; {_known()}")
    obj = _load_target(name, target)
    if not isinstance(obj, type) or not callable(getattr(obj, "choose", None)):
        raise BotError(f"bot {name!r}: {target!r} is not a bot class (it needs a choose method)")
    return obj


_TYPES: dict[str, type] = {"int": int, "float": float, "bool": bool, "str": str}
"""The annotations a parameter's value is converted to, by their text."""
_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


def _convert(spec: str, key: str, text: str, kind: object) -> object:
    """The value of parameter ``key`` as the type the bot declares (a guess if none)."""
    try:
        if kind is bool:
            if text.lower() not in _TRUE + _FALSE:
                raise ValueError(text)
            return text.lower() in _TRUE
        if kind is int:
            return int(text)
        if kind is float:
            value = float(text)
            if not math.isfinite(value):
                raise ValueError(text)
            return value
        if kind is str:
            return text
    except ValueError:
        what = {bool: "true or false", int: "an integer", float: "a number"}[cast(type, kind)]
        raise BotError(f"bot {spec!r}: parameter {key!r} must be {what}, not {text!r}") from None
    for guess in (int, float):
        try:
            return guess(text)
        except ValueError:
            pass
    return text


def _parameters(spec: str, cls: type, given: dict[str, str]) -> dict[str, Any]:
    """Check the parameters against the class's ``__init__`` and convert their values."""
    signature = inspect.signature(cls)
    accepted = {
        name: p
        for name, p in list(signature.parameters.items())[3:]
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }
    open_ended = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    out: dict[str, Any] = {}
    for key, text in given.items():
        if key not in accepted and not open_ended:
            takes = ", ".join(accepted) or "none"
            raise BotError(
                f"bot {spec!r}: {cls.__name__} has no parameter {key!r} (parameters: {takes})"
            )
        kind = accepted[key].annotation if key in accepted else None
        if isinstance(kind, str):  # postponed annotations are text
            kind = _TYPES.get(kind.strip())
        out[key] = _convert(spec, key, text, kind)
    return out


def find_bot(name: str) -> BotFactory:
    """The bot class for a short name (``"greedy"``) or a ``module:Class`` path, or for
    a spec with parameters (``"mcts:playouts=200"``), a factory that builds the class
    with them.

    :raises BotError: the name is unknown or cannot be imported (the message lists the
        known bots), or a parameter is malformed, unknown to the bot or of the wrong type.
    """
    bot_name, given = parse_spec(name)
    cls = _find_class(bot_name)
    if not given:
        return cast(BotFactory, cls)
    return cast(BotFactory, functools.partial(cls, **_parameters(name, cls, given)))


def make_bot(name: str, ruleset: Ruleset, seat: int, seed: int) -> Bot:
    """Build the bot named ``name`` for ``seat``, seeded with ``seed``.

    :raises BotError: as `find_bot`.
    :raises SetupError: ``seat`` is not an ``int`` seat of the ruleset's largest game, or
        ``seed`` is not an ``int`` (a ``bool`` is refused for either).
    """
    require_seat(seat, ruleset.params.players[1])
    if type(seed) is not int:
        raise SetupError(f"a bot's seed must be an integer, not {quote(seed)}")
    return find_bot(name)(ruleset, seat, seed)
