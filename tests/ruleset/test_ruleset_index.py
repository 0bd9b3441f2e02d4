"""The ruleset's shape: few public names, a private index, one memo object, typed hooks.

The index tables and memos are still readable on the ruleset under their old names
while callers move to ``index_of`` and ``memos_of``; these tests pin that transition
to the index's own fields so the two cannot drift apart.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

from ttr_core import Ruleset, UnknownIdError, hookimpl
from ttr_core.batch.runs import portable
from ttr_core.rules import index as index_module
from ttr_core.rules.index import RulesetIndex, RulesetMemos, index_of, memos_of
from ttr_core.rules.scoring import score_game
from ttr_core.ruleset import core_plugin, editions, hookspecs, metadata, plugins, ruleset
from ttr_core.ruleset.plugins import TRACE_ENV, Hooks
from ttr_core.testing.play import play_game
from ttr_core.testing.scenarios import fixture_ruleset

OWN_NAMES = {
    "build",
    "hooks",
    "id",
    "info",
    "map",
    "map_hash",
    "option_specs",
    "options",
    "params",
    "city_index_of",
    "place_cities",
    "private_copy",
    "route_index_of",
    "route_name",
    "ticket_index_of",
    "ticket_name",
}
"""The public names of a ruleset."""


@pytest.fixture(scope="module")
def usa() -> Ruleset:
    return Ruleset.build("usa")


def test_the_ruleset_has_few_public_names(usa: Ruleset) -> None:
    assert {name for name in dir(usa) if not name.startswith("_")} == OWN_NAMES


def test_the_index_and_the_memos_are_not_on_the_ruleset(usa: Ruleset) -> None:
    names = set(attrs.fields_dict(RulesetIndex)) | set(attrs.fields_dict(RulesetMemos))
    assert not {name for name in names if hasattr(usa, name)}


def test_ids_turn_into_the_indices_of_the_map_data(usa: Ruleset) -> None:
    for r, track in enumerate(usa.map.routes):
        assert usa.route_index_of(track.id) == r
    for i, ticket in enumerate(usa.map.tickets):
        assert usa.ticket_index_of(ticket.id) == i
    for c, city in enumerate(usa.map.cities):
        assert usa.city_index_of(city.id) == c


@pytest.mark.parametrize(
    "bad",
    [10**6, -1, True, 1.0, "1", None, 10**5000],
    ids=["big", "-1", "True", "1.0", "'1'", "None", "huge"],
)
def test_an_unknown_id_is_an_unknown_id_error(usa: Ruleset, bad: object) -> None:
    for lookup in (usa.route_index_of, usa.ticket_index_of, usa.city_index_of):
        with pytest.raises(UnknownIdError, match=r"^usa has no ") as caught:
            lookup(bad)  # type: ignore[arg-type]
        assert len(str(caught.value)) <= 300
    with pytest.raises(UnknownIdError, match="no city 'Atlantis'"):
        usa.city_index_of("Atlantis")


def test_a_ruleset_does_not_change_after_building(usa: Ruleset) -> None:
    with pytest.raises(AttributeError, match="does not change"):
        usa.info = usa.info  # type: ignore[misc]
    with pytest.raises(AttributeError, match="does not change"):
        usa.route_len = ()  # type: ignore[misc]
    with pytest.raises(AttributeError, match="does not change"):
        del usa.map
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        index_of(usa).route_len = ()  # type: ignore[misc]
    assert usa.params is usa.map.parameters


def test_the_claim_tables_are_stored_in_the_memos() -> None:
    rs = Ruleset.build("usa")
    assert memos_of(rs).claim_tables is None
    sentinel = object()
    memos_of(rs).claim_tables = sentinel  # type: ignore[assignment]
    assert memos_of(rs).claim_tables is sentinel


def test_a_private_copy_shares_the_rules_and_starts_empty_memos() -> None:
    rs = Ruleset.build("europe")
    memos_of(rs).station_payment_cache[(1, b"")] = []
    twin = rs.private_copy()
    assert index_of(twin) is index_of(rs)
    assert twin.hooks is rs.hooks and twin.map is rs.map and twin.options == rs.options
    assert memos_of(twin) is not memos_of(rs)
    assert attrs.asdict(memos_of(twin)) == attrs.asdict(RulesetMemos())
    assert memos_of(rs).station_payment_cache == {(1, b""): []}
    with pytest.raises(AttributeError):
        twin.params = rs.params  # type: ignore[misc]


def test_the_index_is_built_from_the_map_and_the_parameters_alone(usa: Ruleset) -> None:
    again = RulesetIndex.build(usa.map, usa.params)
    for name in attrs.fields_dict(RulesetIndex):
        assert getattr(again, name) == getattr(index_of(usa), name), name


def test_route_classes_are_numbered_by_colour_then_length() -> None:
    index = index_of(Ruleset.build("nordic"))
    keys = index.class_keys
    assert [(k.color, k.length) for k in keys] == sorted((k.color, k.length) for k in keys)
    for r, k in enumerate(index.class_of):
        assert r in index.class_routes[k]
        assert index.group_shapes[k].length == index.route_len[r]
    assert index.group_classes == tuple(k for k, s in enumerate(index.group_shapes) if s.size)
    assert sum(index.deck_counts) == len(index.train_deck)
    for r, twin in enumerate(index.route_twin):
        assert twin == -1 or index.route_twin[twin] == r


def test_a_house_rule_on_the_parameters_keeps_the_countries(big_bonus: object) -> None:
    """A map rebuilt with other parameters keeps its declared countries and their aliases."""
    plain = Ruleset.build("switzerland")
    house = Ruleset.build("switzerland", plugins=[big_bonus])
    assert plain.map.countries and house.map.countries == plain.map.countries
    assert house.params.longest_path_bonus == 20
    for country in plain.map.countries:
        for name in country.aliases:
            assert house.place_cities(name) == plain.place_cities(name) != ()


# -- typed hooks ---------------------------------------------------------------------------


def hook_specs() -> dict[str, object]:
    return {name: f for name, f in vars(hookspecs).items() if name.startswith("ttr_")}


def test_every_hook_has_one_typed_method_with_its_arguments() -> None:
    specs = hook_specs()
    assert len(specs) == 6
    for name, spec in specs.items():
        method = getattr(Hooks, name.removeprefix("ttr_"))
        wanted = list(inspect.signature(spec).parameters)  # type: ignore[arg-type]
        assert list(inspect.signature(method).parameters)[1:] == wanted, name


def test_hooks_name_the_extra_plugins_only(big_bonus: object) -> None:
    plain = Ruleset.build("usa")
    rule = big_bonus
    house = Ruleset.build("usa", plugins=[rule])
    assert plain.hooks.plugins == () and portable(plain)
    assert house.hooks.plugins == (rule,) and not portable(house)
    impls = house.hooks.implementations("ttr_parameters")
    assert [impl.plugin for impl in impls][-1] is rule
    assert len(impls) == 3  # the core's, the edition's, the house rule's


def test_hook_calls_are_traced_when_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(TRACE_ENV, "1")
    fixture_ruleset()
    traced = capsys.readouterr().err
    assert "ttr_edition_info" in traced and "ttr_parameters" in traced
    monkeypatch.delenv(TRACE_ENV)
    fixture_ruleset()
    assert capsys.readouterr().err == ""


def test_ticket_results_are_traced_and_scored_the_same_when_pluggy_is_skipped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With only the core's ``ttr_ticket_result`` and no tracing, scoring calls it
    directly; traced, or with a house rule implementing the hook, pluggy calls it. The
    scores are the same (TICKET-6, TICKET-7)."""

    class SameTickets:
        @hookimpl
        def ttr_ticket_result(self, ticket: Any, network: Any, context: Any) -> None:
            return None  # leaves every ticket to the core

    direct = Ruleset.build("europe")
    game = play_game(direct, 4, seed=3)
    assert direct.hooks._ticket_result is core_plugin.ttr_ticket_result
    house = Ruleset.build("europe", plugins=[SameTickets()])
    assert house.hooks._ticket_result is not core_plugin.ttr_ticket_result
    monkeypatch.setenv(TRACE_ENV, "1")
    traced = Ruleset.build("europe")
    capsys.readouterr()
    sheets = [score_game(rs, game.state) for rs in (direct, house, traced)]
    assert "ttr_ticket_result" in capsys.readouterr().err
    assert sheets[0] == sheets[1] == sheets[2]


def runtime_imports(module: ModuleType) -> set[str]:
    """The modules a module imports at its top level, ``if TYPE_CHECKING:`` left out."""
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            found.add(node.module or "")
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_ruleset_layer_imports_the_index_and_no_mechanics() -> None:
    """Building a ruleset needs the rules' index, not the mechanics that read it."""
    for module in (ruleset, plugins, editions, metadata):
        rules = {m for m in runtime_imports(module) if m.startswith("ttr_core.rules.")}
        assert rules <= {"ttr_core.rules.index"}, module.__name__
    assert "ttr_core.rules.index" in runtime_imports(ruleset)
    below = {m for m in runtime_imports(index_module) if m.startswith("ttr_core.")}
    assert below and all(m.startswith("ttr_core.model.") for m in below)
