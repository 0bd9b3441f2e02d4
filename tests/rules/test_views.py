"""Per-player views and redacted events (SETUP-6): what each seat may know."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from attrs import evolve, fields

from ttr_core import (
    DrawBlind,
    DrawTickets,
    Game,
    GameState,
    KeepTickets,
    Phase,
    Ruleset,
    ViewError,
    new_game,
    view_of,
)
from ttr_core.formats.serialize import view_from_json, view_to_json
from ttr_core.hidden.determinize import known_state
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model import events as ev
from ttr_core.play.functional import apply
from ttr_core.rules.index import index_of
from ttr_core.rules.tickets import pending_for
from ttr_core.rules.views import PlayerView, PublicPlayer, redact
from ttr_core.testing.invariants import perturb_secrets
from ttr_core.testing.play import play_game as random_game
from ttr_core.testing.play import random_game_states, ruleset
from ttr_core.testing.scenarios import keep_all_opening, started


def test_setup_6_view_shows_own_hand_and_tickets(usa):
    """SETUP-6: a player sees their own hand and kept tickets."""
    state = started(usa, 3, seed=2)
    for seat in range(3):
        view = view_of(usa, state, seat)
        me = state.players[seat]
        assert view.seat == seat
        assert view.hand == me.hand
        assert view.tickets == tuple(index_of(usa).ticket_ids[t] for t in me.tickets)


def test_setup_6_view_shows_only_counts_of_others(usa):
    """SETUP-6: of every player only public counts are shown: cards, trains, tickets."""
    state = started(usa, 3, seed=2)
    view = view_of(usa, state, 0)
    for i, public in enumerate(view.players):
        p = state.players[i]
        assert public == PublicPlayer(
            seat=i,
            hand_size=sum(p.hand),
            trains=p.trains,
            tickets=len(p.tickets),
            score=p.score,
            stations=p.stations,
        )
    assert {f.name for f in fields(PublicPlayer)} == {
        "seat",
        "hand_size",
        "trains",
        "tickets",
        "score",
        "stations",
    }


def test_view_has_no_secret_fields():
    """A view carries no deck order, generator state or other players' holdings."""
    names = {f.name for f in fields(PlayerView)}
    assert "deck" not in names and "rng" not in names and "ticket_deck" not in names
    assert names >= {"hand", "tickets", "offered", "display", "deck_size", "discard"}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_view_hides_opponents_secrets(usa, players):
    """SETUP-6: changing anything a seat may not know leaves that seat's view unchanged."""
    chooser = random.Random(players)
    states, _, _ = random_game_states(usa, players, seed=players, choice_seed=1)
    for state in states[:: max(1, len(states) // 25)]:
        for seat in range(players):
            view = view_of(usa, state, seat)
            other = perturb_secrets(usa, state, seat, chooser.randrange)
            assert view_of(usa, other, seat) == view
            # The view still shows the seat's own hand.
            assert view.hand == state.players[seat].hand


def test_view_changes_with_own_hand(usa):
    """The viewer's own hand is in the view."""
    state = started(usa, 2, seed=2)
    players = list(state.players)
    players[0] = evolve(players[0], hand=(9, 0, 0, 0, 0, 0, 0, 0, 0))
    changed = evolve(state, players=tuple(players))
    assert view_of(usa, changed, 0).hand == (9, 0, 0, 0, 0, 0, 0, 0, 0)
    assert view_of(usa, changed, 0) != view_of(usa, state, 0)


def test_opening_offers_visible_only_to_their_player(usa):
    """SETUP-5 / SETUP-6: each player sees their own opening offer, not the others'."""
    state = new_game(usa, 3, seed=6)
    for seat in range(3):
        view = view_of(usa, state, seat)
        assert view.offered == tuple(index_of(usa).ticket_ids[t] for t in state.offers[seat])
        assert view.offered == tuple(index_of(usa).ticket_ids[t] for t in pending_for(state, seat))
    assert len({view_of(usa, state, s).offered for s in range(3)}) == 3


def test_drawn_tickets_visible_only_to_the_drawer(usa):
    """SETUP-6 / TICKET-1: tickets drawn in play are seen by the drawing player only."""
    state = apply(usa, started(usa, 3, seed=6), DrawTickets())
    assert view_of(usa, state, 0).offered == tuple(
        index_of(usa).ticket_ids[t] for t in state.pending_tickets
    )
    assert view_of(usa, state, 1).offered == ()
    assert view_of(usa, state, 2).offered == ()
    assert view_of(usa, state, 1).ticket_deck_size == len(state.ticket_deck)


def test_public_parts_of_the_view(usa):
    """Everything public is in the view: display, piles, claims, phase and turn."""
    state = started(usa, 2, seed=2)
    view = view_of(usa, state, 1)
    assert view.edition == "usa"
    assert view.display == state.display
    assert view.deck_size == state.deck_size
    assert view.discard == state.discard
    assert view.owners == state.owners
    assert view.phase == state.phase
    assert view.current == state.current
    assert view.final_trigger == state.final_trigger
    assert view.turn == state.turn
    assert view.tunnel is None


def test_view_of_unknown_seat(usa):
    """Only seats of the game have a view."""
    state = started(usa, 2, seed=2)
    with pytest.raises(ValueError):
        view_of(usa, state, 2)
    with pytest.raises(ValueError):
        view_of(usa, state, -1)


def test_game_view(usa):
    """``Game.view`` is the view of the game's current state."""
    game = Game.new(usa, players=2, seed=3)
    assert game.view(1) == view_of(usa, game.state, 1)


# -- redacted events -----------------------------------------------------------------------


def test_redact_dealt_cards_and_tickets(usa):
    """SETUP-6: the cards and tickets dealt to a player are blanked for the others."""
    events = []
    new_game(usa, 3, seed=4, events=events)
    for e in events:
        for seat in range(3):
            shown = redact(e, seat)
            if isinstance(e, ev.Shuffled):
                assert shown.order == ()
                assert (shown.pile, shown.reason) == (e.pile, e.reason)
            elif isinstance(e, ev.CardsDealt | ev.TicketsDealt):
                if e.player == seat:
                    assert shown == e
                else:
                    secret = shown.cards if isinstance(e, ev.CardsDealt) else shown.tickets
                    assert set(secret) == {-1}
                    assert len(secret) == (
                        len(e.cards) if isinstance(e, ev.CardsDealt) else len(e.tickets)
                    )
            else:
                assert shown == e


def test_redact_blind_draw_and_kept_tickets(usa):
    """A blind-drawn card and the tickets kept or returned are private to their player."""
    state = keep_all_opening(usa, new_game(usa, 2, seed=4))
    events = []
    state = apply(usa, state, DrawBlind(), events=events)
    drawn = next(e for e in events if isinstance(e, ev.BlindDrawn))
    assert redact(drawn, 0) == drawn
    assert redact(drawn, 1) == ev.BlindDrawn(player=0, card=-1)
    state = apply(usa, state, DrawBlind())
    state = apply(usa, state, DrawTickets())
    offered = tuple(index_of(usa).ticket_ids[t] for t in state.pending_tickets)
    events = []
    apply(usa, state, KeepTickets(tickets=offered[:1]), events=events)
    kept = next(e for e in events if isinstance(e, ev.TicketsKept))
    assert redact(kept, 1) == kept
    hidden = redact(kept, 0)
    assert hidden.kept == (-1,) and hidden.returned == (-1, -1)
    assert hidden.returned_to == kept.returned_to


def test_redact_keeps_public_events(usa):
    """Public events (face-up cards, claims, flushes, the end) are shown to everyone."""
    public = [
        ev.CardRevealed(slot=1, card=3),
        ev.FaceUpTaken(player=0, slot=1, card=3),
        ev.DisplayFlushed(cards=(8, 8, 8, 1, 2)),
        ev.RouteClaimed(player=1, route=3, cards=(0,) * 8 + (1,), points=1),
        ev.Passed(player=0),
        ev.FinalRoundStarted(player=1, trains=2),
        ev.GameEnded(reason="final_round"),
        ev.GameStarted(players=2, start_player=0),
    ]
    for e in public:
        assert redact(e, 0) == e
        assert redact(e, 1) == e


def secret_values(event):
    """The secret fields of a private event, flattened."""
    if isinstance(event, ev.BlindDrawn):
        return (event.card,)
    if isinstance(event, ev.CardsDealt):
        return event.cards
    if isinstance(event, ev.TicketsDealt):
        return event.tickets
    if isinstance(event, ev.TicketsKept):
        return event.kept + event.returned
    return None


def test_redacted_game_log_hides_every_secret(usa):
    """SETUP-6: across a whole game, redacted events never show another player's secrets."""
    _, _, logs = random_game_states(usa, 3, seed=8, choice_seed=8)
    for events in logs:
        for e in events:
            for seat in range(3):
                shown = redact(e, seat)
                secret = secret_values(shown)
                if secret is not None and e.player != seat:
                    assert set(secret) <= {-1}
                elif secret is not None:
                    assert shown == e
                if isinstance(e, ev.Shuffled):
                    assert shown.order == ()


# -- a view read from JSON that no position shows (ViewError) --------------------------------


def json_at(obj: Any, path: str) -> Any:
    """The value at ``path`` (``$.players[1].stations``) in a view's JSON object."""
    for key, index in re.findall(r"\.(\w+)|\[(\d+)\]", path.removeprefix("$")):
        obj = obj[key] if key else obj[int(index)]
    return obj


def first_view(edition: str, wanted: Callable[[GameState], bool]) -> tuple[Ruleset, PlayerView]:
    """The view of the seat to act at the first position of seeded 2-player games that
    ``wanted`` accepts."""
    rs = ruleset(edition)
    for seed in range(100):
        game = Game.new(rs, players=2, seed=seed)
        for entry in random_game(rs, 2, seed=seed).log:
            if wanted(game.state):
                return rs, game.view(game.state.current)
            game.apply(entry.action)
    raise AssertionError("no such position in 100 games")


@pytest.mark.parametrize(
    ("edition", "wanted", "path", "value"),
    [
        ("nordic", lambda s: s.phase is Phase.TURN, "$.players[{current}].stations", 1),
        ("europe", lambda s: s.phase is Phase.TUNNEL, "$.tunnel.extra", 10**9),
        ("europe", lambda s: s.phase is Phase.TUNNEL, "$.tunnel.route", 99999),
        ("usa", lambda s: s.turn > 4, "$.players[0].score", -(10**5000)),
        ("usa", lambda s: s.turn > 4, "$.turn", -1),
    ],
    ids=["nordic-stations", "tunnel-extra", "tunnel-route", "huge-score", "turn"],
)
def test_view_error_names_the_json_path_of_the_field(
    edition: str, wanted: Callable[[GameState], bool], path: str, value: object
) -> None:
    """ViewError: a view that ``view_from_json`` reads but that no position of its game
    shows is refused by the readers of views, naming the path of the key in the JSON."""
    rs, view = first_view(edition, wanted)
    path = path.format(current=view.current)
    raw = view_to_json(view)
    parent, _, last = path.rpartition(".")
    key: Any = last
    if last.endswith("]"):
        parent, _, index = path.rpartition("[")
        key = int(index[:-1])
    real = json_at(raw, path)
    json_at(raw, parent)[key] = value
    read = view_from_json(raw)
    for refuse in (lambda: known_state(rs, read), lambda: SeatActions.from_view(rs, read)):
        with pytest.raises(ViewError) as info:
            refuse()
        assert str(info.value).startswith(f"{path}: ")
    json_at(raw, parent)[key] = real
    assert SeatActions.from_view(rs, view_from_json(raw))
