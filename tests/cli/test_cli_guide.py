"""The guides work as written: every shell command of the CLI guide runs with the status
it documents, and every snippet of the add-an-edition guide imports what it uses."""

from __future__ import annotations

import ast
import builtins
import os
import re
import shlex
import subprocess
import symtable
import sys
from pathlib import Path

import attrs
import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "how-to" / "cli.md"
ADD_AN_EDITION = ROOT / "docs" / "how-to" / "add-an-edition.md"

FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```$", re.M | re.S)
SHELL = ("bash", "sh", "console")
STATUS = re.compile(r"#\s*exit status (\d+)\s*$")
SAFE_PROGRAMS = frozenset({"ttr", "cat", "echo", "head", "ls", "mkdir", "wc"})
"""What a guide command may run: ttr, and harmless helpers to feed or inspect it."""

PREAMBLE = 'set -o pipefail\nttr() { "$TTR_PYTHON" -m ttr_core "$@"; }\n'
"""Runs ``ttr`` with the interpreter of the tests, whatever is on the PATH."""


@attrs.frozen
class Command:
    """One command line of a guide, with the exit status and output it documents."""

    line: str
    status: int = 0
    output: tuple[str, ...] | None = None
    """The lines a ``console`` block shows after the command (None: not shown)."""


def shell_commands(text: str) -> list[Command]:
    """The commands of the ``bash``, ``sh`` and ``console`` blocks of a page, in order.

    In ``bash`` and ``sh`` blocks every line but comments is a command; in ``console``
    blocks the lines after ``$ `` are, and the lines up to the next prompt are their
    output. A trailing ``# exit status N`` comment gives the expected status (else 0).
    """
    found: list[Command] = []
    for block in FENCE.finditer(text):
        if block["lang"] not in SHELL:
            continue
        console = block["lang"] == "console"
        current: list[str] = []  # the command and its output lines
        pending: list[list[str]] = []
        for raw in block["body"].splitlines():
            line = raw.rstrip()
            if console and not line.startswith("$ "):
                if current:
                    current.append(line)
                continue
            line = line.removeprefix("$ ").strip() if console else line.strip()
            if not line or line.startswith("#"):
                continue
            if current and current[0].endswith("\\"):
                current[0] = current[0][:-1] + line
                continue
            current = [line]
            pending.append(current)
        for cmd, *shown in pending:
            match = STATUS.search(cmd)
            found.append(
                Command(
                    line=cmd,
                    status=int(match[1]) if match else 0,
                    output=tuple(shown) if console and shown else None,
                )
            )
    return found


def programs(line: str) -> list[str]:
    """The program each part of a shell pipeline or list starts."""
    words = shlex.split(line, comments=True)
    out, start = [], True
    for word in words:
        if start and not re.fullmatch(r"\w+=.*", word):
            out.append(word)
            start = False
        if word in ("|", "||", "&&", ";"):
            start = True
    return out


def run(command: Command, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a guide command with bash in ``cwd``, where ``examples`` is the repository's."""
    env = {**os.environ, "TTR_PYTHON": sys.executable}
    return subprocess.run(
        ["bash", "-c", PREAMBLE + command.line],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
        check=False,
    )


def test_shell_commands_are_read_with_their_status_and_output() -> None:
    page = """
```bash
ttr editions
# a comment
ttr map usa \\
    --json > usa.json   # a trailing comment
```

```console
$ ttr score nowhere.json    # exit status 1
ttr: error: cannot read nowhere.json: No such file or directory
$ ttr odds tunnel --pool 20 --matching 5
```

```python
print("not a command")
```
"""
    assert shell_commands(page) == [
        Command("ttr editions"),
        Command("ttr map usa --json > usa.json   # a trailing comment"),
        Command(
            "ttr score nowhere.json    # exit status 1",
            status=1,
            output=("ttr: error: cannot read nowhere.json: No such file or directory",),
        ),
        Command("ttr odds tunnel --pool 20 --matching 5"),
    ]
    assert programs("cat a.json | ttr score - && ls  # x | rm") == ["cat", "ttr", "ls"]
    assert programs("TTR_DEBUG=1 ttr map usa") == ["ttr"]


@pytest.mark.slow
def test_every_command_of_the_cli_guide_runs(tmp_path: Path) -> None:
    """Each command runs in turn from one folder where ``examples/`` is the repository's,
    so files a command writes (``> nordic.json``, ``--save DIR``) are there for the next."""
    commands = shell_commands(GUIDE.read_text(encoding="utf-8"))
    used = {c.line.split()[1] for c in commands if c.line.startswith("ttr ")}
    assert used >= {"editions", "map", "simulate", "score", "replay", "odds"}
    for command in commands:
        unsafe = set(programs(command.line)) - SAFE_PROGRAMS
        assert not unsafe, f"{command.line!r} runs {sorted(unsafe)}"
        assert not re.search(r">\s*(/|\.\.)", command.line), f"{command.line!r} writes outside"
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    failures = []
    for command in commands:
        done = run(command, tmp_path)
        shown = tuple(line.rstrip() for line in (done.stdout + done.stderr).splitlines())
        if done.returncode != command.status:
            failures.append(f"{command.line}: status {done.returncode}\n{done.stderr}")
        elif command.output is not None and shown != command.output:
            failures.append(f"{command.line}: printed {shown}, the guide shows {command.output}")
        elif command.status and "Traceback" in done.stderr:
            failures.append(f"{command.line}: traceback\n{done.stderr}")
    assert not failures, "\n".join(failures)


def test_the_guide_documents_errors_with_their_status() -> None:
    commands = shell_commands(GUIDE.read_text(encoding="utf-8"))
    errors = [c for c in commands if c.status]
    assert {c.status for c in errors} == {1, 2}
    for c in errors:
        assert c.output is not None and len(c.output) == 1
        assert c.output[0].startswith("ttr: error: ")


# -- add-an-edition: every snippet imports what it uses -----------------------------------------


def python_blocks(text: str) -> list[str]:
    return [m["body"] for m in FENCE.finditer(text) if m["lang"] == "python"]


def undefined_names(source: str) -> set[str]:
    """Names the code uses that it neither defines nor imports, and that are not builtins."""
    top = symtable.symtable(source, "<snippet>", "exec")
    defined = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    used: set[str] = set()
    tables = [top]
    while tables:
        table = tables.pop()
        used |= {
            s.get_name()
            for s in table.get_symbols()
            if s.is_referenced() and (table is top or s.is_global())
        }
        tables.extend(table.get_children())
    return used - defined - set(dir(builtins))


def test_undefined_names_finds_a_missing_import() -> None:
    snippet = (
        "from ttr_core import hookimpl\n"
        "LIMIT = 3\n\n"
        "@hookimpl\n"
        "def ttr_map_data(options: Mapping[str, Any]) -> MapData:\n"
        "    return [n for n in range(LIMIT) if n in HARBOURS]\n"
    )
    assert undefined_names(snippet) == {"Mapping", "Any", "MapData", "HARBOURS"}


def imports_only(source: str) -> ast.Module:
    """The top-level import statements of some code, as a module of their own."""
    tree = ast.parse(source)
    body = [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
    return ast.Module(body=body, type_ignores=[])


@pytest.mark.parametrize("index", range(len(python_blocks(ADD_AN_EDITION.read_text("utf-8")))))
def test_each_add_an_edition_snippet_has_its_imports(index: int) -> None:
    """Every name a snippet uses is defined or imported in it, and its imports work."""
    block = python_blocks(ADD_AN_EDITION.read_text(encoding="utf-8"))[index]
    compile(block, f"add-an-edition[{index}]", "exec")
    assert undefined_names(block) == set(), block
    namespace: dict[str, object] = {}
    exec(compile(imports_only(block), f"add-an-edition[{index}] imports", "exec"), namespace)
