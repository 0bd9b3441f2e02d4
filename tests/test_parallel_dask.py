"""Runs on a real Dask cluster (a LocalCluster of worker processes): the same output as
one process, no game lost when a worker is killed, failing bots reported with their seed,
records written on the client."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from parallel_bots import KILL_ONCE, fails

from ttr_core import Game, Ruleset, rng
from ttr_core.cli import main
from ttr_core.simulate import game_seed
from ttr_core.study import build_report, run_study

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def marker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kill-once marker of the cluster's workers; it exists (disarmed) between tests."""
    path = tmp_path_factory.mktemp("kill") / "killed"
    path.touch()
    return path


@pytest.fixture(scope="module")
def scheduler(marker: Path) -> Iterator[str]:
    """The address of a two-worker LocalCluster, one thread per worker process."""
    previous = os.environ.get(KILL_ONCE)
    os.environ[KILL_ONCE] = str(marker)  # the workers read it from their environment
    try:
        with distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster:
            yield cluster.scheduler_address
    finally:
        if previous is None:
            del os.environ[KILL_ONCE]
        else:
            os.environ[KILL_ONCE] = previous


def ttr(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


SIMULATE = ("simulate", "--games", "6", "--players", "3", "--seed", "3", "--json")


def test_simulate_json_on_a_cluster_is_byte_identical_to_one_process(
    capsys: pytest.CaptureFixture[str], scheduler: str
) -> None:
    args = (*SIMULATE, "--bots", "greedy,random")
    here = ttr(capsys, *args)
    assert ttr(capsys, *args, "--scheduler", scheduler) == here
    assert here[0] == 0 and len(here[1].splitlines()) == 6


def test_a_killed_dask_worker_loses_no_game(
    capsys: pytest.CaptureFixture[str], scheduler: str, marker: Path
) -> None:
    args = (*SIMULATE, "--bots", "parallel_bots:WorkerKiller,greedy")
    here = ttr(capsys, *args)
    marker.unlink()  # armed: the first worker to reach the marker dies
    there = ttr(capsys, *args, "--scheduler", scheduler)
    assert marker.exists(), "no worker was killed"
    assert there == here


def test_a_failing_bot_on_a_cluster_is_reported_with_its_seed(
    capsys: pytest.CaptureFixture[str], scheduler: str
) -> None:
    seeds = [game_seed(2, i) for i in range(6)]
    failed = [g for g in seeds if fails(rng.derive_seed(g, 2))]
    args = ("simulate", "--games", "6", "--players", "2", "--seed", "2", "--json")
    code, out, err = ttr(
        capsys, *args, "--bots", "greedy,parallel_bots:SeedFailer", "--scheduler", scheduler
    )
    assert code == 1
    assert [json.loads(line)["seed"] for line in out.splitlines()] == [
        s for s in seeds if s not in failed
    ]
    assert [line.split("seed ")[1].split(":")[0] for line in err.splitlines()] == [
        str(s) for s in failed
    ]


def test_records_of_a_cluster_run_are_saved_by_the_client(
    capsys: pytest.CaptureFixture[str], scheduler: str, tmp_path: Path
) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    args = ("simulate", "--games", "3", "--players", "2", "--bots", "greedy")
    assert ttr(capsys, *args, "--save", str(here))[0] == 0
    assert ttr(capsys, *args, "--save", str(there), "--scheduler", scheduler)[0] == 0
    names = sorted(p.name for p in here.iterdir())
    assert names == sorted(p.name for p in there.iterdir()) and len(names) == 3
    for name in names:
        assert (there / name).read_bytes() == (here / name).read_bytes()
        Game.load((there / name).read_bytes())


def test_a_study_report_is_the_same_on_one_process_two_processes_and_a_cluster(
    scheduler: str,
) -> None:
    rs = Ruleset.build("usa")
    bots = ["greedy", "random"]

    def report(**where: Any) -> str:
        outcomes = list(run_study(rs, players=3, bots=bots, games=6, seed=7, **where))
        return json.dumps(build_report(rs, players=3, bots=bots, seed=7, outcomes=outcomes))

    here = report()
    assert report(jobs=2) == here
    assert report(scheduler=scheduler) == here
    assert json.loads(here)["study"]["games_measured"] == 6
