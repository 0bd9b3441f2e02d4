"""The checks the environments share: the ruleset, the player count, the render mode and
the text a render shows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ttr_core.model.cards import CARD_NAMES
from ttr_core.model.errors import OptionError, SetupError, UnknownEditionError, quote
from ttr_core.model.state import Phase
from ttr_core.play.simulator import Simulator
from ttr_core.ruleset.ruleset import Ruleset

RENDER_MODES = ("human", "ansi")
"""The render modes: ``"ansi"`` returns the public table as text, ``"human"`` prints it."""


def game_ruleset(
    edition: str | Ruleset, players: object, options: Mapping[str, Any] | None
) -> Ruleset:
    """The ruleset of ``edition`` (an id, or a ruleset) with ``options``, checked to be
    played by ``players`` players.

    :raises UnknownEditionError: no such edition is installed, or ``edition`` is neither
        a string nor a ruleset.
    :raises OptionError: ``options`` is not a mapping, or an option is unknown or has a
        value the edition does not offer.
    :raises SetupError: a player count the edition does not allow, or options given with
        a ruleset.
    """
    if options is not None and not isinstance(options, Mapping):
        raise OptionError(f"options are a mapping of names to values, not {quote(options)}")
    if isinstance(edition, Ruleset):
        if options:
            raise SetupError("options go with an edition id; a ruleset has its own")
        rs = edition
    elif isinstance(edition, str):
        rs = Ruleset.build(edition, options)
    else:
        raise UnknownEditionError(f"an edition is an id or a Ruleset, not {quote(edition)}")
    lo, hi = rs.params.players
    if type(players) is not int or not lo <= players <= hi:
        raise SetupError(f"{rs.id} is played by {lo} to {hi} players, not {quote(players)}")
    return rs


def check_render_mode(render_mode: object) -> str | None:
    """``render_mode``, checked to be ``None`` or one of [`RENDER_MODES`][].

    :raises SetupError: any other value.
    """
    if render_mode is None:
        return None
    if type(render_mode) is not str or render_mode not in RENDER_MODES:
        raise SetupError(
            f"render mode {quote(render_mode)} is not one of {', '.join(RENDER_MODES)}"
        )
    return render_mode


def table_text(sim: Simulator) -> str:
    """What everyone can see of ``sim``'s game, as a few lines of text: no hand, ticket
    or deck order."""
    rs = sim.ruleset
    state = sim.snapshot()
    if state.is_over:
        head = "game over"
    else:
        head = f"player_{state.current} to act ({Phase(state.phase).name.lower()})"
    lines = [f"{rs.info.name}, turn {state.turn}: {head}"]
    for seat, p in enumerate(state.players):
        tracks = state.owners.count(seat)
        line = (
            f"player_{seat}: {sum(p.hand)} cards, {p.trains} trains, "
            f"{len(p.tickets)} tickets, {tracks} tracks, {p.score} points"
        )
        if rs.params.stations:
            line += f", {p.stations} stations left"
        lines.append(line)
    face_up = ", ".join(CARD_NAMES[c] for c in state.display if c >= 0) or "nothing"
    lines.append(
        f"face up: {face_up}; deck {state.deck_size} cards, discard "
        f"{sum(state.discard)} cards, {len(state.ticket_deck)} tickets left"
    )
    if state.is_over:
        sheet = sim.scores()
        totals = ", ".join(f"player_{s} {p.total}" for s, p in enumerate(sheet.players))
        winners = ", ".join(f"player_{s}" for s in sheet.winners)
        lines.append(f"final scores: {totals}; winners: {winners}")
    return "\n".join(lines)
