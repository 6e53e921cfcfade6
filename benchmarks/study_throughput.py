"""Throughput of the study machinery: deals per minute with Dask (1 and 2 workers) and with a
plain process pool on the same study, to show Dask's overhead.

    python -m benchmarks.study_throughput [--players 2] [--seeds 1-40] [--time-limit 5]
        [--workers 1,2] [--out DIR]

Each configuration solves the same grid (``studies.study.build_grid``) from scratch into its
own temporary SQLite database through :func:`studies.runner.run_tasks`, so the writer, the
resume check and the rows are the same; only the executor differs. Wall time includes
starting the cluster or the pool. Writes ``throughput.md`` and ``throughput.jsonl`` into a
new folder ``benchmarks/results/throughput-<UTC time>/`` (never over committed results), or
into ``--out DIR`` when given.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import shlex
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent


def machine() -> str:
    """One line: architecture, CPU, cores, RAM, Python (as :mod:`benchmarks.solve` does)."""
    from benchmarks.solve import machine as m

    d = m()
    return f"{d['arch']}, {d['cpu']}, {d['cores']} cores, {d['ram']} RAM, Python {d['python']}"


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def noop(task: dict) -> dict:
    """A task that does nothing: measures the runner's own cost per task (Dask or pool, the
    SQLite writer)."""
    return {"verdict": "ok"}


def overhead(n: int, backend: str, workers: int) -> dict[str, Any]:
    """``n`` empty tasks through :func:`studies.runner.run_tasks`: wall time and per task."""
    import time

    from studies.runner import run_tasks

    walls = []
    for k in (1, n):  # one task: the start-up; n tasks: start-up + n tasks
        tasks = [{"key": f"t{i}"} for i in range(k)]
        with tempfile.TemporaryDirectory() as tmp:
            t = time.monotonic()
            run_tasks(noop, tasks, Path(tmp) / "o.db", "t", {"verdict": "TEXT"},
                      workers=workers, progress=False, backend=backend)
            walls.append(time.monotonic() - t)
    return {"backend": backend, "workers": workers, "empty_tasks": n,
            "startup_s": round(walls[0], 2), "wall_s": round(walls[1], 2),
            "ms_per_task": round(1000 * (walls[1] - walls[0]) / max(1, n - 1), 2),
            "load_after": load_average()}


def one(grid, backend: str, workers: int) -> dict[str, Any]:
    """Run ``grid`` on ``backend`` with ``workers`` into a fresh database; the figures."""
    from studies.runner import run_tasks
    from studies.study import COLUMNS, TABLE, solve_task

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "t.db"
        load_before = load_average()
        s = run_tasks(solve_task, grid.tasks(), db, TABLE, COLUMNS, workers=workers,
                      progress=False, backend=backend)
        con = sqlite3.connect(db)
        solve_s, n = con.execute(f"SELECT sum(seconds), count(*) FROM {TABLE}").fetchone()
        verdicts = dict(con.execute(f"SELECT verdict, count(*) FROM {TABLE} GROUP BY 1"))
        con.close()
    return {"backend": backend, "workers": workers, "deals": n, "wall_s": round(s.seconds, 2),
            "deals_per_min": round(n / s.seconds * 60, 1) if s.seconds else None,
            "solve_s": round(solve_s or 0.0, 2), "verdicts": verdicts,
            "interrupted": s.interrupted, "load_before": load_before,
            "load_after": load_average()}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(prog="python -m benchmarks.study_throughput",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--players", default="2")
    p.add_argument("--seeds", default="1-40")
    p.add_argument("--rules", action="append", default=[], metavar="K=V")
    p.add_argument("--time-limit", type=float, default=5.0)
    p.add_argument("--workers", default="1,2", help="worker counts to try (default 1,2)")
    p.add_argument("--empty", type=int, default=200,
                   help="also run this many empty tasks per configuration (runner overhead)")
    p.add_argument("--out", default=None, help="output folder (default: a new folder under "
                                               "benchmarks/results/)")
    args = p.parse_args(argv)
    from studies.runner import RunnerError
    from studies.study import build_grid, parse_int_list

    try:
        grid = build_grid(args.players, args.seeds, None, args.rules, (), False, ("none",),
                          args.time_limit)
        counts = parse_int_list(args.workers, "--workers")
    except RunnerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    out = Path(args.out) if args.out else ROOT / "benchmarks" / "results" / f"throughput-{stamp}"
    out.mkdir(parents=True, exist_ok=bool(args.out))
    runs = []
    empty = []
    for w in counts:
        for backend in ("dask", "processes"):
            if args.empty > 0:
                e = overhead(args.empty, backend, w)
                empty.append(e)
                print(json.dumps(e), file=sys.stderr, flush=True)
    for w in counts:
        for backend in ("dask", "processes"):
            r = one(grid, backend, w)
            runs.append(r)
            print(json.dumps(r), file=sys.stderr, flush=True)
    command = "python -m benchmarks.study_throughput " + " ".join(shlex.quote(a) for a in argv)
    lines = [
        "# Study throughput: Dask LocalCluster against a plain process pool",
        "",
        f"- date: {_dt.datetime.now(_dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {machine()}",
        f"- command: `{command}`",
        f"- study: {len(grid)} deals ({args.players} player(s), seeds {args.seeds}), rules "
        f"{' '.join(args.rules) or 'standard'}, objective none, {args.time_limit:g} s per deal",
        "- wall time includes starting the cluster or pool; solve s is the sum of the solves' "
        "own wall times on their workers",
        "",
        "| backend | workers | deals | wall s | deals/min | sum of solve s | verdicts | load avg before → after |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in runs:
        v = " ".join(f"{k} {n}" for k, n in sorted(r["verdicts"].items()))
        lines.append(f"| {'Dask LocalCluster' if r['backend'] == 'dask' else 'process pool'} | "
                     f"{r['workers']} | {r['deals']} | {r['wall_s']:.1f} | {r['deals_per_min']:.0f} | "
                     f"{r['solve_s']:.1f} | {v} | {r['load_before']} → {r['load_after']} |")
    if empty:
        lines += ["", f"Runner overhead: empty tasks (start-up = a run of 1 task; per task = "
                      f"(run of {args.empty} − run of 1) / {args.empty - 1}):", "",
                  "| backend | workers | start-up s | ms per task | load avg after |",
                  "|---|---:|---:|---:|---|"]
        for e in empty:
            lines.append(f"| {'Dask LocalCluster' if e['backend'] == 'dask' else 'process pool'} | "
                         f"{e['workers']} | {e['startup_s']:.2f} | {e['ms_per_task']:.2f} | {e['load_after']} |")
    (out / "throughput.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "throughput.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs + empty),
                                          encoding="utf-8")
    print(f"wrote {out / 'throughput.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
