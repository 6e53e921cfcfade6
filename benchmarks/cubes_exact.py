"""The cost of a finished waste proof, plain against cubes (issue 39 step 6): small solo deals
(``rows=4`` seeds 1–5, ``rows=5`` seeds 1–3 by default, hand 5) solved to the end with no
limit, one process, the ways of :data:`CONFIGS`: ``plain`` (:func:`solver.exhaustive.solve`,
LNS off), ``raise`` (:func:`solver.cubes.solve_cubes`, 12 cubes, the bound-raising schedule,
the sequential mapper), ``solve`` (the same with ``raise_bounds=False``: each cube solved),
``raise-top`` and ``raise-bottom`` (its ablations).
Each row: the optimum, whether it was proven, the nodes and the CPU seconds. The answers must
agree (a disagreement is a bug, reported in the row as ``"agree": false``).

Run ``nice -n 10 python -m benchmarks.cubes_exact --out benchmarks/results/cubes-exact-2026-12-06``.
Rows go to ``rows.jsonl`` (resumed), ``report.md`` is rebuilt from them (files written whole).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from benchmarks.journal import append_row, read_rows
from benchmarks.solve import write_whole

#: ``raise-top``: the same with the top-down DFS tasks; ``raise-bottom``: bottom-up tasks only
#: (no wide beams either)
CONFIGS = ("plain", "raise", "solve", "raise-top", "raise-bottom")


def run_one(rows: int, seed: int, config: str, cubes: int) -> dict[str, Any]:
    """Solve one deal to the end one way; returns the row."""
    from model.deal import Deal
    from model.rules import RuleSet
    from solver.cubes import solve_cubes
    from solver.exhaustive import solve

    deal = Deal.from_seed(seed, 1, RuleSet.from_options([f"rows={rows}"]))
    load0 = os.getloadavg()[0]
    c = time.process_time()
    if config == "plain":
        res = solve(deal, "waste", lns=False, furthest="off", memory_limit_mb=1024)
    else:
        res = solve_cubes(deal, "waste", cubes, memory_limit_mb=1024,
                          raise_bounds=config != "solve", top_down=config == "raise-top",
                          wide_beams=config != "raise-bottom")
    return {"rows": rows, "seed": seed, "config": config, "verdict": res.verdict,
            "value": res.value, "optimal": res.optimal, "bound": res.bound,
            "nodes": res.stats.get("nodes"), "tasks": res.stats.get("solved"),
            "cpu_s": round(time.process_time() - c, 2), "load_before": round(load0, 2),
            "load_after": round(os.getloadavg()[0], 2)}


def report(rows: list[dict[str, Any]], meta: str) -> str:
    """The markdown table of ``rows``: one line a deal, nodes and CPU s a config."""
    deals = sorted({(r["rows"], r["seed"]) for r in rows})
    out = ["# A finished waste proof: plain against cubes", "", meta, "",
           "| deal | optimum | " + " | ".join(f"{c} nodes" for c in CONFIGS) + " | "
           + " | ".join(f"{c} CPU s" for c in CONFIGS) + " | agree |",
           "|---|---|" + "---|" * (2 * len(CONFIGS)) + "---|"]
    for d in deals:
        by = {r["config"]: r for r in rows if (r["rows"], r["seed"]) == d}
        vals = {(r["verdict"], r["value"], r["optimal"]) for r in by.values()}
        def cell(c: str, k: str, by: dict[str, dict[str, Any]] = by) -> str:
            return f"{by[c][k]:,}" if c in by and isinstance(by[c][k], int) else (
                str(by[c][k]) if c in by else "–")

        opt = next(iter(vals))[1] if len(vals) == 1 else "disagree"
        out.append(f"| rows={d[0]} seed {d[1]} | {opt} | "
                   + " | ".join(cell(c, "nodes") for c in CONFIGS) + " | "
                   + " | ".join(cell(c, "cpu_s") for c in CONFIGS) + f" | {len(vals) == 1} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.cubes_exact", description=__doc__)
    ap.add_argument("--out", default="benchmarks/results/cubes-exact-2026-12-06")
    ap.add_argument("--deals", default="4:1,4:2,4:3,4:4,4:5,5:1,5:2,5:3",
                    help="ROWS:SEED, comma-separated")
    ap.add_argument("--cubes", type=int, default=12)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "rows.jsonl"
    rows = read_rows(path)
    done = {(r["rows"], r["seed"], r["config"]) for r in rows}
    for spec in a.deals.split(","):
        n, seed = (int(x) for x in spec.split(":"))
        for config in a.configs.split(","):
            if (n, seed, config) in done:
                continue
            row = run_one(n, seed, config, a.cubes)
            print(json.dumps(row), flush=True)
            rows.append(row)
            append_row(path, row)
    meta = (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, "
            f"{os.cpu_count()} cores; one process, no limit; {a.cubes} cubes; load averages "
            "in rows.jsonl.")
    write_whole(out / "report.md", report(rows, meta))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
