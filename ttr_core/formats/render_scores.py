"""The score sheet of a finished game, drawn as a panel of one block per player.

Each block is headed by the player's colour and name (and ``winner`` for the winners),
then lists the total, the points for routes, the tickets completed and failed with their
points, each ticket on its own line, and each bonus. The panel is laid out in columns
that fit a given width or height, so the map drawing can put it below or beside the
map without covering it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from attrs import frozen

from ttr_core.formats.render_geometry import text_width
from ttr_core.rules.scoring import PlayerScore, Scoresheet

_BOLD = 1.12
"""How much wider bold text runs than regular text."""


@frozen
class Row:
    """One line of a player's block: a text at the left and a number at the right."""

    text: str
    value: str = ""
    kind: str = "item"
    """``head`` (the player), ``total``, ``item`` or ``ticket``."""


@frozen
class ScoreStyle:
    """The sizes and colours the panel is drawn with."""

    font: float
    ink: str
    faint: str
    """The colour of the lesser lines (each ticket)."""
    swatch: float
    """The size of the colour square before a player's name."""


def player_rows(
    score: PlayerScore, heading: str, winner: bool, tickets: Mapping[int, str]
) -> list[Row]:
    """The lines of one player's block; ``tickets`` names each ticket by id."""
    done = [t for t in score.tickets if t.completed]
    failed = [t for t in score.tickets if not t.completed]
    rows = [
        Row(heading + (" — winner" if winner else ""), kind="head"),
        Row("total", str(score.total), kind="total"),
        Row("routes", _signed(score.route_points)),
        Row(f"tickets completed ({len(done)})", _signed(sum(t.points for t in done))),
    ]
    rows += [Row(tickets.get(t.ticket, f"ticket {t.ticket}"), _signed(t.points), "ticket")
             for t in done]  # fmt: skip
    rows.append(Row(f"tickets failed ({len(failed)})", _signed(sum(t.points for t in failed))))
    rows += [Row(tickets.get(t.ticket, f"ticket {t.ticket}"), _signed(t.points), "ticket")
             for t in failed]  # fmt: skip
    for name in sorted(score.bonuses):
        rows.append(Row(name.replace("_", " "), _signed(score.bonuses[name])))
    return rows


def draw_score_panel(
    parent: ET.Element,
    sheet: Scoresheet,
    headings: Sequence[str],
    colors: Sequence[str],
    tickets: Mapping[int, str],
    style: ScoreStyle,
    origin: tuple[float, float],
    *,
    across: float | None = None,
    down: float | None = None,
) -> tuple[float, float]:
    """Draw the panel of ``sheet`` from ``origin`` (its top left corner); return its width
    and height.

    The blocks go side by side while they fit in the width ``across``, in further rows
    below; or, with ``down`` instead, one under another while they fit in that height, in
    further columns to the right.
    """
    group = ET.SubElement(parent, "g", {"id": "scores"})
    ET.SubElement(group, "title").text = "final scores"
    blocks = [
        player_rows(score, headings[seat], seat in sheet.winners, tickets)
        for seat, score in enumerate(sheet.players)
    ]
    line = style.font * 1.45
    gap = style.font * 3
    sizes = [(_block_width(rows, style), line * len(rows)) for rows in blocks]
    x0, y0 = origin
    x, y = x0, y0
    width = height = 0.0
    lane = 0.0
    """The height of the current row of blocks (or the width of the current column)."""
    for seat, (rows, (w, h)) in enumerate(zip(blocks, sizes, strict=True)):
        if across is not None and x > x0 and x + w > x0 + across:
            x, y = x0, y + lane + gap
            lane = 0.0
        if down is not None and y > y0 and y + h > y0 + down:
            x, y = x + lane + gap, y0
            lane = 0.0
        block = ET.SubElement(group, "g", {"class": "player-score", "data-seat": str(seat)})
        _draw_block(block, rows, colors[seat], style, x, y, w)
        width, height = max(width, x + w - x0), max(height, y + h - y0)
        if across is not None or down is None:
            x += w + gap
            lane = max(lane, h)
        else:
            y += h + gap
            lane = max(lane, w)
    return width, height


def _block_width(rows: Sequence[Row], style: ScoreStyle) -> float:
    widest = 0.0
    for row in rows:
        size = style.font * (1.1 * _BOLD if row.kind == "head" else 1.0)
        extra = style.swatch * 1.5 if row.kind == "head" else 0.0
        room = text_width(row.text, size) + extra
        if row.value:
            room += style.font * 1.5 + text_width(row.value, style.font)
        widest = max(widest, room)
    return widest


def _draw_block(
    parent: ET.Element,
    rows: Sequence[Row],
    color: str,
    style: ScoreStyle,
    x: float,
    y: float,
    width: float,
) -> None:
    line = style.font * 1.45
    for i, row in enumerate(rows):
        baseline = y + line * i + style.font * 1.05
        left = x
        attrs = {"font-size": _n(style.font), "fill": style.ink}
        if row.kind == "head":
            side = style.swatch
            ET.SubElement(
                parent,
                "rect",
                {
                    "x": _n(x),
                    "y": _n(baseline - side * 0.85),
                    "width": _n(side),
                    "height": _n(side),
                    "fill": color,
                    "stroke": style.ink,
                    "stroke-width": _n(style.font * 0.08),
                },
            )
            left += side * 1.5
            attrs |= {"font-size": _n(style.font * 1.1), "font-weight": "bold"}
        elif row.kind == "total":
            attrs["font-weight"] = "bold"
        elif row.kind == "ticket":
            left += style.font
            attrs["fill"] = style.faint
        text = ET.SubElement(parent, "text", {"class": row.kind, "x": _n(left), "y": _n(baseline)})
        for key, value in attrs.items():
            text.set(key, value)
        text.text = row.text
        if row.value:
            number = {"class": "points", "x": _n(x + width), "y": _n(baseline)}
            number |= {"text-anchor": "end"} | attrs
            ET.SubElement(parent, "text", number).text = row.value


def _signed(points: int) -> str:
    """Points with their sign: ``+12``, ``−4`` (a minus sign), ``0``."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"\u2212{-points}"
    return "0"


def _n(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
