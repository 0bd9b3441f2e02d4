"""The public plugin API, ``ttr_core.plugin``: the player network, the scoring context and
the ticket result, all in map ids; and the built-in and example plugins using nothing else.

The network is checked on a letter board with a station that borrows an opponent's track,
so that own and borrowed tracks differ; the context is observed from inside both scoring
hooks by a spy plugin.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest
import ttr_india

import ttr_core
from ttr_core import Ruleset
from ttr_core.model import mapdata
from ttr_core.model.errors import MapDataError
from ttr_core.plugin import (
    PlayerNetwork,
    ScoringContext,
    Ticket,
    TicketResult,
    hookimpl,
)
from ttr_core.rules import network, scoring
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position, score_position, scoring_context
from ttr_core.ruleset import editions as edition
from ttr_core.ruleset import hookspecs
from ttr_core.testing.scenarios import FixtureEdition, map_dict

ROOT = Path(__file__).resolve().parents[2]

PLUGIN_FILES = (
    *sorted((ROOT / "editions").glob("ttr_*/__init__.py")),
    ROOT / "examples" / "ttr-example-edition" / "ttr_example_edition" / "plugin.py",
    ROOT / "tests" / "fictional" / "ttr_fictional" / "__init__.py",
    ROOT / "ttr_core" / "ruleset" / "core_plugin.py",
)
"""The plugins written against the public API: the core's own, the built-in editions, the
example edition and the testing kit's fictional edition."""

INTERNALS = ("route_a", "route_b", "city_index", "ticket_index", "city_country")

STATION_PARAMETERS: dict[str, Any] = {
    "stations": 3,
    "station_cost": [1, 2, 3],
    "unbuilt_station_points": 4,
}

# Red owns A-B and A-C and has a station at C that borrows Blue's B-C: a triangle of which
# one side is borrowed. Red also owns the bridge C-D; E is nobody's.
BOARD = (
    ("A", "B", 2, "red"),
    ("A", "C", 2, "blue"),
    ("B", "C", 3, "green"),
    ("C", "D", 1, "gray"),
    ("D", "E", 1, "gray"),
)
TICKETS = (("B", "C", 4), ("A", "D", 6), ("A", "E", 7), ("B", "D", 5))


def index(rs: Ruleset, a: str, b: str) -> int:
    (r,) = [r for r, t in enumerate(index_of(rs).routes) if set(t.cities) == {a, b}]
    return r


@pytest.fixture(scope="module")
def board() -> Ruleset:
    raw = map_dict(BOARD, TICKETS, **copy.deepcopy(STATION_PARAMETERS))
    return Ruleset(FixtureEdition(mapdata.structure_map(raw)))


def red_position(rs: Ruleset) -> Position:
    red = PlayerPosition(
        name="Red",
        routes=(index(rs, "A", "B"), index(rs, "A", "C"), index(rs, "C", "D")),
        tickets=(0, 1, 2),
        stations=(index_of(rs).city_index["C"],),
    )
    blue = PlayerPosition(name="Blue", routes=(index(rs, "B", "C"),), tickets=(3,))
    return Position(players=(red, blue))


@pytest.fixture(scope="module")
def context(board: Ruleset) -> ScoringContext:
    return scoring_context(board, red_position(board))


# -- the module -----------------------------------------------------------------------------


def test_plugin_module_exports_the_plugin_surface() -> None:
    """Everything a plugin imports is in ``ttr_core.plugin``, as the very objects the
    library uses."""
    import ttr_core.plugin as api

    assert sorted(api.__all__) == api.__all__
    expected = {
        "hookimpl": hookspecs.hookimpl,
        "EditionInfo": edition.EditionInfo,
        "OptionSpec": edition.OptionSpec,
        "load_packaged_map": edition.load_packaged_map,
        "packaged_edition": edition.packaged_edition,
        "PackagedEdition": edition.PackagedEdition,
        "evolve": attrs.evolve,
        "MapData": mapdata.MapData,
        "Parameters": mapdata.Parameters,
        "Ticket": mapdata.Ticket,
        "Track": mapdata.Track,
        "City": mapdata.City,
        "TicketDeal": mapdata.TicketDeal,
        "PlayerNetwork": network.PlayerNetwork,
        "ScoringContext": scoring.ScoringContext,
        "TicketResult": scoring.TicketResult,
    }
    assert set(api.__all__) == set(expected)
    for name, obj in expected.items():
        assert getattr(api, name) is obj, name
    assert ttr_core.hookimpl is api.hookimpl


@pytest.mark.parametrize("path", PLUGIN_FILES, ids=lambda p: p.parent.name + "/" + p.name)
def test_plugins_use_only_the_public_module(path: Path) -> None:
    """No plugin reads the ruleset's index tables, and every import from ``ttr_core`` is
    from ``ttr_core.plugin``."""
    text = path.read_text(encoding="utf-8")
    for name in INTERNALS:
        assert name not in text, f"{path.name} reads the ruleset's {name}"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ttr_core"):
            assert node.module == "ttr_core.plugin", f"{path}: imports from {node.module}"
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("ttr_core") for a in node.names), path
    assert "ttr_core.plugin" in text


# -- the player network -------------------------------------------------------------------------


def test_network_routes_own_and_borrowed(context: ScoringContext) -> None:
    """A network lists its tracks as map tracks (city pairs), own then borrowed; ``own``
    is the network without the borrowed ones."""
    red = context.networks[0]
    assert red.seat == 0
    assert [t.cities for t in red.own_routes] == [("A", "B"), ("A", "C"), ("C", "D")]
    assert [t.cities for t in red.borrowed_routes] == [("B", "C")]
    assert [t.cities for t in red.routes] == [("A", "B"), ("A", "C"), ("C", "D"), ("B", "C")]
    assert red.cities == {"A", "B", "C", "D"}
    own = red.own
    assert own.routes == red.own_routes == context.own_networks[0].routes
    assert own.borrowed_routes == () and own.own is own
    blue = context.networks[1]
    assert blue is context.own_networks[1] and blue.own is blue
    assert "borrowed=[]" in repr(blue) and "seat=1" in repr(blue)


def test_network_connected_and_reaches(context: ScoringContext) -> None:
    """``connected`` and ``reaches`` answer on every track of the network, borrowed too."""
    red = context.networks[0]
    assert red.connected("B", "D") and red.connected("D", "A")
    assert not red.connected("A", "E")
    assert red.connected("E", "E")
    assert red.reaches("A", ["E", "D"])
    assert not red.reaches("A", ["E"])
    assert not red.reaches("A", [])
    assert not context.networks[1].connected("A", "B")


def test_network_two_edge_connected_and_bridges(context: ScoringContext) -> None:
    """The triangle A-B-C is 2-edge-connected only with the borrowed side; C-D is a bridge
    in both; a city is 2-edge-connected to itself."""
    red = context.networks[0]
    assert red.two_edge_connected("A", "B") and red.two_edge_connected("B", "C")
    assert not red.two_edge_connected("A", "D")
    assert [t.cities for t in red.bridges()] == [("C", "D")]
    own = red.own
    assert not own.two_edge_connected("A", "B")
    assert [t.cities for t in own.bridges()] == [("A", "B"), ("A", "C"), ("C", "D")]
    assert own.two_edge_connected("E", "E")


def test_network_longest_path_own_and_borrowed(context: ScoringContext) -> None:
    """PATH-3 / STATION-10: the score's longest path is on own tracks (D-C-A-B, 5); with
    the borrowed B-C the network's own answer would be 8."""
    red = context.networks[0]
    assert red.own.longest_path() == 5 == context.longest_paths[0]
    assert red.longest_path() == 1 + 2 + 2 + 3
    assert context.own_networks[1].longest_path() == 3


def test_grand_tour_counts_own_routes_only(context: ScoringContext) -> None:
    """GRAND-1: a ticket completed through a borrowed track, whose cities are
    2-edge-connected only with it, does not qualify for India's Grand Tour."""
    red = context.networks[0]
    ticket, result = context.tickets[0][0], context.ticket_results[0][0]
    assert (ticket.a, ticket.b, result.completed) == ("B", "C", True)
    assert red.two_edge_connected("B", "C")
    assert not ttr_india.qualifies(ticket, result, red)


def test_network_unknown_city_is_a_map_data_error(context: ScoringContext) -> None:
    """A city the map does not have raises ``MapDataError`` naming it and the edition."""
    red = context.networks[0]
    with pytest.raises(MapDataError, match="no city 'Nowhere' on the map of edition 'fixture'"):
        red.connected("A", "Nowhere")
    with pytest.raises(MapDataError, match="no city 'Z'"):
        red.reaches("A", ["B", "Z"])
    with pytest.raises(MapDataError, match="no city 'Z'"):
        red.two_edge_connected("Z", "A")


def test_network_accepts_aliases() -> None:
    """A city may be named by an alias of the map: Europe's København is Kobenhavn."""
    europe = Ruleset.build("europe")
    r = next(
        r for r, t in enumerate(index_of(europe).routes) if set(t.cities) == {"Essen", "Kobenhavn"}
    )
    net = PlayerNetwork(europe, 0, [r])
    assert net.connected("København", "Essen") and net.connected("Kobenhavn", "Essen")
    assert net.cities == {"Essen", "Kobenhavn"}


# -- the scoring context and ticket results -------------------------------------------------------


class Spy:
    """A plugin that records what the scoring hooks see and returns nothing."""

    def __init__(self) -> None:
        self.in_tickets: list[dict[str, Any]] = []
        self.in_bonuses: list[ScoringContext] = []

    @hookimpl
    def ttr_ticket_result(
        self, ticket: Ticket, network: PlayerNetwork, context: ScoringContext
    ) -> TicketResult | None:
        self.in_tickets.append(
            {
                "complete": context.complete,
                "networks": context.networks,
                "results": context.ticket_results,
                "paths": context.longest_paths,
                "own": len(context.own_networks),
                "tickets": [[t.id for t in held] for held in context.tickets],
                "stations": context.stations,
                "names": context.names,
                "seat": network.seat,
            }
        )
        return None

    @hookimpl
    def ttr_final_bonuses(self, context: ScoringContext) -> Mapping[str, Sequence[int]]:
        self.in_bonuses.append(context)
        return {}


def test_context_parts_ready_for_ttr_ticket_result(board: Ruleset) -> None:
    """While tickets are scored the context is not complete: networks and ticket results
    are empty; the position's parts (names, tickets, stations, own networks, longest
    paths) and the rules are ready."""
    spy = Spy()
    rs = Ruleset(FixtureEdition(board.map), plugins=[spy])
    score_position(rs, red_position(rs))
    assert spy.in_tickets
    for seen in spy.in_tickets:
        assert seen["complete"] is False
        assert seen["networks"] == () and seen["results"] == ()
        assert seen["paths"] == (5, 3) and seen["own"] == 2
        assert seen["tickets"] == [[1, 2, 3], [4]]
        assert seen["stations"] == (("C",), ())
        assert seen["names"] == ("Red", "Blue")
    # Red's station at C can borrow only Blue's B-C: one network for Red's 3 tickets,
    # then Blue's ticket.
    assert [s["seat"] for s in spy.in_tickets] == [0, 0, 0, 1]


def test_context_complete_and_read_only_for_ttr_final_bonuses(board: Ruleset) -> None:
    """``ttr_final_bonuses`` sees the complete context; nothing in it can be changed."""
    spy = Spy()
    rs = Ruleset(FixtureEdition(board.map), plugins=[spy])
    score_position(rs, red_position(rs))
    (ctx,) = spy.in_bonuses
    assert ctx.complete
    assert ctx.edition == "fixture"
    assert ctx.parameters is rs.params and ctx.map is rs.map
    assert ctx.options == {"longest_path_at_zero": False, "tie_break": "rules"}
    assert [len(n.routes) for n in ctx.networks] == [4, 1]
    assert [[r.ticket for r in results] for results in ctx.ticket_results] == [[1, 2, 3], [4]]
    with pytest.raises(AttributeError):
        ctx.networks = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        ctx.anything = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        ctx.options["tie_break"] = "auxiliary"  # type: ignore[index]
    with pytest.raises(AttributeError):
        ctx.networks[0].seat_count = 2  # type: ignore[attr-defined]


def test_ticket_results_name_tickets_by_id(board: Ruleset) -> None:
    """TICKET-6 / TICKET-7: ticket results carry the ticket's map id (here 1 to 4, while
    the tickets' positions in the map are 0 to 3)."""
    sheet = score_position(board, red_position(board))
    red, blue = sheet.players
    assert [(t.ticket, t.points, t.completed) for t in red.tickets] == [
        (1, 4, True),
        (2, 6, True),
        (3, -7, False),
    ]
    assert [(t.ticket, t.points, t.completed) for t in blue.tickets] == [(4, -5, False)]


class WrongId:
    """A house rule whose ticket results name a ticket that is not the one scored."""

    @hookimpl
    def ttr_ticket_result(self, ticket: Ticket) -> TicketResult:
        return TicketResult(ticket=999, points=1, completed=True)


def test_ticket_result_is_given_the_id_of_the_ticket_scored(board: Ruleset) -> None:
    """A result is always recorded for the ticket being scored, whatever id it names."""
    rs = Ruleset(FixtureEdition(board.map), plugins=[WrongId()])
    sheet = score_position(rs, red_position(rs))
    assert [[t.ticket for t in p.tickets] for p in sheet.players] == [[1, 2, 3], [4]]
    assert [p.ticket_points for p in sheet.players] == [3, 1]


def test_scoring_context_is_what_the_bonuses_see(board: Ruleset) -> None:
    """``scoring_context`` gives the same complete context as final scoring, without the
    bonuses: the same ticket results as the score sheet."""
    pos = red_position(board)
    ctx = scoring_context(board, pos)
    sheet = score_position(board, pos)
    assert ctx.complete
    assert [list(r) for r in ctx.ticket_results] == [list(p.tickets) for p in sheet.players]
    assert list(ctx.longest_paths) == [p.longest_path for p in sheet.players]


# -- the examples of the hooks reference ----------------------------------------------------

HOOKS_PAGE = ROOT / "docs" / "reference" / "hooks.md"


def hooks_examples() -> list[str]:
    """The python blocks of the hooks reference that are more than a signature."""
    text = HOOKS_PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", text, re.M | re.S)
    return [b for b in blocks if not re.search(r"^def .*\)( -> .*)?\n\Z", b, re.M)]


def example_plugin(marker: str) -> ModuleType:
    """The hooks reference's example containing ``marker``, run as a plugin module."""
    (block,) = [b for b in hooks_examples() if marker in b]
    plugin = ModuleType("hooks_example")
    exec(compile(block, "hooks.md", "exec"), plugin.__dict__)
    return plugin


def test_hooks_examples_are_found() -> None:
    """The reference shows four runnable examples besides the signatures."""
    assert len(hooks_examples()) == 4


def test_hooks_example_packaged_edition_is_the_example_edition() -> None:
    """The one-statement edition of the reference is the example edition's identity and map."""
    documented = Ruleset(example_plugin("packaged_edition"))
    example = Ruleset.build("example")
    assert documented.info == example.info
    assert documented.map == edition.load_packaged_map("ttr_example_edition", "example.json")
    assert documented.map.routes == example.map.routes


def test_hooks_example_country_tickets_score_like_the_test_edition(borderland: Ruleset) -> None:
    """The country-ticket example scores Borderland's country tickets (from a city and
    from a country) exactly as the test edition's own plugin does."""
    own = borderland
    documented = Ruleset(FixtureEdition(own.map), plugins=[example_plugin("arrows")])
    countries = [i for i, t in enumerate(own.map.tickets) if t.targets is not None]
    assert {own.map.tickets[i].a for i in countries} >= {"Gamma", "Nordland"}
    for seed in range(12):
        routes = tuple(r for r in range(len(own.map.routes)) if (r * 7 + seed) % 3)
        pos = Position(players=(PlayerPosition(name="A", routes=routes, tickets=tuple(countries)),))
        assert score_position(documented, pos).players == score_position(own, pos).players


def test_hooks_example_grand_tour_is_india_s() -> None:
    """The Grand Tour example gives the India plugin's points on the real position: Asha's
    4 qualifying tickets score 30, Bharat's figure eight at Calcutta 5, Chandra's two figure
    eights at Bombay 10; the tickets cut by a bridge add nothing."""
    from ttr_core.formats.position import read_position

    text = (ROOT / "examples" / "positions" / "india.json").read_text(encoding="utf-8")
    rs, pos = read_position(text)
    ctx = scoring_context(rs, pos)
    plugin = example_plugin("grand_tour")
    assert plugin.ttr_final_bonuses(context=ctx) == ttr_india.ttr_final_bonuses(context=ctx)
    assert plugin.ttr_final_bonuses(context=ctx) == {"grand_tour": [30, 5, 10]}


def test_hooks_example_network_prints_what_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    """The network example prints, line by line, what its comments say."""
    (block,) = [b for b in hooks_examples() if "print(" in b]
    exec(compile(block, "hooks.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    expected = re.findall(r"^print\(.*\)  # (.*)$", block, re.M)
    assert printed == expected and len(expected) == 7
