"""Playing many games with bots, reproducibly: what ``ttr simulate`` runs.

Seeds. A run with seed ``S`` plays game 0 with seed ``S`` itself and game ``i >= 1`` with
``rng.derive_seed(S, i)``; that per-game seed is all a game depends on, so a run of one
game with a printed game seed replays that game exactly. From the game seed ``G``:

* the game is set up with ``new_game(..., seed=G)``;
* the start player is ``rng.below`` of ``rng.derive_seed(G, 0)`` over the seats, so that
  no seat always starts;
* the bot in seat ``s`` is seeded with ``rng.derive_seed(G, s + 1)``.

Bots are given by name (see `ttr_core.bots.registry`) and cycled over the seats.
Seat 0 is named ``Player 1``, seat 1 ``Player 2`` and so on, in results and records alike.

A run can be played on several local processes or on a Dask cluster (``jobs``, ``scheduler``; see
[`ttr_core.batch.parallel`][ttr_core.batch.parallel]): each game still depends on its seed alone and
results come in game order, so they are the same wherever the games ran.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from attrs import field, frozen

from ttr_core.batch.parallel import GameFailure, run_in_order
from ttr_core.bots.base import Bot, BotFactory, index_chooser
from ttr_core.bots.registry import find_bot
from ttr_core.hidden.seat_actions import SeatLister
from ttr_core.model import rng
from ttr_core.model.errors import TtrError
from ttr_core.play.game import Game
from ttr_core.play.records import GameRecord
from ttr_core.play.simulator import Simulator
from ttr_core.rules.scoring import score_game
from ttr_core.ruleset.ruleset import Ruleset

T_co = TypeVar("T_co", covariant=True)

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
class SeatSummary:
    """How one seat did over a run: the seat's player name, its bot and its results."""

    name: str
    """The seat's player name (``Player 1`` is the first seat; who starts is drawn per game)."""
    bot: str
    games_won: int
    """Games in which the seat is among the winners (a tie counts for each tied seat)."""
    win_share: float
    """``games_won`` divided by the games of the run."""
    mean: float
    """Mean final score of the seat."""
    min: int
    max: int


@frozen
class Summary:
    """Per-seat and per-bot statistics of a run, and the mean length of its games."""

    games: int
    mean_turns: float
    bots: tuple[BotSummary, ...]
    seats: tuple[SeatSummary, ...] = ()
    """One entry per seat, in seat order (empty for a run of no games)."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run started with ``seed`` (game 0 uses ``seed``)."""
    return seed if index == 0 else rng.derive_seed(seed, index)


def seat_bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The bot name of each seat: ``bots`` cycled over ``players`` seats."""
    if not bots:
        raise ValueError("at least one bot is needed")
    return tuple(bots[s % len(bots)] for s in range(players))


def start_seat(seed: int, players: int) -> int:
    """The seat that starts the game with seed ``seed`` (see the module's seed rules)."""
    start, _ = rng.below(rng.seed_state(rng.derive_seed(seed, 0)), players)
    return start


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
    names = [f"Player {s + 1}" for s in range(players)]
    # The game plays on a simulator the bots never see: each gets its seat's view and
    # the seat's legal actions listed without the hidden cards (a SeatLister's
    # SeatActions), both built on the seat's own ruleset, whose memos hold no other
    # seat's hand.
    sim = Simulator.new(rs, names, seed=seed, start_player=start, record=record)
    own = seat_rulesets(rs, players)
    seated: list[Bot] = [
        factory(own[s], s, rng.derive_seed(seed, s + 1)) for s, factory in enumerate(factories)
    ]
    by_count = [index_chooser(bot) for bot in seated]
    listers: list[SeatLister | None] = [None] * players
    decisions = 0
    while not sim.is_over:
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise SimulationError(
                f"the game with seed {seed} did not end in {MAX_DECISIONS} decisions"
            )
        seat = sim.current_player
        quick = by_count[seat]
        if quick is not None:
            count = sim.legal_count()
            try:
                k = quick(count)
            except Exception as exc:
                raise SimulationError(
                    f"bot {bots[seat]!r} in seat {seat} failed in the game with seed {seed}: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
            if k is not None:
                if type(k) is not int or not 0 <= k < count:
                    raise SimulationError(
                        f"bot {bots[seat]!r} in seat {seat} chose index {k!r} of {count} "
                        f"legal actions in the game with seed {seed}"
                    )
                sim.apply_index(k)
                continue
        lister = listers[seat]
        if lister is None:
            lister = listers[seat] = SeatLister(own[seat], players)
        legal = lister.actions(sim, seat)
        try:
            action = seated[seat].choose(sim.view(seat), legal)
        except Exception as exc:
            raise SimulationError(
                f"bot {bots[seat]!r} in seat {seat} failed in the game with seed {seed}: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        try:
            sim.apply(action)
        except TtrError as exc:
            raise SimulationError(
                f"bot {bots[seat]!r} in seat {seat} chose {action!r} in the game with seed "
                f"{seed}, which is illegal: {exc}"
            ) from exc
        del legal  # a bot that kept it makes the next listing copy its simulator
    state = sim.snapshot()
    sheet = score_game(rs, state, names)
    saved = Game.from_simulator(sim).record() if record else None
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


@functools.lru_cache(maxsize=8)
def shared_ruleset(edition: str, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    """The ruleset of ``edition`` with ``options``, built once per process and shared.

    This is how a worker process gets the ruleset of a [`GamePlan`][].
    """
    return Ruleset.build(edition, dict(options))


@functools.lru_cache(maxsize=8)
def seat_rulesets(rs: Ruleset, players: int) -> tuple[Ruleset, ...]:
    """Per seat, a [`private_copy`][ttr_core.ruleset.ruleset.Ruleset.private_copy] of ``rs`` for its
    bot.

    Kept for the process, so a seat's memos stay warm from game to game; they hold only
    what that seat's bots listed in earlier games.
    """
    return tuple(rs.private_copy() for _ in range(players))


@functools.lru_cache(maxsize=32)
def bot_factories(bots: tuple[str, ...]) -> tuple[BotFactory, ...]:
    """The bot classes of ``bots``, looked up once per process.

    :raises BotError: a bot name is unknown.
    """
    return tuple(find_bot(name) for name in bots)


@frozen
class GamePlan:
    """How every game of a run is played, given its seed: edition, options, the bot of
    each seat and whether to keep records.

    It is small and picklable, so a worker process can play any game of the run:
    calling ``plan(index, seed)`` builds (once per process) the ruleset and plays game
    ``index`` from ``seed``.
    """

    edition: str
    options: tuple[tuple[str, Any], ...]
    """The ruleset's options, every one of them, as ``(name, value)`` pairs."""
    bots: tuple[str, ...]
    """The bot of each seat."""
    records: bool = False

    @classmethod
    def of(cls, rs: Ruleset, bots: Sequence[str], *, records: bool = False) -> GamePlan:
        """The plan of games of ``rs`` with ``bots`` in seat order."""
        return cls(rs.id, tuple(rs.options.items()), tuple(bots), records)

    def play(self, rs: Ruleset, index: int, seed: int) -> GameResult:
        """Play the game with seed ``seed`` on ``rs`` (the plan's ruleset, already built)."""
        return play_game(
            rs, self.bots, seed, factories=bot_factories(self.bots), record=self.records
        )

    def __call__(self, index: int, seed: int) -> GameResult:
        """Play game ``index`` of the run, whose seed is ``seed``."""
        return self.play(shared_ruleset(self.edition, self.options), index, seed)


def portable(rs: Ruleset) -> bool:
    """Whether other processes can build ``rs`` from its edition id and options alone:
    true unless it carries plugins of its own (house rules)."""
    return not rs.hooks.plugins


def check_run(rs: Ruleset, *, players: int, games: int, bots: Sequence[str]) -> tuple[str, ...]:
    """Check a run's arguments before any game is played; return the bot of each seat.

    :raises BotError: a bot name is unknown.
    :raises ValueError: ``players`` is outside the edition's range, ``games`` is
        negative or there is no bot.
    """
    lo, hi = rs.params.players
    if not lo <= players <= hi:
        raise ValueError(f"{rs.id} is played by {lo} to {hi} players, not {players}")
    if games < 0:
        raise ValueError(f"the number of games cannot be negative, got {games}")
    names = seat_bots(bots, players)
    for name in dict.fromkeys(names):
        find_bot(name)
    return names


class Plan(Protocol[T_co]):
    """A picklable description of how to play any game of a run (see [`GamePlan`][])."""

    def play(self, rs: Ruleset, index: int, seed: int) -> T_co:
        """Play game ``index``, whose seed is ``seed``, on ``rs``."""
        ...

    def __call__(self, index: int, seed: int) -> T_co:
        """Play game ``index`` on a ruleset built from the plan (in a worker process)."""
        ...


def run_plan(
    rs: Ruleset,
    plan: Plan[T_co],
    *,
    games: int,
    seed: int,
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Callable[[], None] | None = None,
    on_start: Callable[[], None] | None = None,
) -> Generator[T_co | GameFailure, None, None]:
    """Play the run's games by ``plan`` and yield the outcomes in game order.

    Here (``jobs=1``, no scheduler) the plan plays on ``rs`` itself; elsewhere each worker builds
    the ruleset from the plan. See
    [`ttr_core.batch.parallel.run_in_order`][ttr_core.batch.parallel.run_in_order].

    :raises ValueError: the games must run elsewhere and ``rs`` carries plugins of its own.
    """
    seeds = [game_seed(seed, i) for i in range(games)]
    if jobs == 1 and scheduler is None:
        task = functools.partial(plan.play, rs)
        return run_in_order(task, seeds, on_done=on_done, on_start=on_start)
    if not portable(rs):
        raise ValueError("a ruleset with plugins of its own can only be played in this process")
    return run_in_order(
        plan, seeds, jobs=jobs, scheduler=scheduler, on_done=on_done, on_start=on_start
    )


def play_games(
    rs: Ruleset,
    *,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    records: bool = False,
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Callable[[], None] | None = None,
    on_start: Callable[[], None] | None = None,
) -> Generator[GameResult | GameFailure, None, None]:
    """Play a run and yield each game's result, or its failure, in game order.

    The games are played here (``jobs=1``), on ``jobs`` local processes or on the Dask
    cluster at ``scheduler``; the outcomes are the same. A game whose bot fails gives a
    [`GameFailure`][ttr_core.batch.parallel.GameFailure] naming its seed, and the run goes on.
    ``on_done`` is called as each game finishes and ``on_start`` once the run has started
    its games (for a progress bar, see
    [`run_in_order`][ttr_core.batch.parallel.run_in_order]). The arguments are checked at
    once; the games are played as the outcomes are consumed.

    :raises BotError: a bot name is unknown (before any game is played).
    :raises ValueError: ``players`` is outside the edition's range, ``games`` is negative,
        or the games must run elsewhere and ``rs`` carries plugins of its own.
    :raises MissingExtraError: a scheduler is given and Dask is not installed.
    """
    names = check_run(rs, players=players, games=games, bots=bots)
    plan = GamePlan.of(rs, names, records=records)
    return run_plan(
        rs,
        plan,
        games=games,
        seed=seed,
        jobs=jobs,
        scheduler=scheduler,
        on_done=on_done,
        on_start=on_start,
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
    jobs: int = 1,
    scheduler: str | None = None,
) -> Iterator[GameResult]:
    """Play ``games`` games and yield their results in order (see the module's seed rules).

    The arguments are checked at once; the games are played as the results are consumed.
    ``on_game`` is called with each result before it is yielded. With ``records``, each
    result carries its game's record (see [`play_game`][]). ``jobs`` and ``scheduler``
    play the games elsewhere, as in [`play_games`][], with the same results.

    :raises BotError: a bot name is unknown (before any game is played).
    :raises ValueError: ``players`` is outside the edition's range or ``games`` is negative.
    :raises SimulationError: while iterating, when a bot failed (the first such game).
    """
    outcomes = play_games(
        rs,
        players=players,
        games=games,
        seed=seed,
        bots=bots,
        records=records,
        jobs=jobs,
        scheduler=scheduler,
    )

    def run() -> Iterator[GameResult]:
        with contextlib.closing(outcomes):
            for outcome in outcomes:
                if isinstance(outcome, GameFailure):
                    raise SimulationError(outcome.message)
                if on_game is not None:
                    on_game(outcome)
                yield outcome

    return run()


def summarize(results: Sequence[GameResult]) -> Summary:
    """Per-seat and per-bot score statistics and games won, bots in order of first seat.

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
        seats=_seat_summaries(results),
    )


def _seat_summaries(results: Sequence[GameResult]) -> tuple[SeatSummary, ...]:
    """Each seat's wins and scores over ``results`` (all played by the same seats)."""
    if not results:
        return ()
    seats = []
    for seat, first in enumerate(results[0].players):
        scores = [r.players[seat].total for r in results]
        won = sum(first.name in r.winners for r in results)
        seats.append(
            SeatSummary(
                name=first.name,
                bot=first.bot,
                games_won=won,
                win_share=won / len(results),
                mean=sum(scores) / len(scores),
                min=min(scores),
                max=max(scores),
            )
        )
    return tuple(seats)
