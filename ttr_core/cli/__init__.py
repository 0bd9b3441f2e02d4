"""The ``ttr`` command line: editions, map, simulate, score, replay, render, study, arena,
odds, play and serve.

Every command prints its results on standard output. Every error is one line
``ttr: error: ...`` on standard error, with exit status 2 for a command line that does not
make sense and 1 for anything else; set ``TTR_DEBUG=1`` to see the traceback of an
unexpected failure.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from ttr_core import __version__, compiled
from ttr_core.cli import (
    arena,
    editions,
    map,
    odds,
    play,
    render,
    replay,
    score,
    serve,
    simulate,
    study,
)
from ttr_core.cli._common import CommandError, Parser, UsageError
from ttr_core.model.errors import TtrError, shorten

COMMANDS = (editions, map, simulate, score, replay, render, study, arena, odds, play, serve)


BUILD = "compiled" if compiled else "pure Python"
"""Which build is running, as ``ttr --version`` shows it."""


def build_parser() -> Parser:
    """The argument parser of ``ttr`` with one sub-command per command module."""
    parser = Parser(
        prog="ttr",
        description="The rules of Ticket to Ride: editions, maps, bot games, scoring, replays.",
    )
    parser.add_argument("--version", action="version", version=f"ttr {__version__} ({BUILD})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in COMMANDS:
        module.register(sub)
    return parser


def _error(message: str, status: int) -> int:
    """Print ``ttr: error: ...`` on one line of at most MAX_MESSAGE characters of message."""
    text = shorten(" ".join(str(message).split())) or "unknown error"
    sys.stderr.write(f"ttr: error: {text}\n")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ttr`` with ``argv`` (the process arguments by default); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            names = ", ".join(m.__name__.rsplit(".", 1)[-1] for m in COMMANDS)
            raise UsageError(f"choose a command: {names} (see 'ttr --help')")
        status: int = args.run(args)
        sys.stdout.flush()
        return status
    except UsageError as exc:
        return _error(str(exc), 2)
    except (CommandError, TtrError) as exc:
        return _error(str(exc), 1)
    except BrokenPipeError:
        # The reader went away (e.g. ``ttr simulate --json | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as exc:
        return _error(str(exc), 1)
    except KeyboardInterrupt:
        return _error("interrupted", 130)
    except Exception as exc:
        if os.environ.get("TTR_DEBUG"):
            raise
        return _error(f"unexpected {type(exc).__name__}: {exc} (TTR_DEBUG=1 shows details)", 1)
