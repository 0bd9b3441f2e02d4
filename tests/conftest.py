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
