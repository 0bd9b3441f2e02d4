"""Hidden states sampled from a view (SETUP-6): every sample keeps the view, is a valid
position, and is drawn without bias: each unseen card and ticket is equally likely in
each hidden place its pile may fill."""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import pytest
from attrs import evolve
from hypothesis import given
from hypothesis import strategies as st

from ttr_core import Game, GameState, Phase, Ruleset, ViewError, sample_state, view_of
from ttr_core.hidden.determinize import StateSampler, known_state
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model.cards import NUM_KINDS
from ttr_core.model.errors import MAX_MESSAGE
from ttr_core.play.legal import LegalActions
from ttr_core.rules.index import index_of
from ttr_core.rules.views import CardChoiceView, PlayerView, TunnelView
from ttr_core.testing import games
from ttr_core.testing.invariants import check_state
from ttr_core.testing.play import play_game, ruleset

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")
T = TypeVar("T")
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


@pytest.mark.slow
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
    if index_of(rs).has_tunnels:
        assert phases["TUNNEL/own"] and phases["TUNNEL/other"]
    if index_of(rs).has_groups:
        assert phases["CHOOSE_CARDS/own"] and phases["CHOOSE_CARDS/other"]


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
        state = _first_position(rs, functools.partial(_in_phase, phase))
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


def _in_phase(phase: Phase, state: GameState) -> bool:
    return state.phase is phase


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


def upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x), for a > 0 and x >= 0.

    A power series below ``a + 1`` and a continued fraction (modified Lentz) above it,
    each taken until its terms no longer change the result in double precision.
    """
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-16:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    i = 1
    while True:
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        i += 1
        if abs(step - 1) < 1e-16 or i > 10_000:
            break
    return math.exp(log_front) * h


def chi_square_p(observed: Sequence[int], expected: Sequence[float]) -> float:
    """The p-value of Pearson's statistic for ``observed`` counts against ``expected``
    counts (cells expected to hold nothing must hold nothing, and are left out)."""
    stat = 0.0
    cells = 0
    for o, e in zip(observed, expected, strict=True):
        if e == 0:
            if o:
                return 0.0
            continue
        stat += (o - e) ** 2 / e
        cells += 1
    if cells < 2:
        return 1.0
    return upper_gamma((cells - 1) / 2, stat / 2)


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
    unseen = Counter(index_of(usa).train_deck)
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
    ix = index_of(rs)
    mine = {ix.ticket_index[t] for t in view.offered}
    unseen = {
        "long": [t for t in ix.long_tickets if t not in mine],
        "regular": [t for t in ix.regular_tickets if t not in mine],
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


# -- views that do not belong (ViewError) -----------------------------------------------------


def assert_view_error(rs: Ruleset, view: object, message: str) -> None:
    """Every entry point that reads a view refuses ``view`` with a ViewError whose one-line
    message (at most MAX_MESSAGE characters) holds ``message``."""
    reads: list[Callable[[], object]] = [
        lambda: sample_state(rs, view, random.Random(1)),  # type: ignore[arg-type]
        lambda: StateSampler(rs, view),  # type: ignore[arg-type]
        lambda: known_state(rs, view),  # type: ignore[arg-type]
        lambda: SeatActions.from_view(rs, view),  # type: ignore[arg-type]
    ]
    for read in reads:
        with pytest.raises(ViewError) as info:
            read()
        text = str(info.value)
        assert message in text
        assert len(text) <= MAX_MESSAGE and "\n" not in text


def changed(obj: T, /, **changes: Any) -> T:
    """``obj`` with some fields changed, to any value (of the wrong type too)."""
    out: T = evolve(cast(Any, obj), **changes)
    return out


def with_player(view: PlayerView, seat: int, /, **changes: Any) -> PlayerView:
    players = list(view.players)
    players[seat] = changed(players[seat], **changes)
    return evolve(view, players=tuple(players))


def with_tunnel(view: PlayerView, **changes: Any) -> PlayerView:
    assert view.tunnel is not None
    return evolve(view, tunnel=changed(view.tunnel, **changes))


def with_choice(view: PlayerView, **changes: Any) -> PlayerView:
    assert view.choice is not None
    return evolve(view, choice=changed(view.choice, **changes))


def usa_view() -> PlayerView:
    """Seat 0's view after 20 actions of a 2-player USA game."""
    return play_game(ruleset("usa"), 2, seed=3, actions=20).view(0)


def europe_view() -> PlayerView:
    """A view of the seat to act in a 2-player Europe game, two stations built."""
    rs = ruleset("europe")
    state = _first_position(
        rs, lambda s: s.phase is Phase.TURN and sum(o >= 0 for o in s.station_owners) >= 2
    )
    return view_of(rs, state, state.current)


def tunnel_view() -> PlayerView:
    """The view of the seat paying for a Europe tunnel, with three cards turned over."""
    rs = ruleset("europe")
    state = _first_position(
        rs, lambda s: s.tunnel is not None and len(s.tunnel.revealed) == 3 and s.deck_size > 0
    )
    return view_of(rs, state, state.current)


def choice_view() -> PlayerView:
    """The view of the seat choosing the cards of a Nordic payment with groups."""
    rs = ruleset("nordic")
    state = _first_position(rs, lambda s: s.choice is not None)
    return view_of(rs, state, state.current)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: evolve(v, edition="europe"), "$.edition: the view is of edition 'europe', not"),
        (lambda v: evolve(v, owners=v.owners[:-1]), "$.owners: USA has 100 tracks"),
        (lambda v: evolve(v, seat=7), "$.seat: must be 0 to 1"),
        (lambda v: evolve(v, hand=(*v.hand[:-1], v.hand[-1] + 1)), "$.hand: the hand holds"),
        (lambda v: evolve(v, discard=(12,) * NUM_KINDS), "$: the view shows"),
        (lambda v: evolve(v, deck_size=v.deck_size + 1), "$.deck_size: 88 train cards are unseen"),
        (lambda v: evolve(v, tickets=(99999,)), "$.tickets[0]: USA has no ticket 99999"),
        (
            lambda v: with_player(v, 1, tickets=29),
            "$.players: the ticket counts of the seats and the ticket deck fit no deal",
        ),
        (lambda v: evolve(v, display=v.display[:-1]), "$.display: USA shows 5 cards face up"),
    ],
)
def test_view_error_a_view_of_no_position_of_the_ruleset(
    change: Callable[[PlayerView], PlayerView], message: str
) -> None:
    """ViewError: the checks that came before the path in every message."""
    assert_view_error(ruleset("usa"), change(usa_view()), message)


def test_view_error_not_a_view() -> None:
    """ViewError: something that is not a PlayerView at all."""
    assert_view_error(ruleset("usa"), {"seat": 0}, "$: expected a PlayerView, got {'seat': 0}")


def test_view_error_nordic_stations() -> None:
    """ViewError: stations in an edition without them (listing the sampled state's
    actions used to fail with an IndexError)."""
    rs = ruleset("nordic")
    state = _first_position(rs, lambda s: s.phase is Phase.TURN and s.turn > 2)
    view = with_player(view_of(rs, state, state.current), state.current, stations=1)
    assert_view_error(
        rs,
        view,
        f"$.players[{state.current}].stations: Nordic Countries has no stations, the view gives 1",
    )


def test_view_error_station_owners_in_an_edition_without_stations() -> None:
    rs = ruleset("nordic")
    view = view_of(rs, _first_position(rs, lambda s: s.phase is Phase.TURN), 0)
    view = evolve(view, station_owners=(-1,) * len(rs.map.cities))
    assert_view_error(rs, view, "$.station_owners: Nordic Countries takes 0 station owners")


def test_view_error_more_stations_than_the_edition() -> None:
    view = with_player(europe_view(), 1, stations=4)
    assert_view_error(ruleset("europe"), view, "$.players[1].stations: must be 0 to 3")


def test_view_error_station_owners_disagree_with_the_stations_left() -> None:
    view = europe_view()
    owner = min(o for o in view.station_owners if o >= 0)
    owners = tuple(-1 if o >= 0 else o for o in view.station_owners)
    message = f"$.players[{owner}].stations: seat {owner} built 0 of its 3 stations"
    assert_view_error(ruleset("europe"), evolve(view, station_owners=owners), message)


def test_view_error_trains_disagree_with_the_board() -> None:
    view = usa_view()
    trains = view.players[1].trains
    message = f"$.players[1].trains: seat 1's tracks leave it {trains} of its 45 trains"
    assert_view_error(ruleset("usa"), with_player(view, 1, trains=trains - 1), message)


def test_view_error_score_disagrees_with_the_board() -> None:
    view = usa_view()
    score = view.players[0].score
    message = f"$.players[0].score: seat 0's tracks score {score}, the view gives {score + 1}"
    assert_view_error(ruleset("usa"), with_player(view, 0, score=score + 1), message)


def test_view_error_a_track_owned_twice() -> None:
    rs = ruleset("usa")
    view = usa_view()
    twins = index_of(rs).route_twin
    r = next(r for r, twin in enumerate(twins) if twin > r)
    owners = list(view.owners)
    owners[r], owners[twins[r]] = 0, 1
    message = f"$.owners[{r}]: both tracks of {rs.route_name(r)} are claimed by 2 players"
    assert_view_error(rs, evolve(view, owners=tuple(owners)), message)


def test_view_error_more_cards_of_a_kind_than_the_deck() -> None:
    view = usa_view()
    hand = (13, *view.hand[1:])
    assert_view_error(ruleset("usa"), evolve(view, hand=hand), "$.hand.red: must be 0 to 12")


def test_view_error_hand_size_above_the_train_cards() -> None:
    view = with_player(usa_view(), 1, hand_size=111)
    assert_view_error(ruleset("usa"), view, "$.players[1].hand_size: must be 0 to 110")


def test_view_error_empty_display_slot_beside_a_deck() -> None:
    view = usa_view()
    display = (-1, *view.display[1:])
    message = "$.display[0]: a slot stays empty only when the deck and the discard pile are"
    assert_view_error(ruleset("usa"), evolve(view, display=display), message)


def test_view_error_ticket_listed_twice() -> None:
    view = usa_view()
    tickets = (view.tickets[0], view.tickets[0], *view.tickets[2:])
    message = f"$.tickets[1]: ticket {view.tickets[0]} is listed twice"
    assert_view_error(ruleset("usa"), evolve(view, tickets=tickets), message)


def test_view_error_ticket_both_kept_and_offered() -> None:
    rs = ruleset("usa")
    state = _first_position(rs, lambda s: s.phase is Phase.KEEP_TICKETS)
    view = view_of(rs, state, state.current)
    view = evolve(view, offered=(view.tickets[0], *view.offered[1:]))
    assert_view_error(rs, view, "is both kept and offered")


def test_view_error_tickets_offered_outside_a_ticket_choice() -> None:
    rs = ruleset("usa")
    view = evolve(usa_view(), offered=(rs.map.tickets[-1].id,))
    assert_view_error(rs, view, "$.offered: no tickets are offered to seat 0 in phase")


def test_view_error_more_drawn_tickets_than_a_draw() -> None:
    rs = ruleset("usa")
    state = _first_position(rs, lambda s: s.phase is Phase.KEEP_TICKETS)
    view = view_of(rs, state, state.current)
    spare = next(t.id for t in rs.map.tickets if t.id not in view.tickets + view.offered)
    view = evolve(view, offered=(*view.offered, spare))
    assert_view_error(rs, view, "$.offered: USA deals 3 tickets to draw")


def test_view_error_opening_offer_not_a_deal() -> None:
    rs = ruleset("europe")
    view = Game.new(rs, players=3, seed=2).view(0)
    view = evolve(view, offered=view.offered[:-1])
    message = "$.offered: Europe deals 1 long and 3 other opening tickets, the view offers 1 and 2"
    assert_view_error(rs, view, message)


def test_view_error_turn_before_the_tracks_taken() -> None:
    view = usa_view()
    message = "tracks and stations are taken, a turn each, the view gives 0 turns"
    assert_view_error(ruleset("usa"), evolve(view, turn=0), message)


def test_view_error_final_round_started_with_many_trains() -> None:
    view = evolve(usa_view(), final_trigger=1)
    assert_view_error(ruleset("usa"), view, "$.final_trigger: seat 1 started the final round")


def test_view_error_phase_is_not_a_phase() -> None:
    view = changed(usa_view(), phase=1)
    assert_view_error(ruleset("usa"), view, "$.phase: expected a Phase, got 1")


def test_view_error_tunnel_extra_disagrees_with_the_turned_over_cards() -> None:
    """ViewError: the extra cost is the number of turned-over cards of the payment's
    colour and locomotives, nothing else."""
    view = tunnel_view()
    assert view.tunnel is not None
    wrong = 1 + view.tunnel.extra % 3
    message = f"$.tunnel.extra: the turned-over cards demand {view.tunnel.extra} extra cards"
    assert_view_error(ruleset("europe"), with_tunnel(view, extra=wrong), message)


def test_view_error_tunnel_turns_over_more_cards_than_the_edition() -> None:
    view = tunnel_view()
    assert view.tunnel is not None
    revealed = (*view.tunnel.revealed, view.tunnel.revealed[0])
    message = "$.tunnel.revealed: Europe turns over 3 cards for a tunnel, the view shows 4"
    assert_view_error(ruleset("europe"), with_tunnel(view, revealed=revealed), message)


def test_view_error_tunnel_turns_over_fewer_cards_than_the_deck_holds() -> None:
    view = tunnel_view()
    assert view.tunnel is not None
    view = with_tunnel(view, revealed=view.tunnel.revealed[:2])
    assert_view_error(ruleset("europe"), view, "$.tunnel.revealed: 2 of 3 cards were turned over")


def test_view_error_tunnel_turned_over_card_that_does_not_exist() -> None:
    view = tunnel_view()
    assert view.tunnel is not None
    view = with_tunnel(view, revealed=(9, *view.tunnel.revealed[1:]))
    assert_view_error(ruleset("europe"), view, "$.tunnel.revealed[0]: must be 0 to 8")


def test_view_error_tunnel_payment_that_pays_for_no_track() -> None:
    view = tunnel_view()
    assert view.tunnel is not None
    paid = (*view.tunnel.paid[:-1], view.tunnel.paid[-1] + 1)
    message = "$.tunnel.paid: the track has"
    assert_view_error(ruleset("europe"), with_tunnel(view, paid=paid), message)


def test_view_error_tunnel_on_a_track_that_is_no_tunnel() -> None:
    rs = ruleset("europe")
    r = next(r for r, t in enumerate(rs.map.routes) if not t.tunnel)
    view = with_tunnel(tunnel_view(), route=rs.map.routes[r].id)
    assert_view_error(rs, view, f"$.tunnel.route: {rs.route_name(r)} is not a tunnel")


def test_view_error_tunnel_outside_its_phase() -> None:
    view = evolve(tunnel_view(), phase=Phase.TURN)
    assert_view_error(ruleset("europe"), view, "$.tunnel: no tunnel claim waits in phase TURN")


def test_view_error_no_tunnel_in_the_tunnel_phase() -> None:
    view = evolve(usa_view(), phase=Phase.TUNNEL)
    assert_view_error(ruleset("usa"), view, "$.tunnel: a tunnel claim waits in phase TUNNEL")


def test_view_error_choice_with_more_groups_than_the_track_takes() -> None:
    rs = ruleset("nordic")
    view = with_choice(choice_view(), groups=10**9)
    assert_view_error(rs, view, "$.choice.groups: must be 1 to")


def test_view_error_choice_size_that_is_not_the_payments() -> None:
    view = choice_view()
    assert view.choice is not None
    view = with_choice(view, size=view.choice.size + 1)
    assert_view_error(ruleset("nordic"), view, "$.choice.size: a payment with")


def test_view_error_choice_of_cards_the_hand_does_not_hold() -> None:
    view = choice_view()
    assert view.choice is not None
    chosen = (*view.choice.chosen[:-1], view.hand[-1] + 1)
    assert_view_error(ruleset("nordic"), with_choice(view, chosen=chosen), "$.choice.chosen")


def test_view_error_choice_on_a_track_without_groups() -> None:
    rs = ruleset("nordic")
    groups = index_of(rs).route_group
    r = next(r for r in range(len(groups)) if not groups[r])
    view = with_choice(choice_view(), route=rs.map.routes[r].id)
    message = f"$.choice.route: {rs.route_name(r)} cannot be paid with groups of any cards"
    assert_view_error(rs, view, message)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: with_player(v, 0, stations=True), "$.players[0].stations: expected an integer"),
        (lambda v: evolve(v, hand=list(v.hand)), "$.hand: expected a tuple"),
        (lambda v: evolve(v, players=list(v.players)), "$.players: expected a tuple"),
        (lambda v: evolve(v, players=(v.players[0], 5)), "$.players[1]: expected a PublicPlayer"),
        (lambda v: evolve(v, owners=(1.0, *v.owners[1:])), "$.owners[0]: expected an integer"),
        (lambda v: evolve(v, turn="7"), "$.turn: expected an integer, got '7'"),
        (lambda v: evolve(v, tunnel=(1, 2)), "$.tunnel: expected a TunnelView or None"),
        (lambda v: evolve(v, edition=None), "$.edition: the view is of edition None"),
    ],
)
def test_view_error_value_of_the_wrong_type(
    change: Callable[[PlayerView], PlayerView], message: str
) -> None:
    """ViewError, not TypeError: a view built by hand with values of the wrong type."""
    assert_view_error(ruleset("usa"), change(usa_view()), message)


def test_view_error_tunnel_extra_of_the_wrong_type() -> None:
    view = with_tunnel(tunnel_view(), extra=1.5)
    assert_view_error(ruleset("europe"), view, "$.tunnel.extra: expected an integer, got 1.5")


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize(
    "change",
    [
        lambda v, x: evolve(v, deck_size=x),
        lambda v, x: evolve(v, final_trigger=x),
        lambda v, x: evolve(v, seat=x),
        lambda v, x: with_player(v, 1, score=x),
        lambda v, x: with_player(v, 1, hand_size=x),
        lambda v, x: evolve(v, hand=(x, *v.hand[1:])),
        lambda v, x: evolve(v, tickets=(x,)),
        lambda v, x: evolve(v, display=(x, *v.display[1:])),
    ],
)
def test_view_error_huge_integers(
    change: Callable[[PlayerView, int], PlayerView], sign: int
) -> None:
    """ViewError: a 5001-digit integer is refused and quoted by its size."""
    huge = sign * 10**5000
    digits = "negative int of 5001 digits" if sign < 0 else "<int of 5001 digits>"
    assert_view_error(ruleset("usa"), change(usa_view(), huge), digits)


# -- corrupted views: ViewError or a possible view ------------------------------------------


@functools.cache
def real_views() -> tuple[tuple[Ruleset, PlayerView], ...]:
    """Positions of one random game per edition and player count, seen from each seat:
    every decision but ordinary turns, which are taken one in 25."""
    out: list[tuple[Ruleset, PlayerView]] = []
    for edition in EDITIONS:
        rs = ruleset(edition)
        lo, hi = rs.params.players
        for players in range(lo, hi + 1):
            full = play_game(rs, players, seed=players)
            game = Game.new(rs, players=players, seed=players)
            for i, entry in enumerate((*full.log, None)):
                if game.state.phase is not Phase.TURN or i % 25 == 0:
                    out.extend((rs, game.view(seat)) for seat in range(players))
                if entry is not None:
                    game.apply(entry.action)
    return tuple(out)


WRONG_TYPES = st.sampled_from([True, False, 1.5, "1", None, (1,), [0]])
HUGE = st.sampled_from([10**9, 10**5000, -(10**5000)])


def int_values(real: int, *, huge: bool = True) -> st.SearchStrategy[object]:
    """Values to put in place of an integer: near it, small, huge, or not integers."""
    near = st.integers(-3, 3).map(lambda d: real + d)
    far = HUGE if huge else st.integers(-(10**6), 10**6)
    return st.one_of(near, st.integers(-1, 3), far, WRONG_TYPES)


def put(items: tuple[object, ...], i: int, value: object) -> tuple[object, ...]:
    return (*items[:i], value, *items[i + 1 :])


Corrupt = Callable[[Ruleset, PlayerView, st.DataObject], PlayerView]


def field(name: str) -> Corrupt:
    """Corrupt an integer field of the view."""
    return lambda rs, v, data: changed(v, **{name: data.draw(int_values(getattr(v, name)))})


def element(name: str) -> Corrupt:
    """Corrupt one entry of a tuple field (or the tuple: cut, lengthened, a list)."""

    def corrupt(rs: Ruleset, v: PlayerView, data: st.DataObject) -> PlayerView:
        items = getattr(v, name)
        if not items or data.draw(st.booleans()):
            whole = st.sampled_from([items[:-1], (*items, 0), list(items), None])
            return changed(v, **{name: data.draw(whole)})
        i = data.draw(st.integers(0, len(items) - 1))
        return changed(v, **{name: put(items, i, data.draw(int_values(items[i])))})

    return corrupt


def player_field(name: str) -> Corrupt:
    def corrupt(rs: Ruleset, v: PlayerView, data: st.DataObject) -> PlayerView:
        seat = data.draw(st.integers(0, len(v.players) - 1))
        value = data.draw(int_values(getattr(v.players[seat], name)))
        return with_player(v, seat, **{name: value})

    return corrupt


def ticket_list(name: str) -> Corrupt:
    """Put a known ticket, one listed already or an unknown id in a ticket list, or drop one."""

    def corrupt(rs: Ruleset, v: PlayerView, data: st.DataObject) -> PlayerView:
        items: tuple[int, ...] = getattr(v, name)
        listed = v.tickets + v.offered
        ticket = data.draw(
            st.one_of(
                st.sampled_from(index_of(rs).ticket_ids), st.sampled_from(listed or (0,)), HUGE
            )
        )
        i = data.draw(st.integers(0, len(items)))
        grown = (*items[:i], ticket, *items[i:])
        return changed(
            v, **{name: data.draw(st.sampled_from([grown, items[1:], put(grown, 0, -1)]))}
        )

    return corrupt


def tunnel_part(name: str) -> Corrupt:
    def corrupt(rs: Ruleset, v: PlayerView, data: st.DataObject) -> PlayerView:
        t = v.tunnel
        assert t is not None
        if name == "extra":  # kept below a million: an accepted huge extra cost would hang
            return with_tunnel(v, extra=data.draw(int_values(t.extra, huge=False)))
        if name == "route":
            tracks = st.sampled_from(index_of(rs).route_ids)
            return with_tunnel(v, route=data.draw(st.one_of(tracks, int_values(t.route))))
        items = getattr(t, name)
        i = data.draw(st.integers(0, len(items) - 1))
        return with_tunnel(v, **{name: put(items, i, data.draw(int_values(items[i])))})

    return corrupt


def choice_part(name: str) -> Corrupt:
    def corrupt(rs: Ruleset, v: PlayerView, data: st.DataObject) -> PlayerView:
        c = v.choice
        assert c is not None
        if name == "chosen":
            i = data.draw(st.integers(0, NUM_KINDS - 1))
            return with_choice(v, chosen=put(c.chosen, i, data.draw(int_values(c.chosen[i]))))
        if name == "route":
            tracks = st.sampled_from(index_of(rs).route_ids)
            return with_choice(v, route=data.draw(st.one_of(tracks, int_values(c.route))))
        return with_choice(v, **{name: data.draw(int_values(getattr(c, name)))})

    return corrupt


def pending(rs: Ruleset, v: PlayerView, data: st.DataObject) -> PlayerView:
    """Another phase, or a tunnel or a payment being chosen added or taken away."""
    first = rs.map.routes[0].id
    tunnel = TunnelView(route=first, paid=(0,) * NUM_KINDS, revealed=(8,), extra=1)
    choice = CardChoiceView(route=first, groups=1, size=3, chosen=(0,) * NUM_KINDS)
    changes = st.one_of(
        st.fixed_dictionaries({"phase": st.sampled_from(list(Phase))}),
        st.fixed_dictionaries({"tunnel": st.sampled_from([None, tunnel])}),
        st.fixed_dictionaries({"choice": st.sampled_from([None, choice])}),
        st.fixed_dictionaries({"phase": WRONG_TYPES}),
    )
    return evolve(v, **data.draw(changes))


def players(rs: Ruleset, v: PlayerView, data: st.DataObject) -> PlayerView:
    """A player more, a player less, or a record of another seat."""
    more = (*v.players, evolve(v.players[0], seat=len(v.players)))
    swapped = (v.players[-1], *v.players[1:-1], v.players[0])
    return evolve(v, players=data.draw(st.sampled_from([more, v.players[:-1], swapped])))


def any_view(v: PlayerView) -> bool:
    return True


CORRUPTIONS: dict[str, tuple[Callable[[PlayerView], bool], Corrupt]] = {
    **{
        name: (any_view, field(name))
        for name in ("seat", "current", "deck_size", "ticket_deck_size", "final_trigger", "turn")
    },
    **{
        name: (any_view, element(name))
        for name in ("hand", "discard", "display", "owners", "station_owners")
    },
    **{
        f"players.{name}": (any_view, player_field(name))
        for name in ("seat", "hand_size", "trains", "tickets", "score", "stations")
    },
    "players": (any_view, players),
    "tickets": (any_view, ticket_list("tickets")),
    "offered": (any_view, ticket_list("offered")),
    "pending": (any_view, pending),
    "edition": (
        any_view,
        lambda rs, v, data: evolve(v, edition=data.draw(st.sampled_from(EDITIONS))),
    ),
    **{
        f"tunnel.{name}": (lambda v: v.tunnel is not None, tunnel_part(name))
        for name in ("route", "paid", "revealed", "extra")
    },
    **{
        f"choice.{name}": (lambda v: v.choice is not None, choice_part(name))
        for name in ("route", "groups", "size", "chosen")
    },
}


class RealView(tuple[Ruleset, PlayerView]):
    """A ruleset and a real view of its game, shown short in Hypothesis' reports."""

    def __repr__(self) -> str:
        rs, view = self
        return f"<{rs.id} view of seat {view.seat}, turn {view.turn}, {view.phase.name}>"


@functools.cache
def views_for(kind: str) -> st.SearchStrategy[RealView]:
    """The real views a corruption applies to (one strategy: making it hashes them all)."""
    applies = CORRUPTIONS[kind][0]
    return st.sampled_from([RealView(entry) for entry in real_views() if applies(entry[1])])


def refused(read: Callable[[], object]) -> object:
    """What ``read`` returns, or None for a ViewError (with a one-line message)."""
    try:
        return read()
    except ViewError as exc:
        assert len(str(exc)) <= MAX_MESSAGE and "\n" not in str(exc)
        return None


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
@given(data=st.data())
def test_view_error_is_the_only_refusal_of_a_corrupted_view(kind: str, data: st.DataObject) -> None:
    """ViewError: a real view with one field corrupted (a near, small or huge integer, a
    value of the wrong type, a list cut or grown) is refused with a ViewError, or is a
    possible view: its sampled states show it, keep the conservation laws and list their
    legal actions, and so does the seat's own listing."""
    rs, real = data.draw(views_for(kind), label="real view")
    view = CORRUPTIONS[kind][1](rs, real, data)
    known = refused(lambda: known_state(rs, view))
    listed = refused(lambda: SeatActions.from_view(rs, view))
    assert (known is None) == (listed is None)
    sampled = refused(lambda: sample_state(rs, view, random.Random(0)))
    if sampled is None:
        return
    assert known is not None and isinstance(sampled, GameState)
    assert view_of(rs, sampled, view.seat) == view
    check_state(rs, sampled)
    assert bool(list(LegalActions(rs, sampled))) != sampled.is_over
    assert isinstance(listed, SeatActions)
    assert len(list(listed)) == len(listed)
    if view.seat == view.current and not sampled.is_over:
        assert listed
