"""Reproducible random play: which rulesets, player counts and actions the kit uses.

Every choice the kit makes comes from [`ttr_core.model.rng`][ttr_core.model.rng], so a game is fixed
by its edition, options, player count and seed on every platform and Python version. The action
played at each decision is uniform over the legal actions, drawn from a stream derived from the game
seed; `game_at` rebuilds any position a failure names. `play_random` and `random_game_states` play
the same way on the functional API ([`ttr_core.play.functional`][ttr_core.play.functional]), for
tests that look at every decision.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import product
from typing import Any

from ttr_core.model import rng
from ttr_core.model.actions import Action
from ttr_core.model.events import Event
from ttr_core.model.state import GameState
from ttr_core.play.functional import apply, new_game
from ttr_core.play.game import Game
from ttr_core.play.legal import LegalActions, legal_actions
from ttr_core.ruleset.ruleset import Ruleset

CHOICE_STREAM = 1
"""``derive_seed(game_seed, CHOICE_STREAM)`` seeds the choice of the actions played."""
PROBE_STREAM = 2
"""``derive_seed(game_seed, PROBE_STREAM)`` seeds the extra checks of `check_edition`."""
MAX_DECISIONS = 5000
"""A random game still running after this many decisions is reported as not ending."""

_RULESETS: dict[tuple[str, str], Ruleset] = {}


class Chooser:
    """Uniform choices from a seed, identical on every platform and Python version."""

    def __init__(self, seed: int) -> None:
        self._stream = rng.Stream(seed)

    def below(self, n: int) -> int:
        """A number uniform in ``range(n)`` (``n`` must be positive)."""
        return self._stream.below(n)

    def __call__(self, n: int) -> int:
        """Same as `below`, so a chooser can be passed wherever a pick is wanted."""
        return self.below(n)


def ruleset(edition: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset of an installed edition with options, built once per process."""
    key = (edition, json.dumps(dict(options or {}), sort_keys=True, default=repr))
    found = _RULESETS.get(key)
    if found is None:
        found = _RULESETS[key] = Ruleset.build(edition, options)
    return found


def option_sets(edition: str) -> list[dict[str, Any]]:
    """Every combination of the edition's option choices (one empty set if it has none)."""
    specs = ruleset(edition).option_specs
    return [
        {spec.name: value for spec, value in zip(specs, combo, strict=True)}
        for combo in product(*(spec.choices for spec in specs))
    ]


def player_counts(rs: Ruleset, players: int | Iterable[int] | None = None) -> tuple[int, ...]:
    """The player counts to test: all the ruleset allows, or those given (checked).

    :raises ValueError: a given count is outside the edition's range.
    """
    lo, hi = rs.params.players
    if players is None:
        return tuple(range(lo, hi + 1))
    counts = (players,) if isinstance(players, int) else tuple(players)
    for n in counts:
        if not lo <= n <= hi:
            raise ValueError(f"{rs.id} is played by {lo} to {hi} players, not {n}")
    if not counts:
        raise ValueError("give at least one player count")
    return counts


def choose_options(
    edition: str, options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None
) -> list[dict[str, Any]]:
    """The option sets to test: every combination, one mapping, or a list of mappings."""
    if options is None:
        return option_sets(edition)
    if isinstance(options, Mapping):
        return [dict(options)]
    sets = [dict(o) for o in options]
    if not sets:
        raise ValueError("give at least one option set")
    return sets


def play(game: Game, chooser: Chooser, actions: int | None = None) -> Game:
    """Apply uniformly chosen legal actions until the game ends or ``actions`` were played.

    :raises AssertionError: no legal action before the end, or no end within
        `MAX_DECISIONS`.
    """
    limit = MAX_DECISIONS if actions is None else actions
    while not game.is_over and len(game.log) < limit:
        legal = game.legal_actions()
        if not legal:
            raise AssertionError(f"no legal action at action index {len(game.log)}")
        game.apply(legal[chooser.below(len(legal))])
    if actions is None and not game.is_over:
        raise AssertionError(f"the game did not end within {MAX_DECISIONS} actions")
    return game


def play_game(rs: Ruleset, players: int, seed: int, actions: int | None = None) -> Game:
    """A game of ``rs`` set up with ``seed``, played to the end or for ``actions`` actions."""
    game = Game.new(rs, players=players, seed=seed)
    return play(game, Chooser(rng.derive_seed(seed, CHOICE_STREAM)), actions)


def play_random(
    rs: Ruleset,
    players: int,
    seed: int,
    choice_seed: int,
    *,
    max_decisions: int = MAX_DECISIONS,
    visit: Callable[[GameState, LegalActions], None] | None = None,
) -> tuple[GameState, int]:
    """Play a game set up with ``seed`` to its end, choosing uniformly among the legal
    actions with a `Chooser` derived from ``choice_seed``.

    ``visit(state, legal)`` is called before every decision. With ``choice_seed`` equal
    to ``seed`` this is the game `play_game` plays. Returns the final state and the
    number of decisions.

    :raises AssertionError: no legal action before the end, or no end within
        ``max_decisions`` decisions.
    """
    choose = Chooser(rng.derive_seed(choice_seed, CHOICE_STREAM))
    state = new_game(rs, players, seed=seed)
    decisions = 0
    while not state.is_over:
        legal = legal_actions(rs, state)
        if visit is not None:
            visit(state, legal)
        if not legal:
            raise AssertionError(f"no legal action at action index {decisions}")
        state = apply(rs, state, legal[choose.below(len(legal))])
        decisions += 1
        if decisions > max_decisions:
            raise AssertionError(f"the game did not end within {max_decisions} actions")
    return state, decisions


def random_game_states(
    rs: Ruleset, players: int, seed: int, choice_seed: int
) -> tuple[list[GameState], list[Action], list[list[Event]]]:
    """The game `play_random` plays, step by step: every state from the setup to the
    end, the action applied to each but the last, and the events of the setup and of
    each action (so ``events[i + 1]`` are those of ``actions[i]``).

    :raises AssertionError: no legal action before the end, or no end within
        `MAX_DECISIONS` decisions.
    """
    choose = Chooser(rng.derive_seed(choice_seed, CHOICE_STREAM))
    events: list[Event] = []
    state = new_game(rs, players, seed=seed, events=events)
    states: list[GameState] = [state]
    actions: list[Action] = []
    logs = [events]
    while not state.is_over:
        legal = legal_actions(rs, state)
        if not legal:
            raise AssertionError(f"no legal action at action index {len(actions)}")
        action = legal[choose.below(len(legal))]
        events = []
        state = apply(rs, state, action, events=events)
        states.append(state)
        actions.append(action)
        logs.append(events)
        if len(actions) > MAX_DECISIONS:
            raise AssertionError(f"the game did not end within {MAX_DECISIONS} actions")
    return states, actions, logs


def game_at(
    edition: str,
    *,
    seed: int,
    players: int,
    options: Mapping[str, Any] | None = None,
    actions: int | None = None,
) -> Game:
    """The game a kit failure names, replayed to just before its ``actions``-th action.

    ``actions=None`` plays to the end.
    """
    return play_game(ruleset(edition, options), players, seed, actions)


def recipe(rs: Ruleset, players: int, seed: int, actions: int | None) -> str:
    """The `game_at` call that rebuilds a game, as text for failure messages."""
    return (
        f"ttr_core.testing.game_at({rs.id!r}, seed={seed}, players={players}, "
        f"options={dict(rs.options)!r}, actions={actions})"
    )
