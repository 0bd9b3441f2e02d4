"""The OpenSpiel game ``python_ttr``: loading with parameters, chance nodes, legal actions,
serialisation, observations from views only, resampling and returns."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest

import ttr_core as ttr
from ttr_core import OptionError, SetupError, UnknownEditionError
from ttr_core.openspiel import TtrGame, TtrState, load
from ttr_core.rl import ActionEncoding, ObservationEncoding, placing_rewards


def _play(state: TtrState, decisions: int, seed: int = 0) -> TtrState:
    """Play ``decisions`` random decisions (and the draws up to the next decision)."""
    pick = random.Random(seed)
    done = 0
    while not state.is_terminal() and (done < decisions or state.is_chance_node()):
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(pick.choices(outcomes, weights)[0])
        else:
            state.apply_action(pick.choice(state.legal_actions()))
            done += 1
    return state


def test_load_game_takes_edition_players_and_options() -> None:
    game = pyspiel.load_game("python_ttr(edition=europe,players=3)")
    assert isinstance(game, TtrGame)
    assert game.num_players() == 3
    assert game.context.ruleset.id == "europe"
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_distinct_actions() == ActionEncoding(game.context.ruleset).size
    assert game.max_chance_outcomes() == 9 + len(game.context.ruleset.map.tickets)


def test_an_option_is_a_parameter_of_its_own() -> None:
    """USA's option of 4 opening tickets: every seat is dealt 4 (SETUP-4)."""
    game = pyspiel.load_game("python_ttr(edition=usa,opening_tickets=4)")
    assert game.context.ruleset.options["opening_tickets"] == 4
    state = _play(game.new_initial_state(), 0)
    position = state.position()
    assert position is not None
    assert [len(offer) for offer in position.state.offers] == [4, 4]


def test_an_alias_names_the_edition() -> None:
    assert load("europa").context.ruleset.id == "europe"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("python_ttr(edition=atlantis)", UnknownEditionError),
        ("python_ttr(edition=usa,players=6)", SetupError),
        ("python_ttr(edition=switzerland,players=4)", SetupError),
        ("python_ttr(edition=usa,opening_tickets=7)", OptionError),
        ("python_ttr(edition=europe,opening_tickets=4)", OptionError),
    ],
)
def test_bad_parameters_are_refused(text: str, error: type[Exception]) -> None:
    """An unknown edition, a player count the edition does not seat, a value an option
    does not offer, or an option of another edition: each gets ttr's error."""
    with pytest.raises(error):
        pyspiel.load_game(text)


def test_the_game_begins_with_the_deal_as_chance_nodes() -> None:
    """The initial state is a chance node; its outcomes are card kinds, in proportion."""
    state = load().new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes) == list(range(9))
    assert outcomes[8] == pytest.approx(14 / 110)
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_legal_actions_are_the_engines_in_codes() -> None:
    """At a decision, the legal codes are those of the simulator's legal actions."""
    game = load("usa", 3)
    state = _play(game.new_initial_state(), 10, seed=2)
    position = state.position()
    assert position is not None and not state.is_chance_node()
    rs = game.context.ruleset
    sim = ttr.Simulator.from_state(rs, position.state)
    view = ttr.view_of(rs, position.state, state.current_player())
    codes = sorted(ActionEncoding(rs).encode(a, view) for a in sim.legal_actions())
    assert state.legal_actions() == codes
    assert state.legal_actions((state.current_player() + 1) % 3) == []


def test_a_blind_draw_is_a_chance_node_of_the_decks_cards() -> None:
    """DECK-1: a blind draw leaves the state at a chance node whose outcomes are the
    kinds left in the deck, each with its share."""
    game = load()
    state = _play(game.new_initial_state(), 2)
    blind = game.context.actions.section("draw_blind").start
    assert blind in state.legal_actions()
    position = state.position()
    assert position is not None
    state.apply_action(blind)
    assert state.is_chance_node()
    deck = position.state.deck
    expected = {k: deck.count(k) / len(deck) for k in set(deck)}
    assert dict(state.chance_outcomes()) == pytest.approx(expected)


def test_states_serialise_and_come_back_equal() -> None:
    game = load("europe", 2)
    state = _play(game.new_initial_state(), 40, seed=4)
    text = state.serialize()
    back = game.deserialize_state(text)
    assert str(back) == str(state)
    assert back.history() == state.history()
    assert back.information_state_string(0) == state.information_state_string(0)
    assert pickle.loads(pickle.dumps(game.context)) is game.context


def test_information_state_hides_the_other_seats_cards() -> None:
    """The seat's record shows its own dealt cards and not the other seat's."""
    state = _play(load().new_initial_state(), 0)
    mine = state.information_state_string(0)
    position = state.position()
    assert position is not None
    assert '"player":0' in mine and '"cards":[null,null,null,null]' in mine
    assert mine != state.information_state_string(1)
    hand = position.state.players[0].hand
    assert all(f'"{ttr.CARD_NAMES[k]}"' in mine for k in range(9) if hand[k])


def test_observations_are_read_from_the_view() -> None:
    game = load("usa", 2)
    state = _play(game.new_initial_state(), 6)
    position = state.position()
    assert position is not None
    rs = game.context.ruleset
    encoding = ObservationEncoding(rs, 2)
    for seat in range(2):
        view = ttr.view_of(rs, position.state, seat)
        tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
        assert np.array_equal(tensor, encoding.encode(view))
        assert state.information_state_tensor(seat) == state.observation_tensor(seat)
        assert f'"seat":{seat}' in state.observation_string(seat)


def test_resampled_states_keep_what_the_seat_knows() -> None:
    """``resample_from_infostate`` draws the hidden parts with ``sample_state``: the
    seat's information state, observation and legal actions stay; hidden cards move."""
    game = load("usa", 2)
    state = _play(game.new_initial_state(), 12, seed=6)
    seat = state.current_player()
    sampler = random.Random(1).random
    other = 1 - seat
    hands = set()
    for _ in range(5):
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        assert world.legal_actions() == state.legal_actions()
        position = world.position()
        assert position is not None
        hands.add(position.state.players[other].hand)
    assert len(hands) > 1


def test_resampling_at_a_chance_node_is_refused() -> None:
    state = load().new_initial_state()
    with pytest.raises(ValueError, match="chance"):
        state.resample_from_infostate(0, random.Random(0).random)


def test_returns_are_the_placings_at_the_end() -> None:
    game = load("usa", 3)
    state = _play(game.new_initial_state(), 10_000, seed=8)
    assert state.is_terminal()
    position = state.position()
    assert position is not None
    sheet = ttr.score_game(game.context.ruleset, position.state)
    assert state.returns() == placing_rewards(sheet)
    assert sum(state.returns()) == pytest.approx(0.0)
    assert state.legal_actions() == []


def test_action_strings_name_the_action_and_the_draw() -> None:
    game = load()
    state = game.new_initial_state()
    assert state.action_to_string(8) == "draw locomotive"
    state = _play(state, 2)
    blind = game.context.actions.section("draw_blind").start
    assert state.action_to_string(blind) == "DrawBlind()"


def test_an_illegal_code_or_outcome_is_refused_and_changes_nothing() -> None:
    """A code that is not legal, or an outcome the pile cannot give, raises
    ``ActionCodeError`` and leaves the state as it was."""
    game = load()
    state = game.new_initial_state()
    before = str(state)
    with pytest.raises(ttr.ActionCodeError, match="not an outcome"):
        state.apply_action(9)  # a ticket, while the deal draws cards
    assert str(state) == before
    state = _play(state, 0)
    before = str(state)
    illegal = next(c for c in range(game.num_distinct_actions()) if c not in state.legal_actions())
    with pytest.raises(ttr.ActionCodeError, match="not legal"):
        state.apply_action(illegal)
    assert str(state) == before
