"""Daily-puzzle figures: grade calibration and build times.

``python -m benchmarks.daily calibrate --kind deal --size mini --count 200``
    evaluates candidates of a fixed calibration stream (candidate *k* of the dates from
    2025-01-01 on, one per date, never a puzzle date of the archive) until ``count`` meet
    the criteria, appending one JSON line per candidate to
    ``OUT/calibration-<kind>-<size>.jsonl`` (resumable: done dates are skipped); then
    ``report`` turns the JSONL files into ``OUT/daily-calibration.md``: the 25/50/75th
    percentile thresholds of the score, the band shares, and the second signal per band.

``python -m benchmarks.daily month --from 2026-12-01 --to 2026-12-31 --archive DIR``
    builds the puzzles missing from the archive on ``--workers`` processes (as ``ascent
    daily build`` does) and records each puzzle's build time in
    ``OUT/daily-build-times.jsonl``; ``report`` summarises them (median, p95 per kind and
    size, and the wall time of the month).

``python -m benchmarks.daily par --from 2027-01-01 --days 20 --out DIR``
    (issue 39 step 7) makes the full deal puzzle of each date with the current generator
    (version 2: :func:`puzzles.par.full_par`) and records per date, in
    ``OUT/daily-par.jsonl``: the candidate, the beams-only par (version 1), the par, the
    proven bound, ``par_proven``, the CPU seconds of the whole puzzle, and the ablation on
    the same deal (search only, LNS only, both: par, proven, nodes, CPU s); ``par-report``
    writes ``OUT/report.md``.

``OUT`` defaults to a new folder ``benchmarks/results/daily-<UTC time>``; give ``--out`` to
write into an existing one (committed results are never overwritten unless named).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

CAL_EPOCH = _dt.date(2025, 1, 1)


def _cal_one(kind: str, size: str, i: int) -> dict:
    from puzzles.daily import evaluate
    from puzzles.dates import candidate

    date = CAL_EPOCH + _dt.timedelta(days=i)
    cand = candidate(date, kind, size, 0)
    t = time.perf_counter()
    rec = evaluate(kind, size, cand)
    return {"i": i, "date": date.isoformat(), "kind": kind, "size": size,
            "accepted": rec is not None, "score": rec["score"] if rec else None,
            "features": rec["features"] if rec else None,
            "seconds": round(time.perf_counter() - t, 3),
            "load": round(os.getloadavg()[0], 1)}


def calibrate(kind: str, size: str, count: int, out: Path, jobs: int) -> None:
    path = out / f"calibration-{kind}-{size}.jsonl"
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            r = json.loads(line)
            done[r["i"]] = r
    accepted = sum(r["accepted"] for r in done.values())
    i = 0
    with ProcessPoolExecutor(jobs) as pool, path.open("a") as f:
        while accepted < count:
            batch = []
            while len(batch) < 4 * jobs:
                if i not in done:
                    batch.append(i)
                i += 1
            for fut in as_completed([pool.submit(_cal_one, kind, size, j) for j in batch]):
                r = fut.result()
                done[r["i"]] = r
                accepted += r["accepted"]
                f.write(json.dumps(r) + "\n")
                f.flush()
            print(f"{kind}/{size}: {accepted} accepted of {len(done)} candidates", flush=True)


def _machine() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next((ln.split(":", 1)[1].strip() for ln in fh
                        if ln.startswith("model name")), platform.processor())
    except OSError:
        cpu = platform.processor()
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (f"{platform.machine()}, {cpu}, {os.cpu_count()} cores, {mem:.1f} GB RAM, "
            f"Python {platform.python_version()}")


def _load_line(rows: list[dict]) -> str:
    loads = [r["load"] for r in rows if "load" in r]
    if not loads:
        return "- load average: not recorded (shared machine, above 10 at times)"
    return (f"- load average (1 min) seen by {len(loads)} of {len(rows)} rows: "
            f"{min(loads):g}–{max(loads):g}, median {statistics.median(loads):g}")


def report(out: Path) -> None:
    from puzzles.dates import GRADES
    from puzzles.grade import grade_of, quantile_thresholds

    lines = ["# Daily puzzles: grade calibration and build times", "",
             f"- machine: {_machine()}",
             "- times are wall-clock seconds; each section gives the load average (1 min) "
             "seen by its rows where they recorded it (rows without it were run on the "
             "machine shared with other jobs, load average above 10 at times)", ""]
    lines += ["## Calibration", "",
              "Thresholds: 25th, 50th and 75th percentiles of the score of the candidates "
              "that met the criteria, moved so that no band is empty. Second signal: the noisy "
              "greedy playouts (full deals: the mean share of the mountain they fill, as they "
              "never win; mini deals: the share that reach the Summit within par; positions: "
              "the share that win), not part of the score; it should fall from easy to "
              "expert. Positions also show the share of legal first moves that keep a win and "
              "the shortest win: not in the score either, though both bear on the chance "
              "that random moves win, which the score is.", ""]
    for path in sorted(out.glob("calibration-*.jsonl")):
        rows = [json.loads(ln) for ln in path.read_text().splitlines()]
        if not rows:
            continue
        kind, size = rows[0]["kind"], rows[0]["size"]
        ok = [r for r in rows if r["accepted"]]
        if not ok:
            continue
        try:
            t = quantile_thresholds([r["score"] for r in ok])
        except ValueError as exc:
            lines += [f"### {kind} / {size}", "",
                      f"- candidates evaluated: {len(rows)}; met the criteria: {len(ok)}; "
                      f"not calibrated: {exc}",
                      f"- seconds per candidate: median "
                      f"{statistics.median(r['seconds'] for r in rows):.2f}", ""]
            continue
        th = {(kind, size): t}
        lines += [f"### {kind} / {size}", "",
                  f"- candidates evaluated: {len(rows)}; met the criteria: {len(ok)} "
                  f"({100 * len(ok) / len(rows):.0f}%)",
                  f"- thresholds (score ≤ easy, medium, hard): {t[0]:g}, {t[1]:g}, {t[2]:g}",
                  f"- seconds per candidate: median {statistics.median(r['seconds'] for r in rows):.2f}",
                  _load_line(rows), ""]
        if kind == "deal":
            proven = sum(r["features"]["par_proven"] for r in ok)
            lines.insert(len(lines) - 1, f"- par proven: {proven} of {len(ok)} "
                                         f"({100 * proven / len(ok):.0f}%)")
        extra = kind == "position"  # two more signals, not in the score (but not independent)
        lines += ["| band | candidates | share | mean score | second signal (mean) |"
                  + (" winning first moves (mean share) | shortest win (mean moves) |" if extra else ""),
                  "|---|---:|---:|---:|---:|" + ("---:|---:|" if extra else "")]
        for band in GRADES:
            rs = [r for r in ok if grade_of(kind, size, r["score"], th) == band]
            if kind == "deal" and size == "full":
                sig = [r["features"]["playout_filled"] for r in rs]
            elif kind == "deal":
                sig = [r["features"]["playout_wins_within_par"] / r["features"]["playouts"]
                       for r in rs]
            else:
                sig = [r["features"]["playout_wins"] / r["features"]["playouts"] for r in rs]
            mean = statistics.fmean(sig) if sig else float("nan")
            ms = statistics.fmean(r["score"] for r in rs) if rs else float("nan")
            more = ""
            if extra:
                fm = [r["features"]["winning_first_moves"] / r["features"]["first_moves"] for r in rs]
                sw = [r["features"]["shortest_win"] for r in rs]
                more = (f" {statistics.fmean(fm):.3f} | {statistics.fmean(sw):.2f} |" if rs
                        else " - | - |")
            lines.append(f"| {band} | {len(rs)} | {100 * len(rs) / len(ok):.0f}% | "
                         f"{ms:.2f} | {mean:.3f} |" + more)
        lines.append("")
    tpath = out / "daily-build-times.jsonl"
    if tpath.exists():
        rows = [json.loads(ln) for ln in tpath.read_text().splitlines()]
        lines += ["## Build times", "",
                  "One puzzle = finding the date's first candidate in its band "
                  "(`puzzles.daily.puzzle_for`), run on the worker processes.", "",
                  "| kind | size | puzzles | median s | p95 s | max s | candidates tried (mean) "
                  "| load average (median) |",
                  "|---|---|---:|---:|---:|---:|---:|---:|"]
        for kind in ("deal", "position"):
            for size in ("full", "mini"):
                rs = [r for r in rows if r.get("kind") == kind and r.get("size") == size and "seconds" in r]
                if not rs:
                    continue
                xs = sorted(r["seconds"] for r in rs)
                p95 = xs[max(0, -(-95 * len(xs) // 100) - 1)]
                tried = statistics.fmean(r["candidate"] + 1 for r in rs)
                loads = [r["load"] for r in rs if "load" in r]
                load = f"{statistics.median(loads):g}" if loads else "not recorded (above 10)"
                lines.append(f"| {kind} | {size} | {len(xs)} | {statistics.median(xs):.1f} | "
                             f"{p95:.1f} | {xs[-1]:.1f} | {tried:.1f} | {load} |")
        walls = [r for r in rows if "wall_seconds" in r]
        for w in walls:
            what = f" ({w['kinds']})" if "kinds" in w else ""
            lines += ["", f"Month {w['from']}..{w['to']}{what} with {w['workers']} workers: "
                          f"{w['built']} puzzles built in {w['wall_seconds'] / 60:.1f} min wall time."]
        lines.append("")
    (out / "daily-calibration.md").write_text("\n".join(lines) + "\n")
    print((out / "daily-calibration.md").read_text())


def _month_one(date_iso: str, kind: str, size: str) -> tuple[str, str, str, str, float, int]:
    from puzzles.archive import dumps_record
    from puzzles.daily import puzzle_for

    t = time.perf_counter()
    rec = puzzle_for(_dt.date.fromisoformat(date_iso), kind, size)
    return date_iso, kind, size, dumps_record(rec), time.perf_counter() - t, rec["generator"]["candidate"]


def month(first: str, last: str, archive: Path, workers: int, out: Path,
          kinds: list[str], sizes: list[str]) -> None:
    from puzzles.archive import path_for, write_new
    from puzzles.build import dates_between

    d1, d2 = _dt.date.fromisoformat(first), _dt.date.fromisoformat(last)
    todo = [(d.isoformat(), k, s) for d in dates_between(d1, d2) for k in kinds for s in sizes
            if not path_for(archive, d, k, s).exists()]
    t0 = time.perf_counter()
    built = 0
    with ProcessPoolExecutor(workers) as pool, (out / "daily-build-times.jsonl").open("a") as f:
        futs = [pool.submit(_month_one, *t) for t in todo]
        for fut in as_completed(futs):
            d, k, s, text, secs, cand = fut.result()
            write_new(path_for(archive, _dt.date.fromisoformat(d), k, s), text)
            built += 1
            f.write(json.dumps({"date": d, "kind": k, "size": s, "seconds": round(secs, 2),
                                "candidate": cand,
                                "load": round(os.getloadavg()[0], 1)}) + "\n")
            f.flush()
            print(f"{d} {k} {s}: {secs:.1f} s (candidate {cand})", flush=True)
        f.write(json.dumps({"from": first, "to": last, "workers": workers, "built": built,
                            "kinds": ", ".join(f"{k} {s}" for k in kinds for s in sizes),
                            "wall_seconds": round(time.perf_counter() - t0, 1)}) + "\n")


def _par_one(date_iso: str) -> dict:
    from model.deal import Deal
    from puzzles.daily import RULES, beam_ladder, puzzle_for
    from puzzles.par import ParSwitches, full_par

    t = time.process_time()
    rec = puzzle_for(_dt.date.fromisoformat(date_iso), "deal", "full")
    cpu = time.process_time() - t
    row = {"date": date_iso, "candidate": rec["generator"]["candidate"], "par": rec["par"],
           "par_proven": rec["par_proven"], "par_beams": rec["features"]["par_beams"],
           "par_bound": rec["features"]["par_bound"], "cpu_s": round(cpu, 2)}
    deal = Deal.from_seed(rec["deal"]["seed"], 1, RULES["full"])
    t = time.process_time()
    _w, _bw, best = beam_ladder(deal)
    row["ladder_cpu_s"] = round(time.process_time() - t, 2)
    assert best is not None
    for name, sw in (("search", ParSwitches(lns=False)), ("lns", ParSwitches(search=False)),
                     ("both", ParSwitches())):
        t = time.process_time()
        rep = full_par(deal, best[0], best[1], sw)
        row[name] = {"par": rep.par, "proven": rep.proven, "bound": rep.bound,
                     "nodes": rep.nodes, "cpu_s": round(time.process_time() - t, 2),
                     "lns": rep.lns}
    row["load"] = round(os.getloadavg()[0], 1)
    return row


def par(first: str, days: int, workers: int, out: Path) -> None:
    d1 = _dt.date.fromisoformat(first)
    path = out / "daily-par.jsonl"
    done = set()
    if path.exists():
        done = {json.loads(ln).get("date") for ln in path.read_text().splitlines() if ln}
    todo = [(d1 + _dt.timedelta(days=i)).isoformat() for i in range(days)]
    todo = [d for d in todo if d not in done]
    with ProcessPoolExecutor(workers) as pool, path.open("a") as f:
        for fut in as_completed([pool.submit(_par_one, d) for d in todo]):
            row = fut.result()
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{row['date']}: par {row['par']} (beams {row['par_beams']}, bound "
                  f"{row['par_bound']}, proven {row['par_proven']}) {row['cpu_s']} CPU s",
                  flush=True)


def par_report(out: Path) -> None:
    rows = sorted((json.loads(ln) for ln in (out / "daily-par.jsonl").read_text().splitlines()
                   if ln), key=lambda r: r["date"])
    n = len(rows)
    lines = ["# Full deal puzzles: par proven, searched, against the beams (issue 39 step 7)",
             "", f"- machine: {_machine()}", _load_line(rows),
             f"- dates: {rows[0]['date']} .. {rows[-1]['date']} ({n})", "",
             "| date | candidate | beams par | par | bound | proven | CPU s (puzzle) |",
             "|---|---:|---:|---:|---:|---|---:|"]
    for r in rows:
        lines.append(f"| {r['date']} | {r['candidate']} | {r['par_beams']} | {r['par']} | "
                     f"{r['par_bound']} | {'yes' if r['par_proven'] else 'no'} | {r['cpu_s']} |")
    lines += ["", "Ablation on the same deals (from the beams' best win; CPU s of the par "
              "search alone):", "",
              "| parts | proven | mean par | mean (beams − par) | median CPU s | max CPU s |",
              "|---|---:|---:|---:|---:|---:|"]
    mean = statistics.mean
    lines.append(f"| beams only (version 1) | 0 of {n} | {mean(r['par_beams'] for r in rows):.1f}"
                 f" | 0 | {statistics.median(r['ladder_cpu_s'] for r in rows):.2f} (ladder) | "
                 f"{max(r['ladder_cpu_s'] for r in rows)} |")
    for name, label in (("search", "+ search"), ("lns", "+ LNS"), ("both", "+ search + LNS")):
        xs = [r[name] for r in rows]
        lines.append(f"| {label} | {sum(x['proven'] for x in xs)} of {n} | "
                     f"{mean(x['par'] for x in xs):.1f} | "
                     f"{mean(r['par_beams'] - r[name]['par'] for r in rows):.1f} | "
                     f"{statistics.median(x['cpu_s'] for x in xs):.2f} | "
                     f"{max(x['cpu_s'] for x in xs)} |")
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.daily")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("calibrate")
    c.add_argument("--kind", required=True)
    c.add_argument("--size", required=True)
    c.add_argument("--count", type=int, default=125)
    c.add_argument("--jobs", type=int, default=1)
    c.add_argument("--out")
    m = sub.add_parser("month")
    m.add_argument("--from", dest="first", required=True)
    m.add_argument("--to", dest="last", required=True)
    m.add_argument("--archive", required=True)
    m.add_argument("--workers", type=int, default=2)
    m.add_argument("--kind", action="append")
    m.add_argument("--size", action="append")
    m.add_argument("--out")
    p = sub.add_parser("par")
    p.add_argument("--from", dest="first", required=True)
    p.add_argument("--days", type=int, default=20)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out")
    pr = sub.add_parser("par-report")
    pr.add_argument("--out", required=True)
    r = sub.add_parser("report")
    r.add_argument("--out", required=True)
    a = ap.parse_args()
    out = Path(a.out) if a.out else Path("benchmarks/results") / (
        "daily-" + _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M"))
    out.mkdir(parents=True, exist_ok=True)
    if a.cmd == "calibrate":
        calibrate(a.kind, a.size, a.count, out, a.jobs)
    elif a.cmd == "month":
        Path(a.archive).mkdir(parents=True, exist_ok=True)
        month(a.first, a.last, Path(a.archive), a.workers, out,
              a.kind or ["deal", "position"], a.size or ["full", "mini"])
    elif a.cmd == "par":
        par(a.first, a.days, a.workers, out)
        par_report(out)
    elif a.cmd == "par-report":
        par_report(out)
    else:
        report(out)


if __name__ == "__main__":
    main()
