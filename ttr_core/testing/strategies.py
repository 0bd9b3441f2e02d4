"""Hypothesis strategies for an edition: games, action sequences, any action, end positions.

Every strategy takes the edition id and, optionally, the player counts and options to
use (by default every count the edition allows and every combination of its option
choices). They shrink towards fewer players, earlier positions and simpler actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen
from hypothesis import strategies as st

from ttr_core.formats.position import position_to_json
from ttr_core.model import rng
from ttr_core.model.actions import Action
from ttr_core.model.state import GameState
from ttr_core.play.game import Game
from ttr_core.play.legal import LegalActions
from ttr_core.rules.scoring import position_of
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing.play import (
    CHOICE_STREAM,
    Chooser,
    choose_options,
    play,
    player_counts,
    recipe,
    ruleset,
)
from ttr_core.testing.space import arbitrary_action, random_position

Players = int | Sequence[int] | None
Options = Mapping[str, Any] | Sequence[Mapping[str, Any]] | None

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


class GeneratedGame(Game):
    """A [`Game`][ttr_core.play.game.Game] made by `games`; its repr rebuilds it."""

    recipe = ""

    def __repr__(self) -> str:
        return self.recipe or super().__repr__()


@st.composite
def rulesets_and_players(
    draw: st.DrawFn, edition: str, players: Players = None, options: Options = None
) -> tuple[Ruleset, int]:
    """A ruleset of the edition (one of the option sets) and a player count."""
    opts = draw(st.sampled_from(choose_options(edition, options)))
    rs = ruleset(edition, opts)
    return rs, draw(st.sampled_from(player_counts(rs, players)))


@st.composite
def games(
    draw: st.DrawFn,
    edition: str,
    *,
    players: Players = None,
    options: Options = None,
    max_actions: int | None = None,
) -> Game:
    """A seeded game at any point of play, from the setup to the end (at most ``max_actions``
    actions in).

    The actions are uniformly random legal ones, as [`game_at`][ttr_core.testing.game_at]
    plays them, so the repr of a failing example is the call that rebuilds it. The point
    of play is uniform over the length of the game, and shrinks towards the setup.
    """
    rs, n = draw(rulesets_and_players(edition, players, options))
    seed = draw(SEEDS)
    full = play(Game.new(rs, players=n, seed=seed), Chooser(rng.derive_seed(seed, CHOICE_STREAM)))
    top = len(full.log) if max_actions is None else min(len(full.log), max_actions)
    stop = draw(st.integers(min_value=0, max_value=top))
    game = GeneratedGame.new(rs, players=n, seed=seed)
    assert isinstance(game, GeneratedGame)
    for entry in full.log[:stop]:
        game.apply(entry.action)
    game.recipe = recipe(rs, n, seed, stop)
    return game


@frozen
class ActionSequence:
    """Legal actions played from the setup of a seeded game."""

    ruleset: Ruleset
    players: int
    seed: int
    actions: tuple[Action, ...]

    def replay(self) -> Game:
        """A new game with these actions applied."""
        game = Game.new(self.ruleset, players=self.players, seed=self.seed)
        for action in self.actions:
            game.apply(action)
        return game

    def __repr__(self) -> str:
        return (
            f"ActionSequence({self.ruleset.id!r}, options={dict(self.ruleset.options)!r}, "
            f"players={self.players}, seed={self.seed}, actions={list(self.actions)!r})"
        )


@st.composite
def action_sequences(
    draw: st.DrawFn,
    edition: str,
    *,
    players: Players = None,
    options: Options = None,
    max_size: int = 60,
) -> ActionSequence:
    """A sequence of legal actions from the start of a game, each chosen by Hypothesis.

    Shrinking shortens the sequence and moves each choice towards the first listed action.
    """
    rs, n = draw(rulesets_and_players(edition, players, options))
    seed = draw(SEEDS)
    size = draw(st.integers(min_value=0, max_value=max_size))
    game = Game.new(rs, players=n, seed=seed)
    actions: list[Action] = []
    while len(actions) < size and not game.is_over:
        legal = game.legal_actions()
        action = legal[draw(st.integers(min_value=0, max_value=len(legal) - 1))]
        game.apply(action)
        actions.append(action)
    return ActionSequence(ruleset=rs, players=n, seed=seed, actions=tuple(actions))


def any_actions(
    rs: Ruleset, state: GameState, legal: LegalActions | None = None
) -> st.SearchStrategy[Action]:
    """Actions from the whole action space in ``state``, legal or not.

    See `arbitrary_action` for what they are made of.
    """

    @st.composite
    def build(draw: st.DrawFn) -> Action:
        def pick(n: int) -> int:
            return draw(st.integers(min_value=0, max_value=n - 1))

        return arbitrary_action(rs, state, pick, legal)

    return build()


@st.composite
def end_positions(
    draw: st.DrawFn, edition: str, *, players: Players = None, options: Options = None
) -> dict[str, Any]:
    """An end-of-game position in the ``ttr score`` input format.

    Either the position of a seeded random game played to the end, or holdings dealt at
    random within the rules (see `random_position`). Score it with
    ``read_position(json.dumps(value), options=...)``; the edition's options must be passed
    again, as the format does not carry them.
    """
    rs, n = draw(rulesets_and_players(edition, players, options))
    if draw(st.booleans()):

        def pick(k: int) -> int:
            return draw(st.integers(min_value=0, max_value=k - 1))

        position = random_position(rs, n, pick)
    else:
        seed = draw(SEEDS)
        game = Game.new(rs, players=n, seed=seed)
        play(game, Chooser(rng.derive_seed(seed, CHOICE_STREAM)))
        position = position_of(rs, game.state, game.names)
    return position_to_json(rs, position)
