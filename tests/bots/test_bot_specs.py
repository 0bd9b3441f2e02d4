"""Bot specs: a bot name with parameters, ``mcts:playouts=200:c=1.4``, in the registry and
on the command line."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from ttr_core import Ruleset
from ttr_core.bots import BaseBot, GreedyBot, find_bot, make_bot
from ttr_core.bots.mcts import MctsBot
from ttr_core.bots.registry import parse_spec
from ttr_core.cli import main
from ttr_core.model.errors import BotError


class Tuned(BaseBot):
    """A bot with one parameter of each kind the registry converts."""

    def __init__(
        self,
        ruleset: Ruleset,
        seat: int,
        seed: int,
        *,
        depth: int = 1,
        ratio: float = 0.5,
        careful: bool = False,
        style: str = "plain",
    ) -> None:
        super().__init__(ruleset, seat, seed)
        self.depth, self.ratio, self.careful, self.style = depth, ratio, careful, style

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


HERE = f"{__name__}:Tuned"


@pytest.mark.parametrize(
    ("spec", "name", "params"),
    [
        ("greedy", "greedy", {}),
        ("mcts:playouts=200", "mcts", {"playouts": "200"}),
        ("mcts:playouts=200:c=1.4", "mcts", {"playouts": "200", "c": "1.4"}),
        (" mcts : playouts = 200 ", "mcts", {"playouts": "200"}),
        ("my.bots:Clever", "my.bots:Clever", {}),
        ("my.bots:Clever:depth=3", "my.bots:Clever", {"depth": "3"}),
        ("my.bots:Outer.Inner:depth=3:x=", "my.bots:Outer.Inner", {"depth": "3", "x": ""}),
    ],
)
def test_a_spec_is_a_name_then_parameters(spec: str, name: str, params: dict[str, str]) -> None:
    """A part with '=' is a parameter; the parts before the first one are the name, so
    the colon of module:Class stays in it."""
    assert parse_spec(spec) == (name, params)


def test_parameters_reach_the_bot_as_keyword_arguments(usa: Ruleset) -> None:
    factory = find_bot(f"{HERE}:depth=3:ratio=0.25:careful=yes:style=bold")
    assert isinstance(factory, functools.partial) and factory.func is Tuned
    bot = factory(usa, 1, 7)
    assert isinstance(bot, Tuned)
    assert (bot.depth, bot.ratio, bot.careful, bot.style) == (3, 0.25, True, "bold")
    assert (bot.seat, bot.seed) == (1, 7)
    mcts = make_bot("mcts:playouts=12:c=1.4", usa, 0, 1)
    assert isinstance(mcts, MctsBot) and (mcts.playouts, mcts.c) == (12, 1.4)


def test_names_without_parameters_find_the_class_itself() -> None:
    assert find_bot("greedy") is GreedyBot
    assert find_bot(HERE) is Tuned


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:playouts", "expected KEY=VALUE parameters after the name, got 'playouts'"),
        ("mcts:playouts=2:fast", "expected KEY=VALUE parameters after the name, got 'fast'"),
        ("mcts:=2", "expected KEY=VALUE"),
        ("mcts:play outs=2", "expected KEY=VALUE"),
        ("mcts:playouts=1:playouts=2", "parameter 'playouts' is given twice"),
        ("mcts:depth=3", "MctsBot has no parameter 'depth' (parameters: playouts, c)"),
        ("mcts:playouts=many", "parameter 'playouts' must be an integer, not 'many'"),
        ("mcts:c=fast", "parameter 'c' must be a number, not 'fast'"),
        ("mcts:c=nan", "parameter 'c' must be a number, not 'nan'"),
        (f"{HERE}:careful=maybe", "parameter 'careful' must be true or false, not 'maybe'"),
        ("greedy:depth=1", "GreedyBot has no parameter 'depth' (parameters: none)"),
        ("playouts=3", "the bot name is missing"),
        ("nobody:x=1", "unknown bot 'nobody'"),
    ],
)
def test_a_bad_spec_is_one_clear_error(spec: str, message: str) -> None:
    with pytest.raises(BotError) as caught:
        find_bot(spec)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_value_the_bot_refuses_is_a_bot_error(usa: Ruleset) -> None:
    with pytest.raises(BotError, match="playouts must be at least 1, not 0"):
        make_bot("mcts:playouts=0", usa, 0, 1)


def test_simulate_takes_specs(capsys: Any) -> None:
    code = main(
        ["simulate", "--games", "1", "--players", "2", "--bots", "mcts:playouts=1,greedy", "--json"]
    )
    assert code == 0
    assert '"bot": "mcts:playouts=1"' in capsys.readouterr().out


def test_simulate_reports_a_bad_spec_in_one_line(capsys: Any) -> None:
    code = main(["simulate", "--games", "1", "--bots", "mcts:playouts=lots,greedy"])
    err = capsys.readouterr().err
    assert code == 1
    assert err == (
        "ttr: error: bot 'mcts:playouts=lots': parameter 'playouts' must be an integer, "
        "not 'lots'\n"
    )
