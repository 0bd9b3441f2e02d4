"""India played through the engine on the real map: setup and tickets (IN-1, IN-4, IN-5),
double routes (IN-6), ferries (IN-7), the card rules (IN-8), no tunnels or stations (IN-9),
and random games that end normally at every player count.

Games are driven with the public API (``new_game``, ``apply``, ``legal_actions``); card
piles are set with ``attrs.evolve`` where a test needs a given position.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve

from ttr_core import Ruleset, SetupError, score_game
from ttr_core.cli import main
from ttr_core.model.actions import BuildStation, ClaimRoute, DrawTickets, KeepTickets, TakeFaceUp
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.events import DisplayFlushed, Event, TicketsKept
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import apply, new_game
from ttr_core.play.legal import legal_actions
from ttr_core.rules.index import index_of
from ttr_core.rules.payments import payment_error
from ttr_core.testing.invariants import card_totals
from ttr_core.testing.play import play_random
from ttr_core.testing.scenarios import (
    ScriptedChance,
    arrange,
    assert_illegal,
    card_list,
    cards,
    events_of,
    started,
    step,
    with_player,
)

R = 0
L = LOCO
TICKETS = 58


@pytest.fixture(scope="module")
def india() -> Ruleset:
    return Ruleset.build("india")


def turn(rs: Ruleset, players: int = 2, seed: int = 7, **piles: Any) -> GameState:
    """Seat 0's first turn after every player kept all opening tickets."""
    return arrange(started(rs, players, seed=seed), **piles)


def real_track(rs: Ruleset, a: str, b: str, color: str | None = None) -> int:
    """Index of the real-map track between two cities (of one colour, for a double)."""
    (r,) = [
        r
        for r, t in enumerate(index_of(rs).routes)
        if set(t.cities) == {a, b} and color in (None, t.color)
    ][:1]
    return r


def claim(rs: Ruleset, r: int, pay: str) -> ClaimRoute:
    return ClaimRoute(route=index_of(rs).route_ids[r], cards=cards(pay))


def ids(rs: Ruleset, tickets: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(index_of(rs).ticket_ids[t] for t in tickets)


# -- setup and tickets (IN-1, IN-4, IN-5) ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_in_1_and_in_4_setup(india: Ruleset, players: int) -> None:
    """IN-1 / IN-4: every player starts with 45 trains, 4 train cards and an offer of 4
    different tickets; the ticket deck holds the other 58 - 4n."""
    for seed in range(3):
        state = new_game(india, players, seed=seed, start_player=seed % players)
        assert state.phase is Phase.OPENING_TICKETS
        for p in state.players:
            assert (p.trains, p.stations, p.score, p.tickets) == (45, 0, 0, ())
            assert sum(p.hand) == 4
        assert [len(offer) for offer in state.offers] == [4] * players
        offered = [t for offer in state.offers for t in offer]
        assert len(set(offered)) == 4 * players
        assert len(state.ticket_deck) == TICKETS - 4 * players
        assert sorted([*offered, *state.ticket_deck]) == list(range(TICKETS))
        assert card_totals(state) == index_of(india).deck_counts


def test_in_1_two_to_four_players(india: Ruleset) -> None:
    """IN-1: a game needs 2 to 4 players."""
    for players in (1, 5):
        with pytest.raises(SetupError, match="india is played by 2 to 4 players"):
            new_game(india, players, seed=1)


def test_in_4_keep_at_least_two_of_four(india: Ruleset) -> None:
    """IN-4: 11 ways to keep 2, 3 or all 4 opening tickets; 1 or 0 is too few."""
    state = new_game(india, 2, seed=1)
    offer = ids(india, state.offers[0])
    legal = list(legal_actions(india, state))
    assert all(isinstance(a, KeepTickets) for a in legal)
    assert Counter(len(a.tickets) for a in legal if isinstance(a, KeepTickets)) == {
        2: 6,
        3: 4,
        4: 1,
    }
    for keep in itertools.combinations(offer, 2):
        assert KeepTickets(tickets=keep) in legal
    for keep in ((offer[0],), ()):
        assert_illegal(india, state, KeepTickets(tickets=keep), "SETUP-5")


def test_in_5_returned_opening_tickets_go_under_the_deck(india: Ruleset) -> None:
    """IN-5: the 2 tickets each player returns from the opening deal go under the ticket
    deck, in turn order."""
    state = new_game(india, 3, seed=4)
    deck = state.ticket_deck
    events: list[Event] = []
    returned: list[int] = []
    while state.phase is Phase.OPENING_TICKETS:
        offer = state.offers[state.current]
        returned.extend(offer[1:3])
        keep = (offer[0], offer[3])
        state = apply(india, state, KeepTickets(tickets=ids(india, keep)), events=events)
    assert state.ticket_deck[: len(deck)] == deck
    assert Counter(state.ticket_deck[len(deck) :]) == Counter(returned)
    assert len(state.ticket_deck) == TICKETS - 12 + 6
    assert [e.returned_to for e in events_of(events, TicketsKept)] == ["bottom"] * 3


def test_in_5_returned_drawn_tickets_go_under_the_deck(india: Ruleset) -> None:
    """IN-5: a ticket draw deals the top 3; the 2 not kept go under the deck."""
    state = turn(india)
    top, rest = state.ticket_deck[:3], state.ticket_deck[3:]
    state, _ = step(india, state, DrawTickets())
    assert state.pending_tickets == top
    state, events = step(india, state, KeepTickets(tickets=ids(india, top[1:2])))
    (kept,) = events_of(events, TicketsKept)
    assert kept.returned_to == "bottom"
    assert state.ticket_deck[: len(rest)] == rest
    assert Counter(state.ticket_deck[len(rest) :]) == Counter((top[0], top[2]))


# -- double routes (IN-6) --------------------------------------------------------------------------


def agra_bhopal(rs: Ruleset) -> tuple[int, int]:
    return real_track(rs, "Agra", "Bhopal", "pink"), real_track(rs, "Agra", "Bhopal", "red")


@pytest.mark.parametrize("players", [2, 3])
def test_in_6_first_claim_closes_the_double_below_four(india: Ruleset, players: int) -> None:
    """IN-6 / DOUBLE-2: with 2 or 3 players, claiming the pink Agra-Bhopal track closes
    the red one."""
    pink, red = agra_bhopal(india)
    state = with_player(turn(india, players), 0, hand=cards("P"))
    state, _ = step(india, state, claim(india, pink, "P"))
    state = with_player(state, 1, hand=cards("R"))
    assert_illegal(india, state, claim(india, red, "R"), "DOUBLE-2")


def test_in_6_both_tracks_with_four_players(india: Ruleset) -> None:
    """IN-6 / DOUBLE-1: with 4 players another player takes the red track; the owner of
    the pink one never may."""
    pink, red = agra_bhopal(india)
    state = with_player(turn(india, 4), 0, hand=cards("PR"))
    state, _ = step(india, state, claim(india, pink, "P"))
    again = with_player(state, 0, hand=cards("R"))
    assert_illegal(india, evolve(again, current=0), claim(india, red, "R"), "DOUBLE-1")
    state = with_player(state, 1, hand=cards("R"))
    state, _ = step(india, state, claim(india, red, "R"))
    assert (state.owners[pink], state.owners[red]) == (0, 1)


def test_in_6_score_positions_follow_the_player_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """IN-6: ``ttr score`` refuses the two tracks of Agra-Bhopal in a 3-player position
    and accepts them with 4 players."""
    pink = {"a": "Agra", "b": "Bhopal", "color": "pink"}
    red = {"a": "Bhopal", "b": "Agra", "color": "red"}
    players = [
        {"name": "A", "routes": [pink], "tickets": []},
        {"name": "B", "routes": [red], "tickets": []},
    ]
    path = tmp_path / "three.json"
    three = [*players, {"name": "C", "routes": [], "tickets": []}]
    path.write_text(json.dumps({"edition": "india", "players": three}), encoding="utf-8")
    assert main(["score", str(path)]) == 1
    err = capsys.readouterr().err
    assert "with 3 players only one track" in err and "DOUBLE-2" in err
    four = [*three, {"name": "D", "routes": [], "tickets": []}]
    path.write_text(json.dumps({"edition": "india", "players": four}), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert [p["route_points"] for p in sheet["players"]] == [1, 1, 0, 0]


# -- ferries (IN-7) --------------------------------------------------------------------------


def listed_payments(rs: Ruleset, state: GameState, r: int) -> set[tuple[int, ...]]:
    return {
        a.cards
        for a in legal_actions(rs, state)
        if isinstance(a, ClaimRoute) and a.route == index_of(rs).route_ids[r]
    }


def all_payments(rs: Ruleset, r: int, hand: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every payment from ``hand`` that the payment rule accepts (brute force)."""
    out = set()
    for combo in itertools.combinations_with_replacement(
        range(NUM_KINDS), index_of(rs).route_len[r]
    ):
        counts = tuple(combo.count(k) for k in range(NUM_KINDS))
        if all(counts[k] <= hand[k] for k in range(NUM_KINDS)) and (
            payment_error(rs, r, counts) is None
        ):
            out.add(counts)
    return out


@pytest.mark.parametrize(
    ("a", "b", "hand"),
    [
        ("Calcutta", "Madras", "RRRRRRRRBBBBBBLLLL"),
        ("Bombay", "Karachi", "RRRRRRGGLL"),
        ("Calicut", "Quilon", "RBLL"),
    ],
)
def test_in_7_ferry_payments(india: Ruleset, a: str, b: str, hand: str) -> None:
    """IN-7 / FERRY-2 / FERRY-3: a ferry takes one locomotive per symbol and one colour
    (locomotives wild) for the other spaces; exactly those payments are listed."""
    r = real_track(india, a, b)
    state = with_player(turn(india, 4), 0, hand=cards(hand))
    listed = listed_payments(india, state, r)
    assert listed and listed == all_payments(india, r, cards(hand))
    for pay in listed:
        assert pay[LOCO] >= index_of(india).route_ferry[r]
        assert sum(1 for k in range(LOCO) if pay[k]) <= 1


def test_in_7_calcutta_madras(india: Ruleset) -> None:
    """IN-7: Calcutta-Madras (8 spaces, 2 symbols) takes 6 of a colour and 2 locomotives,
    not 7 and 1; claimed, it scores 21 and costs 8 trains."""
    r = real_track(india, "Calcutta", "Madras")
    state = with_player(turn(india), 0, hand=cards("RRRRRRRLL"))
    assert_illegal(india, state, claim(india, r, "RRRRRRRL"), "FERRY-2")
    state, _ = step(india, state, claim(india, r, "RRRRRRLL"))
    assert state.players[0].score == 21
    assert state.players[0].trains == 45 - 8


# -- card rules and what India does not have (IN-8, IN-9) ------------------------------------


def test_in_8_face_up_locomotive_rules(india: Ruleset) -> None:
    """IN-8 / DRAW-4 / DRAW-5: a face-up locomotive taken first is the whole draw; one may
    not be taken second."""
    state = turn(india, display=card_list("LRGBO"), deck=card_list("WWWWW"))
    end, _ = step(india, state, TakeFaceUp(card=L))
    assert end.phase is Phase.TURN and end.current == 1
    mid, _ = step(india, state, TakeFaceUp(card=R))
    assert_illegal(india, mid, TakeFaceUp(card=L), "DRAW-5")


def test_in_8_three_locomotives_flush(india: Ruleset) -> None:
    """IN-8 / FLUSH-1: a replacement that shows a third locomotive flushes the display."""
    state = turn(india, display=card_list("RLLGB"), deck=card_list("LOOOOO"), discard=cards(""))
    mid, events = step(india, state, TakeFaceUp(card=R))
    assert len(events_of(events, DisplayFlushed)) == 1
    assert mid.display == tuple(card_list("OOOOO"))


def test_in_8_flush_at_setup(india: Ruleset) -> None:
    """IN-8 / FLUSH-1: a first display of 3 locomotives is flushed."""
    top = card_list("RRRRBBBB" + "LLLRG" + "WWWWW")
    state = new_game(india, 2, chance=ScriptedChance(train=top))
    assert state.display == tuple(card_list("WWWWW"))


def test_in_9_no_stations(
    india: Ruleset, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """IN-9 / STATION-1: a station cannot be built, is never listed, and a score position
    with one is refused."""
    state = with_player(turn(india), 0, hand=cards("R"))
    assert_illegal(india, state, BuildStation(city="Delhi", cards=cards("R")), "STATION-1")
    assert not any(isinstance(a, BuildStation) for a in legal_actions(india, state))
    data = {
        "edition": "india",
        "players": [{"name": "A", "routes": [], "tickets": [], "stations": ["Delhi"]}],
    }
    path = tmp_path / "station.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["score", str(path)]) == 1
    assert capsys.readouterr().err.rstrip().endswith("players[0].stations: india has no stations")


# -- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_normally(india: Ruleset, players: int) -> None:
    """END-1 / END-2: random games at 2, 3 and 4 players end by the final round, never a
    tunnel or a station on the way, and score with the India Express and the Grand Tour."""
    for seed in range(3):
        state, decisions = play_random(india, players, seed, seed + 100)
        assert state.is_over and state.ended_by == "final_round"
        assert min(p.trains for p in state.players) <= 2
        assert all(p.stations == 0 for p in state.players)
        sheet = score_game(india, state)
        assert sheet.winners
        for player in sheet.players:
            assert set(player.bonuses) == {"india_express", "grand_tour"}
        assert decisions < 2000
