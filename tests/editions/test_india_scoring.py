"""India final scoring: the worked examples EX-I1 to EX-I3, the Grand Tour (GRAND-n), the
India Express (IN-11), the tie-breakers (IN-12) and ``ttr score``.

The examples are scored on letter boards of a small fixture edition with India's
parameters and the India plugin's Grand Tour, through the library and through
``ttr score``. A Hypothesis test checks the Grand Tour count against a brute force on
random networks. The real-map position ``examples/positions/india.json`` is worked out by
hand and scored through ``ttr score``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
import ttr_india
from hypothesis import given
from hypothesis import strategies as st

from ttr_core import EditionInfo, PositionError, Ruleset, hookimpl
from ttr_core.cli import main
from ttr_core.formats.position import parse_position, read_position
from ttr_core.model.mapdata import MapData, structure_map
from ttr_core.plugin import ScoringContext
from ttr_core.rules.scoring import (
    PlayerPosition,
    Position,
    position_of,
    score_position,
    scoring_context,
)
from ttr_core.ruleset import editions as edition
from ttr_core.ruleset.editions import InstalledEdition
from ttr_core.testing.play import play_random
from ttr_core.testing.scenarios import BASE_PARAMETERS, map_dict, position, score

ROOT = Path(__file__).resolve().parents[2]
REAL_POSITION = ROOT / "examples" / "positions" / "india.json"

INDIA_PARAMETERS: dict[str, Any] = {
    **BASE_PARAMETERS,
    "players": [2, 4],
    "route_points": {"1": 1, "2": 2, "3": 4, "4": 7, "6": 15, "8": 21},
    "opening_tickets": {"deal": 4, "keep": 2, "returned": "bottom"},
    "longest_path_bonus_name": "india_express",
}
"""India's parameters, written out for the fixture edition."""

Board = tuple[tuple[str, str, int, str], ...]
Tickets = tuple[tuple[str, str, int], ...]
Holdings = Mapping[str, tuple[Sequence[str], Sequence[str]]]


class IndiaFixture:
    """An edition plugin serving a letter board with India's rules: its own map and
    identity, and the India plugin's Grand Tour."""

    def __init__(self, data: MapData) -> None:
        self.data = data

    @hookimpl
    def ttr_edition_info(self) -> EditionInfo:
        return EditionInfo(id="indiafix", name="India fixture", aliases=(), rules_version="1")

    @hookimpl
    def ttr_map_data(self, options: Mapping[str, Any]) -> MapData:
        return self.data

    @hookimpl
    def ttr_final_bonuses(self, context: ScoringContext) -> Mapping[str, Sequence[int]]:
        return ttr_india.ttr_final_bonuses(context=context)


def india_fixture(routes: Iterable[tuple[str, str, int, str]], tickets: Tickets) -> Ruleset:
    """A ruleset with India's parameters and Grand Tour on a letter board."""
    data = structure_map(
        map_dict(routes, tickets, edition="indiafix", **copy.deepcopy(INDIA_PARAMETERS))
    )
    return Ruleset(IndiaFixture(data))


@pytest.fixture(scope="module")
def india() -> Ruleset:
    return Ruleset.build("india")


def run_score(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    """``ttr score`` on a position file; it must succeed with nothing on standard error."""
    assert main(["score", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    result: dict[str, Any] = json.loads(out)
    return result


def score_fixture_json(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    rs: Ruleset,
    players: Holdings,
) -> dict[str, Any]:
    """``ttr score`` on holdings of a fixture board, with the fixture edition installed."""
    plugin = IndiaFixture(rs.map)
    found = dict(edition.installed_editions())
    found["indiafix"] = InstalledEdition(
        info=plugin.ttr_edition_info(),
        plugin=plugin,
        distribution="tests",
        builtin=False,
        players=(2, 4),
    )
    monkeypatch.setattr(edition, "installed_editions", lambda refresh=False: found)
    data = {
        "edition": "indiafix",
        "players": [
            {
                "name": name,
                "routes": [dict(zip("ab", spec.split("-"), strict=True)) for spec in routes],
                "tickets": [dict(zip("ab", spec.split("-"), strict=True)) for spec in tickets],
            }
            for name, (routes, tickets) in players.items()
        ],
    }
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return run_score(capsys, path)


def qualifying(rs: Ruleset, players: Holdings) -> list[tuple[int, ...]]:
    """The ids of each player's tickets that qualify for the Grand Tour."""
    ctx = scoring_context(rs, position(rs, players))
    return [ttr_india.qualifying_tickets(ctx, seat) for seat in range(len(players))]


# -- EX-I1 ---------------------------------------------------------------------------------

I1_ROUTES: Board = (
    ("A", "B", 2, "red"),
    ("B", "C", 3, "blue"),
    ("C", "D", 2, "green"),
    ("D", "A", 3, "gray"),
    ("C", "E", 4, "gray"),
    ("F", "G", 3, "gray"),
)
I1_TICKETS: Tickets = (("A", "C", 9), ("B", "D", 6), ("A", "E", 10), ("F", "G", 5))
I1_PLAYER = (["A-B", "B-C", "C-D", "D-A", "C-E"], ["A-C", "B-D", "A-E"])


@pytest.fixture(scope="module")
def i1() -> Ruleset:
    return india_fixture(I1_ROUTES, I1_TICKETS)


def test_ex_i1_parts_of_the_score(i1: Ruleset) -> None:
    """EX-I1 / GRAND-1 / GRAND-3 / GRAND-6 / IN-10: route points 2 + 4 + 2 + 4 + 7 = 19,
    longest path E-C-B-A-D-C = 14, tickets +9 +6 +10 = +25; A-C and B-D qualify, A-E
    (cut off by removing C-E) does not: Grand Tour +10."""
    sheet = score(i1, {"Red": I1_PLAYER})
    (red,) = sheet.players
    assert (red.route_points, red.longest_path) == (19, 14)
    assert [t.points for t in red.tickets] == [9, 6, 10]
    assert [t.completed for t in red.tickets] == [True, True, True]
    assert red.ticket_points == 25
    assert red.bonuses["grand_tour"] == 10
    assert qualifying(i1, {"Red": I1_PLAYER}) == [(1, 2)]


def test_ex_i1_total_64_with_the_express(i1: Ruleset) -> None:
    """EX-I1 / IN-11: with 14 the longest at the table (Blue's path is 3), Red also scores
    the India Express: 19 + 25 + 10 + 10 = 64."""
    sheet = score(i1, {"Red": I1_PLAYER, "Blue": (["F-G"], ["F-G"])})
    red, blue = sheet.players
    assert dict(red.bonuses) == {"india_express": 10, "grand_tour": 10}
    assert red.total == 64
    assert dict(blue.bonuses) == {"india_express": 0, "grand_tour": 0}
    assert blue.total == 4 + 5
    assert sheet.winners == (0,)


# -- EX-I2 ---------------------------------------------------------------------------------

I2_ROUTES: Board = (
    ("P", "Q", 1, "red"),
    ("Q", "X", 2, "blue"),
    ("X", "P", 1, "gray"),
    ("X", "R", 2, "green"),
    ("R", "S", 1, "gray"),
    ("S", "X", 2, "white"),
)
I2_TICKETS: Tickets = (("P", "R", 7), ("Q", "S", 5), ("P", "X", 4))
I2_PLAYER = (["P-Q", "Q-X", "X-P", "X-R", "R-S", "S-X"], ["P-R", "Q-S", "P-X"])


@pytest.fixture(scope="module")
def i2() -> Ruleset:
    return india_fixture(I2_ROUTES, I2_TICKETS)


def test_ex_i2_figure_eight_qualifies(i2: Ruleset) -> None:
    """EX-I2 / GRAND-2 / GRAND-3: two triangles meeting at X; the paths of P-R and Q-S
    must both pass X, yet share no route, so all three tickets qualify: Grand Tour +20."""
    sheet = score(i2, {"Red": I2_PLAYER})
    (red,) = sheet.players
    assert (red.route_points, red.longest_path, red.ticket_points) == (9, 9, 16)
    assert red.bonuses["grand_tour"] == 20
    assert qualifying(i2, {"Red": I2_PLAYER}) == [(1, 2, 3)]


def test_ex_i2_total_55_not_40(i2: Ruleset) -> None:
    """EX-I2 / GRAND-6: 9 + 16 + 20 + 10 = 55; demanding paths without a common city would
    count only P-X (Grand Tour 5) and give 40."""
    (red,) = score(i2, {"Red": I2_PLAYER}).players
    assert red.total == 55
    assert red.total != 9 + 16 + 5 + 10


# -- EX-I3 ---------------------------------------------------------------------------------

CYCLE = ("A", "B", "C", "D", "E", "F")
I3_ROUTES: Board = (
    *((a, b, 1, "gray") for a, b in zip(CYCLE, CYCLE[1:] + CYCLE[:1], strict=True)),
    ("G", "H", 1, "gray"),
    ("G", "H", 1, "gray"),
)
I3_PAIRS = ("A-C", "A-D", "B-E", "C-F", "B-D", "A-E", "G-H")
I3_TICKETS: Tickets = tuple((pair[0], pair[2], 5) for pair in I3_PAIRS)
I3_RING = ["A-B", "B-C", "C-D", "D-E", "E-F", "F-A"]


@pytest.fixture(scope="module")
def i3() -> Ruleset:
    return india_fixture(I3_ROUTES, I3_TICKETS)


def test_ex_i3_grand_6_table() -> None:
    """EX-I3 / GRAND-6: 0 -> 0, 1 -> 5, 2 -> 10, 3 -> 20, 4 -> 30, 5 -> 40, 6 -> 40 (not 50)."""
    table = [ttr_india.grand_tour_points(q) for q in range(9)]
    assert table == [0, 5, 10, 20, 30, 40, 40, 40, 40]


@pytest.mark.parametrize(
    ("held", "points"), [(0, 0), (1, 5), (2, 10), (3, 20), (4, 30), (5, 40), (6, 40)]
)
def test_ex_i3_table_through_scoring(i3: Ruleset, held: int, points: int) -> None:
    """EX-I3 / GRAND-6: a player on a 6-city ring holding ``held`` tickets between ring
    cities (each qualifies) scores the table's points, capped at 40."""
    sheet = score(i3, {"Red": (I3_RING, list(I3_PAIRS[:held]))})
    (red,) = sheet.players
    assert red.tickets_completed == held
    assert red.bonuses["grand_tour"] == points
    assert red.total == 6 + 5 * held + points + 10


def test_ex_i3_grand_4_failed_ticket_never_qualifies(i3: Ruleset) -> None:
    """EX-I3 / GRAND-4: on the ring, A-C qualifies while G-H, not completed, does not:
    Grand Tour 5. On a broken ring A-B-C-D, the completed A-C and A-D do not qualify
    (each of their tracks is a bridge) and the failed B-E counts nothing."""
    sheet = score(i3, {"Red": (I3_RING, ["A-C", "G-H"])})
    (red,) = sheet.players
    assert [t.completed for t in red.tickets] == [True, False]
    assert red.bonuses["grand_tour"] == 5
    broken = (["A-B", "B-C", "C-D"], ["A-C", "A-D", "B-E"])
    (red,) = score(i3, {"Red": broken}).players
    assert [t.completed for t in red.tickets] == [True, True, False]
    assert red.bonuses["grand_tour"] == 0
    assert qualifying(i3, {"Red": broken}) == [()]


def test_grand_4_a_ticket_counts_once(brute: Ruleset) -> None:
    """GRAND-4: A-C joined by three paths with no common track (direct, through B and
    through D) is still one qualifying ticket: Grand Tour 5."""
    routes = ["A-C", "A-B", "B-C", "A-D", "D-C"]
    (red,) = score(brute, {"Red": (routes, ["A-C"])}).players
    assert red.bonuses["grand_tour"] == 5
    assert qualifying(brute, {"Red": (routes, ["A-C"])}) == [(brute.map.tickets[1].id,)]


def test_ex_i3_grand_5_one_track_of_a_double_gives_no_second_path(i3: Ruleset) -> None:
    """EX-I3 / GRAND-5 / DOUBLE-1: G-H joined by one track of a double route is completed
    but does not qualify, even when another player of 4 holds the other track; a
    position where one player holds both is refused."""
    players: Holdings = {
        "Red": (["G-H"], ["G-H"]),
        "Blue": (["G-H#1"], []),
        "Green": ([], []),
        "Yellow": ([], []),
    }
    sheet = score(i3, players)
    assert sheet.players[0].tickets_completed == 1
    assert [p.bonuses["grand_tour"] for p in sheet.players] == [0, 0, 0, 0]
    data = {
        "edition": "indiafix",
        "players": [
            {
                "name": "Red",
                "routes": [
                    {"a": "G", "b": "H"},
                    {"a": "H", "b": "G"},
                ],
                "tickets": [{"a": "G", "b": "H"}],
            },
            {"name": "Blue", "routes": [], "tickets": []},
            {"name": "Green", "routes": [], "tickets": []},
            {"name": "Yellow", "routes": [], "tickets": []},
        ],
    }
    with pytest.raises(PositionError, match=r"cannot own both tracks.*DOUBLE-1"):
        parse_position(i3, data)


@pytest.mark.parametrize(
    ("rs_name", "players", "totals"),
    [
        ("i1", {"Red": I1_PLAYER, "Blue": (["F-G"], ["F-G"])}, [64, 9]),
        ("i2", {"Red": I2_PLAYER}, [55]),
        (
            "i3",
            {"Red": (I3_RING, list(I3_PAIRS[:6])), "Blue": (["G-H"], ["G-H"])},
            [6 + 30 + 40 + 10, 1 + 5],
        ),
    ],
    ids=["EX-I1", "EX-I2", "EX-I3"],
)
def test_ex_i1_to_i3_through_ttr_score(
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    rs_name: str,
    players: Holdings,
    totals: list[int],
) -> None:
    """EX-I1 / EX-I2 / EX-I3: the same positions give the same totals and Grand Tour
    bonuses through the command line, with the fixture edition installed."""
    rs: Ruleset = request.getfixturevalue(rs_name)
    sheet = score_fixture_json(monkeypatch, capsys, tmp_path, rs, players)
    assert [p["total"] for p in sheet["players"]] == totals
    library = score(rs, players)
    assert [p["bonuses"] for p in sheet["players"]] == [dict(p.bonuses) for p in library.players]
    assert [p["total"] for p in sheet["players"]] == [p.total for p in library.players]


# -- the Grand Tour: brute force on random networks (GRAND-1, GRAND-3, GRAND-7) -------------

LETTERS = "ABCDEFG"
PAIRS = [(a, b) for a, b in combinations(LETTERS, 2)]
BRUTE_ROUTES: Board = tuple((a, b, 1, "gray") for a, b in PAIRS for _ in range(2))
"""Every pair of 7 cities joined by a double route of 1 space: 42 tracks."""
BRUTE_TICKETS: Tickets = tuple((a, b, 3) for a, b in PAIRS)


@pytest.fixture(scope="module")
def brute() -> Ruleset:
    return india_fixture(BRUTE_ROUTES, BRUTE_TICKETS)


def joined(edges: Sequence[tuple[str, str]], a: str, b: str) -> bool:
    """Naive search: whether ``a`` reaches ``b`` over ``edges``."""
    seen, todo = {a}, [a]
    while todo:
        city = todo.pop()
        for x, y in edges:
            for here, there in ((x, y), (y, x)):
                if here == city and there not in seen:
                    seen.add(there)
                    todo.append(there)
    return b in seen


def brute_qualifies(edges: Sequence[tuple[str, str]], a: str, b: str) -> bool:
    """Connected, and still connected after removing any single track (Menger)."""
    if not joined(edges, a, b):
        return False
    return all(joined([*edges[:i], *edges[i + 1 :]], a, b) for i in range(len(edges)))


def brute_points(q: int) -> int:
    return {0: 0, 1: 5, 2: 10, 3: 20, 4: 30}.get(q, 40)


NETWORKS = st.lists(st.integers(0, len(BRUTE_ROUTES) - 1), max_size=11, unique=True)
TICKET_SETS = st.lists(st.integers(0, len(PAIRS) - 1), max_size=8, unique=True)


@given(NETWORKS, TICKET_SETS, NETWORKS, TICKET_SETS)
def test_grand_3_count_matches_brute_force(
    brute: Ruleset,
    red_routes: list[int],
    red_tickets: list[int],
    blue_routes: list[int],
    blue_tickets: list[int],
) -> None:
    """GRAND-1 / GRAND-3 / GRAND-6 / GRAND-7: on random networks of two players (double
    routes included, tracks of one player taken out of the other's), each player's
    qualifying tickets and Grand Tour points equal a brute force that removes each own
    track in turn; the other player's tracks never help."""
    blue_routes = [r for r in blue_routes if r not in red_routes]
    pos = Position(
        players=(
            PlayerPosition(name="Red", routes=tuple(red_routes), tickets=tuple(red_tickets)),
            PlayerPosition(name="Blue", routes=tuple(blue_routes), tickets=tuple(blue_tickets)),
        )
    )
    sheet = score_position(brute, pos)
    ctx = scoring_context(brute, pos)
    for seat, (routes, tickets) in enumerate(
        ((red_routes, red_tickets), (blue_routes, blue_tickets))
    ):
        edges = [brute.map.routes[r].cities for r in routes]
        expected = tuple(
            brute.map.tickets[t].id for t in tickets if brute_qualifies(edges, *PAIRS[t])
        )
        assert ttr_india.qualifying_tickets(ctx, seat) == expected
        assert sheet.players[seat].bonuses["grand_tour"] == brute_points(len(expected))
        network = ctx.networks[seat]
        for a, b in PAIRS:
            assert network.two_edge_connected(a, b) == brute_qualifies(edges, a, b)
        bridges = [
            track.cities
            for i, track in enumerate(brute.map.routes[r] for r in routes)
            if not joined([*edges[:i], *edges[i + 1 :]], *track.cities)
        ]
        assert [t.cities for t in network.bridges()] == bridges


def test_grand_3_brute_force_sees_what_it_should() -> None:
    """The brute force itself: a cycle qualifies, a path or a figure eight's cut edge does
    not."""
    ring = [("A", "B"), ("B", "C"), ("C", "A")]
    assert brute_qualifies(ring, "A", "B")
    assert not brute_qualifies(ring[:2], "A", "C")
    assert not brute_qualifies([*ring, ("C", "D")], "A", "D")
    assert brute_qualifies([("A", "B"), ("A", "B")], "A", "B")


# -- the Grand Tour on the real map ------------------------------------------------------------


def test_grand_7_random_games_score_every_player(india: Ruleset) -> None:
    """GRAND-7 / GRAND-4: in finished random games on the real map the Grand Tour is listed
    for every player and equals the table value of that player's own qualifying tickets,
    which are always completed ones."""
    for seed in range(6):
        players = 2 + seed % 3
        state, _ = play_random(india, players, seed, seed)
        pos = position_of(india, state, [f"P{i}" for i in range(players)])
        sheet = score_position(india, pos)
        ctx = scoring_context(india, pos)
        for seat, player in enumerate(sheet.players):
            ids = ttr_india.qualifying_tickets(ctx, seat)
            done = {t.ticket for t in player.tickets if t.completed}
            assert set(ids) <= done
            assert player.bonuses["grand_tour"] == ttr_india.grand_tour_points(len(ids))
            assert set(player.bonuses) == {"india_express", "grand_tour"}


# -- the India Express and tie-breakers (IN-11, IN-12) ------------------------------------------

TIE_ROUTES: Board = (
    ("A", "B", 2, "gray"),
    ("B", "C", 2, "gray"),
    ("D", "E", 3, "gray"),
    ("G", "H", 3, "gray"),
    ("I", "J", 3, "gray"),
    ("E", "F", 2, "gray"),
    ("F", "K", 2, "gray"),
    ("L", "M", 2, "gray"),
    ("M", "N", 2, "gray"),
)
TIE_TICKETS: Tickets = (("A", "B", 1), ("A", "C", 3), ("L", "N", 4), ("D", "E", 5), ("E", "K", 3))
RED_TWO = (["A-B", "B-C"], ["A-B", "A-C"])
"""4 route points, +1 +3 for 2 completed tickets, a path of 4: 18 with the Express."""
RED_ONE = (["A-B", "B-C"], ["A-C"])
"""4 route points, +3 for 1 completed ticket, a path of 4: 17 with the Express."""


@pytest.fixture(scope="module")
def tie() -> Ruleset:
    return india_fixture(TIE_ROUTES, TIE_TICKETS)


def test_in_12_more_completed_tickets_win_the_tie(tie: Ruleset) -> None:
    """IN-12 / TIE-2: Red 4 + 4 + 10 = 18 with 2 completed tickets, Blue 4 + 4 + 10 = 18
    with 1: Red wins; both hold the shared India Express (IN-11)."""
    sheet = score(tie, {"Red": RED_TWO, "Blue": (["L-M", "M-N"], ["L-N"])})
    assert [p.total for p in sheet.players] == [18, 18]
    assert [p.bonuses["india_express"] for p in sheet.players] == [10, 10]
    assert [p.tickets_completed for p in sheet.players] == [2, 1]
    assert sheet.winners == (0,)


def test_in_12_then_the_express_holder(tie: Ruleset) -> None:
    """IN-12 / TIE-4: Red 4 + 3 + 10 = 17 with the Express (path 4), Blue 12 + 5 = 17
    without it (path 3), one completed ticket each: the Express holder wins, in either
    seat order."""
    blue = (["D-E", "G-H", "I-J"], ["D-E"])
    sheet = score(tie, {"Red": RED_ONE, "Blue": blue})
    assert [p.total for p in sheet.players] == [17, 17]
    assert [p.longest_path for p in sheet.players] == [4, 3]
    assert [p.tickets_completed for p in sheet.players] == [1, 1]
    assert sheet.winners == (0,)
    assert score(tie, {"Blue": blue, "Red": RED_ONE}).winners == (1,)


def test_in_11_in_12_shared_express_then_shared_win(tie: Ruleset) -> None:
    """IN-11 / IN-12 / TIE-5: Red and Blue both have a path of 4 and share the India
    Express; 17 each with one completed ticket each: they share the win."""
    sheet = score(tie, {"Red": RED_ONE, "Blue": (["E-F", "F-K"], ["E-K"])})
    assert [p.bonuses["india_express"] for p in sheet.players] == [10, 10]
    assert [p.total for p in sheet.players] == [17, 17]
    assert sheet.winners == (0, 1)


# -- a real-map position through ttr score -------------------------------------------------------


def test_real_map_position_worked_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """IN-10 / IN-11 / GRAND-1 to GRAND-3 / GRAND-6 / GRAND-7 / TICKET-7 on the real map,
    through ``ttr score`` on ``examples/positions/india.json``, every figure worked out by
    hand (route points 1, 2, 4, 7, 15, 21 for lengths 1, 2, 3, 4, 6, 8). Three players, so
    one track of each double route is used.

    Asha, 20 routes, 40 trains: 2+1+2+2+1+1+4+4+2+2+1+2+1+2+7+1+1+4+2+7 = 49. Around Agra
    lie the cycle Agra-Katni-Bilaspur-Bhopal and the cycle Bhopal-Khandwa-Raipur-Bilaspur
    (sharing Bilaspur-Bhopal) on one side, the triangle Agra-Jaipur-Delhi and the cycle
    Delhi-Bhatinda-Jodhpur-Jaipur on the other; the triangle Delhi-Lucknow-Bareilly hangs on
    Delhi. Khandwa-Manmad, Manmad-Indur, Indur-Wadi and Bilaspur-Calcutta are bridges.

    - Katni-Khandwa 5 qualifies: Katni-Bilaspur-Raipur-Khandwa and Katni-Agra-Bhopal-Khandwa.
    - Jaipur-Raipur 5 qualifies through a figure eight at Agra: Jaipur-Agra-Bhopal-Khandwa-
      Raipur and Jaipur-Delhi-Agra-Katni-Bilaspur-Raipur.
    - Bhatinda-Bilaspur 7 qualifies, also meeting at Agra: Bhatinda-Delhi-Agra-Katni-Bilaspur
      and Bhatinda-Jodhpur-Jaipur-Agra-Bhopal-Bilaspur.
    - Jodhpur-Lucknow 5 qualifies through a figure eight at Delhi: Jodhpur-Jaipur-Delhi-
      Lucknow and Jodhpur-Bhatinda-Delhi-Bareilly-Lucknow.
    - Katni-Wadi 8 is completed, but the bridge Khandwa-Manmad cuts it: no Grand Tour.
    - Lahore-Delhi 5 fails (Chandra holds Bhatinda-Lahore, whose twin is closed): -5.

    Tickets 5+5+7+5+8-5 = 25, 5 completed, Grand Tour 30 (4 tickets). Longest path 36: six
    cities have an odd number of tracks (Delhi, Jaipur, Bhopal, Khandwa, Wadi, Calcutta), no
    two of them less than 2 spaces apart, so evening out four of them costs 4 spaces at
    least; leaving out Delhi-Jaipur and Bhopal-Khandwa does it: 40 - 4, from Wadi to
    Calcutta. Total 49 + 25 + 30 = 104.

    Bharat, 15 routes, 43 trains (2 left, so the game is over):
    2+2+2+2+4+2+21+4+7+1+2+2+7+2+7 = 67. Patna-Madras 9 qualifies through the figure eight at
    Calcutta: Patna-Calcutta-Madras and Patna-Dhubri-Calcutta-Waltain-Madras. Katni-Waltain 5
    is completed but cut by the bridge Katni-Patna, Madras-Quilon 6 by Madras-Erode and
    Erode-Quilon; Raipur-Guntakal 7 fails. Tickets 9+5+6-7 = 13, 3 completed, Grand Tour 5.
    Odd cities Katni, Bareilly, Quilon, Waltain; the cheapest pair is Katni-Patna-Bareilly
    (6 spaces): a path of 43 - 6 = 37 from Quilon to Waltain, the longest, shared.
    Total 67 + 13 + 10 + 5 = 95.

    Chandra, 16 routes, 40 trains: 1+4+4+2+1+4+15+4+4+4+1+1+1+2+1+15 = 64 with two 6-space
    ferries. Karachi-Poona 7 and Ahmadabad-Calicut 7 qualify through figure eights at Bombay
    (Karachi-Bombay-Poona and Karachi-Jodhpur-Ahmadabad-Bombay-Mormugau-Poona;
    Ahmadabad-Bombay-Calicut and Ahmadabad-Jodhpur-Karachi-Bombay-Mormugau-Mangalore-
    Calicut). Jacobabad-Bombay 10 and Rohri-Mangalore 12 are completed but cut by the
    bridges Jacobabad-Rohri and Rohri-Karachi; Peshawar-Madras 17 fails. Tickets
    7+10+12+7-17 = 19, 4 completed, Grand Tour 10. Six odd cities; only Bombay-Mormugau is 1
    space, the next cheapest pair Lahore-Bhatinda 2: a path of 40 - 3 = 37 from Jacobabad to
    Karachi, tied with Bharat. Total 64 + 19 + 10 + 10 = 103.

    Asha wins, 104 to 103, on the Grand Tour.
    """
    sheet = run_score(capsys, REAL_POSITION)
    assert sheet["edition"] == "india"
    asha, bharat, chandra = sheet["players"]
    assert (asha["route_points"], asha["ticket_points"], asha["total"]) == (49, 25, 104)
    assert [(t["a"], t["b"], t["points"], t["completed"]) for t in asha["tickets"]] == [
        ("Katni", "Khandwa", 5, True),
        ("Jaipur", "Raipur", 5, True),
        ("Bhatinda", "Bilaspur", 7, True),
        ("Jodhpur", "Lucknow", 5, True),
        ("Katni", "Wadi", 8, True),
        ("Lahore", "Delhi", -5, False),
    ]
    assert (asha["tickets_completed"], asha["longest_path"]) == (5, 36)
    assert asha["bonuses"] == {"india_express": 0, "grand_tour": 30}
    assert (bharat["route_points"], bharat["ticket_points"], bharat["total"]) == (67, 13, 95)
    assert [(t["a"], t["b"], t["points"], t["completed"]) for t in bharat["tickets"]] == [
        ("Patna", "Madras", 9, True),
        ("Katni", "Waltain", 5, True),
        ("Madras", "Quilon", 6, True),
        ("Raipur", "Guntakal", -7, False),
    ]
    assert (bharat["tickets_completed"], bharat["longest_path"]) == (3, 37)
    assert bharat["bonuses"] == {"india_express": 10, "grand_tour": 5}
    assert (chandra["route_points"], chandra["ticket_points"], chandra["total"]) == (64, 19, 103)
    assert [(t["a"], t["b"], t["points"], t["completed"]) for t in chandra["tickets"]] == [
        ("Karachi", "Poona", 7, True),
        ("Jacobabad", "Bombay", 10, True),
        ("Rohri", "Mangalore", 12, True),
        ("Ahmadabad", "Calicut", 7, True),
        ("Peshawar", "Madras", -17, False),
    ]
    assert (chandra["tickets_completed"], chandra["longest_path"]) == (4, 37)
    assert chandra["bonuses"] == {"india_express": 10, "grand_tour": 10}
    assert sheet["winners"] == ["Asha"]


def test_real_map_position_qualifying_tickets(india: Ruleset) -> None:
    """GRAND-1 / GRAND-2 / GRAND-4 / GRAND-7: the same position read in Python. Each
    player's qualifying tickets (figure eights included) and bridges are the ones named
    above, and the completed tickets that do not qualify are the ones those bridges cut."""
    rs, pos = read_position(REAL_POSITION.read_text(encoding="utf-8"))
    assert rs.id == "india"
    ctx = scoring_context(rs, pos)
    by_id = {t.id: (t.a, t.b) for t in rs.map.tickets}
    qualifying = [[by_id[t] for t in ttr_india.qualifying_tickets(ctx, s)] for s in range(3)]
    assert qualifying == [
        [
            ("Katni", "Khandwa"),
            ("Jaipur", "Raipur"),
            ("Bhatinda", "Bilaspur"),
            ("Jodhpur", "Lucknow"),
        ],
        [("Patna", "Madras")],
        [("Karachi", "Poona"), ("Ahmadabad", "Calicut")],
    ]
    bridges = [{frozenset(t.cities) for t in ctx.networks[s].bridges()} for s in range(3)]
    assert bridges == [
        {
            frozenset(("Khandwa", "Manmad")),
            frozenset(("Manmad", "Indur")),
            frozenset(("Indur", "Wadi")),
            frozenset(("Bilaspur", "Calcutta")),
        },
        {
            frozenset(("Madras", "Erode")),
            frozenset(("Erode", "Quilon")),
            frozenset(("Katni", "Patna")),
            frozenset(("Bareilly", "Patna")),
        },
        {
            frozenset(("Lahore", "Bhatinda")),
            frozenset(("Jacobabad", "Rohri")),
            frozenset(("Rohri", "Karachi")),
        },
    ]
    cut = [
        [
            by_id[r.ticket]
            for r in ctx.ticket_results[s]
            if r.completed and r.ticket not in ttr_india.qualifying_tickets(ctx, s)
        ]
        for s in range(3)
    ]
    assert cut == [
        [("Katni", "Wadi")],
        [("Katni", "Waltain"), ("Madras", "Quilon")],
        [("Jacobabad", "Bombay"), ("Rohri", "Mangalore")],
    ]


def test_real_map_position_by_alias(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The edition may be named by its alias ``indien``; the score sheet is the same."""
    data = json.loads(REAL_POSITION.read_text(encoding="utf-8"))
    expected = run_score(capsys, REAL_POSITION)
    path = tmp_path / "indien.json"
    path.write_text(json.dumps({**data, "edition": "Indien"}), encoding="utf-8")
    assert run_score(capsys, path) == expected
