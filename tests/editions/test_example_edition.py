"""The example third-party edition (examples/ttr-example-edition) behaves like a built-in one.

The README's set-up command installs it (``-e examples/ttr-example-edition``); it is
found only through the ``ttr.editions`` entry points, like any edition.
"""

from __future__ import annotations

import random

import pytest

import ttr_core as ttr
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position, score_position
from ttr_core.ruleset.editions import describe_editions, find_edition, installed_editions
from ttr_core.testing import EditionContract


def test_example_edition_is_discovered_through_entry_points() -> None:
    editions = installed_editions(refresh=True)
    assert "example" in editions
    found = editions["example"]
    assert found.builtin is False
    assert found.distribution.replace("_", "-") == "ttr-example-edition"
    assert found.info.name == "Example Isles"
    assert found.players == (2, 3)
    assert find_edition("ISLES") is find_edition("example")
    listed = {e["id"]: e for e in describe_editions()}
    assert listed["example"]["builtin"] is False


def test_example_map_data_is_valid_and_has_a_double_route() -> None:
    rs = ttr.Ruleset.build("example")
    assert len(index_of(rs).city_ids) == 8
    assert len(index_of(rs).routes) == 12
    assert len(index_of(rs).tickets) == 8
    assert sum(1 for twin in index_of(rs).route_twin if twin >= 0) == 2


def test_example_option_changes_the_trains() -> None:
    assert ttr.Ruleset.build("example").params.trains == 10
    assert ttr.Ruleset.build("example", {"trains": 14}).params.trains == 14


def test_example_edition_plays_a_random_game_to_the_end() -> None:
    for players in (2, 3):
        game = ttr.Game.new("example", players=players, seed=11)
        chooser = random.Random(players)
        while not game.is_over:
            legal = game.legal_actions()
            assert len(legal) > 0
            game.apply(legal[chooser.randrange(len(legal))])
        sheet = game.scores()
        assert sheet.edition == "example"
        assert sheet.winners
        for score in sheet.players:
            assert set(score.bonuses) == {"longest_path", "harbours"}
            assert score.total == (
                score.route_points + score.ticket_points + sum(score.bonuses.values())
            )
        assert ttr.Game.load(game.save()).state == game.state


def test_example_harbour_bonus_goes_to_players_touching_every_harbour() -> None:
    rs = ttr.Ruleset.build("example")
    tracks = tuple(
        index_of(rs).route_index[i] for i in (2, 6, 12)
    )  # Quillmere, Saltreach, Tidewick
    position = Position(
        players=(
            PlayerPosition(name="Ann", routes=tracks, tickets=()),
            PlayerPosition(name="Bob", routes=(index_of(rs).route_index[1],), tickets=()),
        )
    )
    sheet = score_position(rs, position)
    assert [p.bonuses["harbours"] for p in sheet.players] == [4, 0]


@pytest.mark.slow
class TestExampleEditionContract(EditionContract):
    """The testing kit's whole suite, run over the example edition as its author would."""

    edition = "example"


def test_example_identity_comes_from_its_map_data() -> None:
    """The edition states its id and name once, in ``example.json``."""
    found = find_edition("example")
    data = ttr.load_packaged_map("ttr_example_edition", "example.json")
    assert (
        (found.info.id, found.info.name)
        == (data.edition, data.name)
        == ("example", "Example Isles")
    )
    assert found.info.aliases == ("isles",)
