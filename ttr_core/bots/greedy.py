"""The greedy bot: keeps cheap tickets, then builds the shortest paths that complete them.

Its picture of the board is a shortest-path map: the bot's own tracks cost nothing,
tracks owned by others (or closed double tracks) cannot be used, and a free track costs
its length in trains. With that map it

* keeps the offered tickets whose cheapest completion costs least (and any extra ticket
  that its planned paths almost complete already);
* plans a path for each unfinished ticket, cheapest first, dropping tickets it can no
  longer afford in trains;
* claims a track of its plan when it can pay for one (longest first, paying with the
  fewest locomotives), otherwise draws cards: a face-up card of a colour its plan still
  lacks, else a blind card;
* once its tickets are done, draws new tickets while it has plenty of trains, and
  otherwise claims the longest tracks it can afford;
* on its last turn, claims whatever scores most (route points plus tickets it completes).

It never builds stations. Ties are broken by map order, so it plays deterministically;
the seed is accepted for the common bot interface.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from attrs import frozen

from ttr_core.bots.base import BaseBot
from ttr_core.model.actions import (
    Action,
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
from ttr_core.model.cards import GRAY, LOCO, NUM_KINDS, route_color_index
from ttr_core.model.filled import filled
from ttr_core.model.native import mypyc_attr
from ttr_core.model.state import Phase
from ttr_core.rules.graph import UnionFind
from ttr_core.rules.queries import open_tracks_for, track_cost
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

UNUSABLE = -1
"""Track cost of a track the bot cannot use."""

_ALL_COLORS = tuple(range(LOCO))
_TAKE = tuple(TakeFaceUp(card=c) for c in range(NUM_KINDS))
"""The face-up draws, by card kind (made once: the bot asks about them at every draw)."""
_BLIND = DrawBlind()
_TICKETS = DrawTickets()

# The phases, read once: each ``Phase.X`` would go through the enum class's attribute
# hook, several hundred instructions, at every decision.
_OPENING_TICKETS: Final = Phase.OPENING_TICKETS
_KEEP_TICKETS: Final = Phase.KEEP_TICKETS
_TURN: Final = Phase.TURN
_SECOND_CARD: Final = Phase.SECOND_CARD
_TUNNEL: Final = Phase.TUNNEL
_CHOOSE_CARDS: Final = Phase.CHOOSE_CARDS


def _locomotive_cost(action: ClaimRoute | ClaimWithGroups) -> int:
    """How dear a claim is in locomotives; a group of any cards counts as dearer than one."""
    if isinstance(action, ClaimRoute):
        return action.cards[LOCO]
    return NUM_KINDS + action.groups


@frozen
class Goal:
    """A ticket as a path problem: join any source city to any target city."""

    sources: tuple[int, ...]
    targets: tuple[int, ...]
    value: int
    """Points at stake (the best value of a country ticket)."""


class Situation:
    """What the greedy turn logic reads of a position besides the board: the phase, the
    seat's hand, the display and the final-round trigger. Read-only by convention; a plain
    class, so that compiled code reads its fields directly (one is made per decision)."""

    __slots__ = ("display", "final_trigger", "hand", "phase")

    def __init__(
        self, phase: Phase, hand: tuple[int, ...], display: tuple[int, ...], final_trigger: int
    ) -> None:
        self.phase = phase
        self.hand = hand
        self.display = display
        self.final_trigger = final_trigger


@frozen
class Edge:
    """A step of a planned path: the free tracks (one city pair) any of which will do."""

    tracks: tuple[int, ...]
    length: int


class MapFacts:
    """What the bot reads of the map, by track and city index (map order): built once per
    map from the ruleset's public map data (see `map_facts`). Read-only by convention; a
    plain class, so that compiled code reads its fields directly."""

    ends: tuple[tuple[int, int], ...]
    """Per track, the indices of its two cities."""
    length: tuple[int, ...]
    """Per track, its spaces: the trains it takes."""
    longest: int
    """The most spaces of any track."""
    color: tuple[int, ...]
    """Per track, its colour number ([`GRAY`][ttr_core.model.cards.GRAY] for gray)."""
    points: tuple[int, ...]
    """Per track, the points it scores when claimed."""
    twin: tuple[int, ...]
    """Per track, the index of the other track of its double route, or -1."""
    group_size: tuple[int, ...]
    """Per track, the cards of a group of any cards it takes, 0 if none."""
    cities: int
    """How many cities the map has."""
    border: tuple[bool, ...]
    """Per city, whether it is a country's border arrow (a path may end there only)."""
    neighbours: tuple[tuple[tuple[int, int], ...], ...]
    """Per city, its tracks in map order with the city at the other end."""
    track_index: dict[int, int]
    """Track id -> track index."""
    track_ids: tuple[int, ...]
    """Per track, its id."""
    ticket_index: dict[int, int]
    """Ticket id -> ticket index."""
    steps: tuple[tuple[Edge, Edge], ...]
    """Per track, its planned step alone and with its parallel track (the same step if it
    has none): made once, as a plan asks for its steps at every change of the board."""
    goals: tuple[Goal, ...]
    """Per ticket, its `Goal` (see `ticket_goals`)."""

    def __init__(
        self,
        *,
        ends: tuple[tuple[int, int], ...],
        length: tuple[int, ...],
        longest: int,
        color: tuple[int, ...],
        points: tuple[int, ...],
        twin: tuple[int, ...],
        group_size: tuple[int, ...],
        cities: int,
        border: tuple[bool, ...],
        neighbours: tuple[tuple[tuple[int, int], ...], ...],
        track_index: dict[int, int],
        track_ids: tuple[int, ...],
        ticket_index: dict[int, int],
        steps: tuple[tuple[Edge, Edge], ...],
        goals: tuple[Goal, ...],
    ) -> None:
        self.ends = ends
        self.length = length
        self.longest = longest
        self.color = color
        self.points = points
        self.twin = twin
        self.group_size = group_size
        self.cities = cities
        self.border = border
        self.neighbours = neighbours
        self.track_index = track_index
        self.track_ids = track_ids
        self.ticket_index = ticket_index
        self.steps = steps
        self.goals = goals


MAX_FACTS: Final = 64
"""How many maps' facts `map_facts` keeps before it forgets them all."""

_FACTS: dict[str, MapFacts] = {}


def map_facts(rs: Ruleset) -> MapFacts:
    """The map facts of ``rs``, shared by every ruleset of the same map data."""
    found = _FACTS.get(rs.map_hash)
    if found is None:
        if len(_FACTS) >= MAX_FACTS:
            _FACTS.clear()
        found = _FACTS[rs.map_hash] = _read_map(rs)
    return found


def _read_map(rs: Ruleset) -> MapFacts:
    """The map facts of ``rs``, read from ``rs.map``; places are resolved by the ruleset."""
    data = rs.map
    routes = data.routes
    track_index = {t.id: r for r, t in enumerate(routes)}
    ends = tuple((rs.place_cities(t.cities[0])[0], rs.place_cities(t.cities[1])[0]) for t in routes)
    twins = tuple(-1 if t.parallel is None else track_index[t.parallel] for t in routes)
    adjacent: list[list[tuple[int, int]]] = [[] for _ in data.cities]
    for r, (a, b) in enumerate(ends):
        adjacent[a].append((r, b))
        adjacent[b].append((r, a))
    return MapFacts(
        ends=ends,
        length=tuple(t.length for t in routes),
        longest=max((t.length for t in routes), default=0),
        color=tuple(route_color_index(t.color) for t in routes),
        points=tuple(rs.params.route_points[t.length] for t in routes),
        twin=twins,
        group_size=tuple(track_cost(rs, r).group_size for r in range(len(routes))),
        cities=len(data.cities),
        border=tuple(c.country is not None for c in data.cities),
        neighbours=tuple(tuple(pairs) for pairs in adjacent),
        track_index=track_index,
        track_ids=tuple(t.id for t in routes),
        ticket_index={t.id: i for i, t in enumerate(data.tickets)},
        steps=tuple(
            (Edge(tracks=(r,), length=t.length), Edge(tracks=_pair(r, twin), length=t.length))
            for r, (t, twin) in enumerate(zip(routes, twins, strict=True))
        ),
        goals=ticket_goals(rs),
    )


def _pair(r: int, twin: int) -> tuple[int, ...]:
    """Track ``r`` and its parallel track ``twin`` (if any, ``twin`` >= 0), in map order."""
    return (r,) if twin < 0 else (min(r, twin), max(r, twin))


def ticket_goals(rs: Ruleset) -> tuple[Goal, ...]:
    """Every ticket of the ruleset as a `Goal` (country tickets reach any arrow).

    Places are resolved by the ruleset, as the scorer's player network resolves them.
    """
    goals = []
    for t in rs.map.tickets:
        if t.targets is not None:
            targets = tuple(c for name in t.targets for c in rs.place_cities(name))
            value = max(t.targets.values(), default=0)
        else:
            targets = rs.place_cities(t.b or "")
            value = t.points or 0
        goals.append(Goal(sources=rs.place_cities(t.a), targets=targets, value=value))
    return tuple(goals)


def _most_of_a_colour(hand: tuple[int, ...]) -> int:
    """The most cards of one colour (locomotives aside) in ``hand``."""
    most = 0
    for c in range(LOCO):
        if hand[c] > most:
            most = hand[c]
    return most


def _payments(
    length: int, colors: Sequence[int], hand: tuple[int, ...], reserved: Sequence[int]
) -> Iterator[tuple[int, ...]]:
    """The plain payments of a track from ``hand``: the fewest locomotives first, then the
    colour with the most cards to spare beyond ``reserved``, then card order; all
    locomotives last."""
    top = hand[LOCO]
    most = max(min(hand[c], length) for c in colors)
    for locos in range(length - most, min(length, top) + 1):
        n = length - locos
        if n == 0:
            cards = [0] * NUM_KINDS
            cards[LOCO] = length
            yield tuple(cards)
            return
        for c in sorted(
            (c for c in colors if hand[c] >= n), key=lambda c: (reserved[c] - hand[c], c)
        ):
            cards = [0] * NUM_KINDS
            cards[c] = n
            cards[LOCO] = locos
            yield tuple(cards)


def track_costs(
    rs: Ruleset, me: int, owners: Sequence[int], trains: int, players: int
) -> list[int]:
    """Per track, what it costs ``me`` holding ``trains`` trains on a path: 0 for its own
    tracks, the length of a track it may claim and has the trains for, else `UNUSABLE`."""
    return _costs(rs, me, owners, trains, players, [r for r, o in enumerate(owners) if o == me])


def _costs(
    rs: Ruleset, me: int, owners: Sequence[int], trains: int, players: int, own: list[int]
) -> list[int]:
    """`track_costs`, given the tracks ``me`` owns."""
    facts = map_facts(rs)
    length = facts.length
    cost = [UNUSABLE] * len(owners)
    if trains >= facts.longest:
        for r in open_tracks_for(rs, owners, me, players):
            cost[r] = length[r]
    else:
        for r in open_tracks_for(rs, owners, me, players):
            if length[r] <= trains:
                cost[r] = length[r]
    for r in own:
        cost[r] = 0
    return cost


@mypyc_attr(allow_interpreted_subclasses=True)
class Board:
    """The bot's picture of the board for one decision: track costs and its own network."""

    rs: Ruleset
    facts: MapFacts
    me: int
    """The bot's seat."""
    trains: int
    own: list[int]
    """The bot's own tracks, in map order."""
    cost: list[int]
    """Per track, what it costs the bot on a path (see `track_costs`)."""
    network: UnionFind
    """The cities the bot's own tracks join."""

    def __init__(self, rs: Ruleset, view: PlayerView | None = None) -> None:
        """The board of ``view``'s seat; without a view, a board that `_setup` sets up."""
        self.rs = rs
        if view is not None:
            me = view.seat
            self._setup(rs, me, view.owners, view.players[me].trains, len(view.players))

    @classmethod
    def at(cls, rs: Ruleset, seat: int, owners: Sequence[int], trains: int, players: int) -> Board:
        """The board of ``seat`` holding ``trains`` trains, for these track owners."""
        board = cls(rs)
        board._setup(rs, seat, owners, trains, players)
        return board

    def _setup(
        self,
        rs: Ruleset,
        me: int,
        owners: Sequence[int],
        trains: int,
        players: int,
        cost: list[int] | None = None,
    ) -> None:
        """Set the board up; ``cost``, if given, is `track_costs` of the same arguments."""
        self.rs = rs
        self.facts = facts = map_facts(rs)
        self.me = me
        self.trains = trains
        self.own = [r for r, owner in enumerate(owners) if owner == me]
        if cost is None:
            cost = _costs(rs, me, owners, trains, players, self.own)
        self.cost = cost
        self.network = network = UnionFind(facts.cities)
        ends = facts.ends
        for r in self.own:
            a, b = ends[r]
            network.union(a, b)

    def with_costs(self, cost: list[int]) -> Board:
        """This board with other track costs (the bot's own tracks and trains unchanged)."""
        board = Board(self.rs)
        board.facts = self.facts
        board.me = self.me
        board.trains = self.trains
        board.own = self.own
        board.cost = cost
        board.network = self.network
        return board

    def free(self, r: int) -> bool:
        """Whether the bot could claim track ``r`` (ignoring cards)."""
        return self.cost[r] > 0

    def free_tracks(self) -> list[int]:
        """The tracks the bot could claim (ignoring cards), in map order."""
        return [r for r, c in enumerate(self.cost) if c > 0]

    def completed(self, goal: Goal, extra: Iterable[int] = ()) -> bool:
        """Whether the bot's tracks (plus ``extra`` tracks) join the goal's cities."""
        uf = self.network
        extra = tuple(extra)
        if extra:
            ends = self.facts.ends
            uf = UnionFind(self.facts.cities)
            for r in (*self.own, *extra):
                uf.union(*ends[r])
        for s in goal.sources:
            for t in goal.targets:
                if uf.connected(s, t):
                    return True
        return False

    def gain(self, r: int, goals: Sequence[Goal]) -> int:
        """What claiming free track ``r`` now scores: its points, and twice the value of
        each of ``goals`` it completes (from failed to completed)."""
        find = self.network.find
        ends = self.facts.ends[r]
        a, b = find(ends[0]), find(ends[1])
        total = self.facts.points[r]
        for goal in goals:
            sources = {find(c) for c in goal.sources}
            targets = {find(c) for c in goal.targets}
            if (
                sources & targets
                or (a in sources and b in targets)
                or (b in sources and a in targets)
            ):
                total += 2 * goal.value
        return total

    def path(
        self, goal: Goal, zero: frozenset[int] = frozenset(), chain: list[int] | None = None
    ) -> tuple[int, list[int]] | None:
        """The cheapest way to complete ``goal``: ``(trains needed, free tracks to claim)``.

        Tracks in ``zero`` (already planned) cost nothing. Border arrows are dead ends: a
        path may start or end at one but not pass through it. None if there is no way.
        Every track of the way found (free, planned or the bot's own) is added to ``chain``
        if given: a track off every such way can become unusable without changing the answer
        (see `GreedyBot._board`).
        """
        facts = self.facts
        cost = self.cost
        if zero:
            # Planned tracks the bot can use cost nothing; one it cannot stays unusable.
            cost = cost[:]
            for r in zero:
                if cost[r] >= 0:
                    cost[r] = 0
        sources = goal.sources
        targets = goal.targets
        if not sources or not targets:
            return None
        cities = facts.cities
        is_source = [False] * cities
        for c in sources:
            is_source[c] = True
        is_target = [False] * cities
        for c in targets:
            is_target[c] = True
        far = 1 << 60  # a short int when compiled (1 << 62 would box): beyond any way
        dist = [far] * cities
        via = [-1] * cities
        # The reached cities not yet settled. The next settled is the nearest, the lowest
        # city index first among equally near ones, so the way found is the same whatever
        # order the frontier keeps.
        frontier: list[int] = []
        for c in sources:
            if dist[c] != 0:
                dist[c] = 0
                frontier.append(c)
        border, ends, neighbours = facts.border, facts.ends, facts.neighbours
        while frontier:
            at = 0
            u = frontier[0]
            d = dist[u]
            for i in range(1, len(frontier)):
                v = frontier[i]
                dv = dist[v]
                if dv < d or (dv == d and v < u):
                    at, u, d = i, v, dv
            last = frontier.pop()
            if at < len(frontier):
                frontier[at] = last
            dist[u] = -1  # settled: below any distance, so nothing reaches it again
            if is_target[u]:
                needed = []
                while not is_source[u]:
                    r = via[u]
                    if chain is not None:
                        chain.append(r)
                    if cost[r] > 0:
                        needed.append(r)
                    a, b = ends[r]
                    u = a if b == u else b
                needed.reverse()
                return d, needed
            if border[u] and not is_source[u]:
                continue
            for r, v in neighbours[u]:
                c = cost[r]
                if c < 0:
                    continue
                nd = d + c
                dv = dist[v]
                if nd < dv:
                    if dv == far:
                        frontier.append(v)
                    dist[v] = nd
                    via[v] = r
        return None

    def edge(self, r: int) -> Edge:
        """The planned step of track ``r``: it and its free parallel track, if any."""
        twin = self.facts.twin[r]
        return self.facts.steps[r][1 if twin >= 0 and self.free(twin) else 0]


class _Kept:
    """A plan kept between decisions, with what it was made from (see `GreedyBot._board`)."""

    __slots__ = ("board", "edges", "goals", "key", "on_path", "owners", "tracks")

    def __init__(
        self,
        key: tuple[int, tuple[int, ...], int],
        owners: tuple[int, ...],
        board: Board,
        tracks: list[int],
        edges: list[Edge],
        goals: list[Goal],
        on_path: list[bool] | None,
    ) -> None:
        self.key = key
        """The bot's trains and tickets and the player count."""
        self.owners = owners
        self.board = board
        self.tracks = tracks
        """The planned free tracks, in plan order (the tracks of ``edges``' steps)."""
        self.edges = edges
        self.goals = goals
        self.on_path = on_path
        """Per track, whether a way found by the plan's searches uses it; None if the plan
        is kept only while the owners stay the same."""


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyBot(BaseBot):
    """Follows shortest paths to complete its tickets; see the module documentation.

    The class attributes are its tuning knobs; a subclass may change them.
    """

    ticket_draw_trains = 15
    """With tickets done, draw new ones only while holding at least this many trains."""
    extra_ticket_cost = 4
    """Keep an extra offered ticket when the planned paths leave it this many trains or fewer."""
    short_track = 3
    """With tickets done, tracks shorter than this are claimed only when nothing is drawn."""

    def __init__(self, ruleset: Ruleset, seat: int, seed: int) -> None:
        super().__init__(ruleset, seat, seed)
        self.facts = map_facts(ruleset)
        self.goals = self.facts.goals
        self._planned: _Kept | None = None
        """The last board and plan, with what they were made from (see `_board`)."""
        self._colors_of: dict[tuple[int, ...], tuple[int, ...]] = {}
        """The colours that pay for a planned step's tracks, by its tracks (see `_demand`)."""

    # -- decisions ------------------------------------------------------------------------

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The greedy choice for the current phase (always one of ``legal``)."""
        phase = view.phase
        if phase is _OPENING_TICKETS or phase is _KEEP_TICKETS:
            return self._keep(view, legal)
        if phase is _TUNNEL:
            return self._tunnel(legal)
        if phase is _CHOOSE_CARDS:
            return self._choose_card(view, legal)
        board, plan, goals = self._board(view)
        seen = Situation(phase, view.hand, view.display, view.final_trigger)
        return self.turn_choice(seen, board, plan, goals, legal)

    def turn_choice(
        self,
        seen: Situation,
        board: Board,
        plan: Sequence[Edge],
        goals: Sequence[Goal],
        legal: Sequence[Action],
    ) -> Action:
        """The greedy choice of a turn's action or of a second card, given the board, the
        plan for the unfinished tickets and those tickets' goals (see `choose`)."""
        hand = seen.hand
        if seen.phase is _SECOND_CARD:
            return self._draw(seen, legal, plan) or legal[0]
        if seen.final_trigger >= 0:
            last = self._last_turn(board, hand, legal, goals)
            if last is not None:
                return last
        if plan:
            claim = self._best_claim(hand, legal, plan, plan)
            if claim is not None:
                return claim
            drawn = self._draw(seen, legal, plan)
            if drawn is not None:
                return drawn
        else:
            if (
                seen.final_trigger < 0
                and board.trains >= self.ticket_draw_trains
                and _TICKETS in legal
            ):
                return _TICKETS
            free = board.free_tracks()
            claim = self._best_claim_of(hand, legal, free, [])
            if claim is not None:
                r = self.facts.track_index[claim.route]
                if self.facts.length[r] >= min(self.short_track, board.trains):
                    return claim
            drawn = self._draw(seen, legal, [])
            if drawn is not None:
                return drawn
            if claim is not None:
                return claim
        return self._fallback(legal, seen, board)

    def _ticket_index(self, ticket_ids: Sequence[int]) -> list[int]:
        index = self.facts.ticket_index
        return [index[t] for t in ticket_ids]

    def _board(self, view: PlayerView) -> tuple[Board, list[Edge], list[Goal]]:
        """The board and the plan for ``view``.

        The plan depends only on the bot's trains and tickets, the player count and the
        track costs, so it is kept while the first three stay the same and the costs too
        (from a first card drawn to the second, or while nobody claims). The greedy plan
        (`_plan` not overridden) is kept also when the only tracks whose cost changed
        became unusable off every way its searches found (see `_kept_plan`).
        """
        seat = view.seat
        owners = view.owners
        rs = self.ruleset
        me = view.players[seat]
        players = len(view.players)
        key = (me.trains, view.tickets, players)
        kept = self._planned
        cost = None
        if kept is not None and kept.key == key:
            if kept.owners is owners or kept.owners == owners:
                return kept.board, list(kept.edges), list(kept.goals)
            if kept.on_path is not None:
                cost = track_costs(rs, seat, owners, me.trains, players)
                if self._kept_plan(kept, cost, owners):
                    return kept.board, list(kept.edges), list(kept.goals)
        board = Board(rs)
        board._setup(rs, seat, owners, me.trains, players, cost)
        if type(self)._plan is GreedyBot._plan:
            chain: list[int] = []
            goals = self._pending(board, view)
            tracks, _ = self._route_tracks(board, goals, chain=chain)
            plan = [board.edge(r) for r in tracks]
            on_path = [False] * len(board.cost)
            for r in chain:
                on_path[r] = True
            self._planned = _Kept(key, owners, board, tracks, plan, goals, on_path)
        else:
            plan, goals = self._plan(board, view)
            self._planned = _Kept(key, view.owners, board, [], plan, goals, None)
        return board, list(plan), list(goals)

    def _kept_plan(self, kept: _Kept, cost: list[int], owners: tuple[int, ...]) -> bool:
        """Whether ``kept``'s plan is still the one planning afresh would make with the
        track costs ``cost``; if so ``kept`` is brought up to date with them.

        It is when every track whose cost changed became unusable and lies off every way
        the plan's searches found. Taking a track off a shortest-path search's graph can
        only lengthen distances, and not those along the way it found, which is still
        there: that way's cities are still settled in the same order, each from the same
        track, and its target is still the first target settled. So each search of the
        plan gives the same answer, and the plan is the same. Its steps are made again,
        as a step lists a parallel track only while that is free.
        """
        old = kept.board.cost
        on_path = kept.on_path
        assert on_path is not None
        for r, c in enumerate(cost):
            if c != old[r] and (c >= 0 or on_path[r]):
                return False
        board = kept.board.with_costs(cost)
        kept.owners = owners
        kept.board = board
        kept.edges = [board.edge(r) for r in kept.tracks]
        return True

    def _pending(self, board: Board, view: PlayerView) -> list[Goal]:
        """The goals of the bot's tickets that its tracks do not complete yet."""
        goals = self.goals
        return [goals[t] for t in self._ticket_index(view.tickets) if not board.completed(goals[t])]

    def _plan(self, board: Board, view: PlayerView) -> tuple[list[Edge], list[Goal]]:
        """Planned steps for the unfinished tickets (cheapest first) and those goals."""
        pending = self._pending(board, view)
        plan, _ = self._route(board, pending)
        return plan, pending

    def _route(
        self, board: Board, goals: Sequence[Goal], zero: frozenset[int] = frozenset()
    ) -> tuple[list[Edge], frozenset[int]]:
        """Paths for ``goals`` within the trains left, cheapest first, sharing tracks."""
        tracks, planned = self._route_tracks(board, goals, zero)
        return [board.edge(r) for r in tracks], planned

    def _route_tracks(
        self,
        board: Board,
        goals: Sequence[Goal],
        zero: frozenset[int] = frozenset(),
        chain: list[int] | None = None,
    ) -> tuple[list[int], frozenset[int]]:
        """`_route`'s planned free tracks in plan order, and every planned track; with
        ``chain``, every track of every way its searches found is added to it."""
        costed = []
        first: dict[int, tuple[int, list[int]]] = {}
        for i, goal in enumerate(goals):
            found = board.path(goal, zero, chain)
            if found is not None:
                first[i] = found
                costed.append((found[0], -goal.value, i))
        costed.sort()
        planned = set(zero)
        spent = sum(board.facts.length[r] for r in zero)
        tracks: list[int] = []
        for _, _, i in costed:
            # Until a path is planned, the first search's answer stands.
            found = board.path(goals[i], frozenset(planned), chain) if tracks else first[i]
            if found is None or spent + found[0] > board.trains:
                continue
            spent += found[0]
            for r in found[1]:
                planned.add(r)
                tracks.append(r)
        return tracks, frozenset(planned)

    def _keep(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Keep the cheapest offered tickets (at least the minimum), plus nearly free ones."""
        options = []
        for i in range(len(legal)):  # by index: a listing's items are made as asked for
            a = legal[i]
            if isinstance(a, KeepTickets):
                options.append(a)
        if not options:
            return self._fallback(legal)
        need = min(len(a.tickets) for a in options)
        offered = list(view.offered)
        me = view.players[view.seat]
        kept = self._planned
        if (
            kept is not None
            and kept.on_path is not None
            and kept.key == (me.trains, view.tickets, len(view.players))
            and (kept.owners is view.owners or kept.owners == view.owners)
        ):
            # The greedy plan of this very board routes the held tickets' goals.
            board = kept.board
            planned = frozenset(kept.tracks)
        else:
            board = Board(self.ruleset, view)
            _, planned = self._route(board, self._pending(board, view))
        costed = []
        for pos, t in enumerate(self._ticket_index(offered)):
            goal = self.goals[t]
            found = board.path(goal, planned)
            cost = found[0] if found is not None else 10**6
            costed.append((cost, -goal.value, pos))
        costed.sort()
        keep = [pos for _, _, pos in costed[:need]]
        tickets = self.facts.ticket_index
        kept_goals = [self.goals[tickets[offered[p]]] for p in keep]
        _, planned = self._route(board, kept_goals, planned)
        spent = sum(self.facts.length[r] for r in planned)
        for _, _, pos in costed[need:]:
            goal = self.goals[tickets[offered[pos]]]
            found = board.path(goal, planned)
            if found is None or found[0] > self.extra_ticket_cost:
                continue
            if spent + found[0] > board.trains:
                continue
            spent += found[0]
            planned = planned | frozenset(found[1])
            keep.append(pos)
        action = KeepTickets(tickets=tuple(offered[p] for p in sorted(keep)))
        return action if action in legal else options[0]

    def _tunnel(self, legal: Sequence[Action]) -> Action:
        """Pay a tunnel's extra cost with the fewest locomotives; withdraw if unable."""
        pays = [a for a in legal if isinstance(a, PayTunnel)]
        if pays:
            return min(pays, key=lambda a: a.cards[LOCO])
        return WithdrawTunnel() if WithdrawTunnel() in legal else legal[0]

    def _choose_card(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Fill card groups with the colour held most, keeping locomotives for last."""
        kinds = [a.card for a in legal if isinstance(a, ChooseCard)]
        if not kinds:
            return legal[0]
        spare = view.hand
        if view.choice is not None:
            spare = tuple(h - c for h, c in zip(view.hand, view.choice.chosen, strict=True))
        colours = [k for k in kinds if k != LOCO]
        if colours:
            return ChooseCard(card=max(colours, key=lambda k: (spare[k], -k)))
        return ChooseCard(card=kinds[0])

    # -- claims ---------------------------------------------------------------------------

    def _payment(
        self, r: int, hand: tuple[int, ...], legal: Sequence[Action], reserved: Sequence[int]
    ) -> ClaimRoute | ClaimWithGroups | None:
        """The legal payment for track ``r`` that uses the fewest locomotives, or None.

        Among equal locomotive counts it prefers the colour with the most cards to spare
        beyond ``reserved`` (per colour, what the plan's coloured tracks need). Where
        no plain payment is possible, a claim with the fewest groups of any cards.
        """
        facts = self.facts
        length = facts.length[r]
        color = facts.color[r]
        colors = _ALL_COLORS if color == GRAY else (color,)
        most = _most_of_a_colour(hand) if color == GRAY else hand[color]
        if most + hand[LOCO] < length and not facts.group_size[r]:
            return None  # no colour with the locomotives covers the track
        route = facts.track_ids[r]
        for cards_t in _payments(length, colors, hand, reserved):
            action = filled(ClaimRoute, {"route": route, "cards": cards_t})
            if action in legal:
                return action
        if facts.group_size[r]:
            for groups in range(1, length + 1):
                grouped = ClaimWithGroups(route=route, groups=groups)
                if grouped in legal:
                    return grouped
        return None

    def _best_claim(
        self,
        hand: tuple[int, ...],
        legal: Sequence[Action],
        edges: Sequence[Edge],
        plan: Sequence[Edge],
    ) -> ClaimRoute | ClaimWithGroups | None:
        """The longest track of ``edges`` that the bot can pay for, with its cheapest payment."""
        return self._best_claim_of(hand, legal, {r for edge in edges for r in edge.tracks}, plan)

    def _best_claim_of(
        self,
        hand: tuple[int, ...],
        legal: Sequence[Action],
        tracks: Iterable[int],
        plan: Sequence[Edge],
    ) -> ClaimRoute | ClaimWithGroups | None:
        """The longest of ``tracks`` that the bot can pay for, with its cheapest payment
        (the fewest locomotives, then the first in map order, among the longest)."""
        if len(legal) == 1 and isinstance(legal[0], Pass):
            return None
        length = self.facts.length
        reserved = self._demand(hand, plan, flexible=False)
        # Each track's key (longest first, then the fewest locomotives, then map order)
        # with the fewest locomotives the hand could pay with: no payment found beats it,
        # so once a track is paid for, no track whose bound is past its key can be better.
        bounds = [(-length[r], low, r) for r, low in self._locomotive_bounds(tracks, hand)]
        bounds.sort()
        best: tuple[tuple[int, int, int], ClaimRoute | ClaimWithGroups] | None = None
        for bound in bounds:
            if best is not None and bound > best[0]:
                break
            r = bound[2]
            action = self._payment(r, hand, legal, reserved)
            if action is None:
                continue
            key = (bound[0], _locomotive_cost(action), r)
            if best is None or key < best[0]:
                best = (key, action)
        return None if best is None else best[1]

    def _locomotive_bounds(
        self, tracks: Iterable[int], hand: tuple[int, ...]
    ) -> list[tuple[int, int]]:
        """``(track, bound)`` for each of ``tracks`` for which `_payment` may find a claim
        with ``hand``, in the order given: the bound is at most `_locomotive_cost` of any
        claim it finds. The others are left out: no colour with the locomotives covers
        them, and they take no groups."""
        facts = self.facts
        length, color, group_size = facts.length, facts.color, facts.group_size
        locos = hand[LOCO]
        top = _most_of_a_colour(hand)
        found = []
        for r in tracks:
            n = length[r]
            c = color[r]
            most = top if c == GRAY else hand[c]
            if most > n:
                most = n
            if n - most <= locos:
                found.append((r, n - most))  # the fewest locomotives of a plain payment
            elif group_size[r]:
                found.append((r, NUM_KINDS + 1))  # the cost of the fewest groups
        return found

    def _last_turn(
        self, board: Board, hand: tuple[int, ...], legal: Sequence[Action], goals: Sequence[Goal]
    ) -> Action | None:
        """On the final turn: the claim worth most now (route points and completed tickets),
        with the fewest locomotives among equals (then the first track in map order)."""
        zero = [0] * NUM_KINDS
        # As in `_best_claim_of`: each track's key with a bound on its locomotives.
        bounds = [
            (-board.gain(r, goals), low, r)
            for r, low in self._locomotive_bounds(board.free_tracks(), hand)
        ]
        bounds.sort()
        best: tuple[tuple[int, int, int], ClaimRoute | ClaimWithGroups] | None = None
        for bound in bounds:
            if best is not None and bound > best[0]:
                break  # no track left is worth more, or as much for fewer locomotives
            r = bound[2]
            action = self._payment(r, hand, legal, zero)
            if action is None:
                continue
            key = (bound[0], _locomotive_cost(action), r)
            if best is None or key < best[0]:
                best = (key, action)
        return None if best is None else best[1]

    # -- drawing --------------------------------------------------------------------------

    def _demand(
        self, hand: tuple[int, ...], plan: Sequence[Edge], *, flexible: bool = True
    ) -> list[int]:
        """Cards of each colour the plan needs: coloured tracks first, then the others.

        A gray track (or a double route of two colours) is counted towards the acceptable
        colour the hand has most to spare of; with ``flexible=False`` such tracks are left
        out.
        """
        need = [0] * NUM_KINDS
        open_tracks: list[tuple[int, tuple[int, ...]]] = []
        known = self._colors_of
        for edge in plan:
            colors = known.get(edge.tracks)
            if colors is None:
                colors = known[edge.tracks] = self._colors(edge.tracks)
            if len(colors) == 1:
                color = colors[0]
                need[color] = need[color] + edge.length
            else:
                open_tracks.append((edge.length, tuple(colors)))
        if not flexible:
            return need
        # Longest first, in plan order among equals; each to the colour with the most
        # cards to spare (the first in card order among equals).
        for size in range(self.facts.longest, 0, -1):
            for length, options in open_tracks:
                if length != size:
                    continue
                best = options[0]
                spare = hand[best] - need[best]
                for k in options:
                    left = hand[k] - need[k]
                    if left > spare:
                        best, spare = k, left
                need[best] = need[best] + length
        return need

    def _colors(self, tracks: tuple[int, ...]) -> tuple[int, ...]:
        """The colours, in order, that pay for any of ``tracks`` (every colour for gray)."""
        color = self.facts.color
        return tuple(
            sorted({c for r in tracks for c in ((color[r],) if color[r] != GRAY else _ALL_COLORS)})
        )

    def _draw(
        self, seen: Situation, legal: Sequence[Action], plan: Sequence[Edge]
    ) -> Action | None:
        """A helpful card draw: a face-up card the plan lacks, else blind; None if no draw."""
        hand = seen.hand
        if plan:
            need = self._demand(hand, plan)
            deficit = [need[c] - hand[c] if need[c] > hand[c] else 0 for c in range(LOCO)]
        else:
            most = max(_ALL_COLORS, key=lambda k: (hand[k], -k))
            deficit = [1 if c == most else 0 for c in range(LOCO)]
        on_display = set(seen.display)
        # The legal face-up colour lacked most (the first in card order among equals).
        most_lacked = 0
        lacking = 0
        for c in range(LOCO):
            if deficit[c] > 0:
                lacking += 1
                if deficit[c] > most_lacked:
                    most_lacked = deficit[c]
        for lack in range(most_lacked, 0, -1):
            for c in range(LOCO):
                if deficit[c] == lack and c in on_display and _TAKE[c] in legal:
                    return _TAKE[c]
        if plan and seen.phase is _TURN and 0 < lacking <= 2 and _TAKE[LOCO] in legal:
            return _TAKE[LOCO]
        if _BLIND in legal:
            return _BLIND
        for c in range(LOCO):
            if c in on_display and _TAKE[c] in legal:
                return _TAKE[c]
        if _TAKE[LOCO] in legal:
            return _TAKE[LOCO]
        return None

    def _fallback(
        self, legal: Sequence[Action], seen: Situation | None = None, board: Board | None = None
    ) -> Action:
        """When nothing planned applies: the longest claim the bot can pay for (in a turn,
        given the ``board``), else the first legal action (a pass when it is the only one)."""
        if seen is not None and board is not None and seen.phase is _TURN:
            free = board.free_tracks()
            claim = self._best_claim_of(seen.hand, legal, free, [])
            if claim is not None:
                return claim
        return legal[0]
