"""Properties of random legal play, for every installed edition, every combination of its
options and every allowed player count (Hypothesis chooses the seeds)."""

from __future__ import annotations

import json
import random
from itertools import product

import pytest
from attrs import evolve
from hypothesis import given
from hypothesis import strategies as st

from ttr_core import (
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    Game,
    GameRecord,
    IllegalActionError,
    KeepTickets,
    Pass,
    Ruleset,
    TakeFaceUp,
    installed_editions,
    legal_actions,
    score_game,
    view_of,
)
from ttr_core.formats.serialize import (
    action_from_json,
    action_to_json,
    event_from_json,
    event_to_json,
    state_from_json,
    state_to_json,
)
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.state import Phase
from ttr_core.play.functional import apply
from ttr_core.rules.index import index_of
from ttr_core.testing.invariants import card_totals, perturb_secrets
from ttr_core.testing.play import play_random, random_game_states


def _cases():
    out = []
    for edition in sorted(installed_editions()):
        specs = Ruleset.build(edition).option_specs
        for combo in product(*(spec.choices for spec in specs)):
            options = {spec.name: value for spec, value in zip(specs, combo, strict=True)}
            rs = Ruleset.build(edition, options)
            lo, hi = rs.params.players
            out.extend((rs, players) for players in range(lo, hi + 1))
    return out


CASES = _cases()
GAMES = st.tuples(st.sampled_from(CASES), st.integers(0, 2**64 - 1), st.integers(0, 2**32 - 1))
MAX_DECISIONS = 5000


def sampled(states, count):
    """About ``count`` states spread over a game, the first and last included."""
    step = max(1, len(states) // count)
    return [*states[::step], states[-1]]


def test_cases_cover_every_edition_and_player_count():
    """Every installed edition is exercised at each of its player counts."""
    editions = {rs.id for rs, _ in CASES}
    assert editions == set(installed_editions())
    for rs, players in CASES:
        lo, hi = rs.params.players
        assert lo <= players <= hi
    assert {n for rs, n in CASES if rs.id == "usa"} == {2, 3, 4, 5}


# -- termination and legal actions ---------------------------------------------------------


@given(GAMES)
def test_pass_3_every_game_terminates(game):
    """PASS-3 / END-2 / PASS-2: every game ends within a generous bound; a final round gives
    every player exactly one more turn; a deadlock ends after a full round of passes."""
    (rs, players), seed, choice = game
    trigger_turn = []

    def visit(state, legal):
        assert len(legal) > 0
        if state.final_trigger >= 0 and not trigger_turn:
            trigger_turn.append(state.turn)

    final, _ = play_random(rs, players, seed, choice, max_decisions=MAX_DECISIONS, visit=visit)
    assert final.is_over
    assert len(legal_actions(rs, final)) == 0
    assert final.ended_by in ("final_round", "deadlock")
    if final.ended_by == "final_round":
        assert final.final_trigger >= 0
        assert final.turn - trigger_turn[0] == players
        assert final.current == final.final_trigger
    else:
        assert final.passes == players
    sheet = score_game(rs, final)
    assert sheet.winners


@given(GAMES)
def test_setup_1_every_card_accounted_for(game):
    """SETUP-1 / DECK-2: the 110 cards are always in hands, deck, discard, display or a
    tunnel reveal, kind by kind."""
    (rs, players), seed, choice = game

    def visit(state, legal):
        assert card_totals(state) == index_of(rs).deck_counts
        assert all(n >= 0 for n in state.discard)
        assert all(min(p.hand) >= 0 for p in state.players)
        assert len(state.display) == rs.params.display.size

    final, _ = play_random(rs, players, seed, choice, visit=visit)
    assert card_totals(final) == index_of(rs).deck_counts
    assert sum(index_of(rs).deck_counts) == sum(rs.params.train_cards.values())
    if installed_editions()[rs.id].builtin:
        assert sum(index_of(rs).deck_counts) == 110


@given(GAMES)
def test_claim_5_trains_conserved(game):
    """CLAIM-5 / CLAIM-7 / CLAIM-8: trains left plus the lengths of a player's tracks are
    the starting trains; trains never go negative; an owner never changes."""
    (rs, players), seed, choice = game
    owners_seen = {}

    def visit(state, legal):
        for seat, p in enumerate(state.players):
            owned = [r for r, o in enumerate(state.owners) if o == seat]
            assert p.trains + sum(index_of(rs).route_len[r] for r in owned) == rs.params.trains
            assert p.trains >= 0
        for r, o in enumerate(state.owners):
            if o >= 0:
                assert owners_seen.setdefault(r, o) == o
            else:
                assert r not in owners_seen

    play_random(rs, players, seed, choice, visit=visit)


@given(GAMES)
def test_claim_5_score_track_is_route_points(game):
    """CLAIM-5 / SETUP-7 / TICKET-8: the score track holds exactly the points of the
    routes claimed; tickets and bonuses wait for final scoring."""
    (rs, players), seed, choice = game

    def check(state):
        for seat, p in enumerate(state.players):
            owned = [r for r, o in enumerate(state.owners) if o == seat]
            assert p.score == sum(index_of(rs).route_points[r] for r in owned)

    final, _ = play_random(rs, players, seed, choice, visit=lambda s, _: check(s))
    check(final)
    sheet = score_game(rs, final)
    for seat, p in enumerate(final.players):
        assert sheet.players[seat].route_points == p.score
        score = sheet.players[seat]
        assert score.total == score.route_points + score.ticket_points + sum(score.bonuses.values())


@given(GAMES)
def test_double_1_never_both_tracks_in_play(game):
    """DOUBLE-1 / DOUBLE-2: nobody owns both tracks of a double route, and below the
    threshold at most one track of each double route is ever claimed."""
    (rs, players), seed, choice = game

    def visit(state, legal):
        for r, twin in enumerate(index_of(rs).route_twin):
            if twin < 0:
                continue
            a, b = state.owners[r], state.owners[twin]
            if a >= 0 and b >= 0:
                assert a != b
                assert players >= index_of(rs).double_open_min

    play_random(rs, players, seed, choice, visit=visit)


@given(GAMES)
def test_listed_actions_apply_and_are_distinct(game):
    """PASS-1 / DRAW-5: every listed action applies; no action is listed twice; a pass is
    listed only alone; a face-up locomotive is never offered as the second card."""
    (rs, players), seed, choice = game
    states, _, _ = random_game_states(rs, players, seed, choice)
    chooser = random.Random(choice)
    for state in sampled(states[:-1], 12):
        legal = legal_actions(rs, state)
        listed = list(legal)
        assert len(listed) == len(legal) > 0
        assert len(set(listed)) == len(listed)
        assert [legal[i] for i in range(len(legal))] == listed
        assert legal[-1] == listed[-1]
        if Pass() in listed:
            assert listed == [Pass()]
        if state.phase is Phase.SECOND_CARD and index_of(rs).face_up_loco_whole_draw:
            assert TakeFaceUp(card=LOCO) not in listed
        picks = listed if len(listed) <= 300 else chooser.sample(listed, 300)
        for action in picks:
            apply(rs, state, action)


def fabricated_actions(rs, state, chooser, count):
    """Random actions, legal or not, of every kind."""
    out = [DrawBlind(), DrawTickets(), Pass()]
    out += [TakeFaceUp(card=k) for k in range(NUM_KINDS)]
    hand = state.players[state.current].hand
    offered = state.offers[state.current] if state.phase is Phase.OPENING_TICKETS else ()
    offered = offered or state.pending_tickets
    ids = [index_of(rs).ticket_ids[t] for t in offered]
    for _ in range(count):
        r = chooser.randrange(len(index_of(rs).routes))
        length = index_of(rs).route_len[r]
        pay = [0] * NUM_KINDS
        for _ in range(length + chooser.choice((-1, 0, 0, 0, 1))):
            kind = chooser.choice(
                (LOCO, chooser.randrange(NUM_KINDS), index_of(rs).route_color[r] % 9)
            )
            pay[kind] += 1
        if chooser.random() < 0.5:
            pay = [min(a, b) for a, b in zip(pay, hand, strict=True)]
        out.append(ClaimRoute(route=index_of(rs).route_ids[r], cards=tuple(pay)))
        subset = tuple(t for t in ids if chooser.random() < 0.6)
        out.append(KeepTickets(tickets=subset))
        out.append(KeepTickets(tickets=(chooser.choice(index_of(rs).ticket_ids),)))
    return out


@given(GAMES)
def test_contains_agrees_with_listing(game):
    """``in`` agrees with the listing, and with ``apply``, for random actions."""
    (rs, players), seed, choice = game
    states, _, _ = random_game_states(rs, players, seed, choice)
    chooser = random.Random(seed ^ choice)
    for state in sampled(states, 10):
        legal = legal_actions(rs, state)
        listed = set(legal)
        for action in listed:
            assert action in legal
        for action in fabricated_actions(rs, state, chooser, 30):
            inside = action in legal
            assert inside == (action in listed), action
            try:
                apply(rs, state, action)
            except IllegalActionError:
                assert not inside, action
            else:
                assert inside, action


def multisets(hand, size, kind=0):
    """Every payment of ``size`` cards that ``hand`` holds (nine counts each)."""
    if kind == NUM_KINDS - 1:
        if size <= hand[kind]:
            yield (size,)
        return
    for n in range(min(hand[kind], size) + 1):
        for rest in multisets(hand, size - n, kind + 1):
            yield (n, *rest)


@pytest.mark.slow
@given(GAMES, st.lists(st.integers(0, 8), min_size=NUM_KINDS, max_size=NUM_KINDS), st.data())
def test_claim_payments_complete(game, hand, data):
    """CLAIM-1..4, CLAIM-7, DOUBLE-1/2: on sampled states, every claim (each track x each
    payment the hand holds) that ``apply`` accepts is listed, and nothing else is."""
    (rs, players), seed, choice = game
    states, _, _ = random_game_states(rs, players, seed, choice)
    turns = [s for s in states if s.phase is Phase.TURN]
    state = turns[data.draw(st.integers(0, len(turns) - 1), label="state")]
    trains = data.draw(st.sampled_from([state.players[state.current].trains, 1, 3, 45]))
    players_ = list(state.players)
    players_[state.current] = evolve(players_[state.current], hand=tuple(hand), trains=trains)
    state = evolve(state, players=tuple(players_))
    legal = legal_actions(rs, state)
    listed = [a for a in legal if isinstance(a, ClaimRoute)]
    assert len(listed) == len(set(listed))
    accepted = set()
    payments = {}
    for r in range(len(index_of(rs).routes)):
        length = index_of(rs).route_len[r]
        if length not in payments:
            payments[length] = list(multisets(hand, length))
        for pay in payments[length]:
            action = ClaimRoute(route=index_of(rs).route_ids[r], cards=pay)
            try:
                apply(rs, state, action)
            except IllegalActionError:
                assert action not in legal
                continue
            accepted.add(action)
            assert action in legal
    assert set(listed) == accepted


# -- records, JSON and views ---------------------------------------------------------------


@given(GAMES, st.integers(0, 400))
def test_record_replays_to_an_equal_state(game, stop):
    """A record saved at any point replays to an equal state, with its seed and without
    (then only the generator state differs)."""
    (rs, players), seed, choice = game
    g = Game.new(rs, players=players, seed=seed)
    chooser = random.Random(choice)
    while not g.is_over and len(g.log) < stop:
        legal = g.legal_actions()
        g.apply(legal[chooser.randrange(len(legal))])
    text = g.save()
    loaded = Game.load(text)
    assert loaded.state == g.state
    assert loaded.log == g.log
    record = g.record()
    assert GameRecord.from_json(record.to_json()) == record
    seedless = Game.replay(evolve(record, seed=None))
    assert evolve(seedless.state, rng=g.state.rng) == g.state
    assert seedless.log == g.log


@given(GAMES)
def test_json_round_trip(game):
    """States, actions and events survive their JSON forms."""
    (rs, players), seed, choice = game
    states, actions, logs = random_game_states(rs, players, seed, choice)
    for state in sampled(states, 40):
        raw = json.loads(json.dumps(state_to_json(state)))
        assert state_from_json(raw) == state
    for action in actions:
        raw = json.loads(json.dumps(action_to_json(action)))
        assert action_from_json(raw) == action
    for events in logs:
        for event in events:
            raw = json.loads(json.dumps(event_to_json(event)))
            assert event_from_json(raw) == event


@given(GAMES)
def test_views_hide_exactly_the_secrets(game):
    """SETUP-6: a view shows the viewer's own hand, tickets and offers, and does not change
    when anything secret from the viewer changes."""
    (rs, players), seed, choice = game
    states, _, _ = random_game_states(rs, players, seed, choice)
    chooser = random.Random(choice)
    for state in sampled(states, 12):
        for seat in range(players):
            view = view_of(rs, state, seat)
            me = state.players[seat]
            assert view.hand == me.hand
            assert view.tickets == tuple(index_of(rs).ticket_ids[t] for t in me.tickets)
            assert view_of(rs, perturb_secrets(rs, state, seat, chooser.randrange), seat) == view
