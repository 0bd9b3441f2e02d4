"""Write the golden games of every installed built-in edition into tests/golden/.

Run it after a deliberate change of behaviour, then review ``git diff tests/golden``:
every changed line is a changed action, event or score. ``--check`` writes nothing and
exits with status 1 if any file would change.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from ttr_core.ruleset.editions import installed_editions
from ttr_core.testing.golden import golden_games, golden_name, write_golden

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"


def builtin_editions() -> list[str]:
    """The ids of the installed editions that ttr itself ships."""
    return [e.info.id for e in installed_editions().values() if e.builtin]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report files that differ")
    args = parser.parse_args(argv)
    editions = builtin_editions()
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp)
            write_golden(fresh, editions)
            stale = [
                name
                for name in sorted(p.name for p in fresh.iterdir())
                if not (GOLDEN_DIR / name).exists()
                or (GOLDEN_DIR / name).read_bytes() != (fresh / name).read_bytes()
            ]
        for name in stale:
            print(f"out of date: tests/golden/{name}")
        return 1 if stale else 0
    changed = write_golden(GOLDEN_DIR, editions)
    for path in changed:
        print(f"wrote tests/golden/{path.name}")
    total = sum(len(golden_games(e)) for e in editions)
    print(f"{len(changed)} of {total} golden games changed ({', '.join(editions)})")
    known = {golden_name(e, p, s) for e in editions for p, s in golden_games(e)}
    for path in sorted(GOLDEN_DIR.glob("*.json")):
        if path.name not in known:
            print(f"note: {path.name} belongs to no installed built-in edition", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
