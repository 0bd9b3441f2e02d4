"""The four play-style bots: found by name, deterministic, legal on every edition, and each
showing its style over a fixed set of seeds."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import mean
from typing import Any

import pytest
from attrs import evolve, frozen

from ttr_core import Ruleset
from ttr_core.batch.runs import play_game, simulate
from ttr_core.bots import (
    PLAY_STYLES,
    LongRoutesBot,
    LookaheadBot,
    PlannerBot,
    TicketsBot,
    find_bot,
    installed_bots,
    make_bot,
)
from ttr_core.cli import main
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model.actions import ClaimRoute, KeepTickets
from ttr_core.model.cards import NUM_KINDS, card_index
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import new_game
from ttr_core.play.game import Game
from ttr_core.play.legal import LegalActions
from ttr_core.rules.graph import UnionFind
from ttr_core.rules.index import index_of
from ttr_core.rules.queries import ticket_results
from ttr_core.rules.views import view_of

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")
CLASSES = {
    "tickets": TicketsBot,
    "long-routes": LongRoutesBot,
    "planner": PlannerBot,
    "lookahead": LookaheadBot,
}


@pytest.fixture(scope="module")
def usa() -> Ruleset:
    return Ruleset.build("usa")


@frozen
class SeatEnd:
    """How one seat ended a game: its bot, its points, its tickets and its tracks."""

    bot: str
    total: int
    won: bool
    completed: int
    failed: int
    lengths: tuple[int, ...]
    """The lengths of the tracks it claimed."""
    wasted: int
    """Trains on its tracks in network parts that hold none of its tickets' cities."""


def seat_ends(rs: Ruleset, bots: Sequence[str], seeds: Sequence[int]) -> list[SeatEnd]:
    """Every seat's end of the games played from ``seeds`` with ``bots`` in seat order."""
    out = []
    for seed in seeds:
        result = play_game(rs, bots, seed, record=True)
        assert result.record is not None
        state = Game.replay(result.record).state
        for seat, bot in enumerate(bots):
            tickets = ticket_results(rs, state, seat)
            out.append(
                SeatEnd(
                    bot=bot,
                    total=result.players[seat].total,
                    won=f"Player {seat + 1}" in result.winners,
                    completed=sum(t.completed for t in tickets),
                    failed=sum(not t.completed for t in tickets),
                    lengths=tuple(
                        rs.map.routes[r].length for r, o in enumerate(state.owners) if o == seat
                    ),
                    wasted=wasted_trains(rs, state, seat),
                )
            )
    return out


def wasted_trains(rs: Ruleset, state: GameState, seat: int) -> int:
    """Trains of ``seat``'s tracks in parts of its network that complete none of its
    tickets (both ends of a ticket, or its origin and a target, in the part)."""
    ends = [tuple(rs.place_cities(name)[0] for name in t.cities) for t in rs.map.routes]
    own = [r for r, o in enumerate(state.owners) if o == seat]
    network = UnionFind(len(rs.map.cities))
    for r in own:
        network.union(*ends[r])
    useful: set[int] = set()
    for t in state.players[seat].tickets:
        ticket = rs.map.tickets[t]
        targets = [ticket.b] if ticket.b is not None else list(ticket.targets or ())
        parts = {network.find(c) for c in rs.place_cities(ticket.a)}
        for name in targets:
            useful |= parts & {network.find(c) for c in rs.place_cities(name)}
    return sum(rs.map.routes[r].length for r in own if network.find(ends[r][0]) not in useful)


def of(ends: Sequence[SeatEnd], bot: str) -> list[SeatEnd]:
    return [e for e in ends if e.bot == bot]


# -- found by name, everywhere a bot spec is ------------------------------------------------


@pytest.mark.parametrize("name", PLAY_STYLES)
def test_each_style_is_an_installed_bot(usa: Ruleset, name: str) -> None:
    """The four styles are in the ``ttr.bots`` entry points under their short names."""
    assert installed_bots()[name] == f"{CLASSES[name].__module__}:{CLASSES[name].__name__}"
    assert find_bot(name) is CLASSES[name]
    assert isinstance(make_bot(name, usa, 1, 5), CLASSES[name])


def test_simulate_plays_the_styles_by_name(capsys: Any) -> None:
    """``ttr simulate --bots tickets,planner`` plays them as any other bot."""
    code = main(["simulate", "--games", "1", "--players", "2", "--bots", "tickets,planner"])
    assert code == 0
    out = capsys.readouterr().out
    assert "tickets" in out and "planner" in out


# -- deterministic, legal, ending -----------------------------------------------------------


@pytest.mark.parametrize("name", PLAY_STYLES)
def test_the_same_seed_plays_the_same_game(usa: Ruleset, name: str) -> None:
    """A seed gives the same game, every decision of it (the records are equal)."""
    first = play_game(usa, [name, "random"], 21, record=True)
    again = play_game(usa, [name, "random"], 21, record=True)
    assert first == again
    assert first.record is not None and first.record == again.record


@pytest.mark.parametrize("players", [2, 3])
def test_styles_play_legal_games_on_a_map_with_every_feature(
    borderland: Ruleset, players: int
) -> None:
    """Tunnels, a ferry, stations, border arrows and country tickets (END-1: games end)."""
    results = list(simulate(borderland, players=players, games=4, seed=players, bots=PLAY_STYLES))
    assert len(results) == 4
    assert all(r.turns > 0 for r in results)


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_styles_play_full_games_on_every_edition(edition: str) -> None:
    """Every style finishes legal games on every edition (tunnels, stations, ferries and
    Nordic card choices included): all four at one table, and in pairs."""
    rs = Ruleset.build(edition)
    low, high = rs.params.players
    most = min(high, len(PLAY_STYLES))
    assert play_game(rs, list(PLAY_STYLES[:most]), 1).turns > 0
    two = max(low, 2)
    for first in range(0, len(PLAY_STYLES), two):
        bots = [PLAY_STYLES[(first + s) % len(PLAY_STYLES)] for s in range(two)]
        assert play_game(rs, bots, 2).turns > 0


@pytest.mark.parametrize("name", PLAY_STYLES)
def test_opening_choice_is_a_legal_keep(usa: Ruleset, name: str) -> None:
    """The first decision keeps legal opening tickets (at least the minimum)."""
    state = Game.new(usa, ["A", "B"], seed=4).state
    seat = state.current
    bot = make_bot(name, usa, seat, 1)
    action = bot.choose(view_of(usa, state, seat), SeatActions(usa, state, seat))
    assert isinstance(action, KeepTickets)
    assert action in LegalActions(usa, state)


# -- each style shows -----------------------------------------------------------------------

SEEDS = tuple(range(300, 308))


@pytest.mark.slow
def test_the_ticket_chaser_completes_more_tickets_than_greedy(usa: Ruleset) -> None:
    """Two seats, the ticket chaser against greedy: it completes more tickets in all."""
    ends = seat_ends(usa, ["tickets", "greedy"], tuple(range(300, 312)))
    chased = sum(e.completed for e in of(ends, "tickets"))
    greedy = sum(e.completed for e in of(ends, "greedy"))
    assert chased > greedy * 1.1


@pytest.mark.slow
def test_the_long_route_bot_claims_longer_tracks_than_greedy_and_random(usa: Ruleset) -> None:
    """Three seats: the long-route bot's tracks are longer on average than greedy's and
    random's."""
    ends = seat_ends(usa, ["long-routes", "greedy", "random"], SEEDS[:4])
    length = {
        bot: mean(n for e in of(ends, bot) for n in e.lengths)
        for bot in ("long-routes", "greedy", "random")
    }
    assert length["long-routes"] > length["greedy"] + 1
    assert length["long-routes"] > length["random"] + 1


@pytest.mark.slow
def test_the_planner_completes_its_tickets_and_wastes_few_trains(usa: Ruleset) -> None:
    """Against random: the planner completes a larger share of its tickets and leaves
    fewer trains in network parts that join none of its tickets' cities."""
    ends = seat_ends(usa, ["planner", "random"], SEEDS[:4])
    planner, rand = of(ends, "planner"), of(ends, "random")

    def share(seats: list[SeatEnd]) -> float:
        return sum(e.completed for e in seats) / sum(e.completed + e.failed for e in seats)

    assert share(planner) > share(rand) + 0.4
    assert mean(e.wasted for e in planner) < mean(e.wasted for e in rand)


@pytest.mark.slow
def test_the_lookahead_beats_random_clearly(usa: Ruleset) -> None:
    """Two seats against random: the look-ahead wins every game, by a wide margin."""
    ends = seat_ends(usa, ["lookahead", "random"], SEEDS[:4])
    ahead, rand = of(ends, "lookahead"), of(ends, "random")
    assert all(e.won for e in ahead)
    assert mean(e.total for e in ahead) > mean(e.total for e in rand) + 50


# -- a few decisions --------------------------------------------------------------------

ATLANTA_MIAMI = 2
"""A USA track: Atlanta-Miami, 5 blue."""
DENVER_SANTA_FE = 99
"""A USA track: Denver-Santa Fe, 2 gray."""
SANTA_FE_EL_PASO = 48
"""A USA track: El Paso-Santa Fe, 2 gray."""
DENVER_EL_PASO = 7
"""A USA ticket: Denver-El Paso, by Santa Fe."""


def cards(**counts: int) -> tuple[int, ...]:
    out = [0] * NUM_KINDS
    for name, n in counts.items():
        out[card_index(name)] = n
    return tuple(out)


def turn_state(
    rs: Ruleset, tickets: tuple[int, ...], hand: tuple[int, ...], owned: tuple[int, ...] = ()
) -> GameState:
    """A two-seat position at seat 0's turn, holding ``tickets`` and ``hand`` (ids) and
    owning the tracks ``owned``."""
    ix = index_of(rs)
    state = new_game(rs, 2, seed=3)
    players = list(state.players)
    players[0] = evolve(players[0], hand=hand, tickets=tuple(ix.ticket_index[t] for t in tickets))
    owners = list(state.owners)
    free = [list(k) for k in state.free]
    for track in owned:
        r = ix.route_index[track]
        owners[r] = 0
        free[ix.class_of[r]].remove(r)
    return evolve(
        state,
        phase=Phase.TURN,
        current=0,
        players=tuple(players),
        offers=(),
        owners=tuple(owners),
        free=tuple(tuple(k) for k in free),
    )


def test_the_long_route_bot_claims_its_longest_payable_track(usa: Ruleset) -> None:
    """With cards for 1-tracks and a 5-track, the long-route bot claims the 5-track."""
    track = usa.map.routes[usa.route_index_of(ATLANTA_MIAMI)]
    assert (track.length, track.color) == (5, "blue")
    state = turn_state(usa, (1, 2), cards(blue=5, red=1, pink=1))
    bot = LongRoutesBot(usa, 0, 1)
    action = bot.choose(view_of(usa, state, 0), SeatActions(usa, state, 0))
    assert isinstance(action, ClaimRoute)
    assert action.route == ATLANTA_MIAMI


def test_the_lookahead_completes_a_ticket_on_its_last_turn(usa: Ruleset) -> None:
    """In the final round the claim that completes a held ticket rates above the rest."""
    state = turn_state(usa, (DENVER_EL_PASO,), cards(red=2, green=2), owned=(DENVER_SANTA_FE,))
    state = evolve(state, final_trigger=1)
    bot = LookaheadBot(usa, 0, 1)
    action = bot.choose(view_of(usa, state, 0), SeatActions(usa, state, 0))
    assert isinstance(action, ClaimRoute)
    assert action.route == SANTA_FE_EL_PASO


def test_the_lookahead_claims_its_ticket_path_before_drawing(usa: Ruleset) -> None:
    """Late in the game (8 trains left, no new ticket would fit), with the cards for the
    last step of its ticket, it claims that step rather than drawing."""
    state = turn_state(usa, (DENVER_EL_PASO,), cards(red=2, green=2), owned=(DENVER_SANTA_FE,))
    players = list(state.players)
    players[0] = evolve(players[0], trains=8)
    state = evolve(state, players=tuple(players))
    bot = LookaheadBot(usa, 0, 1)
    action = bot.choose(view_of(usa, state, 0), SeatActions(usa, state, 0))
    assert action == ClaimRoute(route=SANTA_FE_EL_PASO, cards=cards(red=2))
