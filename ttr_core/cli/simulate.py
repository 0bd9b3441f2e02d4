"""``ttr simulate``: play many games with bots and summarise the scores.

Results go to standard output and nothing else does: the same arguments print the same
text. A progress bar is shown on standard error only when it is a terminal and the run
is long. ``--save DIR`` also writes each game's record to ``DIR/<seed>.json``. Ctrl-C
stops the run: the games already finished are summarised, and the exit status is 130.
``--jobs N`` plays on N local processes and ``--scheduler ADDRESS`` on a Dask cluster,
with the same output. A game whose bot fails is reported on standard error with its
seed; the other games are played and summarised, and the exit status is 1. A cluster that
is lost, or has no workers for ``TTR_WORKER_TIMEOUT`` seconds, stops the run as Ctrl-C
does, with one error line and exit status 1; each worker lost meanwhile is one line on
standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from typing import Any

from rich.table import Table

from ttr_core.batch.parallel import ClusterError, GameFailure
from ttr_core.batch.runs import GameResult, Summary, play_games, summarize
from ttr_core.bots.registry import find_bot
from ttr_core.cli._common import (
    CommandError,
    UsageError,
    add_option_argument,
    console,
    counted,
    options_dict,
    positive_int,
    sentence,
)
from ttr_core.cli._runs import (
    INTERRUPTED,
    CtrlC,
    add_where_arguments,
    bot_names,
    check_scheduler,
    lost_worker_notices,
    prepare_directory,
    progress_bar,
    report_failure,
    where_to_play,
)
from ttr_core.ruleset.ruleset import Ruleset

HELP = "play games with bots and summarise the results"


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
    parser.add_argument(
        "--verbose-records",
        action="store_true",
        help="with --save, write records in the verbose form, every event written out "
        "(default: the compact form, a few kilobytes a game)",
    )
    add_where_arguments(parser)
    parser.set_defaults(run=run)


def _save_record(path: str, result: GameResult, *, verbose: bool = False) -> None:
    """Write the game's record to ``path/<seed>.json``, whole or not at all (via a rename)."""
    assert result.record is not None, "the run was asked to keep records"
    target = os.path.join(path, f"{result.seed}.json")
    temporary = os.path.join(path, f".{result.seed}.json.{os.getpid()}.tmp")
    try:
        try:
            with open(temporary, "w", encoding="utf-8") as f:
                f.write(result.record.to_json(compact=not verbose) + "\n")
            os.replace(temporary, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
    except OSError as exc:
        raise CommandError(f"--save: cannot write {target}: {exc.strerror or exc}") from None


def run(args: argparse.Namespace) -> int:
    """Play the games; print JSON lines or the summary table; stop cleanly on Ctrl-C or
    when the cluster fails."""
    bots = bot_names(args.bots)
    results: list[GameResult] = []
    failures: list[GameFailure] = []
    if args.verbose_records and args.save is None:
        raise UsageError("argument --verbose-records: it needs --save DIR")
    try:
        rs = Ruleset.build(args.edition, options_dict(args.options))
        lo, hi = rs.params.players
        if not lo <= args.players <= hi:
            raise UsageError(f"argument --players: {rs.id} is played by {lo} to {hi} players")
        for name in dict.fromkeys(bots):
            find_bot(name)
        check_scheduler(args.scheduler)
        if args.save is not None:
            prepare_directory(args.save, "--save")
        ctrl_c = CtrlC()
        with ctrl_c.installed(), lost_worker_notices():
            _play(args, rs, bots, results, failures, ctrl_c)
    except ClusterError:
        # The games finished before the cluster failed are summarised, as after Ctrl-C.
        if results and not args.json:
            _print_summary(args, rs, results, failures)
        raise
    except KeyboardInterrupt:
        if results and not args.json:
            _print_summary(args, rs, results, failures)
        sys.stdout.flush()
        done = len(results) + len(failures)
        sys.stderr.write(f"ttr: interrupted after {done} of {args.games} games\n")
        return INTERRUPTED
    if not args.json:
        _print_summary(args, rs, results, failures)
    return 1 if failures else 0


def _play(
    args: argparse.Namespace,
    rs: Ruleset,
    bots: list[str],
    results: list[GameResult],
    failures: list[GameFailure],
    ctrl_c: CtrlC,
) -> None:
    """Play the run, appending each finished game to ``results`` (and printing or saving
    it) and each failed one to ``failures`` (and reporting it), in game order."""
    with progress_bar(args.games, "simulating", shown=not args.json) as bar:
        outcomes = play_games(
            rs,
            players=args.players,
            games=args.games,
            seed=args.seed,
            bots=bots,
            records=args.save is not None,
            jobs=where_to_play(args, args.games),
            scheduler=args.scheduler,
            on_done=bar.on_done,
            on_start=bar.on_start,
        )
        with contextlib.closing(outcomes):
            for outcome in outcomes:
                with ctrl_c.held():
                    if isinstance(outcome, GameFailure):
                        report_failure(outcome)
                        failures.append(outcome)
                        continue
                    if args.save is not None:
                        _save_record(args.save, outcome, verbose=args.verbose_records)
                    if args.json:
                        line = json.dumps(outcome.to_json(), ensure_ascii=False)
                        sys.stdout.write(line + "\n")
                        sys.stdout.flush()
                    results.append(outcome)


def _print_summary(
    args: argparse.Namespace,
    rs: Ruleset,
    results: list[GameResult],
    failures: list[GameFailure],
) -> None:
    """The seats' table (and the bots' table when several bots played), then a hint."""
    summary = summarize(results)
    plural = "game" if summary.games == 1 else "games"
    caption = f"mean game length: {summary.mean_turns:.1f} turns; a tie is a win for each tied seat"
    if failures:
        caption += f"; {counted(len(failures), 'game')} failed (reported on standard error)"
    seats = Table(
        title=f"{rs.id}: {summary.games} {plural}, {args.players} players, seed {args.seed}",
        caption=caption,
    )
    seats.add_column("Seat")
    seats.add_column("Bot")
    for column in ("Wins", "Win share", "Mean score", "Min", "Max"):
        seats.add_column(column, justify="right")
    for seat in summary.seats:
        seats.add_row(
            seat.name,
            seat.bot,
            str(seat.games_won),
            f"{100 * seat.win_share:.1f}%",
            f"{seat.mean:.1f}",
            str(seat.min),
            str(seat.max),
        )
    out = console()
    out.print(seats)
    if len(summary.bots) > 1:
        out.print(_bots_table(summary))
    out.print(_hint(args, rs, summary), highlight=False)


def _bots_table(summary: Summary) -> Table:
    """One row per bot, over all the seats it played."""
    table = Table(title="by bot", caption="a game won by seats of two bots counts for both")
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
    return table


def _hint(args: argparse.Namespace, rs: Ruleset, summary: Summary) -> str:
    """One line on what to try next: other bots for a run of one bot, a study after that."""
    if len(summary.bots) == 1:
        return f"Next: ttr simulate --bots greedy,random (two bots); ttr study {rs.id} (a report)"
    return f"Next: ttr study {rs.id} (a balance report); ttr play {rs.id} (play them yourself)"
