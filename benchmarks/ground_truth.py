"""Ground truth for the waste optimum: the fewest cards out of the game in a win, proven,
for a few deals of the waste ladder (:data:`benchmarks.waste_ladder.RUNGS`, solo, hand 5;
the standard game with its own hand).

Run ``nice -n 10 python -m benchmarks.ground_truth --help``. ``run`` works deal by deal:

1. **today**: the default solver (:func:`solver.solve`, objective ``waste``) for
   ``--today-cpu`` CPU seconds, its default memory: the best win and proven bound that the
   project reports today (the gap to judge). Its win is the first incumbent.
2. **deepening**: one exhaustive search (:class:`solver.exhaustive.Search`, the compiled
   core) with a transposition table of ``--table-entries`` entries, asked "is there a win
   with waste ≤ B?" for B from the proven lower bound upward (the table kept across
   budgets; the incumbent's moves tried first). A search that ends without a win proves
   "no win with waste ≤ B" (the bound becomes B + 1); one that finds a win at B, with
   B − 1 proven impossible, has found the optimum; the bound reaching the incumbent's waste
   proves the incumbent optimal. Each step has its own limits (``--step-nodes``,
   ``--step-cpu``); a step that runs out is recorded as ``limit`` and the next deal runs.

Every sub-answer (a bound proven, a win found with its plan) is stored in the state file
(``--state``, JSON, written whole after each step: temporary file, then rename), so a
stopped or finished run resumes where it was: ``run`` again with larger limits retries the
open budget from the proven bound. Every win is replayed by :mod:`model` before it is
stored. ``report`` prints the table; ``export`` writes the small reference answers (one
JSON per deal, plan included) that ``tests/test_ground_truth.py`` replays.

Soundness: a bound comes only from a search that ended (no limit ran out) with every
pruning of the solver on, which the tests check against the naive reference; the core's
table keeps 128-bit fingerprints of its keys (two states share one with a probability of
about 2⁻¹²⁸ a pair: 10⁻²³ for 10⁸ entries), which the state file records as the method.
Limits are CPU seconds of this process (:func:`benchmarks.frontier._cpu_limits`).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import json
import os
import platform
import resource
import time
from pathlib import Path
from typing import Any

#: Transposition-table entries of the deepening search by default: 60 M (the core's open
#: addressing keeps 32-byte slots at most half full, so 2²⁷ slots = 4.3 GB, and its
#: eviction copies them once: about 9 GB at its peak).
TABLE_ENTRIES = 60_000_000


def deal_of(spec: str):
    """``"RUNG:SEED"`` (RUNG an index of :data:`benchmarks.waste_ladder.RUNGS`) → (rules
    text, seed, :class:`~model.deal.Deal`), solo, hand 5 (the standard game: its own).
    Raises ``ValueError`` for a malformed spec or a rung out of range."""
    from benchmarks.frontier import _rules
    from benchmarks.waste_ladder import RUNGS
    from model.deal import Deal

    try:
        k, seed = (int(x) for x in spec.split(":"))
    except ValueError:
        raise ValueError(f"deal {spec!r} is not RUNG:SEED (e.g. 3:301)") from None
    if not 0 <= k < len(RUNGS):
        raise ValueError(f"rung {k} out of range 0..{len(RUNGS) - 1}")
    text = RUNGS[k]
    rules = _rules(text + ",hand_size=5" if "standard" not in text else text)
    return text, seed, Deal.from_seed(seed, 1, rules)


def _write(path: Path, state: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(state, indent=1) + "\n")
    tmp.replace(path)


def _now() -> str:
    return f"{_dt.datetime.now(_dt.UTC):%Y-%m-%d %H:%M:%S} UTC"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _rss_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def _log(msg: str) -> None:
    print(f"[{_now()} load {_load()} rss {_rss_mb()} MB] {msg}", flush=True)


def _entry(d: dict[str, Any]) -> dict[str, Any]:
    """The deal's record: proven bound, best win (value, plan), optimal, steps."""
    d.setdefault("steps", [])
    d.setdefault("bound", 0)
    d.setdefault("bound_by", None)
    d.setdefault("best", None)
    d.setdefault("optimal", False)
    return d


def _keep_win(d: dict[str, Any], deal, moves, found_by: str) -> int:
    """Replay ``moves`` through :mod:`model`; store them as the best win when cheaper.
    Returns their waste. Raises :class:`solver.result.SolverBug` if they do not win."""
    from solver.result import checked_plan, waste_of

    plan = checked_plan(deal, moves, found_by)
    w = waste_of(moves, deal)
    if d["best"] is None or w < d["best"]["value"]:
        d["best"] = {"value": w, "found_by": found_by, "at": _now(),
                     "plan": plan.to_json()}
    return w


def step_today(d: dict[str, Any], deal, cpu: float) -> None:
    """The default solver for ``cpu`` CPU seconds (its defaults otherwise)."""
    from solver import solve

    t = time.process_time()
    res = solve(deal, "waste", time_limit=cpu)
    secs = time.process_time() - t
    st = res.stats or {}
    d["today"] = {"verdict": res.verdict, "value": res.value, "bound": res.bound,
                  "optimal": res.optimal, "cpu_seconds": round(secs, 1),
                  "limit_cpu": cpu, "nodes": st.get("nodes"), "at": _now(), "load": _load(),
                  "lns": {k: st.get("lns", {}).get(k) for k in ("from", "to")}}
    if res.bound is not None and res.bound > d["bound"]:
        d["bound"], d["bound_by"] = res.bound, f"default solve, {cpu:g} CPU s"
    if res.plan is not None:
        _keep_win(d, deal, res.plan.moves, f"default solve, {cpu:g} CPU s")
    if res.optimal:
        d["optimal"] = True


def deepen(d: dict[str, Any], deal, args, save) -> None:
    """Bottom-up budgets from the proven bound (see the module docstring)."""
    import solver.exhaustive as ex
    from model.records import Plan
    from solver.state import Stop, Switches

    sw = Switches()
    sw.table_size = args.table_entries
    s = ex.Search(deal, "waste", sw, None, None)
    root = s.snapshot()
    if d["best"] is not None:
        s.set_pv(s.from_moves(Plan.from_json(d["best"]["plan"]).moves))
    lb0 = s.root_bound()
    if lb0 > d["bound"]:
        d["bound"], d["bound_by"] = lb0, "root bound"
    while not d["optimal"]:
        best = d["best"]["value"] if d["best"] else None
        if best is not None and d["bound"] >= best:
            d["optimal"] = True
            save()
            break
        budget = d["bound"]
        clock = ex.time.monotonic
        deadline = clock() + args.step_cpu if args.step_cpu else None
        s.begin(deadline, args.step_nodes)
        t = time.process_time()
        _log(f"{d['name']}: budget {budget} (best {best}), table {len(s.tt):,} entries")
        try:
            ok = s.dfs(budget)
            result = "win" if ok else "no-win"
        except Stop:
            s.path.clear()
            s.restore(root)
            result = "limit"
        secs = time.process_time() - t
        rec = {"budget": budget, "result": result, "nodes": s.nodes,
               "cpu_seconds": round(secs, 1), "table_entries": len(s.tt),
               "table_capacity": args.table_entries, "evictions": s.tt_evictions,
               "table_hits": s.tt_hits, "limits": {"nodes": args.step_nodes,
                                                   "cpu": args.step_cpu},
               "at": _now(), "load": _load(), "rss_mb": _rss_mb()}
        d["steps"].append(rec)
        _log(f"{d['name']}: budget {budget}: {result}, {s.nodes:,} nodes, {secs:.0f} s, "
             f"{s.tt_evictions:,} evicted")
        if result == "limit":
            save()
            return
        if result == "no-win":
            d["bound"], d["bound_by"] = budget + 1, "deepening (core DFS, exhausted)"
        else:
            w = _keep_win(d, deal, s.to_moves(s.win_line), "deepening (core DFS)")
            assert w <= budget, (w, budget)  # the search's cost is the model's waste
            s.set_pv(s.win_line)
        save()


def run(args) -> int:
    import solver.lns  # noqa: F401  (imported before _cpu_limits sets its clock)
    from benchmarks.frontier import _cpu_limits

    _cpu_limits()
    path = Path(args.state)
    state = json.loads(path.read_text()) if path.exists() else {"deals": {}}
    state.setdefault("runs", []).append({
        "started": _now(), "load": _load(), "argv": vars(args) | {"func": None},
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                   f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.1f} GB, "
                   f"Python {platform.python_version()}"})

    def save() -> None:
        _write(path, state)

    save()
    deals = []
    for spec in args.deals.split(","):
        text, seed, deal = deal_of(spec)
        d = _entry(state["deals"].setdefault(spec, {"name": spec, "rules": text,
                                                    "seed": seed}))
        deals.append((d, deal))
    for d, deal in deals:  # first today's answer of every deal, then the proofs
        if "today" not in d and args.today_cpu:
            _log(f"{d['name']}: default solve, {args.today_cpu} CPU s")
            step_today(d, deal, args.today_cpu)
            _log(f"{d['name']}: today {d['today']['value']}/{d['today']['bound']}")
            save()
    for d, deal in deals:
        if d["optimal"]:
            _log(f"{d['name']}: optimum {d['best']['value']} proven")
        elif args.steps:
            deepen(d, deal, args, save)
            # the search and its core hold each other (the core keeps the search's limit
            # check): free the last deal's table before the next one grows its own
            gc.collect()
    state["runs"][-1]["ended"] = _now()
    state["runs"][-1]["load_end"] = _load()
    save()
    return 0


def report(state: dict[str, Any]) -> str:
    """The table: per deal, today's best/bound, the best win and proven bound, optimal,
    what proved the bound, the steps' nodes and CPU seconds."""
    out = ["| deal | today (best/bound) | best win | proven bound | optimum | bound by | "
           "steps (budget: result, nodes, CPU s) |", "|---|---|---|---|---|---|---|"]
    for d in state["deals"].values():
        td = d.get("today") or {}
        best = d["best"]["value"] if d.get("best") else "–"
        opt = best if d.get("optimal") else "open"
        steps = "; ".join(f"{s['budget']}: {s['result']}, {s['nodes']:,}, {s['cpu_seconds']:g}"
                          for s in d.get("steps", []))
        name = d["rules"].split(",")[0] if "preset" not in d["rules"] else "standard"
        out.append(f"| {name} seed {d['seed']} | {td.get('value')}/{td.get('bound')} | {best} | "
                   f"{d['bound']} | {opt} | {d.get('bound_by')} | {steps} |")
    return "\n".join(out) + "\n"


def export(state: dict[str, Any], out: Path) -> None:
    """One small JSON a deal under ``out`` (the reference answers); deals with nothing
    found yet are left out."""
    out.mkdir(parents=True, exist_ok=True)
    for spec, d in state["deals"].items():
        if d.get("best") is None and not d.get("steps"):
            continue
        rec = {k: d.get(k) for k in ("name", "rules", "seed", "bound", "bound_by", "optimal",
                                     "today", "best", "steps")}
        rec["method"] = ("bound: exhaustive DFS of the compiled core (solver/_core.c), every "
                         "pruning on, transposition table of 128-bit key fingerprints; "
                         "best: replayed by model/")
        rec["runs"] = state.get("runs", [])
        _write(out / f"rung{spec.replace(':', '-seed')}.json", rec)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.ground_truth",
                                 description="Proven waste optima of ladder deals (resumable).")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="work on the deals (resumes from --state)")
    r.add_argument("--state", required=True, help="the JSON state file (created or resumed)")
    r.add_argument("--deals", default="3:301,3:302,3:303,3:304,4:301",
                   help="RUNG:SEED,... (RUNG: index of benchmarks.waste_ladder.RUNGS)")
    r.add_argument("--today-cpu", type=float, default=60.0,
                   help="CPU s of the default solve (0: skip)")
    r.add_argument("--table-entries", type=int, default=TABLE_ENTRIES)
    r.add_argument("--step-nodes", type=int, default=None, help="nodes a budget step")
    r.add_argument("--step-cpu", type=float, default=None, help="CPU s a budget step")
    r.add_argument("--no-steps", dest="steps", action="store_false",
                   help="only the default solve")
    p = sub.add_parser("report", help="print the table")
    p.add_argument("--state", required=True)
    e = sub.add_parser("export", help="write the reference answers, one JSON a deal")
    e.add_argument("--state", required=True)
    e.add_argument("--out", default="benchmarks/results/ground-truth")
    a = ap.parse_args(argv)
    if a.cmd == "run":
        for spec in a.deals.split(","):
            try:
                deal_of(spec)
            except ValueError as exc:
                ap.error(str(exc))
        if a.table_entries < 1024:
            ap.error("--table-entries is at least 1024")
        return run(a)
    path = Path(a.state)
    if not path.exists():
        ap.error(f"no state file {a.state!r}")
    state = json.loads(path.read_text())
    if a.cmd == "report":
        print(report(state), end="")
    else:
        export(state, Path(a.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
