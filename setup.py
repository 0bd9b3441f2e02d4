"""Compiled extension modules, built only when ``TTR_COMPILE=1`` is set.

Everything else about the package is declared in ``pyproject.toml``. The modules in
``HOT`` are the simulator, its mechanics, the ``Game`` and legal-action listing that
wrap it, and the greedy bot with the playout policy of search, which follows it: with
``TTR_COMPILE=1`` mypyc compiles them from the same sources that run as plain Python,
and ``ttr_core.compiled`` reports it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig

from setuptools import setup

HOT = [
    "ttr_core/model/cards.py",
    "ttr_core/model/rng.py",
    "ttr_core/model/action_fields.py",
    "ttr_core/model/filled.py",
    "ttr_core/play/simulator.py",
    "ttr_core/play/seeded_replay.py",
    "ttr_core/play/legal.py",
    "ttr_core/play/game.py",
    "ttr_core/rules/table.py",
    "ttr_core/rules/double_routes.py",
    "ttr_core/rules/graph.py",
    "ttr_core/rules/views.py",
    "ttr_core/rules/piles.py",
    "ttr_core/rules/turn.py",
    "ttr_core/rules/drawing.py",
    "ttr_core/rules/tickets.py",
    "ttr_core/rules/payments.py",
    "ttr_core/rules/payment_counts.py",
    "ttr_core/rules/claims.py",
    "ttr_core/rules/tunnels.py",
    "ttr_core/rules/card_groups.py",
    "ttr_core/rules/stations.py",
    "ttr_core/bots/greedy.py",
    "ttr_core/bots/rollout.py",
]


def compiled_modules() -> list[object]:
    """The mypyc extension modules when ``TTR_COMPILE=1`` asks for them, else none."""
    if os.environ.get("TTR_COMPILE") != "1":
        return []
    if {"dist_info", "egg_info"} & set(sys.argv[1:]) and "bdist_wheel" not in sys.argv:
        return []  # only the metadata is asked for: nothing to compile yet
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")[0]
    if shutil.which(compiler) is None:
        raise SystemExit(
            f"TTR_COMPILE=1: no C compiler found (looked for {compiler!r}); install one "
            "(for example gcc) or build without TTR_COMPILE for pure Python"
        )
    from mypyc.build import mypycify

    return list(mypycify(HOT, opt_level="3"))


setup(ext_modules=compiled_modules())
