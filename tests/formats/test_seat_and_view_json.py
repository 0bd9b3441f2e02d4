"""Actions checked against the seat they come from (TURN-4), and views as JSON.

Every installed edition is played at random; at every decision the action is offered
from every seat, and every seat's view goes through JSON and back.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve

import ttr_core as ttr
from ttr_core.formats.serialize import state_to_json, view_from_json, view_to_json
from ttr_core.model.actions import DrawBlind, KeepTickets, Pass
from ttr_core.model.cards import counts_to_mapping
from ttr_core.model.errors import IllegalActionError, SetupError, TtrError
from ttr_core.model.events import Event
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import apply, new_game
from ttr_core.rules import turn
from ttr_core.rules.views import PlayerView, view_of
from ttr_core.testing.invariants import perturb_secrets
from ttr_core.testing.play import random_game_states

EDITIONS = sorted(ttr.installed_editions())
SERVER_PAGE = Path(__file__).resolve().parents[2] / "docs" / "how-to" / "run-a-game-server.md"


def games(edition: str) -> list[tuple[ttr.Ruleset, list[GameState], list[ttr.Action]]]:
    """Two random games of ``edition``: fewest and most players, different seeds."""
    rs = ttr.ruleset_for(edition)
    lo, hi = rs.params.players
    out = []
    for players, seed in ((lo, 1), (hi, 2)):
        states, actions, _ = random_game_states(rs, players, seed=seed, choice_seed=seed)
        out.append((rs, states, actions))
    return out


@pytest.fixture(scope="module", params=EDITIONS)
def played(request: pytest.FixtureRequest) -> tuple[str, list[Any]]:
    """The edition id and its random games (played once per module)."""
    return request.param, games(request.param)


def phases_seen(played: tuple[str, list[Any]]) -> set[Phase]:
    return {state.phase for _, states, _ in played[1] for state in states}


def test_random_games_reach_the_phases_under_test(played):
    """The games below reach every phase the edition has, the end included."""
    edition, _ = played
    seen = phases_seen(played)
    expected = {Phase.OPENING_TICKETS, Phase.TURN, Phase.SECOND_CARD, Phase.GAME_OVER}
    if edition == "europe":
        expected.add(Phase.TUNNEL)
    if edition == "nordic":
        expected |= {Phase.TUNNEL, Phase.CHOOSE_CARDS}
    if edition in ("usa", "europe", "nordic"):
        expected.add(Phase.KEEP_TICKETS)
    assert expected <= seen


# -- TURN-4: only the player to act may act -------------------------------------------------


def test_turn_4_every_other_seat_is_refused_in_every_phase(played):
    """TURN-4: at every decision of a game, the action taken is refused from every seat
    but the current one, with the state untouched; from the current seat it is applied
    exactly as without a seat."""
    _, runs = played
    refused: Counter[Phase] = Counter()
    for rs, states, actions in runs:
        players = len(states[0].players)
        for state, action in zip(states, actions, strict=False):
            before = state_to_json(state)
            for seat in range(players):
                if seat == state.current:
                    continue
                events: list[Event] = []
                with pytest.raises(IllegalActionError) as info:
                    apply(rs, state, action, events=events, seat=seat)
                assert info.value.rule == "TURN-4"
                assert f"seat {seat} may not act" in str(info.value)
                assert events == []
                refused[state.phase] += 1
            assert state_to_json(state) == before
            assert apply(rs, state, action, seat=state.current) == apply(rs, state, action)
    assert refused[Phase.OPENING_TICKETS] and refused[Phase.TURN] and refused[Phase.SECOND_CARD]


def test_turn_4_the_current_seat_is_the_one_to_act_in_every_phase(played):
    """TURN-4: the seat that may act is ``state.current``, which is also every view's
    ``current``; only it is offered an opening or drawn ticket choice to make."""
    _, runs = played
    for rs, states, _ in runs:
        for state in states[:: max(1, len(states) // 40)]:
            for seat in range(len(state.players)):
                view = view_of(rs, state, seat)
                assert view.current == state.current
                if state.phase is Phase.KEEP_TICKETS and seat != state.current:
                    assert view.offered == ()


def test_turn_4_opening_tickets_are_chosen_in_seat_order_from_the_start_player(usa):
    """TURN-4 / SETUP-5: the opening choices are taken one seat at a time, starting with
    the start player; a seat that chooses out of turn is refused, even with its own offer."""
    state = new_game(usa, 4, seed=5, start_player=2)
    order = []
    while state.phase is Phase.OPENING_TICKETS:
        order.append(state.current)
        for seat in range(4):
            own = KeepTickets(tickets=tuple(usa.map.tickets[t].id for t in state.offers[seat]))
            if seat != state.current:
                with pytest.raises(IllegalActionError, match=r"choosing opening tickets") as info:
                    apply(usa, state, own, seat=seat)
                assert info.value.rule == "TURN-4"
        current = state.current
        keep = tuple(usa.map.tickets[t].id for t in state.offers[current])
        state = apply(usa, state, KeepTickets(tickets=keep), seat=current)
    assert order == [2, 3, 0, 1]
    assert state.phase is Phase.TURN and state.current == 2


def test_turn_4_game_apply_from_another_seat_changes_nothing(usa):
    """TURN-4: ``Game.apply`` with another seat leaves state and log as they were."""
    game = ttr.Game.new(usa, ["Ada", "Bo", "Cy"], seed=4)
    while game.state.phase is Phase.OPENING_TICKETS:
        game.apply(game.legal_actions()[0], seat=game.current_player)
    game.apply(DrawBlind(), seat=0)
    assert game.state.phase is Phase.SECOND_CARD
    state, log, saved = game.state, list(game.log), game.save()
    for seat in (1, 2):
        with pytest.raises(IllegalActionError) as info:
            game.apply(DrawBlind(), seat=seat)
        assert info.value.rule == "TURN-4"
        assert "seat 0 is drawing a second card" in str(info.value)
    assert game.state is state and game.log == log and game.save() == saved
    events = game.apply(DrawBlind(), seat=0)
    assert events and game.current_player == 1


def test_end_2_nobody_acts_once_the_game_is_over(played):
    """END-2 / TURN-4: after the end every seat is refused with END-2, the last player too."""
    _, runs = played
    for rs, states, actions in runs:
        final = states[-1]
        assert final.is_over
        for seat in range(len(final.players)):
            for action in (actions[-1], Pass()):
                with pytest.raises(IllegalActionError) as info:
                    apply(rs, final, action, seat=seat)
                assert info.value.rule == "END-2"


@pytest.mark.parametrize("seat", [-1, 3, 99, True, False, 1.0, "0", (0,)])
def test_turn_4_a_seat_not_in_the_game_is_a_setup_error(usa, seat):
    """A seat that is not an ``int`` seat of the game is a SetupError naming it, during
    play and after the end, from the engine and from ``Game``; nothing changes."""
    game = ttr.Game.new(usa, 3, seed=1)
    action = game.legal_actions()[0]
    before, log = game.state, list(game.log)
    with pytest.raises(SetupError, match=r"seat must be an integer from 0 to 2") as info:
        game.apply(action, seat=seat)
    assert isinstance(info.value, TtrError) and repr(seat) in str(info.value)
    assert game.state is before and game.log == log
    with pytest.raises(SetupError):
        apply(usa, game.state, action, seat=seat)
    over = evolve(game.state, phase=Phase.GAME_OVER, ended_by="deadlock")
    with pytest.raises(SetupError):
        apply(usa, over, action, seat=seat)


def test_turn_4_without_a_seat_the_action_is_the_current_players(usa, monkeypatch):
    """Without ``seat`` (or with None) nothing is checked: the seat check is not even
    called, and the result is the same as before seats existed."""

    def refuse(table: object, seat: object) -> None:
        raise AssertionError("the seat check ran without a seat")

    monkeypatch.setattr(turn, "check_seat", refuse)
    game = ttr.Game.new(usa, 2, seed=3)
    state = game.state
    action = game.legal_actions()[0]
    assert apply(usa, state, action) == apply(usa, state, action, seat=None)
    game.apply(action)
    game.apply(game.legal_actions()[0], seat=None)
    assert len(game.log) == 2


# -- views as JSON ---------------------------------------------------------------------------


def test_view_json_round_trips_for_every_seat_at_every_decision(played):
    """Every view of every state survives ``json.dumps``/``json.loads`` and reads back
    equal, in every phase the games reach (tunnels in Europe, card choices in Nordic)."""
    _, runs = played
    phases: Counter[str] = Counter()
    for rs, states, _ in runs:
        for state in states:
            for seat in range(len(state.players)):
                view = view_of(rs, state, seat)
                raw = view_to_json(view)
                text = json.dumps(raw, allow_nan=False)
                assert json.loads(text) == raw
                assert view_from_json(json.loads(text)) == view
                phases[raw["phase"]] += 1
    assert set(phases) == {p.name.lower() for p in phases_seen(played)}


def test_view_json_writes_the_phase_by_lower_case_name():
    """Every phase is written as its ``Phase`` name in lower case and read back."""
    rs = ttr.ruleset_for("usa")
    view = view_of(rs, new_game(rs, 2, seed=1), 0)
    for phase in Phase:
        raw = view_to_json(evolve(view, phase=phase))
        assert raw["phase"] == phase.name.lower()
        assert view_from_json(raw).phase is phase


def test_view_json_exports():
    """The view readers and writers are exported by the package."""
    assert ttr.view_to_json is view_to_json and ttr.view_from_json is view_from_json
    assert {"view_to_json", "view_from_json"} <= set(ttr.__all__)


SECRET_KEYS = {"deck", "deck_pos", "rng", "ticket_deck", "pending_tickets", "offers", "hands"}


def keys_of(value: Any) -> set[str]:
    """Every object key anywhere in a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def test_setup_6_view_json_holds_no_hidden_information(played):
    """SETUP-6: a seat's view JSON is the same whatever it may not know (opponents' hands,
    tickets and offers, deck orders, the generator), and has no key for any of it."""
    edition, runs = played
    chooser = random.Random(edition)
    for rs, states, _ in runs:
        for state in states:
            for seat in range(len(state.players)):
                raw = view_to_json(view_of(rs, state, seat))
                other = perturb_secrets(rs, state, seat, chooser.randrange)
                assert view_to_json(view_of(rs, other, seat)) == raw
                assert not keys_of(raw) & SECRET_KEYS
                assert raw["hand"] == counts_to_mapping(state.players[seat].hand)
                for public in raw["players"]:
                    assert set(public) == {
                        "seat",
                        "hand_size",
                        "trains",
                        "tickets",
                        "score",
                        "stations",
                    }
                    assert all(type(v) is int for v in public.values())


# -- view_from_json refuses anything else -------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> dict[str, Any]:
    """A view JSON with a tunnel pending (so every nested object is present)."""
    rs = ttr.ruleset_for("europe")
    states, _, _ = random_game_states(rs, 2, seed=1, choice_seed=1)
    state = next(s for s in states if s.phase is Phase.TUNNEL)
    return view_to_json(view_of(rs, state, state.current))


def changed(raw: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A deep copy of ``raw`` with the value at ``path`` replaced (deleted for ``...``)."""
    out = copy.deepcopy(raw)
    node = out
    for key in path[:-1]:
        node = node[key]
    if value is ...:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("seat",), "0", r"^\$\.seat: expected an integer, got '0'"),
        (("seat",), True, r"^\$\.seat: expected an integer, got True"),
        (("turn",), 1.0, r"^\$\.turn: expected an integer"),
        (("edition",), 1, r"^\$\.edition: expected a string"),
        (("phase",), "TURN", r"^\$\.phase: expected one of opening_tickets, turn, "),
        (("phase",), 1, r"^\$\.phase: expected one of"),
        (("hand",), [1, 2], r"^\$\.hand: expected an object of card counts"),
        (("hand", "red"), -1, r"^\$\.hand: card count for 'red' must be a non-negative"),
        (("hand", "purple"), 1, r"^\$\.hand: unknown card 'purple'"),
        (("discard", "red"), "2", r"^\$\.discard: card count"),
        (("tickets",), {}, r"^\$\.tickets: expected a list"),
        (("owners", 3), None, r"^\$\.owners\[3\]: expected an integer, got None"),
        (("display", 2), "gold", r"^\$\.display\[2\]: unknown card 'gold'"),
        (("display", 2), 3, r"^\$\.display\[2\]: expected a card name, got 3"),
        (("players", 1, "score"), "3", r"^\$\.players\[1\]\.score: expected an integer"),
        (("players", 1, "trains"), ..., r"^\$\.players\[1\]: missing keys \['trains'\]"),
        (("players", 0, "hand"), [], r"^\$\.players\[0\]: unexpected keys \['hand'\]"),
        (("players", 0), [], r"^\$\.players\[0\]: expected an object"),
        (("players",), {}, r"^\$\.players: expected a list"),
        (("tunnel", "revealed", 0), None, r"^\$\.tunnel\.revealed\[0\]: expected a card name"),
        (("tunnel", "extra"), ..., r"^\$\.tunnel: missing keys \['extra'\]"),
        (("tunnel",), [], r"^\$\.tunnel: expected an object"),
        (("choice",), {"route": 1}, r"^\$\.choice: missing keys \['chosen', 'groups', 'size'\]"),
        (("choice",), ..., r"^\$: missing keys \['choice'\]"),
        (("deck",), [0, 1], r"^\$: unexpected keys \['deck'\]"),
    ],
)
def test_view_from_json_refuses_with_the_path(sample, path, value, message):
    """Wrong types, unknown names, missing and extra keys are refused, naming the path."""
    with pytest.raises(ValueError, match=message):
        view_from_json(changed(sample, path, value))


@pytest.mark.parametrize("raw", [None, [], "view", 3])
def test_view_from_json_refuses_what_is_not_an_object(raw):
    """A view is a JSON object."""
    with pytest.raises(ValueError, match=r"^\$: expected an object"):
        view_from_json(raw)


def test_view_from_json_reads_a_card_choice():
    """A Nordic view choosing the cards of a payment reads back with its choice."""
    rs = ttr.ruleset_for("nordic")
    states, _, _ = random_game_states(rs, 2, seed=1, choice_seed=1)
    state = next(s for s in states if s.phase is Phase.CHOOSE_CARDS and sum(s.choice.chosen))
    view = view_of(rs, state, state.current)
    raw = view_to_json(view)
    assert raw["choice"]["chosen"] and raw["choice"]["route"] == view.choice.route
    assert view_from_json(raw) == view
    assert isinstance(view_from_json(raw), PlayerView)


# -- the server guide runs ------------------------------------------------------------------


def test_turn_4_the_server_guide_runs_and_shows_its_output(capsys):
    """TURN-4: the code of the server guide runs and prints what its comments say (the
    guide's own server; the client of ``ttr serve`` is run against it by the server tests)."""
    text = SERVER_PAGE.read_text(encoding="utf-8").split("\n## Run the ready-made server")[0]
    blocks = re.findall(r"^```python\n(.*?)^```$", text, re.M | re.S)
    assert len(blocks) == 3
    namespace: dict[str, Any] = {"__name__": "docs_server"}
    checked = 0
    for i, block in enumerate(blocks):
        exec(compile(block, f"server[{i}]", "exec"), namespace)
        printed = [line for line in capsys.readouterr().out.splitlines() if line]
        expected = re.findall(r"^print\(.*\)\s+# (.+)$", block, re.M)
        assert printed == expected
        checked += len(expected)
    assert checked >= 7
