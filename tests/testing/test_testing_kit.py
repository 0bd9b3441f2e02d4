"""The conformance kit (ttr_core.testing) runs over every installed edition and finds faults.

The contract class and ``check_edition`` both run over every installed edition; the
fictional edition (tests/fictional, installed with ``pip install -e tests/fictional``)
must be among them. Faults are injected into the engine to show that the kit reports
them with the seed and action index that rebuild the position.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve
from hypothesis import given
from hypothesis import strategies as st

import ttr_core
import ttr_core.testing as kit
from ttr_core.model.actions import (
    ACTION_TYPES,
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    KeepTickets,
)
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.errors import IllegalActionError
from ttr_core.model.extras import install_command
from ttr_core.model.state import Phase
from ttr_core.play import legal
from ttr_core.play.game import Game
from ttr_core.rules import claims, drawing, payment_counts
from ttr_core.rules.index import index_of
from ttr_core.ruleset.editions import installed_editions
from ttr_core.testing import (
    EditionContract,
    check_edition,
    edition_machine,
    game_at,
    kit_settings,
)
from ttr_core.testing.golden import differences, dump_golden
from ttr_core.testing.play import Chooser, option_sets, play_game, ruleset
from ttr_core.testing.space import arbitrary_actions

ROOT = Path(__file__).resolve().parents[2]
FICTIONAL = ROOT / "tests" / "fictional"
EDITIONS = sorted(installed_editions())


# -- packaging ---------------------------------------------------------------------------


def test_testing_extra_brings_hypothesis() -> None:
    """The ``testing`` extra installs what the kit imports."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extra = project["optional-dependencies"]["testing"]
    assert any(re.match(r"hypothesis\b", dep) for dep in extra)


def test_kit_without_hypothesis_says_how_to_install_it() -> None:
    """Importing the kit without Hypothesis fails with the install command, nothing else."""
    code = (
        "import sys\n"
        "sys.modules['hypothesis'] = None\n"
        "try:\n"
        "    import ttr_core.testing\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
        "else:\n"
        "    print('imported')\n"
        "import ttr_core\n"
        "print(ttr_core.Game.__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    first, second = out.stdout.splitlines()
    assert "Hypothesis" in first
    assert install_command("testing") in first
    assert second == "Game"


def test_fictional_edition_is_installed_as_a_third_party_package() -> None:
    """The kit's example edition is found through its entry point (not skipped if absent)."""
    editions = installed_editions(refresh=True)
    assert "fictional" in editions, "install the fictional edition: pip install -e tests/fictional"
    found = editions["fictional"]
    assert found.builtin is False
    assert found.distribution.replace("_", "-") == "ttr-fictional"
    assert found.players == (2, 4)
    assert "fictional" in EDITIONS


# -- the contract and check_edition over every installed edition ----------------------------


OWN_CONTRACT = frozenset({"example", "fictional"})
"""Editions whose contract class of their own runs in this suite (tests/editions and
tests/fictional), with the same examples: the class below leaves them out."""


@pytest.mark.slow
class TestEveryInstalledEdition(EditionContract):
    """The whole contract suite, once per installed edition (but those of OWN_CONTRACT)."""

    # test_check_edition_with_defaults runs check_edition on every installed edition, with
    # more games than the contract's own test: running both would only repeat it.
    test_check_edition = None  # type: ignore[assignment]
    """Not run here: its games are the first of those test_check_edition_with_defaults checks."""

    @pytest.fixture(autouse=True, params=sorted(set(EDITIONS) - OWN_CONTRACT))
    def _edition_under_test(self, request: pytest.FixtureRequest) -> Iterator[None]:
        self.edition = request.param  # type: ignore[misc]
        yield


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_check_edition_with_defaults(edition: str) -> None:
    """check_edition with its defaults finds nothing wrong and exercises every phase."""
    report = check_edition(edition)
    rs = ruleset(edition)
    assert report.edition == edition
    assert report.games == 20
    assert report.actions > 20 * 20
    assert report.rejected > 0
    assert report.probes - report.rejected > 0
    phases = {p.name for p in Phase}
    if not index_of(rs).has_tunnels:
        phases.discard("TUNNEL")
    if not index_of(rs).has_groups:
        phases.discard("CHOOSE_CARDS")
    assert set(report.probes_by_phase) == phases
    assert report.views > 0
    assert report.records >= report.games


@pytest.mark.slow
def test_check_edition_is_deterministic_and_cycles_players_and_options() -> None:
    """The same arguments check the same games; games cycle player counts and options."""
    first = check_edition("fictional", games=3, seed=5)
    assert first == check_edition("fictional", games=3, seed=5)
    assert first != check_edition("fictional", games=3, seed=6)
    narrowed = check_edition("fictional", players=3, options={"lighthouse_bonus": 0}, games=2)
    assert narrowed.games == 2
    # The fictional edition's two bonus choices, times the core's options every edition has.
    assert len(option_sets("fictional")) == 2 * 2 * 2


def test_check_edition_rejects_bad_arguments() -> None:
    """A player count outside the edition's range or an unknown edition is an error."""
    from ttr_core.model.errors import UnknownEditionError

    with pytest.raises(ValueError, match="2 to 4 players"):
        check_edition("fictional", players=5, games=1)
    with pytest.raises(UnknownEditionError):
        check_edition("no-such-edition", games=1)


# -- the kit finds faults --------------------------------------------------------------------


def _message(exc: pytest.ExceptionInfo[AssertionError]) -> tuple[dict[str, Any], str]:
    text = str(exc.value)
    found = re.search(
        r"game_at\('(?P<edition>[\w-]+)', seed=(?P<seed>\d+), players=(?P<players>\d+), "
        r"options=(?P<options>\{.*?\}), actions=(?P<actions>\d+)\)",
        text,
    )
    assert found is not None, text
    assert f"seed {found['seed']}" in text
    assert f"action index {found['actions']}" in text
    args = {
        "seed": int(found["seed"]),
        "players": int(found["players"]),
        "options": eval(found["options"]),
        "actions": int(found["actions"]),
    }
    return args, text


# Faults injected by replacing a mechanic's module function reach only interpreted callers:
# the compiled simulator calls its mechanics directly.
needs_interpreted_mechanics = pytest.mark.skipif(
    ttr_core.compiled, reason="compiled callers do not see a monkeypatched module function"
)


@needs_interpreted_mechanics
def test_a_conjured_card_is_reported_with_seed_and_action_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A blind draw that adds a locomotive from nowhere after turn 9 is caught and located."""
    real = drawing.draw_blind

    def faulty(table: Any) -> None:
        seat, late = table.current, table.turn >= 9
        real(table)
        if late:
            payment_counts.gain_card(table, seat, LOCO)

    monkeypatch.setattr(drawing, "draw_blind", faulty)
    with pytest.raises(AssertionError) as info:
        check_edition("fictional", games=3, seed=11)
    args, text = _message(info)
    assert "locomotive cards are in play" in text
    # The position named is the one just after the faulty draw: replaying to the action
    # before it shows the draw as the last action, and the fault in the resulting state.
    game = game_at("fictional", **args)
    assert isinstance(game.log[-1].action, DrawBlind)
    with pytest.raises(AssertionError, match="locomotive"):
        kit.check_state(game.ruleset, game.state)
    monkeypatch.setattr(drawing, "draw_blind", real)
    before = game_at("fictional", **{**args, "actions": args["actions"] - 1})
    kit.check_state(before.ruleset, before.state)


def test_an_action_missing_from_the_legal_list_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If ``in`` forgets a legal action, the probes find apply accepting it."""
    real = legal.LegalActions.__contains__

    def forgetful(self: legal.LegalActions, action: object) -> bool:
        if isinstance(action, DrawTickets):
            return False
        return real(self, action)

    monkeypatch.setattr(legal.LegalActions, "__contains__", forgetful)
    with pytest.raises(AssertionError) as info:
        check_edition("fictional", games=2)
    text = _message(info)[1]
    assert "DrawTickets() is" in text
    assert "apply accepts" in text or "not 'in'" in text


@needs_interpreted_mechanics
def test_an_illegal_action_without_a_rule_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rejection must cite a rule id of the rules reference."""
    real = claims.check_claim

    def sloppy(table: Any, route: Any, cards: Any) -> int:
        try:
            return real(table, route, cards)
        except IllegalActionError as exc:
            raise IllegalActionError("claim", str(exc)) from None

    monkeypatch.setattr(claims, "check_claim", sloppy)
    with pytest.raises(AssertionError, match="without a rule id"):
        check_edition("fictional", games=1)


def test_a_view_that_leaks_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view showing the deck's next card to a player is caught by the secret perturbation."""
    from ttr_core.rules import views

    real = views.view_of

    def leaky(rs: Any, state: Any, seat: int) -> Any:
        view = real(rs, state, seat)
        top = state.deck[state.deck_pos] if state.deck_pos < len(state.deck) else -1
        return evolve(view, turn=view.turn * 100 + top)

    monkeypatch.setattr(kit.invariants, "view_of", leaky)
    with pytest.raises(AssertionError, match="view changes with others' secrets: turn"):
        check_edition("fictional", games=1)


def test_game_at_replays_the_kit_random_play() -> None:
    """game_at rebuilds exactly the game check_edition and play_game play."""
    rs = ruleset("fictional")
    full = play_game(rs, 3, 99)
    assert full.is_over
    middle = game_at("fictional", seed=99, players=3, actions=20)
    assert middle.log == full.log[:20]
    assert game_at("fictional", seed=99, players=3).save(compact=False) == full.save(compact=False)


# -- strategies and the action space -----------------------------------------------------------


def test_arbitrary_actions_cover_the_whole_action_space() -> None:
    """Over one game, the probes include every action class, unknown ids and bad payments."""
    rs = ruleset("europe")
    game = Game.new(rs, players=3, seed=4)
    chooser = Chooser(4)
    seen: Counter[str] = Counter()
    while not game.is_over:
        for action in arbitrary_actions(rs, game.state, chooser, 12):
            seen[type(action).__name__] += 1
            if isinstance(action, ClaimRoute):
                if action.route not in index_of(rs).route_index:
                    seen["unknown track"] += 1
                if len(action.cards) != NUM_KINDS or min(action.cards) < 0:
                    seen["malformed payment"] += 1
            if isinstance(action, KeepTickets):
                if any(t not in index_of(rs).ticket_index for t in action.tickets):
                    seen["unknown ticket"] += 1
                if len(set(action.tickets)) != len(action.tickets):
                    seen["repeated ticket"] += 1
        legal_now = game.legal_actions()
        game.apply(legal_now[chooser.below(len(legal_now))])
    assert {cls.__name__ for cls in ACTION_TYPES} <= set(seen)
    for kind in ("unknown track", "malformed payment", "unknown ticket", "repeated ticket"):
        assert seen[kind] > 0, kind


@kit_settings(30)
@given(data=st.data())
def test_games_strategy_repr_rebuilds_the_game(data: st.DataObject) -> None:
    """The games strategy gives games whose repr rebuilds them exactly."""
    game = data.draw(kit.games("fictional", players=(2, 3)))
    again = eval(repr(game), {"ttr_core": __import__("ttr_core")})
    assert again.state == game.state
    assert len(game.names) in (2, 3)


@kit_settings(30)
@given(played=kit.action_sequences("fictional", max_size=30))
def test_action_sequences_are_legal_and_replay(played: kit.ActionSequence) -> None:
    """Each drawn sequence replays from the setup without an illegal action."""
    game = played.replay()
    assert len(game.log) == len(played.actions) <= 30
    kit.check_state(game.ruleset, game.state)


@kit_settings(30)
@given(raw=kit.end_positions("fictional", options={"lighthouse_bonus": 4}))
def test_end_positions_are_in_the_score_format(raw: dict[str, Any]) -> None:
    """End positions parse with ``ttr score``'s reader and score consistently."""
    from ttr_core.testing.invariants import check_position

    assert raw["edition"] == "fictional"
    assert {"name", "routes", "tickets", "stations"} <= set(raw["players"][0])
    sheet = check_position(ruleset("fictional", {"lighthouse_bonus": 4}), raw)
    assert len(sheet["players"]) == len(raw["players"])


TestFictionalMachine = edition_machine("fictional", players=(2, 3)).TestCase
TestFictionalMachine.settings = kit_settings(20, stateful_step_count=30)


def test_machine_names_its_edition() -> None:
    """A machine made for an edition is a subclass that knows the edition and options."""
    machine = edition_machine("europe", players=3, options={})
    assert machine.__name__ == "EuropeMachine"
    assert machine.edition == "europe"
    assert machine.players == (3,)
    assert machine.option_sets == ({},)


def test_kit_settings_scale_with_the_loaded_profile() -> None:
    """Example counts follow the profile's max_examples relative to Hypothesis' 100."""
    from hypothesis import settings

    current = settings().max_examples
    assert kit_settings(40).max_examples == max(1, 40 * current // 100)
    assert kit_settings(40).deadline is None
    assert kit_settings(1).max_examples == 1


# -- golden helpers ------------------------------------------------------------------------


def test_golden_text_is_json_and_differences_name_the_path() -> None:
    """Golden files are JSON laid out for diffs; differences give JSON paths."""
    data = {"a": 1, "record": {"log": [{"x": 1}, {"x": 2}], "seed": 3}, "scores": {"p": [1]}}
    text = dump_golden(data)
    assert json.loads(text) == data
    assert '      {"x": 1},\n      {"x": 2}\n' in text
    changed = json.loads(text)
    changed["record"]["log"][1]["x"] = 5
    assert list(differences(data, changed)) == ["$.record.log[1].x: 5, expected 2"]
    changed["record"]["log"].append({"x": 3})
    assert "$.record.log: 3 items, expected 2" in list(differences(data, changed))


# -- the guide -----------------------------------------------------------------------------

GUIDE = ROOT / "docs" / "how-to" / "test-an-edition.md"
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```$", re.M | re.S)


def _fictional_files() -> dict[str, str]:
    return {
        str(p.relative_to(FICTIONAL)): p.read_text(encoding="utf-8")
        for p in sorted(FICTIONAL.rglob("*"))
        if p.is_file() and p.suffix in (".py", ".toml", ".json")
    }


def test_guide_excerpts_are_the_fictional_edition_and_its_code_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every Python, TOML and JSON block of the guide is an excerpt of the fictional package
    or runs as written."""
    text = GUIDE.read_text(encoding="utf-8")
    files = _fictional_files()
    blocks = [(m["lang"], m["body"]) for m in FENCE.finditer(text)]
    assert any(lang == "python" for lang, _ in blocks)
    namespace: dict[str, Any] = {"__name__": "guide"}
    ran = 0
    for lang, body in blocks:
        if lang == "toml":
            assert body in files["pyproject.toml"], body
        elif lang == "json":
            for line in body.splitlines():
                assert line.strip().rstrip(",") in files["ttr_fictional/fictional.json"], line
        elif lang == "python":
            if any(body in content for content in files.values()):
                continue
            exec(compile(body, "test-an-edition.md", "exec"), namespace)
            ran += 1
    assert ran >= 4
    for name, value in list(namespace.items()):
        if name.startswith("test_") and callable(value):
            value()
    for name in ("TestFictionalTwoPlayers", "TestFictionalMachine"):
        assert name in namespace


def test_guide_is_in_the_site_navigation() -> None:
    """The guide is listed under the how-to guides of mkdocs.yml."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "how-to/test-an-edition.md" in nav
