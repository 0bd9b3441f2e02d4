"""The bots: the registry, determinism, legality on every kind of map, and greedy play."""

from __future__ import annotations

import gc
import types
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from attrs import evolve

from ttr_core import Ruleset
from ttr_core.batch.runs import play_game, simulate, summarize
from ttr_core.bots import BaseBot, Bot, GreedyBot, RandomBot, find_bot, installed_bots, make_bot
from ttr_core.bots.greedy import Board, ticket_goals
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model.actions import Action, ClaimRoute, DrawBlind, KeepTickets, TakeFaceUp
from ttr_core.model.cards import NUM_KINDS, card_index
from ttr_core.model.errors import BotError
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import SHARED_CACHE, apply, new_game
from ttr_core.play.legal import LegalActions
from ttr_core.rules.index import index_of, memos_of
from ttr_core.rules.views import PlayerView, view_of


@pytest.fixture(scope="module")
def usa() -> Ruleset:
    return Ruleset.build("usa")


def cards(**counts: int) -> tuple[int, ...]:
    out = [0] * NUM_KINDS
    for name, n in counts.items():
        out[card_index(name)] = n
    return tuple(out)


def turn_state(
    rs: Ruleset,
    *,
    tickets: tuple[int, ...],
    hand: tuple[int, ...],
    display: tuple[int, ...] | None = None,
    owners: Mapping[int, int] | None = None,
) -> GameState:
    """A 2-player state at seat 0's turn, holding ``tickets`` (ids) and ``hand``."""
    state = new_game(rs, 2, seed=3)
    players = list(state.players)
    players[0] = evolve(
        players[0], hand=hand, tickets=tuple(index_of(rs).ticket_index[t] for t in tickets)
    )
    track_owners = list(state.owners)
    free = [list(k) for k in state.free]
    for track_id, seat in (owners or {}).items():
        r = index_of(rs).route_index[track_id]
        track_owners[r] = seat
        free[index_of(rs).class_of[r]].remove(r)
    return evolve(
        state,
        phase=Phase.TURN,
        current=0,
        players=tuple(players),
        offers=(),
        display=display if display is not None else state.display,
        owners=tuple(track_owners),
        free=tuple(tuple(k) for k in free),
    )


def greedy_choice(rs: Ruleset, state: GameState) -> Any:
    bot = GreedyBot(rs, 0, 1)
    legal = SeatActions(rs, state, 0)
    action = bot.choose(view_of(rs, state, 0), legal)
    assert action in LegalActions(rs, state)
    return action


# -- the registry ------------------------------------------------------------------------


def test_builtin_bots_are_registered_by_short_name() -> None:
    bots = installed_bots()
    assert bots["random"] == "ttr_core.bots.random_bot:RandomBot"
    assert bots["greedy"] == "ttr_core.bots.greedy:GreedyBot"
    assert find_bot("random") is RandomBot
    assert find_bot("greedy") is GreedyBot


def test_bot_by_module_and_class() -> None:
    assert find_bot("ttr_core.bots.greedy:GreedyBot") is GreedyBot


def test_unknown_bot_lists_the_known_ones() -> None:
    with pytest.raises(BotError, match=r"unknown bot 'clever'; known bots: .*greedy.*random"):
        find_bot("clever")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("no_such_module_here:Bot", "cannot import"),
        ("ttr_core.bots.greedy:Nothing", "has no attribute"),
        ("ttr_core.bots.greedy:UNUSABLE", "not a bot class"),
        ("ttr_core.bots.greedy:", "expected module:Class"),
    ],
)
def test_bad_bot_paths_are_bot_errors(name: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        find_bot(name)


def test_bots_follow_the_protocol(usa: Ruleset) -> None:
    for name in ("random", "greedy"):
        bot = make_bot(name, usa, 1, 7)
        assert isinstance(bot, Bot)
        assert isinstance(bot, BaseBot)
        assert bot.seat == 1


# -- determinism and legality ------------------------------------------------------------


def test_random_bot_is_uniform_and_reproducible(usa: Ruleset) -> None:
    state = new_game(usa, 2, seed=5)
    legal = SeatActions(usa, state, state.current)
    view = view_of(usa, state, state.current)
    first = [RandomBot(usa, 0, 42).choose(view, legal) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    bot = RandomBot(usa, 0, 42)
    picks = {bot.choose(view, legal) for _ in range(200)}
    assert picks == set(legal) == set(LegalActions(usa, state))


@pytest.mark.parametrize("bots", [("random", "random"), ("greedy", "random"), ("greedy", "greedy")])
def test_same_seed_same_game(usa: Ruleset, bots: tuple[str, str]) -> None:
    assert play_game(usa, bots, 99) == play_game(usa, bots, 99)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_legal_games_on_a_map_with_every_feature(
    borderland: Ruleset, players: int
) -> None:
    """Tunnels, a ferry, stations, border arrows and country tickets (END-1: games end)."""
    results = list(
        simulate(borderland, players=players, games=6, seed=players, bots=["greedy", "random"])
    )
    assert len(results) == 6
    assert all(r.turns > 0 for r in results)


def test_greedy_beats_random_clearly(usa: Ruleset) -> None:
    results = list(
        simulate(usa, players=4, games=8, seed=11, bots=["greedy", "random", "random", "random"])
    )
    stats = {b.bot: b for b in summarize(results).bots}
    assert stats["greedy"].win_share >= 0.75
    assert stats["greedy"].mean > stats["random"].mean + 50


# -- greedy decisions --------------------------------------------------------------------

DENVER_EL_PASO = 7
"""USA ticket Denver-El Paso: shortest by Denver-Santa Fe (2 gray) and Santa Fe-El Paso (2 gray)."""
CALGARY_SALT_LAKE = 3
"""USA ticket Calgary-Salt Lake City: shortest by Calgary-Helena (4 gray), Helena-SLC (3 pink)."""


def test_greedy_claims_a_track_of_its_path_with_fewest_locomotives(usa: Ruleset) -> None:
    state = turn_state(usa, tickets=(DENVER_EL_PASO,), hand=cards(red=2, locomotive=3))
    action = greedy_choice(usa, state)
    assert isinstance(action, ClaimRoute)
    assert action.route in (48, 99)
    assert action.cards == cards(red=2)


def test_greedy_takes_a_face_up_card_its_path_needs(usa: Ruleset) -> None:
    pink, white, blue, black = (card_index(c) for c in ("pink", "white", "blue", "black"))
    state = turn_state(
        usa,
        tickets=(CALGARY_SALT_LAKE,),
        hand=cards(),
        display=(white, white, pink, blue, black),
    )
    assert greedy_choice(usa, state) == TakeFaceUp(card=pink)


def test_greedy_draws_blind_when_no_face_up_card_helps(usa: Ruleset) -> None:
    white, blue, black = (card_index(c) for c in ("white", "blue", "black"))
    state = turn_state(
        usa,
        tickets=(CALGARY_SALT_LAKE,),
        hand=cards(),
        display=(white, white, blue, blue, black),
    )
    assert greedy_choice(usa, state) == DrawBlind()


def test_greedy_never_plans_over_tracks_of_others(usa: Ruleset) -> None:
    """CLAIM-8: Santa Fe-El Paso taken by seat 1, so the path goes round (8 trains)."""
    state = turn_state(
        usa,
        tickets=(DENVER_EL_PASO,),
        hand=cards(red=6, white=6, locomotive=6),
        owners={48: 1},
    )
    board = Board(usa, view_of(usa, state, 0))
    goal = ticket_goals(usa)[index_of(usa).ticket_index[DENVER_EL_PASO]]
    found = board.path(goal)
    assert found is not None and found[0] == 8
    action = greedy_choice(usa, state)
    assert isinstance(action, ClaimRoute)
    assert action.route != 48


def test_greedy_counts_its_own_tracks_as_free(usa: Ruleset) -> None:
    state = turn_state(usa, tickets=(DENVER_EL_PASO,), hand=cards(), owners={99: 0})
    board = Board(usa, view_of(usa, state, 0))
    goal = ticket_goals(usa)[index_of(usa).ticket_index[DENVER_EL_PASO]]
    assert board.path(goal) == (2, [index_of(usa).route_index[48]])


def test_greedy_keeps_the_cheapest_opening_tickets(usa: Ruleset) -> None:
    """SETUP-5: keeps at least the minimum, choosing by cheapest completion."""
    state = new_game(usa, 3, seed=21)
    seat = state.current
    view = view_of(usa, state, seat)
    legal = SeatActions(usa, state, seat)
    action = GreedyBot(usa, seat, 1).choose(view, legal)
    assert isinstance(action, KeepTickets) and action in legal
    board = Board(usa, view)
    goals = ticket_goals(usa)
    costs = {}
    for t in view.offered:
        found = board.path(goals[index_of(usa).ticket_index[t]])
        assert found is not None
        costs[t] = found[0]
    cheapest = sorted(costs.values())[:2]
    assert len(action.tickets) >= 2
    assert sorted(costs[t] for t in action.tickets)[:2] == cheapest


def test_greedy_game_state_moves_forward(usa: Ruleset) -> None:
    """A greedy choice always applies (the bot only returns listed legal actions)."""
    state = new_game(usa, 2, seed=8)
    bots = [GreedyBot(usa, s, s) for s in range(2)]
    for _ in range(60):
        legal = SeatActions(usa, state, state.current)
        action = bots[state.current].choose(view_of(usa, state, state.current), legal)
        assert action in LegalActions(usa, state)
        state = apply(usa, state, action)


# -- what a bot is given leads to no hidden card or ticket ---------------------------------------


_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def reachable(*roots: object) -> list[object]:
    """Every object reachable from ``roots`` through data (not through classes, modules
    or functions, whose globals lead to everything a process holds)."""
    seen: dict[int, object] = {}
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, _OPAQUE):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


class Spy(BaseBot):
    """A random bot that, at every decision, checks what it was given against the game's
    own ruleset: nothing it reaches may be that ruleset, its memos, or an opponent's cards."""

    secret: Ruleset

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        rs = self.secret
        assert self.ruleset is not rs
        held = [rs, memos_of(rs).claim_tables]
        held += [memos_of(rs).station_payment_cache, SHARED_CACHE]
        banned = {id(x) for x in held}
        for obj in reachable(self.ruleset, view, legal, self):
            assert id(obj) not in banned, f"seat {self.seat} reaches {type(obj).__name__}"
            if isinstance(obj, GameState):
                for i, p in enumerate(obj.players):
                    if i != self.seat:
                        assert not any(p.hand) and not p.tickets, f"seat {i}'s cards reached"
                assert all(card < 0 for card in obj.deck), "the deck order was reached"
        return self.pick(legal)


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["nordic", "europe"])
def test_bot_reaches_no_hidden_card_or_ticket_from_what_it_is_given(edition: str) -> None:
    """SETUP-6, and the bots' promise: a bot gets its view, its seat's legal actions and
    a ruleset of its own
    (``Ruleset.private_copy``), so no memo filled with the other seats' hands (and no
    state the functional API kept) is reachable from anything it is given."""
    rs = Ruleset.build(edition)
    state = new_game(rs, 2, seed=1)
    apply(rs, state, LegalActions(rs, state)[0])  # the shared position cache holds states
    Spy.secret = rs
    for seed in (1, 2):
        play_game(rs, ["spy", "spy"], seed, factories=[Spy, Spy])
    assert memos_of(rs).station_payment_cache or memos_of(rs).claim_tables


def test_private_copy_has_the_same_rules_and_empty_memos(usa: Ruleset) -> None:
    """``Ruleset.private_copy`` plays the same games, with memos of its own."""
    twin = usa.private_copy()
    assert twin.options == usa.options and twin.map_hash == usa.map_hash
    assert memos_of(twin).claim_tables is None and not memos_of(twin).station_payment_cache
    assert play_game(twin, ["greedy", "random"], 5) == play_game(usa, ["greedy", "random"], 5)
