"""The waste-optimum ladder with the waste techniques on and off (solo, hand 5): the one
waste ladder (it also replaces the wall-clock LNS ladder, ``lns_ladder``: configurations
``baseline`` and ``default`` are its LNS off and on).

Run ``nice -n 10 python -m benchmarks.waste_ladder --help``. For each rung (the rule sets of
:data:`RUNGS`, then the standard game) and seed, one fresh worker process solves the deal
with objective ``waste`` under each configuration of :data:`CONFIGS` and records verdict,
best win, proven bound, gap, whether the optimum is proven, nodes, CPU seconds, what the
large-neighbourhood search found (``stats["lns"]``: from → to cards) and what the resumed
proof after it did (``stats["resume"]``). Limits are CPU seconds of the worker
(:func:`benchmarks.frontier._cpu_limits`). Rows go to ``--out``/``rows.jsonl`` (resumed:
rows already there are skipped) and ``report.md`` is rebuilt from them.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

RUNGS = [
    "rows=4,values=6,colours=2,copies=2,campfires=1,bridges=2,summits=2",
    "rows=5,values=6,colours=3,copies=2,campfires=1,bridges=2,summits=2",
    "rows=6,values=8,colours=3,copies=2,campfires=1,bridges=3,summits=3",
    "rows=7,values=10,colours=3,copies=2,campfires=1,bridges=4,summits=4",
    "preset=standard",
]

#: Switches of :func:`solver.solve` per configuration: ``default`` is the solver's defaults
#: (LNS on, step bound off, nogood learning and the abstraction on); the others each change
#: one thing from it, ``baseline`` switches both waste techniques off and ``all`` both on.
CONFIGS: dict[str, dict[str, bool]] = {
    "baseline": {"lns": False, "step_bound": False},
    "step_bound": {"lns": False, "step_bound": True},
    "default": {},
    "all": {"lns": True, "step_bound": True},
    "no_nogood": {"nogood": False},
    "no_abstraction": {"abstraction": False},
}


def job(j: dict[str, Any]) -> dict[str, Any]:
    """One deal under one configuration (in a worker process)."""
    import solver.lns  # noqa: F401  (imported before _cpu_limits sets its clock)
    from benchmarks.frontier import _cpu_limits, _rules
    from model.deal import Deal
    from solver import solve

    rules = _rules(j["rules"] + ",hand_size=5" if "standard" not in j["rules"] else j["rules"])
    deal = Deal.from_seed(j["seed"], j.get("players", 1), rules)
    _cpu_limits()
    t = time.process_time()
    res = solve(deal, "waste", time_limit=j["cpu"], memory_limit_mb=j["memory_mb"],
                **CONFIGS[j["config"]])
    secs = time.process_time() - t
    st = res.stats or {}
    lns = st.get("lns") or {}
    resume = st.get("resume") or {}
    gap = res.value - res.bound if res.value is not None and res.bound is not None else None
    return {**j, "verdict": res.verdict, "value": res.value, "bound": res.bound, "gap": gap,
            "optimal": res.optimal, "nodes": st.get("nodes", 0) + resume.get("nodes", 0),
            "seconds": round(secs, 2), "lns": lns, "resume": resume}


def _improved(r: dict[str, Any]) -> bool:
    """Whether the LNS of a row made its win cheaper."""
    lns = r.get("lns") or {}
    return bool(lns.get("improvements")) and lns.get("to", 0) < lns.get("from", 0)


def report(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """The markdown report: per rung and configuration, proven, median gap, best wins."""
    out = ["# Waste-optimum ladder: the waste techniques on and off", "",
           f"Run {meta['date']} on {meta['machine']}; load average {meta['load_start']} at the "
           f"start, {meta['load_end']} at the end (2 cores shared). {meta.get('players', 1)} "
           f"player(s), hand 5 (standard: its own hand), {meta['seeds']} seeds a rung ({meta['seed0']}…), "
           f"{meta['cpu']} CPU s a deal, one process a deal, {meta['jobs']} at a time. The "
           "target is 20 seeds and 60 CPU s a rung: this is a reduced run.", "",
           "| rung | config | proven | median gap | mean best win | mean bound | "
           "LNS improved | nodes (median) | CPU s (median) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for rung in RUNGS:
        for cfg in CONFIGS:
            rs = [r for r in rows if r["rules"] == rung and r["config"] == cfg
                  and r.get("players", 1) == meta.get("players", 1)]
            if not rs:
                continue
            wins = [r for r in rs if r["value"] is not None]
            gaps = [r["gap"] for r in rs if r["gap"] is not None]
            bounds = [r["bound"] for r in rs if r["bound"] is not None]
            name = rung if rung.startswith("preset") else rung.split(",")[0]
            out.append(
                f"| {name} | {cfg} | {sum(r['optimal'] for r in rs)}/{len(rs)} | "
                f"{statistics.median(gaps) if gaps else '–'} | "
                f"{statistics.mean(r['value'] for r in wins):.1f} | "
                f"{statistics.mean(bounds) if bounds else float('nan'):.1f} | "
                f"{sum(_improved(r) for r in rs)} | "
                f"{statistics.median(r['nodes'] for r in rs):,.0f} | "
                f"{statistics.median(r['seconds'] for r in rs):.1f} |"
                if wins else f"| {name} | {cfg} | 0/{len(rs)} | – | – | – | – | – | – |")
    out += ["", "Per deal (value/bound):", ""]
    for r in sorted(rows, key=lambda r: (RUNGS.index(r["rules"]), r["seed"], r["config"])):
        if r.get("players", 1) != meta.get("players", 1):
            continue
        name = r["rules"] if r["rules"].startswith("preset") else r["rules"].split(",")[0]
        lns, rz = r.get("lns") or {}, r.get("resume") or {}
        imp = f"; LNS {lns['from']}→{lns['to']}" if _improved(r) else ""
        if rz:
            imp += f"; resumed proof: bound {rz.get('bound_before')}→{rz.get('bound')}"
        out.append(f"- {name} seed {r['seed']} {r['config']}: {r['value']}/{r['bound']}"
                   f"{' proven' if r['optimal'] else ''}, {r['nodes']:,} nodes{imp}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.waste_ladder",
                                 description="The waste-optimum ladder, configurations of "
                                             "the waste techniques, CPU-second limits.")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--seed0", type=int, default=301)
    ap.add_argument("--cpu", type=float, default=8.0, help="CPU seconds a deal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--memory-mb", type=int, default=400)
    ap.add_argument("--configs", default="baseline,default",
                    help=f"comma-separated, of: {', '.join(CONFIGS)}")
    ap.add_argument("--players", type=int, default=1, help="players (1-5)")
    ap.add_argument("--rungs", default="", help="indices of RUNGS to run (default all)")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    configs = [c for c in a.configs.split(",") if c]
    bad = [c for c in configs if c not in CONFIGS]
    if bad:
        ap.error(f"unknown config {bad[0]!r}; valid: {', '.join(CONFIGS)}")
    if not 1 <= a.players <= 5:
        ap.error("--players is 1 to 5")
    now = _dt.datetime.now(_dt.UTC)
    out = Path(a.out or f"benchmarks/results/waste-ladder-{now:%Y%m%d-%H%M}")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "rows.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.exists() else []
    done = {(r["rules"], r["seed"], r["config"], r.get("players", 1)) for r in rows}
    jobs = [{"rules": rung, "seed": a.seed0 + i, "config": c, "cpu": a.cpu,
             "memory_mb": a.memory_mb, "players": a.players}
            for k, rung in enumerate(RUNGS) for i in range(a.seeds) for c in configs
            if not a.rungs or str(k) in a.rungs.split(",")
            if (rung, a.seed0 + i, c, a.players) not in done]
    load0 = " ".join(f"{x:.1f}" for x in os.getloadavg())
    with ProcessPoolExecutor(a.jobs) as pool, path.open("a") as f:
        for fut in as_completed([pool.submit(job, j) for j in jobs]):
            r = fut.result()
            rows.append(r)
            f.write(json.dumps(r) + "\n")
            f.flush()
    meta = {"date": f"{now:%Y-%m-%d %H:%M} UTC", "machine": f"{platform.machine()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}",
            "load_start": load0, "load_end": " ".join(f"{x:.1f}" for x in os.getloadavg()),
            "seeds": a.seeds, "seed0": a.seed0, "cpu": a.cpu, "jobs": a.jobs,
            "players": a.players}
    tmp = out / "report.md.tmp"
    tmp.write_text(report(rows, meta))
    tmp.replace(out / "report.md")
    print((out / "report.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
