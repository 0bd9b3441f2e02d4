"""Bots and tasks for the tests of parallel runs, importable by worker processes by name.

Worker processes are started with the test process's ``sys.path``, so they import this
module as ``parallel_bots``; a bot is named ``parallel_bots:ClassName``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Sequence

from ttr_core.bots import GreedyBot
from ttr_core.model.actions import Action
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

KILL_ONCE = "TTR_TEST_KILL_ONCE"
"""The environment variable naming the marker file of :class:`WorkerKiller`."""
KILL_AT = 10
"""The decision of a game at which a :class:`WorkerKiller` may kill its process."""


def in_worker() -> bool:
    """Whether this is a worker process (never kill the test process itself)."""
    return multiprocessing.parent_process() is not None


def kill_once() -> None:
    """Kill this worker process, unless the marker file already exists; create it.

    The marker is created atomically, so of all the workers that get here only one dies,
    once; a test arms the kill by naming a marker that does not exist yet.
    """
    marker = os.environ.get(KILL_ONCE)
    if not marker or not in_worker():
        return
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    os.kill(os.getpid(), signal.SIGKILL)


class WorkerKiller(GreedyBot):
    """Plays exactly as the greedy bot, but kills its worker process in the middle of a
    game once (see :func:`kill_once`), so that the game has to be played again."""

    def __init__(self, ruleset: Ruleset, seat: int, seed: int) -> None:
        super().__init__(ruleset, seat, seed)
        self.decisions = 0

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        self.decisions += 1
        if self.decisions == KILL_AT:
            kill_once()
        return super().choose(view, legal)


FAIL_MODULUS = 3


def fails(bot_seed: int) -> bool:
    """Whether a :class:`SeedFailer` with this seed raises."""
    return bot_seed % FAIL_MODULUS == 0


class SeedFailer(GreedyBot):
    """The greedy bot, except that one bot in three (by its seed) raises at its 5th choice."""

    def __init__(self, ruleset: Ruleset, seat: int, seed: int) -> None:
        super().__init__(ruleset, seat, seed)
        self.decisions = 0

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        self.decisions += 1
        if self.decisions == 5 and fails(self.seed):
            raise ZeroDivisionError("the bot divided by zero")
        return super().choose(view, legal)


def later_first(index: int, seed: int) -> tuple[int, int]:
    """A task whose early games take longest, so games finish out of order."""
    time.sleep(0.05 * (6 - index) if index < 6 else 0)
    return index, seed


def naps(index: int, seed: int) -> int:
    """A task that takes a twentieth of a second: a long run of them can be killed midway."""
    time.sleep(0.05)
    return seed


def dies_on_game_one(index: int, seed: int) -> int:
    """A task that kills its worker every time it plays game 1."""
    if index == 1 and in_worker():
        os.kill(os.getpid(), signal.SIGKILL)
    return seed


def sigterm_handling(index: int, seed: int) -> str:
    """A task that tells how the process playing it handles SIGTERM: ``default``,
    ``ignored`` or ``python`` (a handler written in Python)."""
    handler = signal.getsignal(signal.SIGTERM)
    if handler == signal.SIG_DFL:
        return "default"
    return "ignored" if handler == signal.SIG_IGN else "python"


ECHOED = "TTR_TEST_ECHOED"
"""The environment variable :func:`echo_environment` reads in its worker."""


def echo_environment(index: int, seed: int) -> str | None:
    """A task that gives the value of :data:`ECHOED` in the process that plays it."""
    return os.environ.get(ECHOED)


KILL_IN_CHUNK = 150
"""The game of a long run of quick games at which :func:`dies_once_in_a_chunk` dies."""


def chunk_length() -> int:
    """How many games the chunk being played has: the length of the ``games`` of the
    ``attempt_chunk`` call this task runs in."""
    frame = sys._getframe(1)
    while frame.f_code.co_name != "attempt_chunk":
        assert frame.f_back is not None, "not played in a chunk"
        frame = frame.f_back
    return len(frame.f_locals["games"])


def dies_once_in_a_chunk(index: int, seed: int) -> tuple[int, int, int]:
    """A quick task that kills its worker once (see :func:`kill_once`) at game
    :data:`KILL_IN_CHUNK`, if it plays it in a chunk of several games; it gives its game
    and the length of the chunk it was played in."""
    length = chunk_length()
    if index == KILL_IN_CHUNK and length > 1:
        kill_once()
    return index, seed, length
