"""The frontier benchmark: what the exhaustive search proves (optima, losses), before/after its switches.

Run ``python -m benchmarks.frontier --help``. Three tables, each for a *configuration* of
search switches (``--config``):

* ``before``: the search without its switches ``window_players``, ``deepening``,
  ``pv_order`` and ``core`` (all off: exactly the earlier code path);
* ``python``: every switch on but the compiled core (the pure-Python search, the reference);
* ``after``: every switch on (the defaults), the compiled core (``solver/_core.c``) where it
  is built.

Limits are CPU seconds of the worker (``time.process_time``), not wall time: the machine is
shared, and a deal must get the same search whatever else runs.

``optimum``: standard deals (or ``--rules``), solo seeds and 2–5-player seeds, ``--objective`` ``waste`` and
``turns``, ``--time-limit`` seconds each: verdict, value (best win), proven bound, gap
(value − bound), whether the optimum is proven, the static bound at the root (before any
search), nodes and nodes per second.

``ladder``: the ``hand_size=2`` size ladder (solo, objective ``none``): share
decided (win or proven loss) per rung within the limit.

``cpsat``: the first ``--cpsat-rungs`` rungs of the ladder (default the 3- and 4-row ones)
solved by CP-SAT alone (:func:`solver.cpsat.solve_cpsat`: the loss model of
:mod:`solver.cpsat_loss`, then the exact model; objective ``none``, no hint, one worker,
``--time-limit`` wall seconds): share decided per rung.

``attack``: for the deals whose waste optimum the ``optimum`` table claims proven, wider
beams with other tie-breaking weights, and CP-SAT hinted with the claimed plan, look for a
cheaper win. Any find is an optimum claim beaten: the worst bug (reported as ``BEATEN``).

Every deal runs in a fresh worker process (``--jobs`` at a time). Results go to
``--out`` (default: a new folder ``benchmarks/results/frontier-<UTC date-time>``), one
JSONL per table and configuration, and ``report.md`` (``--report DIR`` rebuilds it from the
JSONL files). Nothing already there is overwritten: a file that exists is resumed (rows
already in it are kept and skipped).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

CONFIGS = {
    "before": {"window_players": False, "deepening": False, "pv_order": False, "core": False},
    "python": {"core": False},
    "after": {},
    # the ablation of the loss proofs by learning and abstraction (solver.nogood,
    # solver.abstraction): each switch off, and both
    "no-nogood": {"nogood": False},
    "no-abstraction": {"abstraction": False},
    "neither": {"nogood": False, "abstraction": False},
}

#: The hand_size=2 ladder: rule sets of growing size (rows, values, cards), all with hands of two.
LADDER = [
    "preset=tiny,hand_size=2",
    "rows=4,values=6,colours=2,copies=2,campfires=1,bridges=2,summits=2,hand_size=2",
    "rows=5,values=6,colours=3,copies=2,campfires=1,bridges=2,summits=2,hand_size=2",
    "rows=6,values=8,colours=3,copies=2,campfires=1,bridges=3,summits=3,hand_size=2",
    "rows=7,values=10,colours=3,copies=2,campfires=1,bridges=4,summits=4,hand_size=2",
    "preset=standard,hand_size=2",
]


def _rules(text: str):
    from model.rules import RuleSet

    return RuleSet.from_options([x for x in text.split(",") if x]) if text else RuleSet()


class _CPUClock:
    """Stands in for the ``time`` module inside :mod:`solver.exhaustive` in a worker: its
    ``monotonic`` is the worker's CPU time, so a limit is CPU seconds and the load of other
    jobs on a shared machine does not change what a deal gets."""

    def __getattr__(self, name: str):
        return getattr(time, name)

    @staticmethod
    def monotonic() -> float:
        return time.process_time()


def _cpu_limits() -> None:
    """Make every search module of :mod:`solver` read the worker's CPU clock (its limit
    check, deadlines and timings), whichever module the check lives in."""
    import solver.exhaustive  # noqa: F401  (imports the modules whose clock is set below)
    import solver.frontier  # noqa: F401
    import solver.generic  # noqa: F401
    import solver.state  # noqa: F401

    clock = _CPUClock()
    for name, mod in list(sys.modules.items()):
        if (name == "solver" or name.startswith("solver.")) and getattr(mod, "time", None) is time:
            mod.time = clock


def optimum_job(job: dict[str, Any]) -> dict[str, Any]:
    """One deal of the ``optimum`` or ``ladder`` table (in a worker process)."""
    from model.deal import Deal
    from solver import solve
    from solver.exhaustive import Search
    from solver.state import Switches

    rules = _rules(job["rules"])
    deal = Deal.from_seed(job["seed"], job["players"], rules)
    sw = CONFIGS[job["config"]]
    _cpu_limits()
    static = None
    if job["objective"] != "none":
        s = Search(deal, job["objective"], Switches(**sw), None, None)
        static = s.root_bound()
        static = None if static >= 1 << 30 else static
    t = time.process_time()
    res = solve(deal, job["objective"], time_limit=job["time_limit"],
                memory_limit_mb=job["memory_mb"], **sw)
    secs = time.process_time() - t
    if res.verdict == "unknown" and secs < 0.5 * job["time_limit"]:
        # a limit that stops the search long before its CPU seconds: a clock not patched
        raise RuntimeError(f"the search stopped after {secs:.2f} CPU s of {job['time_limit']}: "
                           "its limit does not read the CPU clock")
    st = res.stats or {}
    gap = (res.value - res.bound) if res.value is not None and res.bound is not None else None
    return {**job, "verdict": res.verdict, "value": res.value, "optimal": res.optimal,
            "bound": res.bound, "gap": gap, "static_bound": static,
            "seconds": round(secs, 2), "nodes": st.get("nodes"),
            "nodes_per_second": st.get("nodes_per_second"),
            "pruned": st.get("pruned"), "table_entries": st.get("table_entries"),
            "plan": [m.to_text() if hasattr(m, "to_text") else str(m) for m in res.continuation]
            if job.get("keep_plan") and res.verdict == "win" else None}


def cpsat_job(job: dict[str, Any]) -> dict[str, Any]:
    """One deal of the ``cpsat`` table: :func:`solver.cpsat.solve_cpsat` with objective
    ``none``, no hint, one worker, ``time_limit`` wall seconds (CP-SAT's own clock): the loss
    model first, then the exact model with the time left."""
    from model.deal import Deal
    from solver.cpsat import solve_cpsat

    deal = Deal.from_seed(job["seed"], 1, _rules(job["rules"]))
    t = time.perf_counter()
    res = solve_cpsat(deal, "none", time_limit=job["time_limit"], workers=1)
    st = res.stats or {}
    return {**job, "verdict": res.verdict, "seconds": round(time.perf_counter() - t, 2),
            "status": st.get("status"), "loss_model": st.get("loss_model"),
            "nodes": st.get("nodes")}


def attack_job(job: dict[str, Any]) -> dict[str, Any]:
    """Attack one claimed waste optimum: wider beams with other weights, then CP-SAT hinted
    with a plan of the claimed value; any cheaper win beats the claim."""
    from model.deal import Deal
    from model.records import replay
    from solver import solve
    from solver.cpsat import solve_cpsat
    from solver.exhaustive import Search
    from solver.state import Stop, Switches

    _cpu_limits()
    deal = Deal.from_seed(job["seed"], job["players"], _rules(job["rules"]))
    claimed = job["claimed"]
    found = []
    t = time.perf_counter()
    for spent, real, bridge, width, choices in ((1, 1, 5, 512, 0), (2, 1, 3, 512, 2),
                                                (1, 2, 8, 1024, 1)):
        s = Search(deal, "waste", Switches(), _CPUClock.monotonic() + job["beam_s"], None)
        s.beam_spent, s.beam_real, s.beam_bridge = spent, real, bridge
        s.beam_discard_choices = choices
        try:
            if s.beam(width):
                line = s.win_line
                v = s.line_cost(line)
                g = replay(deal, s.to_moves(line)).game
                assert g.is_won() and len(g.out) == v
                found.append(("beam", spent, real, bridge, width, choices, v))
        except Stop:  # a limit: nothing found by this beam
            pass
    # a plan of the claimed value to hint CP-SAT with
    plan = solve(deal, "waste", time_limit=job["beam_s"]).continuation
    cp = solve_cpsat(deal, "waste", time_limit=job["cpsat_s"], hint=plan)
    cp_value = cp.value if cp.verdict == "win" else None
    values = [f[-1] for f in found] + ([cp_value] if cp_value is not None else [])
    best = min(values) if values else None
    return {**job, "beam_values": [f[-1] for f in found], "cpsat_verdict": cp.verdict,
            "cpsat_value": cp_value, "cpsat_optimal": cp.optimal, "cpsat_bound": cp.bound,
            "best_attack": best, "beaten": best is not None and best < claimed,
            "seconds": round(time.perf_counter() - t, 1)}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def run_table(fn, jobs: list[dict[str, Any]], path: Path, workers: int) -> list[dict[str, Any]]:
    """Run ``jobs`` (skipping those whose ``key`` is already in ``path``), appending rows."""
    done = {r["key"] for r in read_jsonl(path)}
    todo = [j for j in jobs if j["key"] not in done]
    path.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=workers, max_tasks_per_child=1) as ex, \
            path.open("a") as f:
        futs = {ex.submit(fn, j): j for j in todo}
        for fut in as_completed(futs):
            j = futs[fut]
            try:
                row = fut.result()
            except Exception as exc:  # noqa: BLE001 - a crash is a row, not the end of the benchmark
                row = {**j, "verdict": "error", "error": f"{type(exc).__name__}: {exc}"}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{path.name}: {j['key']} {row.get('verdict', '')} value={row.get('value')} "
                  f"bound={row.get('bound')} {row.get('seconds')}s", file=sys.stderr)
    return read_jsonl(path)


def _range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    return out


def _median(xs):
    return statistics.median(xs) if xs else None


def _slots(rules: str) -> int:
    """Slots of the mountain, the peak included (R2)."""
    rows = _rules(rules).rows
    return sum(rows + 2 - r for r in range(1, rows + 1)) + 1


#: The deals of the targets: solo seeds 1-100, 2-5 players seeds 1-30, 20 seeds a rung.
TARGET_SEEDS = {1: 100, 2: 30, 3: 30, 4: 30, 5: 30}
TARGET_LADDER_SEEDS = 20


def targets(out: Path, config: str = "after") -> list[str]:
    """The "Targets" section of ``report.md``: each target of the frontier with the
    figure reached by ``config`` on the rows run so far, and whether it is met, missed, or
    not yet decidable ("incomplete": fewer deals run than the target names, and the rest could
    still change the verdict)."""
    def verdict(ok_all: bool, ok_now: bool, complete: bool) -> str:
        if complete:
            return "**met**" if ok_now else "**missed**"
        return "**missed** (whatever the rest gives)" if not ok_all else "incomplete"

    lines = [f"## Targets (config `{config}`)", "",
             "| target | figure so far | deals run / asked | status |", "|---|---|---|---|"]
    waste = [r for r in read_jsonl(out / f"optimum-waste-{config}.jsonl") if r.get("verdict") != "error"]
    turns = [r for r in read_jsonl(out / f"optimum-turns-{config}.jsonl") if r.get("verdict") != "error"]
    asked_all = sum(TARGET_SEEDS.values())
    solo = [r for r in waste if r["players"] == 1 and r["seed"] <= TARGET_SEEDS[1]]
    opt = sum(1 for r in solo if r["optimal"])
    need = TARGET_SEEDS[1] / 2
    lines.append(f"| waste optimum proven for at least half of the solo deals | {opt} of {len(solo)} "
                 f"| {len(solo)} / {TARGET_SEEDS[1]} | "
                 f"{verdict(opt + TARGET_SEEDS[1] - len(solo) >= need, opt >= need, len(solo) >= TARGET_SEEDS[1])} |")
    target_rows = [r for r in waste if r["seed"] <= TARGET_SEEDS.get(r["players"], 0)]
    gaps = sorted(r["gap"] for r in target_rows if r["gap"] is not None)
    med = _median(gaps)
    lines.append(f"| median gap (best found − proven bound) at most 2 cards, all deals | "
                 f"{med if med is not None else '-'} | {len(target_rows)} / {asked_all} | "
                 f"{verdict(True, med is not None and med <= 2, len(target_rows) >= asked_all)} |")
    for p, n in TARGET_SEEDS.items():
        g = [r for r in turns if r["players"] == p and r["seed"] <= n]
        opt = sum(1 for r in g if r["optimal"])
        above = sum(1 for r in g if r["optimal"] and (r["value"] or 0) > _slots(r["rules"]))
        lines.append(f"| turns optimum proven for at least 90 % of deals, {p} player(s) | "
                     f"{opt} of {len(g)} ({above} of them above one move per slot) | {len(g)} / {n} | "
                     f"{verdict(opt + n - len(g) >= 0.9 * n, opt >= 0.9 * n, len(g) >= n)} |")
    ladder = read_jsonl(out / f"ladder-{config}.jsonl")
    if not ladder:
        lines.append("| the `hand_size=2` ladder (90 % decided up to 7 rows, half at 8) | not run "
                     "(`--tables ladder`) | - | not measured |")
    for i, rules in enumerate(LADDER if ladder else ()):
        g = [r for r in ladder if r["rules"] == rules and r["seed"] <= TARGET_LADDER_SEEDS]
        dec = sum(1 for r in g if r["verdict"] in ("win", "loss"))
        share = 0.5 if i == len(LADDER) - 1 else 0.9
        n = TARGET_LADDER_SEEDS
        lines.append(f"| ladder `{rules}`: at least {share:.0%} decided in the limit | {dec} of {len(g)} "
                     f"| {len(g)} / {n} | {verdict(dec + n - len(g) >= share * n, dec >= share * n, len(g) >= n)} |")
    cp = read_jsonl(out / "cpsat.jsonl")
    if cp:
        g = [r for r in cp if r["rules"] in LADDER[:2] and r["seed"] <= TARGET_LADDER_SEEDS]
        dec = sum(1 for r in g if r["verdict"] in ("win", "loss"))
        n = 2 * TARGET_LADDER_SEEDS
        lines.append(f"| CP-SAT decides the 3- and 4-row rungs (a loss model needing no hint) | "
                     f"{dec} of {len(g)} | {len(g)} / {n} | "
                     f"{verdict(dec + n - len(g) >= n, dec >= n, len(g) >= n)} |")
    else:
        lines.append("| CP-SAT decides the 3- and 4-row rungs (a loss model needing no hint) | not "
                     "run (`--tables cpsat`) | - | not measured |")
    lines.append("")
    return lines


def report(out: Path) -> str:
    """``report.md`` from the JSONL files in ``out``."""
    from benchmarks.solve import machine

    meta = json.loads((out / "meta.json").read_text()) if (out / "meta.json").exists() else {}
    m = machine()
    lines = [f"# Frontier benchmark: the exhaustive search's proven optima and losses "
             f"({meta.get('date', '?')})", "",
             f"Machine: {m['arch']}, {m['cpu']}, {m['cores']} cores, {m['ram']}, Python "
             f"{m['python']}. {meta.get('note', '')}", "",
             f"Command: `{meta.get('command', '?').split(' --note')[0]}`", ""]
    for objective in ("waste", "turns"):
        if not any(read_jsonl(out / f"optimum-{objective}-{config}.jsonl") for config in CONFIGS):
            continue  # not run in this folder
        lines += [f"## Optimum, objective `{objective}`", "",
                  "| config | players | deals | proven optimal | median gap | gaps (value−bound: count) "
                  "| median static root bound | median bound | median value | nodes/s "
                  "| cut by the objective bound |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for config in CONFIGS:
            rows = [r for r in read_jsonl(out / f"optimum-{objective}-{config}.jsonl")
                    if r.get("verdict") != "error"]
            for p in sorted({r["players"] for r in rows}):
                g = [r for r in rows if r["players"] == p]
                gaps = [r["gap"] for r in g if r["gap"] is not None]
                dist: dict[int, int] = {}
                for x in gaps:
                    dist[x] = dist.get(x, 0) + 1
                dtext = ", ".join(f"{k}: {v}" for k, v in sorted(dist.items()))
                nodes = sum(r["nodes"] or 0 for r in g)
                secs = sum(r["seconds"] for r in g)
                opt = sum(1 for r in g if r["optimal"])
                lines.append(
                    f"| {config} | {p} | {len(g)} | {opt} ({opt / len(g):.0%}) | {_median(gaps)} | {dtext} "
                    f"| {_median([r['static_bound'] for r in g if r['static_bound'] is not None])} "
                    f"| {_median([r['bound'] for r in g if r['bound'] is not None])} "
                    f"| {_median([r['value'] for r in g if r['value'] is not None])} "
                    f"| {int(nodes / secs) if secs else 0} "
                    f"| {sum((r.get('pruned') or {}).get('objective', 0) for r in g)} |")
        lines.append("")
        above = []
        for config in CONFIGS:
            rows = read_jsonl(out / f"optimum-{objective}-{config}.jsonl")
            if objective == "turns" and rows:
                hi = [r for r in rows if (r.get("value") or 0) > _slots(r["rules"])]
                n = sum(1 for r in hi if r.get("optimal"))
                above.append(f"{config}: {n} of the {len(hi)} deals whose best win is above it")
        if above:
            lines += ["Turns optima proven above the trivial bound (one move per slot: 45 in the "
                      "standard game): " + "; ".join(above) + ".", ""]
    ladders = {config: read_jsonl(out / f"ladder-{config}.jsonl") for config in CONFIGS}
    if any(ladders.values()):
        lines += ["## The hand_size=2 ladder (solo, objective none)", "",
                  "| config | rules | deals | win | loss | unknown | decided | median s (decided) |",
                  "|---|---|---|---|---|---|---|---|"]
    for config in CONFIGS:
        rows = ladders[config]
        for rules in LADDER:
            g = [r for r in rows if r["rules"] == rules]
            if not g:
                continue
            w = sum(r["verdict"] == "win" for r in g)
            lo = sum(r["verdict"] == "loss" for r in g)
            u = len(g) - w - lo
            dec = [r["seconds"] for r in g if r["verdict"] in ("win", "loss")]
            med = _median(dec)
            lines.append(f"| {config} | `{rules}` | {len(g)} | {w} | {lo} | {u} | "
                         f"{(w + lo) / len(g):.0%} | {'-' if med is None else round(med, 2)} |")
    lines.append("")
    cp = read_jsonl(out / "cpsat.jsonl")
    if cp:
        lines += ["## CP-SAT on the ladder (solo, objective none, no hint, one worker)", "",
                  "`solve_cpsat`: the loss model (a relaxation: infeasible is a proven loss; a "
                  "solution replayed as a win is a win), then the exact model with the time left.", "",
                  "| rules | deals | win | loss | unknown | decided | by the loss model | median s (decided) |",
                  "|---|---|---|---|---|---|---|---|"]
        for rules in LADDER:
            g = [r for r in cp if r["rules"] == rules]
            if not g:
                continue
            w = sum(r["verdict"] == "win" for r in g)
            lo = sum(r["verdict"] == "loss" for r in g)
            by_lm = sum(1 for r in g if r["verdict"] in ("win", "loss")
                        and (r.get("status") or "").endswith(("no play wins)", "as a win)")))
            dec = [r["seconds"] for r in g if r["verdict"] in ("win", "loss")]
            med = _median(dec)
            lines.append(f"| `{rules}` | {len(g)} | {w} | {lo} | {len(g) - w - lo} | "
                         f"{(w + lo) / len(g):.0%} | {by_lm} | {'-' if med is None else round(med, 2)} |")
        lines.append("")
    lines += targets(out)
    rows = read_jsonl(out / "attack.jsonl")
    if rows:
        lines += ["## Attack on claimed waste optima", "",
                  "| players | seed | claimed | beams (other weights) | CP-SAT hinted | beaten? |",
                  "|---|---|---|---|---|---|"]
        for r in sorted(rows, key=lambda r: (r["players"], r["seed"])):
            lines.append(f"| {r['players']} | {r['seed']} | {r['claimed']} | {r.get('beam_values')} "
                         f"| {r.get('cpsat_verdict')} {r.get('cpsat_value')} (bound {r.get('cpsat_bound')}) "
                         f"| {'BEATEN' if r.get('beaten') else 'no'} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.frontier", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="optimum,ladder", help="optimum,ladder,cpsat,attack")
    ap.add_argument("--cpsat-rungs", type=int, default=2,
                    help="ladder rungs of the cpsat table (default 2: the 3- and 4-row rungs)")
    ap.add_argument("--config", default="before,after", help="before,python,after")
    ap.add_argument("--objectives", default="waste,turns")
    ap.add_argument("--players", default="1-5", help="player counts of the optimum table")
    ap.add_argument("--solo-seeds", default="1-20")
    ap.add_argument("--multi-seeds", default="1-5", help="seeds for each of 2-5 players")
    ap.add_argument("--ladder-seeds", default="1-5")
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--memory-mb", type=int, default=768)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--attack-sample", type=int, default=4)
    ap.add_argument("--attack-cpsat-s", type=float, default=60.0)
    ap.add_argument("--rules", default="", help="rule options of the optimum table, K=V,K=V "
                    "(default: the standard game)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--note", default="")
    ap.add_argument("--report", default=None, metavar="DIR", help="only rebuild DIR/report.md")
    a = ap.parse_args(argv)
    if a.report:
        out = Path(a.report)
        if not out.is_dir():
            ap.error(f"--report {out}: no such folder")
        (out / "report.md").write_text(report(out) + "\n")
        return 0
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H%MZ")
    out = Path(a.out) if a.out else ROOT / "benchmarks" / "results" / f"frontier-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    meta_path = out / "meta.json"
    if not meta_path.exists():
        meta_path.write_text(json.dumps({
            "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "command": "python -m benchmarks.frontier " + " ".join(argv if argv is not None else sys.argv[1:]),
            "note": a.note}) + "\n")
    tables = a.tables.split(",")
    configs = [c for c in a.config.split(",") if c]
    for c in configs:
        if c not in CONFIGS:
            ap.error(f"unknown config {c!r}")
    base = {"time_limit": a.time_limit, "memory_mb": a.memory_mb}
    if "optimum" in tables:
        for objective in a.objectives.split(","):
            for config in configs:
                jobs = []
                for p, seeds in [(1, _range(a.solo_seeds))] + [(p, _range(a.multi_seeds)) for p in range(2, 6)]:
                    if p not in _range(a.players):
                        continue
                    for seed in seeds:
                        jobs.append({**base, "key": f"{p}-{seed}", "players": p, "seed": seed,
                                     "rules": a.rules, "objective": objective, "config": config,
                                     "keep_plan": False})
                run_table(optimum_job, jobs, out / f"optimum-{objective}-{config}.jsonl", a.jobs)
    if "ladder" in tables:
        for config in configs:
            jobs = [{**base, "key": f"{i}-{seed}", "players": 1, "seed": seed, "rules": rules,
                     "objective": "none", "config": config}
                    for i, rules in enumerate(LADDER) for seed in _range(a.ladder_seeds)]
            run_table(optimum_job, jobs, out / f"ladder-{config}.jsonl", a.jobs)
    if "cpsat" in tables:
        rungs = LADDER[: a.cpsat_rungs]
        jobs = [{**base, "key": f"{i}-{seed}", "players": 1, "seed": seed, "rules": rules,
                 "objective": "none", "config": "cpsat"}
                for i, rules in enumerate(rungs) for seed in _range(a.ladder_seeds)]
        run_table(cpsat_job, jobs, out / "cpsat.jsonl", a.jobs)
    if "attack" in tables:
        claimed = [r for c in configs for r in read_jsonl(out / f"optimum-waste-{c}.jsonl")
                   if r.get("optimal")]
        seen, jobs = set(), []
        for r in claimed:
            k = f"{r['players']}-{r['seed']}"
            if k in seen:
                continue
            seen.add(k)
            jobs.append({"key": k, "players": r["players"], "seed": r["seed"], "rules": r["rules"],
                         "claimed": r["value"], "beam_s": min(30.0, a.time_limit),
                         "cpsat_s": a.attack_cpsat_s})
        # a sample spread over the player counts: round-robin by players
        by_p: dict[int, list[dict[str, Any]]] = {}
        for j in jobs:
            by_p.setdefault(j["players"], []).append(j)
        sample: list[dict[str, Any]] = []
        while len(sample) < a.attack_sample and any(by_p.values()):
            for p in sorted(by_p):
                if by_p[p] and len(sample) < a.attack_sample:
                    sample.append(by_p[p].pop(0))
        run_table(attack_job, sample, out / "attack.jsonl", a.jobs)
    (out / "report.md").write_text(report(out) + "\n")
    print(out / "report.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
