"""Runs on a real Dask cluster (a LocalCluster on 127.0.0.1): the same output as one
process, no game lost when a worker is killed and the loss reported, failing bots
reported with their seed, records written on the client, and a scheduler without workers
(from the start, or after losing the last one) a documented error within the no-worker
timeout."""

from __future__ import annotations

import json
import os
import re
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from parallel_bots import KILL_ONCE, fails

from ttr_core import Game, Ruleset
from ttr_core.batch.parallel import (
    WATCH_INTERVAL,
    WORKER_TIMEOUT_VARIABLE,
    ClusterError,
    GameFailure,
    WorkerLostWarning,
    run_in_order,
)
from ttr_core.batch.runs import game_seed
from ttr_core.cli import main
from ttr_core.model import rng
from ttr_core.study import build_report, run_study

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow


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


LOST = re.compile(
    r"ttr: the Dask worker at tcp://127\.0\.0\.1:\d+ was lost; its games are being retried"
)
"""The line ``ttr`` prints on standard error for each worker lost during a run."""


def test_a_killed_dask_worker_loses_no_game_and_is_reported(
    capsys: pytest.CaptureFixture[str], scheduler: str, marker: Path
) -> None:
    """The output is that of one process; standard error says the worker was lost."""
    args = (*SIMULATE, "--bots", "parallel_bots:WorkerKiller,greedy")
    here = ttr(capsys, *args)
    marker.unlink()  # armed: the first worker to reach the marker dies
    code, out, err = ttr(capsys, *args, "--scheduler", scheduler)
    assert marker.exists(), "no worker was killed"
    assert (code, out) == here[:2] and here[2] == ""
    assert LOST.fullmatch(err.rstrip("\n")), err


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


def slow_seed(index: int, seed: int) -> int:
    """A task that takes a while, so that a run is still going when its worker goes."""
    time.sleep(0.05)
    return seed


def local_cluster(workers: int) -> Any:
    """A LocalCluster on 127.0.0.1 whose workers are threads of this process."""
    return distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=":0",
    )


@pytest.fixture(scope="module")
def idle_scheduler() -> Iterator[str]:
    """The address of a scheduler that has no workers."""
    with local_cluster(0) as cluster:
        yield cluster.scheduler_address


def test_a_scheduler_without_workers_is_a_cluster_error_within_the_worker_timeout(
    idle_scheduler: str,
) -> None:
    """The documented ClusterError ``... has no workers``, raised between the timeout and
    one look at the cluster later."""
    seeds = [game_seed(1, i) for i in range(3)]
    start = time.monotonic()
    with pytest.raises(ClusterError) as raised:
        list(run_in_order(slow_seed, seeds, scheduler=idle_scheduler, worker_timeout=0.5))
    waited = time.monotonic() - start
    assert str(raised.value) == (
        f"the Dask scheduler at {idle_scheduler} has no workers (none for 0.5 s)"
    )
    assert 0.5 <= waited < 0.5 + WATCH_INTERVAL + 5


@pytest.mark.parametrize("command", ["simulate --games 3", "study usa --games 3 --out"])
def test_simulate_and_study_on_a_scheduler_without_workers_fail_with_one_error_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    idle_scheduler: str,
    command: str,
) -> None:
    """``TTR_WORKER_TIMEOUT`` sets the timeout; the error is one line, exit status 1."""
    monkeypatch.setenv(WORKER_TIMEOUT_VARIABLE, "0.5")
    args = command.replace("--out", f"--out {tmp_path / 'report'}").split()
    code, out, err = ttr(capsys, *args, "--scheduler", idle_scheduler)
    assert (code, out) == (1, "")
    assert err == (
        f"ttr: error: the Dask scheduler at {idle_scheduler} has no workers (none for 0.5 s)\n"
    )
    assert not (tmp_path / "report" / "report.json").exists()


def test_a_worker_that_joins_within_the_worker_timeout_plays_the_run() -> None:
    """The run waits for a worker, and plays every game once one joins."""
    seeds = [game_seed(1, i) for i in range(4)]
    with local_cluster(0) as cluster:
        threading.Timer(0.5, cluster.scale, (1,)).start()
        outcomes = run_in_order(slow_seed, seeds, scheduler=cluster.scheduler_address)
        assert list(outcomes) == seeds


def test_losing_the_last_worker_is_reported_then_the_finished_games_summarised(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The worker closed mid-run is one line on standard error; after the timeout, the
    games finished are summarised and the documented error ends the run (exit status 1)."""
    monkeypatch.setenv(WORKER_TIMEOUT_VARIABLE, "1")
    saved = tmp_path / "saved"
    args = ("simulate", "--games", "40", "--players", "2", "--bots", "greedy")
    with local_cluster(1) as cluster:
        (worker,) = cluster.workers.values()

        def close_after_the_first_game() -> None:
            deadline = time.monotonic() + 60
            while not any(saved.glob("*.json")) and time.monotonic() < deadline:
                time.sleep(0.02)
            cluster.sync(worker.close)

        closer = threading.Thread(target=close_after_the_first_game)
        closer.start()
        try:
            address = cluster.scheduler_address
            code, out, err = ttr(capsys, *args, "--save", str(saved), "--scheduler", address)
        finally:
            closer.join(timeout=60)
    played = len(list(saved.glob("*.json")))
    assert 0 < played < 40
    assert code == 1
    assert f"usa: {played} game{'s' if played > 1 else ''}, 2 players, seed 1" in out
    lost, error = err.splitlines()
    assert LOST.fullmatch(lost), err
    assert error == f"ttr: error: the Dask scheduler at {address} has no workers (none for 1 s)"


def test_a_library_run_warns_of_a_lost_worker_and_keeps_the_games_finished() -> None:
    """A WorkerLostWarning names the worker; the games finished before the ClusterError
    are the first games of the run, in order."""
    seeds = [game_seed(1, i) for i in range(100)]
    got: list[int | GameFailure] = []
    with local_cluster(1) as cluster, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WorkerLostWarning)
        (worker,) = cluster.workers.values()
        outcomes = run_in_order(
            slow_seed, seeds, scheduler=cluster.scheduler_address, worker_timeout=0.5
        )
        with pytest.raises(ClusterError, match="has no workers"):
            for outcome in outcomes:
                got.append(outcome)
                if len(got) == 2:
                    cluster.sync(worker.close)
    assert 2 <= len(got) < 100 and got == seeds[: len(got)]
    assert [w.category for w in caught] == [WorkerLostWarning]
    assert str(caught[0].message) == (
        f"the Dask worker at {worker.address} was lost; its games are being retried"
    )
