"""Where games are kept: SQLite (embedded, the default) or PostgreSQL, one interface.

A game is its setup (edition, options, seed, start player, seats) and its action log; the
record is rebuilt by replaying the log from the seed. Every accepted action is appended in
one transaction with the game's new status before the server acknowledges it, so nothing
acknowledged is ever lost. Seat tokens are kept only as their SHA-256 hashes.

A PostgreSQL store whose connection is lost (the server restarted, the backend
terminated) connects again on its next operation. An operation cut off before its commit
is run again once on the new connection (nothing of it was written); one cut off during
its commit is not: the store asks the new connection whether its writes are there, and
raises `StoreError` if they are not. SQLite is a file in the server's own process, with no
connection to lose.
"""

from __future__ import annotations

import abc
import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

from attrs import frozen

from ttr_core.model.errors import MissingExtraError
from ttr_core.model.extras import install_command

log = logging.getLogger("ttr.server")

_T = TypeVar("_T")

CONNECT_SECONDS: Final = 10
"""How long connecting (or connecting again) to PostgreSQL may take, in seconds."""

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
    def _run(self, work: Callable[[Any], _T], saved: Callable[[Any], bool] | None = None) -> _T:
        """``work(cursor)`` in one transaction, committed; rolled back if it raises.

        ``saved(cursor)`` says whether the writes of ``work`` are in the database, for a
        commit whose outcome is unknown; without it, ``work`` may simply run again.
        """

    def _sql(self, text: str) -> str:
        return text.replace("?", self._placeholder)

    def _setup(self) -> None:
        def create(cur: Any) -> None:
            for statement in _SCHEMA:
                cur.execute(statement)

        self._run(create)

    def create_game(self, game: GameRow) -> None:
        """Keep a new game with its seats (no actions yet).

        :raises StoreError: the connection was lost while it was committed and the game
            is not in the database.
        """

        def insert(cur: Any) -> None:
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

        def saved(cur: Any) -> bool:
            cur.execute(self._sql("SELECT 1 FROM games WHERE id = ?"), (game.id,))
            return cur.fetchone() is not None

        self._run(insert, saved)

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

        def insert(cur: Any) -> None:
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

        def saved(cur: Any) -> bool:
            cur.execute(
                self._sql("SELECT action FROM actions WHERE game_id = ? AND idx = ?"),
                (game_id, index),
            )
            found = cur.fetchone()
            return found is not None and found[0] == action

        try:
            self._run(insert, saved)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"the action could not be saved: {type(exc).__name__}") from exc

    def _rows(self, where: str, params: Sequence[Any]) -> list[GameRow]:
        def read(cur: Any) -> tuple[list[Any], dict[str, list[SeatRow]]]:
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
            return games, seats

        games, seats = self._run(read)
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

        def read(cur: Any) -> list[str]:
            cur.execute(
                self._sql("SELECT action FROM actions WHERE game_id = ? ORDER BY idx"), (game_id,)
            )
            return [row[0] for row in cur.fetchall()]

        return self._run(read)


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

    def _run(self, work: Callable[[Any], _T], saved: Callable[[Any], bool] | None = None) -> _T:
        with self._lock:
            cur = self._conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                result = work(cur)
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")
            return result

    def close(self) -> None:
        """Close the database file."""
        with self._lock:
            self._conn.close()


class PostgresStore(_SqlStore):
    """Games in a PostgreSQL database given by URL (``postgresql://user@host/db``); a lost
    connection is opened again on the next operation (see the module's docs)."""

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
        self._psycopg = psycopg
        self._url = url
        self._conn = self._connect()
        self._setup()

    def _connect(self) -> Any:
        return self._psycopg.connect(self._url, connect_timeout=CONNECT_SECONDS)

    def _connection(self) -> Any:
        """The open connection, or a new one if it was lost.

        :raises StoreError: the database cannot be reached.
        """
        if self._conn.closed or self._conn.broken:
            with contextlib.suppress(Exception):
                self._conn.close()
            try:
                self._conn = self._connect()
            except self._psycopg.Error as exc:
                raise StoreError(
                    f"cannot reach the PostgreSQL database: {_first_line(exc)}"
                ) from exc
            log.info("connected to the PostgreSQL database again")
        return self._conn

    def _lost(self, conn: Any, exc: Exception) -> bool:
        """Whether ``exc`` means that ``conn`` is gone (rather than a refused statement)."""
        return isinstance(exc, self._psycopg.OperationalError) and (conn.closed or conn.broken)

    def _run(self, work: Callable[[Any], _T], saved: Callable[[Any], bool] | None = None) -> _T:
        """Run ``work`` in one transaction; once more on a new connection if the connection
        was lost before the commit (or during the commit of work without ``saved``).

        :raises StoreError: the connection was lost again, or cannot be opened again, or
            was lost during a commit whose writes are not in the database.
        """
        with self._lock:
            attempt = 1
            while True:
                conn = self._connection()
                try:
                    with conn.cursor() as cur:
                        result = work(cur)
                except Exception as exc:
                    if not self._lost(conn, exc):
                        with contextlib.suppress(Exception):
                            conn.rollback()
                        raise
                    if attempt == 2:
                        raise StoreError(
                            f"lost the PostgreSQL connection: {_first_line(exc)}"
                        ) from exc
                    # Nothing was committed: run the work again on a new connection.
                    log.warning("lost the PostgreSQL connection (%s): again", _first_line(exc))
                    attempt += 1
                    continue
                try:
                    conn.commit()
                except Exception as exc:
                    if not self._lost(conn, exc):
                        raise
                    log.warning("lost the PostgreSQL connection during a commit: %s", exc)
                    if saved is not None:
                        self._check_saved(saved)
                    elif attempt == 2:
                        raise StoreError(
                            f"lost the PostgreSQL connection: {_first_line(exc)}"
                        ) from exc
                    else:
                        attempt += 1
                        continue
                return result

    def _check_saved(self, saved: Callable[[Any], bool]) -> None:
        """After a commit cut off, ask a new connection whether its writes are there.

        :raises StoreError: they are not, or the database cannot be asked.
        """
        conn = self._connection()
        try:
            with conn.cursor() as cur:
                found = saved(cur)
            conn.commit()
        except self._psycopg.Error as exc:
            raise StoreError(
                f"the connection was lost during a commit: {_first_line(exc)}"
            ) from exc
        if not found:
            raise StoreError("the connection was lost during a commit: nothing was saved")
        log.info("the commit cut off by the lost connection had been saved")

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()


def _first_line(exc: BaseException) -> str:
    """The first line of a driver's message (PostgreSQL's add details on later lines)."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def open_store(db: str) -> Store:
    """The store for ``db``: a ``postgresql://`` (or ``postgres://``) URL, else a SQLite path."""
    if db.startswith(("postgresql://", "postgres://")):
        return PostgresStore(db)
    return SQLiteStore(db)


def now() -> float:
    """The time a game is created at (seconds since the epoch)."""
    return time.time()
