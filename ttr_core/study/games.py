"""One game of a study: how its seats are filled, and what the report keeps of it.

A study plays many games between bots and measures them. Each game is measured where it
was played (possibly a worker process or a Dask worker), and only a small
[`GameStats`][] travels back, never the game's record.

A study plays one player count or several. With several, the games are split evenly
between the counts in increasing order, the remainder going one game each to the smaller
counts ([`split_games`][]), and played count after count: with 10 games over 2 to 5
players, games 0-2 have 2 players, 3-5 have 3, 6-7 have 4 and 8-9 have 5. Game ``i`` keeps
the seed of game ``i`` of the whole study; its number ``j`` within its count decides its
seats.

When there are at most as many bots as seats, the bots rotate: they are listed in turn
order (the list given, cycled over the ``P`` players), and from one game to the next every
bot moves one place along. In game ``j`` the player in place ``q`` of the turn order
(``q = 0`` is the start player) is the bot ``lineup[(q - j) mod P]``. Over any ``P``
consecutive games each bot plays each place in the turn order equally often, so the
effects of seat and bot are not confounded.

When there are more bots than seats, the games cycle over the combinations of ``P`` of the
bots (in the order of the list) and play each combination ``P`` times, rotating it as above:
game ``j`` plays combination ``(j // P) mod C`` rotated by ``j mod P``. Over a block of
``C * P`` games ([`seating_block`][]) every bot meets every other equally often and plays
every place in the turn order equally often.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from attrs import evolve, frozen

from ttr_core.batch.runs import (
    SimulationError,
    bot_factories,
    play_game,
    seat_bots,
    shared_ruleset,
    start_seat,
)
from ttr_core.model import events as ev
from ttr_core.model.state import GameState
from ttr_core.play.records import GameRecord
from ttr_core.play.simulator import Simulator
from ttr_core.rules.scoring import Scoresheet, score_game, winners
from ttr_core.ruleset.ruleset import Ruleset


@frozen
class GameStats:
    """What a study keeps of one game (seats are seat numbers; tracks, cities and tickets
    are in map order unless named by id)."""

    index: int
    """The game's number in the study, from 0."""
    seed: int
    bots: tuple[str, ...]
    """The bot of each seat."""
    start: int
    """The seat of the start player."""
    turns: int
    ended_by: str
    """``"final_round"``, or ``"deadlock"`` after a full round of passes."""
    totals: tuple[int, ...]
    """Each seat's final score."""
    winners: tuple[int, ...]
    """The winning seats (several on a shared win)."""
    owners: tuple[int, ...]
    """The seat that claimed each track, or -1."""
    networks: tuple[int, ...]
    """For each city, how many players' own tracks reach it."""
    tickets: tuple[tuple[int, bool], ...]
    """``(ticket id, completed)`` for every ticket a player kept."""
    bonuses: tuple[tuple[str, tuple[int, ...]], ...]
    """Each bonus of the score sheets, by name, with each seat's points."""
    decided_by: tuple[str, ...]
    """The bonuses without which the winners would have been different."""
    stations: tuple[int, ...]
    """Stations each seat built."""
    stations_borrowing: int
    """Stations that lent their owner an opponent's track at scoring."""
    tunnel_attempts: int
    """Tunnel claims begun (cards turned over)."""
    tunnel_extra: int
    """Extra cards those tunnel claims demanded, in all."""
    tunnels_withdrawn: int
    passes: int
    """Turns passed because no action was legal (rule PASS-1)."""
    flushes: int
    """Displays discarded for their locomotives."""
    flush_limits: int
    """Times the flush limit was reached and the locomotives stayed (rule FLUSH-3)."""
    reshuffles: int
    """Times the discard pile became the train deck."""
    deck_exhausted: bool
    """Whether the train deck and the discard pile were empty together at some point, so
    that no card could be drawn blind (rule DECK-3)."""


def split_games(games: int, counts: Sequence[int]) -> tuple[int, ...]:
    """How many of ``games`` each player count of ``counts`` plays: evenly, the remainder one
    game each to the first (smallest) counts."""
    share, extra = divmod(games, len(counts))
    return tuple(share + (k < extra) for k in range(len(counts)))


def seating_block(bots: int, players: int) -> int:
    """The games after which ``bots`` bots at ``players`` seats have met equally and played
    every place in the turn order equally: ``players``, or, with more bots than seats,
    ``players`` games for every combination of ``players`` bots."""
    if bots <= players:
        return players
    return math.comb(bots, players) * players


@frozen
class StudyPlan:
    """How every game of a study is played, given its number and seed: picklable, so that
    worker processes play the games and measure them where they ran."""

    edition: str
    options: tuple[tuple[str, Any], ...]
    """The ruleset's options, every one of them, as ``(name, value)`` pairs."""
    bots: tuple[str, ...]
    """The bots as given, in turn order for the first game of each player count."""
    counts: tuple[tuple[int, int], ...]
    """``(players, games)`` of each player count, in the order the games are played."""

    @classmethod
    def of(
        cls, rs: Ruleset, players: int | Sequence[int], bots: Sequence[str], games: int
    ) -> StudyPlan:
        """The plan of a study of ``rs`` with ``bots`` and ``games`` games at ``players``
        players (one count, or several that share the games as [`split_games`][] says)."""
        counts = (players,) if isinstance(players, int) else tuple(players)
        if not counts:
            raise ValueError("a study needs at least one player count")
        split = split_games(games, counts)
        pairs = tuple(zip(counts, split, strict=True))
        return cls(rs.id, tuple(rs.options.items()), tuple(bots), pairs)

    @property
    def players(self) -> tuple[int, ...]:
        """The player counts of the study, in the order they are played."""
        return tuple(p for p, _ in self.counts)

    def players_of(self, index: int) -> tuple[int, int]:
        """The player count of game ``index`` and the game's number within that count.

        :raises IndexError: the study has no game ``index``.
        """
        first = 0
        for players, games in self.counts:
            if index < first + games:
                return players, index - first
            first += games
        raise IndexError(f"the study has {first} games, not a game {index}")

    def seating(self, index: int, seed: int) -> tuple[str, ...]:
        """The bot of each seat in game ``index``, whose seed is ``seed``."""
        players, j = self.players_of(index)
        start = start_seat(seed, players)
        if len(self.bots) <= players:
            lineup = seat_bots(self.bots, players)
        else:
            combos = list(itertools.combinations(self.bots, players))
            lineup = combos[(j // players) % len(combos)]
        return tuple(lineup[((s - start) % players - j) % players] for s in range(players))

    def play(self, rs: Ruleset, index: int, seed: int) -> GameStats:
        """Play game ``index`` on ``rs`` (the plan's ruleset) and measure it.

        :raises SimulationError: a bot failed.
        """
        bots = self.seating(index, seed)
        result = play_game(rs, bots, seed, factories=bot_factories(bots), record=True)
        assert result.record is not None, "the game was played with its record"
        stats = measure(rs, index, bots, result.record)
        if stats.totals != tuple(p.total for p in result.players):
            raise SimulationError(f"the game with seed {seed} does not replay to its scores")
        return stats

    def __call__(self, index: int, seed: int) -> GameStats:
        """Play game ``index`` on a ruleset built from the plan (in a worker process)."""
        return self.play(shared_ruleset(self.edition, self.options), index, seed)


def _drawable(state: GameState) -> int:
    """Train cards that can still be drawn: the deck plus the discard pile."""
    return state.deck_size + sum(state.discard)


def measure(rs: Ruleset, index: int, bots: Sequence[str], record: GameRecord) -> GameStats:
    """Measure a finished game of ``rs`` from its record.

    The record's log is played again on a simulator that records nothing, to see the
    piles after every action and to score the final position.
    """
    if record.seed is None:
        raise ValueError("a study measures seeded games only")
    sim = Simulator.new(
        rs, record.players, seed=record.seed, start_player=record.start_player, record=False
    )
    counts = _EventCounts()
    counts.add(record.setup)
    exhausted = _drawable(sim.snapshot()) == 0
    for entry in record.log:
        sim.apply(entry.action)
        counts.add(entry.events)
        exhausted = exhausted or _drawable(sim.snapshot()) == 0
    state = sim.snapshot()
    sheet = score_game(rs, state, record.players)
    city = {c.id: i for i, c in enumerate(rs.map.cities)}
    networks = [0] * len(city)
    for seat in range(len(state.players)):
        reached: set[int] = set()
        for track, owner in zip(rs.map.routes, state.owners, strict=True):
            if owner == seat:
                reached.update(city[name] for name in track.cities)
        for c in reached:
            networks[c] += 1
    names = sorted({name for p in sheet.players for name in p.bonuses})
    return GameStats(
        index=index,
        seed=record.seed,
        bots=tuple(bots),
        start=state.start_player,
        turns=state.turn,
        ended_by=state.ended_by,
        totals=tuple(p.total for p in sheet.players),
        winners=sheet.winners,
        owners=state.owners,
        networks=tuple(networks),
        tickets=tuple((t.ticket, t.completed) for p in sheet.players for t in p.tickets),
        bonuses=tuple(
            (name, tuple(p.bonuses.get(name, 0) for p in sheet.players)) for name in names
        ),
        decided_by=decided_by(rs, sheet),
        stations=tuple(p.stations_built for p in sheet.players),
        stations_borrowing=sum(u.route is not None for p in sheet.players for u in p.stations),
        tunnel_attempts=counts.tunnel_attempts,
        tunnel_extra=counts.tunnel_extra,
        tunnels_withdrawn=counts.tunnels_withdrawn,
        passes=counts.passes,
        flushes=counts.flushes,
        flush_limits=counts.flush_limits,
        reshuffles=counts.reshuffles,
        deck_exhausted=exhausted,
    )


def decided_by(rs: Ruleset, sheet: Scoresheet) -> tuple[str, ...]:
    """The bonuses that decided a game: without the bonus (its points and, for the
    longest-path tie-breaker, its award), the edition's rules would pick other winners."""
    names = sorted({name for p in sheet.players for name, points in p.bonuses.items() if points})
    found = []
    for name in names:
        without = [
            evolve(
                p,
                total=p.total - p.bonuses.get(name, 0),
                bonuses={k: v for k, v in p.bonuses.items() if k != name},
            )
            for p in sheet.players
        ]
        if winners(rs, without) != sheet.winners:
            found.append(name)
    return tuple(found)


class _EventCounts:
    """Counts of the events of a game that the report looks at."""

    def __init__(self) -> None:
        self.tunnel_attempts = 0
        self.tunnel_extra = 0
        self.tunnels_withdrawn = 0
        self.passes = 0
        self.flushes = 0
        self.flush_limits = 0
        self.reshuffles = 0

    def add(self, events: Sequence[ev.Event]) -> None:
        for event in events:
            if isinstance(event, ev.TunnelRevealed):
                self.tunnel_attempts += 1
                self.tunnel_extra += event.extra
            elif isinstance(event, ev.TunnelWithdrawn):
                self.tunnels_withdrawn += 1
            elif isinstance(event, ev.Passed):
                self.passes += 1
            elif isinstance(event, ev.DisplayFlushed):
                self.flushes += 1
            elif isinstance(event, ev.LocomotivesRemain):
                self.flush_limits += 1
            elif isinstance(event, ev.Shuffled) and event.reason == "reshuffle":
                self.reshuffles += 1
