"""``ttr arena`` on a real Dask cluster (a LocalCluster on 127.0.0.1) prints what one
process prints, and keeps the same games in its file."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ttr_core.cli import main

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a two-worker LocalCluster, one thread per worker process."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def test_arena_on_a_cluster_prints_and_keeps_what_one_process_does(
    capsys: pytest.CaptureFixture[str], scheduler: str, tmp_path: Path
) -> None:
    args = ["arena", "usa", "--bots", "greedy,random", "--players", "3", "--games", "6"]
    args += ["--bootstrap", "40", "--json"]
    here_db, there_db = str(tmp_path / "here.sqlite"), str(tmp_path / "there.sqlite")
    assert main([*args, "--jobs", "1", "--db", here_db]) == 0
    here = capsys.readouterr()
    assert main([*args, "--scheduler", scheduler, "--db", there_db]) == 0
    there = capsys.readouterr()
    assert there.out == here.out and there.err == ""
    query = "SELECT block, seating, seed, bots, ranks, scores, turns FROM games ORDER BY 1, 2"
    rows = [sqlite3.connect(db).execute(query).fetchall() for db in (here_db, there_db)]
    assert rows[0] == rows[1] and len(rows[0]) == 6
