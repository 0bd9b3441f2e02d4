"""The sequential test: its bounds and log-likelihood ratio, and an arena of simulated
games that stops only at the end of a block, with H1 for a strong candidate and H0 for a
weak one."""

from __future__ import annotations

import math
import random

import pytest

from ttr_core.arena.games import ArenaGame, ranks
from ttr_core.arena.run import Standings, rate_games
from ttr_core.arena.schedule import block_seed, seatings
from ttr_core.arena.sequential import MIN_BLOCKS, Sprt, expected_score, llr, state
from ttr_core.arena.store import ArenaSettings
from ttr_core.batch.parallel import GameFailure


def settings(bots: tuple[str, ...]) -> ArenaSettings:
    return ArenaSettings(edition="usa", options=(), players=3, bots=bots, seed=11)


STRENGTH = {"strong": 12.0, "weak": 0.0, "middle": 6.0}
"""Mean scores of the simulated bots (each seat's score is its mean plus noise)."""


def simulated_games(arena: ArenaSettings, blocks: int, seed: int) -> list[tuple[int, ArenaGame]]:
    """The games of ``blocks`` blocks in game order, scores drawn around each bot's mean."""
    draw = random.Random(seed)
    seats = seatings(len(arena.bots), arena.players)
    out = []
    for block in range(blocks):
        for s, seating in enumerate(seats):
            names = tuple(arena.bots[b] for b in seating)
            scores = tuple(round(STRENGTH[n] + draw.gauss(0, 25)) for n in names)
            best = max(scores)
            won = [x == best for x in scores]
            game = ArenaGame(
                block=block,
                seating=s,
                seed=block_seed(arena.seed, block),
                bots=names,
                scores=scores,
                ranks=ranks(scores, won),
                turns=100,
            )
            out.append((block * len(seats) + s, game))
    return out


def test_bounds_are_walds() -> None:
    test = Sprt(0, 10, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)


def test_the_llr_leans_to_the_hypothesis_the_scores_fit() -> None:
    test = Sprt(0, 50)
    s1 = expected_score(50)
    assert llr(test, [s1 + 0.1, s1 - 0.1] * 5) > 0
    assert llr(test, [0.4, 0.6] * 5) < 0
    assert llr(test, [1.0] * (MIN_BLOCKS - 1)) == 0
    assert state(test, [1.0] * (MIN_BLOCKS - 1)).decision == "undecided"
    assert state(test, [1.0] * MIN_BLOCKS).decision == "H1"  # the variance floor


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="below"):
        Sprt(10, 0)
    with pytest.raises(ValueError, match="alpha"):
        Sprt(0, 10, alpha=0.6)
    with pytest.raises(ValueError, match="beta"):
        Sprt(0, 10, beta=0)


@pytest.mark.parametrize(
    ("bots", "decision"),
    [(("strong", "weak", "middle"), "H1"), (("weak", "strong", "middle"), "H0")],
)
def test_the_test_stops_only_at_the_end_of_a_block(bots: tuple[str, ...], decision: str) -> None:
    """Strong against weak: the test decides, and only ever after a block's last game."""
    arena = settings(bots)
    per_block = len(seatings(3, 3))
    games = simulated_games(arena, blocks=100, seed=5)
    standings = Standings(arena, Sprt(0, 60))
    stop = None
    for number, game in games:
        standings.add(number, game)
        assert standings.blocks == (number + 1) // per_block
        if standings.stopped:
            stop = number
            break
    assert stop is not None and (stop + 1) % per_block == 0
    assert standings.sprt is not None and standings.sprt.decision == decision
    assert MIN_BLOCKS < standings.blocks < 100
    with pytest.raises(ValueError, match="not the next game"):
        standings.add(stop + 1, games[stop + 1][1])
    # Rating the same games stops at the same block.
    again = rate_games(arena, games, draws=0, test=Sprt(0, 60))
    assert again.blocks == standings.blocks and again.sprt == standings.sprt


def test_a_block_with_a_failed_game_is_left_out() -> None:
    arena = settings(("strong", "weak", "middle"))
    games: list[tuple[int, ArenaGame | GameFailure]] = list(simulated_games(arena, 3, seed=1))
    games[7] = (7, GameFailure(index=7, seed=0, message="failed"))  # block 1
    standings = Standings(arena)
    for number, outcome in games:
        standings.add(number, outcome)
    assert {g.block for g in standings.games} == {0, 2}
    result = rate_games(arena, games, draws=0)
    assert result.blocks == 2 and result.games == 12 and result.failed == 1
