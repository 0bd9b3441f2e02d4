"""``ttr replay FILE``: check a saved game record by replaying it, then summarise the game,
print it move by move (``--log``) or show the position after some actions (``--at``).

The record is always verified in full first. The text log shows only what every player
saw (it is built from events redacted for no seat), while ``--log --json`` prints the
events in full, secrets included, as a verbose record holds them (a compact record's
events are those of its checked replay).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Sequence
from typing import Any, TypeVar

from rich.table import Table

from ttr_core.cli._common import (
    CommandError,
    UsageError,
    console,
    counted,
    map_ids,
    print_json,
    read_input,
    sentence,
)
from ttr_core.formats.serialize import action_to_json, event_to_json, state_to_json, view_to_json
from ttr_core.model import events as ev
from ttr_core.model.actions import (
    Action,
    BuildStation,
    ChooseCard,
    ClaimRoute,
    ClaimWithGroups,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.model.cards import CARD_NAMES, LOCO
from ttr_core.model.errors import RecordError
from ttr_core.model.state import GameState, Phase
from ttr_core.play.game import Game, LogEntry
from ttr_core.rules.scoring import score_game
from ttr_core.rules.views import redact, view_of
from ttr_core.ruleset.ruleset import Ruleset

HELP = "verify a saved game record and summarise it, log it or show a position"
PUBLIC = -1
"""The seat events are redacted for in the text log: no seat, so every secret is hidden."""
_E = TypeVar("_E", bound=ev.Event)


def register(sub: Any) -> None:
    """Add the ``replay`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "replay",
        help=HELP,
        description=sentence(HELP) + ". Every action is replayed and every recorded event "
        "checked before anything is printed.",
    )
    parser.add_argument("file", metavar="FILE", help="the saved game (JSON), or - for stdin")
    parser.add_argument(
        "--log",
        action="store_true",
        help="print the game move by move, one line per action (with --at N: the first N)",
    )
    add_at_argument(parser, "show the position after N actions (0 is the position after the setup)")
    parser.add_argument(
        "--seat",
        type=int,
        metavar="S",
        help="with --at: show what seat S (counted from 0) sees instead of the whole position",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print JSON: the summary, one object per action with --log, "
        "the state or the seat's view with --at",
    )
    parser.set_defaults(run=run)


def summary(game: Game) -> dict[str, Any]:
    """The JSON summary of a replayed game (``ttr replay --json``)."""
    state = game.state
    out: dict[str, Any] = {
        "edition": game.ruleset.id,
        "options": dict(game.ruleset.options),
        "seed": game.seed,
        "players": list(game.names),
        "turns": state.turn,
        "actions": len(game.log),
        "over": game.is_over,
        "ended_by": state.ended_by or None,
        "scores": None,
        "winners": [],
    }
    if game.is_over:
        sheet = game.scores()
        out["scores"] = [{"name": p.name, "total": p.total} for p in sheet.players]
        out["winners"] = [game.names[s] for s in sheet.winners]
    return out


def run(args: argparse.Namespace) -> int:
    """Replay the record, then print its summary, its log or one position."""
    if args.seat is not None and args.at is None:
        raise UsageError("argument --seat: needs --at N (the position to show)")
    if args.seat is not None and args.log:
        raise UsageError("argument --seat: not allowed with --log (the log shows no hands)")
    name, data = read_input(args.file)
    game = load_record(name, data)
    actions = len(game.log)
    if args.at is not None:
        check_at(game, args.at)
    players = len(game.names)
    if args.seat is not None and not 0 <= args.seat < players:
        raise UsageError(
            f"argument --seat: expected a seat from 0 to {players - 1} "
            f"({players} players, counted from 0), got {args.seat}"
        )
    if args.log:
        _print_log(game, actions if args.at is None else args.at, as_json=args.json)
    elif args.at is not None:
        _print_position(game, args.at, args.seat, as_json=args.json)
    else:
        _print_summary(name, game, as_json=args.json)
    return 0


def add_at_argument(parser: argparse.ArgumentParser, text: str) -> None:
    """The ``--at N`` argument: a number of actions of a record, checked by `check_at`."""
    parser.add_argument("--at", type=int, metavar="N", help=text)


def load_record(name: str, data: bytes) -> Game:
    """Replay a record read from ``name``, checking every action and event.

    :raises CommandError: the record is not sound, with ``name`` in front of the reason.
    """
    try:
        return Game.load(data)
    except RecordError as exc:
        raise CommandError(f"{name}: {exc}") from None


def check_at(game: Game, at: int) -> None:
    """Check an ``--at`` value: from 0 (after the setup) to the number of actions.

    :raises UsageError: naming the range.
    """
    actions = len(game.log)
    if not 0 <= at <= actions:
        raise UsageError(
            f"argument --at: expected a number of actions from 0 to {actions}, got {at}"
        )


def state_at(game: Game, at: int) -> GameState:
    """The position after the first ``at`` actions of the game (0: after the setup)."""
    return next(itertools.islice(game.history(), at, None))


def _print_summary(name: str, game: Game, *, as_json: bool) -> None:
    info = summary(game)
    if as_json:
        print_json(info)
        return
    out = console()
    status = f"over ({info['ended_by'].replace('_', ' ')})" if info["over"] else "in progress"
    out.print(
        f"{name}: a valid {info['edition']} game record, {len(info['players'])} players, "
        f"{info['turns']} turns ({info['actions']} actions), {status}",
        soft_wrap=True,
    )
    if info["scores"] is not None:
        table = Table(title="Final scores")
        table.add_column("Player")
        table.add_column("Total", justify="right")
        table.add_column("Winner")
        for p in info["scores"]:
            table.add_row(p["name"], str(p["total"]), "yes" if p["name"] in info["winners"] else "")
        out.print(table)
    else:
        out.print("Players: " + ", ".join(info["players"]), soft_wrap=True)


# -- positions -----------------------------------------------------------------------------


def _turn_label(state: GameState) -> str:
    """``opening`` for the opening ticket choice, else ``turn T`` (counted from 1)."""
    return "opening" if state.phase is Phase.OPENING_TICKETS else f"turn {state.turn + 1}"


def _turn_number(state: GameState) -> int:
    """The turn an action in ``state`` belongs to: 0 for the opening ticket choice."""
    return 0 if state.phase is Phase.OPENING_TICKETS else state.turn + 1


# -- the log -------------------------------------------------------------------------------


def _print_log(game: Game, count: int, *, as_json: bool) -> None:
    rs, names = game.ruleset, game.names
    write = sys.stdout.write
    if not as_json:
        setup = _outcomes(rs, names, [redact(e, PUBLIC) for e in game.setup])
        starts = f"{names[game.state.start_player]} starts"
        write(f"{0:>4}  {'setup':<8}  " + "; ".join([starts, *setup]) + "\n")
    for number, (before, entry) in enumerate(zip(game.history(), game.log, strict=False), start=1):
        if number > count:
            break
        if as_json:
            print_json(
                {
                    "number": number,
                    "turn": _turn_number(before),
                    "seat": before.current,
                    "player": names[before.current],
                    "action": action_to_json(entry.action),
                    "events": [event_to_json(e) for e in entry.events],
                },
                indent=None,
            )
        else:
            line = describe(rs, names, before, entry)
            write(f"{number:>4}  {_turn_label(before):<8}  {line}\n")


def describe(rs: Ruleset, names: Sequence[str], before: GameState, entry: LogEntry) -> str:
    """One action in words, with the chance outcomes everyone saw, e.g.
    ``Ann takes the face-up red; turned face up: black``.

    Only public information is used: the events are redacted for no seat first.
    """
    public = [redact(e, PUBLIC) for e in entry.events]
    who = names[before.current]
    words = _action_words(rs, before, entry.action, public)
    merged = isinstance(entry.action, ClaimRoute) and not _first(public, ev.TunnelRevealed)
    shown = [e for e in public if not (merged and isinstance(e, ev.RouteClaimed))]
    return "; ".join([f"{who} {words}", *_outcomes(rs, names, shown)])


def _first(events: Sequence[ev.Event], kind: type[_E]) -> _E | None:
    """The first event of this kind, if any."""
    return next((e for e in events if isinstance(e, kind)), None)


def _action_words(
    rs: Ruleset, before: GameState, action: Action, events: Sequence[ev.Event]
) -> str:
    """The action itself in words (its public outcomes are described separately)."""
    if isinstance(action, TakeFaceUp):
        return f"takes the face-up {CARD_NAMES[action.card]}"
    if isinstance(action, DrawBlind):
        return "draws a card from the deck"
    if isinstance(action, DrawTickets):
        dealt = _first(events, ev.TicketsDealt)
        return f"draws {counted(len(dealt.tickets) if dealt else 0, 'ticket')}"
    if isinstance(action, KeepTickets):
        kept = _first(events, ev.TicketsKept)
        k = len(kept.kept) if kept else len(action.tickets)
        n = k + (len(kept.returned) if kept else 0)
        opening = "opening " if before.phase is Phase.OPENING_TICKETS else ""
        return f"keeps {k} of {n} {opening}tickets"
    if isinstance(action, ClaimRoute):
        route = _route(rs, action.route)
        if map_ids(rs).tracks[action.route].tunnel:
            return f"claims the tunnel {route} ({_cards(action.cards)})"
        claimed = _first(events, ev.RouteClaimed)
        points = f" for {counted(claimed.points, 'point')}" if claimed else ""
        return f"claims {route} ({_cards(action.cards)}){points}"
    if isinstance(action, ClaimWithGroups):
        started = _first(events, ev.GroupClaimStarted)
        size = f", {counted(started.size, 'card')} to lay down" if started else ""
        groups = counted(action.groups, "group")
        return f"claims {_route(rs, action.route)} paying {groups} of any cards{size}"
    if isinstance(action, ChooseCard):
        return f"lays down {CARD_NAMES[action.card]}"
    if isinstance(action, PayTunnel):
        return f"pays {_cards(action.cards)} more for the tunnel"
    if isinstance(action, WithdrawTunnel):
        tunnel = before.tunnel
        where = f" on {_track(rs, tunnel.route)}" if tunnel else ""
        return f"withdraws the tunnel claim{where}"
    if isinstance(action, BuildStation):
        return f"builds a station in {action.city} ({_cards(action.cards)})"
    if isinstance(action, Pass):
        return "passes"
    return f"takes the action {type(action).tag!r}"


def _outcomes(rs: Ruleset, names: Sequence[str], events: Sequence[ev.Event]) -> list[str]:
    """The public outcomes among ``events`` in words, in order; the action's own are skipped."""
    out: list[str] = []
    revealed: list[str] = []

    def flush_revealed() -> None:
        if revealed:
            out.append("turned face up: " + ", ".join(revealed))
            revealed.clear()

    for e in events:
        if isinstance(e, ev.CardRevealed):
            revealed.append(CARD_NAMES[e.card])
            continue
        flush_revealed()
        if isinstance(e, ev.Shuffled) and e.reason == "reshuffle":
            out.append("the discard pile is shuffled into a new deck")
        elif isinstance(e, ev.DisplayFlushed):
            locos = counted(e.cards.count(LOCO), "locomotive")
            out.append(f"{locos} face up: the display is discarded")
        elif isinstance(e, ev.LocomotivesRemain):
            out.append(f"{counted(e.locomotives, 'locomotive')} stay face up (too many flushes)")
        elif isinstance(e, ev.TunnelRevealed):
            shown = ", ".join(CARD_NAMES[c] for c in e.cards) or "nothing"
            due = f"{counted(e.extra, 'more card')} due" if e.extra else "no more cards due"
            out.append(f"the tunnel turns over {shown}: {due}")
        elif isinstance(e, ev.RouteClaimed):
            route = _route(rs, e.route)
            out.append(f"{route} claimed ({_cards(e.cards)}) for {counted(e.points, 'point')}")
        elif isinstance(e, ev.FinalRoundStarted):
            trains = counted(e.trains, "train")
            out.append(f"{names[e.player]} has {trains} left: the final round begins")
        elif isinstance(e, ev.GameEnded):
            why = " (a full round of passes)" if e.reason == "deadlock" else ""
            out.append(f"the game is over{why}")
    flush_revealed()
    return out


def _cards(counts: Sequence[int], joiner: str = " + ") -> str:
    """A payment (or, joined by commas, a hand) in words, e.g. ``red ×3 + locomotive ×1``."""
    return joiner.join(f"{CARD_NAMES[k]} ×{n}" for k, n in enumerate(counts) if n) or "no cards"


def _route(rs: Ruleset, track_id: int) -> str:
    """A track by id, named by its cities, e.g. ``Denver–Omaha``."""
    return "–".join(map_ids(rs).tracks[track_id].cities)


def _track(rs: Ruleset, r: int) -> str:
    """A track by index, named by its cities, e.g. ``Denver–Omaha``."""
    return "–".join(rs.map.routes[r].cities)


def _ticket(rs: Ruleset, ticket_id: int) -> str:
    """A ticket with its points, e.g. ``Denver–El Paso (4)``."""
    t = map_ids(rs).tickets[ticket_id]
    if t.b is not None:
        return f"{t.a}–{t.b} ({t.points})"
    targets = t.targets or {}
    return f"{t.a}–" + "/".join(f"{c} ({p})" for c, p in targets.items())


# -- one position --------------------------------------------------------------------------

_TO_DO = {
    Phase.TURN: "to play",
    Phase.SECOND_CARD: "to draw a second card",
    Phase.KEEP_TICKETS: "to choose which drawn tickets to keep",
    Phase.TUNNEL: "to pay for the tunnel or withdraw",
    Phase.CHOOSE_CARDS: "to choose the cards of the payment",
}
"""What the player to act has to do, by phase (the opening and the end are worded apart)."""


def _print_position(game: Game, at: int, seat: int | None, *, as_json: bool) -> None:
    rs, names = game.ruleset, game.names
    state = state_at(game, at)
    if as_json:
        print_json(state_to_json(state) if seat is None else view_to_json(view_of(rs, state, seat)))
        return
    out = console()
    lines = [f"{rs.id}, after {at} of {len(game.log)} actions: {_status(names, state)}"]
    lines.append(
        "Face up: " + ", ".join(CARD_NAMES[c] if c >= 0 else "(empty)" for c in state.display)
    )
    lines.append(
        f"Train deck: {counted(state.deck_size, 'card')}; discard pile: "
        f"{counted(sum(state.discard), 'card')}; ticket deck: "
        f"{counted(len(state.ticket_deck), 'ticket')}"
    )
    out.print("\n".join(lines), soft_wrap=True)
    out.print(_players_table(rs, names, state))
    details = [f"Routes of {names[s]}: {_routes_of(rs, state, s)}" for s in range(len(names))]
    if rs.params.stations:
        for s in range(len(names)):
            cities = [rs.map.cities[c].id for c, o in enumerate(state.station_owners) if o == s]
            details.append(f"Stations of {names[s]}: {', '.join(cities) or 'none'}")
    if state.tunnel is not None:
        t = state.tunnel
        shown = ", ".join(CARD_NAMES[c] for c in t.revealed) or "nothing"
        details.append(
            f"Tunnel: {names[state.current]} claims {_track(rs, t.route)} "
            f"with {_cards(t.paid)}; it turned over {shown}: {counted(t.extra, 'more card')} due"
        )
    if state.choice is not None:
        c = state.choice
        details.append(
            f"Payment: {names[state.current]} claims {_track(rs, c.route)} "
            f"with {counted(c.groups, 'group')} of any cards, {c.size} cards in all; "
            f"laid down so far: {_cards(c.chosen)}"
        )
    if seat is not None:
        view = view_of(rs, state, seat)
        details.append(f"Seen by {names[seat]} (seat {seat}):")
        details.append(f"  Hand: {_cards(view.hand, ', ')}")
        details.append("  Tickets: " + (", ".join(_ticket(rs, t) for t in view.tickets) or "none"))
        if view.offered:
            details.append("  Choosing from: " + ", ".join(_ticket(rs, t) for t in view.offered))
    if state.is_over:
        sheet = score_game(rs, state, names)
        totals = ", ".join(f"{p.name} {p.total}" for p in sheet.players)
        winners = ", ".join(names[s] for s in sheet.winners)
        details.append(f"Final scores: {totals}; won by {winners}")
    out.print("\n".join(details), soft_wrap=True)


def _status(names: Sequence[str], state: GameState) -> str:
    """Whose turn it is and what they have to do, or how the game ended."""
    who = names[state.current]
    if state.phase is Phase.GAME_OVER:
        why = "a full round of passes" if state.ended_by == "deadlock" else "final round played"
        return f"the game is over after {counted(state.turn, 'turn')} ({why})"
    if state.phase is Phase.OPENING_TICKETS:
        return f"opening ticket choice, {who} to choose"
    status = f"turn {state.turn + 1}, {who} {_TO_DO[state.phase]}"
    if state.final_trigger >= 0:
        status += f" (final round, started by {names[state.final_trigger]})"
    return status


def _players_table(rs: Ruleset, names: Sequence[str], state: GameState) -> Table:
    table = Table()
    table.add_column("Seat", justify="right")
    table.add_column("Player")
    columns = ["Trains", "Cards", "Tickets", "Score", "Routes"]
    if rs.params.stations:
        columns.append("Stations left")
    for column in columns:
        table.add_column(column, justify="right")
    for s, p in enumerate(state.players):
        row = [
            str(s),
            names[s],
            str(p.trains),
            str(sum(p.hand)),
            str(len(p.tickets)),
            str(p.score),
            str(state.owners.count(s)),
        ]
        if rs.params.stations:
            row.append(str(p.stations))
        table.add_row(*row)
    return table


def _routes_of(rs: Ruleset, state: GameState, seat: int) -> str:
    routes = [r for r, owner in enumerate(state.owners) if owner == seat]
    return ", ".join(_track(rs, r) for r in routes) or "none"
