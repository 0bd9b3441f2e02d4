"""Which build runs: ``ttr_core.compiled``, ``ttr --version``, and the hot modules agree."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ttr_core
from ttr_core.cli import main

HOT = (
    "ttr_core.model.cards",
    "ttr_core.model.rng",
    "ttr_core.model.action_fields",
    "ttr_core.model.filled",
    "ttr_core.play.simulator",
    "ttr_core.play.seeded_replay",
    "ttr_core.play.legal",
    "ttr_core.play.game",
    "ttr_core.rules.table",
    "ttr_core.rules.double_routes",
    "ttr_core.rules.graph",
    "ttr_core.rules.views",
    "ttr_core.rules.piles",
    "ttr_core.rules.turn",
    "ttr_core.rules.drawing",
    "ttr_core.rules.tickets",
    "ttr_core.rules.payments",
    "ttr_core.rules.payment_counts",
    "ttr_core.rules.claims",
    "ttr_core.rules.tunnels",
    "ttr_core.rules.card_groups",
    "ttr_core.rules.stations",
    "ttr_core.bots.greedy",
    "ttr_core.bots.rollout",
)
"""The modules a compiled build compiles (``HOT`` in setup.py)."""


def test_compiled_is_a_bool() -> None:
    assert ttr_core.compiled in (True, False)


def test_the_hot_modules_are_all_compiled_or_all_pure() -> None:
    files = {name: importlib.import_module(name).__file__ or "" for name in HOT}
    pure = {name for name, file in files.items() if file.endswith(".py")}
    assert pure == (set() if ttr_core.compiled else set(HOT)), files


def test_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    build = "compiled" if ttr_core.compiled else "pure Python"
    assert capsys.readouterr().out == f"ttr {ttr_core.__version__} ({build})\n"


ROOT = Path(__file__).parents[2]


def test_the_list_is_the_one_setup_compiles() -> None:
    import ast

    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    (paths,) = (
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "HOT"
    )
    assert tuple(p.removesuffix(".py").replace("/", ".") for p in paths) == HOT


def test_a_missing_c_compiler_is_one_clear_line(tmp_path: Path) -> None:
    """TTR_COMPILE=1 without a C compiler stops at once, saying so on one line."""
    missing = tmp_path / "no-such-cc"
    env = {**os.environ, "TTR_COMPILE": "1", "CC": str(missing)}
    run = subprocess.run(
        [sys.executable, "setup.py", "bdist_wheel", "--dist-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == (
        f"TTR_COMPILE=1: no C compiler found (looked for {str(missing)!r}); install one "
        "(for example gcc) or build without TTR_COMPILE for pure Python"
    )
