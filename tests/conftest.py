"""Shared fixtures and the Hypothesis profiles.

``ci`` is loaded when the ``CI`` environment variable is set (derandomised, few examples,
no example database); ``dev`` otherwise. ``HYPOTHESIS_PROFILE`` picks one explicitly.
"""

from __future__ import annotations

import os

import pytest
from helpers import fixture_ruleset
from hypothesis import HealthCheck, settings

from ttr_core import Ruleset

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


@pytest.fixture(scope="session")
def usa() -> Ruleset:
    """The USA ruleset with default options."""
    return Ruleset.build("usa")


@pytest.fixture(scope="session")
def fx() -> Ruleset:
    """The fixture edition on the basic letter board."""
    return fixture_ruleset()
