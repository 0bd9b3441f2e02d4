"""``ttr replay FILE``: check a saved game record by replaying it, and summarise the game."""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from ttr_core.cli._common import CommandError, console, print_json, read_input, sentence
from ttr_core.errors import RecordError
from ttr_core.game import Game

HELP = "verify a saved game record and summarise it"


def register(sub: Any) -> None:
    """Add the ``replay`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "replay",
        help=HELP,
        description=sentence(HELP) + ": every action is replayed and every recorded event checked.",
    )
    parser.add_argument("file", metavar="FILE", help="the saved game (JSON), or - for stdin")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(run=run)


def summary(game: Game) -> dict[str, Any]:
    """The JSON summary of a replayed game (``ttr replay --json``)."""
    state = game.state
    out: dict[str, Any] = {
        "edition": game.ruleset.id,
        "options": dict(game.ruleset.options),
        "seed": game.seed,
        "players": list(game.names),
        "turns": state.turn,
        "actions": len(game.log),
        "over": game.is_over,
        "ended_by": state.ended_by or None,
        "scores": None,
        "winners": [],
    }
    if game.is_over:
        sheet = game.scores()
        out["scores"] = [{"name": p.name, "total": p.total} for p in sheet.players]
        out["winners"] = [game.names[s] for s in sheet.winners]
    return out


def run(args: argparse.Namespace) -> int:
    """Replay the record and print its summary."""
    name, data = read_input(args.file)
    try:
        game = Game.load(data)
    except RecordError as exc:
        raise CommandError(f"{name}: {exc}") from None
    info = summary(game)
    if args.json:
        print_json(info)
        return 0
    out = console()
    status = f"over ({info['ended_by'].replace('_', ' ')})" if info["over"] else "in progress"
    out.print(
        f"{name}: a valid {info['edition']} game record, {len(info['players'])} players, "
        f"{info['turns']} turns ({info['actions']} actions), {status}",
        soft_wrap=True,
    )
    if info["scores"] is not None:
        table = Table(title="Final scores")
        table.add_column("Player")
        table.add_column("Total", justify="right")
        table.add_column("Winner")
        for p in info["scores"]:
            table.add_row(p["name"], str(p["total"]), "yes" if p["name"] in info["winners"] else "")
        out.print(table)
    else:
        out.print("Players: " + ", ".join(info["players"]), soft_wrap=True)
    return 0
