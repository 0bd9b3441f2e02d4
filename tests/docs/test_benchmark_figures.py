"""``benchmarks/figures.py``, the one command of the performance page: it prints a row for
every target, measured or saying why not, and reads what the benchmarks print."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]

TARGETS = (
    "simulator, compiled, USA 4p, µs/decision vs the peer (time)",
    "simulator, pure, USA 4p, µs/decision vs the peer (time)",
    "simulator, compiled, Nordic 3p ÷ USA 4p, µs/decision (time)",
    "Game ÷ simulator, pure, USA 4p, µs/decision (time)",
    "Game ÷ simulator, compiled, USA 4p, µs/decision (time)",
    "simulator, compiled, USA 4p, instructions per decision",
    "simulator, compiled, USA 4p, instructions vs the peer",
    "simulator, pure, USA 4p, instructions vs the peer",
    "simulator, compiled, Nordic 3p ÷ USA 4p, instructions",
    "Game ÷ simulator, pure, USA 4p, instructions",
    "Game ÷ simulator, compiled, USA 4p, instructions",
    "run --bots random ÷ simulator, pure, USA 4p, games/s",
    "run --bots greedy, pure, USA 4p, games/s vs 2a6e9da",
    "run --bots random ÷ simulator, compiled, USA 4p, games/s",
    "run --bots greedy, compiled, USA 4p, games/s vs 2a6e9da",
    "compact record of a random USA 4p game, mean size",
    "mcts vs greedy, pure, USA 2p, s per game vs 2a6e9da (same games, playouts)",
    "mcts win rate vs greedy, pure, USA 2p",
    "--jobs 2 ÷ --jobs 1, pure, greedy USA 4p, games/s",
)
"""The row of each target of the speed work, as named with no compiled build given."""

SCORED = (
    [f"usa {n}p" for n in (2, 3, 4, 5)]
    + [f"europe {n}p" for n in (2, 3, 4, 5)]
    + [f"india {n}p" for n in (2, 3, 4)]
    + [f"switzerland {n}p" for n in (2, 3)]
    + [f"nordic {n}p" for n in (2, 3)]
)


def figures() -> ModuleType:
    spec = importlib.util.spec_from_file_location("figures", ROOT / "benchmarks" / "figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["figures"] = module  # attrs classes look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_quick_run_prints_every_target_and_says_why_one_is_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without a compiled build, a peer, the older version or callgrind, every target still
    has its row; the ones that need what is missing say so, the others are measured."""
    figures().main(["--quick", "--no-callgrind", "--json", "--python", sys.executable])
    rows = {row["what"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    scored = [f"scoring, pure, {where}, slowest game" for where in SCORED]
    assert set(TARGETS) | set(scored) <= set(rows)
    strength = "mcts win rate vs greedy, pure, USA 2p"
    for what in TARGETS:
        if what == strength:
            continue
        needs = ("compiled", "peer", "2a6e9da", "instructions")
        row = rows[what]
        if any(word in what for word in needs):
            assert row["why"] and row["met"] is None, what
        else:
            assert not row["why"] and row["met"] is not None, what
    assert rows[strength]["why"].startswith("2 games played")
    assert all(rows[what]["measured"].endswith(" ms") for what in scored)
    assert rows["scoring, pure, against 2a6e9da"]["why"].startswith("no 2a6e9da build")


def test_callgrind_total_is_read_from_the_summary_line(tmp_path: Path) -> None:
    """The instruction count is the number on the out file's ``summary:`` line."""
    out = tmp_path / "callgrind.out"
    out.write_text("events: Ir\nfl=(1) x.c\nfn=(1) f\n3 7\nsummary: 123456\n")
    assert figures().instructions(out) == 123456
    out.write_text("events: Ir\n")
    with pytest.raises(ValueError, match="no summary line"):
        figures().instructions(out)


def test_mcts_summary_gives_seconds_win_rate_and_games() -> None:
    """The search bot's line is read for its seconds per game, win rate and game count."""
    line = (
        "mcts (playouts=50, c=0.5) against greedy, usa, 2 players, 100 games, seats "
        "alternating: won 78, tied 2, lost 20; win rate 79.0% (95% interval 70.0% to 85.9%); "
        "mean margin +20.1 points; 30.5 s per game on one core"
    )
    assert figures().mcts_line(["noise", line]) == (30.5, 0.79, 100)
    later = line + "; 812.4 playouts per CPU second"
    assert figures().mcts_line([later]) == (30.5, 0.79, 100)
    assert figures().mcts_line(["win rate 50.0% but no time"]) is None


def test_older_layout_aliases_nothing_on_the_current_layout() -> None:
    """Every current module name that ``older_layout.py`` maps to an old one exists, so on
    this version of the engine it leaves the imports alone."""
    spec = importlib.util.spec_from_file_location(
        "older_layout", ROOT / "benchmarks" / "older_layout.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.alias_moved_modules() == []


def test_ratio_rows_hold_the_ratio_to_its_target() -> None:
    """A ratio below an "at least" target is not met; one at most its bound is."""
    module = figures()
    slow = module.ratio_row(
        "x", 20.0, 100.0, "us", (10, True), against_name="peer", ratio=module.cost, why=""
    )
    assert slow.ratio == 5.0 and slow.met is False
    within = module.ratio_row(
        "y", 12.0, 10.0, "us", (1.3, False), against_name="sim", ratio=module.share, why=""
    )
    assert within.ratio == pytest.approx(1.2) and within.met is True
    absent = module.ratio_row(
        "z", None, 10.0, "us", (1.3, False), against_name="sim", ratio=module.share, why="no"
    )
    assert absent.met is None and absent.why == "no"
