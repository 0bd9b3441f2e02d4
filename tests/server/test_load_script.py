"""The server benchmark (benchmarks/server_load.py): it runs at tiny sizes, its figures
add up, and its record check notices a lost or misplaced action."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "server_load.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("server_load", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _figures(out: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line and " " not in line)


@pytest.mark.slow
def test_tiny_run_on_sqlite_keeps_every_promise_and_its_figures_add_up(tmp_path: Path) -> None:
    """Three games, one kill -9 and the abuse on SQLite: exit 0, every figure printed, and
    the counts consistent (all finished and replayed, nothing lost, every abuse refused)."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "3", "--kills", "1", "--deadline", "400"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    f = _figures(done.stdout)
    for phase in ("load", "faults"):
        p = f"sqlite.{phase}."
        assert f[p + "games"] == f[p + "games_finished"] == f[p + "records_replay"] == "3"
        assert f[p + "lost"] == f[p + "mismatched"] == f[p + "refused_legal"] == "0"
        acknowledged, actions = int(f[p + "acknowledged"]), int(f[p + "actions"])
        assert 0 < acknowledged < actions
        assert 0 < float(f[p + "latency_p50_ms"]) <= float(f[p + "latency_p99_ms"])
    assert float(f["sqlite.load.games_per_minute"]) > 0
    assert f["sqlite.faults.kills"] == f["sqlite.faults.restarts"] == "1"
    assert int(f["sqlite.faults.reconnects"]) >= 1
    attempts = int(f["sqlite.abuse.attempts"])
    assert attempts > 100 and f["sqlite.abuse.refused"] == str(attempts)
    assert f["sqlite.abuse.accepted"] == f["sqlite.abuse.tracebacks_sent"] == "0"
    assert f["sqlite.abuse.games_finished_after"] == f["sqlite.abuse.records_replay"] == "2"
    assert f["run.broken"] == "0" and "every promise kept" in done.stdout


def _client(seat: int, acked: list[tuple[int | None, Any]], positions: bool) -> Any:
    return SimpleNamespace(
        seat=seat,
        acked=acked,
        applied_unacked=[],
        lost_unacked=0,
        ctx=SimpleNamespace(positions=positions),
    )


def test_the_record_check_counts_a_lost_or_misplaced_acknowledged_action() -> None:
    """An acknowledged action missing from the record, or found at another position or
    for another seat, is counted lost; one that is there is not."""
    script = _script()
    seats = [0, 1, 0, 1]
    taken: list[Any] = [{"tag": "a"}, {"tag": "b"}, {"tag": "c"}, {"tag": "d"}]
    cases = [
        ([(0, {"tag": "a"}), (2, {"tag": "c"})], 0),
        ([(0, {"tag": "a"}), (2, {"tag": "x"})], 1),
        ([(0, {"tag": "a"}), (1, {"tag": "b"})], 1),
        ([(0, {"tag": "a"}), (9, {"tag": "c"})], 1),
    ]
    for acked, lost in cases:
        check = script.RecordCheck()
        script.check_client(_client(0, acked, True), seats, taken, check)
        assert check.lost == lost, acked
    without_positions = script.RecordCheck()
    script.check_client(
        _client(0, [(None, {"tag": "c"}), (None, {"tag": "a"})], False),
        seats,
        taken,
        without_positions,
    )
    assert without_positions.lost == 2


def test_the_record_check_counts_an_action_no_client_sent() -> None:
    """A seat's action in the record that its client neither saw acknowledged nor judged
    applied is counted as mismatched."""
    script = _script()
    check = script.RecordCheck()
    script.check_client(
        _client(0, [(0, {"tag": "a"})], True),
        [0, 1, 0],
        [{"tag": "a"}, {"tag": "b"}, {"tag": "c"}],
        check,
    )
    assert check.lost == 0 and check.mismatched == 1
