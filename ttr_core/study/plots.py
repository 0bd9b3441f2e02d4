"""The figures of a balance report, drawn from the report with matplotlib, without a display.

matplotlib comes with the ``study`` extra and is imported only here, when figures are
drawn. Figures are made with matplotlib's object API (``Figure``), which needs no
display and touches no global state, and saved as SVG with a fixed hash salt and no
date, so the same report always gives the same files.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ttr_core.model.errors import MissingExtraError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

STUDY_INSTALL = 'pip install "ttr-engine[study]"'
"""The command that installs what the figures need."""

BAR = "#3b6ea8"
"""The colour of bars."""
MARK = "#c8142f"
"""The colour of reference lines and of a second series."""
INCH_PER_BAR = 0.2
"""Height of one bar of a horizontal bar chart."""


def check_plot_support() -> None:
    """Check that matplotlib can be imported.

    :raises MissingExtraError: it is not installed; the message gives the pip command.
    """
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        raise MissingExtraError(
            f"the figures of a study need matplotlib: {STUDY_INSTALL}"
        ) from None


def figures(report: dict[str, Any]) -> dict[str, str]:
    """The report's figures as SVG text, by file name, in the order of the report."""
    check_plot_support()
    import matplotlib

    drawers: list[tuple[str, Callable[[dict[str, Any]], Figure | None]]] = [
        ("seats.svg", _seats),
        ("bots.svg", _bots),
        ("game-length.svg", _game_length),
        ("routes.svg", _routes),
        ("cities.svg", _cities),
        ("tickets.svg", _tickets),
        ("bonuses.svg", _bonuses),
    ]
    out = {}
    with matplotlib.rc_context({"svg.hashsalt": "ttr-study", "font.size": 9}):
        for name, draw in drawers:
            figure = draw(report)
            if figure is not None:
                out[name] = _svg(figure)
    return out


def _svg(figure: Figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _interval_bars(
    axes: Axes, labels: Sequence[str], rows: Sequence[dict[str, Any]], *, color: str = BAR
) -> None:
    """Bars of ``rate`` with the 95 % interval ``low``..``high`` of each row."""
    rates = [row["rate"] for row in rows]
    below = [row["rate"] - row["low"] for row in rows]
    above = [row["high"] - row["rate"] for row in rows]
    axes.bar(labels, rates, color=color, yerr=[below, above], capsize=4, ecolor="#222222")
    axes.set_ylim(0, 1)


def _seats(report: dict[str, Any]) -> Figure:
    seats = report["seats"]
    places = seats["places"]
    figure = _figure(5.5, 3.2)
    axes = figure.add_subplot()
    labels = [f"{p['seat']}" + (" (starts)" if p["seat"] == 1 else "") for p in places]
    _interval_bars(axes, labels, places)
    axes.axhline(seats["first_player"]["expected"], color=MARK, linestyle="--", linewidth=1)
    axes.set_xlabel("seat in turn order")
    axes.set_ylabel("win rate")
    axes.set_title("Win rate by seat, with 95 % intervals (dashed: no seat advantage)")
    return figure


def _bots(report: dict[str, Any]) -> Figure:
    bots = report["bots"]
    names = [b["bot"] for b in bots]
    figure = _figure(max(5.5, 1.4 * len(bots) + 3), 3.2)
    rates, scores = figure.subplots(1, 2)
    _interval_bars(rates, names, bots)
    rates.set_ylabel("share of seats that won")
    rates.set_title("Win rate, with 95 % intervals")
    stats = [
        {
            "label": b["bot"],
            "med": b["scores"]["median"],
            "q1": b["scores"]["q1"],
            "q3": b["scores"]["q3"],
            "whislo": b["scores"]["min"],
            "whishi": b["scores"]["max"],
            "mean": b["scores"]["mean"],
            "fliers": [],
        }
        for b in bots
    ]
    scores.bxp(stats, showmeans=True)
    scores.set_ylabel("final score")
    scores.set_title("Scores: quartiles, mean (triangle), range")
    return figure


def _game_length(report: dict[str, Any]) -> Figure | None:
    histogram = report["game_length"]["histogram"]
    if not histogram:
        return None
    figure = _figure(5.5, 3.0)
    axes = figure.add_subplot()
    axes.bar([h["turns"] for h in histogram], [h["games"] for h in histogram], color=BAR)
    axes.set_xlabel("turns")
    axes.set_ylabel("games")
    axes.set_title("Game length")
    return figure


def _horizontal(
    values: Sequence[float], labels: Sequence[str], title: str, xlabel: str
) -> Figure | None:
    """A horizontal bar chart, first value at the top, one bar per label."""
    if not values:
        return None
    figure = _figure(6.5, 0.9 + INCH_PER_BAR * len(values))
    axes = figure.add_subplot()
    positions = list(range(len(values)))
    axes.barh(positions, values, color=BAR)
    axes.set_yticks(positions, labels, fontsize=7)
    axes.invert_yaxis()
    axes.set_ylim(len(values) - 0.5, -0.5)
    axes.set_xlim(0, 1)
    axes.set_xlabel(xlabel)
    axes.set_title(title)
    return figure


def _route_label(route: dict[str, Any]) -> str:
    kinds = {t["color"] for t in route["tracks"]}
    marks = ""
    if any(t["tunnel"] for t in route["tracks"]):
        marks += ", tunnel"
    if any(t["ferry"] for t in route["tracks"]):
        marks += ", ferry"
    double = " ×2" if len(route["tracks"]) > 1 else ""
    return (
        f"{route['cities'][0]} – {route['cities'][1]} "
        f"({route['length']}, {'/'.join(sorted(kinds))}{double}{marks})"
    )


def _routes(report: dict[str, Any]) -> Figure | None:
    routes = sorted(report["routes"], key=lambda r: -r["rate"])
    return _horizontal(
        [r["rate"] for r in routes],
        [_route_label(r) for r in routes],
        "How often each route is claimed (a double route: either track)",
        "share of games",
    )


def _cities(report: dict[str, Any]) -> Figure | None:
    cities = report["cities"]
    return _horizontal(
        [c["share"] for c in cities],
        [c["city"] for c in cities],
        "City desirability: how often a city is part of a player's network",
        "share of players",
    )


def ticket_label(ticket: dict[str, Any]) -> str:
    """A ticket in words: ``Boston – Miami (12)``, or a country ticket's targets."""
    if "to_any" in ticket:
        targets = "/".join(ticket["to_any"])
        return f"{ticket['from']} → {targets}"
    return f"{ticket['from']} – {ticket['to']} ({ticket['points']})"


def _tickets(report: dict[str, Any]) -> Figure | None:
    kept = [t for t in report["tickets"] if t["kept"]]
    kept.sort(key=lambda t: -t["completion_rate"])
    return _horizontal(
        [t["completion_rate"] for t in kept],
        [f"{ticket_label(t)}, kept {t['kept']}×" for t in kept],
        "Completion rate of each ticket kept",
        "share of the times it was kept",
    )


def _bonuses(report: dict[str, Any]) -> Figure | None:
    bonuses = report["bonuses"]
    if not bonuses:
        return None
    figure = _figure(max(4.5, 1.6 * len(bonuses) + 2), 3.0)
    axes = figure.add_subplot()
    positions = list(range(len(bonuses)))
    width = 0.38
    axes.bar(
        [p - width / 2 for p in positions],
        [b["games_won_share"] for b in bonuses],
        width,
        color=BAR,
        label="games in which a player won it",
    )
    axes.bar(
        [p + width / 2 for p in positions],
        [b["games_decided_share"] for b in bonuses],
        width,
        color=MARK,
        label="games it decided",
    )
    axes.set_xticks(positions, [b["bonus"] for b in bonuses])
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of games")
    axes.set_title("Bonuses")
    axes.legend(loc="upper right")
    return figure
