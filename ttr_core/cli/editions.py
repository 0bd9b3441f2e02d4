"""``ttr editions``: the installed editions, as a table or as JSON."""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from ttr_core.cli._common import console, print_json, sentence
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
    """Print the editions table (or JSON)."""
    editions = describe_editions()
    if args.json:
        print_json(editions)
        return 0
    table = Table(title="Installed editions")
    for column in ("Id", "Name", "Aliases", "Players", "Built-in", "Distribution"):
        # On a narrow terminal a long alias is broken over lines rather than cut short.
        table.add_column(column, overflow="fold")
    for ed in editions:
        lo, hi = ed["players"]
        table.add_row(
            ed["id"],
            ed["name"],
            ", ".join(ed["aliases"]) or "-",
            f"{lo}-{hi}" if lo != hi else str(lo),
            "yes" if ed["builtin"] else "no",
            ed["distribution"],
        )
    console().print(table)
    return 0
