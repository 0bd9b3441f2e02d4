"""``ttr play``: a person plays a game in the terminal against bots.

The person sees what their seat may know (their hand and tickets with how far each is from
done, the face-up cards, every player's public counts) and chooses from menus numbered from
1 (`ttr_core.cli.play_menus`), typing the number. A claim takes two steps, the route and
then the payment; a city's name narrows the routes to those at it, and a long menu shows a
page at a time. ``map``, ``tickets`` and ``help`` answer at every prompt
(`ttr_core.cli.play_board`). A refused input says why in one line and asks again. Every
move, the bots' included, is described as everyone saw it; every line fits 80 columns.

At the end the scores are shown, and ``--save FILE`` writes the game's record (``ttr
replay FILE`` reads it). Ctrl-C, the end of the input or ``q`` stops the game with status
130; the game so far is saved first when ``--save`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import sys
from collections.abc import Sequence
from typing import Any

from ttr_core.batch.runs import start_seat
from ttr_core.bots.base import Bot
from ttr_core.bots.registry import find_bot
from ttr_core.cli._common import (
    CommandError,
    UsageError,
    add_option_argument,
    counted,
    options_dict,
    sentence,
)
from ttr_core.cli._runs import INTERRUPTED, bot_names
from ttr_core.cli.play_board import (
    board_lines,
    city_lines,
    find_cities,
    fit,
    ticket_lines,
    ticket_text,
    to_go_text,
    together,
    trains_to_go,
)
from ttr_core.cli.play_menus import (
    KEEP_HELP,
    Back,
    Command,
    Menu,
    MenuSession,
    Narrowing,
    Say,
    Show,
    cards_text,
    command_of,
    keep_choice,
    menu_for,
)
from ttr_core.cli.replay import describe
from ttr_core.formats.render import draw_map
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model import events as ev
from ttr_core.model.actions import Action, KeepTickets
from ttr_core.model.cards import CARD_NAMES
from ttr_core.model.errors import RenderError
from ttr_core.model.rng import derive_seed
from ttr_core.model.state import Phase
from ttr_core.play.game import Game
from ttr_core.rules.queries import completed_tickets
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
    table = Table(game, args.seat, labels, seated, own, seed)
    table.say(
        f"{rs.info.name}, seed {seed}: "
        + "; ".join(f"{names[s]} is {label}" for s, label in enumerate(labels))
        + f". {names[game.state.start_player]} starts. Type help for the commands, q to quit."
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
        seed: int = 0,
    ) -> None:
        self.game = game
        self.rs = game.ruleset
        self.own = own
        """Per seat, the ruleset its bot was built with and lists its actions on."""
        self.seat = seat
        self.labels = labels
        self.bots = bots
        self.seed = seed
        self.who = [
            f"{name} ({'you' if s == seat else labels[s]})" for s, name in enumerate(game.names)
        ]
        """Each seat as the reader knows it, e.g. ``Player 2 (greedy)``."""

    def say(self, text: str = "") -> None:
        sys.stdout.write(text + "\n")

    def show(self, lines: Sequence[str]) -> None:
        sys.stdout.write("".join(line + "\n" for line in lines))

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
        self.show(fit(f"  {line}", indent="    "))

    # -- what the person sees ------------------------------------------------------------

    def view_lines(self, view: PlayerView) -> list[str]:
        """The table as the person's seat sees it, in a few lines of 80 columns."""
        rs, names = self.rs, self.game.names
        if view.phase is Phase.OPENING_TICKETS:
            title = "Opening tickets"
        else:
            title = f"Turn {view.turn + 1}"
        if view.final_trigger >= 0:
            title += f" (final round, started by {names[view.final_trigger]})"
        lines = ["", *fit(f"== {title}: you are {names[self.seat]} (seat {self.seat}) ==")]
        shown = ", ".join(CARD_NAMES[c] if c >= 0 else "(empty)" for c in view.display)
        lines += fit(f"Face up: {shown}  |  discard pile {sum(view.discard)}", indent="  ")
        lines += fit(f"Your hand: {cards_text(view.hand).replace(' + ', ', ')}", indent="  ")
        done = completed_tickets(rs, view, view.seat)
        tickets = [
            together(
                ticket_text(rs, t)
                + (": done" if t in done else f": {to_go_text(trains_to_go(rs, view, t))}")
            )
            for t in view.tickets
        ]
        lines += fit(
            "Your tickets: " + ("; ".join(tickets) or "none"),
            indent="  ",
            most=2,
            cut="… (type tickets)",
        )
        lines += self.players_table(view)
        return lines

    def players_table(self, view: PlayerView) -> list[str]:
        """Every player's public counts, a row each under a header."""
        heads = ["trains", "cards", "tickets", "points", "routes"]
        if self.rs.params.stations:
            heads.append("stations")
        rows = []
        for p in view.players:
            routes = sum(1 for o in view.owners if o == p.seat)
            counts = [p.trains, p.hand_size, p.tickets, p.score, routes, p.stations]
            rows.append((self.who[p.seat], counts[: len(heads)]))
        wide = max(len(who) for who, _ in rows)
        lines = ["  " + "Players".ljust(wide) + "".join(f" {h:>6}" for h in heads)]
        for who, counts in rows:
            cells = "".join(f" {n:>{max(6, len(h))}}" for n, h in zip(counts, heads, strict=True))
            lines.append("  " + who.ljust(wide) + cells)
        return lines

    def show_scores(self) -> None:
        sheet = self.game.scores()
        self.say()
        self.say("== Final scores ==")
        for s, p in enumerate(sheet.players):
            bonuses = "".join(f", {name.replace('_', ' ')} {n}" for name, n in p.bonuses.items())
            self.show(
                fit(
                    f"  {self.who[s]}: {p.total} (routes {p.route_points}, tickets "
                    f"{p.ticket_points}{bonuses})",
                    indent="    ",
                )
            )
        self.show(fit(f"Won by {', '.join(self.who[s] for s in sheet.winners)}.", indent="  "))

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
        if text.lower() in ("q", "quit", "exit"):
            raise Quit("interrupted")
        return text

    def command(self, command: Command) -> None:
        """Carry out a command typed at a prompt: it shows something and changes nothing."""
        view = self.game.view(self.seat)
        if command.name == "tickets":
            self.show(ticket_lines(self.rs, view, command.arg))
        elif command.name == "view":
            self.show(self.view_lines(view))
        elif command.arg.lower().startswith("svg"):
            self.save_drawing(command.arg[3:].strip())
        elif command.arg:
            cities = find_cities(self.rs, command.arg)
            if len(cities) == 1:
                self.show(city_lines(self.rs, view, cities[0], self.who))
            elif cities:
                self.show(fit(f"  {command.arg!r} could be {', '.join(cities)}.", indent="    "))
            else:
                self.say(f"  No city is called {command.arg!r}; map alone shows the board.")
        else:
            self.show(board_lines(self.rs, view, self.who))

    def save_drawing(self, path: str) -> None:
        """``map svg [FILE]``: write the board with its claims as SVG, and say where."""
        rs, game = self.rs, self.game
        path = path or f"ttr-{rs.id}-{self.seed}.svg"
        title = f"{rs.map.name}: turn {game.state.turn + 1}"
        try:
            names = [f"{name}, {self.labels[s]}" for s, name in enumerate(game.names)]
            svg = draw_map(rs, state=game.state, names=names, title=title)
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg)
        except (OSError, RenderError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            self.say(f"  Cannot save the drawing to {path}: {reason}")
            return
        self.say(f"  The board is drawn in {os.path.abspath(path)} (open it in a browser).")

    def run_menu(self, menu: Menu, narrowing: Narrowing | None = None) -> Action | None:
        """Ask for one of ``menu``'s options, by number, page, city or command; None when
        the person goes back."""
        session = MenuSession(self.rs, menu, narrowing or Narrowing())
        self.show(session.screen())
        while True:
            reply = session.handle(self.read("> "))
            if isinstance(reply, Show):
                self.show(reply.lines)
            elif isinstance(reply, Say):
                self.show(fit(f"  {reply.text}", indent="    "))
            elif isinstance(reply, Command):
                self.command(reply)
            elif isinstance(reply, Back):
                return None
            else:
                option = reply.option
                if option.action is not None:
                    return option.action
                assert option.submenu is not None
                chosen = self.run_menu(option.submenu(), reply.narrowing)
                if chosen is not None:
                    return chosen
                self.show(session.screen())

    def ask_action(self) -> Action:
        """Show the person's view and ask for their move."""
        game = self.game
        view = game.view(self.seat)
        legal = list(game.legal_actions())
        menu = menu_for(self.rs, view, legal)
        if menu is None:
            self.show(self.view_lines(view))
            return self.ask_tickets(view, legal)
        if view.phase is Phase.SECOND_CARD or view.phase is Phase.CHOOSE_CARDS:
            shown = ", ".join(CARD_NAMES[c] if c >= 0 else "(empty)" for c in view.display)
            hand = cards_text(view.hand).replace(" + ", ", ")
            self.show(fit(f"Face up: {shown}. Your hand: {hand}", indent="  "))
        else:
            self.show(self.view_lines(view))
        chosen = self.run_menu(menu)
        assert chosen is not None
        return chosen

    def ask_tickets(self, view: PlayerView, legal: list[Action]) -> Action:
        """Ask which of the offered tickets to keep: their numbers, or ``all``."""
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        need = min(len(a.tickets) for a in keeps)
        self.say("Tickets offered to you:")
        for i, t in enumerate(view.offered, start=1):
            to_go = to_go_text(trains_to_go(self.rs, view, t))
            self.show(fit(f"  {i}. {ticket_text(self.rs, t)}: {to_go}", indent="      "))
        while True:
            text = self.read(
                f"Keep which? Type their numbers, e.g. 1 3, or all (at least {need}): "
            )
            if text.lower() in ("help", "?"):
                self.show(KEEP_HELP)
                continue
            command = command_of(text)
            if command is not None:
                self.command(command)
                continue
            chosen = keep_choice(text, view.offered, keeps)
            if isinstance(chosen, str):
                self.say(f"  {chosen}")
            else:
                return chosen
