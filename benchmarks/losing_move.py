"""Losing-move benchmark: how often ``analyse`` names the move that lost a game, how wide the
window of ``unknown`` positions stays where it does not, and why the losses are lost.

Run ``python -m benchmarks.losing_move`` (``--help`` for the options). The games are lost
games that nobody tuned for, made afresh from seeds: the ``greedy`` bot in every seat
(``--greedy N`` lost games per player count, from seed ``--seed``) and random legal play
(``--random N``, :func:`benchmarks.analysis.random_play`), under the standard rules, for
each of ``--players``. Each game is analysed with the defaults of ``ascent analyse``
(objective ``none``, ``--time-per-move`` seconds) in a process of its own (so that its peak
memory is its own), and the limits are CPU seconds of that process, so that other work on
a shared machine does not change what a game gets.

With ``--waste-check``, every position left unknown is then solved with ``--objective waste``
(``waste.jsonl``): a win found there is a win the default missed.

Per game: the losing move (or the window between the last proven win and the first proven
loss), the verdict string, the reason's kind and whether it is specific, how each proven
loss was proven, CPU seconds and peak memory. Outputs in ``--out`` (default: a new folder
``benchmarks/results/losing-move-<UTC date>``; an existing folder is resumed, never
overwritten): ``games.jsonl`` (one row per game) and ``report.md``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import resource
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from benchmarks.analysis import random_play
from benchmarks.frontier import _cpu_limits, _range, _rules, read_jsonl, run_table
from benchmarks.solve import machine
from model.deal import Deal
from model.moves import Move
from model.records import Plan, dumps
from model.rules import RuleSet

ROOT = Path(__file__).resolve().parent.parent


def lost_games(kind: str, players: int, count: int, seed: int,
               rules: RuleSet | None = None) -> list[dict[str, Any]]:
    """``count`` lost games of ``kind`` (``greedy`` or ``random``) for ``players``, from the
    seeds ``seed``, ``seed + 1``, … (seeds whose game is won are skipped): ``[{"key", "kind",
    "players", "seed", "record"}]`` with the game record as JSON data."""
    from bots import make_bot, play_deal

    out: list[dict[str, Any]] = []
    s = seed
    while len(out) < count:
        deal = Deal.from_seed(s, players, rules or RuleSet())
        if kind == "greedy":
            res = play_deal(deal, make_bot("greedy"))
            moves: list[Move] = list(res.plan.moves)
            lost = res.outcome != "win"
        else:
            moves = random_play(deal, s)
            from model.records import replay

            lost = not replay(deal, moves).game.is_won()
        if lost:
            out.append({"key": f"{kind}-p{players}-{s}", "kind": kind, "players": players,
                        "seed": s, "record": json.loads(dumps(Plan(deal, moves).to_json()))})
        s += 1
    return out


def analyse_job(job: dict[str, Any]) -> dict[str, Any]:
    """Analyse one game in this worker process (CPU-second limits): the row of ``games.jsonl``."""
    _cpu_limits()
    from solver.analysis import analyse

    plan = Plan.from_json(job["record"])
    t0, c0 = time.perf_counter(), time.process_time()
    a = analyse(plan.start, plan.moves, "none", job["time_per_move"],
                switches=job.get("switches") or None)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    wins = [p.index for p in a.positions if p.verdict == "win"]
    losses = [p.index for p in a.positions if p.verdict == "loss"]
    last_win = max(wins) if wins else None
    first_loss = min(losses) if losses else None
    window = (first_loss - (last_win if last_win is not None else -1) - 1
              if first_loss is not None else None)
    proofs: dict[str, int] = {}
    for p in a.positions:
        proof = getattr(p, "proof", None)  # (the proof is not recorded by older versions)
        if p.verdict == "loss" and proof and proof != "derived":
            proofs[proof] = proofs.get(proof, 0) + 1
    reason = getattr(a, "reason", None)
    return {
        "key": job["key"], "kind": job["kind"], "players": job["players"], "seed": job["seed"],
        "moves": len(plan.moves), "time_per_move": job["time_per_move"],
        "losing_move": a.losing_move, "last_win": last_win, "first_proven_loss": first_loss,
        "window": window, "start": a.positions[0].verdict,
        "verdicts": "".join(p.verdict[0] for p in a.positions),
        "reason_kind": reason.kind if reason else None,
        "reason_specific": reason.specific if reason else None,
        "reason": reason.text if reason else None,
        "first_loss_proof": (getattr(a.positions[first_loss], "proof", None)
                             if first_loss is not None else None),
        "proofs": proofs, "solved_positions": a.stats["solved_positions"],
        "seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def waste_job(job: dict[str, Any]) -> dict[str, Any]:
    """Solve one position that ``analyse`` left unknown with ``--objective waste`` (the same
    CPU seconds): does the waste search find a win that the default did not?"""
    _cpu_limits()
    from model.records import replay
    from solver import solve

    plan = Plan.from_json(job["record"])
    game = replay(plan.start, plan.moves[:job["index"]]).game
    c0 = time.process_time()
    res = solve(game, "waste", time_limit=job["time_per_move"], furthest="off")
    if res.verdict == "win" and (res.plan is None or res.plan.replay().outcome != "win"):
        raise RuntimeError("a plan the engine does not replay as a win")
    return {"key": job["key"], "game": job["game"], "index": job["index"],
            "verdict": res.verdict, "cpu_seconds": round(time.process_time() - c0, 2)}


def waste_check(rows: list[dict[str, Any]], jobs: list[dict[str, Any]], out: Path,
                workers: int, sample: int | None = None) -> list[dict[str, Any]]:
    """Every position left unknown by ``analyse`` in ``rows`` (at most ``sample``, taken in
    turn from each game, the last unknown of each first), solved with objective ``waste``
    (``waste.jsonl``)."""
    records = {j["key"]: j["record"] for j in jobs}
    per_game = []
    for r in sorted(rows, key=lambda r: r["key"]):
        if r.get("verdicts") is None or r["key"] not in records:
            continue
        per_game.append([{"key": f"{r['key']}@{i}", "game": r["key"], "index": i,
                          "record": records[r["key"]], "time_per_move": r["time_per_move"]}
                         for i in range(len(r["verdicts"]) - 1, -1, -1) if r["verdicts"][i] == "u"])
    todo = [g[i] for i in range(max(map(len, per_game), default=0)) for g in per_game
            if i < len(g)][:sample]
    return run_table(waste_job, todo, out / "waste.jsonl", workers)


#: The switches of the proofs under test, all off for the re-proof: the search as it was before.
NEW_SWITCHES = {"budget": False, "bridge_costs": False, "loss_model": False}


def reprove_job(job: dict[str, Any]) -> dict[str, Any]:
    """Re-prove the loss after a pinned losing move with the plain DFS: none of the new
    bounds and no loss model (:data:`NEW_SWITCHES` off), ``seconds`` CPU seconds."""
    _cpu_limits()
    from model.records import replay
    from solver import solve

    plan = Plan.from_json(job["record"])
    game = replay(plan.start, plan.moves[:job["index"]]).game
    c0 = time.process_time()
    res = solve(game, "none", time_limit=job["seconds"], furthest="off", **NEW_SWITCHES)
    return {"key": job["key"], "game": job["game"], "index": job["index"],
            "verdict": res.verdict, "nodes": res.stats.get("nodes"),
            "cpu_seconds": round(time.process_time() - c0, 2)}


def reprove(rows: list[dict[str, Any]], jobs: list[dict[str, Any]], out: Path, count: int,
            seconds: float, workers: int) -> list[dict[str, Any]]:
    """The first ``count`` pinned games of ``rows`` (by key; the position after the losing
    move), re-proved by :func:`reprove_job` (``reprove.jsonl``)."""
    records = {j["key"]: j["record"] for j in jobs}
    todo = [{"key": f"{r['key']}@{r['losing_move']}", "game": r["key"], "index": r["losing_move"],
             "record": records[r["key"]], "seconds": seconds}
            for r in sorted(rows, key=lambda r: r["key"])
            if r.get("losing_move") and r["key"] in records][:count]
    return run_table(reprove_job, todo, out / "reprove.jsonl", workers)


def _med(xs: Sequence[float]) -> str:
    return f"{statistics.median(xs):g}" if xs else "–"


def report(rows: list[dict[str, Any]], meta: dict[str, Any],
           waste: list[dict[str, Any]] | None = None,
           again: list[dict[str, Any]] | None = None) -> str:
    """``report.md``: one table per kind of game and player count, the reasons, and (with
    ``waste``) the unknown positions that the waste search decides."""
    lines = [f"# Losing-move benchmark ({meta['date']})", "",
             f"Machine: {meta['machine']}. Command: `{meta['command']}`. Limits are CPU seconds "
             f"of each game's own process ({meta['time_per_move']} s a position, the defaults "
             "of `ascent analyse`); peak memory is that process's.", "",
             "| games | players | n | losing move named | start lost | window ≥ 1 | median window "
             "(where ≥ 1) | median CPU s | max CPU s | max peak MB |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in rows:
        if r.get("verdict") == "error":
            continue
        groups.setdefault((r["kind"], r["players"]), []).append(r)
    for (kind, p), rs in sorted(groups.items()):
        named = sum(r["losing_move"] is not None for r in rs)
        lost0 = sum(r["start"] == "loss" for r in rs)
        wide = [r["window"] for r in rs if r["window"] is not None and r["window"] >= 1]
        nowin = sum(r["first_proven_loss"] is None for r in rs)
        w = f"{len(wide)}" + (f" (+{nowin} no loss proven)" if nowin else "")
        lines.append(f"| {kind} | {p} | {len(rs)} | {named} | {lost0} | {w} | {_med(wide)} | "
                     f"{_med([r['cpu_seconds'] for r in rs])} | "
                     f"{max(r['cpu_seconds'] for r in rs):g} | {max(r['peak_mb'] for r in rs)} |")
    ok = [r for r in rows if r.get("verdict") != "error"]
    errors = len(rows) - len(ok)
    named = sum(r["losing_move"] is not None for r in ok)
    lines += ["", f"All: the losing move is named in {named} of {len(ok)} games"
              + (f" ({errors} errors)" if errors else "") + "; pinned (named, or lost from the "
              f"start) in {sum(r['window'] == 0 for r in ok)}.", ""]
    kinds: dict[str, list[int]] = {}
    for r in ok:
        if r["reason_kind"]:
            k = kinds.setdefault(r["reason_kind"], [0, 0])
            k[0] += 1
            k[1] += bool(r["reason_specific"])
    proofs: dict[str, int] = {}
    for r in ok:
        if r["first_loss_proof"]:
            proofs[r["first_loss_proof"]] = proofs.get(r["first_loss_proof"], 0) + 1
    lines += ["## Reasons of the first proven loss", "",
              "| kind | games | specific (names a row, value, card or player) |", "|---|---|---|"]
    lines += [f"| {k} | {n} | {s} |" for k, (n, s) in sorted(kinds.items())]
    lines += ["", "How the first proven loss was proven: "
              + ", ".join(f"{k} {n}" for k, n in sorted(proofs.items())) + ".", ""]
    if waste is not None:
        won = [w for w in waste if w.get("verdict") == "win"]
        lines += ["## Unknown positions that `--objective waste` wins", "",
                  f"Of the {len(waste)} positions left unknown, the waste search (the same CPU "
                  f"seconds a position) finds a win from {len(won)}"
                  + (": " + ", ".join(sorted(w["key"] for w in won)) if won else "") + ".", ""]
    if again:
        n = {v: sum(r.get("verdict") == v for r in again) for v in ("loss", "win", "unknown")}
        lines += ["## Pinned losses re-proved by the plain DFS", "",
                  f"The position after the losing move of {len(again)} pinned games, solved by the "
                  "DFS with none of the new proofs (switches budget, bridge_costs, loss_model "
                  f"off), up to {max(r.get('cpu_seconds', 0) for r in again):g} CPU s each: "
                  f"{n['loss']} proven lost, {n['unknown']} unknown at the limit, {n['win']} won"
                  + (" (a wrong proof: a bug)" if n["win"] else "") + ".", ""]
    lines += ["## Games", "", "| game | moves | losing move | window | verdicts | reason |",
              "|---|---|---|---|---|---|"]
    for r in sorted(ok, key=lambda r: r["key"]):
        reason = (r["reason"] or "").replace("|", "/")
        lines.append(f"| {r['key']} | {r['moves']} | {r['losing_move'] or '–'} | "
                     f"{'–' if r['window'] is None else r['window']} | `{r['verdicts']}` | "
                     f"{reason} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.losing_move", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", default="1,3,5", help="player counts, e.g. 1,3,5")
    ap.add_argument("--greedy", type=int, default=6, help="lost greedy games per player count")
    ap.add_argument("--random", type=int, default=3, help="lost random games per player count")
    ap.add_argument("--seed", type=int, default=912000,
                    help="first seed of the deals (912000: seeds no earlier study used)")
    ap.add_argument("--rules", default="", help="rule options, e.g. preset=tiny (default: standard)")
    ap.add_argument("--time-per-move", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--waste-check", action="store_true",
                    help="also solve every position left unknown with --objective waste")
    ap.add_argument("--waste-sample", type=int, default=None, metavar="N",
                    help="--waste-check: at most N unknown positions, spread over the games")
    ap.add_argument("--checks-only", action="store_true",
                    help="analyse no more games: run the checks on the games already analysed")
    ap.add_argument("--reprove", type=int, default=0, metavar="N",
                    help="re-prove the losses of N pinned games with the plain DFS")
    ap.add_argument("--reprove-seconds", type=float, default=600.0)
    ap.add_argument("--switches", default="", metavar="K=V,...",
                    help="search switches for analyse (ablation), e.g. nogood=0,abstraction=0")
    args = ap.parse_args(argv)
    switches: dict[str, bool] = {}
    for item in filter(None, args.switches.split(",")):
        k, _, v = item.partition("=")
        if v not in ("0", "1"):
            ap.error(f"--switches {item!r}: write K=0 or K=1")
        switches[k] = v == "1"
    date = _dt.datetime.now(_dt.UTC)
    out = args.out or ROOT / "benchmarks" / "results" / f"losing-move-{date:%Y-%m-%d}"
    groups = [lost_games(kind, p, n, args.seed, _rules(args.rules))
              for p in _range(args.players)
              for kind, n in (("greedy", args.greedy), ("random", args.random))]
    # round robin over the groups, so that a run stopped early has some games of each
    jobs = [{**g[i], "time_per_move": args.time_per_move,
             **({"switches": switches} if switches else {})}
            for i in range(max(map(len, groups), default=0)) for g in groups if i < len(g)]
    if args.checks_only:  # the games analysed so far (another run may still add to them)
        rows = read_jsonl(out / "games.jsonl")
    else:
        rows = run_table(analyse_job, jobs, out / "games.jsonl", args.workers)
    m = machine()
    meta = {"date": f"{date:%Y-%m-%d %H:%M} UTC", "time_per_move": args.time_per_move,
            "machine": f"{m.get('arch')}, {m.get('cpu')}, {m.get('cores')} cores, "
                       f"{m.get('ram')}, Python {m.get('python')}, load average "
                       f"{os.getloadavg()[0]:.1f} at the end",
            "command": "python -m benchmarks.losing_move " + shlex.join(sys.argv[1:] if argv is None
                                                                          else list(argv))}
    keys = {j["key"] for j in jobs}
    rows = [r for r in rows if r["key"] in keys]
    # checks not asked for this time: the rows of an earlier run's, if any, are reported
    waste = (waste_check(rows, jobs, out, args.workers, args.waste_sample) if args.waste_check
             else read_jsonl(out / "waste.jsonl") or None)
    again = (reprove(rows, jobs, out, args.reprove, args.reprove_seconds, args.workers)
             if args.reprove else read_jsonl(out / "reprove.jsonl") or None)
    text = report(rows, meta, waste, again)
    tmp = out / "report.md.tmp"
    tmp.write_text(text)
    os.replace(tmp, out / "report.md")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
