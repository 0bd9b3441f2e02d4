"""Game builds its frozen state only when asked for: what it hands out still shows the
position it was made at, however the game went on."""

from __future__ import annotations

import pytest

import ttr_core as ttr
from ttr_core.model.errors import SetupError
from ttr_core.model.events import LogEntry
from ttr_core.play.legal import LegalActions
from ttr_core.play.simulator import Simulator


def _played(game: ttr.Game, moves: int) -> list[tuple[LegalActions, ttr.GameState]]:
    """Play ``moves`` first-listed actions; each listing with the state it was made at
    (read from a twin game that builds every state)."""
    twin = ttr.Game.new(game.ruleset, len(game.names), seed=game.seed or 0)
    kept = []
    for _ in range(moves):
        legal = game.legal_actions()
        kept.append((legal, twin.state))
        action = legal[0]
        game.apply(action)
        twin.apply(twin.legal_actions()[0])
    return kept


@pytest.mark.parametrize("how", ["new", "load", "from_simulator"])
def test_old_listing_keeps_its_position(how: str) -> None:
    """A listing handed out before later moves still lists, and has the state of, its
    own position, whether the game can rebuild it from its seed or not."""
    game = ttr.Game.new("usa", 3, seed=7)
    if how == "load":
        game = ttr.Game.load(game.save())
    elif how == "from_simulator":
        game = ttr.Game.from_simulator(Simulator.new("usa", 3, seed=7))
    kept = _played(game, 12)
    for legal, state in kept:
        assert legal.state == state
        assert list(legal) == list(LegalActions(game.ruleset, state))


def test_listing_state_is_the_game_state() -> None:
    """While the game stays put, its listing's state is the game's state itself."""
    game = ttr.Game.new("europe", 2, seed=3)
    game.apply(game.legal_actions()[0])
    legal = game.legal_actions()
    assert legal.state is game.state
    seen = game.state
    game.apply(legal[0])
    assert legal.state is seen
    assert game.state is not seen


def test_setting_the_state_keeps_old_listings() -> None:
    """Setting the game's state forgets the log, but not the positions of listings
    handed out before."""
    game = ttr.Game.new("usa", 2, seed=11)
    first = game.legal_actions()
    start = ttr.Game.new("usa", 2, seed=11).state
    game.apply(first[0])
    second = game.legal_actions()
    game.state = start
    game.apply(game.legal_actions()[1])
    assert first.state == start
    assert second.state != start
    assert list(second) == list(LegalActions(game.ruleset, second.state))


def test_log_reads_as_applied() -> None:
    """The log, made only when read, holds each action with the events apply returned,
    and keeps entries appended to it by hand in order."""
    game = ttr.Game.new("usa", 2, seed=5)
    returned = []
    for _ in range(6):
        action = game.legal_actions()[0]
        returned.append((action, tuple(game.apply(action))))
    assert [(e.action, e.events) for e in game.log] == returned
    game.log.append(game.log[0])
    action = game.legal_actions()[0]
    events = game.apply(action)
    assert game.log[-2] == game.log[0]
    assert game.log[-1] == LogEntry(action=action, events=tuple(events))


def test_listing_of_a_moved_simulator_refuses() -> None:
    """A listing made without a state, whose simulator moved on unannounced, raises
    SetupError rather than listing another position."""
    sim = Simulator.new("usa", 2, seed=1, record=False)
    legal = LegalActions(sim.ruleset, None, simulator=sim)
    sim.apply_index(0)
    with pytest.raises(SetupError):
        _ = legal.state
    with pytest.raises(SetupError):
        legal[0]


def test_listing_needs_a_state_or_simulator() -> None:
    """LegalActions with neither a state nor a simulator is a SetupError."""
    with pytest.raises(SetupError):
        LegalActions(ttr.Ruleset.build("usa"), None)
