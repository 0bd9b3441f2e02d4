"""The balance report: its statistics, the seat rotation, what is measured in each game,
the report built from the games, the files written and the ``ttr study`` command."""

from __future__ import annotations

import importlib.util
import json
import shlex
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from ttr_core import Ruleset
from ttr_core.batch.runs import game_seed, play_game, start_seat
from ttr_core.bots import BaseBot
from ttr_core.cli import build_parser, main
from ttr_core.model.actions import Action, DrawBlind, TakeFaceUp
from ttr_core.model.cards import LOCO
from ttr_core.model.errors import MissingExtraError
from ttr_core.model.events import DisplayFlushed, LocomotivesRemain, Passed, RouteClaimed, Shuffled
from ttr_core.model.extras import install_command
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerScore, Scoresheet
from ttr_core.rules.views import PlayerView
from ttr_core.study import GameStats, StudyPlan, build_report, run_study, write_report
from ttr_core.study.games import _EventCounts, decided_by, measure
from ttr_core.study.plots import check_plot_support
from ttr_core.study.report import route_groups
from ttr_core.study.stats import binomial_test, distribution, proportion

# -- statistics ---------------------------------------------------------------------------


def test_wilson_interval_of_a_proportion() -> None:
    p = proportion(30, 100)
    assert p.rate == 0.3
    assert (round(p.low, 4), round(p.high, 4)) == (0.2189, 0.3958)
    none = proportion(0, 20)
    assert none.low == 0.0 and 0.16 < none.high < 0.17
    assert proportion(0, 0) == proportion(0, 0).__class__(0, 0, 0.0, 0.0, 1.0)


@pytest.mark.parametrize(
    ("k", "n", "p", "expected"),
    [(30, 100, 0.25, 0.2491), (7, 20, 0.5, 0.2632), (0, 10, 0.5, 0.0020), (5, 20, 0.25, 1.0)],
)
def test_exact_binomial_test(k: int, n: int, p: float, expected: float) -> None:
    assert round(binomial_test(k, n, p), 4) == expected


def test_distribution_summary() -> None:
    d = distribution([5, 1, 3, 2, 4])
    assert (d.count, d.mean, d.min, d.q1, d.median, d.q3, d.max) == (5, 3, 1, 2, 3, 4, 5)
    assert distribution([]).count == 0 and distribution([7]).median == 7


# -- seats rotate --------------------------------------------------------------------------


def test_bots_move_one_seat_along_the_turn_order_each_game() -> None:
    plan = StudyPlan("usa", (), ("a", "b", "c"), ((3, 3),))
    places: dict[str, set[int]] = {"a": set(), "b": set(), "c": set()}
    for i in range(3):
        seed = game_seed(1, i)
        start = start_seat(seed, 3)
        seating = plan.seating(i, seed)
        in_turn_order = [seating[(start + q) % 3] for q in range(3)]
        assert in_turn_order == ["abc"[(q - i) % 3] for q in range(3)]
        for q, bot in enumerate(in_turn_order):
            places[bot].add(q)
    assert all(seen == {0, 1, 2} for seen in places.values())


def test_the_start_seat_is_the_one_games_are_played_with(usa: Ruleset) -> None:
    for seed in (1, 2, 3):
        record = play_game(usa, ("greedy", "greedy"), seed, record=True).record
        assert record is not None and record.start_player == start_seat(seed, 2)


# -- what is measured in a game --------------------------------------------------------------


class Hoarder(BaseBot):
    """Takes coloured face-up cards or draws blind whenever it can; keeps every ticket."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        for action in legal:  # face-up cards come first, then the blind draw
            if isinstance(action, TakeFaceUp):
                if action.card != LOCO:
                    return action
                continue
            if isinstance(action, DrawBlind):
                return action
            break
        return legal[0]


def test_a_game_is_measured_from_its_record(usa: Ruleset) -> None:
    bots = ("greedy", "random", "greedy")
    result = play_game(usa, bots, 11, record=True)
    assert result.record is not None
    stats = measure(usa, 0, bots, result.record)
    assert stats.totals == tuple(p.total for p in result.players)
    claimed = {
        index_of(usa).route_index[e.route]: e.player
        for entry in result.record.log
        for e in entry.events
        if isinstance(e, RouteClaimed)
    }
    assert {r: o for r, o in enumerate(stats.owners) if o >= 0} == claimed
    ends = {c for r in claimed for c in (index_of(usa).route_a[r], index_of(usa).route_b[r])}
    assert {c for c, n in enumerate(stats.networks) if n} == ends
    assert len(stats.tickets) == sum(len(p.tickets) for p in stats_players(usa, result))
    assert stats.passes == 0 and stats.ended_by == "final_round"


def stats_players(rs: Ruleset, result: Any) -> Any:
    from ttr_core import Game

    return Game.replay(result.record).state.players


def test_hoarding_exhausts_the_deck_and_reaches_the_flush_limit(usa: Ruleset) -> None:
    """Cards that are only ever taken leave the deck and discard pile empty (DECK-3), and
    locomotives left on display pile up until the flush limit keeps them (FLUSH-3)."""
    (stats,) = run_study(usa, players=2, bots=[f"{__name__}:Hoarder"], games=1, seed=1)
    assert isinstance(stats, GameStats)
    assert stats.deck_exhausted
    assert stats.flush_limits > 0 and stats.flushes >= 3 * stats.flush_limits
    assert stats.reshuffles > 0


def test_passes_flushes_and_reshuffles_are_counted() -> None:
    counts = _EventCounts()
    counts.add(
        [
            Passed(player=0),
            Passed(player=1),
            DisplayFlushed(cards=(8, 8, 8, 1, 2)),
            LocomotivesRemain(locomotives=3),
            Shuffled(pile="train", reason="reshuffle", order=(1, 2)),
            Shuffled(pile="train", reason="setup", order=(1, 2)),
        ]
    )
    assert (counts.passes, counts.flushes, counts.flush_limits, counts.reshuffles) == (2, 1, 1, 1)


def score(name: str, total: int, bonuses: dict[str, int], completed: int = 0) -> PlayerScore:
    return PlayerScore(
        name=name,
        total=total,
        route_points=total - sum(bonuses.values()),
        ticket_points=0,
        tickets=(),
        tickets_completed=completed,
        longest_path=0,
        bonuses=bonuses,
    )


def test_a_bonus_decides_a_game_when_the_winners_would_differ_without_it(usa: Ruleset) -> None:
    sheet = Scoresheet(
        edition="usa",
        players=(
            score("A", 50, {"longest_path": 10}),
            score("B", 45, {"longest_path": 0}),
        ),
        winners=(0,),
    )
    assert decided_by(usa, sheet) == ("longest_path",)
    clear = Scoresheet(
        edition="usa",
        players=(score("A", 70, {"longest_path": 10}), score("B", 45, {"longest_path": 0})),
        winners=(0,),
    )
    assert decided_by(usa, clear) == ()
    # A tie settled by the longest-path tie-breaker (TIE-2 first: equal tickets).
    tied = Scoresheet(
        edition="usa",
        players=(score("A", 50, {"longest_path": 10}), score("B", 50, {"longest_path": 0})),
        winners=(0,),
    )
    assert decided_by(usa, tied) == ("longest_path",)


# -- the report from the games ----------------------------------------------------------------


def game(
    rs: Ruleset,
    index: int,
    start: int,
    winners: tuple[int, ...],
    *,
    passes: int = 0,
    deck: bool = False,
) -> GameStats:
    """A made-up two-player game on the USA map in which seat 0 claimed track 0."""
    owners = [-1] * len(index_of(rs).routes)
    owners[0] = 0
    networks = [0] * len(index_of(rs).city_ids)
    networks[index_of(rs).route_a[0]] = networks[index_of(rs).route_b[0]] = 1
    return GameStats(
        index=index,
        seed=100 + index,
        bots=("greedy", "random") if index % 2 == 0 else ("random", "greedy"),
        start=start,
        turns=40 + index,
        ended_by="deadlock" if passes else "final_round",
        totals=(60, 50),
        winners=winners,
        owners=tuple(owners),
        networks=tuple(networks),
        tickets=((index_of(rs).ticket_ids[0], True), (index_of(rs).ticket_ids[1], False)),
        bonuses=(("longest_path", (10, 0)),),
        decided_by=("longest_path",) if index == 0 else (),
        stations=(0, 0),
        stations_borrowing=0,
        tunnel_attempts=0,
        tunnel_extra=0,
        tunnels_withdrawn=0,
        passes=passes,
        flushes=1,
        flush_limits=0,
        reshuffles=2,
        deck_exhausted=deck,
    )


def test_the_report_sums_up_the_games(usa: Ruleset) -> None:
    from ttr_core.batch.parallel import GameFailure

    games: list[Any] = [
        game(usa, 0, 0, (0,)),
        game(usa, 1, 1, (1,), passes=2),
        game(usa, 2, 1, (0,), deck=True),
        GameFailure(3, 103, "the game with seed 103 failed: boom"),
    ]
    report = build_report(usa, players=2, bots=["greedy", "random"], seed=1, outcomes=games)
    assert report["study"]["games"] == 4 and report["study"]["games_measured"] == 3
    assert report["failed_games"] == [{"seed": 103, "message": games[3].message}]
    places = report["seats"]["places"]
    assert [p["wins"] for p in places] == [2, 1]  # the start player won games 0 and 1
    assert report["seats"]["first_player"]["expected"] == 0.5
    greedy, random = report["bots"]
    assert (greedy["bot"], greedy["seat_games"], greedy["wins"]) == ("greedy", 3, 3)
    assert (random["wins"], random["scores"]["mean"]) == (0, round((50 + 60 + 50) / 3, 6))
    assert report["game_length"]["ended_by"] == {"deadlock": 1, "final_round": 2}
    first_route = report["routes"][0]
    assert first_route["claimed"] == 3 and first_route["rate"] == 1.0
    assert len(report["never_claimed"]) == len(route_groups(usa)) - 1
    assert [r["claimed"] for r in report["least_claimed"]] == [0] * 5
    top = report["cities"][0]
    assert top["networks"] == 3 and top["share"] == 0.5
    t0, t1 = report["tickets"][:2]
    assert (t0["kept"], t0["completed"], t0["completion_rate"]) == (3, 3, 1.0)
    assert (t1["kept"], t1["completed"], t1["completion_rate"]) == (3, 0, 0.0)
    assert report["tickets"][2]["completion_rate"] is None
    (bonus,) = report["bonuses"]
    assert (bonus["games_won"], bonus["games_decided"]) == (3, 1)
    assert bonus["games_decided_share"] == round(1 / 3, 6)
    states = report["failure_states"]
    assert states["no_legal_move"]["games"] == states["deadlock"]["games"] == 1
    assert states["no_legal_move"]["examples"] == [{"seed": 101, "bots": ["random", "greedy"]}]
    assert states["deck_exhausted"]["games"] == 1 and states["flush_limit"]["games"] == 0
    assert report["mechanics"] == {"stations": None, "tunnels": None, "ferries": None}


def test_the_report_names_the_mechanics_an_edition_has() -> None:
    europe = Ruleset.build("europe")
    outcomes = list(run_study(europe, players=2, bots=["random"], games=1, seed=3))
    report = build_report(europe, players=2, bots=["random"], seed=3, outcomes=outcomes)
    mechanics = report["mechanics"]
    assert mechanics["stations"]["per_player"] == 3
    assert mechanics["tunnels"]["tracks"] > 0 and mechanics["ferries"]["tracks"] > 0
    assert mechanics["tunnels"]["attempts"] >= mechanics["tunnels"]["withdrawn"]
    assert [b["bonus"] for b in report["bonuses"]] == ["european_express", "unbuilt_stations"]


# -- the files and the command ----------------------------------------------------------------


class Links(HTMLParser):
    """Every src and href of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [v or "" for k, v in attrs if k in ("src", "href")]


@pytest.mark.slow
def test_study_writes_a_deterministic_report_a_page_that_opens_offline_and_figures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    args = ("study", "example", "--games", "4", "--players", "3", "--bots", "greedy,random")
    args += ("--seed", "5")
    assert main([*args, "--jobs", "1", "--out", str(one)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("example: 4 games, 3 players, bots greedy,random, seed 5\n")
    assert "start player won" in out and "least-claimed routes:" in out
    assert f"report: {one / 'report.html'}" in out
    report = json.loads((one / "report.json").read_text(encoding="utf-8"))
    rs = Ruleset.build("example")
    again = build_report(
        rs,
        players=3,
        bots=["greedy", "random"],
        seed=5,
        outcomes=list(run_study(rs, players=3, bots=["greedy", "random"], games=4, seed=5, jobs=2)),
    )
    assert again == report
    write_report(rs, again, two)
    for path in one.iterdir():
        assert (two / path.name).read_bytes() == path.read_bytes(), path.name
    figures = sorted(p.name for p in one.glob("*.svg"))
    assert {"map.svg", "seats.svg", "bots.svg", "routes.svg", "tickets.svg"} <= set(figures)
    for name in figures:
        ET.fromstring((one / name).read_bytes())
    page = (one / "report.html").read_text(encoding="utf-8")
    links = Links()
    links.feed(page)
    assert links.links and all(
        link.startswith("data:image/svg+xml;base64,") for link in links.links
    )
    assert page.count('id="route-') == len(index_of(rs).routes)  # the map is inline


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("--players", "4"), 2, "argument --players: example is played by 2 to 3 players"),
        (("--bots", "greedy,,random"), 2, "argument --bots: expected comma-separated"),
        (("--bots", "nobody"), 1, "unknown bot 'nobody'"),
        (("--jobs", "0"), 2, "argument --jobs: expected a positive integer"),
    ],
)
def test_study_errors_are_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    args: tuple[str, ...],
    code: int,
    message: str,
) -> None:
    assert main(["study", "example", "--out", str(tmp_path / "r"), *args]) == code
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err
    assert not (tmp_path / "r").exists()


def test_study_into_a_file_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert main(["study", "usa", "--games", "1", "--out", str(tmp_path / "file")]) == 1
    assert (
        capsys.readouterr().err
        == f"ttr: error: --out: {tmp_path / 'file'} exists and is not a directory\n"
    )


def test_study_without_matplotlib_is_one_error_line_naming_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    with pytest.raises(MissingExtraError):
        check_plot_support()
    assert main(["study", "usa", "--games", "1", "--out", str(tmp_path / "r")]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"ttr: error: the figures of a study need matplotlib: {install_command('study')}\n"
    )
    assert not (tmp_path / "r").exists()


@pytest.mark.slow
def test_a_failing_bot_is_left_out_of_the_report_and_the_study_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from parallel_bots import fails

    from ttr_core.model import rng

    args = ["study", "usa", "--players", "2", "--games", "6", "--seed", "2", "--jobs", "1"]
    code = main([*args, "--bots", "parallel_bots:SeedFailer", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    failed = [f["seed"] for f in report["failed_games"]]
    expected = [
        g
        for g in (game_seed(2, i) for i in range(6))
        if fails(rng.derive_seed(g, 1)) or fails(rng.derive_seed(g, 2))
    ]
    assert failed == expected and 0 < len(failed) < 6
    assert code == 1 and len(err.splitlines()) == len(failed)
    assert report["study"]["games_measured"] == 6 - len(failed)
    assert "report:" in out


# -- the playtest guide ---------------------------------------------------------------------


def _cli_guide_module() -> Any:
    """The CLI guide's test module, which reads the shell commands of a page (loaded by
    its path, so this test runs without ``tests/cli`` being collected)."""
    path = Path(__file__).parents[1] / "cli" / "test_cli_guide.py"
    spec = importlib.util.spec_from_file_location("_cli_guide_reader", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_playtest_guide_commands_parse_and_its_python_prints_what_it_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    guide = _cli_guide_module()
    FENCE, shell_commands = guide.FENCE, guide.shell_commands

    page = (Path(__file__).parents[2] / "docs/how-to/playtest-an-edition.md").read_text(
        encoding="utf-8"
    )
    commands = [c.line for c in shell_commands(page) if c.line.startswith("ttr ")]
    assert sum(c.startswith("ttr study example") for c in commands) == 3
    for line in commands:
        build_parser().parse_args(shlex.split(line, comments=True)[1:])
    (block,) = [m["body"] for m in FENCE.finditer(page) if m["lang"] == "python"]
    exec(compile(block, "playtest-an-edition", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "Quillmere Tidewick 0.0"  # the ticket that needs 11 of 10 trains
