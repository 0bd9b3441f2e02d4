"""Golden games: seeded games stored as files, so any change of behaviour shows as a diff.

A golden file holds the record of a game played by the kit's reproducible random play
([`play_game`][ttr_core.testing.play_game]), its final score sheet, and how it was made. A
test plays the game again and compares; when behaviour changes on purpose, the files
are written again and the diff is reviewed like any other change.

The text is JSON laid out for diffs, keys sorted: one setup event or log entry per line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ttr_core.rules.scoring import scoresheet_json
from ttr_core.testing.play import play_game, ruleset

GOLDEN_FORMAT = 1
GAMES: tuple[tuple[int, int], ...] = ((2, 1), (4, 2))
"""The (players, seed) of the golden games of an edition for 2 to 4 players or more."""


def golden_games(edition: str) -> tuple[tuple[int, int], ...]:
    """The (players, seed) of the edition's golden games: `GAMES`, with player
    counts moved into the range the edition allows (Nordic Countries: 2 and 3)."""
    lo, hi = ruleset(edition).params.players
    return tuple((min(max(players, lo), hi), seed) for players, seed in GAMES)


def golden_name(edition: str, players: int, seed: int) -> str:
    """The file name of a golden game, e.g. ``usa-2p-seed1.json``."""
    return f"{edition}-{players}p-seed{seed}.json"


def golden_game(edition: str, players: int, seed: int) -> dict[str, Any]:
    """The golden data of a game of the edition with default options."""
    rs = ruleset(edition)
    game = play_game(rs, players, seed)
    return {
        "format": GOLDEN_FORMAT,
        "edition": edition,
        "players": players,
        "seed": seed,
        "play": "ttr_core.testing.play_game",
        "scores": scoresheet_json(rs, game.scores()),
        "record": json.loads(game.save(compact=False)),
    }


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), sort_keys=True)


def _lines(value: Any, indent: str, depth: int) -> list[str]:
    """``value`` as JSON lines: objects and lists opened up to ``depth`` levels."""
    if depth == 0 or not isinstance(value, dict | list) or not value:
        return [_compact(value)]
    inner = indent + "  "
    if isinstance(value, dict):
        parts = [(f"{_compact(k)}: ", v) for k, v in sorted(value.items())]
        opening, closing = "{", "}"
    else:
        parts = [("", v) for v in value]
        opening, closing = "[", "]"
    out = [opening]
    for i, (label, item) in enumerate(parts):
        body = _lines(item, inner, depth - 1)
        body[0] = inner + label + body[0]
        if i < len(parts) - 1:
            body[-1] += ","
        out.extend(body)
    out.append(indent + closing)
    return out


def dump_golden(data: Mapping[str, Any]) -> str:
    """The golden data as text: JSON with one player score, setup event or log entry a line."""
    return "\n".join(_lines(dict(data), "", 3)) + "\n"


def differences(expected: Any, actual: Any, path: str = "$") -> Iterator[str]:
    """The paths at which two JSON values differ, with both values, in document order."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected.keys() | actual.keys():
            where = f"{path}.{key}"
            if key not in actual:
                yield f"{where}: missing (expected {_compact(expected[key])[:200]})"
            elif key not in expected:
                yield f"{where}: unexpected {_compact(actual[key])[:200]}"
            else:
                yield from differences(expected[key], actual[key], where)
    elif isinstance(expected, list) and isinstance(actual, list):
        for i, (a, b) in enumerate(zip(expected, actual, strict=False)):
            yield from differences(a, b, f"{path}[{i}]")
        if len(expected) != len(actual):
            yield f"{path}: {len(actual)} items, expected {len(expected)}"
    elif expected != actual or type(expected) is not type(actual):
        yield f"{path}: {_compact(actual)[:200]}, expected {_compact(expected)[:200]}"


def write_golden(directory: Path, editions: list[str]) -> list[Path]:
    """Write the golden games of ``editions`` into ``directory``; return the files changed."""
    directory.mkdir(parents=True, exist_ok=True)
    changed = []
    for edition in editions:
        for players, seed in golden_games(edition):
            path = directory / golden_name(edition, players, seed)
            text = dump_golden(golden_game(edition, players, seed))
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
                changed.append(path)
    return changed
