"""Playing the games of a run on local worker processes or a Dask cluster, in game order.

A run maps a *task* over the seeds of its games: ``task(index, seed)`` plays game
``index``, whose seed is ``seed``, and returns what the caller keeps of it (a small
picklable value). [`run_in_order`][] calls the task in this process (``jobs=1``), on
``jobs`` local worker processes, or on the workers of a Dask cluster (``scheduler``),
and yields the outcomes in game order whatever order the games finish in. A game
depends only on its seed, so a run's outcomes do not depend on where its games ran.

Local processes and Dask workers are driven through one code path, the
``concurrent.futures`` interface (Dask's ``Client.get_executor()``). Games are sent in
chunks that take about [`CHUNK_SECONDS`][] each (see [`chunk_size`][]), so that sending
them costs little beside playing them. Nothing is lost when something fails:

* a task that raises gives a [`GameFailure`][] naming the game's seed, in the
  game's place; the other games go on;
* a local worker process that dies breaks the pool: a new pool replaces it and every
  game that had not finished is played again, one at a time until the one at fault is
  found; Dask reschedules the games of a dead worker itself. A game whose worker dies
  [`MAX_ATTEMPTS`][] times (Dask: its ``allowed-failures`` setting) gives a
  [`GameFailure`][]. A Dask worker that leaves the cluster unexpectedly is reported
  as a [`WorkerLostWarning`][] while its games are played again;
* a Dask scheduler that has no workers, from the start or after losing the last one,
  for [`WORKER_TIMEOUT`][] seconds (``worker_timeout``, ``TTR_WORKER_TIMEOUT``) ends
  the run with a [`ClusterError`][], after the outcomes of the games already finished.

Local worker processes never inherit a thread of the main process (see
[`worker_context`][]), and they ignore SIGINT, so Ctrl-C in a terminal stops the main
process only, without a traceback from any worker. Every way a run ends (its last game,
the consumer closing it, Ctrl-C, an error) shuts a local pool down completely before the
run returns; a main process killed outright leaves no worker behind either, since each
worker ends once the process that started it has ended. Dask is imported only when a
scheduler is given.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import CancelledError, Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from attrs import frozen

from ttr_core.model.errors import MissingExtraError, TtrError, quote
from ttr_core.model.extras import install_command

R = TypeVar("R")

MAX_ATTEMPTS = 3
"""How many times a game may kill its local worker process, played alone, before it fails."""
LEAD = 8
"""How many chunks per worker may be started ahead of the next game to yield."""
CHUNK_SECONDS = 0.05
"""About how long a chunk of games sent to a worker at once should take to play, so that
sending games and their outcomes between processes costs little beside playing them."""
MAX_CHUNK = 64
"""The most games sent to a worker at once."""
CONNECT_TIMEOUT = 10
"""Seconds to wait for a Dask scheduler to answer."""
WORKER_TIMEOUT = 60.0
"""Seconds a run on a Dask scheduler waits while the scheduler has no worker, at the
start or after losing the last one, before it fails with [`ClusterError`][]."""
WORKER_TIMEOUT_VARIABLE = "TTR_WORKER_TIMEOUT"
"""The environment variable that replaces [`WORKER_TIMEOUT`][] when ``worker_timeout``
is not given (``ttr simulate`` and ``ttr study`` read it)."""
JOBS_VARIABLE = "TTR_JOBS"
"""The environment variable that sets how many local processes ``ttr simulate`` and
``ttr study`` use when ``--jobs`` is not given (default: every local core)."""
WATCH_INTERVAL = 1.0
"""Seconds between two looks at the workers of a Dask cluster during a run."""
THREAD_EXIT_WAIT = 0.01
"""Seconds [`single_threaded`][] waits at most for threads that have ended to leave the
operating system's list."""
DASK_INSTALL = install_command("dask")
"""The command that installs what ``scheduler`` needs."""


class ClusterError(TtrError, RuntimeError):
    """The Dask scheduler cannot be reached at the address given, the connection to it
    was lost, or it has had no worker for the no-worker timeout."""


class WorkerLostWarning(UserWarning):
    """A Dask worker left the cluster unexpectedly during a run: Dask plays the games it
    was playing again, on the other workers or on those that join."""

    def __init__(self, address: str) -> None:
        super().__init__(f"the Dask worker at {address} was lost; its games are being retried")
        self.address = address
        """The address of the worker, e.g. ``tcp://10.0.0.7:40123``."""


@frozen
class GameFailure:
    """A game that gave no result: its task raised, or its workers kept dying."""

    index: int
    """The game's number in the run, from 0."""
    seed: int
    """The game's seed."""
    message: str
    """One line that names the seed and says what went wrong."""


def default_jobs() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def resolve_jobs(jobs: int | None, games: int) -> int:
    """How many local processes a run of ``games`` games uses: ``jobs`` if given, else the
    ``TTR_JOBS`` environment variable if set, else every local core ([`default_jobs`][]);
    never more than ``games``, since a process plays whole games.

    :raises ValueError: ``jobs`` or ``TTR_JOBS`` is not a positive whole number.
    """
    if jobs is None:
        text = os.environ.get(JOBS_VARIABLE, "").strip()
        if not text:
            jobs = default_jobs()
        else:
            try:
                jobs = int(text)
            except ValueError:
                jobs = 0
            if jobs < 1:
                raise ValueError(
                    f"{JOBS_VARIABLE} must be a positive whole number, got {quote(text)}"
                )
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    return max(1, min(jobs, games))


def attempt(task: Callable[[int, int], R], index: int, seed: int) -> R | GameFailure:
    """``task(index, seed)``, or the [`GameFailure`][] of the exception it raised.

    This is what runs in a worker, so that a failing game is a value like any other.
    """
    try:
        return task(index, seed)
    except Exception as exc:
        text = f"{type(exc).__name__}: {exc}" if not isinstance(exc, TtrError) else str(exc)
        if f"seed {seed}" not in text:
            text = f"the game with seed {seed} failed: {text}"
        return GameFailure(index=index, seed=seed, message=" ".join(text.split()))


def check_scheduler_support() -> None:
    """Check that Dask's distributed scheduler can be imported.

    :raises MissingExtraError: it is not installed; the message gives the pip command.
    """
    try:
        importlib.import_module("distributed")
    except ImportError:
        raise MissingExtraError(
            f"running on a Dask scheduler needs Dask's distributed package: {DASK_INSTALL}"
        ) from None


def resolve_worker_timeout(seconds: float | None = None) -> float:
    """The no-worker timeout of a run on Dask: ``seconds`` if given, else the
    ``TTR_WORKER_TIMEOUT`` environment variable if set, else [`WORKER_TIMEOUT`][].

    :raises ValueError: it is not a positive number of seconds (``inf`` waits for ever).
    """
    if seconds is not None:
        if not seconds > 0:  # NaN too
            raise ValueError(f"worker_timeout must be a positive number of seconds, not {seconds}")
        return float(seconds)
    text = os.environ.get(WORKER_TIMEOUT_VARIABLE, "").strip()
    if not text:
        return WORKER_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise ValueError(
            f"{WORKER_TIMEOUT_VARIABLE} must be a positive number of seconds, got {quote(text)}"
        )
    return value


def run_in_order(
    task: Callable[[int, int], R],
    seeds: Sequence[int],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Callable[[], None] | None = None,
    on_start: Callable[[], None] | None = None,
    worker_timeout: float | None = None,
) -> Generator[R | GameFailure, None, None]:
    """Play game ``i`` of ``seeds`` as ``task(i, seeds[i])`` and yield the outcomes in order.

    With ``scheduler`` (a Dask scheduler address such as ``tcp://10.0.0.5:8786``) the
    games run on that cluster; else with ``jobs`` > 1 on that many local worker
    processes; else here. The task must be picklable (a top-level function or an
    instance of a top-level class) unless it runs here. ``on_done`` is called in this
    process for each game as its outcome arrives, in any order (for a progress bar).
    ``on_start`` is called once in this process when the run has started its games (on
    local workers: once they are started), before it waits for the first one: a caller
    that shows progress starts its own threads there, since a thread started before
    keeps the workers from being forked from this process (see [`worker_context`][]).
    Closing the iterator, or an exception while it waits (Ctrl-C), cancels the games
    not started; local worker processes finish the chunks they are playing and are shut
    down before that returns.

    On Dask, the run waits ``worker_timeout`` seconds at most (see
    [`resolve_worker_timeout`][]) while the scheduler has no worker, and warns with a
    [`WorkerLostWarning`][] when a worker leaves the cluster unexpectedly.

    Local workers never inherit this process's threads: they are forked from this process
    while it runs a single thread, else from a fork server started once per process, or
    spawned where the platform has neither (see [`worker_context`][]). The last two import
    the main module again, so a script must keep its work under
    ``if __name__ == "__main__":``.

    :raises ValueError: ``jobs`` is less than 1, or a scheduler is given and the
        no-worker timeout is not a positive number.
    :raises MissingExtraError: a scheduler is given and Dask is not installed.
    :raises ClusterError: while iterating, when the scheduler cannot be reached, is
        lost, or has had no worker for the no-worker timeout (after the outcomes of the
        games finished before).
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if scheduler is not None:
        timeout = resolve_worker_timeout(worker_timeout)
        check_scheduler_support()
        return _run_on_dask(scheduler, timeout, task, seeds, on_done, on_start)
    if jobs == 1 or len(seeds) <= 1:
        return _run_here(task, seeds, on_done, on_start)
    return _run_pooled(_LocalPool(min(jobs, len(seeds))), task, seeds, on_done, on_start)


def _run_here(
    task: Callable[[int, int], R],
    seeds: Sequence[int],
    on_done: Callable[[], None] | None,
    on_start: Callable[[], None] | None,
) -> Generator[R | GameFailure, None, None]:
    if on_start is not None:
        on_start()
    for index, seed in enumerate(seeds):
        outcome = attempt(task, index, seed)
        if on_done is not None:
            on_done()
        yield outcome


def _start_worker(environment: dict[str, str]) -> None:
    """Worker start-up: ignore SIGINT (it arrives blocked, see `_run_pooled`), give
    every other signal handled in Python its default action back, take the
    environment of the process that started the pool, as a spawned worker would, and
    end with that process (see `_end_with_parent`).

    A worker forked from the main process would otherwise run the main process's
    handlers (one that only notes a SIGTERM would keep a broken pool from ending its
    workers), and one forked from the fork server would keep the server's environment.
    """
    for number in signal.valid_signals():
        if number == signal.SIGINT:
            continue
        try:
            if callable(signal.getsignal(number)):
                signal.signal(number, signal.SIG_DFL)
        except (OSError, ValueError):
            continue
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if os.environ != environment:
        os.environ.clear()
        os.environ.update(environment)
    _end_with_parent()


def _end_with_parent() -> None:
    """End this worker process as soon as the process that started its pool has ended.

    A pool shuts its workers down, but a main process killed outright (SIGKILL, the
    out-of-memory killer) cannot: its workers would wait for games for ever, holding the
    pipes they inherited (the output of ``ttr`` that a caller reads to its end among
    them). A daemon thread waits on the parent's sentinel, which becomes ready when the
    parent ends, and then ends the process.
    """
    parent = multiprocessing.parent_process()
    sentinel = None if parent is None else parent.sentinel
    if sentinel is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="ttr-parent-watch", daemon=True).start()


PRELOADED = ("__main__", "ttr_core.batch.runs")
"""The modules the fork server imports once, so that each worker forked from it starts
with them imported: the main module (as a spawned worker would import it) and the library."""


def worker_context() -> multiprocessing.context.BaseContext:
    """How the local worker processes of a pool start, chosen each time a pool starts.

    * Forked from this process while it runs a single thread ([`single_threaded`][]): a
      worker starts in a few milliseconds with everything this process has imported and
      built (its library, its rulesets and their tables), and no thread can have left a
      lock held in the copy.
    * Else forked from Python's fork server where the platform has one (POSIX): a fresh
      interpreter started once per process, at the first run that needs it, which imports
      [`PRELOADED`][] (``multiprocessing.set_forkserver_preload``, which replaces any list
      set before); every later worker of every run is forked from it in milliseconds
      instead of importing the library again. Like a spawned worker, such a worker has no
      threads of the main process, imports the main module (already imported by the
      server) and takes the main process's environment, working directory and
      ``sys.path`` at the start of the run.
    * Else spawned.
    """
    if single_threaded():
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(PRELOADED))
        return context
    return multiprocessing.get_context("spawn")


def single_threaded() -> bool:
    """Whether this process runs one thread alone, counting the threads of the operating
    system (those of C libraries too, which ``threading`` does not see): read from
    ``/proc`` on Linux, and false elsewhere, where forking is left alone.

    A thread that has just ended stays listed for a moment (a millisecond or two) after
    ``join`` returns, as the management thread of the run before does: while ``threading``
    knows of no other thread, the count is read again for up to [`THREAD_EXIT_WAIT`][]
    seconds.
    """
    if not sys.platform.startswith("linux"):
        return False
    deadline: float | None = None
    while True:
        try:
            threads = len(os.listdir("/proc/self/task"))
        except OSError:
            return False
        if threads == 1:
            return True
        if threading.active_count() > 1:
            return False
        now = time.monotonic()
        if deadline is None:
            deadline = now + THREAD_EXIT_WAIT
        elif now >= deadline:
            return False
        time.sleep(THREAD_EXIT_WAIT / 50)


_HAS_SIGMASK = hasattr(signal, "pthread_sigmask")
_SIGINT = frozenset({signal.SIGINT})


class _SigintBlock:
    """SIGINT blocked in the main thread, the only one where Python runs signal handlers,
    and let through again on demand (see `_run_pooled`). A Ctrl-C pressed while it is
    blocked is delivered when it is let through, not lost."""

    def __init__(self) -> None:
        self.mask: set[Any] | None = None
        """The thread's signal mask before SIGINT was blocked (None: not blocked here)."""

    def block(self) -> None:
        """Block SIGINT, if this is the main thread of a platform with signal masks."""
        if _HAS_SIGMASK and threading.current_thread() is threading.main_thread():
            self.mask = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGINT)

    def release(self) -> None:
        """Give the thread the signal mask it had before `block`."""
        if self.mask is not None:
            mask, self.mask = self.mask, None
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    @contextlib.contextmanager
    def let_through(self) -> Iterator[None]:
        """Release SIGINT during the block, then block it again (in the thread that
        resumes, should that be another)."""
        self.release()
        try:
            yield
        finally:
            self.block()


class _Pool(Protocol):
    """Where `_run_pooled` plays its games: local processes or a Dask cluster."""

    lost: tuple[type[BaseException], ...]
    """What a game's future fails with when its workers kept dying: a failed game."""
    tick: float | None
    """Seconds after which a wait for games wakes up to look at the pool (None: never)."""

    def start(self) -> Executor:
        """A new executor: at the start, and after the last one broke."""
        ...

    def slots(self) -> int:
        """How many games the pool plays at once, asked before games are started."""
        ...

    def report(self) -> None:
        """Report the workers lost, each time a wait for games ends, before the outcomes
        it brought are yielded."""
        ...

    def stop(self) -> None:
        """Shut the current executor down, cancelling the games not started."""
        ...


class _LocalPool:
    """Local worker processes (see [`worker_context`][]) that ignore SIGINT."""

    lost: tuple[type[BaseException], ...] = ()
    tick: float | None = None

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor: ProcessPoolExecutor | None = None

    def start(self) -> Executor:
        self.executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=worker_context(),
            initializer=_start_worker,
            initargs=(dict(os.environ),),
        )
        return self.executor

    def slots(self) -> int:
        return self.workers

    def report(self) -> None:
        pass  # a dead local worker breaks the pool: _run_pooled sees it

    def stop(self) -> None:
        """Shut the pool down and wait for its management thread and workers to end.

        That thread must not outlive the run: at exit, the handler of
        ``concurrent.futures`` writes to the wake-up pipe of each management thread still
        running without the lock under which the thread closes that pipe, and prints
        ``OSError: [Errno 9] Bad file descriptor`` when it loses the race (Python 3.11).
        """
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)


class _DaskPool:
    """The workers of a Dask cluster, watched: lost workers are reported, and a
    cluster without workers for ``timeout`` seconds is a [`ClusterError`][]."""

    def __init__(
        self,
        client: Any,
        address: str,
        timeout: float,
        killed_worker: type[BaseException],
    ) -> None:
        self.client = client
        self.address = address
        self.timeout = timeout
        self.lost: tuple[type[BaseException], ...] = (killed_worker,)
        self.interval = min(WATCH_INTERVAL, timeout)
        self.tick: float | None = self.interval
        self.executor: Any = None
        self.empty_since: float | None = None
        """When the counts of workers started to find none (None: the last found some)."""
        self.next_count = 0.0
        self.threads = 1
        self.departed: queue.SimpleQueue[str] = queue.SimpleQueue()

    def on_event(self, event: tuple[float, Mapping[str, Any]]) -> None:
        """The scheduler's events, in the client's thread: note each worker removed
        that was not retired on purpose."""
        message = event[1]
        if message.get("action") == "remove-worker" and not message.get("expected"):
            self.departed.put(str(message.get("worker", "?")))

    def start(self) -> Executor:
        self.executor = self.client.get_executor(pure=False)
        executor: Executor = self.executor
        return executor

    def slots(self) -> int:
        """The cluster's threads, counted every ``interval`` seconds at most.

        :raises ClusterError: the counts have found no worker, or could not ask the
            scheduler, for ``timeout`` seconds.
        """
        now = time.monotonic()
        if now < self.next_count:
            return self.threads
        self.next_count = now + self.interval
        problem = ""
        try:
            threads = self.client.nthreads(callback_timeout=CONNECT_TIMEOUT)
        except (OSError, RuntimeError) as exc:
            threads, problem = {}, " ".join(str(exc).split()) or type(exc).__name__
        if threads:
            self.empty_since = None
            self.threads = max(1, sum(threads.values()))
            return self.threads
        if self.empty_since is None:
            self.empty_since = now
        elif now - self.empty_since >= self.timeout:
            if problem:
                raise ClusterError(f"cannot reach the Dask scheduler at {self.address}: {problem}")
            raise ClusterError(
                f"the Dask scheduler at {self.address} has no workers (none for {self.timeout:g} s)"
            )
        return self.threads

    def report(self) -> None:
        while True:
            try:
                address = self.departed.get_nowait()
            except queue.Empty:
                return
            # Level 4: the code iterating the run, past _run_pooled and _run_on_dask.
            warnings.warn(WorkerLostWarning(address), stacklevel=4)

    def stop(self) -> None:
        # Without waiting: Dask's executor cancels the games not finished.
        if self.executor is not None:
            self.executor.shutdown(wait=False)


def attempt_chunk(
    task: Callable[[int, int], R], games: tuple[tuple[int, int], ...]
) -> tuple[list[R | GameFailure], float]:
    """[`attempt`][] for each ``(index, seed)`` of ``games`` in turn, and the seconds they
    took together: what a worker runs for one chunk of a run."""
    start = time.perf_counter()
    outcomes = [attempt(task, index, seed) for index, seed in games]
    return outcomes, time.perf_counter() - start


def chunk_size(remaining: int, slots: int, game_seconds: float | None) -> int:
    """How many games the next chunk of a run has: enough to take about
    [`CHUNK_SECONDS`][] at ``game_seconds`` a game (1 while that is unknown), at most
    [`MAX_CHUNK`][], and small enough near the end that every slot still gets a share of
    the ``remaining`` games."""
    if game_seconds is None:
        return 1
    wanted = int(CHUNK_SECONDS / game_seconds) if game_seconds > 0 else MAX_CHUNK
    return max(1, min(MAX_CHUNK, wanted, remaining // (2 * slots)))


def _run_pooled(
    pool: _Pool,
    task: Callable[[int, int], R],
    seeds: Sequence[int],
    on_done: Callable[[], None] | None,
    on_start: Callable[[], None] | None,
) -> Generator[R | GameFailure, None, None]:
    """Run the games on executors of ``pool`` in chunks (see [`chunk_size`][]), at most
    twice its slots of chunks at a time.

    A broken local pool is replaced. The games it had not finished are suspects: they
    are played again one at a time, so that a pool that breaks again is the fault of the
    one game in it, and a game at fault [`MAX_ATTEMPTS`][] times fails. A future
    failing with one of ``pool.lost`` (Dask's dead-worker error) is a failed game if it
    played one game; the games of a larger chunk become suspects.

    SIGINT (Ctrl-C) is blocked in the main thread during the run (see
    `_SigintBlock`), so that worker processes start with it blocked and a
    KeyboardInterrupt never comes while the run holds a lock that another thread needs.
    Raised inside ``concurrent.futures`` or ``threading`` (``wait``, ``Future.result``),
    it can come between a lock's acquisition and the block that releases it: the thread
    that completes the next game would wait for that lock for ever, and the shutdown
    with it. SIGINT is let through only where no such lock is held: while the run waits
    for games, on a queue each future puts itself in when it is done (an interrupted
    ``SimpleQueue.get`` holds no lock), while a Dask pool counts its workers, and while
    the consumer runs between outcomes. A single Ctrl-C therefore always finds the
    shutdown whole.
    """
    total = len(seeds)
    finished: dict[int, R | GameFailure] = {}
    running: dict[Future[tuple[list[R | GameFailure], float]], tuple[int, ...]] = {}
    completed: queue.SimpleQueue[Future[tuple[list[R | GameFailure], float]]]
    completed = queue.SimpleQueue()
    """Each future of ``running`` puts itself here when it is done, in the thread that
    completes it (a put never blocks)."""
    suspects: set[int] = set()
    deaths: dict[int, int] = {}
    started = 0
    """Games submitted for the first time: 0 to ``started - 1``."""
    emitted = 0
    """Games yielded: 0 to ``emitted - 1``."""
    timed_games = 0
    timed_seconds = 0.0
    """Games whose chunks came back, and the seconds their workers took to play them."""

    def store(index: int, outcome: R | GameFailure) -> None:
        suspects.discard(index)
        finished[index] = outcome
        if on_done is not None:
            on_done()

    def keep(
        chunk: tuple[int, ...], future: Future[tuple[list[R | GameFailure], float]], alone: bool
    ) -> bool:
        """Store the chunk's outcomes, or make its games suspects; False if the pool broke."""
        nonlocal timed_games, timed_seconds
        try:
            outcomes, seconds = future.result()
        except BrokenProcessPool:
            for index in chunk:
                deaths[index] = deaths.get(index, 0) + alone
                if deaths[index] < MAX_ATTEMPTS:
                    suspects.add(index)
                    continue
                seed = seeds[index]
                store(
                    index,
                    GameFailure(
                        index=index,
                        seed=seed,
                        message=f"the game with seed {seed} failed: the worker process "
                        f"playing it died {MAX_ATTEMPTS} times",
                    ),
                )
            return False
        except pool.lost as exc:
            if len(chunk) > 1:
                suspects.update(chunk)
                return True
            seed = seeds[chunk[0]]
            store(
                chunk[0],
                GameFailure(
                    index=chunk[0],
                    seed=seed,
                    message=f"the game with seed {seed} failed: the workers playing it died "
                    f"({type(exc).__name__}: {' '.join(str(exc).split())})",
                ),
            )
            return True
        timed_games += len(chunk)
        timed_seconds += seconds
        for index, outcome in zip(chunk, outcomes, strict=True):
            store(index, outcome)
        return True

    def submit(chunk: tuple[int, ...]) -> None:
        games = tuple((index, seeds[index]) for index in chunk)
        future = executor.submit(attempt_chunk, task, games)
        running[future] = chunk
        future.add_done_callback(completed.put)

    def send(slots: int) -> None:
        """Start the suspects one at a time, else enough chunks to keep ``slots`` busy."""
        nonlocal started
        if suspects:
            if not running:
                submit((min(suspects),))
            return
        game_seconds = timed_seconds / timed_games if timed_games else None
        size = chunk_size(total - started, slots, game_seconds)
        while len(running) < 2 * slots and started < min(total, emitted + LEAD * slots * size):
            chunk = tuple(range(started, min(total, started + size)))
            submit(chunk)
            started += len(chunk)

    def collect(timeout: float | None) -> list[Future[tuple[list[R | GameFailure], float]]]:
        """Wait up to ``timeout`` seconds (None: no limit) for a future to be done, with
        SIGINT let through; give it and every other done since."""
        with sigint.let_through():
            try:
                first = completed.get(timeout=timeout)
            except queue.Empty:
                return []
        done = [first]
        while True:
            try:
                done.append(completed.get_nowait())
            except queue.Empty:
                return done

    broken = False
    """Whether the current local pool broke: nothing more is sent to it, and it is
    replaced once every game it held has come back."""
    sigint = _SigintBlock()
    sigint.block()
    try:
        executor = pool.start()
        while emitted < total:
            with sigint.let_through():
                slots = pool.slots()  # a Dask pool asks its scheduler
            if not broken:
                send(slots)
            if on_start is not None:
                on_start()  # with SIGINT blocked: a thread started here inherits that
                on_start = None
            # The games still in a broken pool fail with it: those of the chunk that
            # broke it, played alone, count a death; the others become suspects.
            alone = len(running) == 1 and not broken
            for future in collect(pool.tick):
                chunk = running.pop(future)
                if not keep(chunk, future, alone and len(chunk) == 1):
                    broken = True
            if broken and not running:
                pool.stop()
                executor = pool.start()
                broken = False
            pool.report()
            if emitted in finished:
                with sigint.let_through():  # the caller's code runs between the outcomes
                    while emitted in finished:
                        outcome = finished.pop(emitted)
                        emitted += 1
                        yield outcome
    finally:
        for future in running:
            future.cancel()
        pool.stop()
        sigint.release()


def _run_on_dask(
    address: str,
    worker_timeout: float,
    task: Callable[[int, int], R],
    seeds: Sequence[int],
    on_done: Callable[[], None] | None,
    on_start: Callable[[], None] | None,
) -> Generator[R | GameFailure, None, None]:
    # Imported by name: Dask has no type information, so its objects are Any here.
    distributed = importlib.import_module("distributed")
    killed_worker = importlib.import_module("distributed.scheduler").KilledWorker
    comm = importlib.import_module("distributed.comm")
    try:
        # A malformed address is refused before a client exists: a client that failed
        # to start on one hangs when it is collected.
        scheme = comm.parse_address(address)[0]
        if scheme not in ("tcp", "tls"):
            raise ValueError(f"the address must be tcp:// or tls://, not {scheme}://")
        comm.get_address_host_port(address)
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError, TypeError) as exc:
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {detail}") from None
    try:
        pool = _DaskPool(client, address, worker_timeout, killed_worker)
        client.subscribe_topic("all", pool.on_event)
        try:
            yield from _run_pooled(pool, task, seeds, on_done, on_start)
        except CancelledError:
            # What the futures of a client give when it lost its scheduler for good.
            raise ClusterError(f"lost the connection to the Dask scheduler at {address}") from None
        finally:
            # Before closing: the scheduler would send this client its own departure.
            client.unsubscribe_topic("all")
    finally:
        client.close()
