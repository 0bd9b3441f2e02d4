"""The contract test base class: subclass it, name the edition, get the whole suite.

::

    from ttr_core.testing import EditionContract


    class TestMyEdition(EditionContract):
        edition = "my-edition"

pytest collects the subclass (its name starts with ``Test``), never the base class. The
Hypothesis tests run with the loaded settings profile; their example counts are scaled
by that profile's ``max_examples`` relative to Hypothesis' default of 100, so a quick
CI profile makes them quick too (see `kit_settings`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

from ttr_core.formats.serialize import state_to_json
from ttr_core.model.mapdata import structure_map, unstructure_map, validate_map
from ttr_core.play.game import Game
from ttr_core.ruleset.editions import find_edition
from ttr_core.testing.check import check_edition
from ttr_core.testing.invariants import (
    check_action,
    check_legal_actions,
    check_position,
    check_records,
    check_state,
    check_unchanged,
    check_view,
    fail,
)
from ttr_core.testing.machine import edition_machine
from ttr_core.testing.play import Chooser, choose_options, play_game, player_counts, ruleset
from ttr_core.testing.strategies import action_sequences, any_actions, end_positions, games

HYPOTHESIS_DEFAULT_EXAMPLES = 100

# Typed in newer Hypothesis releases, untyped in older ones: call it through one type.
_run_machine = cast(Callable[..., None], run_state_machine_as_test)


def kit_settings(examples: int, **changes: Any) -> settings:
    """Settings for one of the kit's Hypothesis tests, built from the loaded profile.

    ``examples`` is the number of examples under Hypothesis' defaults; it is scaled by
    the profile's ``max_examples`` (at least 1). Deadlines are off and the too-slow
    health check is suppressed: a whole game is one example.
    """
    current = settings()
    scaled = max(1, examples * current.max_examples // HYPOTHESIS_DEFAULT_EXAMPLES)
    return settings(
        current,
        max_examples=scaled,
        deadline=None,
        suppress_health_check=[*current.suppress_health_check, HealthCheck.too_slow],
        **changes,
    )


class EditionContract:
    """The kit's whole suite for one edition, as pytest test methods.

    Set `edition` in a subclass; the other attributes narrow or size the suite.
    """

    edition: ClassVar[str] = ""
    """The id of the edition under test (it must be installed)."""
    players: ClassVar[int | tuple[int, ...] | None] = None
    """Player counts to test (default: every count the edition allows)."""
    options: ClassVar[Mapping[str, Any] | Sequence[Mapping[str, Any]] | None] = None
    """Option sets to test (default: every combination of the edition's option choices)."""
    examples: ClassVar[int] = 40
    """Examples per property test under Hypothesis' default profile (see kit_settings)."""
    check_games: ClassVar[int] = 4
    """Games played by `test_check_edition`."""
    machine_steps: ClassVar[int] = 25
    """Steps per state machine run."""

    def _edition(self) -> str:
        if not self.edition:
            fail(f"{type(self).__name__} must set 'edition' to the id of the edition to test")
        return self.edition

    def test_edition_is_installed(self) -> None:
        """The edition is found through the ``ttr.editions`` entry points, with its players."""
        edition = self._edition()
        found = find_edition(edition)
        lo, hi = found.players
        if not 1 <= lo <= hi:
            fail(f"{edition}: impossible player range {found.players}")
        if found.info.id != edition:
            fail(f"{edition!r} is an alias of {found.info.id!r}; test the edition by its id")

    def test_map_data_round_trips(self) -> None:
        """Every option set builds; the map data survives its JSON form and validates."""
        edition = self._edition()
        for opts in choose_options(edition, self.options):
            rs = ruleset(edition, opts)
            validate_map(rs.map)
            again = structure_map(json.loads(json.dumps(unstructure_map(rs.map))))
            if again != rs.map or again.digest() != rs.map_hash:
                fail(f"{edition} {opts}: the map data does not survive its JSON form")
            player_counts(rs, self.players)

    def test_check_edition(self) -> None:
        """`check_edition` finds nothing wrong in a few seeded games."""
        check_edition(
            self._edition(), players=self.players, options=self.options, games=self.check_games
        )

    def test_games_keep_invariants(self) -> None:
        """Games at any point: invariants, legal actions, every view, records."""
        edition = self._edition()

        @kit_settings(self.examples)
        @given(game=games(edition, players=self.players, options=self.options), seed=st.integers())
        def check(game: Game, seed: int) -> None:
            rs, state = game.ruleset, game.state
            chooser = Chooser(seed)
            check_state(rs, state)
            check_legal_actions(rs, state, pick=chooser, limit=30)
            for seat in range(len(game.names)):
                check_view(rs, state, seat, chooser)
            check_records(game)

        check()

    def test_any_action_is_accepted_exactly_when_legal(self) -> None:
        """Actions from the whole action space: accepted iff listed; rejections change nothing."""
        edition = self._edition()

        @kit_settings(self.examples)
        @given(game=games(edition, players=self.players, options=self.options), data=st.data())
        def check(game: Game, data: st.DataObject) -> None:
            rs, state = game.ruleset, game.state
            legal = game.legal_actions()
            before, log = state_to_json(state), len(game.log)
            for _ in range(10):
                check_action(rs, state, data.draw(any_actions(rs, state, legal)), legal)
            check_unchanged(before, state)
            if game.state is not state or len(game.log) != log:
                fail("trying actions changed the game")

        check()

    def test_action_sequences_replay(self) -> None:
        """Any sequence of legal actions replays, from its record, to an equal game."""
        edition = self._edition()

        @kit_settings(self.examples)
        @given(played=action_sequences(edition, players=self.players, options=self.options))
        def check(played: Any) -> None:
            game = played.replay()
            check_state(game.ruleset, game.state)
            loaded = Game.load(game.save())
            if loaded.state != game.state or tuple(e.action for e in loaded.log) != played.actions:
                fail("a sequence of legal actions does not replay from its record")

        check()

    def test_end_positions_score_consistently(self) -> None:
        """End positions in the ``ttr score`` format score consistently and read back."""
        edition = self._edition()

        @kit_settings(self.examples)
        @given(data=st.data())
        def check(data: st.DataObject) -> None:
            for opts in choose_options(edition, self.options):
                raw = data.draw(end_positions(edition, players=self.players, options=opts))
                check_position(ruleset(edition, opts), raw)

        check()

    def test_same_seed_same_game(self) -> None:
        """The same seed gives the same record; another seed another shuffle."""
        edition = self._edition()
        rs = ruleset(edition, choose_options(edition, self.options)[0])
        n = player_counts(rs, self.players)[0]
        first, again = play_game(rs, n, 7), play_game(rs, n, 7)
        if first.save() != again.save():
            fail(f"{edition}: the same seed gave two different records")
        if play_game(rs, n, 8, actions=0).setup == first.setup:
            fail(f"{edition}: seeds 7 and 8 gave the same setup")

    def test_state_machine(self) -> None:
        """Random interleavings of play, probes, views, save/load and replay keep invariants."""
        machine = edition_machine(self._edition(), players=self.players, options=self.options)
        _run_machine(
            machine,
            settings=kit_settings(
                max(1, self.examples // 2), stateful_step_count=self.machine_steps
            ),
        )
