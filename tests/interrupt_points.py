"""Ctrl-C at every point of a pooled run where it can arrive, for the tests of parallel runs.

Run as ``python -m interrupt_points ATTEMPTS`` (with the tests folder on ``sys.path``), in
a process of its own, since a run whose Ctrl-C left a lock held never returns. Each attempt
plays a run of quick games on a pool of two threads, whose threads complete the games'
futures while the main thread waits for them, as a local pool's management thread does.
Attempt ``k`` raises ``KeyboardInterrupt`` at the ``k``-th bytecode instruction the main
thread runs in the run's own code, ``concurrent.futures``, ``threading`` or ``queue``
while SIGINT is not blocked in it (a signal's handler runs between two instructions, so
these are the places a Ctrl-C can reach). The attempts are spread evenly over the
instructions of a run that is not interrupted.

Every attempt must end, with every game or with ``KeyboardInterrupt``, and leave no thread
of its pool behind. The script prints ``interrupted N of M`` and exits 0, or exits 1 with
the attempt at fault; the caller's timeout catches a run that never ends.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from types import FrameType
from typing import Any

from ttr_core.batch.parallel import _run_pooled

WATCHED = ("ttr_core/batch/parallel.py", "concurrent/futures/", "/threading.py", "/queue.py")
"""The files whose instructions are counted (paths as compiled, with ``/`` on POSIX)."""
GAMES = 12


class ThreadPool:
    """A pool of two threads, in the shape `_run_pooled` drives."""

    lost: tuple[type[BaseException], ...] = ()
    tick: float | None = None

    def __init__(self) -> None:
        self.executor: ThreadPoolExecutor | None = None

    def start(self) -> Executor:
        self.executor = ThreadPoolExecutor(2, thread_name_prefix="interrupt-points")
        return self.executor

    def slots(self) -> int:
        return 2

    def report(self) -> None:
        pass

    def stop(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)


def game(index: int, seed: int) -> int:
    """A game that takes a moment, so that games end while the main thread is busy."""
    time.sleep(0.0005)
    return seed


def sigint_blocked() -> bool:
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, ())


class Interrupter:
    """A trace function that counts the instructions a Ctrl-C can reach, and raises
    ``KeyboardInterrupt`` at instruction ``at`` (never, if 0)."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.count = 0

    def call(self, frame: FrameType, event: str, arg: Any) -> Any:
        if not any(part in frame.f_code.co_filename for part in WATCHED):
            return None
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return self.instruction

    def instruction(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode" and not sigint_blocked():
            self.count += 1
            if self.count == self.at:
                raise KeyboardInterrupt
        return self.instruction


def play(at: int) -> tuple[str, int]:
    """One run interrupted at instruction ``at``: how it ended, and the instructions counted."""
    interrupter = Interrupter(at)
    seeds = list(range(100, 100 + GAMES))
    sys.settrace(interrupter.call)
    try:
        outcomes = list(_run_pooled(ThreadPool(), game, seeds, None, None))
    except KeyboardInterrupt:
        ended = "interrupted"
    else:
        ended = "finished" if outcomes == seeds else f"wrong outcomes {outcomes}"
    finally:
        sys.settrace(None)
    return ended, interrupter.count


def main(attempts: int) -> int:
    _, instructions = play(0)
    interrupted = 0
    for attempt in range(attempts):
        at = 1 + attempt * instructions // attempts
        ended, _ = play(at)
        left = [t.name for t in threading.enumerate() if t.name.startswith("interrupt-points")]
        if ended not in ("interrupted", "finished") or left:
            print(f"Ctrl-C at instruction {at} of {instructions}: {ended}, threads left {left}")
            return 1
        interrupted += ended == "interrupted"
    print(f"interrupted {interrupted} of {attempts}")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
