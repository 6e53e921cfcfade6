"""Waste-optimum ladder with the large-neighbourhood search on and off (an ablation).

Run ``nice -n 10 python -m benchmarks.lns_ladder`` (``--help`` for the options). For each
rung (solo, hand 5: the 6- and 7-row mountains of the ladder and the standard game) and seed,
``solver.exhaustive.solve(deal, "waste", time_limit=S, lns=...)`` runs with LNS off and on,
one deal at a time in this process. The limit is the solver's own (wall clock); the CPU
seconds each run got are recorded beside it, so a shared machine shows as CPU < wall. Per
run: best win, proven bound, gap, proven, what LNS did (``from`` → ``to``) and what the
resumed proof after it did (bound and value before and after).

Outputs in ``--out`` (default ``benchmarks/results/lns-ladder-<UTC date>``; an existing
folder is resumed, rows already there are skipped): ``runs.jsonl`` and ``report.md``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.solve import machine
from model.deal import Deal
from model.rules import RuleSet

#: The rungs (name → rule options), solo with a hand of 5.
RUNGS: dict[str, str] = {
    "rows6": "rows=6,values=8,colours=3,copies=2,campfires=1,bridges=3,summits=3",
    "rows7": "rows=7,values=10,colours=3,copies=2,campfires=1,bridges=4,summits=4",
    "standard": "preset=standard",
}


def rules_of(rung: str) -> RuleSet:
    """The :class:`RuleSet` of a rung of :data:`RUNGS`."""
    return RuleSet.from_options(RUNGS[rung].split(","))


def run_one(rung: str, seed: int, lns: bool, seconds: float) -> dict[str, Any]:
    """Solve one deal with objective waste; the row of ``runs.jsonl``."""
    from solver.exhaustive import solve

    deal = Deal.from_seed(seed, 1, rules_of(rung))
    c0, w0 = time.process_time(), time.monotonic()
    res = solve(deal, "waste", time_limit=seconds, memory_limit_mb=1024, lns=lns)
    cpu, wall = time.process_time() - c0, time.monotonic() - w0
    return {"rung": rung, "seed": seed, "lns": lns, "verdict": res.verdict,
            "best": res.value, "bound": res.bound, "proven": bool(res.optimal),
            "gap": None if res.value is None or res.bound is None else res.value - res.bound,
            "lns_stats": res.stats.get("lns"), "resume": res.stats.get("resume"), "nodes": res.stats.get("nodes"),
            "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1),
            "load": round(os.getloadavg()[0], 2)}


def report(rows: list[dict[str, Any]], header: list[str]) -> str:
    """The markdown report: one table row per (rung, LNS), medians and counts."""
    lines = header + ["", "| rung | LNS | deals | wins | proven | median best | median bound |"
                      " median gap | median CPU s |", "|---|---|---|---|---|---|---|---|---|"]
    for rung in RUNGS:
        for lns in (False, True):
            rs = [r for r in rows if r["rung"] == rung and r["lns"] == lns]
            if not rs:
                continue
            wins = [r for r in rs if r["best"] is not None]

            def med(xs: list[Any]) -> str:
                xs = [x for x in xs if x is not None]
                return f"{statistics.median(xs):g}" if xs else "–"

            lines.append(
                f"| {rung} | {'on' if lns else 'off'} | {len(rs)} | {len(wins)} | "
                f"{sum(r['proven'] for r in rs)} | {med([r['best'] for r in wins])} | "
                f"{med([r['bound'] for r in rs])} | {med([r['gap'] for r in rs])} | "
                f"{med([r['cpu_seconds'] for r in rs])} |")
    lines += ["", "Per deal (best/bound with LNS off, on; with LNS on: what the windows did, "
              "and the resumed proof's bound and best before → after):", "",
              "| rung | seed | off | on | LNS from → to | resumed proof: bound, best |",
              "|---|---|---|---|---|---|"]
    for rung in RUNGS:
        for seed in sorted({r["seed"] for r in rows if r["rung"] == rung}):
            by = {r["lns"]: r for r in rows if r["rung"] == rung and r["seed"] == seed}
            off, on = by.get(False), by.get(True)
            ls = (on or {}).get("lns_stats") or {}
            rz = (on or {}).get("resume") or {}
            resumed = (f"{rz['bound_before']} → {rz['bound']}, {rz['value_before']} → {rz['value']}"
                       if rz else "–")
            pair = [f"{r['best']}/{r['bound']}" if r else "–" for r in (off, on)]
            lines.append(
                f"| {rung} | {seed} | {pair[0]} | {pair[1]} | "
                f"{ls.get('from', '–')} → {ls.get('to', ls.get('skipped', '–'))} | "
                f"{resumed} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the ladder (see the module docstring); returns the exit code."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks.lns_ladder", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rungs", default=",".join(RUNGS), help="rungs, comma-separated")
    ap.add_argument("--seeds", default="101,102,103", help="seeds, comma-separated")
    ap.add_argument("--seconds", type=float, default=20.0, help="time limit of a solve")
    ap.add_argument("--out", default=None, help="output folder (resumed if it exists)")
    ap.add_argument("--report-only", action="store_true", help="rebuild report.md only")
    a = ap.parse_args(argv)
    try:
        rungs = a.rungs.split(",")
        seeds = [int(s) for s in a.seeds.split(",")]
        for r in rungs:
            rules_of(r)
    except (KeyError, ValueError) as exc:
        print(f"lns_ladder: error: bad --rungs or --seeds ({exc})", file=sys.stderr)
        return 2
    today = _dt.datetime.now(_dt.UTC)
    out = Path(a.out or f"benchmarks/results/lns-ladder-{today:%Y-%m-%d}")
    out.mkdir(parents=True, exist_ok=True)
    runs = out / "runs.jsonl"
    rows = [json.loads(x) for x in runs.read_text().splitlines()] if runs.exists() else []
    done = {(r["rung"], r["seed"], r["lns"]) for r in rows}
    load0 = " ".join(f"{x:.2f}" for x in os.getloadavg())
    if not a.report_only:
        for rung in rungs:
            for seed in seeds:
                for lns in (False, True):
                    if (rung, seed, lns) in done:
                        continue
                    row = run_one(rung, seed, lns, a.seconds)
                    rows.append(row)
                    with runs.open("a") as fh:
                        fh.write(json.dumps(row) + "\n")
                    print(json.dumps(row), flush=True)
    m = machine()
    header = ["# Waste-optimum ladder: LNS on and off", "",
              f"- date: {today:%Y-%m-%d %H:%M} UTC; command: "
              f"`nice -n 10 python -m benchmarks.lns_ladder {shlex.join(argv or sys.argv[1:])}`",
              f"- machine: {m['arch']}, {m['cpu']}, {m['cores']} cores, {m['ram']} RAM, "
              f"Python {m['python']}; load average when the report was built: {load0} "
              "(2 cores shared with other engineers; each row records the load at its end)",
              f"- solo, hand 5; time limit {a.seconds:g} s a deal (the solver's wall-clock "
              "limit; the CPU seconds each run got are in the table); LNS on = the search gets the "
              "first 50 % of that limit, LNS the next 30 %, the resumed proof the last 20 %."]
    (out / "report.md").write_text(report(rows, header))
    print((out / "report.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
