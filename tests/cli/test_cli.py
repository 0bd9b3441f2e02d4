"""The ``ttr`` command line: every command, its JSON shapes, and one-line errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ttr_core import Ruleset
from ttr_core.bots import GreedyBot
from ttr_core.cli import build_parser, main
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model.mapdata import load_map_data
from ttr_core.play.game import Game
from ttr_core.ruleset import editions as edition
from ttr_core.ruleset.editions import EditionInfo, InstalledEdition, describe_editions
from ttr_core.testing.scenarios import FixtureEdition

FIXTURES = Path(__file__).parents[1] / "fixtures"


class Result:
    """Exit status and output of one in-process ``ttr`` run."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> Any:
        return json.loads(self.out)

    def error_line(self) -> str:
        """The single ``ttr: error:`` line (and check nothing else was printed)."""
        assert self.out == ""
        assert "Traceback" not in self.err
        lines = self.err.splitlines()
        assert len(lines) == 1, self.err
        assert lines[0].startswith("ttr: error: ")
        return lines[0]


@pytest.fixture
def ttr(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run ``ttr`` in-process: ``ttr("score", "-", stdin=b"...")``."""

    def run(*args: str, stdin: bytes | None = None) -> Result:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture
def borderland_installed(
    monkeypatch: pytest.MonkeyPatch, borderland_edition: FixtureEdition
) -> Iterator[None]:
    """Make the test edition findable by name, as if its package were installed."""
    found = dict(edition.installed_editions())
    found["borderland"] = InstalledEdition(
        info=EditionInfo(id="borderland", name="Borderland", aliases=("bl",)),
        plugin=borderland_edition,
        distribution="tests",
        builtin=False,
        players=(2, 4),
    )
    monkeypatch.setattr(edition, "installed_editions", lambda refresh=False: found)
    yield


def write(tmp_path: Path, value: Any, name: str = "input.json") -> str:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


# -- editions and map --------------------------------------------------------------------


def test_editions_table(ttr: Any) -> None:
    result = ttr("editions")
    assert result.code == 0 and result.err == ""
    for text in ("Id", "Distribution", "usa", "Ticket to", "2-5", "yes"):
        assert text in result.out


def test_editions_json_is_a_list_sorted_by_id(ttr: Any) -> None:
    result = ttr("editions", "--json")
    data = result.json()
    assert data == describe_editions()
    assert [e["id"] for e in data] == sorted(e["id"] for e in data)
    usa = next(e for e in data if e["id"] == "usa")
    assert usa["players"] == [2, 5] and usa["builtin"] is True and "base" in usa["aliases"]
    assert set(usa) >= {"id", "name", "aliases", "players", "builtin", "distribution"}


def test_map_summary(ttr: Any) -> None:
    result = ttr("map", "usa")
    assert result.code == 0
    for text in ("Cities", "36", "100 between 78 city pairs, 22 double routes", "Trains per"):
        assert text in result.out
    assert "Tracks by length" in result.out


def test_map_json_is_the_map_data_with_options_applied(ttr: Any) -> None:
    data = ttr("map", "base", "--json", "--option", "opening_tickets=4").json()
    assert data["edition"] == "usa"
    assert data["parameters"]["opening_tickets"]["deal"] == 4
    assert load_map_data(json.dumps(data)) == Ruleset.build("usa", {"opening_tickets": 4}).map
    assert len(data["routes"]) == 100 and len(data["tickets"]) == 30


def test_map_of_an_unknown_edition(ttr: Any) -> None:
    result = ttr("map", "atlantis")
    assert result.code == 1
    assert "unknown edition 'atlantis'; installed editions:" in result.error_line()


def test_map_with_a_bad_option_value(ttr: Any) -> None:
    result = ttr("map", "usa", "--option", "opening_tickets=9")
    assert result.code == 1
    assert "option 'opening_tickets' cannot be 9" in result.error_line()


# -- simulate ----------------------------------------------------------------------------


def test_simulate_defaults() -> None:
    args = build_parser().parse_args(["simulate"])
    assert (args.edition, args.players, args.games, args.seed, args.bots, args.json) == (
        "usa",
        4,
        100,
        1,
        "random",
        False,
    )


@pytest.mark.slow
def test_simulate_default_run_prints_a_table(ttr: Any) -> None:
    """The first command of the README: one row per seat, the mean length, a hint."""
    result = ttr("simulate")
    assert result.code == 0 and result.err == ""
    for text in ("usa: 100 games, 4 players, seed 1", "Mean score", "Win share"):
        assert text in result.out
    seats = [line for line in result.out.splitlines() if "random" in line and "Player" in line]
    assert [line.split("│")[1].strip() for line in seats] == [f"Player {i}" for i in range(1, 5)]
    wins = [int(line.split("│")[3]) for line in seats]
    assert sum(wins) >= 100 and max(wins) < 100
    assert "mean game length" in result.out
    assert "by bot" not in result.out
    assert result.out.splitlines()[-1].startswith("Next: ttr simulate --bots greedy,random")


def test_simulate_table_per_seat_then_per_bot(ttr: Any) -> None:
    """Two bots: a row per seat, then a row per bot, then a hint without --bots."""
    result = ttr("simulate", "--games", "4", "--bots", "greedy,random", "--players", "3")
    assert result.code == 0
    lines = result.out.splitlines()
    seats = [line for line in lines if "Player" in line]
    assert [[c.strip() for c in line.split("│")[1:3]] for line in seats] == [
        ["Player 1", "greedy"],
        ["Player 2", "random"],
        ["Player 3", "greedy"],
    ]
    by_bot = lines[lines.index(next(line for line in lines if "by bot" in line)) :]
    rows = [line for line in by_bot if line.startswith("│")]
    assert [line.split("│")[1].strip() for line in rows] == ["greedy", "random"]
    assert lines[-1] == "Next: ttr study usa (a balance report); ttr play usa (play them yourself)"


def test_simulate_with_an_option(ttr: Any) -> None:
    result = ttr("simulate", "--games", "2", "--option", "opening_tickets=4", "--json")
    assert result.code == 0 and len(result.out.splitlines()) == 2


def test_simulate_progress_bar_only_on_a_terminal(
    ttr: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("simulate", "--games", "20", "--players", "2")
    plain = ttr(*args)
    assert plain.err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    shown = ttr(*args)
    assert shown.out == plain.out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (
            ("--bots", "random,nobody"),
            1,
            "unknown bot 'nobody'; known bots: greedy, long-routes, lookahead, mcts, planner, "
            "random, tickets",
        ),
        (("--bots", "random,,greedy"), 2, "argument --bots: expected comma-separated bot names"),
        (("--players", "6"), 2, "argument --players: usa is played by 2 to 5 players"),
        (("--games", "0"), 2, "argument --games: expected a positive integer, got '0'"),
        (("--seed", "x"), 2, "argument --seed: invalid int value: 'x'"),
        (("--edition", "atlantis"), 1, "unknown edition 'atlantis'"),
        (("--option", "colour"), 2, "argument --option: expected KEY=VALUE, got 'colour'"),
        (("--option", "trains=10"), 1, "edition 'usa' has no option 'trains'"),
        (("--option", "opening_tickets=3", "--option", "opening_tickets=4"), 2, "given twice"),
    ],
)
def test_simulate_errors(ttr: Any, args: tuple[str, ...], code: int, message: str) -> None:
    result = ttr("simulate", "--games", "1", *args)
    assert result.code == code
    assert message in result.error_line()


# -- score: valid input ------------------------------------------------------------------


def test_score_prints_the_documented_score_sheet(ttr: Any) -> None:
    """SCORE-1, TICKET-7, PATH-4 on a hand-checked USA position (see test_position)."""
    result = ttr("score", str(FIXTURES / "score_usa_three_players.json"))
    assert result.code == 0 and result.err == ""
    assert result.out.startswith('{\n  "edition": "usa",\n  "players": [\n    {\n')
    sheet = result.json()
    assert list(sheet) == ["edition", "players", "winners"]
    assert [p["name"] for p in sheet["players"]] == ["Ann", "Bob", "Cy"]
    assert [p["total"] for p in sheet["players"]] == [20, 34, 27]
    assert sheet["winners"] == ["Bob"]
    assert list(sheet["players"][1]) == [
        "name",
        "total",
        "route_points",
        "ticket_points",
        "tickets",
        "tickets_completed",
        "longest_path",
        "bonuses",
    ]
    assert sheet["players"][1]["tickets"] == [
        {"id": 11, "a": "Helena", "b": "Los Angeles", "points": -8, "completed": False}
    ]


def test_score_reads_standard_input(ttr: Any) -> None:
    data = (FIXTURES / "score_usa_three_players.json").read_bytes()
    from_file = ttr("score", str(FIXTURES / "score_usa_three_players.json")).out
    result = ttr("score", "-", stdin=data)
    assert result.code == 0 and result.out == from_file


def test_score_with_stations_lists_them(ttr: Any, borderland_installed: None) -> None:
    position = {
        "edition": "bl",
        "players": [
            {
                "name": "Ann",
                "routes": [{"a": "Alpha", "b": "Beta"}],
                "tickets": [{"a": "Alpha", "b": "Gamma"}],
                "stations": ["Gamma"],
            },
            {"name": "Bob", "routes": [{"a": "Beta", "b": "Gamma", "color": "red"}], "tickets": []},
        ],
    }
    sheet = ttr("score", "-", stdin=json.dumps(position).encode()).json()
    assert sheet["edition"] == "borderland"
    ann, bob = sheet["players"]
    assert ann["stations"] == [
        {"city": "Gamma", "route": {"a": "Beta", "b": "Gamma", "color": "red", "length": 3}}
    ]
    assert bob["stations"] == []
    assert ann["total"] == 2 + 5 + 4  # route, completed ticket, one unbuilt station


# -- score: every kind of impossible position is one error line ---------------------------


def usa(*players: Any) -> dict[str, Any]:
    return {"edition": "usa", "players": list(players)}


def who(name: Any = "Ann", routes: Any = (), tickets: Any = (), **extra: Any) -> dict[str, Any]:
    return {"name": name, "routes": list(routes), "tickets": list(tickets), **extra}


def r(a: Any, b: Any, **extra: Any) -> dict[str, Any]:
    return {"a": a, "b": b, **extra}


LONG_ROUTES = [
    r("Los Angeles", "El Paso"),
    r("El Paso", "Houston"),
    r("Helena", "Seattle"),
    r("Duluth", "Helena"),
    r("Duluth", "Toronto"),
    r("Calgary", "Winnipeg"),
    r("Miami", "New Orleans"),
    r("Portland", "Salt Lake City"),
]
"""Eight tracks of length 6: 48 trains, more than the 45 a USA player has."""

INVALID: list[tuple[str, Any, str]] = [
    ("unknown-edition", {"edition": "atlantis", "players": [who()]}, "unknown edition 'atlantis'"),
    ("not-an-object", [1, 2], "position: expected an object, got a list"),
    ("missing-edition", {"players": [who()]}, "position: missing key 'edition'"),
    ("missing-players", {"edition": "usa"}, "position: missing key 'players'"),
    ("extra-top-key", {**usa(who()), "date": "today"}, "position: unknown key 'date'"),
    ("edition-not-string", {"edition": 3, "players": []}, "edition: expected a string"),
    ("players-not-list", {"edition": "usa", "players": {}}, "players: expected a list"),
    ("no-players", usa(), "players: expected at least one player"),
    ("too-many-players", usa(*(who(f"P{i}") for i in range(6))), "at most 5 players, got 6"),
    ("player-not-object", usa("Ann"), "players[0]: expected an object"),
    ("missing-name", usa({"routes": [], "tickets": []}), "players[0]: missing key 'name'"),
    ("missing-routes", usa({"name": "A", "tickets": []}), "players[0]: missing key 'routes'"),
    ("missing-tickets", usa({"name": "A", "routes": []}), "players[0]: missing key 'tickets'"),
    ("extra-player-key", usa(who(score=3)), "players[0]: unknown key 'score'"),
    ("name-not-string", usa(who(name=7)), "players[0].name: expected a string, got the number 7"),
    ("empty-name", usa(who(name=" ")), "players[0].name: expected a non-empty string"),
    ("duplicate-names", usa(who("Ann"), who("Ann")), "players[1].name: 'Ann' is already"),
    (
        "routes-not-list",
        usa({"name": "Ann", "routes": "x", "tickets": []}),
        "players[0].routes: expected a list",
    ),
    ("route-not-object", usa(who(routes=["Denver"])), "players[0].routes[0]: expected an object"),
    ("route-missing-b", usa(who(routes=[{"a": "Denver"}])), "routes[0]: missing key 'b'"),
    ("route-extra-key", usa(who(routes=[r("Denver", "Omaha", points=7)])), "unknown key 'points'"),
    ("route-city-not-string", usa(who(routes=[r("Denver", 3)])), "routes[0].b: expected a string"),
    (
        "unknown-city",
        usa(who(routes=[r("Denver", "Gotham")])),
        "routes[0].b: unknown city 'Gotham'",
    ),
    (
        "no-track",
        usa(who(routes=[r("Denver", "Boston")])),
        "players[0].routes[0]: no track between Denver and Boston",
    ),
    (
        "wrong-colour",
        usa(who(routes=[r("Denver", "Omaha", color="red")])),
        "no red track between Denver and Omaha (there is: pink 4)",
    ),
    (
        "unknown-colour",
        usa(who(routes=[r("Denver", "Omaha", color="purple")])),
        "routes[0].color: unknown colour 'purple'",
    ),
    (
        "null-colour",
        usa(who(routes=[r("Denver", "Omaha", color=None)])),
        "routes[0].color: expected a string, got null",
    ),
    ("bad-length", usa(who(routes=[r("Denver", "Omaha", length="4")])), "routes[0].length"),
    (
        "double-needs-colour",
        usa(who(routes=[r("Atlanta", "New Orleans")])),
        'Atlanta-New Orleans is a double route (orange, yellow); give its "color"',
    ),
    (
        "track-owned-twice",
        usa(who("Ann", routes=[r("Denver", "Omaha")]), who("Bob", routes=[r("Omaha", "Denver")])),
        "players[1].routes[0]: Omaha-Denver is already owned by players[0] (Ann)",
    ),
    (
        "track-listed-twice",
        usa(who(routes=[r("Denver", "Omaha"), r("Denver", "Omaha")])),
        "players[0].routes[1]: Denver-Omaha is already listed at routes[0]",
    ),
    (
        "both-tracks-one-player",
        usa(who(routes=[r("Dallas", "Houston"), r("Houston", "Dallas")])),
        "players[0].routes[1]: Ann cannot own both tracks of the double route",
    ),
    (
        "both-coloured-tracks-one-player",
        usa(
            who(
                routes=[
                    r("Boston", "New York", color="red"),
                    r("Boston", "New York", color="yellow"),
                ]
            )
        ),
        "cannot own both tracks of the double route Boston-New York",
    ),
    (
        "both-tracks-with-two-players",
        usa(
            who("Ann", routes=[r("Dallas", "Houston")]), who("Bob", routes=[r("Dallas", "Houston")])
        ),
        "players[1].routes[0]: the other track of the double route Dallas-Houston is owned by "
        "players[0] (Ann); with 2 players only one track",
    ),
    (
        "too-many-trains",
        usa(who(routes=LONG_ROUTES)),
        "players[0].routes: Ann's routes use 48 trains, but a player has only 45",
    ),
    (
        "tickets-not-list",
        usa({"name": "Ann", "routes": [], "tickets": {}}),
        "players[0].tickets: expected a list",
    ),
    (
        "ticket-missing-b",
        usa(who(tickets=[{"a": "Denver"}])),
        "tickets[0]: missing key 'b' (or 'to_any'",
    ),
    (
        "ticket-extra-key",
        usa(who(tickets=[{"a": "Denver", "b": "El Paso", "value": 4}])),
        "unknown key 'value'",
    ),
    (
        "ticket-unknown-city",
        usa(who(tickets=[{"a": "Denver", "b": "Gotham"}])),
        "tickets[0].b: unknown city 'Gotham'",
    ),
    (
        "unknown-ticket",
        usa(who(tickets=[{"a": "Denver", "b": "Boston"}])),
        "tickets[0]: no ticket Denver-Boston in the usa deck",
    ),
    (
        "ticket-held-twice",
        usa(
            who("Ann", tickets=[{"a": "Denver", "b": "El Paso"}]),
            who("Bob", tickets=[{"a": "El Paso", "b": "Denver"}]),
        ),
        "players[1].tickets[0]: ticket El Paso-Denver is held 2 times, but the deck has 1 card",
    ),
    (
        "country-ticket-on-usa",
        usa(who(tickets=[{"a": "Denver", "to_any": ["Canada"]}])),
        "tickets[0].to_any[0]: unknown country 'Canada'",
    ),
    (
        "stations-without-stations",
        usa(who(stations=["Denver"])),
        "players[0].stations: usa has no stations",
    ),
    ("stations-not-list", usa(who(stations="Denver")), "players[0].stations: expected a list"),
]


@pytest.mark.parametrize(
    ("position", "message"), [c[1:] for c in INVALID], ids=[c[0] for c in INVALID]
)
def test_impossible_position(ttr: Any, tmp_path: Path, position: Any, message: str) -> None:
    path = write(tmp_path, position)
    result = ttr("score", path)
    assert result.code == 1
    line = result.error_line()
    assert message in line
    if "edition" not in message:
        assert line.startswith(f"ttr: error: {path}: ")


BORDERLAND_INVALID: list[tuple[str, list[dict[str, Any]], str]] = [
    (
        "too-many-stations",
        [who(stations=["Alpha", "Beta", "Gamma"]), who("Bob")],
        "players[0].stations: Ann lists 3 stations, but a player has only 2",
    ),
    (
        "two-stations-in-a-city",
        [who(stations=["Alpha"]), who("Bob", stations=["Delta", "Alfa"])],
        "players[1].stations[1]: Alpha already has a station (players[0].stations[0])",
    ),
    (
        "station-in-unknown-city",
        [who(stations=["Gotham"])],
        "players[0].stations[0]: unknown city 'Gotham'",
    ),
    (
        "ambiguous-border-arrow",
        [who(routes=[r("Epsilon", "Nordland")])],
        "routes[0]: Epsilon-Nordland could be several tracks; name the border arrow",
    ),
    (
        "uneven-double-needs-length",
        [who(routes=[r("Gamma", "Delta", color="green")])],
        'Gamma-Delta has tracks of lengths 2, 4; give its "length"',
    ),
    (
        "too-many-copies-of-a-country-ticket",
        [who(tickets=[{"a": "Nordland", "to_any": ["Sudland"]}] * 3)],
        "players[0].tickets[2]: ticket Nordland-Sudland is held 3 times, but the deck has 2 cards",
    ),
    (
        "country-ticket-both-b-and-to_any",
        [who(tickets=[{"a": "Gamma", "b": "Delta", "to_any": ["Sudland"]}])],
        "tickets[0]: give either 'b' or 'to_any', not both",
    ),
]


@pytest.mark.parametrize(
    ("players", "message"),
    [c[1:] for c in BORDERLAND_INVALID],
    ids=[c[0] for c in BORDERLAND_INVALID],
)
def test_impossible_position_with_stations_and_arrows(
    ttr: Any, borderland_installed: None, players: list[dict[str, Any]], message: str
) -> None:
    position = {"edition": "borderland", "players": players}
    result = ttr("score", "-", stdin=json.dumps(position).encode())
    assert result.code == 1
    line = result.error_line()
    assert line.startswith("ttr: error: <stdin>: players[")
    assert message in line


def test_score_of_text_that_is_not_json(ttr: Any, tmp_path: Path) -> None:
    result = ttr("score", write(tmp_path, "{'edition': 'usa'"))
    assert result.code == 1
    assert "position: not valid JSON" in result.error_line()


def test_score_of_bytes_that_are_not_text(ttr: Any) -> None:
    result = ttr("score", "-", stdin=b"\xff\xfe\xfa")
    assert result.code == 1
    assert "not valid JSON" in result.error_line()


def test_score_of_a_missing_file(ttr: Any, tmp_path: Path) -> None:
    result = ttr("score", str(tmp_path / "nowhere.json"))
    assert result.code == 1
    assert "cannot read" in result.error_line() and "No such file" in result.err


def test_score_of_a_directory(ttr: Any, tmp_path: Path) -> None:
    result = ttr("score", str(tmp_path))
    assert result.code == 1
    assert "cannot read" in result.error_line()


# -- replay ------------------------------------------------------------------------------


def played(players: list[str], seed: int, actions: int | None = None) -> Game:
    game = Game.new("usa", players=players, seed=seed)
    bots = [GreedyBot(game.ruleset, s, s) for s in range(len(players))]
    while not game.is_over and (actions is None or len(game.log) < actions):
        seat = game.current_player
        legal = SeatActions(game.ruleset, game.state, seat)
        game.apply(bots[seat].choose(game.view(seat), legal))
    return game


@pytest.fixture(scope="module")
def finished() -> Game:
    return played(["Ann", "[red]Bob"], 3)


def test_replay_summary(ttr: Any, tmp_path: Path, finished: Game) -> None:
    path = write(tmp_path, finished.save(), "game.json")
    result = ttr("replay", path)
    assert result.code == 0 and result.err == ""
    turns = finished.state.turn
    assert f"a valid usa game record, 2 players, {turns} turns" in result.out
    assert "Final scores" in result.out
    assert "[red]Bob" in result.out  # names are shown as written, never as markup


def test_replay_json(ttr: Any, tmp_path: Path, finished: Game) -> None:
    data = ttr("replay", write(tmp_path, finished.save()), "--json").json()
    sheet = finished.scores()
    assert data == {
        "edition": "usa",
        "options": {"longest_path_at_zero": False, "opening_tickets": 3, "tie_break": "rules"},
        "seed": 3,
        "players": ["Ann", "[red]Bob"],
        "turns": finished.state.turn,
        "actions": len(finished.log),
        "over": True,
        "ended_by": finished.state.ended_by,
        "scores": [{"name": p.name, "total": p.total} for p in sheet.players],
        "winners": [finished.names[s] for s in sheet.winners],
    }


def test_replay_of_a_game_in_progress(ttr: Any) -> None:
    game = played(["A", "B", "C"], 4, actions=12)
    data = ttr("replay", "-", "--json", stdin=game.save().encode()).json()
    assert data["over"] is False and data["scores"] is None and data["winners"] == []
    assert data["actions"] == 12
    text = ttr("replay", "-", stdin=game.save().encode()).out
    assert "in progress" in text and "Players: A, B, C" in text


def test_replay_of_a_tampered_record(ttr: Any, tmp_path: Path, finished: Game) -> None:
    raw = json.loads(finished.save())
    raw["players"] = ["Ann", "Ann"]
    result = ttr("replay", write(tmp_path, json.dumps(raw)))
    assert result.code == 1
    assert "duplicate player names" in result.error_line()


def test_replay_of_something_else(ttr: Any, tmp_path: Path) -> None:
    result = ttr("replay", write(tmp_path, "[]"))
    assert result.code == 1
    assert "record must be a JSON object" in result.error_line()


# -- usage errors and entry points --------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "choose a command: editions, map, simulate, score, replay"),
        (("frobnicate",), "argument COMMAND: invalid choice: 'frobnicate'"),
        (("score",), "the following arguments are required: FILE"),
        (("editions", "--bogus"), "unrecognized arguments: --bogus"),
        (("map",), "the following arguments are required: EDITION"),
    ],
)
def test_usage_errors_are_one_line_with_status_2(
    ttr: Any, args: tuple[str, ...], message: str
) -> None:
    result = ttr(*args)
    assert result.code == 2
    assert message in result.error_line()


def test_help_exits_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--help"])
    assert exc.value.code == 0
    assert "--bots" in capsys.readouterr().out


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ttr_core", "editions", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert any(e["id"] == "usa" for e in json.loads(done.stdout))


def test_a_real_process_error_has_no_traceback(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ttr_core", "score", str(tmp_path / "missing.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("ttr: error: cannot read") and done.stderr.count("\n") == 1
