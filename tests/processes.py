"""Real ``ttr`` processes for the tests, each in a process group of its own.

A run on worker processes that hangs would keep its test waiting for ever, and reading
its output waits for every process that holds the pipes, workers included. So the whole
group is killed at a deadline and when the test is done with it; the test then fails on
what it read instead of stopping the suite.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

DEADLINE = 120.0
"""Seconds a process group may run before it is killed."""


def kill_group(proc: subprocess.Popen[str]) -> None:
    """Kill every process of ``proc``'s group that is still running."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


@contextlib.contextmanager
def process_group(
    argv: list[str], deadline: float = DEADLINE, **popen: Any
) -> Iterator[subprocess.Popen[str]]:
    """``argv`` with its output in text pipes (unless ``popen`` says otherwise), as the
    leader of a new process group (as a terminal's foreground job is), killed with its
    group after ``deadline`` seconds or when the block ends."""
    options: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    proc = subprocess.Popen(argv, text=True, start_new_session=True, **{**options, **popen})
    killer = threading.Timer(deadline, kill_group, (proc,))
    killer.daemon = True
    killer.start()
    try:
        with proc:  # closes the pipes and waits for the main process
            try:
                yield proc
            finally:
                kill_group(proc)  # before the wait, while the group's leader is not reaped
    finally:
        killer.cancel()


def ttr_process(
    *args: str, **popen: Any
) -> contextlib.AbstractContextManager[subprocess.Popen[str]]:
    """``python -m ttr_core ARGS`` in a process group of its own (see `process_group`)."""
    return process_group([sys.executable, "-m", "ttr_core", *args], **popen)


def python_process(
    code: str, **popen: Any
) -> contextlib.AbstractContextManager[subprocess.Popen[str]]:
    """``python -c CODE`` in a process group of its own (see `process_group`)."""
    return process_group([sys.executable, "-c", code], **popen)


def read_rest(proc: subprocess.Popen[str], first: list[str]) -> tuple[list[str], str]:
    """The output lines after ``first``, and standard error, once the process is done.

    The reader that read ``first`` reads the rest: ``communicate()`` would skip what it
    holds. The group's deadline bounds the wait.
    """
    assert proc.stdout is not None and proc.stderr is not None
    rest = proc.stdout.read().splitlines()
    err = proc.stderr.read()
    proc.wait(timeout=DEADLINE)
    return [*first, *rest], err
