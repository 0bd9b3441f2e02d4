"""Bots that play ttr games: a random baseline, a greedy ticket-follower, a search bot, the
four play styles of the playtesting studies (``tickets``, ``long-routes``, ``planner``,
``lookahead``), and the registry.

A bot is any class built as ``Bot(ruleset, seat, seed)`` with a ``choose(view, legal)``
method (see [`Bot`][]; a bot that can decide from the number of legal actions alone may
also have the faster [`CountingBot`][] method); [`find_bot`][] looks one up by its short name in the
``ttr.bots`` entry points or by ``module:Class``, with parameters (``mcts:playouts=200``).
"""

from __future__ import annotations

from ttr_core.bots.base import BaseBot, Bot, BotFactory, CountingBot
from ttr_core.bots.greedy import GreedyBot
from ttr_core.bots.long_routes import LongRoutesBot
from ttr_core.bots.lookahead import LookaheadBot
from ttr_core.bots.mcts import MctsBot
from ttr_core.bots.planner import PlannerBot
from ttr_core.bots.random_bot import RandomBot
from ttr_core.bots.registry import (
    ENTRY_POINT_GROUP,
    PLAY_STYLES,
    find_bot,
    installed_bots,
    make_bot,
)
from ttr_core.bots.tickets_bot import TicketsBot

__all__ = [
    "ENTRY_POINT_GROUP",
    "PLAY_STYLES",
    "BaseBot",
    "Bot",
    "BotFactory",
    "CountingBot",
    "GreedyBot",
    "LongRoutesBot",
    "LookaheadBot",
    "MctsBot",
    "PlannerBot",
    "RandomBot",
    "TicketsBot",
    "find_bot",
    "installed_bots",
    "make_bot",
]
