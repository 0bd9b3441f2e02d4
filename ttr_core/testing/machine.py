"""A Hypothesis state machine that plays an edition and checks it after every step.

Its steps mix, in any order Hypothesis chooses: applying a listed action, playing ahead
quickly, trying an action from the whole action space, looking at a seat's view,
saving and loading (the game goes on from the loaded copy) and replaying the record.
After every step the state's invariants hold and legal actions exist until the end;
a finished game is scored and its position read back.

Make a machine for an edition with `edition_machine` and let pytest run it::

    TestUsaMachine = edition_machine("usa").TestCase
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, cast

from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from ttr_core.formats.serialize import state_to_json
from ttr_core.model import rng
from ttr_core.model.errors import IllegalActionError
from ttr_core.play.game import Game
from ttr_core.testing.invariants import (
    check_action,
    check_end,
    check_events_redacted,
    check_records,
    check_state,
    check_unchanged,
    check_view,
    fail,
)
from ttr_core.testing.play import CHOICE_STREAM, Chooser, play
from ttr_core.testing.strategies import SEEDS, any_actions, rulesets_and_players


class EditionMachine(RuleBasedStateMachine):
    """Plays games of `edition` and checks the kit's invariants after each step."""

    edition: ClassVar[str] = ""
    """The edition id (set by `edition_machine` or a subclass)."""
    players: ClassVar[tuple[int, ...] | None] = None
    """The player counts to play (default: all the edition allows)."""
    option_sets: ClassVar[tuple[Mapping[str, Any], ...] | None] = None
    """The option sets to play (default: every combination of the option choices)."""

    def __init__(self) -> None:
        super().__init__()
        self._game: Game | None = None
        self._end_checked = False

    @property
    def game(self) -> Game:
        """The game being played."""
        if self._game is None:
            fail("the machine has not started a game")
        return self._game

    def _running(self) -> bool:
        return self._game is not None and not self._game.is_over

    @initialize(data=st.data(), seed=SEEDS, warmup=st.integers(min_value=0, max_value=400))
    def start(self, data: st.DataObject, seed: int, warmup: int) -> None:
        """Set up a seeded game and play ``warmup`` random actions (to start anywhere)."""
        if not self.edition:
            fail(f"{type(self).__name__} does not name an edition")
        rs, n = data.draw(
            rulesets_and_players(self.edition, self.players, self.option_sets),
            label="ruleset and players",
        )
        self._game = Game.new(rs, players=n, seed=seed)
        check_events_redacted(self._game.setup, n)
        play(self._game, Chooser(rng.derive_seed(seed, CHOICE_STREAM)), warmup)

    @precondition(lambda self: self._running())
    @rule(data=st.data())
    def apply_listed(self, data: st.DataObject) -> None:
        """Apply one of the listed legal actions."""
        game = self.game
        legal = game.legal_actions()
        i = data.draw(st.integers(min_value=0, max_value=len(legal) - 1), label="legal index")
        check_events_redacted(game.apply(legal[i]), len(game.names))

    @precondition(lambda self: self._running())
    @rule(count=st.integers(min_value=1, max_value=120), seed=SEEDS)
    def play_ahead(self, count: int, seed: int) -> None:
        """Play up to ``count`` random legal actions at once (to reach later positions)."""
        play(self.game, Chooser(seed), len(self.game.log) + count)

    @rule(data=st.data())
    def try_any_action(self, data: st.DataObject) -> None:
        """Try an action from the whole action space: accepted exactly when it is listed."""
        game = self.game
        rs, state = game.ruleset, game.state
        legal = game.legal_actions()
        action = data.draw(any_actions(rs, state, legal), label="action")
        before, log = state_to_json(state), len(game.log)
        new = check_action(rs, state, action, legal)
        if new is None:
            try:
                game.apply(action)
            except IllegalActionError:
                pass
            else:
                fail(f"Game.apply accepts {action!r}, which apply rejects")
            if game.state is not state or len(game.log) != log:
                fail(f"Game.apply of the rejected {action!r} changed the game")
            check_unchanged(before, state, f" after rejecting {action!r}")
        else:
            check_events_redacted(game.apply(action), len(game.names))
            if game.state != new:
                fail(f"Game.apply and apply disagree on {action!r}")

    @rule(data=st.data())
    def look(self, data: st.DataObject) -> None:
        """Check one seat's view, and that it ignores everything secret from that seat."""
        game = self.game
        seat = data.draw(st.integers(min_value=0, max_value=len(game.names) - 1), label="seat")
        check_view(game.ruleset, game.state, seat, Chooser(data.draw(SEEDS, label="perturb")))

    @rule()
    def save_and_load(self) -> None:
        """Save the game, load it back and go on playing the loaded copy."""
        game = self.game
        loaded = Game.load(game.save())
        if loaded.state != game.state or loaded.log != game.log:
            fail("a saved and loaded game differs from the original")
        self._game = loaded

    @rule()
    def replay_record(self) -> None:
        """Replay the record with and without its seed; round-trip the state's JSON."""
        check_records(self.game)

    @invariant()
    def invariants_hold(self) -> None:
        """Cards, trains, stations, scores and tickets add up; legal actions until the end."""
        if self._game is None:
            return
        game = self._game
        check_state(game.ruleset, game.state)
        if game.is_over:
            if not self._end_checked:
                check_end(game)
                self._end_checked = True
        elif not game.legal_actions():
            fail("no legal action before the end of the game")


def _class_name(edition: str) -> str:
    parts = re.split(r"[^0-9A-Za-z]+", edition)
    return "".join(p[:1].upper() + p[1:] for p in parts if p) + "Machine"


def edition_machine(
    edition: str,
    *,
    players: int | Iterable[int] | None = None,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
) -> type[EditionMachine]:
    """A subclass of `EditionMachine` for one edition.

    ``players`` and ``options`` narrow the player counts and option sets as in
    [`check_edition`][ttr_core.testing.check_edition].
    """
    counts = None if players is None else tuple([players] if isinstance(players, int) else players)
    sets: tuple[dict[str, Any], ...] | None
    if options is None:
        sets = None
    elif isinstance(options, Mapping):
        sets = (dict(options),)
    else:
        sets = tuple(dict(o) for o in options)
    attrs = {"edition": edition, "players": counts, "option_sets": sets, "__module__": __name__}
    return cast("type[EditionMachine]", type(_class_name(edition), (EditionMachine,), attrs))
