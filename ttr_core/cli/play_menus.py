"""The menus of ``ttr play``, built from a seat's view and its legal actions, and what a
line typed at one of them means.

A `Menu` is data: numbered `Option` lines, each an action or a further menu. A
`MenuSession` holds one menu on the screen (its page, what the person narrowed it to) and
turns each typed line into a `Reply` for the caller, which does the reading and printing.
Nothing here reads or writes the terminal, so the tests can walk every menu of a position
and check that it offers exactly the legal actions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TypeAlias

from attrs import field, frozen

from ttr_core.cli._common import counted, map_ids
from ttr_core.cli.play_board import WIDTH, find_cities, fit, folded
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
from ttr_core.model.cards import CARD_NAMES, LOCO, ROUTE_COLOR_NAMES
from ttr_core.model.state import Phase
from ttr_core.rules.queries import track_cost
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

PAGE = 14
"""Options shown at once: a page, its title and footer and the prompt fit 24 lines."""

COMMANDS = ("map", "tickets", "view", "help")
"""Commands understood at every prompt (besides ``q``), handled by the caller."""


@frozen
class Option:
    """One line of a menu: its words and what choosing it does."""

    label: str
    action: Action | None = None
    submenu: Callable[[], Menu] | None = field(default=None, eq=False)
    """Builds the further menu this line opens (for a claim: its payments)."""
    cities: tuple[str, ...] = ()
    """The cities the line is about: typing one of them narrows a menu to such lines."""
    color: str | None = None
    """The route colour the line is about: typing it narrows a menu to such lines."""


@frozen
class Menu:
    """A numbered list of options, and how the person may move about in it."""

    title: str
    options: tuple[Option, ...]
    back: bool = False
    """Whether ``0`` or ``back`` returns to the menu before."""
    noun: str = ""
    """What the options are, e.g. ``route``, when a city or colour narrows them."""
    narrows_into: tuple[int, ...] = ()
    """Options (by position) whose menu a city or colour typed here opens, narrowed."""
    notes: tuple[str, ...] = ()
    """Lines shown above the title: what the choice is about."""


@frozen
class Narrowing:
    """What a menu is narrowed to: lines about all these cities, and of this colour."""

    cities: tuple[str, ...] = ()
    color: str | None = None

    def keeps(self, option: Option) -> bool:
        """Whether ``option`` stays in the narrowed menu."""
        return all(c in option.cities for c in self.cities) and (
            self.color is None or option.color == self.color
        )

    def words(self, n: int, noun: str) -> str:
        """``n`` lines of ``noun`` so narrowed in words, e.g. ``2 red routes at Calgary``."""
        noun = f"{self.color} {noun}" if self.color else noun
        what = counted(n, noun, noun[:-1] + "ies" if noun.endswith("y") else None)
        if len(self.cities) == 2:
            return what + f" between {self.cities[0]} and {self.cities[1]}"
        return what + (" at " + " and ".join(self.cities) if self.cities else "")

    @property
    def empty(self) -> bool:
        return not self.cities and self.color is None


@frozen
class Pick:
    """The person chose ``option``; a further menu opens narrowed by ``narrowing``."""

    option: Option
    narrowing: Narrowing = Narrowing()


@frozen
class Back:
    """The person goes back to the menu before."""


@frozen
class Show:
    """Print these lines (the menu again, another page of it, or its help)."""

    lines: tuple[str, ...]


@frozen
class Say:
    """A refused or unclear line: one line saying why, then the prompt again."""

    text: str


@frozen
class Command:
    """A command for the caller: ``map`` or ``tickets`` (with ``arg``), or ``view``."""

    name: str
    arg: str = ""


Reply: TypeAlias = Pick | Back | Show | Say | Command

_BACK = ("0", "back")
_NEXT = ("more", "next")
_PREVIOUS = ("prev", "previous")


def command_of(text: str) -> Command | None:
    """The command ``text`` is, if it is one of `COMMANDS` (``help`` aside)."""
    word, _, arg = text.strip().partition(" ")
    word = word.lower()
    if word in ("map", "board"):
        return Command("map", arg.strip())
    if word == "tickets":
        return Command("tickets", arg.strip())
    if word == "view" and not arg.strip():
        return Command("view")
    return None


COMMAND_HELP = (
    "  map         the claims and networks in words; map CITY: the tracks at a city",
    "  map svg     save an SVG drawing of the board; map svg FILE: to that file",
    "  tickets     how far each of your tickets is from done; tickets N: its tracks",
    "  view        the table again: cards, tickets, players",
    "  help        this list;  q  quit the game",
)


class MenuSession:
    """One menu on the screen: which page shows and what it is narrowed to."""

    def __init__(self, rs: Ruleset, menu: Menu, narrowing: Narrowing = Narrowing()) -> None:
        self.rs = rs
        self.menu = menu
        self.narrow(narrowing)

    def narrow(self, narrowing: Narrowing) -> None:
        """Show the options ``narrowing`` keeps, from the first page."""
        self.narrowing = narrowing
        self.shown = tuple(o for o in self.menu.options if narrowing.keeps(o))
        """The options as numbered now: all of them, or those the narrowing keeps."""
        self.page = 0

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.shown) // PAGE))

    def screen(self) -> tuple[str, ...]:
        """The menu as printed: notes, title, the current page of options, a footer."""
        menu, shown = self.menu, self.shown
        title = menu.title
        extra = []
        if menu.noun:
            extra.append(self.narrowing.words(len(shown), menu.noun))
        if self.pages > 1:
            extra.append(f"page {self.page + 1} of {self.pages}")
        if extra:
            title += f" ({'; '.join(extra)})"
        lines = [*menu.notes, *fit(title)]
        first = self.page * PAGE
        for i, option in enumerate(shown[first : first + PAGE], start=first + 1):
            lines.extend(fit(f"  {i}. {option.label}", indent="      "))
        hints = []
        if self.pages > 1:
            hints.append("more: next page")
        if menu.noun and not self.narrowing.empty:
            hints.append("all: every one")
        elif menu.noun:
            colours = any(o.color for o in menu.options)
            hints.append("type a city or colour" if colours else "type a city")
        elif menu.narrows_into:
            hints.append("type a city for its routes")
        if menu.back:
            hints.append("0: back")
        hints.append("map, tickets, help")
        lines.append("  " + " · ".join(hints))
        return tuple(lines)

    def help(self) -> tuple[str, ...]:
        """What may be typed at this menu, one line each."""
        n = len(self.shown)
        lines = [
            "At this prompt, type:",
            f"  1 to {n}      that choice" if n > 1 else "  1           that choice",
        ]
        if self.pages > 1:
            lines.append("  more, prev  the next or the previous page")
        if self.menu.noun == "city":
            lines.append("  a city      that city: its name or first letters, accents optional")
        elif self.menu.noun or self.menu.narrows_into:
            lines.append(
                "  a city      the routes at it: its name or first letters, accents optional"
            )
            lines.append("  a colour    the routes of a colour, e.g. red or gray")
        if self.menu.noun:
            lines.append("  all         every one again, not narrowed")
        if self.menu.back:
            lines.append("  0 or back   the menu before")
        lines.append("  Enter       this menu again")
        lines.extend(COMMAND_HELP)
        return tuple(lines)

    def handle(self, text: str) -> Reply:
        """What the line ``text`` (as typed, without its end) asks for here."""
        text = text.strip()
        word = text.lower()
        if not word:
            return Show(self.screen())
        if word in ("help", "?"):
            return Show(self.help())
        command = command_of(text)
        if command is not None:
            return command
        if self.menu.back and word in _BACK:
            return Back()
        if word in _NEXT or word in _PREVIOUS:
            if self.pages == 1:
                return Say("Every choice is shown already.")
            step = 1 if word in _NEXT else -1
            self.page = (self.page + step) % self.pages
            return Show(self.screen())
        if word.isdigit():
            k = int(word)
            if 1 <= k <= len(self.shown):
                return Pick(self.shown[k - 1])
            return Say(self._refusal(text))
        if word == "all" and self.menu.noun:
            if self.narrowing.empty:
                return Say("Every one is shown already.")
            self.narrow(Narrowing())
            return Show(self.screen())
        if self.menu.noun or self.menu.narrows_into:
            return self._narrow(text)
        return Say(self._refusal(text))

    def _refusal(self, text: str) -> str:
        n = len(self.shown)
        lowest = 0 if self.menu.back else 1
        city = ", a city" if self.menu.noun or self.menu.narrows_into else ""
        return (
            f"{text[:20]!r} is not a choice here: type a number from {lowest} to {n}{city}, "
            "help, or q."
        )

    def _narrow(self, text: str) -> Reply:
        """A city or a colour typed: narrow this menu, or open a narrowed one."""
        word = folded(text)
        colours = not self.menu.noun or any(o.color for o in self.menu.options)
        if word in ROUTE_COLOR_NAMES and colours:
            alone = Narrowing(color=word)
            wanted = Narrowing(self.narrowing.cities, word)
        else:
            cities = find_cities(self.rs, text)
            if not cities:
                return Say(self._refusal(text))
            if len(cities) > 1:
                names = ", ".join(cities)
                return Say(
                    f"{text!r} could be {names}: type more of the name."
                    if len(names) < WIDTH - 40
                    else f"{text!r} starts {len(cities)} city names: type more of the name."
                )
            alone = Narrowing((cities[0],))
            if cities[0] in self.narrowing.cities:
                wanted = self.narrowing
            else:
                wanted = Narrowing((*self.narrowing.cities, cities[0]), self.narrowing.color)
        if self.menu.noun:
            # Narrow further when something is left, else start again from the new word.
            for narrowing in (wanted, alone):
                if any(narrowing.keeps(o) for o in self.menu.options):
                    self.narrow(narrowing)
                    return Show(self.screen())
            if self.menu.noun == "city":
                return Say(f"You cannot build a station at {alone.cities[0]} now.")
            listed = alone.words(1, self.menu.noun).removeprefix("1 ")
            return Say(f"You can pay for no {listed} now.")
        for k in self.menu.narrows_into:
            option = self.menu.options[k]
            assert option.submenu is not None
            if any(alone.keeps(o) for o in option.submenu().options):
                return Pick(option, alone)
        listed = alone.words(1, "route").removeprefix("1 ")
        return Say(f"You can pay for no {listed} now.")


# -- the words of the options ------------------------------------------------------------------


def cards_text(counts: Sequence[int]) -> str:
    """Card counts in words, e.g. ``red ×3 + locomotive ×1``."""
    return " + ".join(f"{CARD_NAMES[k]} ×{n}" for k, n in enumerate(counts) if n) or "no cards"


def route_text(rs: Ruleset, r: int) -> str:
    """A track by its cities, e.g. ``Denver–Omaha``."""
    return "–".join(rs.map.routes[r].cities)


def track_text(rs: Ruleset, r: int) -> str:
    """A track with what it takes, e.g. ``Denver–Omaha: 4 red, 7 pt``."""
    t = rs.map.routes[r]
    extras = []
    if t.tunnel:
        extras.append("tunnel")
    if t.ferry:
        extras.append(f"ferry {t.ferry}")
    if t.parallel is not None:
        extras.append("double")
    more = f" {', '.join(extras)}" if extras else ""
    return f"{route_text(rs, r)}: {t.length} {t.color}{more}, {rs.params.route_points[t.length]} pt"


def action_label(rs: Ruleset, view: PlayerView, action: Action) -> str:
    """A menu line for an action."""
    if isinstance(action, TakeFaceUp):
        whole = (
            action.card == LOCO
            and rs.params.face_up_locomotive == "whole_draw"
            and view.phase is Phase.TURN
        )
        return f"Take the face-up {CARD_NAMES[action.card]}" + (
            " (your whole draw)" if whole else ""
        )
    if isinstance(action, DrawBlind):
        return f"Draw a card from the deck ({view.deck_size} left)"
    if isinstance(action, DrawTickets):
        return f"Draw tickets ({view.ticket_deck_size} left)"
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


# -- the menus of each decision ----------------------------------------------------------------


def face_up_order(view: PlayerView, actions: Sequence[Action]) -> list[Action]:
    """``actions`` with the face-up draws first, in the order the cards lie on the table,
    then the rest as listed."""
    place = {card: i for i, card in reversed(list(enumerate(view.display))) if card >= 0}
    face_up = [a for a in actions if isinstance(a, TakeFaceUp)]
    face_up.sort(key=lambda a: place.get(a.card, len(place)))
    return [*face_up, *(a for a in actions if not isinstance(a, TakeFaceUp))]


def _simple(rs: Ruleset, view: PlayerView, title: str, legal: Sequence[Action]) -> Menu:
    options = [Option(action_label(rs, view, a), a) for a in face_up_order(view, legal)]
    return Menu(title, tuple(options))


def payment_menu(rs: Ruleset, view: PlayerView, title: str, pays: Sequence[Action]) -> Menu:
    """The second step of a claim or a station: which cards to pay with."""
    return Menu(title, tuple(Option(action_label(rs, view, a), a) for a in pays), back=True)


def twin(rs: Ruleset, r: int, claims: dict[int, list[Action]]) -> int | None:
    """The other track of ``r``'s double route when the person may claim it too and it
    takes the same cards: then one line of the claim menu stands for both."""
    t = rs.map.routes[r]
    if t.parallel is None:
        return None
    other = map_ids(rs).track_index[t.parallel]
    u = rs.map.routes[other]
    same = (t.length, t.color, t.tunnel, t.ferry, t.card_groups) == (
        u.length,
        u.color,
        u.tunnel,
        u.ferry,
        u.card_groups,
    )
    return other if same and other in claims else None


def track_payments_menu(
    rs: Ruleset, view: PlayerView, r: int, claims: dict[int, list[Action]], other: int | None
) -> Menu:
    """The payments for track ``r``; where a twin track stands on the same line, a last
    option opens the twin's payments instead."""
    t = rs.map.routes[r]
    which = f" (track {t.id})" if t.parallel is not None else ""
    menu = payment_menu(rs, view, f"Pay for {route_text(rs, r)}{which}:", claims[r])
    if other is None:
        return menu
    switch = Option(
        f"The other track of the double route (track {rs.map.routes[other].id}) instead",
        submenu=functools.partial(track_payments_menu, rs, view, other, claims, None),
    )
    return Menu(menu.title, (*menu.options, switch), back=True)


def claim_menu(rs: Ruleset, view: PlayerView, claims: dict[int, list[Action]]) -> Menu:
    """The routes the person can pay for, each opening its payments; the two tracks of a
    double route that take the same cards share a line."""
    options = []
    merged: set[int] = set()
    for r, pays in claims.items():
        if r in merged:
            continue
        other = twin(rs, r, claims)
        if other is not None:
            merged.add(other)
        t = rs.map.routes[r]
        ways = f", {len(pays)} ways to pay" if len(pays) > 1 else ""
        options.append(
            Option(
                track_text(rs, r) + ways,
                submenu=functools.partial(track_payments_menu, rs, view, r, claims, other),
                cities=t.cities,
                color=t.color,
            )
        )
    return Menu("Which route?", tuple(options), back=True, noun="route")


def station_menu(rs: Ruleset, view: PlayerView, stations: dict[str, list[Action]]) -> Menu:
    """The cities where the person can build a station, each opening its payments."""
    options = [
        Option(
            city + (f" ({len(pays)} ways to pay)" if len(pays) > 1 else ""),
            submenu=functools.partial(
                payment_menu, rs, view, f"Pay for a station in {city}:", pays
            ),
            cities=(city,),
        )
        for city, pays in stations.items()
    ]
    return Menu("Build a station where?", tuple(options), back=True, noun="city")


def turn_menu(rs: Ruleset, view: PlayerView, legal: Sequence[Action]) -> Menu:
    """The turn's menu: draws and tickets, then claims and stations, each in two steps."""
    options = [
        Option(action_label(rs, view, a), a)
        for a in face_up_order(view, legal)
        if isinstance(a, TakeFaceUp | DrawBlind | DrawTickets | Pass)
    ]
    track_index = map_ids(rs).track_index
    claims: dict[int, list[Action]] = {}
    stations: dict[str, list[Action]] = {}
    for a in legal:
        if isinstance(a, ClaimRoute | ClaimWithGroups):
            claims.setdefault(track_index[a.route], []).append(a)
        elif isinstance(a, BuildStation):
            stations.setdefault(a.city, []).append(a)
    narrows = []
    if claims:
        narrows.append(len(options))
        routes = claim_menu(rs, view, claims)
        count = counted(len(routes.options), "route")
        options.append(
            Option(
                f"Claim a route ({count} you can pay for; or type a city)",
                submenu=lambda: routes,
            )
        )
    if stations:
        narrows.append(len(options))
        options.append(
            Option(
                f"Build a station ({counted(len(stations), 'city', 'cities')})",
                submenu=functools.partial(station_menu, rs, view, stations),
            )
        )
    return Menu("Your turn:", tuple(options), narrows_into=tuple(narrows))


def menu_for(rs: Ruleset, view: PlayerView, legal: Sequence[Action]) -> Menu | None:
    """The menu of the decision ``view`` shows; None for tickets, chosen by numbers."""
    phase = view.phase
    if phase is Phase.OPENING_TICKETS or phase is Phase.KEEP_TICKETS:
        return None
    if phase is Phase.SECOND_CARD:
        return _simple(rs, view, "Your second card:", legal)
    if phase is Phase.CHOOSE_CARDS:
        assert view.choice is not None
        c = view.choice
        route = route_text(rs, map_ids(rs).track_index[c.route])
        menu = _simple(rs, view, "Your next card:", legal)
        note = (
            f"Laid down so far for {route}: {cards_text(c.chosen)} "
            f"({sum(c.chosen)} of {c.size} cards)."
        )
        return Menu(menu.title, menu.options, notes=tuple(fit(note)))
    if phase is Phase.TUNNEL:
        assert view.tunnel is not None
        t = view.tunnel
        route = route_text(rs, map_ids(rs).track_index[t.route])
        revealed = ", ".join(CARD_NAMES[c] for c in t.revealed) or "nothing"
        note = (
            f"The tunnel {route} turned over {revealed}: pay "
            f"{counted(t.extra, 'more card')} or withdraw."
        )
        menu = _simple(rs, view, "Your tunnel:", legal)
        return Menu(menu.title, menu.options, notes=tuple(fit(note)))
    return turn_menu(rs, view, legal)


# -- keeping tickets ---------------------------------------------------------------------------


def keep_choice(text: str, offered: Sequence[int], keeps: Sequence[Action]) -> KeepTickets | str:
    """The tickets ``text`` keeps of ``offered`` (their numbers, or ``all``), if that is
    one of the legal ``keeps``; else a line saying why not."""
    n = len(offered)
    if text.strip().lower() == "all":
        picked = set(range(1, n + 1))
    else:
        parts = text.replace(",", " ").split()
        if not parts:
            return f"Type numbers from 1 to {n}, separated by spaces, or all."
        picked = set()
        for part in parts:
            k = int(part) if part.isdigit() else 0
            if not 1 <= k <= n:
                return f"{part!r} is not a ticket number: type numbers from 1 to {n}."
            if k in picked:
                return f"Ticket {k} is named twice."
            picked.add(k)
    action = KeepTickets(tickets=tuple(offered[i - 1] for i in sorted(picked)))
    need = min(len(a.tickets) for a in keeps if isinstance(a, KeepTickets))
    if len(picked) < need:
        return f"Keep at least {counted(need, 'ticket')}."
    if action not in keeps:
        return "That choice is not allowed; keep a different set."
    return action


KEEP_HELP = (
    "At this prompt, type:",
    "  1 3         keep tickets 1 and 3 (their numbers, in any order)",
    "  all         keep every ticket offered",
    *COMMAND_HELP,
)
