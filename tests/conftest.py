"""Shared fixtures and the Hypothesis profiles.

``ci`` is loaded when the ``CI`` environment variable is set (derandomised, few examples,
no example database); ``dev`` otherwise. ``HYPOTHESIS_PROFILE`` picks one explicitly.

The helpers for writing rule tests (boards in code, hand-made states, checks of one
action) are the testing kit's, in :mod:`ttr_core.testing.scenarios`; the fixtures here
are this suite's own editions and house rules.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Generator, Mapping
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve
from hypothesis import HealthCheck, settings

from ttr_core import Ruleset, hookimpl
from ttr_core.model.mapdata import MapData, Parameters, load_map_data
from ttr_core.testing.scenarios import FixtureEdition, fixture_ruleset

FIXTURES = Path(__file__).parent / "fixtures"

settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)

# The commands play on every local core unless told otherwise. The suite already runs
# on every core, so its runs (and the commands it starts as processes) use one process
# each unless a test asks for more with --jobs, or unsets this to check the default.
os.environ["TTR_JOBS"] = "1"


def pytest_sessionstart(session: pytest.Session) -> None:
    """With ``TTR_EXPECT_COMPILED`` set (CI sets it to 1 for the compiled build), first
    check that the tests import that build, not the sources beside them."""
    import ttr_core

    wanted = os.environ.get("TTR_EXPECT_COMPILED")
    if wanted is not None and ttr_core.compiled is not (wanted == "1"):
        raise pytest.UsageError(
            f"TTR_EXPECT_COMPILED={wanted}, but ttr_core.compiled is {ttr_core.compiled}"
            f" (ttr_core imported from {ttr_core.__file__})"
        )


def pytest_configure(config: pytest.Config) -> None:
    # Hypothesis may import a helper that warns about a deprecated typing alias while it
    # reports a failing example; that warning must not hide the failure itself.
    config.addinivalue_line(
        "filterwarnings", "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning"
    )
    share_bytecode(config)
    if getattr(config.option, "maxschedchunk", 0) is None:
        # pytest-xdist hands out tests one at a time, not in long runs, so that the slow
        # ones (first, see below) are shared out evenly between the workers.
        config.option.maxschedchunk = 1


def share_bytecode(config: pytest.Config) -> None:
    """When this run writes no bytecode, let the Python processes it starts (``ttr``
    commands, worker pools, the workers of ``pytest -n``) write theirs into one temporary
    folder, removed at the end, so that each does not compile the package again."""
    if not sys.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return  # bytecode is written, or goes to a folder chosen already
    folder = tempfile.mkdtemp(prefix="ttr-tests-bytecode-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """On the workers of ``pytest -n``, run the tests marked ``slow`` first, so that the
    long ones start early and the short ones fill in around them at the end."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def usa() -> Ruleset:
    """The USA ruleset with default options."""
    return Ruleset.build("usa")


@pytest.fixture(scope="session")
def fx() -> Ruleset:
    """The fixture edition on the kit's letter board."""
    return fixture_ruleset()


@pytest.fixture(scope="session")
def borderland_map() -> MapData:
    """The map of Borderland, a small test edition with border arrows, stations, tunnels,
    a ferry and country tickets, and no Python of its own: the core scores its tickets."""
    return load_map_data((FIXTURES / "score_borderland.json").read_text("utf-8"))


@pytest.fixture(scope="session")
def borderland_edition(borderland_map: MapData) -> FixtureEdition:
    """The plugin of Borderland (id ``borderland``, alias ``bl``)."""
    return FixtureEdition(borderland_map, "borderland", aliases=("bl",), name="Borderland")


@pytest.fixture(scope="session")
def borderland(borderland_edition: FixtureEdition) -> Ruleset:
    """The Borderland ruleset."""
    return Ruleset(borderland_edition)


class BigBonus:
    """House rule: the longest path is worth 20."""

    @hookimpl(wrapper=True)
    def ttr_parameters(
        self, map_data: MapData, options: Mapping[str, Any]
    ) -> Generator[None, Parameters, Parameters]:
        params = yield
        return evolve(params, longest_path_bonus=20)


@pytest.fixture
def big_bonus() -> BigBonus:
    """A new instance of the house rule that makes the longest path worth 20."""
    return BigBonus()
