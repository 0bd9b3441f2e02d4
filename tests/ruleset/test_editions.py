"""Editions: discovery through entry points, lookup, options and house-rule plugins."""

from __future__ import annotations

import importlib.metadata

import pluggy
import pytest
from helpers import THIRD_PARTY, BigBonus, score
from helpers import fixture_ruleset as make_fixture

from ttr_core import (
    Game,
    OptionError,
    OptionSpec,
    Ruleset,
    UnknownEditionError,
    find_edition,
    hookimpl,
    installed_editions,
)
from ttr_core.rules.scoring import PlayerPosition, Position, score_position
from ttr_core.ruleset.editions import describe_editions

# -- discovery -----------------------------------------------------------------------------


def test_builtin_usa_found_through_entry_points():
    """The USA edition is registered in the ``ttr.editions`` group like any other."""
    eps = importlib.metadata.entry_points(group="ttr.editions")
    assert "usa" in {ep.name for ep in eps}
    editions = installed_editions()
    assert "usa" in editions
    usa = editions["usa"]
    assert usa.info.id == "usa"
    assert usa.distribution == "ttr-engine"
    assert usa.builtin is True
    assert usa.players == (2, 5)


def test_describe_editions():
    """``describe_editions`` lists every installed edition, sorted by id."""
    described = describe_editions()
    ids = [d["id"] for d in described]
    assert ids == sorted(ids)
    assert ids == sorted(installed_editions())
    usa = next(d for d in described if d["id"] == "usa")
    assert usa == {
        "id": "usa",
        "name": usa["name"],
        "aliases": ["base", "us", "zug-um-zug"],
        "players": [2, 5],
        "builtin": True,
        "distribution": "ttr-engine",
        "rules_version": "1",
    }


def test_third_party_edition_discovered(monkeypatch):
    """An edition from another distribution is found, described and played the same way."""
    real = importlib.metadata.entry_points
    extra = importlib.metadata.EntryPoint(
        name="third", value="helpers:THIRD_PARTY", group="ttr.editions"
    )

    def entry_points(**kwargs):
        found = list(real(**kwargs))
        if kwargs.get("group") == "ttr.editions":
            found.append(extra)
        return found

    try:
        with monkeypatch.context() as m:
            m.setattr(importlib.metadata, "entry_points", entry_points)
            editions = installed_editions(refresh=True)
            assert set(editions) >= {"usa", "third"}
            third = editions["third"]
            assert third.builtin is False
            assert third.players == (2, 3)
            assert find_edition("THIRD-party").info.id == "third"
            assert find_edition("Tp").info.id == "third"
            game = Game.new("third", players=3, seed=1)
            assert game.ruleset.id == "third"
            assert [d["id"] for d in describe_editions()] == sorted(editions)
    finally:
        installed_editions(refresh=True)
    assert "third" not in installed_editions()


# -- lookup --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["usa", "USA", "Usa", " usa ", "base", "BASE", "us", "Zug-um-Zug"])
def test_find_edition_by_id_or_alias_case_insensitive(name):
    """Editions are found by id or alias, ignoring case."""
    assert find_edition(name).info.id == "usa"
    assert Ruleset.build(name).id == "usa"


def test_unknown_edition_lists_installed():
    """An unknown edition name raises an error listing the installed editions."""
    with pytest.raises(UnknownEditionError) as info:
        find_edition("atlantis")
    message = str(info.value)
    assert "atlantis" in message
    for edition_id in installed_editions():
        assert edition_id in message
    assert isinstance(info.value, LookupError)
    with pytest.raises(UnknownEditionError):
        Ruleset.build("atlantis")
    with pytest.raises(UnknownEditionError):
        Game.new("atlantis")


# -- options -------------------------------------------------------------------------------


def test_options_defaults_filled_in():
    """Every declared option appears with its default when not given."""
    core = {"longest_path_at_zero": False, "tie_break": "rules"}
    rs = Ruleset.build("usa")
    assert rs.options == {**core, "opening_tickets": 3}
    assert {s.name for s in rs.option_specs} == {*core, "opening_tickets"}
    chosen = Ruleset.build("usa", {"opening_tickets": 4}).options
    assert chosen == {**core, "opening_tickets": 4}


def test_unknown_option():
    """An option the edition does not declare is an OptionError naming the options."""
    with pytest.raises(OptionError) as info:
        Ruleset.build("usa", {"openning_tickets": 4})
    assert "openning_tickets" in str(info.value)
    assert "opening_tickets" in str(info.value)


@pytest.mark.parametrize("value", [2, 5, "4", 4.0, True, None])
def test_bad_option_value(value):
    """A value outside the option's choices (or of another type) is an OptionError."""
    with pytest.raises(OptionError):
        Ruleset.build("usa", {"opening_tickets": value})
    with pytest.raises(OptionError):
        Game.new("usa", options={"opening_tickets": value})


def test_option_declared_twice_is_an_error():
    """Two plugins may not declare the same option."""

    class Clash:
        @hookimpl
        def ttr_options(self):
            return (OptionSpec(name="opening_tickets", default=3, choices=(3,), doc="clash"),)

    with pytest.raises(OptionError):
        Ruleset.build("usa", plugins=[Clash()])


# -- house-rule plugins --------------------------------------------------------------------


def test_house_rule_wraps_parameters_and_changes_scoring():
    """A plugin wrapping ``ttr_parameters`` changes the longest path bonus in scoring."""
    plain = Ruleset.build("usa")
    house = Ruleset.build("usa", plugins=[BigBonus()])
    assert plain.params.longest_path_bonus == 10
    assert house.params.longest_path_bonus == 20
    assert house.map_hash != plain.map_hash
    pos = Position(
        players=(
            PlayerPosition(name="Red", routes=(plain.route_index[1],), tickets=()),
            PlayerPosition(name="Blue", routes=(), tickets=()),
        )
    )
    for rs, bonus in ((plain, 10), (house, 20)):
        sheet = score_position(rs, pos)
        assert sheet.players[0].bonuses["longest_path"] == bonus
        assert sheet.players[0].total == 2 + bonus
    # The plugin belongs to that ruleset only.
    assert Ruleset.build("usa").params.longest_path_bonus == 10


def test_house_rule_on_a_fixture_edition_and_through_game():
    """House rules work for any edition and through ``Game.new(plugins=...)``."""
    rs = make_fixture(plugins=[BigBonus()])
    sheet = score(rs, {"Red": (["A-B"], []), "Blue": ([], [])})
    assert sheet.players[0].bonuses["longest_path"] == 20
    game = Game.new("usa", players=2, seed=1, plugins=[BigBonus()])
    assert game.ruleset.params.longest_path_bonus == 20


def test_misspelled_hook_is_rejected():
    """A plugin implementing a hook that does not exist is rejected when registered."""

    class Typo:
        @hookimpl
        def ttr_paramters(self, map_data, options):
            return None

    with pytest.raises(pluggy.PluginValidationError):
        Ruleset.build("usa", plugins=[Typo()])
    with pytest.raises(pluggy.PluginValidationError):
        Game.new("usa", plugins=[Typo()])


def test_hook_with_unknown_argument_is_rejected():
    """A hook implementation asking for an argument the hook does not pass is rejected."""

    class Wrong:
        @hookimpl
        def ttr_final_bonuses(self, context, players):
            return None

    with pytest.raises(pluggy.PluginValidationError):
        Ruleset.build("usa", plugins=[Wrong()])


def test_fixture_edition_is_a_plain_plugin():
    """Any object with the hooks is an edition (the test fixture edition, for one)."""
    rs = Ruleset(THIRD_PARTY)
    assert rs.id == "third"
    assert rs.params.players == (2, 3)
    assert len(rs.routes) == 3
