"""The public questions of :mod:`ttr_core.rules.queries`, and the single rules they ask:
double routes (DOUBLE-1, DOUBLE-2), payments, tunnel matching cards, unseen cards, tickets."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from attrs import evolve

from ttr_core import Ruleset, Simulator
from ttr_core.model.actions import ClaimRoute, ClaimWithGroups
from ttr_core.model.cards import GRAY, LOCO, NUM_KINDS
from ttr_core.model.errors import SetupError
from ttr_core.model.state import GameState, Phase
from ttr_core.play.legal import legal_actions
from ttr_core.rules import double_routes, queries
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import score_game
from ttr_core.rules.tunnels import tunnel_matching_kinds
from ttr_core.rules.views import view_of
from ttr_core.testing.play import play_random
from ttr_core.testing.scenarios import cards, started
from ttr_core.testing.space import random_position

RED = 0


def ruleset(edition: str) -> Ruleset:
    return Ruleset.build(edition)


def states_of(rs: Ruleset, players: int, seed: int) -> list[GameState]:
    """Every state of one random game."""
    seen: list[GameState] = []
    last, _ = play_random(rs, players, seed, seed, visit=lambda state, _: seen.append(state))
    return [*seen, last]


def double_route(rs: Ruleset) -> tuple[int, int]:
    """The first double route of the map, as its two track indices."""
    r = next(r for r, twin in enumerate(index_of(rs).route_twin) if twin > r)
    return r, index_of(rs).route_twin[r]


# -- double routes ---------------------------------------------------------------------------


def test_double_1_and_2_the_parallel_rule(usa: Ruleset) -> None:
    """DOUBLE-1: never both tracks; DOUBLE-2: with 2-3 players a claim closes the other."""
    r, twin = double_route(usa)
    owners = [-1] * len(index_of(usa).routes)
    assert double_routes.parallel_rule(usa, owners, r, 0, 2) == ""
    owners[twin] = 0
    assert (
        double_routes.parallel_rule(usa, owners, r, 0, 4)
        == double_routes.OWN_PARALLEL
        == "DOUBLE-1"
    )
    assert double_routes.parallel_rule(usa, owners, r, 0, 2) == "DOUBLE-1"
    assert double_routes.parallel_rule(usa, owners, r, 1, 4) == ""
    assert (
        double_routes.parallel_rule(usa, owners, r, 1, 2)
        == double_routes.CLOSED_PARALLEL
        == "DOUBLE-2"
    )
    assert double_routes.parallel_rule(usa, owners, r, -1, 2) == "DOUBLE-2"
    assert double_routes.parallel_rule(usa, owners, r, -1, 4) == ""
    assert r not in queries.open_tracks_for(usa, owners, 0, 4)
    assert r in queries.open_tracks_for(usa, owners, 1, 4)
    assert r not in queries.open_tracks_for(usa, owners, 1, 2)
    assert double_routes.blocked_tracks(usa, owners, 0, 4) == (r,)
    assert double_routes.blocked_tracks(usa, owners, 0, 2) == ()
    free = {t for tracks in double_routes.free_tracks(usa, owners, 2) for t in tracks}
    assert r not in free and twin not in free
    free = {t for tracks in double_routes.free_tracks(usa, owners, 4) for t in tracks}
    assert r in free and twin not in free


@pytest.mark.parametrize(("edition", "players"), [("usa", 2), ("usa", 4), ("europe", 3)])
def test_the_tables_free_and_blocked_tracks_follow_the_parallel_rule(
    edition: str, players: int
) -> None:
    """What a game keeps current claim by claim is what the rule gives from the owners."""
    rs = ruleset(edition)
    for state in states_of(rs, players, seed=players):
        owners = state.owners
        assert state.free == double_routes.free_tracks(rs, owners, players)
        free = {r for tracks in state.free for r in tracks}
        for seat, player in enumerate(state.players):
            blocked = double_routes.blocked_tracks(rs, owners, seat, players)
            assert sorted(player.blocked) == sorted(blocked)
            expected = tuple(r for r in range(len(owners)) if r in free and r not in blocked)
            assert queries.open_tracks(rs, state, seat) == expected
            assert queries.open_tracks(rs, view_of(rs, state, seat), seat) == expected


@pytest.mark.parametrize(("edition", "players"), [("usa", 2), ("europe", 4)])
def test_double_1_and_2_loading_a_state_works_free_and_blocked_out_from_the_owners(
    edition: str, players: int
) -> None:
    """A state whose free and blocked tracks disagree with its owners is loaded by the
    double-route rules: the simulator lists, applies and snapshots the derived ones."""
    rs = ruleset(edition)
    state = states_of(rs, players, seed=7)[-40]
    wrong = evolve(
        state,
        free=tuple(() for _ in state.free),
        players=tuple(evolve(p, blocked=()) for p in state.players),
    )
    assert wrong != state
    sim = Simulator.from_state(rs, wrong)
    assert sim.snapshot() == state
    assert sim.legal_actions() == Simulator.from_state(rs, state).legal_actions()
    assert Simulator.from_state(rs, state).snapshot() is state


def test_open_tracks_refuses_a_seat_outside_the_game(usa: Ruleset) -> None:
    with pytest.raises(SetupError):
        queries.open_tracks(usa, started(usa, 2), 2)


# -- what a track costs ----------------------------------------------------------------------


def test_track_cost_of_a_gray_track_a_ferry_and_a_tunnel() -> None:
    usa, nordic, europe = ruleset("usa"), ruleset("nordic"), ruleset("europe")
    gray = next(r for r, c in enumerate(index_of(usa).route_color) if c == GRAY)
    assert queries.track_cost(usa, gray) == queries.TrackCost(
        trains=index_of(usa).route_len[gray],
        color=GRAY,
        locomotives=0,
        locomotives_allowed=True,
        group_size=0,
    )
    ferry = next(r for r, n in enumerate(index_of(nordic).route_ferry) if n)
    cost = queries.track_cost(nordic, ferry)
    assert (cost.locomotives, cost.group_size) == (index_of(nordic).route_ferry[ferry], 3)
    tunnel = next(r for r, t in enumerate(index_of(europe).route_tunnel) if t)
    assert queries.track_cost(europe, tunnel).trains == index_of(europe).route_len[tunnel]


@pytest.mark.parametrize(("edition", "players"), [("usa", 3), ("europe", 2), ("nordic", 2)])
def test_track_payments_and_group_payments_are_what_a_turn_lists(
    edition: str, players: int
) -> None:
    """CLAIM-1 to CLAIM-4, GROUP-1: per open track, the claims listed are the payments."""
    rs = ruleset(edition)
    states = [s for s in states_of(rs, players, seed=7) if s.phase is Phase.TURN]
    for state in states[::5]:
        seat = state.current
        hand = state.players[seat].hand
        legal = legal_actions(rs, state)
        trains = state.players[seat].trains
        for r in queries.open_tracks(rs, state, seat):
            route = index_of(rs).route_ids[r]
            plain = tuple(a.cards for a in legal if isinstance(a, ClaimRoute) and a.route == route)
            groups = tuple(
                a.groups for a in legal if isinstance(a, ClaimWithGroups) and a.route == route
            )
            if index_of(rs).route_len[r] > trains:
                assert not plain and not groups
                continue
            assert queries.track_payments(rs, r, hand) == plain
            assert queries.group_payments(rs, r, hand) == groups
            assert queries.can_pay(rs, r, hand) == bool(plain or groups)
            for payment in plain:
                assert queries.payment_error(rs, r, payment) is None


def test_payment_error_says_why(usa: Ruleset) -> None:
    red = next(r for r, c in enumerate(index_of(usa).route_color) if c == RED)
    length = index_of(usa).route_len[red]
    assert queries.payment_error(usa, red, cards(red=length)) is None
    assert queries.payment_error(usa, red, cards(blue=length))[0] == "CLAIM-2"
    assert queries.payment_error(usa, red, cards(red=length + 1))[0] == "CLAIM-1"
    assert not queries.can_pay(usa, red, cards(red=length - 1))
    assert queries.can_pay(usa, red, cards(red=length - 1, locomotive=1))


# -- tunnels and unseen cards ------------------------------------------------------------------


def test_tunnel_4_and_5_the_matching_kinds() -> None:
    """TUNNEL-4: the payment's colour and locomotives; TUNNEL-5: locomotives only."""
    assert tunnel_matching_kinds(cards(red=2, locomotive=1)) == (RED, LOCO)
    assert tunnel_matching_kinds(cards(locomotive=3)) == (LOCO,)


@pytest.mark.parametrize(("edition", "players"), [("usa", 4), ("europe", 3)])
def test_unseen_cards_are_the_deck_and_the_opponents_hands(edition: str, players: int) -> None:
    rs = ruleset(edition)
    for state in states_of(rs, players, seed=11)[::4]:
        for seat in range(players):
            where = Counter(state.deck[state.deck_pos :])
            for other, player in enumerate(state.players):
                if other != seat:
                    where.update({k: n for k, n in enumerate(player.hand) if n})
            unseen = queries.unseen_cards(rs, view_of(rs, state, seat))
            assert unseen == tuple(where[k] for k in range(NUM_KINDS))


# -- networks and tickets ----------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "players"), [("usa", 3), ("europe", 4)])
def test_completed_tickets_are_final_scorings(edition: str, players: int) -> None:
    """TICKET-6, TICKET-7, STATION-12: at the end, as the score sheet counts them; from a
    view the same for the viewer."""
    rs = ruleset(edition)
    states = states_of(rs, players, seed=5)
    final = states[-1]
    sheet = score_game(rs, final)
    for seat in range(players):
        done = tuple(t.ticket for t in sheet.players[seat].tickets if t.completed)
        assert queries.completed_tickets(rs, final, seat) == done
        assert queries.ticket_results(rs, final, seat) == sheet.players[seat].tickets
        network = queries.player_network(rs, final, seat)
        owned = {index_of(rs).routes[r] for r, o in enumerate(final.owners) if o == seat}
        assert set(network.own_routes) == owned
    middle = states[len(states) // 2]
    for seat in range(players):
        view = view_of(rs, middle, seat)
        assert queries.ticket_results(rs, view, seat) == queries.ticket_results(rs, middle, seat)


def test_a_view_answers_for_its_own_tickets_only(usa: Ruleset) -> None:
    state = started(usa, 2)
    with pytest.raises(SetupError, match="tickets of seat 0 only"):
        queries.completed_tickets(usa, view_of(usa, state, 0), 1)


def test_a_ticket_completes_with_its_last_track(usa: Ruleset) -> None:
    """TICKET-6: a two-city ticket is completed once one chain of own tracks joins them."""
    state = started(usa, 2)
    ticket = state.players[0].tickets[0]
    t = index_of(usa).tickets[ticket]
    network = queries.player_network(usa, state, 0)
    assert not network.connected(t.a, t.b or "")
    assert index_of(usa).ticket_ids[ticket] not in queries.completed_tickets(usa, state, 0)
    path = shortest_path(usa, usa.place_cities(t.a)[0], usa.place_cities(t.b or "")[0])
    owners = list(state.owners)
    for r in path:
        owners[r] = 0
    state = evolve(state, owners=tuple(owners))
    assert index_of(usa).ticket_ids[ticket] in queries.completed_tickets(usa, state, 0)
    assert queries.player_network(usa, state, 0).connected(t.a, t.b or "")


def shortest_path(rs: Ruleset, a: int, b: int) -> list[int]:
    """Some chain of tracks from city ``a`` to city ``b`` (fewest tracks)."""
    via: dict[int, int] = {a: -1}
    queue = [a]
    for c in queue:
        for r in index_of(rs).city_routes[c]:
            other = (
                index_of(rs).route_b[r] if index_of(rs).route_a[r] == c else index_of(rs).route_a[r]
            )
            if other not in via:
                via[other] = r
                queue.append(other)
    path = []
    c = b
    while via[c] >= 0:
        r = via[c]
        path.append(r)
        c = index_of(rs).route_a[r] if index_of(rs).route_b[r] == c else index_of(rs).route_b[r]
    return path


def test_random_positions_respect_the_parallel_rule(usa: Ruleset) -> None:
    """The testing kit's random end positions never break DOUBLE-1 or DOUBLE-2."""
    chooser = random.Random(3)
    for players in (2, 4):
        for _ in range(20):
            position = random_position(usa, players, chooser.randrange)
            owners = [-1] * len(index_of(usa).routes)
            for seat, pp in enumerate(position.players):
                for r in pp.routes:
                    owners[r] = seat
            for r, twin in enumerate(index_of(usa).route_twin):
                if twin >= 0 and owners[r] >= 0 and owners[twin] >= 0:
                    assert owners[r] != owners[twin] and players >= index_of(usa).double_open_min


@pytest.mark.parametrize("edition", ["usa", "europe", "switzerland"])
def test_double_1_and_2_free_and_blocked_tracks_are_what_the_parallel_rule_says(
    edition: str,
) -> None:
    """For any owners (legal or not), a track is free exactly when it is unclaimed and the
    parallel rule closes it for nobody, and blocked for a seat exactly when the rule says
    that seat owns its parallel."""
    rs = ruleset(edition)
    tracks = len(index_of(rs).routes)
    chooser = random.Random(11)
    for players in (2, 3, 4):
        for _ in range(30):
            owners = [chooser.choice([-1, -1, *range(players)]) for _ in range(tracks)]
            free = {r for routes in double_routes.free_tracks(rs, owners, players) for r in routes}
            assert free == {
                r
                for r in range(tracks)
                if owners[r] < 0 and not double_routes.parallel_rule(rs, owners, r, -1, players)
            }
            for seat, blocked in enumerate(double_routes.blocked_by_seat(rs, owners, players)):
                assert sorted(blocked) == [
                    r
                    for r in sorted(free)
                    if double_routes.parallel_rule(rs, owners, r, seat, players)
                    == double_routes.OWN_PARALLEL
                ]
