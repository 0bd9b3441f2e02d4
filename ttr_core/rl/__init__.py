"""Agents through PettingZoo: a fixed action encoding, observation vectors, an environment.

This package needs the ``rl`` extra (PettingZoo, Gymnasium and NumPy); without it, importing
the package raises [`MissingExtraError`][ttr_core.model.errors.MissingExtraError] (an
``ImportError``) naming the command that installs it. The rest of the library never imports
it. `ActionEncoding` numbers every action of a ruleset with a fixed integer code,
`ObservationEncoding` turns a player's view into a fixed-length vector, and [`env`][]
(wrapped as PettingZoo's classic games are) and `raw_env` play a game as a PettingZoo AEC
environment. [`TicketToRideEnv`][], registered with Gymnasium as ``ttr/TicketToRide-v0`` when
this package is imported, plays one seat against bots as a single-agent environment. The layouts
are explained in the documentation's page on agents.
"""

from __future__ import annotations

from ttr_core.model.errors import MissingExtraError
from ttr_core.model.extras import install_command

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:
    raise MissingExtraError(
        f"ttr_core.rl needs PettingZoo, Gymnasium and NumPy, and {exc.name or exc} cannot "
        f"be imported: {install_command('rl')}"
    ) from None

from ttr_core.rl.encoding import ActionEncoding, Section
from ttr_core.rl.env import env, placing_rewards, raw_env
from ttr_core.rl.gym_env import ENV_ID, TicketToRideEnv
from ttr_core.rl.observation import ObservationEncoding

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="ttr_core.rl.gym_env:TicketToRideEnv")

__all__ = [
    "ENV_ID",
    "ActionEncoding",
    "ObservationEncoding",
    "Section",
    "TicketToRideEnv",
    "env",
    "placing_rewards",
    "raw_env",
]
