"""``ttr map EDITION``: an edition's map, its rules and bonuses, every track and ticket."""

from __future__ import annotations

import argparse
import inspect
from collections import Counter
from typing import Any

from pluggy import HookImpl
from rich.console import Console
from rich.table import Table

from ttr_core.cli._common import (
    add_option_argument,
    console,
    counted,
    options_dict,
    print_json,
    sentence,
)
from ttr_core.model.mapdata import Ticket, TicketDeal, Track, unstructure_map
from ttr_core.rules.queries import track_cost
from ttr_core.rules.scoring import PlayerPosition, Position, ScoringContext, scoring_context
from ttr_core.ruleset import core_plugin
from ttr_core.ruleset.ruleset import Ruleset

HELP = "show an edition's map: rules, bonuses, every track and every ticket"


def register(sub: Any) -> None:
    """Add the ``map`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "map",
        help=HELP,
        description=sentence(HELP) + ". Without --json: the rule parameters, the bonuses "
        "(with those the edition's own plugins add), the tracks by length, then every track "
        "and every ticket. With --json, the full map data (options applied) in the map data "
        "format.",
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

_TICKET_KINDS = ("regular", "long", "country")


def run(args: argparse.Namespace) -> int:
    """Print the edition's rules, bonuses, tracks and tickets (or the JSON map data)."""
    rs = Ruleset.build(args.edition, options_dict(args.options))
    if args.json:
        print_json(unstructure_map(rs.map))
        return 0
    out = console()
    _print_summary(out, rs)
    _print_bonuses(out, rs)
    _print_lengths(out, rs)
    _print_tracks(out, rs)
    _print_tickets(out, rs)
    return 0


def _print_summary(out: Console, rs: Ruleset) -> None:
    data, p = rs.map, rs.params
    arrows = sum(1 for c in data.cities if c.country is not None)
    doubles = sum(1 for t in data.routes if t.parallel is not None) // 2
    pairs = len({frozenset(t.cities) for t in data.routes})
    kinds = Counter(t.kind for t in data.tickets)
    summary = Table(title=f"{data.name} ({rs.id})", show_header=False)
    summary.add_column("What")
    summary.add_column("Value")
    cities = f"{len(data.cities)}" + (f" ({counted(arrows, 'border arrow')})" if arrows else "")
    summary.add_row("Cities", cities)
    summary.add_row(
        "Tracks",
        f"{len(data.routes)} between {counted(pairs, 'city pair')}, "
        f"{counted(doubles, 'double route')}",
    )
    tunnels = sum(1 for t in data.routes if t.tunnel)
    ferries = sum(1 for t in data.routes if t.ferry)
    if tunnels or ferries:
        symbols = sum(t.ferry for t in data.routes)
        summary.add_row(
            "Tunnels, ferries",
            f"{counted(tunnels, 'tunnel')}, {counted(ferries, 'ferry', 'ferries')}"
            + (f" ({counted(symbols, 'locomotive symbol')})" if ferries else ""),
        )
    ordered = sorted(kinds, key=lambda k: (_TICKET_KINDS.index(k), k))
    summary.add_row("Tickets", ", ".join(f"{kinds[k]} {k}" for k in ordered) or "none")
    summary.add_row("Players", f"{p.players[0]}-{p.players[1]}")
    summary.add_row("Trains per player", str(p.trains))
    if p.stations:
        *first, last = p.station_cost
        costs = "".join(f"{c}, " for c in first) + counted(last, "card")
        summary.add_row("Stations per player", f"{p.stations} (cost {costs})")
    summary.add_row(
        "Train cards",
        ", ".join(
            counted(n, name) if name == "locomotive" else f"{n} {name}"
            for name, n in p.train_cards.items()
        ),
    )
    summary.add_row("Opening tickets", _deal_text(p.opening_tickets))
    summary.add_row("Ticket draw", _deal_text(p.ticket_draw))
    summary.add_row("Both tracks of a double from", counted(p.double_routes_min_players, "player"))
    summary.add_row("Locomotives", _LOCOMOTIVES[p.locomotives])
    face_up = "end the draw" if p.face_up_locomotive == "whole_draw" else "ordinary cards"
    flush = p.display.flush_locomotives
    flushed = f"the display is flushed at {counted(flush, 'locomotive')}" if flush else "no flush"
    summary.add_row("Face-up locomotives", f"{face_up}; {flushed}")
    if p.ferry_groups:
        cover = (
            "a locomotive or a space of the colour" if p.ferry_group_stacking else "a locomotive"
        )
        summary.add_row("Ferry card groups", f"any {counted(p.ferry_groups, 'card')} for {cover}")
    for t in data.routes:
        if t.card_groups:
            a, b = t.cities
            summary.add_row(
                f"{a}-{b}", f"any {counted(t.card_groups, 'card')} for a card of the colour"
            )
    if p.longest_path_bonus:
        summary.add_row(
            "Longest path bonus",
            f"{counted(p.longest_path_bonus, 'point')} ({p.longest_path_bonus_name})",
        )
    else:
        summary.add_row("Longest path bonus", "none")
    for doc in _plugin_docs(rs, "ttr_ticket_result"):
        summary.add_row("Ticket scoring", doc)
    summary.add_row("Tie-breakers", ", then ".join(p.tie_breakers) or "none")
    if rs.options:
        summary.add_row("Options", ", ".join(f"{k}={v!r}" for k, v in rs.options.items()))
    out.print(summary)


def _print_bonuses(out: Console, rs: Ruleset) -> None:
    rows = edition_bonuses(rs)
    if not rows:
        out.print("Bonuses: none")
        return
    table = Table(title=f"Bonuses ({len(rows)})")
    table.add_column("Bonus")
    table.add_column("Description")
    for name, doc in rows:
        table.add_row(name, doc)
    out.print(table)


def _print_lengths(out: Console, rs: Ruleset) -> None:
    lengths = Counter(t.length for t in rs.map.routes)
    table = Table(title="Tracks by length")
    for column in ("Length", "Points", "Tracks"):
        table.add_column(column, justify="right")
    for length in sorted(rs.params.route_points):
        points = rs.params.route_points[length]
        table.add_row(str(length), str(points), str(lengths.get(length, 0)))
    out.print(table)


def _print_tracks(out: Console, rs: Ruleset) -> None:
    table = Table(title=counted(len(rs.map.routes), "track").capitalize())
    table.add_column("Id", justify="right")
    table.add_column("From")
    table.add_column("To")
    table.add_column("Length", justify="right")
    table.add_column("Points", justify="right")
    table.add_column("Colour")
    table.add_column("Kind")
    for r, t in enumerate(rs.map.routes):
        a, b = t.cities
        table.add_row(
            str(t.id),
            a,
            b,
            str(t.length),
            str(rs.params.route_points[t.length]),
            t.color,
            track_kind(t, track_cost(rs, r).group_size),
        )
    out.print(table)


def _print_tickets(out: Console, rs: Ruleset) -> None:
    table = Table(title=counted(len(rs.map.tickets), "ticket").capitalize())
    table.add_column("Id", justify="right")
    table.add_column("From")
    table.add_column("To")
    table.add_column("Points", justify="right")
    table.add_column("Kind")
    for t in rs.map.tickets:
        to, points = _ticket_ends(t)
        table.add_row(str(t.id), t.a, to, points, t.kind)
    out.print(table)


def track_kind(track: Track, group: int) -> str:
    """What sets a track apart: ``double (track 66), ferry (1 locomotive symbol)``.

    ``group`` is the size of the groups of any cards the track accepts (0 for none).
    """
    parts = []
    if track.parallel is not None:
        parts.append(f"double (track {track.parallel})")
    if track.tunnel:
        parts.append("tunnel")
    if track.ferry:
        parts.append(f"ferry ({counted(track.ferry, 'locomotive symbol')})")
    if group:
        parts.append(f"groups of {counted(group, 'card')}")
    return ", ".join(parts)


def _ticket_ends(ticket: Ticket) -> tuple[str, str]:
    """The destination and points of a ticket; a country ticket lists each country."""
    if ticket.targets is not None:
        names = " / ".join(ticket.targets)
        points = " / ".join(str(n) for n in ticket.targets.values())
        return names, points
    return ticket.b or "", str(ticket.points)


def edition_bonuses(rs: Ruleset) -> list[tuple[str, str]]:
    """``(name, what it is awarded for)`` of every bonus of the ruleset, the core's first.

    A plugin's bonus is named as in score sheets: the names its ``ttr_final_bonuses``
    returns for an end position where nobody holds anything. Its description is the first
    paragraph of that implementation's docstring.
    """
    p = rs.params
    rows: list[tuple[str, str]] = []
    if p.longest_path_bonus:
        zero = " (even of length 0)" if rs.options.get("longest_path_at_zero") else ""
        rows.append(
            (
                p.longest_path_bonus_name,
                f"{counted(p.longest_path_bonus, 'point')} to every player with the longest "
                f"continuous path{zero}",
            )
        )
    if p.stations and p.unbuilt_station_points:
        rows.append(
            (
                "unbuilt_stations",
                f"{counted(p.unbuilt_station_points, 'point')} per station a player did not build",
            )
        )
    context = _empty_context(rs)
    for impl in _plugin_impls(rs, "ttr_final_bonuses"):
        doc = _first_paragraph(impl.function)
        kwargs = {"context": context} if "context" in impl.argnames else {}
        try:
            awarded: Any = impl.function(**kwargs)
            names = list(awarded or {})
        except Exception:  # a plugin that cannot score an empty position still has a doc
            names = []
        rows.append((", ".join(names) or "(named at scoring)", doc))
    return rows


def _plugin_impls(rs: Ruleset, hook: str) -> list[HookImpl]:
    """The implementations of ``hook`` that are not the core's, wrappers left out."""
    return [
        impl
        for impl in rs.hooks.implementations(hook)
        if impl.plugin is not core_plugin and not (impl.wrapper or impl.hookwrapper)
    ]


def _plugin_docs(rs: Ruleset, hook: str) -> list[str]:
    """The docstrings of the non-core implementations of ``hook``."""
    return [_first_paragraph(impl.function) for impl in _plugin_impls(rs, hook)]


def _first_paragraph(function: Any) -> str:
    doc = inspect.getdoc(function) or "(no description)"
    return " ".join(doc.split("\n\n", 1)[0].split())


def _empty_context(rs: Ruleset) -> ScoringContext:
    """A complete scoring context, as final scoring builds it, where no player holds anything."""
    seats = range(rs.params.players[0])
    position = Position(
        players=tuple(PlayerPosition(name=f"Player {i + 1}", routes=(), tickets=()) for i in seats)
    )
    return scoring_context(rs, position)


def _deal_text(deal: TicketDeal) -> str:
    """``deal 4 (1 long), keep at least 2, the rest leave the game``."""
    long = f" ({deal.long} long)" if deal.long else ""
    rest = "go under the deck" if deal.returned == "bottom" else "leave the game"
    return f"deal {deal.deal}{long}, keep at least {deal.keep}, the rest {rest}"
