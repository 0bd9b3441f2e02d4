"""What bots are given (SETUP-6): their view and their legal actions, listed without the
hidden cards, from which no attribute leads to anything their seat may not know."""

from __future__ import annotations

import gc
import time
import types
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core import Game, GameState, Phase, PlayerState, Ruleset, ViewError
from ttr_core.batch.runs import play_game
from ttr_core.bots import make_bot
from ttr_core.hidden.seat_actions import SeatActions, SeatLister, redacted
from ttr_core.hidden.view_check import validate_view
from ttr_core.model.actions import Action
from ttr_core.play.legal import LegalActions
from ttr_core.rules.table import Table
from ttr_core.rules.views import PlayerView
from ttr_core.testing import games
from ttr_core.testing.play import Chooser, ruleset
from ttr_core.testing.play import play_game as random_game

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_seat_lists_exactly_the_legal_actions(edition: str) -> None:
    """In every phase of random games, the seat to act gets every legal action in order,
    and any other seat gets none."""
    rs = ruleset(edition)
    players = rs.params.players[1]
    full = random_game(rs, players, seed=3)
    game = Game.new(rs, players=players, seed=3)
    for entry in (*full.log, None):
        state = game.state
        real = list(LegalActions(rs, state))
        listed = SeatActions(rs, state, state.current)
        assert list(listed) == real and len(listed) == len(real)
        assert all(a in listed for a in real[:5])
        assert listed.count_without_pass() == LegalActions(rs, state).count_without_pass()
        assert not SeatActions(rs, state, (state.current + 1) % players)
        if entry is not None:
            game.apply(entry.action)


def test_a_reused_simulator_does_not_change_an_earlier_listing(usa: Ruleset) -> None:
    game = random_game(usa, 2, seed=1, actions=30)
    first = game.state
    scratch = Game.new(usa, players=2, seed=1).simulator(record=False)
    listed = SeatActions(usa, first, first.current, simulator=scratch)
    before = list(listed)
    game.apply(game.legal_actions()[0])
    SeatActions(usa, game.state, game.state.current, simulator=scratch)
    assert list(listed) == before == list(LegalActions(usa, first))


def _derived(t: Table) -> tuple[object, ...]:
    """What a table works out from its holdings, and the seat's gray payment counts."""
    grays = tuple(t.claims.gray_values[g] for g in t.gray_id) if t.claims.has_gray else ()
    return (t.pay_count, grays, t.sig, t.block_counts, t.free_count, t.free, t.blocked)


@pytest.mark.parametrize("edition", EDITIONS)
def test_setup_6_a_lister_lists_what_the_redacted_state_lists(edition: str) -> None:
    """SETUP-6: at every decision of whole games, a seat's lister is at exactly the
    redacted position (its state, its counts, its legal actions), and a listing kept from
    an earlier decision still lists what it listed."""
    rs = Ruleset.build(edition)
    for players in rs.params.players:
        listers = [SeatLister(rs.private_copy(), players) for _ in range(players)]
        for seed in (1, 2):
            game = Game.new(rs, players=players, seed=seed)
            sim = game.simulator(record=False)
            kept: list[tuple[SeatActions, list[Action]]] = []
            step = 0
            while not sim.is_over:
                state = sim.snapshot()
                seat = state.current
                listed = listers[seat].actions(sim, seat)
                assert not listers[(seat + 1) % players].actions(sim, (seat + 1) % players)
                fresh = SeatActions(rs.private_copy(), state, seat)
                here = listers[seat]._sim
                assert here.snapshot() == redacted(state, seat)
                assert fresh._sim is not None
                assert _derived(here._table) == _derived(fresh._sim._table)
                assert list(listed) == list(fresh) == list(LegalActions(rs, state))
                if step % 37 == 0:
                    kept.append((listed, list(listed)))
                del listed, fresh
                sim.apply_index(step * 7919 % sim.legal_count())
                step += 1
            assert all(list(seq) == actions for seq, actions in kept)


def test_a_lister_lists_games_of_its_rules_and_number_of_seats(usa: Ruleset) -> None:
    lister = SeatLister(usa.private_copy(), 3)
    game = Game.new(usa, players=2, seed=1).simulator(record=False)
    with pytest.raises(ValueError, match="3-seat games, not 2-seat"):
        lister.actions(game, game.current_player)
    lister = SeatLister(usa.private_copy(), 2)
    for other in (Ruleset.build("europe"), Ruleset.build("usa", {"opening_tickets": 4})):
        elsewhere = Game.new(other, players=2, seed=1).simulator(record=False)
        with pytest.raises(ValueError, match=r"lists games of Ruleset\.build"):
            lister.actions(elsewhere, elsewhere.current_player)
    assert lister.actions(game, game.current_player)


# -- listing from a view ---------------------------------------------------------------------


PENDING = (Phase.TUNNEL, Phase.CHOOSE_CARDS)


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=10)
@given(data=st.data())
def test_view_error_never_for_a_real_view(edition: str, data: st.DataObject) -> None:
    """ViewError is never raised for a real view: at any point of random games of every
    option set and player count (played on to a tunnel or a payment with groups where the
    edition has them), every seat's view is accepted and the seat to act lists exactly its
    legal actions from it."""
    game = data.draw(games(edition))
    rs = game.ruleset
    if data.draw(st.booleans(), label="play on to a pending claim"):
        chooser = Chooser(data.draw(st.integers(0, 2**32 - 1)))
        while not game.is_over and game.state.phase not in PENDING:
            legal = game.legal_actions()
            game.apply(legal[chooser.below(len(legal))])
    state = game.state
    for seat in range(len(state.players)):
        view = game.view(seat)
        assert validate_view(rs, view).view is view
        listed = SeatActions.from_view(rs, view)
        if seat == state.current and not state.is_over:
            assert list(listed) == list(LegalActions(rs, state))
        else:
            assert not listed


def _tunnel_view() -> PlayerView:
    """The view of the seat paying for a tunnel in a 2-player Europe game."""
    rs = ruleset("europe")
    for seed in range(100):
        game = Game.new(rs, players=2, seed=seed)
        full = random_game(rs, 2, seed=seed)
        for entry in full.log:
            if game.state.phase is Phase.TUNNEL:
                return game.view(game.state.current)
            game.apply(entry.action)
    raise AssertionError("no tunnel claim in 100 games")


@pytest.mark.parametrize("extra", [10**9, 10**5000, 4, -1], ids=["1e9", "1e5000", "4", "-1"])
def test_view_error_tunnel_extra_out_of_range(extra: int) -> None:
    """ViewError, at once: an extra cost beyond the edition's three turned-over cards
    (listing its payments used to loop over ``range(extra + 1)``)."""
    view = _tunnel_view()
    assert view.tunnel is not None
    view = evolve(view, tunnel=evolve(view.tunnel, extra=extra))
    start = time.perf_counter()
    with pytest.raises(ViewError, match=r"^\$\.tunnel\.extra: the turned-over cards demand"):
        SeatActions.from_view(ruleset("europe"), view)
    assert time.perf_counter() - start < 1


# -- nothing hidden is reachable --------------------------------------------------------------


def reachable(*roots: object) -> Iterator[object]:
    """Every object reachable from ``roots`` through attributes and containers; modules,
    classes and code (shared by everything in the process) are not followed."""
    seen: set[int] = set()
    todo = list(roots)
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        yield obj
        todo.extend(gc.get_referents(obj))
        if hasattr(obj, "__slots__") and not isinstance(obj, tuple):
            todo.extend(getattr(obj, name, None) for name in _slots(type(obj)))


def _slots(cls: type) -> Iterator[str]:
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        yield from (slots,) if isinstance(slots, str) else slots


def secrets(seat: int, roots: Sequence[object]) -> list[str]:
    """What of other seats' cards and tickets, the decks or the generator is reachable."""
    found = []
    for obj in reachable(*roots):
        if isinstance(obj, GameState):
            for i, p in enumerate(obj.players):
                if i != seat and (any(p.hand) or p.tickets):
                    found.append(f"a state holding seat {i}'s cards or tickets")
            if any(c >= 0 for c in obj.deck[obj.deck_pos :]) or any(
                t >= 0 for t in obj.ticket_deck
            ):
                found.append("a state holding the order of a deck")
            if obj.rng >= 0:
                found.append("a state holding the generator")
        elif isinstance(obj, Table):
            for i in range(obj.players):
                if i != seat and (any(obj.hand(i)) or obj.tickets[i]):
                    found.append(f"a simulator holding seat {i}'s cards or tickets")
            if any(c >= 0 for c in obj.deck[obj.deck_pos :]) or obj.rng >= 0:
                found.append("a simulator holding the deck or the generator")
    return found


class Prying:
    """A bot (the one named ``inner``) that first looks through everything it is given,
    and everything it keeps, for hidden information."""

    found: ClassVar[list[str]] = []
    checked: ClassVar[int] = 0
    inner: ClassVar[str] = "greedy"

    def __init__(self, rs: Ruleset, seat: int, seed: int) -> None:
        self.seat = seat
        self.bot = make_bot(self.inner, rs, seat, seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if view.turn % 3 == 0:  # every third turn: the walk is slow
            type(self).found.extend(secrets(self.seat, [self, view, legal]))
            type(self).checked += 1
        return self.bot.choose(view, legal)


PRYING_BOTS = [
    "greedy",
    *(
        pytest.param(name, marks=pytest.mark.slow)
        for name in ("tickets", "long-routes", "planner", "lookahead")
    ),
]
"""The bots walked: greedy always, the play styles in the slow runs."""


@pytest.mark.parametrize("bot", PRYING_BOTS)
@pytest.mark.parametrize("edition", ["usa", "nordic"])
def test_setup_6_a_bot_cannot_reach_the_state_from_what_it_is_given(edition: str, bot: str) -> None:
    """SETUP-6: no attribute of the view, the legal actions, the ruleset or the bot itself
    (with all it keeps between decisions) leads to another seat's cards or tickets, the
    order of a deck or the generator."""
    Prying.found, Prying.checked, Prying.inner = [], 0, bot
    rs = Ruleset.build(edition)
    play_game(rs, ["prying", "prying"], 5, factories=[Prying, Prying])
    assert Prying.checked > 20
    assert Prying.found == []


def test_the_prying_check_finds_a_state_when_there_is_one() -> None:
    """The check is not blind: the library's full listing does lead to the state."""
    rs = Ruleset.build("usa")  # its own: the functional API keeps recent positions in it
    game = random_game(rs, 2, seed=2, actions=10)
    state = game.state
    assert not secrets(state.current, [redacted(state, state.current)])
    assert not secrets(state.current, [SeatActions(rs, state, state.current)])
    assert secrets(state.current, [state])
    assert secrets(state.current, [LegalActions(rs, state)])


def test_redacted_keeps_the_seats_own_holdings(usa: Ruleset) -> None:
    game = random_game(usa, 3, seed=4, actions=25)
    state = game.state
    seat = state.current
    hidden = redacted(state, seat)
    assert hidden.players[seat] == state.players[seat]
    others: list[Any] = [p for i, p in enumerate(hidden.players) if i != seat]
    assert all(isinstance(p, PlayerState) and not any(p.hand) for p in others)
    assert hidden.deck_size == state.deck_size
    assert len(hidden.ticket_deck) == len(state.ticket_deck)
