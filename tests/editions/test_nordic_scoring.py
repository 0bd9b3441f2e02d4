"""Nordic Countries final scoring: the worked examples EX-N1 and EX-N4, the Globetrotter
(GLOBE-n), no longest path bonus (NC-18), the tie-breaker (NC-19) and ``ttr score``.

The examples are scored on letter boards of a small fixture edition with Nordic
Countries' parameters and the Nordic plugin's Globetrotter, through the library and
through ``ttr score``. A real-map position in the spirit of EX-N4 (Murmansk-Lieksa and a
shared Globetrotter) goes through ``ttr score``, as do impossible Nordic positions.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import ttr_nordic

from ttr_core import EditionInfo, PositionError, Ruleset, hookimpl, score_game
from ttr_core.cli import main
from ttr_core.formats.position import parse_position, position_to_json, read_position
from ttr_core.model.mapdata import MapData, structure_map
from ttr_core.plugin import ScoringContext
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import position_of, score_position, scoresheet_json, scoring_context
from ttr_core.ruleset import editions as edition
from ttr_core.ruleset.editions import InstalledEdition
from ttr_core.testing.play import play_random
from ttr_core.testing.scenarios import BASE_PARAMETERS, map_dict, position, score

NORDIC_PARAMETERS: dict[str, Any] = {
    **BASE_PARAMETERS,
    "players": [2, 3],
    "trains": 40,
    "route_points": {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "9": 27},
    "double_routes_min_players": 3,
    "opening_tickets": {"deal": 5, "keep": 2, "returned": "removed"},
    "ticket_draw": {"deal": 3, "keep": 1, "returned": "removed"},
    "display": {"size": 5, "flush_locomotives": None, "flush_repeats": 3},
    "face_up_locomotive": "ordinary",
    "locomotives": "tunnels_and_ferries",
    "ferry_groups": 3,
    "ferry_group_stacking": True,
    "longest_path_bonus": None,
    "tie_breakers": ["completed_tickets"],
}
"""Nordic Countries' parameters, written out for the fixture edition."""

Board = tuple[tuple[str, str, int, str], ...]
Tickets = tuple[tuple[str, str, int], ...]
Holdings = Mapping[str, tuple[Sequence[str], Sequence[str]]]


class NordicFixture:
    """An edition plugin serving a letter board with Nordic Countries' rules: its own map
    and identity, and the Nordic plugin's Globetrotter."""

    def __init__(self, data: MapData) -> None:
        self.data = data

    @hookimpl
    def ttr_edition_info(self) -> EditionInfo:
        return EditionInfo(id="nordfix", name="Nordic fixture", aliases=(), rules_version="1")

    @hookimpl
    def ttr_map_data(self, options: Mapping[str, Any]) -> MapData:
        return self.data

    @hookimpl
    def ttr_final_bonuses(self, context: ScoringContext) -> Mapping[str, Sequence[int]]:
        return ttr_nordic.ttr_final_bonuses(context=context)


def nordic_map(routes: Iterable[tuple[str, str, int, str]], tickets: Tickets) -> MapData:
    """A letter board with Nordic parameters; a 9-space track takes groups of 4 like
    Murmansk-Lieksa."""
    raw = map_dict(routes, tickets, edition="nordfix", **copy.deepcopy(NORDIC_PARAMETERS))
    for track in raw["routes"]:
        if track["length"] == 9:
            track["card_groups"] = 4
    return structure_map(raw)


def nordic_fixture(routes: Board, tickets: Tickets, **options: Any) -> Ruleset:
    """A ruleset with Nordic Countries' parameters and Globetrotter on a letter board."""
    return Ruleset(NordicFixture(nordic_map(routes, tickets)), options)


@pytest.fixture(scope="module")
def nordic() -> Ruleset:
    return Ruleset.build("nordic")


def run_score(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any) -> dict[str, Any]:
    """``ttr score`` on a position; it must succeed with nothing on standard error."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    result: dict[str, Any] = json.loads(out)
    return result


def score_error(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any) -> str:
    """``ttr score`` on an impossible position: status 1 and one error line."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["score", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"ttr: error: {path}: ")
    return line


def install(monkeypatch: pytest.MonkeyPatch, rs: Ruleset) -> None:
    """Make the fixture edition of ``rs`` findable by ``ttr score``."""
    plugin = NordicFixture(rs.map)
    found = dict(edition.installed_editions())
    found["nordfix"] = InstalledEdition(
        info=plugin.ttr_edition_info(),
        plugin=plugin,
        distribution="tests",
        builtin=False,
        players=(2, 3),
    )
    monkeypatch.setattr(edition, "installed_editions", lambda refresh=False: found)


def fixture_json(players: Holdings) -> dict[str, Any]:
    """The ``ttr score`` input for holdings written as for
    :func:`ttr_core.testing.scenarios.position`."""
    return {
        "edition": "nordfix",
        "players": [
            {
                "name": name,
                "routes": [dict(zip("ab", spec.split("-"), strict=True)) for spec in routes],
                "tickets": [dict(zip("ab", spec.split("-"), strict=True)) for spec in tickets],
            }
            for name, (routes, tickets) in players.items()
        ],
    }


# -- EX-N1 ---------------------------------------------------------------------------------

N1_ROUTES: Board = (
    # Purple: 15 + 15 + 10 + 10 = 50.
    ("A", "B", 6, "gray"),
    ("B", "C", 6, "red"),
    ("C", "D", 5, "gray"),
    ("D", "E", 5, "blue"),
    # White: 15 + 15 + 15 + 10 = 55.
    ("F", "G", 6, "gray"),
    ("G", "H", 6, "green"),
    ("H", "I", 6, "gray"),
    ("I", "J", 5, "pink"),
    # Black: 4 x 15 = 60.
    ("K", "L", 6, "gray"),
    ("L", "M", 6, "white"),
    ("M", "N", 6, "gray"),
    ("N", "O", 6, "black"),
)
N1_TICKETS: Tickets = (
    ("A", "B", 5),
    ("A", "C", 5),
    ("A", "D", 5),
    ("A", "E", 5),
    ("B", "E", 5),
    ("C", "E", 5),
    ("F", "G", 4),
    ("F", "H", 4),
    ("F", "I", 4),
    ("F", "J", 4),
    ("G", "I", 3),
    ("G", "J", 3),
    ("K", "L", 5),
    ("K", "M", 5),
    ("K", "N", 5),
    ("K", "O", 5),
    ("K", "Z", 5),
)
N1_PLAYERS: dict[str, tuple[list[str], list[str]]] = {
    "Purple": (["A-B", "B-C", "C-D", "D-E"], ["A-B", "A-C", "A-D", "A-E", "B-E", "C-E"]),
    "White": (["F-G", "G-H", "H-I", "I-J"], ["F-G", "F-H", "F-I", "F-J", "G-I", "G-J"]),
    "Black": (["K-L", "L-M", "M-N", "N-O"], ["K-L", "K-M", "K-N", "K-O", "K-Z"]),
}


@pytest.fixture(scope="module")
def n1() -> Ruleset:
    return nordic_fixture(N1_ROUTES, N1_TICKETS)


def test_ex_n1_parts_of_the_score(n1: Ruleset) -> None:
    """EX-N1: route points 50, 55, 60; tickets +30 (6 done), +22 (6 done), +15 (4 done,
    1 failed)."""
    purple, white, black = score(n1, N1_PLAYERS).players
    assert [p.route_points for p in (purple, white, black)] == [50, 55, 60]
    assert [p.ticket_points for p in (purple, white, black)] == [30, 22, 15]
    assert [p.tickets_completed for p in (purple, white, black)] == [6, 6, 4]
    assert [t.points for t in black.tickets] == [5, 5, 5, 5, -5]


def test_ex_n1_globetrotter_tie(n1: Ruleset) -> None:
    """EX-N1 / GLOBE-1 / GLOBE-2 / NC-18: Purple and White tie with 6 completed tickets
    and both score 10; no longest path bonus; totals 90, 87, 75."""
    sheet = score(n1, N1_PLAYERS)
    assert [dict(p.bonuses) for p in sheet.players] == [
        {"globetrotter": 10},
        {"globetrotter": 10},
        {"globetrotter": 0},
    ]
    assert [p.total for p in sheet.players] == [90, 87, 75]
    assert sheet.winners == (0,)


def test_ex_n1_through_ttr_score(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    n1: Ruleset,
) -> None:
    """EX-N1: the same position through the command line gives the same score sheet,
    with the longest path still reported and no bonus for it."""
    install(monkeypatch, n1)
    sheet = run_score(capsys, tmp_path, fixture_json(N1_PLAYERS))
    assert sheet["edition"] == "nordfix"
    assert [p["total"] for p in sheet["players"]] == [90, 87, 75]
    assert [p["bonuses"] for p in sheet["players"]] == [
        {"globetrotter": 10},
        {"globetrotter": 10},
        {"globetrotter": 0},
    ]
    assert [p["longest_path"] for p in sheet["players"]] == [22, 23, 24]
    assert [p["tickets_completed"] for p in sheet["players"]] == [6, 6, 4]
    assert sheet["winners"] == ["Purple"]
    assert all("stations" not in p for p in sheet["players"])


# -- EX-N4 ---------------------------------------------------------------------------------

N4_ROUTES: Board = (
    # Purple: 27 + 7 + 4 + 4 + 2 = 44; A-B plays the part of Murmansk-Lieksa.
    ("A", "B", 9, "gray"),
    ("B", "C", 4, "red"),
    ("C", "D", 3, "gray"),
    ("D", "E", 3, "blue"),
    ("E", "F", 2, "yellow"),
    # White: 15 + 15 + 15 + 7 = 52.
    ("G", "H", 6, "gray"),
    ("H", "I", 6, "green"),
    ("I", "J", 6, "gray"),
    ("J", "K", 4, "pink"),
)
N4_TICKETS: Tickets = (
    ("A", "C", 10),
    ("B", "E", 8),
    ("D", "F", 6),
    ("A", "Z", 9),
    ("G", "I", 7),
    ("H", "J", 7),
    ("J", "K", 5),
)
N4_PLAYERS: dict[str, tuple[list[str], list[str]]] = {
    "Purple": (["A-B", "B-C", "C-D", "D-E", "E-F"], ["A-C", "B-E", "D-F", "A-Z"]),
    "White": (["G-H", "H-I", "I-J", "J-K"], ["G-I", "H-J", "J-K"]),
}


@pytest.fixture(scope="module")
def n4() -> Ruleset:
    return nordic_fixture(N4_ROUTES, N4_TICKETS)


def test_ex_n4_complete_two_player_score(n4: Ruleset) -> None:
    """EX-N4 / MURMANSK-1 / NC-17 / GLOBE-2: the 9-space route scores 27; Purple 44 + 15,
    White 52 + 19; both have 3 completed tickets and score the Globetrotter: 69 and 81."""
    sheet = score(n4, N4_PLAYERS)
    purple, white = sheet.players
    nine = n4.route_index_of(1)
    assert (n4.map.routes[nine].length, index_of(n4).route_points[nine]) == (9, 27)
    assert (purple.route_points, purple.ticket_points, purple.tickets_completed) == (44, 15, 3)
    assert [t.points for t in purple.tickets] == [10, 8, 6, -9]
    assert (white.route_points, white.ticket_points, white.tickets_completed) == (52, 19, 3)
    assert [p.bonuses["globetrotter"] for p in sheet.players] == [10, 10]
    assert (purple.total, white.total) == (69, 81)
    assert sheet.winners == (1,)


def test_ex_n4_through_ttr_score(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    n4: Ruleset,
) -> None:
    """EX-N4: the same totals and winner through the command line."""
    install(monkeypatch, n4)
    sheet = run_score(capsys, tmp_path, fixture_json(N4_PLAYERS))
    assert [p["total"] for p in sheet["players"]] == [69, 81]
    assert [p["bonuses"] for p in sheet["players"]] == [{"globetrotter": 10}] * 2
    assert sheet["winners"] == ["White"]


# -- EX-N4 on the real map -------------------------------------------------------------------

REAL_N4: dict[str, Any] = {
    "edition": "skandinavien",
    "players": [
        {
            "name": "Purple",
            "routes": [
                {"a": "Murmansk", "b": "Lieksa"},
                {"a": "Lieksa", "b": "Kuopio"},
                {"a": "Lieksa", "b": "Kajaani"},
                {"a": "Kuopio", "b": "Imatra"},
                {"a": "Imatra", "b": "Helsinki"},
                {"a": "Helsinki", "b": "Stockholm", "color": "yellow"},
            ],
            "tickets": [
                {"a": "Helsinki", "b": "Lieksa"},
                {"a": "Stockholm", "b": "Imatra"},
                {"a": "Kajaani", "b": "Stockholm"},
                {"a": "Narvik", "b": "Murmansk"},
            ],
        },
        {
            "name": "White",
            "routes": [
                {"a": "Oslo", "b": "Örebro", "color": "green"},
                {"a": "Örebro", "b": "Stockholm", "color": "black"},
                {"a": "Stockholm", "b": "Norrköping", "color": "red"},
                {"a": "Oslo", "b": "Göteborg"},
                {"a": "Göteborg", "b": "København"},
                {"a": "Stockholm", "b": "Sundsvall"},
                {"a": "Sundsvall", "b": "Umeå", "color": "yellow"},
                {"a": "Bergen", "b": "Oslo", "color": "blue"},
            ],
            "tickets": [
                {"a": "Oslo", "b": "Stockholm"},
                {"a": "Oslo", "b": "København"},
                {"a": "Stockholm", "b": "København"},
            ],
        },
    ],
}
"""Two players on the real board. Purple: Murmansk-Lieksa 27, Lieksa-Kuopio 1,
Lieksa-Kajaani 1, Kuopio-Imatra 2, Imatra-Helsinki 4, the yellow Helsinki-Stockholm ferry 7:
42 route points on 20 trains; tickets Helsinki-Lieksa 5, Stockholm-Imatra 7 and
Stockholm-Kajaani 10 done, Narvik-Murmansk 12 failed: +10. White: 2 + 2 + 1 + 2 + 2 + 7 + 4
+ 7 = 27 route points; tickets 4 + 4 + 6 = +14. Both complete 3 tickets."""


def test_real_map_murmansk_and_shared_globetrotter_through_ttr_score(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """EX-N4 on the real map / MURMANSK-1 / NC-17 / GLOBE-2 / NC-18: Murmansk-Lieksa
    scores 27; 3 completed tickets each share the Globetrotter; Purple 42 + 10 + 10 = 62,
    White 27 + 14 + 10 = 51; the alias names the edition."""
    sheet = run_score(capsys, tmp_path, REAL_N4)
    assert sheet["edition"] == "nordic"
    purple, white = sheet["players"]
    assert (purple["route_points"], purple["ticket_points"]) == (42, 10)
    assert [t["points"] for t in purple["tickets"]] == [5, 7, 10, -12]
    assert [t["completed"] for t in purple["tickets"]] == [True, True, True, False]
    assert (white["route_points"], white["ticket_points"]) == (27, 14)
    assert purple["tickets_completed"] == white["tickets_completed"] == 3
    assert purple["bonuses"] == white["bonuses"] == {"globetrotter": 10}
    assert (purple["total"], white["total"]) == (62, 51)
    # Longest paths: Murmansk-Lieksa-Kuopio-Imatra-Helsinki-Stockholm = 9+1+2+3+4, and
    # Bergen-Oslo-Örebro-Stockholm-Sundsvall-Umeå = 4+2+2+4+3.
    assert (purple["longest_path"], white["longest_path"]) == (19, 15)
    assert sheet["winners"] == ["Purple"]


def test_real_map_position_matches_the_library(nordic: Ruleset) -> None:
    """The same real-map position read and scored in Python gives the same sheet."""
    rs, pos = read_position(json.dumps(REAL_N4))
    assert rs.id == "nordic"
    sheet = scoresheet_json(rs, score_position(rs, pos))
    assert [p["total"] for p in sheet["players"]] == [62, 51]
    murmansk = index_of(nordic).route_index[53]
    assert murmansk in pos.players[0].routes


# -- the Globetrotter ----------------------------------------------------------------------

GLOBE_ROUTES: Board = (
    ("A", "B", 1, "gray"),
    ("B", "C", 1, "gray"),
    ("D", "E", 1, "gray"),
    ("E", "F", 1, "gray"),
    ("G", "H", 1, "gray"),
)
GLOBE_TICKETS: Tickets = (
    ("A", "B", 2),
    ("A", "C", 3),
    ("B", "C", 4),
    ("D", "E", 2),
    ("D", "F", 3),
    ("G", "H", 2),
    ("A", "H", 9),
    ("D", "H", 9),
    ("G", "A", 9),
)


@pytest.fixture(scope="module")
def globe() -> Ruleset:
    return nordic_fixture(GLOBE_ROUTES, GLOBE_TICKETS)


def globetrotters(rs: Ruleset, players: Holdings) -> list[int]:
    return [p.bonuses["globetrotter"] for p in score(rs, players).players]


def test_globe_1_single_leader(globe: Ruleset) -> None:
    """GLOBE-1: only the player with the most completed tickets scores 10."""
    players = {
        "Red": (["A-B", "B-C"], ["A-B", "A-C", "B-C"]),
        "Blue": (["D-E", "E-F"], ["D-E", "D-F"]),
        "Green": (["G-H"], ["G-H"]),
    }
    assert globetrotters(globe, players) == [10, 0, 0]


def test_globe_1_failed_tickets_do_not_count(globe: Ruleset) -> None:
    """GLOBE-1: the count is of completed tickets, not of tickets held: Red holds 3 and
    completes 1, Blue holds 2 and completes 2."""
    players = {
        "Red": (["G-H"], ["G-H", "A-H", "G-A"]),
        "Blue": (["D-E", "E-F"], ["D-E", "D-F"]),
    }
    sheet = score(globe, players)
    assert [p.tickets_completed for p in sheet.players] == [1, 2]
    assert [p.bonuses["globetrotter"] for p in sheet.players] == [0, 10]


def test_globe_2_three_way_tie(globe: Ruleset) -> None:
    """GLOBE-2: all three players tie with 1 completed ticket and each scores 10."""
    players = {
        "Red": (["A-B"], ["A-B", "A-H"]),
        "Blue": (["D-E"], ["D-E"]),
        "Green": (["G-H"], ["G-H", "D-H"]),
    }
    sheet = score(globe, players)
    assert [p.bonuses["globetrotter"] for p in sheet.players] == [10, 10, 10]
    assert [p.total for p in sheet.players] == [1 + 2 - 9 + 10, 1 + 2 + 10, 1 + 2 - 9 + 10]


def test_globe_4_nobody_completed_a_ticket(globe: Ruleset) -> None:
    """GLOBE-4: when no ticket is completed, nobody scores the Globetrotter; the bonus is
    still listed, at 0."""
    players = {
        "Red": (["A-B"], ["A-H"]),
        "Blue": (["D-E"], ["D-H"]),
        "Green": ([], []),
    }
    sheet = score(globe, players)
    assert [p.tickets_completed for p in sheet.players] == [0, 0, 0]
    assert [dict(p.bonuses) for p in sheet.players] == [{"globetrotter": 0}] * 3
    assert [p.total for p in sheet.players] == [-8, -8, 0]


def test_globe_1_a_single_player(globe: Ruleset) -> None:
    """GLOBE-1: a one-player position scores the bonus with 1 completed ticket, not with
    none."""
    assert globetrotters(globe, {"Red": (["A-B"], ["A-B"])}) == [10]
    assert globetrotters(globe, {"Red": (["A-B"], ["A-H"])}) == [0]


def test_globe_3_counted_from_the_finished_games(nordic: Ruleset) -> None:
    """GLOBE-3: in finished random games on the real map, the Globetrotter goes exactly to
    the players with the most completed tickets, counted from the scored tickets."""
    awarded = 0
    for seed in range(8):
        players = 2 + seed % 2
        state, _ = play_random(nordic, players, seed, seed)
        sheet = score_game(nordic, state)
        counts = [sum(t.completed for t in p.tickets) for p in sheet.players]
        assert counts == [p.tickets_completed for p in sheet.players]
        top = max(counts)
        expected = [10 if top > 0 and n == top else 0 for n in counts]
        assert [p.bonuses["globetrotter"] for p in sheet.players] == expected
        assert [set(p.bonuses) for p in sheet.players] == [{"globetrotter"}] * players
        awarded += top > 0
    assert awarded > 0


def test_globetrotter_hook_result_shape(globe: Ruleset) -> None:
    """The hook reads the finished ticket results of the complete context (GLOBE-3) and
    returns one list of points per bonus name, in seat order."""
    players = {"Red": (["A-B"], ["A-B", "A-H"]), "Blue": ([], ["D-H"]), "Green": (["G-H"], ["G-H"])}
    ctx = scoring_context(globe, position(globe, players))
    assert ctx.complete
    assert [[r.completed for r in results] for results in ctx.ticket_results] == [
        [True, False],
        [False],
        [True],
    ]
    assert ttr_nordic.ttr_final_bonuses(context=ctx) == {"globetrotter": [10, 0, 10]}
    ctx = scoring_context(globe, position(globe, {"Red": ([], ["A-H"]), "Blue": ([], [])}))
    assert ttr_nordic.ttr_final_bonuses(context=ctx) == {"globetrotter": [0, 0]}


# -- no longest path bonus (NC-18) ---------------------------------------------------------


def test_nc_18_no_longest_path_bonus(globe: Ruleset, nordic: Ruleset) -> None:
    """NC-18: the longest path is measured and reported but earns nothing; the only bonus
    is the Globetrotter, also on the real map."""
    sheet = score(globe, {"Red": (["A-B", "B-C"], []), "Blue": (["G-H"], [])})
    assert [p.longest_path for p in sheet.players] == [2, 1]
    assert [dict(p.bonuses) for p in sheet.players] == [{"globetrotter": 0}] * 2
    assert [p.total for p in sheet.players] == [2, 1]
    rs, pos = read_position(json.dumps(REAL_N4))
    out = scoresheet_json(rs, score_position(rs, pos))
    for player in out["players"]:
        assert set(player["bonuses"]) == {"globetrotter"}
        assert "longest_path" in player


def test_nc_18_path_option_changes_nothing(nordic: Ruleset) -> None:
    """NC-18: even with ``longest_path_at_zero`` the edition awards no path bonus."""
    rs = Ruleset.build("nordic", {"longest_path_at_zero": True})
    sheet = score_position(rs, parse_position(rs, nordic_position(player("Ann"), player("Bo"))))
    assert [dict(p.bonuses) for p in sheet.players] == [{"globetrotter": 0}] * 2
    assert [p.total for p in sheet.players] == [0, 0]
    assert sheet.winners == (0, 1)


# -- tie-breakers (NC-19) --------------------------------------------------------------------

TIE_ROUTES: Board = (
    ("A", "B", 4, "gray"),
    ("B", "C", 1, "gray"),
    ("D", "E", 6, "gray"),
    ("K", "L", 3, "gray"),
    ("L", "M", 3, "gray"),
)
TIE_TICKETS: Tickets = (
    ("A", "B", 2),
    ("A", "C", 2),
    ("D", "E", 7),
    ("K", "L", 2),
    ("K", "M", 2),
)
RED = (["A-B", "B-C"], ["A-B", "A-C"])
"""7 + 1 route points, +4 for 2 tickets, the Globetrotter when it leads: 22. Path 5."""


def test_nc_19_more_completed_tickets_win_the_tie() -> None:
    """NC-19 / TIE-2: Red 8 + 4 + 10 = 22 with 2 tickets, Blue 15 + 7 = 22 with 1: Red
    wins."""
    rs = nordic_fixture(TIE_ROUTES, TIE_TICKETS)
    sheet = score(rs, {"Red": RED, "Blue": (["D-E"], ["D-E"])})
    assert [p.total for p in sheet.players] == [22, 22]
    assert [p.tickets_completed for p in sheet.players] == [2, 1]
    assert sheet.winners == (0,)


def test_nc_19_equal_tickets_share_the_win() -> None:
    """NC-19 / TIE-5: Red and Blue both score 22 with 2 completed tickets and the shared
    Globetrotter: nothing else separates them and the win is shared, although Blue's path
    (6) is longer than Red's (5)."""
    rs = nordic_fixture(TIE_ROUTES, TIE_TICKETS)
    sheet = score(rs, {"Red": RED, "Blue": (["K-L", "L-M"], ["K-L", "K-M"])})
    assert [p.total for p in sheet.players] == [22, 22]
    assert [p.longest_path for p in sheet.players] == [5, 6]
    assert sheet.winners == (0, 1)


def test_nc_19_auxiliary_option_breaks_by_path() -> None:
    """NC-19 / TIE-6: with ``tie_break="auxiliary"`` the longer path wins the same tie
    (2000 + 6 against 2000 + 5)."""
    rs = nordic_fixture(TIE_ROUTES, TIE_TICKETS, tie_break="auxiliary")
    sheet = score(rs, {"Red": RED, "Blue": (["K-L", "L-M"], ["K-L", "K-M"])})
    assert sheet.winners == (1,)


# -- impossible Nordic positions ---------------------------------------------------------------


def player(name: str, routes: Sequence[dict[str, Any]] = (), **extra: Any) -> dict[str, Any]:
    return {"name": name, "routes": list(routes), "tickets": [], **extra}


def nordic_position(*players: dict[str, Any]) -> dict[str, Any]:
    return {"edition": "nordic", "players": list(players)}


BODEN_KIRUNA = ({"a": "Boden", "b": "Kiruna", "color": "black"},)
KIRUNA_BODEN = ({"a": "Kiruna", "b": "Boden", "color": "orange"},)


def test_stations_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """NC-1: Nordic Countries has no stations; a position listing one is refused."""
    line = score_error(
        capsys, tmp_path, nordic_position(player("Ann", stations=["Oslo"]), player("Bo"))
    )
    assert line.endswith("players[0].stations: nordic has no stations")


def test_empty_stations_are_accepted(nordic: Ruleset) -> None:
    """An empty station list means no station and is accepted."""
    pos = parse_position(nordic, nordic_position(player("Ann", stations=[]), player("Bo")))
    assert pos.players[0].stations == ()


def test_nc_6_both_tracks_refused_with_two_players(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """NC-6 / DOUBLE-2: with 2 players only one track of Boden-Kiruna is used."""
    data = nordic_position(player("Ann", BODEN_KIRUNA), player("Bo", KIRUNA_BODEN))
    line = score_error(capsys, tmp_path, data)
    assert "players[1].routes[0]: the other track of the double route Kiruna-Boden" in line
    assert "with 2 players only one track" in line
    assert "DOUBLE-2, both from 3 players" in line


def test_nc_6_both_tracks_allowed_with_three_players(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """NC-6: with 3 players two players may hold the two tracks of Boden-Kiruna."""
    data = nordic_position(player("Ann", BODEN_KIRUNA), player("Bo", KIRUNA_BODEN), player("Cy"))
    sheet = run_score(capsys, tmp_path, data)
    assert [p["route_points"] for p in sheet["players"]] == [4, 4, 0]


def test_nc_6_uneven_double_with_three_players(nordic: Ruleset) -> None:
    """NC-6: the tracks of Mo i Rana-Trondheim (green 5 tunnel, red 6 ferry) go to two
    players of three, picked by colour; with 2 players the second is refused."""
    green = ({"a": "Mo i Rana", "b": "Trondheim", "color": "green"},)
    red = ({"a": "Trondheim", "b": "Mo I Rana", "color": "red"},)
    pos = parse_position(
        nordic, nordic_position(player("Ann", green), player("Bo", red), player("Cy"))
    )
    sheet = score_position(nordic, pos)
    assert [p.route_points for p in sheet.players] == [10, 15, 0]
    assert [
        index_of(nordic).routes[r].id for r in (*pos.players[0].routes, *pos.players[1].routes)
    ] == [
        55,
        56,
    ]
    with pytest.raises(PositionError, match="rule DOUBLE-2"):
        parse_position(nordic, nordic_position(player("Ann", green), player("Bo", red)))


def test_double_1_one_player_never_holds_both(nordic: Ruleset) -> None:
    """DOUBLE-1: not even with 3 players may one player hold both tracks."""
    with pytest.raises(PositionError, match=r"cannot own both tracks.*DOUBLE-1"):
        parse_position(
            nordic,
            nordic_position(player("Ann", BODEN_KIRUNA + KIRUNA_BODEN), player("Bo"), player("Cy")),
        )


def test_uneven_double_needs_its_colour(nordic: Ruleset) -> None:
    """A double route whose tracks differ must be named with its colour."""
    with pytest.raises(PositionError, match=r'double route .*give its "color"'):
        parse_position(
            nordic, nordic_position(player("Ann", ({"a": "Helsinki", "b": "Stockholm"},)))
        )


def test_nc_1_at_most_three_players_and_forty_trains(nordic: Ruleset) -> None:
    """NC-1: four players, or routes needing more than 40 trains, are refused."""
    with pytest.raises(PositionError, match="nordic is played by at most 3 players, got 4"):
        parse_position(nordic, nordic_position(*(player(f"P{i}") for i in range(4))))
    long_routes = [
        {"a": "Murmansk", "b": "Lieksa"},
        {"a": "Mo I Rana", "b": "Trondheim", "color": "red"},
        {"a": "Kirkenes", "b": "Rovaniemi"},
        {"a": "Åndalsnes", "b": "Bergen"},
        {"a": "Mo I Rana", "b": "Narvik"},
        {"a": "Honningsvåg", "b": "Tromsø"},
        {"a": "Stockholm", "b": "Tallinn"},
    ]
    # 9 + 6 + 5 + 5 + 4 + 4 + 4 = 37 trains, then a 4 or a 3 more.
    too_many = [*long_routes, {"a": "Kuopio", "b": "Vaasa"}]
    with pytest.raises(PositionError, match="use 41 trains, but a player has only 40"):
        parse_position(nordic, nordic_position(player("Ann", too_many)))
    all_forty = [*long_routes, {"a": "Oulu", "b": "Vaasa"}]
    pos = parse_position(nordic, nordic_position(player("Ann", all_forty)))
    assert sum(index_of(nordic).route_len[r] for r in pos.players[0].routes) == 40


def test_finished_game_is_a_valid_score_input(nordic: Ruleset) -> None:
    """The holdings of a finished 3-player game, written as ``ttr score`` input (colours
    picking the tracks of uneven doubles), read back and score the same."""
    state, _ = play_random(nordic, 3, 9, 9)
    pos = position_of(nordic, state, ["A", "B", "C"])
    again = parse_position(nordic, position_to_json(nordic, pos))
    assert again == pos
    assert score_position(nordic, again) == score_position(nordic, pos)
