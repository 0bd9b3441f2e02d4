"""What ``ttr play`` says about the board in words: cities found by what a person types,
each player's claims and network, and how far each of the person's tickets is from done.

Everything here reads a seat's view and the map data, and asks the public rules questions
(`ttr_core.rules.queries`) where a rule decides; nothing changes the game.
"""

from __future__ import annotations

import heapq
import textwrap
import unicodedata
from collections.abc import Iterable, Sequence

from attrs import frozen

from ttr_core.cli._common import counted, map_ids
from ttr_core.model.mapdata import Ticket
from ttr_core.rules.queries import open_tracks, ticket_results
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

WIDTH = 80
"""The terminal width every line is made to fit."""


def together(text: str) -> str:
    """``text`` made one word for `fit`, which never breaks a line inside it."""
    return text.replace(" ", "\xa0")


def fit(text: str, *, indent: str = "", most: int = 0, cut: str = "…") -> list[str]:
    """``text`` wrapped to `WIDTH` columns, later lines indented by ``indent``; with
    ``most``, cut to that many lines, the last ending in ``cut``."""
    if len(text) <= WIDTH:
        return [text.replace("\xa0", " ")]
    kept = text.replace(" ×", "\xa0×")  # a card and its count stay on one line
    lines = [
        line.replace("\xa0", " ")
        for line in textwrap.wrap(
            kept, WIDTH, subsequent_indent=indent, break_on_hyphens=False, break_long_words=True
        )
    ] or [""]
    if most and len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: WIDTH - 1 - len(cut)].rstrip() + " " + cut
    return lines


# -- cities by what is typed -------------------------------------------------------------------


def folded(text: str) -> str:
    """``text`` as compared with what a person types: case and accents ignored, dots,
    hyphens and apostrophes taken as spaces (``zurich`` matches ``Zürich``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    for mark in ".-'’":
        plain = plain.replace(mark, " ")
    return " ".join(plain.replace("ø", "o").replace("æ", "ae").replace("ß", "ss").split())


_SPELLED_OUT = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "å": "aa", "ø": "oe", "æ": "ae", "ß": "ss"}
)


def spellings(name: str) -> tuple[str, ...]:
    """The ways ``name`` may be typed, folded: without its accents, or with letters such as
    ``ü`` and ``å`` spelled out (``zuerich``, ``aalborg``)."""
    return tuple(dict.fromkeys((folded(name), folded(name.casefold().translate(_SPELLED_OUT)))))


def find_cities(rs: Ruleset, text: str) -> tuple[str, ...]:
    """The cities ``text`` names, in map order: the one whose name or alias it is, else
    those whose name or alias starts with it, else those with a word that starts with it.
    Empty when none does."""
    typed = folded(text)
    if not typed:
        return ()
    names = [(c.id, [f for n in (c.id, *c.aliases) for f in spellings(n)]) for c in rs.map.cities]
    for test in (
        lambda n: n == typed,
        lambda n: n.startswith(typed),
        lambda n: any(word.startswith(typed) for word in n.split()),
    ):
        found = tuple(city for city, spellings in names if any(test(n) for n in spellings))
        if found:
            return found
    return ()


# -- the board ---------------------------------------------------------------------------------


def parts(rs: Ruleset, tracks: Iterable[int]) -> list[list[str]]:
    """The connected parts of a set of tracks (by index), each as its cities in map order;
    the largest part first."""
    order = {c.id: i for i, c in enumerate(rs.map.cities)}
    parent: dict[str, str] = {}

    def root(city: str) -> str:
        while parent.setdefault(city, city) != city:
            city = parent[city]
        return city

    for r in tracks:
        a, b = rs.map.routes[r].cities
        parent[root(a)] = root(b)
    groups: dict[str, list[str]] = {}
    for city in parent:
        groups.setdefault(root(city), []).append(city)
    found = [sorted(cities, key=order.__getitem__) for cities in groups.values()]
    return sorted(found, key=lambda cities: (-len(cities), order[cities[0]]))


def board_lines(rs: Ruleset, view: PlayerView, who: Sequence[str]) -> list[str]:
    """The board in words, at most a screen: each player's claims as connected parts, the
    person's own in full, then how to see more. ``who`` names each seat for the reader."""
    owners = view.owners
    claimed = sum(1 for o in owners if o >= 0)
    lines = [f"Board: {claimed} of {counted(len(owners), 'track')} claimed."]
    budget = 20
    for p in view.players:
        mine = [r for r, o in enumerate(owners) if o == p.seat]
        trains = sum(rs.map.routes[r].length for r in mine)
        found = parts(rs, mine)
        head = f"{who[p.seat]}: {counted(len(mine), 'route')}, {counted(trains, 'train')}"
        stations = [rs.map.cities[c].id for c, o in enumerate(view.station_owners) if o == p.seat]
        if stations:
            head += f"; stations at {', '.join(stations)}"
        if not found:
            lines.extend(fit(head + ".", indent="    "))
            continue
        if p.seat == view.seat:
            lines.extend(fit(head + f", in {counted(len(found), 'part')}:", indent="    "))
            for cities in found:
                lines.extend(fit("  " + ", ".join(map(together, cities)), indent="    ", most=2))
        else:
            text = head + ": " + "; ".join(", ".join(map(together, c)) for c in found)
            lines.extend(fit(text, indent="    ", most=2))
    if len(lines) > budget:
        lines = [*lines[: budget - 1], "  …"]
    lines.append("Type map CITY for the tracks at a city, map svg to save a drawing.")
    return lines


def city_lines(rs: Ruleset, view: PlayerView, city: str, who: Sequence[str]) -> list[str]:
    """Every track at ``city``, with its owner or whether the person may still claim it."""
    free = set(open_tracks(rs, view, view.seat))
    lines = [f"Tracks at {city}:"]
    for r, t in enumerate(rs.map.routes):
        if city not in t.cities:
            continue
        owner = view.owners[r]
        if owner >= 0:
            state = who[owner]
        elif r in free:
            state = "free"
        else:
            state = "closed to you"
        other = t.cities[1] if t.cities[0] == city else t.cities[0]
        extras = "".join(
            (
                " tunnel" if t.tunnel else "",
                f" ferry {t.ferry}" if t.ferry else "",
                " (double)" if t.parallel is not None else "",
            )
        )
        lines.extend(fit(f"  to {other}: {t.length} {t.color}{extras}, {state}", indent="    "))
    at = [c.id for c in rs.map.cities].index(city)
    station = view.station_owners[at] if at < len(view.station_owners) else -1
    if station >= 0:
        lines.append(f"  station: {who[station]}")
    return lines


# -- how far the tickets are from done ---------------------------------------------------------


@frozen
class TicketProgress:
    """One of the person's tickets: done, or the trains' worth of track it still lacks."""

    ticket: int
    """The ticket's id."""
    completed: bool
    way: Way | None
    """The cheapest way still to claim through the person's own tracks and those open
    to them; None when no such way is left (or when done)."""
    apart: tuple[str, ...]
    """The places still to join: the ticket's two cities, or its origin and countries."""


def _places(rs: Ruleset, name: str) -> tuple[str, ...]:
    """The cities that stand for a ticket's end: the city, or a country's border arrows."""
    if any(c.id == name for c in rs.map.cities):
        return (name,)
    return tuple(c.id for c in rs.map.cities if c.country == name)


def _ends(rs: Ruleset, ticket: Ticket) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """A ticket's origin cities, the cities any of which completes it, and its end names."""
    if ticket.b is not None:
        return _places(rs, ticket.a), _places(rs, ticket.b), (ticket.a, ticket.b)
    targets = tuple(ticket.targets or {})
    others = tuple(city for name in targets for city in _places(rs, name))
    return _places(rs, ticket.a), others, (ticket.a, *targets)


@frozen
class Way:
    """The cheapest way to join a ticket's ends: its open tracks still to claim."""

    trains: int
    """Their spaces together."""
    tracks: tuple[int, ...]
    """The open tracks on the way, by index, from the ticket's origin on."""
    legs: tuple[tuple[str, str], ...] = ()
    """Each of ``tracks`` as the cities it runs from and to, in the way's direction."""
    path: tuple[str, ...] = ()
    """Every city of the way, from the origin to the end reached."""


def cheapest_way(
    rs: Ruleset, view: PlayerView, sources: Sequence[str], targets: Sequence[str]
) -> Way | None:
    """The way with the fewest spaces of open track that joins a city of ``sources`` to
    one of ``targets`` through the person's own tracks (free) and the tracks still open
    to them; None when the opponents have cut every way."""
    links: dict[str, list[tuple[str, int, int]]] = {}
    seat = view.seat
    usable = {r: 0 for r, o in enumerate(view.owners) if o == seat}
    for r in open_tracks(rs, view, seat):
        usable.setdefault(r, rs.map.routes[r].length)
    for r, spaces in usable.items():
        a, b = rs.map.routes[r].cities
        links.setdefault(a, []).append((b, spaces, r))
        links.setdefault(b, []).append((a, spaces, r))
    goal = set(targets)
    best = {city: 0 for city in sources}
    came: dict[str, tuple[str, int]] = {}
    queue = [(0, city) for city in sources]
    heapq.heapify(queue)
    while queue:
        spent, city = heapq.heappop(queue)
        if spent > best[city]:
            continue
        if city in goal:
            tracks, legs, path = [], [], [city]
            while city in came:
                before, r = came[city]
                if usable[r]:
                    tracks.append(r)
                    legs.append((before, city))
                city = before
                path.append(city)
            return Way(spent, tuple(reversed(tracks)), tuple(reversed(legs)), tuple(reversed(path)))
        for other, spaces, r in links.get(city, ()):
            total = spent + spaces
            if total < best.get(other, total + 1):
                best[other] = total
                came[other] = (city, r)
                heapq.heappush(queue, (total, other))
    return None


def missing_trains(
    rs: Ruleset, view: PlayerView, sources: Sequence[str], targets: Sequence[str]
) -> int | None:
    """The spaces of open track on the [`cheapest_way`][] to join ``sources`` to
    ``targets``; None when there is none."""
    way = cheapest_way(rs, view, sources, targets)
    return None if way is None else way.trains


def trains_to_go(rs: Ruleset, view: PlayerView, ticket_id: int) -> int | None:
    """The spaces of open track a ticket (kept or offered) still lacks, as
    [`missing_trains`][] counts them: 0 when the person's own tracks join its ends."""
    sources, targets, _ = _ends(rs, map_ids(rs).tickets[ticket_id])
    return missing_trains(rs, view, sources, targets)


def to_go_text(missing: int | None) -> str:
    """A ticket's missing track in two words: ``5 to go``, ``joined``, ``cut off``."""
    if missing is None:
        return "cut off"
    return f"{missing} to go" if missing else "joined"


def ticket_progress(rs: Ruleset, view: PlayerView) -> list[TicketProgress]:
    """Each kept ticket of the view's seat, in the order it holds them: completed as the
    scoring counts it (stations included), or what it still lacks."""
    out = []
    for result in ticket_results(rs, view, view.seat):
        ticket = map_ids(rs).tickets[result.ticket]
        sources, targets, names = _ends(rs, ticket)
        if result.completed:
            out.append(TicketProgress(result.ticket, True, None, ()))
            continue
        out.append(
            TicketProgress(result.ticket, False, cheapest_way(rs, view, sources, targets), names)
        )
    return out


def ticket_text(rs: Ruleset, ticket_id: int) -> str:
    """A ticket with its points, e.g. ``Denver–El Paso (4)``."""
    t = map_ids(rs).tickets[ticket_id]
    if t.b is not None:
        return f"{t.a}–{t.b} ({t.points})"
    return f"{t.a}–" + "/".join(f"{c} ({p})" for c, p in (t.targets or {}).items())


def _way_text(rs: Ruleset, way: Way) -> list[str]:
    return [
        f"  {a}–{b}: {rs.map.routes[r].length} {rs.map.routes[r].color}"
        for r, (a, b) in zip(way.tracks, way.legs, strict=True)
    ]


def _state(p: TicketProgress) -> str:
    if p.completed:
        return "done"
    if p.way is None:
        return "cut off: no way is left through open track"
    if not p.way.tracks:
        return "joined by your tracks"
    via = p.way.path[1:-1]
    return f"{p.way.trains} to go" + (f", via {', '.join(map(together, via))}" if via else "")


def ticket_lines(rs: Ruleset, view: PlayerView, which: str = "") -> list[str]:
    """The ``tickets`` command: each kept ticket, a line each, with the trains' worth of
    open track it still lacks on its cheapest way and the cities that way passes; with
    ``which``, a ticket's number, the tracks of that way."""
    progress = ticket_progress(rs, view)
    if not progress:
        return ["You hold no tickets yet."]
    if which:
        k = int(which) if which.isdigit() else 0
        if not 1 <= k <= len(progress):
            return [f"  {which!r} is not one of your tickets: type tickets 1 to {len(progress)}."]
        p = progress[k - 1]
        head = f"{ticket_text(rs, p.ticket)}: {_state(p)}"
        if p.way is None or not p.way.tracks or p.completed:
            return fit(head, indent="  ")
        lines = fit(f"{ticket_text(rs, p.ticket)}: the cheapest way still to claim", indent="  ")
        lines += _way_text(rs, p.way)[:20]
        return [*lines, f"  {counted(p.way.trains, 'train')} in all."]
    done = sum(1 for p in progress if p.completed)
    lines = [f"Your tickets ({done} of {len(progress)} done; tickets N: the tracks for one):"]
    for k, p in enumerate(progress, start=1):
        lines += fit(f"  {k}. {ticket_text(rs, p.ticket)}: {_state(p)}", most=1)
    if rs.params.stations:
        lines.append("  (to go: open track only; a station may borrow an opponent's)")
    return lines
