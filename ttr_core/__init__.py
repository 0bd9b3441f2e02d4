"""ttr: the rules of Ticket to Ride as a library.

The public surface is re-exported here; the modules behind it are documented in the
API reference. Quick start::

    import ttr_core as ttr

    game = ttr.Game.new("usa", players=4, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    print(game.scores().winners)
"""

from __future__ import annotations

from ttr_core.bots.play_out import play_out
from ttr_core.formats.serialize import view_from_json, view_to_json
from ttr_core.hidden.determinize import sample_state
from ttr_core.model.actions import (
    Action,
    BuildStation,
    ChooseCard,
    ClaimRoute,
    ClaimWithGroups,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.model.cards import CARD_NAMES, COLOR_NAMES, LOCO
from ttr_core.model.errors import (
    ActionCodeError,
    BotError,
    IllegalActionError,
    JsonFormatError,
    LongestPathError,
    MapDataError,
    MissingExtraError,
    OptionError,
    PositionError,
    RecordError,
    RenderError,
    SetupError,
    TtrError,
    UnknownEditionError,
    UnknownIdError,
    ViewError,
)
from ttr_core.model.mapdata import MapData, Parameters, load_map_data
from ttr_core.model.native import is_compiled
from ttr_core.model.state import GameState, Phase, PlayerState
from ttr_core.play import simulator as _simulator_module
from ttr_core.play.functional import apply, new_game
from ttr_core.play.game import Game
from ttr_core.play.legal import LegalActions, legal_actions
from ttr_core.play.records import GameRecord
from ttr_core.play.simulator import Simulator
from ttr_core.rules.card_groups import claim_actions
from ttr_core.rules.scoring import Scoresheet, score_game, score_position
from ttr_core.rules.views import PlayerView, view_of
from ttr_core.ruleset.editions import (
    EditionInfo,
    InstalledEdition,
    OptionSpec,
    find_edition,
    installed_editions,
    load_packaged_map,
)
from ttr_core.ruleset.hookspecs import hookimpl
from ttr_core.ruleset.ruleset import Ruleset

__version__ = "0.1.0"

compiled: bool = is_compiled(_simulator_module.__file__ or "")
"""True when the simulator and its mechanics run as mypyc-compiled extension modules
(a build made with ``TTR_COMPILE=1``); False for pure Python. Only speed differs."""


def ruleset_for(edition: str, options: dict[str, object] | None = None) -> Ruleset:
    """Build the ruleset of an installed edition (by id or alias) with options."""
    return Ruleset.build(edition, options)


__all__ = [
    "CARD_NAMES",
    "COLOR_NAMES",
    "LOCO",
    "Action",
    "ActionCodeError",
    "BotError",
    "BuildStation",
    "ChooseCard",
    "ClaimRoute",
    "ClaimWithGroups",
    "DrawBlind",
    "DrawTickets",
    "EditionInfo",
    "Game",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "InstalledEdition",
    "JsonFormatError",
    "KeepTickets",
    "LegalActions",
    "LongestPathError",
    "MapData",
    "MapDataError",
    "MissingExtraError",
    "OptionError",
    "OptionSpec",
    "Parameters",
    "Pass",
    "PayTunnel",
    "Phase",
    "PlayerState",
    "PlayerView",
    "PositionError",
    "RecordError",
    "RenderError",
    "Ruleset",
    "Scoresheet",
    "SetupError",
    "Simulator",
    "TakeFaceUp",
    "TtrError",
    "UnknownEditionError",
    "UnknownIdError",
    "ViewError",
    "WithdrawTunnel",
    "__version__",
    "apply",
    "claim_actions",
    "compiled",
    "find_edition",
    "hookimpl",
    "installed_editions",
    "legal_actions",
    "load_map_data",
    "load_packaged_map",
    "new_game",
    "play_out",
    "ruleset_for",
    "sample_state",
    "score_game",
    "score_position",
    "view_from_json",
    "view_of",
    "view_to_json",
]
