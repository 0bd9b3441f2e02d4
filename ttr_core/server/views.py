"""What the server sends: a seat's view, the spectators' public view, events, summaries."""

from __future__ import annotations

from typing import Any

from ttr_core.formats.serialize import event_to_json, view_to_json
from ttr_core.play.game import Game, LogEntry
from ttr_core.rules.queries import ticket_results
from ttr_core.rules.scoring import scoresheet_json
from ttr_core.rules.views import redact
from ttr_core.server.storage import GameRow

SPECTATOR = -1
"""The seat a spectator watches from: no hand, no tickets, no secret in any event."""


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """The JSON view of ``seat``, or for [`SPECTATOR`][] the public view: a seat's view
    with the hand, the tickets and the ticket offer left empty and ``seat`` -1."""
    if seat != SPECTATOR:
        return view_to_json(game.view(seat))
    view = view_to_json(game.view(0))
    view.update(seat=SPECTATOR, hand={}, tickets=[], offered=[])
    return view


def events_since(game: Game, since: int, seat: int) -> list[dict[str, Any]]:
    """The events of the actions from number ``since`` on, as ``seat`` may see them."""
    entries: list[LogEntry] = game.log[since:]
    return [event_to_json(redact(e, seat)) for entry in entries for e in entry.events]


def final_scores(game: Game) -> list[dict[str, Any]]:
    """Per seat, in seat order, its name, total and whether it won."""
    sheet = game.scores()
    return [
        {"seat": s, "name": p.name, "total": p.total, "winner": s in sheet.winners}
        for s, p in enumerate(sheet.players)
    ]


def public_events(game: Game, until: int) -> list[dict[str, Any]]:
    """The events of the first ``until`` actions as a spectator sees them (every secret
    hidden): the history a table shows before the events it is sent."""
    entries: list[LogEntry] = game.log[:until]
    return [event_to_json(redact(e, SPECTATOR)) for entry in entries for e in entry.events]


def ticket_progress(game: Game, seat: int) -> list[dict[str, Any]]:
    """Each ticket ``seat`` keeps, in the order it holds them, with its points and whether
    its cities are joined as the final scoring would count it now (stations included);
    none for [`SPECTATOR`][]."""
    if seat == SPECTATOR:
        return []
    results = ticket_results(game.ruleset, game.view(seat), seat)
    return [{"ticket": r.ticket, "points": r.points, "completed": r.completed} for r in results]


def final_sheet(game: Game) -> dict[str, Any] | None:
    """The final score sheet once the game is over (as ``ttr score`` writes it, plus the
    winners' seats), else None."""
    if not game.is_over:
        return None
    sheet = game.scores()
    return {**scoresheet_json(game.ruleset, sheet), "winner_seats": list(sheet.winners)}


def table_extras(game: Game, seat: int) -> dict[str, Any]:
    """What a state message carries beside the view for the web table: the number of
    actions taken, the seat's ticket progress and, when the game is over, the final score
    sheet."""
    return {
        "actions": len(game.log),
        "progress": ticket_progress(game, seat),
        "final": final_sheet(game),
    }


def summary(row: GameRow) -> dict[str, Any]:
    """A game as ``GET /api/games`` lists it: edition, players, status, whose turn, scores."""
    return {
        "id": row.id,
        "edition": row.edition,
        "players": [{"seat": s.seat, "name": s.name, "bot": s.bot} for s in row.seats],
        "status": row.status,
        "current": row.current,
        "actions": row.actions,
        "scores": row.scores,
    }
