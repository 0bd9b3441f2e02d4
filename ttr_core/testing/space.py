"""The whole action space and arbitrary end positions, from any source of choices.

`arbitrary_action` makes one action of any kind, legal or not: face-up cards of every kind
(and kinds that do not exist), blind draws, ticket draws and choices (subsets in any order,
unknown and repeated ids), claims of any track id (unknown ones too) with near-miss, random
and malformed payments, claims paid with any number of card groups and card choices of any
kind, tunnel payments, stations in any city (unknown ones too) and passes; also listed
actions, as they are or slightly altered. Choices come from ``pick(n)``, which returns a
number in ``range(n)``: a `Chooser` for reproducible runs, or Hypothesis draws (see
`ttr_core.testing.strategies`), which shrink towards the first option of each choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
from ttr_core.model.cards import GRAY, LOCO, NUM_KINDS
from ttr_core.model.state import GameState
from ttr_core.play.legal import LegalActions
from ttr_core.rules.double_routes import parallel_rule
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position
from ttr_core.rules.tickets import pending_for
from ttr_core.ruleset.ruleset import Ruleset

Pick = Callable[[int], int]

UNKNOWN_CITY = "Atlantis"
"""A city name no real map has."""


def _one_of(pick: Pick, items: Sequence[int]) -> int:
    return items[pick(len(items))]


def _shuffled(pick: Pick, items: Sequence[int]) -> list[int]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = pick(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _unknown_ids(known: Sequence[int]) -> tuple[int, ...]:
    taken = set(known)
    return tuple(x for x in (max(known, default=0) + 1, -1, 0, 10**9) if x not in taken)


def _malformed(pick: Pick) -> tuple[int, ...]:
    """A payment that is not nine non-negative counts."""
    kind = pick(3)
    if kind == 0:
        return (1,) * (NUM_KINDS - 1)
    if kind == 1:
        return (1,) * (NUM_KINDS + 1)
    counts = [0] * NUM_KINDS
    counts[pick(NUM_KINDS)] = -1 - pick(2)
    counts[pick(NUM_KINDS)] += 2
    return tuple(counts)


def _payment(pick: Pick, size: int, color: int, hand: tuple[int, ...] | None) -> tuple[int, ...]:
    """``size`` cards of ``color`` (a card colour) and locomotives, maybe held."""
    counts = [0] * NUM_KINDS
    locos = pick(size + 1)
    counts[LOCO] = locos
    counts[color] += size - locos
    if hand is not None:
        counts = [min(c, h) for c, h in zip(counts, hand, strict=True)]
    return tuple(counts)


def _any_payment(
    pick: Pick, size: int, color: int | None, hand: tuple[int, ...]
) -> tuple[int, ...]:
    """A payment of about ``size`` cards: near misses, held ones, random and malformed."""
    mode = pick(6)
    if color is None or color == GRAY:
        best = max(range(LOCO), key=lambda k: hand[k])
        color = best if pick(2) == 0 else pick(LOCO)
    if mode == 0:
        return _payment(pick, size, color, hand)
    if mode == 1:
        return _payment(pick, max(0, size + pick(3) - 1), color, None)
    if mode == 2:
        counts = [0] * NUM_KINDS
        counts[LOCO] = size
        return tuple(counts)
    if mode == 3:
        return tuple(pick(3) for _ in range(NUM_KINDS))
    if mode == 4:
        counts = list(_payment(pick, size, color, None))
        counts[pick(LOCO)] += 1
        return tuple(counts)
    return _malformed(pick)


def _keep(rs: Ruleset, state: GameState, pick: Pick) -> KeepTickets:
    ids = index_of(rs).ticket_ids
    offered = [ids[t] for t in pending_for(state, state.current)]
    mode = pick(5)
    if mode == 4 or not offered:
        size = pick(4)
        return KeepTickets(tickets=tuple(_one_of(pick, ids) for _ in range(size)))
    chosen = _shuffled(pick, [t for t in offered if pick(3) > 0])
    if mode == 2:
        chosen.insert(pick(len(chosen) + 1), _one_of(pick, _unknown_ids(ids)))
    elif mode == 3:
        chosen.insert(pick(len(chosen) + 1), _one_of(pick, offered))
    return KeepTickets(tickets=tuple(chosen))


def _claim(rs: Ruleset, state: GameState, pick: Pick) -> ClaimRoute:
    hand = state.players[state.current].hand
    ix = index_of(rs)
    if pick(8) < 7:
        r = pick(len(ix.routes))
        route, size, color = ix.route_ids[r], ix.route_len[r], ix.route_color[r]
        return ClaimRoute(route=route, cards=_any_payment(pick, size, color, hand))
    route = _one_of(pick, _unknown_ids(ix.route_ids))
    return ClaimRoute(route=route, cards=_any_payment(pick, 1 + pick(6), None, hand))


def _group_claim(rs: Ruleset, state: GameState, pick: Pick) -> ClaimWithGroups:
    ids = index_of(rs).route_ids
    route = ids[pick(len(ids))] if pick(8) < 7 else _one_of(pick, _unknown_ids(ids))
    return ClaimWithGroups(route=route, groups=pick(12) - 1)


def _choose_card(pick: Pick) -> ChooseCard:
    return ChooseCard(card=pick(NUM_KINDS + 2) - 1)


def _pay_tunnel(rs: Ruleset, state: GameState, pick: Pick) -> PayTunnel:
    hand = state.players[state.current].hand
    t = state.tunnel
    if t is None:
        return PayTunnel(cards=_any_payment(pick, pick(4), None, hand))
    size = max(0, t.extra + pick(3) - 1) if pick(2) else t.extra
    color = t.color if t.color != LOCO and pick(4) else pick(LOCO)
    if pick(6) == 0:
        return PayTunnel(cards=_malformed(pick))
    return PayTunnel(cards=_payment(pick, size, color, None))


def _station(rs: Ruleset, state: GameState, pick: Pick) -> BuildStation:
    hand = state.players[state.current].hand
    mode = pick(6)
    ids = index_of(rs).city_ids
    if mode < 4 or not ids:
        city = ids[pick(len(ids))] if ids else UNKNOWN_CITY
    elif mode == 4:
        aliases = [a for c in rs.map.cities for a in c.aliases]
        city = aliases[pick(len(aliases))] if aliases else ids[0]
    else:
        city = (UNKNOWN_CITY, "", ids[0].upper() + "?")[pick(3)]
    params = rs.params
    player = state.players[state.current]
    used = params.stations - player.stations
    cost = params.station_cost[used] if 0 <= used < len(params.station_cost) else 1 + pick(3)
    return BuildStation(city=city, cards=_any_payment(pick, cost, None, hand))


def _altered(rs: Ruleset, state: GameState, action: Action, pick: Pick) -> Action:
    """A listed action, as it is or changed a little."""
    how = pick(3)
    if how == 0:
        return action
    if isinstance(action, ClaimRoute | BuildStation | PayTunnel):
        counts = list(action.cards)
        k = pick(NUM_KINDS)
        counts[k] += 1 if how == 1 or counts[k] == 0 else -1
        if isinstance(action, ClaimRoute):
            return ClaimRoute(route=action.route, cards=tuple(counts))
        if isinstance(action, BuildStation):
            return BuildStation(city=action.city, cards=tuple(counts))
        return PayTunnel(cards=tuple(counts))
    if isinstance(action, ClaimWithGroups):
        return ClaimWithGroups(route=action.route, groups=action.groups + (1 if how == 1 else -1))
    if isinstance(action, ChooseCard):
        return ChooseCard(card=(action.card + 1 + pick(NUM_KINDS - 1)) % NUM_KINDS)
    if isinstance(action, KeepTickets) and action.tickets:
        kept = list(action.tickets)
        del kept[pick(len(kept))]
        return KeepTickets(tickets=tuple(_shuffled(pick, kept)))
    if isinstance(action, TakeFaceUp):
        return TakeFaceUp(card=(action.card + 1 + pick(NUM_KINDS - 1)) % NUM_KINDS)
    return _plain(rs, state, pick)


def _plain(rs: Ruleset, state: GameState, pick: Pick) -> Action:
    kind = pick(14)
    if kind == 0:
        return DrawBlind()
    if kind in (1, 2):
        mode = pick(4)
        if mode < 2:
            card = state.display[pick(len(state.display))] if state.display else 0
        elif mode == 2:
            card = pick(NUM_KINDS)
        else:
            card = (-1, NUM_KINDS, 99)[pick(3)]
        return TakeFaceUp(card=card)
    if kind == 3:
        return DrawTickets()
    if kind == 4:
        return _keep(rs, state, pick)
    if kind in (5, 6, 7):
        return _claim(rs, state, pick)
    if kind == 8:
        return _pay_tunnel(rs, state, pick)
    if kind == 9:
        return WithdrawTunnel()
    if kind == 10:
        return _station(rs, state, pick)
    if kind == 11:
        return _group_claim(rs, state, pick)
    if kind == 12:
        return _choose_card(pick)
    return Pass()


def arbitrary_action(
    rs: Ruleset, state: GameState, pick: Pick, legal: LegalActions | None = None
) -> Action:
    """One action from the whole action space of ``rs`` in ``state``, legal or not."""
    if legal is not None and len(legal) and pick(4) == 3:
        return _altered(rs, state, legal[pick(len(legal))], pick)
    return _plain(rs, state, pick)


def arbitrary_actions(
    rs: Ruleset, state: GameState, pick: Pick, count: int, legal: LegalActions | None = None
) -> list[Action]:
    """``count`` actions from `arbitrary_action`."""
    legal = LegalActions(rs, state) if legal is None else legal
    return [arbitrary_action(rs, state, pick, legal) for _ in range(count)]


def random_position(rs: Ruleset, players: int, pick: Pick) -> Position:
    """An end position that the rules allow, with tracks, tickets and stations dealt at random.

    Tracks respect each player's trains and the double-route rules; each ticket card is
    held at most once; stations go to distinct cities, at most the edition's number each.
    """
    params = rs.params
    ix = index_of(rs)
    trains = [params.trains] * players
    routes: list[list[int]] = [[] for _ in range(players)]
    owners = [-1] * len(ix.routes)
    for r in _shuffled(pick, range(len(ix.routes))):
        seat = pick(players + 1) - 1
        if seat < 0 or ix.route_len[r] > trains[seat]:
            continue
        if parallel_rule(rs, owners, r, seat, players):
            continue
        owners[r] = seat
        routes[seat].append(r)
        trains[seat] -= ix.route_len[r]
    tickets: list[list[int]] = [[] for _ in range(players)]
    for t in range(len(ix.tickets)):
        seat = pick(players + 2) - 2
        if seat >= 0:
            tickets[seat].append(t)
    stations: list[list[int]] = [[] for _ in range(players)]
    if params.stations:
        for c in range(len(ix.city_ids)):
            seat = pick(players * 3) - players * 2
            if seat >= 0 and len(stations[seat]) < params.stations:
                stations[seat].append(c)
    return Position(
        players=tuple(
            PlayerPosition(
                name=f"Player {i + 1}",
                routes=tuple(routes[i]),
                tickets=tuple(tickets[i]),
                stations=tuple(stations[i]),
            )
            for i in range(players)
        )
    )
