"""``ttr serve``: run the game server (HTTP and WebSockets) over a SQLite file or PostgreSQL.

It binds to 127.0.0.1 unless told otherwise, creates the SQLite file on first start, and
resumes every unfinished game it finds in the database. The protocol is in the server
protocol reference.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from ttr_core.cli._common import CommandError, UsageError, sentence
from ttr_core.model.errors import TtrError

HELP = "run the game server: games over HTTP and WebSockets, kept in a database"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DB = "ttr.sqlite"


def _port(text: str) -> int:
    """An argument type: a TCP port, 0 to 65535 (0 picks a free one)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text!r}")
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
            create_app(store),
            host=args.host,
            port=args.port,
            ws_max_size=MAX_FRAME_BYTES,
            log_level="info",
        )
    finally:
        store.close()
    return 0
