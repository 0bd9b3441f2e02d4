"""``ttr score FILE``: score an end-of-game position, as JSON or as readable tables."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table

from ttr_core.cli._common import (
    CommandError,
    add_option_argument,
    console,
    counted,
    options_dict,
    print_json,
    read_input,
)
from ttr_core.formats.position import read_position
from ttr_core.model.errors import PositionError
from ttr_core.rules.scoring import score_position, scoresheet_json

HELP = "score an end-of-game position given as JSON"

DESCRIPTION = """\
Score an end-of-game position (what each player holds when the game is over) and print
the score sheet: JSON by default, readable tables with --format table.

The position is one JSON object:
  edition    an installed edition's id or alias, e.g. "europe"
  players    the players in seat order, each an object with:
    name       a unique name
    routes     the claimed tracks, [{"a": "Denver", "b": "Omaha"}, ...]; "color" (and
               "length") pick one track of a double route
    tickets    the kept tickets, [{"a": "Denver", "b": "El Paso"}, ...]
    stations   the cities with the player's stations (editions with stations only)

Samples for every built-in edition are in the repository's examples/positions/ folder.
The full input and output formats and the errors: docs/how-to/score-a-position.md.
"""

FORMATS = ("json", "table")


def register(sub: Any) -> None:
    """Add the ``score`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "score",
        help=HELP,
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="the position JSON file, or - for stdin")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="json",
        help="json: the score sheet as JSON (the default); table: readable tables",
    )
    add_option_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the score sheet of the position."""
    name, data = read_input(args.file)
    try:
        rs, position = read_position(data, options=options_dict(args.options))
    except PositionError as exc:
        raise CommandError(f"{name}: {exc}") from None
    sheet = scoresheet_json(rs, score_position(rs, position))
    if args.format == "table":
        print_tables(console(), sheet)
    else:
        print_json(sheet)
    return 0


def print_tables(out: Console, sheet: dict[str, Any]) -> None:
    """Print a score sheet (the JSON form) as a totals table, then the tickets and stations."""
    players = sheet["players"]
    bonuses = list(dict.fromkeys(name for p in players for name in p["bonuses"]))
    winners = sheet["winners"]
    shared = len(winners) > 1
    caption = ("shared win: " if shared else "winner: ") + ", ".join(winners)
    table = Table(title=f"{sheet['edition']}: final scores", caption=caption)
    table.add_column("Player")
    table.add_column("Routes", justify="right")
    table.add_column("Tickets", justify="right")
    for name in bonuses:
        table.add_column(name, justify="right")
    table.add_column("Total", justify="right")
    table.add_column("Winner")
    for p in players:
        table.add_row(
            p["name"],
            str(p["route_points"]),
            str(p["ticket_points"]),
            *(str(p["bonuses"].get(name, 0)) for name in bonuses),
            str(p["total"]),
            "yes" if p["name"] in winners else "",
        )
    out.print(table)
    tickets = Table(title="Tickets")
    tickets.add_column("Player")
    tickets.add_column("Ticket")
    tickets.add_column("Result")
    tickets.add_column("Points", justify="right")
    for p in players:
        done = p["tickets_completed"]
        total = counted(len(p["tickets"]), "ticket")
        for t in p["tickets"]:
            to = t["b"] if "b" in t else " / ".join(t["to_any"])
            result = "completed" if t["completed"] else "failed"
            tickets.add_row(p["name"], f"{t['a']} - {to}", result, str(t["points"]))
        tickets.add_row(p["name"], f"{done} of {total} completed", "", str(p["ticket_points"]))
    out.print(tickets)
    used = [(p["name"], s) for p in players for s in p.get("stations", ())]
    if used:
        stations = Table(title="Stations")
        stations.add_column("Player")
        stations.add_column("City")
        stations.add_column("Borrowed track")
        for owner, s in used:
            track = s["route"]
            borrowed = "none" if track is None else f"{track['a']} - {track['b']}"
            stations.add_row(owner, s["city"], borrowed)
        out.print(stations)
