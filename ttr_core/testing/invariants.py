"""The checks the kit runs: each raises `AssertionError` saying what is wrong.

They hold for every edition, whatever its map and parameters:

* cards: every train card is in a hand, the deck, the discard pile, the display or a
  pending tunnel reveal, kind by kind as the ruleset's deck declares;
* trains and stations: what a player has left plus what they placed is what they got;
* the score track equals the points of the routes claimed;
* legal actions: never none before the end, each listed one applies, and any action is accepted by
  ``apply`` exactly when it is ``in`` the legal actions; a rejected one raises
  [`IllegalActionError`][ttr_core.model.errors.IllegalActionError] with a rule id and changes
  nothing;
* views show the viewer's own secrets and nothing else secret;
* records, states and positions survive their JSON forms and replay to equal games.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import attrs
from attrs import evolve

from ttr_core.formats.position import position_to_json, read_position
from ttr_core.formats.serialize import state_from_json, state_to_json
from ttr_core.model import events as ev
from ttr_core.model.actions import Action, Pass
from ttr_core.model.cards import CARD_NAMES, NUM_KINDS
from ttr_core.model.errors import IllegalActionError
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import apply
from ttr_core.play.game import Game
from ttr_core.play.legal import LegalActions
from ttr_core.play.records import GameRecord
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import Position, position_of, score_position, scoresheet_json
from ttr_core.rules.tickets import pending_for
from ttr_core.rules.views import PlayerView, PublicPlayer, redact, view_of
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing.golden import differences

Pick = Callable[[int], int]
"""A source of choices: ``pick(n)`` returns a number in ``range(n)``."""

RULE_ID = re.compile(r"[A-Z]+-[A-Z]?[1-9][0-9]*")
"""The form of a rule id, e.g. ``DRAW-4`` or ``EX-U1``."""

VIEW_FIELDS = frozenset(
    {
        "edition",
        "seat",
        "phase",
        "current",
        "hand",
        "tickets",
        "offered",
        "display",
        "deck_size",
        "discard",
        "ticket_deck_size",
        "owners",
        "station_owners",
        "players",
        "final_trigger",
        "turn",
        "tunnel",
        "choice",
    }
)
"""The fields of a [`PlayerView`][ttr_core.rules.views.PlayerView] that were reviewed for
secrets."""

PUBLIC_PLAYER_FIELDS = frozenset({"seat", "hand_size", "trains", "tickets", "score", "stations"})
"""The fields of a [`PublicPlayer`][ttr_core.rules.views.PublicPlayer] (all public counts)."""

SECRET_EVENT_FIELDS: dict[type[ev.Event], tuple[str, ...]] = {
    ev.CardsDealt: ("cards",),
    ev.BlindDrawn: ("card",),
    ev.TicketsDealt: ("tickets",),
    ev.TicketsKept: ("kept", "returned"),
}
"""Per event class, the fields only the event's own player may see."""


def fail(message: str) -> NoReturn:
    """Raise the `AssertionError` every kit check raises."""
    raise AssertionError(message)


# -- the state ---------------------------------------------------------------------------


def card_locations(state: GameState) -> dict[str, list[int]]:
    """Card counts per kind in each place a card can be."""
    places: dict[str, list[int]] = {
        "hands": [0] * NUM_KINDS,
        "deck": [0] * NUM_KINDS,
        "discard": list(state.discard),
        "display": [0] * NUM_KINDS,
        "tunnel": [0] * NUM_KINDS,
    }
    hands = places["hands"]
    for p in state.players:
        for k in range(NUM_KINDS):
            hands[k] += p.hand[k]
    for c in state.deck[state.deck_pos :]:
        places["deck"][c] += 1
    for c in state.display:
        if c >= 0:
            places["display"][c] += 1
    if state.tunnel is not None:
        for c in state.tunnel.revealed:
            places["tunnel"][c] += 1
    return places


def card_totals(state: GameState) -> tuple[int, ...]:
    """Card counts per kind over every place a card can be (see `card_locations`):
    in a game they are the counts of the edition's deck at every step."""
    return tuple(map(sum, zip(*card_locations(state).values(), strict=True)))


def _check_cards(rs: Ruleset, state: GameState) -> None:
    ix = index_of(rs)
    n = rs.params.display.size
    if len(state.display) != n:
        fail(f"cards: the display has {len(state.display)} slots, the edition {n}")
    if any(not -1 <= c < NUM_KINDS for c in state.display):
        fail(f"cards: the display holds something that is not a card: {state.display}")
    if not 0 <= state.deck_pos <= len(state.deck):
        fail(f"cards: deck position {state.deck_pos} is outside the deck of {len(state.deck)}")
    if any(not 0 <= c < NUM_KINDS for c in state.deck):
        fail("cards: the deck holds something that is not a card")
    for seat, p in enumerate(state.players):
        if len(p.hand) != NUM_KINDS or min(p.hand) < 0:
            fail(f"cards: seat {seat} holds an impossible hand {p.hand}")
    if len(state.discard) != NUM_KINDS or min(state.discard) < 0:
        fail(f"cards: impossible discard pile {state.discard}")
    places = card_locations(state)
    for k in range(NUM_KINDS):
        total = sum(counts[k] for counts in places.values())
        if total != ix.deck_counts[k]:
            where = ", ".join(f"{name} {counts[k]}" for name, counts in places.items())
            fail(
                f"cards: {total} {CARD_NAMES[k]} cards are in play ({where}), "
                f"the edition's deck has {ix.deck_counts[k]}"
            )


def _check_holdings(rs: Ruleset, state: GameState) -> None:
    ix = index_of(rs)
    params = rs.params
    n = len(state.players)
    if len(state.owners) != len(ix.routes):
        fail(f"tracks: {len(state.owners)} owners for {len(ix.routes)} tracks")
    owned: list[list[int]] = [[] for _ in range(n)]
    for r, seat in enumerate(state.owners):
        if seat >= n or seat < -1:
            fail(f"tracks: {rs.route_name(r)} is owned by seat {seat}")
        if seat >= 0:
            owned[seat].append(r)
    placed = 0
    for seat, p in enumerate(state.players):
        length = sum(ix.route_len[r] for r in owned[seat])
        placed += length
        if p.trains < 0:
            fail(f"trains: seat {seat} has {p.trains} trains")
        if p.trains + length != params.trains:
            fail(
                f"trains: seat {seat} has {p.trains} trains left and {length} on the board, "
                f"but started with {params.trains}"
            )
        points = sum(ix.route_points[r] for r in owned[seat])
        if p.score != points:
            fail(
                f"score: seat {seat}'s score track shows {p.score}, "
                f"the routes claimed are worth {points}"
            )
    left = sum(p.trains for p in state.players)
    if left + placed != params.trains * n:
        fail(f"trains: {left} left + {placed} placed != {params.trains} x {n} players")
    for r, twin in enumerate(ix.route_twin):
        if twin < 0:
            continue
        a, b = state.owners[r], state.owners[twin]
        if a >= 0 and b >= 0:
            if a == b:
                fail(f"double routes: seat {a} owns both tracks of {rs.route_name(r)}")
            if n < ix.double_open_min:
                fail(
                    f"double routes: both tracks of {rs.route_name(r)} are claimed with "
                    f"{n} players (both open from {ix.double_open_min})"
                )
    if params.stations:
        if len(state.station_owners) != len(ix.city_ids):
            fail("stations: one owner per city is expected")
        built = Counter(o for o in state.station_owners if o >= 0)
        for seat, p in enumerate(state.players):
            if p.stations < 0 or p.stations + built[seat] != params.stations:
                fail(
                    f"stations: seat {seat} has {p.stations} stations left and "
                    f"{built[seat]} built, but started with {params.stations}"
                )
    elif any(o >= 0 for o in state.station_owners):
        fail("stations: a station was built in an edition without stations")


def _check_tickets(rs: Ruleset, state: GameState) -> None:
    ix = index_of(rs)
    places: list[tuple[str, Sequence[int]]] = [("ticket deck", state.ticket_deck)]
    places.append(("drawn tickets", state.pending_tickets))
    for seat, p in enumerate(state.players):
        places.append((f"seat {seat}'s tickets", p.tickets))
    for seat, offer in enumerate(state.offers):
        places.append((f"seat {seat}'s opening offer", offer))
    seen: dict[int, str] = {}
    for name, tickets in places:
        for t in tickets:
            if not 0 <= t < len(ix.tickets):
                fail(f"tickets: {name} holds ticket index {t}, which does not exist")
            if t in seen:
                fail(f"tickets: {rs.ticket_name(t)} is both in {seen[t]} and in {name}")
            seen[t] = name
    deals = (rs.params.opening_tickets, rs.params.ticket_draw)
    kept_whole = not ix.long_tickets and all(d.returned == "bottom" for d in deals)
    if kept_whole and len(seen) != len(ix.tickets):
        missing = sorted(set(range(len(ix.tickets))) - set(seen))
        names = ", ".join(rs.ticket_name(t) for t in missing[:5])
        fail(f"tickets: {len(missing)} tickets are nowhere: {names}")


def _check_phase(rs: Ruleset, state: GameState) -> None:
    n = len(state.players)
    if not 0 <= state.current < n:
        fail(f"phase: seat {state.current} is to decide in a {n}-player game")
    phase = state.phase
    if (phase is Phase.TUNNEL) != (state.tunnel is not None):
        fail(f"phase: {phase.name} with tunnel attempt {state.tunnel!r}")
    if (phase is Phase.CHOOSE_CARDS) != (state.choice is not None):
        fail(f"phase: {phase.name} with card choice {state.choice!r}")
    c = state.choice
    if c is not None:
        hand = state.players[state.current].hand
        if any(c.chosen[k] > hand[k] for k in range(len(hand))):
            fail(f"phase: chosen cards {c.chosen} are not all in the hand {hand}")
        if not sum(c.chosen) < c.size:
            fail(f"phase: {sum(c.chosen)} cards chosen for a payment of {c.size}")
    if phase is not Phase.KEEP_TICKETS and state.pending_tickets:
        fail(f"phase: drawn tickets are waiting in phase {phase.name}")
    if phase is Phase.KEEP_TICKETS and not state.pending_tickets:
        fail("phase: choosing drawn tickets, but none were drawn")
    if (phase is Phase.GAME_OVER) != bool(state.ended_by):
        fail(f"phase: {phase.name} with ended_by {state.ended_by!r}")
    if state.ended_by not in ("", "final_round", "deadlock"):
        fail(f"phase: unknown reason for the end {state.ended_by!r}")


def check_state(rs: Ruleset, state: GameState) -> None:
    """Check the conservation laws and bookkeeping of one state."""
    _check_phase(rs, state)
    _check_cards(rs, state)
    _check_holdings(rs, state)
    _check_tickets(rs, state)


# -- actions -----------------------------------------------------------------------------


def check_legal_actions(
    rs: Ruleset,
    state: GameState,
    legal: LegalActions | None = None,
    *,
    pick: Pick | None = None,
    limit: int = 40,
) -> int:
    """Check the legal actions of ``state``; return how many listed actions were applied.

    There are none exactly when the game is over; a pass is listed only alone; every
    listed action (or ``limit`` of them, chosen with ``pick``, plus the first and the
    last) is ``in`` the list and applies without error.
    """
    legal = LegalActions(rs, state) if legal is None else legal
    n = len(legal)
    if state.is_over:
        if n:
            fail(f"legal actions: {n} listed after the end of the game")
        return 0
    if n == 0:
        fail(f"legal actions: none in phase {state.phase.name} before the end of the game")
    if n <= limit or pick is None:
        indices = list(range(min(n, limit)))
    else:
        indices = sorted({0, n - 1, *(pick(n) for _ in range(limit))})
    if n <= limit:
        listed = list(legal)
        if len(listed) != n:
            fail(f"legal actions: len() says {n}, iteration gives {len(listed)}")
        if len(set(listed)) != n:
            doubles = [a for a, c in Counter(listed).items() if c > 1]
            fail(f"legal actions: listed twice: {doubles[:3]}")
    for i in indices:
        action = legal[i]
        if not isinstance(action, Action):
            fail(f"legal actions: item {i} is not an action: {action!r}")
        if isinstance(action, Pass) and n != 1:
            fail("legal actions: a pass is listed beside other actions")
        if action not in legal:
            fail(f"legal actions: {action!r} is listed at {i} but not 'in' the legal actions")
        try:
            apply(rs, state, action)
        except IllegalActionError as exc:
            fail(f"legal actions: {action!r} is listed but apply rejects it: {exc}")
    return len(indices)


def check_action(
    rs: Ruleset, state: GameState, action: Action, legal: LegalActions | None = None
) -> GameState | None:
    """Apply any action: accepted exactly when listed; rejected with a rule id, no events.

    Returns the new state, or None when the action was (rightly) rejected. The state
    itself cannot change (it is immutable); `check_unchanged` confirms it.
    """
    outcome = check_action_outcome(rs, state, action, legal)
    return None if isinstance(outcome, IllegalActionError) else outcome


def check_action_outcome(
    rs: Ruleset, state: GameState, action: Action, legal: LegalActions | None = None
) -> GameState | IllegalActionError:
    """The checks of `check_action`, returning the new state of an accepted action or
    the error that (rightly) rejected one, to tell which rule refused it."""
    legal = LegalActions(rs, state) if legal is None else legal
    listed = action in legal
    events: list[ev.Event] = []
    try:
        new = apply(rs, state, action, events=events)
    except IllegalActionError as exc:
        if listed:
            fail(f"{action!r} is a legal action, but apply rejects it: {exc}")
        if not isinstance(exc.rule, str) or not RULE_ID.fullmatch(exc.rule):
            fail(f"{action!r} was rejected without a rule id (rule {exc.rule!r}): {exc}")
        if not str(exc):
            fail(f"{action!r} was rejected without a message")
        if events:
            fail(f"{action!r} was rejected but left events behind: {events}")
        return exc
    except Exception as exc:
        fail(f"{action!r} raised {type(exc).__name__} instead of IllegalActionError: {exc}")
    if not listed:
        fail(f"{action!r} is not a legal action, but apply accepts it")
    return new


def check_unchanged(before: dict[str, Any], state: GameState, what: str = "") -> None:
    """Check that ``state`` still has the JSON form ``before``."""
    after = state_to_json(state)
    if after != before:
        keys = sorted(k for k in after if after[k] != before.get(k))
        fail(f"state changed{what}: {', '.join(keys)}")


# -- views and events --------------------------------------------------------------------


def _shuffle(items: Sequence[int], pick: Pick) -> list[int]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = pick(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def perturb_secrets(rs: Ruleset, state: GameState, seat: int, pick: Pick) -> GameState:
    """A state that differs from ``state`` only in what ``seat`` may not know.

    Opponents' hands (same sizes), kept tickets, opening offers and drawn tickets (same
    counts), the order of both decks and the random generator are all changed.
    """
    n_tickets = len(rs.map.tickets)

    def others(count: int) -> tuple[int, ...]:
        return tuple(pick(n_tickets) for _ in range(count))

    players = list(state.players)
    for i, p in enumerate(players):
        if i == seat:
            continue
        hand = [0] * NUM_KINDS
        for _ in range(sum(p.hand)):
            hand[pick(NUM_KINDS)] += 1
        players[i] = evolve(p, hand=tuple(hand), tickets=others(len(p.tickets)))
    offers = tuple(o if i == seat else others(len(o)) for i, o in enumerate(state.offers))
    pending = state.pending_tickets if state.current == seat else others(len(state.pending_tickets))
    rest = _shuffle(state.deck[state.deck_pos :], pick)
    return evolve(
        state,
        players=tuple(players),
        offers=offers,
        pending_tickets=pending,
        deck=(*state.deck[: state.deck_pos], *rest),
        ticket_deck=tuple(_shuffle(state.ticket_deck, pick)),
        rng=pick(2**31) * 2**31 + pick(2**31),
    )


def check_view(rs: Ruleset, state: GameState, seat: int, pick: Pick) -> PlayerView:
    """Check what ``seat`` sees: its own secrets, the public facts, nothing else."""
    view = view_of(rs, state, seat)
    fields = {f.name for f in attrs.fields(PlayerView)}
    if fields != VIEW_FIELDS:
        fail(
            f"views: PlayerView fields changed ({sorted(fields ^ VIEW_FIELDS)}); check that "
            "none shows a secret, then update VIEW_FIELDS"
        )
    if {f.name for f in attrs.fields(PublicPlayer)} != PUBLIC_PLAYER_FIELDS:
        fail("views: PublicPlayer fields changed; check that none shows a secret")
    me = state.players[seat]
    ix = index_of(rs)
    ids = ix.ticket_ids
    expected = {
        "seat": seat,
        "phase": state.phase,
        "current": state.current,
        "hand": me.hand,
        "tickets": tuple(ids[t] for t in me.tickets),
        "offered": tuple(ids[t] for t in pending_for(state, seat)),
        "display": state.display,
        "deck_size": len(state.deck) - state.deck_pos,
        "discard": state.discard,
        "ticket_deck_size": len(state.ticket_deck),
        "owners": state.owners,
        "station_owners": state.station_owners,
    }
    for name, value in expected.items():
        if getattr(view, name) != value:
            fail(f"views: seat {seat} sees {name}={getattr(view, name)!r}, expected {value!r}")
    c = state.choice
    shown = view.choice
    if (c is None) != (shown is None) or (
        c is not None
        and shown is not None
        and (shown.route, shown.groups, shown.size, shown.chosen)
        != (ix.route_ids[c.route], c.groups, c.size, c.chosen)
    ):
        fail(f"views: seat {seat} sees card choice {shown!r} for {c!r}")
    for i, (pub, p) in enumerate(zip(view.players, state.players, strict=True)):
        counts = (pub.seat, pub.hand_size, pub.trains, pub.tickets, pub.score, pub.stations)
        if counts != (i, sum(p.hand), p.trains, len(p.tickets), p.score, p.stations):
            fail(f"views: seat {seat} sees wrong public counts for seat {i}: {pub!r}")
    hidden = perturb_secrets(rs, state, seat, pick)
    other = view_of(rs, hidden, seat)
    if other != view:
        changed = [f for f in sorted(VIEW_FIELDS) if getattr(other, f) != getattr(view, f)]
        fail(f"views: seat {seat}'s view changes with others' secrets: {', '.join(changed)}")
    return view


def check_events_redacted(events: Sequence[ev.Event], players: int) -> None:
    """Check that [`redact`][ttr_core.rules.views.redact] hides each event's secrets from others."""
    for event in events:
        for seat in range(players):
            shown = redact(event, seat)
            if type(shown) is not type(event):
                fail(f"events: redacting {event!r} changed its kind")
            if isinstance(event, ev.Shuffled):
                if getattr(shown, "order", ()):
                    fail(f"events: a shuffle outcome is visible to seat {seat}")
                continue
            secret = SECRET_EVENT_FIELDS.get(type(event), ())
            owner = getattr(event, "player", None)
            for name in secret:
                value, original = getattr(shown, name), getattr(event, name)
                if owner == seat:
                    if value != original:
                        fail(f"events: seat {seat} cannot see its own {name} in {event!r}")
                elif isinstance(original, tuple):
                    if len(value) != len(original) or any(v != -1 for v in value):
                        fail(f"events: seat {seat} sees {name} of {event!r}")
                elif value != -1:
                    fail(f"events: seat {seat} sees {name} of {event!r}")
            for f in attrs.fields(type(event)):
                if f.name not in secret and getattr(shown, f.name) != getattr(event, f.name):
                    fail(f"events: redacting {event!r} hid the public field {f.name}")


# -- records and the end -----------------------------------------------------------------


def _first_difference(a: Sequence[Any], b: Sequence[Any]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"entry {i}: {x!r} != {y!r}"
    return f"lengths {len(a)} != {len(b)}"


def _state_difference(a: GameState, b: GameState) -> str:
    return ", ".join(
        f.name for f in attrs.fields(GameState) if getattr(a, f.name) != getattr(b, f.name)
    )


def check_records(game: Game) -> None:
    """Check that the game saves, loads and replays (with and without its seed) equal."""
    text = game.save()
    if text != game.save():
        fail("records: saving the same game twice gave different text")
    loaded = Game.load(text)
    if loaded.state != game.state:
        fail(f"records: the loaded game differs in {_state_difference(loaded.state, game.state)}")
    if loaded.log != game.log:
        fail(f"records: the loaded log differs at {_first_difference(loaded.log, game.log)}")
    if loaded.names != game.names or loaded.setup != game.setup:
        fail("records: the loaded game has other names or setup events")
    record = game.record()
    if GameRecord.from_json(record.to_json()) != record:
        fail("records: a record does not survive its JSON form")
    seedless = Game.replay(evolve(record, seed=None))
    if evolve(seedless.state, rng=game.state.rng) != game.state:
        diff = _state_difference(seedless.state, game.state)
        fail(f"records: replaying the recorded outcomes (no seed) differs in {diff}")
    raw = json.loads(json.dumps(state_to_json(game.state)))
    if state_from_json(raw) != game.state:
        fail("records: the state does not survive its JSON form")


def check_position(rs: Ruleset, raw: dict[str, Any]) -> dict[str, Any]:
    """Score a position in the ``ttr score`` format; check it and its round trip.

    Returns the score sheet in its JSON form.
    """
    built, parsed = read_position(json.dumps(raw), options=rs.options)
    if built.id != rs.id or built.map_hash != rs.map_hash:
        fail(f"positions: {raw['edition']!r} was read as another edition or map")
    sheet = score_position(rs, parsed)
    out = scoresheet_json(rs, sheet)
    _check_sheet(rs, parsed, out)
    again = position_to_json(rs, parsed)
    _, reparsed = read_position(json.dumps(again), options=rs.options)
    if scoresheet_json(rs, score_position(rs, reparsed)) != out:
        fail("positions: writing and reading the position back changes its score")
    return out


def _check_sheet(rs: Ruleset, position: Position, sheet: dict[str, Any]) -> None:
    ix = index_of(rs)
    players = sheet["players"]
    if len(players) != len(position.players):
        fail("scoring: the score sheet has another number of players")
    for pp, ps in zip(position.players, players, strict=True):
        parts = ps["route_points"] + ps["ticket_points"] + sum(ps["bonuses"].values())
        if ps["total"] != parts:
            fail(f"scoring: {pp.name}'s total {ps['total']} is not the sum of its parts {parts}")
        if ps["route_points"] != sum(ix.route_points[r] for r in pp.routes):
            fail(f"scoring: {pp.name}'s route points do not match the routes held")
        if ps["ticket_points"] != sum(t["points"] for t in ps["tickets"]):
            fail(f"scoring: {pp.name}'s ticket points do not add up")
        if len(ps["tickets"]) != len(pp.tickets):
            fail(f"scoring: {pp.name} holds {len(pp.tickets)} tickets, {len(ps['tickets'])} scored")
        if ps["tickets_completed"] != sum(t["completed"] for t in ps["tickets"]):
            fail(f"scoring: {pp.name}'s completed tickets do not add up")
    winners = sheet["winners"]
    top = max(p["total"] for p in players)
    if not winners or any(p["total"] != top for p in players if p["name"] in winners):
        fail(f"scoring: winners {winners} do not have the top total {top}")


def check_end(game: Game) -> None:
    """Check a finished game: no legal action, a consistent final scoring."""
    rs, state = game.ruleset, game.state
    if not state.is_over:
        fail("end: the game is not over")
    if len(LegalActions(rs, state)):
        fail("end: there are legal actions after the end")
    sheet = game.scores()
    for seat, (ps, p) in enumerate(zip(sheet.players, state.players, strict=True)):
        if ps.route_points != p.score:
            fail(f"end: seat {seat} has {ps.route_points} route points, score track {p.score}")
        if len(ps.tickets) != len(p.tickets):
            fail(f"end: seat {seat} kept {len(p.tickets)} tickets, {len(ps.tickets)} scored")
        if rs.params.stations and ps.stations_built != rs.params.stations - p.stations:
            fail(f"end: seat {seat}'s stations built do not match the stations left")
    position = position_of(rs, state, game.names)
    out = check_position(rs, position_to_json(rs, position))
    if out != scoresheet_json(rs, sheet):
        # Tickets are compared by id, so a ticket mistaken for another with the same
        # cities shows here even when the points agree.
        first = next(differences(scoresheet_json(rs, sheet), out, "$"), "")
        fail(f"end: the game's final scoring differs from scoring its position at {first}")
