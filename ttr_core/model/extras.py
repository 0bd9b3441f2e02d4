"""The commands that add an optional extra of the ``ttr-engine`` distribution.

ttr-engine is not published on PyPI, so ``pip install "ttr-engine[rl]"`` cannot work. An
extra is added either from a clone of the repository (``pip install ".[rl]"``) or, to an
installed ttr however it was installed, by installing the extra's own requirements, which
are on PyPI. Every message that says an extra is missing takes its command from
[`install_command`][], which gives the second form, read from the installed distribution's
metadata so that it names exactly what ``pyproject.toml`` declares.
"""

from __future__ import annotations

import functools
import re
from importlib import metadata

DISTRIBUTION = "ttr-engine"
"""The name of the distribution this package is installed from."""

_EXTRA_MARKER = re.compile(r"""\bextra\s*==\s*["']([\w.-]+)["']""")
_SELF = re.compile(r"^ttr[-_.]engine\s*\[(?P<extras>[^\]]*)\]\s*$", re.I)


@functools.cache
def _requirements() -> tuple[str, ...] | None:
    """The requirement strings of the installed distribution; None when it is not installed
    (the package runs from a source tree on ``sys.path``)."""
    try:
        return tuple(metadata.requires(DISTRIBUTION) or ())
    except metadata.PackageNotFoundError:
        return None


def extra_requirements(extra: str) -> tuple[str, ...] | None:
    """The requirements that ``extra`` adds, in the order of the metadata, with an extra
    that names ttr-engine's own extras (as ``dev`` does) expanded into theirs; None when the
    distribution's metadata cannot be read or has no such extra (an installation older
    than the sources it runs)."""
    listed = _requirements()
    if listed is None:
        return None
    found: list[str] = []
    declared = False
    for line in listed:
        requirement, _, marker = line.partition(";")
        match = _EXTRA_MARKER.search(marker)
        if match is None or match.group(1) != extra:
            continue
        declared = True
        own = _SELF.match(requirement.strip())
        if own is None:
            found.append(requirement.strip())
            continue
        for inner in own["extras"].split(","):
            found.extend(extra_requirements(inner.strip()) or ())
    return tuple(dict.fromkeys(found)) if declared else None


def install_command(extra: str) -> str:
    """The ``pip install`` command that adds what ``extra`` needs to this installation:
    the extra's requirements, each quoted, or ``pip install ".[extra]"`` (to run from a
    clone's root) when the installed metadata does not list them. It never fails, since
    it is called while an error is being reported."""
    requirements = extra_requirements(extra)
    if requirements is None:
        return f'pip install ".[{extra}]"'
    return "pip install " + " ".join(f'"{r}"' for r in requirements)
