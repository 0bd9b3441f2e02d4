"""The game server behind ``ttr serve``: games over HTTP and WebSockets, kept in a database.

This package needs the ``server`` extra (Starlette, uvicorn and websockets; psycopg for
PostgreSQL); without it, importing the package raises
[`MissingExtraError`][ttr_core.model.errors.MissingExtraError] naming the command that
installs it. [`create_app`][ttr_core.server.app.create_app] builds the ASGI application;
the protocol is described in the server protocol reference.
"""

from __future__ import annotations

from ttr_core.model.errors import MissingExtraError
from ttr_core.model.extras import install_command

try:
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
    import websockets  # noqa: F401
except ImportError as exc:
    raise MissingExtraError(
        f"ttr serve needs Starlette, uvicorn and websockets, and {exc.name or exc} cannot be "
        f"imported: {install_command('server')}"
    ) from None

from ttr_core.server.app import create_app

__all__ = ["create_app"]
