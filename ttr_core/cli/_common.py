"""What the ``ttr`` commands share: the argument parser, input files, options and output."""

from __future__ import annotations

import argparse
import json
import sys
import weakref
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from attrs import frozen
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from ttr_core.model.mapdata import Ticket, Track

if TYPE_CHECKING:
    from ttr_core.ruleset.ruleset import Ruleset


class UsageError(Exception):
    """A command line that does not make sense (exit status 2)."""


class CommandError(Exception):
    """A command that cannot be carried out, with a message for the user (exit status 1)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are exceptions, so ``main`` reports them in one line."""

    def error(self, message: str) -> NoReturn:
        """Raise `UsageError` instead of printing the usage and exiting."""
        hint = f" (see '{self.prog} --help')"
        raise UsageError(message + hint)


def sentence(text: str) -> str:
    """``text`` with a capital first letter (command help lines start in lower case)."""
    return text[:1].upper() + text[1:]


def positive_int(text: str) -> int:
    """An argument type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def option_pair(text: str) -> tuple[str, Any]:
    """An argument type: ``KEY=VALUE``; the value is read as JSON when it is JSON (``4``,
    ``true``), else kept as text."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        value: Any = json.loads(raw)
    except (ValueError, RecursionError):
        value = raw
    return key.strip(), value


def options_dict(pairs: Sequence[tuple[str, Any]] | None) -> dict[str, Any]:
    """The ``--option`` pairs as a mapping; a key given twice is a usage error."""
    out: dict[str, Any] = {}
    for key, value in pairs or ():
        if key in out:
            raise UsageError(f"argument --option: {key!r} is given twice")
        out[key] = value
    return out


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """The repeatable ``--option KEY=VALUE`` argument of commands that build a ruleset."""
    parser.add_argument(
        "--option",
        dest="options",
        metavar="KEY=VALUE",
        type=option_pair,
        action="append",
        help="an edition option, e.g. opening_tickets=4 (repeatable)",
    )


def read_input(path: str) -> tuple[str, bytes]:
    """Read a whole input file, or standard input for ``-``; return ``(shown name, bytes)``.

    :raises CommandError: the file cannot be read.
    """
    if path == "-":
        return "<stdin>", sys.stdin.buffer.read()
    try:
        with open(path, "rb") as f:
            return path, f.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise CommandError(f"cannot read {path}: {reason}") from None


PIPE_WIDTH = 1 << 20
"""The console width when standard output is not a terminal: wider than any line printed."""


def stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (and not a pipe or a file)."""
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class _PipeConsole(Console):
    """A console for a pipe or a file: nothing is wrapped or cut to fit a width.

    Lines are never wrapped (the console is `PIPE_WIDTH` wide) and every table is
    made at least as wide as its title and caption, which rich would otherwise wrap to the
    width of the columns.
    """

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """Print like `rich.console.Console.print`, with tables fitted to their titles."""
        for obj in objects:
            if isinstance(obj, Table):
                notes = [str(t) for t in (obj.title, obj.caption) if t is not None]
                widest = max((cell_len(line) for n in notes for line in n.splitlines()), default=0)
                obj.min_width = max(obj.min_width or 0, widest)
        super().print(*objects, **kwargs)


def console() -> Console:
    """A console on standard output, plain text without markup.

    On a terminal, tables fit the terminal's width. Anywhere else (``ttr editions | cat``,
    ``ttr map usa > usa.txt``) every line is printed whole: no wrapping, no ellipsis.
    """
    if stdout_is_terminal():
        return Console(highlight=False, markup=False, emoji=False)
    return _PipeConsole(highlight=False, markup=False, emoji=False, width=PIPE_WIDTH)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``1 double route``, ``2 double routes``: a count with its noun in the right number."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def print_json(value: Any, *, indent: int | None = 2) -> None:
    """Print JSON to standard output (UTF-8 text, not escaped)."""
    sys.stdout.write(json.dumps(value, indent=indent, ensure_ascii=False) + "\n")


@frozen
class MapIds:
    """A map's tracks and tickets by id: actions, events and views name them by id, the
    map data lists them in map order."""

    track_index: Mapping[int, int]
    """Track id -> track index (its position in ``rs.map.routes``)."""
    tracks: Mapping[int, Track]
    """Track id -> the track."""
    tickets: Mapping[int, Ticket]
    """Ticket id -> the ticket."""


_MAP_IDS: weakref.WeakKeyDictionary[Ruleset, MapIds] = weakref.WeakKeyDictionary()


def map_ids(rs: Ruleset) -> MapIds:
    """The `MapIds` of ``rs``'s map, built on first use and kept while ``rs`` lives,
    so that naming a track in every line of a log does not index the map again."""
    ids = _MAP_IDS.get(rs)
    if ids is None:
        ids = MapIds(
            track_index={t.id: r for r, t in enumerate(rs.map.routes)},
            tracks={t.id: t for t in rs.map.routes},
            tickets={t.id: t for t in rs.map.tickets},
        )
        _MAP_IDS[rs] = ids
    return ids
