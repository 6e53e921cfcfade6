"""Winnability with the Goats module: the default readings and one alternative
reading of each open detail (rulings G1–G6 of ``docs/rules.md``), objective ``none``.

Run ``python -m benchmarks.goats`` (``--help`` for the options). For each player count and
seed, the deal is first solved once without goats (the compact DFS, at most half the time
limit; the base game's answer is shared by every reading of that deal), then once per
reading with ``goats=on`` by :func:`solver.generic.solve` (``base=`` the shared answer), with
the per-deal time limit. Readings (``--readings`` picks some):

* ``default``: ``goats=on`` and every goat option at its default;
* ``goat_cards=highest``, ``goat_move=far``, ``goat_turn=free``, ``goat_top=summit``,
  ``goat_campfire=stays``, ``goat_bridge=forbidden``: one option changed each.

Outputs go to a new folder ``benchmarks/results/goats-<UTC date-time>/`` unless ``--out``
names one (committed results are never overwritten by default):

* ``goats.jsonl``: one row per (players, seed, reading): verdict, seconds (the goats solve
  plus, on the reading that ran it, nothing of the base solve: ``base_seconds`` is given
  apart), nodes, goats placed and goat moves in the winning plan, how the answer was found
  (``lift`` of the base game's win, or the generic search), the base game's verdict;
* ``goats.md``: per reading and player count, deals, win / loss / unknown, the share won
  with its 95% Wilson interval (unknown counted as not won) and the both-ways interval
  (unknown counted either way), median seconds; then each alternative reading paired with
  the default on the same deals (``--paired`` prints that table again from a goats.jsonl).

``--resume`` keeps the rows of an existing ``goats.jsonl`` in ``--out`` and runs only the
missing ones. Rows are appended as they are found, so an interrupted run keeps them.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from model.deal import Deal
from model.records import replay
from model.rules import RuleSet
from studies.stats import wilson

READINGS: dict[str, list[str]] = {
    "default": [],
    "goat_cards=highest": ["goat_cards=highest"],
    "goat_move=far": ["goat_move=far"],
    "goat_turn=free": ["goat_turn=free"],
    "goat_top=summit": ["goat_top=summit"],
    "goat_campfire=stays": ["goat_campfire=stays"],
    "goat_bridge=forbidden": ["goat_bridge=forbidden"],
}


def machine() -> str:
    """``x86_64, AMD EPYC..., 2 cores, 23.5 GB RAM, Python 3.11.7`` (as the other
    benchmarks say it)."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
        mem_text = f"{mem:.1f} GB RAM"
    except (ValueError, OSError):
        mem_text = "RAM unknown"
    return (f"{platform.machine()}, {cpu}, {os.cpu_count()} cores, {mem_text}, "
            f"Python {platform.python_version()}")


def solve_row(deal: Deal, reading: str, base, time_limit: float) -> dict:
    """Solve ``deal`` (goats on, the reading's options) and describe the answer."""
    from solver.generic import solve

    t = time.perf_counter()
    res = solve(deal, "none", time_limit=time_limit, base=base)
    secs = time.perf_counter() - t
    row = {
        "players": deal.players, "seed": deal.seed, "reading": reading,
        "rules": deal.rules.changed_options(), "verdict": res.verdict,
        "seconds": round(secs, 3), "nodes": res.stats.get("nodes", 0),
        "how": res.stats.get("phase", "search"), "base_verdict": res.stats.get("base_verdict"),
        "time_limit": time_limit,
    }
    if res.plan is not None:
        game = replay(deal, res.plan.moves).game
        row["goats"] = len(game.goats)
        row["goat_moves"] = sum(1 for m in res.plan.moves if m.kind == "goat")
        row["turns"] = len(res.plan.moves)
    return row


def table(rows: list[dict], readings: list[str], players: list[int]) -> str:
    """The Markdown table of ``rows`` (see the module docstring)."""
    out = ["| reading | players | deals | win | loss | unknown | won | 95% Wilson | "
           "both ways | median s | goats placed (mean, wins) |",
           "|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|"]
    for reading in readings:
        for p in players:
            rs = [r for r in rows if r["reading"] == reading and r["players"] == p]
            if not rs:
                continue
            n = len(rs)
            w = sum(r["verdict"] == "win" for r in rs)
            lo_ = sum(r["verdict"] == "loss" for r in rs)
            u = n - w - lo_
            lo, hi = wilson(w, n)
            blo, _ = wilson(w, n)
            _, bhi = wilson(w + u, n)
            goats = [r["goats"] for r in rs if "goats" in r]
            med = statistics.median(r["seconds"] for r in rs)
            out.append(
                f"| {reading} | {p} | {n} | {w} | {lo_} | {u} | {100 * w / n:.1f}% | "
                f"{100 * lo:.1f}–{100 * hi:.1f}% | {100 * blo:.1f}–{100 * bhi:.1f}% | "
                f"{med:.2f} | {statistics.mean(goats) if goats else 0:.1f} |")
    return "\n".join(out)


def paired(rows: list[dict], readings: list[str]) -> str:
    """Per alternative reading, its verdicts against the default reading's on the same
    deals (a paired comparison): how many deals both win, only the default wins, only the
    reading wins, neither wins (loss or unknown)."""
    by = {(r["players"], r["seed"], r["reading"]): r["verdict"] for r in rows}
    out = ["| reading | deals | both win | only default wins | only the reading wins | "
           "neither wins |", "|---|---:|---:|---:|---:|---:|"]
    deals = sorted({(p, s) for p, s, _ in by})
    for reading in readings:
        if reading == "default":
            continue
        pairs = [(by.get((p, s, "default")), by.get((p, s, reading))) for p, s in deals]
        pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
        both = sum(a == b == "win" for a, b in pairs)
        only_a = sum(a == "win" != b for a, b in pairs)
        only_b = sum(b == "win" != a for a, b in pairs)
        out.append(f"| {reading} | {len(pairs)} | {both} | {only_a} | {only_b} | "
                   f"{len(pairs) - both - only_a - only_b} |")
    return "\n".join(out)


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (temporary file, then rename)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="1,2,3,4,5", help="player counts, e.g. 1,2,3,4,5")
    ap.add_argument("--deals", type=int, default=50, help="seeds 1..N per player count")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve")
    ap.add_argument("--readings", default=",".join(READINGS),
                    help="comma-separated readings: " + ", ".join(READINGS))
    ap.add_argument("--out", default=None, help="folder (default: a new one under "
                    "benchmarks/results/)")
    ap.add_argument("--resume", action="store_true", help="keep the rows already in --out")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--paired", action="store_true",
                    help="only print the paired comparison of the readings in --out's "
                         "goats.jsonl with the default reading (no solving)")
    args = ap.parse_args(argv)
    try:
        players = [int(x) for x in args.players.split(",")]
        if not all(1 <= p <= 5 for p in players):
            raise ValueError
    except ValueError:
        print("benchmarks.goats: error: --players takes numbers 1-5, e.g. 1,2,3", file=sys.stderr)
        return 2
    readings = [r.strip() for r in args.readings.split(",") if r.strip()]
    bad = [r for r in readings if r not in READINGS]
    if bad or args.deals < 1 or not args.time_limit > 0:
        print(f"benchmarks.goats: error: unknown reading {bad[0]!r}" if bad else
              "benchmarks.goats: error: --deals and --time-limit must be positive",
              file=sys.stderr)
        return 2
    if args.paired:
        if not args.out or not (Path(args.out) / "goats.jsonl").exists():
            print("benchmarks.goats: error: --paired needs --out with a goats.jsonl",
                  file=sys.stderr)
            return 2
        text = (Path(args.out) / "goats.jsonl").read_text()
        print(paired([json.loads(x) for x in text.splitlines() if x.strip()], readings))
        return 0
    stamp = _dt.datetime.now(_dt.UTC)
    out = Path(args.out) if args.out else Path("benchmarks/results") / (
        "goats-" + stamp.strftime("%Y%m%d-%H%M"))
    out.mkdir(parents=True, exist_ok=True)
    jsonl = out / "goats.jsonl"
    if jsonl.exists() and not args.resume:
        print(f"benchmarks.goats: error: {jsonl} exists; give --resume or another --out",
              file=sys.stderr)
        return 2
    rows: list[dict] = []
    if jsonl.exists():
        rows = [json.loads(line) for line in jsonl.read_text().splitlines() if line.strip()]
    done = {(r["players"], r["seed"], r["reading"]) for r in rows}
    from solver import solve as base_solve

    t_start = time.perf_counter()
    load0 = " ".join(f"{x:.1f}" for x in os.getloadavg())
    base_rows = []
    try:
        with jsonl.open("a", encoding="utf-8") as fh:
            for p in players:
                for seed in range(1, args.deals + 1):
                    todo = [r for r in readings if (p, seed, r) not in done]
                    if not todo:
                        continue
                    base_deal = Deal.from_seed(seed, p, RuleSet.standard())
                    t = time.perf_counter()
                    base = base_solve(base_deal, "none", time_limit=args.time_limit / 2)
                    base_secs = round(time.perf_counter() - t, 3)
                    base_rows.append((p, base.verdict))
                    for reading in todo:
                        rules = RuleSet.from_options(["goats=on", *READINGS[reading]])
                        deal = Deal.from_seed(seed, p, rules)
                        row = solve_row(deal, reading, base, args.time_limit)
                        row["base_seconds"] = base_secs
                        rows.append(row)
                        fh.write(json.dumps(row) + "\n")
                        fh.flush()
                    if not args.quiet:
                        print(f"P{p} seed {seed}: base {base.verdict}; " + ", ".join(
                            f"{r['reading']} {r['verdict']}" for r in rows[-len(todo):]),
                            flush=True)
    except KeyboardInterrupt:
        print("benchmarks.goats: interrupted; the rows found so far are kept", file=sys.stderr)
    wall = time.perf_counter() - t_start
    cmd = "python -m benchmarks.goats " + " ".join(argv if argv is not None else sys.argv[1:])
    md = "\n".join([
        "# Winnability with the Goats module (objective none)",
        "",
        f"- date: {stamp.strftime('%Y-%m-%d %H:%M')} UTC",
        f"- machine: {machine()}; load average {load0} at the start and "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end (2 cores: above 2 "
        "the machine was shared)",
        f"- command: `{cmd.strip()}`",
        f"- deals: seeds 1–{args.deals} for each of {', '.join(map(str, players))} players, "
        f"standard deck; time limit {args.time_limit:g} s per solve (the base game's solve, "
        f"shared by the readings of a deal, at most half of it)",
        f"- wall time of this run: {wall / 60:.1f} min",
        "",
        table(rows, readings, players),
        "",
        "Paired with the default reading (same deals):",
        "",
        paired(rows, readings),
        "",
    ])
    write_whole(out / "goats.md", md)
    if not args.quiet:
        print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
