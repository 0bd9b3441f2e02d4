"""Simulated runs: the seed scheme, reproducibility, summaries and failing bots."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ttr_core import Ruleset
from ttr_core.batch.runs import (
    GameResult,
    PlayerResult,
    SimulationError,
    game_seed,
    play_game,
    seat_bots,
    simulate,
    summarize,
)
from ttr_core.bots import BaseBot
from ttr_core.model import rng
from ttr_core.model.actions import Action, DrawTickets
from ttr_core.model.errors import BotError
from ttr_core.rules.views import PlayerView


@pytest.fixture(scope="module")
def usa() -> Ruleset:
    return Ruleset.build("usa")


def test_game_zero_uses_the_run_seed_and_later_games_derive_theirs() -> None:
    assert game_seed(5, 0) == 5
    assert game_seed(5, 1) == rng.derive_seed(5, 1)
    assert len({game_seed(5, i) for i in range(50)}) == 50


def test_a_run_is_reproducible(usa: Ruleset) -> None:
    def run() -> list[GameResult]:
        return list(simulate(usa, players=3, games=3, seed=9, bots=["random"]))

    assert run() == run()


def test_one_game_run_with_a_printed_seed_replays_that_game(usa: Ruleset) -> None:
    results = list(simulate(usa, players=2, games=3, seed=4, bots=["greedy", "random"]))
    for result in results:
        (again,) = simulate(usa, players=2, games=1, seed=result.seed, bots=["greedy", "random"])
        assert again == result


def test_bots_are_cycled_over_the_seats() -> None:
    assert seat_bots(["greedy", "random"], 5) == ("greedy", "random", "greedy", "random", "greedy")
    assert seat_bots(["greedy"], 3) == ("greedy",) * 3
    with pytest.raises(ValueError):
        seat_bots([], 2)


def test_results_name_seats_bots_and_winners(usa: Ruleset) -> None:
    result = play_game(usa, ("greedy", "random", "random"), 12)
    assert [p.name for p in result.players] == ["Player 1", "Player 2", "Player 3"]
    assert [p.bot for p in result.players] == ["greedy", "random", "random"]
    assert result.winners and set(result.winners) <= {p.name for p in result.players}
    line = result.to_json()
    assert list(line) == ["seed", "turns", "players", "winners"]
    assert line["players"][0] == {
        "name": "Player 1",
        "bot": "greedy",
        "total": result.players[0].total,
    }


def test_summary_counts_a_shared_win_for_every_bot_in_it() -> None:
    def game(totals: tuple[int, int], winners: tuple[str, ...]) -> GameResult:
        players = tuple(
            PlayerResult(name=f"P{i}", bot=bot, total=t)
            for i, (bot, t) in enumerate(zip(("a", "b"), totals, strict=True))
        )
        return GameResult(seed=0, turns=10, players=players, winners=winners)

    summary = summarize([game((50, 40), ("P0",)), game((30, 30), ("P0", "P1"))])
    a, b = summary.bots
    assert (a.bot, a.seats, a.results, a.mean, a.min, a.max) == ("a", 1, 2, 40.0, 30, 50)
    assert (a.games, a.games_won, a.win_share) == (2, 2, 1.0)
    assert (b.games, b.games_won, b.win_share) == (2, 1, 0.5)
    assert summary.mean_turns == 10


def test_summary_gives_each_seat_its_wins_and_scores() -> None:
    """A seat's wins count the games it is among the winners, ties for each tied seat."""

    def game(totals: tuple[int, int, int], winners: tuple[str, ...]) -> GameResult:
        players = tuple(
            PlayerResult(name=f"P{i}", bot=bot, total=t)
            for i, (bot, t) in enumerate(zip(("a", "b", "a"), totals, strict=True))
        )
        return GameResult(seed=0, turns=10, players=players, winners=winners)

    summary = summarize(
        [game((50, 40, 10), ("P0",)), game((30, 30, 20), ("P0", "P1")), game((5, 6, 70), ("P2",))]
    )
    rows = [(s.name, s.bot, s.games_won, s.mean, s.min, s.max) for s in summary.seats]
    assert rows == [
        ("P0", "a", 2, 85 / 3, 5, 50),
        ("P1", "b", 1, 76 / 3, 6, 40),
        ("P2", "a", 1, 100 / 3, 10, 70),
    ]
    assert [s.win_share for s in summary.seats] == [2 / 3, 1 / 3, 1 / 3]
    assert summarize([]).seats == ()


def test_player_count_outside_the_edition_is_refused(usa: Ruleset) -> None:
    with pytest.raises(ValueError, match="2 to 5 players"):
        simulate(usa, players=6, games=1, seed=1, bots=["random"])


def test_unknown_bot_is_refused_before_any_game(usa: Ruleset) -> None:
    with pytest.raises(BotError):
        simulate(usa, players=2, games=1, seed=1, bots=["random", "nobody"])


class Crashing(BaseBot):
    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        raise ZeroDivisionError("oops")


class Cheating(BaseBot):
    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return DrawTickets()


def test_a_crashing_bot_is_a_simulation_error(usa: Ruleset) -> None:
    with pytest.raises(SimulationError, match=r"bot 'crash' in seat \d failed .*ZeroDivisionError"):
        play_game(usa, ("crash", "crash"), 1, factories=[Crashing, Crashing])


def test_an_illegal_choice_is_a_simulation_error(usa: Ruleset) -> None:
    with pytest.raises(SimulationError, match="which is illegal"):
        play_game(usa, ("cheat", "cheat"), 1, factories=[Cheating, Cheating])
