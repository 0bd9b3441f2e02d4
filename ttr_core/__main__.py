"""``python -m ttr_core``: the ``ttr`` command line."""

from __future__ import annotations

from ttr_core.cli import main

raise SystemExit(main())
