"""``ttr study``: a balance report of an edition, from many games between bots.

By default the four play styles play at every player count the edition allows, the games
shared evenly between the counts (the remainder to the smaller counts), and the report's
performance profile says which style wins at each count.

Writes ``DIR/report.json`` (the same for the same arguments, wherever the games ran),
``DIR/report.html`` (one page that opens offline), ``DIR/map.svg`` and the other figures
as SVG files, then prints the main findings. The games run on every local core by
default, on ``--jobs N`` processes or on a Dask cluster (``--scheduler``). A game whose bot
fails is reported on standard error with its seed and left out of the report, and the exit
status is 1. Ctrl-C stops the study without writing anything (exit status 130), and so
does a cluster that is lost or has no workers for ``TTR_WORKER_TIMEOUT`` seconds (one
error line, exit status 1); each worker lost meanwhile is one line on standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Mapping
from typing import Any

from ttr_core.batch.parallel import GameFailure
from ttr_core.bots.registry import PLAY_STYLES, find_bot
from ttr_core.cli._common import (
    CommandError,
    UsageError,
    add_option_argument,
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
from ttr_core.study import GameStats, build_report, run_study, write_report
from ttr_core.study.plots import STUDY_INSTALL, check_plot_support

HELP = "play many games between bots and write a balance report with figures"


def register(sub: Any) -> None:
    """Add the ``study`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "study",
        help=HELP,
        description=sentence(HELP)
        + ": the performance profile (each bot's win rate at each player count), win rates "
        "by seat and by bot, scores, game length, how often each route is "
        "claimed and each ticket completed, city desirability, bonuses, stations, tunnels "
        "and ferries, and the games that met a failure state. Needs matplotlib "
        f"({STUDY_INSTALL}).",
    )
    parser.add_argument("edition", metavar="EDITION", help="edition id or alias")
    parser.add_argument(
        "--players",
        type=positive_int,
        help="players per game (default: every count the edition allows, the games shared "
        "evenly between them, the remainder to the smaller counts)",
    )
    parser.add_argument(
        "--bots",
        default=",".join(PLAY_STYLES),
        help="comma-separated bot names, in turn order for the first game; they move one "
        "seat along each game, and with more bots than seats every combination of them "
        f"plays in turn (default: the play styles, {','.join(PLAY_STYLES)})",
    )
    parser.add_argument(
        "--games", type=positive_int, default=1000, help="games to play (default: 1000)"
    )
    parser.add_argument("--out", metavar="DIR", required=True, help="where to write the report")
    parser.add_argument("--seed", type=int, default=1, help="seed of the study (default: 1)")
    add_option_argument(parser)
    add_where_arguments(parser)
    parser.set_defaults(run=run)


def _players(rs: Ruleset, given: int | None) -> int | None:
    """The ``--players`` given, checked against the edition (None: every count)."""
    lo, hi = rs.params.players
    if given is not None and not lo <= given <= hi:
        raise UsageError(f"argument --players: {rs.id} is played by {lo} to {hi} players")
    return given


def run(args: argparse.Namespace) -> int:
    """Play the games, write the report and print its main findings."""
    bots = bot_names(args.bots)
    check_plot_support()
    check_scheduler(args.scheduler)
    rs = Ruleset.build(args.edition, options_dict(args.options))
    players = _players(rs, args.players)
    for name in dict.fromkeys(bots):
        find_bot(name)
    prepare_directory(args.out, "--out")
    jobs = where_to_play(args, args.games)
    outcomes: list[GameStats | GameFailure] = []
    try:
        ctrl_c = CtrlC()
        with (
            ctrl_c.installed(),
            lost_worker_notices(),
            progress_bar(args.games, "studying") as bar,
        ):
            played = run_study(
                rs,
                players=players,
                bots=bots,
                games=args.games,
                seed=args.seed,
                jobs=jobs,
                scheduler=args.scheduler,
                on_done=bar.on_done,
                on_start=bar.on_start,
            )
            with contextlib.closing(played):
                for outcome in played:
                    with ctrl_c.held():
                        if isinstance(outcome, GameFailure):
                            report_failure(outcome)
                        outcomes.append(outcome)
    except KeyboardInterrupt:
        sys.stderr.write(f"ttr: interrupted after {len(outcomes)} of {args.games} games\n")
        return INTERRUPTED
    report = build_report(rs, players=players, bots=bots, seed=args.seed, outcomes=outcomes)
    try:
        written = write_report(rs, report, args.out)
    except OSError as exc:
        raise CommandError(f"--out: cannot write the report: {exc.strerror or exc}") from None
    _print_findings(report, [str(p) for p in written])
    failed = len(report["failed_games"])
    return 1 if failed else 0


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _print_findings(report: Mapping[str, Any], written: list[str]) -> None:
    """The main findings, in a few lines."""
    study = report["study"]
    least = "; ".join(
        f"{r['cities'][0]}–{r['cities'][1]} {_pct(r['rate'])}" for r in report["least_claimed"]
    )
    cities = "; ".join(f"{c['city']} {_pct(c['share'])}" for c in report["cities"][:5])
    states = report["failure_states"]
    failed = study["games"] - study["games_measured"]
    counts = [c["players"] for c in study["player_counts"]]
    players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    lines = [
        f"{study['edition']}: {study['games_measured']} games"
        + (f" ({failed} failed)" if failed else "")
        + f", {players} players, "
        f"bots {','.join(study['bots'])}, seed {study['seed']}",
        *_seat_findings(report["seats"], several=len(counts) > 1),
        *_profile_findings(report["profile"]),
        f"least-claimed routes: {least}",
        f"most desirable cities: {cities}",
        f"games in which a player had no legal move: {states['no_legal_move']['games']}, "
        f"ended in deadlock: {states['deadlock']['games']}, "
        f"the deck and discard pile ran out: {states['deck_exhausted']['games']}, "
        f"the flush limit was reached: {states['flush_limit']['games']}",
        f"report: {written[1]} (data: {written[0]}, {len(written) - 2} figures)",
    ]
    sys.stdout.write("\n".join(lines) + "\n")


def _seat_findings(seats: Mapping[str, Any], *, several: bool) -> list[str]:
    """The start player's advantage, per player count when there are several."""
    lines = []
    for count in seats["by_players"]:
        first = count["first_player"]
        verdict = "significant" if first["significant"] else "not significant"
        at = f" at {count['players']} players" if several else ""
        lines.append(
            f"start player won {_pct(first['win_rate'])} of the games{at}, "
            f"{_pct(first['expected'])} expected without a seat advantage "
            f"(p = {first['p_value']:.3f}, {verdict})"
        )
    return lines


def _profile_findings(profile: list[Mapping[str, Any]]) -> list[str]:
    """Which bot won most at each player count, when several bots played."""
    lines = []
    for count in profile:
        rows = [b for b in count["bots"] if b["seats"]]
        if len(rows) < 2:
            continue
        rates = ", ".join(f"{b['bot']} {_pct(b['rate'])}" for b in rows)
        lines.append(f"win rates at {count['players']} players: {rates}; {count['leader']} leads")
    return lines
