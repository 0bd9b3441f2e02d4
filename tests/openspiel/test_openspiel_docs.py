"""The code of the how-to guide "Use OpenSpiel" runs as written and prints what its
comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "how-to" / "use-openspiel.md"
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```$", re.M | re.S)
SAYS = re.compile(r"^print\(.*\)  # (?P<says>.*)$")


def _blocks() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    return [m["body"] for m in FENCE.finditer(text) if m["lang"] == "python"]


def test_the_page_has_code() -> None:
    assert len(_blocks()) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(_blocks())))
def test_each_block_runs_and_prints_what_it_says(index: int) -> None:
    """Every top-level ``print(...)  # comment`` prints a line starting with the comment,
    unless the comment starts with "e.g." (output that depends on the draws)."""
    block = _blocks()[index]
    said = [m["says"] for line in block.splitlines() if (m := SAYS.match(line))]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, f"use-openspiel[{index}]", "exec"), {"__name__": "docs"})
    printed = out.getvalue().splitlines()
    assert len(printed) == len(said)
    for line, says in zip(printed, said, strict=True):
        if not says.startswith("e.g."):
            assert line.startswith(says), (line, says)
