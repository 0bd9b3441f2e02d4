"""A release anyone can check: CI builds, checks and installs the distributions, the sdist
holds what a wheel is built from, and the changelog is one file in Keep a Changelog's form.
"""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION: str = PYPROJECT["project"]["version"]
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
CHANGE_TYPES = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
"""The kinds of change Keep a Changelog 1.1.0 groups a version's entries by."""


def ci_stage(title: str) -> str:
    """The commands of the CI stage whose title starts with ``title``."""
    match = re.search(rf'^stage "{re.escape(title)}[^"]*"\n(.*?)^took$', CI, re.M | re.S)
    assert match is not None, f".ci/run has no stage {title!r}"
    return match.group(1)


# --- CI -----------------------------------------------------------------------------------


def test_ci_checks_the_release_after_the_docs_and_before_the_compiled_build() -> None:
    stages = re.findall(r'^stage "([^"]*)"$', CI, re.M)
    release = next(i for i, s in enumerate(stages) if s.startswith("release"))
    assert stages[release - 1] == "lint, types and docs"
    assert stages[release + 1].startswith("compiled: build")
    assert ci_stage("release")  # it ends with its timing line


def test_the_release_stage_builds_checks_installs_and_plays_the_wheel() -> None:
    """sdist and wheel built (the wheel from the sdist, build's default), twine-checked, the
    wheel of the documented name installed in a fresh venv and run from an empty folder."""
    stage = ci_stage("release")
    commands = [s for s in map(str.strip, stage.splitlines()) if s and not s.startswith("#")]
    assert "rm -rf dist .venv-release" in commands
    build = next(c for c in commands if c.startswith("python -m build"))
    assert "--sdist" not in build and "--wheel" not in build, build
    assert "twine check --strict dist/*" in commands
    assert "python3 -m venv .venv-release" in commands
    assert '.venv-release/bin/pip install --quiet "dist/ttr_engine-$VERSION-py3-none-any.whl"' in (
        commands
    )
    assert re.search(r'\n\(\n\s+cd "\$\(mktemp -d\)"\n', stage)
    assert '"$ROOT/.venv-release/bin/ttr" editions' in stage
    assert '"$ROOT/.venv-release/bin/ttr" simulate --games 2' in stage
    for edition in ("usa", "europe", "india", "switzerland", "nordic"):
        assert edition in stage
    assert commands[-1] == "rm -rf dist .venv-release ttr_engine.egg-info"


def test_build_outputs_are_ignored_by_git() -> None:
    ignored = set((ROOT / ".gitignore").read_text(encoding="utf-8").split())
    assert {"dist/", ".venv-release/", "*.egg-info/", "build/"} <= ignored


def test_the_dev_extra_brings_the_release_tools() -> None:
    dev = PYPROJECT["project"]["optional-dependencies"]["dev"]
    names = {re.split(r"[^\w.-]", requirement, maxsplit=1)[0] for requirement in dev}
    assert {"build", "twine"} <= names


def test_the_sdist_includes_the_build_backend() -> None:
    """pyproject.toml's backend-path module is listed in MANIFEST.in: an sdist without it
    cannot be built."""
    system = PYPROJECT["build-system"]
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    for folder in system["backend-path"]:
        module = f"{folder}/{system['build-backend']}.py"
        assert (ROOT / module).is_file(), module
        assert f"include {module}" in manifest


CACHE = "__pycache__"
SOURCE_IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv*",
    "build",
    "dist",
    "site",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
)


def expected_sdist_files() -> set[str]:
    """What an sdist must hold to build and describe the project: the build files, the
    texts, and every module and data file of the packages."""
    files = {"pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "NOTICE.md"}
    files |= {"CHANGELOG.md", f"{PYPROJECT['build-system']['backend-path'][0]}/ttr_build.py"}
    for top in ("ttr_core", "editions"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix in {".py", ".pyi", ".json", ".typed"} and path.parent.name != CACHE:
                files.add(path.relative_to(ROOT).as_posix())
    return files


@pytest.mark.slow
def test_the_sdist_holds_everything_a_wheel_is_built_from(tmp_path: Path) -> None:
    """``python -m build --sdist`` (of a copy of the tree, so the sources get no build
    output) keeps every module, the editions' JSON, the py.typed markers, the build
    backend, the texts and the changelog."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=SOURCE_IGNORED)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path / "dist"), "."],
        capture_output=True,
        text=True,
        cwd=source,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (sdist,) = (tmp_path / "dist").glob("*.tar.gz")
    assert sdist.name == f"ttr_engine-{VERSION}.tar.gz"
    with tarfile.open(sdist) as archive:
        prefix = f"ttr_engine-{VERSION}/"
        held = {name.removeprefix(prefix) for name in archive.getnames()}
    missing = expected_sdist_files() - held
    assert not missing, sorted(missing)


# --- the changelog ------------------------------------------------------------------------


def version_headings() -> list[str]:
    return re.findall(r"^## (.+)$", CHANGELOG, re.M)


def test_the_changelog_follows_keep_a_changelog() -> None:
    """A title, the format it follows, an Unreleased section first, then versions newest
    first, each dated, and entries grouped by the six kinds of change."""
    assert CHANGELOG.startswith("# Changelog\n")
    assert "https://keepachangelog.com/en/1.1.0/" in CHANGELOG
    headings = version_headings()
    assert headings[0] == "[Unreleased]"
    versions = []
    for heading in headings[1:]:
        match = re.fullmatch(r"\[(\d+)\.(\d+)\.(\d+)\] - \d{4}-\d{2}-\d{2}", heading)
        assert match is not None, heading
        versions.append(tuple(int(part) for part in match.groups()))
    assert versions == sorted(versions, reverse=True)
    assert versions[-1] == (0, 1, 0)
    kinds = set(re.findall(r"^### (.+)$", CHANGELOG, re.M))
    assert kinds <= CHANGE_TYPES, kinds - CHANGE_TYPES


def test_the_version_being_built_is_in_the_changelog() -> None:
    assert any(h.startswith(f"[{VERSION}] - ") for h in version_headings()), VERSION


def test_the_documentation_shows_the_changelog_file_itself() -> None:
    """One source: the docs page includes CHANGELOG.md, and the build fails if it cannot."""
    page = (ROOT / "docs" / "reference" / "changelog.md").read_text(encoding="utf-8")
    assert '\n--8<-- "CHANGELOG.md"\n' in page
    assert "## " not in page
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"- pymdownx\.snippets:\n(\s+\S.*\n)*\s+check_paths: true\n", mkdocs)


def moved_modules() -> list[tuple[list[str], list[str]]]:
    """The full module names of each row of the changelog's table of moved modules."""
    table = CHANGELOG.split("#### Moved modules", 1)[1].split("\n\n", 2)[1]
    rows = []
    for line in table.splitlines()[2:]:
        before, now = line.strip("|").split("|")
        full = re.compile(r"`(ttr_core(?:\.\w+)+)`")
        rows.append((full.findall(before), full.findall(now)))
    return rows


def test_the_moved_modules_are_where_the_changelog_says() -> None:
    """Each new path imports, and each old one is gone or is now a package of the layer."""
    rows = moved_modules()
    assert len(rows) >= 10
    for before, now in rows:
        for name in now:
            importlib.import_module(name)
        for name in before:
            try:
                module = importlib.import_module(name)
            except ModuleNotFoundError:
                continue
            assert hasattr(module, "__path__"), f"{name} still imports as a module"
