"""The one-step look-ahead (``lookahead``): plays the legal action whose resulting position
its score estimate rates best.

For each legal action the bot works out, from its own view only, the position the action
leads to (the track owners, its trains, hand, tickets and score) and rates it with one
estimate of what its seat will end the game with:

* **Points scored so far**, tracks included.
* **Tickets.** A completed ticket counts its value. The unfinished ones are planned as one
  network ([`ticket_network`][ttr_core.bots.networks.ticket_network]); one left out of it (no
  way open, or too few trains) counts as lost, minus its value. One in the network counts
  its value times ``1 - 2 (C / (H + 1))^2``, for a network of ``C`` trains and a horizon of
  ``H`` trains: near its value while the network is small beside the horizon, down to
  minus its value when it takes all of it. The horizon is the bot's trains, but no more
  than [`HORIZON_SLACK`][] beyond the fewest any other player holds, since that player
  ends the game. Each planned track not yet claimed costs [`RISK`][] points more, since
  another player may take it first.
* **Cards.** Each card the network still needs (of its colour, or a locomotive) is worth
  [`USEFUL_CARD`][], any other [`SPARE_CARD`][], and no more cards count than trains are left.

Actions whose outcome is hidden are rated by their expectation: a blind card by the cards
the seat cannot see ([`unseen_cards`][ttr_core.rules.queries.unseen_cards]), a first card of
the turn with the best second card added, new tickets by the best of a deal drawn from
the tickets it does not hold, a tunnel by the extra cards it is expected to demand. In
the final round every decision is the seat's last: cards are worth nothing and an
unfinished ticket counts minus its value. A station is rated by the points it would score
unbuilt and the cards it takes; what it could join is not looked at.

Ties go to the first action listed, so the bot plays deterministically.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Final

from attrs import frozen

from ttr_core.bots.base import BaseBot
from ttr_core.bots.greedy import Board, Edge, GreedyBot, map_facts
from ttr_core.bots.networks import Network, ticket_network
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
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.state import Phase
from ttr_core.rules.queries import unseen_cards
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

USEFUL_CARD: Final = 1.0
"""Points a card the planned network still needs is worth."""
SPARE_CARD: Final = 0.35
"""Points any other card is worth."""
RISK: Final = 3.0
"""Points an unclaimed planned track costs: another player may take it first."""
HORIZON_SLACK: Final = 8
"""Trains beyond the fewest any other player holds that the bot counts on building with."""
UNKNOWN_ACTION: Final = -1.0
"""The rating, beside passing, of an action the estimate knows nothing of."""
MAX_OUTLOOKS: Final = 4096
"""How many rated boards the bot keeps before it forgets them all."""


@frozen(eq=False)
class Outlook:
    """What a board means for the bot's tickets (see the module documentation)."""

    tickets: float
    """The tickets' estimate, the risk of the unclaimed planned tracks included."""
    edges: tuple[Edge, ...]
    """The planned network's steps."""
    done: int
    """Points of the completed tickets."""
    open: int
    """Points of the unfinished tickets."""
    network: Network
    """The planned network of the unfinished tickets."""
    board: Board
    """The board it was rated on."""


def _estimate(done: int, network: Network, horizon: int, risk: float) -> float:
    """The tickets' estimate of a planned network with ``horizon`` trains to build it in,
    and ``risk`` points per planned track (see the module documentation)."""
    share = network.cost / (horizon + 1)
    return (
        done
        + network.value * (1 - 2 * share * share)
        - sum(g.value for g in network.left)
        - risk * len(network.tracks)
    )


@frozen
class Position:
    """The part of a position the estimate reads: what the seat holds and the owners."""

    owners: tuple[int, ...]
    trains: int
    tickets: tuple[int, ...]
    """Ticket indices."""
    score: int
    hand: tuple[int, ...]


class LookaheadBot(BaseBot):
    """Rates each legal action's resulting position; see the module documentation."""

    horizon_slack = HORIZON_SLACK
    """Trains beyond the fewest any other player holds that the bot counts on building with."""

    def __init__(self, ruleset: Ruleset, seat: int, seed: int) -> None:
        super().__init__(ruleset, seat, seed)
        self.facts = map_facts(ruleset)
        self.goals = self.facts.goals
        self.greedy = GreedyBot(ruleset, seat, seed)
        """Its colour demand of a planned network is the one the greedy bot uses."""
        self._outlooks: dict[tuple[tuple[int, ...], int, tuple[int, ...], int], Outlook] = {}
        self._cap = 0
        self._players = 0
        self._unseen: tuple[int, ...] = ()
        self._last = False
        self._draws: dict[tuple[tuple[int, ...], int, tuple[int, ...], bool], float] = {}
        self._claims: dict[int, Outlook] = {}
        """This decision's outlooks after a claim, by track (derived from the board's)."""
        self._second_gain: float | None = None
        """This decision's worth of the best second card, once reckoned."""
        self._needs: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        """This decision's colour demands, by outlook and hand."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The legal action whose resulting position rates best (the first among equals)."""
        if len(legal) == 1:
            return legal[0]
        self._players = len(view.players)
        others = [p.trains for p in view.players if p.seat != self.seat]
        self._cap = min(others, default=view.players[self.seat].trains) + self.horizon_slack
        self._unseen = unseen_cards(self.ruleset, view)
        self._last = view.final_trigger >= 0
        self._claims.clear()
        self._second_gain = None
        self._needs.clear()
        index = self.facts.ticket_index
        here = Position(
            owners=view.owners,
            trains=view.players[self.seat].trains,
            tickets=tuple(index[t] for t in view.tickets),
            score=view.players[self.seat].score,
            hand=view.hand,
        )
        best: tuple[float, Action] | None = None
        for action in legal:
            value = self.rate(view, here, action)
            if best is None or value > best[0]:
                best = (value, action)
        assert best is not None
        return best[1]

    # -- the estimate -----------------------------------------------------------------------

    def outlook(self, owners: tuple[int, ...], trains: int, tickets: tuple[int, ...]) -> Outlook:
        """The tickets' estimate on these owners with ``trains`` left (kept per board)."""
        key = (owners, trains, tickets, self._cap)
        found = self._outlooks.get(key)
        if found is None:
            board = Board.at(self.ruleset, self.seat, owners, trains, self._players)
            goals = [self.goals[t] for t in tickets]
            done = sum(g.value for g in goals if board.completed(g))
            pending = [g for g in goals if not board.completed(g)]
            net = ticket_network(board, pending)
            found = self._keep_outlook(key, done, sum(g.value for g in pending), net, board)
        return found

    def _keep_outlook(
        self,
        key: tuple[tuple[int, ...], int, tuple[int, ...], int],
        done: int,
        pending: int,
        network: Network,
        board: Board,
    ) -> Outlook:
        if len(self._outlooks) >= MAX_OUTLOOKS:
            self._outlooks.clear()
            self._needs.clear()  # keyed by the identity of the outlooks' edges
        found = self._outlooks[key] = Outlook(
            tickets=_estimate(done, network, min(key[1], self._cap), RISK),
            edges=tuple(network.edges(board)),
            done=done,
            open=pending,
            network=network,
            board=board,
        )
        return found

    def claimed_outlook(self, here: Position, r: int) -> Outlook:
        """The outlook after claiming track ``r``: the network planned at ``here`` less the
        step of ``r``, while it still fits in the trains; planned afresh otherwise."""
        after = self._claimed(here, r, here.hand)
        found = self._claims.get(r)
        if found is not None:
            return found
        base = self.outlook(here.owners, here.trains, here.tickets)
        net = base.network
        step = {r, self.facts.twin[r]}
        on_plan = not step.isdisjoint(net.tracks)
        cost = net.cost - self.facts.length[r] if on_plan else net.cost
        if cost > after.trains:
            found = self._claims[r] = self.outlook(after.owners, after.trains, after.tickets)
            return found
        board = base.board
        finished = [g for g in (*net.joined, *net.left) if board.completed(g, (r,))]
        network = Network(
            cost=cost,
            tracks=net.tracks - step,
            joined=tuple(g for g in net.joined if g not in finished),
            left=tuple(g for g in net.left if g not in finished),
        )
        done = base.done + sum(g.value for g in finished)
        edges = tuple(e for e in base.edges if step.isdisjoint(e.tracks))
        found = self._claims[r] = Outlook(
            tickets=_estimate(done, network, min(after.trains, self._cap), RISK),
            edges=edges,
            done=done,
            open=base.open - sum(g.value for g in finished),
            network=network,
            board=board,
        )
        return found

    def cards(self, hand: Sequence[int], edges: Sequence[Edge], trains: int) -> float:
        """What the hand is worth towards the planned network, with ``trains`` left."""
        if self._last:
            return 0.0
        hand = tuple(hand)
        key = (id(edges), hand)
        need = self._needs.get(key)
        if need is None:
            need = self._needs[key] = self.greedy._demand(hand, edges)
        useful = hand[LOCO] + sum(min(hand[c], need[c]) for c in range(LOCO))
        spare = sum(hand) - useful
        counted = min(useful, trains)
        return USEFUL_CARD * counted + SPARE_CARD * min(spare, trains - counted)

    def value(self, at: Position, out: Outlook | None = None) -> float:
        """The estimate of a position (in the final round: its score as it would end);
        ``out`` is its outlook when the caller has it."""
        if out is None:
            out = self.outlook(at.owners, at.trains, at.tickets)
        if self._last:
            return at.score + out.done - out.open
        return at.score + out.tickets + self.cards(at.hand, out.edges, at.trains)

    # -- rating the actions ------------------------------------------------------------------

    def rate(self, view: PlayerView, here: Position, action: Action) -> float:
        """The estimate of the position ``action`` leads to."""
        if isinstance(action, ClaimRoute):
            r = self.ruleset.route_index_of(action.route)
            after = self._claimed(here, r, _minus(here.hand, action.cards))
            out = self.claimed_outlook(here, r)
            return self.value(after, out) - self._tunnel_risk(r, action.cards)
        if isinstance(action, ClaimWithGroups):
            r = self.ruleset.route_index_of(action.route)
            spent = self.facts.length[r] + action.groups * (self.facts.group_size[r] - 1)
            hand = self._spend(here, spent)
            return self.value(self._claimed(here, r, hand), self.claimed_outlook(here, r))
        if isinstance(action, (TakeFaceUp, DrawBlind)):
            return self._draw(view, here, action)
        if isinstance(action, DrawTickets):
            return self.value(here) + self._ticket_draw(here)
        if isinstance(action, KeepTickets):
            index = self.facts.ticket_index
            kept = tuple(index[t] for t in action.tickets)
            return self.value(_with(here, tickets=here.tickets + kept))
        if isinstance(action, PayTunnel) and view.tunnel is not None:
            r = self.ruleset.route_index_of(view.tunnel.route)
            paid = _minus(_minus(here.hand, view.tunnel.paid), action.cards)
            return self.value(self._claimed(here, r, paid), self.claimed_outlook(here, r))
        if isinstance(action, ChooseCard):
            chosen = view.choice.chosen if view.choice is not None else (0,) * NUM_KINDS
            spare = _minus(_minus(here.hand, chosen), _one(action.card))
            out = self.outlook(here.owners, here.trains, here.tickets)
            return self.cards(spare, out.edges, here.trains)
        if isinstance(action, BuildStation):
            lost = self.ruleset.params.unbuilt_station_points
            return self.value(_with(here, hand=_minus(here.hand, action.cards))) - lost
        if isinstance(action, (Pass, WithdrawTunnel)):
            return self.value(here)
        return self.value(here) + UNKNOWN_ACTION

    def _claimed(self, here: Position, r: int, hand: tuple[int, ...]) -> Position:
        """``here`` after claiming track ``r``, holding ``hand`` afterwards."""
        owners = list(here.owners)
        owners[r] = self.seat
        return Position(
            owners=tuple(owners),
            trains=here.trains - self.facts.length[r],
            tickets=here.tickets,
            score=here.score + self.facts.points[r],
            hand=hand,
        )

    def _tunnel_risk(self, r: int, cards: Sequence[int]) -> float:
        """The expected worth of the extra cards a tunnel claim paid with ``cards`` demands."""
        if not self.ruleset.map.routes[r].tunnel or self._last:
            return 0.0
        unseen = self._unseen
        pool = sum(unseen)
        if pool == 0:
            return 0.0
        matching = unseen[LOCO] + sum(unseen[c] for c in range(LOCO) if cards[c])
        return USEFUL_CARD * self.ruleset.params.tunnel_reveal * matching / pool

    def _spend(self, here: Position, n: int) -> tuple[int, ...]:
        """The hand after paying ``n`` cards, the ones the network needs least first."""
        out = self.outlook(here.owners, here.trains, here.tickets)
        need = self.greedy._demand(here.hand, out.edges)
        hand = list(here.hand)
        order = sorted(range(LOCO), key=lambda c: (need[c] - hand[c], c))
        for c in [*order, LOCO]:
            take = min(hand[c], n)
            hand[c] -= take
            n -= take
        return tuple(hand)

    def _draw(self, view: PlayerView, here: Position, action: TakeFaceUp | DrawBlind) -> float:
        """A card draw's expected estimate; a first card of the turn adds the best second."""
        first = [(1.0, action.card)] if isinstance(action, TakeFaceUp) else self._blind_odds()
        out = self.outlook(here.owners, here.trains, here.tickets)
        base = here.score + out.tickets
        whole = (
            isinstance(action, TakeFaceUp)
            and action.card == LOCO
            and self.ruleset.params.face_up_locomotive == "whole_draw"
        )
        again = view.phase is Phase.TURN and not whole
        total = 0.0
        for p, card in first:
            total += p * self.cards(_plus(here.hand, card), out.edges, here.trains)
        if again:
            total += self._second(view, here, out.edges)
        return base + total

    def _second(self, view: PlayerView, here: Position, edges: Sequence[Edge]) -> float:
        """What the best second card of the turn adds to the hand held now (blind, or a
        face-up colour); reckoned once per decision, on the hand before the first card."""
        if self._second_gain is None:
            hand, trains = here.hand, here.trains
            now = self.cards(hand, edges, trains)
            odds = self._blind_odds()
            best = sum(p * self.cards(_plus(hand, c), edges, trains) for p, c in odds)
            for card in sorted(set(view.display)):
                if card != LOCO:
                    best = max(best, self.cards(_plus(hand, card), edges, trains))
            self._second_gain = best - now
        return self._second_gain

    def _blind_odds(self) -> list[tuple[float, int]]:
        """The chance of each card kind on a blind draw, from the cards the seat cannot see."""
        unseen = self._unseen
        pool = sum(unseen)
        if pool == 0:
            return [(1.0, LOCO)]
        return [(n / pool, k) for k, n in enumerate(unseen) if n]

    def _ticket_draw(self, here: Position) -> float:
        """The expected gain of drawing tickets: the best of a deal from those not held
        (kept per board)."""
        key = (here.owners, here.trains, here.tickets, self._last)
        found = self._draws.get(key)
        if found is None:
            if len(self._draws) >= MAX_OUTLOOKS:
                self._draws.clear()
            found = self._draws[key] = self._deal_gain(here)
        return found

    def _deal_gain(self, here: Position) -> float:
        """The expected best gain of a deal of tickets (see `_ticket_draw`)."""
        deal = self.ruleset.params.ticket_draw.deal
        board = Board.at(self.ruleset, self.seat, here.owners, here.trains, self._players)
        out = self.outlook(here.owners, here.trains, here.tickets)
        planned = frozenset(r for edge in out.edges for r in edge.tracks)
        cost = sum(edge.length for edge in out.edges)
        gains = []
        held = set(here.tickets)
        for t, goal in enumerate(self.goals):
            if t in held:
                continue
            if board.completed(goal):
                gains.append(float(goal.value))
                continue
            found = board.path(goal, planned)
            if self._last or found is None or cost + found[0] > here.trains:
                gains.append(-float(goal.value))
                continue
            share = (cost + found[0]) / (min(here.trains, self._cap) + 1)
            gains.append(goal.value * (1 - 2 * share * share) - RISK * len(found[1]))
        return _expected_best(sorted(gains), deal)


def _expected_best(ascending: Sequence[float], deal: int) -> float:
    """The expected largest of ``deal`` values drawn without replacement from ``ascending``."""
    n = len(ascending)
    if n == 0:
        return 0.0
    deal = min(deal, n)
    ways = comb(n, deal)
    return sum(comb(i, deal - 1) * v for i, v in enumerate(ascending)) / ways


def _minus(hand: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    return tuple(h - c for h, c in zip(hand, cards, strict=True))


def _plus(hand: Sequence[int], card: int) -> tuple[int, ...]:
    out = list(hand)
    out[card] += 1
    return tuple(out)


def _one(card: int) -> tuple[int, ...]:
    out = [0] * NUM_KINDS
    out[card] = 1
    return tuple(out)


def _with(
    here: Position, *, tickets: tuple[int, ...] | None = None, hand: tuple[int, ...] | None = None
) -> Position:
    """``here`` holding other tickets or another hand."""
    return Position(
        owners=here.owners,
        trains=here.trains,
        tickets=here.tickets if tickets is None else tickets,
        score=here.score,
        hand=here.hand if hand is None else hand,
    )
