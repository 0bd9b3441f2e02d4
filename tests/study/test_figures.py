"""The figures of a balance report: what they show, and that they are laid out so that
nothing is cut off or hidden at the size the page shows them."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import BboxBase

from ttr_core import Ruleset
from ttr_core.study import GameStats, build_report, run_study
from ttr_core.study.page import report_page
from ttr_core.study.plots import draw_figures, figures
from ttr_core.study.stats import proportion

SMALLEST_FONT = 7
"""The smallest font size, in points, that a figure may use."""
SLACK = 0.5
"""Pixels by which an extent may pass the figure's edge (rounding of the renderer)."""


# -- hand-made games --------------------------------------------------------------------------


def made_up_game(
    rs: Ruleset,
    index: int,
    bots: tuple[str, ...],
    *,
    winners: tuple[int, ...],
    bonuses: tuple[tuple[str, tuple[int, ...]], ...],
    decided_by: tuple[str, ...],
) -> GameStats:
    """A game on ``rs`` in which seat 0 claimed the first track and kept the first two
    tickets, completing the first."""
    owners = [-1] * len(rs.map.routes)
    owners[0] = 0
    networks = [0] * len(rs.map.cities)
    networks[0] = 1
    tickets = rs.map.tickets
    players = len(bots)
    return GameStats(
        index=index,
        seed=500 + index,
        bots=bots,
        start=0,
        turns=30 + index,
        ended_by="final_round",
        totals=tuple(60 - 10 * s for s in range(players)),
        winners=winners,
        owners=tuple(owners),
        networks=tuple(networks),
        tickets=((tickets[0].id, True), (tickets[1].id, False)),
        bonuses=bonuses,
        decided_by=decided_by,
        stations=(0,) * players,
        stations_borrowing=0,
        tunnel_attempts=0,
        tunnel_extra=0,
        tunnels_withdrawn=0,
        passes=0,
        flushes=0,
        flush_limits=0,
        reshuffles=0,
        deck_exhausted=False,
    )


def bonus_games(rs: Ruleset, bots: tuple[str, ...]) -> list[GameStats]:
    """Four three-player games with two bonuses. ``longest_path`` goes to someone in every
    game and changes the winner in game 2 only. ``every_station`` gives each player the
    same 4 points in every game, so it is always won and never decides anything."""
    games = []
    for index in range(4):
        longest = (10, 0, 0) if index != 1 else (0, 10, 0)
        games.append(
            made_up_game(
                rs,
                index,
                bots,
                winners=(0,),
                bonuses=(("every_station", (4, 4, 4)), ("longest_path", longest)),
                decided_by=("longest_path",) if index == 2 else (),
            )
        )
    return games


def bonus_report(rs: Ruleset, bots: tuple[str, ...] = ("greedy",)) -> dict[str, Any]:
    """The report of the games of [`bonus_games`][] between ``bots``, three players each."""
    lineup = tuple(itertools.islice(itertools.cycle(bots), 3))
    games = bonus_games(rs, lineup)
    return build_report(rs, players=3, bots=list(bots), seed=1, outcomes=games)


def test_the_report_counts_the_games_a_bonus_decided_with_their_interval(fx: Ruleset) -> None:
    """A bonus always won (every player alike) decides no game; one that changed the
    winners once in four games has a decided share of 1/4 with its Wilson interval."""
    every, longest = bonus_report(fx)["bonuses"]
    assert every["bonus"] == "every_station"
    assert (every["games_won_share"], every["players_won_share"]) == (1.0, 1.0)
    assert (every["games_decided"], every["games_decided_share"]) == (0, 0.0)
    assert every["decided_low"] == 0.0
    assert every["decided_high"] == round(proportion(0, 4).high, 6)
    assert longest["games_won_share"] == 1.0
    assert (longest["games_decided"], longest["games_decided_share"]) == (1, 0.25)
    interval = proportion(1, 4)
    assert (longest["decided_low"], longest["decided_high"]) == (
        round(interval.low, 6),
        round(interval.high, 6),
    )
    assert longest["decided_low"] < 0.25 < longest["decided_high"]


def test_the_bonus_figure_shows_the_games_each_bonus_decided_not_how_often_it_was_won(
    fx: Ruleset,
) -> None:
    """The bars are the decided shares, the most decisive first; labels count the games."""
    (axes,) = draw_figures(bonus_report(fx))["bonuses.svg"].axes
    bars = [patch.get_width() for patch in axes.patches if isinstance(patch, Rectangle)]
    assert bars == [0.25, 0.0]
    labels = [label.get_text() for label in axes.get_yticklabels()]
    assert labels == ["longest path: 1 of 4 games", "every station: 0 of 4 games"]
    assert axes.get_legend() is None


def test_one_bot_has_only_its_scores_drawn_several_have_their_win_rates_too(
    fx: Ruleset,
) -> None:
    """With one bot in every seat its win rate only says how many players there were."""
    one = draw_figures(bonus_report(fx))["bots.svg"]
    assert [a.get_title() for a in one.axes] == ["Final scores"]
    several = draw_figures(bonus_report(fx, ("greedy", "random")))["bots.svg"]
    assert [a.get_title() for a in several.axes] == ["Win rate", "Final scores"]


@pytest.mark.slow
def test_each_figure_of_the_page_has_a_caption(fx: Ruleset) -> None:
    report = bonus_report(fx)
    drawn = figures(report)
    page = report_page(report, drawn, None, "no map")
    assert page.count("<figure>") == page.count("<figcaption>") == len(drawn)
    assert "decided" in page.split("<h2>Bonuses</h2>")[1].split("</figcaption>")[0]


# -- the layout of every figure ---------------------------------------------------------------


def _texts(figure: Figure) -> list[Text]:
    """The texts a drawn figure shows: titles, labels, legends and the labels of the ticks
    inside the axes' view (matplotlib keeps, without drawing them, labels of ticks beyond
    it)."""
    ticks: list[Text] = []
    hidden: set[int] = set()
    for axes in figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            low, high = sorted(axis.get_view_interval())
            room = (high - low) * 1e-9
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                labels = (tick.label1, tick.label2)
                if low - room <= tick.get_loc() <= high + room:
                    ticks += [label for label in labels if label.get_visible()]
                else:
                    hidden.update(id(label) for label in labels)
    found = figure.findobj(lambda a: isinstance(a, Text) and a.get_visible())
    texts = [t for t in found if isinstance(t, Text) and id(t) not in hidden]
    texts += [t for t in ticks if t not in texts]
    return [t for t in texts if t.get_text().strip()]


def _inside(inner: BboxBase, outer: BboxBase) -> bool:
    return (
        inner.x0 >= outer.x0 - SLACK
        and inner.y0 >= outer.y0 - SLACK
        and inner.x1 <= outer.x1 + SLACK
        and inner.y1 <= outer.y1 + SLACK
    )


def _overlap(one: BboxBase, two: BboxBase) -> bool:
    """Whether two boxes share more than the renderer's slack."""
    width = min(one.x1, two.x1) - max(one.x0, two.x0)
    height = min(one.y1, two.y1) - max(one.y0, two.y0)
    return width > SLACK and height > SLACK


def layout_problems(figure: Figure) -> list[str]:
    """What is wrong with the layout of a drawn figure: a text outside the figure (cut
    off), two texts over each other, a text too small to read, a legend outside the
    figure or over the data of an axes."""
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    edge = figure.bbox
    problems = []
    texts = _texts(figure)
    extents = [t.get_window_extent(renderer) for t in texts]
    for text, extent in zip(texts, extents, strict=True):
        if not _inside(extent, edge):
            problems.append(f"{text.get_text()!r} is cut off ({extent} outside {edge})")
        size = text.get_fontsize()
        if isinstance(size, (int, float)) and size < SMALLEST_FONT:
            problems.append(f"{text.get_text()!r} is too small ({size} pt)")
    for (one, a), (two, b) in itertools.combinations(zip(texts, extents, strict=True), 2):
        if _overlap(a, b):
            problems.append(f"{one.get_text()!r} overlaps {two.get_text()!r}")
    legends = list(figure.legends)
    legends += [legend for a in figure.axes if (legend := a.get_legend()) is not None]
    for legend in legends:
        box = legend.get_window_extent(renderer)
        if not _inside(box, edge):
            problems.append(f"a legend is cut off ({box} outside {edge})")
        for axes in figure.axes:
            if _overlap(box, axes.get_window_extent(renderer)):
                problems.append(f"a legend lies over the data of {axes.get_title()!r}")
    return problems


def test_the_layout_check_finds_a_cut_title_and_a_legend_over_the_data() -> None:
    """The check itself: a title wider than its figure and a legend inside the axes."""
    figure = Figure(figsize=(3, 2), layout="constrained")
    axes = figure.add_subplot()
    axes.bar([0, 1], [1, 2], label="bars")
    axes.set_title("A title much too long for a figure three inches wide, cut at both ends")
    axes.legend(loc="upper left")
    problems = layout_problems(figure)
    assert any("is cut off" in p for p in problems)
    assert any("legend lies over the data" in p for p in problems)


@pytest.mark.slow
def test_the_figures_of_a_hand_made_report_are_laid_out_whole(fx: Ruleset) -> None:
    drawn = draw_figures(bonus_report(fx, ("greedy", "random", "mybots:CarefulPlanner")))
    assert set(drawn) == {
        "profile.svg",
        "seats.svg",
        "bots.svg",
        "game-length.svg",
        "routes.svg",
        "cities.svg",
        "tickets.svg",
        "bonuses.svg",
    }
    for name, figure in drawn.items():
        assert layout_problems(figure) == [], name


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["usa", "europe", "india", "switzerland", "nordic"])
def test_every_figure_of_every_edition_is_laid_out_whole(edition: str) -> None:
    """A short study of each built-in edition, with its longest route and ticket names."""
    rs = Ruleset.build(edition)
    players = 3  # every built-in edition is played by three
    bots = ["greedy", "random"]
    outcomes = list(run_study(rs, players=players, bots=bots, games=2, seed=4))
    report = build_report(rs, players=players, bots=bots, seed=4, outcomes=outcomes)
    drawn = draw_figures(report)
    assert len(drawn) == 8
    for name, figure in drawn.items():
        assert layout_problems(figure) == [], name
