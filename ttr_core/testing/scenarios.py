"""Rule tests by hand: a board written in code, states set up in a chosen position, and
one action checked.

The rest of the kit plays random games; this module is for the tests written rule by
rule. [`fixture_ruleset`][] builds a ruleset from a board given as a list of tracks
between letter cities, so that every track and ticket of the test is known (the edition
plugin is [`FixtureEdition`][], which serves any map data). [`started`][] is the
first turn of a game; [`with_player`][], [`arrange`][] and [`claimed`][] move it
into the position a rule needs, and [`ScriptedChance`][] chooses what the shuffles
deal. [`step`][] applies a listed action, and [`assert_illegal`][] checks that an
action is refused citing its rule, changes nothing and is not listed::

    rs = fixture_ruleset()
    state = with_player(started(rs), 0, hand=cards("RRR"))
    claim = ClaimRoute(route=track_id(rs, "A-B"), cards=cards("RR"))
    assert_illegal(rs, state, claim, "CLAIM-1")  # 3 spaces, 2 cards paid

States are frozen, so the helpers return changed copies (made with ``attrs.evolve``); a
position they make need not be reachable in play, and only the fields named change.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, TypeVar

from attrs import evolve

from ttr_core.formats.serialize import state_from_json, state_to_json
from ttr_core.model.actions import Action, KeepTickets
from ttr_core.model.cards import LOCO, NUM_KINDS, card_index
from ttr_core.model.errors import IllegalActionError
from ttr_core.model.events import Event
from ttr_core.model.mapdata import MapData, structure_map
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import Chance, apply, new_game
from ttr_core.play.legal import legal_actions
from ttr_core.plugin import EditionInfo, hookimpl
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position, Scoresheet, score_position
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing.invariants import fail

E = TypeVar("E", bound=Event)

RED: Final = 0
ORANGE: Final = 1
YELLOW: Final = 2
GREEN: Final = 3
BLUE: Final = 4
PINK: Final = 5
BLACK: Final = 6
WHITE: Final = 7
LETTERS: Final[Mapping[str, int]] = {
    "R": RED,
    "O": ORANGE,
    "Y": YELLOW,
    "G": GREEN,
    "B": BLUE,
    "P": PINK,
    "K": BLACK,
    "W": WHITE,
    "L": LOCO,
}
"""Card numbers by letter, as [`cards`][] reads them: ``K`` is black, ``L`` a locomotive."""

BASE_PARAMETERS: Final[dict[str, Any]] = {
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
"""The base game's parameters in the map data format, for boards written in code.

[`map_dict`][] copies them; copy them too (``copy.deepcopy``) before changing any."""

BASIC_ROUTES: Final[tuple[tuple[str, str, int, str], ...]] = (
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
"""The tracks of the letter board of [`fixture_ruleset`][], as (city, city, length,
colour). B-C is a double route of two gray tracks, C-E one of a yellow and a pink track."""

BASIC_TICKETS: Final[tuple[tuple[str, str, int], ...]] = (
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
"""The tickets of the letter board, as (city, city, points)."""

Holdings = Mapping[str, tuple[Sequence[str], Sequence[str]]]
"""End-of-game holdings by player name, in seat order: ``(["A-B", ...], ["A-E", ...])``,
tracks then tickets, each named by its cities (see [`position`][])."""


# -- cards ---------------------------------------------------------------------------------


def cards(spec: str = "", **named: int) -> tuple[int, ...]:
    """Nine card counts from letters and names: ``cards("RRL")``, ``cards(red=2)``, or both.

    :raises KeyError: a letter that is not one of [`LETTERS`][].
    :raises ValueError: an unknown card name.
    """
    counts = [0] * NUM_KINDS
    for letter in spec:
        counts[LETTERS[letter]] += 1
    for name, n in named.items():
        counts[card_index(name)] += n
    return tuple(counts)


def card_list(spec: str) -> list[int]:
    """Card numbers from letters, in order: ``card_list("LLR")`` is ``[8, 8, 0]``."""
    return [LETTERS[letter] for letter in spec]


# -- boards written in code ----------------------------------------------------------------


def map_dict(
    routes: Iterable[tuple[str, str, int, str]],
    tickets: Iterable[tuple[str, str, int]] = (),
    *,
    cities: Iterable[str] = (),
    edition: str = "fixture",
    **parameters: Any,
) -> dict[str, Any]:
    """Map data in the documented JSON form for a board given as a list of tracks.

    Tracks get ids 1, 2, ... in order, and a second track between the same two cities
    becomes the parallel of the first. The cities are those of the tracks, the tickets
    and ``cities``. Keyword arguments replace entries of [`BASE_PARAMETERS`][].
    """
    names = set(cities)
    out_routes: list[dict[str, Any]] = []
    first_of_pair: dict[frozenset[str], dict[str, Any]] = {}
    for i, (a, b, length, color) in enumerate(routes, start=1):
        names.update((a, b))
        track: dict[str, Any] = {"id": i, "cities": [a, b], "length": length, "color": color}
        other = first_of_pair.get(frozenset((a, b)))
        if other is not None:
            other["parallel"] = i
            track["parallel"] = other["id"]
        else:
            first_of_pair[frozenset((a, b))] = track
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
    """An edition plugin that serves the map data it is given, whatever the options.

    Pass it to [`Ruleset`][ttr_core.ruleset.ruleset.Ruleset] like an installed edition's
    plugin: ``Ruleset(FixtureEdition(data))``.
    """

    def __init__(
        self,
        data: MapData,
        edition_id: str = "fixture",
        aliases: tuple[str, ...] = ("fx",),
        name: str = "Fixture edition",
    ) -> None:
        self.data = data
        self.info = EditionInfo(id=edition_id, name=name, aliases=aliases, rules_version="1")

    @hookimpl
    def ttr_edition_info(self) -> EditionInfo:
        """The edition's id, name and aliases."""
        return self.info

    @hookimpl
    def ttr_map_data(self, options: Mapping[str, Any]) -> MapData:
        """The map data given, for any options."""
        return self.data


def fixture_ruleset(
    routes: Iterable[tuple[str, str, int, str]] = BASIC_ROUTES,
    tickets: Iterable[tuple[str, str, int]] = BASIC_TICKETS,
    *,
    plugins: Iterable[object] = (),
    **parameters: Any,
) -> Ruleset:
    """A ruleset of a [`FixtureEdition`][] on a board given as for [`map_dict`][]
    (by default the letter board of [`BASIC_ROUTES`][] and [`BASIC_TICKETS`][])."""
    data = structure_map(map_dict(routes, tickets, **parameters))
    return Ruleset(FixtureEdition(data), plugins=plugins)


# -- naming tracks, tickets and positions ---------------------------------------------------


def track_indices(rs: Ruleset, a: str, b: str) -> list[int]:
    """Indices of the tracks between two cities, in map order.

    :raises AssertionError: there is no track between them.
    """
    ix = index_of(rs)
    ca, cb = ix.city_index[a], ix.city_index[b]
    found = [r for r in range(len(ix.routes)) if {ix.route_a[r], ix.route_b[r]} == {ca, cb}]
    if not found:
        fail(f"no track between {a} and {b}")
    return found


def track(rs: Ruleset, spec: str, nth: int = 0) -> int:
    """Index of the track named ``"A-B"`` (``nth=1`` for the second of a double route)."""
    a, b = spec.split("-")
    return track_indices(rs, a, b)[nth]


def track_id(rs: Ruleset, spec: str, nth: int = 0) -> int:
    """Id of the track named ``"A-B"``, as actions name it."""
    return index_of(rs).route_ids[track(rs, spec, nth)]


def ticket(rs: Ruleset, spec: str) -> int:
    """Index of the ticket named ``"A-B"`` (a ticket from A to B first, else from B to A).

    :raises AssertionError: there is no such ticket.
    """
    a, b = spec.split("-")
    for ends in ((a, b), (b, a)):
        for i, t in enumerate(index_of(rs).tickets):
            if (t.a, t.b) == ends:
                return i
    fail(f"no ticket {spec}")


def position(rs: Ruleset, players: Holdings) -> Position:
    """The end-of-game position of the holdings, e.g. ``{"Ann": (["A-B"], ["A-E"])}``.

    A track name may end in ``#1`` for the second track of a double route.
    """
    out = []
    for name, (routes, tickets) in players.items():
        indices = []
        for spec in routes:
            base, _, nth = spec.partition("#")
            indices.append(track(rs, base, int(nth or 0)))
        out.append(
            PlayerPosition(
                name=name, routes=tuple(indices), tickets=tuple(ticket(rs, t) for t in tickets)
            )
        )
    return Position(players=tuple(out))


def score(rs: Ruleset, players: Holdings) -> Scoresheet:
    """The score sheet of the holdings, written as for [`position`][]."""
    return score_position(rs, position(rs, players))


# -- chance and states ---------------------------------------------------------------------


def full_order(pool: Sequence[int], top: Sequence[int]) -> tuple[int, ...]:
    """A permutation of ``pool`` that starts with ``top``, the rest in pool order.

    :raises AssertionError: ``top`` holds a card that is not left in the pool.
    """
    rest = Counter(pool)
    rest.subtract(top)
    if any(n < 0 for n in rest.values()):
        fail(f"the top cards {list(top)} are not all in the pool")
    tail = []
    for x in pool:
        if rest[x] > 0:
            tail.append(x)
            rest[x] -= 1
    return (*top, *tail)


class ScriptedChance:
    """Shuffles chosen by the test: the given cards on top, the rest in sorted order.

    ``train`` is the top of the train deck as set up (card numbers), ``tickets`` the top
    of the regular ticket deck (ticket ids); ``reshuffles`` gives the top of each later
    reshuffle of the discard pile, in turn. Any other shuffle, such as that of the long
    tickets of an edition that deals them apart, comes out sorted. Pass it as
    ``new_game(rs, players, chance=ScriptedChance(...))``.
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
        """The order of ``items`` after a shuffle of ``pile``."""
        if reason == "reshuffle":
            top = self.reshuffles.pop(0) if self.reshuffles else []
        else:
            top = self.tops.get(pile, []) if reason == "setup" else []
        return full_order(sorted(items), top)


def keep_all_opening(rs: Ruleset, state: GameState) -> GameState:
    """The state after every player kept all the opening tickets offered."""
    ids = index_of(rs).ticket_ids
    while state.phase is Phase.OPENING_TICKETS:
        offer = state.offers[state.current]
        state = apply(rs, state, KeepTickets(tickets=tuple(ids[t] for t in offer)))
    return state


def started(
    rs: Ruleset,
    players: int = 2,
    seed: int = 1,
    start_player: int = 0,
    chance: Chance | None = None,
) -> GameState:
    """The first turn of a game set up with ``seed`` (or ``chance``), once every player
    kept all the opening tickets offered."""
    if chance is not None:
        state = new_game(rs, players, chance=chance, start_player=start_player)
    else:
        state = new_game(rs, players, seed=seed, start_player=start_player)
    return keep_all_opening(rs, state)


def with_player(state: GameState, seat: int, **changes: Any) -> GameState:
    """The state with fields of one player changed, e.g. ``hand=cards("RRL")``."""
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
    """The state with its card piles set, and any other fields changed.

    ``deck`` is the cards left to draw, top first; ``discard`` nine counts; ``display``
    the face-up cards.
    """
    if deck is not None:
        changes["deck"] = tuple(deck)
        changes["deck_pos"] = 0
    if discard is not None:
        changes["discard"] = tuple(discard)
    if display is not None:
        changes["display"] = tuple(display)
    return evolve(state, **changes)


def claimed(rs: Ruleset, state: GameState, owners: Mapping[int, int]) -> GameState:
    """The state with tracks (by index) owned by seats and taken off the free lists.

    Nothing else is booked: trains, scores and the parallels of double routes stay as
    they are.
    """
    own = list(state.owners)
    for r, seat in owners.items():
        own[r] = seat
    free = tuple(tuple(r for r in cls if r not in owners) for cls in state.free)
    return evolve(state, owners=tuple(own), free=free)


# -- one action ----------------------------------------------------------------------------


def assert_illegal(rs: Ruleset, state: GameState, action: Action, rule: str) -> IllegalActionError:
    """Check that ``apply`` refuses ``action`` citing ``rule``, with no event and no change
    to the state, and that the legal actions do not list it; return the error.

    :raises AssertionError: any of these does not hold.
    """
    before = state_from_json(copy.deepcopy(state_to_json(state)))
    before_json = state_to_json(state)
    events: list[Event] = []
    try:
        apply(rs, state, action, events=events)
    except IllegalActionError as exc:
        error = exc
    else:
        fail(f"{action!r} was accepted; expected a refusal citing {rule}")
    if error.rule != rule:
        fail(f"expected rule {rule}, got {error.rule}: {error}")
    if state != before or state_to_json(state) != before_json:
        fail(f"refusing {action!r} changed the state")
    if events:
        fail(f"refusing {action!r} left events: {events!r}")
    legal = legal_actions(rs, state)
    if action in legal or action in list(legal):
        fail(f"{action!r} is refused but listed as legal")
    return error


def step(rs: Ruleset, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply a listed action; return the new state and the events it caused.

    :raises AssertionError: the legal actions do not list ``action``.
    """
    if action not in legal_actions(rs, state):
        fail(f"{action!r} is not listed")
    events: list[Event] = []
    return apply(rs, state, action, events=events), events


def events_of(events: Iterable[Event], kind: type[E]) -> list[E]:
    """The events of one class, in order."""
    return [e for e in events if isinstance(e, kind)]
