"""``check_edition``: the kit's checks over seeded random games, without Hypothesis' search.

Game ``g`` of a run with seed ``S`` is set up with ``derive_seed(S, g)`` and cycles
through the player counts and option sets asked for. At every decision the state's
invariants are checked and a few actions from the whole action space are tried. At
decisions 0, 1, 2, 4, 8, ... and every 32nd, more are tried (every face-up card kind
among them), listed actions are applied and every seat's view is checked; at a few of
them, and at the end, the record is saved, loaded and replayed. Each finished game is
scored and its position read back."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import frozen

from ttr_core.formats.serialize import state_to_json
from ttr_core.model import rng
from ttr_core.model.actions import Action, DrawBlind, DrawTickets, Pass, TakeFaceUp, WithdrawTunnel
from ttr_core.model.cards import NUM_KINDS
from ttr_core.play.game import Game
from ttr_core.ruleset.editions import find_edition
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing.invariants import (
    check_action,
    check_end,
    check_events_redacted,
    check_legal_actions,
    check_records,
    check_state,
    check_unchanged,
    check_view,
    fail,
)
from ttr_core.testing.play import (
    CHOICE_STREAM,
    MAX_DECISIONS,
    PROBE_STREAM,
    Chooser,
    choose_options,
    player_counts,
    recipe,
    ruleset,
)
from ttr_core.testing.space import arbitrary_actions

PROBES = 4
"""Arbitrary actions tried at every decision."""
DEEP_PROBES = 24
"""Arbitrary actions tried at the decisions checked in depth."""
LISTED = 40
"""Listed actions applied at the decisions checked in depth (all if there are fewer)."""
RECORD_POINTS = frozenset({1, 16, 128})
"""Action indices at which the record is saved, loaded and replayed (and at the end)."""


@frozen
class EditionCheck:
    """What `check_edition` did, when it found nothing wrong."""

    edition: str
    games: int
    actions: int
    """Actions played over all games."""
    listed: int
    """Listed actions applied to check that they are legal."""
    probes: int
    """Actions from the whole action space tried (accepted exactly when listed)."""
    rejected: int
    """Probes rightly rejected with an
    [`IllegalActionError`][ttr_core.model.errors.IllegalActionError]."""
    probes_by_phase: Mapping[str, int]
    views: int
    """Views checked (one per seat per decision checked in depth)."""
    records: int
    """Save, load and replay round trips."""
    endings: Mapping[str, int]
    """Games by the way they ended (``final_round`` or ``deadlock``)."""


class _Tally:
    def __init__(self) -> None:
        self.actions = self.listed = self.probes = self.rejected = self.views = 0
        self.records = 0
        self.at = 0
        """The action index of the decision being checked."""
        self.phases: Counter[str] = Counter()
        self.endings: Counter[str] = Counter()


def _deep(i: int) -> bool:
    return i & (i - 1) == 0 or i % 32 == 0


EVERY_KIND: tuple[Action, ...] = (
    *(TakeFaceUp(card=k) for k in range(NUM_KINDS)),
    DrawBlind(),
    DrawTickets(),
    WithdrawTunnel(),
    Pass(),
)
"""Actions tried, besides the random ones, at the decisions checked in depth."""


def _probe(game: Game, chooser: Chooser, count: int, tally: _Tally, *, via_game: bool) -> None:
    rs, state = game.ruleset, game.state
    legal = game.legal_actions()
    before = state_to_json(state) if via_game else None
    actions = arbitrary_actions(rs, state, chooser, count, legal)
    if via_game:
        actions.extend(EVERY_KIND)
    for action in actions:
        tally.probes += 1
        tally.phases[state.phase.name] += 1
        if check_action(rs, state, action, legal) is None:
            tally.rejected += 1
            if via_game:
                log = len(game.log)
                try:
                    game.apply(action)
                except ValueError:
                    pass
                else:
                    fail(f"Game.apply accepts {action!r}, which apply rejects")
                if game.state is not state or len(game.log) != log:
                    fail(f"Game.apply of the rejected {action!r} changed the game")
    if before is not None:
        check_unchanged(before, state, " after rejected actions")


def _check_game(rs: Ruleset, players: int, seed: int, tally: _Tally) -> int:
    """Play and check one game; return the number of actions played."""
    game = Game.new(rs, players=players, seed=seed)
    check_events_redacted(game.setup, players)
    choose = Chooser(rng.derive_seed(seed, CHOICE_STREAM))
    probe = Chooser(rng.derive_seed(seed, PROBE_STREAM))
    i = 0
    while True:
        tally.at = i
        state = game.state
        check_state(rs, state)
        deep = _deep(i)
        legal = game.legal_actions()
        limit = LISTED if deep else 3
        tally.listed += check_legal_actions(rs, state, legal, pick=probe, limit=limit)
        _probe(game, probe, DEEP_PROBES if deep else PROBES, tally, via_game=deep)
        if deep:
            for seat in range(players):
                check_view(rs, state, seat, probe)
                tally.views += 1
            if i in RECORD_POINTS:
                check_records(game)
                tally.records += 1
        if state.is_over:
            break
        if i >= MAX_DECISIONS:
            fail(f"the game did not end within {MAX_DECISIONS} actions")
        events = game.apply(legal[choose.below(len(legal))])
        check_events_redacted(events, players)
        i += 1
    check_end(game)
    check_records(game)
    tally.records += 1
    tally.endings[game.state.ended_by] += 1
    return i


def check_edition(
    edition_id: str,
    *,
    players: int | Iterable[int] | None = None,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    games: int = 20,
    seed: int = 0,
) -> EditionCheck:
    """Run the kit's checks over ``games`` seeded random games of an installed edition.

    ``players`` is a count or several (default: every count the edition allows);
    ``options`` one option mapping or several (default: every combination of the
    edition's option choices). Games cycle through every pairing of the two. The run
    is deterministic: the same arguments check the same games.

    :raises AssertionError: on the first violation, naming the game seed and the action
        index, with the [`game_at`][ttr_core.testing.game_at] call that rebuilds the position.
    :raises UnknownEditionError: the edition is not installed.
    """
    edition = find_edition(edition_id).info.id
    if players is not None and not isinstance(players, int):
        players = tuple(players)
    cases: list[tuple[Ruleset, int]] = []
    for opts in choose_options(edition, options):
        rs = ruleset(edition, opts)
        cases.extend((rs, n) for n in player_counts(rs, players))
    tally = _Tally()
    for g in range(games):
        rs, n = cases[g % len(cases)]
        game_seed = rng.derive_seed(seed, g)
        before = tally.actions
        try:
            tally.actions += _check_game(rs, n, game_seed, tally)
        except Exception as exc:
            at = tally.at
            raise AssertionError(
                f"check_edition({edition!r}) failed in game {g} of {games} (seed {game_seed}, "
                f"{n} players, options {dict(rs.options)}) at action index {at}: {exc}\n"
                f"reproduce with: {recipe(rs, n, game_seed, at)}"
            ) from exc
        if tally.actions == before:
            fail(f"check_edition({edition!r}): game {g} ended before any action")
    return EditionCheck(
        edition=edition,
        games=games,
        actions=tally.actions,
        listed=tally.listed,
        probes=tally.probes,
        rejected=tally.rejected,
        probes_by_phase=dict(sorted(tally.phases.items())),
        views=tally.views,
        records=tally.records,
        endings=dict(sorted(tally.endings.items())),
    )
