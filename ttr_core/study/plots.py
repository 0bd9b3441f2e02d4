"""The figures of a balance report, drawn from the report with matplotlib, without a display.

matplotlib comes with the ``study`` extra and is imported only here, when figures are
drawn. Figures are made with matplotlib's object API (``Figure``), which needs no
display and touches no global state, and saved as SVG with a fixed hash salt and no
date, so the same report always gives the same files.

The page shows each figure at its own size (one point of the figure is 4/3 of a CSS
pixel), so titles are short, nothing is drawn outside the figure and legends sit outside
the axes; what a figure shows in detail is said in the page's caption under it.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

from ttr_core.model.errors import MissingExtraError
from ttr_core.model.extras import install_command
from ttr_core.study.stats import proportion

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

STUDY_INSTALL = install_command("study")
"""The command that installs what the figures need."""

BAR = "#3b6ea8"
"""The colour of bars."""
MARK = "#c8142f"
"""The colour of reference lines and of a second series."""
GRID = "#dddddd"
"""The colour of grid lines."""
SERIES = ("#3b6ea8", "#e08a1e", "#3a9a5b", "#c8142f", "#7b5ea7", "#8c564b", "#5f9ea0", "#b8860b")
"""The colours of the bots of the performance profile, in the order of the bots (cycled)."""
INCH_PER_BAR = 0.2
"""Height of one bar of a horizontal bar chart."""
INCH_PER_CHARACTER = 0.08
"""Width of a character of the labels of a vertical bar chart, with some room to spare."""
WIDE = 7.0
"""Width of the horizontal bar charts, in inches (672 CSS pixels)."""
LABEL_SIZE = 8
"""Font size of the labels of the bars of a horizontal bar chart."""
FONT_SIZE = 9
"""The font size of titles, axis labels and ticks, in points."""


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


@contextmanager
def _settings() -> Iterator[None]:
    """The matplotlib settings of every figure, while figures are drawn and saved."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "ttr-study", "font.size": FONT_SIZE}):
        yield


def draw_figures(report: dict[str, Any]) -> dict[str, Figure]:
    """The report's figures as matplotlib figures, by file name, in the order of the report
    (a figure with nothing to show is left out).

    :raises MissingExtraError: matplotlib is not installed.
    """
    check_plot_support()
    drawers: list[tuple[str, Callable[[dict[str, Any]], Figure | None]]] = [
        ("profile.svg", _profile),
        ("seats.svg", _seats),
        ("bots.svg", _bots),
        ("game-length.svg", _game_length),
        ("routes.svg", _routes),
        ("cities.svg", _cities),
        ("tickets.svg", _tickets),
        ("bonuses.svg", _bonuses),
    ]
    out = {}
    with _settings():
        for name, draw in drawers:
            figure = draw(report)
            if figure is not None:
                out[name] = figure
    return out


def figures(report: dict[str, Any]) -> dict[str, str]:
    """The report's figures as SVG text, by file name, in the order of the report.

    :raises MissingExtraError: matplotlib is not installed.
    """
    drawn = draw_figures(report)
    with _settings():
        return {name: _svg(figure) for name, figure in drawn.items()}


def _svg(figure: Figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _percent_axis(axes: Axes, which: Literal["x", "y"]) -> None:
    """Show the rates of ``which`` axis (``"x"`` or ``"y"``), from 0 to 1, as percentages."""
    from matplotlib.ticker import PercentFormatter

    axis = axes.xaxis if which == "x" else axes.yaxis
    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    if which == "x":
        axes.set_xlim(0, 1)
    else:
        axes.set_ylim(0, 1)
    axes.grid(axis=which, color=GRID, linewidth=0.6)
    axes.set_axisbelow(True)


def _interval_bars(
    axes: Axes, labels: Sequence[str], rows: Sequence[dict[str, Any]], *, color: str = BAR
) -> None:
    """Bars of ``rate`` with the 95 % interval ``low``..``high`` of each row."""
    rates = [row["rate"] for row in rows]
    below = [max(0.0, row["rate"] - row["low"]) for row in rows]
    above = [max(0.0, row["high"] - row["rate"]) for row in rows]
    axes.bar(labels, rates, color=color, yerr=[below, above], capsize=4, ecolor="#222222")
    _percent_axis(axes, "y")


def _seats(report: dict[str, Any]) -> Figure:
    """Win rate by seat; one panel per player count when the study has several."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    counts = report["seats"]["by_players"]
    several = len(counts) > 1
    width = sum(1.0 + 0.55 * c["players"] for c in counts) + 0.8 if several else 5.5
    figure = _figure(width, 3.4)
    panels = figure.subplots(1, len(counts), sharey=True, squeeze=False)[0]
    for axes, count in zip(panels, counts, strict=True):
        places = count["places"]
        labels = [f"{p['seat']}" + (" (starts)" if p["seat"] == 1 else "") for p in places]
        if several:
            labels = [f"{p['seat']}" for p in places]
        _interval_bars(axes, labels, places)
        expected = count["first_player"]["expected"]
        axes.axhline(expected, color=MARK, linestyle="--", linewidth=1)
        axes.set_xlabel("seat in turn order")
        axes.set_title(f"{count['players']} players" if several else "Win rate by seat")
    panels[0].set_ylabel("share of games won")
    if several:
        figure.suptitle("Win rate by seat (seat 1 starts)")
    figure.legend(
        handles=[
            Patch(color=BAR, label="win rate, 95 % interval"),
            Line2D([], [], color=MARK, linestyle="--", linewidth=1, label="no seat advantage"),
        ],
        loc="outside lower center",
        ncols=2,
        frameon=False,
    )
    return figure


def _profile(report: dict[str, Any]) -> Figure | None:
    """The performance profile: grouped bars, one group per player count and one bar per bot,
    with the 95 % interval of each win rate (left out with one bot, which wins every game)."""
    from matplotlib.patches import Patch

    profile = report["profile"]
    names = [b["bot"] for b in profile[0]["bots"]] if profile else []
    if len(names) < 2:
        return None
    figure = _figure(max(4.5, 1.0 + 0.3 * len(names) * len(profile)) + 1.6, 3.4)
    axes = figure.add_subplot()
    width = 0.8 / len(names)
    for k, name in enumerate(names):
        color = SERIES[k % len(SERIES)]
        rows = [next(b for b in c["bots"] if b["bot"] == name) for c in profile]
        positions = [i - 0.4 + width * (k + 0.5) for i in range(len(profile))]
        axes.bar(
            positions,
            [r["rate"] for r in rows],
            width=width,
            color=color,
            yerr=[
                [max(0.0, r["rate"] - r["low"]) for r in rows],
                [max(0.0, r["high"] - r["rate"]) for r in rows],
            ],
            capsize=2,
            ecolor="#222222",
            error_kw={"lw": 0.8},
        )
    axes.set_xticks(list(range(len(profile))), [str(c["players"]) for c in profile])
    _percent_axis(axes, "y")
    axes.set_xlabel("players")
    axes.set_ylabel("share of its seats won")
    axes.set_title("Win rate by player count")
    figure.legend(
        handles=[
            Patch(color=SERIES[k % len(SERIES)], label=_bot_label(name))
            for k, name in enumerate(names)
        ],
        loc="outside right upper",
        frameon=False,
    )
    return figure


def _bot_label(name: str) -> str:
    """A bot's name to put under its bar: a ``module:Class`` path on two lines."""
    module, colon, cls = name.rpartition(":")
    return f"{module}:\n{cls}" if colon and module else name


def _bot_width(labels: Sequence[str]) -> float:
    """Inches along the axis for each bot, enough for the longest line of its label."""
    longest = max(len(line) for label in labels for line in label.splitlines())
    return max(0.9, INCH_PER_CHARACTER * longest + 0.25)


def _bots(report: dict[str, Any]) -> Figure:
    """Scores of each bot; their win rates beside them when there are several bots (one bot
    wins every game, so its rate says only how many players there were)."""
    bots = report["bots"]
    names = [_bot_label(b["bot"]) for b in bots]
    several = len(bots) > 1
    panel = max(2.6, _bot_width(names) * len(bots) + 0.9)
    figure = _figure(2 * panel if several else panel + 0.6, 3.6)
    if several:
        rates, scores = figure.subplots(1, 2)
        _interval_bars(rates, names, bots)
        rates.set_ylabel("share of its seats won")
        rates.set_title("Win rate")
    else:
        scores = figure.add_subplot()
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
    scores.bxp(
        stats,
        positions=list(range(len(bots))),
        showmeans=True,
        medianprops={"color": MARK},
        meanprops={"marker": "^", "markerfacecolor": BAR, "markeredgecolor": BAR},
    )
    scores.set_xticks(list(range(len(bots))), names)
    scores.set_ylabel("final score")
    scores.set_title("Final scores")
    scores.grid(axis="y", color=GRID, linewidth=0.6)
    scores.set_axisbelow(True)
    return figure


def _game_length(report: dict[str, Any]) -> Figure | None:
    histogram = report["game_length"]["histogram"]
    if not histogram:
        return None
    figure = _figure(5.5, 3.0)
    axes = figure.add_subplot()
    axes.bar([h["turns"] for h in histogram], [h["games"] for h in histogram], color=BAR)
    axes.set_xlabel("turns (all players' turns together)")
    axes.set_ylabel("games")
    axes.set_title("Game length")
    axes.grid(axis="y", color=GRID, linewidth=0.6)
    axes.set_axisbelow(True)
    return figure


def _horizontal(
    values: Sequence[float],
    labels: Sequence[str],
    title: str,
    xlabel: str,
    *,
    intervals: Sequence[tuple[float, float]] | None = None,
) -> Figure | None:
    """A horizontal bar chart of rates, first value at the top, one bar per label, with the
    rate axis at the top and the bottom so that a long chart reads without scrolling back.

    ``intervals`` are the ``(low, high)`` 95 % interval of each value, drawn as error bars.
    """
    if not values:
        return None
    figure = _figure(WIDE, 1.2 + INCH_PER_BAR * len(values))
    axes = figure.add_subplot()
    positions = list(range(len(values)))
    error = None
    if intervals is not None:
        error = [
            [max(0.0, v - low) for v, (low, _) in zip(values, intervals, strict=True)],
            [max(0.0, high - v) for v, (_, high) in zip(values, intervals, strict=True)],
        ]
    axes.barh(positions, values, color=BAR, xerr=error, error_kw={"ecolor": "#111111", "lw": 0.9})
    axes.set_yticks(positions, labels, fontsize=LABEL_SIZE)
    axes.set_ylim(len(values) - 0.5, -0.5)
    _percent_axis(axes, "x")
    axes.tick_params(axis="x", top=True, labeltop=len(values) > 15)
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
        "Claim rate of each route",
        "games in which it was claimed",
    )


def _cities(report: dict[str, Any]) -> Figure | None:
    cities = report["cities"]
    return _horizontal(
        [c["share"] for c in cities],
        [c["city"] for c in cities],
        "City desirability",
        "players whose network holds the city",
    )


def ticket_label(ticket: dict[str, Any]) -> str:
    """A ticket in words: ``Boston – Miami (12)``, or a country ticket's targets."""
    if "to_any" in ticket:
        targets = "/".join(ticket["to_any"])
        return f"{ticket['from']} → {targets}"
    return f"{ticket['from']} – {ticket['to']} ({ticket['points']})"


def _tickets(report: dict[str, Any]) -> Figure | None:
    kept = [t for t in report["tickets"] if t["kept"]]
    kept.sort(key=lambda t: (-t["completion_rate"], -t["kept"]))
    rates = [proportion(t["completed"], t["kept"]) for t in kept]
    return _horizontal(
        [t["completion_rate"] for t in kept],
        [f"{ticket_label(t)}, kept {t['kept']}×" for t in kept],
        "Completion rate of each ticket kept",
        "times completed of the times kept",
        intervals=[(p.low, p.high) for p in rates],
    )


def _bonus_label(bonus: dict[str, Any], games: int) -> str:
    """A bonus and how many games it decided: ``longest path: 13 of 60 games``."""
    return f"{bonus['bonus'].replace('_', ' ')}: {bonus['games_decided']} of {games} games"


def _bonuses(report: dict[str, Any]) -> Figure | None:
    """How often each bonus decided the game, with its 95 % interval, the most decisive
    first."""
    bonuses = sorted(report["bonuses"], key=lambda b: -b["games_decided_share"])
    if not bonuses:
        return None
    games = report["study"]["games_measured"]
    return _horizontal(
        [b["games_decided_share"] for b in bonuses],
        [_bonus_label(b, games) for b in bonuses],
        "Games each bonus decided",
        "games whose winners would differ without the bonus",
        intervals=[(b["decided_low"], b["decided_high"]) for b in bonuses],
    )
