"""The map data format: valid data loads, broken data is rejected with a path-qualified
message naming the offending value."""

from __future__ import annotations

import copy
import json
from importlib.resources import files

import pytest

from ttr_core import MapDataError, load_map_data
from ttr_core.model.mapdata import structure_map, unstructure_map
from ttr_core.testing.scenarios import map_dict

SIMPLE_ROUTES = (
    ("A", "B", 1, "red"),
    ("B", "C", 2, "gray"),
    ("C", "D", 3, "blue"),
    ("D", "E", 4, "green"),
    ("E", "F", 5, "gray"),
    ("F", "G", 2, "gray"),
    ("F", "G", 2, "gray"),
)
SIMPLE_TICKETS = (("A", "E", 9), ("B", "G", 7), ("C", "F", 6))


@pytest.fixture
def raw():
    return map_dict(SIMPLE_ROUTES, SIMPLE_TICKETS)


def rejected(raw_data):
    with pytest.raises(MapDataError) as info:
        structure_map(raw_data)
    return str(info.value)


def test_valid_fixture_map_loads(raw):
    """The fixture map is valid; structuring then unstructuring gives the data back."""
    data = structure_map(raw)
    assert len(data.routes) == 7
    assert data.routes[5].parallel == 7 and data.routes[6].parallel == 6
    again = structure_map(unstructure_map(data))
    assert again == data
    assert again.digest() == data.digest()


def test_usa_json_round_trip():
    """The shipped USA data loads and survives a round trip through the format."""
    text = files("ttr_usa").joinpath("usa.json").read_text(encoding="utf-8")
    data = load_map_data(text)
    assert load_map_data(json.dumps(unstructure_map(data))) == data


def test_digest_changes_with_the_data(raw):
    """The map hash detects a changed value."""
    data = structure_map(raw)
    changed = copy.deepcopy(raw)
    changed["tickets"][0]["points"] = 10
    assert structure_map(changed).digest() != data.digest()


def test_unknown_city(raw):
    """A track naming a city that does not exist."""
    raw["routes"][3]["cities"][1] = "Atlantis"
    message = rejected(raw)
    assert "$.routes[3].cities[1]" in message
    assert "Atlantis" in message


def test_unknown_city_in_ticket(raw):
    """A ticket naming a city that does not exist."""
    raw["tickets"][2]["b"] = "Nowhere"
    assert "$.tickets[2].b" in rejected(raw)


def test_duplicate_track_id(raw):
    """Two tracks with one id."""
    raw["routes"][3]["id"] = 1
    message = rejected(raw)
    assert "$.routes[3].id" in message
    assert "duplicate" in message


def test_duplicate_ticket_id(raw):
    """Two tickets with one id."""
    raw["tickets"][2]["id"] = 1
    assert "$.tickets[2].id" in rejected(raw)


@pytest.mark.parametrize("length", [0, 7, -1, 12])
def test_bad_length(raw, length):
    """A length without a value in the route point table (SCORE-2: no 7)."""
    raw["routes"][3]["length"] = length
    assert "$.routes[3].length" in rejected(raw)


def test_unknown_colour(raw):
    """A colour that is not one of the eight colours or gray."""
    raw["routes"][3]["color"] = "purple"
    message = rejected(raw)
    assert "$.routes[3].color" in message
    assert "purple" in message


def test_unknown_card_in_deck(raw):
    """A train card kind that does not exist."""
    raw["parameters"]["train_cards"]["purple"] = 3
    assert "$.parameters.train_cards" in rejected(raw)


@pytest.mark.parametrize("where", ["route", "top", "parameters", "ticket", "city"])
def test_extra_key(raw, where):
    """Unknown keys are errors, reported with their path."""
    target, path = {
        "route": (raw["routes"][3], "$.routes[3]"),
        "top": (raw, "$"),
        "parameters": (raw["parameters"], "$.parameters"),
        "ticket": (raw["tickets"][1], "$.tickets[1]"),
        "city": (raw["cities"][2], "$.cities[2]"),
    }[where]
    target["bogus"] = 1
    message = rejected(raw)
    assert path in message
    assert "bogus" in message


def test_missing_key(raw):
    """A required key that is missing."""
    del raw["routes"][3]["length"]
    assert "$.routes[3].length" in rejected(raw)


def test_wrong_type_non_numeric_string(raw):
    """A length that is not a number at all."""
    raw["routes"][3]["length"] = "four"
    assert "$.routes[3].length" in rejected(raw)


@pytest.mark.parametrize(
    ("section", "index", "key", "value"),
    [
        ("routes", 3, "length", "4"),
        ("routes", 3, "length", True),
        ("routes", 3, "length", 4.5),
        ("routes", 3, "tunnel", "no"),
        ("routes", 3, "ferry", False),
        ("tickets", 1, "points", "7"),
        ("cities", 0, "id", 5),
    ],
)
def test_wrong_type(raw, section, index, key, value):
    """A value of the wrong JSON type is rejected, never converted."""
    raw[section][index][key] = value
    assert f"$.{section}[{index}].{key}" in rejected(raw)


def test_wrong_type_in_parameters(raw):
    """A parameter of the wrong JSON type is rejected, never converted."""
    raw["parameters"]["trains"] = "45"
    assert "$.parameters.trains" in rejected(raw)


def test_parallel_not_symmetric(raw):
    """A track naming a parallel that does not name it back."""
    raw["routes"][3]["parallel"] = 1
    message = rejected(raw)
    assert "$.routes[3].parallel" in message
    assert "back" in message


def test_parallel_unknown_track(raw):
    """A parallel naming a track that does not exist."""
    raw["routes"][3]["parallel"] = 99
    assert "$.routes[3].parallel" in rejected(raw)


def test_parallel_between_other_cities(raw):
    """Two tracks naming each other must join the same two cities."""
    raw["routes"][3]["parallel"] = 1
    raw["routes"][0]["parallel"] = 4
    message = rejected(raw)
    assert "$.routes[3].parallel" in message
    assert "same two cities" in message


def test_double_route_must_be_declared(raw):
    """Two tracks between the same cities must name each other."""
    del raw["routes"][5]["parallel"]
    del raw["routes"][6]["parallel"]
    assert "$.routes[5].parallel" in rejected(raw)


def test_track_joining_a_city_to_itself(raw):
    """A track needs two different cities."""
    raw["routes"][3]["cities"] = ["D", "D"]
    assert "$.routes[3].cities" in rejected(raw)


def test_opening_keep_exceeds_deal(raw):
    """The opening deal cannot ask to keep more tickets than are dealt."""
    raw["parameters"]["opening_tickets"]["keep"] = 4
    assert "$.parameters.opening_tickets.keep" in rejected(raw)


def test_not_json_and_not_an_object():
    """Text that is not JSON, or JSON that is not an object."""
    with pytest.raises(MapDataError, match=r"^\$: not valid JSON"):
        load_map_data('{"format": 1, "routes": [')
    with pytest.raises(MapDataError, match=r"^\$: map data must be a JSON object"):
        load_map_data("[1, 2]")


def test_unsupported_format(raw):
    """Only format 1 is understood."""
    raw["format"] = 2
    assert "$.format" in rejected(raw)
