"""The import contracts of pyproject.toml hold: no import points up the layers (``model`` ←
``solver``, ``render`` ← ``puzzles``, ``studies`` ← ``bots``, ``web`` ← ``cli``,
``benchmarks``) and no package has an import circle. Lazy imports inside functions count."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_hold() -> None:
    pytest.importorskip("importlinter", reason="import-linter comes with the test extra")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # benchmarks/ is not installed
    code = "import sys; from importlinter.cli import lint_imports_command as m; sys.exit(m())"
    r = subprocess.run([sys.executable, "-c", code, "--no-cache"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "2 kept, 0 broken" in r.stdout, r.stdout[-2000:]
