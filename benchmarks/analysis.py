"""Analysis-board benchmark: ``analyse``, ``hint``, loss proofs after the
losing move, and the latency of a proven loss before and after the furthest-line budget.

Run ``python -m benchmarks.analysis`` (``--help`` for the options; the defaults are modest,
a few minutes on two cores). Four parts, each written to ``--out`` (default: a new folder
``benchmarks/results/analysis-<UTC time>``, never over committed results):

* **analyse**: records of random play (placements preferred, 80 %) and solver plans
  (``solver.solve`` wins) for 1 and 3 players under the standard rules, each analysed with
  ``--objective none`` and ``--time-per-move``: seconds per game (wall and CPU); on a
  subset also *afresh* (every position solved by a search of its own, no reuse, no
  inference between positions) to show what the reuse saves.
* **hint**: mid-game positions (random steps of those records): share answered (verdict
  not ``unknown``) within ``--hint-limit`` seconds.
* **proofs**: positions after the last win of the random-play records, each solved alone
  within ``--proof-limit`` seconds: share whose loss is proven, by empty slots.
* **ladder**: the ``hand_size=2`` ladder (rows 3, 4, 5; values 6, 3 colours,
  2 copies, 1 Campfire a colour, 2 Bridges, 2 Summits): loss latency with the old
  behaviour (``furthest="proven"``, capped at ``--before-nodes``) and the new default
  (``furthest="bounded"``).

Outputs: ``analysis.jsonl`` (one row per measurement, ``part`` says which) and
``analysis.md`` (tables, with the date, the machine, the load and the command line).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import random
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from benchmarks.solve import machine
from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.records import replay
from model.rules import RuleSet
from solver import solve
from solver.analysis import analyse, hint
from solver.result import LOSS, UNKNOWN, WIN

ROOT = Path(__file__).resolve().parent.parent
LADDER_OPTIONS = ["values=6", "colours=3", "copies=2", "campfires=1", "bridges=2", "summits=2",
                  "hand_size=2"]


def random_play(deal: Deal, seed: int) -> list[Move]:
    """A random game of ``deal`` to its end: a placement 80 % of the time when one exists."""
    rng = random.Random(seed)
    game = Game(deal)
    while not game.is_over():
        moves = game.legal_moves()
        places = [m for m in moves if m.kind != "discard"]
        game.push(rng.choice(places if places and rng.random() < 0.8 else moves))
    return list(game.move_stack)


def records(count: int, players: Sequence[int]) -> list[dict[str, Any]]:
    """``count`` random-play and ``count`` solver-plan records per player count."""
    out = []
    for p in players:
        for i in range(count):
            seed = 1000 + i
            deal = Deal.from_seed(seed, p)
            out.append({"kind": "random", "players": p, "seed": seed, "deal": deal,
                        "moves": random_play(deal, seed)})
        seed = 2000
        n = 0
        while n < count:
            deal = Deal.from_seed(seed, p)
            res = solve(deal, time_limit=10)
            if res.verdict == WIN:
                out.append({"kind": "plan", "players": p, "seed": seed, "deal": deal,
                            "moves": list(res.plan.moves)})
                n += 1
            seed += 1
    return out


def timed(fn, *args, **kw) -> tuple[Any, float, float]:
    w, c = time.perf_counter(), time.process_time()
    r = fn(*args, **kw)
    return r, time.perf_counter() - w, time.process_time() - c


def part_analyse(recs, time_per_move: float, afresh: int) -> list[dict[str, Any]]:
    rows = []
    fresh_left: dict[tuple, int] = {}
    for rec in recs:
        a, wall, cpu = timed(analyse, rec["deal"], rec["moves"], "none", time_per_move)
        row = {"part": "analyse", "kind": rec["kind"], "players": rec["players"],
               "seed": rec["seed"], "moves": len(rec["moves"]), "seconds": round(wall, 2),
               "cpu_seconds": round(cpu, 2), "losing_move": a.losing_move,
               "first_proven_loss": a.first_proven_loss,
               "searched": a.stats["solved_positions"],
               "unknown": sum(p.verdict == UNKNOWN for p in a.positions),
               "verdicts": "".join(p.verdict[0] for p in a.positions)}
        key = (rec["kind"], rec["players"])
        if fresh_left.setdefault(key, afresh) > 0:
            fresh_left[key] -= 1
            f, fwall, fcpu = timed(analyse, rec["deal"], rec["moves"], "none", time_per_move,
                                   reuse=False)
            row.update(afresh_seconds=round(fwall, 2), afresh_cpu_seconds=round(fcpu, 2),
                       afresh_unknown=sum(p.verdict == UNKNOWN for p in f.positions),
                       afresh_losing_move=f.losing_move)
        rec["analysis"] = a
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    return rows


def part_hint(recs, count: int, limit: float, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        rec = recs[i % len(recs)]
        k = rng.randrange(1, max(2, len(rec["moves"])))
        game = replay(rec["deal"], rec["moves"][:k]).game
        if game.is_over():
            continue
        h, wall, cpu = timed(hint, game, "none", limit)
        rows.append({"part": "hint", "kind": rec["kind"], "players": rec["players"],
                     "seed": rec["seed"], "step": k, "verdict": h.verdict,
                     "winning_moves": sum(r.verdict == WIN for r in h.moves),
                     "placements": h.stats["placements"], "seconds": round(wall, 2),
                     "cpu_seconds": round(cpu, 2)})
        print(json.dumps(rows[-1]), file=sys.stderr)
    return rows


def part_proofs(recs, count: int, limit: float, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    pool = []
    for rec in recs:
        a = rec.get("analysis")
        if rec["kind"] != "random" or a is None:
            continue
        wins = [p.index for p in a.positions if p.verdict == WIN]
        last_win = max(wins) if wins else -1
        for i in range(last_win + 1, len(rec["moves"]) + 1):
            pool.append((rec, i))
    rng.shuffle(pool)
    rows = []
    for rec, i in pool[:count]:
        game = replay(rec["deal"], rec["moves"][:i]).game
        res, wall, cpu = timed(solve, game, "none", time_limit=limit, furthest="off")
        empty = game.rules.mountain_slots - game.filled_slots()
        rows.append({"part": "proofs", "players": rec["players"], "seed": rec["seed"],
                     "index": i, "empty_slots": empty, "verdict": res.verdict,
                     "seconds": round(wall, 2), "cpu_seconds": round(cpu, 2)})
        print(json.dumps(rows[-1]), file=sys.stderr)
    return rows


def part_ladder(rows_list: Sequence[int], seeds: Sequence[int], before_nodes: int
                ) -> list[dict[str, Any]]:
    out = []
    for rows in rows_list:
        rules = RuleSet.from_options([f"rows={rows}", *LADDER_OPTIONS])
        for seed in seeds:
            deal = Deal.from_seed(seed, 1, rules)
            row: dict[str, Any] = {"part": "ladder", "rows": rows, "seed": seed}
            for name, mode, limit in (("before", "proven", before_nodes),
                                      ("after", "bounded", None)):
                res, wall, cpu = timed(solve, deal, "none", node_limit=limit, furthest=mode)
                st = res.stats
                fur = st.get("furthest", {})
                row.update({f"{name}_verdict": res.verdict, f"{name}_seconds": round(wall, 2),
                            f"{name}_cpu_seconds": round(cpu, 2),
                            f"{name}_furthest_proven": bool(st.get("best_progress_proven")),
                            f"{name}_best_progress": res.best_progress,
                            f"{name}_furthest_nodes": fur.get("nodes")})
                if name == "after":
                    row["proof_nodes"] = st.get("nodes")
                    row["proof_seconds"] = st.get("seconds")
            out.append(row)
            print(json.dumps(row), file=sys.stderr)
    return out


def med(xs: Sequence[float]) -> str:
    return f"{statistics.median(xs):.2f}" if xs else "-"


def markdown(rows: list[dict[str, Any]], args: argparse.Namespace, command: str,
             load: str, merged: Sequence[str] = ()) -> str:
    m = machine()
    now = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Analysis board benchmark", "",
           f"- date: {now}",
           f"- machine: {m['arch']}, {m['cpu']}, {m['cores']} cores, {m['ram']} RAM, "
           f"Python {m['python']}",
           f"- load average at the start: {load} (2 cores; above 2 the machine was shared "
           "and wall seconds are inflated, CPU seconds of the process much less)",
           f"- command: `{command}`", *merged, ""]
    an = [r for r in rows if r["part"] == "analyse"]
    if an:
        out += [f"## analyse, --objective none, --time-per-move {args.time_per_move:g}", "",
                "| records | players | games | median s (wall) | median CPU s | max CPU s "
                "| losing move found | unknown positions |",
                "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for kind in ("random", "plan"):
            for p in args.players:
                rs = [r for r in an if r["kind"] == kind and r["players"] == p]
                if not rs:
                    continue
                out.append(f"| {kind} | {p} | {len(rs)} | {med([r['seconds'] for r in rs])} | "
                           f"{med([r['cpu_seconds'] for r in rs])} | "
                           f"{max(r['cpu_seconds'] for r in rs):.2f} | "
                           f"{sum(r['losing_move'] is not None for r in rs)} | "
                           f"{sum(r['unknown'] for r in rs)} |")
        fr = [r for r in an if "afresh_seconds" in r]
        if fr:
            out += ["", "Reuse against solving every position afresh (same records):", "",
                    "| records | players | games | CPU s with reuse | CPU s afresh | saved | "
                    "unknown with reuse | unknown afresh |",
                    "|---|---:|---:|---:|---:|---:|---:|---:|"]
            for kind in ("random", "plan"):
                for p in args.players:
                    rs = [r for r in fr if r["kind"] == kind and r["players"] == p]
                    if not rs:
                        continue
                    a = sum(r["cpu_seconds"] for r in rs)
                    b = sum(r["afresh_cpu_seconds"] for r in rs)
                    saved = f"{100 * (1 - a / b):.0f}%" if b > 0 else "-"
                    out.append(f"| {kind} | {p} | {len(rs)} | {a:.2f} | {b:.2f} | {saved} | "
                               f"{sum(r['unknown'] for r in rs)} | "
                               f"{sum(r['afresh_unknown'] for r in rs)} |")
    hs = [r for r in rows if r["part"] == "hint"]
    if hs:
        answered = sum(r["verdict"] != UNKNOWN for r in hs)
        out += ["", f"## hint, --time-limit {args.hint_limit:g}", "",
                f"{answered} of {len(hs)} mid-game positions answered "
                f"({100 * answered / len(hs):.0f}%; win {sum(r['verdict'] == WIN for r in hs)}, "
                f"loss {sum(r['verdict'] == LOSS for r in hs)}, unknown {len(hs) - answered}); "
                f"median {med([r['seconds'] for r in hs])} s wall, "
                f"{med([r['cpu_seconds'] for r in hs])} s CPU."]
    ps = [r for r in rows if r["part"] == "proofs"]
    if ps:
        out += ["", f"## loss proofs after the last win, {args.proof_limit:g} s each", "",
                "| empty slots | positions | loss proven | unknown | share proven |",
                "|---|---:|---:|---:|---:|"]
        bands = [(0, 9), (10, 19), (20, 29), (30, 45)]
        for lo, hi in bands:
            rs = [r for r in ps if lo <= r["empty_slots"] <= hi]
            if rs:
                k = sum(r["verdict"] == LOSS for r in rs)
                out.append(f"| {lo}–{hi} | {len(rs)} | {k} | {len(rs) - k} | "
                           f"{100 * k / len(rs):.0f}% |")
    ld = [r for r in rows if r["part"] == "ladder"]
    if ld:
        out += ["", "## Loss latency on the hand_size=2 ladder", "",
                f"Before: the answer waited for the exact furthest-line search "
                f"(`furthest=\"proven\"`; capped here at {args.before_nodes:,} nodes in all, "
                "so a before verdict can be unknown and a before time is then a lower bound); "
                "after: the default bounded budget (`furthest=\"bounded\"`). Seconds are CPU "
                "seconds of this process.", "",
                "| rows | seed | verdict before / after | before s | after s | proof nodes "
                "| after: furthest nodes | furthest before / after |",
                "|---:|---:|---|---:|---:|---:|---:|---|"]
        for r in ld:
            fb = f"{r['before_best_progress']}{'' if r['before_furthest_proven'] else '?'}"
            fa = f"{r['after_best_progress']}{'' if r['after_furthest_proven'] else '?'}"
            out.append(f"| {r['rows']} | {r['seed']} | {r['before_verdict']} / "
                       f"{r['after_verdict']} | {r['before_cpu_seconds']:.2f} | "
                       f"{r['after_cpu_seconds']:.2f} | {r['proof_nodes']:,} | "
                       f"{r['after_furthest_nodes'] or 0:,} | {fb} / {fa} |")
        out += ["", "`?`: the furthest line found, not proven."]
    return "\n".join(out) + "\n"


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.analysis", description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=3, help="records of each kind per player count")
    ap.add_argument("--players", type=int, nargs="+", default=[1, 3])
    ap.add_argument("--time-per-move", type=float, default=2.0)
    ap.add_argument("--afresh", type=int, default=1,
                    help="records of each kind and player count also analysed afresh")
    ap.add_argument("--hints", type=int, default=20)
    ap.add_argument("--hint-limit", type=float, default=5.0)
    ap.add_argument("--proofs", type=int, default=20)
    ap.add_argument("--proof-limit", type=float, default=3.0)
    ap.add_argument("--ladder-rows", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--ladder-seeds", type=int, nargs="*", default=[1, 2, 3, 4])
    ap.add_argument("--before-nodes", type=int, default=200_000,
                    help="ladder: node cap of the old behaviour (proof + exact furthest search)")
    ap.add_argument("--parts", nargs="+", default=["analyse", "hint", "proofs", "ladder"])
    ap.add_argument("--out", type=Path, default=None,
                    help="output folder (default: a new benchmarks/results/analysis-<time>)")
    ap.add_argument("--combine", type=Path, nargs="+", default=None, metavar="DIR",
                    help="no solving: merge the analysis.jsonl of these folders (runs of the "
                         "same options split by --players, e.g. one process a core) into one "
                         "analysis.jsonl and analysis.md in --out")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    command = "python -m benchmarks.analysis " + shlex.join(sys.argv[1:] if argv is None else argv)
    out = args.out or ROOT / "benchmarks" / "results" / (
        "analysis-" + _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%S"))
    out.mkdir(parents=True, exist_ok=True)
    for name in ("analysis.jsonl", "analysis.md"):
        if (out / name).exists():
            print(f"{out / name} exists; give a new --out", file=sys.stderr)
            return 2
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    sys.setrecursionlimit(10_000)
    rows: list[dict[str, Any]] = []
    merged: list[str] = []
    if args.combine:
        commands = []
        for folder in args.combine:
            rows += [json.loads(line) for line in (folder / "analysis.jsonl").read_text().splitlines()
                     if line.strip()]
            head = (folder / "analysis.md").read_text().splitlines()
            commands += [ln for ln in head if ln.startswith("- command:")
                         or ln.startswith("- load average") or ln.startswith("- date:")]
        args.players = sorted({r["players"] for r in rows if "players" in r})
        merged = ["- merged from these runs (one process each):", *("  " + c for c in commands)]
        args.parts = []
    recs = records(args.records, args.players) if {"analyse", "hint", "proofs"} & set(args.parts) else []
    if "analyse" in args.parts or "proofs" in args.parts:
        rows += part_analyse(recs, args.time_per_move, args.afresh if "analyse" in args.parts else 0)
        if "analyse" not in args.parts:
            rows = []
    if "hint" in args.parts:
        rows += part_hint(recs, args.hints, args.hint_limit, 7)
    if "proofs" in args.parts:
        rows += part_proofs(recs, args.proofs, args.proof_limit, 11)
    if "ladder" in args.parts:
        rows += part_ladder(args.ladder_rows, args.ladder_seeds, args.before_nodes)
    tmp = out / "analysis.jsonl.tmp"
    tmp.write_text("".join(json.dumps(r) + "\n" for r in rows))
    tmp.replace(out / "analysis.jsonl")
    tmp = out / "analysis.md.tmp"
    tmp.write_text(markdown(rows, args, command, load, merged))
    tmp.replace(out / "analysis.md")
    print(f"wrote {out / 'analysis.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
