"""The default study (the play styles at every player count), its seating schedule and the
performance profile of the report."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from test_figures import layout_problems  # this directory is on the path of the tests

from ttr_core import Ruleset
from ttr_core.batch.runs import game_seed, start_seat
from ttr_core.bots.registry import PLAY_STYLES
from ttr_core.cli import build_parser, main
from ttr_core.study import GameStats, StudyPlan, build_report, player_counts
from ttr_core.study.games import seating_block, split_games
from ttr_core.study.page import report_page
from ttr_core.study.plots import draw_figures
from ttr_core.study.stats import proportion

# -- the defaults ------------------------------------------------------------------------------


def test_study_plays_the_play_styles_at_every_player_count_by_default() -> None:
    args = build_parser().parse_args(["study", "usa", "--out", "somewhere"])
    assert args.bots == ",".join(PLAY_STYLES) == "tickets,long-routes,planner,lookahead"
    assert args.players is None
    assert player_counts(Ruleset.build("usa"), None) == (2, 3, 4, 5)
    assert player_counts(Ruleset.build("switzerland"), None) == (2, 3)
    assert player_counts(Ruleset.build("usa"), 3) == (3,)


def test_the_games_are_split_evenly_the_remainder_to_the_smaller_counts() -> None:
    assert split_games(10, (2, 3, 4, 5)) == (3, 3, 2, 2)
    assert split_games(24, (2, 3)) == (12, 12)
    assert split_games(1, (2, 3)) == (1, 0)
    plan = StudyPlan.of(Ruleset.build("usa"), (2, 3, 4, 5), PLAY_STYLES, 10)
    assert plan.counts == ((2, 3), (3, 3), (4, 2), (5, 2))
    assert [plan.players_of(i) for i in (0, 2, 3, 6, 9)] == [(2, 0), (2, 2), (3, 0), (4, 0), (5, 1)]
    with pytest.raises(IndexError):
        plan.players_of(10)


# -- the seating schedule -----------------------------------------------------------------------


def _in_turn_order(plan: StudyPlan, index: int) -> tuple[str, ...]:
    """The bots of game ``index`` from the start player on (seed 1 of the study)."""
    seed = game_seed(1, index)
    seating = plan.seating(index, seed)
    start = start_seat(seed, len(seating))
    return tuple(seating[(start + q) % len(seating)] for q in range(len(seating)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_over_a_block_every_style_meets_every_other_and_plays_every_seat_equally(
    players: int,
) -> None:
    """With more styles than seats every combination plays in turn, rotated; with as many
    seats as styles they rotate. Checked over the second block, so that the schedule
    repeats rather than merely starts well."""
    block = seating_block(len(PLAY_STYLES), players)
    assert block == {2: 12, 3: 12, 4: 4}[players]
    plan = StudyPlan.of(Ruleset.build("usa"), players, PLAY_STYLES, 2 * block)
    meetings: dict[frozenset[str], int] = {}
    places: dict[tuple[str, int], int] = {}
    for index in range(block, 2 * block):
        order = _in_turn_order(plan, index)
        assert len(set(order)) == players
        for pair in itertools.combinations(order, 2):
            meetings[frozenset(pair)] = meetings.get(frozenset(pair), 0) + 1
        for q, bot in enumerate(order):
            places[bot, q] = places.get((bot, q), 0) + 1
    assert len(meetings) == 6 and len(set(meetings.values())) == 1
    assert len(places) == len(PLAY_STYLES) * players and len(set(places.values())) == 1


def test_a_game_is_seated_by_its_number_in_its_count_not_by_the_whole_study() -> None:
    """Game 12 of a 2-3 player study of 24 is the first 3-player game: seated like game 0
    of a 3-player study."""
    rs = Ruleset.build("switzerland")
    mixed = StudyPlan.of(rs, (2, 3), PLAY_STYLES, 24)
    alone = StudyPlan.of(rs, 3, PLAY_STYLES, 12)
    seed = game_seed(1, 12)
    assert mixed.seating(12, seed) == alone.seating(0, seed)


# -- the profile --------------------------------------------------------------------------------


def _game(rs: Ruleset, index: int, bots: tuple[str, ...], winner: int) -> GameStats:
    """A made-up game with seat 0 starting; seat ``s`` scores ``10 * (s + 1)``."""
    players = len(bots)
    return GameStats(
        index=index,
        seed=700 + index,
        bots=bots,
        start=0,
        turns=20,
        ended_by="final_round",
        totals=tuple(10 * (s + 1) for s in range(players)),
        winners=(winner,),
        owners=(-1,) * len(rs.map.routes),
        networks=(0,) * len(rs.map.cities),
        tickets=(),
        bonuses=(),
        decided_by=(),
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


def _mixed_report(rs: Ruleset) -> dict[str, Any]:
    """Two 2-player and two 3-player games between bots a, b and c."""
    games = [
        _game(rs, 0, ("a", "b"), 0),
        _game(rs, 1, ("b", "a"), 0),
        _game(rs, 2, ("a", "b", "c"), 2),
        _game(rs, 3, ("c", "a", "b"), 1),
    ]
    return build_report(rs, players=None, bots=["a", "b", "c"], seed=1, outcomes=games)


def test_the_profile_gives_each_bot_its_win_rate_and_mean_score_per_player_count() -> None:
    report = _mixed_report(Ruleset.build("switzerland"))
    two, three = report["profile"]
    assert (two["players"], two["games"], two["leader"]) == (2, 2, "a")
    a, b, c = two["bots"]
    assert (a["bot"], a["games"], a["seats"], a["wins"], a["rate"]) == ("a", 2, 2, 1, 0.5)
    assert a["mean_score"] == 15.0 and b["mean_score"] == 15.0
    assert (c["games"], c["seats"], c["wins"], c["rate"]) == (0, 0, 0, 0.0)
    interval = proportion(1, 2)
    assert (a["low"], a["high"]) == (round(interval.low, 6), round(interval.high, 6))
    assert (three["players"], three["games"]) == (3, 2)
    a, b, c = three["bots"]
    assert [(r["wins"], r["seats"]) for r in (a, b, c)] == [(1, 2), (0, 2), (1, 2)]
    assert (a["mean_score"], b["mean_score"], c["mean_score"]) == (15.0, 25.0, 20.0)
    assert three["leader"] == "a"  # a tie with c goes to the bot given first


def test_a_mixed_report_gives_the_seats_per_player_count() -> None:
    """Seat 3 exists only in the 3-player games; the start player is tested per count."""
    report = _mixed_report(Ruleset.build("switzerland"))
    assert report["study"]["players"] is None
    assert report["study"]["player_counts"] == [
        {"players": 2, "games": 2},
        {"players": 3, "games": 2},
    ]
    seats = report["seats"]
    assert seats["first_player"] is None
    assert [(p["seat"], p["wins"], p["games"]) for p in seats["places"]] == [
        (1, 2, 4),
        (2, 1, 4),
        (3, 1, 2),
    ]
    two, three = seats["by_players"]
    assert [p["wins"] for p in two["places"]] == [2, 0]
    assert two["first_player"]["expected"] == 0.5
    assert [p["wins"] for p in three["places"]] == [0, 1, 1]


@pytest.mark.slow
def test_a_mixed_report_has_a_profile_figure_and_a_seat_panel_per_count_laid_out_whole() -> None:
    report = _mixed_report(Ruleset.build("switzerland"))
    drawn = draw_figures(report)
    assert [a.get_title() for a in drawn["seats.svg"].axes] == ["2 players", "3 players"]
    (axes,) = drawn["profile.svg"].axes
    assert [t.get_text() for t in axes.get_xticklabels()] == ["2", "3"]
    for name, figure in drawn.items():
        assert layout_problems(figure) == [], name
    page = report_page(report, {}, None, "no map")
    assert "<h2>Performance profile</h2>" in page
    assert "The highest win rate: a at 2 players (50.0 %); a at 3 players (50.0 %)." in page


# -- the default study, end to end --------------------------------------------------------------


@pytest.mark.slow
def test_a_default_study_of_switzerland_plays_the_styles_at_2_and_3_players(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "report"
    assert main(["study", "switzerland", "--games", "24", "--jobs", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(
        "switzerland: 24 games, 2–3 players, bots tickets,long-routes,planner,lookahead, seed 1\n"
    )
    assert "win rates at 2 players: tickets " in printed
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [c["players"] for c in report["profile"]] == [2, 3]
    for count, seats in zip(report["profile"], (6, 9), strict=True):
        assert [b["bot"] for b in count["bots"]] == list(PLAY_STYLES)
        assert [b["seats"] for b in count["bots"]] == [seats] * 4  # 12 games, styles equal
        assert sum(b["wins"] for b in count["bots"]) >= 12
    assert (out / "profile.svg").exists()
    assert "Performance profile" in (out / "report.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_default_study_gives_the_same_report_on_two_processes(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    args = ["study", "switzerland", "--games", "12", "--seed", "3"]
    assert main([*args, "--jobs", "1", "--out", str(one)]) == 0
    assert main([*args, "--jobs", "2", "--out", str(two)]) == 0
    assert (one / "report.json").read_bytes() == (two / "report.json").read_bytes()
