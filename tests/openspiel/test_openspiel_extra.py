"""The optional dependency: without OpenSpiel, importing ``ttr_core.openspiel`` names the
command that installs it, and the rest of the library never imports OpenSpiel."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys

import pytest

from ttr_core.model.errors import MissingExtraError
from ttr_core.model.extras import install_command


def test_openspiel_without_its_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in list(sys.modules):
        if name == "ttr_core.openspiel" or name.startswith("ttr_core.openspiel."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(MissingExtraError, match=re.escape(install_command("openspiel"))) as info:
        importlib.import_module("ttr_core.openspiel")
    assert isinstance(info.value, ImportError)
    assert "pyspiel cannot be imported" in str(info.value)


def test_the_rest_of_the_library_does_not_import_openspiel() -> None:
    code = (
        "import sys, ttr_core, ttr_core.cli, ttr_core.bots, ttr_core.batch.runs, ttr_core.rl;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyspiel', 'open_spiel')"
        " or m.startswith('ttr_core.openspiel')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
