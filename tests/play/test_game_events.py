"""The events `Game.apply` returns are made when first read, by playing the actions again
from the game's last known position: whenever they are read, they are the events the
action caused, the same as a game that read every one at once and a recording simulator."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import ttr_core as ttr
from ttr_core.model.events import Event
from ttr_core.play.simulator import Simulator


def _random_game(edition: str, players: int, seed: int, moves: int) -> list[ttr.Action]:
    """The first ``moves`` actions of a random game (by a chooser of its own)."""
    game = ttr.Game.new(edition, players, seed=seed)
    choose = random.Random(seed)
    actions: list[ttr.Action] = []
    while not game.is_over and len(actions) < moves:
        legal = game.legal_actions()
        action = legal[choose.randrange(len(legal))]
        game.apply(action)
        actions.append(action)
    return actions


def _recorded(
    edition: str, players: int, seed: int, actions: list[ttr.Action]
) -> list[list[Event]]:
    """Each action's events as a recording simulator gives them."""
    sim = Simulator.new(edition, players, seed=seed, record=True)
    out: list[list[Event]] = []
    for action in actions:
        events: list[Event] = []
        sim.apply(action, events=events)
        out.append(events)
    return out


@pytest.mark.parametrize(
    ("edition", "players", "seed"),
    [("usa", 4, 1), ("europe", 3, 2), ("india", 2, 3), ("switzerland", 3, 4), ("nordic", 2, 5)],
)
def test_events_read_late_early_or_mixed_are_the_same(
    edition: str, players: int, seed: int
) -> None:
    """Events read at once, read only at the end, or read now and then, are equal to
    the recording simulator's, and so are the logs."""
    actions = _random_game(edition, players, seed, 160)
    expected = _recorded(edition, players, seed, actions)
    pick = random.Random(seed + 100)
    games = {how: ttr.Game.new(edition, players, seed=seed) for how in ("now", "late", "mixed")}
    returned: dict[str, list[Sequence[Event]]] = {how: [] for how in games}
    for i, action in enumerate(actions):
        for how, game in games.items():
            events = game.apply(action)
            returned[how].append(events)
            if how == "now" or (how == "mixed" and pick.random() < 0.3):
                assert events == expected[i]
    for how, game in games.items():
        assert [list(e) for e in returned[how]] == expected, how
        assert [list(entry.events) for entry in game.log] == expected, how
        assert [entry.action for entry in game.log] == actions, how


def test_events_of_an_earlier_action_after_a_new_state() -> None:
    """Events returned before the game's state was set are still those of their action."""
    game = ttr.Game.new("usa", 2, seed=9)
    actions = _random_game("usa", 2, 9, 20)
    kept = [game.apply(action) for action in actions[:10]]
    game.state = ttr.Game.new("usa", 2, seed=9).state
    for action in actions[:5]:
        game.apply(action)
    assert [list(e) for e in kept] == _recorded("usa", 2, 9, actions[:10])


def test_returned_events_behave_like_a_list() -> None:
    """Length, indexing, slicing, membership, iteration and equality are a list's, and
    like a list the sequence is unhashable."""
    game = ttr.Game.new("usa", 2, seed=3)
    action = game.legal_actions()[0]
    expected = _recorded("usa", 2, 3, [action])[0]
    events = game.apply(action)
    assert len(events) == len(expected)
    assert events[0] == expected[0]
    assert events[-1] == expected[-1]
    assert events[1:] == expected[1:]
    assert expected[0] in events
    assert list(events) == expected
    assert events == tuple(expected)
    assert events != expected[1:]
    assert repr(events) == repr(expected)
    with pytest.raises(TypeError):
        hash(events)
    with pytest.raises(IndexError):
        events[len(expected)]


def test_a_refused_action_leaves_the_tape_as_it_was() -> None:
    """An illegal action raises, is not recorded, and later events and the log are
    still right."""
    actions = _random_game("usa", 3, 4, 12)
    game = ttr.Game.new("usa", 3, seed=4)
    for action in actions[:6]:
        game.apply(action)
    with pytest.raises(ttr.IllegalActionError):
        game.apply(actions[0])
    for action in actions[6:]:
        game.apply(action)
    assert [list(entry.events) for entry in game.log] == _recorded("usa", 3, 4, actions)
