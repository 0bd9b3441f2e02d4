"""Longest path, final scoring and tie-breakers (PATH, SCORE, TIE, USA-7, USA-10, USA-12),
through ``score_position`` on small letter boards."""

from __future__ import annotations

import copy
import json
from importlib.resources import files

import pytest

from ttr_core import ClaimRoute, MapDataError, Ruleset, load_map_data
from ttr_core.model.mapdata import structure_map
from ttr_core.rules.graph import longest_trail
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position, score_position
from ttr_core.testing.scenarios import (
    FixtureEdition,
    cards,
    fixture_ruleset,
    map_dict,
    position,
    score,
    started,
    step,
    track_id,
    with_player,
)

PATH_ROUTES = (
    # a line
    ("A", "B", 1, "gray"),
    ("B", "C", 2, "gray"),
    ("C", "D", 3, "gray"),
    # a figure eight: two triangles meeting at X
    ("P", "Q", 1, "gray"),
    ("Q", "X", 2, "gray"),
    ("X", "P", 1, "gray"),
    ("X", "R", 2, "gray"),
    ("R", "S", 1, "gray"),
    ("S", "X", 2, "gray"),
    # a T
    ("T", "U", 4, "gray"),
    ("U", "V", 4, "gray"),
    ("U", "W", 2, "gray"),
    # two separate pieces
    ("E", "F", 6, "gray"),
    ("F", "G", 1, "gray"),
    ("H", "I", 5, "gray"),
    # a square with a tail: the whole loop and the tail form one trail
    ("J", "K", 3, "gray"),
    ("K", "L", 3, "gray"),
    ("L", "M", 3, "gray"),
    ("M", "J", 3, "gray"),
    ("M", "N", 5, "gray"),
    ("N", "O", 1, "gray"),
)
PATH_TICKETS = (("A", "D", 6), ("P", "S", 5))


@pytest.fixture(scope="module")
def paths():
    return fixture_ruleset(PATH_ROUTES, PATH_TICKETS)


def longest(rs, routes):
    return score(rs, {"Red": (routes, [])}).players[0].longest_path


# -- longest path --------------------------------------------------------------------------


def test_path_1_line(paths):
    """PATH-1: a simple line counts all its spaces."""
    assert longest(paths, ["A-B", "B-C", "C-D"]) == 6
    assert longest(paths, ["C-D"]) == 3


def test_path_1_loops_count_in_full(paths):
    """PATH-1: a city may be passed twice, so a figure eight is walked whole."""
    eight = ["P-Q", "Q-X", "X-P", "X-R", "R-S", "S-X"]
    assert longest(paths, eight) == 9


def test_path_1_loop_with_tail(paths):
    """PATH-1: a square walked round and then left along the tail: 12 + 5 + 1."""
    assert longest(paths, ["J-K", "K-L", "L-M", "M-J", "M-N", "N-O"]) == 18


def test_path_1_no_route_used_twice(paths):
    """PATH-1: a walk never uses a route twice (a single route counts once)."""
    assert longest(paths, ["E-F"]) == 6
    assert longest_trail([(0, 1, 6)]) == 6
    assert longest_trail([]) == 0


def test_path_2_branches_do_not_add(paths):
    """PATH-2: a side branch that could only be added by walking back adds nothing."""
    assert longest(paths, ["T-U", "U-V", "U-W"]) == 8


def test_path_2_separate_networks_are_not_summed(paths):
    """PATH-2: two unconnected networks are never added together."""
    assert longest(paths, ["E-F", "F-G", "H-I"]) == 7
    assert longest(paths, ["A-B", "B-C", "H-I"]) == 5


def test_path_3_own_routes_only(paths):
    """PATH-3: another player's route does not join a player's two pieces."""
    sheet = score(paths, {"Red": (["A-B", "C-D"], []), "Blue": (["B-C"], [])})
    assert sheet.players[0].longest_path == 3
    assert sheet.players[1].longest_path == 2


def test_path_4_bonus_to_the_longest(paths):
    """PATH-4 / USA-10: the longest path scores 10."""
    sheet = score(paths, {"Red": (["T-U", "U-V"], []), "Blue": (["E-F"], [])})
    assert [p.bonuses["longest_path"] for p in sheet.players] == [10, 0]


def test_path_4_tied_players_all_score_the_bonus(paths):
    """PATH-4 / USA-10: every player tied for the longest path scores the 10 points."""
    sheet = score(
        paths,
        {
            "Red": (["T-U", "U-V"], []),
            "Blue": (["M-J", "M-N"], []),
            "Green": (["E-F", "F-G"], []),
        },
    )
    assert [p.longest_path for p in sheet.players] == [8, 8, 7]
    assert [p.bonuses["longest_path"] for p in sheet.players] == [10, 10, 0]


def test_path_5_no_bonus_for_an_empty_path(paths):
    """PATH-5: with no route claimed by anyone, nobody scores the bonus."""
    sheet = score(paths, {"Red": ([], []), "Blue": ([], [])})
    assert [p.longest_path for p in sheet.players] == [0, 0]
    assert [p.bonuses.get("longest_path", 0) for p in sheet.players] == [0, 0]
    assert [p.total for p in sheet.players] == [0, 0]


def test_path_5_player_without_routes_gets_nothing(paths):
    """PATH-5: a path of length 0 never shares the bonus."""
    sheet = score(paths, {"Red": (["N-O"], []), "Blue": ([], [])})
    assert [p.bonuses["longest_path"] for p in sheet.players] == [10, 0]


def test_path_5_option_awards_the_bonus_at_zero():
    """PATH-5: the ``longest_path_at_zero`` option gives everyone the bonus when nobody
    claimed a route; it changes nothing once someone has a path."""
    data = structure_map(map_dict(PATH_ROUTES, PATH_TICKETS))
    rs = Ruleset(FixtureEdition(data), {"longest_path_at_zero": True})
    empty = score(rs, {"Red": ([], []), "Blue": ([], [])})
    assert [p.bonuses["longest_path"] for p in empty.players] == [10, 10]
    some = score(rs, {"Red": (["N-O"], []), "Blue": ([], [])})
    assert [p.bonuses["longest_path"] for p in some.players] == [10, 0]


def test_path_6_usa_awards_a_longest_path_bonus(usa):
    """PATH-6 / USA-10: the USA edition awards 10 points for the longest path; an edition
    without the bonus awards none."""
    assert usa.params.longest_path_bonus == 10
    rs = fixture_ruleset(PATH_ROUTES, PATH_TICKETS, longest_path_bonus=None)
    sheet = score(rs, {"Red": (["T-U"], []), "Blue": ([], [])})
    assert all(sum(p.bonuses.values()) == 0 for p in sheet.players)
    assert sheet.players[0].total == 7


# -- scoring -------------------------------------------------------------------------------


def test_score_1_usa_route_point_table(usa):
    """SCORE-1 / USA-7: lengths 1 to 6 score 1, 2, 4, 7, 10 and 15."""
    assert dict(usa.params.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    for r in range(len(index_of(usa).routes)):
        assert index_of(usa).route_points[r] == usa.params.route_points[index_of(usa).route_len[r]]


def test_score_1_route_points_in_final_scoring(paths):
    """SCORE-1: final scoring counts every route by the table."""
    sheet = score(paths, {"Red": (["A-B", "B-C", "C-D", "T-U", "M-N", "E-F"], [])})
    assert sheet.players[0].route_points == 1 + 2 + 4 + 7 + 10 + 15


def test_score_2_no_value_for_length_7(usa):
    """SCORE-2: no route of length 7 exists and the table has no value for it; map data
    with a 7-space track is rejected."""
    assert 7 not in usa.params.route_points
    assert max(index_of(usa).route_len) == 6
    raw = json.loads(files("ttr_usa").joinpath("usa.json").read_text(encoding="utf-8"))
    bad = copy.deepcopy(raw)
    bad["routes"][0]["length"] = 7
    with pytest.raises(MapDataError, match=r"\$\.routes\[0\]\.length"):
        load_map_data(json.dumps(bad))


def test_score_3_points_depend_on_length_only(fx):
    """SCORE-3: the cards paid do not change a route's points."""
    base = started(fx, 2, seed=3)
    for pay in ("RRR", "RRL", "LLL"):
        state = with_player(base, 0, hand=cards(pay))
        after, _ = step(fx, state, ClaimRoute(route=track_id(fx, "A-B"), cards=cards(pay)))
        assert after.players[0].score == 4


def test_score_4_total_is_routes_tickets_and_bonuses(paths):
    """SCORE-4: the total is route points plus ticket points plus bonuses."""
    sheet = score(
        paths,
        {"Red": (["A-B", "B-C", "C-D"], ["A-D", "P-S"]), "Blue": (["T-U", "U-V"], [])},
    )
    red, blue = sheet.players
    assert (red.route_points, red.ticket_points, red.bonuses["longest_path"]) == (7, 6 - 5, 0)
    assert red.total == 8
    assert (blue.route_points, blue.ticket_points, blue.bonuses["longest_path"]) == (14, 0, 10)
    assert blue.total == 24
    for p in sheet.players:
        assert p.total == p.route_points + p.ticket_points + sum(p.bonuses.values())


# -- stations (core mechanics used by editions that have them) ------------------------------

STATION_ROUTES = (
    ("A", "B", 4, "gray"),
    ("B", "C", 2, "gray"),
    ("C", "D", 6, "gray"),
    ("F", "G", 4, "gray"),
    ("G", "H", 4, "gray"),
    ("J", "K", 1, "gray"),
    ("L", "M", 2, "gray"),
)
STATION_TICKETS = (("A", "D", 11), ("F", "H", 8), ("A", "B", 3))


@pytest.fixture(scope="module")
def stations():
    return fixture_ruleset(
        STATION_ROUTES,
        STATION_TICKETS,
        stations=3,
        station_cost=[1, 2, 3],
        unbuilt_station_points=4,
        tie_breakers=["completed_tickets", "fewest_stations", "longest_path_bonus"],
    )


def station_position(rs, red_routes, red_tickets, red_stations, yellow_routes):
    pos = position(rs, {"Red": (red_routes, red_tickets), "Yellow": (yellow_routes, [])})
    red = pos.players[0]
    red = PlayerPosition(
        name=red.name,
        routes=red.routes,
        tickets=red.tickets,
        stations=tuple(index_of(rs).city_index[c] for c in red_stations),
    )
    return Position(players=(red, pos.players[1]))


def test_path_3_borrowed_routes_do_not_count(stations):
    """PATH-3: a route borrowed with a station neither counts nor joins the path."""
    pos = station_position(stations, ["A-B", "C-D"], ["A-D"], ["B"], ["B-C", "F-G", "G-H"])
    red, yellow = score_position(stations, pos).players
    assert red.tickets[0].completed is True
    assert red.longest_path == 6
    assert yellow.longest_path == 8
    assert red.bonuses["longest_path"] == 0 and yellow.bonuses["longest_path"] == 10


def test_score_5_stations_assigned_before_tickets_are_counted(stations):
    """SCORE-5: the borrowed route completes the ticket, and the ticket is counted as
    completed."""
    pos = station_position(stations, ["A-B", "C-D"], ["A-D"], ["B"], ["B-C", "F-G", "G-H"])
    red, yellow = score_position(stations, pos).players
    assert red.ticket_points == 11
    assert red.tickets_completed == 1
    assert red.bonuses["unbuilt_stations"] == 8
    assert red.total == 7 + 15 + 11 + 8
    assert yellow.total == 2 + 7 + 7 + 12 + 10


def test_tie_3_station_ticket_counts_for_the_tie_break(stations):
    """TIE-3: a ticket completed through a station's borrowed route counts as a completed
    ticket when breaking a tie."""
    yellow_routes = ["B-C", "F-G", "G-H", "J-K", "L-M"]
    pos = station_position(stations, ["A-B", "C-D"], ["A-D"], ["B"], yellow_routes)
    sheet = score_position(stations, pos)
    red, yellow = sheet.players
    assert red.total == 22 + 11 + 8 == 41
    assert yellow.total == 19 + 12 + 10 == 41
    assert (red.tickets_completed, yellow.tickets_completed) == (1, 0)
    assert sheet.winners == (0,)


# -- tie-breakers --------------------------------------------------------------------------

TIE_ROUTES = (
    ("A", "B", 3, "gray"),
    ("C", "D", 3, "gray"),
    ("E", "F", 2, "gray"),
    ("G", "H", 2, "gray"),
    ("I", "J", 1, "gray"),
    ("K", "L", 1, "gray"),
    ("M", "N", 4, "gray"),
)
TIE_TICKETS = (
    ("A", "B", 4),
    ("E", "F", 14),
    ("C", "D", 4),
    ("G", "H", 2),
    ("I", "J", 1),
    ("K", "L", 1),
)


@pytest.fixture(scope="module")
def ties():
    return fixture_ruleset(TIE_ROUTES, TIE_TICKETS)


def test_score_6_highest_total_wins(ties):
    """SCORE-6: the highest total wins, whatever the tickets."""
    sheet = score(ties, {"Red": (["M-N"], []), "Blue": (["A-B", "G-H"], ["A-B", "G-H"])})
    # Red 7 + 10 = 17; Blue 4 + 2 + 4 + 2 = 12 with two tickets.
    assert [p.total for p in sheet.players] == [17, 12]
    assert sheet.winners == (0,)


def test_tie_1_only_players_sharing_the_top_total(ties):
    """TIE-1: a player below the top total never wins by a tie-breaker."""
    sheet = score(
        ties,
        {
            "Red": (["A-B"], ["A-B"]),
            "Blue": (["C-D", "E-F", "G-H"], []),
            "Green": (["I-J", "K-L"], ["I-J", "K-L"]),
        },
    )
    red, blue, green = sheet.players
    assert (red.total, red.tickets_completed) == (4 + 4 + 10, 1)
    assert (blue.total, blue.tickets_completed) == (4 + 2 + 2 + 10, 0)
    assert (green.total, green.tickets_completed) == (4, 2)
    assert sheet.winners == (0,)


def test_tie_2_most_completed_tickets(ties):
    """TIE-2: equal totals go to the player with more completed tickets."""
    sheet = score(ties, {"Red": (["A-B"], ["A-B"]), "Blue": (["C-D", "E-F", "G-H"], [])})
    assert [p.total for p in sheet.players] == [18, 18]
    assert [p.tickets_completed for p in sheet.players] == [1, 0]
    assert sheet.winners == (0,)
    flipped = score(ties, {"Blue": (["C-D", "E-F", "G-H"], []), "Red": (["A-B"], ["A-B"])})
    assert flipped.winners == (1,)


def test_usa_12_then_the_longest_path_bonus(ties):
    """USA-12: equal totals and tickets go to the holder of the longest path bonus."""
    sheet = score(ties, {"Red": (["A-B"], ["A-B"]), "Blue": (["E-F", "G-H"], ["E-F"])})
    red, blue = sheet.players
    assert (red.total, blue.total) == (18, 18)
    assert (red.tickets_completed, blue.tickets_completed) == (1, 1)
    assert (red.bonuses["longest_path"], blue.bonuses["longest_path"]) == (10, 0)
    assert sheet.winners == (0,)


def test_usa_12_tie_breaker_order(usa):
    """USA-12: the USA tie-breakers are completed tickets, then the longest path bonus."""
    assert usa.params.tie_breakers == ("completed_tickets", "longest_path_bonus")


def test_tie_4_shared_bonus_does_not_separate(ties):
    """TIE-4 / TIE-5: players who both hold the shared bonus stay tied: a shared win."""
    sheet = score(
        ties,
        {"Red": (["A-B"], ["A-B"]), "Blue": (["C-D"], ["C-D"]), "Green": (["I-J"], [])},
    )
    assert [p.total for p in sheet.players] == [18, 18, 1]
    assert [p.bonuses["longest_path"] for p in sheet.players] == [10, 10, 0]
    assert sheet.winners == (0, 1)


def test_tie_5_shared_victory():
    """TIE-5: when no tie-breaker separates the players, they share the win."""
    rs = fixture_ruleset(TIE_ROUTES, TIE_TICKETS, longest_path_bonus=None)
    equal = score(rs, {"Red": (["E-F"], []), "Blue": (["G-H"], []), "Green": (["I-J"], [])})
    assert [p.total for p in equal.players] == [2, 2, 1]
    assert equal.winners == (0, 1)
    done = score(rs, {"Red": (["E-F"], ["E-F"]), "Blue": (["A-B", "G-H", "K-L"], ["A-B"])})
    assert [p.total for p in done.players] == [2 + 14, 4 + 2 + 1 + 4]
    assert done.winners == (0,)


def test_tie_6_auxiliary_score_option():
    """TIE-6: with ``tie_break="auxiliary"`` ties go by 1000 per completed ticket + 100 per
    unbuilt station + the longest path, so a longer path separates a tie the rules leave
    shared."""
    data = structure_map(map_dict(TIE_ROUTES, TIE_TICKETS, longest_path_bonus=None))
    holdings = {"Red": (["A-B"], []), "Blue": (["E-F", "I-J", "K-L"], [])}
    rules = score(Ruleset(FixtureEdition(data)), holdings)
    assert [p.total for p in rules.players] == [4, 4]
    assert rules.winners == (0, 1)
    auxiliary = score(Ruleset(FixtureEdition(data), {"tie_break": "auxiliary"}), holdings)
    assert [p.longest_path for p in auxiliary.players] == [3, 2]
    assert auxiliary.winners == (0,)
