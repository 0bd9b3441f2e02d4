"""Bots that play ttr games: a random baseline, a greedy ticket-follower, a search bot,
and the registry.

A bot is any class built as ``Bot(ruleset, seat, seed)`` with a ``choose(view, legal)``
method (see [`Bot`][]); [`find_bot`][] looks one up by its short name in the
``ttr.bots`` entry points or by ``module:Class``, with parameters (``mcts:playouts=200``).
"""

from __future__ import annotations

from ttr_core.bots.base import BaseBot, Bot, BotFactory
from ttr_core.bots.greedy import GreedyBot
from ttr_core.bots.mcts import MctsBot
from ttr_core.bots.random_bot import RandomBot
from ttr_core.bots.registry import ENTRY_POINT_GROUP, find_bot, installed_bots, make_bot

__all__ = [
    "ENTRY_POINT_GROUP",
    "BaseBot",
    "Bot",
    "BotFactory",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "find_bot",
    "installed_bots",
    "make_bot",
]
