"""``ttr odds tunnel``: the chance that a tunnel claim needs 0 to 3 extra cards."""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from ttr_core.cli._common import UsageError, console, print_json, sentence
from ttr_core.hidden.odds import cumulative, tunnel_extra_odds

HELP = "compute probabilities, e.g. of a tunnel's extra cost"
TUNNEL_HELP = "the chance that a tunnel reveal demands 0, 1, 2 or 3 extra cards"
REVEAL = 3


def count(text: str) -> int:
    """An argument type: an integer of at least 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of at least 0, got {text!r}")
    return value


def register(sub: Any) -> None:
    """Add the ``odds`` command to the sub-command parsers."""
    parser = sub.add_parser("odds", help=HELP, description=sentence(HELP) + ".")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", title="kinds")
    tunnel = kinds.add_parser(
        "tunnel",
        help=TUNNEL_HELP,
        description=sentence(TUNNEL_HELP) + ". Three cards are turned over from a pool "
        "of unseen cards (all of them if the pool has fewer than three); each matching "
        "card, one of the payment's colour or a locomotive, demands one extra card. The "
        "probabilities are exact (hypergeometric).",
    )
    tunnel.add_argument(
        "--pool", metavar="P", type=count, required=True, help="number of unseen cards"
    )
    tunnel.add_argument(
        "--matching",
        metavar="K",
        type=count,
        required=True,
        help="how many of the unseen cards match (0 <= K <= P)",
    )
    tunnel.add_argument(
        "--json",
        action="store_true",
        help='print {"pool", "matching", "extra_cards": [p0, p1, p2, p3]}',
    )
    tunnel.set_defaults(run=run_tunnel)
    parser.set_defaults(run=run_missing_kind)


def run_missing_kind(args: argparse.Namespace) -> int:
    """``ttr odds`` without a kind is a usage error."""
    raise UsageError("choose what to compute: tunnel (see 'ttr odds --help')")


def run_tunnel(args: argparse.Namespace) -> int:
    """Print the distribution of a tunnel's extra cards."""
    pool, matching = args.pool, args.matching
    if matching > pool:
        raise UsageError(
            f"argument --matching: {matching} matching cards cannot exceed the pool of {pool}"
        )
    odds = tunnel_extra_odds(pool, matching, REVEAL)
    if args.json:
        print_json(
            {"pool": pool, "matching": matching, "extra_cards": [float(p) for p in odds]},
            indent=None,
        )
        return 0
    shown = min(REVEAL, pool)
    title = f"Tunnel reveal: {shown} of {pool} unseen cards, {matching} matching"
    out = console()
    out.print(title)
    table = Table()
    for column in ("Extra cards", "Exactly", "At most"):
        table.add_column(column, justify="right")
    for k, (p, at_most) in enumerate(zip(odds, cumulative(odds), strict=True)):
        table.add_row(str(k), f"{float(p) * 100:.2f} %", f"{float(at_most) * 100:.2f} %")
    out.print(table)
    return 0
