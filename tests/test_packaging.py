"""What the package installs, and the version it says it is."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

#: The packages a program that uses ascent gets: the library and the command line.
RUNTIME = {"model", "solver", "puzzles", "render", "studies", "bots", "web", "cli"}


def test_only_the_runtime_packages_are_installed() -> None:
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    top = {p.split(".")[0] for p in find_packages(str(ROOT), include=include)}
    assert top == RUNTIME  # no benchmarks, no tests


def test_the_benchmarks_run_from_the_repository_only(tmp_path: Path) -> None:
    elsewhere = subprocess.run([sys.executable, "-c", "import benchmarks"], cwd=tmp_path,
                               capture_output=True, text=True, timeout=60,
                               env={"PATH": "/usr/bin:/bin"})
    assert elsewhere.returncode != 0 and "No module named 'benchmarks'" in elsewhere.stderr
    here = subprocess.run([sys.executable, "-m", "benchmarks.solve", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert here.returncode == 0 and "usage" in here.stdout.lower(), here.stderr


def test_the_library_packages_ship_their_annotations() -> None:
    """PEP 561: ``py.typed`` in each package other programs import, and in the package data."""
    data = PYPROJECT["tool"]["setuptools"]["package-data"]
    for package in ("model", "solver", "puzzles", "studies", "bots"):
        assert (ROOT / package / "py.typed").is_file(), package
        assert "py.typed" in data.get(package, []), package


def test_one_version_everywhere() -> None:
    """``ascent --version``, the installed package's metadata, the study database's solver
    version and the newest entry of CHANGELOG.md all give :data:`model.version.VERSION`."""
    import re
    from importlib.metadata import version

    from model.version import VERSION
    from studies.study import solver_version

    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)
    assert version("ascent") == VERSION, "the installed metadata is stale: pip install -e ."
    r = subprocess.run([sys.executable, "-m", "cli.entry", "--version"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith(f"ascent {VERSION} · search: "), r.stdout
    assert solver_version().split("+")[0] == VERSION
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", changelog, re.M)
    assert versions and versions[0] == VERSION, versions
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
