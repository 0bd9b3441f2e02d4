"""Finding bots by name: a short name from the ``ttr.bots`` entry points, or ``module:Class``.

Built-in bots are declared in the same entry-point group as third-party ones, so a package
can add a bot to ``ttr simulate`` by declaring, in its ``pyproject.toml``::

    [project.entry-points."ttr.bots"]
    clever = "my_package.bots:CleverBot"
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import sys
from typing import cast

from ttr_core.bots.base import Bot, BotFactory
from ttr_core.errors import BotError
from ttr_core.ruleset import Ruleset

ENTRY_POINT_GROUP = "ttr.bots"


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


def find_bot(name: str) -> BotFactory:
    """The bot class for a short name (``"greedy"``) or a ``module:Class`` path.

    :raises BotError: the name is unknown or cannot be imported; the message lists the
        known bots.
    """
    if ":" in name:
        target = name
    else:
        target = installed_bots().get(name.strip(), "")
        if not target:
            raise BotError(f"unknown bot {name!r}; {_known()}")
    obj = _load_target(name, target)
    if not isinstance(obj, type) or not callable(getattr(obj, "choose", None)):
        raise BotError(f"bot {name!r}: {target!r} is not a bot class (it needs a choose method)")
    return cast(BotFactory, obj)


def make_bot(name: str, ruleset: Ruleset, seat: int, seed: int) -> Bot:
    """Build the bot named ``name`` for ``seat``, seeded with ``seed``.

    :raises BotError: as :func:`find_bot`.
    """
    return find_bot(name)(ruleset, seat, seed)
