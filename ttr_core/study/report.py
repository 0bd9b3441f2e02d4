"""The balance report: the games of a study summed up, as the JSON of ``report.json``.

The report is built from the per-game [`GameStats`][ttr_core.study.games.GameStats] in game
order, so it depends only on the study's arguments (edition, options, players, bots,
games, seed), never on where or in what order the games ran. Numbers are rounded to six
decimals. "Seat" in the report means a place in the turn order: seat 1 is the start
player, seat 2 plays next, and so on. A study of several player counts sums most sections
over all its games; the seats are also given per player count, and the performance
profile gives each bot's win rate at each count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ttr_core.batch.parallel import GameFailure
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.study.games import GameStats, StudyPlan
from ttr_core.study.stats import SIGNIFICANCE, binomial_test, distribution, proportion

REPORT_FORMAT = 1
"""The version of the report's JSON layout."""
LEAST_CLAIMED = 5
"""How many of the least-claimed routes the report names."""
EXAMPLES = 10
"""How many example games the report gives for each failure state."""


def build_report(
    rs: Ruleset,
    plan: StudyPlan,
    *,
    bots: Sequence[str],
    seed: int,
    outcomes: Sequence[GameStats | GameFailure],
) -> dict[str, Any]:
    """The report of a study of ``rs`` by ``plan``, from the outcome of every game in order.

    ``bots`` are the bot names as given (the plan holds them cycled over the seats).
    """
    games = [o for o in outcomes if isinstance(o, GameStats)]
    failed = [o for o in outcomes if isinstance(o, GameFailure)]
    counts = plan.players
    seats = sum(len(g.totals) for g in games)
    return {
        "format": REPORT_FORMAT,
        "study": {
            "edition": rs.id,
            "name": rs.info.name,
            "rules_version": rs.info.rules_version,
            "map_hash": rs.map_hash,
            "options": dict(rs.options),
            "players": counts[0] if len(counts) == 1 else None,
            "player_counts": [{"players": p, "games": n} for p, n in plan.counts],
            "bots": list(bots),
            "games": len(outcomes),
            "games_measured": len(games),
            "seed": seed,
        },
        "failed_games": [{"seed": f.seed, "message": f.message} for f in failed],
        "seats": _all_seats(counts, games),
        "bots": _bots(plan, games),
        "profile": profile(plan, games),
        "game_length": _game_length(games),
        "cities": _cities(rs, seats, games),
        **_routes(rs, games),
        "tickets": _tickets(rs, games),
        "bonuses": _bonuses(games),
        "mechanics": _mechanics(rs, seats, games),
        "failure_states": _failure_states(games),
    }


def _r(value: float) -> float:
    return round(value, 6)


def _share(part: float, whole: float) -> float:
    """``part / whole`` rounded, or 0 when there is no whole (a study of no games)."""
    return _r(part / whole) if whole else 0.0


def _rate(successes: int, trials: int) -> dict[str, Any]:
    p = proportion(successes, trials)
    return {"rate": _r(p.rate), "low": _r(p.low), "high": _r(p.high)}


def _summary(values: Sequence[float]) -> dict[str, Any]:
    d = distribution(values)
    return {
        "count": d.count,
        "mean": _r(d.mean),
        "stdev": _r(d.stdev),
        "min": _r(d.min),
        "q1": _r(d.q1),
        "median": _r(d.median),
        "q3": _r(d.q3),
        "max": _r(d.max),
    }


def _place(stats: GameStats, seat: int) -> int:
    """The place of ``seat`` in the turn order of the game, from 0 (the start player)."""
    return (seat - stats.start) % len(stats.totals)


def _seats(players: int, games: Sequence[GameStats]) -> dict[str, Any]:
    """Win rates by place in the turn order, and the exact test of the start player's, over
    games of ``players`` players."""
    wins = [0] * players
    for g in games:
        for seat in g.winners:
            wins[_place(g, seat)] += 1
    n = len(games)
    expected = sum(wins) / (n * players) if n else 0.0
    first = wins[0] if players else 0
    p_value = binomial_test(first, n, expected)
    return {
        "places": [
            {"seat": q + 1, "wins": wins[q], "games": n, **_rate(wins[q], n)}
            for q in range(players)
        ],
        "first_player": {
            "win_rate": _share(first, n),
            "expected": _r(expected),
            "advantage": _r(_share(first, n) - expected),
            "p_value": _r(p_value),
            "significant": p_value < SIGNIFICANCE,
        },
    }


def _all_seats(counts: Sequence[int], games: Sequence[GameStats]) -> dict[str, Any]:
    """The seats over all games and per player count (``by_players``).

    With one count, ``places`` and ``first_player`` are that count's. With several, each
    place is counted over the games in which it exists (seat 4 only in games of four or
    more), and ``first_player`` is null: the start player's expected rate differs with the
    count, so its test is made per count only.
    """
    by_players = []
    for players in counts:
        some = [g for g in games if len(g.totals) == players]
        by_players.append({"players": players, "games": len(some), **_seats(players, some)})
    if len(counts) == 1:
        return {**_seats(counts[0], games), "by_players": by_players}
    places = []
    for q in range(max(counts)):
        n = sum(1 for g in games if len(g.totals) > q)
        wins = sum(1 for g in games for seat in g.winners if _place(g, seat) == q)
        places.append({"seat": q + 1, "wins": wins, "games": n, **_rate(wins, n)})
    return {"places": places, "first_player": None, "by_players": by_players}


def _bots(plan: StudyPlan, games: Sequence[GameStats]) -> list[dict[str, Any]]:
    """Per bot: seat-games, seats that won (with the rate's interval), games won, scores."""
    names = list(dict.fromkeys(plan.bots))
    seat_games = dict.fromkeys(names, 0)
    seat_wins = dict.fromkeys(names, 0)
    games_in = dict.fromkeys(names, 0)
    games_won = dict.fromkeys(names, 0)
    scores: dict[str, list[float]] = {name: [] for name in names}
    for g in games:
        for seat, bot in enumerate(g.bots):
            seat_games[bot] += 1
            seat_wins[bot] += seat in g.winners
            scores[bot].append(g.totals[seat])
        for bot in set(g.bots):
            games_in[bot] += 1
            games_won[bot] += any(g.bots[s] == bot for s in g.winners)
    return [
        {
            "bot": name,
            "seat_games": seat_games[name],
            "wins": seat_wins[name],
            **_rate(seat_wins[name], seat_games[name]),
            "games": games_in[name],
            "games_won": games_won[name],
            "scores": _summary(scores[name]),
        }
        for name in names
    ]


def profile(plan: StudyPlan, games: Sequence[GameStats]) -> list[dict[str, Any]]:
    """The performance profile: for each player count, each bot's games, seats, seats won
    (with the win rate's 95 % Wilson interval) and mean score, and the bot with the highest
    win rate (``leader``; the first of the bots given on a tie; null without games).

    The win rate is per seat played: a bot in two seats of a game plays two seats.
    """
    names = list(dict.fromkeys(plan.bots))
    out = []
    for players in plan.players:
        some = [g for g in games if len(g.totals) == players]
        rows = []
        for name in names:
            seats = [(g, s) for g in some for s, bot in enumerate(g.bots) if bot == name]
            wins = sum(1 for g, s in seats if s in g.winners)
            scores = [g.totals[s] for g, s in seats]
            rows.append(
                {
                    "bot": name,
                    "games": sum(1 for g in some if name in g.bots),
                    "seats": len(seats),
                    "wins": wins,
                    **_rate(wins, len(seats)),
                    "mean_score": _r(sum(scores) / len(scores)) if scores else 0.0,
                }
            )
        played = [row for row in rows if row["seats"]]
        leader = max(played, key=lambda row: row["rate"])["bot"] if played else None
        out.append({"players": players, "games": len(some), "leader": leader, "bots": rows})
    return out


def _game_length(games: Sequence[GameStats]) -> dict[str, Any]:
    ended: dict[str, int] = {}
    for g in games:
        ended[g.ended_by] = ended.get(g.ended_by, 0) + 1
    turns: dict[int, int] = {}
    for g in games:
        turns[g.turns] = turns.get(g.turns, 0) + 1
    return {
        "turns": _summary([g.turns for g in games]),
        "histogram": [{"turns": t, "games": k} for t, k in sorted(turns.items())],
        "ended_by": dict(sorted(ended.items())),
    }


def _cities(rs: Ruleset, trials: int, games: Sequence[GameStats]) -> list[dict[str, Any]]:
    """How often each city is part of a player's network (of ``trials``, the players of all
    games), most desirable first."""
    cities = rs.map.cities
    counts = [0] * len(cities)
    for g in games:
        for c, n in enumerate(g.networks):
            counts[c] += n
    order = sorted(range(len(counts)), key=lambda c: (-counts[c], c))
    return [
        {"city": cities[c].id, "networks": counts[c], "share": _share(counts[c], trials)}
        for c in order
    ]


def route_groups(rs: Ruleset) -> list[tuple[int, ...]]:
    """The routes of the map as groups of track indices: a double route's two tracks
    together, in map order of their first track."""
    tracks = rs.map.routes
    index = {t.id: r for r, t in enumerate(tracks)}
    groups: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for r, track in enumerate(tracks):
        if r in seen:
            continue
        group = (r,) if track.parallel is None else (r, index[track.parallel])
        seen.update(group)
        groups.append(group)
    return groups


def _routes(rs: Ruleset, games: Sequence[GameStats]) -> dict[str, Any]:
    """Claims of every route and track, the least-claimed routes and those never claimed."""
    n = len(games)
    tracks = rs.map.routes
    track_claims = [0] * len(tracks)
    route_claims: dict[tuple[int, ...], int] = {}
    groups = route_groups(rs)
    for g in games:
        for r, owner in enumerate(g.owners):
            track_claims[r] += owner >= 0
        for group in groups:
            route_claims[group] = route_claims.get(group, 0) + any(g.owners[r] >= 0 for r in group)

    def route(group: tuple[int, ...]) -> dict[str, Any]:
        first = tracks[group[0]]
        return {
            "cities": list(first.cities),
            "length": first.length,
            "tracks": [
                {
                    "id": tracks[r].id,
                    "color": tracks[r].color,
                    "tunnel": tracks[r].tunnel,
                    "ferry": tracks[r].ferry,
                    "claimed": track_claims[r],
                    "rate": _share(track_claims[r], n),
                }
                for r in group
            ],
            "claimed": route_claims.get(group, 0),
            "rate": _share(route_claims.get(group, 0), n),
        }

    routes = [route(group) for group in groups]
    order = sorted(range(len(groups)), key=lambda i: (routes[i]["claimed"], i))
    return {
        "routes": routes,
        "least_claimed": [routes[i] for i in order[:LEAST_CLAIMED]],
        "never_claimed": [r for r in routes if r["claimed"] == 0],
        "never_claimed_tracks": [t.id for t, k in zip(tracks, track_claims, strict=True) if not k],
    }


def _tickets(rs: Ruleset, games: Sequence[GameStats]) -> list[dict[str, Any]]:
    """How often each ticket was kept and completed, in map order."""
    kept = dict.fromkeys((t.id for t in rs.map.tickets), 0)
    completed = dict.fromkeys(kept, 0)
    for g in games:
        for ticket, done in g.tickets:
            kept[ticket] += 1
            completed[ticket] += done
    out = []
    for t in rs.map.tickets:
        entry: dict[str, Any] = {"id": t.id, "from": t.a}
        if t.targets is not None:
            entry["to_any"] = dict(t.targets)
        else:
            entry["to"] = t.b
            entry["points"] = t.points
        entry["kind"] = t.kind
        entry["kept"] = kept[t.id]
        entry["completed"] = completed[t.id]
        entry["completion_rate"] = (
            None if not kept[t.id] else _rate(completed[t.id], kept[t.id])["rate"]
        )
        out.append(entry)
    return out


def _bonuses(games: Sequence[GameStats]) -> list[dict[str, Any]]:
    """How often each bonus was won, and how often it decided who won (the winners would
    have been others without it), that share with its 95 % interval.

    A bonus that some player wins in every game tells nothing by how often it is won;
    how often it decided the game says how much it weighs.
    """
    won_games: dict[str, int] = {}
    won_seats: dict[str, int] = {}
    points: dict[str, int] = {}
    decided: dict[str, int] = {}
    for g in games:
        for name, per_seat in g.bonuses:
            won_games[name] = won_games.get(name, 0) + any(per_seat)
            won_seats[name] = won_seats.get(name, 0) + sum(1 for p in per_seat if p)
            points[name] = points.get(name, 0) + sum(per_seat)
        for name in g.decided_by:
            decided[name] = decided.get(name, 0) + 1
    n = len(games)
    seats = sum(len(g.totals) for g in games)

    def bonus(name: str) -> dict[str, Any]:
        times = decided.get(name, 0)
        interval = proportion(times, n)
        return {
            "bonus": name,
            "games_won": won_games[name],
            "games_won_share": _share(won_games[name], n),
            "players_won": won_seats[name],
            "players_won_share": _share(won_seats[name], seats),
            "mean_points": _share(points[name], seats),
            "games_decided": times,
            "games_decided_share": _share(times, n),
            "decided_low": _r(interval.low),
            "decided_high": _r(interval.high),
        }

    return [bonus(name) for name in sorted(won_games)]


def _mechanics(rs: Ruleset, seats: int, games: Sequence[GameStats]) -> dict[str, Any]:
    """Stations, tunnels and ferries, for the editions that have them (else null); ``seats``
    are the players of all games."""
    n = len(games)
    out: dict[str, Any] = {"stations": None, "tunnels": None, "ferries": None}
    if rs.params.stations:
        built = sum(sum(g.stations) for g in games)
        out["stations"] = {
            "per_player": rs.params.stations,
            "built": built,
            "mean_built_per_player": _share(built, seats),
            "games_with_a_station": sum(1 for g in games if any(g.stations)),
            "borrowing_a_track": sum(g.stations_borrowing for g in games),
        }
    tunnels = [r for r, t in enumerate(rs.map.routes) if t.tunnel]
    if tunnels:
        attempts = sum(g.tunnel_attempts for g in games)
        claimed = sum(1 for g in games for r in tunnels if g.owners[r] >= 0)
        out["tunnels"] = {
            "tracks": len(tunnels),
            "attempts": attempts,
            "withdrawn": sum(g.tunnels_withdrawn for g in games),
            "claimed": claimed,
            "claim_rate": _share(claimed, n * len(tunnels)),
            "mean_extra_cards": _share(sum(g.tunnel_extra for g in games), attempts),
        }
    ferries = [r for r, t in enumerate(rs.map.routes) if t.ferry]
    if ferries:
        claimed = sum(1 for g in games for r in ferries if g.owners[r] >= 0)
        out["ferries"] = {
            "tracks": len(ferries),
            "claimed": claimed,
            "claim_rate": _share(claimed, n * len(ferries)),
        }
    return out


def _failure_states(games: Sequence[GameStats]) -> dict[str, Any]:
    """The games that met a state the rules treat specially, with examples to replay."""
    n = len(games)

    def state(found: list[GameStats], count: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"games": len(found), "share": _share(len(found), n)}
        if count is not None:
            out["times"] = count
        out["examples"] = [{"seed": g.seed, "bots": list(g.bots)} for g in found[:EXAMPLES]]
        return out

    return {
        "no_legal_move": state([g for g in games if g.passes], sum(g.passes for g in games)),
        "deadlock": state([g for g in games if g.ended_by == "deadlock"]),
        "deck_exhausted": state([g for g in games if g.deck_exhausted]),
        "flush_limit": state(
            [g for g in games if g.flush_limits], sum(g.flush_limits for g in games)
        ),
        "flushes": sum(g.flushes for g in games),
        "reshuffles": sum(g.reshuffles for g in games),
    }
