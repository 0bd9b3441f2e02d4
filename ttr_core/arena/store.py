"""Keeping an arena's games in an SQLite file, so ratings can be fitted again and a run
resumed without playing a game twice.

One file holds one arena: its settings (edition, options, players, bots, seed) in the
``arena`` table, and one row per game finished in ``games``, keyed by block and seating,
with the game's seed, the bot of each seat, the ranks and the scores (as JSON lists), the
turns played, the edition, players and options, and the version of the engine that played
it. Each game is committed as it is added, so a run that is stopped keeps every game it
finished.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from attrs import frozen

from ttr_core.arena.games import ArenaGame
from ttr_core.model.errors import TtrError

FORMAT = 1
"""The version of the file's layout."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS arena (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    block INTEGER NOT NULL,
    seating INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    bots TEXT NOT NULL,
    ranks TEXT NOT NULL,
    scores TEXT NOT NULL,
    turns INTEGER NOT NULL,
    edition TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    engine TEXT NOT NULL,
    PRIMARY KEY (block, seating)
);
"""


class ArenaStoreError(TtrError, ValueError):
    """An arena file cannot be used: it is not an SQLite file of an arena, it is damaged,
    or it holds an arena with other settings than the run's."""


@frozen
class ArenaSettings:
    """What makes an arena: the same settings play the same games."""

    edition: str
    """The edition id."""
    options: tuple[tuple[str, Any], ...]
    """Every option of the ruleset, as ``(name, value)`` pairs in order of name."""
    players: int
    bots: tuple[str, ...]
    """The bots, by name, in the order that numbers them in seatings."""
    seed: int

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object."""
        return {
            "edition": self.edition,
            "options": dict(self.options),
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
        }


class ArenaStore:
    """An arena file, open: its settings and the games it holds (use it as a context
    manager, or call [`close`][])."""

    def __init__(self, path: str, connection: sqlite3.Connection, settings: ArenaSettings) -> None:
        self.path = path
        self.connection = connection
        self.settings = settings

    @classmethod
    def open(cls, path: str, settings: ArenaSettings | None = None) -> ArenaStore:
        """Open the arena file at ``path``.

        With ``settings``, the file is created if it is missing or empty, and must hold
        an arena with those settings otherwise; without, it must exist and hold an arena.

        :raises ArenaStoreError: the file is not an arena's, is damaged, holds other
            settings, or cannot be opened or created.
        """
        try:
            connection = sqlite3.connect(
                _uri(path, create=settings is not None), uri=True, isolation_level=None
            )
        except sqlite3.Error as exc:
            raise ArenaStoreError(f"cannot open the arena file {path}: {exc}") from None
        try:
            stored = _read_settings(path, connection)
            if settings is None:
                if stored is None:
                    raise ArenaStoreError(f"{path} holds no arena")
                settings = stored
            elif stored is None:
                _create(connection, settings)
            elif stored != settings:
                raise ArenaStoreError(
                    f"{path} holds another arena ({_describe(stored)}), not "
                    f"{_describe(settings)}; give another file"
                )
        except sqlite3.Error as exc:
            connection.close()
            raise ArenaStoreError(f"{path} is not a usable arena file: {exc}") from None
        except ArenaStoreError:
            connection.close()
            raise
        return cls(path, connection, settings)

    def __enter__(self) -> ArenaStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file."""
        self.connection.close()

    def add(self, game: ArenaGame, engine: str) -> None:
        """Keep ``game``, played by engine version ``engine`` (committed at once).

        :raises ArenaStoreError: the file cannot be written.
        """
        s = self.settings
        row = (
            game.block,
            game.seating,
            game.seed,
            json.dumps(list(game.bots)),
            json.dumps(list(game.ranks)),
            json.dumps(list(game.scores)),
            game.turns,
            s.edition,
            s.players,
            json.dumps(dict(s.options), sort_keys=True),
            engine,
        )
        try:
            self.connection.execute(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row
            )
        except sqlite3.Error as exc:
            raise ArenaStoreError(f"cannot write to the arena file {self.path}: {exc}") from None

    def games(self) -> dict[tuple[int, int], ArenaGame]:
        """Every game kept, by ``(block, seating)``.

        :raises ArenaStoreError: a row is damaged or the file cannot be read.
        """
        return {(g.block, g.seating): g for g in self._rows()}

    def _rows(self) -> Iterator[ArenaGame]:
        query = "SELECT block, seating, seed, bots, ranks, scores, turns FROM games"
        try:
            rows = self.connection.execute(query + " ORDER BY block, seating").fetchall()
        except sqlite3.Error as exc:
            raise ArenaStoreError(f"cannot read the arena file {self.path}: {exc}") from None
        players = self.settings.players
        for block, seating, seed, bots, ranks, scores, turns in rows:
            try:
                game = ArenaGame(
                    block=_int(block),
                    seating=_int(seating),
                    seed=_int(seed),
                    bots=tuple(_list(bots, str, players)),
                    ranks=tuple(_list(ranks, int, players)),
                    scores=tuple(_list(scores, int, players)),
                    turns=_int(turns),
                )
            except (ValueError, TypeError):
                raise ArenaStoreError(
                    f"{self.path} is damaged: the game of block {block!r}, seating "
                    f"{seating!r} cannot be read"
                ) from None
            yield game


def _uri(path: str, *, create: bool) -> str:
    """The SQLite URI of ``path``: read-write, created only if asked."""
    mode = "rwc" if create else "rw"
    return f"file:{quote(path)}?mode={mode}"


def _read_settings(path: str, connection: sqlite3.Connection) -> ArenaSettings | None:
    tables = {
        name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
    }
    if not tables:
        return None
    if not {"arena", "games"} <= tables:
        raise ArenaStoreError(f"{path} is an SQLite file but not an arena's")
    values = dict(connection.execute("SELECT key, value FROM arena").fetchall())
    try:
        if json.loads(values["format"]) != FORMAT:
            raise ArenaStoreError(
                f"{path} is an arena file of format {values['format']}, not {FORMAT}"
            )
        options = json.loads(values["options"])
        bots = json.loads(values["bots"])
        if not isinstance(options, dict) or not isinstance(bots, list):
            raise ValueError("options or bots")
        return ArenaSettings(
            edition=str(json.loads(values["edition"])),
            options=tuple(sorted(options.items())),
            players=_int(json.loads(values["players"])),
            bots=tuple(str(b) for b in bots),
            seed=_int(json.loads(values["seed"])),
        )
    except (KeyError, ValueError, TypeError):
        raise ArenaStoreError(f"{path} is damaged: its arena settings cannot be read") from None


def _create(connection: sqlite3.Connection, settings: ArenaSettings) -> None:
    connection.executescript(_SCHEMA)
    values = {"format": FORMAT} | settings.to_json()
    with connection:
        connection.execute("BEGIN")
        connection.executemany(
            "INSERT INTO arena VALUES (?, ?)",
            [(key, json.dumps(value, sort_keys=True)) for key, value in values.items()],
        )


def _describe(settings: ArenaSettings) -> str:
    bots = ",".join(settings.bots)
    return f"{settings.edition}, {settings.players} players, bots {bots}, seed {settings.seed}"


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(value)
    return value


def _list(text: object, kind: type, length: int) -> list[Any]:
    if not isinstance(text, str):
        raise TypeError(text)
    value = json.loads(text)
    if not isinstance(value, list) or len(value) != length:
        raise ValueError(text)
    if any(type(v) is not kind for v in value):
        raise TypeError(text)
    return value
