"""Hostile actions: anything a caller can hand to ``apply``, at every phase of a turn.

Actions are drawn from the whole action space, not only the legal list, and a grid of
systematic ones is tried in one position of every phase. Each must be accepted exactly
when it is ``in`` the legal actions; a rejected one raises ``IllegalActionError`` (a
``ValueError``) citing a rule of the rules reference, leaves no event, and changes
neither the state nor a ``Game`` (its state, log and saved record).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_core import IllegalActionError, TtrError
from ttr_core.formats.serialize import state_to_json
from ttr_core.model.actions import (
    Action,
    BuildStation,
    ChooseCard,
    ClaimRoute,
    ClaimWithGroups,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import apply
from ttr_core.play.game import Game
from ttr_core.play.legal import LegalActions
from ttr_core.rules.index import index_of
from ttr_core.rules.tickets import pending_for
from ttr_core.ruleset.editions import installed_editions
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing import any_actions, check_action, games, kit_settings
from ttr_core.testing.invariants import check_action_outcome, check_unchanged
from ttr_core.testing.play import Chooser, player_counts, ruleset
from ttr_core.testing.space import arbitrary_actions

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
EDITIONS = sorted(installed_editions())
SWEEP_PROBES = 16
"""Arbitrary actions tried at every decision of the sweep games."""


def documented_rules() -> set[str]:
    found = set()
    for page in RULES.glob("*.md"):
        found |= set(re.findall(r"^### ([A-Z]+-[A-Z]?\d+): ", page.read_text("utf-8"), re.M))
    return found


def phases_of(rs: Ruleset) -> set[Phase]:
    out = set(Phase)
    if not index_of(rs).has_tunnels:
        out.discard(Phase.TUNNEL)
    if not index_of(rs).has_groups:
        out.discard(Phase.CHOOSE_CARDS)
    return out


def sweep_game(rs: Ruleset, players: int, seed: int) -> Iterator[tuple[Game, LegalActions]]:
    """Every decision of a seeded random game, the final state included."""
    game = Game.new(rs, players=players, seed=seed)
    chooser = Chooser(seed)
    while True:
        legal = game.legal_actions()
        yield game, legal
        if game.is_over:
            return
        game.apply(legal[chooser.below(len(legal))])


def reject_through_game(game: Game, action: Action) -> None:
    """``Game.apply`` refuses ``action`` and the game, its log and its record stay as they were."""
    state, log, text = game.state, list(game.log), game.save()
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert game.state is state
    assert game.log == log
    assert game.save() == text


# -- random actions from the whole action space, at every decision of whole games ------------


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_arbitrary_actions_at_every_decision(edition: str) -> None:
    """At every decision of two games, 16 actions from the whole action space: each accepted
    exactly when listed; rejections cite a documented rule and change nothing."""
    rs = ruleset(edition)
    counts = player_counts(rs)
    per_phase: Counter[Phase] = Counter()
    rules: Counter[str] = Counter()
    accepted = 0
    rules_known = documented_rules()
    for players, seed in ((counts[0], 1), (counts[-1], 2)):
        probe = Chooser(seed + 100)
        for i, (game, legal) in enumerate(sweep_game(rs, players, seed)):
            state = game.state
            before = state_to_json(state)
            for action in arbitrary_actions(rs, state, probe, SWEEP_PROBES, legal):
                per_phase[state.phase] += 1
                outcome = check_action_outcome(rs, state, action, legal)
                if not isinstance(outcome, IllegalActionError):
                    accepted += 1
                    continue
                rules[outcome.rule] += 1
                if i % 8 == 0:
                    reject_through_game(game, action)
            check_unchanged(before, state)
    assert set(per_phase) == phases_of(rs)
    assert min(per_phase.values()) >= SWEEP_PROBES
    assert accepted > 0
    undocumented = set(rules) - rules_known
    assert not undocumented, f"rules cited but not in docs/rules: {sorted(undocumented)}"


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_any_actions_strategy(edition: str) -> None:
    """Hypothesis' search over positions and actions finds no disagreement either."""

    @kit_settings(80)
    @given(game=games(edition), data=st.data())
    def check(game: Game, data: st.DataObject) -> None:
        rs, state = game.ruleset, game.state
        legal = game.legal_actions()
        before = state_to_json(state)
        for _ in range(20):
            action = data.draw(any_actions(rs, state, legal))
            if check_action(rs, state, action, legal) is None:
                reject_through_game(game, action)
        check_unchanged(before, state)

    check()


# -- a systematic grid of actions in one position of every phase ------------------------------


def phase_positions(rs: Ruleset, players: int, seed: int) -> dict[Phase, GameState]:
    """The first position of each phase reached in seeded random games."""
    found: dict[Phase, GameState] = {}
    for attempt in range(20):
        for game, _ in sweep_game(rs, players, seed + attempt):
            found.setdefault(game.state.phase, game.state)
        if set(found) == phases_of(rs):
            break
    return found


def payments(size: int, hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Single-colour payments with some locomotives, near misses and the held ones."""
    out: set[tuple[int, ...]] = set()
    for color in range(LOCO):
        for locos in {0, 1, size // 2, size}:
            for n in (size, size + 1, max(0, size - 1)):
                counts = [0] * NUM_KINDS
                counts[color] = max(0, n - locos)
                counts[LOCO] = min(locos, n)
                out.add(tuple(counts))
                out.add(tuple(min(c, h) for c, h in zip(counts, hand, strict=True)))
    two = [0] * NUM_KINDS
    two[0] = two[1] = max(1, size // 2)
    out |= {tuple(two), (0,) * NUM_KINDS, (1,) * (NUM_KINDS - 1), (-1, *(0,) * 7, size + 1)}
    return sorted(out)


def grid(rs: Ruleset, state: GameState) -> Iterator[Action]:
    """A systematic set of actions of every kind, mostly illegal."""
    yield from (TakeFaceUp(card=k) for k in (-1, *range(NUM_KINDS), NUM_KINDS, 99))
    yield from (DrawBlind(), DrawTickets(), Pass(), WithdrawTunnel())
    offered = [index_of(rs).ticket_ids[t] for t in pending_for(state, state.current)]
    unknown = max(index_of(rs).ticket_ids) + 1
    for size in range(len(offered) + 1):
        for chosen in permutations(offered, size):
            yield KeepTickets(tickets=chosen)
            yield KeepTickets(tickets=(*chosen, unknown))
            if chosen:
                yield KeepTickets(tickets=(*chosen, chosen[0]))
    others = [t for t in index_of(rs).ticket_ids if t not in offered][:3]
    yield KeepTickets(tickets=tuple(others))
    hand = state.players[state.current].hand
    for route in (*index_of(rs).route_ids, max(index_of(rs).route_ids) + 1, -1):
        r = index_of(rs).route_index.get(route)
        size = index_of(rs).route_len[r] if r is not None else 2
        for cards in payments(size, hand):
            yield ClaimRoute(route=route, cards=cards)
    params = rs.params
    used = params.stations - state.players[state.current].stations
    cost = params.station_cost[used] if 0 <= used < len(params.station_cost) else 1
    aliases = [a for c in rs.map.cities for a in c.aliases][:2]
    for city in (*index_of(rs).city_ids, *aliases, "Atlantis", ""):
        for cards in payments(cost, hand)[:12]:
            yield BuildStation(city=city, cards=cards)
    t = state.tunnel
    extra = t.extra if t is not None else 1
    color = t.color if t is not None and t.color != LOCO else 0
    for n in (extra - 1, extra, extra + 1):
        for locos in range(max(0, n) + 1):
            for c in {color, (color + 1) % LOCO}:
                counts = [0] * NUM_KINDS
                counts[c] = max(0, n - locos)
                counts[LOCO] = locos
                yield PayTunnel(cards=tuple(counts))
    yield PayTunnel(cards=(1,) * (NUM_KINDS + 1))
    for route in (*index_of(rs).route_ids, max(index_of(rs).route_ids) + 1, -1):
        for groups in (-1, 0, 1, 2, 3, 9, 10):
            yield ClaimWithGroups(route=route, groups=groups)
    yield from (ChooseCard(card=k) for k in (-1, *range(NUM_KINDS), NUM_KINDS))


def grid_cases() -> list[tuple[str, Phase]]:
    out = []
    for edition in EDITIONS:
        rs = ruleset(edition)
        out.extend((edition, phase) for phase in sorted(phases_of(rs)))
    return out


@pytest.mark.parametrize(
    ("edition", "phase"), grid_cases(), ids=[f"{e}-{p.name}" for e, p in grid_cases()]
)
def test_action_grid_in_every_phase(edition: str, phase: Phase) -> None:
    """Every action of the grid: accepted exactly when listed, else a documented rule."""
    rs = ruleset(edition)
    state = phase_positions(rs, player_counts(rs)[-1], 1)[phase]
    legal = LegalActions(rs, state)
    before = state_to_json(state)
    tried = accepted = 0
    rules_known = documented_rules()
    for action in grid(rs, state):
        tried += 1
        new = check_action(rs, state, action, legal)
        if new is not None:
            accepted += 1
            continue
        with pytest.raises(IllegalActionError) as info:
            apply(rs, state, action)
        assert info.value.rule in rules_known, info.value
    check_unchanged(before, state)
    assert tried > 500
    if phase is Phase.GAME_OVER:
        assert accepted == 0


# -- the error itself ------------------------------------------------------------------------


def test_illegal_action_error_is_a_value_error_with_a_rule() -> None:
    """IllegalActionError is a ValueError and a TtrError; it carries the rule id."""
    rs = ruleset("usa")
    state = Game.new(rs, players=2, seed=1).state
    with pytest.raises(IllegalActionError) as info:
        apply(rs, state, DrawBlind())
    error = info.value
    assert isinstance(error, ValueError)
    assert isinstance(error, TtrError)
    assert error.rule == "TURN-1"
    assert str(error).endswith("(rule TURN-1)")


# -- actions outside the declared types --------------------------------------------------------
# Callers in other languages or careless ones can build actions with the wrong types. Each
# must be refused like any illegal action, with an IllegalActionError, or accepted only if
# it is `in` the legal actions and its record still loads.

TYPE_CASES: list[tuple[str, Any]] = [
    ("route as text", lambda c: ClaimRoute(route=str(c.route), cards=c.cards)),
    ("cards as list", lambda c: ClaimRoute(route=c.route, cards=list(c.cards))),
    ("cards as None", lambda c: ClaimRoute(route=c.route, cards=None)),
    ("card as text", lambda c: TakeFaceUp(card="red")),
    ("card as None", lambda c: TakeFaceUp(card=None)),
    ("tickets as text", lambda c: KeepTickets(tickets="12")),
    ("tickets as None", lambda c: KeepTickets(tickets=None)),
    ("station city as None", lambda c: BuildStation(city=None, cards=c.cards)),
    ("station cards as None", lambda c: BuildStation(city="x", cards=None)),
    ("tunnel cards as None", lambda c: PayTunnel(cards=None)),
    ("the base class", lambda c: Action()),
    ("route as bool", lambda c: ClaimRoute(route=c.route == 1, cards=c.cards)),
    ("route as float", lambda c: ClaimRoute(route=float(c.route), cards=c.cards)),
    ("route as list", lambda c: ClaimRoute(route=[c.route], cards=c.cards)),
    ("payment of floats", lambda c: ClaimRoute(route=c.route, cards=tuple(map(float, c.cards)))),
    ("payment of text", lambda c: ClaimRoute(route=c.route, cards=("a",) * NUM_KINDS)),
    ("payment of bools", lambda c: ClaimRoute(route=c.route, cards=tuple(map(bool, c.cards)))),
    ("face-up card as float", lambda c: TakeFaceUp(card=1.0)),
    ("face-up card as bool", lambda c: TakeFaceUp(card=True)),
    ("tickets as list", lambda c: KeepTickets(tickets=[1, 2])),
    ("station city as list", lambda c: BuildStation(city=["x"], cards=c.cards)),
    ("station payment of text", lambda c: BuildStation(city="x", cards=("a",) * NUM_KINDS)),
    ("tunnel payment of text", lambda c: PayTunnel(cards=("a",) * NUM_KINDS)),
]


@pytest.fixture(scope="module")
def claim_position() -> tuple[Game, ClaimRoute]:
    """A USA game at a turn where a claim of track 1 is listed."""
    rs = ruleset("usa")
    for seed in range(50):
        for game, legal in sweep_game(rs, 2, seed):
            for action in legal:
                if isinstance(action, ClaimRoute) and action.route == 1:
                    return game, action
    raise AssertionError("no position with a claim of track 1")


def check_typed(game: Game, make: Any) -> None:
    """The badly typed action is refused cleanly, or accepted only if listed and loadable."""
    rs, state = game.ruleset, game.state
    claim = next(a for a in game.legal_actions() if isinstance(a, ClaimRoute) and a.route == 1)
    action = make(claim)
    try:
        listed = action in game.legal_actions()
    except Exception as exc:
        raise AssertionError(f"'in' raised {type(exc).__name__} for {action!r}") from exc
    try:
        new = apply(rs, state, action)
    except IllegalActionError:
        assert not listed, f"{action!r} is listed but refused"
        return
    assert listed, f"{action!r} is accepted but not listed"
    copy = Game.load(game.save())
    copy.apply(action)
    assert Game.load(copy.save()).state == new


@pytest.mark.parametrize(("name", "make"), TYPE_CASES, ids=[n for n, _ in TYPE_CASES])
def test_badly_typed_actions_are_refused_cleanly(
    claim_position: tuple[Game, ClaimRoute], name: str, make: Any
) -> None:
    """TURN-1: an action with values of the wrong type is an illegal action, nothing worse."""
    check_typed(claim_position[0], make)


def test_keep_tickets_given_as_a_list() -> None:
    """A list of ticket ids: apply and ``in`` must agree (a tuple is the declared type)."""
    rs = ruleset("usa")
    game = Game.new(rs, players=2, seed=3)
    ids = [index_of(rs).ticket_ids[t] for t in game.state.offers[game.state.current]]
    action = KeepTickets(tickets=ids)  # type: ignore[arg-type]
    listed = action in game.legal_actions()
    try:
        apply(rs, game.state, action)
    except IllegalActionError:
        assert not listed
    else:
        assert listed
