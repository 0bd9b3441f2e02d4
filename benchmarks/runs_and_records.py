"""Where users meet the engine: bot runs and saved records, beside the bare simulator.

Prints one ``key=value`` line per figure, all measured in this process on the same seeds:

- ``simulator``: uniformly random full games on the simulator (``record=False``), as
  ``benchmarks/playouts.py`` plays them;
- ``run-random`` and ``run-greedy``: full games of ``play_game`` (what ``ttr simulate``
  and ``ttr study`` play), every seat given its view and its legal actions at every
  decision; ``of_simulator`` is the run's speed as a share of the simulator's;
- ``record``: the mean size of a saved game in the compact and the verbose form, and the
  median time to save one and to load (replay and check) one.

    python benchmarks/runs_and_records.py --edition usa --players 4 --games 50
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from ttr_core import Game, Ruleset, Simulator
from ttr_core.batch.runs import bot_factories, game_seed, play_game
from ttr_core.model import rng

T = TypeVar("T")


def simulator_games(rs: Ruleset, players: int, seeds: list[int]) -> float:
    """Games per second of random playouts on the simulator."""
    start = time.perf_counter()
    for seed in seeds:
        sim = Simulator.new(rs, players, seed=seed, record=False)
        chooser = rng.seed_state(seed ^ 0x5DEECE66D)
        while not sim.is_over:
            k, chooser = rng.below(chooser, sim.legal_count())
            sim.apply_index(k)
    return len(seeds) / (time.perf_counter() - start)


def run_games(rs: Ruleset, bots: list[str], seeds: list[int]) -> float:
    """Games per second of ``play_game`` with ``bots``, one per seat."""
    factories = bot_factories(tuple(bots))
    play_game(rs, bots, seeds[0], factories=factories)  # warm the seat rulesets' memos
    start = time.perf_counter()
    for seed in seeds:
        play_game(rs, bots, seed, factories=factories)
    return len(seeds) / (time.perf_counter() - start)


def records(rs: Ruleset, players: int, seeds: list[int]) -> dict[str, float]:
    """Sizes of saved random-bot games, and the times to save and load one."""
    games = []
    for seed in seeds:
        result = play_game(rs, ["random"] * players, seed, record=True)
        assert result.record is not None
        games.append(Game.replay(result.record))
    compact = [g.save() for g in games]
    verbose = [g.save(compact=False) for g in games]
    Game.load(compact[0])  # the ruleset of records is built once per process

    def median_ms(work: Sequence[T], call: Callable[[T], object]) -> float:
        times = []
        for item in work:
            start = time.perf_counter()
            call(item)
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000

    return {
        "compact_bytes": statistics.mean(len(t.encode()) for t in compact),
        "verbose_bytes": statistics.mean(len(t.encode()) for t in verbose),
        "save_ms": median_ms(games, Game.save),
        "load_ms": median_ms(compact, Game.load),
        "load_verbose_ms": median_ms(verbose, Game.load),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Bot runs and records beside the simulator.")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rs = Ruleset.build(args.edition)
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    where = f"edition={rs.id} players={args.players} games={args.games}"
    base = simulator_games(rs, args.players, seeds)
    print(f"what=simulator {where} games_per_s={base:.1f}")
    for bot in ("random", "greedy"):
        speed = run_games(rs, [bot] * args.players, seeds)
        print(f"what=run-{bot} {where} games_per_s={speed:.1f} of_simulator={speed / base:.2f}")
    figures = records(rs, args.players, seeds[: min(len(seeds), 20)])
    shown = " ".join(f"{k}={v:.1f}" for k, v in figures.items())
    print(f"what=record {where} {shown}")


if __name__ == "__main__":
    main()
