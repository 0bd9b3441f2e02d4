"""Games per second on one process, on two local processes and on a 2-worker Dask cluster.

Plays the same run four ways through :func:`ttr_core.batch.runs.play_games`, the code path
of ``ttr simulate --jobs`` and ``--scheduler``: by default 200 four-player USA games
between greedy bots. Each figure is the whole run. The first run on two local processes
includes starting the workers (forked from this process, which runs a single thread, on
Linux; else from the fork server, which the first run starts); the second is a later run
of the same process. Starting the Dask cluster (a ``distributed.LocalCluster`` of two worker
processes with one thread each) is not included. The runs must give the same results,
and the script checks that they do.

    python benchmarks/parallel.py --edition usa --players 4 --games 200 --bots greedy
"""

from __future__ import annotations

import argparse
import importlib
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ttr_core import Ruleset
from ttr_core.batch.parallel import GameFailure
from ttr_core.batch.runs import GameResult, play_games


def running_children_cpu() -> float:
    """CPU seconds of this process's children still running, with their own ended
    children: the fork server, whose ended children are the local workers of the runs so
    far. Read from ``/proc``; 0 where there is none."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        if int(fields[1]) == os.getpid():  # fields[1] is the parent's pid
            total += sum(int(field) for field in fields[11:15])  # utime stime cutime cstime
    return total / tick


def cpu_seconds() -> float:
    """CPU time used so far by this process and by its children, ended or running."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    ended = me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
    return ended + running_children_cpu()


def timed(run: Callable[[], list[GameResult | GameFailure]]) -> tuple[float, float, list[Any]]:
    """The seconds ``run`` takes, the CPU seconds it and its worker processes use, and
    what it returns."""
    start, cpu = time.perf_counter(), cpu_seconds()
    outcomes = run()
    return time.perf_counter() - start, cpu_seconds() - cpu, outcomes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Bot games per second, here and elsewhere.")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy", help="comma-separated bot names")
    args = parser.parse_args(argv)
    rs = Ruleset.build(args.edition)
    bots = args.bots.split(",")

    def run(**where: Any) -> Callable[[], list[GameResult | GameFailure]]:
        return lambda: list(
            play_games(
                rs, players=args.players, games=args.games, seed=args.seed, bots=bots, **where
            )
        )

    figures: list[tuple[str, float, float, list[Any]]] = []
    figures.append(("1 process", *timed(run(jobs=1))))
    figures.append(("2 local processes", *timed(run(jobs=2))))
    figures.append(("2 local processes again", *timed(run(jobs=2))))
    distributed = importlib.import_module("distributed")  # Dask has no type information
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        figures.append(("Dask, 2 workers", *timed(run(scheduler=cluster.scheduler_address))))
    reference = figures[0][3]
    base = args.games / figures[0][1]
    base_cpu = figures[0][2]
    for where, seconds, cpu, outcomes in figures:
        assert outcomes == reference, f"{where}: the results differ from one process's"
        rate = args.games / seconds
        # Dask's workers are not children of this process: their CPU time is not counted.
        shown = f" cpu_s={cpu:.2f} cpu_ratio={cpu / base_cpu:.2f}" if "Dask" not in where else ""
        print(
            f"where={where.replace(' ', '-')} edition={rs.id} players={args.players} "
            f"bots={args.bots} games={args.games} seconds={seconds:.2f} "
            f"games_per_s={rate:.2f} speedup={rate / base:.2f}{shown}"
        )


if __name__ == "__main__":
    main()
