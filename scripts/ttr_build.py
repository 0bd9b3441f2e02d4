"""The build backend: setuptools, asking for mypyc only when ``TTR_COMPILE=1`` is set.

Every build is pure Python unless the environment variable ``TTR_COMPILE`` is ``1``;
then the hot modules listed in ``setup.py`` are compiled with mypyc, which this backend
adds to the build requirements for that build alone.
"""

from __future__ import annotations

import os
import tomllib

from setuptools.build_meta import *  # noqa: F403  (the standard hooks, unchanged)

MYPYC = "mypy>=1.10"
"""The requirement that provides mypyc."""


def _compiling() -> list[str]:
    """mypyc and, for its type check, the project's own dependencies; nothing if pure."""
    if os.environ.get("TTR_COMPILE") != "1":
        return []
    with open("pyproject.toml", "rb") as f:
        dependencies: list[str] = tomllib.load(f)["project"]["dependencies"]
    return [MYPYC, *dependencies]


# setuptools' own hooks would run setup.py to collect its ``setup_requires`` (it has
# none); that run would already need mypyc, so the requirements are given here instead.


def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    """What a wheel build needs beyond ``build-system.requires``: mypyc if compiling."""
    return _compiling()


def get_requires_for_build_editable(
    config_settings: dict[str, str] | None = None,
) -> list[str]:
    """What an editable build needs beyond ``build-system.requires``: mypyc if compiling."""
    return _compiling()
