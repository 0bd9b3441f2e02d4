"""Playing many games with bots, reproducibly: what ``ttr simulate`` runs.

Seeds. A run with seed ``S`` plays game 0 with seed ``S`` itself and game ``i >= 1`` with
``rng.derive_seed(S, i)``; that per-game seed is all a game depends on, so a run of one
game with a printed game seed replays that game exactly. From the game seed ``G``:

* the game is set up with ``new_game(..., seed=G)``;
* the start player is ``rng.below`` of ``rng.derive_seed(G, 0)`` over the seats, so that
  no seat always starts;
* the bot in seat ``s`` is seeded with ``rng.derive_seed(G, s + 1)``.

Bots are given by name (see :mod:`ttr_core.bots.registry`) and cycled over the seats.
Seat 0 is named ``Player 1``, seat 1 ``Player 2`` and so on, in results and records alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from attrs import field, frozen

from ttr_core import rng
from ttr_core.bots.base import Bot, BotFactory
from ttr_core.bots.registry import find_bot
from ttr_core.engine import apply, new_game
from ttr_core.errors import TtrError
from ttr_core.events import Event
from ttr_core.game import Game, GameRecord, LogEntry
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
    record: GameRecord | None = field(default=None, repr=False)
    """The game's record (``Game.replay`` accepts it) when it was asked for, else None."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``ttr simulate --json`` prints for the game, one per line (no record)."""
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
    """Seats the bot played per game (the most it played in any one game)."""
    games: int
    """Games the bot played in."""
    games_won: int
    """Games in which at least one of the bot's seats is among the winners (ties included)."""
    win_share: float
    """``games_won / games``: how often the bot won; shares of a tie each count in full,
    so the bots' shares can add up to more than 1."""
    results: int
    """Seat-games played (games times seats): what the score statistics are taken over."""
    mean: float
    """Mean final score over the seat-games."""
    min: int
    """Lowest final score of any of its seats."""
    max: int
    """Highest final score of any of its seats."""


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
    record: bool = False,
) -> GameResult:
    """Play one full game with the named bots (one per seat) from the game seed ``seed``.

    ``factories`` may hold the already looked-up bot classes, in seat order. With
    ``record``, the result carries the game's record; without it no events are collected,
    which keeps the plain run fast.

    :raises BotError: a bot name is unknown.
    :raises SimulationError: a bot raised an exception or chose an illegal action.
    :raises ValueError: the number of seats is not allowed by the edition.
    """
    players = len(bots)
    if factories is None:
        factories = [find_bot(name) for name in bots]
    start, _ = rng.below(rng.seed_state(rng.derive_seed(seed, 0)), players)
    setup: list[Event] | None = [] if record else None
    log: list[LogEntry] | None = [] if record else None
    state = new_game(rs, players, seed=seed, start_player=start, events=setup)
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
            if log is None:
                state = apply(rs, state, action)
            else:
                events: list[Event] = []
                state = apply(rs, state, action, events=events)
                log.append(LogEntry(action=action, events=tuple(events)))
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
    saved = None
    if setup is not None and log is not None:
        saved = Game(rs, state, names, seed=seed, setup=setup, log=log).record()
    return GameResult(
        seed=seed,
        turns=state.turn,
        players=tuple(
            PlayerResult(name=p.name, bot=bots[s], total=p.total)
            for s, p in enumerate(sheet.players)
        ),
        winners=tuple(names[s] for s in sheet.winners),
        record=saved,
    )


def simulate(
    rs: Ruleset,
    *,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    on_game: Callable[[GameResult], None] | None = None,
    records: bool = False,
) -> Iterator[GameResult]:
    """Play ``games`` games and yield their results in order (see the module's seed rules).

    The arguments are checked at once; the games are played as the results are consumed.
    ``on_game`` is called after each game (e.g. to advance a progress bar). With
    ``records``, each result carries its game's record (see :func:`play_game`).

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
            result = play_game(rs, names, game_seed(seed, i), factories=factories, record=records)
            if on_game is not None:
                on_game(result)
            yield result

    return run()


def summarize(results: Sequence[GameResult]) -> Summary:
    """Per-bot score statistics and games won, bots in order of first seat.

    A bot wins a game when at least one of its seats is among the winners; a tie between
    seats of different bots is a game won by each of them.
    """
    totals: dict[str, list[int]] = {}
    games: dict[str, int] = {}
    won: dict[str, int] = {}
    seats: dict[str, int] = {}
    for result in results:
        per_game: dict[str, int] = {}
        winning: set[str] = set()
        for p in result.players:
            totals.setdefault(p.bot, []).append(p.total)
            per_game[p.bot] = per_game.get(p.bot, 0) + 1
            if p.name in result.winners:
                winning.add(p.bot)
        for bot, n in per_game.items():
            seats[bot] = max(seats.get(bot, 0), n)
            games[bot] = games.get(bot, 0) + 1
            won[bot] = won.get(bot, 0) + (bot in winning)
    bots = tuple(
        BotSummary(
            bot=bot,
            seats=seats[bot],
            games=games[bot],
            games_won=won[bot],
            win_share=won[bot] / games[bot],
            results=len(scores),
            mean=sum(scores) / len(scores),
            min=min(scores),
            max=max(scores),
        )
        for bot, scores in totals.items()
    )
    turns = [r.turns for r in results]
    return Summary(
        games=len(results),
        mean_turns=sum(turns) / len(turns) if turns else 0.0,
        bots=bots,
    )
