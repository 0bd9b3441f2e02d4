"""Where games are kept: SQLite (embedded, the default) or PostgreSQL, one interface.

A game is its setup (edition, options, seed, start player, seats) and its action log; the
record is rebuilt by replaying the log from the seed. Every accepted action is appended in
one transaction with the game's new status before the server acknowledges it, so nothing
acknowledged is ever lost. Seat tokens are kept only as their SHA-256 hashes.
"""

from __future__ import annotations

import abc
import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from attrs import frozen

from ttr_core.model.errors import MissingExtraError
from ttr_core.model.extras import install_command

PLAYING = "playing"
"""The status of a game that goes on."""

FINISHED = "finished"
"""The status of a game that has ended (its scores are kept with it)."""

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        edition TEXT NOT NULL,
        options TEXT NOT NULL,
        seed BIGINT NOT NULL,
        start_player INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL,
        current_seat INTEGER,
        actions INTEGER NOT NULL,
        scores TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS seats (
        game_id TEXT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        bot TEXT,
        token_hash TEXT,
        PRIMARY KEY (game_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL REFERENCES games(id),
        idx INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (game_id, idx)
    )""",
)


@frozen
class SeatRow:
    """One seat as stored: its name, its bot spec (None for a human) and token hash."""

    seat: int
    name: str
    bot: str | None
    token_hash: str | None


@frozen
class GameRow:
    """One game as stored, without its actions."""

    id: str
    edition: str
    options: dict[str, Any]
    seed: int
    start_player: int
    created: float
    seats: tuple[SeatRow, ...]
    status: str = PLAYING
    current: int | None = None
    """The seat to act, None once the game is over."""
    actions: int = 0
    scores: list[dict[str, Any]] | None = None
    """Per seat ``{"name", "total", "winner"}`` once the game is over."""


class StoreError(Exception):
    """The database refused a write (a lost connection, a full disk, a conflict)."""


class Store(Protocol):
    """What the server needs of a database; SQLite and PostgreSQL both provide it."""

    def create_game(self, game: GameRow) -> None:
        """Keep a new game with its seats (no actions yet)."""
        ...

    def append_action(
        self,
        game_id: str,
        index: int,
        action: str,
        *,
        status: str,
        current: int | None,
        scores: list[dict[str, Any]] | None,
    ) -> None:
        """Add the ``index``-th action (JSON text) and the game's new status, at once.

        :raises StoreError: nothing was written.
        """
        ...

    def games(self) -> list[GameRow]:
        """Every game, oldest first."""
        ...

    def game(self, game_id: str) -> GameRow | None:
        """The game with this id, or None."""
        ...

    def actions(self, game_id: str) -> list[str]:
        """The game's actions (JSON text) in order."""
        ...

    def close(self) -> None:
        """Release the connection."""
        ...


class _SqlStore(abc.ABC):
    """The SQL both databases share; subclasses open the connection and transactions."""

    _placeholder = "?"

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @abc.abstractmethod
    def _transaction(self) -> contextlib.AbstractContextManager[Any]:
        """A cursor in one transaction, committed on leaving, rolled back on an error."""

    def _sql(self, text: str) -> str:
        return text.replace("?", self._placeholder)

    def _setup(self) -> None:
        with self._transaction() as cur:
            for statement in _SCHEMA:
                cur.execute(statement)

    def create_game(self, game: GameRow) -> None:
        """Keep a new game with its seats (no actions yet)."""
        with self._transaction() as cur:
            cur.execute(
                self._sql(
                    "INSERT INTO games (id, edition, options, seed, start_player, created,"
                    " status, current_seat, actions, scores) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                (
                    game.id,
                    game.edition,
                    json.dumps(game.options),
                    game.seed,
                    game.start_player,
                    game.created,
                    game.status,
                    game.current,
                    game.actions,
                    None if game.scores is None else json.dumps(game.scores),
                ),
            )
            for s in game.seats:
                cur.execute(
                    self._sql(
                        "INSERT INTO seats (game_id, seat, name, bot, token_hash)"
                        " VALUES (?, ?, ?, ?, ?)"
                    ),
                    (game.id, s.seat, s.name, s.bot, s.token_hash),
                )

    def append_action(
        self,
        game_id: str,
        index: int,
        action: str,
        *,
        status: str,
        current: int | None,
        scores: list[dict[str, Any]] | None,
    ) -> None:
        """Add the ``index``-th action and the game's new status in one transaction.

        :raises StoreError: nothing was written (the index is taken, or the write failed).
        """
        try:
            with self._transaction() as cur:
                cur.execute(
                    self._sql("INSERT INTO actions (game_id, idx, action) VALUES (?, ?, ?)"),
                    (game_id, index, action),
                )
                cur.execute(
                    self._sql(
                        "UPDATE games SET status = ?, current_seat = ?, actions = ?, scores = ?"
                        " WHERE id = ? AND actions = ?"
                    ),
                    (
                        status,
                        current,
                        index + 1,
                        None if scores is None else json.dumps(scores),
                        game_id,
                        index,
                    ),
                )
                if cur.rowcount != 1:
                    raise StoreError(f"game {game_id!r} has no action {index - 1} to follow")
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"the action could not be saved: {type(exc).__name__}") from exc

    def _rows(self, where: str, params: Sequence[Any]) -> list[GameRow]:
        with self._transaction() as cur:
            cur.execute(
                self._sql(
                    "SELECT id, edition, options, seed, start_player, created, status,"
                    f" current_seat, actions, scores FROM games {where} ORDER BY created, id"
                ),
                tuple(params),
            )
            games = cur.fetchall()
            ids = [g[0] for g in games]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            cur.execute(
                self._sql(
                    "SELECT game_id, seat, name, bot, token_hash FROM seats"
                    + (" WHERE game_id = ?" if where else "")
                    + " ORDER BY game_id, seat"
                ),
                tuple(params),
            )
            for game_id, seat, name, bot, hashed in cur.fetchall():
                if game_id in seats:
                    seats[game_id].append(SeatRow(seat, name, bot, hashed))
        return [
            GameRow(
                id=g[0],
                edition=g[1],
                options=json.loads(g[2]),
                seed=int(g[3]),
                start_player=int(g[4]),
                created=float(g[5]),
                seats=tuple(seats[g[0]]),
                status=g[6],
                current=g[7],
                actions=int(g[8]),
                scores=None if g[9] is None else json.loads(g[9]),
            )
            for g in games
        ]

    def games(self) -> list[GameRow]:
        """Every game, oldest first."""
        return self._rows("", ())

    def game(self, game_id: str) -> GameRow | None:
        """The game with this id, or None."""
        found = self._rows("WHERE id = ?", (game_id,))
        return found[0] if found else None

    def actions(self, game_id: str) -> list[str]:
        """The game's actions (JSON text) in order."""
        with self._transaction() as cur:
            cur.execute(
                self._sql("SELECT action FROM actions WHERE game_id = ? ORDER BY idx"), (game_id,)
            )
            return [row[0] for row in cur.fetchall()]


class SQLiteStore(_SqlStore):
    """Games in a SQLite file, created on first use; every commit is synced to disk."""

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the database file at ``path``."""
        super().__init__()
        self.path = Path(path)
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._setup()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Cursor]:
        with self._lock:
            cur = self._conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    def close(self) -> None:
        """Close the database file."""
        with self._lock:
            self._conn.close()


class PostgresStore(_SqlStore):
    """Games in a PostgreSQL database given by URL (``postgresql://user@host/db``)."""

    _placeholder = "%s"

    def __init__(self, url: str) -> None:
        """Connect to the database at ``url`` and create the tables if they are missing.

        :raises MissingExtraError: the PostgreSQL driver (psycopg) is not installed.
        """
        super().__init__()
        try:
            import psycopg
        except ImportError:
            raise MissingExtraError(
                f"a PostgreSQL database needs psycopg: {install_command('server')}"
            ) from None
        self._conn = psycopg.connect(url, autocommit=True)
        self._setup()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._lock, self._conn.transaction(), self._conn.cursor() as cur:
            yield cur

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()


def open_store(db: str) -> Store:
    """The store for ``db``: a ``postgresql://`` (or ``postgres://``) URL, else a SQLite path."""
    if db.startswith(("postgresql://", "postgres://")):
        return PostgresStore(db)
    return SQLiteStore(db)


def now() -> float:
    """The time a game is created at (seconds since the epoch)."""
    return time.time()
