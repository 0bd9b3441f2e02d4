"""``ttr simulate``: play many games with bots and summarise the scores.

Results go to standard output and nothing else does: the same arguments print the same
text. A progress bar is shown on standard error only when it is a terminal and the run
is long. ``--save DIR`` also writes each game's record to ``DIR/<seed>.json``. Ctrl-C
stops the run: the games already finished are summarised, and the exit status is 130.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ttr_core.bots.registry import find_bot
from ttr_core.cli._common import (
    CommandError,
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
INTERRUPTED = 130
"""Exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it)."""


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
    parser.add_argument(
        "--save",
        metavar="DIR",
        help="also write each game's record to DIR/SEED.json (ttr replay reads it); "
        "DIR is created if missing",
    )
    parser.set_defaults(run=run)


def _bot_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise UsageError(f"argument --bots: expected comma-separated bot names, got {text!r}")
    return names


def _prepare_directory(path: str) -> None:
    """Create the ``--save`` directory if needed and check that files can be written there.

    :raises CommandError: it is not a directory, cannot be created or is not writable.
    """
    if os.path.exists(path) and not os.path.isdir(path):
        raise CommandError(f"--save: {path} exists and is not a directory")
    try:
        os.makedirs(path, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".ttr-", suffix=".tmp")
        os.close(fd)
        os.remove(probe)
    except OSError as exc:
        raise CommandError(f"--save: cannot write to {path}: {exc.strerror or exc}") from None


def _save_record(path: str, result: GameResult) -> None:
    """Write the game's record to ``path/<seed>.json``, whole or not at all (via a rename)."""
    assert result.record is not None, "the run was asked to keep records"
    target = os.path.join(path, f"{result.seed}.json")
    temporary = os.path.join(path, f".{result.seed}.json.{os.getpid()}.tmp")
    try:
        try:
            with open(temporary, "w", encoding="utf-8") as f:
                f.write(result.record.to_json() + "\n")
            os.replace(temporary, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
    except OSError as exc:
        raise CommandError(f"--save: cannot write {target}: {exc.strerror or exc}") from None


class _CtrlC:
    """Ctrl-C as ``KeyboardInterrupt``, held back while a finished game is reported.

    Saving, printing and counting a game happen together or not at all, so the count in
    ``interrupted after K of N games`` is exactly the games output.
    """

    def __init__(self) -> None:
        self.holding = False
        self.pending = False

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """Handle SIGINT during the block, if Python's own handler is in place (it is not
        when SIGINT is ignored, or in a thread other than the main one)."""
        if (
            threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        ):
            yield
            return
        signal.signal(signal.SIGINT, self._handle)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Hold Ctrl-C back during the block; raise ``KeyboardInterrupt`` after it if pressed."""
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    """Play the games; print JSON lines or the summary table; stop cleanly on Ctrl-C."""
    bots = _bot_names(args.bots)
    results: list[GameResult] = []
    try:
        rs = Ruleset.build(args.edition, options_dict(args.options))
        lo, hi = rs.params.players
        if not lo <= args.players <= hi:
            raise UsageError(f"argument --players: {rs.id} is played by {lo} to {hi} players")
        for name in dict.fromkeys(bots):
            find_bot(name)
        if args.save is not None:
            _prepare_directory(args.save)
        ctrl_c = _CtrlC()
        with ctrl_c.installed():
            _play(args, rs, bots, results, ctrl_c)
    except KeyboardInterrupt:
        if results and not args.json:
            _print_summary(args, rs, results)
        sys.stdout.flush()
        sys.stderr.write(f"ttr: interrupted after {len(results)} of {args.games} games\n")
        return INTERRUPTED
    if not args.json:
        _print_summary(args, rs, results)
    return 0


def _play(
    args: argparse.Namespace,
    rs: Ruleset,
    bots: list[str],
    results: list[GameResult],
    ctrl_c: _CtrlC,
) -> None:
    """Play the run, appending each finished game to ``results`` (and printing or saving it)."""
    with contextlib.ExitStack() as stack:
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
            records=args.save is not None,
        ):
            with ctrl_c.held():
                if args.save is not None:
                    _save_record(args.save, result)
                if args.json:
                    sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
                    sys.stdout.flush()
                results.append(result)


def _print_summary(args: argparse.Namespace, rs: Ruleset, results: list[GameResult]) -> None:
    summary = summarize(results)
    plural = "game" if summary.games == 1 else "games"
    table = Table(
        title=f"{rs.id}: {summary.games} {plural}, {args.players} players, seed {args.seed}",
        caption=f"mean game length: {summary.mean_turns:.1f} turns",
    )
    table.add_column("Bot")
    for column in ("Seats", "Games won", "Win share", "Mean score", "Min", "Max"):
        table.add_column(column, justify="right")
    for b in summary.bots:
        table.add_row(
            b.bot,
            str(b.seats),
            str(b.games_won),
            f"{100 * b.win_share:.1f}%",
            f"{b.mean:.1f}",
            str(b.min),
            str(b.max),
        )
    console().print(table)
