"""Playing an arena and rating its bots: what ``ttr arena`` runs.

An arena is set by [`ArenaSettings`][ttr_core.arena.store.ArenaSettings] and a number of
blocks; its games are laid out by [`ttr_core.arena.schedule`][ttr_core.arena.schedule].
[`play_arena`][] plays the games not yet kept, here, on local processes or on a Dask
cluster, and yields every game of the arena in game order, so what follows from the games
does not depend on where they ran. [`Standings`][] takes the games in that order, keeps the
blocks whose games all finished and stops a sequential test at a block's end;
[`rate_games`][] turns the games of an arena, played now or read from its file, into an
[`ArenaReport`][].
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from typing import Any

from attrs import frozen

from ttr_core import __version__
from ttr_core.arena.games import ArenaGame, Tally, tally_of
from ttr_core.arena.ratings import BOOTSTRAP, CONFIDENCE, PRIOR, Rating, rate
from ttr_core.arena.schedule import Seating, block_seed, seatings
from ttr_core.arena.sequential import Sprt, SprtState, block_score, state
from ttr_core.arena.store import ArenaSettings, ArenaStoreError
from ttr_core.batch.parallel import GameFailure, run_in_order
from ttr_core.batch.runs import bot_factories, play_game, portable, shared_ruleset
from ttr_core.bots.registry import find_bot
from ttr_core.ruleset.ruleset import Ruleset

ENGINE = __version__
"""The engine version kept with each game."""
MAX_SEED = 2**63 - 1
"""The largest seed of an arena (seeds are kept as SQLite integers)."""


def arena_settings(rs: Ruleset, *, players: int, bots: Sequence[str], seed: int) -> ArenaSettings:
    """The settings of an arena of ``bots`` on ``rs`` with ``players`` seats, checked.

    :raises BotError: a bot name is unknown.
    :raises ValueError: fewer than 2 bots, a bot given twice, ``players`` outside the
        edition's range, or ``seed`` outside ``0..2**63 - 1``.
    """
    lo, hi = rs.params.players
    if not lo <= players <= hi:
        raise ValueError(f"{rs.id} is played by {lo} to {hi} players, not {players}")
    if len(bots) < 2:
        raise ValueError(f"an arena needs at least 2 bots, got {len(bots)}")
    twice = [name for i, name in enumerate(bots) if name in bots[:i]]
    if twice:
        raise ValueError(f"bot {twice[0]!r} is given twice")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"the seed of an arena must be from 0 to 2**63 - 1, not {seed}")
    for name in bots:
        find_bot(name)
    return ArenaSettings(
        edition=rs.id,
        options=tuple(sorted(rs.options.items())),
        players=players,
        bots=tuple(bots),
        seed=seed,
    )


@frozen
class ArenaPlan:
    """How to play any game of a list of an arena's games, picklable for workers.

    Game ``index`` of the list is arena game number ``numbers(index)``: the list is kept
    as runs of consecutive numbers (``ranges``), so it stays small when sent with each game.
    """

    settings: ArenaSettings
    seats: tuple[Seating, ...]
    """The seatings of a block."""
    ranges: tuple[tuple[int, int], ...]
    """The games to play, as ``(first, stop)`` runs of game numbers."""

    def number(self, index: int) -> int:
        """The arena game number of game ``index`` of the list."""
        for first, stop in self.ranges:
            if index < stop - first:
                return first + index
            index -= stop - first
        raise IndexError(index)

    def play(self, rs: Ruleset, index: int, seed: int) -> ArenaGame:
        """Play game ``index`` of the list on ``rs`` from the game seed ``seed``."""
        block, seating = divmod(self.number(index), len(self.seats))
        names = tuple(self.settings.bots[b] for b in self.seats[seating])
        result = play_game(rs, names, seed, factories=bot_factories(names))
        return ArenaGame.of(block, seating, result)

    def __call__(self, index: int, seed: int) -> ArenaGame:
        """Play game ``index`` of the list on a ruleset built from the settings."""
        rs = shared_ruleset(self.settings.edition, self.settings.options)
        return self.play(rs, index, seed)


def _runs(numbers: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """``numbers`` (increasing) as runs ``(first, stop)`` of consecutive numbers."""
    out: list[tuple[int, int]] = []
    for n in numbers:
        if out and out[-1][1] == n:
            out[-1] = (out[-1][0], n + 1)
        else:
            out.append((n, n + 1))
    return tuple(out)


def check_stored(
    settings: ArenaSettings, stored: Mapping[tuple[int, int], ArenaGame], path: str
) -> None:
    """Check that the games kept in the file at ``path`` are games of this arena.

    :raises ArenaStoreError: a game has another seed or seating than its place says.
    """
    seats = seatings(len(settings.bots), settings.players)
    for (block, seating), game in stored.items():
        if (
            seating >= len(seats)
            or block < 0
            or game.seed != block_seed(settings.seed, block)
            or game.bots != tuple(settings.bots[b] for b in seats[seating])
        ):
            raise ArenaStoreError(
                f"{path} is damaged: its game of block {block}, seating {seating} is not "
                "that game of the arena"
            )


def play_arena(
    rs: Ruleset,
    settings: ArenaSettings,
    *,
    blocks: int,
    stored: Mapping[tuple[int, int], ArenaGame] | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Callable[[], None] | None = None,
    on_start: Callable[[], None] | None = None,
) -> Generator[tuple[int, ArenaGame | GameFailure], None, None]:
    """Yield ``(number, outcome)`` for every game of the first ``blocks`` blocks in game
    order: the games in ``stored`` as kept, the others played (a game whose bot fails is
    a [`GameFailure`][ttr_core.batch.parallel.GameFailure]).

    The games are played here (``jobs=1``), on ``jobs`` local processes or on the Dask
    cluster at ``scheduler``, with the same outcomes. Closing the generator cancels the
    games not started. ``on_done`` is called as each game is played, ``on_start`` once the
    games have started (see
    [`run_in_order`][ttr_core.batch.parallel.run_in_order]).

    :raises ValueError: ``blocks`` is negative, or the games must run elsewhere and ``rs``
        carries plugins of its own.
    :raises MissingExtraError: a scheduler is given and Dask is not installed.
    """
    if blocks < 0:
        raise ValueError(f"the number of blocks cannot be negative, got {blocks}")
    stored = stored or {}
    seats = seatings(len(settings.bots), settings.players)
    total = blocks * len(seats)
    todo = [g for g in range(total) if divmod(g, len(seats)) not in stored]
    plan = ArenaPlan(settings, seats, _runs(todo))
    seeds = [block_seed(settings.seed, g // len(seats)) for g in todo]
    if jobs == 1 and scheduler is None:
        task: Callable[[int, int], ArenaGame] = functools.partial(plan.play, rs)
        outcomes = run_in_order(task, seeds, on_done=on_done, on_start=on_start)
    elif not portable(rs):
        raise ValueError("a ruleset with plugins of its own can only be played in this process")
    else:
        outcomes = run_in_order(
            plan, seeds, jobs=jobs, scheduler=scheduler, on_done=on_done, on_start=on_start
        )
    return _merged(total, len(seats), stored, outcomes)


def _merged(
    total: int,
    per_block: int,
    stored: Mapping[tuple[int, int], ArenaGame],
    outcomes: Generator[ArenaGame | GameFailure, None, None],
) -> Generator[tuple[int, ArenaGame | GameFailure], None, None]:
    try:
        for number in range(total):
            kept = stored.get(divmod(number, per_block))
            yield number, kept if kept is not None else next(outcomes)
    finally:
        outcomes.close()


class Standings:
    """The blocks of an arena as its games come in, in game order, and the state of its
    sequential test after each whole block.

    A block counts once all its games are in; a block with a failed game is left out (of
    the ratings and of the test). After the test decides, [`stopped`][] is true and later
    games are refused.
    """

    def __init__(self, settings: ArenaSettings, test: Sprt | None = None) -> None:
        self.settings = settings
        self.per_block = len(seatings(len(settings.bots), settings.players))
        self.test = test
        self.games: list[ArenaGame] = []
        """The games of the blocks kept, in game order."""
        self.tallies: list[Tally] = []
        """The pairwise results of each block kept."""
        self.scores: list[float] = []
        """The candidate's score of each block kept that the test counts."""
        self.failed = 0
        """The games that failed."""
        self.sprt: SprtState | None = state(test, []) if test is not None else None
        self._block: list[ArenaGame] = []
        self._broken = False
        self._next = 0

    @property
    def stopped(self) -> bool:
        """Whether the sequential test has decided."""
        return self.sprt is not None and self.sprt.decision != "undecided"

    @property
    def blocks(self) -> int:
        """The blocks kept."""
        return len(self.tallies)

    def add(self, number: int, outcome: ArenaGame | GameFailure) -> None:
        """Take game ``number``, the next in game order.

        :raises ValueError: it is not the next game, or the test has already decided.
        """
        if number != self._next or self.stopped:
            raise ValueError(f"game {number} is not the next game of the arena")
        self._next += 1
        if isinstance(outcome, GameFailure):
            self.failed += 1
            self._broken = True
        else:
            self._block.append(outcome)
        if self._next % self.per_block:
            return
        if not self._broken:
            self._keep(self._block)
        self._block, self._broken = [], False

    def _keep(self, block: list[ArenaGame]) -> None:
        tally = tally_of(self.settings.bots, block)
        self.games.extend(block)
        self.tallies.append(tally)
        if self.test is None:
            return
        score = block_score(tally)
        if score is not None:
            self.scores.append(score)
        self.sprt = state(self.test, self.scores)


@frozen
class BotRecord:
    """One bot's results over the blocks kept."""

    bot: str
    games: int
    """Games it played."""
    wins: int
    """Pairwise results it won (against seats of other bots)."""
    losses: int
    ties: int
    mean_score: float
    """Mean final score over its seats."""


@frozen
class ArenaReport:
    """The ratings of an arena's bots and what they come from."""

    settings: ArenaSettings
    anchor: str
    """The bot rated 0."""
    seatings: int
    """Games per block."""
    blocks: int
    """Blocks rated (those whose games all finished)."""
    games: int
    """Games rated."""
    failed: int
    """Games that failed (their blocks are not rated)."""
    draws: int
    """Bootstrap draws behind the confidence intervals (0: none)."""
    ratings: tuple[Rating, ...]
    """In the order of the arena's bots."""
    records: tuple[BotRecord, ...]
    """In the order of the arena's bots."""
    test: Sprt | None
    sprt: SprtState | None

    def to_json(self) -> dict[str, Any]:
        """The report as the JSON object ``ttr arena --json`` prints."""
        bots = []
        for rating, record in zip(self.ratings, self.records, strict=True):
            bots.append(
                {
                    "bot": rating.bot,
                    "elo": rating.elo,
                    "low": rating.low,
                    "high": rating.high,
                    "games": record.games,
                    "wins": record.wins,
                    "losses": record.losses,
                    "ties": record.ties,
                    "mean_score": record.mean_score,
                }
            )
        sprt = None
        if self.test is not None and self.sprt is not None:
            sprt = {
                "candidate": self.settings.bots[0],
                "baseline": self.settings.bots[1],
                "elo0": self.test.elo0,
                "elo1": self.test.elo1,
                "alpha": self.test.alpha,
                "beta": self.test.beta,
                "lower": self.test.lower,
                "upper": self.test.upper,
                "llr": self.sprt.llr,
                "blocks": self.sprt.blocks,
                "decision": self.sprt.decision,
            }
        return self.settings.to_json() | {
            "anchor": self.anchor,
            "seatings": self.seatings,
            "blocks": self.blocks,
            "games": self.games,
            "failed": self.failed,
            "bootstrap": self.draws,
            "confidence": CONFIDENCE if self.draws else None,
            "ratings": bots,
            "sprt": sprt,
        }


def rate_games(
    settings: ArenaSettings,
    games: Iterable[tuple[int, ArenaGame | GameFailure]],
    *,
    anchor: str | None = None,
    draws: int = BOOTSTRAP,
    test: Sprt | None = None,
    prior: float = PRIOR,
) -> ArenaReport:
    """The report of an arena from its games in game order, up to where ``test`` decides.

    The bootstrap is seeded with the arena's seed, so the same games give the same report.

    :raises ValueError: ``anchor`` is not a bot of the arena, or as
        [`rate`][ttr_core.arena.ratings.rate].
    """
    standings = Standings(settings, test)
    for number, outcome in games:
        if standings.stopped:
            break
        standings.add(number, outcome)
    return report(standings, anchor=anchor, draws=draws, prior=prior)


def report(
    standings: Standings,
    *,
    anchor: str | None = None,
    draws: int = BOOTSTRAP,
    prior: float = PRIOR,
) -> ArenaReport:
    """The report of the blocks kept by ``standings`` (see [`rate_games`][])."""
    settings = standings.settings
    anchor = settings.bots[0] if anchor is None else anchor
    if anchor not in settings.bots:
        raise ValueError(f"the anchor {anchor!r} is not one of the bots")
    ratings = rate(
        settings.bots,
        standings.tallies,
        anchor=settings.bots.index(anchor),
        seed=settings.seed,
        draws=draws,
        prior=prior,
    )
    return ArenaReport(
        settings=settings,
        anchor=anchor,
        seatings=standings.per_block,
        blocks=standings.blocks,
        games=len(standings.games),
        failed=standings.failed,
        draws=draws if standings.blocks else 0,
        ratings=ratings,
        records=records(settings.bots, standings.games),
        test=standings.test,
        sprt=standings.sprt,
    )


def records(bots: Sequence[str], games: Iterable[ArenaGame]) -> tuple[BotRecord, ...]:
    """Each bot's games, pairwise results and mean score over ``games``."""
    played = dict.fromkeys(bots, 0)
    wins = dict.fromkeys(bots, 0)
    losses = dict.fromkeys(bots, 0)
    ties = dict.fromkeys(bots, 0)
    scores: dict[str, list[int]] = {b: [] for b in bots}
    for game in games:
        for bot in set(game.bots):
            played[bot] += 1
        for a, bot in enumerate(game.bots):
            scores[bot].append(game.scores[a])
            for b, other in enumerate(game.bots):
                if other == bot:
                    continue
                if game.ranks[a] < game.ranks[b]:
                    wins[bot] += 1
                elif game.ranks[a] > game.ranks[b]:
                    losses[bot] += 1
                else:
                    ties[bot] += 1
    return tuple(
        BotRecord(
            bot=b,
            games=played[b],
            wins=wins[b],
            losses=losses[b],
            ties=ties[b],
            mean_score=sum(scores[b]) / len(scores[b]) if scores[b] else 0.0,
        )
        for b in bots
    )
