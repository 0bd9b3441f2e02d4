"""``ttr map EDITION``: an edition's map data, summarised or in full as JSON."""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from rich.table import Table

from ttr_core.cli._common import add_option_argument, console, options_dict, print_json, sentence
from ttr_core.mapdata import TicketDeal, unstructure_map
from ttr_core.ruleset import Ruleset

HELP = "show an edition's map: cities, routes, tickets and parameters"


def register(sub: Any) -> None:
    """Add the ``map`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "map",
        help=HELP,
        description=sentence(HELP)
        + ". With --json, the full map data (options applied) in the map data format.",
    )
    parser.add_argument("edition", metavar="EDITION", help="edition id or alias")
    parser.add_argument("--json", action="store_true", help="print the full map data as JSON")
    add_option_argument(parser)
    parser.set_defaults(run=run)


_LOCOMOTIVES = {
    "anywhere": "wild on every track",
    "tunnels": "wild on tunnels only",
    "tunnels_and_ferries": "wild on tunnels and ferries only",
}


def run(args: argparse.Namespace) -> int:
    """Print the summary (or the JSON map data) of the edition's map."""
    rs = Ruleset.build(args.edition, options_dict(args.options))
    if args.json:
        print_json(unstructure_map(rs.map))
        return 0
    out = console()
    data, p = rs.map, rs.params
    arrows = sum(1 for c in data.cities if c.country is not None)
    doubles = sum(1 for t in data.routes if t.parallel is not None) // 2
    pairs = len({frozenset(t.cities) for t in data.routes})
    kinds = Counter(t.kind for t in data.tickets)
    summary = Table(title=f"{data.name} ({rs.id})", show_header=False)
    summary.add_column("What")
    summary.add_column("Value")
    cities = f"{len(data.cities)}" + (f" ({arrows} border arrows)" if arrows else "")
    summary.add_row("Cities", cities)
    summary.add_row(
        "Tracks",
        f"{len(data.routes)} between {pairs} city pairs, {doubles} double routes",
    )
    tunnels = sum(1 for t in data.routes if t.tunnel)
    ferries = sum(1 for t in data.routes if t.ferry)
    if tunnels or ferries:
        symbols = sum(t.ferry for t in data.routes)
        summary.add_row(
            "Tunnels, ferries",
            f"{tunnels}, {ferries}" + (f" ({symbols} symbols)" if ferries else ""),
        )
    summary.add_row(
        "Tickets", ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())) or "none"
    )
    summary.add_row("Players", f"{p.players[0]}-{p.players[1]}")
    summary.add_row("Trains per player", str(p.trains))
    if p.stations:
        costs = ", ".join(str(c) for c in p.station_cost)
        summary.add_row("Stations per player", f"{p.stations} (cost {costs} cards)")
    summary.add_row("Train cards", ", ".join(f"{n} {name}" for name, n in p.train_cards.items()))
    summary.add_row("Opening tickets", _deal_text(p.opening_tickets))
    summary.add_row("Ticket draw", _deal_text(p.ticket_draw))
    summary.add_row("Both tracks of a double from", f"{p.double_routes_min_players} players")
    summary.add_row("Locomotives", _LOCOMOTIVES[p.locomotives])
    face_up = "end the draw" if p.face_up_locomotive == "whole_draw" else "ordinary cards"
    flush = p.display.flush_locomotives
    summary.add_row(
        "Face-up locomotives",
        face_up + (f"; {flush} flush the display" if flush else "; no flush"),
    )
    if p.ferry_groups:
        cover = (
            "a locomotive or a space of the colour" if p.ferry_group_stacking else "a locomotive"
        )
        summary.add_row("Ferry card groups", f"any {p.ferry_groups} cards for {cover}")
    for t in data.routes:
        if t.card_groups:
            a, b = t.cities
            summary.add_row(f"{a}-{b}", f"any {t.card_groups} cards for a card of the colour")
    if p.longest_path_bonus:
        summary.add_row(
            "Longest path bonus", f"{p.longest_path_bonus} points ({p.longest_path_bonus_name})"
        )
    else:
        summary.add_row("Longest path bonus", "none")
    summary.add_row("Tie-breakers", ", then ".join(p.tie_breakers) or "none")
    if rs.options:
        summary.add_row("Options", ", ".join(f"{k}={v!r}" for k, v in rs.options.items()))
    out.print(summary)
    lengths = Counter(t.length for t in data.routes)
    table = Table(title="Tracks by length")
    for column in ("Length", "Points", "Tracks"):
        table.add_column(column, justify="right")
    for length in sorted(p.route_points):
        table.add_row(str(length), str(p.route_points[length]), str(lengths.get(length, 0)))
    out.print(table)
    return 0


def _deal_text(deal: TicketDeal) -> str:
    """``deal 4 (1 long), keep at least 2, the rest leave the game``."""
    long = f" ({deal.long} long)" if deal.long else ""
    rest = "go under the deck" if deal.returned == "bottom" else "leave the game"
    return f"deal {deal.deal}{long}, keep at least {deal.keep}, the rest {rest}"
