"""``ttr arena``: rate bots from paired games, and fit the ratings again from a file.

Each deal (block) is played with every seating of the bots; the ratings are Bradley–Terry
on the pairwise results of the seats, on an Elo scale, with bootstrap intervals over the
blocks (see ``ttr_core.arena``). ``--db PATH`` keeps every game in an SQLite file: a run
with the same file plays only the games not yet in it, and ``ttr arena refit --db PATH``
prints the ratings from the file without playing. ``--sprt ELO0,ELO1`` stops at the end of
the first block where the test between the first two bots decides. The output is the same
wherever the games ran (``--jobs``, ``--scheduler``). A game whose bot fails is reported
with its seed, its block is not rated, and the exit status is 1; Ctrl-C prints the ratings
of the blocks finished and exits with status 130.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Iterator
from typing import Any

from rich.table import Table

from ttr_core.arena.games import ArenaGame
from ttr_core.arena.ratings import BOOTSTRAP
from ttr_core.arena.run import (
    ENGINE,
    MAX_SEED,
    ArenaReport,
    Standings,
    arena_settings,
    check_stored,
    play_arena,
    rate_games,
    report,
)
from ttr_core.arena.schedule import blocks_for, seatings
from ttr_core.arena.sequential import Sprt
from ttr_core.arena.store import ArenaSettings, ArenaStore, ArenaStoreError
from ttr_core.batch.parallel import ClusterError, GameFailure
from ttr_core.cli._common import (
    CommandError,
    UsageError,
    add_option_argument,
    console,
    counted,
    options_dict,
    positive_int,
    print_json,
    sentence,
)
from ttr_core.cli._runs import (
    INTERRUPTED,
    CtrlC,
    add_where_arguments,
    bot_names,
    check_scheduler,
    lost_worker_notices,
    progress_bar,
    report_failure,
    where_to_play,
)
from ttr_core.model.errors import BotError
from ttr_core.ruleset.ruleset import Ruleset

HELP = "rate bots from paired games: every deal played with every seating"
REFIT = "refit"
"""The word in place of the edition that fits the ratings of ``--db`` again."""
DEFAULT_GAMES = 100
DEFAULT_PLAYERS = 2
PLAY_ONLY = ("bots", "players", "games", "seed", "options", "jobs", "scheduler")
"""The arguments that only a run that plays takes (not ``refit``)."""


def sprt_pair(text: str) -> tuple[float, float]:
    """An argument type: ``ELO0,ELO1``, two numbers, the first below the second."""
    parts = text.split(",")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != 2 or not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(f"expected ELO0,ELO1, two numbers, got {text!r}")
    if not values[0] < values[1]:
        raise argparse.ArgumentTypeError(f"ELO0 must be below ELO1, got {text!r}")
    return values[0], values[1]


def error_rate(text: str) -> float:
    """An argument type: a number between 0 and 0.5."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 0.5:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 0.5, got {text!r}")
    return value


def count(text: str) -> int:
    """An argument type: an integer of at least 0."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer of at least 0, got {text!r}")
    return value


def register(sub: Any) -> None:
    """Add the ``arena`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "arena",
        help=HELP,
        description=sentence(HELP)
        + ". Ratings are Bradley-Terry on the pairwise results of the seats, on an Elo "
        "scale with the anchor bot at 0, with bootstrap confidence intervals over deals. "
        "'ttr arena refit --db PATH' fits the ratings of the games kept in PATH again "
        "without playing.",
    )
    parser.add_argument(
        "edition", metavar="EDITION", help=f"edition id or alias, or {REFIT} (needs --db)"
    )
    parser.add_argument(
        "--bots",
        help="comma-separated bot names, at least 2, e.g. greedy,random,mcts:playouts=10 "
        "(the first two are the candidate and the baseline of --sprt)",
    )
    parser.add_argument(
        "--players",
        type=positive_int,
        help=f"players per game (default: {DEFAULT_PLAYERS})",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        help="games to play at least, rounded up to whole deals of every seating "
        f"(default: {DEFAULT_GAMES})",
    )
    parser.add_argument("--seed", type=int, help="seed of the arena (default: 1)")
    add_option_argument(parser)
    parser.add_argument("--anchor", metavar="BOT", help="the bot rated 0 (default: the first)")
    parser.add_argument(
        "--bootstrap",
        type=count,
        default=BOOTSTRAP,
        metavar="N",
        help=f"bootstrap draws for the 95%% intervals, 0 for none (default: {BOOTSTRAP})",
    )
    parser.add_argument(
        "--sprt",
        type=sprt_pair,
        metavar="ELO0,ELO1",
        help="stop at the end of a deal once a sequential test decides between H0: the "
        "first bot is ELO0 stronger than the second, and H1: it is ELO1 stronger",
    )
    parser.add_argument(
        "--alpha", type=error_rate, default=0.05, help="the test's alpha (default: 0.05)"
    )
    parser.add_argument(
        "--beta", type=error_rate, default=0.05, help="the test's beta (default: 0.05)"
    )
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="keep every game in the SQLite file PATH (created if missing); a run with the "
        "same file plays only the games not yet in it",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_where_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the arena, or fit the ratings of a file again; print the table or JSON."""
    test = Sprt(args.sprt[0], args.sprt[1], args.alpha, args.beta) if args.sprt else None
    if args.edition == REFIT:
        return _refit(args, test)
    if args.bots is None:
        raise UsageError("argument --bots: at least 2 bots are needed")
    bots = bot_names(args.bots)
    players = DEFAULT_PLAYERS if args.players is None else args.players
    seed = 1 if args.seed is None else args.seed
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"argument --seed: expected 0 to 2**63 - 1, got {seed}")
    rs = Ruleset.build(args.edition, options_dict(args.options))
    lo, hi = rs.params.players
    if not lo <= players <= hi:
        raise UsageError(f"argument --players: {rs.id} is played by {lo} to {hi} players")
    try:
        settings = arena_settings(rs, players=players, bots=bots, seed=seed)
    except (ValueError, BotError) as exc:
        raise UsageError(f"argument --bots: {exc}") from None
    _check_anchor(args.anchor, settings)
    check_scheduler(args.scheduler)
    per_block = len(seatings(len(bots), players))
    blocks = blocks_for(DEFAULT_GAMES if args.games is None else args.games, per_block)
    with contextlib.ExitStack() as stack:
        store = None
        if args.db is not None:
            store = stack.enter_context(_open(args.db, settings))
        stored = {} if store is None else _stored(store)
        standings = Standings(settings, test)
        todo = blocks * per_block - sum(1 for b, _ in stored if b < blocks)
        jobs = where_to_play(args, max(1, todo))
        ctrl_c = CtrlC()
        failures: list[GameFailure] = []
        played = 0
        try:
            with (
                ctrl_c.installed(),
                lost_worker_notices(),
                progress_bar(todo, "arena", shown=not args.json) as bar,
            ):
                outcomes = play_arena(
                    rs,
                    settings,
                    blocks=blocks,
                    stored=stored,
                    jobs=jobs,
                    scheduler=args.scheduler,
                    on_done=bar.on_done,
                    on_start=bar.on_start,
                )
                with contextlib.closing(outcomes):
                    for number, outcome in outcomes:
                        with ctrl_c.held():
                            if isinstance(outcome, GameFailure):
                                report_failure(outcome)
                                failures.append(outcome)
                            elif (outcome.block, outcome.seating) not in stored:
                                played += 1
                                if store is not None:
                                    _add(store, outcome)
                            standings.add(number, outcome)
                        if standings.stopped:
                            break
        except ClusterError:
            _print(args, report(standings, anchor=args.anchor, draws=args.bootstrap))
            raise
        except KeyboardInterrupt:
            _print(args, report(standings, anchor=args.anchor, draws=args.bootstrap))
            sys.stdout.flush()
            done = played + len(failures)
            sys.stderr.write(f"ttr: interrupted after {done} of {todo} games\n")
            return INTERRUPTED
    _print(args, report(standings, anchor=args.anchor, draws=args.bootstrap))
    return 1 if failures else 0


def _refit(args: argparse.Namespace, test: Sprt | None) -> int:
    """Fit the ratings of the games kept in ``--db`` again, without playing."""
    given = [name for name in PLAY_ONLY if getattr(args, name) is not None]
    if given:
        flag = "--option" if given[0] == "options" else f"--{given[0]}"
        raise UsageError(f"argument {flag}: not allowed with {REFIT}, which plays no game")
    if args.db is None:
        raise UsageError(f"{REFIT} needs --db PATH, the file of the arena")
    with _open(args.db, None) as store:
        settings = store.settings
        _check_anchor(args.anchor, settings)
        stored = _stored(store)
    per_block = len(seatings(len(settings.bots), settings.players))
    # Only whole blocks are rated: a block with a game missing (it failed, or the run
    # stopped inside it) is left out, as the run leaves out a block with a failed game.
    whole = sorted(
        b for b, s in stored if s == 0 and all((b, t) in stored for t in range(per_block))
    )
    games = [
        (i * per_block + s, stored[b, s]) for i, b in enumerate(whole) for s in range(per_block)
    ]
    _print(args, rate_games(settings, games, anchor=args.anchor, draws=args.bootstrap, test=test))
    return 0


def _check_anchor(anchor: str | None, settings: ArenaSettings) -> None:
    if anchor is not None and anchor not in settings.bots:
        names = ", ".join(settings.bots)
        raise UsageError(f"argument --anchor: {anchor!r} is not one of the bots ({names})")


@contextlib.contextmanager
def _open(path: str, settings: ArenaSettings | None) -> Iterator[ArenaStore]:
    try:
        store = ArenaStore.open(path, settings)
    except ArenaStoreError as exc:
        raise UsageError(f"argument --db: {exc}") from None
    with store:
        yield store


def _stored(store: ArenaStore) -> dict[tuple[int, int], ArenaGame]:
    try:
        stored = store.games()
        check_stored(store.settings, stored, store.path)
    except ArenaStoreError as exc:
        raise UsageError(f"argument --db: {exc}") from None
    return stored


def _add(store: ArenaStore, game: ArenaGame) -> None:
    try:
        store.add(game, ENGINE)
    except ArenaStoreError as exc:
        raise CommandError(str(exc)) from None


def _print(args: argparse.Namespace, result: ArenaReport) -> None:
    if args.json:
        print_json(result.to_json())
        return
    s = result.settings
    title = (
        f"{s.edition}: {counted(result.blocks, 'deal')} of {counted(result.seatings, 'game')}, "
        f"{s.players} players, seed {s.seed}"
    )
    notes = [f"Elo scale, {result.anchor} at 0 (Bradley-Terry on pairwise results)"]
    if result.draws:
        notes.append(f"95% intervals from {result.draws} bootstrap draws of deals")
    if result.failed:
        notes.append(f"{counted(result.failed, 'game')} failed: their deals are not rated")
    if result.test is not None and result.sprt is not None:
        t, state = result.test, result.sprt
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", "undecided": "undecided"}
        notes.append(
            f"SPRT {s.bots[0]} vs {s.bots[1]}, elo0 {t.elo0:g}, elo1 {t.elo1:g}, "
            f"alpha {t.alpha:g}, beta {t.beta:g}: LLR {state.llr:.2f} "
            f"({t.lower:.2f}, {t.upper:.2f}) after {counted(state.blocks, 'deal')}, "
            f"{verdict[state.decision]}"
        )
    table = Table(title=title, caption="\n".join(notes))
    table.add_column("Bot")
    for column in ("Elo", "95% interval", "Games", "Won", "Lost", "Tied", "Mean score"):
        table.add_column(column, justify="right")
    order = sorted(range(len(result.ratings)), key=lambda i: (-result.ratings[i].elo, i))
    for i in order:
        rating, record = result.ratings[i], result.records[i]
        interval = ""
        if rating.low is not None and rating.high is not None:
            interval = f"{rating.low:.0f} to {rating.high:.0f}"
        table.add_row(
            rating.bot,
            f"{rating.elo:.0f}",
            interval,
            str(record.games),
            str(record.wins),
            str(record.losses),
            str(record.ties),
            f"{record.mean_score:.1f}",
        )
    console().print(table)
