"""The benchmarks that the performance page quotes run, and print what it says they do."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_runs_and_records_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location(
        "runs_and_records", ROOT / "benchmarks" / "runs_and_records.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["--edition", "usa", "--players", "2", "--games", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [
        "what=simulator",
        "what=run-random",
        "what=run-greedy",
        "what=record",
    ]
    assert "of_simulator=" in lines[1] and "compact_bytes=" in lines[3]
