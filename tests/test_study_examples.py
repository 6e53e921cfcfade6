"""Every example of docs/studies.md and of the ``--help`` of ``variants`` and ``study`` runs
as printed (in a temporary folder), in order."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def help_examples(*command: str) -> list[str]:
    out = CliRunner().invoke(main, [*command, "--help"]).stdout
    assert "Examples:" in out
    block = out.split("Examples:", 1)[1]
    return [ln.strip() for ln in block.splitlines() if ln.strip().startswith("ascent ")]


def docs_examples() -> list[str]:
    text = (ROOT / "docs" / "studies.md").read_text(encoding="utf-8")
    return [ln.strip() for ln in text.splitlines()
            if re.match(r"^ {4,}ascent ", ln) and "HEAD" not in ln]


@pytest.mark.slow
def test_examples_run_as_printed(tmp_path: Path) -> None:
    commands = docs_examples()
    for cmd in (help_examples("variants") + help_examples("study")
                + help_examples("study", "run") + help_examples("study", "report")):
        if cmd not in commands:
            commands.append(cmd)
    # the study runs first, so that the reports have a database
    commands.sort(key=lambda c: 0 if " study run " in c else 1 if " study " in c else 2)
    assert len(commands) >= 7
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    prelude = f'ascent() {{ "{sys.executable}" -m cli.main "$@"; }}\n'
    for cmd in commands:
        r = subprocess.run(["bash", "-c", prelude + cmd], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (cmd, r.stderr[-2000:])
        assert "Traceback" not in r.stderr, cmd
    assert (tmp_path / "tiny-plots" / "winnability_by_players.svg").exists()
