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

import heapq
from collections.abc import Iterable, Sequence

from attrs import frozen

from ttr_core.actions import (
    Action,
    ChooseCard,
    ClaimRoute,
    ClaimWithGroups,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.bots.base import BaseBot
from ttr_core.cards import GRAY, LOCO, NUM_KINDS
from ttr_core.graph import UnionFind
from ttr_core.legal import LegalActions
from ttr_core.ruleset import Ruleset
from ttr_core.state import Phase
from ttr_core.views import PlayerView

UNUSABLE = -1
"""Track cost of a track the bot cannot use."""

_ALL_COLORS = tuple(range(LOCO))


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


@frozen
class Edge:
    """A step of a planned path: the free tracks (one city pair) any of which will do."""

    tracks: tuple[int, ...]
    length: int


def ticket_goals(rs: Ruleset) -> tuple[Goal, ...]:
    """Every ticket of the ruleset as a :class:`Goal` (country tickets reach any arrow).

    Places are resolved by the ruleset, as the scorer's player network resolves them.
    """
    goals = []
    for t in rs.tickets:
        if t.targets is not None:
            targets = tuple(c for name in t.targets for c in rs.place_cities(name))
            value = max(t.targets.values(), default=0)
        else:
            targets = rs.place_cities(t.b or "")
            value = t.points or 0
        goals.append(Goal(sources=rs.place_cities(t.a), targets=targets, value=value))
    return tuple(goals)


class Board:
    """The bot's picture of the board for one decision: track costs and its own network."""

    def __init__(self, rs: Ruleset, view: PlayerView) -> None:
        self.rs = rs
        me = view.seat
        self.me = me
        owners = view.owners
        few = len(view.players) < rs.double_open_min
        self.trains = trains = view.players[me].trains
        cost: list[int] = []
        self.own: list[int] = []
        for r, owner in enumerate(owners):
            twin = rs.route_twin[r]
            if owner == me:
                cost.append(0)
                self.own.append(r)
                continue
            # Closed: the parallel track is the bot's own, or taken with too few players.
            closed = twin >= 0 and owners[twin] >= 0 and (owners[twin] == me or few)
            if owner >= 0 or closed or rs.route_len[r] > trains:
                cost.append(UNUSABLE)
            else:
                cost.append(rs.route_len[r])
        self.cost = cost
        self.network = UnionFind(len(rs.city_ids))
        for r in self.own:
            self.network.union(rs.route_a[r], rs.route_b[r])

    def free(self, r: int) -> bool:
        """Whether the bot could claim track ``r`` (ignoring cards)."""
        return self.cost[r] > 0

    def completed(self, goal: Goal, extra: Iterable[int] = ()) -> bool:
        """Whether the bot's tracks (plus ``extra`` tracks) join the goal's cities."""
        uf = self.network
        extra = tuple(extra)
        if extra:
            rs = self.rs
            uf = UnionFind(len(rs.city_ids))
            for r in (*self.own, *extra):
                uf.union(rs.route_a[r], rs.route_b[r])
        return any(uf.connected(s, t) for s in goal.sources for t in goal.targets)

    def path(self, goal: Goal, zero: frozenset[int] = frozenset()) -> tuple[int, list[int]] | None:
        """The cheapest way to complete ``goal``: ``(trains needed, free tracks to claim)``.

        Tracks in ``zero`` (already planned) cost nothing. Border arrows are dead ends: a
        path may start or end at one but not pass through it. None if there is no way.
        """
        rs = self.rs
        cost = self.cost
        sources = set(goal.sources)
        targets = set(goal.targets)
        if not sources or not targets:
            return None
        dist: dict[int, int] = {}
        via: dict[int, int] = {}
        heap = [(0, c) for c in sorted(sources)]
        for c in sources:
            dist[c] = 0
        done: set[int] = set()
        country = rs.city_country
        while heap:
            d, u = heapq.heappop(heap)
            if u in done:
                continue
            done.add(u)
            if u in targets:
                needed = []
                while u not in sources:
                    r = via[u]
                    if cost[r] > 0 and r not in zero:
                        needed.append(r)
                    u = rs.route_a[r] if rs.route_b[r] == u else rs.route_b[r]
                needed.reverse()
                return d, needed
            if country[u] is not None and u not in sources:
                continue
            for r in rs.city_routes[u]:
                c = cost[r]
                if c < 0:
                    continue
                if r in zero:
                    c = 0
                v = rs.route_b[r] if rs.route_a[r] == u else rs.route_a[r]
                nd = d + c
                if v not in dist or nd < dist[v]:
                    dist[v] = nd
                    via[v] = r
                    heapq.heappush(heap, (nd, v))
        return None

    def edge(self, r: int) -> Edge:
        """The planned step of track ``r``: it and its free parallel track, if any."""
        twin = self.rs.route_twin[r]
        tracks = (r, twin) if twin >= 0 and self.free(twin) else (r,)
        return Edge(tracks=tuple(sorted(tracks)), length=self.rs.route_len[r])


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
        self.goals = ticket_goals(ruleset)

    # -- decisions ------------------------------------------------------------------------

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        """The greedy choice for the current phase (always one of ``legal``)."""
        phase = view.phase
        if phase is Phase.OPENING_TICKETS or phase is Phase.KEEP_TICKETS:
            return self._keep(view, legal)
        if phase is Phase.TUNNEL:
            return self._tunnel(legal)
        if phase is Phase.CHOOSE_CARDS:
            return self._choose_card(view, legal)
        board = Board(self.ruleset, view)
        plan, goals = self._plan(board, view)
        if phase is Phase.SECOND_CARD:
            return self._draw(view, legal, plan) or legal[0]
        if view.final_trigger >= 0:
            last = self._last_turn(board, view, legal, goals)
            if last is not None:
                return last
        if plan:
            claim = self._best_claim(view, legal, plan, plan)
            if claim is not None:
                return claim
            drawn = self._draw(view, legal, plan)
            if drawn is not None:
                return drawn
        else:
            if (
                view.final_trigger < 0
                and board.trains >= self.ticket_draw_trains
                and DrawTickets() in legal
            ):
                return DrawTickets()
            free = [board.edge(r) for r in range(len(board.cost)) if board.free(r)]
            claim = self._best_claim(view, legal, free, [])
            if claim is not None:
                r = self.ruleset.route_index[claim.route]
                if self.ruleset.route_len[r] >= min(self.short_track, board.trains):
                    return claim
            drawn = self._draw(view, legal, [])
            if drawn is not None:
                return drawn
            if claim is not None:
                return claim
        return self._fallback(legal, view)

    def _ticket_index(self, ticket_ids: Sequence[int]) -> list[int]:
        index = self.ruleset.ticket_index
        return [index[t] for t in ticket_ids]

    def _plan(self, board: Board, view: PlayerView) -> tuple[list[Edge], list[Goal]]:
        """Planned steps for the unfinished tickets (cheapest first) and those goals."""
        pending = [
            self.goals[t]
            for t in self._ticket_index(view.tickets)
            if not board.completed(self.goals[t])
        ]
        plan, _ = self._route(board, pending)
        return plan, pending

    def _route(
        self, board: Board, goals: Sequence[Goal], zero: frozenset[int] = frozenset()
    ) -> tuple[list[Edge], frozenset[int]]:
        """Paths for ``goals`` within the trains left, cheapest first, sharing tracks."""
        costed = []
        for i, goal in enumerate(goals):
            found = board.path(goal, zero)
            if found is not None:
                costed.append((found[0], -goal.value, i))
        costed.sort()
        planned = set(zero)
        spent = sum(board.rs.route_len[r] for r in zero)
        edges: list[Edge] = []
        for _, _, i in costed:
            found = board.path(goals[i], frozenset(planned))
            if found is None or spent + found[0] > board.trains:
                continue
            spent += found[0]
            for r in found[1]:
                planned.add(r)
                edges.append(board.edge(r))
        return edges, frozenset(planned)

    def _keep(self, view: PlayerView, legal: LegalActions) -> Action:
        """Keep the cheapest offered tickets (at least the minimum), plus nearly free ones."""
        options = [a for a in legal if isinstance(a, KeepTickets)]
        if not options:
            return self._fallback(legal)
        need = min(len(a.tickets) for a in options)
        offered = list(view.offered)
        board = Board(self.ruleset, view)
        held = [
            self.goals[t]
            for t in self._ticket_index(view.tickets)
            if not board.completed(self.goals[t])
        ]
        _, planned = self._route(board, held)
        costed = []
        for pos, t in enumerate(self._ticket_index(offered)):
            goal = self.goals[t]
            found = board.path(goal, planned)
            cost = found[0] if found is not None else 10**6
            costed.append((cost, -goal.value, pos))
        costed.sort()
        keep = [pos for _, _, pos in costed[:need]]
        kept_goals = [self.goals[self.ruleset.ticket_index[offered[p]]] for p in keep]
        _, planned = self._route(board, kept_goals, planned)
        spent = sum(self.ruleset.route_len[r] for r in planned)
        for _, _, pos in costed[need:]:
            goal = self.goals[self.ruleset.ticket_index[offered[pos]]]
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

    def _tunnel(self, legal: LegalActions) -> Action:
        """Pay a tunnel's extra cost with the fewest locomotives; withdraw if unable."""
        pays = [a for a in legal if isinstance(a, PayTunnel)]
        if pays:
            return min(pays, key=lambda a: a.cards[LOCO])
        return WithdrawTunnel() if WithdrawTunnel() in legal else legal[0]

    def _choose_card(self, view: PlayerView, legal: LegalActions) -> Action:
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
        self, r: int, hand: tuple[int, ...], legal: LegalActions, reserved: Sequence[int]
    ) -> ClaimRoute | ClaimWithGroups | None:
        """The legal payment for track ``r`` that uses the fewest locomotives, or None.

        Among equal locomotive counts it prefers the colour with the most cards to spare
        beyond ``reserved`` (per colour, what the plan's coloured tracks need). Where
        no plain payment is possible, a claim with the fewest groups of any cards.
        """
        rs = self.ruleset
        length = rs.route_len[r]
        color = rs.route_color[r]
        colors = _ALL_COLORS if color == GRAY else (color,)
        candidates: list[tuple[int, int, int, tuple[int, ...]]] = []
        for c in colors:
            for n in range(min(hand[c], length), 0, -1):
                locos = length - n
                if locos > hand[LOCO]:
                    break
                cards = [0] * NUM_KINDS
                cards[c] = n
                cards[LOCO] = locos
                candidates.append((locos, reserved[c] - hand[c], c, tuple(cards)))
        if hand[LOCO] >= length:
            cards = [0] * NUM_KINDS
            cards[LOCO] = length
            candidates.append((length, 0, LOCO, tuple(cards)))
        candidates.sort()
        route = rs.route_ids[r]
        for *_, cards_t in candidates:
            action = ClaimRoute(route=route, cards=cards_t)
            if action in legal:
                return action
        if rs.route_group[r]:
            for groups in range(1, length + 1):
                grouped = ClaimWithGroups(route=route, groups=groups)
                if grouped in legal:
                    return grouped
        return None

    def _best_claim(
        self, view: PlayerView, legal: LegalActions, edges: Sequence[Edge], plan: Sequence[Edge]
    ) -> ClaimRoute | ClaimWithGroups | None:
        """The longest track of ``edges`` that the bot can pay for, with its cheapest payment."""
        if not legal.count_without_pass():
            return None
        rs = self.ruleset
        reserved = self._demand(view.hand, plan, flexible=False)
        best: tuple[tuple[int, int, int], ClaimRoute | ClaimWithGroups] | None = None
        for edge in edges:
            for r in edge.tracks:
                action = self._payment(r, view.hand, legal, reserved)
                if action is None:
                    continue
                key = (-rs.route_len[r], _locomotive_cost(action), r)
                if best is None or key < best[0]:
                    best = (key, action)
        return None if best is None else best[1]

    def _last_turn(
        self, board: Board, view: PlayerView, legal: LegalActions, goals: Sequence[Goal]
    ) -> Action | None:
        """On the final turn: the claim worth most now (route points and completed tickets)."""
        rs = self.ruleset
        zero = [0] * NUM_KINDS
        best: tuple[tuple[int, int], ClaimRoute | ClaimWithGroups] | None = None
        for r in range(len(board.cost)):
            if not board.free(r):
                continue
            action = self._payment(r, view.hand, legal, zero)
            if action is None:
                continue
            gain = rs.route_points[r] + sum(2 * g.value for g in goals if board.completed(g, (r,)))
            key = (-gain, _locomotive_cost(action))
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
        rs = self.ruleset
        need = [0] * NUM_KINDS
        open_tracks: list[tuple[int, tuple[int, ...]]] = []
        for edge in plan:
            colors = sorted(
                {
                    c
                    for r in edge.tracks
                    for c in ((rs.route_color[r],) if rs.route_color[r] != GRAY else _ALL_COLORS)
                }
            )
            if len(colors) == 1:
                need[colors[0]] += edge.length
            else:
                open_tracks.append((edge.length, tuple(colors)))
        if not flexible:
            return need
        open_tracks.sort(key=lambda item: -item[0])
        for length, options in open_tracks:
            c = max(options, key=lambda k: (hand[k] - need[k], -k))
            need[c] += length
        return need

    def _draw(self, view: PlayerView, legal: LegalActions, plan: Sequence[Edge]) -> Action | None:
        """A helpful card draw: a face-up card the plan lacks, else blind; None if no draw."""
        hand = view.hand
        if plan:
            need = self._demand(hand, plan)
            deficit = [max(0, need[c] - hand[c]) for c in range(LOCO)]
        else:
            most = max(_ALL_COLORS, key=lambda k: (hand[k], -k))
            deficit = [1 if c == most else 0 for c in range(LOCO)]
        shown = [c for c in range(LOCO) if TakeFaceUp(card=c) in legal]
        useful = [c for c in shown if deficit[c] > 0]
        if useful:
            return TakeFaceUp(card=max(useful, key=lambda k: (deficit[k], -k)))
        lacking = sum(1 for c in range(LOCO) if deficit[c] > 0)
        if (
            plan
            and view.phase is Phase.TURN
            and 0 < lacking <= 2
            and TakeFaceUp(card=LOCO) in legal
        ):
            return TakeFaceUp(card=LOCO)
        if DrawBlind() in legal:
            return DrawBlind()
        if shown:
            return TakeFaceUp(card=shown[0])
        if TakeFaceUp(card=LOCO) in legal:
            return TakeFaceUp(card=LOCO)
        return None

    def _fallback(self, legal: LegalActions, view: PlayerView | None = None) -> Action:
        """When nothing planned applies: the longest claim the bot can pay for, else the
        first legal action (a pass when it is the only one)."""
        if view is not None and view.phase is Phase.TURN:
            board = Board(self.ruleset, view)
            free = [board.edge(r) for r in range(len(board.cost)) if board.free(r)]
            claim = self._best_claim(view, legal, free, [])
            if claim is not None:
                return claim
        return legal[0]
