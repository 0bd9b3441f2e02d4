"""Hidden states sampled from a view (SETUP-6): every sample keeps the view, is a valid
position, and is drawn without bias: each unseen card and ticket is equally likely in
each hidden place its pile may fill."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from attrs import evolve
from chi_square import chi_square_p
from hypothesis import given
from hypothesis import strategies as st

from ttr_core import Game, GameState, Phase, Ruleset, ViewError, sample_state, view_of
from ttr_core.cards import NUM_KINDS
from ttr_core.determinize import StateSampler, known_state
from ttr_core.legal import LegalActions
from ttr_core.seat_actions import SeatActions
from ttr_core.testing import games
from ttr_core.testing.invariants import check_state
from ttr_core.testing.play import play_game, ruleset
from ttr_core.views import PlayerView

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")
ALPHA = 1e-6
"""The chance a correct sampler fails a chi-square check here, split over the checks."""


def assert_keeps_view(rs: Ruleset, view: PlayerView, rng: random.Random) -> GameState:
    sampled = sample_state(rs, view, rng)
    assert view_of(rs, sampled, view.seat) == view
    check_state(rs, sampled)
    return sampled


@pytest.mark.parametrize("edition", EDITIONS)
@given(data=st.data())
def test_setup_6_a_sampled_state_keeps_the_view(edition: str, data: st.DataObject) -> None:
    """SETUP-6: a state sampled from a seat's view shows that seat the same view."""
    game = data.draw(games(edition))
    seat = data.draw(st.integers(min_value=0, max_value=len(game.names) - 1))
    rs = game.ruleset
    view = game.view(seat)
    sampled = assert_keeps_view(rs, view, random.Random(data.draw(st.integers(0, 2**32))))
    if not game.is_over:
        assert sampled.rng >= 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_setup_6_every_position_of_whole_games_keeps_every_view(edition: str) -> None:
    """SETUP-6, every phase: each position of random games, seen from each seat."""
    rs = ruleset(edition)
    lo, hi = rs.params.players
    phases: Counter[str] = Counter()
    chooser = random.Random(edition)
    for players in range(lo, hi + 1):
        full = play_game(rs, players, seed=players)
        game = Game.new(rs, players=players, seed=players)
        for i, entry in enumerate((*full.log, None)):
            if i % 3 == 0 or game.state.phase not in (Phase.TURN, Phase.SECOND_CARD):
                state = game.state
                for seat in range(players):
                    view = view_of(rs, state, seat)
                    sampled = assert_keeps_view(rs, view, chooser)
                    phases[f"{state.phase.name}/{'own' if seat == state.current else 'other'}"] += 1
                    if seat == state.current and not state.is_over:
                        real = list(LegalActions(rs, state))
                        assert list(LegalActions(rs, sampled)) == real
                        assert list(SeatActions.from_view(rs, view)) == real
            if entry is not None:
                game.apply(entry.action)
    assert phases["OPENING_TICKETS/other"] and phases["KEEP_TICKETS/other"]
    assert phases["GAME_OVER/other"] and phases["SECOND_CARD/other"]


def test_setup_6_hidden_parts_are_drawn_afresh(usa: Ruleset) -> None:
    """The hands, tickets, deck order and generator differ between draws; a seed repeats."""
    game = play_game(usa, 3, seed=4, actions=30)
    view = game.view(0)
    first = sample_state(usa, view, random.Random(1))
    assert sample_state(usa, view, random.Random(1)) == first
    others = {sample_state(usa, view, random.Random(k)) for k in range(2, 12)}
    assert len({s.deck for s in others}) == 10
    assert len({s.rng for s in others}) == 10
    assert len({s.players[1].hand for s in others}) > 1
    assert all(s.rng != game.state.rng for s in others)


def test_tunnel_and_payment_cards_stay_with_their_owner() -> None:
    """TUNNEL-3, GROUP-3: cards laid down for a tunnel or chosen for a payment are public
    and stay in the deciding player's hand in every sample."""
    seen = set()
    for edition, phase in (("europe", Phase.TUNNEL), ("nordic", Phase.CHOOSE_CARDS)):
        rs = ruleset(edition)
        state = _first_position(rs, lambda s, phase=phase: s.phase is phase)
        seat = (state.current + 1) % len(state.players)
        view = view_of(rs, state, seat)
        if view.tunnel is not None:
            laid = view.tunnel.paid
        else:
            assert view.choice is not None
            laid = view.choice.chosen
        sampler = StateSampler(rs, view)
        chooser = random.Random(7)
        for _ in range(30):
            sampled = sampler.sample(chooser)
            hand = sampled.players[state.current].hand
            assert all(hand[k] >= laid[k] for k in range(NUM_KINDS))
            assert LegalActions(rs, sampled)
        seen.add(phase)
    assert seen == {Phase.TUNNEL, Phase.CHOOSE_CARDS}


def test_group_3_an_opponent_choosing_cards_can_always_complete_the_payment() -> None:
    """GROUP-3: where few hands of the opponent choosing a payment's cards complete it,
    the sampler counts those hands out rather than drawing in vain, and every sample
    leaves the opponent a card to choose."""
    rs = ruleset("nordic")
    full = play_game(rs, 3, seed=1)
    game = Game.new(rs, players=3, seed=1)
    counted_out = 0
    chooser = random.Random(3)
    for entry in full.log:
        state = game.state
        for seat in range(3) if state.phase is Phase.CHOOSE_CARDS else ():
            if seat == state.current:
                continue
            view = view_of(rs, state, seat)
            sampler = StateSampler(rs, view)
            for _ in range(2):
                sampled = sampler.sample(chooser)
                assert view_of(rs, sampled, seat) == view
                assert LegalActions(rs, sampled)
            counted_out += sampler._completing is not None
        game.apply(entry.action)
    assert counted_out


def _first_position(rs: Ruleset, wanted: Callable[[GameState], bool]) -> GameState:
    """The first position of seeded random 2-player games that ``wanted`` accepts."""
    for seed in range(200):
        full = play_game(rs, 2, seed=seed)
        game = Game.new(rs, players=2, seed=seed)
        for entry in full.log:
            if wanted(game.state):
                return game.state
            game.apply(entry.action)
    raise AssertionError("no such position in 200 games")


def test_known_state_lists_the_seats_own_actions(usa: Ruleset) -> None:
    """The state known from a view lists the viewer's legal actions, and hides the rest."""
    game = play_game(usa, 4, seed=9, actions=40)
    seat = game.state.current
    known = known_state(usa, game.view(seat))
    assert list(LegalActions(usa, known)) == list(game.legal_actions())
    assert all(sum(p.hand) == 0 for i, p in enumerate(known.players) if i != seat)
    assert set(known.deck) == {-1} and known.rng == -1


# -- no bias -------------------------------------------------------------------------------


def _check_places(tallies: dict[str, Counter[int]], expected: dict[str, dict[int, float]]) -> None:
    """Chi-square check of each hidden place's tally against its expected counts."""
    alpha = ALPHA / len(tallies)
    for place, tally in tallies.items():
        cells = sorted(set(tally) | set(expected[place]))
        p = chi_square_p([tally[c] for c in cells], [expected[place].get(c, 0.0) for c in cells])
        assert p > alpha, f"{place}: p = {p:.3g}"


def test_chi_square_check_catches_a_bias() -> None:
    """The check itself fails a sampler that favours one card by a quarter."""
    fair = {"slot": {k: 1000.0 for k in range(5)}}
    biased = Counter({0: 1250, 1: 937, 2: 937, 3: 938, 4: 938})
    with pytest.raises(AssertionError, match="slot"):
        _check_places({"slot": biased}, fair)


def test_each_unseen_train_card_is_equally_likely_in_each_hidden_place(usa: Ruleset) -> None:
    """Opponents' hands and every deck position hold each unseen card in proportion to
    how many of it are unseen."""
    game = play_game(usa, 3, seed=12, actions=45)
    view = game.view(1)
    sampler = StateSampler(usa, view)
    chooser = random.Random(2026)
    n = 2000
    tallies: dict[str, Counter[int]] = {}
    for _ in range(n):
        sampled = sampler.sample(chooser)
        for seat in (0, 2):
            hand = tallies.setdefault(f"seat {seat}'s hand", Counter())
            for k in range(NUM_KINDS):
                hand[k] += sampled.players[seat].hand[k]
        for i, card in enumerate(sampled.deck[sampled.deck_pos :]):
            tallies.setdefault(f"deck position {i}", Counter())[card] += 1
    unseen = Counter(usa.train_deck)
    for counts in (view.hand, view.discard):
        for k in range(NUM_KINDS):
            unseen[k] -= counts[k]
    for c in view.display:
        unseen[c] -= 1
    total = sum(unseen.values())
    expected: dict[str, dict[int, float]] = {}
    for place in tallies:
        size = view.players[int(place[5])].hand_size if place.startswith("seat") else 1
        expected[place] = {k: n * size * unseen[k] / total for k in range(NUM_KINDS)}
    assert len(tallies) == 2 + view.deck_size
    _check_places(tallies, expected)


def test_each_unseen_ticket_is_equally_likely_in_each_place_of_its_pile() -> None:
    """Europe's long tickets and its regular tickets are drawn each from their own
    unseen pile: into the opening offers, the kept tickets and the ticket deck."""
    rs = ruleset("europe")
    game = Game.new(rs, players=3, seed=5)
    first = game.current_player
    game.apply(game.legal_actions()[0])  # the start player keeps all four
    seat = (first + 1) % 3
    view = game.view(seat)
    sampler = StateSampler(rs, view)
    chooser = random.Random(14)
    mine = {rs.ticket_index[t] for t in view.offered}
    unseen = {
        "long": [t for t in rs.long_tickets if t not in mine],
        "regular": [t for t in rs.regular_tickets if t not in mine],
    }
    kind = {t: pile for pile, tickets in unseen.items() for t in tickets}
    n = 2000
    tallies: dict[str, Counter[int]] = {}
    sizes: Counter[str] = Counter()
    for _ in range(n):
        sampled = sampler.sample(chooser)
        places: list[tuple[str, tuple[int, ...]]] = [
            (f"seat {first}'s tickets", sampled.players[first].tickets)
        ]
        places.append((f"seat {(seat + 1) % 3}'s offer", sampled.offers[(seat + 1) % 3]))
        places.extend((f"deck position {i}", (t,)) for i, t in enumerate(sampled.ticket_deck))
        for place, tickets in places:
            for t in tickets:
                key = f"{place}, {kind[t]}"
                tallies.setdefault(key, Counter())[t] += 1
                sizes[key] += 1
    expected = {
        key: {
            t: sizes[key] / len(unseen[key.rsplit(", ", 1)[1]])
            for t in unseen[key.rsplit(", ", 1)[1]]
        }
        for key in tallies
    }
    assert not any("deck position" in key and key.endswith("long") for key in tallies)
    assert sizes[f"seat {(seat + 1) % 3}'s offer, long"] == n
    assert sizes[f"seat {first}'s tickets, long"] == n
    _check_places(tallies, expected)


# -- views that do not belong ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: evolve(v, edition="europe"), "edition 'europe', not 'usa'"),
        (lambda v: evolve(v, owners=v.owners[:-1]), "owners must be"),
        (lambda v: evolve(v, seat=7), "seat 7 is not a seat"),
        (lambda v: evolve(v, hand=(*v.hand[:-1], v.hand[-1] + 1)), "hand holds"),
        (lambda v: evolve(v, discard=(30,) * NUM_KINDS), "more cards of a kind"),
        (lambda v: evolve(v, deck_size=v.deck_size + 1), "train cards are unseen"),
        (lambda v: evolve(v, tickets=(99999,)), "no ticket 99999"),
        (
            lambda v: evolve(v, players=(v.players[0], evolve(v.players[1], tickets=40))),
            "ticket counts fit no deal",
        ),
        (lambda v: evolve(v, display=v.display[:-1]), "display must be 5 slots"),
    ],
)
def test_a_view_of_no_position_of_the_ruleset_is_refused(
    usa: Ruleset, change: Callable[[PlayerView], PlayerView], message: str
) -> None:
    game = play_game(usa, 2, seed=3, actions=20)
    view = game.view(0)
    with pytest.raises(ViewError, match=message):
        sample_state(usa, change(view), random.Random(1))
    with pytest.raises(ViewError, match=message):
        SeatActions.from_view(usa, change(view))
