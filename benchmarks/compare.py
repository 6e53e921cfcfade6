"""Solvers side by side on the same deals: ``python -m benchmarks.compare``.

Each deal of the corpus is solved by every named solver in turn (interleaved deal by deal, so
that all of them see the same machine conditions), each in its own subprocess with the same
per-deal limit (see :func:`benchmarks.solve.run_job`). The report gives, per solver and player
count, the share resolved and the median and 95th-percentile seconds; which solver proved the
portfolio's answers; and every disagreement (two proven verdicts, or two proven optima, that
differ), which must be zero.

Outputs go to a new folder ``bench-DATE-TIME`` in the current directory unless ``--out``
names one; Ctrl-C (or SIGTERM) writes the report of the solves done so far (exit 130).

Usage::

    python -m benchmarks.compare --solvers dfs,cpsat,portfolio --players 1 --seeds 1-20
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import shlex
import statistics
import sys
from pathlib import Path
from typing import Any, Sequence

from benchmarks.solve import (
    CORPUS,
    STOP,
    BenchmarkError,
    install_interrupts,
    machine,
    out_dir_for,
    parse_int_list,
    percentile,
    read_rows,
    resolve_solver,
    restore_interrupts,
    run_job,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.compare",
        description="Run several solvers on the same deals (one subprocess per solve) and "
                    "write a side-by-side Markdown table with the disagreements.")
    p.add_argument("--solvers", default="dfs,cpsat,portfolio",
                   help="comma-separated solver names (default dfs,cpsat,portfolio)")
    p.add_argument("--players", default="1-5", help="player counts, e.g. 1-5 or 1,3")
    p.add_argument("--seeds", default=None, help="seeds for every player count (default: the corpus)")
    p.add_argument("--objective", default="none", choices=["none", "waste", "turns"])
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve (default 10)")
    p.add_argument("--memory-limit", type=int, default=2048, help="MB per solve (default 2048)")
    p.add_argument("--out", default=None,
                   help="output directory (default: a new folder bench-DATE-TIME here)")
    p.add_argument("--resume", action="store_true", help="keep solves already in the JSONL")
    p.add_argument("--rules", action="append", default=[], metavar="K=V")
    p.add_argument("--quiet", action="store_true")
    return p


def proven(row: dict[str, Any]) -> bool:
    """The row's answer is a proof: a loss, a win for ``none``, or a proven optimum."""
    return row["verdict"] == "loss" or (
        row["verdict"] == "win" and (row["objective"] == "none" or bool(row["optimal"])))


def disagreements(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Deals where two solvers proved different verdicts or different optima."""
    by_deal: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for r in rows:
        if proven(r):
            by_deal.setdefault((r["players"], r["seed"]), []).append(r)
    out = []
    for (p, s), rs in sorted(by_deal.items()):
        verdicts = {r["verdict"] for r in rs}
        optima = {r["value"] for r in rs if r["verdict"] == "win" and r["optimal"]}
        if len(verdicts) > 1 or len(optima) > 1:
            out.append(f"{p} players, seed {s}: " + ", ".join(
                f"{r['solver']} {r['verdict']}" + (f" {r['value']}" if r["value"] is not None else "")
                for r in rs))
    return out


def summary_lines(rows: Sequence[dict[str, Any]], solvers: Sequence[str]) -> list[str]:
    players = sorted({r["players"] for r in rows})
    head = "| players | " + " | ".join(
        f"{s} resolved | {s} median s | {s} p95 s" for s in solvers) + " |"
    lines = [head, "|---:|" + "---:|" * (3 * len(solvers))]
    groups: list[tuple[Any, list[dict[str, Any]]]] = [
        (p, [r for r in rows if r["players"] == p]) for p in players]
    if len(players) > 1:
        groups.append(("all", list(rows)))
    for key, g in groups:
        cells = []
        for s in solvers:
            rs = [r for r in g if r["solver"] == s]
            if not rs:
                cells += ["–", "–", "–"]
                continue
            secs = [float(r["seconds"] or 0) for r in rs]
            res = sum(1 for r in rs if proven(r))
            cells += [f"{res}/{len(rs)} ({res / len(rs):.0%})", f"{statistics.median(secs):.3f}",
                      f"{percentile(secs, 95):.3f}"]
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return lines


def provers(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Which solver proved the portfolio's answers."""
    counts: dict[str, int] = {}
    for r in rows:
        if r["solver"] == "portfolio" and proven(r):
            who = r.get("proved_by") or "?"
            counts[who] = counts.get(who, 0) + 1
    return [f"- {who}: {n}" for who, n in sorted(counts.items())]


def markdown(rows: Sequence[dict[str, Any]], args: argparse.Namespace, solvers: Sequence[str],
             command: str) -> str:
    m = machine()
    out = [
        f"# Solvers side by side: {', '.join(solvers)}, objective {args.objective}",
        "",
        f"- date: {_dt.datetime.now(_dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {m['arch']}, {m['cpu']}, {m['cores']} cores, {m['ram']} RAM, Python {m['python']}",
        f"- command: `{command}`",
        f"- rules: {' '.join(args.rules) or 'standard'}; time limit {args.time_limit:g} s per solve; "
        "each solve in its own subprocess, solvers interleaved deal by deal",
        "- resolved: proven answers (a loss, a win for objective none, or a proven optimum)",
        "",
        *summary_lines(rows, solvers),
    ]
    who = provers(rows)
    if who:
        out += ["", "Who proved the portfolio's answers:", *who]
    dis = disagreements(rows)
    out += ["", f"Disagreements between proven answers: {len(dis)}", *[f"- {d}" for d in dis]]
    errors = [r for r in rows if r.get("error")]
    if errors:
        out += ["", "Errors and killed solves:"]
        out += [f"- {r['solver']}, {r['players']} players, seed {r['seed']}: {r['error']}"
                for r in errors[:30]]
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    command = "python -m benchmarks.compare " + " ".join(shlex.quote(a) for a in argv)
    old = install_interrupts()
    try:
        return run(args, command)
    except BenchmarkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        restore_interrupts(old)


def run(args: argparse.Namespace, command: str) -> int:
    from model.errors import RuleOptionError
    from model.rules import RuleSet

    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    if not solvers:
        raise BenchmarkError("--solvers names no solver")
    for s in solvers:
        resolve_solver(s)
    players = parse_int_list(args.players, "--players")
    if not players or not all(1 <= p <= 5 for p in players):
        raise BenchmarkError(f"--players must be within 1-5, not {args.players!r}")
    seeds = parse_int_list(args.seeds, "--seeds") if args.seeds else None
    if args.time_limit <= 0:
        raise BenchmarkError("--time-limit must be > 0")
    try:
        RuleSet.from_options(args.rules)
    except RuleOptionError as exc:
        raise BenchmarkError(str(exc)) from None
    out_dir = out_dir_for(args.out, args.resume)
    stem = f"compare-{'-'.join(solvers)}-{args.objective}"
    if args.rules:
        stem += "-" + "-".join(r.replace("=", "_") for r in args.rules)
    jsonl, md_path = out_dir / f"{stem}.jsonl", out_dir / f"{stem}.md"
    rows = read_rows(jsonl) if args.resume else []
    if not args.resume:
        jsonl.write_text("", encoding="utf-8")
    done = {(r["solver"], r["players"], r["seed"]) for r in rows}
    corpus = [(p, s) for p in players for s in (seeds if seeds is not None else CORPUS[p])]
    STOP.clear()
    try:
        _run_all(corpus, solvers, done, rows, args, jsonl)
    except KeyboardInterrupt:  # Ctrl-C/SIGTERM: the report of the solves done so far
        STOP.set()
        if rows:
            md_path.write_text(markdown(rows, args, solvers, command), encoding="utf-8")
        print(f"interrupted: {len(rows)} solves done; report of those in "
              f"{md_path if rows else out_dir}; continue with --resume --out {shlex.quote(str(out_dir))}",
              file=sys.stderr)
        return 130
    md_path.write_text(markdown(rows, args, solvers, command), encoding="utf-8")
    if not args.quiet:
        print(f"wrote {md_path}", file=sys.stderr)
    return 1 if disagreements(rows) else 0


def _run_all(corpus: list, solvers: list[str], done: set, rows: list[dict[str, Any]],
             args: argparse.Namespace, jsonl: Path) -> None:
    for p, seed in corpus:
        for solver in solvers:
            if (solver, p, seed) in done:
                continue
            job = dict(players=p, seed=seed, rules=list(args.rules), objective=args.objective,
                       time_limit=args.time_limit, memory_limit=args.memory_limit, solver=solver)
            row = run_job(job)
            if row is None:  # stopped
                raise KeyboardInterrupt
            rows.append(row)
            with jsonl.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
            if not args.quiet:
                print(f"{solver:>9} {p}p seed {seed}: {row['verdict']} {row['seconds']} s"
                      + (f" (by {row.get('proved_by')})" if solver == "portfolio" else ""),
                      file=sys.stderr, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
