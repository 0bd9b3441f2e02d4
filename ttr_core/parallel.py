"""Playing the games of a run on local worker processes or a Dask cluster, in game order.

A run maps a *task* over the seeds of its games: ``task(index, seed)`` plays game
``index``, whose seed is ``seed``, and returns what the caller keeps of it (a small
picklable value). :func:`run_in_order` calls the task in this process (``jobs=1``), on
``jobs`` local worker processes, or on the workers of a Dask cluster (``scheduler``),
and yields the outcomes in game order whatever order the games finish in. A game
depends only on its seed, so a run's outcomes do not depend on where its games ran.

Local processes and Dask workers are driven through one code path, the
``concurrent.futures`` interface (Dask's ``Client.get_executor()``). Nothing is lost
when something fails:

* a task that raises gives a :class:`GameFailure` naming the game's seed, in the
  game's place; the other games go on;
* a local worker process that dies breaks the pool: a new pool replaces it and every
  game that had not finished is played again, one at a time until the one at fault is
  found; Dask reschedules the games of a dead worker itself. A game whose worker dies
  :data:`MAX_ATTEMPTS` times (Dask: its ``allowed-failures`` setting) gives a
  :class:`GameFailure`.

Local worker processes ignore SIGINT, so Ctrl-C in a terminal stops the main process
only, without a traceback from any worker. Dask is imported only when a scheduler is
given.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from attrs import frozen

from ttr_core.errors import MissingExtraError, TtrError

R = TypeVar("R")

MAX_ATTEMPTS = 3
"""How many times a game may kill its local worker process, played alone, before it fails."""
LEAD = 8
"""How many games per worker may be started ahead of the next game to yield."""
CONNECT_TIMEOUT = 10
"""Seconds to wait for a Dask scheduler to answer."""
DASK_INSTALL = 'pip install "ttr-engine[dask]"'
"""The command that installs what ``scheduler`` needs."""


class ClusterError(TtrError, RuntimeError):
    """The Dask scheduler cannot be reached at the address given."""


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
    """The number of cores this process may run on: the default ``jobs`` of a study."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def attempt(task: Callable[[int, int], R], index: int, seed: int) -> R | GameFailure:
    """``task(index, seed)``, or the :class:`GameFailure` of the exception it raised.

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


def run_in_order(
    task: Callable[[int, int], R],
    seeds: Sequence[int],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Callable[[], None] | None = None,
) -> Generator[R | GameFailure, None, None]:
    """Play game ``i`` of ``seeds`` as ``task(i, seeds[i])`` and yield the outcomes in order.

    With ``scheduler`` (a Dask scheduler address such as ``tcp://10.0.0.5:8786``) the
    games run on that cluster; else with ``jobs`` > 1 on that many local worker
    processes; else here. The task must be picklable (a top-level function or an
    instance of a top-level class) unless it runs here. ``on_done`` is called in this
    process as each game finishes, in any order (for a progress bar). Closing the
    iterator, or an exception while it waits (Ctrl-C), cancels the games not started.

    Local workers are started by spawning a new interpreter, on every platform: they
    import the main module again, so a script must keep its work under
    ``if __name__ == "__main__":``.

    :raises ValueError: ``jobs`` is less than 1.
    :raises MissingExtraError: a scheduler is given and Dask is not installed.
    :raises ClusterError: while iterating, when the scheduler cannot be reached.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if scheduler is not None:
        check_scheduler_support()
        return _run_on_dask(scheduler, task, seeds, on_done)
    if jobs == 1 or len(seeds) <= 1:
        return _run_here(task, seeds, on_done)
    workers = min(jobs, len(seeds))
    return _run_pooled(lambda: _local_pool(workers), workers, task, seeds, on_done, ())


def _run_here(
    task: Callable[[int, int], R], seeds: Sequence[int], on_done: Callable[[], None] | None
) -> Generator[R | GameFailure, None, None]:
    for index, seed in enumerate(seeds):
        outcome = attempt(task, index, seed)
        if on_done is not None:
            on_done()
        yield outcome


def _ignore_sigint() -> None:
    """Worker start-up: ignore SIGINT (it arrives blocked, see :func:`_sigint_blocked`)."""
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


def _local_pool(workers: int) -> Executor:
    # Spawned, not forked: the main process may have threads (a progress bar), and a
    # spawned worker is the same on every platform.
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_ignore_sigint,
    )


def _run_pooled(
    new_executor: Callable[[], Executor],
    slots: int,
    task: Callable[[int, int], R],
    seeds: Sequence[int],
    on_done: Callable[[], None] | None,
    lost: tuple[type[BaseException], ...],
) -> Generator[R | GameFailure, None, None]:
    """Run the games on executors from ``new_executor``, at most ``2 * slots`` at a time.

    A broken local pool is replaced. The games it had not finished are suspects: they
    are played again one at a time, so that a pool that breaks again is the fault of the
    one game in it, and a game at fault :data:`MAX_ATTEMPTS` times fails. A future
    failing with one of ``lost`` (Dask's dead-worker error) is a failed game.
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
        except lost as exc:
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

    executor = new_executor()
    try:
        while emitted < total:
            if suspects:
                if not running:
                    submit(min(suspects))
            else:
                while len(running) < 2 * slots and started < min(total, emitted + LEAD * slots):
                    submit(started)
                    started += 1
            done, _ = wait(running, return_when=FIRST_COMPLETED)
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
                executor.shutdown(wait=True)
                executor = new_executor()
            while emitted in finished:
                yield finished.pop(emitted)
                emitted += 1
    finally:
        for future in running:
            future.cancel()
        executor.shutdown(wait=False)


def _run_on_dask(
    address: str,
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
        slots = max(1, sum(client.nthreads().values()))
        executor: Executor = client.get_executor(pure=False)
        yield from _run_pooled(lambda: executor, slots, task, seeds, on_done, (killed_worker,))
    finally:
        client.close()
