"""Cube-and-conquer on Dask (issue 39 step 6) against the plain DFS: the 6-row and 7-row
waste-ladder rungs (:data:`benchmarks.waste_ladder.RUNGS`, solo, hand 5, objective
``waste``) and hand-2 7-row deals (:data:`benchmarks.frontier.LADDER`, objective ``none``,
where the plain solve proves a loss), each solved the ways of :data:`CONFIGS`: ``plain``
(:func:`solver.exhaustive.solve`, LNS off so that the two compare one search), ``cubes-1``
and ``cubes-2`` (:func:`solver.cubes.solve_cubes` on a Dask LocalCluster of 1 and 2
workers, its default schedule), ``cubes-1-solve`` and ``cubes-2-solve`` (the same with
``raise_bounds=False``: each cube solved, the ablation of the bound-raising schedule).
Records verdict, value, optimal, bound, CPU seconds (this process plus the workers'
per-cube CPU), wall seconds and the load average before and after.

Run ``nice -n 10 python -m benchmarks.cubes --out benchmarks/results/cubes-2026-12-05``;
the 2026-12-06 run: ``--out benchmarks/results/cubes-2026-12-06 --rungs 0,2,3 --seeds 2``.
Rows go to ``rows.jsonl`` (resumed), ``report.md`` is rebuilt from them (files written
whole)."""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from benchmarks.frontier import LADDER, _rules
from benchmarks.journal import append_row, read_rows
from benchmarks.solve import write_whole
from benchmarks.waste_ladder import RUNGS

#: ``cubes-W``: W Dask workers, the default schedule (objective ``waste``: raise the bounds);
#: ``cubes-W-solve``: each cube solved (``raise_bounds=False``); these and the two below are
#: the same as ``cubes-W`` for objective ``none``, so run for ``waste`` only
#: ``cubes-W-top``: top-down DFS tasks on (off by default); ``cubes-W-bottom``: bottom-up
#: tasks only (the root's wide beams off too)
CONFIGS = ("plain", "cubes-1", "cubes-2", "cubes-1-solve", "cubes-2-solve", "cubes-1-top",
           "cubes-2-top", "cubes-1-bottom", "cubes-2-bottom")


def run_one(rules_text: str, seed: int, objective: str, config: str, seconds: float,
            cubes: int) -> dict[str, Any]:
    """Solve one deal one way; returns the row."""
    from model.deal import Deal
    from solver.cubes import solve_cubes
    from solver.exhaustive import solve
    from studies.cubes import dask_mapper

    deal = Deal.from_seed(seed, 1, _rules(rules_text))
    load0 = os.getloadavg()[0]
    t, c = time.monotonic(), time.process_time()
    if config == "plain":
        res = solve(deal, objective, time_limit=seconds, memory_limit_mb=1024, lns=False,
                    furthest="off")
        worker_cpu = 0.0
    else:
        res = solve_cubes(deal, objective, cubes, time_limit=seconds, memory_limit_mb=512,
                          mapper=dask_mapper(workers=int(config.split("-")[1])),
                          raise_bounds=not config.endswith("-solve"),
                          top_down=config.endswith("-top"),
                          wide_beams=not config.endswith("-bottom"))
        worker_cpu = float(res.stats.get("cpu_seconds", 0.0))
    wall = time.monotonic() - t
    cpu = time.process_time() - c + worker_cpu
    st = res.stats
    return {"rules": rules_text, "seed": seed, "objective": objective, "config": config,
            "verdict": res.verdict, "value": res.value, "optimal": res.optimal,
            "bound": res.bound, "nodes": st.get("nodes"), "cubes": st.get("cubes"),
            "open": st.get("open"), "solved": st.get("solved"),
            "schedule": st.get("schedule"), "cpu_s": round(cpu, 2),
            "wall_s": round(wall, 2), "load_before": round(load0, 2),
            "load_after": round(os.getloadavg()[0], 2), "limit_s": seconds}


def report(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """The markdown table of ``rows``."""
    out = ["# Cubes on Dask (issue 39 step 6) against the plain DFS", "",
           f"{meta['date']}, {meta['machine']}, {meta['seconds']} s wall limit a solve, "
           f"{meta['cubes']} cubes; CPU = this process + the workers' per-cube CPU.", "",
           "| rules | seed | objective | config | verdict | value | optimal | bound | nodes "
           "| cubes open/solved | CPU s | wall s | load before/after |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        name = r["rules"].split(",")[0] + (",hand 2" if "hand_size=2" in r["rules"] else "")
        out.append(f"| {name} | {r['seed']} | {r['objective']} | {r['config']} | {r['verdict']} "
                   f"| {r['value']} | {r['optimal']} | {r['bound']} | {r['nodes']} "
                   f"| {r['open']}/{r['solved']} | {r['cpu_s']} | {r['wall_s']} "
                   f"| {r['load_before']}/{r['load_after']} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.cubes", description=__doc__)
    ap.add_argument("--out", default="benchmarks/results/cubes-2026-12-05")
    ap.add_argument("--seconds", type=float, default=20.0, help="wall limit a solve")
    ap.add_argument("--cubes", type=int, default=8)
    ap.add_argument("--seeds", type=int, default=1, help="waste-ladder seeds a rung")
    ap.add_argument("--rungs", default="2,3", help="indices of waste-ladder RUNGS (2, 3: 6 and 7 rows)")
    ap.add_argument("--loss-seeds", default="0", help="hand-2 7-row seeds, comma-separated")
    ap.add_argument("--configs", default=",".join(CONFIGS), help="comma-separated, of "
                    + ", ".join(CONFIGS))
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "rows.jsonl"
    rows = read_rows(path)
    done = {(r["rules"], r["seed"], r["config"]) for r in rows}
    rungs = [int(k) for k in a.rungs.split(",") if k]
    jobs = [(RUNGS[k] + ",hand_size=5", s, "waste") for k in rungs for s in range(a.seeds)]
    jobs += [(LADDER[4], int(s), "none") for s in a.loss_seeds.split(",") if s]
    for rules_text, seed, objective in jobs:
        for config in CONFIGS:
            if config not in a.configs.split(",") or (objective == "none" and config.count("-") > 1):
                continue
            if (rules_text, seed, config) in done:
                continue
            row = run_one(rules_text, seed, objective, config, a.seconds, a.cubes)
            print(json.dumps(row), flush=True)
            rows.append(row)
            append_row(path, row)
    meta = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared)",
            "seconds": a.seconds, "cubes": a.cubes}
    write_whole(out / "report.md", report(rows, meta))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
