"""Maps drawn as SVG (``ttr_core.formats.render`` and ``ttr render``).

Every installed edition is drawn with every track and city, in the documented markup; the
drawing is the same bytes for the same input; a game record or a position shows each
claimed track in its owner's colour and each station on its city; ``--at`` counts
actions as ``ttr replay --at`` does; the heatmap colours tracks and cities by value; and
a finished game and a position carry their score sheet; and every misuse is one error
line.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import attrs
import pytest

from ttr_core import Game, GameState, RenderError, hookimpl
from ttr_core.cli import main
from ttr_core.formats.position import read_position
from ttr_core.formats.render import (
    HEAT_COLORS,
    NO_VALUE_COLOR,
    PLAYER_COLORS,
    ROUTE_COLORS,
    draw_heatmap,
    draw_map,
    heat_color,
)
from ttr_core.formats.render_geometry import text_box
from ttr_core.model.mapdata import MapData
from ttr_core.rules.scoring import PlayerPosition, Position, score_position
from ttr_core.ruleset.editions import installed_editions
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing import play_game, ruleset

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = ROOT / "examples" / "positions"
SVG = "{http://www.w3.org/2000/svg}"
EDITIONS = sorted(installed_editions())


def parse(svg: str) -> ET.Element:
    """The SVG's root element; the text must be well-formed XML."""
    return ET.fromstring(svg)


def by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("id", ""): e for e in root.iter() if e.get("id") is not None}


def rects(element: ET.Element) -> list[ET.Element]:
    return element.findall(f"{SVG}rect")


@pytest.fixture(scope="module")
def game() -> Game:
    """A finished three-player Europe game in which stations were built."""
    played = play_game(ruleset("europe"), 3, 1)
    assert played.is_over and max(played.state.station_owners) >= 0
    return played


@pytest.fixture(scope="module")
def record(game: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("render") / "game.json"
    path.write_text(game.save(), encoding="utf-8")
    return path


def render(args: list[str], capsys: Any) -> tuple[int, str, str]:
    code = main(["render", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


# -- every map --------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_edition_is_drawn_with_every_track_and_city(edition: str) -> None:
    """Each track is an element ``route-<id>`` with one rectangle per space in its colour,
    marked as tunnel, ferry (a symbol per locomotive) or card groups; each city is an
    element ``city-<id>`` with its name."""
    rs = ruleset(edition)
    root = parse(draw_map(rs))
    assert root.tag == f"{SVG}svg"
    found = by_id(root)
    for track in rs.map.routes:
        element = found[f"route-{track.id}"]
        classes = set(element.get("class", "").split())
        assert "route" in classes
        spaces = rects(element)
        assert len(spaces) == track.length
        assert {s.get("fill") for s in spaces} == {ROUTE_COLORS[track.color]}
        assert ("tunnel" in classes) == track.tunnel
        assert all(bool(s.get("stroke-dasharray")) == track.tunnel for s in spaces)
        assert len(element.findall(f"{SVG}circle[@class='locomotive']")) == track.ferry
        numbers = [t.text for t in element.findall(f"{SVG}text[@class='group-size']")]
        assert numbers == [str(track.card_groups)] * (track.length if track.card_groups else 0)
        assert element.get("data-owner") is None
    for city in rs.map.cities:
        element = found[f"city-{city.id}"]
        shown = [t.text for t in element.findall(f"{SVG}text")]
        assert shown and set(shown) == {city.country or city.id}
        assert ("border-arrow" in element.get("class", "")) == (city.country is not None)
    assert len(root.findall(f".//{SVG}g[@class]")) >= len(rs.map.routes) + len(rs.map.cities)


def test_the_editions_with_special_tracks_are_among_those_drawn() -> None:
    """The marks checked above really occur: tunnels, ferries, card groups, border arrows."""
    tracks = [t for e in EDITIONS for t in ruleset(e).map.routes]
    assert any(t.tunnel for t in tracks) and any(t.ferry for t in tracks)
    assert any(t.card_groups for t in tracks)
    assert any(c.country for e in EDITIONS for c in ruleset(e).map.cities)
    assert {"example", "fictional"} <= set(EDITIONS)


def test_the_tracks_of_a_double_route_lie_side_by_side() -> None:
    rs = ruleset("usa")
    found = by_id(parse(draw_map(rs)))
    doubles = [t for t in rs.map.routes if t.parallel is not None]
    assert doubles
    for track in doubles:
        mine = [s.get("transform") for s in rects(found[f"route-{track.id}"])]
        other = [s.get("transform") for s in rects(found[f"route-{track.parallel}"])]
        assert not set(mine) & set(other), track.id


def test_the_drawing_is_the_same_bytes_in_any_process() -> None:
    """Same input, same text: twice here, and in a process with another hash seed."""
    rs = ruleset("switzerland")
    here = draw_map(rs)
    assert draw_map(rs) == here
    code = "import sys, ttr_core; from ttr_core.formats.render import draw_map; "
    code += "sys.stdout.buffer.write(draw_map(ttr_core.ruleset_for('switzerland')).encode())"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, env=env, timeout=120
    )
    assert done.stdout == here.encode("utf-8")


class _MovedCities:
    """A house rule that gives the map other city coordinates."""

    def __init__(self, data: MapData, points: list[tuple[int, int]]) -> None:
        self.data = attrs.evolve(
            data,
            cities=tuple(
                attrs.evolve(c, x=x, y=y) for c, (x, y) in zip(data.cities, points, strict=True)
            ),
        )

    @hookimpl
    def ttr_map_data(self) -> MapData:
        return self.data


def test_a_map_without_coordinates_is_refused_clearly() -> None:
    data = ruleset("example").map
    bare = Ruleset.build("example", plugins=[_MovedCities(data, [(0, 0)] * len(data.cities))])
    with pytest.raises(RenderError, match=r"gives its cities no coordinates .* \(0, 0\)"):
        draw_map(bare)
    points = [(c.x, c.y) for c in data.cities]
    points[1] = points[0]
    twins = Ruleset.build("example", plugins=[_MovedCities(data, points)])
    first, second = data.cities[0].id, data.cities[1].id
    with pytest.raises(RenderError, match=f"'{first}' and '{second}' are both at"):
        draw_heatmap(twins, {})


def test_text_from_the_input_is_escaped() -> None:
    """Names with markup characters or control characters still give well-formed XML."""
    rs = ruleset("usa")
    position = Position(
        players=(
            PlayerPosition(name='<b>"Ann" & co</b>', routes=(0,), tickets=()),
            PlayerPosition(name="bell\x07", routes=(1,), tickets=()),
        )
    )
    root = parse(draw_map(rs, state=position, title="a < b & c"))
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert '<b>"Ann" & co</b> (seat 0)' in texts
    assert "bell\ufffd (seat 1)" in texts
    assert root.findtext(f"{SVG}title") == "a < b & c"


# -- claims -----------------------------------------------------------------------------------


def check_claims(rs: Ruleset, root: ET.Element, owners: tuple[int, ...], stations: Any) -> None:
    """Each claimed track is marked with its owner and drawn in the owner's colour, the
    others are not; each station is drawn on its city in its owner's colour."""
    found = by_id(root)
    for r, track in enumerate(rs.map.routes):
        element = found[f"route-{track.id}"]
        owner = owners[r]
        fills = {s.get("fill") for s in rects(element)}
        if owner >= 0:
            assert element.get("data-owner") == str(owner)
            assert fills == {PLAYER_COLORS[owner]}
            assert element.get("opacity") is None
        else:
            assert element.get("data-owner") is None
            assert fills == {ROUTE_COLORS[track.color]}
            assert element.get("opacity") is not None
    for c, city in enumerate(rs.map.cities):
        marks = found[f"city-{city.id}"].findall(f"{SVG}*[@class='station']")
        seat = stations[c] if stations else -1
        if seat >= 0:
            assert len(marks) == 1
            assert marks[0].get("data-owner") == str(seat)
            assert marks[0].get("fill") == PLAYER_COLORS[seat]
        else:
            assert marks == []


def test_a_record_shows_each_claimed_track_in_its_owners_colour(
    game: Game, record: Path, tmp_path: Path, capsys: Any
) -> None:
    out = tmp_path / "game.svg"
    assert render([str(record), "--out", str(out)], capsys) == (0, "", "")
    root = parse(out.read_text(encoding="utf-8"))
    state = game.state
    assert sum(1 for o in state.owners if o >= 0) > 10
    check_claims(game.ruleset, root, state.owners, state.station_owners)
    legend = [t.text for t in root.iter(f"{SVG}text")]
    assert {"Player 1 (seat 0)", "Player 2 (seat 1)", "Player 3 (seat 2)"} <= set(legend)


def test_at_draws_the_position_after_that_many_actions(
    game: Game, record: Path, tmp_path: Path, capsys: Any
) -> None:
    """``--at N`` counts actions as ``ttr replay --at`` does: 0 is after the setup, the
    number of actions is the end."""
    states = list(game.history())
    actions = len(game.log)
    middle = actions // 2
    for at in (0, middle, actions):
        out = tmp_path / f"at-{at}.svg"
        code, _, err = render([str(record), "--out", str(out), "--at", str(at)], capsys)
        assert code == 0, err
        root = parse(out.read_text(encoding="utf-8"))
        check_claims(game.ruleset, root, states[at].owners, states[at].station_owners)
    assert all(o < 0 for o in states[0].owners)
    assert states[0].owners != states[middle].owners != states[actions].owners
    full = tmp_path / "full.svg"
    render([str(record), "--out", str(full)], capsys)
    assert full.read_bytes() == (tmp_path / f"at-{actions}.svg").read_bytes()


def test_a_position_shows_its_claims_and_stations(tmp_path: Path, capsys: Any) -> None:
    path = POSITIONS / "europe.json"
    out = tmp_path / "position.svg"
    assert render([str(path), "--out", str(out)], capsys) == (0, "", "")
    rs, position = read_position(path.read_bytes())
    owners = [-1] * len(rs.map.routes)
    stations = [-1] * len(rs.map.cities)
    for seat, player in enumerate(position.players):
        for r in player.routes:
            owners[r] = seat
        for c in player.stations:
            stations[c] = seat
    assert max(stations) >= 0
    root = parse(out.read_text(encoding="utf-8"))
    check_claims(rs, root, tuple(owners), stations)
    for seat, player in enumerate(position.players):
        assert f"{player.name} (seat {seat})" in [t.text for t in root.iter(f"{SVG}text")]


def test_a_state_that_does_not_fit_the_map_is_refused(game: Game) -> None:
    usa = ruleset("usa")
    with pytest.raises(RenderError, match="not one of the map of 'usa'"):
        draw_map(usa, state=game.state)
    with pytest.raises(RenderError, match="2 names given for 3 players"):
        draw_map(game.ruleset, state=game.state, names=["Ann", "Bob"])
    wrong: GameState = attrs.evolve(game.state, owners=(7,) * len(game.state.owners))
    with pytest.raises(RenderError, match="not one of its 3 players"):
        draw_map(game.ruleset, state=wrong)
    outside = Position(players=(PlayerPosition(name="A", routes=(999,), tickets=()),))
    with pytest.raises(RenderError, match="track index 999"):
        draw_map(usa, state=outside)


# -- the heatmap ------------------------------------------------------------------------------


def test_the_heat_scale_runs_through_its_stops() -> None:
    assert heat_color(0) == HEAT_COLORS[0]
    assert heat_color(1.0) == HEAT_COLORS[-1]
    step = 1 / (len(HEAT_COLORS) - 1)
    assert [heat_color(i * step) for i in range(len(HEAT_COLORS))] == list(HEAT_COLORS)
    low, high = HEAT_COLORS[0], HEAT_COLORS[1]
    middle = heat_color(step / 2)
    for k in (1, 3, 5):
        channel = int(middle[k : k + 2], 16)
        ends = sorted((int(low[k : k + 2], 16), int(high[k : k + 2], 16)))
        assert ends[0] <= channel <= ends[1]
    for bad in (-0.01, 1.5, float("nan"), float("inf"), True, "0.5", None):
        with pytest.raises(RenderError, match="from 0 to 1"):
            heat_color(bad)  # type: ignore[arg-type]


def test_the_heatmap_colours_each_track_and_city_by_its_value() -> None:
    rs = ruleset("nordic")
    tracks = rs.map.routes
    values = {t.id: (i % 11) / 10 for i, t in enumerate(tracks) if i != 3}
    cities = {c.id: (i % 5) / 4 for i, c in enumerate(rs.map.cities)}
    svg = draw_heatmap(rs, values, city_values=cities, title="Claims", label="claimed")
    assert svg == draw_heatmap(rs, values, city_values=cities, title="Claims", label="claimed")
    root = parse(svg)
    found = by_id(root)
    for track in tracks:
        element = found[f"route-{track.id}"]
        fills = {s.get("fill") for s in rects(element)}
        if track.id in values:
            assert fills == {heat_color(values[track.id])}
            assert float(element.get("data-value", "nan")) == pytest.approx(values[track.id])
        else:
            assert fills == {NO_VALUE_COLOR}
            assert element.get("data-value") is None
    for city in rs.map.cities:
        element = found[f"city-{city.id}"]
        dot = element.find(f"{SVG}circle")
        assert dot is not None and dot.get("fill") == heat_color(cities[city.id])
        assert float(element.get("data-value", "nan")) == pytest.approx(cities[city.id])
    assert found["heat-scale"].tag == f"{SVG}linearGradient"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert {"Claims", "claimed", "no value", "0", "1"} <= set(texts)
    every = {t.id: 0.5 for t in tracks}
    assert "no value" not in [t.text for t in parse(draw_heatmap(rs, every)).iter(f"{SVG}text")]


def test_the_heatmap_refuses_what_is_not_on_the_map() -> None:
    rs = ruleset("usa")
    with pytest.raises(RenderError, match="no track 99999 on the map of 'usa'"):
        draw_heatmap(rs, {99999: 0.5})
    with pytest.raises(RenderError, match="no city 'Atlantis'"):
        draw_heatmap(rs, {}, city_values={"Atlantis": 0.5})
    with pytest.raises(RenderError, match="from 0 to 1"):
        draw_heatmap(rs, {rs.map.routes[0].id: 2.0})


# -- the command line -------------------------------------------------------------------------


def test_an_edition_is_drawn_by_id_or_alias_to_a_file_or_stdout(
    tmp_path: Path, capsys: Any
) -> None:
    out = tmp_path / "europe.svg"
    assert render(["europa", "--out", str(out)], capsys) == (0, "", "")
    assert out.read_text(encoding="utf-8") == draw_map(ruleset("europe"))
    code, stdout, err = render(["EU", "--out", "-"], capsys)
    assert (code, err) == (0, "")
    assert stdout == out.read_text(encoding="utf-8")


def test_a_folder_named_like_an_edition_is_not_a_file(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an existing file is read; a folder ``usa`` leaves ``usa`` the edition."""
    (tmp_path / "usa").mkdir()
    monkeypatch.chdir(tmp_path)
    assert render(["usa", "--out", "usa.svg"], capsys) == (0, "", "")
    assert (tmp_path / "usa.svg").read_text(encoding="utf-8") == draw_map(ruleset("usa"))


def test_a_record_on_standard_input_is_drawn(
    record: Path, tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(record.read_bytes())))
    out = tmp_path / "stdin.svg"
    assert render(["-", "--out", str(out)], capsys) == (0, "", "")
    assert "data-owner" in out.read_text(encoding="utf-8")


def error_cases(record: Path, tmp: Path) -> list[tuple[list[str], int, str]]:
    """Command lines that must fail: arguments, status, a part of the message."""
    files = {
        "not_json": "this is not JSON",
        "list": "[1, 2]",
        "neither": json.dumps({"edition": "usa"}),
        "bad_position": json.dumps({"edition": "usa", "players": []}),
        "bad_record": json.dumps({**json.loads(record.read_text()), "map_hash": "0" * 64}),
    }
    for name, text in files.items():
        (tmp / f"{name}.json").write_text(text, encoding="utf-8")
    out = str(tmp / "out.svg")
    position = str(POSITIONS / "usa.json")
    return [
        (["atlantis", "--out", out], 1, "unknown edition 'atlantis'; installed editions: "),
        (["records/missing.json", "--out", out], 1, "cannot read records/missing.json: No such"),
        ([str(tmp), "--out", out], 1, "cannot read"),
        ([str(tmp / "not_json.json"), "--out", out], 1, "not valid JSON"),
        ([str(tmp / "list.json"), "--out", out], 1, "neither a game record"),
        ([str(tmp / "neither.json"), "--out", out], 1, "neither a game record"),
        ([str(tmp / "bad_position.json"), "--out", out], 1, "at least one player"),
        ([str(tmp / "bad_record.json"), "--out", out], 1, "map data"),
        ([str(record), "--out", out, "--at", "-1"], 2, "expected a number of actions from 0"),
        ([str(record), "--out", out, "--at", "100000"], 2, "from 0 to "),
        ([str(record), "--out", out, "--option", "x=1"], 2, "carries its own options"),
        (["usa", "--out", out, "--at", "3"], 2, "usa is an edition"),
        ([position, "--out", out, "--at", "3"], 2, "is a position"),
        (["usa", "--out", out, "--option", "speed=2"], 1, "no option 'speed'"),
        (["usa", "--out", str(tmp / "missing" / "x.svg")], 1, "--out: cannot write"),
        (["usa", "--out", str(tmp)], 1, "--out: cannot write"),
        (["usa"], 2, "required: --out"),
        (["usa", "--out", out, "--at", "x"], 2, "--at"),
    ]


def test_every_misuse_is_one_error_line(record: Path, tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "out.svg"
    for args, status, message in error_cases(record, tmp_path):
        code, stdout, err = render(args, capsys)
        assert (code, stdout) == (status, ""), (args, err)
        assert err.count("\n") == 1 and err.startswith("ttr: error: "), (args, err)
        assert message in err, (args, err)
        assert "Traceback" not in err and "unexpected" not in err
        assert not out.exists(), args
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


# -- the score sheet --------------------------------------------------------------------------


def panel_texts(root: ET.Element) -> dict[int, list[tuple[str, str]]]:
    """The score sheet's lines by seat: the class of each text and the text."""
    found = by_id(root)
    out: dict[int, list[tuple[str, str]]] = {}
    for block in found["scores"].findall(f"{SVG}g"):
        seat = int(block.get("data-seat", "-1"))
        out[seat] = [(t.get("class", ""), t.text or "") for t in block.findall(f"{SVG}text")]
    return out


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"


def text_extent(root: ET.Element, inside: str) -> tuple[float, float, float, float]:
    """The box around the texts and shapes under the element ``inside`` (by id)."""
    found = by_id(root)
    xs: list[float] = []
    ys: list[float] = []
    for e in found[inside].iter():
        if e.tag == f"{SVG}text":
            box = text_box(
                float(e.get("x", "0")),
                float(e.get("y", "0")),
                e.text or "",
                float(e.get("font-size", "0")),
                e.get("text-anchor", "start"),
            )
            xs += [box[0], box[2]]
            ys += [box[1], box[3]]
        elif e.tag == f"{SVG}rect" and e.get("transform") is None:
            x, y = float(e.get("x", "0")), float(e.get("y", "0"))
            xs += [x, x + float(e.get("width", "0"))]
            ys += [y, y + float(e.get("height", "0"))]
        elif e.tag == f"{SVG}rect":
            found_place = e.get("transform", "").split("(")[1].split(")")[0].split()
            x, y = float(found_place[0]), float(found_place[1])
            reach = float(e.get("width", "0")) / 2
            xs += [x - reach, x + reach]
            ys += [y - reach, y + reach]
    return min(xs), min(ys), max(xs), max(ys)


def test_a_finished_game_shows_its_score_sheet_below_a_wide_map() -> None:
    """Each player's block gives the total, the route points, the tickets completed and
    failed (each one and their sums) and every bonus, as ``Game.scores()`` has them; the
    panel lies below the map and inside the picture."""
    game = play_game(ruleset("europe"), 3, 4)  # tickets both completed and failed
    sheet = game.scores()
    rs = game.ruleset
    root = parse(draw_map(rs, state=game.state, names=game.names, scores=sheet))
    blocks = panel_texts(root)
    assert sorted(blocks) == list(range(len(sheet.players)))
    tickets = {t.id: t for t in rs.map.tickets}
    for seat, score in enumerate(sheet.players):
        lines = blocks[seat]
        texts = [text for _, text in lines]
        head = lines[0][1]
        assert head.startswith(f"{game.names[seat]} (seat {seat})")
        assert head.endswith("winner") == (seat in sheet.winners)
        assert texts[texts.index("total") + 1] == str(score.total)
        assert texts[texts.index("routes") + 1] == signed(score.route_points)
        done = [t for t in score.tickets if t.completed]
        failed = [t for t in score.tickets if not t.completed]
        line = texts.index(f"tickets completed ({len(done)})")
        assert texts[line + 1] == signed(sum(t.points for t in done))
        line = texts.index(f"tickets failed ({len(failed)})")
        assert texts[line + 1] == signed(sum(t.points for t in failed))
        for result in score.tickets:
            ticket = tickets[result.ticket]
            line = texts.index(f"{ticket.a}–{ticket.b}")
            assert texts[line + 1] == signed(result.points)
        for name, points in score.bonuses.items():
            assert texts[texts.index(name.replace("_", " ")) + 1] == signed(points)
        assert sum(1 for kind, _ in lines if kind == "ticket") == len(score.tickets)
    assert any(t.completed for p in sheet.players for t in p.tickets)
    assert any(not t.completed for p in sheet.players for t in p.tickets)
    panel = text_extent(root, "scores")
    routes, cities = text_extent(root, "routes"), text_extent(root, "cities")
    assert panel[1] > max(routes[3], cities[3])
    left, top, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert left <= panel[0] and panel[2] <= left + width
    assert top <= panel[1] and panel[3] <= top + height


def test_the_score_sheet_of_a_tall_map_stands_beside_it() -> None:
    played = play_game(ruleset("india"), 4, 1)
    sheet = played.scores()
    root = parse(draw_map(played.ruleset, state=played.state, scores=sheet))
    assert sorted(panel_texts(root)) == [0, 1, 2, 3]
    panel = text_extent(root, "scores")
    routes, cities = text_extent(root, "routes"), text_extent(root, "cities")
    assert panel[0] > max(routes[2], cities[2])
    left, _, width, _ = (float(v) for v in root.get("viewBox", "").split())
    assert panel[2] <= left + width


def test_ttr_render_shows_the_score_sheet_at_the_end_only(
    game: Game, record: Path, tmp_path: Path, capsys: Any
) -> None:
    """A record drawn at its end and a position show the score sheet; a record drawn
    before its end does not."""
    end, middle, position = tmp_path / "end.svg", tmp_path / "middle.svg", tmp_path / "p.svg"
    assert render([str(record), "--out", str(end)], capsys)[0] == 0
    assert render([str(record), "--out", str(middle), "--at", "40"], capsys)[0] == 0
    assert render([str(POSITIONS / "europe.json"), "--out", str(position)], capsys)[0] == 0
    shown = panel_texts(parse(end.read_text(encoding="utf-8")))
    assert next(text for kind, text in shown[0] if kind == "points") == str(
        game.scores().players[0].total
    )
    assert "scores" not in by_id(parse(middle.read_text(encoding="utf-8")))
    rs, read = read_position((POSITIONS / "europe.json").read_bytes())
    sheet = score_position(rs, read)
    blocks = panel_texts(parse(position.read_text(encoding="utf-8")))
    for seat, score in enumerate(sheet.players):
        assert next(text for kind, text in blocks[seat] if kind == "points") == str(score.total)


def test_a_score_sheet_that_does_not_fit_is_refused(game: Game) -> None:
    sheet = game.scores()
    rs = game.ruleset
    with pytest.raises(RenderError, match="with the state it scores"):
        draw_map(rs, scores=sheet)
    with pytest.raises(RenderError, match="one of 'europe', not of 'usa'"):
        usa = ruleset("usa")
        draw_map(usa, state=Position(players=()), scores=sheet)
    fewer = attrs.evolve(sheet, players=sheet.players[:2])
    with pytest.raises(RenderError, match="has 2 players and the state 3"):
        draw_map(rs, state=game.state, scores=fewer)
