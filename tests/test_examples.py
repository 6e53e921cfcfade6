"""Every example of the ``--help`` texts, the README and ``docs/`` runs as printed.

The examples are extracted programmatically, so that a new example is tested as soon as it
is written:

* ``--help`` of the group and of every registered command: the lines after ``Examples:``
  that start with ``ascent`` (or ``mkdir -p DIR && ascent``);
* README.md and docs/*.md: lines of code blocks (indented by 4 spaces or fenced) that start
  with ``ascent`` or ``$ ascent`` (the output lines of a ``$`` block are not commands), and
  the part after ``&&`` of an install line (``pip install -e . && ascent solve --seed 1``);
  inline code spans that are a concrete command (start with ``ascent``, name a ``--seed``
  number, no placeholder such as ``[--players P]``).

Installing (``pip install``) and the test suite itself (``python -m pytest``) are not run,
nor fenced blocks opened with ```` ```sh long ````: they hold the commands that made the
committed figures (hours on this machine, or a cluster's placeholder address), not examples.
Each source's examples run in order, in a shell, from an empty temporary folder of their own
(so each help text is self-contained), with ``set -o pipefail``; each must exit 0 without a
traceback.
"""

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
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
ENV.pop("ASCENT_DEBUG", None)


def help_examples() -> dict[str, list[str]]:
    """``{"ascent <cmd> --help": [example, ...]}`` for the group and every command."""
    out = {}
    runner = CliRunner()
    for name in [None, *sorted(main.commands)]:
        args = ([name] if name else []) + ["--help"]
        text = runner.invoke(main, args).output
        lines, on = [], False
        for line in text.splitlines():
            if line.strip() == "Examples:":
                on = True
                continue
            if on:
                if not line.strip():
                    on = False
                    continue
                if line.strip().startswith("ascent ") or _MKDIR.match(line.strip()):
                    lines.append(line.strip())
        out[" ".join(["ascent", *args])] = lines
    return out


_INLINE = re.compile(r"`(ascent [^`]+)`")
#: ``mkdir -p DIR && ascent ...``: an example that makes the folder it writes into
_MKDIR = re.compile(r"mkdir -p \S+ && ascent ")


def markdown_examples(path: Path) -> list[str]:
    """The commands of a Markdown file (see the module docstring)."""
    cmds = []
    fenced = long_block = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
            long_block = fenced and "long" in line.strip()[3:].split()
            continue
        if long_block:  # the commands that made committed figures (hours): not examples
            continue
        code = fenced or line.startswith("    ")
        text = line.strip()
        if code:
            if text.startswith("$ "):
                text = text[2:]
            if text.startswith("pip install") and "&& ascent " in text:
                text = text.split("&& ", 1)[1]
            if text.startswith("ascent ") or _MKDIR.match(text):
                cmds.append(text)
            continue
        for span in _INLINE.findall(line):
            if re.search(r"--seed [0-9]", span) and not re.search(r"[\[\]()…]|\\\|", span):
                cmds.append(span)
    return cmds


def sources() -> list[tuple[str, list[str]]]:
    found = list(help_examples().items())
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        found.append((str(md.relative_to(ROOT)), markdown_examples(md)))
    return [(name, cmds) for name, cmds in found if cmds]


def test_the_extraction_finds_the_examples():
    found = dict(sources())
    assert "ascent solve --seed 1" in found["ascent --help"] or any(
        c.startswith("ascent solve") for c in found["ascent --help"])
    assert all(found.get(f"ascent {c} --help") for c in main.commands), found.keys()
    assert "ascent solve --seed 1" in found["README.md"]


@pytest.mark.slow
@pytest.mark.parametrize("name,commands", sources(), ids=[n for n, _ in sources()])
def test_examples_run_as_printed(name, commands, tmp_path):
    script = "set -euo pipefail\n" + f'ascent() {{ "{sys.executable}" -m cli.entry "$@"; }}\n'
    for cmd in commands:
        script += f"echo '+ {cmd}' >&2\n{cmd}\n"
    r = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=ENV, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, f"{name}: {r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr + r.stdout
