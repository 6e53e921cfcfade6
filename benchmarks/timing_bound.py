"""The timing bound (:mod:`solver.timing_bound`) at the root of solo deals, against today's.

Run ``nice -n 10 python -m benchmarks.timing_bound --help``. Three parts, each row to
``--out``/``rows.jsonl`` (resumed: rows already there are skipped), then ``report.md``:

* ``gap``: the 5- and 6-row rungs of :data:`benchmarks.waste_ladder.RUNGS` (hand 5, seeds
  ``--seed0``…): the waste optimum by ``solve(objective="waste")`` under a CPU limit (used
  only where proven), today's root bound (:meth:`solver.bounds.Bounds.root_bound`, default
  switches, and with the step bound), and the timing bound; the share of
  (optimum − today's bound) that the timing bound closes.
* ``root``: the 7-row rung and the standard game: today's root bound and the timing bound
  (and, read only, the best win and bound of the ground-truth files in ``--truth`` if given).
* ``tiny``: random mid-game positions of tiny solo games (:func:`tests.strategies.tiny_games`
  rules), the naive reference's optimum, today's bound and the timing bound.

Each deal runs in a fresh worker process; times are the worker's CPU seconds.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import random
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any


def _rules_text(rung: str) -> str:
    return rung if "standard" in rung else rung + ",hand_size=5"


def deal_job(j: dict[str, Any]) -> dict[str, Any]:
    """One solo deal: today's root bounds, the timing bound, and (``opt_cpu`` > 0) the waste
    optimum under that many CPU seconds."""
    from benchmarks.frontier import _cpu_limits, _rules
    from model.deal import Deal
    from solver import solve
    from solver.exhaustive import Search
    from solver.state import Switches
    from solver.timing_bound import timing_bound

    deal = Deal.from_seed(j["seed"], 1, _rules(_rules_text(j["rules"])))
    _cpu_limits()
    out = dict(j)
    s = Search(deal, "waste", Switches(), None, None)
    out["today"] = s.root_bound()
    s2 = Search(deal, "waste", Switches(step_bound=True), None, None)
    out["today_step"] = s2.root_bound()
    res = timing_bound(Search(deal, "waste", Switches(), None, None), j["work"])
    out.update(timing=res.bound, model=res.model, status=res.status, timing_cpu=round(res.cpu, 2),
               variables=res.variables)
    if j.get("opt_cpu"):
        t = time.process_time()
        r = solve(deal, "waste", time_limit=j["opt_cpu"], memory_limit_mb=j["memory_mb"])
        out.update(verdict=r.verdict, value=r.value, bound=r.bound, optimal=r.optimal,
                   opt_seconds=round(time.process_time() - t, 1))
    return out


def tiny_job(j: dict[str, Any]) -> dict[str, Any]:
    """``j["n"]`` random tiny solo positions (seed ``j["seed"]``): reference optimum, today's
    bound and the timing bound of each that is won."""
    from model.deal import Deal
    from solver.exhaustive import Search
    from solver.state import Switches
    from solver.timing_bound import timing_bound
    from tests.reference import reference_solve
    from tests.strategies import build_rules, random_position

    rng = random.Random(j["seed"])
    gap = closed = wins = positive = 0
    cpu = 0.0
    for _ in range(j["n"]):
        rules = build_rules(lambda xs: rng.choice(list(xs)), 1)
        deal = Deal.from_seed(rng.randint(0, 2**32), 1, rules)
        game = random_position(deal, rng, rng.randint(0, 6))
        if game.is_over():
            continue
        verdict, value = reference_solve(game, "waste")
        if verdict != "win" or value is None:
            continue
        res = timing_bound(Search(game, "waste", Switches(), None, None), j["work"])
        if res.bound > value:  # never: the test suite checks it; a benchmark must say so loudly
            raise AssertionError(f"timing bound {res.bound} above the optimum {value}")
        wins += 1
        gap += value - res.today
        closed += res.bound - res.today
        positive += res.bound > 0
        cpu += res.cpu
    return {**j, "wins": wins, "gap": gap, "closed": closed, "positive": positive,
            "cpu": round(cpu, 2)}


def report(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """The markdown report of the three parts."""
    out = ["# The timing bound at the root (solo)", "",
           f"Run {meta['date']} on {meta['machine']}; load average {meta['load_start']} at the "
           f"start, {meta['load_end']} at the end. CP-SAT work {meta['work']} deterministic units "
           "a call, one worker; times are CPU seconds.", ""]
    gap_rows = [r for r in rows if r["part"] == "gap"]
    if gap_rows:
        out += ["## Share of (optimum − today's root bound) closed (5 and 6 rows)", "",
                "| rows | seed | optimum | proven | today | today+step | timing | model status | "
                "timing CPU s | closed |", "|---|---|---|---|---|---|---|---|---|---|"]
        tot_gap = tot_closed = 0
        for r in sorted(gap_rows, key=lambda r: (r["rules"], r["seed"])):
            rows_n = r["rules"].split(",")[0]
            base = max(r["today"], r["today_step"])
            if r.get("optimal"):
                g = r["value"] - base
                c = max(0, r["timing"] - base)
                tot_gap += g
                tot_closed += c
                share = f"{c}/{g}"
            else:
                share = "(no proven optimum)"
            out.append(f"| {rows_n} | {r['seed']} | {r.get('value')} | {r.get('optimal')} | "
                       f"{r['today']} | {r['today_step']} | {r['timing']} | {r['status']} | "
                       f"{r['timing_cpu']} | {share} |")
        pct = f"{100 * tot_closed / tot_gap:.0f} %" if tot_gap else "n/a"
        out += ["", f"Closed over the deals with a proven optimum: {tot_closed} of {tot_gap} "
                f"cards ({pct}); the base is the larger of today's root bound with and without "
                "the step bound.", ""]
    root_rows = [r for r in rows if r["part"] == "root"]
    if root_rows:
        out += ["## Root bound at 7 rows and the standard game", "",
                "| rules | seed | today | today+step | timing | model status | timing CPU s | "
                "truth best/bound |", "|---|---|---|---|---|---|---|---|"]
        for r in sorted(root_rows, key=lambda r: (r["rules"], r["seed"])):
            out.append(f"| {r['rules'].split(',')[0]} | {r['seed']} | {r['today']} | "
                       f"{r['today_step']} | {r['timing']} | {r['status']} | {r['timing_cpu']} | "
                       f"{r.get('truth', '')} |")
        out.append("")
    tiny = [r for r in rows if r["part"] == "tiny"]
    if tiny:
        w = sum(r["wins"] for r in tiny)
        g = sum(r["gap"] for r in tiny)
        c = sum(r["closed"] for r in tiny)
        cpu = sum(r["cpu"] for r in tiny)
        out += ["## Tiny solo positions (naive reference optimum)", "",
                f"{w} won positions: the gap (optimum − today's bound) sums to {g} cards, the "
                f"timing bound closes {c} ({100 * c / g:.0f} %)" if g else f"{w} won positions",
                f"; {sum(r['positive'] for r in tiny)} positions with a bound above 0; "
                f"{cpu / max(w, 1):.3f} CPU s a call.", ""]
    return "\n".join(out)


def _truth(path: str | None, rung: str, seed: int) -> str:
    """``best/bound`` of a ground-truth file (benchmarks/ground_truth.py), read only."""
    if not path:
        return ""
    idx = {"rows=7": 3, "preset=standard": 4}.get(rung.split(",")[0])
    f = Path(path) / f"rung{idx}-seed{seed}.json"
    if idx is None or not f.exists():
        return ""
    d = json.loads(f.read_text())
    best = (d.get("best") or {}).get("value")
    return f"{best}/{d.get('bound')}" + (" (optimal)" if d.get("optimal") else "")


def main(argv: list[str] | None = None) -> None:
    from benchmarks.waste_ladder import RUNGS

    ap = argparse.ArgumentParser(prog="python -m benchmarks.timing_bound",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=4, help="deals per rung")
    ap.add_argument("--seed0", type=int, default=301)
    ap.add_argument("--work", type=float, default=2.0, help="CP-SAT deterministic work a call")
    ap.add_argument("--opt-cpu", type=float, default=60.0, help="CPU seconds to prove an optimum")
    ap.add_argument("--memory-mb", type=int, default=600)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tiny", type=int, default=200, help="tiny positions tried (0: skip)")
    ap.add_argument("--parts", default="tiny,gap,root")
    ap.add_argument("--truth", default=None, help="ground-truth folder to read (optional)")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    now = _dt.datetime.now(_dt.UTC)
    out = Path(a.out or f"benchmarks/results/timing-bound-{now:%Y-%m-%d}")
    out.mkdir(parents=True, exist_ok=True)
    rows_f = out / "rows.jsonl"
    done = [json.loads(x) for x in rows_f.read_text().splitlines()] if rows_f.exists() else []
    keys = {(r["part"], r.get("rules"), r["seed"]) for r in done}
    parts = set(a.parts.split(","))
    jobs: list[tuple[Any, dict[str, Any]]] = []
    if "tiny" in parts and a.tiny:
        for k in range(0, a.tiny, 50):
            jobs.append((tiny_job, {"part": "tiny", "rules": None, "seed": k, "n": min(50, a.tiny - k),
                                    "work": a.work}))
    for part, rungs, opt in (("gap", RUNGS[1:3], a.opt_cpu), ("root", RUNGS[3:5], 0)):
        if part not in parts:
            continue
        for rung in rungs:
            for seed in range(a.seed0, a.seed0 + a.seeds):
                jobs.append((deal_job, {"part": part, "rules": rung, "seed": seed, "work": a.work,
                                        "opt_cpu": opt, "memory_mb": a.memory_mb,
                                        "truth": _truth(a.truth, rung, seed)}))
    jobs = [(f, j) for f, j in jobs if (j["part"], j["rules"], j["seed"]) not in keys]
    load0 = " ".join(f"{x:.1f}" for x in os.getloadavg())
    with ProcessPoolExecutor(a.jobs) as ex, rows_f.open("a") as fh:
        futs = [ex.submit(f, j) for f, j in jobs]
        for fut in as_completed(futs):
            row = fut.result()
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done.append(row)
            print(json.dumps({k: row.get(k) for k in ("part", "rules", "seed", "today", "timing",
                                                      "value", "optimal", "closed", "gap")}),
                  flush=True)
    meta = {"date": f"{now:%Y-%m-%d %H:%M} UTC",
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "load_start": load0, "load_end": " ".join(f"{x:.1f}" for x in os.getloadavg()),
            "work": a.work}
    (out / "report.md").write_text(report(done, meta) + "\n")
    print(out / "report.md")


if __name__ == "__main__":
    main()
