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

from ttr_core.actions import (
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
from ttr_core.cards import CARD_NAMES, COLOR_NAMES, LOCO
from ttr_core.edition import (
    EditionInfo,
    InstalledEdition,
    OptionSpec,
    find_edition,
    installed_editions,
    load_packaged_map,
)
from ttr_core.engine import apply, new_game
from ttr_core.errors import (
    BotError,
    IllegalActionError,
    JsonFormatError,
    MapDataError,
    OptionError,
    PositionError,
    RecordError,
    SetupError,
    TtrError,
    UnknownEditionError,
)
from ttr_core.game import Game, GameRecord
from ttr_core.groups import claim_actions
from ttr_core.hookspecs import hookimpl
from ttr_core.legal import LegalActions, legal_actions
from ttr_core.mapdata import MapData, Parameters, load_map_data
from ttr_core.ruleset import Ruleset
from ttr_core.scoring import Scoresheet, score_game, score_position
from ttr_core.serialize import view_from_json, view_to_json
from ttr_core.simulator import Simulator
from ttr_core.state import GameState, Phase, PlayerState
from ttr_core.views import PlayerView, view_of

__version__ = "0.1.0"


def ruleset_for(edition: str, options: dict[str, object] | None = None) -> Ruleset:
    """Build the ruleset of an installed edition (by id or alias) with options."""
    return Ruleset.build(edition, options)


__all__ = [
    "CARD_NAMES",
    "COLOR_NAMES",
    "LOCO",
    "Action",
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
    "MapData",
    "MapDataError",
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
    "Ruleset",
    "Scoresheet",
    "SetupError",
    "Simulator",
    "TakeFaceUp",
    "TtrError",
    "UnknownEditionError",
    "WithdrawTunnel",
    "__version__",
    "apply",
    "claim_actions",
    "find_edition",
    "hookimpl",
    "installed_editions",
    "legal_actions",
    "load_map_data",
    "load_packaged_map",
    "new_game",
    "ruleset_for",
    "score_game",
    "score_position",
    "view_from_json",
    "view_of",
    "view_to_json",
]
