"""The balance report as one HTML page that opens offline.

Everything is inside the page: the style, the figures (as ``data:`` URIs of their SVG)
and the map (inline SVG, so its tooltips work). Tables give the numbers behind each
figure; the longest ones are folded in ``<details>``.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ttr_core.study.plots import ticket_label

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; color: #222; max-width: 1000px;
       margin: 2em auto; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #e4e4e4; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.n { white-space: nowrap; }
img, svg { max-width: 100%; height: auto; }
figure { margin: 1em 0; }
figcaption { color: #555; font-size: 0.93em; max-width: 46em; }
.note { color: #555; }
.bad { color: #b00020; font-weight: 600; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _pct(value: float) -> str:
    return f"{100 * value:.1f} %"


def _table(headers: Sequence[str], rows: Iterable[Sequence[object]], numeric: int = 1) -> str:
    """A table; the columns from ``numeric`` on are right-aligned numbers."""
    head = "".join(
        f'<th class="n">{_e(h)}</th>' if i >= numeric else f"<th>{_e(h)}</th>"
        for i, h in enumerate(headers)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{_e(c)}</td>' if i >= numeric else f"<td>{_e(c)}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure(figures: Mapping[str, str], name: str, alt: str, caption: str) -> str:
    """A figure with its caption, which says what the figure shows in detail."""
    svg = figures.get(name)
    if svg is None:
        return ""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (
        f'<figure><img src="data:image/svg+xml;base64,{data}" alt="{_e(alt)}">'
        f"<figcaption>{_e(caption)}</figcaption></figure>"
    )


def _inline_svg(svg: str) -> str:
    """SVG text ready to sit inside HTML: without its XML declaration."""
    return re.sub(r"^<\?xml[^>]*\?>\s*", "", svg)


def _interval(row: Mapping[str, Any]) -> str:
    return f"{_pct(row['low'])} – {_pct(row['high'])}"


def report_page(
    report: Mapping[str, Any], figures: Mapping[str, str], map_svg: str | None, map_note: str
) -> str:
    """The HTML page of a report, with its figures (SVG text by file name) and the map.

    ``map_note`` says what the map shows, or why there is none.
    """
    study = report["study"]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Balance report: {_e(study['name'])}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Balance report: {_e(study['name'])}</h1>",
        _overview(report),
        _profile(report, figures),
        _seats(report, figures),
        _bots(report, figures),
        _length(report, figures),
        "<h2>The map</h2>",
        f'<p class="note">{_e(map_note)}</p>',
        _inline_svg(map_svg) if map_svg is not None else "",
        _routes(report, figures),
        _cities(report, figures),
        _tickets(report, figures),
        _bonuses(report, figures),
        _mechanics(report),
        _failures(report),
        "</body></html>",
    ]
    return "\n".join(part for part in parts if part) + "\n"


def _players(study: Mapping[str, Any]) -> str:
    """The player count, or each count of a study of several with its games."""
    counts = study["player_counts"]
    if len(counts) == 1:
        return str(counts[0]["players"])
    return ", ".join(f"{c['players']} ({c['games']} games)" for c in counts)


def _overview(report: Mapping[str, Any]) -> str:
    study = report["study"]
    options = ", ".join(f"{k}={v}" for k, v in study["options"].items()) or "none"
    rows = [
        ("Edition", f"{study['edition']} (rules version {study['rules_version']})"),
        ("Options", options),
        ("Players", _players(study)),
        ("Bots", ", ".join(study["bots"]) + " (rotating one seat per game)"),
        ("Games", f"{study['games_measured']} measured of {study['games']}"),
        ("Seed", study["seed"]),
    ]
    body = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows)
    out = [f"<table><tbody>{body}</tbody></table>"]
    failed = report["failed_games"]
    if failed:
        out.append(f'<p class="bad">{len(failed)} games failed and are left out:</p>')
        out.append(_table(["Seed", "What went wrong"], [(f["seed"], f["message"]) for f in failed]))
    return "\n".join(out)


def _first_player(first: Mapping[str, Any], at: str) -> str:
    verdict = "significant" if first["significant"] else "not significant"
    return (
        f"<p>The start player won {_pct(first['win_rate'])} of the games{at}, against "
        f"{_pct(first['expected'])} if no seat had an advantage: a difference of "
        f"{100 * first['advantage']:+.1f} points, {verdict} at the 5 % level (exact "
        f"binomial test, p = {first['p_value']:.4f}).</p>"
    )


def _seats(report: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    seats = report["seats"]
    several = len(seats["by_players"]) > 1
    out = [
        "<h2>Seats</h2>",
        '<p class="note">A seat is a place in the turn order: seat 1 starts. A shared '
        "win counts for every winner.</p>",
    ]
    if several:
        out += [
            _first_player(c["first_player"], f" at {c['players']} players")
            for c in seats["by_players"]
        ]
    else:
        out.append(_first_player(seats["first_player"], ""))
    out.append(
        _figure(
            figures,
            "seats.svg",
            "win rate by seat",
            SEATS_BY_PLAYERS_CAPTION if several else SEATS_CAPTION,
        )
    )
    if several:
        rows = [
            (c["players"], p["seat"], p["wins"], p["games"], _pct(p["rate"]), _interval(p))
            for c in seats["by_players"]
            for p in c["places"]
        ]
        out.append(_table(["Players", "Seat", "Wins", "Games", "Win rate", "95 % interval"], rows))
    else:
        out.append(
            _table(
                ["Seat", "Wins", "Win rate", "95 % interval"],
                [(p["seat"], p["wins"], _pct(p["rate"]), _interval(p)) for p in seats["places"]],
            )
        )
    return "\n".join(out)


SEATS_CAPTION = (
    "The share of the games each seat won, with its 95 % interval (Wilson score). The "
    "dashed line is the rate of every seat if no seat had an advantage."
)
SEATS_BY_PLAYERS_CAPTION = (
    "The share of the games each seat won, with its 95 % interval (Wilson score), one panel "
    "per player count, since a seat's chance depends on how many play (seat 4 exists only "
    "with four players or more). The dashed line in each panel is the rate of every seat "
    "at that count if no seat had an advantage."
)
BOTS_CAPTION = (
    "Left, the share of its seats each bot won, with its 95 % interval; right, the final "
    "scores of each bot. The box spans the middle half of the scores (first to third "
    "quartile), the red line is the median, the triangle the mean, and the whiskers reach "
    "the lowest and the highest score."
)
ONE_BOT_CAPTION = (
    "The final scores of the bot: the box spans the middle half (first to third quartile), "
    "the red line is the median, the triangle the mean, and the whiskers reach the lowest "
    "and the highest score. With one bot in every seat it wins every game, so its win rate "
    "is not drawn."
)


PROFILE_CAPTION = (
    "The share of its seats each bot won at each player count, with its 95 % interval "
    "(Wilson score), one bar per bot, grouped by player count."
)
MIXED_NOTE = (
    " Over all the player counts of the study; the performance profile above gives them "
    "count by count."
)


def profile_leaders(profile: Sequence[Mapping[str, Any]]) -> str:
    """One sentence naming the bot with the highest win rate at each player count."""
    parts = [
        f"{c['leader']} at {c['players']} players"
        f" ({_pct(next(b['rate'] for b in c['bots'] if b['bot'] == c['leader']))})"
        for c in profile
        if c["leader"] is not None
    ]
    if not parts:
        return "No game was measured."
    return "The highest win rate: " + "; ".join(parts) + "."


def _profile(report: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    profile = report["profile"]
    rows = [
        (
            c["players"],
            b["bot"],
            b["games"],
            b["seats"],
            b["wins"],
            _pct(b["rate"]),
            _interval(b),
            f"{b['mean_score']:.1f}",
        )
        for c in profile
        for b in c["bots"]
    ]
    headers = ["Players", "Bot", "Games", "Seats", "Won", "Win rate", "95 % interval", "Mean"]
    return "\n".join(
        [
            "<h2>Performance profile</h2>",
            '<p class="note">How each bot fares at each player count: the seats it played, '
            "the seats that won (a shared win counts for every winner) and its mean final "
            "score. Which play style wins, and how that changes with the number of players, "
            "characterises the map.</p>",
            f"<p>{_e(profile_leaders(profile))}</p>",
            _figure(
                figures,
                "profile.svg",
                "win rate of each bot by player count",
                PROFILE_CAPTION + " " + profile_leaders(profile),
            ),
            _table(headers, rows, numeric=2),
        ]
    )


def _bots(report: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    caption = BOTS_CAPTION if len(report["bots"]) > 1 else ONE_BOT_CAPTION
    if len(report["study"]["player_counts"]) > 1:
        caption += MIXED_NOTE
    rows = [
        (
            b["bot"],
            b["seat_games"],
            b["wins"],
            _pct(b["rate"]),
            _interval(b),
            f"{b['scores']['mean']:.1f}",
            f"{b['scores']['median']:g}",
            f"{b['scores']['min']:g} to {b['scores']['max']:g}",
        )
        for b in report["bots"]
    ]
    headers = ["Bot", "Seats", "Won", "Win rate", "95 % interval", "Mean", "Median", "Range"]
    return "\n".join(
        [
            "<h2>Bots</h2>",
            '<p class="note">Seats played, seats that won and final scores of each bot.</p>',
            _figure(figures, "bots.svg", "win rate and scores by bot", caption),
            _table(headers, rows),
        ]
    )


def _length(report: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    length = report["game_length"]
    turns = length["turns"]
    ended = ", ".join(
        f"{ENDINGS.get(reason, reason)}: {n}" for reason, n in length["ended_by"].items()
    )
    return "\n".join(
        [
            "<h2>Game length</h2>",
            f"<p>{turns['mean']:.1f} turns on average (median {turns['median']:g}, "
            f"{turns['min']:g} to {turns['max']:g}). How the games ended: {_e(ended)}.</p>",
            _figure(
                figures,
                "game-length.svg",
                "game length",
                "How many games lasted each number of turns, the turns of all players counted.",
            ),
        ]
    )


ENDINGS = {"final_round": "after the final round", "deadlock": "after a full round of passes"}
"""How a game ended, in words, by the state's ``ended_by``."""


def _route_name(route: Mapping[str, Any]) -> str:
    return f"{route['cities'][0]} – {route['cities'][1]}"


def _route_rows(routes: Sequence[Mapping[str, Any]]) -> list[tuple[object, ...]]:
    return [
        (
            _route_name(r),
            r["length"],
            " ".join(
                f"{t['id']}:{t['color']}"
                + (" tunnel" if t["tunnel"] else "")
                + (f" ferry {t['ferry']}" if t["ferry"] else "")
                for t in r["tracks"]
            ),
            r["claimed"],
            _pct(r["rate"]),
        )
        for r in routes
    ]


ROUTES_CAPTION = (
    "The share of the games in which each route was claimed, the most claimed first. A "
    "double route counts as claimed when either of its tracks is. In brackets: the route's "
    "length, its colours, ×2 for a double route, and whether it is a tunnel or a ferry."
)


def _routes(report: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    headers = ["Route", "Length", "Tracks (id:colour)", "Games claimed", "Share"]
    never = report["never_claimed"]
    tracks = report["never_claimed_tracks"]
    return "\n".join(
        [
            "<h2>Routes</h2>",
            "<p>The five least-claimed routes (a double route counts as claimed when either "
            "track is):</p>",
            _table(headers, _route_rows(report["least_claimed"]), numeric=3),
            f"<p>Routes never claimed: {len(never)}"
            + (": " + _e(", ".join(_route_name(r) for r in never)) if never else "")
            + f". Tracks never claimed: {len(tracks)}"
            + (" (ids " + _e(", ".join(str(t) for t in tracks)) + ")" if tracks else "")
            + ".</p>",
            _figure(figures, "routes.svg", "claim rate of every route", ROUTES_CAPTION),
            "<details><summary>Every route</summary>",
            _table(headers, _route_rows(report["routes"]), numeric=3),
            "</details>",
        ]
    )


def _cities(report: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    cities = report["cities"]
    return "\n".join(
        [
            "<h2>City desirability</h2>",
            _figure(
                figures,
                "cities.svg",
                "city desirability",
                "How often a city is part of a player's network (touched by one of their "
                "tracks), over all players of all games, the most desirable first.",
            ),
            "<details><summary>Every city</summary>",
            _table(
                ["City", "Networks", "Share"],
                [(c["city"], c["networks"], _pct(c["share"])) for c in cities],
            ),
            "</details>",
        ]
    )


def _tickets(report: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    tickets = report["tickets"]
    never = [t for t in tickets if not t["kept"]]
    rows = [
        (
            ticket_label(t),
            t["kind"],
            t["kept"],
            t["completed"],
            "–" if t["completion_rate"] is None else _pct(t["completion_rate"]),
        )
        for t in tickets
    ]
    return "\n".join(
        [
            "<h2>Tickets</h2>",
            f"<p>Tickets never kept: {len(never)}"
            + (": " + _e(", ".join(ticket_label(t) for t in never)) if never else "")
            + ".</p>",
            _figure(
                figures,
                "tickets.svg",
                "completion rate of every ticket",
                "How often each ticket was completed, of the times a player kept it, with its "
                "95 % interval; the best completed first. Tickets never kept are left out.",
            ),
            "<details><summary>Every ticket</summary>",
            _table(["Ticket", "Kind", "Kept", "Completed", "Completion"], rows, numeric=2),
            "</details>",
        ]
    )


BONUSES_CAPTION = (
    "The share of the games each bonus decided, with its 95 % interval, the most decisive "
    "first. A bonus decided a game when, without it (its points, and its part in breaking "
    "a tie where the edition's rules use it), the rules would have named other winners. "
    "How often a bonus is won says little: one that goes to someone in every game, or "
    "that every player earns alike, may decide no game at all."
)


def _bonuses(report: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    bonuses = report["bonuses"]
    if not bonuses:
        return "<h2>Bonuses</h2><p>The edition has no bonus.</p>"
    games = report["study"]["games_measured"]
    rows = [
        (
            b["bonus"].replace("_", " "),
            f"{b['games_decided']} of {games}",
            _pct(b["games_decided_share"]),
            f"{_pct(b['decided_low'])} – {_pct(b['decided_high'])}",
            _pct(b["games_won_share"]),
            _pct(b["players_won_share"]),
            f"{b['mean_points']:.2f}",
        )
        for b in sorted(bonuses, key=lambda b: -b["games_decided_share"])
    ]
    headers = [
        "Bonus",
        "Decided",
        "Share decided",
        "95 % interval",
        "Games won",
        "Players won",
        "Mean points",
    ]
    return "\n".join(
        [
            "<h2>Bonuses</h2>",
            _figure(figures, "bonuses.svg", "games each bonus decided", BONUSES_CAPTION),
            _table(headers, rows),
        ]
    )


def _mechanics(report: Mapping[str, Any]) -> str:
    mechanics = report["mechanics"]
    out = ["<h2>Stations, tunnels and ferries</h2>"]
    stations, tunnels, ferries = mechanics["stations"], mechanics["tunnels"], mechanics["ferries"]
    if stations is None and tunnels is None and ferries is None:
        out.append("<p>The edition has no stations, tunnels or ferries.</p>")
    if stations is not None:
        out.append(
            f"<p>Stations: {stations['built']} built, {stations['mean_built_per_player']:.2f} "
            f"per player of the {stations['per_player']} each has; games with a station: "
            f"{stations['games_with_a_station']}; stations that lent a track at scoring: "
            f"{stations['borrowing_a_track']}.</p>"
        )
    if tunnels is not None:
        out.append(
            f"<p>Tunnels ({tunnels['tracks']} tracks): {tunnels['attempts']} claims begun, "
            f"{tunnels['withdrawn']} withdrawn, {tunnels['mean_extra_cards']:.2f} extra cards "
            f"demanded on average; each tunnel track was claimed in "
            f"{_pct(tunnels['claim_rate'])} of the games.</p>"
        )
    if ferries is not None:
        out.append(
            f"<p>Ferries ({ferries['tracks']} tracks): each was claimed in "
            f"{_pct(ferries['claim_rate'])} of the games.</p>"
        )
    return "\n".join(out)


FAILURE_STATES = (
    ("no_legal_move", "a player had no legal move and passed (PASS-1)"),
    ("deadlock", "the game ended after a full round of passes (PASS-2)"),
    ("deck_exhausted", "the train deck and the discard pile were empty together (DECK-3)"),
    ("flush_limit", "the flush limit was reached and the locomotives stayed (FLUSH-3)"),
)
"""The failure states of the report, with what each means."""


def _failures(report: Mapping[str, Any]) -> str:
    states = report["failure_states"]
    rows = [
        (
            what,
            states[key]["games"],
            _pct(states[key]["share"]),
            ", ".join(str(g["seed"]) for g in states[key]["examples"]) or "–",
        )
        for key, what in FAILURE_STATES
    ]
    edition, players = report["study"]["edition"], report["study"]["players"]
    seats = "PLAYERS" if players is None else str(players)
    where = (
        "PLAYERS and BOTS being the number and the bots of the example's seats"
        if players is None
        else "BOTS being the example's bots in seat order"
    )
    return "\n".join(
        [
            "<h2>Failure states</h2>",
            _table(["Games in which", "Games", "Share", "Example seeds"], rows),
            f"<p>Display flushes: {states['flushes']}; reshuffles of the discard pile: "
            f"{states['reshuffles']}.</p>",
            '<p class="note">An example game replays with <code>ttr simulate --edition '
            f"{_e(edition)} --players {seats} --games 1 --seed SEED --bots BOTS</code>, "
            f"{where} (in <code>report.json</code>).</p>",
        ]
    )
