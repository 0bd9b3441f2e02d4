"""``ttr play``: a person plays a game in the terminal against bots.

The person sees what their seat may know (their hand and tickets, the face-up cards, the
claimed routes, every player's public counts) and chooses from menus numbered from 1,
typing the number. A claim takes two steps, the route and then the payment, so that no
menu lists every way to pay for every route. A refused input says why and asks again;
``q`` quits. Every move, the bots' included, is described as everyone saw it.

At the end the scores are shown, and ``--save FILE`` writes the game's record (``ttr
replay FILE`` reads it). Ctrl-C, the end of the input or ``q`` stops the game with status
130; the game so far is saved first when ``--save`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any

from attrs import frozen

from ttr_core.batch.runs import start_seat
from ttr_core.bots.base import Bot
from ttr_core.bots.registry import find_bot
from ttr_core.cli._common import (
    CommandError,
    UsageError,
    add_option_argument,
    counted,
    map_ids,
    options_dict,
    sentence,
)
from ttr_core.cli._runs import INTERRUPTED, bot_names
from ttr_core.cli.replay import describe
from ttr_core.hidden.seat_actions import SeatActions
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
from ttr_core.model.rng import derive_seed
from ttr_core.model.state import Phase
from ttr_core.play.game import Game
from ttr_core.rules.queries import completed_tickets, track_cost
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

HELP = "play a game in the terminal against bots"


def register(sub: Any) -> None:
    """Add the ``play`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "play",
        help=HELP,
        description=sentence(HELP)
        + ": choose from numbered menus by typing the number; q quits. The game has one "
        "seat per bot plus yours.",
    )
    parser.add_argument("edition", metavar="EDITION", help="edition id or alias")
    parser.add_argument(
        "--against",
        default="greedy",
        metavar="BOT[,BOT...]",
        help="the bots at the table, one per seat besides yours (default: greedy); a bot "
        "is a registered name or module:Class, with parameters as in mcts:playouts=200",
    )
    parser.add_argument(
        "--seat", type=int, default=0, help="your seat, counted from 0 (default: 0)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the game (default: a new one, shown at the start)",
    )
    add_option_argument(parser)
    parser.add_argument(
        "--save", metavar="FILE", help="write the game's record to FILE (ttr replay reads it)"
    )
    parser.set_defaults(run=run)


class Quit(Exception):
    """The person left the game: ``q``, or the end of the input."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why
        """What happened, for the message: ``interrupted`` or ``input ended``."""


def run(args: argparse.Namespace) -> int:
    """Set the table, play the game, show the scores; stop cleanly on Ctrl-C or ``q``."""
    bots = bot_names(args.against)
    rs = Ruleset.build(args.edition, options_dict(args.options))
    players = len(bots) + 1
    lo, hi = rs.params.players
    if not lo <= players <= hi:
        raise UsageError(
            f"argument --against: {rs.id} is played by {lo} to {hi} players, and "
            f"{counted(len(bots), 'bot')} and you make {players}"
        )
    if not 0 <= args.seat < players:
        raise UsageError(f"argument --seat: expected a seat from 0 to {players - 1}")
    factories = [find_bot(name) for name in bots]
    if args.save is not None:
        _check_writable(args.save)
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    labels = list(bots)
    labels.insert(args.seat, "you")
    names = [f"Player {s + 1}" for s in range(players)]
    game = Game.new(rs, players=names, seed=seed, start_player=start_seat(seed, players))
    others = iter(factories)
    own = [rs.private_copy() for _ in range(players)]
    seated: list[Bot | None] = [
        None if s == args.seat else next(others)(own[s], s, derive_seed(seed, s + 1))
        for s in range(players)
    ]
    table = Table(game, args.seat, labels, seated, own)
    table.say(
        f"{rs.info.name}, seed {seed}: "
        + "; ".join(f"{names[s]} is {label}" for s, label in enumerate(labels))
        + f". {names[game.state.start_player]} starts. Type q to quit."
    )
    try:
        table.play()
    except (KeyboardInterrupt, Quit) as exc:
        sys.stdout.flush()
        why = exc.why if isinstance(exc, Quit) else "interrupted"
        saved = ""
        if args.save is not None:
            _save(args.save, game)
            saved = f"; the game so far is saved in {args.save}"
        sys.stderr.write(f"ttr: {why} before the end of the game{saved}\n")
        return INTERRUPTED
    table.show_scores()
    if args.save is not None:
        _save(args.save, game)
        table.say(f"The game is saved in {args.save} (ttr replay {args.save} replays it).")
    return 0


def _check_writable(path: str) -> None:
    """Refuse a ``--save`` path whose directory is missing or not writable, before play."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CommandError(f"--save: {path} is a directory")
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise CommandError(f"--save: cannot write to the directory of {path}")


def _save(path: str, game: Game) -> None:
    """Write the game's record to ``path``, whole or not at all (via a rename)."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        try:
            with open(temporary, "w", encoding="utf-8") as f:
                f.write(game.save() + "\n")
            os.replace(temporary, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
    except OSError as exc:
        raise CommandError(f"--save: cannot write {path}: {exc.strerror or exc}") from None


def _interactive() -> bool:
    """Whether standard input is a terminal (its lines are echoed by the terminal)."""
    isatty = getattr(sys.stdin, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:
        return False


# -- words ----------------------------------------------------------------------------------


def cards_text(counts: Sequence[int]) -> str:
    """Card counts in words, e.g. ``red ×3 + locomotive ×1``."""
    return " + ".join(f"{CARD_NAMES[k]} ×{n}" for k, n in enumerate(counts) if n) or "no cards"


def route_text(rs: Ruleset, r: int) -> str:
    """A track by its cities, e.g. ``Denver–Omaha``."""
    return "–".join(rs.map.routes[r].cities)


def track_text(rs: Ruleset, r: int) -> str:
    """A track with what it takes, e.g. ``Denver–Omaha: 4 red, 7 points``; one of a
    double route also names its track id, to tell it from its parallel."""
    t = rs.map.routes[r]
    extras = []
    if t.parallel is not None:
        extras.append(f"double, track {t.id}")
    if t.tunnel:
        extras.append("tunnel")
    if t.ferry:
        extras.append(f"ferry: {counted(t.ferry, 'locomotive')}")
    more = f" ({', '.join(extras)})" if extras else ""
    points = counted(rs.params.route_points[t.length], "point")
    return f"{route_text(rs, r)}: {t.length} {t.color}{more}, {points}"


def ticket_text(rs: Ruleset, ticket_id: int) -> str:
    """A ticket with its points, e.g. ``Denver–El Paso (4)``."""
    t = map_ids(rs).tickets[ticket_id]
    if t.b is not None:
        return f"{t.a}–{t.b} ({t.points})"
    return f"{t.a}–" + "/".join(f"{c} ({p})" for c, p in (t.targets or {}).items())


@frozen
class Option:
    """One line of a menu: its words and what choosing it does."""

    label: str
    action: Action | None = None
    then: Callable[[], Action | None] | None = None
    """A further menu (it returns None to come back here)."""


# -- the table --------------------------------------------------------------------------------


class Table:
    """One game at the terminal: the person's seat, the bots, and the conversation."""

    def __init__(
        self,
        game: Game,
        seat: int,
        labels: Sequence[str],
        bots: Sequence[Bot | None],
        own: Sequence[Ruleset],
    ) -> None:
        self.game = game
        self.rs = game.ruleset
        self.own = own
        """Per seat, the ruleset its bot was built with and lists its actions on."""
        self.seat = seat
        self.labels = labels
        self.bots = bots

    def say(self, text: str = "") -> None:
        sys.stdout.write(text + "\n")

    def play(self) -> None:
        """Play until the game is over: the bots move, the person is asked."""
        game = self.game
        while not game.is_over:
            before = game.state
            seat = before.current
            bot = self.bots[seat]
            if bot is None:
                action = self.ask_action()
            else:
                view = game.view(seat)
                action = bot.choose(view, SeatActions(self.own[seat], before, seat))
            game.apply(action)
            self.narrate(before, seat)

    def narrate(self, before: Any, seat: int) -> None:
        """Describe the move just made as everyone saw it, and what only the person saw."""
        entry = self.game.log[-1]
        line = describe(self.rs, self.game.names, before, entry)
        if seat == self.seat:
            drawn = [CARD_NAMES[e.card] for e in entry.events if isinstance(e, ev.BlindDrawn)]
            if drawn:
                line += f" (you drew {', '.join(drawn)})"
        elif self.bots[seat] is not None:
            line = line.replace(
                self.game.names[seat], f"{self.game.names[seat]} ({self.labels[seat]})", 1
            )
        self.say(f"  {line}")

    # -- what the person sees ------------------------------------------------------------

    def show_view(self, view: PlayerView) -> None:
        rs, names = self.rs, self.game.names
        if view.phase is Phase.OPENING_TICKETS:
            title = "Opening tickets"
        else:
            title = f"Turn {view.turn + 1}"
        if view.final_trigger >= 0:
            title += f" (final round, started by {names[view.final_trigger]})"
        self.say()
        self.say(f"== {title}: you are {names[self.seat]} (seat {self.seat}) ==")
        shown = ", ".join(CARD_NAMES[c] if c >= 0 else "(empty)" for c in view.display)
        self.say(
            f"Face up: {shown}  |  deck {counted(view.deck_size, 'card')}, discard pile "
            f"{counted(sum(view.discard), 'card')}, ticket deck "
            f"{counted(view.ticket_deck_size, 'ticket')}"
        )
        self.say(f"Your hand: {cards_text(view.hand).replace(' + ', ', ')}")
        done = completed_tickets(rs, view, view.seat)
        tickets = [ticket_text(rs, t) + (" done" if t in done else "") for t in view.tickets]
        self.say("Your tickets: " + ("; ".join(tickets) or "none"))
        for p in view.players:
            who = "you" if p.seat == self.seat else self.labels[p.seat]
            stations = f", {counted(p.stations, 'station')} left" if rs.params.stations else ""
            routes = [route_text(rs, r) for r, o in enumerate(view.owners) if o == p.seat]
            self.say(
                f"  {names[p.seat]} ({who}): {counted(p.trains, 'train')}, "
                f"{counted(p.hand_size, 'card')}, {counted(p.tickets, 'ticket')}, "
                f"{counted(p.score, 'point')}{stations}; routes: {', '.join(routes) or 'none'}"
            )
            if rs.params.stations:
                cities = [
                    rs.map.cities[c].id for c, o in enumerate(view.station_owners) if o == p.seat
                ]
                if cities:
                    self.say(f"    stations: {', '.join(cities)}")

    def show_scores(self) -> None:
        sheet = self.game.scores()
        names = self.game.names
        self.say()
        self.say("== Final scores ==")
        for s, p in enumerate(sheet.players):
            who = "you" if s == self.seat else self.labels[s]
            bonuses = "".join(f", {name.replace('_', ' ')} {n}" for name, n in p.bonuses.items())
            self.say(
                f"  {names[s]} ({who}): {p.total} (routes {p.route_points}, tickets "
                f"{p.ticket_points}{bonuses})"
            )
        won = ", ".join(
            f"{names[s]} ({'you' if s == self.seat else self.labels[s]})" for s in sheet.winners
        )
        self.say(f"Won by {won}.")

    # -- asking -----------------------------------------------------------------------------

    def read(self, prompt: str) -> str:
        """One line of input (without its end); ``q`` or the end of the input quits."""
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            self.say()
            raise Quit("input ended")
        text = line.strip()
        if not _interactive():
            self.say(text)  # piped input: show it, so the session reads as typed
        if text.lower() in ("q", "quit"):
            raise Quit("interrupted")
        return text

    def menu(self, title: str, options: Sequence[Option], *, back: bool = False) -> Action | None:
        """Ask for one of ``options`` by number; None when the person goes back."""
        while True:
            self.say(title)
            for i, option in enumerate(options, start=1):
                self.say(f"  {i}. {option.label}")
            if back:
                self.say("  0. Back")
            while True:
                text = self.read("> ")
                if back and text in ("0", "b", "back"):
                    return None
                try:
                    k = int(text)
                except ValueError:
                    k = -1
                if 1 <= k <= len(options):
                    break
                lowest = 0 if back else 1
                self.say(
                    f"  {text!r} is not a choice here: type a number from {lowest} to "
                    f"{len(options)}, or q to quit."
                )
            option = options[k - 1]
            if option.action is not None:
                return option.action
            assert option.then is not None
            chosen = option.then()
            if chosen is not None:
                return chosen

    def ask_action(self) -> Action:
        """Show the person's view and ask for their move."""
        game = self.game
        view = game.view(self.seat)
        legal = list(game.legal_actions())
        phase = view.phase
        if phase is Phase.OPENING_TICKETS or phase is Phase.KEEP_TICKETS:
            self.show_view(view)
            return self.ask_tickets(view, legal)
        if phase is Phase.SECOND_CARD:
            shown = ", ".join(CARD_NAMES[c] if c >= 0 else "(empty)" for c in view.display)
            self.say(f"Face up: {shown}. Your hand: {cards_text(view.hand).replace(' + ', ', ')}")
            options = [Option(self.label(a), a) for a in legal]
            return self.choose("Your second card:", options)
        if phase is Phase.CHOOSE_CARDS:
            assert view.choice is not None
            c = view.choice
            route = route_text(self.rs, map_ids(self.rs).track_index[c.route])
            self.say(
                f"Laid down so far for {route}: "
                f"{cards_text(c.chosen)} ({sum(c.chosen)} of {c.size} cards). "
                f"Your hand: {cards_text(view.hand).replace(' + ', ', ')}"
            )
            return self.choose("Your next card:", [Option(self.label(a), a) for a in legal])
        self.show_view(view)
        if phase is Phase.TUNNEL:
            assert view.tunnel is not None
            t = view.tunnel
            route = route_text(self.rs, map_ids(self.rs).track_index[t.route])
            self.say(
                f"The tunnel {route} turned over "
                f"{', '.join(CARD_NAMES[c] for c in t.revealed) or 'nothing'}: "
                f"pay {counted(t.extra, 'more card')} or withdraw."
            )
            return self.choose("Your tunnel:", [Option(self.label(a), a) for a in legal])
        return self.ask_turn(legal)

    def choose(self, title: str, options: Sequence[Option]) -> Action:
        chosen = self.menu(title, options)
        assert chosen is not None
        return chosen

    def label(self, action: Action) -> str:
        """A menu line for an action."""
        rs = self.rs
        if isinstance(action, TakeFaceUp):
            whole = (
                action.card == LOCO
                and rs.params.face_up_locomotive == "whole_draw"
                and self.game.state.phase is Phase.TURN
            )
            return f"Take the face-up {CARD_NAMES[action.card]}" + (
                " (your whole draw)" if whole else ""
            )
        if isinstance(action, DrawBlind):
            return "Draw a card from the deck"
        if isinstance(action, DrawTickets):
            return "Draw tickets"
        if isinstance(action, PayTunnel):
            return f"Pay {cards_text(action.cards)}"
        if isinstance(action, WithdrawTunnel):
            return "Withdraw: take your cards back, the turn ends"
        if isinstance(action, ChooseCard):
            return f"Lay down: {CARD_NAMES[action.card]}"
        if isinstance(action, ClaimRoute | BuildStation):
            return f"Pay {cards_text(action.cards)}"
        if isinstance(action, ClaimWithGroups):
            size = track_cost(rs, map_ids(rs).track_index[action.route]).group_size
            groups = counted(action.groups, f"group of {size} cards", f"groups of {size} cards")
            return f"Pay with {groups} of any kind (you lay the cards down next)"
        if isinstance(action, Pass):
            return "Pass (nothing else is possible)"
        return repr(action)

    def ask_turn(self, legal: list[Action]) -> Action:
        """The turn's menu: draws and tickets, then claims and stations in two steps."""
        rs = self.rs
        options = [
            Option(self.label(a), a)
            for a in legal
            if isinstance(a, TakeFaceUp | DrawBlind | DrawTickets | Pass)
        ]
        claims: dict[int, list[Action]] = {}
        for a in legal:
            if isinstance(a, ClaimRoute | ClaimWithGroups):
                claims.setdefault(map_ids(rs).track_index[a.route], []).append(a)
        if claims:
            options.append(
                Option(
                    f"Claim a route ({counted(len(claims), 'route')} you can pay for)",
                    then=lambda: self.ask_claim(claims),
                )
            )
        stations: dict[str, list[Action]] = {}
        for a in legal:
            if isinstance(a, BuildStation):
                stations.setdefault(a.city, []).append(a)
        if stations:
            options.append(
                Option(
                    f"Build a station ({counted(len(stations), 'city', 'cities')})",
                    then=lambda: self.ask_station(stations),
                )
            )
        return self.choose("Your turn:", options)

    def ask_claim(self, claims: dict[int, list[Action]]) -> Action | None:
        rs = self.rs
        options = [
            Option(
                f"{track_text(rs, r)} ({counted(len(pays), 'way')} to pay)",
                then=functools.partial(self.ask_payment, f"Pay for {route_text(rs, r)}:", pays),
            )
            for r, pays in claims.items()
        ]
        return self.menu("Which route?", options, back=True)

    def ask_station(self, stations: dict[str, list[Action]]) -> Action | None:
        options = [
            Option(
                f"{city} ({counted(len(pays), 'way')} to pay)",
                then=functools.partial(self.ask_payment, f"Pay for a station in {city}:", pays),
            )
            for city, pays in stations.items()
        ]
        return self.menu("Where?", options, back=True)

    def ask_payment(self, title: str, payments: list[Action]) -> Action | None:
        """The second step of a claim or a station: which cards to pay with."""
        return self.menu(title, [Option(self.label(a), a) for a in payments], back=True)

    def ask_tickets(self, view: PlayerView, legal: list[Action]) -> Action:
        """Ask which of the offered tickets to keep: their numbers, or ``all``."""
        rs = self.rs
        offered = view.offered
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        need = min(len(a.tickets) for a in keeps)
        self.say("Tickets offered to you:")
        for i, t in enumerate(offered, start=1):
            self.say(f"  {i}. {ticket_text(rs, t)}")
        while True:
            text = self.read(
                f"Keep which? Type their numbers, e.g. 1 3, or all (at least {need}): "
            )
            picked = self._numbers(text, len(offered))
            if picked is None:
                continue
            action = KeepTickets(tickets=tuple(offered[i - 1] for i in sorted(picked)))
            if len(picked) < need:
                self.say(f"  Keep at least {counted(need, 'ticket')}.")
            elif action not in keeps:
                self.say("  That choice is not allowed; keep a different set.")
            else:
                return action

    def _numbers(self, text: str, n: int) -> set[int] | None:
        """The distinct numbers from 1 to ``n`` in ``text`` (or all of them); None, with
        the reason said, when ``text`` is not such a list."""
        if text.lower() == "all":
            return set(range(1, n + 1))
        parts = text.replace(",", " ").split()
        if not parts:
            self.say(f"  Type numbers from 1 to {n}, separated by spaces, or all.")
            return None
        picked: set[int] = set()
        for part in parts:
            try:
                k = int(part)
            except ValueError:
                k = 0
            if not 1 <= k <= n:
                self.say(f"  {part!r} is not a ticket number: type numbers from 1 to {n}.")
                return None
            if k in picked:
                self.say(f"  Ticket {k} is named twice.")
                return None
            picked.add(k)
        return picked
