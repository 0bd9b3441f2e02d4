"""Golden games: stored seeded games of every built-in edition must play out the same.

Each file in tests/golden holds a game's record and final scores. The game is replayed
from the record (every event checked) and played again from its seed; any difference is
a change of behaviour. If the change is intended, write the files again with
``python scripts/regen_golden.py`` and commit the diff of tests/golden after review.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ttr_core.model.errors import RecordError
from ttr_core.play.game import Game
from ttr_core.rules.scoring import scoresheet_json
from ttr_core.ruleset.editions import installed_editions
from ttr_core.testing.golden import differences, dump_golden, golden_game, golden_games, golden_name

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = sorted(GOLDEN.glob("*.json"))
NAME = re.compile(r"^(?P<edition>[\w-]+)-(?P<players>\d+)p-seed(?P<seed>\d+)\.json$")
REGENERATE = (
    "if this change of behaviour is intended, run 'python scripts/regen_golden.py' and "
    "review 'git diff tests/golden' before committing it"
)


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_builtin_edition_has_its_golden_games() -> None:
    """Each installed built-in edition has its golden files."""
    builtin = sorted(e.info.id for e in installed_editions().values() if e.builtin)
    assert builtin
    missing = [
        golden_name(edition, players, seed)
        for edition in builtin
        for players, seed in golden_games(edition)
        if not (GOLDEN / golden_name(edition, players, seed)).exists()
    ]
    assert not missing, f"no golden games {missing}; run 'python scripts/regen_golden.py'"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_golden_game_plays_out_the_same(path: Path) -> None:
    """The stored game replays from its record and is played identically from its seed."""
    match = NAME.match(path.name)
    assert match, f"{path.name} is not named <edition>-<players>p-seed<seed>.json"
    data = load(path)
    edition, players, seed = match["edition"], int(match["players"]), int(match["seed"])
    assert (data["edition"], data["players"], data["seed"]) == (edition, players, seed)
    assert edition in installed_editions(), f"{path.name}: edition {edition!r} is not installed"
    try:
        game = Game.load(json.dumps(data["record"]))
    except RecordError as exc:
        pytest.fail(f"{path.name}: the stored record no longer replays: {exc}; {REGENERATE}")
    scores = scoresheet_json(game.ruleset, game.scores())
    found = list(differences(data["scores"], scores, "$.scores"))
    assert not found, f"{path.name}: the replayed game scores differently: {found[0]}; {REGENERATE}"
    fresh = golden_game(edition, players, seed)
    found = list(differences(data, fresh))
    assert not found, (
        f"{path.name}: {len(found)} differences, the first at {found[0]}; {REGENERATE}"
    )


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_golden_files_are_written_by_the_script(path: Path) -> None:
    """Each file is exactly what the script writes, so a regeneration diff shows only changes."""
    text = path.read_text(encoding="utf-8")
    assert text == dump_golden(load(path)), f"{path.name} was edited by hand; {REGENERATE}"
    assert len(text) < 120_000, f"{path.name} is larger than a golden game should be"
