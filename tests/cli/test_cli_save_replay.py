"""Games saved by ``ttr simulate --save`` and read back by ``ttr replay --log / --at``,
Ctrl-C during a run, and the per-bot win share of the summary."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve
from processes import DEADLINE, read_rest, ttr_process

from ttr_core import Ruleset
from ttr_core.batch.runs import GameResult, PlayerResult, play_game, simulate, summarize
from ttr_core.cli import _runs as runs_cli
from ttr_core.cli import main
from ttr_core.cli import replay as replay_cli
from ttr_core.cli._runs import CtrlC
from ttr_core.formats.serialize import state_to_json, view_to_json
from ttr_core.model.actions import ClaimRoute, DrawBlind, KeepTickets, TakeFaceUp
from ttr_core.model.cards import card_index
from ttr_core.model.events import BlindDrawn, TicketsKept
from ttr_core.model.state import Phase
from ttr_core.play.game import Game, LogEntry
from ttr_core.play.records import GameRecord
from ttr_core.rules.views import view_of


class Result:
    """Exit status and output of one in-process ``ttr`` run."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def error_line(self) -> str:
        """The single ``ttr: error:`` line (and check nothing else was printed)."""
        assert self.out == ""
        assert "Traceback" not in self.err
        lines = self.err.splitlines()
        assert len(lines) == 1, self.err
        assert lines[0].startswith("ttr: error: ")
        return lines[0]


@pytest.fixture
def ttr(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run ``ttr`` in-process: ``ttr("replay", "-", stdin=b"...")``."""

    def run(*args: str, stdin: bytes | None = None) -> Result:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture(scope="module")
def usa() -> Ruleset:
    return Ruleset.build("usa")


def short_game() -> Game:
    """The game of the record format page: seed 1, Ann and Bob, five actions."""
    game = Game.new("usa", ["Ann", "Bob"], seed=1)
    for action in (
        KeepTickets((21, 14)),
        KeepTickets((1, 17, 16)),
        ClaimRoute(3, (0, 1, 0, 0, 0, 0, 0, 0, 0)),
        DrawBlind(),
        TakeFaceUp(card_index("red")),
    ):
        game.apply(action)
    return game


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with the records of a 2-player greedy-vs-random run, seed 5."""
    path = tmp_path_factory.mktemp("records")
    args = ["simulate", "--games", "3", "--players", "2", "--bots", "greedy,random"]
    assert main([*args, "--seed", "5", "--save", str(path), "--json"]) == 0
    return path


@pytest.fixture(scope="module")
def europe_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished Europe game with tunnels, stations and the final round."""
    path = tmp_path_factory.mktemp("europe")
    args = ["simulate", "--edition", "europe", "--games", "1", "--players", "3"]
    assert main([*args, "--bots", "greedy,random", "--seed", "3", "--save", str(path)]) == 0
    return path / "3.json"


def record_of(path: Path) -> GameRecord:
    return GameRecord.from_json(path.read_bytes())


# -- ttr simulate --save -----------------------------------------------------------------


def test_save_writes_each_game_as_seed_json_that_replays(ttr: Any, tmp_path: Path) -> None:
    target = tmp_path / "new" / "records"
    result = ttr("simulate", "--games", "3", "--players", "2", "--json", "--save", str(target))
    assert result.code == 0 and result.err == ""
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert sorted(p.name for p in target.iterdir()) == sorted(f"{g['seed']}.json" for g in lines)
    for line in lines:
        game = Game.load((target / f"{line['seed']}.json").read_bytes())
        assert game.is_over and game.seed == line["seed"]
        assert game.state.turn == line["turns"]
        sheet = game.scores()
        assert [p.total for p in sheet.players] == [p["total"] for p in line["players"]]
        assert [game.names[s] for s in sheet.winners] == line["winners"]
        assert ttr("replay", str(target / f"{line['seed']}.json")).code == 0


def test_save_changes_nothing_in_the_output(ttr: Any, tmp_path: Path) -> None:
    args = ("simulate", "--games", "3", "--players", "3", "--bots", "greedy,random")
    assert ttr(*args, "--save", str(tmp_path / "a")).out == ttr(*args).out
    with_save = ttr(*args, "--json", "--save", str(tmp_path / "b"))
    assert with_save.out == ttr(*args, "--json").out and with_save.err == ""
    assert len(list((tmp_path / "b").iterdir())) == 3


def test_save_into_an_existing_directory_replaces_records(ttr: Any, saved: Path) -> None:
    before = {p.name: p.read_bytes() for p in saved.iterdir()}
    args = ("simulate", "--games", "3", "--players", "2", "--bots", "greedy,random")
    assert ttr(*args, "--seed", "5", "--save", str(saved)).code == 0
    assert {p.name: p.read_bytes() for p in saved.iterdir()} == before


def test_save_onto_a_file_is_an_error(ttr: Any, tmp_path: Path) -> None:
    target = tmp_path / "records"
    target.write_text("not a directory")
    result = ttr("simulate", "--games", "2", "--save", str(target))
    assert result.code == 1
    assert f"--save: {target} exists and is not a directory" in result.error_line()


def test_save_below_a_file_is_an_error(ttr: Any, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    result = ttr("simulate", "--games", "2", "--save", str(tmp_path / "file" / "records"))
    assert result.code == 1
    assert "--save: cannot write to" in result.error_line()


def test_save_into_an_unwritable_directory_is_an_error(
    ttr: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(**_: Any) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(runs_cli.tempfile, "mkstemp", refuse)
    result = ttr("simulate", "--games", "2", "--save", str(tmp_path))
    assert result.code == 1
    assert (
        result.error_line() == f"ttr: error: --save: cannot write to {tmp_path}: Permission denied"
    )


def test_a_record_that_cannot_be_written_stops_the_run(ttr: Any, tmp_path: Path) -> None:
    (tmp_path / "9.json").mkdir()  # the first game's record would replace a directory
    result = ttr("simulate", "--games", "2", "--seed", "9", "--json", "--save", str(tmp_path))
    assert result.code == 1
    assert f"--save: cannot write {tmp_path / '9.json'}" in result.error_line()
    assert [p.name for p in tmp_path.iterdir()] == ["9.json"]  # no temporary file left


def test_play_game_keeps_a_record_only_when_asked(usa: Ruleset) -> None:
    plain = play_game(usa, ("greedy", "random"), 21)
    kept = play_game(usa, ("greedy", "random"), 21, record=True)
    assert plain.record is None and kept.record is not None
    assert evolve(kept, record=None) == plain
    game = Game.replay(kept.record)
    assert game.names == ("Player 1", "Player 2") and game.seed == 21
    assert [p.total for p in game.scores().players] == [p.total for p in plain.players]
    runs = simulate(usa, players=2, games=2, seed=3, bots=["random"], records=True)
    assert all(r.record is not None and r.record.seed == r.seed for r in runs)


# -- ttr replay --log --------------------------------------------------------------------


def test_log_prints_the_game_move_by_move(ttr: Any) -> None:
    result = ttr("replay", "-", "--log", stdin=short_game().save(compact=False).encode())
    assert result.code == 0 and result.err == ""
    assert result.out.splitlines() == [
        "   0  setup     Ann starts; turned face up: locomotive, red, locomotive, white, orange",
        "   1  opening   Ann keeps 2 of 3 opening tickets",
        "   2  opening   Bob keeps 3 of 3 opening tickets",
        "   3  turn 1    Ann claims Atlanta–Nashville (orange ×1) for 1 point",
        "   4  turn 2    Bob draws a card from the deck",
        "   5  turn 2    Bob takes the face-up red; turned face up: black",
    ]
    # Hidden: the blind card (pink), the dealt hands (yellow...), the tickets (Boston...).
    for secret in ("pink", "yellow", "Boston", "Los Angeles", "Miami", "Montréal"):
        assert secret not in result.out


def test_log_words_do_not_depend_on_hidden_outcomes(usa: Ruleset) -> None:
    game = short_game()
    record = game.record()
    before = list(game.history())
    blind, keep = record.log[3], record.log[0]
    other_card = LogEntry(blind.action, (BlindDrawn(player=1, card=card_index("blue")),))
    other_tickets = LogEntry(
        keep.action, (TicketsKept(player=0, kept=(1, 2), returned=(3,), returned_to="bottom"),)
    )
    names = game.names
    describe = replay_cli.describe
    assert describe(usa, names, before[3], other_card) == describe(usa, names, before[3], blind)
    assert describe(usa, names, before[0], other_tickets) == describe(usa, names, before[0], keep)


def test_log_shows_tunnels_reshuffles_and_the_end(ttr: Any, europe_record: Path) -> None:
    record = record_of(europe_record)
    lines = ttr("replay", str(europe_record), "--log").out.splitlines()
    assert len(lines) == len(record.log) + 1
    tags = [[type(e).tag for e in entry.events] for entry in record.log]
    for n, (line, events) in enumerate(zip(lines[1:], tags, strict=True), start=1):
        assert line.startswith(f"{n:>4}  ")
        assert ("the tunnel turns over" in line) == ("tunnel_revealed" in events)
        assert ("shuffled into a new deck" in line) == ("shuffled" in events)
        assert ("the final round begins" in line) == ("final_round_started" in events)
        assert ("builds a station in" in line) == ("station_built" in events)
    every = {tag for events in tags for tag in events}
    assert {"tunnel_revealed", "station_built", "final_round_started"} <= every
    assert lines[-1].endswith("the game is over")


def test_log_lines_give_turn_and_player(ttr: Any, saved: Path) -> None:
    path = next(saved.iterdir())
    game = Game.load(path.read_bytes())
    lines = ttr("replay", str(path), "--log").out.splitlines()[1:]
    states = list(game.history())
    assert len(lines) == len(game.log) == len(states) - 1
    for line, state in zip(lines, states, strict=False):
        opening = state.phase is Phase.OPENING_TICKETS
        turn = "opening" if opening else f"turn {state.turn + 1}"
        assert line[6:].startswith(f"{turn:<8}  {game.names[state.current]} ")


def test_log_json_is_one_object_per_action_with_full_events(ttr: Any) -> None:
    game = short_game()
    out = ttr("replay", "-", "--log", "--json", stdin=game.save(compact=False).encode()).out
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == len(game.log) == 5
    assert [list(line) for line in lines] == [
        ["number", "turn", "seat", "player", "action", "events"]
    ] * 5
    assert [(x["number"], x["turn"], x["seat"], x["player"]) for x in lines] == [
        (1, 0, 0, "Ann"),
        (2, 0, 1, "Bob"),
        (3, 1, 0, "Ann"),
        (4, 2, 1, "Bob"),
        (5, 2, 1, "Bob"),
    ]
    assert lines[3]["action"] == {"tag": "draw_blind"}
    assert lines[3]["events"] == [{"tag": "blind_drawn", "player": 1, "card": "pink"}]
    raw = json.loads(game.save(compact=False))
    assert [x["events"] for x in lines] == [entry["events"] for entry in raw["log"]]


def test_log_with_at_stops_after_n_actions(ttr: Any) -> None:
    data = short_game().save(compact=False).encode()
    text = ttr("replay", "-", "--log", "--at", "3", stdin=data).out.splitlines()
    assert [line[:4] for line in text] == ["   0", "   1", "   2", "   3"]
    assert len(ttr("replay", "-", "--log", "--at", "2", "--json", stdin=data).out.splitlines()) == 2
    assert ttr("replay", "-", "--log", "--at", "0", "--json", stdin=data).out == ""


# -- ttr replay --at ---------------------------------------------------------------------


def test_at_shows_the_position_after_n_actions(ttr: Any) -> None:
    data = short_game().save(compact=False).encode()
    out = ttr("replay", "-", "--at", "3", stdin=data).out
    assert "usa, after 3 of 5 actions: turn 2, Bob to play" in out
    assert "Face up: locomotive, red, locomotive, white, orange" in out
    assert "Routes of Ann: Atlanta–Nashville" in out and "Routes of Bob: none" in out
    assert "Hand:" not in out  # the whole position shows counts, not hands
    start = ttr("replay", "-", "--at", "0", stdin=data).out
    assert "after 0 of 5 actions: opening ticket choice, Ann to choose" in start
    second = ttr("replay", "-", "--at", "4", stdin=data).out
    assert "turn 2, Bob to draw a second card" in second


def test_at_json_is_the_state_after_n_actions(ttr: Any) -> None:
    game = short_game()
    record = game.record()
    for n in (0, 2, 5):
        out = ttr(
            "replay", "-", "--at", str(n), "--json", stdin=game.save(compact=False).encode()
        ).out
        expected = Game.replay(evolve(record, log=record.log[:n])).state
        assert json.loads(out) == state_to_json(expected)


def test_at_with_a_seat_shows_that_seats_view(ttr: Any, usa: Ruleset) -> None:
    game = short_game()
    data = game.save(compact=False).encode()
    out = ttr("replay", "-", "--at", "5", "--seat", "1", stdin=data).out
    assert "Seen by Bob (seat 1):" in out
    hand = ", ".join(f"{name} ×{n}" for name, n in view_to_json(game.view(1))["hand"].items())
    assert f"  Hand: {hand}" in out
    assert "  Tickets: Boston–Miami (12), Montréal–New Orleans (13), Montréal–Atlanta (9)" in out
    raw = ttr("replay", "-", "--at", "5", "--seat", "1", "--json", stdin=data).out
    assert json.loads(raw) == view_to_json(view_of(usa, game.state, 1))
    opening = ttr("replay", "-", "--at", "1", "--seat", "1", stdin=data).out
    assert "  Choosing from: " in opening


def test_at_the_end_shows_the_final_scores(ttr: Any, saved: Path) -> None:
    path = next(saved.iterdir())
    game = Game.load(path.read_bytes())
    out = ttr("replay", str(path), "--at", str(len(game.log))).out
    assert f"the game is over after {game.state.turn} turns" in out
    winners = ", ".join(game.names[s] for s in game.scores().winners)
    assert f"; won by {winners}" in out


def test_at_shows_stations_a_tunnel_and_a_payment_in_progress(
    ttr: Any, europe_record: Path, tmp_path: Path
) -> None:
    game = Game.load(europe_record.read_bytes())
    at = next(i for i, state in enumerate(game.history()) if state.tunnel is not None)
    out = ttr("replay", str(europe_record), "--at", str(at)).out
    assert "to pay for the tunnel or withdraw" in out and "\nTunnel: " in out
    assert "Stations left" in out and "\nStations of Player 1: " in out
    args = ("--edition", "nordic", "--games", "1", "--players", "2", "--bots", "greedy")
    assert ttr("simulate", *args, "--seed", "3", "--save", str(tmp_path)).code == 0
    nordic = Game.load((tmp_path / "3.json").read_bytes())
    at, choice = next(
        (i, state.choice) for i, state in enumerate(nordic.history()) if state.choice is not None
    )
    out = ttr("replay", str(tmp_path / "3.json"), "--at", str(at)).out
    assert "to choose the cards of the payment" in out
    groups = "1 group" if choice.groups == 1 else f"{choice.groups} groups"
    assert f"with {groups} of any cards, {choice.size} cards in all" in out


def test_a_record_without_seed_gives_the_same_log_and_positions(ttr: Any, saved: Path) -> None:
    path = next(saved.iterdir())
    raw = json.loads(path.read_text())
    raw["seed"] = None
    seedless = json.dumps(raw).encode()
    log = ttr("replay", str(path), "--log").out
    assert ttr("replay", "-", "--log", stdin=seedless).out == log
    n = str(len(raw["actions"].split()) // 2)  # a compact record: one token per action
    seeded_state = json.loads(ttr("replay", str(path), "--at", n, "--json").out)
    state = json.loads(ttr("replay", "-", "--at", n, "--json", stdin=seedless).out)
    assert state["rng"] == -1 and {**state, "rng": seeded_state["rng"]} == seeded_state


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--at", "6"), "argument --at: expected a number of actions from 0 to 5, got 6"),
        (("--at", "-1"), "argument --at: expected a number of actions from 0 to 5, got -1"),
        (("--at", "x"), "argument --at: invalid int value: 'x'"),
        (("--at", "2", "--seat", "2"), "argument --seat: expected a seat from 0 to 1"),
        (("--at", "2", "--seat", "-1"), "argument --seat: expected a seat from 0 to 1"),
        (("--seat", "0"), "argument --seat: needs --at N"),
        (("--log", "--at", "2", "--seat", "0"), "argument --seat: not allowed with --log"),
    ],
)
def test_replay_misuse_is_a_usage_error(ttr: Any, args: tuple[str, ...], message: str) -> None:
    result = ttr("replay", "-", *args, stdin=short_game().save(compact=False).encode())
    assert result.code == 2
    assert message in result.error_line()


def test_a_bad_record_is_refused_before_the_log(ttr: Any) -> None:
    raw = json.loads(short_game().save(compact=False))
    raw["log"][2]["action"]["route"] = 4
    result = ttr("replay", "-", "--log", stdin=json.dumps(raw).encode())
    assert result.code == 1
    assert "log[2]" in result.error_line()


# -- the summary's win share -------------------------------------------------------------


def test_greedy_against_random_wins_every_game(ttr: Any, usa: Ruleset) -> None:
    results = list(simulate(usa, players=2, games=4, seed=1, bots=["greedy", "random"]))
    greedy, random = summarize(results).bots
    assert (greedy.games, greedy.games_won, greedy.win_share) == (4, 4, 1.0)
    assert (random.games, random.games_won, random.win_share) == (4, 0, 0.0)
    out = ttr("simulate", "--games", "4", "--players", "2", "--bots", "greedy,random").out
    header = next(line for line in out.splitlines() if line.startswith("┃ Bot"))
    columns = ["Bot", "Seats", "Games won", "Win share", "Mean score", "Min", "Max"]
    assert [c.strip() for c in header.split("┃")[1:-1]] == columns
    row = next(line for line in out.splitlines() if line.startswith("│ greedy"))
    assert [c.strip() for c in row.split("│")[1:5]] == ["greedy", "1", "4", "100.0%"]


def test_a_single_bot_in_every_seat_wins_every_game(usa: Ruleset) -> None:
    results = list(simulate(usa, players=4, games=3, seed=2, bots=["random"]))
    (only,) = summarize(results).bots
    assert (only.seats, only.games, only.games_won, only.win_share) == (4, 3, 3, 1.0)
    assert only.results == 12


def test_a_game_counts_once_for_a_bot_however_many_seats_won() -> None:
    def game(winners: tuple[str, ...]) -> GameResult:
        players = tuple(
            PlayerResult(name=f"P{i}", bot=bot, total=10)
            for i, bot in enumerate(("a", "b", "a", "b"))
        )
        return GameResult(seed=0, turns=10, players=players, winners=winners)

    a, b = summarize([game(("P0", "P2")), game(("P1",)), game(("P2", "P3"))]).bots
    assert (a.seats, a.games, a.games_won) == (2, 3, 2)
    assert (b.seats, b.games, b.games_won) == (2, 3, 2)
    assert a.win_share == b.win_share == 2 / 3


# -- Ctrl-C ------------------------------------------------------------------------------

SLOW_BOT = """
import pathlib, time
from ttr_core.bots import RandomBot

class SlowBot(RandomBot):
    def choose(self, view, legal):
        pathlib.Path("started").touch()
        time.sleep(0.05)
        return super().choose(view, legal)
"""


def start(*args: str, cwd: Path | None = None) -> AbstractContextManager[subprocess.Popen[str]]:
    """``ttr`` in a real process that Ctrl-C (SIGINT) interrupts, in a process group of
    its own that is killed, workers included, if it runs past its deadline."""
    # A shell may start background jobs with SIGINT ignored; the run must see it.
    return ttr_process(
        *args, cwd=cwd, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
    )


def wait_for(condition: Any, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert proc.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() < deadline, "the run made no progress"
        time.sleep(0.02)


def test_ctrl_c_in_json_mode_keeps_the_lines_of_finished_games() -> None:
    with start("simulate", "--games", "2000", "--json") as proc:
        assert proc.stdout is not None
        first = [proc.stdout.readline(), proc.stdout.readline()]
        proc.send_signal(signal.SIGINT)
        out, err = read_rest(proc, first)
    lines = [json.loads(line) for line in out]
    assert proc.returncode == 130
    assert err == f"ttr: interrupted after {len(lines)} of 2000 games\n"
    assert 2 <= len(lines) < 2000


def test_ctrl_c_in_table_mode_summarises_the_finished_games(tmp_path: Path) -> None:
    records = tmp_path / "records"
    with start("simulate", "--games", "2000", "--save", str(records)) as proc:
        wait_for(lambda: records.is_dir() and len(list(records.glob("*.json"))) >= 2, proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 130
    assert err.startswith("ttr: interrupted after ") and err.endswith(" of 2000 games\n")
    done = int(err.split()[3])
    assert done >= 2
    assert f"usa: {done} games, 4 players, seed 1" in out and "Win share" in out
    saved = list(records.glob("*.json"))
    assert len(saved) == done
    assert not list(records.glob(".*"))  # no temporary file left behind
    for path in saved:
        Game.load(path.read_bytes())


def test_ctrl_c_before_any_game_finished(tmp_path: Path) -> None:
    (tmp_path / "slow_bot.py").write_text(textwrap.dedent(SLOW_BOT))
    with start("simulate", "--games", "3", "--bots", "slow_bot:SlowBot", cwd=tmp_path) as proc:
        wait_for(lambda: (tmp_path / "started").exists(), proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=DEADLINE)
    assert (proc.returncode, out, err) == (130, "", "ttr: interrupted after 0 of 3 games\n")


def test_ctrl_c_waits_until_a_finished_game_is_reported() -> None:
    ctrl_c = CtrlC()
    reported = []
    with pytest.raises(KeyboardInterrupt), ctrl_c.installed(), ctrl_c.held():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)  # the handler has run by now, and held the interrupt back
        reported.append("game")
    assert reported == ["game"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt), ctrl_c.installed():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
        reported.append("too late")
    assert reported == ["game"]


class InterruptedBot:
    """A bot whose third game is interrupted as by Ctrl-C (the bot is built per game)."""

    built = 0

    def __init__(self, rs: Ruleset, seat: int, seed: int) -> None:
        type(self).built += 1
        if type(self).built > 4:  # two seats per game: games 1 and 2 finish
            raise KeyboardInterrupt

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


@pytest.mark.parametrize("as_json", [False, True])
def test_interruption_reports_exactly_the_finished_games(
    ttr: Any, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    monkeypatch.setattr(InterruptedBot, "built", 0)
    bot = f"{__name__}:InterruptedBot"
    extra = ("--json",) if as_json else ()
    result = ttr("simulate", "--games", "5", "--players", "2", "--bots", bot, *extra)
    assert (result.code, result.err) == (130, "ttr: interrupted after 2 of 5 games\n")
    if as_json:
        assert len(result.out.splitlines()) == 2
    else:
        assert "usa: 2 games, 2 players, seed 1" in result.out


DIRS = ("compact", "verbose")


def test_saved_records_are_compact_unless_verbose_ones_are_asked_for(
    ttr: Any, tmp_path: Path
) -> None:
    run = ["simulate", "--games", "2", "--players", "2", "--seed", "3", "--json"]
    assert ttr(*run, "--save", str(tmp_path / "compact")).code == 0
    assert ttr(*run, "--save", str(tmp_path / "verbose"), "--verbose-records").code == 0
    names = sorted(p.name for p in (tmp_path / "compact").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "verbose").iterdir()) and len(names) == 2
    for name in names:
        compact = (tmp_path / "compact" / name).read_text()
        verbose = (tmp_path / "verbose" / name).read_text()
        assert json.loads(compact)["format"] == 2 and json.loads(verbose)["format"] == 1
        assert len(compact) * 5 < len(verbose)
        assert GameRecord.from_json(compact) == GameRecord.from_json(verbose)
        logs = [ttr("replay", str(tmp_path / d / name), "--log", "--json") for d in DIRS]
        assert [log.code for log in logs] == [0, 0] and logs[0].out == logs[1].out


def test_verbose_records_need_a_directory_to_save_to(ttr: Any) -> None:
    result = ttr("simulate", "--games", "1", "--verbose-records")
    assert result.code == 2 and result.out == ""
    assert result.err == "ttr: error: argument --verbose-records: it needs --save DIR\n"
