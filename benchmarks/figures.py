"""Every speed figure of the project in one table, beside the peer engine and an older version.

Runs the project's benchmarks as subprocesses, each figure measured in this one run so that
ratios compare like with like on a machine whose speed drifts, and prints one row per
target: what is measured, the figure, what it is compared with, the ratio, the target and
whether it is met. Instruction counts come from callgrind: instructions per decision are
(instructions of an N-game run − those of a 0-game run) ÷ decisions, with
``PYTHONHASHSEED=0``. A figure that cannot be measured here (no compiled build, no peer,
no older version, no valgrind) gets a row saying why.

    python benchmarks/figures.py --compiled-python BUILD/bin/python --peer PEER \\
        --baseline OLD --baseline-python OLD_PURE/bin/python \\
        --baseline-compiled-python OLD_COMPILED/bin/python
    python benchmarks/figures.py --quick --no-callgrind --json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from attrs import asdict, frozen

HERE = Path(__file__).resolve().parent
WIN_RATE_LOW, WIN_RATE_HIGH = 0.700, 0.859
"""Wilson's 95 % interval of the older version's mcts win rate, 79 of 100 games."""
RECORD_BYTES = 4096


@frozen
class Row:
    """One figure of the table: its value, what it is held against, and the verdict."""

    what: str
    measured: str
    against: str
    ratio: float | None
    target: str
    met: bool | None
    """``None`` when nothing was measured or the row has no target."""
    why: str = ""
    """Why the figure was not measured, when it was not."""


@frozen
class Sizes:
    """How many games each benchmark plays: small with ``--quick``."""

    playout_games: int
    rounds: int
    callgrind_games: int
    run_games: int
    mcts_games: int
    mcts_playouts: int | None
    scoring_games: int
    parallel_games: int


FULL = Sizes(100, 3, 10, 20, 2, None, 20, 200)
QUICK = Sizes(3, 1, 1, 2, 2, 2, 1, 4)


@frozen
class Pythons:
    """The interpreters of the builds measured; ``None`` where a build is not given."""

    pure: str
    compiled: str | None
    peer: str | None
    peer_dir: str | None
    base_dir: str | None
    base_pure: str | None
    base_compiled: str | None


class Runner:
    """Runs benchmark commands in an empty folder, with ``PYTHONHASHSEED=0``."""

    def __init__(self, folder: str, verbose: bool) -> None:
        self.folder = folder
        self.verbose = verbose
        self.env = dict(os.environ, PYTHONHASHSEED="0")

    def lines(self, command: Sequence[str], timeout: float = 3600) -> tuple[list[str], str]:
        """The output lines of ``command``, and the last line of its errors if it failed."""
        if self.verbose:
            print("running:", " ".join(command), file=sys.stderr, flush=True)
        try:
            done = subprocess.run(
                list(command),
                cwd=self.folder,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return [], f"took over {timeout:.0f} s"
        errors = [line for line in done.stderr.splitlines() if line.strip()]
        if done.returncode < 0:
            return done.stdout.splitlines(), f"ended by signal {-done.returncode}"
        failure = "" if done.returncode == 0 else (errors[-1] if errors else "failed")
        return done.stdout.splitlines(), failure


def fields(line: str) -> dict[str, str]:
    """The ``key=value`` pairs of one output line."""
    return dict(part.split("=", 1) for part in line.split() if "=" in part)


def pick(lines: Sequence[str], **match: str) -> dict[str, str] | None:
    """The fields of the first line whose fields include all of ``match``."""
    for line in lines:
        found = fields(line)
        if all(found.get(k) == v for k, v in match.items()):
            return found
    return None


def verdict(value: float, bound: float, at_least: bool) -> bool:
    """Whether ``value`` is at least (or at most) ``bound``."""
    return value >= bound if at_least else value <= bound


def given(python: str | None, *arguments: str) -> list[str] | None:
    """``python`` with ``arguments``, or ``None`` when that build is not given."""
    return None if python is None else [python, *arguments]


def missing(what: str, target: str, why: str) -> Row:
    """The row of a figure that was not measured."""
    return Row(what, "", "", None, target, None, why)


def ratio_row(
    what: str,
    measured: float | None,
    against: float | None,
    unit: str,
    target: tuple[float, bool] | None,
    *,
    against_name: str,
    ratio: Callable[[float, float], float],
    why: str,
) -> Row:
    """A row comparing ``measured`` with ``against``; ``target`` is (bound, at least)."""
    shown = "" if target is None else f"{'≥' if target[1] else '≤'} {target[0]:g}×"
    if measured is None or against is None:
        return missing(what, shown, why)
    value = ratio(measured, against)
    met = None if target is None else verdict(value, target[0], target[1])
    return Row(
        what,
        f"{measured:,.2f} {unit}",
        f"{against:,.2f} {unit} ({against_name})",
        value,
        shown,
        met,
    )


def bound_row(what: str, measured: float | None, unit: str, bound: float, why: str) -> Row:
    """A row holding ``measured`` (a whole number of ``unit``) against an upper bound."""
    target = f"≤ {bound:,g} {unit}"
    if measured is None:
        return missing(what, target, why)
    return Row(what, f"{measured:,.0f} {unit}", "", None, target, measured <= bound)


def cost(ours: float, against: float) -> float:
    """How many times ``against`` costs more than ours."""
    return against / ours


def share(ours: float, against: float) -> float:
    """Ours as a multiple of ``against``."""
    return ours / against


# ---- uniformly random games, timed ----------------------------------------------------


def playout_rows(run: Runner, py: Pythons, sizes: Sizes) -> list[Row]:
    """Microseconds per decision, every engine measured round after round side by side."""
    games = str(sizes.playout_games)
    base_playouts = str(Path(py.base_dir) / "benchmarks" / "playouts.py") if py.base_dir else ""
    ours = str(HERE / "playouts.py")
    peer = str(HERE / "peer_playouts.py")
    game = ["--engine", "game", "--games", games]
    commands = {
        "sim-pure": given(py.pure, ours, "--games", games),
        "game-pure": given(py.pure, ours, *game),
        "sim-compiled": given(py.compiled, ours, "--games", games),
        "game-compiled": given(py.compiled, ours, *game),
        "nordic-compiled": given(
            py.compiled, ours, "--edition", "nordic", "--players", "3", "--games", games
        ),
        "peer": given(py.peer, peer, "--peer", py.peer_dir or "", "--games", games),
        "base-game-pure": given(py.base_pure, base_playouts, *game),
        "base-game-compiled": given(py.base_compiled, base_playouts, *game),
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    failures: dict[str, str] = {}
    for _ in range(sizes.rounds):
        for name, command in commands.items():
            if not command or name in failures:
                continue
            lines, failure = run.lines(command)
            found = pick(lines)
            if failure or found is None:
                failures[name] = failure or "printed nothing"
            else:
                times[name].append(float(found["us_per_decision"]))
    us = {name: statistics.median(t) if t else None for name, t in times.items()}

    def why(*names: str) -> str:
        return joined(reason_of(name, py, failures) for name in names if us[name] is None)

    micro = "µs/decision"
    return [
        ratio_row(
            "simulator, compiled, USA 4p, µs/decision vs the peer (time)",
            us["sim-compiled"],
            us["peer"],
            micro,
            (10, True),
            against_name="peer",
            ratio=cost,
            why=why("sim-compiled", "peer"),
        ),
        ratio_row(
            "simulator, pure, USA 4p, µs/decision vs the peer (time)",
            us["sim-pure"],
            us["peer"],
            micro,
            (1.5, True),
            against_name="peer",
            ratio=cost,
            why=why("sim-pure", "peer"),
        ),
        ratio_row(
            "simulator, compiled, Nordic 3p ÷ USA 4p, µs/decision (time)",
            us["nordic-compiled"],
            us["sim-compiled"],
            micro,
            (1.5, False),
            against_name="USA 4p",
            ratio=share,
            why=why("nordic-compiled", "sim-compiled"),
        ),
        ratio_row(
            "Game ÷ simulator, pure, USA 4p, µs/decision (time)",
            us["game-pure"],
            us["sim-pure"],
            micro,
            (1.3, False),
            against_name="simulator",
            ratio=share,
            why=why("game-pure", "sim-pure"),
        ),
        ratio_row(
            "Game ÷ simulator, compiled, USA 4p, µs/decision (time)",
            us["game-compiled"],
            us["sim-compiled"],
            micro,
            (1.3, False),
            against_name="simulator",
            ratio=share,
            why=why("game-compiled", "sim-compiled"),
        ),
        ratio_row(
            "Game, pure, USA 4p, µs/decision vs 2a6e9da's Game (time)",
            us["game-pure"],
            us["base-game-pure"],
            micro,
            None,
            against_name="2a6e9da",
            ratio=cost,
            why=why("game-pure", "base-game-pure"),
        ),
        ratio_row(
            "Game, compiled, USA 4p, µs/decision vs 2a6e9da's Game (time)",
            us["game-compiled"],
            us["base-game-compiled"],
            micro,
            None,
            against_name="2a6e9da",
            ratio=cost,
            why=why("game-compiled", "base-game-compiled"),
        ),
    ]


def joined(reasons: Iterable[str]) -> str:
    """The distinct ``reasons``, in order, joined by semicolons."""
    return "; ".join(dict.fromkeys(reasons))


def reason_of(name: str, py: Pythons, failures: dict[str, str]) -> str:
    """Why figure ``name`` of the playouts was not measured."""
    if name in failures:
        return f"{name}: {failures[name]}"
    if "base" in name:
        return "no 2a6e9da build given (--baseline and --baseline-python/-compiled-python)"
    if name.startswith("peer"):
        return "no peer given (--peer)"
    return "no compiled build given (--compiled-python)"


# ---- instruction counts ------------------------------------------------------------------


def instructions(out_file: Path) -> int:
    """The total instruction count of a callgrind output file."""
    for line in out_file.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise ValueError(f"{out_file}: no summary line")


def per_decision(run: Runner, command: list[str], games: int) -> tuple[float | None, str]:
    """Callgrind's instructions per decision of ``command`` (which takes ``--games``)."""
    counts: list[int] = []
    decisions = 0
    for n in (0, games):
        out = Path(run.folder) / f"callgrind.{time.monotonic_ns()}"
        lines, failure = run.lines(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                *command,
                "--games",
                str(n),
            ]
        )
        found = pick(lines)
        if failure or found is None or not out.exists():
            return None, failure or "printed nothing"
        counts.append(instructions(out))
        out.unlink()
        decisions = int(found["decisions"])
    if decisions == 0:
        return None, "no decisions played"
    return (counts[1] - counts[0]) / decisions, ""


def callgrind_rows(run: Runner, py: Pythons, sizes: Sizes, enabled: bool, jobs: int) -> list[Row]:
    """Instructions per decision from callgrind, for the engines that have a target, counted
    ``jobs`` at a time."""
    counted = str(HERE / "counted_games.py")
    warm = ["--warmup", "1"]
    usa = ["--edition", "usa", "--players", "4"]
    peer = [str(HERE / "peer_playouts.py"), "--peer", py.peer_dir or "", "--players", "4"]
    commands = {
        "sim-pure": given(py.pure, counted, *usa, *warm),
        "game-pure": given(py.pure, counted, "--engine", "game", *usa, *warm),
        "sim-compiled": given(py.compiled, counted, *usa, *warm),
        "game-compiled": given(py.compiled, counted, "--engine", "game", *usa, *warm),
        "nordic-compiled": given(
            py.compiled, counted, "--edition", "nordic", "--players", "3", *warm
        ),
        "peer": given(py.peer, *peer, *warm),
    }
    ir: dict[str, float | None] = {}
    failures: dict[str, str] = {}
    counted_now = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for name, command in commands.items():
            if not enabled:
                failures[name] = "callgrind not run (--no-callgrind)"
            elif shutil.which("valgrind") is None:
                failures[name] = "valgrind is not installed"
            elif command:
                counted_now[name] = pool.submit(per_decision, run, command, sizes.callgrind_games)
    for name, future in counted_now.items():
        ir[name], failure = future.result()
        if failure:
            failures[name] = failure
    got = {name: ir.get(name) for name in commands}

    def why(*names: str) -> str:
        return joined(
            failures.get(name) or reason_of(name, py, {}) for name in names if got[name] is None
        )

    unit = "Ir/decision"
    return [
        bound_row(
            "simulator, compiled, USA 4p, instructions per decision",
            got["sim-compiled"],
            unit,
            11400,
            why("sim-compiled"),
        ),
        ratio_row(
            "simulator, compiled, USA 4p, instructions vs the peer",
            got["sim-compiled"],
            got["peer"],
            unit,
            (10, True),
            against_name="peer",
            ratio=cost,
            why=why("sim-compiled", "peer"),
        ),
        ratio_row(
            "simulator, pure, USA 4p, instructions vs the peer",
            got["sim-pure"],
            got["peer"],
            unit,
            (1.5, True),
            against_name="peer",
            ratio=cost,
            why=why("sim-pure", "peer"),
        ),
        ratio_row(
            "simulator, compiled, Nordic 3p ÷ USA 4p, instructions",
            got["nordic-compiled"],
            got["sim-compiled"],
            unit,
            (1.5, False),
            against_name="USA 4p",
            ratio=share,
            why=why("nordic-compiled", "sim-compiled"),
        ),
        ratio_row(
            "Game ÷ simulator, pure, USA 4p, instructions",
            got["game-pure"],
            got["sim-pure"],
            unit,
            (1.3, False),
            against_name="simulator",
            ratio=share,
            why=why("game-pure", "sim-pure"),
        ),
        ratio_row(
            "Game ÷ simulator, compiled, USA 4p, instructions",
            got["game-compiled"],
            got["sim-compiled"],
            unit,
            (1.3, False),
            against_name="simulator",
            ratio=share,
            why=why("game-compiled", "sim-compiled"),
        ),
    ]


# ---- bot runs and records ----------------------------------------------------------------


def older(python: str | None, *arguments: str) -> list[str] | None:
    """The command that runs one of this folder's scripts on 2a6e9da's layout, if given."""
    return given(python, str(HERE / "older_layout.py"), *arguments)


def run_rows(run: Runner, py: Pythons, sizes: Sizes) -> list[Row]:
    """Bot runs beside the simulator, greedy against 2a6e9da, and the record size."""
    script = str(HERE / "runs_and_records.py")
    args = ["--edition", "usa", "--players", "4", "--games", str(sizes.run_games)]
    builds = {
        "pure": (given(py.pure, script, *args), older(py.base_pure, script, *args)),
        "compiled": (given(py.compiled, script, *args), older(py.base_compiled, script, *args)),
    }
    rows: list[Row] = []
    record: dict[str, str] | None = None
    record_why = ""
    for build, (ours, base) in builds.items():
        lines, failure = run.lines(ours) if ours else ([], "no compiled build given")
        random_run = pick(lines, what="run-random")
        greedy = pick(lines, what="run-greedy")
        base_greedy: dict[str, str] | None = None
        base_why = "no 2a6e9da build given (--baseline-python/-compiled-python)"
        if base:
            base_lines, base_failure = run.lines(base)
            base_greedy = pick(base_lines, what="run-greedy")
            base_why = base_failure if base_greedy is None else ""
        if build == "pure":
            record, record_why = pick(lines, what="record"), failure
        rows.append(
            ratio_row(
                f"run --bots random ÷ simulator, {build}, USA 4p, games/s",
                float(random_run["games_per_s"]) if random_run else None,
                simulator_speed(lines),
                "games/s",
                (0.5, True),
                against_name="simulator",
                ratio=share,
                why=failure or "no run-random line",
            )
        )
        rows.append(
            ratio_row(
                f"run --bots greedy, {build}, USA 4p, games/s vs 2a6e9da",
                float(greedy["games_per_s"]) if greedy else None,
                float(base_greedy["games_per_s"]) if base_greedy else None,
                "games/s",
                (5, True),
                against_name="2a6e9da",
                ratio=share,
                why=failure or base_why or "no run-greedy line",
            )
        )
    rows.append(
        bound_row(
            "compact record of a random USA 4p game, mean size",
            float(record["compact_bytes"]) if record else None,
            "bytes",
            RECORD_BYTES,
            record_why or "no record line",
        )
    )
    return rows


def simulator_speed(lines: Sequence[str]) -> float | None:
    """The simulator's games per second printed by ``runs_and_records.py``."""
    found = pick(lines, what="simulator")
    return float(found["games_per_s"]) if found else None


# ---- the search bot ----------------------------------------------------------------------


def mcts_line(lines: Sequence[str]) -> tuple[float, float, int] | None:
    """Seconds per game, win rate and games from ``mcts_vs_greedy.py``'s summary line."""
    for line in lines:
        seconds = re.search(r"([\d.]+) s per game", line)
        rate = re.search(r"win rate ([\d.]+)%", line)
        games = re.search(r"(\d+) games,", line)
        if seconds and rate and games:
            return float(seconds[1]), float(rate[1]) / 100, int(games[1])
    return None


def mcts_rows(run: Runner, py: Pythons, sizes: Sizes) -> list[Row]:
    """The search bot's speed against 2a6e9da's on the same games, and its strength."""
    build = "compiled" if py.compiled else "pure"
    ours_python = py.compiled or py.pure
    base_python = py.base_compiled if py.compiled else py.base_pure
    args = ["--games", str(sizes.mcts_games)]
    if sizes.mcts_playouts is not None:
        args += ["--playouts", str(sizes.mcts_playouts)]
    lines, failure = run.lines([ours_python, str(HERE / "mcts_vs_greedy.py"), *args])
    ours = mcts_line(lines)
    base = None
    base_why = "no 2a6e9da build given (--baseline and its python)"
    if base_python and py.base_dir:
        script = str(Path(py.base_dir) / "benchmarks" / "mcts_vs_greedy.py")
        base_lines, base_failure = run.lines([base_python, script, *args])
        base = mcts_line(base_lines)
        base_why = base_failure or ("" if base else "no summary line")
    speed = ratio_row(
        f"mcts vs greedy, {build}, USA 2p, s per game vs 2a6e9da (same games, playouts)",
        ours[0] if ours else None,
        base[0] if base else None,
        "s/game",
        (5, True),
        against_name="2a6e9da",
        ratio=cost,
        why=failure or base_why or "no summary line",
    )
    target = f"in {WIN_RATE_LOW:.1%}–{WIN_RATE_HIGH:.1%} over ≥ 100 games"
    what = f"mcts win rate vs greedy, {build}, USA 2p"
    if ours is None:
        strength = missing(what, target, failure or "no summary line")
    elif ours[2] < 100:
        strength = missing(
            what, target, f"{ours[2]} games played ({ours[1]:.0%}); pass --mcts-games 100"
        )
    else:
        met = WIN_RATE_LOW <= ours[1] <= WIN_RATE_HIGH
        strength = Row(what, f"{ours[1]:.1%} of {ours[2]}", "79% (2a6e9da)", None, target, met)
    return [speed, strength]


# ---- scoring and processes ---------------------------------------------------------------


def scoring_rows(run: Runner, py: Pythons, sizes: Sizes) -> list[Row]:
    """The slowest final scoring of random games in each edition and player count."""
    script = str(HERE / "scoring.py")
    args = ["--games", str(sizes.scoring_games), "--repeat", "1" if sizes is QUICK else "3"]
    lines, failure = run.lines([py.pure, script, *args])
    base_lines: list[str] = []
    base_why = "no 2a6e9da build given (--baseline-python)"
    base_command = older(py.base_pure, script, *args)
    if base_command:
        base_lines, base_why = run.lines(base_command)
    rows = []
    for line in lines:
        found = fields(line)
        if "max_ms" not in found:
            continue
        where = {"edition": found["edition"], "players": found["players"]}
        base = pick(base_lines, **where)
        what = f"scoring, pure, {found['edition']} {found['players']}p, slowest game"
        measured = float(found["max_ms"])
        shown = f"{measured:.3f} ms"
        against = f"{float(base['max_ms']):.3f} ms (2a6e9da)" if base else "2a6e9da: none"
        rows.append(Row(what, shown, against, None, "≤ 1 ms", measured <= 1.0))
    if not rows:
        rows.append(missing("scoring, pure, every edition, slowest game", "≤ 1 ms", failure))
    elif not base_lines:
        rows.append(missing("scoring, pure, against 2a6e9da", "", base_why or "no lines"))
    return rows


def parallel_rows(run: Runner, py: Pythons, sizes: Sizes) -> list[Row]:
    """Games per second of ``--jobs 2`` against ``--jobs 1``, here and in 2a6e9da."""
    args = ["--games", str(sizes.parallel_games), "--bots", "greedy"]
    lines, failure = run.lines([py.pure, str(HERE / "parallel.py"), *args])
    two = pick(lines, where="2-local-processes")
    base_speedup = None
    base_why = "no 2a6e9da build given (--baseline and --baseline-python)"
    if py.base_pure and py.base_dir:
        script = str(Path(py.base_dir) / "benchmarks" / "parallel.py")
        base_lines, base_why = run.lines([py.base_pure, script, *args])
        base_two = pick(base_lines, where="2-local-processes")
        base_speedup = float(base_two["speedup"]) if base_two else None
    what = "--jobs 2 ÷ --jobs 1, pure, greedy USA 4p, games/s"
    if two is None:
        return [missing(what, "≥ 1.7×", failure or "no 2-local-processes line")]
    speedup = float(two["speedup"])
    against = f"{base_speedup:.2f}× (2a6e9da)" if base_speedup else f"2a6e9da: {base_why}"
    measured = f"{speedup:.2f}× (CPU {two.get('cpu_ratio', '?')}× of jobs 1)"
    rows = [Row(what, measured, against, speedup, "≥ 1.7×", speedup >= 1.7)]
    again = pick(lines, where="2-local-processes-again")
    if again is not None:  # a later run of the same process
        later = float(again["speedup"])
        rows.append(
            Row(
                f"{what}, a later run",
                f"{later:.2f}× (CPU {again.get('cpu_ratio', '?')}× of jobs 1)",
                "",
                later,
                "≥ 1.7×",
                later >= 1.7,
            )
        )
    return rows


# ---- the table ---------------------------------------------------------------------------


def is_compiled(python: str, run: Runner) -> bool:
    """Whether ``python``'s ``ttr_core`` runs its simulator compiled."""
    lines, _ = run.lines([python, "-c", "import ttr_core; print(ttr_core.compiled)"])
    return lines == ["True"]


def table(rows: Sequence[Row]) -> str:
    """The rows as an aligned text table."""
    head = ("what", "measured", "against", "ratio", "target", "met")
    body = []
    for row in rows:
        if row.why:
            met = "not measured: " + row.why
        else:
            met = "—" if row.met is None else ("yes" if row.met else "NO")
        ratio = "" if row.ratio is None else f"{row.ratio:.2f}×"
        body.append((row.what, row.measured, row.against, ratio, row.target, met))
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(5)]
    out = []
    for r in [head, *body]:
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)) + "  " + r[5])
    return "\n".join(line.rstrip() for line in out)


def measured_or_failed(name: str, section: Callable[[], list[Row]]) -> list[Row]:
    """The rows of ``section``, or one row saying why it failed: a figure that cannot be
    read (a benchmark printing something new, say) does not lose the others."""
    try:
        return section()
    except (ValueError, KeyError, IndexError, OSError) as error:
        return [missing(f"{name}: every figure", "", f"failed: {error!r}")]


def main(argv: list[str] | None = None) -> None:
    """Measure every figure and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description="Every speed figure, side by side.")
    parser.add_argument("--python", default=sys.executable, help="the pure build's python")
    parser.add_argument("--compiled-python", help="a python with the TTR_COMPILE=1 build")
    parser.add_argument("--peer", help="folder holding edwisdom/ticket_to_ride's source")
    parser.add_argument("--peer-python", help="python for the peer (needs msgspec)")
    parser.add_argument("--baseline", help="folder holding the source of commit 2a6e9da")
    parser.add_argument("--baseline-python", help="python with 2a6e9da installed, pure")
    parser.add_argument("--baseline-compiled-python", help="python with 2a6e9da compiled")
    parser.add_argument("--quick", action="store_true", help="a few games each: a smoke run")
    parser.add_argument("--mcts-games", type=int, help="games of mcts against greedy")
    parser.add_argument(
        "--callgrind-games", type=int, metavar="N", help="games of each counted run (default 10)"
    )
    parser.add_argument("--no-callgrind", action="store_true", help="skip instruction counts")
    parser.add_argument(
        "--callgrind-jobs",
        type=int,
        default=0,
        metavar="K",
        help="count instructions K at a time alongside the timed runs (default 0: after them)",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--verbose", action="store_true", help="print each command run")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    if args.mcts_games is not None:
        sizes = Sizes(**{**asdict(sizes), "mcts_games": args.mcts_games})
    if args.callgrind_games is not None:
        sizes = Sizes(**{**asdict(sizes), "callgrind_games": args.callgrind_games})
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ttr-figures-") as folder:
        run = Runner(folder, args.verbose)
        compiled = args.compiled_python
        if compiled and not is_compiled(compiled, run):
            raise SystemExit(f"{compiled}: its ttr_core is not compiled (ttr_core.compiled)")
        base_dir = args.baseline
        if base_dir and not (Path(base_dir) / "benchmarks" / "playouts.py").exists():
            raise SystemExit(f"{base_dir}: no benchmarks/playouts.py there")
        py = Pythons(
            pure=args.python,
            compiled=compiled,
            peer=(args.peer_python or sys.executable) if args.peer else None,
            peer_dir=args.peer,
            base_dir=base_dir,
            base_pure=args.baseline_python if base_dir else None,
            base_compiled=args.baseline_compiled_python if base_dir else None,
        )
        counts = not args.no_callgrind
        sections: list[tuple[str, Callable[[], list[Row]]]] = [
            ("playouts", lambda: playout_rows(run, py, sizes)),
            ("callgrind", lambda: callgrind_rows(run, py, sizes, counts, 1)),
            ("bot runs", lambda: run_rows(run, py, sizes)),
            ("mcts", lambda: mcts_rows(run, py, sizes)),
            ("scoring", lambda: scoring_rows(run, py, sizes)),
            ("processes", lambda: parallel_rows(run, py, sizes)),
        ]
        found: dict[str, list[Row]] = {}
        with ThreadPoolExecutor(max_workers=1) as background:
            alongside: Future[list[Row]] | None = None
            if args.callgrind_jobs > 0:  # instruction counts do not depend on the load
                alongside = background.submit(
                    callgrind_rows, run, py, sizes, counts, args.callgrind_jobs
                )
            for name, section in sections:
                if name == "callgrind" and alongside is not None:
                    continue
                found[name] = measured_or_failed(name, section)
                if args.verbose:
                    print(table(found[name]), file=sys.stderr, flush=True)
            if alongside is not None:
                found["callgrind"] = measured_or_failed("callgrind", alongside.result)
        rows = [row for name, _ in sections for row in found[name]]
    load = os.getloadavg()[0]
    elapsed = time.monotonic() - started
    if args.json:
        print(json.dumps({"load": load, "seconds": elapsed, "rows": [asdict(r) for r in rows]}))
        return
    print(table(rows))
    print(f"{len(rows)} figures in {elapsed:.0f} s; load average {load:.2f} at the end")


if __name__ == "__main__":
    main()
