"""Runs a benchmark script on an older version of the engine, whose modules had other names.

Before the core was split into layers (commit 2a6e9da and earlier), ``ttr_core.batch.runs``
was ``ttr_core.simulate``, ``ttr_core.model.rng`` was ``ttr_core.rng`` and so on. This
runner makes the new names point at the old modules, then runs the script as ``__main__``,
so the same benchmark code measures both versions. On the current layout it changes
nothing. Parts of a script that use what the older version lacks still fail there.

    python benchmarks/older_layout.py benchmarks/runs_and_records.py --games 20
"""

from __future__ import annotations

import importlib
import importlib.util
import runpy
import sys
import types

MOVED = {
    "ttr_core.batch.runs": "ttr_core.simulate",
    "ttr_core.batch.parallel": "ttr_core.parallel",
    "ttr_core.model.rng": "ttr_core.rng",
    "ttr_core.model.state": "ttr_core.state",
    "ttr_core.rules.scoring": "ttr_core.scoring",
    "ttr_core.play.functional": "ttr_core.engine",
    "ttr_core.play.legal": "ttr_core.legal",
}
"""Each module's current name, and its name in the older layout."""


def exists(name: str) -> bool:
    """Whether module ``name`` can be imported (its parent packages are imported to know)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def alias_moved_modules() -> list[str]:
    """Make each missing current name import its older module; return the names aliased."""
    aliased = []
    for new, old in MOVED.items():
        if exists(new):
            continue
        module = importlib.import_module(old)
        package_name, _, leaf = new.rpartition(".")
        package = sys.modules.get(package_name)
        if package is None:
            package = types.ModuleType(package_name)
            package.__path__ = []
            sys.modules[package_name] = package
            parent_name, _, parent_leaf = package_name.rpartition(".")
            setattr(sys.modules[parent_name], parent_leaf, package)
        sys.modules[new] = module
        setattr(package, leaf, module)
        aliased.append(new)
    return aliased


def main(argv: list[str] | None = None) -> None:
    """Alias the moved modules, then run ``argv[0]`` with the rest as its arguments."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        raise SystemExit("usage: older_layout.py SCRIPT [ARGUMENTS...]")
    alias_moved_modules()
    sys.argv = list(args)
    runpy.run_path(args[0], run_name="__main__")


if __name__ == "__main__":
    main()
