"""``ttr serve``: run the game server (HTTP and WebSockets) over a SQLite file or PostgreSQL.

It binds to 127.0.0.1 unless told otherwise, creates the SQLite file on first start, and
resumes every unfinished game it finds in the database. The protocol is in the server
protocol reference.
"""

from __future__ import annotations

import argparse
import importlib
import math
from typing import Any

from ttr_core.cli._common import CommandError, UsageError, sentence
from ttr_core.model.errors import TtrError

HELP = "run the game server: games over HTTP and WebSockets, kept in a database"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DB = "ttr.sqlite"
DEFAULT_BOT_SECONDS = 10.0
"""The time limit of a bot's move; the server's ``BOT_SECONDS`` (the server package needs
an extra, so ``--help`` does not import it)."""
DEFAULT_CREATE_RATE = 1.0
"""Games a second per client address; the server's ``CREATE_RATE_PER_SECOND``."""


def _port(text: str) -> int:
    """An argument type: a TCP port, 0 to 65535 (0 picks a free one)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text!r}")
    return value


def _seconds(text: str) -> float:
    """An argument type: a finite number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}")
    return value


def _rate(text: str) -> float:
    """An argument type: a finite rate of at least zero (0 switches the limit off)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected games a second, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected games a second, 0 or more, got {text!r}")
    return value


def register(sub: Any) -> None:
    """Add the ``serve`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "serve",
        help=HELP,
        description=sentence(HELP) + ". Unfinished games in the database are resumed on start.",
    )
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default: {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"a SQLite file (created on first start) or a postgresql:// URL "
        f"(default: {DEFAULT_DB})",
    )
    parser.add_argument(
        "--bot-seconds",
        type=_seconds,
        default=DEFAULT_BOT_SECONDS,
        metavar="S",
        help=f"time limit of a server-side bot's move; past it the seat plays the random "
        f"bot's move (default: {DEFAULT_BOT_SECONDS:g})",
    )
    parser.add_argument(
        "--create-rate",
        type=_rate,
        default=DEFAULT_CREATE_RATE,
        metavar="N",
        help=f"games a second each client address may create, after a burst; 0 for no "
        f"limit (default: {DEFAULT_CREATE_RATE:g})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; return the exit status."""
    if not args.db.strip():
        raise UsageError("argument --db: expected a file path or a postgresql:// URL")
    # The server package raises MissingExtraError, naming the install command, when the
    # server extra (uvicorn included) is missing: import it first.
    from ttr_core.server import create_app
    from ttr_core.server.limits import MAX_FRAME_BYTES
    from ttr_core.server.storage import open_store

    uvicorn = importlib.import_module("uvicorn")

    try:
        store = open_store(args.db)
    except TtrError:
        raise
    except Exception as exc:
        raise CommandError(f"cannot open the database {args.db!r}: {exc}") from None
    try:
        uvicorn.run(
            create_app(store, bot_seconds=args.bot_seconds, create_rate=args.create_rate),
            host=args.host,
            port=args.port,
            ws_max_size=MAX_FRAME_BYTES,
            log_level="info",
        )
    finally:
        store.close()
    return 0
