"""Playing many games with bots, reproducibly: what ``ttr simulate`` runs.

Seeds. A run with seed ``S`` plays game 0 with seed ``S`` itself and game ``i >= 1`` with
``rng.derive_seed(S, i)``; that per-game seed is all a game depends on, so a run of one
game with a printed game seed replays that game exactly. From the game seed ``G``:

* the game is set up with ``new_game(..., seed=G)``;
* the start player is ``rng.below`` of ``rng.derive_seed(G, 0)`` over the seats, so that
  no seat always starts;
* the bot in seat ``s`` is seeded with ``rng.derive_seed(G, s + 1)``.

Bots are given by name (see :mod:`ttr_core.bots.registry`) and cycled over the seats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from attrs import frozen

from ttr_core import rng
from ttr_core.bots.base import Bot, BotFactory
from ttr_core.bots.registry import find_bot
from ttr_core.engine import apply, new_game
from ttr_core.errors import TtrError
from ttr_core.legal import LegalActions
from ttr_core.ruleset import Ruleset
from ttr_core.scoring import score_game
from ttr_core.views import view_of

MAX_DECISIONS = 100_000
"""A game taking more decisions than this is stopped as broken (real games take hundreds)."""


class SimulationError(TtrError, RuntimeError):
    """A bot failed during a simulated game: it raised, or chose an illegal action."""


@frozen
class PlayerResult:
    """One seat's result in a simulated game."""

    name: str
    bot: str
    """The bot name as given (short name or ``module:Class``)."""
    total: int


@frozen
class GameResult:
    """The result of one simulated game."""

    seed: int
    """The game's own seed: ``simulate(..., games=1, seed=this)`` replays the game."""
    turns: int
    """Player turns played (the state's ``turn`` counter)."""
    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``ttr simulate --json`` prints for the game, one per line."""
        return {
            "seed": self.seed,
            "turns": self.turns,
            "players": [{"name": p.name, "bot": p.bot, "total": p.total} for p in self.players],
            "winners": list(self.winners),
        }


@frozen
class BotSummary:
    """How one bot did over a run (all seats it played)."""

    bot: str
    seats: int
    """Seats the bot played per game."""
    results: int
    """Seat-games played (games times seats)."""
    mean: float
    min: int
    max: int
    win_share: float
    """Wins per seat-game; a win shared by k players counts 1/k for each."""


@frozen
class Summary:
    """Per-bot statistics of a run, and the mean length of its games."""

    games: int
    mean_turns: float
    bots: tuple[BotSummary, ...]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run started with ``seed`` (game 0 uses ``seed``)."""
    return seed if index == 0 else rng.derive_seed(seed, index)


def seat_bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The bot name of each seat: ``bots`` cycled over ``players`` seats."""
    if not bots:
        raise ValueError("at least one bot is needed")
    return tuple(bots[s % len(bots)] for s in range(players))


def play_game(
    rs: Ruleset,
    bots: Sequence[str],
    seed: int,
    *,
    factories: Sequence[BotFactory] | None = None,
) -> GameResult:
    """Play one full game with the named bots (one per seat) from the game seed ``seed``.

    ``factories`` may hold the already looked-up bot classes, in seat order.

    :raises BotError: a bot name is unknown.
    :raises SimulationError: a bot raised an exception or chose an illegal action.
    :raises ValueError: the number of seats is not allowed by the edition.
    """
    players = len(bots)
    if factories is None:
        factories = [find_bot(name) for name in bots]
    start, _ = rng.below(rng.seed_state(rng.derive_seed(seed, 0)), players)
    state = new_game(rs, players, seed=seed, start_player=start)
    seated: list[Bot] = [
        factory(rs, s, rng.derive_seed(seed, s + 1)) for s, factory in enumerate(factories)
    ]
    decisions = 0
    while not state.is_over:
        seat = state.current
        legal = LegalActions(rs, state)
        try:
            action = seated[seat].choose(view_of(rs, state, seat), legal)
        except Exception as exc:
            raise SimulationError(
                f"bot {bots[seat]!r} in seat {seat} failed in the game with seed {seed}: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        try:
            state = apply(rs, state, action)
        except TtrError as exc:
            raise SimulationError(
                f"bot {bots[seat]!r} in seat {seat} chose {action!r} in the game with seed "
                f"{seed}, which is illegal: {exc}"
            ) from exc
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise SimulationError(
                f"the game with seed {seed} did not end in {MAX_DECISIONS} decisions"
            )
    names = [f"Player {s + 1}" for s in range(players)]
    sheet = score_game(rs, state, names)
    return GameResult(
        seed=seed,
        turns=state.turn,
        players=tuple(
            PlayerResult(name=p.name, bot=bots[s], total=p.total)
            for s, p in enumerate(sheet.players)
        ),
        winners=tuple(names[s] for s in sheet.winners),
    )


def simulate(
    rs: Ruleset,
    *,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    on_game: Callable[[GameResult], None] | None = None,
) -> Iterator[GameResult]:
    """Play ``games`` games and yield their results in order (see the module's seed rules).

    The arguments are checked at once; the games are played as the results are consumed.
    ``on_game`` is called after each game (e.g. to advance a progress bar).

    :raises BotError: a bot name is unknown (before any game is played).
    :raises ValueError: ``players`` is outside the edition's range or ``games`` is negative.
    :raises SimulationError: while iterating, when a bot failed.
    """
    lo, hi = rs.params.players
    if not lo <= players <= hi:
        raise ValueError(f"{rs.id} is played by {lo} to {hi} players, not {players}")
    if games < 0:
        raise ValueError(f"the number of games cannot be negative, got {games}")
    names = seat_bots(bots, players)
    factories = [find_bot(name) for name in names]

    def run() -> Iterator[GameResult]:
        for i in range(games):
            result = play_game(rs, names, game_seed(seed, i), factories=factories)
            if on_game is not None:
                on_game(result)
            yield result

    return run()


def summarize(results: Sequence[GameResult]) -> Summary:
    """Per-bot score statistics and win shares, bots in order of first seat."""
    totals: dict[str, list[int]] = {}
    wins: dict[str, float] = {}
    seats: dict[str, int] = {}
    for result in results:
        share = 1 / len(result.winners) if result.winners else 0.0
        per_game: dict[str, int] = {}
        for p in result.players:
            totals.setdefault(p.bot, []).append(p.total)
            wins.setdefault(p.bot, 0.0)
            per_game[p.bot] = per_game.get(p.bot, 0) + 1
            if p.name in result.winners:
                wins[p.bot] += share
        for bot, n in per_game.items():
            seats[bot] = max(seats.get(bot, 0), n)
    bots = tuple(
        BotSummary(
            bot=bot,
            seats=seats[bot],
            results=len(scores),
            mean=sum(scores) / len(scores),
            min=min(scores),
            max=max(scores),
            win_share=wins[bot] / len(scores),
        )
        for bot, scores in totals.items()
    )
    turns = [r.turns for r in results]
    return Summary(
        games=len(results),
        mean_turns=sum(turns) / len(turns) if turns else 0.0,
        bots=bots,
    )
