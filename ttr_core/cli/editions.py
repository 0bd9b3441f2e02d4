"""``ttr editions``: the installed editions, as a table or as JSON.

An edition that failed to load is listed in one line with the reason; the command fails
only when no edition can be played.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from ttr_core.cli._common import CommandError, console, print_json, sentence
from ttr_core.ruleset.editions import describe_editions

HELP = "list the installed editions"


def register(sub: Any) -> None:
    """Add the ``editions`` command to the sub-command parsers."""
    parser = sub.add_parser("editions", help=HELP, description=sentence(HELP) + ".")
    parser.add_argument(
        "--json", action="store_true", help="print a JSON list of editions sorted by id"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the editions table (or JSON); fail if not one edition loaded."""
    editions = describe_editions()
    if args.json:
        print_json(editions)
    else:
        console().print(_table(editions))
    if all("error" in ed for ed in editions):
        raise CommandError("no edition can be played: " + _none_reason(editions))
    return 0


def _table(editions: list[dict[str, Any]]) -> Table:
    table = Table(title="Installed editions")
    for column in ("Id", "Name", "Aliases", "Players", "Built-in", "Distribution"):
        # On a narrow terminal a long alias is broken over lines rather than cut short.
        table.add_column(column, overflow="fold")
    for ed in editions:
        builtin = "yes" if ed["builtin"] else "no"
        if "error" in ed:
            name = f"failed to load: {ed['error']}"
            table.add_row(ed["id"], name, "-", "-", builtin, ed["distribution"])
            continue
        lo, hi = ed["players"]
        table.add_row(
            ed["id"],
            ed["name"],
            ", ".join(ed["aliases"]) or "-",
            f"{lo}-{hi}" if lo != hi else str(lo),
            builtin,
            ed["distribution"],
        )
    return table


def _none_reason(editions: list[dict[str, Any]]) -> str:
    return "every installed edition failed to load" if editions else "none is installed"
