"""Play a game, or the rest of one, with bots in every seat, in one call."""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.bots.base import Bot, BotFactory, index_chooser
from ttr_core.bots.registry import find_bot
from ttr_core.hidden.seat_actions import SeatLister
from ttr_core.model import rng
from ttr_core.model.errors import BotError, TtrError, quote
from ttr_core.play.game import Game

MAX_DECISIONS = 100_000
"""A game taking more decisions than this is stopped as broken (real games take hundreds)."""


def play_out(
    game: Game, bots: str | BotFactory | Sequence[str | BotFactory], *, seed: int | None = None
) -> Game:
    """Play the rest of ``game`` with bots and return the finished game, with its record
    (``save()``, ``record()``) and its scores; ``game`` itself is not changed.

    ``bots`` is one bot for every seat, or one per seat in seat order: a bot spec as
    ``ttr simulate --bots`` takes it (``"greedy"``, ``"mcts:playouts=50"``,
    ``"module:Class"``) or a bot class (any ``Bot(ruleset, seat, seed)``). Seat ``s``'s
    bot is seeded with ``derive_seed(seed, s + 1)``, where ``seed`` defaults to the
    game's own seed (0 for a game without one), so the same call plays the same game.
    Each bot sees only its seat's view and the seat's legal actions, on a private copy
    of the ruleset.

    :raises BotError: a bot spec is unknown or malformed, the number of bots is neither
        one nor the number of seats, or a bot fails: it raises or chooses an illegal
        action (the message names the bot, its seat and the number of the action in the
        game; nothing is lost, since ``game`` is unchanged).
    """
    seats = len(game.names)
    given: Sequence[str | BotFactory]
    if isinstance(bots, str) or callable(bots):
        given = [bots] * seats
    else:
        try:
            given = list(bots)
        except TypeError:
            raise BotError(
                f"bots are a spec, a bot class or a sequence of them, not {quote(bots)}"
            ) from None
    if len(given) != seats:
        raise BotError(f"expected 1 or {seats} bots for the {seats} seats, got {len(given)}")
    factories = [find_bot(b) if isinstance(b, str) else b for b in given]
    for factory in factories:
        if not callable(factory):
            raise BotError(f"a bot is a spec or a bot class, not {quote(factory)}")
    if seed is None:
        seed = game.seed if game.seed is not None else 0
    names = [b if isinstance(b, str) else getattr(b, "__name__", repr(b)) for b in given]
    rs = game.ruleset
    own = [rs.private_copy() for _ in range(seats)]
    seated: list[Bot] = [
        factory(own[s], s, rng.derive_seed(seed, s + 1)) for s, factory in enumerate(factories)
    ]
    by_count = [index_chooser(bot) for bot in seated]
    listers: list[SeatLister | None] = [None] * seats
    recording = bool(game.setup)
    sim = game.simulator(record=recording)
    decisions = 0
    before = len(game.log)
    while not sim.is_over:
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise BotError(f"the game did not end in {MAX_DECISIONS} decisions")
        seat = sim.current_player
        where = f"bot {names[seat]!r} in seat {seat}, at action {before + decisions - 1}"
        quick = by_count[seat]
        if quick is not None:
            count = sim.legal_count()
            try:
                k = quick(count)
            except Exception as exc:
                raise BotError(f"{where} failed: {type(exc).__name__}: {exc}") from exc
            if k is not None:
                if type(k) is not int or not 0 <= k < count:
                    raise BotError(f"{where} chose index {k!r} of {count} legal actions")
                sim.apply_index(k)
                continue
        lister = listers[seat]
        if lister is None:
            lister = listers[seat] = SeatLister(own[seat], seats)
        legal = lister.actions(sim, seat)
        try:
            action = seated[seat].choose(sim.view(seat), legal)
        except Exception as exc:
            raise BotError(f"{where} failed: {type(exc).__name__}: {exc}") from exc
        try:
            sim.apply(action)
        except TtrError as exc:
            raise BotError(f"{where} chose {action!r}, which is illegal: {exc}") from exc
        del legal  # a bot that kept it makes the next listing copy its simulator
    if recording:
        return Game.from_simulator(sim)
    return Game(rs, sim.snapshot(), game.names, seed=None, setup=())
