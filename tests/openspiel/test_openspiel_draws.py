"""Every draw as a chance event (``ttr_core.openspiel.draws``): the cards and tickets a draw
may give and how many of each, the deal, reshuffles, tickets returned under the deck, and
the order of what is unseen left out between decisions."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from attrs import evolve

import ttr_core as ttr
from ttr_core.model.cards import NUM_KINDS
from ttr_core.openspiel import draws


def _resolve_deal(rs: ttr.Ruleset, players: int, seed: int) -> tuple[draws.Done, int]:
    """The deal with random draws, and how many draws it took."""
    pick = random.Random(seed)
    step = draws.Step(None)
    n = 0
    while True:
        out = draws.deal(rs, players, step)
        if isinstance(out, draws.Done):
            return out, n
        items = [k for k, c in out.counts for _ in range(c)]
        step = step.with_draw(out.pile, pick.choice(items))
        n += 1


def _after_deal(edition: str = "usa", players: int = 2, seed: int = 1) -> draws.Position:
    return _resolve_deal(ttr.ruleset_for(edition), players, seed)[0].position


def _deck_counts(rs: ttr.Ruleset) -> list[int]:
    sim = ttr.Simulator.new(rs, 2, seed=0)
    state = sim.snapshot()
    counts = [0] * NUM_KINDS
    for c in state.deck[state.deck_pos :]:
        counts[c] += 1
    for p in state.players:
        for k in range(NUM_KINDS):
            counts[k] += p.hand[k]
    for c in state.display:
        if c >= 0:
            counts[c] += 1
    for k in range(NUM_KINDS):
        counts[k] += state.discard[k]
    return counts


def test_first_draw_of_the_deal_is_from_the_whole_deck() -> None:
    """The deal's first chance event draws from every train card, each kind in
    proportion to its count (USA: 12 of each colour, 14 locomotives)."""
    rs = ttr.ruleset_for("usa")
    need = draws.deal(rs, 2, draws.Step(None))
    assert isinstance(need, draws.Need)
    assert need.pile == draws.TRAIN
    assert draws.card_counts(need) == _deck_counts(rs) == [12] * 8 + [14]


def test_each_draw_of_the_deal_leaves_the_drawn_card_out() -> None:
    """After drawing a locomotive, the next draw has one locomotive fewer."""
    rs = ttr.ruleset_for("usa")
    need = draws.deal(rs, 2, draws.Step(None).with_draw(draws.TRAIN, 8))
    assert isinstance(need, draws.Need)
    assert draws.card_counts(need) == [12] * 8 + [13]


@pytest.mark.parametrize(("edition", "players"), [("usa", 2), ("europe", 3), ("usa", 5)])
def test_the_deal_draws_each_card_and_ticket_once(edition: str, players: int) -> None:
    """SETUP: the deal takes one chance event per card dealt or laid face up and per
    ticket dealt (flushes aside), and ends with full hands, display and offers."""
    rs = ttr.ruleset_for(edition)
    done, n = _resolve_deal(rs, players, 3)
    state = done.position.state
    params = rs.params
    assert all(sum(p.hand) == params.starting_hand for p in state.players)
    assert all(len(offer) == params.opening_tickets.deal for offer in state.offers)
    least = players * (params.starting_hand + params.opening_tickets.deal) + params.display.size
    assert n >= least
    assert state.rng == -1
    assert list(state.deck) == sorted(state.deck) and state.deck_pos == 0
    assert done.position.shuffled_tickets == len(state.ticket_deck)


def test_a_blind_draw_is_from_the_cards_left_in_the_deck() -> None:
    """DECK-1: a blind draw's outcomes are the kinds left in the deck, with their counts."""
    rs = ttr.ruleset_for("usa")
    position = _after_deal()
    state = position.state
    sim = ttr.Simulator.from_state(rs, state, record=False)
    for _ in range(2):  # both seats keep opening tickets
        sim.apply(sim.legal_action(0))
    position = draws.Position(sim.snapshot(), position.shuffled_tickets)
    need = draws.play(rs, position, draws.Step(ttr.DrawBlind()), sim)
    assert isinstance(need, draws.Need) and need.pile == draws.TRAIN
    assert Counter(dict(need.counts)) == Counter(position.state.deck)
    card = need.counts[0][0]
    done = draws.play(rs, position, draws.Step(ttr.DrawBlind(), train=(card,)), sim)
    assert isinstance(done, draws.Done)
    seat = position.state.current
    assert (
        done.position.state.players[seat].hand[card] == position.state.players[seat].hand[card] + 1
    )
    assert list(done.position.state.deck) == sorted(done.position.state.deck)


def test_a_draw_from_an_empty_deck_is_from_the_discard_pile() -> None:
    """DECK-2: with the deck empty, the draw is from the reshuffled discard pile."""
    rs = ttr.ruleset_for("usa")
    position = _after_deal()
    sim = ttr.Simulator.from_state(rs, position.state, record=False)
    for _ in range(2):
        sim.apply(sim.legal_action(0))
    state = sim.snapshot()
    discard = list(state.discard)
    for c in state.deck[state.deck_pos :]:
        discard[c] += 1
    empty = evolve(state, deck=(), deck_pos=0, discard=tuple(discard))
    position = draws.Position(empty, position.shuffled_tickets)
    need = draws.play(rs, position, draws.Step(ttr.DrawBlind()), sim)
    assert isinstance(need, draws.Need)
    assert draws.card_counts(need) == discard


def test_ticket_draws_are_from_the_shuffled_tickets_then_the_returned_ones() -> None:
    """TICKET-3: drawn tickets come from those still shuffled; once they are gone, the
    tickets returned under the deck come up in order, with no chance event."""
    rs = ttr.ruleset_for("usa")
    position = _after_deal()
    sim = ttr.Simulator.from_state(rs, position.state, record=False)
    for _ in range(2):
        sim.apply(sim.legal_action(0))
    state = sim.snapshot()
    position = draws.Position(state, position.shuffled_tickets)
    need = draws.play(rs, position, draws.Step(ttr.DrawTickets()), sim)
    assert isinstance(need, draws.Need) and need.pile == draws.TICKETS
    assert [t for t, _ in need.counts] == sorted(state.ticket_deck)
    returned = draws.Position(state, 0)
    done = draws.play(rs, returned, draws.Step(ttr.DrawTickets()), sim)
    assert isinstance(done, draws.Done)
    assert done.position.state.pending_tickets == state.ticket_deck[:3]


def test_arrange_puts_the_draws_on_top_and_refuses_what_is_not_there() -> None:
    assert draws.arrange((3, 1), (1, 2, 3, 1)) == (3, 1, 1, 2)
    with pytest.raises(ValueError, match="cannot be drawn"):
        draws.arrange((4,), (1, 2))


def test_a_whole_game_plays_out_with_every_draw_chosen() -> None:
    """Random actions and draws reach the end of a game, the piles always sorted and no
    generator in the state (a shuffle without chosen draws would raise DECK-1)."""
    rs = ttr.ruleset_for("europe")
    pick = random.Random(5)
    position = _after_deal("europe", 3, 5)
    sim = ttr.Simulator.from_state(rs, position.state, record=False)
    while not position.state.is_over:
        sim.load(position.state)
        step = draws.Step(pick.choice(sim.legal_actions()))
        while True:
            out = draws.play(rs, position, step, sim)
            if isinstance(out, draws.Done):
                break
            step = step.with_draw(
                out.pile, pick.choice([k for k, c in out.counts for _ in range(c)])
            )
        position = out.position
        assert list(position.state.deck) == sorted(position.state.deck)
        assert position.state.rng == -1  # no generator: every shuffle came from the draws
    assert ttr.score_game(rs, position.state).winners
