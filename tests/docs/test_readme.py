"""The README keeps its promises: two set-up commands, a quickstart that runs, true tables."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import ttr_core as ttr

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```$", re.M | re.S)
SHELL = {"bash", "sh", "shell", "console"}


def blocks(lang: set[str]) -> list[str]:
    return [m["body"].strip() for m in FENCE.finditer(README) if m["lang"] in lang]


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match is not None, f"README has no section '## {title}'"
    return match.group(1)


SETUP = 'pip install -e ".[dev]" -e examples/ttr-example-edition -e tests/fictional && ttr simulate'
TESTS = "python -m pytest -n auto"


def test_readme_has_exactly_two_setup_commands() -> None:
    assert blocks(SHELL) == [SETUP, TESTS]


def test_setup_commands_are_presented_under_their_headings() -> None:
    setup = [m["body"].strip() for m in FENCE.finditer(section("Set up and run"))]
    tests = [m["body"].strip() for m in FENCE.finditer(section("Run the tests"))]
    assert setup == [SETUP]
    assert tests == [TESTS]


def test_ci_runs_exactly_the_readme_commands() -> None:
    """CI installs nothing the README does not tell a new user to install."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [
        line.strip()
        for line in ci.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    installs = [c for c in commands if "pip install" in c and "--upgrade pip" not in c]
    assert installs[0] == SETUP
    assert TESTS in commands
    assert commands.index(SETUP) < commands.index(TESTS)
    # Anything else CI installs goes into a venv of its own (the release's wheel, the
    # compiled build), after the tests.
    for other in installs[1:]:
        assert re.match(r"(\S+ )?\.venv-(release|compiled)/bin/pip install ", other), other
        assert commands.index(other) > commands.index(TESTS)


def test_setup_installs_every_edition_the_tests_play() -> None:
    """Each package the set-up command installs is a directory of this clone."""
    parts = [p.strip().strip('"') for p in SETUP.split("&&")[0].split(" -e ")[1:]]
    assert parts == [".[dev]", "examples/ttr-example-edition", "tests/fictional"]
    for part in parts:
        assert (ROOT / part.partition("[")[0] / "pyproject.toml").is_file(), part


def test_lighter_install_is_one_sentence_not_a_block() -> None:
    assert "`pip install .`" in section("Set up and run")
    assert "ttr-engine" in section("Set up and run")


def test_no_other_install_command_in_the_readme() -> None:
    others = [b for b in blocks({"text", "", "python"}) if "pip install" in b]
    assert not others


def test_quickstart_runs_as_written(tmp_path: Path) -> None:
    (code,) = blocks({"python"})
    script = tmp_path / "quickstart.py"
    script.write_text(code + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "winners:" in done.stdout
    assert "europe: [" in done.stdout


def test_editions_table_matches_installed_builtin_editions() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` \| .*? \| (\d–\d) \|$", README, re.M))
    builtin = {ed.info.id: ed for ed in ttr.installed_editions().values() if ed.builtin}
    assert set(rows) == set(builtin)
    for edition_id, ed in builtin.items():
        assert rows[edition_id] == "{}–{}".format(*ed.players), edition_id


def test_readme_points_to_docs_licence_and_notice() -> None:
    assert "mkdocs serve" in README
    assert "MIT" in section("Licence")
    notice = section("Trademark notice")
    assert "Days of Wonder" in notice and "Asmodee" in notice
    assert "(NOTICE.md)" in notice
    assert (ROOT / "NOTICE.md").is_file()
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License")
    assert "Copyright (c) 2026 The ttr authors" in licence
