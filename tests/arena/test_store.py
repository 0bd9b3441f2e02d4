"""The arena file: games kept and read back whole, reopened to resume, and files that are
not an arena's, are damaged or hold another arena refused with ArenaStoreError."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ttr_core.arena.games import ArenaGame
from ttr_core.arena.run import check_stored
from ttr_core.arena.schedule import block_seed
from ttr_core.arena.store import ArenaSettings, ArenaStore, ArenaStoreError

SETTINGS = ArenaSettings(
    edition="usa",
    options=(("opening_tickets", 3), ("tie_break", "rules")),
    players=2,
    bots=("greedy", "random"),
    seed=5,
)


def game(block: int, seating: int) -> ArenaGame:
    bots = ("greedy", "random") if seating == 0 else ("random", "greedy")
    return ArenaGame(
        block=block,
        seating=seating,
        seed=block_seed(SETTINGS.seed, block),
        bots=bots,
        scores=(120, -30) if seating == 0 else (-10, 99),
        ranks=(1, 2) if seating == 0 else (2, 1),
        turns=80 + block,
    )


def test_games_are_read_back_as_they_were_kept(tmp_path: Path) -> None:
    path = str(tmp_path / "a.sqlite")
    games = [game(0, 0), game(0, 1), game(1, 0)]
    with ArenaStore.open(path, SETTINGS) as store:
        for g in games:
            store.add(g, "0.1.0")
    with ArenaStore.open(path) as store:
        assert store.settings == SETTINGS
        assert store.games() == {(g.block, g.seating): g for g in games}
        check_stored(store.settings, store.games(), path)
    row = sqlite3.connect(path).execute("SELECT edition, players, engine, options FROM games")
    assert row.fetchone() == ("usa", 2, "0.1.0", '{"opening_tickets": 3, "tie_break": "rules"}')


def test_reopening_with_the_same_settings_keeps_the_games(tmp_path: Path) -> None:
    path = str(tmp_path / "a.sqlite")
    with ArenaStore.open(path, SETTINGS) as store:
        store.add(game(0, 0), "0.1.0")
    with ArenaStore.open(path, SETTINGS) as store:
        store.add(game(0, 1), "0.1.0")
        assert sorted(store.games()) == [(0, 0), (0, 1)]


def test_a_file_of_another_arena_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "a.sqlite")
    ArenaStore.open(path, SETTINGS).close()
    other = ArenaSettings(
        edition="usa", options=SETTINGS.options, players=2, bots=("random", "greedy"), seed=5
    )
    with pytest.raises(ArenaStoreError, match="another arena"):
        ArenaStore.open(path, other)


def test_a_missing_file_is_refused_without_settings_and_not_created(tmp_path: Path) -> None:
    path = tmp_path / "missing.sqlite"
    with pytest.raises(ArenaStoreError, match="cannot open"):
        ArenaStore.open(str(path))
    assert not path.exists()


def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not a database, only some text that goes on " * 40)
    with pytest.raises(ArenaStoreError, match="not a usable arena file"):
        ArenaStore.open(str(path), SETTINGS)
    with pytest.raises(ArenaStoreError):
        ArenaStore.open(str(path))


def test_an_sqlite_file_of_something_else_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "other.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(ArenaStoreError, match="not an arena's"):
        ArenaStore.open(path, SETTINGS)


def test_damaged_settings_and_rows_are_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "a.sqlite")
    with ArenaStore.open(path, SETTINGS) as store:
        store.add(game(0, 0), "0.1.0")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET ranks = '[1]'")
    with ArenaStore.open(path) as store, pytest.raises(ArenaStoreError, match="damaged"):
        store.games()
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM arena WHERE key = 'bots'")
    with pytest.raises(ArenaStoreError, match="damaged"):
        ArenaStore.open(path)


def test_a_kept_game_that_is_not_that_game_of_the_arena_is_refused(tmp_path: Path) -> None:
    wrong = ArenaGame(
        block=0,
        seating=0,
        seed=block_seed(SETTINGS.seed, 0),
        bots=("random", "greedy"),  # seating 0 seats greedy first
        scores=(1, 2),
        ranks=(2, 1),
        turns=10,
    )
    with pytest.raises(ArenaStoreError, match="block 0, seating 0"):
        check_stored(SETTINGS, {(0, 0): wrong}, "a.sqlite")
    reseeded = ArenaGame(
        block=1,
        seating=0,
        seed=SETTINGS.seed,  # block 1 is not dealt from the arena's seed itself
        bots=("greedy", "random"),
        scores=(1, 2),
        ranks=(2, 1),
        turns=10,
    )
    with pytest.raises(ArenaStoreError):
        check_stored(SETTINGS, {(1, 0): reseeded}, "a.sqlite")
