"""Agents through PettingZoo: a fixed action encoding, observation vectors, an environment.

This package needs the ``rl`` extra (PettingZoo, Gymnasium and NumPy); without it, importing
the package raises [`MissingExtraError`][ttr_core.model.errors.MissingExtraError] (an
``ImportError``) naming the command that installs it. The rest of the library never imports
it. `ActionEncoding` numbers every action of a ruleset with a fixed integer code,
`ObservationEncoding` turns a player's view into a fixed-length vector, and [`env`][]
(wrapped as PettingZoo's classic games are) and `raw_env` play a game as a PettingZoo AEC
environment. The layouts are explained in the documentation's page on agents.
"""

from __future__ import annotations

from ttr_core.model.errors import MissingExtraError

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:
    raise MissingExtraError(
        f"ttr_core.rl needs PettingZoo, Gymnasium and NumPy, and {exc.name or exc} cannot "
        'be imported: pip install "ttr-engine[rl]"'
    ) from None

from ttr_core.rl.encoding import ActionEncoding, Section
from ttr_core.rl.env import env, placing_rewards, raw_env
from ttr_core.rl.observation import ObservationEncoding

__all__ = [
    "ActionEncoding",
    "ObservationEncoding",
    "Section",
    "env",
    "placing_rewards",
    "raw_env",
]
