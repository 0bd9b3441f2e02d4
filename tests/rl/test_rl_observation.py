"""Observation vectors of ``ttr_core.rl``: the view's layout, and nothing hidden (SETUP-6).

Two positions that show a seat the same view give that seat the same observation and
the same action mask, whatever the hidden cards: random positions of every installed
edition are dealt again by permuting everything the seat cannot see.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from attrs import evolve

import ttr_core as ttr
from ttr_core import GameState, Ruleset, SetupError, Simulator, view_of
from ttr_core.model.cards import NUM_KINDS
from ttr_core.model.state import Phase
from ttr_core.play.legal import legal_actions
from ttr_core.rl import ActionEncoding, ObservationEncoding
from ttr_core.rules.index import index_of
from ttr_core.testing.play import ruleset
from ttr_core.testing.scenarios import cards, started, with_player

EDITIONS = sorted(ttr.installed_editions())


def decisions(rs: Ruleset, players: int, seed: int) -> Iterator[GameState]:
    sim = Simulator.new(rs, players, seed=seed, record=False)
    chooser = random.Random(seed)
    while not sim.is_over:
        yield sim.snapshot()
        sim.apply_index(chooser.randrange(sim.legal_count()))
    yield sim.snapshot()


def counts(cards_: list[int]) -> tuple[int, ...]:
    out = [0] * NUM_KINDS
    for c in cards_:
        out[c] += 1
    return tuple(out)


def redealt(rs: Ruleset, state: GameState, seat: int, chooser: random.Random) -> GameState:
    """``state`` with everything ``seat`` cannot see permuted: the cards in the other
    hands and in the deck among those places, and the tickets the others hold, were
    offered or were drawn, and the ticket deck, among those places (long tickets among
    themselves); the generator is drawn afresh."""
    others = [i for i in range(len(state.players)) if i != seat]
    pool = [c for i in others for c in range(NUM_KINDS) for _ in range(state.players[i].hand[c])]
    pool += state.deck[state.deck_pos :]
    chooser.shuffle(pool)
    players = list(state.players)
    for i in others:
        size = sum(players[i].hand)
        players[i] = evolve(players[i], hand=counts(pool[:size]))
        pool = pool[size:]
    deck = state.deck[: state.deck_pos] + tuple(pool)
    # Hidden tickets: (place, position) slots, refilled from a shuffled pile per kind.
    hidden_pending = state.phase is Phase.KEEP_TICKETS and state.current != seat
    slots: dict[str, list[int]] = {
        "kept": [t for i in others for t in players[i].tickets],
        "offers": [t for i in others if state.offers for t in state.offers[i]],
        "pending": list(state.pending_tickets) if hidden_pending else [],
        "deck": list(state.ticket_deck),
    }
    piles: dict[bool, list[int]] = {True: [], False: []}
    for found in slots.values():
        for t in found:
            piles[index_of(rs).tickets[t].kind == "long"].append(t)
    for pile in piles.values():
        chooser.shuffle(pile)

    def refill(found: list[int]) -> tuple[int, ...]:
        return tuple(piles[index_of(rs).tickets[t].kind == "long"].pop() for t in found)

    for i in others:
        players[i] = evolve(players[i], tickets=refill(list(players[i].tickets)))
    offers = tuple(
        offer if i == seat else refill(list(offer)) for i, offer in enumerate(state.offers)
    )
    pending = refill(list(state.pending_tickets)) if hidden_pending else state.pending_tickets
    return evolve(
        state,
        players=tuple(players),
        deck=deck,
        offers=offers,
        pending_tickets=pending,
        ticket_deck=refill(list(state.ticket_deck)),
        rng=chooser.getrandbits(63),
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_setup_6_same_view_same_observation_whatever_the_hidden_cards(edition: str) -> None:
    """SETUP-6: hidden cards and tickets dealt differently give each seat the same view,
    the same observation and (for the seat to act) the same action mask."""
    rs = ruleset(edition)
    enc = ActionEncoding(rs)
    chooser = random.Random(edition)
    changed = 0
    for players in range(rs.params.players[0], rs.params.players[1] + 1):
        obs = ObservationEncoding(rs, players)
        states = list(decisions(rs, players, seed=players))
        for state in states[:: max(1, len(states) // 15)]:
            for seat in range(players):
                other = redealt(rs, state, seat, chooser)
                changed += other != state
                view = view_of(rs, state, seat)
                assert view_of(rs, other, seat) == view
                assert np.array_equal(obs.encode(view_of(rs, other, seat)), obs.encode(view))
                if seat == state.current and not state.is_over:
                    assert np.array_equal(
                        enc.mask(view, legal_actions(rs, other)),
                        enc.mask(view, legal_actions(rs, state)),
                    )
    assert changed > 0


def test_observation_changes_with_what_the_seat_sees() -> None:
    """The seat's own hand, an opponent's card count and a claimed track all show."""
    rs = ruleset("usa")
    obs = ObservationEncoding(rs, 3)
    state = started(rs, 3, seed=1)
    base = obs.encode(view_of(rs, state, 0))
    mine = with_player(state, 0, hand=cards("RRRR"))
    assert not np.array_equal(obs.encode(view_of(rs, mine, 0)), base)
    theirs = with_player(state, 1, hand=cards("RRRRRRR"))
    assert not np.array_equal(obs.encode(view_of(rs, theirs, 0)), base)
    owners = list(state.owners)
    owners[5] = 2
    claimed = evolve(state, owners=tuple(owners))
    assert not np.array_equal(obs.encode(view_of(rs, claimed, 0)), base)


@pytest.mark.parametrize("edition", EDITIONS)
def test_observation_layout_reads_back_the_view(edition: str) -> None:
    """Each documented section holds what the view says, seats relative to the viewer,
    and every observation lies in the observation space."""
    rs = ruleset(edition)
    players = rs.params.players[1]
    obs = ObservationEncoding(rs, players)
    assert obs.space.shape == (obs.size,)
    assert obs.sections[-1].stop == obs.size
    names = [s.name for s in obs.sections]
    assert names[:8] == [
        "phase",
        "to_act",
        "hand",
        "display",
        "discard",
        "piles",
        "players",
        "final_round",
    ]
    states = list(decisions(rs, players, seed=7))
    for state in [*states[:: max(1, len(states) // 30)], states[-1]]:
        seat = state.turn % players
        view = view_of(rs, state, seat)
        vec = obs.encode(view)
        assert obs.space.contains(vec)
        part = {s.name: vec[s.start : s.stop] for s in obs.sections}.__getitem__
        assert list(np.flatnonzero(part("phase"))) == [int(view.phase)]
        if not state.is_over:
            assert list(np.flatnonzero(part("to_act"))) == [(view.current - seat) % players]
        assert tuple(part("hand")) == view.hand
        assert sum(part("display")) == sum(1 for c in view.display if c >= 0)
        assert tuple(part("discard")) == view.discard
        assert tuple(part("piles")) == (view.deck_size, view.ticket_deck_size)
        per = 5 if rs.params.stations else 4
        table = part("players").reshape(players, per)
        for p in view.players:
            row = table[(p.seat - seat) % players]
            assert tuple(row[:4]) == (p.hand_size, p.trains, p.tickets, p.score)
        owners = part("owners").reshape(len(index_of(rs).routes), players)
        for r, owner in enumerate(view.owners):
            expected = [] if owner < 0 else [(owner - seat) % players]
            assert list(np.flatnonzero(owners[r])) == expected
        kept = {index_of(rs).ticket_ids[i] for i in np.flatnonzero(part("tickets"))}
        assert kept == set(view.tickets)
        offered = part("offered").reshape(-1, len(index_of(rs).tickets))
        assert [index_of(rs).ticket_ids[i] for row in offered for i in np.flatnonzero(row)] == list(
            view.offered
        )


def test_observation_encoding_refuses_other_games_with_setup_error() -> None:
    """A player count out of range or not an ``int`` (a huge one is quoted by its size)
    and a view of another game are refused with ``SetupError``."""
    rs = ruleset("usa")
    with pytest.raises(SetupError, match="played by 2 to 5 players, not 6"):
        ObservationEncoding(rs, 6)
    for wrong, shown in [
        (True, "True"),
        (3.0, "3.0"),
        ("3", "'3'"),
        (np.int64(3), "np.int64(3)"),
        (10**5000, "<int of 5001 digits>"),
    ]:
        with pytest.raises(SetupError, match=re.escape(f"not {shown}")):
            ObservationEncoding(rs, wrong)  # type: ignore[arg-type]
    obs = ObservationEncoding(rs, 3)
    with pytest.raises(
        SetupError, match="3-player usa games, not a 2-player view of edition 'usa'"
    ):
        obs.encode(view_of(rs, started(rs, 2), 0))
    with pytest.raises(KeyError):
        obs.section("no_such_section")


def test_agents_page_gives_the_true_observation_lengths() -> None:
    """The explanation page's table of vector lengths matches the built-in editions."""
    page = (Path(__file__).parents[2] / "docs" / "explanation" / "agents.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d*) ?\| (\d*) ?\| (\d*) ?\|$", page, re.M)
    builtin = {e for e, ed in ttr.installed_editions().items() if ed.builtin}
    assert {row[0] for row in rows} == builtin
    for edition, *lengths in rows:
        rs = ruleset(edition)
        lo, hi = rs.params.players
        expected = [
            str(ObservationEncoding(rs, n).size) if lo <= n <= hi else "" for n in range(2, 6)
        ]
        assert lengths == expected, edition
