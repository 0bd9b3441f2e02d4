"""Switzerland final scoring: country tickets (COUNTRY-n), the worked examples EX-S1 to
EX-S3, the longest path and tie-breakers (CH-12, CH-14), tickets known by id, and the
real-map position ``examples/positions/switzerland.json`` through ``ttr score``.

The abstract examples are scored on a letter board of a fixture edition with
Switzerland's parameters and border arrows; the core scores its country tickets, with
no Python of the edition's own.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from ttr_core import PositionError, Ruleset
from ttr_core.cli import main
from ttr_core.formats.position import parse_position, position_to_json
from ttr_core.model.mapdata import structure_map
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import (
    PlayerPosition,
    Position,
    Scoresheet,
    score_position,
    scoresheet_json,
)
from ttr_core.ruleset import editions as edition
from ttr_core.ruleset.editions import InstalledEdition
from ttr_core.testing.invariants import check_end, check_position
from ttr_core.testing.play import play_game
from ttr_core.testing.scenarios import BASE_PARAMETERS, FixtureEdition

ROOT = Path(__file__).resolve().parents[2]
REAL_POSITION = ROOT / "examples" / "positions" / "switzerland.json"

SWISS_PARAMETERS: dict[str, Any] = {
    **copy.deepcopy(BASE_PARAMETERS),
    "players": [2, 3],
    "trains": 40,
    "double_routes_min_players": 3,
    "opening_tickets": {"deal": 5, "keep": 2, "returned": "removed"},
    "ticket_draw": {"deal": 3, "keep": 1, "returned": "removed"},
    "face_up_locomotive": "ordinary",
    "locomotives": "tunnels",
}
"""Switzerland's parameters, written out for the fixture edition."""

ARROWS = ("France 1", "France 2", "Deutschland 1", "Deutschland 2", "Österreich 1")
ARROWS += ("Italia 1", "Italia 2")

# The letter board of EX-S1 to EX-S3: Red's tracks, then Blue's (track ids 1..).
BOARD: tuple[tuple[str, str, int], ...] = (
    ("Z", "Deutschland 1", 6),
    ("Z", "Österreich 1", 6),
    ("France 1", "A", 1),
    ("A", "Italia 1", 1),
    ("France 2", "B", 1),
    ("B", "Deutschland 2", 1),
    ("C", "E", 3),
    ("E", "G", 2),
    ("U", "Italia 2", 5),
    ("H", "J", 5),
    ("K", "M", 5),
    ("N", "O", 5),
    ("S", "T", 3),
    ("T", "V", 1),
    ("Z", "Italia 1", 2),
    ("P", "Q", 1),
)
TICKETS: list[dict[str, Any]] = [
    {"id": 1, "a": "Z", "targets": {"France": 7, "Deutschland": 3, "Österreich": 7, "Italia": 11}},
    {"id": 2, "a": "France", "targets": {"Deutschland": 5, "Österreich": 14, "Italia": 11}},
    {
        "id": 3,
        "a": "U",
        "targets": {"France": 14, "Deutschland": 12, "Österreich": 13, "Italia": 2},
    },
    {"id": 4, "a": "P", "b": "Q", "points": 6},
    {"id": 5, "a": "H", "b": "J", "points": 8},
    {"id": 6, "a": "France", "targets": {"Deutschland": 5, "Österreich": 14, "Italia": 11}},
]
for _t in TICKETS:
    if "targets" in _t:
        _t["kind"] = "country"


def swiss_fixture(tickets: list[dict[str, Any]] = TICKETS) -> Ruleset:
    """A ruleset with Switzerland's parameters on the letter board."""
    cities = sorted({c for a, b, _ in BOARD for c in (a, b)})
    data = {
        "format": 1,
        "edition": "swissfix",
        "name": "Swiss fixture",
        "parameters": SWISS_PARAMETERS,
        "countries": [
            {"id": "France", "aliases": ["Frankreich"]},
            {"id": "Italia", "aliases": ["Italien"]},
        ],
        "cities": [
            {"id": c, "country": c.split()[0]} if c in ARROWS else {"id": c} for c in cities
        ],
        "routes": [
            {"id": i, "cities": [a, b], "length": n, "color": "gray"}
            for i, (a, b, n) in enumerate(BOARD, start=1)
        ],
        "tickets": tickets,
    }
    return Ruleset(FixtureEdition(structure_map(data), "swissfix", ()))


@pytest.fixture(scope="module")
def fx() -> Ruleset:
    return swiss_fixture()


@pytest.fixture(scope="module")
def ch() -> Ruleset:
    return Ruleset.build("switzerland")


def holding(rs: Ruleset, name: str, tracks: list[int], tickets: list[int]) -> PlayerPosition:
    """A player holding tracks and tickets given by their ids."""
    return PlayerPosition(
        name=name,
        routes=tuple(index_of(rs).route_index[r] for r in tracks),
        tickets=tuple(index_of(rs).ticket_index[t] for t in tickets),
    )


def sheet_of(rs: Ruleset, *players: PlayerPosition) -> Scoresheet:
    return score_position(rs, Position(players=players))


def ticket_points(rs: Ruleset, tracks: list[int], ticket: int) -> tuple[int, bool]:
    result = sheet_of(rs, holding(rs, "Red", tracks, [ticket])).players[0].tickets[0]
    assert result.ticket == ticket
    return result.points, result.completed


# -- EX-S1, EX-S2: country tickets ----------------------------------------------------------


@pytest.mark.parametrize(
    ("tracks", "points", "completed"),
    [
        ([1, 2], 7, True),  # Germany (3) and Austria (7)
        ([1], 3, True),  # only Germany
        ([1, 2, 15], 11, True),  # Italy too
        ([], -3, False),  # nothing: the lowest value is lost
        ([3, 4], -3, False),  # France-Italy links no arrow to Z
    ],
)
def test_ex_s1_city_to_country_ticket(
    fx: Ruleset, tracks: list[int], points: int, completed: bool
) -> None:
    """EX-S1, COUNTRY-2, COUNTRY-5, COUNTRY-7, COUNTRY-8: Z -> France 7 / Deutschland 3 /
    Österreich 7 / Italia 11 scores the best country reached, or -3."""
    assert ticket_points(fx, tracks, 1) == (points, completed)


@pytest.mark.parametrize(
    ("tracks", "points", "completed"),
    [
        ([3, 4, 5, 6], 11, True),  # France-Italy and France-Germany: Austria not reached
        ([5, 6], 5, True),
        ([], -5, False),
        ([4, 15, 2], -5, False),  # Italia 1 - Z - Austria, but no French arrow
    ],
)
def test_ex_s2_country_to_country_ticket(
    fx: Ruleset, tracks: list[int], points: int, completed: bool
) -> None:
    """EX-S2, COUNTRY-6, COUNTRY-7, COUNTRY-8: France -> Deutschland 5 / Österreich 14 /
    Italia 11 from any French arrow to any arrow of a listed country."""
    assert ticket_points(fx, tracks, 2) == (points, completed)


def test_ex_s2_country_3_no_transit_through_a_country(fx: Ruleset) -> None:
    """EX-S2, COUNTRY-3, A16: France 1 - A - Italia 1 and Italia 2 - U are separate: a path
    cannot enter Italy at one arrow and leave at another, so U is not reached from France;
    France 2 - B - Deutschland 2 and Deutschland 1 - Z - Österreich 1 likewise."""
    network_of = sheet_of(fx, holding(fx, "Red", [3, 4, 9, 5, 6, 1, 2], [2]))
    assert network_of.players[0].tickets[0].points == 11  # not 14: Austria is not reached
    assert ticket_points(fx, [3, 4, 9], 3) == (2, True)  # U reaches Italy, not France


def test_country_2_network_questions_accept_countries_and_aliases(fx: Ruleset) -> None:
    """COUNTRY-2: the player network answers for countries by name or alias."""
    from ttr_core.rules.scoring import scoring_context

    pos = Position(players=(holding(fx, "Red", [3, 4, 5, 6], []),))
    net = scoring_context(fx, pos).networks[0]
    assert net.reached("Frankreich", ["Deutschland", "Österreich", "Italien"]) == (
        "Deutschland",
        "Italien",
    )
    assert net.connected("France", "Italia") and not net.connected("France", "Österreich")
    assert net.reaches("A", ["Italia"]) and not net.reaches("A", ["Deutschland"])


# -- EX-S3, CH-12, CH-14, COUNTRY-9 ---------------------------------------------------------


def ex_s3(fx: Ruleset) -> Scoresheet:
    red = holding(fx, "Red", [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 4])
    blue = holding(fx, "Blue", [9, 10, 11, 12, 13, 14], [3, 5])
    return sheet_of(fx, red, blue)


def test_ex_s3_complete_two_player_score(fx: Ruleset) -> None:
    """EX-S3, COUNTRY-7, COUNTRY-9, CH-12: Red 40 + 7 + 11 - 6 + 10 = 62; Blue 45 + 2 + 8
    = 55 (a low value still completes the ticket); Red wins; 2 completed tickets each."""
    sheet = ex_s3(fx)
    red, blue = sheet.players
    assert (red.route_points, red.ticket_points, red.longest_path) == (40, 12, 12)
    assert [t.points for t in red.tickets] == [7, 11, -6]
    assert (red.bonuses["longest_path"], red.total, red.tickets_completed) == (10, 62, 2)
    assert (blue.route_points, blue.ticket_points, blue.longest_path) == (45, 10, 5)
    assert [t.points for t in blue.tickets] == [2, 8]
    assert (blue.bonuses["longest_path"], blue.total, blue.tickets_completed) == (0, 55, 2)
    assert sheet.winners == (0,)


def test_ex_s3_through_ttr_score(
    fx: Ruleset, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """EX-S3 through ``ttr score``, the country tickets named with German aliases."""
    found = dict(edition.installed_editions())
    found["swissfix"] = InstalledEdition(
        info=fx.info,
        plugin=FixtureEdition(fx.map, "swissfix", ()),
        distribution="tests",
        builtin=False,
        players=(2, 3),
    )
    monkeypatch.setattr(edition, "installed_editions", lambda refresh=False: found)
    raw = position_to_json(fx, Position(players=ex_s3_players(fx)))
    raw["players"][0]["tickets"][1] = {
        "a": "Frankreich",
        "to_any": ["Italien", "Deutschland", "Österreich"],
        "id": 2,
    }
    path = tmp_path / "s3.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [p["total"] for p in out["players"]] == [62, 55]
    assert [p["tickets_completed"] for p in out["players"]] == [2, 2]
    assert out["winners"] == ["Red"]
    assert out["players"][0]["tickets"][1] == {
        "id": 2,
        "a": "France",
        "to_any": ["Deutschland", "Österreich", "Italia"],
        "points": 11,
        "completed": True,
    }


def ex_s3_players(fx: Ruleset) -> tuple[PlayerPosition, ...]:
    return (
        holding(fx, "Red", [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 4]),
        holding(fx, "Blue", [9, 10, 11, 12, 13, 14], [3, 5]),
    )


def test_ch_14_tie_broken_by_completed_tickets_country_counting_one(fx: Ruleset) -> None:
    """CH-14, COUNTRY-9, CH-12: Red (U-Italia 2, P-Q: 11 route points, U ticket +2 for
    Italy, P-Q +6) and Blue (H-J, T-V: 11, H-J +8) both reach 19, and both have a longest
    path of 5, so both score the bonus: 29 each. Red has 2 completed tickets, the country
    ticket counting as one, Blue 1: Red wins."""
    red = holding(fx, "Red", [9, 16], [3, 4])
    blue = holding(fx, "Blue", [10, 14], [5])
    sheet = sheet_of(fx, red, blue)
    assert [p.total for p in sheet.players] == [29, 29]
    assert [p.bonuses["longest_path"] for p in sheet.players] == [10, 10]
    assert [p.tickets_completed for p in sheet.players] == [2, 1]
    assert sheet.winners == (0,)


# -- the real map through ttr score --------------------------------------------------------


def test_ex_s1_ex_s2_real_position_through_ttr_score(capsys: pytest.CaptureFixture[str]) -> None:
    """EX-S1, EX-S2, COUNTRY-3, COUNTRY-7, COUNTRY-8, COUNTRY-9, CH-12, CH-14 on the real map,
    worked out by hand (route points 1, 2, 4, 7, 10, 15 for lengths 1 to 6).

    Ann (38 trains, 2 left): Italia 2-Brusio 2, Brusio-Davos 7, Davos-Sargans 4,
    Sargans-Vaduz 1, Vaduz-St. Gallen 2, St. Gallen-Kreuzlingen 1, Kreuzlingen-Winterthur 2,
    Winterthur-Zürich 1, Zürich-Pfäffikon 2, Pfäffikon-Schwyz 1, Schwyz-Zug 1, Zug-Luzern 1,
    Luzern-Interlaken 7, Winterthur-Schaffhausen 1, Schaffhausen-Deutschland 2 1,
    St. Gallen-Österreich 1 7 (tunnel), Davos-Chur 2, Chur-Brusio 10: 53 points. The Zürich
    card (France 7 / Deutschland 3 / Österreich 7 / Italia 11) reaches Germany, Austria and
    Italy and scores the best, +11 (EX-S1, COUNTRY-7); St. Gallen-Brusio +9,
    Interlaken-Winterthur +7, Zürich-Vaduz +6, Winterthur-Schwyz +3; Lugano-Chur -10: +26,
    5 completed. Longest path Interlaken..St. Gallen..Davos (19), then round Davos-Chur-
    Brusio-Davos (11): 30, the spurs to the three arrows left out. Total 53 + 26 + 10 = 89.
    Bob (34 trains): France 2-Genève 1, Genève-Lausanne 7, Lausanne-Fribourg 4,
    Fribourg-Bern 1, Bern-Solothurn 2, Solothurn-Delémont 1, Delémont-Basel 2,
    Basel-Deutschland 1 1, Delémont-France 4 2, Basel-Olten 2, Olten-Zürich 4,
    Zürich-Winterthur 1 (the other track of Ann's double), Genève-Yverdon 15,
    Yverdon-Neuchâtel 2, Neuchâtel-La Chaux-de-Fonds 1, La Chaux-de-Fonds-France 3 2: 48.
    The France card, named in German and by id 43 (the deck's second copy), reaches Germany
    but neither Austria nor Italy: +5 (EX-S2); Genève-Basel +13, Genève-Zürich +14,
    Neuchâtel-Winterthur +9; Basel-Brig -10: +31, 4 completed. His tracks are a tree, its
    longest path France 3..Genève..Basel..Winterthur: 30, the bonus shared with Ann
    (CH-12). Total 48 + 31 + 10 = 89.
    Cy (39 trains): Italia 3-Lugano 2, Lugano-Bellinzona 1, Bellinzona-Locarno 1,
    Locarno-Italia 4 2, Bellinzona-Wassen 7, Italia 5-Brig 4, Brig-Sion 4, Sion-Martigny 2,
    Martigny-France 1 2, Martigny-Lausanne 7, Lausanne-Genève 7, Brig-Interlaken 2,
    Interlaken-Bern 4, Bern-Luzern 7, Luzern-Zug 1, Bern-Fribourg 1: 54. The Lugano card
    reaches only Italy: +2, still completed (COUNTRY-9), not France's 14: his other
    network joins Italia 5 to France 1, but a path never crosses Italy (COUNTRY-3), so
    Bern-Lugano fails too, though both cities reach Italy: -12. The Italia card (id 4, named
    in German) reaches France by Italia 5-Brig-Sion-Martigny-France 1: +11;
    Lausanne-Interlaken +7, Fribourg-Luzern +5; the Österreich card (id 3) reaches no arrow:
    -5, its lowest value (COUNTRY-8): +8. Path Genève..Martigny..Brig..Bern..Zug: 23.
    Total 62.
    Ann and Bob tie on 89, both with the bonus: Ann's 5 completed tickets to Bob's 4 make
    her the winner (CH-14).
    """
    assert main(["score", str(REAL_POSITION)]) == 0
    out = json.loads(capsys.readouterr().out)
    summary = [
        (
            p["name"],
            p["total"],
            p["route_points"],
            p["tickets_completed"],
            p["longest_path"],
            p["bonuses"],
            [(t["id"], t["points"], t["completed"]) for t in p["tickets"]],
        )
        for p in out["players"]
    ]
    assert summary == [
        (
            "Ann",
            89,
            53,
            5,
            30,
            {"longest_path": 10},
            [
                (7, 11, True),
                (37, 9, True),
                (21, 7, True),
                (42, 6, True),
                (38, 3, True),
                (30, -10, False),
            ],
        ),
        (
            "Bob",
            89,
            48,
            4,
            30,
            {"longest_path": 10},
            [(43, 5, True), (17, 13, True), (20, 14, True), (32, 9, True), (10, -10, False)],
        ),
        (
            "Cy",
            62,
            54,
            4,
            23,
            {"longest_path": 0},
            [
                (8, 2, True),
                (14, -12, False),
                (4, 11, True),
                (26, 7, True),
                (16, 5, True),
                (3, -5, False),
            ],
        ),
    ]
    assert out["winners"] == ["Ann"]
    bob, cy = out["players"][1]["tickets"], out["players"][2]["tickets"]
    assert (bob[0]["a"], bob[0]["to_any"]) == ("France", ["Deutschland", "Österreich", "Italia"])
    assert (cy[2]["a"], cy[2]["to_any"]) == ("Italia", ["France", "Deutschland", "Österreich"])


def test_real_position_survives_the_kit_round_trip(ch: Ruleset) -> None:
    """The kit's position check (score, write back, read, score again) holds."""
    raw = json.loads(REAL_POSITION.read_text("utf-8"))
    out = check_position(ch, raw)
    assert [p["total"] for p in out["players"]] == [89, 89, 62]


# -- tickets known by id --------------------------------------------------------------------

BETA_EPSILON: list[dict[str, Any]] = [
    {"id": 1, "a": "Beta", "b": "Epsilon", "points": 6},
    {"id": 2, "a": "Epsilon", "b": "Beta", "points": 11},
    {"id": 3, "a": "Alpha", "b": "Beta", "points": 4},
    {"id": 4, "a": "Beta", "b": "Alpha", "points": 4},
]


def letters(tickets: list[dict[str, Any]], edition_id: str = "betafix") -> Ruleset:
    """A small board Alpha-Beta-Epsilon-Gamma with the given tickets."""
    data = structure_map(
        {
            "format": 1,
            "edition": edition_id,
            "name": "Beta-Epsilon",
            "parameters": {**copy.deepcopy(BASE_PARAMETERS), "trains": 12},
            "cities": [{"id": c} for c in ("Alpha", "Beta", "Epsilon", "Gamma")],
            "routes": [
                {"id": 1, "cities": ["Beta", "Epsilon"], "length": 2, "color": "red"},
                {"id": 2, "cities": ["Alpha", "Beta"], "length": 1, "color": "gray"},
                {"id": 3, "cities": ["Epsilon", "Gamma"], "length": 3, "color": "blue"},
                {"id": 4, "cities": ["Alpha", "Gamma"], "length": 2, "color": "green"},
            ],
            "tickets": tickets,
        }
    )
    return Ruleset(FixtureEdition(data, edition_id, ()))


def one_player(tickets: list[dict[str, Any]]) -> dict[str, Any]:
    """A one-player position of the Beta-Epsilon board holding ``tickets``."""
    return {"edition": "betafix", "players": [{"name": "Ann", "routes": [], "tickets": tickets}]}


def test_beta_epsilon_held_ticket_scores_its_own_points() -> None:
    """A player holding Epsilon-Beta 11 is scored 11 (not the 6 of Beta-Epsilon), and the
    score sheet names ticket 2; written back, the position names it by id."""
    rs = letters(BETA_EPSILON)
    pos = Position(players=(PlayerPosition(name="Ann", routes=(0,), tickets=(1,)),))
    sheet = score_position(rs, pos)
    (result,) = sheet.players[0].tickets
    assert (result.ticket, result.points, result.completed) == (2, 11, True)
    written = position_to_json(rs, pos)
    assert written["players"][0]["tickets"] == [{"a": "Epsilon", "b": "Beta", "id": 2}]
    assert parse_position(rs, written) == pos
    failed = Position(players=(PlayerPosition(name="Ann", routes=(), tickets=(1,)),))
    assert score_position(rs, failed).players[0].tickets[0].points == -11
    assert scoresheet_json(rs, sheet)["players"][0]["tickets"] == [
        {"id": 2, "a": "Epsilon", "b": "Beta", "points": 11, "completed": True}
    ]


def test_beta_epsilon_position_must_tell_the_tickets_apart() -> None:
    """By cities alone, Beta-Epsilon could be either card: refused, naming both; "points"
    or "id" picks one, in either city order; a wrong id or value is refused."""
    rs = letters(BETA_EPSILON)
    for a, b in (("Beta", "Epsilon"), ("Epsilon", "Beta")):
        with pytest.raises(
            PositionError,
            match=r"players\[0\]\.tickets\[0\]: Beta-Epsilon could be ticket 1 \(6 points\) "
            r"or ticket 2 \(11 points\); give its 'id' or 'points'"
            if a == "Beta"
            else "Epsilon-Beta could be ticket 1",
        ):
            parse_position(rs, one_player([{"a": a, "b": b}]))
        by_points = parse_position(rs, one_player([{"a": a, "b": b, "points": 11}]))
        by_id = parse_position(rs, one_player([{"a": a, "b": b, "id": 2}]))
        assert by_points == by_id
        assert [index_of(rs).ticket_ids[t] for t in by_id.players[0].tickets] == [2]
    with pytest.raises(PositionError, match=r"tickets\[0\]\.id: ticket 3 is not Beta-Epsilon"):
        parse_position(rs, one_player([{"a": "Beta", "b": "Epsilon", "id": 3}]))
    with pytest.raises(PositionError, match=r"\.points: no ticket Beta-Epsilon worth 7"):
        parse_position(rs, one_player([{"a": "Beta", "b": "Epsilon", "points": 7}]))
    with pytest.raises(PositionError, match=r"\.id: expected a ticket id \(an integer\)"):
        parse_position(rs, one_player([{"a": "Beta", "b": "Epsilon", "id": "2"}]))
    two = one_player(
        [{"a": "Beta", "b": "Epsilon", "id": 2}, {"a": "Epsilon", "b": "Beta", "id": 2}]
    )
    with pytest.raises(PositionError, match=r"tickets\[1\]\.id: ticket 2 is already held"):
        parse_position(rs, two)


def test_identical_copies_are_interchangeable() -> None:
    """Alpha-Beta 4 and Beta-Alpha 4 are identical: named by cities they go out in deck
    order; an id reserves its copy first; a third is one too many."""
    rs = letters(BETA_EPSILON)
    pos = parse_position(rs, one_player([{"a": "Alpha", "b": "Beta"}, {"a": "Beta", "b": "Alpha"}]))
    assert [index_of(rs).ticket_ids[t] for t in pos.players[0].tickets] == [3, 4]
    pos = parse_position(
        rs, one_player([{"a": "Alpha", "b": "Beta"}, {"a": "Beta", "b": "Alpha", "id": 3}])
    )
    assert [index_of(rs).ticket_ids[t] for t in pos.players[0].tickets] == [4, 3]
    three = one_player([{"a": "Alpha", "b": "Beta"}] * 3)
    with pytest.raises(PositionError, match="held 3 times, but the deck has 2 cards"):
        parse_position(rs, three)


def test_equal_points_finished_games_pass_the_end_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """With Beta-Epsilon 6 and Epsilon-Beta 6 (ids 1 and 2), finished games pass the kit's
    end check: the final scoring and the scoring of the written position agree ticket by
    ticket id. Before tickets were known by id, this check failed."""
    tickets = [dict(t) for t in BETA_EPSILON]
    tickets[1]["points"] = 6
    rs = letters(tickets, "equalfix")
    found = dict(edition.installed_editions())
    found["equalfix"] = InstalledEdition(
        info=rs.info,
        plugin=FixtureEdition(rs.map, "equalfix", ()),
        distribution="tests",
        builtin=False,
        players=(2, 5),
    )
    monkeypatch.setattr(edition, "installed_editions", lambda refresh=False: found)
    held_second = 0
    for seed in range(8):
        game = play_game(rs, 2, seed)
        check_end(game)
        held_second += sum(
            index_of(rs).ticket_ids[t] == 2 for p in game.state.players for t in p.tickets
        )
    assert held_second > 0


def test_doubled_swiss_country_cards(ch: Ruleset) -> None:
    """COUNTRY-4: the two France cards (ids 1 and 43) are interchangeable: named by their
    countries they go out in deck order, an id reserves one, a third is refused."""
    card = {"a": "France", "to_any": ["Deutschland", "Österreich", "Italia"]}

    def held(*tickets: dict[str, Any]) -> list[list[int]]:
        players = [{"name": f"P{i}", "routes": [], "tickets": [t]} for i, t in enumerate(tickets)]
        pos = parse_position(ch, {"edition": "schweiz", "players": players})
        return [[index_of(ch).ticket_ids[t] for t in p.tickets] for p in pos.players]

    assert held(card, {**card, "a": "Frankreich"}) == [[1], [43]]
    assert held(card, {**card, "id": 1}) == [[43], [1]]
    with pytest.raises(PositionError, match="held 3 times, but the deck has 2 cards"):
        held(card, card, card)
    with pytest.raises(PositionError, match="a country ticket has a value per country"):
        held({**card, "points": 11})
