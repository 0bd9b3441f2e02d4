"""Example Isles: a small fictional edition of ttr, packaged as a third-party plugin.

ttr finds this edition through the ``ttr.editions`` entry point declared in
``pyproject.toml``; nothing in ttr imports it by name. The hook implementations live in
:mod:`ttr_example_edition.plugin`, the map in ``example.json``.
"""

from __future__ import annotations

__version__ = "0.1.0"
