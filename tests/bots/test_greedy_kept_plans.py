"""The greedy bot keeps its plan between decisions: a kept plan is the one planning afresh
would make, and the bot's claims and draws are the ones the plain search would choose."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from ttr_core import Ruleset
from ttr_core.batch.runs import game_seed, play_game
from ttr_core.bots.greedy import Board, Edge, Goal, GreedyBot, _Kept, _locomotive_cost
from ttr_core.model.actions import Action, ClaimRoute, ClaimWithGroups, Pass
from ttr_core.rules.views import PlayerView


class CheckedGreedy(GreedyBot):
    """The greedy bot, checking at every turn decision that its plan is the fresh one."""

    kept = 0
    """Plans kept over other seats' claims, over all instances (the case under test)."""
    checked = 0
    last_turns = 0

    def _board(self, view: PlayerView) -> tuple[Board, list[Edge], list[Goal]]:
        board, plan, goals = super()._board(view)
        fresh = Board(self.ruleset, view)
        fresh_plan, fresh_goals = GreedyBot._plan(self, fresh, view)
        assert board.cost == fresh.cost
        assert board.own == fresh.own
        assert plan == fresh_plan
        assert goals == fresh_goals
        CheckedGreedy.checked += 1
        return board, plan, goals

    def _kept_plan(self, kept: _Kept, cost: list[int], owners: tuple[int, ...]) -> bool:
        found = super()._kept_plan(kept, cost, owners)
        CheckedGreedy.kept += found
        return found

    def _best_claim_of(
        self,
        hand: tuple[int, ...],
        legal: Sequence[Action],
        tracks: Iterable[int],
        plan: Sequence[Edge],
    ) -> ClaimRoute | ClaimWithGroups | None:
        listed = sorted(tracks)
        found = super()._best_claim_of(hand, legal, listed, plan)
        assert found == plain_best_claim(self, hand, legal, listed, plan)
        return found

    def _last_turn(
        self, board: Board, hand: tuple[int, ...], legal: Sequence[Action], goals: Sequence[Goal]
    ) -> Action | None:
        found = super()._last_turn(board, hand, legal, goals)
        assert found == plain_last_turn(self, board, hand, legal, goals)
        CheckedGreedy.last_turns += 1
        return found


def plain_last_turn(
    bot: GreedyBot,
    board: Board,
    hand: tuple[int, ...],
    legal: Sequence[Action],
    goals: Sequence[Goal],
) -> ClaimRoute | ClaimWithGroups | None:
    """The claim worth most, then the fewest locomotives, then map order, every free
    track's payment looked up."""
    best: tuple[tuple[int, int, int], ClaimRoute | ClaimWithGroups] | None = None
    for r in range(len(board.cost)):
        if not board.free(r):
            continue
        action = bot._payment(r, hand, legal, [0] * len(hand))
        if action is None:
            continue
        key = (-board.gain(r, goals), _locomotive_cost(action), r)
        if best is None or key < best[0]:
            best = (key, action)
    return None if best is None else best[1]


def plain_best_claim(
    bot: GreedyBot,
    hand: tuple[int, ...],
    legal: Sequence[Action],
    tracks: list[int],
    plan: Sequence[Edge],
) -> ClaimRoute | ClaimWithGroups | None:
    """The longest track the hand pays for, then the fewest locomotives, then map order,
    every track's payment looked up (what the bounded search must find)."""
    if len(legal) == 1 and isinstance(legal[0], Pass):
        return None
    reserved = bot._demand(hand, plan, flexible=False)
    best: tuple[tuple[int, int, int], ClaimRoute | ClaimWithGroups] | None = None
    for r in tracks:
        action = bot._payment(r, hand, legal, reserved)
        if action is None:
            continue
        key = (-bot.facts.length[r], _locomotive_cost(action), r)
        if best is None or key < best[0]:
            best = (key, action)
    return None if best is None else best[1]


@pytest.mark.parametrize(
    ("edition", "players"),
    [("usa", 2), ("usa", 4), ("usa", 5), ("europe", 3), ("europe", 5), ("nordic", 3)],
)
def test_kept_greedy_plan_is_the_fresh_plan(edition: str, players: int) -> None:
    """Rule of the greedy bot's plan cache: kept over other seats' claims only while it is
    what planning afresh gives; claims chosen with bounds are the plain search's."""
    rs = Ruleset.build(edition)
    CheckedGreedy.kept = CheckedGreedy.checked = CheckedGreedy.last_turns = 0
    for i in range(4):
        seed = game_seed(11 + players, i)
        checked = play_game(rs, ["c"] * players, seed, factories=[CheckedGreedy] * players)
        plain = play_game(rs, ["greedy"] * players, seed)
        assert [p.total for p in checked.players] == [p.total for p in plain.players]
        assert checked.turns == plain.turns
    assert CheckedGreedy.checked > 100
    assert CheckedGreedy.kept > 10
    assert CheckedGreedy.last_turns > 0
