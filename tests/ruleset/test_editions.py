"""Editions: discovery through entry points, lookup, options and house-rule plugins."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pluggy
import pytest

from ttr_core import (
    EditionInfo,
    Game,
    MapData,
    MapDataError,
    OptionError,
    OptionSpec,
    Ruleset,
    UnknownEditionError,
    find_edition,
    hookimpl,
    installed_editions,
)
from ttr_core.cli import main
from ttr_core.model.mapdata import structure_map
from ttr_core.plugin import load_packaged_map, packaged_edition
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position, score_position
from ttr_core.ruleset.editions import (
    DISABLE_ENV,
    REASON_MAX_CHARS,
    broken_editions,
    describe_editions,
)
from ttr_core.testing.scenarios import FixtureEdition, map_dict, score
from ttr_core.testing.scenarios import fixture_ruleset as make_fixture

THIRD_PARTY = FixtureEdition(
    structure_map(
        map_dict(
            (("A", "B", 2, "gray"), ("B", "C", 3, "red"), ("C", "D", 1, "gray")),
            (("A", "C", 5), ("A", "B", 2), ("B", "C", 3), ("C", "A", 4), ("B", "D", 4)),
            edition="third",
            players=[2, 3],
        )
    ),
    edition_id="third",
    aliases=("Third-Party", "tp"),
)
"""An edition shipped by another distribution, found through a fake entry point."""

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
        name="third", value=f"{__name__}:THIRD_PARTY", group="ttr.editions"
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


def test_house_rule_wraps_parameters_and_changes_scoring(big_bonus):
    """A plugin wrapping ``ttr_parameters`` changes the longest path bonus in scoring."""
    plain = Ruleset.build("usa")
    house = Ruleset.build("usa", plugins=[big_bonus])
    assert plain.params.longest_path_bonus == 10
    assert house.params.longest_path_bonus == 20
    assert house.map_hash != plain.map_hash
    pos = Position(
        players=(
            PlayerPosition(name="Red", routes=(plain.route_index_of(1),), tickets=()),
            PlayerPosition(name="Blue", routes=(), tickets=()),
        )
    )
    for rs, bonus in ((plain, 10), (house, 20)):
        sheet = score_position(rs, pos)
        assert sheet.players[0].bonuses["longest_path"] == bonus
        assert sheet.players[0].total == 2 + bonus
    # The plugin belongs to that ruleset only.
    assert Ruleset.build("usa").params.longest_path_bonus == 10


def test_house_rule_on_a_fixture_edition_and_through_game(big_bonus):
    """House rules work for any edition and through ``Game.new(plugins=...)``."""
    rs = make_fixture(plugins=[big_bonus])
    sheet = score(rs, {"Red": (["A-B"], []), "Blue": ([], [])})
    assert sheet.players[0].bonuses["longest_path"] == 20
    game = Game.new("usa", players=2, seed=1, plugins=[big_bonus])
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
    assert len(index_of(rs).routes) == 3


# -- guarded loading and switching editions off ----------------------------------------------


class FakeEntryPoint:
    """An entry point of the ``ttr.editions`` group whose loading is given as a function."""

    def __init__(self, name: str, load: Callable[[], object]) -> None:
        self.name = name
        self.dist = None
        self._load = load

    def load(self) -> object:
        return self._load()


def failing_import() -> object:
    raise ModuleNotFoundError("No module named 'shapely'")


class BadMap:
    """An edition whose map data fails to load while it describes itself."""

    @hookimpl
    def ttr_edition_info(self) -> EditionInfo:
        return EditionInfo(id="badmap", name="Bad map")

    @hookimpl
    def ttr_map_data(self) -> MapData:
        raise MapDataError("$.routes[0].cities[1]: unknown city 'Nowhere'\n(and 3 more)")


@pytest.fixture
def extra_entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """Entry points added to the real ones; the tests append to the list."""
    extra: list[object] = []
    real = importlib.metadata.entry_points

    def entry_points(**kwargs: Any) -> list[Any]:
        found = list(real(**kwargs))
        return [*found, *extra] if kwargs.get("group") == "ttr.editions" else found

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    try:
        yield extra
    finally:
        monkeypatch.undo()
        installed_editions(refresh=True)


BROKEN = (
    ("shaky", failing_import, "ModuleNotFoundError: No module named 'shapely'"),
    ("missing", lambda: importlib.import_module("ttr_no_such_edition"), "ModuleNotFoundError"),
    ("noplugin", lambda: json, "the plugin does not implement ttr_edition_info"),
    ("badmap", BadMap, "MapDataError: $.routes[0].cities[1]: unknown city 'Nowhere' (and 3"),
)


def test_an_edition_that_fails_to_load_is_skipped_and_reported(
    extra_entry_points: list[object],
) -> None:
    extra_entry_points.extend(FakeEntryPoint(name, load) for name, load, _ in BROKEN)
    editions = installed_editions(refresh=True)
    assert {"usa", "europe", "india", "nordic", "switzerland"} <= set(editions)
    assert not {name for name, _, _ in BROKEN} & set(editions)
    broken = broken_editions()
    assert sorted(broken) == sorted(name for name, _, _ in BROKEN)
    for name, _, reason in BROKEN:
        assert broken[name].reason.startswith(reason), broken[name]
        assert "\n" not in broken[name].reason
        assert broken[name].distribution == "unknown" and not broken[name].builtin
    assert Ruleset.build("usa").id == "usa"


def test_finding_an_edition_that_failed_to_load_says_why(extra_entry_points: list[object]) -> None:
    extra_entry_points.append(FakeEntryPoint("shaky", failing_import))
    installed_editions(refresh=True)
    with pytest.raises(UnknownEditionError) as info:
        find_edition("Shaky")
    message = str(info.value)
    assert message.startswith(
        "edition 'Shaky' failed to load (ModuleNotFoundError: No module named 'shapely'); "
        "installed editions: "
    )
    assert "usa" in message and "\n" not in message
    with pytest.raises(UnknownEditionError, match="failed to load"):
        Game.new("shaky")


def test_a_long_reason_is_cut_to_one_short_line(extra_entry_points: list[object]) -> None:
    def noisy() -> object:
        raise RuntimeError("x\n" * 1000)

    extra_entry_points.append(FakeEntryPoint("noisy", noisy))
    installed_editions(refresh=True)
    reason = broken_editions()["noisy"].reason
    assert len(reason) == REASON_MAX_CHARS and reason.endswith("...") and "\n" not in reason


def test_broken_editions_are_described_with_their_reason(extra_entry_points: list[object]) -> None:
    extra_entry_points.append(FakeEntryPoint("shaky", failing_import))
    installed_editions(refresh=True)
    described = describe_editions()
    assert [d["id"] for d in described] == sorted([*installed_editions(), "shaky"])
    (shaky,) = [d for d in described if "error" in d]
    assert shaky == {
        "id": "shaky",
        "name": None,
        "aliases": [],
        "players": None,
        "builtin": False,
        "distribution": "unknown",
        "rules_version": None,
        "error": "ModuleNotFoundError: No module named 'shapely'",
    }


def test_ttr_editions_lists_a_broken_edition_in_one_line(
    extra_entry_points: list[object], capsys: pytest.CaptureFixture[str]
) -> None:
    extra_entry_points.append(FakeEntryPoint("shaky", failing_import))
    installed_editions(refresh=True)
    assert main(["editions"]) == 0
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if "shaky" in line]
    assert "failed to load" in line and "ModuleNotFoundError" in line
    assert any("usa" in line and "Ticket to Ride (USA)" in line for line in out.splitlines())
    assert main(["editions", "--json"]) == 0
    listed = {d["id"]: d for d in json.loads(capsys.readouterr().out)}
    assert listed["shaky"]["error"].startswith("ModuleNotFoundError")
    assert "error" not in listed["usa"]


def test_ttr_editions_fails_when_no_edition_loads(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only = [FakeEntryPoint("shaky", failing_import)]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **kwargs: only)
    try:
        assert installed_editions(refresh=True) == {}
        assert main(["editions", "--json"]) == 1
        captured = capsys.readouterr()
        assert [d["id"] for d in json.loads(captured.out)] == ["shaky"]
        assert captured.err == (
            "ttr: error: no edition can be played: every installed edition failed to load\n"
        )
    finally:
        monkeypatch.undo()
        installed_editions(refresh=True)


def test_disabled_editions_are_not_listed_and_found_as_disabled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(DISABLE_ENV, " India,nordic ")
    try:
        editions = installed_editions()
        assert "india" not in editions and "nordic" not in editions and "usa" in editions
        assert "india" not in {d["id"] for d in describe_editions()}
        for name in ("india", "NORDIC"):
            with pytest.raises(UnknownEditionError) as info:
                find_edition(name)
            assert f"is disabled by {DISABLE_ENV}; installed editions: " in str(info.value)
        with pytest.raises(UnknownEditionError, match="disabled"):
            Ruleset.build("india")
        monkeypatch.delenv(DISABLE_ENV)
        assert "india" in installed_editions()
    finally:
        monkeypatch.delenv(DISABLE_ENV, raising=False)
        installed_editions(refresh=True)


def test_a_disabled_edition_is_not_even_loaded(
    extra_entry_points: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Switching a broken edition off silences it: it is neither loaded nor reported."""
    loads: list[str] = []

    def counted() -> object:
        loads.append("shaky")
        return failing_import()

    extra_entry_points.append(FakeEntryPoint("shaky", counted))
    monkeypatch.setenv(DISABLE_ENV, "shaky")
    assert "usa" in installed_editions(refresh=True)
    assert broken_editions() == {} and loads == []
    with pytest.raises(UnknownEditionError, match="disabled"):
        find_edition("shaky")


def test_an_edition_disabled_by_id_is_found_as_disabled_by_its_aliases(
    extra_entry_points: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry point named other than its edition is matched by the edition's id."""
    extra_entry_points.append(FakeEntryPoint("label", lambda: THIRD_PARTY))
    monkeypatch.setenv(DISABLE_ENV, "third")
    assert "third" not in installed_editions(refresh=True)
    for name in ("third", "TP", "third-party"):
        with pytest.raises(UnknownEditionError, match="disabled"):
            find_edition(name)


# -- data-only editions ----------------------------------------------------------------------

BUILTIN_INFO = {
    "usa": ("Ticket to Ride (USA)", ("base", "us", "zug-um-zug")),
    "europe": ("Ticket to Ride Europe", ("europa", "eu", "zug-um-zug-europa")),
    "india": ("Ticket to Ride India", ("indien", "inde", "zug-um-zug-indien")),
    "nordic": (
        "Ticket to Ride Nordic Countries",
        ("scandinavia", "skandinavien", "nordic-countries"),
    ),
    "switzerland": (
        "Ticket to Ride Switzerland",
        ("schweiz", "suisse", "svizzera", "zug-um-zug-schweiz"),
    ),
}


@pytest.mark.parametrize("edition_id", sorted(BUILTIN_INFO))
def test_builtin_editions_say_who_they_are(edition_id: str) -> None:
    name, aliases = BUILTIN_INFO[edition_id]
    found = installed_editions()[edition_id]
    assert found.info == EditionInfo(id=edition_id, name=name, aliases=aliases, rules_version="1")
    assert Ruleset.build(edition_id).map.edition == edition_id


def test_a_data_only_edition_is_one_statement() -> None:
    """The short form of the guide: identity and map from the packaged file."""
    plugin = ModuleType("isles")
    source = (
        "from ttr_core.plugin import packaged_edition\n"
        "ttr_edition_info, ttr_map_data = packaged_edition('ttr_usa', 'usa.json', aliases=('u',))\n"
    )
    exec(source, plugin.__dict__)
    rs = Ruleset(plugin)
    assert rs.info == EditionInfo(id="usa", name="USA", aliases=("u",), rules_version="1")
    assert rs.map == Ruleset.build("usa", {"opening_tickets": 3}).map
    assert [spec.name for spec in rs.option_specs] == ["longest_path_at_zero", "tie_break"]
    assert plugin.ttr_map_data() is plugin.ttr_map_data()


def test_packaged_edition_takes_a_name_and_rules_version() -> None:
    info, data = packaged_edition("ttr_india", "india.json", name="India!", rules_version="7")
    assert info() == EditionInfo(id="india", name="India!", aliases=(), rules_version="7")
    assert data() == load_packaged_map("ttr_india", "india.json")
