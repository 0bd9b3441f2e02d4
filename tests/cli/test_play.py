"""``ttr play``: a person plays against bots in the terminal, by numbered menus."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ttr_core import Game
from ttr_core.cli import main

TTR = [sys.executable, "-m", "ttr_core"]


class Person(io.TextIOBase):
    """Standard input typed by a person who reads the screen: ``answer`` gets what has
    been printed so far and returns the next line (None ends the input)."""

    limit = 5000
    """Lines typed at most: a person stuck in a loop ends the input instead."""

    def __init__(self, screen: io.StringIO, answer: Callable[[str], str | None]) -> None:
        self.screen = screen
        self.answer = answer
        self.typed = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.typed += 1
        line = self.answer(self.screen.getvalue()) if self.typed <= self.limit else None
        return "" if line is None else line + "\n"

    def isatty(self) -> bool:
        return False


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
    args: list[str],
    answer: Callable[[str], str | None],
) -> tuple[int, str, str]:
    """Run ``ttr play ARGS`` in this process with a :class:`Person` at the keyboard."""
    screen = io.StringIO()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stdin", Person(screen, answer))
    code = main(["play", *args])
    return code, screen.getvalue(), capsys.readouterr().err


def last_menu(screen: str) -> str:
    """The text from the last menu title (or question) on."""
    marks = ("Your turn:", "Which route?", "Pay for", "Your second card:", "Keep which?")
    at = max(screen.rfind(mark) for mark in marks)
    return screen[at:]


def claimer(screen: str) -> str:
    """A person who keeps every ticket and claims whenever they can, else takes option 1."""
    menu = last_menu(screen)
    if menu.startswith("Keep which?"):
        return "all"
    if menu.startswith("Your turn:"):
        for line in menu.splitlines():
            if "Claim a route" in line:
                return line.split(".")[0].strip()
    return "1"


@pytest.mark.slow
def test_a_piped_session_plays_a_whole_game(tmp_path: Path) -> None:
    """Input piped into ``ttr play`` plays a whole game; the scores are shown and the
    saved game replays. The script suits any position: 'all' keeps every ticket offered
    and is refused by a menu, whose next line '1' is then its first option."""
    saved = tmp_path / "game.json"
    script = "all\n1\n" * 2000
    proc = subprocess.run(
        [*TTR, "play", "usa", "--seed", "3", "--save", str(saved)],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = proc.stdout
    assert out.startswith("Ticket to Ride (USA), seed 3: Player 1 is you; Player 2 is greedy.")
    assert "== Final scores ==" in out and "Won by" in out
    assert "'all' is not a choice here: type a number from 1 to" in out
    game = Game.load(saved.read_text(encoding="utf-8"))
    assert game.is_over and game.names == ("Player 1", "Player 2")
    assert f"The game is saved in {saved}" in out
    replay = subprocess.run(
        [*TTR, "replay", str(saved)], capture_output=True, text=True, check=False
    )
    assert replay.returncode == 0 and "over (final round)" in replay.stdout


def test_a_claim_is_chosen_in_two_steps(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """The route first, then the payment; the person's claims show in the game."""
    code, out, err = play(monkeypatch, capsys, ["usa", "--seed", "11", "--seat", "1"], claimer)
    assert code == 0, err
    assert "Which route?" in out and "Pay for " in out
    assert "Player 2 claims " in out
    assert "== Final scores ==" in out
    assert "you are Player 2 (seat 1)" in out


def test_the_view_shows_what_the_seat_may_know(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    answers = iter(["all", "q"])
    code, out, _ = play(monkeypatch, capsys, ["usa", "--seed", "5"], lambda _: next(answers))
    assert code == 130
    turn = out[out.index("== Turn") :]
    for part in ("Face up: ", "Your hand: ", "Your tickets: "):
        assert part in turn
    assert re.search(r"Players\s+trains\s+cards\s+tickets\s+points\s+routes\n", turn)
    assert re.search(r"Player 1 \(you\)\s+45\s+\d+\s+\d+\s+0\s+0\n", turn)
    assert re.search(r"Player 2 \(greedy\)\s+\d+\s+\d+\s+2\s+\d+\s+\d+\n", turn)
    assert "Your turn:" in turn and "1. Take the face-up" in turn


def test_refused_inputs_explain_themselves(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """Wrong numbers, words, ticket lists and going back are explained, and nothing breaks."""
    answers = iter(
        [
            *("", "5", "1 1", "1", "x", "all"),  # the opening tickets
            *("0", "abc", "99"),  # the turn menu
            *("CLAIM", "0", "CLAIM", "1", "0", "0", "q"),  # into the claims and back out
        ]
    )

    def answer(screen: str) -> str:
        text = next(answers)
        if text == "CLAIM":
            menu = last_menu(screen)
            return next(n.split(".")[0].strip() for n in menu.splitlines() if "Claim a" in n)
        return text

    code, out, err = play(monkeypatch, capsys, ["usa", "--seed", "2"], answer)
    assert code == 130
    assert err == "ttr: interrupted before the end of the game\n"
    for message in (
        "Type numbers from 1 to 3, separated by spaces, or all.",
        "'5' is not a ticket number: type numbers from 1 to 3.",
        "Ticket 1 is named twice.",
        "Keep at least 2 tickets.",
        "'x' is not a ticket number",
        "'0' is not a choice here: type a number from 1 to",
        "'abc' is not a choice here",
        "'99' is not a choice here",
    ):
        assert message in out, message
    assert out.count("Which route?") == 3 and out.count("Your turn:") == 3


@pytest.mark.parametrize(("stop", "why"), [("q", "interrupted"), (None, "input ended")])
def test_quitting_or_the_end_of_input_stops_with_130_and_saves(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path, stop: str | None, why: str
) -> None:
    saved = tmp_path / "partial.json"
    answers = iter(["all", "1", "1", stop])
    code, _, err = play(
        monkeypatch, capsys, ["usa", "--seed", "4", "--save", str(saved)], lambda _: next(answers)
    )
    assert code == 130
    assert err == f"ttr: {why} before the end of the game; the game so far is saved in {saved}\n"
    game = Game.load(saved.read_text(encoding="utf-8"))
    assert not game.is_over and len(game.log) >= 3


def test_ctrl_c_stops_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    def interrupt(_: str) -> str:
        raise KeyboardInterrupt

    code, _, err = play(monkeypatch, capsys, ["usa", "--seed", "4"], interrupt)
    assert code == 130
    assert err == "ttr: interrupted before the end of the game\n"


def test_against_several_bots_with_parameters(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """One seat per bot plus the person's; a bot spec may carry parameters."""
    answers = iter(["all", "q"])
    args = ["usa", "--seed", "8", "--against", "random,mcts:playouts=2", "--seat", "2"]
    code, out, _ = play(monkeypatch, capsys, args, lambda _: next(answers, "q"))
    assert code == 130
    assert out.startswith(
        "Ticket to Ride (USA), seed 8: Player 1 is random; Player 2 is mcts:playouts=2; "
        "Player 3 is you."
    )


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["usa", "--against", "greedy,greedy,greedy,greedy,greedy"], 2, "2 to 5 players"),
        (["nordic", "--against", "greedy,greedy,greedy"], 2, "2 to 3 players"),
        (["usa", "--seat", "2"], 2, "argument --seat: expected a seat from 0 to 1"),
        (["usa", "--seat", "-1"], 2, "argument --seat"),
        (["usa", "--against", "nobody"], 1, "unknown bot 'nobody'"),
        (["usa", "--against", "greedy,"], 2, "argument --bots"),
        (["usa", "--against", "mcts:depth=3"], 1, "has no parameter 'depth'"),
        (["atlantis"], 1, "unknown edition 'atlantis'"),
        (["usa", "--save", "/no/such/folder/game.json"], 1, "--save: cannot write"),
    ],
)
def test_a_table_that_cannot_be_set_is_one_error_line(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, args: list[str], status: int, message: str
) -> None:
    code, out, err = play(monkeypatch, capsys, args, lambda _: "q")
    assert code == status
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("ttr: error: ")
    assert message in err, err


def test_a_piped_session_uses_cities_pages_help_map_and_tickets(tmp_path: Path) -> None:
    """Through a pipe: help at the turn menu, a city name narrowing the claims, more, all,
    map, map CITY, map svg (a file with the claims), tickets, then the end of the input."""
    script = "\n".join(
        [
            "all",  # the opening tickets
            "help",
            "tickets",
            "map",
            "map denv",
            "map svg",
            "DENVER",  # the claims at Denver, from the turn menu
            "all",
            "more",
            "0",
            "Calgary",
            "",
        ]
    )
    proc = subprocess.run(
        [*TTR, "play", "usa", "--seed", "11"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 130
    assert proc.stderr == "ttr: input ended before the end of the game\n"
    out = proc.stdout
    assert "At this prompt, type:" in out and "  map svg " in out
    assert "Your tickets (0 of 3 done; tickets N: the tracks for one):" in out
    assert re.search(r"\n  1\. .+ \(\d+\): \d+ to go", out)
    assert "Board: " in out and "Tracks at Denver:" in out
    drawn = tmp_path / "ttr-usa-11.svg"
    assert f"The board is drawn in {drawn}" in out
    svg = drawn.read_text(encoding="utf-8")
    assert "<svg" in svg and "Player 1, you (seat 0)" in svg
    at_denver = out[out.index("> DENVER") :]
    title = at_denver.splitlines()[1]
    assert title.startswith("Which route? (") and "at Denver)" in title
    assert "page 1 of" in out[out.index("> all") :] and "page 2 of" in out[out.index("> more") :]
    assert "'Calgary' is not a choice here" not in out
    calgary = out[out.index("> Calgary") :].splitlines()[1]
    assert calgary.startswith("Which route? (") and "at Calgary)" in calgary
    assert "'' is not a choice" not in out


def test_every_screen_of_a_piped_game_fits_80_columns() -> None:
    """A whole game through a pipe prints no line wider than 80 columns but the first,
    which names the table."""
    proc = subprocess.run(
        [*TTR, "play", "europe", "--seed", "5", "--against", "greedy,greedy,greedy,greedy"],
        input="all\n2\n1\n" * 1500,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    wide = [line for line in lines[1:] if len(line) > 80 and not line.startswith(">")]
    assert not wide, wide[:3]
    assert "== Final scores ==" in proc.stdout
