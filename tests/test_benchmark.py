"""The benchmark harness (benchmarks/solve.py) on a few tiny deals: table, rows, resume,
a crashing solver recorded as an error row, a clean error for an unknown solver.
No timing assertions."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.solve import parse_int_list, percentile, summarise

ROOT = Path(__file__).resolve().parent.parent


def crashing_solve(deal, objective="none", time_limit=None):
    """A solver that always crashes (used through ``--solver tests.test_benchmark:...``)."""
    raise RuntimeError("boom on purpose")


def bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.solve", "--rules", "preset=tiny", "--out",
         str(tmp_path), "--time-limit", "20", "--quiet", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def table_rows(md: str) -> dict[str, list[str]]:
    """Data rows of the Markdown table, keyed by the players column."""
    rows = {}
    for line in md.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] not in ("players",) and not cells[0].startswith("-"):
            rows[cells[0]] = cells
    return rows


@pytest.mark.slow
def test_two_tiny_deals_table_csv_jsonl_and_resume(tmp_path: Path) -> None:
    r = bench(tmp_path, "--players", "1", "--seeds", "1-2")
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "solve-dfs-none-preset_tiny.md").read_text()
    assert "machine:" in md and "command:" in md and "--seeds 1-2" in md
    rows = table_rows(md)
    assert set(rows) == {"1"}
    players, deals, win, loss, unknown, error = rows["1"][:6]
    assert deals == "2" and error == "0"
    assert int(win) + int(loss) + int(unknown) == 2
    jsonl = tmp_path / "solve-dfs-none-preset_tiny.jsonl"
    data = [json.loads(x) for x in jsonl.read_text().splitlines()]
    assert sorted((d["players"], d["seed"]) for d in data) == [(1, 1), (1, 2)]
    for d in data:
        assert d["verdict"] in ("win", "loss", "unknown") and d["error"] is None
        assert d["nodes"] > 0 and d["peak_mb"] > 0
    with (tmp_path / "solve-dfs-none-preset_tiny.csv").open() as f:
        assert len(list(csv.DictReader(f))) == 2

    # --resume runs only the missing deal (seed 3) and keeps the first two rows as they are
    r = bench(tmp_path, "--players", "1", "--seeds", "1-3", "--resume")
    assert r.returncode == 0, r.stderr
    data2 = [json.loads(x) for x in jsonl.read_text().splitlines()]
    assert data2[:2] == data and len(data2) == 3 and data2[2]["seed"] == 3
    assert table_rows((tmp_path / "solve-dfs-none-preset_tiny.md").read_text())["1"][1] == "3"


def test_crashing_solver_is_an_error_row_not_a_crash(tmp_path: Path) -> None:
    r = bench(tmp_path, "--players", "2", "--seeds", "4",
              "--solver", "tests.test_benchmark:crashing_solve")
    assert r.returncode == 0, r.stderr
    (jsonl,) = tmp_path.glob("*.jsonl")
    (row,) = [json.loads(x) for x in jsonl.read_text().splitlines()]
    assert row["verdict"] == "error" and "boom on purpose" in row["error"]
    md = jsonl.with_suffix(".md").read_text()
    assert table_rows(md)["2"][5] == "1"  # the error column
    assert "boom on purpose" in md


def test_unknown_solver_is_a_clean_error(tmp_path: Path) -> None:
    r = bench(tmp_path, "--solver", "no-such-solver")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "unknown solver" in r.stderr
    assert "Traceback" not in r.stderr


def test_helpers() -> None:
    assert parse_int_list("1-3,7", "x") == [1, 2, 3, 7]
    assert percentile([5, 1, 3, 2, 4], 95) == 5 and percentile([1, 2], 50) == 1
    s = summarise([
        {"players": 1, "verdict": "win", "seconds": 1.0, "nodes": 10, "peak_mb": 5},
        {"players": 1, "verdict": "unknown", "seconds": 3.0, "nodes": 30, "peak_mb": 7},
        {"players": 2, "verdict": "loss", "seconds": 2.0, "nodes": 0, "peak_mb": 6},
    ])
    one, two, total = s
    assert (one["deals"], one["win"], one["unknown"], one["resolved"]) == (2, 1, 1, 0.5)
    assert one["nodes_per_s"] == 10 and one["peak_mb"] == 7 and one["median_s"] == 2.0
    assert (two["loss"], two["resolved"]) == (1, 1.0)
    assert total["players"] == "all" and total["deals"] == 3
