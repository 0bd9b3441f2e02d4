"""The documentation stays true to the code.

Every hook is documented with its exact signature and kind, every rule heading is a
well-formed unique id, the reference pages list every action, event, error and map key,
and the code in the tutorial and how-to guides runs as written.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import ttr_core as ttr
from ttr_core.model import errors, mapdata
from ttr_core.model.actions import ACTION_TYPES
from ttr_core.model.events import EVENT_TYPES
from ttr_core.play.compact_records import parse_action
from ttr_core.ruleset import hookspecs

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
EXAMPLE_EDITION = ROOT / "examples" / "ttr-example-edition"

RULE_HEADING = re.compile(r"^### (?P<id>(?P<area>[A-Z]+)-(?P<n>[A-Z]?[1-9][0-9]*)): \S.*$")
LOOKS_LIKE_RULE = re.compile(r"^#+ [A-Z]+-[A-Z]?[0-9]+\b")
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```$", re.M | re.S)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def code_blocks(text: str, lang: str) -> list[str]:
    return [m["body"] for m in FENCE.finditer(text) if m["lang"] == lang]


# --- hooks ---------------------------------------------------------------------------------


def hook_specs() -> dict[str, Callable[..., Any]]:
    marker = f"{hookspecs.PROJECT}_spec"
    return {
        name: obj for name, obj in vars(hookspecs).items() if callable(obj) and hasattr(obj, marker)
    }


def _annotation(value: Any) -> str:
    return value if isinstance(value, str) else inspect.formatannotation(value)


def render_signature(func: Callable[..., Any]) -> str:
    """``def name(arg: Type, ...) -> Return`` as written in the source."""
    sig = inspect.signature(func)
    params = []
    for p in sig.parameters.values():
        text = p.name
        if p.annotation is not inspect.Parameter.empty:
            text += f": {_annotation(p.annotation)}"
        if p.default is not inspect.Parameter.empty:
            text += f" = {p.default!r}"
        params.append(text)
    out = f"def {func.__name__}({', '.join(params)})"
    if sig.return_annotation is not inspect.Signature.empty:
        out += f" -> {_annotation(sig.return_annotation)}"
    return out


def hook_section(page: str, name: str) -> str:
    match = re.search(rf"^### {name}\n(.*?)(?=^##)", page + "\n##", re.M | re.S)
    assert match is not None, f"docs/reference/hooks.md has no section '### {name}'"
    return match.group(1)


def test_there_are_hooks_to_document() -> None:
    assert len(hook_specs()) >= 6


@pytest.mark.parametrize("name", sorted(hook_specs()))
def test_every_hook_is_documented_with_its_exact_signature(name: str) -> None:
    """The section shows the signature as written, after the imports of every name in it."""
    page = read(DOCS / "reference" / "hooks.md")
    section = hook_section(page, name)
    signature = render_signature(hook_specs()[name])
    blocks = [b for b in code_blocks(section, "python") if b.endswith(f"\n{signature}\n")]
    assert blocks, f"expected a block ending with the signature {signature}"
    # Without postponed annotations, defining the function evaluates every type it names.
    exec(compile(blocks[0].rstrip() + ": ...\n", f"hooks.md {name}", "exec"), {})


@pytest.mark.parametrize("name", sorted(hook_specs()))
def test_every_hook_is_documented_as_build_or_play_time_and_firstresult(name: str) -> None:
    spec = hook_specs()[name]
    doc = inspect.getdoc(spec) or ""
    section = hook_section(read(DOCS / "reference" / "hooks.md"), name)
    when = "Build time" if "Build time" in doc else "Play time"
    assert when in doc, f"the hookspec docstring of {name} does not say when it is called"
    firstresult = getattr(spec, f"{hookspecs.PROJECT}_spec")["firstresult"]
    kind = "firstresult" if firstresult else "collected"
    found = re.search(r"^\*\*(Build time|Play time), (firstresult|collected)\.\*\*", section, re.M)
    assert found is not None, f"{name}: no '**Build/Play time, firstresult/collected.**'"
    assert found.groups() == (when, kind)


def test_hooks_page_documents_no_hook_that_does_not_exist() -> None:
    page = read(DOCS / "reference" / "hooks.md")
    documented = set(re.findall(r"^### (ttr_\w+)$", page, re.M))
    assert documented == set(hook_specs())


# --- rules -----------------------------------------------------------------------------------


def rule_headings() -> list[tuple[str, str]]:
    found = []
    for path in sorted(RULES.glob("*.md")):
        for line in read(path).splitlines():
            if line.startswith("### "):
                found.append((path.name, line))
    return found


def test_rules_pages_exist() -> None:
    names = {p.name for p in RULES.glob("*.md")}
    expected = {"index.md", "core.md", "usa.md", "europe.md", "india.md"}
    expected |= {"switzerland.md", "nordic.md", "examples.md", "decisions.md"}
    assert expected <= names


def test_every_rule_heading_is_well_formed() -> None:
    bad = [(page, line) for page, line in rule_headings() if not RULE_HEADING.match(line)]
    assert not bad, f"rule headings must read '### AREA-N: title': {bad}"
    assert len(rule_headings()) > 100


def test_rule_ids_are_unique() -> None:
    seen: dict[str, str] = {}
    duplicates = []
    for page, line in rule_headings():
        match = RULE_HEADING.match(line)
        assert match is not None
        rule = match["id"]
        if rule in seen:
            duplicates.append(f"{rule} in {seen[rule]} and {page}")
        seen[rule] = page
    assert not duplicates


def test_rule_ids_appear_only_as_level_three_headings() -> None:
    wrong = [
        (path.name, line)
        for path in sorted(RULES.glob("*.md"))
        for line in read(path).splitlines()
        if LOOKS_LIKE_RULE.match(line) and not line.startswith("### ")
    ]
    assert not wrong


# --- reference pages -------------------------------------------------------------------------


def test_record_format_lists_every_action_and_event_tag() -> None:
    page = read(DOCS / "reference" / "record-format.md")
    classes: tuple[type[Any], ...] = (*ACTION_TYPES, *EVENT_TYPES)
    for cls in classes:
        row = re.search(rf"^\| `{cls.tag}` \| (.*?) \|", page, re.M)
        assert row is not None, f"no row for the tag {cls.tag!r}"
        keys = [f.name for f in attrs.fields(cls)]
        for key in keys:
            assert f"`{key}`" in row.group(1), f"{cls.tag}: key {key!r} is not listed"


def test_record_format_example_is_a_valid_record() -> None:
    page = read(DOCS / "reference" / "record-format.md")
    example, compact = code_blocks(page, "json")
    record = ttr.GameRecord.from_json(example)
    assert record.edition == "usa"
    assert set(json.loads(example)) == {f.name for f in attrs.fields(ttr.GameRecord)}
    # Replayed from its recorded shuffles, the example is a real game of this engine and
    # map (if the USA map data changes, the example's map hash must be renewed).
    seedless = json.loads(example) | {"seed": None}
    game = ttr.Game.load(json.dumps(seedless))
    assert len(game.log) == len(record.log) == 5
    # The compact example is the same game, as the library writes it.
    assert ttr.GameRecord.from_json(compact) == record
    assert json.dumps(json.loads(compact), separators=(",", ":")) == ttr.Game.load(example).save()


def test_record_format_has_a_token_for_every_action() -> None:
    page = read(DOCS / "reference" / "record-format.md")
    section = page[page.index("## The compact form") :]
    for cls in ACTION_TYPES:
        row = re.search(rf"^\| `([^`]*)` \| `{cls.tag}`", section, re.M)
        assert row is not None, f"no token row for {cls.tag!r}"
        assert type(parse_action(row.group(1))) is cls


def test_errors_page_lists_every_exception() -> None:
    page = read(DOCS / "reference" / "errors.md")
    classes = [
        obj
        for obj in vars(errors).values()
        if isinstance(obj, type) and issubclass(obj, errors.TtrError)
    ]
    assert len(classes) >= 8
    for cls in classes:
        assert f"| `{cls.__name__}` |" in page
        assert f"## {cls.__name__}" in page or cls is errors.TtrError


@pytest.mark.parametrize(
    "cls",
    [
        mapdata.MapData,
        mapdata.City,
        mapdata.Country,
        mapdata.Track,
        mapdata.Ticket,
        mapdata.TicketDeal,
        mapdata.DisplayRules,
        mapdata.Parameters,
    ],
)
def test_map_format_documents_every_key(cls: type) -> None:
    page = read(DOCS / "reference" / "map-format.md")
    rows = set(re.findall(r"^\| `(\w+)`", page, re.M))
    rows |= {"x", "y"} if "| `x`, `y` |" in page else set()
    for f in attrs.fields(cls):
        assert f.name in rows, f"{cls.__name__}.{f.name} is not documented"


def test_map_format_example_is_valid_map_data() -> None:
    (example,) = code_blocks(read(DOCS / "reference" / "map-format.md"), "json")
    assert mapdata.load_map_data(example).edition == "example"


def test_score_contract_example_gives_the_documented_output() -> None:
    from ttr_core.formats.position import read_position
    from ttr_core.rules.scoring import score_position, scoresheet_json

    page = read(DOCS / "how-to" / "score-a-position.md")
    given, expected = code_blocks(page, "json")
    rs, position = read_position(given)
    assert scoresheet_json(rs, score_position(rs, position)) == json.loads(expected)


# --- runnable pages --------------------------------------------------------------------------


def run_blocks(blocks: list[str], name: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": f"docs_{name}"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{name}[{i}]", "exec"), namespace)
    for key, value in list(namespace.items()):
        if key.startswith("test_") and callable(value):
            value()
    return namespace


@pytest.mark.slow
@pytest.mark.parametrize(
    "page",
    [
        "index.md",
        "tutorial/first-game.md",
        "how-to/write-a-bot.md",
        "how-to/house-rules.md",
        "how-to/score-a-position.md",
        "how-to/search-with-the-simulator.md",
        "how-to/train-an-agent.md",
    ],
)
def test_python_examples_run(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = code_blocks(read(DOCS / page), "python")
    assert blocks
    run_blocks(blocks, page)


def test_tutorial_shows_real_output(capsys: pytest.CaptureFixture[str]) -> None:
    """A ``print(...)  # comment`` line prints what its comment starts with.

    Comments starting with "e.g." show output that depends on the shuffle; they are not
    checked, so a change to the shuffle does not make the tutorial wrong.
    """
    blocks = code_blocks(read(DOCS / "tutorial" / "first-game.md"), "python")
    namespace: dict[str, Any] = {}
    checked = 0
    for i, block in enumerate(blocks):
        exec(compile(block, f"tutorial[{i}]", "exec"), namespace)
        printed = [line for line in capsys.readouterr().out.splitlines() if line]
        for comment in re.findall(r"^print\(.*\)\s+# (.+)$", block, re.M):
            if comment.startswith("e.g."):
                continue  # output that depends on the shuffle
            assert any(comment.startswith(line) for line in printed), (comment, printed)
            checked += 1
    assert checked >= 10


def imported_names(source: str) -> set[tuple[str, str]]:
    """``(module, name)`` for every name a piece of code imports at its top level."""
    found: set[tuple[str, str]] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom):
            found |= {(node.module or "", alias.name) for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {(alias.name, alias.asname or alias.name) for alias in node.names}
    return found


def assert_excerpt(block: str, plugin: str) -> None:
    """The block imports what plugin.py imports, and its other statements are in plugin.py."""
    assert imported_names(block) <= imported_names(plugin), f"imports not in plugin.py:\n{block}"
    lines = block.splitlines()
    for node in ast.parse(block).body:
        if not isinstance(node, ast.Import | ast.ImportFrom):
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            part = "\n".join(lines[first - 1 : node.end_lineno])
            assert part in plugin, f"not an excerpt of plugin.py:\n{part}"


def test_add_an_edition_excerpts_match_the_example_edition() -> None:
    page = read(DOCS / "how-to" / "add-an-edition.md")
    plugin = read(EXAMPLE_EDITION / "ttr_example_edition" / "plugin.py")
    pyproject = read(EXAMPLE_EDITION / "pyproject.toml")
    data = read(EXAMPLE_EDITION / "ttr_example_edition" / "example.json")
    runnable = []
    for block in code_blocks(page, "python"):
        if "@hookimpl" in block:
            assert_excerpt(block, plugin)
        else:
            runnable.append(block)
    for block in code_blocks(page, "toml"):
        assert block in pyproject, f"not an excerpt of pyproject.toml:\n{block}"
    for block in code_blocks(page, "json"):
        for line in block.splitlines():
            assert line.rstrip(",") in data, f"not a line of example.json: {line}"
    if "example" in ttr.installed_editions():
        run_blocks(runnable, "add-an-edition")


def test_docs_editions_table_matches_installed_builtin_editions() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` \| .*? \| (\d–\d) \|$", read(DOCS / "index.md"), re.M))
    builtin = {ed.info.id: ed for ed in ttr.installed_editions().values() if ed.builtin}
    assert set(rows) == set(builtin)
    for edition_id, ed in builtin.items():
        assert rows[edition_id] == "{}–{}".format(*ed.players), edition_id


# --- site configuration ----------------------------------------------------------------------


def nav_pages(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [page for item in node for page in nav_pages(item)]
    if isinstance(node, dict):
        return [page for value in node.values() for page in nav_pages(value)]
    return []


def test_every_docs_page_is_in_the_navigation() -> None:
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load(read(ROOT / "mkdocs.yml"))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert set(nav_pages(config["nav"])) == pages


def test_docs_build_needs_no_network() -> None:
    """No remote inventories, and only plugins that work offline."""
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load(read(ROOT / "mkdocs.yml"))
    assert "inventories" not in read(ROOT / "mkdocs.yml")
    names = {next(iter(p)) if isinstance(p, dict) else p for p in config["plugins"]}
    assert names <= {"search", "autorefs", "mkdocstrings"}


IMPLEMENTED_RULE_PAGES = (
    "core.md",
    "usa.md",
    "europe.md",
    "india.md",
    "switzerland.md",
    "nordic.md",
)
"""Rules pages of the core and of the built-in editions."""
IMPLEMENTED_EXAMPLES = ("EX-U", "EX-E", "EX-I", "EX-S", "EX-N")


@pytest.mark.slow
def test_every_rule_of_an_implemented_edition_is_cited_by_a_test() -> None:
    """Each rule id (and worked example) of the built-in editions is named by some test,
    as written (``NC-13``) or in a test name (``test_nc_13_...``)."""
    ids = [
        match["id"]
        for page, line in rule_headings()
        if (match := RULE_HEADING.match(line)) is not None
        and (
            page in IMPLEMENTED_RULE_PAGES
            or (page == "examples.md" and match["id"].startswith(IMPLEMENTED_EXAMPLES))
        )
    ]
    tests = ROOT / "tests"
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(tests.rglob("*.py")))
    named = text.lower().replace("_", "-")

    def cited(rule: str) -> bool:
        pattern = rf"(?<![a-z0-9]){re.escape(rule.lower())}(?![0-9])"
        return re.search(pattern, named) is not None

    uncited = [rule for rule in ids if not cited(rule)]
    assert len(ids) > 150
    assert not uncited, f"rules no test cites: {uncited}"
