"""Shared test helpers: a small fixture edition, hand-made positions and random play.

The fixture edition builds a ruleset from a map written in code with letter cities, so
a rule can be checked on a board where every track and ticket is known. States in a
chosen position are made from a real state with ``attrs.evolve``; chance outcomes can
be fixed with :class:`ScriptedChance`.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve

from ttr_core import EditionInfo, IllegalActionError, Ruleset, hookimpl
from ttr_core.formats.serialize import state_from_json, state_to_json
from ttr_core.model.actions import Action, KeepTickets
from ttr_core.model.cards import CARD_NAMES, LOCO, NUM_KINDS, card_index
from ttr_core.model.events import Event
from ttr_core.model.mapdata import MapData, Parameters, load_map_data, structure_map
from ttr_core.model.state import GameState, Phase, PlayerState
from ttr_core.play.functional import apply, new_game
from ttr_core.play.legal import legal_actions
from ttr_core.rules.scoring import PlayerPosition, Position, Scoresheet, score_position

# Card numbers by short letter: R O Y G B P K(black) W, L = locomotive.
LETTERS = {"R": 0, "O": 1, "Y": 2, "G": 3, "B": 4, "P": 5, "K": 6, "W": 7, "L": LOCO}
RED, ORANGE, YELLOW, GREEN, BLUE, PINK, BLACK, WHITE = range(8)

BASE_PARAMETERS: dict[str, Any] = {
    "players": [2, 5],
    "trains": 45,
    "train_cards": {
        "red": 12,
        "orange": 12,
        "yellow": 12,
        "green": 12,
        "blue": 12,
        "pink": 12,
        "black": 12,
        "white": 12,
        "locomotive": 14,
    },
    "route_points": {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15},
    "double_routes_min_players": 4,
    "opening_tickets": {"deal": 3, "keep": 2, "returned": "bottom"},
    "ticket_draw": {"deal": 3, "keep": 1, "returned": "bottom"},
    "starting_hand": 4,
    "display": {"size": 5, "flush_locomotives": 3, "flush_repeats": 3},
    "face_up_locomotive": "whole_draw",
    "locomotives": "anywhere",
    "longest_path_bonus": 10,
    "longest_path_bonus_name": "longest_path",
    "tie_breakers": ["completed_tickets", "longest_path_bonus"],
}
"""Parameters of the fixture edition: the base game's, written out here."""

# A general-purpose fixture board. Tracks get ids 1.. in this order; two tracks between
# the same cities are made a double route. B-C is an even double, C-E an uneven one.
BASIC_ROUTES: tuple[tuple[str, str, int, str], ...] = (
    ("A", "B", 3, "red"),
    ("A", "C", 2, "gray"),
    ("B", "C", 2, "gray"),
    ("B", "C", 2, "gray"),
    ("C", "D", 4, "blue"),
    ("D", "E", 1, "gray"),
    ("E", "F", 6, "green"),
    ("A", "D", 5, "gray"),
    ("C", "E", 2, "yellow"),
    ("C", "E", 3, "pink"),
    ("F", "G", 1, "gray"),
    ("G", "H", 2, "white"),
)
BASIC_TICKETS: tuple[tuple[str, str, int], ...] = (
    ("A", "D", 5),
    ("A", "F", 11),
    ("B", "E", 6),
    ("C", "F", 9),
    ("A", "H", 14),
    ("B", "G", 10),
    ("D", "H", 8),
    ("A", "E", 7),
    ("B", "D", 5),
    ("C", "G", 9),
    ("E", "H", 6),
    ("A", "G", 12),
    ("B", "F", 10),
    ("C", "H", 11),
    ("D", "G", 6),
    ("B", "H", 13),
)


def cards(spec: str = "", **named: int) -> tuple[int, ...]:
    """A nine-count card tuple from letters (``"RRL"``) and/or names (``red=2``)."""
    counts = [0] * NUM_KINDS
    for ch in spec:
        counts[LETTERS[ch]] += 1
    for name, n in named.items():
        counts[card_index(name)] += n
    return tuple(counts)


def card_list(spec: str) -> list[int]:
    """Card numbers from letters, in order (``"LLR"`` -> ``[8, 8, 0]``)."""
    return [LETTERS[ch] for ch in spec]


def map_dict(
    routes: Iterable[tuple[str, str, int, str]],
    tickets: Iterable[tuple[str, str, int]] = (),
    *,
    cities: Iterable[str] = (),
    edition: str = "fixture",
    **parameters: Any,
) -> dict[str, Any]:
    """Map data in the documented JSON form for a board given as a list of tracks.

    Tracks get ids 1, 2, ... in order and a second track between the same two cities
    becomes the parallel of the first. Cities are collected from tracks and tickets.
    Keyword arguments replace entries of :data:`BASE_PARAMETERS`.
    """
    routes = list(routes)
    tickets = list(tickets)
    names = set(cities)
    out_routes: list[dict[str, Any]] = []
    first_of_pair: dict[frozenset[str], dict[str, Any]] = {}
    for i, (a, b, length, color) in enumerate(routes, start=1):
        names.update((a, b))
        track: dict[str, Any] = {"id": i, "cities": [a, b], "length": length, "color": color}
        pair = frozenset((a, b))
        other = first_of_pair.get(pair)
        if other is not None:
            other["parallel"] = i
            track["parallel"] = other["id"]
        else:
            first_of_pair[pair] = track
        out_routes.append(track)
    out_tickets = []
    for i, (a, b, points) in enumerate(tickets, start=1):
        names.update((a, b))
        out_tickets.append({"id": i, "a": a, "b": b, "points": points})
    params = copy.deepcopy(BASE_PARAMETERS)
    params.update(parameters)
    return {
        "format": 1,
        "edition": edition,
        "name": "Fixture",
        "source": "test fixture",
        "parameters": params,
        "cities": [{"id": c} for c in sorted(names)],
        "routes": out_routes,
        "tickets": out_tickets,
    }


class FixtureEdition:
    """An edition plugin serving a map given in code (registered like any edition)."""

    def __init__(
        self, data: MapData, edition_id: str = "fixture", aliases: tuple[str, ...] = ("fx",)
    ) -> None:
        self.data = data
        self.info = EditionInfo(
            id=edition_id, name="Fixture edition", aliases=aliases, rules_version="1"
        )

    @hookimpl
    def ttr_edition_info(self) -> EditionInfo:
        return self.info

    @hookimpl
    def ttr_map_data(self, options: Mapping[str, Any]) -> MapData:
        return self.data


def fixture_ruleset(
    routes: Iterable[tuple[str, str, int, str]] = BASIC_ROUTES,
    tickets: Iterable[tuple[str, str, int]] = BASIC_TICKETS,
    *,
    plugins: Iterable[object] = (),
    **parameters: Any,
) -> Ruleset:
    """A ruleset of the fixture edition on the given board."""
    data = structure_map(map_dict(routes, tickets, **parameters))
    return Ruleset(FixtureEdition(data), plugins=plugins)


# -- naming tracks and tickets ------------------------------------------------------------


def track_indices(rs: Ruleset, a: str, b: str) -> list[int]:
    """Indices of the tracks between two cities, in map order."""
    ca, cb = rs.city_index[a], rs.city_index[b]
    found = [r for r in range(len(rs.routes)) if {rs.route_a[r], rs.route_b[r]} == {ca, cb}]
    assert found, f"no track between {a} and {b}"
    return found


def track(rs: Ruleset, spec: str, nth: int = 0) -> int:
    """Index of a track named ``"A-B"`` (the ``nth`` of a double route)."""
    a, b = spec.split("-")
    return track_indices(rs, a, b)[nth]


def track_id(rs: Ruleset, spec: str, nth: int = 0) -> int:
    """Id of a track named ``"A-B"``."""
    return rs.route_ids[track(rs, spec, nth)]


def ticket(rs: Ruleset, spec: str) -> int:
    """Index of the ticket named ``"A-B"`` (this direction first, then the other)."""
    a, b = spec.split("-")
    for i, t in enumerate(rs.tickets):
        if (t.a, t.b) == (a, b):
            return i
    for i, t in enumerate(rs.tickets):
        if (t.b, t.a) == (a, b):
            return i
    raise AssertionError(f"no ticket {spec}")


def position(rs: Ruleset, players: Mapping[str, tuple[Sequence[str], Sequence[str]]]) -> Position:
    """An end-of-game position: ``{name: (["A-B", ...], ["A-E", ...])}`` in seat order.

    A track spec may carry a suffix ``#1`` for the second track of a double route.
    """
    out = []
    for name, (routes, tickets) in players.items():
        idx = []
        for spec in routes:
            base, _, nth = spec.partition("#")
            idx.append(track(rs, base, int(nth or 0)))
        out.append(
            PlayerPosition(
                name=name, routes=tuple(idx), tickets=tuple(ticket(rs, t) for t in tickets)
            )
        )
    return Position(players=tuple(out))


def score(rs: Ruleset, players: Mapping[str, tuple[Sequence[str], Sequence[str]]]) -> Scoresheet:
    """Score a position written as for :func:`position`."""
    return score_position(rs, position(rs, players))


# -- chance and states ----------------------------------------------------------------------


def full_order(pool: Sequence[int], top: Sequence[int]) -> tuple[int, ...]:
    """A permutation of ``pool`` that starts with ``top`` (the rest in pool order)."""
    rest = Counter(pool)
    rest.subtract(top)
    assert all(n >= 0 for n in rest.values()), "the top cards are not all in the pool"
    tail = []
    for x in pool:
        if rest[x] > 0:
            tail.append(x)
            rest[x] -= 1
    return (*top, *tail)


class ScriptedChance:
    """Shuffle outcomes chosen by the test: the given cards on top, the rest in pool order.

    ``train`` and ``tickets`` are the tops of the setup shuffles; ``reshuffles`` gives
    the top of each later reshuffle of the discard pile, in turn.
    """

    def __init__(
        self,
        train: Sequence[int] = (),
        tickets: Sequence[int] = (),
        reshuffles: Sequence[Sequence[int]] = (),
    ) -> None:
        self.tops = {"train": list(train), "tickets": list(tickets)}
        self.reshuffles = [list(top) for top in reshuffles]

    def shuffle(self, pile: str, reason: str, items: Sequence[int]) -> tuple[int, ...]:
        if reason == "reshuffle":
            top = self.reshuffles.pop(0) if self.reshuffles else []
            return full_order(sorted(items), top)
        return full_order(sorted(items), self.tops.get(pile, []))


def keep_all_opening(rs: Ruleset, state: GameState) -> GameState:
    """Every player keeps all the opening tickets offered."""
    while state.phase is Phase.OPENING_TICKETS:
        offer = state.offers[state.current]
        state = apply(rs, state, KeepTickets(tickets=tuple(rs.ticket_ids[t] for t in offer)))
    return state


def started(
    rs: Ruleset, players: int = 2, seed: int = 1, start_player: int = 0, chance: Any = None
) -> GameState:
    """A new game after every player kept all opening tickets: the first turn."""
    if chance is not None:
        state = new_game(rs, players, chance=chance, start_player=start_player)
    else:
        state = new_game(rs, players, seed=seed, start_player=start_player)
    return keep_all_opening(rs, state)


def with_player(state: GameState, seat: int, **changes: Any) -> GameState:
    """The state with some fields of one player changed."""
    players = list(state.players)
    players[seat] = evolve(players[seat], **changes)
    return evolve(state, players=tuple(players))


def arrange(
    state: GameState,
    *,
    deck: Sequence[int] | None = None,
    discard: tuple[int, ...] | None = None,
    display: Sequence[int] | None = None,
    **changes: Any,
) -> GameState:
    """The state with the card piles set: ``deck`` is a list of cards, top first."""
    if deck is not None:
        changes["deck"] = tuple(deck)
        changes["deck_pos"] = 0
    if discard is not None:
        changes["discard"] = tuple(discard)
    if display is not None:
        changes["display"] = tuple(display)
    return evolve(state, **changes)


def claimed(rs: Ruleset, state: GameState, owners: Mapping[int, int]) -> GameState:
    """The state with tracks (by index) owned by seats, without any other bookkeeping
    than removing them from the free lists (parallels are left as they are)."""
    own = list(state.owners)
    for r, seat in owners.items():
        own[r] = seat
    free = tuple(tuple(r for r in cls if r not in owners) for cls in state.free)
    return evolve(state, owners=tuple(own), free=free)


def deep_copy(state: GameState) -> GameState:
    """An independent copy of a state, made through its JSON form."""
    return state_from_json(copy.deepcopy(state_to_json(state)))


def assert_illegal(rs: Ruleset, state: GameState, action: Action, rule: str) -> IllegalActionError:
    """``action`` is rejected citing ``rule``, the state is unchanged and it is not listed."""
    before = deep_copy(state)
    before_json = state_to_json(state)
    events: list[Event] = []
    with pytest.raises(IllegalActionError) as info:
        apply(rs, state, action, events=events)
    assert info.value.rule == rule, f"expected rule {rule}, got {info.value.rule}: {info.value}"
    assert state == before
    assert state_to_json(state) == before_json
    assert events == []
    assert action not in legal_actions(rs, state)
    assert action not in list(legal_actions(rs, state))
    return info.value


def step(rs: Ruleset, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply a (listed) action and return the new state and its events."""
    assert action in legal_actions(rs, state), f"{action!r} is not listed"
    events: list[Event] = []
    return apply(rs, state, action, events=events), events


def events_of(events: Iterable[Event], kind: type) -> list[Any]:
    """The events of one class."""
    return [e for e in events if isinstance(e, kind)]


# -- counting ------------------------------------------------------------------------------


def card_totals(state: GameState) -> tuple[int, ...]:
    """Card counts over hands, deck remainder, discard pile, display and tunnel reveal."""
    counts = [0] * NUM_KINDS
    for p in state.players:
        for k in range(NUM_KINDS):
            counts[k] += p.hand[k]
    for c in state.deck[state.deck_pos :]:
        counts[c] += 1
    for k in range(NUM_KINDS):
        counts[k] += state.discard[k]
    for c in state.display:
        if c >= 0:
            counts[c] += 1
    if state.tunnel is not None:
        for c in state.tunnel.revealed:
            counts[c] += 1
    return tuple(counts)


def hand_name(counts: tuple[int, ...]) -> str:
    """Readable card counts (for assertion messages)."""
    return ", ".join(f"{n} {CARD_NAMES[k]}" for k, n in enumerate(counts) if n) or "nothing"


# -- random play ---------------------------------------------------------------------------


def play_random(
    rs: Ruleset,
    players: int,
    seed: int,
    choice_seed: int,
    *,
    max_decisions: int = 5000,
    visit: Callable[[GameState, Any], None] | None = None,
) -> tuple[GameState, int]:
    """Play uniformly random legal actions until the game ends.

    ``visit(state, legal)`` is called before every decision. Returns the final state and
    the number of decisions; fails if the game has not ended within ``max_decisions``.
    """
    chooser = random.Random(choice_seed)
    state = new_game(rs, players, seed=seed)
    decisions = 0
    while not state.is_over:
        legal = legal_actions(rs, state)
        if visit is not None:
            visit(state, legal)
        assert len(legal) > 0, "no legal action before the end of the game"
        state = apply(rs, state, legal[chooser.randrange(len(legal))])
        decisions += 1
        assert decisions <= max_decisions, f"game did not end within {max_decisions} decisions"
    return state, decisions


def random_game_states(
    rs: Ruleset, players: int, seed: int, choice_seed: int
) -> tuple[list[GameState], list[Action], list[list[Event]]]:
    """Play a random game and return every state, every action and every event list."""
    chooser = random.Random(choice_seed)
    events: list[Event] = []
    state = new_game(rs, players, seed=seed, events=events)
    states, actions, logs = [state], [], [events]
    while not state.is_over:
        legal = legal_actions(rs, state)
        action = legal[chooser.randrange(len(legal))]
        events = []
        state = apply(rs, state, action, events=events)
        states.append(state)
        actions.append(action)
        logs.append(events)
        assert len(states) < 5000
    return states, actions, logs


def empty_player(state: GameState, seat: int) -> PlayerState:
    """A player of ``state`` holding no cards."""
    return evolve(state.players[seat], hand=(0,) * NUM_KINDS)


def perturb_secrets(rs: Ruleset, state: GameState, seat: int, chooser: random.Random) -> GameState:
    """A state that differs from ``state`` only in what ``seat`` may not know.

    Opponents' hands (same size), kept tickets (same count), ticket offers and drawn
    tickets (same count), the order of the train deck and of the ticket deck, and the
    random generator are all changed.
    """
    n_tickets = len(rs.tickets)

    def other_tickets(count: int) -> tuple[int, ...]:
        return tuple(chooser.randrange(n_tickets) for _ in range(count))

    players = list(state.players)
    for i, p in enumerate(players):
        if i == seat:
            continue
        hand = [0] * NUM_KINDS
        for _ in range(sum(p.hand)):
            hand[chooser.randrange(NUM_KINDS)] += 1
        players[i] = evolve(p, hand=tuple(hand), tickets=other_tickets(len(p.tickets)))
    offers = tuple(
        offer if i == seat else other_tickets(len(offer)) for i, offer in enumerate(state.offers)
    )
    pending = state.pending_tickets
    if state.current != seat:
        pending = other_tickets(len(pending))
    rest = list(state.deck[state.deck_pos :])
    chooser.shuffle(rest)
    ticket_deck = list(state.ticket_deck)
    chooser.shuffle(ticket_deck)
    return evolve(
        state,
        players=tuple(players),
        offers=offers,
        pending_tickets=pending,
        deck=(*state.deck[: state.deck_pos], *rest),
        ticket_deck=tuple(ticket_deck),
        rng=chooser.getrandbits(63),
    )


# -- plugins used by several test files ----------------------------------------------------


class BigBonus:
    """House rule: the longest path is worth 20."""

    @hookimpl(wrapper=True)
    def ttr_parameters(
        self, map_data: MapData, options: Mapping[str, Any]
    ) -> Generator[None, Parameters, Parameters]:
        params = yield
        return evolve(params, longest_path_bonus=20)


THIRD_PARTY = FixtureEdition(
    structure_map(
        map_dict(
            (("A", "B", 2, "gray"), ("B", "C", 3, "red"), ("C", "D", 1, "gray")),
            (("A", "C", 5), ("A", "B", 2), ("B", "C", 3), ("C", "A", 4), ("B", "D", 4)),
            edition="third",
            players=[2, 3],
        )
    ),
    edition_id="third",
    aliases=("Third-Party", "tp"),
)
"""An edition shipped by another distribution, found through a fake entry point."""


class Borderland:
    """A small test edition: border arrows, stations, tunnels, a ferry, country tickets.

    It has no Python for its tickets: the core scores country tickets.
    """

    def __init__(self) -> None:
        self.data = load_map_data(
            (Path(__file__).parent / "fixtures" / "score_borderland.json").read_text("utf-8")
        )

    @hookimpl
    def ttr_edition_info(self) -> EditionInfo:
        return EditionInfo(id="borderland", name="Borderland", aliases=("bl",))

    @hookimpl
    def ttr_map_data(self, options: Mapping[str, Any]) -> MapData:
        return self.data
