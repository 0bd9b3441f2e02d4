"""The kit's helpers for rule tests by hand (ttr_core.testing.scenarios), its functional
random play (ttr_core.testing.play), and its card count and action outcome
(ttr_core.testing.invariants)."""

from __future__ import annotations

import copy

import pytest

from ttr_core.model.actions import ClaimRoute, DrawBlind, TakeFaceUp
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.errors import IllegalActionError
from ttr_core.model.events import CardsDealt, Event, RouteClaimed
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import apply, new_game
from ttr_core.play.legal import LegalActions
from ttr_core.rules.index import index_of
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing.invariants import card_totals, check_action, check_action_outcome
from ttr_core.testing.play import MAX_DECISIONS, play_game, play_random, random_game_states
from ttr_core.testing.scenarios import (
    BASE_PARAMETERS,
    BASIC_ROUTES,
    BASIC_TICKETS,
    BLACK,
    BLUE,
    RED,
    FixtureEdition,
    ScriptedChance,
    arrange,
    assert_illegal,
    card_list,
    cards,
    claimed,
    events_of,
    fixture_ruleset,
    full_order,
    map_dict,
    position,
    score,
    started,
    step,
    ticket,
    track,
    track_id,
    track_indices,
    with_player,
)

# -- cards and boards ------------------------------------------------------------------------


def test_cards_are_counted_from_letters_and_names() -> None:
    assert cards("RRL") == (2, 0, 0, 0, 0, 0, 0, 0, 1)
    assert cards("K", red=2, locomotive=1) == (2, 0, 0, 0, 0, 0, 1, 0, 1)
    assert cards() == (0,) * NUM_KINDS
    assert card_list("LLRK") == [LOCO, LOCO, RED, BLACK]
    with pytest.raises(KeyError):
        cards("X")
    with pytest.raises(ValueError, match="unknown card"):
        cards(purple=1)


def test_map_dict_numbers_tracks_pairs_doubles_and_collects_cities() -> None:
    before = copy.deepcopy(BASE_PARAMETERS)
    data = map_dict(
        [("A", "B", 2, "red"), ("B", "C", 1, "gray"), ("A", "B", 2, "blue")],
        [("A", "C", 4)],
        cities=["Z"],
        trains=12,
    )
    assert [(t["id"], t.get("parallel")) for t in data["routes"]] == [(1, 3), (2, None), (3, 1)]
    assert [c["id"] for c in data["cities"]] == ["A", "B", "C", "Z"]
    assert data["tickets"] == [{"id": 1, "a": "A", "b": "C", "points": 4}]
    assert data["parameters"]["trains"] == 12
    assert data["parameters"]["players"] == [2, 5]
    assert before == BASE_PARAMETERS


def test_the_letter_board_is_a_ruleset_with_known_tracks_and_tickets(fx: Ruleset) -> None:
    assert (fx.id, fx.params.players, fx.params.trains) == ("fixture", (2, 5), 45)
    assert len(fx.map.routes) == len(BASIC_ROUTES) and len(fx.map.tickets) == len(BASIC_TICKETS)
    assert track_indices(fx, "C", "B") == [2, 3]
    assert index_of(fx).route_twin[track(fx, "B-C")] == track(fx, "B-C", 1)
    assert track_id(fx, "C-E", 1) == 10
    assert index_of(fx).route_color[track(fx, "C-E", 1)] == 5  # pink
    with pytest.raises(AssertionError, match="no track between A and H"):
        track(fx, "A-H")
    assert ticket(fx, "A-H") == ticket(fx, "H-A") == 4
    with pytest.raises(AssertionError, match="no ticket F-H"):
        ticket(fx, "F-H")


def test_a_fixture_edition_serves_any_map_with_the_identity_given() -> None:
    data = fixture_ruleset([("P", "Q", 1, "gray")], [("P", "Q", 3)], players=[2, 3]).map
    rs = Ruleset(FixtureEdition(data, "tiny", aliases=("t",), name="Tiny"), options={})
    assert (rs.id, rs.params.players, len(rs.map.routes)) == ("tiny", (2, 3), 1)
    plugin = FixtureEdition(data, "tiny", aliases=("t",), name="Tiny")
    assert (plugin.info.name, plugin.info.aliases) == ("Tiny", ("t",))


def test_positions_name_tracks_and_tickets_by_their_cities(fx: Ruleset) -> None:
    holdings = {"Ann": (["A-B", "B-C#1", "C-D"], ["D-A"]), "Bob": (["C-E#1"], ["H-A"])}
    pos = position(fx, holdings)
    assert [p.name for p in pos.players] == ["Ann", "Bob"]
    assert pos.players[0].routes == (track(fx, "A-B"), track(fx, "B-C", 1), track(fx, "C-D"))
    assert pos.players[1].tickets == (ticket(fx, "A-H"),)
    sheet = score(fx, holdings)
    assert [p.route_points for p in sheet.players] == [4 + 2 + 7, 4]
    assert [p.ticket_points for p in sheet.players] == [5, -14]


# -- chance and states -------------------------------------------------------------------------


def test_full_order_puts_the_top_first_and_keeps_the_rest_in_pool_order() -> None:
    assert full_order([0, 0, 1, 2, 2], [2, 0]) == (2, 0, 0, 1, 2)
    with pytest.raises(AssertionError, match="not all in the pool"):
        full_order([0, 1], [1, 1])


def test_scripted_chance_deals_the_cards_and_tickets_given(fx: Ruleset) -> None:
    top = card_list("RRRR" + "BBBB" + "LLGGG" + "W")
    events: list[Event] = []
    state = new_game(
        fx, 2, chance=ScriptedChance(train=top, tickets=[16, 15, 14, 13]), events=events
    )
    assert [p.hand for p in state.players] == [cards("RRRR"), cards("BBBB")]
    assert state.display == tuple(card_list("LLGGG"))
    assert state.deck[state.deck_pos] == card_list("W")[0]
    assert state.offers == tuple(
        tuple(index_of(fx).ticket_index[i] for i in ids) for ids in ((16, 15, 14), (13, 1, 2))
    )
    assert [e.cards for e in events_of(events, CardsDealt)] == [(RED,) * 4, (BLUE,) * 4]


def test_started_is_the_first_turn_with_every_opening_ticket_kept(fx: Ruleset) -> None:
    offered = new_game(fx, 3, seed=4, start_player=1).offers
    state = started(fx, players=3, seed=4, start_player=1)
    assert state.phase is Phase.TURN and state.current == 1
    assert [p.tickets for p in state.players] == list(offered)
    assert card_totals(state) == index_of(fx).deck_counts


def test_states_change_only_the_fields_named(fx: Ruleset) -> None:
    state = started(fx)
    held = with_player(state, 1, hand=cards("LL"), trains=3)
    assert (held.players[1].hand, held.players[1].trains) == (cards("LL"), 3)
    assert held.players[0] == state.players[0] and held.deck == state.deck
    piles = arrange(state, deck=card_list("RB"), discard=cards("W"), display=card_list("KKKKK"))
    assert (piles.deck, piles.deck_pos, piles.discard) == ((RED, 4), 0, cards("W"))
    assert piles.display == (BLACK,) * 5 and piles.players == state.players
    r = track(fx, "A-B")
    owned = claimed(fx, state, {r: 1})
    assert owned.owners[r] == 1 and all(r not in free for free in owned.free)
    assert owned.players == state.players


# -- one action --------------------------------------------------------------------------------


def test_assert_illegal_returns_the_refusal_and_fails_otherwise(fx: Ruleset) -> None:
    state = with_player(started(fx), 0, hand=cards("RRR"))
    short = ClaimRoute(route=track_id(fx, "A-B"), cards=cards("RR"))
    assert assert_illegal(fx, state, short, "CLAIM-1").rule == "CLAIM-1"
    with pytest.raises(AssertionError, match="expected rule CLAIM-2, got CLAIM-1"):
        assert_illegal(fx, state, short, "CLAIM-2")
    paid = ClaimRoute(route=track_id(fx, "A-B"), cards=cards("RRR"))
    with pytest.raises(AssertionError, match="was accepted"):
        assert_illegal(fx, state, paid, "CLAIM-1")


def test_step_applies_a_listed_action_and_refuses_another(fx: Ruleset) -> None:
    state = with_player(started(fx), 0, hand=cards("RRR"))
    claim = ClaimRoute(route=track_id(fx, "A-B"), cards=cards("RRR"))
    after, events = step(fx, state, claim)
    assert after.owners[track(fx, "A-B")] == 0
    (done,) = events_of(events, RouteClaimed)
    assert done.route == track_id(fx, "A-B")
    assert events_of(events, CardsDealt) == []
    with pytest.raises(AssertionError, match="is not listed"):
        step(fx, state, TakeFaceUp(card=99))


def test_check_action_outcome_is_the_new_state_or_the_refusal(fx: Ruleset) -> None:
    state = with_player(started(fx), 0, hand=cards("RRR"))
    paid = ClaimRoute(route=track_id(fx, "A-B"), cards=cards("RRR"))
    assert check_action_outcome(fx, state, paid) == apply(fx, state, paid)
    short = ClaimRoute(route=track_id(fx, "A-B"), cards=cards("RR"))
    refusal = check_action_outcome(fx, state, short)
    assert isinstance(refusal, IllegalActionError) and refusal.rule == "CLAIM-1"
    assert check_action(fx, state, short) is None
    assert check_action(fx, state, paid) == apply(fx, state, paid)


# -- random play on the functional API ---------------------------------------------------------


def test_play_random_plays_the_game_of_play_game(fx: Ruleset) -> None:
    seen: list[tuple[GameState, LegalActions]] = []
    final, decisions = play_random(fx, 3, 5, 5, visit=lambda s, legal: seen.append((s, legal)))
    game = play_game(fx, 3, 5)
    assert final == game.state and decisions == len(game.log) == len(seen)
    assert final.is_over and not seen[-1][0].is_over
    assert all(len(legal) > 0 for _, legal in seen)
    assert play_random(fx, 3, 5, 6)[0] != final


def test_play_random_fails_a_game_that_does_not_end(fx: Ruleset) -> None:
    with pytest.raises(AssertionError, match="did not end within 10 actions"):
        play_random(fx, 2, 1, 1, max_decisions=10)
    assert MAX_DECISIONS > 1000


def test_random_game_states_are_each_step_of_play_random(fx: Ruleset) -> None:
    states, actions, logs = random_game_states(fx, 2, 3, 4)
    assert len(states) == len(actions) + 1 == len(logs)
    assert states[-1] == play_random(fx, 2, 3, 4)[0]
    assert events_of(logs[0], CardsDealt)
    for before, action, events, after in zip(
        states[:-1], actions, logs[1:], states[1:], strict=True
    ):
        again: list[Event] = []
        assert apply(fx, before, action, events=again) == after
        assert again == events
        assert card_totals(after) == index_of(fx).deck_counts
    assert DrawBlind() in actions
