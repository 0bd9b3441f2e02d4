"""The same seed gives the same game in separate processes, whatever their hash seed.

Python randomises the hash of strings per process (``PYTHONHASHSEED``), which changes
the iteration order of sets and some dicts. Nothing a game records may depend on it.
Two processes with different hash seeds play the same seeded games of every installed
edition (with the kit's random play and with the built-in bots) and must print
byte-identical records, score sheets and simulation results.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test reads the output of the two processes

PLAY = r"""
import json
import sys

from ttr_core.ruleset.editions import installed_editions
from ttr_core.rules.scoring import scoresheet_json
from ttr_core.batch.runs import simulate
from ttr_core.testing import play_game, player_counts, ruleset

for edition in sorted(installed_editions()):
    rs = ruleset(edition)
    counts = player_counts(rs)
    for players in sorted({counts[0], counts[-1]}):
        game = play_game(rs, players, seed=20260101)
        print(game.save())
        print(json.dumps(scoresheet_json(rs, game.scores()), sort_keys=True))
        print(json.dumps(game.view(0).__repr__()))
    for result in simulate(rs, players=counts[0], games=2, seed=7, bots=["greedy", "random"]):
        print(json.dumps(result.to_json(), sort_keys=True))
sys.stdout.flush()
"""


def run(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    env.pop("TTR_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-c", PLAY],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    return {seed: run(seed) for seed in ("1", "2")}


def test_two_processes_with_different_hash_seeds_agree(outputs: dict[str, str]) -> None:
    """PYTHONHASHSEED=1 and =2 give identical records, scores, views and bot results."""
    one, two = outputs["1"], outputs["2"]
    assert one, "the script printed nothing"
    lines_one, lines_two = one.splitlines(), two.splitlines()
    assert len(lines_one) == len(lines_two)
    for i, (a, b) in enumerate(zip(lines_one, lines_two, strict=True)):
        assert a == b, f"line {i} differs between hash seeds 1 and 2: {a[:200]} ... {b[:200]}"
    digest = hashlib.sha256(one.encode()).hexdigest()
    assert digest == hashlib.sha256(two.encode()).hexdigest()


def test_this_process_agrees_too(outputs: dict[str, str]) -> None:
    """The test process itself (any hash seed) prints the same."""
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(PLAY, "determinism", "exec"), {"__name__": "determinism"})
    assert buffer.getvalue() == outputs["1"]


def test_the_records_cover_every_installed_edition(outputs: dict[str, str]) -> None:
    """The processes played every installed edition, and the records replay here."""
    import json

    from ttr_core.play.game import Game
    from ttr_core.ruleset.editions import installed_editions

    records = [json.loads(line) for line in outputs["1"].splitlines() if '"map_hash"' in line]
    assert {r["edition"] for r in records} == set(installed_editions())
    for record in records:
        game = Game.load(json.dumps(record))
        assert game.is_over
        assert json.loads(game.save()) == record
