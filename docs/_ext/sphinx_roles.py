"""A griffe extension for the API reference: render Sphinx roles in docstrings as links.

The code's docstrings cross-reference with Sphinx roles (``:class:`~ttr_core.play.game.Game```).
mkdocstrings does not read them, so this extension rewrites each role, before the
docstring is parsed, into an optional autorefs link: a link where the target is
documented, plain code where it is not. Names without a package prefix are looked up in
the module of the docstring, as Sphinx does.
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj):`(?P<target>[^`]+)`")


def _link(module: str, target: str) -> str:
    short = target.startswith("~")
    path = target.lstrip("~").strip()
    if not path.startswith(module.split(".")[0] + "."):
        path = f"{module}.{path}"
    title = path.rsplit(".", 1)[-1] if short else target.lstrip("~").strip()
    return (
        f'<autoref identifier="{html.escape(path)}" optional>'
        f"<code>{html.escape(title)}</code></autoref>"
    )


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx cross-reference roles in every docstring."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        docstring = obj.docstring
        if docstring is None or ":`" not in docstring.value:
            return
        module = obj.module.path
        docstring.value = ROLE.sub(lambda m: _link(module, m["target"]), docstring.value)
