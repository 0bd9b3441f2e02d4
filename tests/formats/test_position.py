"""Reading ``ttr score`` positions: names, double routes, border arrows, tickets, stations.

The refusals of impossible positions are checked end to end in ``test_cli.py``; here the
accepted forms, the choice of tracks and tickets, and a hand-checked real-map score.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ttr_core import Ruleset
from ttr_core.bots import GreedyBot, RandomBot
from ttr_core.formats.position import load_position, parse_position, position_to_json, read_position
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model.errors import PositionError, UnknownEditionError
from ttr_core.play.functional import apply, new_game
from ttr_core.rules.scoring import (
    position_of,
    score_game,
    score_position,
    scoresheet_json,
)
from ttr_core.rules.views import view_of

FIXTURES = Path(__file__).parents[1] / "fixtures"


@pytest.fixture(scope="module")
def usa() -> Ruleset:
    return Ruleset.build("usa")


@pytest.fixture(scope="module")
def bl(borderland: Ruleset) -> Ruleset:
    return borderland


def player(name: str = "Ann", **items: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "routes": [], "tickets": []}
    out.update(items)
    return out


def route(a: str, b: str, **extra: Any) -> dict[str, Any]:
    return {"a": a, "b": b, **extra}


def position(edition: str, *players: dict[str, Any]) -> dict[str, Any]:
    return {"edition": edition, "players": list(players)}


def track_ids(rs: Ruleset, routes: tuple[int, ...]) -> list[int]:
    return [rs.map.routes[r].id for r in routes]


# -- a hand-checked score on the real map -----------------------------------------------


def test_hand_checked_usa_position_scores_as_computed_by_hand(usa: Ruleset) -> None:
    """SCORE-1, TICKET-7, PATH-1, PATH-4: route points 1/2/4/7/10/15, tickets, shared bonus.

    Ann: Denver-Omaha 4 (7), Omaha-Kansas City 1 (1), Kansas City-Oklahoma City 2 (2),
    Oklahoma City-El Paso 5 (10), Seattle-Portland 1 (1) = 21; Denver-El Paso done (+4),
    Kansas City-Houston not (-5); longest path 4+1+2+5 = 12. Total 20.
    Bob: Los Angeles-El Paso 6, El Paso-Houston 6 (15 each), Houston-New Orleans 2 (2) = 32;
    Helena-Los Angeles not done (-8); path 14, bonus 10. Total 34.
    Cy: Sault St. Marie-Duluth 3 (4), Duluth-Toronto 6 (15), Toronto-Montreal 3 (4),
    Montreal-Boston 2 (2) = 25; Sault St. Marie-Nashville not done (-8); path 14 ties
    Bob's, so both get the bonus. Total 27. Bob wins.
    """
    text = (FIXTURES / "score_usa_three_players.json").read_text("utf-8")
    rs, pos = read_position(text)
    sheet = scoresheet_json(rs, score_position(rs, pos))
    summary = [
        (
            p["name"],
            p["route_points"],
            p["ticket_points"],
            p["longest_path"],
            p["bonuses"],
            p["total"],
        )
        for p in sheet["players"]
    ]
    assert summary == [
        ("Ann", 21, -1, 12, {"longest_path": 0}, 20),
        ("Bob", 32, -8, 14, {"longest_path": 10}, 34),
        ("Cy", 25, -8, 14, {"longest_path": 10}, 27),
    ]
    assert sheet["winners"] == ["Bob"]
    assert sheet["players"][0]["tickets"] == [
        {"id": 7, "a": "Denver", "b": "El Paso", "points": 4, "completed": True},
        {"id": 12, "a": "Kansas City", "b": "Houston", "points": -5, "completed": False},
    ]
    assert sheet["players"][0]["tickets_completed"] == 1
    assert "stations" not in sheet["players"][0]


# -- tracks ------------------------------------------------------------------------------


def test_endpoints_are_order_free_and_colour_is_checked(usa: Ruleset) -> None:
    pos = parse_position(
        usa,
        position(
            "usa",
            player(routes=[route("Omaha", "Denver"), route("Denver", "Helena", color="green")]),
        ),
    )
    assert track_ids(usa, pos.players[0].routes) == [34, 30]
    with pytest.raises(PositionError, match=r"players\[0\]\.routes\[0\]: no red track between"):
        parse_position(usa, position("usa", player(routes=[route("Denver", "Omaha", color="red")])))


def test_gray_is_a_colour_to_check(usa: Ruleset) -> None:
    pos = parse_position(
        usa, position("usa", player(routes=[route("Atlanta", "Charleston", color="gray")]))
    )
    assert track_ids(usa, pos.players[0].routes) == [1]


def test_colour_picks_one_track_of_a_double_route(usa: Ruleset) -> None:
    """DOUBLE-1: a double route whose tracks differ is named by colour."""
    pos = parse_position(
        usa,
        position("usa", player(routes=[route("New Orleans", "Atlanta", color="orange")])),
    )
    assert track_ids(usa, pos.players[0].routes) == [5]
    with pytest.raises(PositionError, match=r'double route .*give its "color"'):
        parse_position(usa, position("usa", player(routes=[route("Atlanta", "New Orleans")])))


def test_interchangeable_tracks_go_to_players_in_order(usa: Ruleset) -> None:
    """DOUBLE-3: from 4 players both gray tracks are used; each player gets the first free one."""
    players = [player(n, routes=[route("Dallas", "Houston")]) for n in ("A", "B")]
    players += [player("C"), player("D")]
    pos = parse_position(usa, position("usa", *players))
    assert track_ids(usa, pos.players[0].routes) == [25]
    assert track_ids(usa, pos.players[1].routes) == [26]


def test_length_picks_a_track_of_an_uneven_double(bl: Ruleset) -> None:
    """DOUBLE-5: the Gamma-Delta double has green tracks of lengths 2 and 4."""
    pos = parse_position(
        bl, position("borderland", player(routes=[route("Delta", "Gamma", length=4)]))
    )
    assert track_ids(bl, pos.players[0].routes) == [6]
    with pytest.raises(PositionError, match='give its "length"'):
        parse_position(
            bl, position("borderland", player(routes=[route("Gamma", "Delta", color="green")]))
        )


def test_city_aliases_are_accepted(bl: Ruleset) -> None:
    pos = parse_position(bl, position("borderland", player(routes=[route("Alfa", "Beta")])))
    assert track_ids(bl, pos.players[0].routes) == [1]


def test_border_arrow_by_country_name_when_unique(bl: Ruleset) -> None:
    pos = parse_position(
        bl,
        position(
            "borderland",
            player(
                routes=[
                    route("Alpha", "Nordland"),
                    route("Nordland", "Gamma"),
                    route("Epsilon", "Nordland", color="white"),
                    route("Nordland 1", "Epsilon"),
                ]
            ),
        ),
    )
    assert track_ids(bl, pos.players[0].routes) == [9, 11, 13, 12]


def test_border_arrow_by_country_name_must_be_unique(bl: Ruleset) -> None:
    with pytest.raises(
        PositionError, match=r"routes\[0\]: .*name the border arrow \(Nordland 1, Nordland 2\)"
    ):
        parse_position(bl, position("borderland", player(routes=[route("Epsilon", "Nordland")])))


def test_unknown_city_suggests_close_names(usa: Ruleset) -> None:
    with pytest.raises(
        PositionError, match=r"routes\[0\]\.b: unknown city 'Omahaa' \(did you mean 'Omaha'\?\)"
    ):
        parse_position(usa, position("usa", player(routes=[route("Denver", "Omahaa")])))


# -- tickets -----------------------------------------------------------------------------


def test_tickets_are_order_free(usa: Ruleset) -> None:
    pos = parse_position(usa, position("usa", player(tickets=[{"a": "El Paso", "b": "Denver"}])))
    assert [usa.map.tickets[t].id for t in pos.players[0].tickets] == [7]


def test_copies_of_a_ticket_are_handed_out_in_deck_order(bl: Ruleset) -> None:
    """Alpha-Delta is in the deck twice: two players may hold it, a third may not."""
    t = {"a": "Delta", "b": "Alpha"}
    pos = parse_position(
        bl, position("borderland", player("A", tickets=[t]), player("B", tickets=[t]))
    )
    assert [bl.map.tickets[x].id for p in pos.players for x in p.tickets] == [1, 2]
    with pytest.raises(
        PositionError,
        match=r"players\[2\]\.tickets\[0\]: .* held 3 times, but the deck has 2 cards",
    ):
        parse_position(
            bl,
            position(
                "borderland",
                player("A", tickets=[t]),
                player("B", tickets=[t]),
                player("C", tickets=[t]),
            ),
        )


def test_country_tickets_match_origin_and_target_set(bl: Ruleset) -> None:
    pos = parse_position(
        bl,
        position(
            "borderland",
            player(
                tickets=[
                    {"a": "Gamma", "to_any": ["Sudland", "Nordland"]},
                    {"a": "Nordland", "to_any": ["Sudland"]},
                ]
            ),
        ),
    )
    assert [bl.map.tickets[t].id for t in pos.players[0].tickets] == [6, 7]
    with pytest.raises(PositionError, match="no ticket Gamma-Nordland"):
        parse_position(
            bl, position("borderland", player(tickets=[{"a": "Gamma", "to_any": ["Nordland"]}]))
        )


def test_country_ticket_scores_through_the_core(bl: Ruleset) -> None:
    """COUNTRY-5: Gamma reaches Nordland by Gamma-Nordland 2, worth 4; the core scores it."""
    pos = parse_position(
        bl,
        position(
            "borderland",
            player(
                routes=[route("Gamma", "Nordland")],
                tickets=[{"a": "Gamma", "to_any": ["Nordland", "Sudland"]}],
            ),
        ),
    )
    sheet = scoresheet_json(bl, score_position(bl, pos))
    assert sheet["players"][0]["tickets"] == [
        {"id": 6, "a": "Gamma", "to_any": ["Nordland", "Sudland"], "points": 4, "completed": True}
    ]


# -- stations, players, editions ---------------------------------------------------------


def test_stations_are_read_and_reported(bl: Ruleset) -> None:
    """STATION-7, STATION-11: a station borrows Bob's Beta-Gamma; one unbuilt station scores 4."""
    pos = parse_position(
        bl,
        position(
            "borderland",
            player(
                "Ann",
                routes=[route("Alpha", "Beta")],
                tickets=[{"a": "Alpha", "b": "Gamma"}],
                stations=["Gamma"],
            ),
            player("Bob", routes=[route("Beta", "Gamma", color="red")]),
        ),
    )
    assert pos.players[0].stations == ([c.id for c in bl.map.cities].index("Gamma"),)
    sheet = scoresheet_json(bl, score_position(bl, pos))
    ann = sheet["players"][0]
    assert ann["tickets"][0]["completed"] is True
    assert ann["bonuses"]["unbuilt_stations"] == 4
    assert ann["stations"] == [
        {"city": "Gamma", "route": {"a": "Beta", "b": "Gamma", "color": "red", "length": 3}}
    ]


def test_a_single_player_can_be_scored(usa: Ruleset) -> None:
    pos = parse_position(usa, position("usa", player(routes=[route("Denver", "Omaha")])))
    sheet = score_position(usa, pos)
    assert sheet.players[0].total == 7 + 10
    assert sheet.winners == (0,)


def test_edition_alias_is_accepted_and_must_match(usa: Ruleset) -> None:
    rs, pos = load_position(position("base", player()))
    assert rs.id == "usa" and pos.players[0].name == "Ann"
    with pytest.raises(PositionError, match="the position is for 'borderland', not 'usa'"):
        parse_position(usa, position("borderland", player()))
    with pytest.raises(UnknownEditionError):
        load_position(position("atlantis", player()))


def test_options_are_passed_to_the_ruleset() -> None:
    rs, _ = load_position(position("usa", player()), options={"opening_tickets": 4})
    assert rs.options["opening_tickets"] == 4


def test_text_that_is_not_json_is_a_position_error() -> None:
    with pytest.raises(PositionError, match="not valid JSON"):
        read_position("{")


# -- round trip with played games ---------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_finished_games_rescore_identically(usa: Ruleset, players: int, seed: int) -> None:
    """A finished game's position, written and read back, scores as the game does (SCORE-4)."""
    state = new_game(usa, players, seed=seed)
    bots = [(GreedyBot if s % 2 == 0 else RandomBot)(usa, s, seed + s) for s in range(players)]
    while not state.is_over:
        legal = SeatActions(usa, state, state.current)
        state = apply(
            usa, state, bots[state.current].choose(view_of(usa, state, state.current), legal)
        )
    names = [f"P{s}" for s in range(players)]
    written = position_to_json(usa, position_of(usa, state, names))
    rs, pos = read_position(json.dumps(written))
    assert scoresheet_json(rs, score_position(rs, pos)) == scoresheet_json(
        usa, score_game(usa, state, names)
    )


def test_borderland_games_rescore_identically(bl: Ruleset) -> None:
    for seed in range(4):
        state = new_game(bl, 3, seed=seed)
        bots = [RandomBot(bl, s, seed * 10 + s) for s in range(3)]
        while not state.is_over:
            legal = SeatActions(bl, state, state.current)
            state = apply(
                bl, state, bots[state.current].choose(view_of(bl, state, state.current), legal)
            )
        names = ["A", "B", "C"]
        written = position_to_json(bl, position_of(bl, state, names))
        pos = parse_position(bl, json.loads(json.dumps(written)))
        assert scoresheet_json(bl, score_position(bl, pos)) == scoresheet_json(
            bl, score_game(bl, state, names)
        )
