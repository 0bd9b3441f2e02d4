"""Every install command the documentation and the error messages show works as written.

``ttr-engine`` is not on PyPI, so a command is true only if it installs from a clone (a
path of this repository, with extras its project declares), from the wheel a build makes,
or requirements that pip finds on an index. The fast tests check each command's paths,
extras and names, and that every message takes its command from
``ttr_core.model.extras.install_command``; the slow ones ask pip to resolve all the
commands in an empty environment, and show that ``ttr-engine`` itself is on no index.
"""

from __future__ import annotations

import ast
import re
import shlex
import subprocess
import sys
import tomllib
import venv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from ttr_core.model import extras
from ttr_core.model.extras import install_command

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT: dict[str, Any] = PYPROJECT["project"]
WHEEL = f"dist/{PROJECT['name'].replace('-', '_')}-{PROJECT['version']}-py3-none-any.whl"
"""The wheel that ``python -m build`` makes, as the documentation names it."""

FENCE = re.compile(r"^```[\w-]*\n(?P<body>.*?)^```$", re.M | re.S)
INLINE = re.compile(r"`{1,2}(?P<code>[^`\n]*\bpip install\b[^`\n]*)`{1,2}")
LOCAL = re.compile(r"^(?P<path>[^\[]+?)(\[(?P<extras>[^\]]*)\])?$")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")
VALUE_OPTIONS = {"-i", "--index-url", "--extra-index-url", "-f", "--find-links", "-c", "-r"}
"""pip's options whose value follows them (``-e`` is followed by a target)."""


def pages() -> list[Path]:
    """The Markdown a user reads: the documentation, the READMEs, the changelog."""
    found = [*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md"), *(ROOT / "examples").rglob("*.md")]
    found += (ROOT / "tests" / "fictional").glob("*.md")
    return sorted(found)


@attrs.frozen
class InstallLine:
    """One ``pip install`` command as shown, and where it is shown."""

    where: str
    command: str

    @property
    def args(self) -> list[str]:
        """The arguments after ``pip install`` (environment assignments left out)."""
        words = shlex.split(self.command)
        start = words.index("install")
        assert words[start - 1] == "pip", self.command
        return words[start + 1 :]

    @property
    def targets(self) -> list[str]:
        """What the command installs: paths (with extras) and requirements, not the values
        of options such as ``--index-url``."""
        found: list[str] = []
        args = iter(self.args)
        for arg in args:
            if arg in VALUE_OPTIONS:
                next(args)
            elif not arg.startswith("-"):
                found.append(arg)
        return found


def commands_in(text: str) -> Iterator[str]:
    """The ``pip install`` commands of a Markdown text: lines of code blocks (a ``&&`` chain
    split, comments cut) and inline code spans."""
    for block in FENCE.finditer(text):
        for line in block["body"].splitlines():
            for part in line.split("&&"):
                part = part.partition(" #")[0].strip()
                if re.search(r"\bpip install\b", part):
                    yield part
    for span in INLINE.finditer(FENCE.sub("", text)):
        yield span["code"].strip()


def source_strings() -> Iterator[tuple[str, str]]:
    """Every string constant of the library's sources (docstrings included), by file."""
    for path in sorted((ROOT / "ttr_core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield path.relative_to(ROOT).as_posix(), node.value


def hinted_extras() -> set[str]:
    """The extras the library's messages name through ``install_command``."""
    found: set[str] = set()
    for path in sorted((ROOT / "ttr_core").rglob("*.py")):
        found |= set(re.findall(r"""install_command\(["'](\w+)["']\)""", path.read_text()))
    return found


def install_lines() -> list[InstallLine]:
    """Every install command shown to a user: in the pages, in the library's docstrings and
    strings, and every command the messages give."""
    lines = [
        InstallLine(page.relative_to(ROOT).as_posix(), command)
        for page in pages()
        for command in commands_in(page.read_text(encoding="utf-8"))
    ]
    for where, text in source_strings():
        if where != "ttr_core/model/extras.py":
            lines += [InstallLine(where, m["code"].strip()) for m in INLINE.finditer(text)]
    lines += [InstallLine("install_command", install_command(x)) for x in sorted(hinted_extras())]
    return lines


LINES = install_lines()


def is_local(target: str) -> bool:
    """A path (of this repository or a built wheel) rather than a requirement."""
    return target.startswith(".") or "/" in target or target.endswith(".whl")


def local_parts(target: str) -> tuple[str, set[str]]:
    """A local target's path and its extras."""
    match = LOCAL.match(target)
    assert match is not None, target
    names = {x.strip() for x in (match["extras"] or "").split(",") if x.strip()}
    return match["path"], names


def project_of(path: str) -> dict[str, Any]:
    """The ``[project]`` table of the project a local target installs."""
    if path.endswith(".whl"):
        return PROJECT
    text = (ROOT / path / "pyproject.toml").read_text(encoding="utf-8")
    project: dict[str, Any] = tomllib.loads(text)["project"]
    return project


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# --- what the commands name ------------------------------------------------------------


def test_the_install_lines_are_collected_from_every_place_they_are_shown() -> None:
    """The collection finds the README's set-up, the tutorial's wheel, the guides' extras,
    a docstring's command and each message's command (else the checks below check nothing)."""
    shown = {(line.where, line.command) for line in LINES}
    assert (
        "README.md",
        'pip install -e ".[dev]" -e examples/ttr-example-edition -e tests/fictional',
    ) in shown
    assert ("docs/tutorial/first-game.md", f'pip install "{WHEEL}[rl]"') in shown
    assert ("docs/how-to/train-an-agent.md", 'pip install ".[rl]"') in shown
    assert ("ttr_core/testing/__init__.py", 'pip install ".[testing]"') in shown
    assert {x for line in LINES if line.where == "install_command" for x in [line.command]}
    assert {"testing", "rl", "dask", "study"} <= hinted_extras()


@pytest.mark.parametrize("line", LINES, ids=lambda line: f"{line.where}: {line.command}")
def test_no_install_line_asks_an_index_for_ttr_engine(line: InstallLine) -> None:
    """ttr-engine (and ``ttr``, another project's name on PyPI) is installed from a path."""
    assert line.targets, line
    for target in line.targets:
        if is_local(target):
            continue
        match = NAME.match(target)
        assert match is not None, target
        assert canonical(match.group()) not in {"ttr-engine", "ttr"}, line


@pytest.mark.parametrize("line", LINES, ids=lambda line: f"{line.where}: {line.command}")
def test_every_path_and_extra_an_install_line_names_exists(line: InstallLine) -> None:
    """A path is a project of this repository (commands run from its root) or the wheel the
    build makes, and each extra is one its project declares."""
    for target in filter(is_local, line.targets):
        path, names = local_parts(target)
        if path.endswith(".whl"):
            assert path == WHEEL, line
        else:
            assert (ROOT / path / "pyproject.toml").is_file(), line
        declared = set(project_of(path).get("optional-dependencies", {}))
        assert names <= declared, (line, names - declared)


def test_the_library_writes_no_install_command_of_its_own() -> None:
    """Every ``pip install`` in a string of the library is a quoted command (collected
    above) or comes from ``install_command``: none is written out in a message."""
    for where, text in source_strings():
        if where == "ttr_core/model/extras.py":
            continue
        bare = INLINE.sub("", text)
        assert "pip install" not in bare, (where, text)
        assert "ttr-engine[" not in text, (where, text)


# --- the one place the messages take their command from ----------------------------------


def declared_requirements(extra: str) -> list[str]:
    """An extra's requirements in pyproject.toml, its own extras expanded."""
    found: list[str] = []
    for requirement in PROJECT["optional-dependencies"][extra]:
        own = re.match(r"^ttr-engine\[(?P<names>[^\]]*)\]$", requirement)
        if own is None:
            found.append(requirement)
        else:
            for name in own["names"].split(","):
                found += declared_requirements(name.strip())
    return found


@pytest.mark.parametrize("extra", sorted(PROJECT["optional-dependencies"]))
def test_install_command_installs_what_the_extra_declares(extra: str) -> None:
    """The command quotes exactly the extra's requirements (the ``dev`` extra's inclusion of
    the others expanded, since ttr-engine is not on an index)."""
    words = shlex.split(install_command(extra))
    assert words[:2] == ["pip", "install"]
    assert sorted(words[2:]) == sorted(set(declared_requirements(extra)))


def test_install_command_without_metadata_installs_from_a_clone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run from a source tree that is not installed, the command is the clone's extra."""
    monkeypatch.setattr(extras, "_requirements", lambda: None)
    assert install_command("rl") == 'pip install ".[rl]"'


def test_install_command_for_an_extra_the_metadata_lacks_installs_from_a_clone() -> None:
    """An installation older than its sources (an extra added since) gets the clone's form,
    never an error in place of the one being reported."""
    assert install_command("gpu") == 'pip install ".[gpu]"'


def test_every_extra_a_message_names_is_declared() -> None:
    """A message's extra is one of pyproject.toml's, so its command installs something."""
    assert hinted_extras() <= set(PROJECT["optional-dependencies"])


# --- pip, for real -----------------------------------------------------------------------


def pip(python: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """This environment's pip, acting on the environment of ``python``."""
    return subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def empty_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The interpreter of a new environment with nothing installed (not even pip)."""
    where = tmp_path_factory.mktemp("empty-venv")
    venv.create(where, with_pip=False)
    return where / "bin" / "python"


def union_of_targets() -> list[str]:
    """Every target of every line, merged: each project once with all the extras it is
    asked for (a wheel counts as the project it is built from), then the requirements."""
    projects: dict[str, set[str]] = {}
    requirements: list[str] = []
    for line in LINES:
        for target in line.targets:
            if not is_local(target):
                requirements.append(target)
                continue
            path, names = local_parts(target)
            key = "." if path.endswith(".whl") else Path(path).as_posix()
            projects.setdefault(key, set()).update(names)
    return [
        (f"./{path}" if path != "." else ".") + (f"[{','.join(sorted(names))}]" if names else "")
        for path, names in sorted(projects.items())
    ] + sorted(set(requirements))


@pytest.mark.slow
def test_every_install_line_resolves_in_an_empty_environment(empty_python: Path) -> None:
    """pip resolves all the lines at once from the root of the clone (``--dry-run``): the
    project with every extra named, the editions packaged on their own beside it (they
    need the engine installed first, as the guides say), and every requirement named. A
    set that resolves together resolves line by line."""
    targets = union_of_targets()
    assert "." in {t.partition("[")[0] for t in targets}
    done = pip(empty_python, "install", "--dry-run", "--quiet", *targets)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.slow
def test_ttr_engine_is_on_no_index(empty_python: Path, tmp_path: Path) -> None:
    """``pip install ttr-engine`` fails: the documentation must not offer it."""
    done = pip(empty_python, "install", "--dry-run", "--no-deps", "ttr-engine", cwd=tmp_path)
    assert done.returncode != 0
    assert "No matching distribution found for ttr-engine" in done.stderr, done.stderr[-2000:]


@pytest.mark.slow
def test_an_edition_alone_cannot_be_installed_before_the_engine(
    empty_python: Path,
) -> None:
    """An edition packaged on its own needs ttr installed first (why the guides say so)."""
    done = pip(empty_python, "install", "--dry-run", "--quiet", "./examples/ttr-example-edition")
    assert done.returncode != 0
    assert "ttr-engine" in done.stderr, done.stderr[-2000:]
