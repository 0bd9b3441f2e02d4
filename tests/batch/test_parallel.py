"""Runs on local worker processes: results in game order and independent of where games
ran, failures that lose nothing, Ctrl-C without worker tracebacks, a pool shut down
cleanly however the run ends, and the Dask extra and its no-worker timeout."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest
from parallel_bots import (
    ECHOED,
    KILL_IN_CHUNK,
    KILL_ONCE,
    dies_on_game_one,
    dies_once_in_a_chunk,
    echo_environment,
    fails,
    later_first,
)
from processes import DEADLINE, process_group, python_process, read_rest, ttr_process

from ttr_core import Ruleset, hookimpl
from ttr_core.batch.parallel import (
    CHUNK_SECONDS,
    MAX_ATTEMPTS,
    MAX_CHUNK,
    WORKER_TIMEOUT,
    WORKER_TIMEOUT_VARIABLE,
    GameFailure,
    _run_pooled,
    attempt,
    chunk_size,
    resolve_worker_timeout,
    run_in_order,
)
from ttr_core.batch.runs import GamePlan, game_seed, play_games, simulate
from ttr_core.cli import main
from ttr_core.model import rng
from ttr_core.model.errors import MissingExtraError
from ttr_core.model.extras import install_command


def ttr(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def seeds(n: int, seed: int = 1) -> list[int]:
    return [game_seed(seed, i) for i in range(n)]


def test_outcomes_come_in_game_order_whatever_order_games_finish_in() -> None:
    finished: list[None] = []
    outcomes = list(
        run_in_order(later_first, seeds(8), jobs=2, on_done=lambda: finished.append(None))
    )
    assert outcomes == [(i, s) for i, s in enumerate(seeds(8))]
    assert len(finished) == 8


@pytest.mark.parametrize("jobs", [1, 2])
def test_on_start_is_called_once_before_any_game_is_done(jobs: int) -> None:
    """A progress bar starts its threads there, once the workers are started."""
    calls: list[str] = []
    outcomes = run_in_order(
        later_first,
        seeds(4),
        jobs=jobs,
        on_start=lambda: calls.append("start"),
        on_done=lambda: calls.append("done"),
    )
    assert calls == []  # nothing happens before the outcomes are asked for
    assert list(outcomes) == list(enumerate(seeds(4)))
    assert calls == ["start", "done", "done", "done", "done"]


def test_a_task_that_raises_is_a_failure_naming_its_seed() -> None:
    def task(index: int, seed: int) -> int:
        raise KeyError("lost")

    failure = attempt(task, 3, 77)
    assert failure == GameFailure(3, 77, "the game with seed 77 failed: KeyError: 'lost'")


@pytest.mark.slow
def test_simulate_json_is_byte_identical_on_one_and_two_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("simulate", "--games", "6", "--players", "3", "--bots", "greedy,random", "--json")
    one = ttr(capsys, *args, "--jobs", "1")
    two = ttr(capsys, *args, "--jobs", "2")
    assert one == two
    assert one[0] == 0 and len(one[1].splitlines()) == 6


@pytest.mark.slow
def test_a_killed_local_worker_loses_no_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, usa: Ruleset
) -> None:
    """The pool breaks when the worker dies; a new pool plays the unfinished games again."""
    marker = tmp_path / "killed"
    monkeypatch.setenv(KILL_ONCE, str(marker))
    bots = ["parallel_bots:WorkerKiller", "greedy"]
    here = list(simulate(usa, players=2, games=6, seed=4, bots=bots))
    assert not marker.exists()  # the test process never kills itself
    there = list(simulate(usa, players=2, games=6, seed=4, bots=bots, jobs=2))
    assert marker.exists(), "no worker was killed"
    assert there == here


@pytest.mark.slow
def test_a_game_whose_worker_always_dies_fails_and_the_others_are_kept() -> None:
    outcomes = list(run_in_order(dies_on_game_one, seeds(4), jobs=2))
    failure = outcomes[1]
    assert isinstance(failure, GameFailure)
    assert failure.seed == seeds(4)[1]
    assert f"died {MAX_ATTEMPTS} times" in failure.message
    assert [outcomes[i] for i in (0, 2, 3)] == [seeds(4)[i] for i in (0, 2, 3)]


def test_chunks_take_about_chunk_seconds_and_leave_every_slot_a_share_at_the_end() -> None:
    assert chunk_size(200, 2, None) == 1  # no game timed yet
    assert chunk_size(200, 2, CHUNK_SECONDS / 5) == 5
    assert chunk_size(200, 2, CHUNK_SECONDS * 3) == 1  # slow games go one at a time
    assert chunk_size(10_000, 2, 1e-6) == MAX_CHUNK
    assert chunk_size(10_000, 2, 0.0) == MAX_CHUNK
    assert chunk_size(20, 2, 1e-6) == 5  # the last 20 games shared by 2 slots, 2 chunks each
    assert chunk_size(3, 2, 1e-6) == 1


@pytest.mark.slow
def test_a_worker_killed_in_the_middle_of_a_chunk_loses_no_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quick games go in chunks of several; the games of the chunk the worker was
    playing, and of every chunk of the broken pool, are played again, one at a time, and
    the outcomes are each game's once, in game order."""
    marker = tmp_path / "killed"
    monkeypatch.setenv(KILL_ONCE, str(marker))
    done: list[None] = []
    outcomes = list(
        run_in_order(dies_once_in_a_chunk, seeds(300), jobs=2, on_done=lambda: done.append(None))
    )
    assert marker.exists(), "no worker was killed"
    assert [(index, seed) for index, seed, _ in outcomes] == list(enumerate(seeds(300)))
    assert len(done) == 300
    assert outcomes[KILL_IN_CHUNK][2] == 1, "played again alone, as a suspect"
    assert max(length for _, _, length in outcomes) > 1


@pytest.mark.slow
def test_workers_take_the_environment_of_the_process_at_the_start_of_each_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As spawned workers would, also when they are forked from a fork server started
    by an earlier run with another environment."""
    monkeypatch.delenv(ECHOED, raising=False)
    assert list(run_in_order(echo_environment, seeds(2), jobs=2)) == [None, None]
    monkeypatch.setenv(ECHOED, "set later")
    assert list(run_in_order(echo_environment, seeds(2), jobs=2)) == ["set later"] * 2


START_METHODS = """\
import threading
from ttr_core.batch.parallel import single_threaded, worker_context

def method():
    return worker_context().get_start_method()

alone = (single_threaded(), method())
release = threading.Event()
thread = threading.Thread(target=release.wait)
thread.start()
busy = (single_threaded(), method())
release.set()
thread.join()
print(alone, busy, (single_threaded(), method()))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads counted in /proc")
def test_workers_are_forked_from_a_process_with_one_thread_else_from_the_fork_server() -> None:
    """A thread that could hold a lock in the copy, as a progress bar's, sends the
    workers of the pools started meanwhile to the fork server."""
    done = subprocess.run(
        [sys.executable, "-c", START_METHODS], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.split("\n") == [
        "(True, 'fork') (False, 'forkserver') (True, 'fork')",
        "",
    ]


FORKED_RUNS = """\
import os
import signal
from parallel_bots import ECHOED, dies_on_game_one, echo_environment, sigterm_handling
from ttr_core.batch.parallel import GameFailure, run_in_order, worker_context

if __name__ == "__main__":
    assert worker_context().get_start_method() == "fork"
    outcomes = list(run_in_order(dies_on_game_one, [11, 12, 13, 14], jobs=2))
    print(isinstance(outcomes[1], GameFailure), [outcomes[i] for i in (0, 2, 3)])
    os.environ[ECHOED] = "set later"
    print(list(run_in_order(echo_environment, [1, 2], jobs=2)))
    signal.signal(signal.SIGTERM, lambda number, frame: None)
    print(sigterm_handling(0, 1), list(run_in_order(sigterm_handling, [1, 2], jobs=2)))
"""


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads counted in /proc")
def test_workers_forked_from_this_process_lose_no_game_and_take_each_runs_environment() -> None:
    """The guarantees of the fork server's workers hold for workers forked directly: a
    game that kills its worker every time fails alone, a later run's workers see the
    environment at its start, and a signal handler of the main process is not theirs (a
    SIGTERM that only calls it would not end a worker of a broken pool)."""
    tests = str(Path(__file__).resolve().parents[1])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", FORKED_RUNS],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "True [11, 13, 14]",
        "['set later', 'set later']",
        "python ['default', 'default']",
    ]


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads counted in /proc")
def test_a_run_in_a_terminal_forks_its_workers_before_its_progress_bar_starts() -> None:
    """The bar's delay thread starts once the workers are started, so they are forked from
    the main process, not from the fork server (a quarter of a second at every start)."""
    psutil = pytest.importorskip("psutil")
    terminal, other_end = os.openpty()
    args = ("simulate", "--games", "2000", "--jobs", "2", "--bots", "greedy")
    try:
        with ttr_process(*args, stderr=other_end) as proc:
            main = psutil.Process(proc.pid)
            end = time.monotonic() + 60
            while len(main.children()) < 2 and time.monotonic() < end:
                time.sleep(0.02)
            children = main.children()
            commands = [child.cmdline() for child in children]
            own = main.cmdline()
            bar = b""  # the bar shows once its delay has passed
            while b"simulating" not in bar and time.monotonic() < end:
                if select.select([terminal], [], [], 0.1)[0]:
                    bar += os.read(terminal, 4096)
    finally:
        os.close(terminal)
        os.close(other_end)
    assert commands == [own, own]  # no fork server, no resource tracker
    assert b"simulating" in bar, bar


RUN_TO_KILL = """\
import sys
import threading
from parallel_bots import naps
from ttr_core.batch.parallel import run_in_order, worker_context

if __name__ == "__main__":
    if sys.argv[1] == "forkserver":  # a thread sends the workers to the fork server
        threading.Thread(target=threading.Event().wait, daemon=True).start()
    print(worker_context().get_start_method(), flush=True)
    for outcome in run_in_order(naps, list(range(10_000)), jobs=2):
        print(outcome, flush=True)
"""


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads counted in /proc")
@pytest.mark.parametrize("method", ["fork", "forkserver"])
def test_nothing_of_a_run_outlives_a_main_process_killed_outright(method: str) -> None:
    """A main process killed with SIGKILL cannot shut its pool down: its workers end by
    themselves (and with them the fork server), instead of waiting for games for ever."""
    psutil = pytest.importorskip("psutil")
    tests = str(Path(__file__).resolve().parents[1])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, *sys.path])}
    argv = [sys.executable, "-c", RUN_TO_KILL, method]
    with process_group(argv, env=environment) as proc:
        assert proc.stdout is not None
        assert proc.stdout.readline() == f"{method}\n"
        assert proc.stdout.readline() == "0\n"
        left = psutil.Process(proc.pid).children(recursive=True)
        assert len(left) >= 2
        proc.kill()
        proc.wait(timeout=DEADLINE)
        _, alive = psutil.wait_procs(left, timeout=20)
    assert alive == []


class LostWorkers(Exception):
    """What the futures of :class:`LosingExecutor` fail with (Dask's ``KilledWorker``)."""


class LosingExecutor(Executor):
    """Plays each chunk here at once, except that a chunk holding game ``fatal`` fails
    with :class:`LostWorkers`, as Dask fails a task whose workers kept dying."""

    def __init__(self, fatal: int) -> None:
        self.fatal = fatal

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        if any(index == self.fatal for index, _ in args[1]):
            future.set_exception(LostWorkers("worker died"))
        else:
            future.set_result(fn(*args, **kwargs))
        return future


class LosingPool:
    """A pool of two slots on a :class:`LosingExecutor`."""

    lost = (LostWorkers,)
    tick = None

    def __init__(self, fatal: int) -> None:
        self.fatal = fatal

    def start(self) -> Executor:
        return LosingExecutor(self.fatal)

    def slots(self) -> int:
        return 2

    def report(self) -> None:
        pass

    def stop(self) -> None:
        pass


def quick(index: int, seed: int) -> int:
    return seed


def test_a_chunk_whose_workers_died_fails_only_its_game_at_fault() -> None:
    """The games of a chunk lost with its workers are played again one at a time; only
    the game lost again, alone, is a failure."""
    outcomes = list(_run_pooled(LosingPool(fatal=100), quick, seeds(200), None, None))
    failure = outcomes[100]
    assert isinstance(failure, GameFailure) and failure.seed == seeds(200)[100]
    assert "the workers playing it died (LostWorkers: worker died)" in failure.message
    assert outcomes[:100] + outcomes[101:] == seeds(200)[:100] + seeds(200)[101:]


def failing_games(seed: int, games: int) -> list[int]:
    """Game seeds of a two-player run in which the SeedFailer in seat 1 raises."""
    return [g for g in seeds(games, seed) if fails(rng.derive_seed(g, 2))]


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_bot_is_reported_with_its_seed_and_the_other_games_kept(
    capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    failed = failing_games(2, 6)
    assert 0 < len(failed) < 6
    args = ("simulate", "--games", "6", "--players", "2", "--seed", "2", "--jobs", jobs)
    code, out, err = ttr(capsys, *args, "--bots", "greedy,parallel_bots:SeedFailer", "--json")
    assert code == 1
    assert [json.loads(line)["seed"] for line in out.splitlines()] == [
        s for s in seeds(6, 2) if s not in failed
    ]
    lines = err.splitlines()
    assert len(lines) == len(failed) and "Traceback" not in err
    for line, seed in zip(lines, failed, strict=True):
        assert line.startswith("ttr: error: bot 'parallel_bots:SeedFailer' in seat 1 failed")
        assert f"seed {seed}" in line and "ZeroDivisionError" in line
    code, out, err = ttr(capsys, *args, "--bots", "greedy,parallel_bots:SeedFailer")
    assert code == 1
    assert f"usa: {6 - len(failed)} games, 2 players, seed 2" in out
    assert f"{len(failed)} game" in out and "failed" in out


def test_simulate_raises_for_the_first_failed_game(usa: Ruleset) -> None:
    from ttr_core.batch.runs import SimulationError

    (first, *_) = failing_games(2, 6)
    bots = ["greedy", "parallel_bots:SeedFailer"]
    with pytest.raises(SimulationError, match=f"seed {first}"):
        list(simulate(usa, players=2, games=6, seed=2, bots=bots, jobs=2))


class HouseRule:
    @hookimpl
    def ttr_final_bonuses(self, context: Any) -> dict[str, list[int]]:
        return {"house": [1] * len(context.names)}


def test_a_ruleset_with_plugins_of_its_own_plays_only_here() -> None:
    rs = Ruleset.build("usa", plugins=[HouseRule()])
    assert len(list(play_games(rs, players=2, games=2, seed=1, bots=["greedy"]))) == 2
    with pytest.raises(ValueError, match="only be played in this process"):
        play_games(rs, players=2, games=2, seed=1, bots=["greedy"], jobs=2)


def test_a_game_plan_is_what_a_worker_needs(usa: Ruleset) -> None:
    plan = GamePlan.of(usa, ["greedy", "random"])
    assert plan(0, 5) == plan.play(usa, 0, 5)
    assert plan.options == tuple(usa.options.items())


def test_jobs_and_scheduler_together_are_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = ttr(capsys, "simulate", "--jobs", "2", "--scheduler", "tcp://h:1")
    assert (code, out) == (2, "")
    assert err.startswith("ttr: error: argument --scheduler: not allowed with argument --jobs")


@pytest.mark.parametrize("command", ["simulate --save", "study usa --out"])
def test_a_scheduler_without_dask_is_one_error_line_naming_the_extra(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(MissingExtraError):
        run_in_order(later_first, seeds(2), scheduler="tcp://127.0.0.1:8786")
    out_dir = tmp_path / "out"
    args = (*command.split(), str(out_dir), "--scheduler", "tcp://127.0.0.1:8786")
    code, out, err = ttr(capsys, *args)
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and err.startswith("ttr: error: ")
    assert install_command("dask") in err
    assert not out_dir.exists()


def test_a_malformed_scheduler_address_is_one_error_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = ttr(capsys, "simulate", "--games", "2", "--scheduler", "nowhere")
    assert (code, out) == (1, "")
    assert err == (
        "ttr: error: cannot reach the Dask scheduler at nowhere: "
        "missing port number in address 'nowhere'\n"
    )


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks")
def test_a_ctrl_c_anywhere_in_a_run_holds_no_lock_and_shuts_the_pool_down() -> None:
    """A KeyboardInterrupt at any instruction a Ctrl-C can reach ends the run with its
    pool shut down (see ``interrupt_points``). Inside ``concurrent.futures.wait`` it could
    come just after a lock was taken: the thread completing the next game then waited for
    that lock for ever, and so did the shutdown."""
    tests = str(Path(__file__).resolve().parents[1])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, *sys.path])}
    with python_process(
        "import sys, interrupt_points; sys.exit(interrupt_points.main(300))",
        env=environment,
    ) as proc:
        out, err = proc.communicate(timeout=DEADLINE)
    assert (proc.returncode, err) == (0, ""), out
    interrupted, of = map(int, out.split()[1::2])
    assert of == 300 and interrupted > of // 2, out


@pytest.mark.slow
def test_ctrl_c_stops_a_run_on_worker_processes_without_worker_tracebacks() -> None:
    """Ctrl-C in a terminal signals every process of the foreground group, workers too."""
    # Its own process group, as a terminal's foreground job.
    args = ("simulate", "--games", "500", "--jobs", "2", "--json")
    with ttr_process(*args) as proc:
        assert proc.stdout is not None
        first = [proc.stdout.readline(), proc.stdout.readline()]
        time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = read_rest(proc, first)
    lines = [json.loads(line) for line in out]
    assert proc.returncode == 130
    assert err == f"ttr: interrupted after {len(lines)} of 500 games\n"
    assert [line["seed"] for line in lines] == seeds(len(lines))


@pytest.mark.slow
def test_worker_processes_ignore_sigint() -> None:
    """SIGINT sent to the workers alone changes nothing: every game is played."""
    psutil = pytest.importorskip("psutil")
    with ttr_process("simulate", "--games", "40", "--jobs", "2", "--json") as proc:
        assert proc.stdout is not None
        first = [proc.stdout.readline()]
        # The workers, and the fork server they were forked from where there is one.
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert len(workers) >= 2
        for worker in workers:
            os.kill(worker.pid, signal.SIGINT)
        out, err = read_rest(proc, first)
    assert (proc.returncode, err) == (0, "")
    assert [json.loads(line)["seed"] for line in out] == seeds(40)


@pytest.mark.slow
def test_dask_and_matplotlib_are_imported_only_when_needed() -> None:
    code = (
        "import sys\n"
        "from ttr_core.cli import main\n"
        "main(['simulate', '--games', '2', '--jobs', '2', '--players', '2'])\n"
        "import ttr_core.study, ttr_core.batch.parallel\n"
        "print('distributed' in sys.modules, 'dask' in sys.modules, 'matplotlib' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines()[-1] == "False False False"


def pool_threads() -> set[threading.Thread]:
    """The threads alive now; a local pool's management thread is one while it runs."""
    return set(threading.enumerate())


@pytest.mark.slow
@pytest.mark.parametrize("end", ["finished", "closed", "interrupted", "broken"])
def test_a_local_pool_is_shut_down_completely_whichever_way_a_run_ends(end: str) -> None:
    """No thread of the pool outlives the run: at exit, Python 3.11 wakes a management
    thread still running through a pipe it may be closing (``OSError: [Errno 9] Bad file
    descriptor``)."""
    before = pool_threads()
    if end == "finished":
        assert list(run_in_order(later_first, seeds(4), jobs=2)) == list(enumerate(seeds(4)))
    elif end == "broken":
        assert len(list(run_in_order(dies_on_game_one, seeds(3), jobs=2))) == 3
    else:
        outcomes = run_in_order(later_first, seeds(40), jobs=2)
        assert next(outcomes) == (0, seeds(1)[0])
        if end == "closed":
            outcomes.close()
        else:
            with pytest.raises(KeyboardInterrupt):
                outcomes.throw(KeyboardInterrupt)
    assert pool_threads() <= before


CLOSE_EARLY = """\
from ttr_core import Ruleset
from ttr_core.batch.runs import play_games

outcomes = play_games(Ruleset.build("usa"), players=2, games=40, seed=1, bots=["random"], jobs=2)
next(outcomes)
outcomes.close()
print("closed")
"""


@pytest.mark.slow
def test_runs_on_worker_processes_exit_without_a_word_on_standard_error() -> None:
    """Several ``ttr simulate --jobs 2`` runs, and a program that closes a run early,
    print nothing on standard error (no ``OSError`` from the pool's exit handler)."""
    args = ("simulate", "--jobs", "2", "--games", "4", "--players", "2", "--json")
    with contextlib.ExitStack() as stack:
        runs = [stack.enter_context(ttr_process(*args)) for _ in range(3)]
        closing = stack.enter_context(python_process(CLOSE_EARLY))
        for proc in [*runs, closing]:
            out, err = proc.communicate(timeout=DEADLINE)
            assert (proc.returncode, err) == (0, "")
            assert len(out.splitlines()) == (4 if proc is not closing else 1)


def test_the_no_worker_timeout_is_a_positive_number_of_seconds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``worker_timeout``, else ``TTR_WORKER_TIMEOUT``, else WORKER_TIMEOUT; anything but
    a positive number is refused before a scheduler is looked for."""
    monkeypatch.delenv(WORKER_TIMEOUT_VARIABLE, raising=False)
    assert resolve_worker_timeout() == WORKER_TIMEOUT
    assert resolve_worker_timeout(0.5) == 0.5
    monkeypatch.setenv(WORKER_TIMEOUT_VARIABLE, "2.5")
    assert resolve_worker_timeout() == 2.5
    assert resolve_worker_timeout(7) == 7.0
    with pytest.raises(ValueError, match="worker_timeout must be a positive number"):
        run_in_order(later_first, seeds(2), scheduler="tcp://127.0.0.1:1", worker_timeout=0)
    for text in ("soon", "0", "-3", "nan"):
        monkeypatch.setenv(WORKER_TIMEOUT_VARIABLE, text)
        with pytest.raises(ValueError, match=f"got '{text}'"):
            run_in_order(later_first, seeds(2), scheduler="tcp://127.0.0.1:1")
    monkeypatch.setenv(WORKER_TIMEOUT_VARIABLE, "soon")
    for command in (("simulate",), ("study", "usa", "--out", "unused")):
        code, out, err = ttr(capsys, *command, "--scheduler", "tcp://127.0.0.1:1")
        assert (code, out) == (1, "")
        assert err == (
            "ttr: error: TTR_WORKER_TIMEOUT must be a positive number of seconds, got 'soon'\n"
        )
