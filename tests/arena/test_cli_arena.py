"""``ttr arena`` end to end, in process: the table and the JSON, the file kept and fitted
again, a run resumed, the sequential test, failing bots, and one-line errors (status 2)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from parallel_bots import fails

from ttr_core.arena import run as arena_run
from ttr_core.arena.schedule import block_seed
from ttr_core.arena.store import ArenaSettings, ArenaStore
from ttr_core.batch.runs import GameResult, play_game
from ttr_core.cli import main
from ttr_core.model import rng

BASE = ("arena", "usa", "--bots", "random,greedy", "--players", "2", "--jobs", "1")


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> Any:
        return json.loads(self.out)

    def error_line(self) -> str:
        """The single ``ttr: error:`` line (and check nothing else was printed)."""
        assert self.out == "" and "Traceback" not in self.err
        lines = self.err.splitlines()
        assert len(lines) == 1, self.err
        assert lines[0].startswith("ttr: error: ")
        return lines[0]


@pytest.fixture
def ttr(capsys: pytest.CaptureFixture[str]) -> Any:
    def run(*args: str) -> Result:
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seeds of the games actually played, in this process."""
    seeds: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> GameResult:
        result = play_game(*args, **kwargs)
        seeds.append(result.seed)
        return result

    monkeypatch.setattr(arena_run, "play_game", counting)
    return seeds


def test_the_table_ranks_greedy_above_random(ttr: Any) -> None:
    result = ttr(*BASE, "--games", "2", "--bootstrap", "20")
    assert result.code == 0, result.err
    assert result.err == ""
    lines = result.out.splitlines()
    assert "usa: 1 deal of 2 games, 2 players, seed 1" in lines[0]
    rows = [line for line in lines if "greedy" in line or "random" in line]
    assert rows[0].split()[1] == "greedy" and "Elo scale, random at 0" in result.out


def test_the_json_gives_every_rating_and_its_record(ttr: Any) -> None:
    result = ttr(*BASE, "--games", "2", "--bootstrap", "20", "--json")
    assert result.code == 0, result.err
    out = result.json()
    assert (out["edition"], out["players"], out["bots"], out["seed"]) == (
        "usa",
        2,
        ["random", "greedy"],
        1,
    )
    assert (out["seatings"], out["blocks"], out["games"], out["failed"]) == (2, 1, 2, 0)
    assert out["anchor"] == "random" and out["sprt"] is None
    random_bot, greedy = out["ratings"]
    assert random_bot["elo"] == 0 and greedy["elo"] > 0
    assert greedy["low"] - 1e-9 <= greedy["elo"] <= greedy["high"] + 1e-9
    assert greedy["games"] == 2 and greedy["wins"] + greedy["ties"] + greedy["losses"] == 2
    assert random_bot["wins"] == greedy["losses"]


def test_the_anchor_is_rated_zero(ttr: Any) -> None:
    out = ttr(*BASE, "--games", "2", "--bootstrap", "0", "--anchor", "greedy", "--json").json()
    assert out["anchor"] == "greedy"
    assert out["ratings"][1]["elo"] == 0 and out["ratings"][0]["elo"] < 0
    assert out["ratings"][0]["low"] is None and out["bootstrap"] == 0


def test_the_file_keeps_every_game_and_refit_gives_the_same_ratings(
    ttr: Any, tmp_path: Path
) -> None:
    db = str(tmp_path / "arena.sqlite")
    played = ttr(*BASE, "--games", "4", "--bootstrap", "50", "--db", db, "--json")
    assert played.code == 0, played.err
    rows = sqlite3.connect(db).execute(
        "SELECT block, seating, seed, bots, edition, players, engine FROM games"
    )
    kept = rows.fetchall()
    assert len(kept) == 4
    assert {(b, s) for b, s, *_ in kept} == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert all(seed == block_seed(1, b) for b, _, seed, *_ in kept)
    assert {row[4:] for row in kept} == {("usa", 2, "0.1.0")}
    refit = ttr("arena", "refit", "--db", db, "--bootstrap", "50", "--json")
    assert refit.code == 0, refit.err
    assert refit.out == played.out


@pytest.mark.slow
def test_a_run_on_the_same_file_plays_only_the_games_not_kept(
    ttr: Any, tmp_path: Path, counted: list[int]
) -> None:
    """Two blocks, then four: the second run plays the four new games only, and prints
    what one run of four blocks prints."""
    db = str(tmp_path / "arena.sqlite")
    assert ttr(*BASE, "--games", "4", "--db", db, "--bootstrap", "10").code == 0
    assert counted == [block_seed(1, 0)] * 2 + [block_seed(1, 1)] * 2
    counted.clear()
    resumed = ttr(*BASE, "--games", "8", "--db", db, "--bootstrap", "10", "--json")
    assert resumed.code == 0, resumed.err
    assert counted == [block_seed(1, 2)] * 2 + [block_seed(1, 3)] * 2
    counted.clear()
    again = ttr(*BASE, "--games", "8", "--db", db, "--bootstrap", "10", "--json")
    assert counted == [] and again.out == resumed.out
    fresh = ttr(*BASE, "--games", "8", "--bootstrap", "10", "--json")
    assert fresh.out == resumed.out


@pytest.mark.slow
def test_two_processes_give_the_same_json_as_one(ttr: Any) -> None:
    args = ("arena", "usa", "--bots", "greedy,random", "--players", "3", "--games", "6")
    one = ttr(*args, "--jobs", "1", "--json", "--bootstrap", "30")
    two = ttr(*args, "--jobs", "2", "--json", "--bootstrap", "30")
    assert one.code == two.code == 0, two.err
    assert one.out == two.out
    assert one.json()["seatings"] == 6 and one.json()["games"] == 6


@pytest.mark.slow
def test_the_sequential_test_stops_greedy_against_random_at_a_block_end(ttr: Any) -> None:
    result = ttr(
        "arena",
        "usa",
        "--bots",
        "greedy,random",
        "--jobs",
        "1",
        "--games",
        "40",
        "--sprt",
        "0,100",
        "--bootstrap",
        "0",
        "--json",
    )
    assert result.code == 0, result.err
    out = result.json()
    assert out["sprt"]["decision"] == "H1"
    assert out["sprt"]["blocks"] == out["blocks"] < 20
    assert out["games"] == 2 * out["blocks"]
    assert (out["sprt"]["candidate"], out["sprt"]["baseline"]) == ("greedy", "random")
    assert out["sprt"]["llr"] >= out["sprt"]["upper"]
    table = ttr("arena", "usa", "--bots", "greedy,random", "--jobs", "1", "--games", "40")
    assert table.code == 0


def failing_games(seed: int, blocks: int) -> set[tuple[int, int]]:
    """The (block, seating) games in which a SeedFailer, first bot of a 2-seat arena,
    raises: seating 0 seats it in seat 0, seating 1 in seat 1."""
    out = set()
    for block in range(blocks):
        deal = block_seed(seed, block)
        for seating in (0, 1):
            if fails(rng.derive_seed(deal, seating + 1)):
                out.add((block, seating))
    return out


@pytest.mark.slow
def test_a_failing_bot_fails_its_game_and_its_block_is_not_rated(ttr: Any, tmp_path: Path) -> None:
    seed = next(s for s in range(1, 100) if len({b for b, _ in failing_games(s, 3)}) == 1)
    failed = failing_games(seed, 3)
    db = str(tmp_path / "arena.sqlite")
    args = ("arena", "usa", "--bots", "parallel_bots:SeedFailer,random", "--jobs", "1")
    result = ttr(*args, "--games", "6", "--seed", str(seed), "--db", db, "--json")
    assert result.code == 1
    errors = result.err.splitlines()
    assert len(errors) == len(failed)
    assert all(e.startswith("ttr: error: ") and "divided by zero" in e for e in errors)
    out = result.json()
    assert (out["blocks"], out["failed"], out["games"]) == (2, len(failed), 4)
    kept = sqlite3.connect(db).execute("SELECT block, seating FROM games").fetchall()
    assert set(kept) == {(b, s) for b in range(3) for s in (0, 1)} - failed
    refit = ttr("arena", "refit", "--db", db, "--json").json()
    assert (refit["blocks"], refit["games"]) == (2, 4)
    assert refit["ratings"] == out["ratings"]


def other_arena(path: str) -> None:
    settings = ArenaSettings(
        edition="usa", options=(), players=3, bots=("greedy", "random"), seed=1
    )
    ArenaStore.open(path, settings).close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "random,nosuchbot"), "unknown bot 'nosuchbot'"),
        (("--bots", "random"), "at least 2 bots"),
        (("--bots", "random,random"), "given twice"),
        (("--bots", "random,greedy", "--anchor", "mcts"), "--anchor: 'mcts' is not one"),
        (("--bots", "random,greedy", "--players", "9"), "--players"),
        (("--bots", "random,greedy", "--seed", "-1"), "--seed"),
        (("--bots", "random,greedy", "--sprt", "10,0"), "--sprt"),
        (("--bots", "random,greedy", "--alpha", "0.7"), "--alpha"),
        (("--games", "2"), "--bots"),
    ],
)
def test_bad_arguments_are_one_line_errors_with_status_2(
    ttr: Any, args: tuple[str, ...], message: str
) -> None:
    result = ttr("arena", "usa", "--jobs", "1", *args)
    assert result.code == 2
    assert message in result.error_line()


def test_bad_files_and_refit_arguments_are_one_line_errors_with_status_2(
    ttr: Any, tmp_path: Path
) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all, just some text " * 50)
    other = str(tmp_path / "other.sqlite")
    other_arena(other)
    cases = [
        ((*BASE, "--db", str(junk)), "not a usable arena file"),
        (("arena", "refit", "--db", str(junk)), "not a usable arena file"),
        ((*BASE, "--db", other), "holds another arena"),
        (("arena", "refit", "--db", str(tmp_path / "missing.sqlite")), "cannot open"),
        (("arena", "refit"), "needs --db"),
        (("arena", "refit", "--db", other, "--bots", "a,b"), "--bots: not allowed with refit"),
        (("arena", "refit", "--db", other, "--anchor", "mcts"), "--anchor"),
    ]
    for args, message in cases:
        result = ttr(*args)
        assert result.code == 2, args
        assert message in result.error_line(), args
    assert not (tmp_path / "missing.sqlite").exists()


def test_refit_of_a_file_without_games_rates_nothing(ttr: Any, tmp_path: Path) -> None:
    path = str(tmp_path / "empty.sqlite")
    other_arena(path)
    out = ttr("arena", "refit", "--db", path, "--json").json()
    assert (out["blocks"], out["games"], out["bootstrap"]) == (0, 0, 0)
    assert [r["elo"] for r in out["ratings"]] == [0, 0]


@pytest.mark.slow
def test_ctrl_c_prints_the_blocks_finished_and_keeps_their_games(
    ttr: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during the third game: the first block is rated, its two games are kept,
    one line on standard error, exit status 130; the same command then plays the rest."""
    calls: list[int] = []

    def interrupted(*args: Any, **kwargs: Any) -> GameResult:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return play_game(*args, **kwargs)

    monkeypatch.setattr(arena_run, "play_game", interrupted)
    db = str(tmp_path / "arena.sqlite")
    args = (*BASE, "--games", "4", "--db", db, "--bootstrap", "10", "--json")
    result = ttr(*args)
    assert result.code == 130
    assert result.err == "ttr: interrupted after 2 of 4 games\n"
    assert (result.json()["blocks"], result.json()["games"]) == (1, 2)
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
    resumed = ttr(*args)
    assert resumed.code == 0 and resumed.json()["blocks"] == 2
    assert len(calls) == 5  # 2 + the interrupted one + the 2 of block 1
