"""Misuse of every ``ttr`` command: one error line, a non-zero status, never a traceback.

Commands are found from the parser itself, so a new command is covered by the generic
cases (unknown option, option without its value, bad value types, missing and extra
arguments) as soon as it is registered. Each command that reads files or builds a
ruleset also gets its own cases: missing and unreadable files, bad JSON, unknown
editions and bad options.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from attrs import frozen

from ttr_core.cli import build_parser, main
from ttr_core.testing import play_game, ruleset

USAGE = 2
FAILURE = 1


@frozen
class Misuse:
    """A command line that must fail: its arguments, status and message pattern."""

    args: tuple[str, ...]
    status: int
    message: str = ""
    stdin: bytes | None = None


def run(
    args: tuple[str, ...], stdin: bytes | None, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.delenv("TTR_DEBUG", raising=False)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse must never exit on its own for a misuse
        raise AssertionError(f"SystemExit({exc.code}) escaped for {args}") from None
    out = capsys.readouterr()
    return code, out.out, out.err


def check_misuse(case: Misuse, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    code, out, err = run(case.args, case.stdin, capsys, monkeypatch)
    assert code == case.status, (case.args, code, err)
    assert out == "", (case.args, out)
    lines = err.splitlines()
    assert len(lines) == 1, (case.args, err)
    assert lines[0].startswith("ttr: error: "), lines[0]
    assert "Traceback" not in err
    assert "unexpected" not in lines[0], lines[0]
    if case.message:
        assert case.message in lines[0], (case.message, lines[0])
    return lines[0]


# -- generic misuse of every command, found from the parser ------------------------------------


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command line prefix that selects a command, with its parser."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if path:
        yield path, parser
    for action in subs:
        for name, sub in action.choices.items():
            yield from commands(sub, (*path, name))


def value_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [
        a
        for a in parser._actions
        if a.option_strings and a.nargs != 0 and not isinstance(a, argparse._HelpAction)
    ]


def generic_cases() -> Iterator[Misuse]:
    yield Misuse((), USAGE, "choose a command")
    yield Misuse(("frobnicate",), USAGE, "invalid choice: 'frobnicate'")
    yield Misuse(("--no-such-flag",), USAGE, "--no-such-flag")
    for path, parser in commands(build_parser()):
        required = [a for a in parser._actions if a.required]
        yield Misuse((*path, "--no-such-flag"), USAGE, "" if required else "--no-such-flag")
        yield Misuse((*path, "a", "b", "c", "d", "e"), USAGE)
        for action in value_actions(parser):
            flag = action.option_strings[-1]
            yield Misuse((*path, flag), USAGE, flag)
            if action.type is not None and action.type not in (str,):
                for bad in ("not-a-number", ""):
                    yield Misuse((*path, flag, bad), USAGE, flag)
        if required:
            yield Misuse(path, USAGE, "required")


GENERIC = list(generic_cases())


@pytest.mark.parametrize("case", GENERIC, ids=[" ".join(c.args) or "(none)" for c in GENERIC])
def test_generic_misuse(case: Misuse, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Usage errors of every command are one line with status 2."""
    check_misuse(case, capsys, monkeypatch)


def test_every_command_is_covered() -> None:
    """The generic cases reach every registered command."""
    names = {path[0] for path, _ in commands(build_parser())}
    assert {"editions", "map", "simulate", "score", "replay"} <= names
    covered = {c.args[0] for c in GENERIC if c.args and c.args[0] in names}
    assert covered == names


# -- command-specific misuse ---------------------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Input files of every kind of wrongness."""
    root = tmp_path_factory.mktemp("inputs")
    game = play_game(ruleset("usa"), 2, 3)
    record = json.loads(game.save(compact=False))
    texts: dict[str, str | bytes] = {
        "empty": "",
        "not_json": "this is not JSON",
        "binary": b"\x89PNG\r\n\x1a\n\x00\xff",
        "truncated_record": game.save(compact=False)[:500],
        "array": "[]",
        "deep": "[" * 100_000 + "]" * 100_000,
        "tampered": json.dumps({**record, "map_hash": "0" * 64}),
        "future_record": json.dumps({**record, "format": 99}),
        "unknown_edition_record": json.dumps({**record, "edition": "atlantis"}),
        "illegal_record": json.dumps(
            {
                **record,
                "log": [{"action": {"tag": "pass"}, "events": []}, *record["log"]],
            }
        ),
        "position_unknown_edition": json.dumps({"edition": "atlantis", "players": []}),
        "position_no_players": json.dumps({"edition": "usa", "players": []}),
        "position_bad_city": json.dumps(
            {
                "edition": "usa",
                "players": [
                    {"name": "A", "routes": [{"a": "Nowhere", "b": "Omaha"}], "tickets": []}
                ],
            }
        ),
        "position_twice": json.dumps(
            {
                "edition": "usa",
                "players": [
                    {"name": "A", "routes": [{"a": "Denver", "b": "Omaha"}] * 2, "tickets": []}
                ],
            }
        ),
        "position_ok": json.dumps(
            {"edition": "usa", "players": [{"name": "A", "routes": [], "tickets": []}]}
        ),
    }
    out = {}
    for name, text in texts.items():
        path = root / f"{name}.json"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        out[name] = str(path)
    out["missing"] = str(root / "missing.json")
    out["directory"] = str(root)
    return out


def specific_cases(f: dict[str, str]) -> list[Misuse]:
    cases = [
        Misuse(("editions", "usa"), USAGE, "unrecognized arguments"),
        Misuse(("map", "atlantis"), FAILURE, "unknown edition 'atlantis'"),
        Misuse(("map", ""), FAILURE, "unknown edition"),
        Misuse(("map", "usa", "--option", "noequals"), USAGE, "expected KEY=VALUE"),
        Misuse(("map", "usa", "--option", "=4"), USAGE, "expected KEY=VALUE"),
        Misuse(("map", "usa", "--option", "speed=2"), FAILURE, "no option 'speed'"),
        Misuse(("map", "usa", "--option", "opening_tickets=5"), FAILURE, "opening_tickets"),
        Misuse(("map", "usa", "--option", "opening_tickets=three"), FAILURE, "opening_tickets"),
        Misuse(("map", "usa", "--option", 'opening_tickets="4"'), FAILURE, "opening_tickets"),
        Misuse(
            ("map", "usa", "--option", "opening_tickets=4", "--option", "opening_tickets=3"),
            USAGE,
            "given twice",
        ),
        Misuse(("simulate", "--edition", "atlantis"), FAILURE, "unknown edition 'atlantis'"),
        Misuse(("simulate", "--players", "0"), USAGE, "--players"),
        Misuse(("simulate", "--players", "9"), USAGE, "--players"),
        Misuse(("simulate", "--players", "1"), USAGE, "--players"),
        Misuse(("simulate", "--games", "0"), USAGE, "--games"),
        Misuse(("simulate", "--games", "1.5"), USAGE, "--games"),
        Misuse(("simulate", "--seed", "x"), USAGE, "--seed"),
        Misuse(("simulate", "--seed", "1e3"), USAGE, "--seed"),
        Misuse(("simulate", "--bots", ""), USAGE, "--bots"),
        Misuse(("simulate", "--bots", ","), USAGE, "--bots"),
        Misuse(("simulate", "--bots", "random,,greedy"), USAGE, "--bots"),
        Misuse(("simulate", "--games", "1", "--bots", "nosuchbot"), FAILURE, "nosuchbot"),
        Misuse(("simulate", "--games", "1", "--bots", "os:path"), FAILURE),
        Misuse(("simulate", "--games", "1", "--bots", "no.such.module:Bot"), FAILURE),
        Misuse(("simulate", "--option", "speed=2"), FAILURE, "no option 'speed'"),
        Misuse(("simulate", "--option", "x"), USAGE, "expected KEY=VALUE"),
        Misuse(("score", f["missing"]), FAILURE, "cannot read"),
        Misuse(("score", f["directory"]), FAILURE, "cannot read"),
        Misuse(("score", f["empty"]), FAILURE, "not valid JSON"),
        Misuse(("score", f["not_json"]), FAILURE, "not valid JSON"),
        Misuse(("score", f["binary"]), FAILURE, "not valid JSON"),
        Misuse(("score", f["array"]), FAILURE, "expected an object"),
        Misuse(("score", f["position_unknown_edition"]), FAILURE, "unknown edition 'atlantis'"),
        Misuse(("score", f["position_no_players"]), FAILURE, "at least one player"),
        Misuse(("score", f["position_bad_city"]), FAILURE, "players[0].routes[0]"),
        Misuse(("score", f["position_twice"]), FAILURE, "players[0].routes[1]"),
        Misuse(("score", f["position_ok"], "--option", "speed=2"), FAILURE, "no option 'speed'"),
        Misuse(("score", f["position_ok"], "--option", "a"), USAGE, "expected KEY=VALUE"),
        Misuse(("score", "-"), FAILURE, "not valid JSON", stdin=b""),
        Misuse(("score", "-"), FAILURE, "not valid JSON", stdin=b"\xff\xfe"),
        Misuse(("replay", f["missing"]), FAILURE, "cannot read"),
        Misuse(("replay", f["directory"]), FAILURE, "cannot read"),
        Misuse(("replay", f["empty"]), FAILURE, "not valid JSON"),
        Misuse(("replay", f["not_json"]), FAILURE, "not valid JSON"),
        Misuse(("replay", f["binary"]), FAILURE, "not valid JSON"),
        Misuse(("replay", f["truncated_record"]), FAILURE, "not valid JSON"),
        Misuse(("replay", f["array"]), FAILURE, "JSON object"),
        Misuse(("replay", f["tampered"]), FAILURE, "map data"),
        Misuse(("replay", f["future_record"]), FAILURE, "unsupported record format 99"),
        Misuse(("replay", f["unknown_edition_record"]), FAILURE, "unknown edition 'atlantis'"),
        Misuse(("replay", f["illegal_record"]), FAILURE, "log[0]"),
        Misuse(("replay", f["position_ok"]), FAILURE, "format"),
        Misuse(("replay", "-"), FAILURE, "not valid JSON", stdin=b"{"),
    ]
    if "odds" in {p[0] for p, _ in commands(build_parser())}:
        cases += [
            Misuse(("odds",), USAGE, "tunnel"),
            Misuse(("odds", "tunnel", "--pool", "2", "--matching", "3"), USAGE, "--matching"),
            Misuse(("odds", "dice"), USAGE, "invalid choice"),
        ]
    return cases


class _Named(dict[str, str]):
    """File names standing for the files: ``@name`` in a case's arguments."""

    def __missing__(self, key: str) -> str:
        return f"@{key}"


SPECIFIC = specific_cases(_Named())


@pytest.mark.parametrize("case", SPECIFIC, ids=[" ".join(c.args) for c in SPECIFIC])
def test_specific_misuse(
    case: Misuse, files: dict[str, str], capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command's own misuse gives one precise error line."""
    args = tuple(files[a[1:]] if a.startswith("@") else a for a in case.args)
    check_misuse(Misuse(args, case.status, case.message, case.stdin), capsys, monkeypatch)


def test_there_are_many_specific_cases() -> None:
    """Every command has cases of its own."""
    assert len(SPECIFIC) >= 50
    assert {c.args[0] for c in SPECIFIC} >= {"editions", "map", "simulate", "score", "replay"}


@pytest.mark.parametrize("command", ["score", "replay"])
def test_deeply_nested_input_is_a_precise_error(
    files: dict[str, str], command: str, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Input nested beyond the parser's limit is refused as bad input, not 'unexpected'."""
    check_misuse(Misuse((command, files["deep"]), FAILURE, "JSON"), capsys, monkeypatch)


# -- in a real process ---------------------------------------------------------------------

PROCESS_CASES = [
    Misuse(("frobnicate",), USAGE),
    Misuse(("map", "atlantis"), FAILURE),
    Misuse(("simulate", "--players", "0"), USAGE),
    Misuse(("score", "-"), FAILURE, stdin=b"[" * 100_000),
    Misuse(("replay", "-"), FAILURE, stdin=b"\xff"),
]


@pytest.mark.parametrize("case", PROCESS_CASES, ids=[" ".join(c.args) for c in PROCESS_CASES])
def test_misuse_in_a_real_process(case: Misuse) -> None:
    """Run as a program: status, one ``ttr: error:`` line on stderr, no traceback."""
    env = {k: v for k, v in os.environ.items() if k != "TTR_DEBUG"}
    done = subprocess.run(
        [sys.executable, "-m", "ttr_core", *case.args],
        input=case.stdin or b"",
        capture_output=True,
        check=False,
        env=env,
        cwd=Path(__file__).resolve().parents[1],
    )
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == case.status, err
    assert done.stdout == b""
    assert err.count("\n") == 1 and err.startswith("ttr: error: "), err
    assert "Traceback" not in err
