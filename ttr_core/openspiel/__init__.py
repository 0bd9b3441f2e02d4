"""Ticket to Ride as an OpenSpiel game, registered as ``python_ttr``.

Importing this package registers the game, so that ``pyspiel.load_game`` finds it::

    import pyspiel
    import ttr_core.openspiel  # noqa: F401

    game = pyspiel.load_game("python_ttr(edition=europe,players=3)")

This package needs the ``openspiel`` extra (OpenSpiel, and the ``rl`` extra, whose action
codes and observation vectors it uses); without it, importing the package raises
[`MissingExtraError`][ttr_core.model.errors.MissingExtraError] naming the command that
installs it. See the how-to guide "Use OpenSpiel".
"""

from __future__ import annotations

from ttr_core.model.errors import MissingExtraError
from ttr_core.model.extras import install_command

try:
    import pyspiel  # noqa: F401
except ImportError as exc:
    raise MissingExtraError(
        f"ttr_core.openspiel needs OpenSpiel, and {exc.name or exc} cannot be imported: "
        f"{install_command('openspiel')}"
    ) from None

from ttr_core.openspiel.game import GAME_TYPE, SHORT_NAME, TtrGame, TtrState, load

__all__ = ["GAME_TYPE", "SHORT_NAME", "TtrGame", "TtrState", "load"]
