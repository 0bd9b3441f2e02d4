"""Writing a balance report to a directory: ``report.json``, the figures as SVG files,
the map as ``map.svg`` and ``report.html``, the page that shows them all offline."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ttr_core.formats.render import draw_heatmap
from ttr_core.model.errors import RenderError
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.study.page import report_page
from ttr_core.study.plots import figures

MAP_NOTE = (
    "Each track is coloured by the share of games in which it was claimed, each city by "
    "how often it is part of a player's network. Point at a track or a city for its name."
)


def draw_study_map(rs: Ruleset, report: Mapping[str, Any]) -> str:
    """The map of ``rs`` as SVG, tracks coloured by their claim rate and cities by their
    desirability (see
    [`ttr_core.formats.render.draw_heatmap`][ttr_core.formats.render.draw_heatmap]).

    :raises RenderError: the map cannot be drawn (its cities have no coordinates).
    """
    tracks = {t["id"]: t["rate"] for route in report["routes"] for t in route["tracks"]}
    cities = {c["city"]: c["share"] for c in report["cities"]}
    study = report["study"]
    return draw_heatmap(
        rs,
        tracks,
        city_values=cities,
        title=f"{study['name']}: {study['games_measured']} games, {study['players']} players",
        label="share of games claimed (tracks), of networks (cities)",
    )


def write_report(
    rs: Ruleset, report: Mapping[str, Any], directory: str | os.PathLike[str]
) -> list[Path]:
    """Write the report of a study of ``rs`` to ``directory`` (created if missing) and
    return the paths written, ``report.json`` and ``report.html`` first.

    Each file is written whole or not at all (through a temporary file and a rename).

    :raises MissingExtraError: matplotlib is not installed (nothing is written).
    :raises OSError: a file cannot be written.
    """
    drawn = figures(dict(report))
    try:
        map_svg: str | None = draw_study_map(rs, report)
        note = MAP_NOTE
    except RenderError as exc:
        map_svg, note = None, f"The map cannot be drawn: {exc}"
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {
        "report.json": json.dumps(report, indent=2, ensure_ascii=False) + "\n",
        "report.html": report_page(report, drawn, map_svg, note),
    }
    if map_svg is not None:
        files["map.svg"] = map_svg
    files.update(drawn)
    written = []
    for name, text in files.items():
        written.append(_write(out / name, text))
    return written


def _write(path: Path, text: str) -> Path:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
    return path
