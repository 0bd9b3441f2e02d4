"""What the ``ttr`` commands print: every track, ticket and bonus of a map, the score
tables, the sample positions with totals worked out by hand, and whole lines in a pipe."""

from __future__ import annotations

import inspect
import io
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest
import ttr_india
import ttr_nordic
from attrs import evolve
from rich.table import Table

from ttr_core import Ruleset, hookimpl
from ttr_core.cli import main
from ttr_core.cli._common import PIPE_WIDTH, console, counted
from ttr_core.cli.map import edition_bonuses
from ttr_core.formats.position import read_position
from ttr_core.model.mapdata import MapData
from ttr_core.play.game import Game
from ttr_core.plugin import PlayerNetwork, Ticket, TicketResult
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import ScoringContext, score_position, scoring_context
from ttr_core.ruleset import editions as edition
from ttr_core.ruleset.editions import EditionInfo, InstalledEdition, describe_editions
from ttr_core.testing.scenarios import FixtureEdition

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = ROOT / "examples" / "positions"
BUILTIN = sorted(e["id"] for e in describe_editions() if e["builtin"])


def ttr(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``ttr`` in-process, check that it succeeds quietly, return its output."""
    assert main(list(args)) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def rows(text: str, width: int) -> set[tuple[str, ...]]:
    """The rows of ``width`` cells of every table in ``text``."""
    found = set()
    for line in text.splitlines():
        if line.startswith("│"):
            cells = tuple(cell.strip() for cell in line.strip("│").split("│"))
            if len(cells) == width:
                found.add(cells)
    return found


# -- counts ------------------------------------------------------------------------------


def test_counted_says_one_or_many() -> None:
    assert counted(1, "double route") == "1 double route"
    assert counted(2, "double route") == "2 double routes"
    assert counted(0, "double route") == "0 double routes"
    assert counted(1, "ferry", "ferries") == "1 ferry"
    assert counted(3, "ferry", "ferries") == "3 ferries"


# -- ttr map: every track and every ticket -------------------------------------------------


@pytest.mark.parametrize("name", BUILTIN)
def test_map_lists_every_track_and_ticket(capsys: pytest.CaptureFixture[str], name: str) -> None:
    rs = Ruleset.build(name)
    out = ttr(capsys, "map", name)
    tracks = {cells[:6] for cells in rows(out, 7)}
    for r, t in enumerate(index_of(rs).routes):
        a, b = t.cities
        points = str(index_of(rs).route_points[r])
        assert (str(t.id), a, b, str(t.length), points, t.color) in tracks, t
    assert f"{len(index_of(rs).routes)} tracks" in out
    tickets = rows(out, 5)
    for tk in index_of(rs).tickets:
        if tk.targets is None:
            assert (str(tk.id), tk.a, tk.b, str(tk.points), tk.kind) in tickets, tk
        else:
            targets = " / ".join(tk.targets)
            values = " / ".join(str(v) for v in tk.targets.values())
            assert (str(tk.id), tk.a, targets, values, "country") in tickets, tk
    assert f"{len(index_of(rs).tickets)} tickets" in out


@pytest.mark.parametrize(
    ("name", "row"),
    [
        ("usa", ("1", "Atlanta", "Charleston", "2", "2", "gray", "")),
        ("usa", ("4", "Atlanta", "New Orleans", "4", "7", "yellow", "double (track 5)")),
        ("europe", ("8", "Erzurum", "Sochi", "3", "4", "red", "tunnel")),
        ("europe", ("67", "Amsterdam", "London", "2", "2", "gray", "ferry (2 locomotive symbols)")),
        (
            "europe",
            (
                "65",
                "Dieppe",
                "London",
                "2",
                "2",
                "gray",
                "double (track 66), ferry (1 locomotive symbol)",
            ),
        ),
        ("europe", ("51", "Madrid", "Pamplona", "3", "4", "black", "double (track 64), tunnel")),
        ("nordic", ("53", "Lieksa", "Murmansk", "9", "27", "gray", "groups of 4 cards")),
        (
            "nordic",
            (
                "6",
                "Åndalsnes",
                "Bergen",
                "5",
                "10",
                "black",
                "ferry (2 locomotive symbols), groups of 3 cards",
            ),
        ),
        (
            "nordic",
            (
                "23",
                "Helsinki",
                "Stockholm",
                "4",
                "7",
                "gray",
                "double (track 24), ferry (2 locomotive symbols), groups of 3 cards",
            ),
        ),
    ],
)
def test_map_names_the_kind_of_each_track(
    capsys: pytest.CaptureFixture[str], name: str, row: tuple[str, ...]
) -> None:
    assert row in rows(ttr(capsys, "map", name), 7)


def test_map_marks_the_long_tickets_of_europe(capsys: pytest.CaptureFixture[str]) -> None:
    tickets = rows(ttr(capsys, "map", "europe"), 5)
    long = {cells for cells in tickets if cells[4] == "long"}
    assert ("41", "Brest", "Petrograd", "20", "long") in long
    assert len(long) == 6
    assert ("1", "Amsterdam", "Pamplona", "7", "regular") in tickets


def test_map_says_counts_in_the_right_number(capsys: pytest.CaptureFixture[str]) -> None:
    out = ttr(capsys, "map", "europe")
    for text in (
        "101 between 90 city pairs, 11 double routes",
        "18 tunnels, 13 ferries (17 locomotive symbols)",
        "3 (cost 1, 2, 3 cards)",
        "14 locomotives",
        "4 players",
        "10 points (european_express)",
    ):
        assert text in out


# -- ttr map: bonuses and rules of an edition's own plugins --------------------------------


@pytest.mark.parametrize(
    ("name", "bonuses"),
    [
        ("usa", [("longest_path", "10 points to every player with the longest continuous path")]),
        (
            "europe",
            [
                (
                    "european_express",
                    "10 points to every player with the longest continuous path",
                ),
                ("unbuilt_stations", "4 points per station a player did not build"),
            ],
        ),
        (
            "nordic",
            [
                (
                    "globetrotter",
                    "The Globetrotter: 10 points to every player with the most completed tickets.",
                )
            ],
        ),
    ],
)
def test_map_shows_each_bonus_by_name_with_its_description(
    capsys: pytest.CaptureFixture[str], name: str, bonuses: list[tuple[str, str]]
) -> None:
    out = ttr(capsys, "map", name)
    assert f"Bonuses ({len(bonuses)})" in out
    assert set(bonuses) <= rows(out, 2)
    assert edition_bonuses(Ruleset.build(name)) == bonuses


def test_a_plugin_bonus_is_described_by_its_docstring() -> None:
    doc = inspect.getdoc(ttr_nordic.ttr_final_bonuses) or ""
    first = " ".join(doc.split("\n\n")[0].split())
    assert ("globetrotter", first) in edition_bonuses(Ruleset.build("nordic"))


def test_the_longest_path_at_zero_option_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    out = ttr(capsys, "map", "usa", "--option", "longest_path_at_zero=true")
    assert (
        "longest_path",
        "10 points to every player with the longest continuous path (even of length 0)",
    ) in rows(out, 2)


class Frontier(FixtureEdition):
    """Borderland with a bonus and a ticket rule of its own."""

    def __init__(self, data: MapData) -> None:
        super().__init__(data, "borderland", aliases=("bl",), name="Borderland")

    @hookimpl
    def ttr_ticket_result(
        self, ticket: Ticket, network: PlayerNetwork, context: ScoringContext
    ) -> TicketResult | None:
        """Frontier tickets: a completed ticket to a border arrow scores 1 point more.

        Only the first paragraph is shown by ``ttr map``.
        """
        if ticket.b is None or ticket.b not in self.arrows(context):
            return None
        done = network.connected(ticket.a, ticket.b)
        points = ticket.points or 0
        return TicketResult(ticket.id, points + 1 if done else -points, done)

    @staticmethod
    def arrows(context: ScoringContext) -> set[str]:
        """The map's border arrows."""
        return {city.id for city in context.map.cities if city.country}

    @hookimpl
    def ttr_final_bonuses(self, context: ScoringContext) -> Mapping[str, Sequence[int]]:
        """Frontier bonus: 3 points to every player with a track to a border arrow.

        Only the first paragraph is shown by ``ttr map``.
        """
        arrows = self.arrows(context)
        return {
            "frontier": [3 if network.cities & arrows else 0 for network in context.own_networks]
        }


class OneDouble(FixtureEdition):
    """Borderland with a single double route (Alpha-Beta)."""

    def __init__(self, data: MapData) -> None:
        routes = tuple(
            t if t.id in (1, 2) else evolve(t, parallel=None)
            for t in data.routes
            if t.id not in (4, 6)
        )
        super().__init__(evolve(data, routes=routes), "borderland", ("bl",), "Borderland")


def install(monkeypatch: pytest.MonkeyPatch, plugin: object) -> None:
    """Make ``plugin`` findable as the installed edition ``borderland``."""
    found = dict(edition.installed_editions())
    found["borderland"] = InstalledEdition(
        info=EditionInfo(id="borderland", name="Borderland", aliases=("bl",)),
        plugin=plugin,
        distribution="tests",
        builtin=False,
        players=(2, 4),
    )
    monkeypatch.setattr(edition, "installed_editions", lambda refresh=False: found)


def test_map_shows_what_the_edition_plugins_add(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, borderland_map: MapData
) -> None:
    install(monkeypatch, Frontier(borderland_map))
    out = ttr(capsys, "map", "borderland")
    summary = rows(out, 2)
    assert (
        "Ticket scoring",
        "Frontier tickets: a completed ticket to a border arrow scores 1 point more.",
    ) in summary
    assert (
        "frontier",
        "Frontier bonus: 3 points to every player with a track to a border arrow.",
    ) in summary
    assert ("unbuilt_stations", "4 points per station a player did not build") in summary
    assert "Only the first paragraph" not in out
    assert ("6", "Gamma", "Nordland / Sudland", "4 / 6", "country") in rows(out, 5)
    for text in ("8 (3 border arrows)", "2 tunnels, 1 ferry (1 locomotive symbol)"):
        assert text in out
    assert "3 double routes" in out and "(cost 1, 2 cards)" in out


def test_one_double_route_is_singular(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, borderland_map: MapData
) -> None:
    install(monkeypatch, OneDouble(borderland_map))
    out = ttr(capsys, "map", "borderland")
    assert "13 between 12 city pairs, 1 double route" in out
    assert "1 double routes" not in out


class Faulty:
    """A house rule whose bonus cannot score an end position where nobody holds anything."""

    @hookimpl
    def ttr_final_bonuses(self, context: ScoringContext) -> Mapping[str, Sequence[int]]:
        """Faulty bonus: 1 point for the first route of each player."""
        raise IndexError("no routes")


class Undocumented:
    """A house rule whose bonus has no docstring."""

    @hookimpl
    def ttr_final_bonuses(self, context: ScoringContext) -> Mapping[str, Sequence[int]]:
        return {"mystery": [0 for _ in context.names]}


def test_bonuses_of_plugins_that_fail_or_have_no_docstring_are_still_listed() -> None:
    rs = Ruleset.build("usa", plugins=[Faulty(), Undocumented()])
    assert edition_bonuses(rs)[1:] == [
        ("(named at scoring)", "Faulty bonus: 1 point for the first route of each player."),
        ("mystery", "(no description)"),
    ]


def test_map_json_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(ttr(capsys, "map", "nordic", "--json"))
    assert set(data) == {"edition", "name", "cities", "routes", "tickets", "parameters"} | {
        "format",
        "source",
        "countries",
    }


# -- ttr score: help, formats -------------------------------------------------------------


def test_score_help_describes_the_input_and_names_the_docs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    lines = [line.strip() for line in text.splitlines()]
    for key in ("edition", "players", "name", "routes", "tickets", "stations"):
        assert any(line.startswith(f"{key} ") for line in lines), key
    assert "docs/how-to/score-a-position.md" in text
    assert "examples/positions/" in text
    assert "--format {json,table}" in text
    assert "ttr_core" not in text and "module" not in text


def test_score_json_is_the_default_and_can_be_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(POSITIONS / "usa.json")
    default = ttr(capsys, "score", path)
    assert ttr(capsys, "score", path, "--format", "json") == default
    assert json.loads(default)["winners"] == ["Ann"]


def test_score_table(capsys: pytest.CaptureFixture[str]) -> None:
    out = ttr(capsys, "score", str(POSITIONS / "europe.json"), "--format", "table")
    header = ("Player", "Routes", "Tickets", "european_express", "unbuilt_stations", "Total")
    assert (*header, "Winner") in rows(out.replace("┃", "│"), 7)
    assert {
        ("Ann", "51", "36", "0", "8", "95", ""),
        ("Bob", "56", "45", "0", "8", "109", "yes"),
        ("Cy", "54", "15", "10", "8", "87", ""),
    } <= rows(out, 7)
    assert "winner: Bob" in out
    tickets = rows(out, 4)
    assert ("Bob", "Brest - Petrograd", "completed", "20") in tickets
    assert ("Cy", "Kobenhavn - Erzurum", "failed", "-21") in tickets
    assert ("Cy", "4 of 5 tickets completed", "", "15") in tickets
    stations = rows(out, 3)
    assert ("Ann", "Brest", "Brest - Paris") in stations
    assert ("Bob", "Petrograd", "Moskva - Petrograd") in stations


def test_score_table_of_a_shared_win(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    position = {
        "edition": "usa",
        "players": [
            {"name": "Ann", "routes": [{"a": "Denver", "b": "Omaha"}], "tickets": []},
            {"name": "Bob", "routes": [{"a": "Chicago", "b": "Omaha"}], "tickets": []},
        ],
    }
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(position).encode("utf-8")))
    monkeypatch.setattr(sys, "stdin", stdin)
    out = ttr(capsys, "score", "-", "--format", "table")
    assert "shared win: Ann, Bob" in out
    assert {("Ann", "7", "0", "10", "17", "yes"), ("Bob", "7", "0", "10", "17", "yes")} <= rows(
        out, 6
    )
    assert ("Ann", "0 of 0 tickets completed", "", "0") in rows(out, 4)


def test_score_with_an_unknown_format_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["score", str(POSITIONS / "usa.json"), "--format", "xml"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("ttr: error: argument --format: invalid choice: 'xml'")


# -- the sample positions ------------------------------------------------------------------

# Worked out by hand from the maps (route points 1, 2, 4, 7, 10, 15 for lengths 1 to 6;
# 21 for 8 in Europe, 27 for 9 in Nordic Countries; India: 1, 2, 4, 7, 15, 21 for lengths
# 1, 2, 3, 4, 6, 8). Per player:
# (route points, ticket points, tickets completed, longest path, bonuses, total).
SAMPLES: dict[str, tuple[dict[str, tuple[int, int, int, int, dict[str, int], int]], list[str]]] = {
    "usa": (
        {
            # 1+1+10+4+4+4+2+4+4+7+2+7+1+2+4+4; 9+11+13+4-8 (Duluth-Houston failed);
            # path Vancouver..Santa Fe (16) then El Paso..Nashville (15).
            "Ann": (61, 29, 4, 31, {"longest_path": 0}, 90),
            # 7+2+7+1+2+2+2+1+2+7+4+2+2+2; 12+6-7 (Chicago-New Orleans failed);
            # path Miami..Chicago (11) then Omaha..Winnipeg (10).
            "Bob": (43, 11, 2, 21, {"longest_path": 0}, 54),
            # 7+15+15+2+4+2+4+2+2+2+7; 22+13-20 (Vancouver-Montréal failed);
            # path Seattle..Montréal (21) then New York..New Orleans (13): the longest.
            "Cy": (62, 15, 2, 34, {"longest_path": 10}, 87),
        },
        ["Ann"],
    ),
    "europe": (
        {
            # 7+2+1+4+2+2+2+7+2+7+7+2+4+2; 21+7+8+7-7, Brest-Marseille through the
            # station in Brest on Bob's Brest-Paris; 2 stations unbuilt; path Smyrna..Paris
            # (15) then Marseille..Cadiz (15).
            "Ann": (51, 36, 4, 30, {"european_express": 0, "unbuilt_stations": 8}, 95),
            # 4+4+4+7+4+4+2+2+4+1+4+2+4+2+4+4; 20+12+11+8-6, Brest-Petrograd through the
            # station in Petrograd on Cy's Moskva-Petrograd; path Moskva..Frankfurt (15)
            # then München..Constantinople (14).
            "Bob": (56, 45, 4, 29, {"european_express": 0, "unbuilt_stations": 8}, 109),
            # 7+7+4+2+7+7+2+2+4+4+2+4+2; -21+8+10+10+8, Smolensk-Rostov through the station
            # in Smolensk on Bob's Moskva-Smolensk; path Moskva..Sochi (25) then
            # Erzurum..Bucuresti (11): the longest.
            "Cy": (54, 15, 4, 36, {"european_express": 10, "unbuilt_stations": 8}, 87),
        },
        ["Bob"],
    ),
    "nordic": (
        {
            # 1+4+1+27+4+2+2+1+4+2+1+2+7+2+2; 13-12+8-3+6+7; 4 completed, tied for the most;
            # path Honningsvåg..Kuopio (15), Kuopio..Helsinki (4), Helsinki..Oslo (8).
            "Ann": (62, 19, 4, 27, {"globetrotter": 10}, 91),
            # 7+4+4+4+1+4+7+7+10+1+1+2+2+1; 17+7+11-16; path Honningsvåg..Narvik (7),
            # then once round the 23-train loop through Sundsvall and Trondheim.
            "Bob": (55, 19, 3, 30, {"globetrotter": 0}, 74),
            # 7+2+2+2+1+1+2+2+2+4+2+10+2+4+2+1; 4+8+8+6-21; 4 completed, tied for the most;
            # path: all 36 trains but København..Stockholm (6), leaving Örebro and Bergen
            # as its only odd ends.
            "Cy": (46, 5, 4, 30, {"globetrotter": 10}, 61),
        },
        ["Ann"],
    ),
    "switzerland": (
        {
            # 2+7+4+1+2+1+2+1+2+1+1+1+7+1+1+7+2+10 (38 trains, 2 left); 11+9+7+6+3-10: the
            # Zürich card reaches Deutschland 3, Österreich 7 and Italia 11 and scores the
            # best, Lugano-Chur failed. Path: odd ends Interlaken, Winterthur, St. Gallen,
            # Davos, Brusio and three arrows; 38 - 8 without the spurs to Deutschland 2,
            # Österreich 1 and Italia 2: Interlaken..Davos (19), round Chur and Brusio (11).
            "Ann": (53, 26, 5, 30, {"longest_path": 10}, 89),
            # 1+7+4+1+2+1+2+1+2+2+4+1+15+2+1+2 (34 trains); 5+13+14+9-10: the Frankreich card
            # (the deck's second, id 43) reaches only Deutschland 1, Basel-Brig failed. Path:
            # a tree, France 3..Genève..Basel..Winterthur (30): the longest, shared.
            "Bob": (48, 31, 4, 30, {"longest_path": 10}, 89),
            # 2+1+1+2+7+4+4+2+2+7+7+2+4+7+1+1 (39 trains); 2-12+11+7+5-5: the Lugano card
            # reaches only Italy (2, not France 14 across Italy to Brig), Bern-Lugano fails
            # though both ends reach Italy, the Italien card reaches France 1 by Brig, the
            # Österreich card no arrow (minus its lowest, 5). Path Genève..Brig..Zug (23).
            "Cy": (54, 8, 4, 23, {"longest_path": 0}, 62),
        },
        # Ann and Bob tie on 89 and share the longest path: Ann's 5 completed tickets to
        # Bob's 4 decide.
        ["Ann"],
    ),
    "india": (
        {
            # 2+1+2+2+1+1+4+4+2+2+1+2+1+2+7+1+1+4+2+7 (40 trains); 5+5+7+5+8-5 (Lahore-Delhi
            # failed); Grand Tour 30 for 4 tickets: Katni-Khandwa round a loop, Jaipur-Raipur
            # and Bhatinda-Bilaspur through figure eights at Agra, Jodhpur-Lucknow at Delhi;
            # Katni-Wadi is cut by the bridge Khandwa-Manmad. Path: six odd cities, none two
            # less than 2 spaces apart, so 40 - 4 without Delhi-Jaipur and Bhopal-Khandwa,
            # Wadi..Calcutta (36).
            "Asha": (49, 25, 5, 36, {"india_express": 0, "grand_tour": 30}, 104),
            # 2+2+2+2+4+2+21+4+7+1+2+2+7+2+7 (43 trains, 2 left); 9+5+6-7 (Raipur-Guntakal
            # failed); Grand Tour 5: Patna-Madras through the figure eight at Calcutta,
            # Katni-Waltain and Madras-Quilon cut by bridges. Path: odd cities Katni,
            # Bareilly, Quilon, Waltain; 43 - 6 without Katni-Patna-Bareilly,
            # Quilon..Waltain (37): the longest, shared.
            "Bharat": (67, 13, 3, 37, {"india_express": 10, "grand_tour": 5}, 95),
            # 1+4+4+2+1+4+15+4+4+4+1+1+1+2+1+15; 7+10+12+7-17 (Peshawar-Madras failed);
            # Grand Tour 10: Karachi-Poona and Ahmadabad-Calicut through figure eights at
            # Bombay, Jacobabad-Bombay and Rohri-Mangalore cut by the bridge Rohri-Karachi.
            # Path: six odd cities; 40 - 3 without Bombay-Mormugau (1) and Lahore-Bhatinda
            # (2), Jacobabad..Karachi (37): the longest, shared.
            "Chandra": (64, 19, 4, 37, {"india_express": 10, "grand_tour": 10}, 103),
        },
        # Asha's Grand Tour outweighs the India Express: 104 to Chandra's 103.
        ["Asha"],
    ),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_position_scores_as_worked_out_by_hand(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """SCORE-1, TICKET-6, TICKET-7, PATH-4, STATION-12, GLOBE-1 on the shipped samples."""
    players, winners = SAMPLES[name]
    sheet = json.loads(ttr(capsys, "score", str(POSITIONS / f"{name}.json")))
    assert sheet["edition"] == name
    got = {
        p["name"]: (
            p["route_points"],
            p["ticket_points"],
            p["tickets_completed"],
            p["longest_path"],
            p["bonuses"],
            p["total"],
        )
        for p in sheet["players"]
    }
    assert got == players
    assert sheet["winners"] == winners
    for routes, tickets, _, _, bonuses, total in players.values():
        assert routes + tickets + sum(bonuses.values()) == total


def test_every_builtin_edition_has_a_sample_position() -> None:
    """A new built-in edition ships examples/positions/<id>.json, scored above."""
    assert sorted(SAMPLES) == BUILTIN
    shipped = sorted(p.stem for p in POSITIONS.glob("*.json"))
    assert shipped == BUILTIN
    for name in BUILTIN:
        data = json.loads((POSITIONS / f"{name}.json").read_text(encoding="utf-8"))
        assert data["edition"] == name


@pytest.mark.parametrize("name", BUILTIN)
def test_sample_position_is_a_realistic_end_of_game(name: str) -> None:
    """The game is over (someone has 2 trains or fewer), tickets were both won and lost."""
    rs, position = read_position((POSITIONS / f"{name}.json").read_bytes())
    left = [
        rs.params.trains - sum(index_of(rs).route_len[r] for r in p.routes)
        for p in position.players
    ]
    assert min(left) <= 2
    assert len(position.players) >= 3
    sheet = score_position(rs, position)
    results = [t.completed for p in sheet.players for t in p.tickets]
    assert True in results and False in results
    held = [r for p in position.players for r in p.routes]
    assert any(index_of(rs).route_twin[r] >= 0 for r in held)
    if name in ("europe", "nordic"):
        assert any(index_of(rs).route_tunnel[r] for r in held) and any(
            index_of(rs).route_ferry[r] for r in held
        )
    if name == "europe":
        assert all(p.stations for p in position.players)
        assert (
            sum(index_of(rs).tickets[t].kind == "long" for p in position.players for t in p.tickets)
            == 3
        )
    if name == "nordic":
        assert any(index_of(rs).routes[r].card_groups for r in held)
    if name == "switzerland":
        assert any(index_of(rs).route_tunnel[r] for r in held)
        assert any(index_of(rs).route_twin[r] in held for r in held)  # both tracks, with 3 players
        countries = {city.country for city in rs.map.cities if city.country}
        swiss: set[tuple[str, bool]] = set()
        for t in (t for p in sheet.players for t in p.tickets):
            ticket = index_of(rs).tickets[index_of(rs).ticket_index[t.ticket]]
            kind = "city" if ticket.targets is None else "from a city"
            swiss.add(("from a country" if ticket.a in countries else kind, t.completed))
        assert {("city", True), ("city", False), ("from a city", True)} <= swiss
        assert {("from a country", True), ("from a country", False)} <= swiss
    if name == "india":
        assert any(index_of(rs).route_ferry[r] for r in held)
        ctx = scoring_context(rs, position)
        for seat, player in enumerate(sheet.players):
            kinds = {
                (t.completed, t.ticket in ttr_india.qualifying_tickets(ctx, seat))
                for t in player.tickets
            }
            # Each player has a ticket that qualifies for the Grand Tour, a completed one
            # that a bridge keeps out of it, and a failed one.
            assert kinds == {(True, True), (True, False), (False, False)}


# -- piped output is never cut --------------------------------------------------------------

LONG_NAMES = (
    "Annabelle Fitzgerald-Montgomery of the Great Western Railroad",
    "Bartholomew Hieronymus Vanderbilt-Wellington the Third",
)


@pytest.fixture(scope="module")
def long_named_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """A score position and a finished game record whose players have very long names."""
    folder = tmp_path_factory.mktemp("piped")
    raw = json.loads((POSITIONS / "usa.json").read_text(encoding="utf-8"))
    raw["players"] = raw["players"][:2]
    for player, name in zip(raw["players"], LONG_NAMES, strict=True):
        player["name"] = name
    position = folder / "position.json"
    position.write_text(json.dumps(raw), encoding="utf-8")
    game = Game.new("usa", players=list(LONG_NAMES), seed=2)
    chooser = random.Random(2)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[chooser.randrange(len(legal))])
    record = folder / "game.json"
    record.write_text(game.save(), encoding="utf-8")
    yield position, record


def piped(*args: str) -> str:
    """Run ``ttr`` in a real process whose standard output is a pipe; return that output."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["COLUMNS"] = "40"  # a narrow terminal would cut; a pipe must not care
    done = subprocess.run(
        [sys.executable, "-m", "ttr_core", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout
    return done.stdout


def on_one_line(out: str, *parts: str) -> bool:
    """Whether some line of ``out`` holds every one of ``parts`` whole."""
    return any(all(part in line for part in parts) for line in out.splitlines())


def test_piped_editions_are_whole() -> None:
    out = piped("editions")
    assert on_one_line(out, "europe", "Ticket to Ride Europe", "zug-um-zug-europa", "ttr-engine")
    assert on_one_line(
        out,
        "nordic",
        "Ticket to Ride Nordic Countries",
        "scandinavia, skandinavien, nordic-countries",
    )


def test_piped_map_is_whole() -> None:
    out = piped("map", "nordic")
    assert on_one_line(out, "Train cards", "12 red", "14 locomotives")
    assert on_one_line(out, "Options", "longest_path_at_zero=False", "ferry_group_stacking=True")
    assert on_one_line(
        out, "globetrotter", "10 points to every player with the most completed tickets."
    )
    assert on_one_line(
        out, "Helsinki", "Stockholm", "double (track 24), ferry (2 locomotive symbols), groups"
    )


def test_piped_simulate_is_whole() -> None:
    out = piped("simulate", "--games", "2", "--players", "2", "--bots", "greedy,random")
    assert on_one_line(out, "usa: 2 games, 2 players, seed 1")
    assert on_one_line(out, "greedy", "%") and on_one_line(out, "random", "%")
    assert on_one_line(out, "mean game length:", "turns")


def test_piped_score_table_is_whole(long_named_files: tuple[Path, Path]) -> None:
    position, _ = long_named_files
    out = piped("score", str(position), "--format", "table")
    for name in LONG_NAMES:
        assert on_one_line(out, name, "completed")
    assert on_one_line(out, LONG_NAMES[0], "61", "29")


def test_piped_replay_is_whole(long_named_files: tuple[Path, Path]) -> None:
    _, record = long_named_files
    out = piped("replay", str(record))
    assert on_one_line(out, "a valid usa game record, 2 players")
    for name in LONG_NAMES:
        assert on_one_line(out, name)


def test_piped_odds_are_whole() -> None:
    out = piped("odds", "tunnel", "--pool", "20", "--matching", "5")
    assert on_one_line(out, "Tunnel reveal: 3 of 20 unseen cards, 5 matching")
    assert on_one_line(out, "Extra cards", "Exactly", "At most")


def test_off_a_terminal_a_table_is_as_wide_as_its_title(
    capsys: pytest.CaptureFixture[str],
) -> None:
    title = "A title much wider than the two narrow columns of this table"
    table = Table(title=title, caption="and a caption that is also wider than the columns")
    table.add_column("A")
    table.add_column("B")
    table.add_row("1", "2")
    out = console()
    assert out.width == PIPE_WIDTH
    out.print(table)
    text = capsys.readouterr().out
    assert on_one_line(text, title)
    assert on_one_line(text, "and a caption that is also wider than the columns")


def test_on_a_terminal_tables_fit_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "50")
    assert console().width == 50


def test_the_score_table_in_the_docs_is_what_ttr_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = (ROOT / "docs" / "how-to" / "score-a-position.md").read_text(encoding="utf-8")
    command = "ttr score examples/positions/europe.json --format table"
    after = page.split(f"```bash\n{command}\n```\n\n```text\n", 1)[1]
    shown = after.split("```", 1)[0].splitlines()
    out = ttr(capsys, *command.split()[1:])
    printed = [line.rstrip() for line in out.splitlines()]
    assert printed[: len(shown)] == shown


def test_on_a_narrow_terminal_editions_are_folded_not_cut(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "60")
    out = re.sub(r"\x1b\[[0-9;]*m", "", ttr(capsys, "editions"))  # the terminal's styles
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 60
    cells = [
        [cell.strip() for cell in line.strip("│").split("│")]
        for line in out.splitlines()
        if line.startswith("│")
    ]
    start = next(i for i, row in enumerate(cells) if row[0] == "europe")
    end = next(i for i in range(start + 1, len(cells) + 1) if i == len(cells) or cells[i][0])
    aliases = "".join(row[2] for row in cells[start:end])
    assert aliases.replace(" ", "") == "europa,eu,zug-um-zug-europa"
