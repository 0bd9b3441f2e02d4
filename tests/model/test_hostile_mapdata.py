"""Broken map data: every installed edition's map, broken in many ways, is refused.

Each break must raise ``MapDataError`` naming the path of the offending value, such as
``$.routes[12].cities[1]: unknown city 'Nowhere'``. The edition's own map is not touched
by the attempts, and an edition plugin serving broken data fails the same way.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from ttr_core import EditionInfo, MapData, hookimpl
from ttr_core.model.errors import MapDataError
from ttr_core.model.mapdata import load_map_data, structure_map, unstructure_map
from ttr_core.play.functional import new_game
from ttr_core.ruleset.editions import installed_editions
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing import check_state, ruleset

EDITIONS = sorted(installed_editions())
Raw = dict[str, Any]
Break = Callable[[Raw], object]


def raw_map(edition: str) -> Raw:
    """The edition's map data (default options) in the documented JSON form."""
    raw: Raw = json.loads(json.dumps(unstructure_map(ruleset(edition).map)))
    return raw


def spots(items: list[Any]) -> list[int]:
    """First, middle and last index."""
    return sorted({0, len(items) // 2, len(items) - 1})


def regular(raw: Raw) -> list[int]:
    return [i for i, t in enumerate(raw["tickets"]) if t.get("b") is not None]


def breaks(raw: Raw) -> Iterator[tuple[str, Break, str]]:
    """(name, break, the path and message expected) for one map."""
    routes, tickets, cities = raw["routes"], raw["tickets"], raw["cities"]
    # Unknown cities.
    for i in spots(routes):
        for j in (0, 1):
            yield (
                f"route {i} city {j} unknown",
                lambda r, i=i, j=j: r["routes"][i]["cities"].__setitem__(j, "Nowhere"),
                rf"\$\.routes\[{i}\]\.cities\[{j}\]: unknown city 'Nowhere'",
            )
    for i in [t for t in spots(tickets) if t in regular(raw)] or regular(raw)[:1]:
        for key in ("a", "b"):
            yield (
                f"ticket {i} {key} unknown",
                lambda r, i=i, key=key: r["tickets"][i].__setitem__(key, "Nowhere"),
                rf"\$\.tickets\[{i}\]\.{key}: unknown city 'Nowhere'",
            )
    # Duplicate ids.
    for i in spots(routes)[1:]:
        yield (
            f"route {i} id duplicate",
            lambda r, i=i: r["routes"][i].__setitem__("id", r["routes"][0]["id"]),
            rf"\$\.routes\[{i}\]\.id: duplicate track id {routes[0]['id']}",
        )
    for i in spots(tickets)[1:]:
        yield (
            f"ticket {i} id duplicate",
            lambda r, i=i: r["tickets"][i].__setitem__("id", r["tickets"][0]["id"]),
            rf"\$\.tickets\[{i}\]\.id: duplicate ticket id {tickets[0]['id']}",
        )
    for i in spots(cities)[1:]:
        yield (
            f"city {i} name duplicate",
            lambda r, i=i: r["cities"][i].__setitem__("id", r["cities"][0]["id"]),
            rf"\$\.cities\[{i}\]: name '{re.escape(cities[0]['id'])}' is already used",
        )
    # Bad lengths.
    top = max(int(k) for k in raw["parameters"]["route_points"])
    for i in spots(routes):
        for length in (0, -1, top + 1, 99):
            yield (
                f"route {i} length {length}",
                lambda r, i=i, n=length: r["routes"][i].__setitem__("length", n),
                rf"\$\.routes\[{i}\]\.length: {length} has no entry in parameters\.route_points"
                if length > 0
                else rf"\$\.routes\[{i}\]\.length: a track has at least one space, not {length}",
            )
        for value in ("3", 2.5, True, None, [3]):
            yield (
                f"route {i} length {value!r}",
                lambda r, i=i, v=value: r["routes"][i].__setitem__("length", v),
                rf"\$\.routes\[{i}\]\.length: ",
            )
    # Unknown colours.
    for i in spots(routes):
        for colour in ("purple", "Red", "grey", ""):
            yield (
                f"route {i} colour {colour!r}",
                lambda r, i=i, c=colour: r["routes"][i].__setitem__("color", c),
                rf"\$\.routes\[{i}\]\.color: unknown colour '{colour}'",
            )
        yield (
            f"route {i} colour 3",
            lambda r, i=i: r["routes"][i].__setitem__("color", 3),
            rf"\$\.routes\[{i}\]\.color: ",
        )
    for name in ("purple", "Locomotive", "gray"):
        yield (
            f"train card {name}",
            lambda r, n=name: r["parameters"]["train_cards"].__setitem__(n, 4),
            rf"\$\.parameters\.train_cards: unknown card '{name}'",
        )
    # Other structural breaks.
    i = len(routes) // 2
    yield (
        "parallel unknown",
        lambda r: r["routes"][i].__setitem__("parallel", 10**6),
        rf"\$\.routes\[{i}\]\.parallel: unknown track id 1000000",
    )
    yield (
        "self loop",
        lambda r: r["routes"][i].__setitem__("cities", [cities[0]["id"]] * 2),
        rf"\$\.routes\[{i}\]\.cities: a track cannot join a city to itself",
    )
    yield (
        "ferry longer than track",
        lambda r: r["routes"][i].__setitem__("ferry", routes[i]["length"] + 1),
        rf"\$\.routes\[{i}\]\.ferry: must be between 0 and the length",
    )
    yield ("missing length", lambda r: r["routes"][i].pop("length"), rf"\$\.routes\[{i}\]\.length")
    yield (
        "extra key",
        lambda r: r["routes"][i].__setitem__("speed", 1),
        rf"\$\.routes\[{i}\]: unknown key 'speed'",
    )
    yield (
        "route with one city",
        lambda r: r["routes"][i].__setitem__("cities", [cities[0]["id"]]),
        rf"\$\.routes\[{i}\]\.cities: ",
    )
    j = regular(raw)[0]
    yield (
        "ticket worth nothing",
        lambda r: r["tickets"][j].__setitem__("points", 0),
        rf"\$\.tickets\[{j}\]\.points: must be positive",
    )
    yield (
        "players reversed",
        lambda r: r["parameters"].__setitem__("players", [5, 2]),
        r"\$\.parameters\.players: expected \[min, max\]",
    )
    yield (
        "route points not a number",
        lambda r: r["parameters"]["route_points"].__setitem__("long", 1),
        r"\$\.parameters\.route_points: route length 'long' is not an integer",
    )
    yield ("format 2", lambda r: r.__setitem__("format", 2), r"\$\.format: unsupported map format")
    yield ("cities not a list", lambda r: r.__setitem__("cities", {}), r"\$\.cities")


def cases() -> list[tuple[str, str, Break, str]]:
    return [(e, name, b, p) for e in EDITIONS for name, b, p in breaks(raw_map(e))]


CASES = cases()


@pytest.mark.parametrize(
    ("edition", "name", "brk", "expected"), CASES, ids=[f"{e}: {n}" for e, n, _, _ in CASES]
)
def test_broken_map_data_is_refused_with_its_path(
    edition: str, name: str, brk: Break, expected: str
) -> None:
    """The broken map is refused naming the path; the edition's map is untouched."""
    original = raw_map(edition)
    data = copy.deepcopy(original)
    brk(data)
    with pytest.raises(MapDataError) as info:
        load_map_data(json.dumps(data))
    assert re.search(expected, str(info.value)), str(info.value)
    with pytest.raises(MapDataError):
        structure_map(data)
    assert raw_map(edition) == original
    assert ruleset(edition).map_hash == structure_map(original).digest()


def test_every_installed_map_is_valid_and_round_trips() -> None:
    """Unbroken, each map loads and gives the same data and digest."""
    for edition in EDITIONS:
        rs = ruleset(edition)
        again = load_map_data(json.dumps(raw_map(edition)))
        assert again == rs.map
        assert again.digest() == rs.map_hash


def test_not_json_and_not_an_object() -> None:
    """Text that is not JSON, or JSON that is not an object, is refused at ``$``."""
    for text in ("", "{", "[]", "null", "42", b"\xff"):
        with pytest.raises(MapDataError, match=r"^\$"):
            load_map_data(text)


class Served:
    """An edition plugin that serves the map data it is given."""

    def __init__(self, data: MapData) -> None:
        self.data = data

    @hookimpl
    def ttr_edition_info(self) -> EditionInfo:
        return EditionInfo(id="served", name="Served")

    @hookimpl
    def ttr_map_data(self, options: Mapping[str, Any]) -> MapData:
        return self.data


class ServedText:
    """An edition plugin that loads its map from text, as a packaged edition does."""

    def __init__(self, text: str) -> None:
        self.text = text

    @hookimpl
    def ttr_edition_info(self) -> EditionInfo:
        return EditionInfo(id="served", name="Served")

    @hookimpl
    def ttr_map_data(self, options: Mapping[str, Any]) -> MapData:
        return load_map_data(self.text)


def test_an_edition_serving_broken_data_cannot_be_built() -> None:
    """Building a ruleset from a plugin whose data is broken raises the path-qualified error."""
    data = raw_map("usa")
    data["routes"][3]["cities"][1] = "Nowhere"
    with pytest.raises(MapDataError, match=r"\$\.routes\[3\]\.cities\[1\]: unknown city"):
        Ruleset(ServedText(json.dumps(data)))


# -- known gaps in the core's validation (strict: fixing them makes these fail) ---------------


def small_map(**changes: Any) -> Raw:
    """The fictional edition's map with changed parameters."""
    data = raw_map("fictional")
    data["parameters"].update(changes)
    return data


def test_a_track_of_length_zero_is_refused() -> None:
    """A track must have at least one space, whatever route_points declares."""
    data = small_map(route_points={"0": 0, "1": 1, "2": 2, "3": 4, "4": 7})
    data["routes"][0]["length"] = 0
    with pytest.raises(MapDataError, match=r"\$\.routes\[0\]\.length"):
        load_map_data(json.dumps(data))


def test_a_negative_card_count_is_refused() -> None:
    """The train deck cannot hold -5 red cards."""
    data = small_map()
    data["parameters"]["train_cards"]["red"] = -5
    with pytest.raises(MapDataError, match=r"\$\.parameters\.train_cards"):
        load_map_data(json.dumps(data))


def test_a_deck_too_small_for_the_deal_is_refused() -> None:
    """Either the map is refused or the setup is; cards are never conjured."""
    data = small_map(train_cards={"red": 3})
    try:
        rs = Ruleset(ServedText(json.dumps(data)))
        state = new_game(rs, 4, seed=1)
    except (MapDataError, ValueError):
        return
    check_state(rs, state)


def test_unvalidated_map_data_from_a_plugin_is_refused() -> None:
    """MapData built directly (not loaded) is validated by the ruleset too."""
    from attrs import evolve

    good = ruleset("fictional").map
    track = evolve(good.routes[0], cities=(good.routes[0].cities[0], "Nowhere"))
    bad = evolve(good, routes=(track, *good.routes[1:]))
    with pytest.raises(MapDataError, match="unknown city"):
        Ruleset(Served(bad))
