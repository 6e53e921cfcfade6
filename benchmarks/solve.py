"""Solver benchmark: a fixed corpus of deals, one subprocess per deal, a Markdown table.

Run ``python -m benchmarks.solve`` (``--help`` for the options). The default corpus is
seeds 1–200 for 1 player and seeds 1–50 for each of 2–5 players (450 deals) under the
standard rules, each solved with a per-deal time limit (default 10 s).

Every deal runs in its own Python subprocess (``--jobs`` at a time), so that

* the peak memory of that solve is measured (``ru_maxrss`` of that child, from
  :func:`os.wait4`; the subprocess's whole resident set, interpreter included);
* a solve that hangs past its limit is killed (after ``time_limit * 1.5 + 30`` s) and
  recorded as ``unknown`` with an ``error``; a solve that crashes is recorded as verdict
  ``error`` with the tail of its stderr. Neither stops the benchmark.

Outputs in ``--out``, named ``solve-<solver>-<objective>[-<rules>]``. Without ``--out`` a
new folder ``bench-<date>-<time>`` is made in the current directory: a run never
overwrites earlier results (the committed ``benchmarks/results/`` included) unless
``--out`` names their folder.

* ``.jsonl``: one row per deal: players, seed, verdict, seconds (wall time of the solve call
  in the subprocess), nodes, nodes_per_second, value, optimal, bound, best_progress,
  peak_mb, error, and what was run (solver, objective, time_limit, rules);
* ``.csv``: the same rows as CSV;
* ``.md``: the table per player count (deals; win / loss / unknown / error; share resolved;
  median and 95th-percentile seconds; nodes per second; peak memory) with a header giving
  the date, the machine and the command line.

``--resume`` (with ``--out``) keeps the rows already in the ``.jsonl`` (same solver,
objective and rules) that are done: proven answers, and unknowns reached with a time limit
at least the current one. It runs the missing deals and retries the unknowns and errors when
the limit grew; the files end with one row per deal (the newest), never duplicates.

Ctrl-C (or SIGTERM) stops the run: the deals being solved are stopped, the table of the deals
done so far is written, and the exit code is 130; ``--resume`` continues.
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import importlib
import inspect
import io
import json
import math
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "benchmarks" / "results"

#: Solver names and the ``module:function`` each stands for. Any other ``module:function``
#: is accepted too (a solver still being written, or a test double).
SOLVERS = {
    "dfs": "solver.exhaustive:solve",
    "cpsat": "benchmarks.solve:cpsat_with_beam_hint",
    "cpsat-alone": "solver.cpsat:solve_cpsat",
    "portfolio": "solver.portfolio:solve_portfolio",
}


def cpsat_with_beam_hint(deal: Any, objective: str, time_limit: float | None = None) -> Any:
    """CP-SAT as ``ascent solve --solver cpsat`` runs it: hinted by the DFS beam's first win
    (``cpsat-alone`` is CP-SAT without a hint)."""
    from solver.cpsat import solve_cpsat

    return solve_cpsat(deal, objective, time_limit=time_limit, hint="beam")

#: The fixed corpus: player count -> seeds.
CORPUS = {1: range(1, 201), 2: range(1, 51), 3: range(1, 51), 4: range(1, 51), 5: range(1, 51)}

#: The solver's targets (standard rules): share resolved within the limit, solo median seconds,
#: peak memory per solve.
TARGET_RESOLVED = {1: 0.95, 2: 0.90, 3: 0.90, 4: 0.90, 5: 0.90}
TARGET_SOLO_MEDIAN_S = 0.5
TARGET_PEAK_MB = 2048

#: Set on Ctrl-C/SIGTERM: running jobs kill their subprocess and return ``None``.
STOP = threading.Event()

ROW_FIELDS = [
    "players", "seed", "verdict", "seconds", "nodes", "nodes_per_second", "value", "optimal",
    "bound", "best_progress", "peak_mb", "error", "solver", "objective", "time_limit", "rules",
    "proved_by",
]


class BenchmarkError(Exception):
    """Bad options (unknown solver, bad seed range...): reported in one line, exit 2."""


# ---- options -----------------------------------------------------------------------------

def parse_int_list(text: str, what: str) -> list[int]:
    """``"1-5"``, ``"1,3,7"`` or ``"1-3,9"`` as a sorted list of distinct ints.
    Raises :class:`BenchmarkError` on anything else."""
    out: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                if lo > hi:
                    raise ValueError
                out.update(range(lo, hi + 1))
            else:
                out.add(int(part))
        except ValueError:
            raise BenchmarkError(f"{what}: expected numbers like 1-5 or 1,3,7, not {text!r}") from None
    return sorted(out)


def resolve_solver(name: str) -> Callable[..., Any]:
    """The solve function for ``name`` (a key of :data:`SOLVERS` or ``module:function``).
    Raises :class:`BenchmarkError` if it is unknown or cannot be imported."""
    spec = SOLVERS.get(name, name)
    if ":" not in spec:
        raise BenchmarkError(
            f"unknown solver {name!r}; valid: {', '.join(SOLVERS)} (or module:function)")
    module, func = spec.split(":", 1)
    try:
        fn = getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError) as exc:
        raise BenchmarkError(f"solver {name!r} ({spec}) is not available: {exc}") from None
    if not callable(fn):
        raise BenchmarkError(f"solver {name!r} ({spec}) is not callable")
    return fn


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.solve",
        description="Solve the fixed corpus (seeds 1-200 solo, 1-50 for 2-5 players), one "
                    "subprocess per deal, and write a Markdown table, CSV and JSONL.")
    p.add_argument("--players", default="1-5", help="player counts, e.g. 1-5 or 1,3 (default 1-5)")
    p.add_argument("--seeds", default=None,
                   help="seeds for every player count, e.g. 1-20 (default: the corpus, "
                        "1-200 solo and 1-50 otherwise)")
    p.add_argument("--objective", default="none", choices=["none", "waste", "turns"])
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal (default 10)")
    p.add_argument("--memory-limit", type=int, default=2048,
                   help="MB per solve, passed to solvers that take memory_limit_mb (default 2048)")
    p.add_argument("--jobs", type=int, default=1, help="deals solved at once (default 1)")
    p.add_argument("--out", default=None,
                   help="output directory (default: a new folder bench-DATE-TIME here; "
                        "name benchmarks/results to update the committed figures)")
    p.add_argument("--resume", action="store_true",
                   help="with --out: keep the done rows of the JSONL; run the missing deals "
                        "and retry unknowns when --time-limit grew")
    p.add_argument("--solver", default="dfs",
                   help=f"{' | '.join(SOLVERS)} or module:function (default dfs)")
    p.add_argument("--rules", action="append", default=[], metavar="K=V",
                   help="rule option passed to the deals, e.g. preset=tiny (repeatable)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p


# ---- the worker (one deal, in a subprocess) ----------------------------------------------

def worker(job: dict[str, Any]) -> dict[str, Any]:
    """Solve one deal as described by ``job`` (players, seed, rules, objective, time_limit,
    memory_limit, solver) and return its row (without ``peak_mb``, which the parent adds)."""
    from model.deal import Deal
    from model.rules import RuleSet

    rules = RuleSet.from_options(job["rules"])
    deal = Deal.from_seed(job["seed"], job["players"], rules)
    fn = resolve_solver(job["solver"])
    kwargs: dict[str, Any] = {"time_limit": job["time_limit"]}
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}
    if "memory_limit_mb" in params:
        kwargs["memory_limit_mb"] = job["memory_limit"]
    start = time.perf_counter()
    result = fn(deal, job["objective"], **kwargs)
    seconds = time.perf_counter() - start
    stats = dict(getattr(result, "stats", {}) or {})
    nodes = int(stats.get("nodes", 0) or 0)
    return {
        "verdict": result.verdict,
        "seconds": round(seconds, 4),
        "nodes": nodes,
        "nodes_per_second": int(nodes / seconds) if seconds > 0 else 0,
        "value": result.value,
        "optimal": bool(result.optimal),
        "bound": result.bound,
        "best_progress": result.best_progress,
        "proved_by": getattr(result, "solver", None),
        "error": None,
    }


def _worker_main(argv: Sequence[str]) -> int:
    job = json.loads(argv[0])
    row = worker(job)
    sys.stdout.write(json.dumps(row) + "\n")
    sys.stdout.flush()
    return 0


# ---- the parent: run one job in a subprocess ----------------------------------------------

def run_job(job: dict[str, Any]) -> dict[str, Any] | None:
    """Run ``job`` in a fresh subprocess; return the full row. Never raises for a failing or
    hanging solve: those become rows with ``error`` set. ``None`` when :data:`STOP` was set
    (the run was interrupted) before the solve ended."""
    base = {k: job[k] for k in ("players", "seed", "solver", "objective", "time_limit")}
    base["rules"] = " ".join(job["rules"])
    hard_limit = job["time_limit"] * 1.5 + 30.0
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.solve", "--worker", json.dumps(job)],
            cwd=ROOT, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        killed = False
        stopped = False
        try:
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid == proc.pid:
                    break
                if time.monotonic() - start > hard_limit and not killed:
                    proc.kill()
                    killed = True
                if STOP.is_set() and not stopped:
                    proc.kill()
                    stopped = True
                time.sleep(0.02)
        except KeyboardInterrupt:  # (in the main thread: benchmarks.compare) no orphan solve
            proc.kill()
            proc.wait()
            raise
        if stopped:
            return None
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4 above
        wall = time.monotonic() - start
        # ru_maxrss is in kilobytes on Linux, bytes on macOS
        peak_mb = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    row: dict[str, Any] = dict.fromkeys(ROW_FIELDS)
    row.update(base)
    row["peak_mb"] = round(peak_mb, 1)
    if killed:
        row.update(verdict="unknown", seconds=round(wall, 4), nodes=0, nodes_per_second=0,
                   error=f"killed after {wall:.1f} s (limit {job['time_limit']} s)")
        return row
    lines = [ln for ln in stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = " | ".join(stderr.strip().splitlines()[-3:]) or f"exit code {proc.returncode}"
        row.update(verdict="error", seconds=round(wall, 4), nodes=0, nodes_per_second=0,
                   error=f"exit {proc.returncode}: {tail}"[:500])
        return row
    try:
        row.update(json.loads(lines[-1]))
    except json.JSONDecodeError:
        row.update(verdict="error", seconds=round(wall, 4), error="unreadable worker output")
    return row


# ---- table ---------------------------------------------------------------------------------

def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank ``q``-percentile (0 < q ≤ 100) of non-empty ``values``."""
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def summarise(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary per player count (sorted), then ``all``: deals, win, loss, unknown, error,
    resolved (share of win + loss), median_s, p95_s, nodes_per_s (total nodes / total
    seconds), peak_mb (max over deals)."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r["players"], []).append(r)
    keys: list[Any] = sorted(groups)
    if len(keys) > 1:
        groups["all"] = list(rows)
        keys.append("all")
    out = []
    for k in keys:
        g = groups[k]
        count = {v: sum(1 for r in g if r["verdict"] == v) for v in ("win", "loss", "unknown", "error")}
        secs = [float(r["seconds"] or 0) for r in g]
        total_nodes = sum(int(r["nodes"] or 0) for r in g)
        total_secs = sum(secs)
        out.append({
            "players": k, "deals": len(g), **count,
            "resolved": (count["win"] + count["loss"]) / len(g),
            "median_s": statistics.median(secs), "p95_s": percentile(secs, 95),
            "nodes_per_s": int(total_nodes / total_secs) if total_secs > 0 else 0,
            "peak_mb": max(float(r["peak_mb"] or 0) for r in g),
        })
    return out


def machine() -> dict[str, str]:
    """``uname -m``, CPU model, cores, RAM and Python version of this machine."""
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = f"{int(line.split()[1]) / 1024 / 1024:.1f} GB"
                break
    except OSError:
        pass
    return {"arch": platform.machine(), "cpu": cpu, "cores": str(os.cpu_count()),
            "ram": ram, "python": platform.python_version()}


def targets_note(summary: Sequence[dict[str, Any]]) -> list[str]:
    """Lines saying which of the solver's targets are met (standard rules only)."""
    lines = []
    for s in summary:
        p = s["players"]
        if p not in TARGET_RESOLVED:
            continue
        ok = s["resolved"] >= TARGET_RESOLVED[p]
        text = (f"- {p} player{'s' if p > 1 else ''}: resolved {s['resolved']:.1%} "
                f"(target ≥ {TARGET_RESOLVED[p]:.0%}): {'met' if ok else 'MISSED'}")
        if p == 1:
            okm = s["median_s"] <= TARGET_SOLO_MEDIAN_S
            text += f"; median {s['median_s']:.3f} s (target ≤ {TARGET_SOLO_MEDIAN_S} s): {'met' if okm else 'MISSED'}"
        okp = s["peak_mb"] <= TARGET_PEAK_MB
        text += f"; peak {s['peak_mb']:.0f} MB (target ≤ {TARGET_PEAK_MB} MB): {'met' if okp else 'MISSED'}"
        lines.append(text)
    return lines


def markdown(rows: Sequence[dict[str, Any]], args: argparse.Namespace, command: str,
             standard: bool) -> str:
    """The Markdown report of ``rows``."""
    m = machine()
    summary = summarise(rows)
    out = [
        f"# Solver benchmark: {args.solver}, objective {args.objective}",
        "",
        f"- date: {_dt.datetime.now(_dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {m['arch']}, {m['cpu']}, {m['cores']} cores, {m['ram']} RAM, Python {m['python']}",
        f"- command: `{command}`",
        f"- rules: {' '.join(args.rules) or 'standard'}; time limit {args.time_limit:g} s per deal; "
        f"one subprocess per deal, {args.jobs} at a time",
        "- peak memory: maximum resident set of a solve's subprocess (interpreter included)",
        "",
        "| players | deals | win | loss | unknown | error | resolved | median s | p95 s | nodes/s | peak MB |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summary:
        out.append(
            f"| {s['players']} | {s['deals']} | {s['win']} | {s['loss']} | {s['unknown']} | "
            f"{s['error']} | {s['resolved']:.1%} | {s['median_s']:.3f} | {s['p95_s']:.3f} | "
            f"{s['nodes_per_s']} | {s['peak_mb']:.0f} |")
    if standard:
        notes = targets_note(summary)
        if notes:
            out += ["", "Targets (on this machine):", *notes]
    errors = [r for r in rows if r.get("error")]
    if errors:
        out += ["", "Errors and killed solves:"]
        out += [f"- {r['players']} players, seed {r['seed']}: {r['error']}" for r in errors[:20]]
    return "\n".join(out) + "\n"


# ---- main ----------------------------------------------------------------------------------

def stem(args: argparse.Namespace) -> str:
    """File name stem of the outputs for these options."""
    name = args.solver.replace(":", "-").replace(".", "-")
    s = f"solve-{name}-{args.objective}"
    if args.rules:
        s += "-" + "-".join(r.replace("=", "_") for r in args.rules)
    return s


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of a JSONL file (unreadable lines are skipped)."""
    rows = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict):
                rows.append(row)
    return rows


def is_done(row: dict[str, Any], time_limit: float) -> bool:
    """A row ``--resume`` keeps: a proven answer (a loss, a win for objective ``none``, a
    proven optimum), or an answer reached with a time limit at least ``time_limit`` (a
    larger limit retries unknowns and unproven optima). Errors are always retried."""
    verdict = row.get("verdict")
    if verdict == "error" or row.get("error"):
        return False
    if verdict == "loss" or (verdict == "win" and (row.get("objective") == "none" or row.get("optimal"))):
        return True
    try:
        return float(row.get("time_limit") or 0) >= time_limit
    except (TypeError, ValueError):
        return False


def write_whole(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` whole or not at all (temporary file, then rename)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def out_dir_for(out: str | None, resume: bool) -> Path:
    """The folder a benchmark writes to: ``out`` (made if missing), or a new
    :func:`new_out_dir` so that committed results are never written over. ``--resume``
    needs ``out`` (:class:`BenchmarkError` otherwise)."""
    if resume and out is None:
        raise BenchmarkError("--resume needs --out DIR (the folder of the run to continue)")
    if out is None:
        return new_out_dir()
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_out_dir(base: Path | None = None) -> Path:
    """A new folder ``bench-YYYYmmdd-HHMMSS`` (``-2``, ``-3``... if taken) in ``base``
    (the current directory by default)."""
    base = base or Path.cwd()
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%S")
    for i in range(1, 1000):
        path = base / (f"bench-{stamp}" + (f"-{i}" if i > 1 else ""))
        try:
            path.mkdir(parents=True)
            return path
        except FileExistsError:
            continue
    raise BenchmarkError(f"no free folder name bench-{stamp}-N in {base}")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--worker"]:
        return _worker_main(argv[1:])
    args = build_parser().parse_args(argv)
    old = install_interrupts()
    try:
        return run(args, "python -m benchmarks.solve " + " ".join(shlex.quote(a) for a in argv))
    except BenchmarkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # before any deal ran (e.g. while starting)
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        restore_interrupts(old)


def install_interrupts() -> dict[int, Any]:
    """SIGTERM stops a benchmark as Ctrl-C does (a :class:`KeyboardInterrupt`)."""
    import signal

    def on_term(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signal.SIGINT: signal.signal(signal.SIGINT, signal.default_int_handler),
            signal.SIGTERM: signal.signal(signal.SIGTERM, on_term)}


def restore_interrupts(old: dict[int, Any]) -> None:
    import signal

    for signum, handler in old.items():
        signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def run(args: argparse.Namespace, command: str) -> int:
    from model.errors import RuleOptionError
    from model.rules import RuleSet

    players = parse_int_list(args.players, "--players")
    if not players or not all(1 <= p <= 5 for p in players):
        raise BenchmarkError(f"--players must be within 1-5, not {args.players!r}")
    seeds = parse_int_list(args.seeds, "--seeds") if args.seeds else None
    if seeds is not None and any(s < 0 for s in seeds):
        raise BenchmarkError("--seeds must be ≥ 0")
    if args.time_limit <= 0 or args.jobs < 1:
        raise BenchmarkError("--time-limit must be > 0 and --jobs ≥ 1")
    try:
        rules = RuleSet.from_options(args.rules)
    except RuleOptionError as exc:
        raise BenchmarkError(str(exc)) from None
    resolve_solver(args.solver)  # fail early and cleanly on an unknown solver

    out_dir = out_dir_for(args.out, args.resume)
    base = out_dir / stem(args)
    jsonl, csv_path, md_path = (base.with_suffix(x) for x in (".jsonl", ".csv", ".md"))

    corpus = [(p, s) for p in players for s in (seeds if seeds is not None else CORPUS[p])]
    same = dict(solver=args.solver, objective=args.objective, rules=" ".join(args.rules))
    done: dict[tuple[int, int], dict[str, Any]] = {}
    kept: dict[tuple[int, int], dict[str, Any]] = {}  # rows of other runs in the same file
    if args.resume:
        for r in read_rows(jsonl):  # the newest row of a deal wins
            try:
                key = (int(r["players"]), int(r["seed"]))
            except (KeyError, TypeError, ValueError):
                continue
            if all(r.get(k) == v for k, v in same.items()):
                done[key] = r
            else:
                kept[key] = r
        done = {k: r for k, r in done.items() if is_done(r, args.time_limit)}
    else:
        write_whole(jsonl, "")
    todo = [(p, s) for p, s in corpus if (p, s) not in done]
    if not args.quiet:
        print(f"{len(corpus)} deals, {len(corpus) - len(todo)} already done, {len(todo)} to run; "
              f"writing to {out_dir}", file=sys.stderr)
    lock = threading.Lock()
    STOP.clear()

    def one(ps: tuple[int, int]) -> dict[str, Any] | None:
        if STOP.is_set():
            return None
        job = {"players": ps[0], "seed": ps[1], "rules": list(args.rules),
               "objective": args.objective, "time_limit": args.time_limit,
               "memory_limit": args.memory_limit, "solver": args.solver}
        row = run_job(job)
        if row is None:
            return None
        with lock:
            with jsonl.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
            done[ps] = row
            if not args.quiet:
                print(f"[{len(done)}/{len(corpus)}] {ps[0]}p seed {ps[1]}: {row['verdict']} "
                      f"{row['seconds']:.2f} s {row['peak_mb']:.0f} MB"
                      + (f" ({row['error']})" if row.get("error") else ""), file=sys.stderr)
        return row

    interrupted = False
    pool = ThreadPoolExecutor(max_workers=args.jobs)
    try:
        futures = [pool.submit(one, ps) for ps in todo]
        for fut in futures:
            fut.result()
    except KeyboardInterrupt:
        interrupted = True
        STOP.set()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)

    rows = [done[ps] for ps in corpus if ps in done]
    # one row per deal: rewrite the JSONL without the rows that were retried
    others = [r for k, r in kept.items()]
    write_whole(jsonl, "".join(json.dumps(r) + "\n" for r in others + rows))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=ROW_FIELDS, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
    write_whole(csv_path, buf.getvalue())
    standard = not args.rules or rules == RuleSet.standard()
    if rows:
        write_whole(md_path, markdown(rows, args, command, standard))
    if interrupted:
        print(f"interrupted: {len(rows)} of {len(corpus)} deals done; table of those in "
              f"{md_path if rows else out_dir}; continue with --resume --out {shlex.quote(str(out_dir))}",
              file=sys.stderr)
        return 130
    if not args.quiet:
        print(f"wrote {md_path}, {csv_path}, {jsonl}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
