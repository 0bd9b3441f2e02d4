"""What a run of ``ttr simulate`` or ``ttr study`` does by default: where it plays (every
local core, or ``TTR_JOBS``) and when it shows its progress bar (after a second, on a
terminal, never with ``--json``)."""

from __future__ import annotations

import io
import sys
import threading
import time
from typing import Any

import pytest

from ttr_core.batch.parallel import JOBS_VARIABLE, default_jobs, resolve_jobs
from ttr_core.cli import _runs, build_parser, main, simulate


class _Terminal(io.StringIO):
    """Standard error as a terminal."""

    def isatty(self) -> bool:
        return True


class Result:
    """Exit status and output of one in-process ``ttr`` run."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def error_line(self) -> str:
        assert self.out == "" and len(self.err.splitlines()) == 1, self.err
        return self.err.strip()


@pytest.fixture
def ttr(capsys: pytest.CaptureFixture[str]) -> Any:
    """Run ``ttr`` in-process: ``ttr("simulate", "--games", "1")``."""

    def run(*args: str) -> Result:
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


# -- --jobs --------------------------------------------------------------------------------


def test_every_local_core_is_the_default_unless_ttr_jobs_says_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(JOBS_VARIABLE)
    assert resolve_jobs(None, 1000) == default_jobs()
    monkeypatch.setenv(JOBS_VARIABLE, " 3 ")
    assert resolve_jobs(None, 1000) == 3
    assert resolve_jobs(5, 1000) == 5


def test_a_run_never_starts_more_processes_than_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(JOBS_VARIABLE, "8")
    assert resolve_jobs(None, 3) == 3
    assert resolve_jobs(16, 2) == 2
    assert resolve_jobs(None, 1) == 1


@pytest.mark.parametrize("text", ["0", "-2", "two", "1.5"])
def test_a_bad_ttr_jobs_is_refused(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv(JOBS_VARIABLE, text)
    with pytest.raises(ValueError, match=f"TTR_JOBS must be a positive whole number, got '{text}'"):
        resolve_jobs(None, 10)


def test_a_bad_ttr_jobs_is_one_line_before_any_game(
    ttr: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(JOBS_VARIABLE, "lots")
    result = ttr("simulate", "--games", "1")
    assert result.code == 1 and result.out == ""
    assert result.error_line() == "ttr: error: TTR_JOBS must be a positive whole number, got 'lots'"


def test_simulate_and_study_say_the_same_default_in_their_help() -> None:
    parser = build_parser()
    helps = []
    for command in ("simulate", "study"):
        sub = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr,index]
        (jobs,) = [a for a in sub._actions if "--jobs" in a.option_strings]
        assert jobs.default is None
        helps.append(jobs.help)
    assert helps[0] == helps[1]
    assert "default: every local core, or $TTR_JOBS" in helps[0]


def test_simulate_without_jobs_plays_on_every_local_core(
    ttr: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default reaches the run, capped by the number of games."""
    asked: list[int] = []
    real = simulate.play_games

    def recording(*args: Any, jobs: int, **kwargs: Any) -> Any:
        asked.append(jobs)
        return real(*args, jobs=1, **kwargs)

    monkeypatch.setattr(simulate, "play_games", recording)
    monkeypatch.delenv(JOBS_VARIABLE)
    for games in ("1", "40"):
        assert ttr("simulate", "--games", games, "--players", "2").code == 0
    assert ttr("simulate", "--games", "40", "--players", "2", "--jobs", "3").code == 0
    assert asked == [1, min(default_jobs(), 40), 3]


# -- the progress bar ---------------------------------------------------------------------


def _wait_for(condition: Any, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(0.01)


def test_no_bar_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with _runs.progress_bar(10, "simulating", delay=0) as bar:
        assert bar == (None, None)


def test_no_bar_when_not_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with _runs.progress_bar(10, "simulating", shown=False, delay=0) as bar:
        assert bar == (None, None)
        time.sleep(0.05)
    assert err.getvalue() == ""


def test_a_short_run_shows_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    before = threading.active_count()
    with _runs.progress_bar(3, "simulating", delay=30) as bar:
        assert bar.on_start is not None and bar.on_done is not None
        bar.on_start()
        for _ in range(3):
            bar.on_done()
    assert err.getvalue() == ""
    _wait_for(lambda: threading.active_count() <= before)
    assert threading.active_count() <= before, "the timer of the bar is left running"


def test_a_run_longer_than_the_delay_shows_its_bar_before_its_first_game_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Even a run whose first game takes minutes shows that it is working."""
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with _runs.progress_bar(10, "simulating", delay=0.05) as bar:
        assert bar.on_start is not None
        bar.on_start()
        _wait_for(lambda: "simulating" in err.getvalue())
        shown = err.getvalue()
    assert "simulating" in shown and "0/10" in shown


def test_the_bar_starts_no_thread_before_the_run_has_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its delay is timed from ``on_start``, which a run calls once its workers are
    started: before that this process runs one thread, so the workers are forked from it."""
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    before = threading.active_count()
    with _runs.progress_bar(10, "simulating", delay=0) as bar:
        time.sleep(0.05)
        assert threading.active_count() == before and err.getvalue() == ""
        assert bar.on_start is not None
        bar.on_start()
        bar.on_start()  # once is enough; again changes nothing
        _wait_for(lambda: "simulating" in err.getvalue())
    assert "simulating" in err.getvalue()


def test_simulate_shows_no_bar_with_json_even_on_a_terminal(
    ttr: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_runs, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    result = ttr("simulate", "--games", "3", "--players", "2", "--bots", "greedy", "--json")
    assert result.code == 0 and result.err == ""
    assert len(result.out.splitlines()) == 3
