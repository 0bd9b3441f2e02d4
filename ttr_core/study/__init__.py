"""Balance reports: many games between bots on one edition, measured, summed up and drawn.

This is what ``ttr study`` runs, and what a program can run too::

    rs = Ruleset.build("usa")
    outcomes = list(run_study(rs, games=200, seed=1, jobs=2))  # the play styles, 2-5 players
    report = build_report(rs, seed=1, outcomes=outcomes)
    write_report(rs, report, "usa-report")  # report.json, report.html and the figures

By default a study plays the four play styles
([`PLAY_STYLES`][ttr_core.bots.registry.PLAY_STYLES]) at every player count the edition
allows; ``players=`` and ``bots=`` choose one count and other bots.

The games are played here, on local processes or on a Dask cluster (see
[`ttr_core.batch.parallel`][ttr_core.batch.parallel]); each is measured where it ran
([`ttr_core.study.games`][ttr_core.study.games]) and the report is built in game order
([`ttr_core.study.report`][ttr_core.study.report]), so it depends only on the study's arguments. The
figures need matplotlib, the ``study`` extra.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

from ttr_core.batch.parallel import GameFailure
from ttr_core.batch.runs import check_run, run_plan
from ttr_core.bots.registry import PLAY_STYLES
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.study import report as _report
from ttr_core.study.files import write_report
from ttr_core.study.games import GameStats, StudyPlan


def run_study(
    rs: Ruleset,
    *,
    players: int | None = None,
    bots: Sequence[str] = PLAY_STYLES,
    games: int,
    seed: int,
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Callable[[], None] | None = None,
    on_start: Callable[[], None] | None = None,
) -> Generator[GameStats | GameFailure, None, None]:
    """Play and measure the games of a study; yield each game's stats (or its failure) in
    game order.

    ``players=None`` plays every player count the edition allows, sharing the games between
    them. Game ``i`` has the seed of game ``i`` of ``ttr simulate`` with the same ``seed``, and
    its player count and seats are as [`ttr_core.study.games`][ttr_core.study.games] says. The games
    run here (``jobs=1``), on ``jobs`` local processes or on the Dask cluster at ``scheduler``, with
    the same outcomes. ``on_done`` is called as each game finishes, ``on_start`` once the games
    have started (see [`run_in_order`][ttr_core.batch.parallel.run_in_order]).

    :raises BotError: a bot name is unknown.
    :raises ValueError: ``players`` is outside the edition's range or ``games`` is negative.
    :raises MissingExtraError: a scheduler is given and Dask is not installed.
    """
    counts = player_counts(rs, players)
    for count in counts:
        check_run(rs, players=count, games=games, bots=bots)
    plan = StudyPlan.of(rs, counts, bots, games)
    return run_plan(
        rs,
        plan,
        games=games,
        seed=seed,
        jobs=jobs,
        scheduler=scheduler,
        on_done=on_done,
        on_start=on_start,
    )


def player_counts(rs: Ruleset, players: int | None) -> tuple[int, ...]:
    """The player counts of a study: ``players``, or every count ``rs`` allows when None."""
    if players is not None:
        return (players,)
    lo, hi = rs.params.players
    return tuple(range(lo, hi + 1))


def build_report(
    rs: Ruleset,
    *,
    players: int | None = None,
    bots: Sequence[str] = PLAY_STYLES,
    seed: int,
    outcomes: Sequence[GameStats | GameFailure],
) -> dict[str, Any]:
    """The report (``report.json``) of a study, from the outcomes [`run_study`][] gave with
    the same ``players`` and ``bots``."""
    plan = StudyPlan.of(rs, player_counts(rs, players), bots, len(outcomes))
    return _report.build_report(rs, plan, bots=bots, seed=seed, outcomes=outcomes)


__all__ = [
    "GameStats",
    "StudyPlan",
    "build_report",
    "player_counts",
    "run_study",
    "write_report",
]
