"""``ttr simulate``: play many games with bots and summarise the scores.

Results go to standard output and nothing else does: the same arguments print the same
text. A progress bar is shown on standard error only when it is a terminal and the run
is long.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ttr_core.bots.registry import find_bot
from ttr_core.cli._common import (
    UsageError,
    add_option_argument,
    console,
    options_dict,
    positive_int,
    sentence,
)
from ttr_core.ruleset import Ruleset
from ttr_core.simulate import GameResult, simulate, summarize

HELP = "play games with bots and summarise the results"
PROGRESS_MIN_GAMES = 20
"""Runs with fewer games than this never show a progress bar."""


def register(sub: Any) -> None:
    """Add the ``simulate`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "simulate",
        help=HELP,
        description=sentence(HELP)
        + ". Game i of a run with seed S is played with seed S for i = 0 and "
        "derive_seed(S, i) after that; --games 1 --seed G replays the game whose seed "
        "--json printed as G.",
    )
    parser.add_argument("--edition", default="usa", help="edition id or alias (default: usa)")
    parser.add_argument(
        "--players", type=positive_int, default=4, help="players per game (default: 4)"
    )
    parser.add_argument(
        "--games", type=positive_int, default=100, help="games to play (default: 100)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (default: 1)")
    parser.add_argument(
        "--bots",
        default="random",
        help="comma-separated bot names cycled over the seats, e.g. greedy,random "
        "(default: random); a name is a registered bot or module:Class",
    )
    add_option_argument(parser)
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object per game instead of the table"
    )
    parser.set_defaults(run=run)


def _bot_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise UsageError(f"argument --bots: expected comma-separated bot names, got {text!r}")
    return names


def run(args: argparse.Namespace) -> int:
    """Play the games; print JSON lines or the summary table."""
    bots = _bot_names(args.bots)
    rs = Ruleset.build(args.edition, options_dict(args.options))
    lo, hi = rs.params.players
    if not lo <= args.players <= hi:
        raise UsageError(f"argument --players: {rs.id} is played by {lo} to {hi} players")
    for name in dict.fromkeys(bots):
        find_bot(name)
    results: list[GameResult] = []
    with ExitStack() as stack:
        advance = None
        if sys.stderr.isatty() and args.games >= PROGRESS_MIN_GAMES:
            progress = stack.enter_context(
                Progress(
                    TextColumn("simulating"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeRemainingColumn(),
                    console=Console(stderr=True),
                    transient=True,
                )
            )
            task = progress.add_task("games", total=args.games)

            def advance(_: GameResult) -> None:
                progress.advance(task)

        for result in simulate(
            rs,
            players=args.players,
            games=args.games,
            seed=args.seed,
            bots=bots,
            on_game=advance,
        ):
            if args.json:
                sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
                sys.stdout.flush()
            else:
                results.append(result)
    if not args.json:
        _print_summary(args, rs, results)
    return 0


def _print_summary(args: argparse.Namespace, rs: Ruleset, results: list[GameResult]) -> None:
    summary = summarize(results)
    plural = "game" if summary.games == 1 else "games"
    table = Table(
        title=f"{rs.id}: {summary.games} {plural}, {args.players} players, seed {args.seed}",
        caption=f"mean game length: {summary.mean_turns:.1f} turns",
    )
    table.add_column("Bot")
    for column in ("Seats", "Mean score", "Min", "Max", "Win share"):
        table.add_column(column, justify="right")
    for b in summary.bots:
        table.add_row(
            b.bot,
            str(b.seats),
            f"{b.mean:.1f}",
            str(b.min),
            str(b.max),
            f"{100 * b.win_share:.1f}%",
        )
    console().print(table)
