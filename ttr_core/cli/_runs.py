"""What the commands that play many games share: where they play, progress, Ctrl-C, failures.

A run on a Dask scheduler waits for a worker at most ``TTR_WORKER_TIMEOUT`` seconds
([`ttr_core.batch.parallel.WORKER_TIMEOUT`][ttr_core.batch.parallel.WORKER_TIMEOUT] by default) and
reports each worker lost on the way as one ``ttr:`` line on standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from types import FrameType
from typing import NamedTuple, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ttr_core.batch.parallel import (
    DASK_INSTALL,
    JOBS_VARIABLE,
    WORKER_TIMEOUT,
    WORKER_TIMEOUT_VARIABLE,
    GameFailure,
    WorkerLostWarning,
    check_scheduler_support,
    resolve_jobs,
    resolve_worker_timeout,
)
from ttr_core.cli._common import CommandError, UsageError, positive_int

PROGRESS_DELAY = 1.0
"""Seconds a run must last before its progress bar appears: shorter runs show nothing."""
INTERRUPTED = 130
"""Exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it)."""


def add_where_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--jobs N`` and ``--scheduler ADDRESS`` arguments (one or the other).

    Without ``--jobs`` a run uses every local core, or ``TTR_JOBS`` processes when that
    variable is set (``where_to_play`` resolves it).
    """
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=positive_int,
        default=None,
        metavar="N",
        help=f"play on N local processes (default: every local core, or ${JOBS_VARIABLE} "
        "if set; never more processes than games); the results are the same",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play on the Dask cluster whose scheduler is at ADDRESS, e.g. "
        f"tcp://10.0.0.5:8786 (needs {DASK_INSTALL}); the run fails when "
        f"the cluster has no workers for {WORKER_TIMEOUT_VARIABLE} seconds "
        f"(default: {WORKER_TIMEOUT:g})",
    )


def where_to_play(args: argparse.Namespace, games: int) -> int:
    """The local processes of a run: 1 on a Dask scheduler, else ``--jobs``, ``TTR_JOBS``
    or every local core, and never more than ``games``.

    :raises CommandError: ``TTR_JOBS`` is not a positive whole number.
    """
    if args.scheduler is not None:
        return 1
    try:
        return resolve_jobs(args.jobs, games)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def check_scheduler(address: str | None) -> None:
    """Check, before any game is played, what a run on the scheduler at ``address`` needs
    (nothing without one): Dask, and a valid ``TTR_WORKER_TIMEOUT``.

    :raises MissingExtraError: Dask's distributed package is not installed.
    :raises CommandError: ``TTR_WORKER_TIMEOUT`` is not a positive number of seconds.
    """
    if address is None:
        return
    try:
        resolve_worker_timeout()
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    check_scheduler_support()


def bot_names(text: str) -> list[str]:
    """The ``--bots`` argument: comma-separated bot names.

    :raises UsageError: a name is empty.
    """
    names = [name.strip() for name in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise UsageError(f"argument --bots: expected comma-separated bot names, got {text!r}")
    return names


def prepare_directory(path: str, flag: str) -> None:
    """Create the output directory of ``flag`` if needed and check that files can be
    written there.

    :raises CommandError: it is not a directory, cannot be created or is not writable.
    """
    if os.path.exists(path) and not os.path.isdir(path):
        raise CommandError(f"{flag}: {path} exists and is not a directory")
    try:
        os.makedirs(path, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".ttr-", suffix=".tmp")
        os.close(fd)
        os.remove(probe)
    except OSError as exc:
        raise CommandError(f"{flag}: cannot write to {path}: {exc.strerror or exc}") from None


def report_failure(failure: GameFailure) -> None:
    """Report a game that failed: one ``ttr: error:`` line on standard error."""
    sys.stdout.flush()
    sys.stderr.write(f"ttr: error: {failure.message}\n")
    sys.stderr.flush()


@contextlib.contextmanager
def lost_worker_notices() -> Iterator[None]:
    """During the block, report each Dask worker lost (a `WorkerLostWarning`) as
    one line on standard error, ``ttr: the Dask worker at ... was lost; ...``."""
    show = warnings.showwarning

    def notice(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        if not issubclass(category, WorkerLostWarning):
            show(message, category, filename, lineno, file, line)
            return
        sys.stdout.flush()
        sys.stderr.write(f"ttr: {message}\n")
        sys.stderr.flush()

    with warnings.catch_warnings():
        warnings.simplefilter("always", WorkerLostWarning)
        warnings.showwarning = notice
        yield


class BarHooks(NamedTuple):
    """What a run calls to drive a progress bar (both None when none can be shown)."""

    on_start: Callable[[], None] | None
    """Starts the bar's delay: the run calls it once it has started its games."""
    on_done: Callable[[], None] | None
    """Advances the bar by one game."""


@contextlib.contextmanager
def progress_bar(
    total: int, label: str, *, shown: bool = True, delay: float | None = None
) -> Iterator[BarHooks]:
    """A progress bar on standard error during the block, if it is a terminal and ``shown``
    is true, shown once ``delay`` seconds ([`PROGRESS_DELAY`][] if None) have passed
    since the run started; yields the hooks the run calls (see [`BarHooks`][]).

    A short run prints nothing, and a long one shows a spinner and the elapsed time even
    before its first game ends. The delay is timed by a thread, started only when the run
    calls ``on_start``: a run's local workers are forked from this process only while it
    runs a single thread, which spares them a quarter of a second for the fork server.
    """
    if not shown or not sys.stderr.isatty():
        yield BarHooks(None, None)
        return
    progress = Progress(
        SpinnerColumn(),
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = progress.add_task("games", total=total)
    lock = threading.Lock()
    started = False
    finished = False

    def show() -> None:
        nonlocal started
        with lock:
            if not finished:
                progress.start()
                started = True

    timer = threading.Timer(PROGRESS_DELAY if delay is None else delay, show)
    timer.daemon = True

    def start() -> None:
        if timer.ident is None:  # once
            timer.start()

    def advance() -> None:
        progress.advance(task)

    try:
        yield BarHooks(start, advance)
    finally:
        timer.cancel()
        with lock:
            finished = True
            if started:
                progress.stop()


class CtrlC:
    """Ctrl-C as ``KeyboardInterrupt``, held back while a finished game is reported.

    Saving, printing and counting a game happen together or not at all, so the count in
    ``interrupted after K of N games`` is exactly the games output.
    """

    def __init__(self) -> None:
        self.holding = False
        self.pending = False

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """Handle SIGINT during the block, if Python's own handler is in place (it is not
        when SIGINT is ignored, or in a thread other than the main one)."""
        if (
            threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        ):
            yield
            return
        signal.signal(signal.SIGINT, self._handle)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Hold Ctrl-C back during the block; raise ``KeyboardInterrupt`` after it if pressed."""
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt
