"""Playing the games of a run on local worker processes or a Dask cluster, in game order.

A run maps a *task* over the seeds of its games: ``task(index, seed)`` plays game
``index``, whose seed is ``seed``, and returns what the caller keeps of it (a small
picklable value). [`run_in_order`][] calls the task in this process (``jobs=1``), on
``jobs`` local worker processes, or on the workers of a Dask cluster (``scheduler``),
and yields the outcomes in game order whatever order the games finish in. A game
depends only on its seed, so a run's outcomes do not depend on where its games ran.

Local processes and Dask workers are driven through one code path, the
``concurrent.futures`` interface (Dask's ``Client.get_executor()``). Nothing is lost
when something fails:

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

Local worker processes ignore SIGINT, so Ctrl-C in a terminal stops the main process
only, without a traceback from any worker. Every way a run ends (its last game, the
consumer closing it, Ctrl-C, an error) shuts a local pool down completely before the
run returns. Dask is imported only when a scheduler is given.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import multiprocessing
import os
import queue
import signal
import threading
import time
import warnings
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from attrs import frozen

from ttr_core.model.errors import MissingExtraError, TtrError, quote
from ttr_core.model.extras import install_command

R = TypeVar("R")

MAX_ATTEMPTS = 3
"""How many times a game may kill its local worker process, played alone, before it fails."""
LEAD = 8
"""How many games per worker may be started ahead of the next game to yield."""
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
    worker_timeout: float | None = None,
) -> Generator[R | GameFailure, None, None]:
    """Play game ``i`` of ``seeds`` as ``task(i, seeds[i])`` and yield the outcomes in order.

    With ``scheduler`` (a Dask scheduler address such as ``tcp://10.0.0.5:8786``) the
    games run on that cluster; else with ``jobs`` > 1 on that many local worker
    processes; else here. The task must be picklable (a top-level function or an
    instance of a top-level class) unless it runs here. ``on_done`` is called in this
    process as each game finishes, in any order (for a progress bar). Closing the
    iterator, or an exception while it waits (Ctrl-C), cancels the games not started;
    local worker processes finish the games they are playing and are shut down before
    that returns.

    On Dask, the run waits ``worker_timeout`` seconds at most (see
    [`resolve_worker_timeout`][]) while the scheduler has no worker, and warns with a
    [`WorkerLostWarning`][] when a worker leaves the cluster unexpectedly.

    Local workers are started by spawning a new interpreter, on every platform: they import
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
        return _run_on_dask(scheduler, timeout, task, seeds, on_done)
    if jobs == 1 or len(seeds) <= 1:
        return _run_here(task, seeds, on_done)
    return _run_pooled(_LocalPool(min(jobs, len(seeds))), task, seeds, on_done)


def _run_here(
    task: Callable[[int, int], R], seeds: Sequence[int], on_done: Callable[[], None] | None
) -> Generator[R | GameFailure, None, None]:
    for index, seed in enumerate(seeds):
        outcome = attempt(task, index, seed)
        if on_done is not None:
            on_done()
        yield outcome


def _ignore_sigint() -> None:
    """Worker start-up: ignore SIGINT (it arrives blocked, see `_sigint_blocked`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread during the block, so that a worker process started
    in it inherits the blocked signal until it ignores it; a Ctrl-C pressed meanwhile is
    delivered when the block ends, not lost."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not (
        threading.main_thread()
    ):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


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
    """Local worker processes, spawned, that ignore SIGINT."""

    lost: tuple[type[BaseException], ...] = ()
    tick: float | None = None

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor: ProcessPoolExecutor | None = None

    def start(self) -> Executor:
        # Spawned, not forked: the main process may have threads (a progress bar), and a
        # spawned worker is the same on every platform.
        self.executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_ignore_sigint,
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


def _run_pooled(
    pool: _Pool,
    task: Callable[[int, int], R],
    seeds: Sequence[int],
    on_done: Callable[[], None] | None,
) -> Generator[R | GameFailure, None, None]:
    """Run the games on executors of ``pool``, at most twice its slots at a time.

    A broken local pool is replaced. The games it had not finished are suspects: they
    are played again one at a time, so that a pool that breaks again is the fault of the
    one game in it, and a game at fault [`MAX_ATTEMPTS`][] times fails. A future
    failing with one of ``pool.lost`` (Dask's dead-worker error) is a failed game.
    """
    total = len(seeds)
    finished: dict[int, R | GameFailure] = {}
    running: dict[Future[R | GameFailure], int] = {}
    suspects: set[int] = set()
    deaths: dict[int, int] = {}
    started = 0
    """Games submitted for the first time: 0 to ``started - 1``."""
    emitted = 0
    """Games yielded: 0 to ``emitted - 1``."""

    def keep(index: int, future: Future[R | GameFailure], alone: bool) -> bool:
        """Store the game's outcome, or make it a suspect; False if the pool broke."""
        seed = seeds[index]
        outcome: R | GameFailure
        intact = True
        try:
            outcome = future.result()
        except BrokenProcessPool:
            intact = False
            deaths[index] = deaths.get(index, 0) + alone
            if deaths[index] < MAX_ATTEMPTS:
                suspects.add(index)
                return intact
            outcome = GameFailure(
                index=index,
                seed=seed,
                message=f"the game with seed {seed} failed: the worker process playing it "
                f"died {MAX_ATTEMPTS} times",
            )
        except pool.lost as exc:
            outcome = GameFailure(
                index=index,
                seed=seed,
                message=f"the game with seed {seed} failed: the workers playing it died "
                f"({type(exc).__name__}: {' '.join(str(exc).split())})",
            )
        suspects.discard(index)
        finished[index] = outcome
        if on_done is not None:
            on_done()
        return intact

    def submit(index: int) -> None:
        with _sigint_blocked():
            future = executor.submit(attempt, task, index, seeds[index])
        running[future] = index

    executor = pool.start()
    try:
        while emitted < total:
            slots = pool.slots()
            if suspects:
                if not running:
                    submit(min(suspects))
            else:
                while len(running) < 2 * slots and started < min(total, emitted + LEAD * slots):
                    submit(started)
                    started += 1
            done, _ = wait(running, timeout=pool.tick, return_when=FIRST_COMPLETED)
            alone = len(running) == 1
            intact = True
            for future in done:
                intact &= keep(running.pop(future), future, alone)
            if not intact:
                # Every game still in the broken pool fails at once: keep what finished,
                # suspect the rest, and go on with a new pool.
                wait(running)
                for future, index in running.items():
                    keep(index, future, False)
                running.clear()
                pool.stop()
                executor = pool.start()
            pool.report()
            while emitted in finished:
                yield finished.pop(emitted)
                emitted += 1
    finally:
        for future in running:
            future.cancel()
        pool.stop()


def _run_on_dask(
    address: str,
    worker_timeout: float,
    task: Callable[[int, int], R],
    seeds: Sequence[int],
    on_done: Callable[[], None] | None,
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
            yield from _run_pooled(pool, task, seeds, on_done)
        except CancelledError:
            # What the futures of a client give when it lost its scheduler for good.
            raise ClusterError(f"lost the connection to the Dask scheduler at {address}") from None
        finally:
            # Before closing: the scheduler would send this client its own departure.
            client.unsubscribe_topic("all")
    finally:
        client.close()
