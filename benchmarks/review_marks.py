"""The review's marks on lost games: how many decisions are marked, how sure each mark is,
and what a review costs; and the calibration of the paired evaluator's chances.

Usage (the runs of ``docs/results.md``; run with ``nice``)::

    python -m benchmarks.review_marks review --games GAMES.jsonl --out DIR --bot greedy \\
        --count 20
    python -m benchmarks.review_marks calibrate --games GAMES.jsonl --out DIR \\
        --positions 600 --worlds 30
    python -m benchmarks.review_marks fit --out DIR --bot uct [--write]
    python -m benchmarks.review_marks report --out DIR

``review`` takes the first ``--count`` lost games of ``--bot`` in ``GAMES.jsonl`` (rows
``{"bot", "players", "seed", "outcome", "plan"}`` as :mod:`benchmarks.silent` writes them),
spread over the player counts (round robin over the counts present, seed order), and
reviews each with :func:`bots.review.review_game` (the defaults: 48 worlds a rated move in
the screen, paired comparison up to 256 worlds, estimator ``greedy``; no open-hand
analysis; ``--workers`` processes). One row per game (players, seed, moves, the marks with
drop, interval, sureness and worlds, paired worlds, CPU and wall seconds, load average)
goes to ``DIR/review-BOT.jsonl``, appended as it goes: a stopped run resumes.

``calibrate`` predicts, at every ``--stride``-th position of the games (of ``--bot``,
default ``greedy``;
positions whose index ≡ seed + 2 mod stride, so not those of the 2026-12-03 calibration),
the chance of the move played with the paired comparison's evaluator
(:func:`bots.review.evaluator_for`, the same function the marks use), ``--worlds`` worlds
drawn from the mover's observation; one row per position to ``DIR/calibration.jsonl``.

``fit`` (``--rows FILE``: the calibrate rows, default ``DIR/calibration.jsonl``) fits the
calibration map of the estimator's chance for the games of ``--bot``
(:func:`bots.calibration.fit_calibration`, isotonic) on the ``calibrate`` rows of that bot's
games with an odd seed, and checks it on those with an even seed (held out by game: no game
on both sides); the held-out rows with the calibrated chance go to
``DIR/calibrated-BOT.jsonl``; ``--write`` also writes the map to
``bots/data/calibration-BOT.json`` (written whole), the file the reviews use.

``report`` writes ``DIR/marks.md`` (never over an existing file without ``--force``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.journal import append_row, read_rows


def pick_lost(games: list[dict[str, Any]], bot: str, count: int) -> list[dict[str, Any]]:
    """The first ``count`` lost games of ``bot``, round robin over the player counts (seed
    order within a count).

    >>> g = [{"bot": "b", "players": p, "seed": s, "outcome": "loss"} for s in (1, 2) for p in (1, 3)]
    >>> [(x["players"], x["seed"]) for x in pick_lost(g, "b", 3)]
    [(1, 1), (3, 1), (1, 2)]
    """
    by: dict[int, list[dict[str, Any]]] = {}
    for g in sorted(games, key=lambda g: (g["players"], g["seed"])):
        if g["bot"] == bot and g["outcome"] == "loss":
            by.setdefault(g["players"], []).append(g)
    out: list[dict[str, Any]] = []
    k = 0
    while len(out) < count and any(k < len(v) for v in by.values()):
        for p in sorted(by):
            if k < len(by[p]) and len(out) < count:
                out.append(by[p][k])
        k += 1
    return out


def review(games_path: Path, out: Path, bot: str, count: int, workers: int) -> None:
    """The ``review`` step (module docstring)."""
    from bots.review import review_game
    from model.deal import Deal
    from model.moves import Move

    path = out / f"review-{bot}.jsonl"
    done = {(r["players"], r["seed"]) for r in read_rows(path)}
    for g in pick_lost(read_rows(games_path), bot, count):
        if (g["players"], g["seed"]) in done:
            continue
        moves = [Move.from_json(m) for m in g["plan"]]
        deal = Deal.from_seed(g["seed"], players=g["players"])
        t, c = time.monotonic(), time.process_time()
        r = review_game(deal, moves, open_hand=False, workers=workers)
        j = r.to_json()
        row = {"bot": bot, "players": g["players"], "seed": g["seed"], "moves": len(moves),
               "marks": j["marks"], "paired": [m["paired"] for m in j["moves"]],
               "paired_worlds": j["stats"]["paired_worlds"],
               "cpu_seconds": round(time.process_time() - c, 1),
               "wall_seconds": round(time.monotonic() - t, 1), "workers": workers,
               "load": os.getloadavg()[0]}
        append_row(path, row)
        print(f"{bot} P{g['players']} seed {g['seed']}: {len(moves)} moves, "
              f"{len(j['marks'])} marked, {row['wall_seconds']} s", file=sys.stderr, flush=True)


def calibrate(games_path: Path, out: Path, positions: int, stride: int, worlds: int,
              bot: str = "greedy") -> None:
    """The ``calibrate`` step (module docstring)."""
    from bots.review import evaluator_for
    from model.deal import Deal
    from model.moves import Move
    from model.observation import observe, sample_world
    from model.records import replay

    path = out / "calibration.jsonl"
    done = {(r.get("bot", "greedy"), r["players"], r["seed"], r["index"])
            for r in read_rows(path)}
    count = sum(1 for d in done if d[0] == bot)
    evaluate = evaluator_for("greedy")
    for g in [g for g in read_rows(games_path) if g["bot"] == bot]:
        if count >= positions:
            break
        moves = [Move.from_json(m) for m in g["plan"]]
        deal = Deal.from_seed(g["seed"], players=g["players"])
        for i in range((g["seed"] + 2) % stride, len(moves), stride):
            if count >= positions:
                break
            if (bot, g["players"], g["seed"], i) in done:
                continue
            rep = replay(deal, moves[:i])
            assert rep.error is None and rep.game is not None
            obs = observe(rep.game)
            rng = random.Random(f"calibrate/{g['seed']}/{i}")
            wins = sum(evaluate(sample_world(obs, rng), [moves[i]], rng.getrandbits(31))[0]
                       for _ in range(worlds))
            append_row(path, {"bot": bot, "players": g["players"], "seed": g["seed"], "index": i,
                           "chance": wins / worlds, "worlds": worlds,
                           "won": g["outcome"] == "win"})
            count += 1
        print(f"calibrate: {count} positions", file=sys.stderr, flush=True)


def fit(out: Path, bot: str, write: bool, rows_path: Path | None = None) -> None:
    """The ``fit`` step (module docstring)."""
    import datetime
    import json

    from bots.calibration import DATA, fit_calibration
    from model.files import link_new

    source = rows_path or out / "calibration.jsonl"
    rows = [r for r in read_rows(source) if r.get("bot", "greedy") == bot]
    train = [r for r in rows if r["seed"] % 2 == 1]
    test = [r for r in rows if r["seed"] % 2 == 0]
    if not train or not test:
        raise SystemExit(f"review_marks: error: no {bot} rows on both sides in {source}")
    info = {"fitted_on": f"{len(train)} positions of {len({r['seed'] for r in train})} {bot} "
                         f"games (odd seeds), {train[0]['worlds']} worlds each",
            "checked_on": f"{len(test)} positions of {len({r['seed'] for r in test})} games "
                          "(even seeds)",
            "date": datetime.date.today().isoformat(), "load": round(os.getloadavg()[0], 2)}
    cal = fit_calibration([r["chance"] for r in train], [r["won"] for r in train], bot,
                          "greedy", info)
    path = out / f"calibrated-{bot}.jsonl"
    if path.exists():
        path.unlink()  # a fit is cheap: the held-out rows are made again
    for r in test:
        append_row(path, {**r, "raw": r["chance"], "chance": cal(r["chance"])})
    print(f"fit: {len(cal.knots)} knots on {len(train)} positions; {len(test)} held out",
          file=sys.stderr)
    if write:
        target = DATA / f"calibration-{bot}.json"
        if target.exists():
            target.unlink()
        text = json.dumps(cal.to_json(), indent=1).encode("utf-8")
        link_new(target, lambda fh: fh.write(text))
        print(f"fit: wrote {target}", file=sys.stderr)


def report(out: Path, force: bool) -> None:
    """The ``report`` step (module docstring)."""
    from benchmarks.silent import calibration_bins
    from bots.mistakes import sureness
    from studies.stats import percentile

    md = out / "marks.md"
    if md.exists() and not force:
        raise SystemExit(f"review_marks: error: {md} exists; give --force to rewrite it")
    lines = ["# The review's marks on lost games", ""]
    for bot in ("greedy", "best", "uct"):
        rows = read_rows(out / f"review-{bot}.jsonl")
        if not rows:
            continue
        decisions = sum(r["moves"] for r in rows)
        marks = [m for r in rows for m in r["marks"]]
        kinds = {k: sum(1 for m in marks if m["mark"] == k)
                 for k in ("inaccuracy", "mistake", "blunder")}
        stopped: dict[str, int] = {}
        for r in rows:
            for p in r["paired"]:
                if p:
                    stopped[p["stopped"]] = stopped.get(p["stopped"], 0) + 1
        sure = [m["sure"] for m in marks]
        # Benjamini-Hochberg at 5 % over every compared decision's one-sided McNemar p
        pvals = sorted((1 - sureness(*p["discordant"]), (i, k)) for i, r in enumerate(rows)
                       for k, p in enumerate(r["paired"]) if p)
        bh = 0
        for rank, (pv, _) in enumerate(pvals, start=1):
            if pv <= 0.05 * rank / len(pvals):
                bh = rank
        passing = {key for _, key in pvals[:bh]}
        survive = sum(1 for i, r in enumerate(rows) for m in r["marks"]
                      if (i, m["index"] - 1) in passing)
        per50 = [50 * r["cpu_seconds"] / r["moves"] for r in rows]
        lines += [f"## Lost `{bot}` games: {len(rows)} games, {decisions} decisions", "",
                  f"- games with at least one mark: {sum(1 for r in rows if r['marks'])} "
                  f"of {len(rows)}",
                  f"- decisions marked: {len(marks)} ({100 * len(marks) / decisions:.1f} %): "
                  + ", ".join(f"{v} {k}" for k, v in kinds.items()),
                  "- sureness of the marks (1 − one-sided exact McNemar p): "
                  + (f"min {min(sure):.3f}, median {percentile(sure, 50):.3f}, max "
                     f"{max(sure):.3f}" if sure else "no mark"),
                  f"- marks that a control pooled over all these games would keep "
                  f"(Benjamini–Hochberg, 5 % false discoveries, over the {len(pvals)} compared "
                  f"decisions' one-sided McNemar p-values; the marks above already passed "
                  f"each game's own control): {survive} of {len(marks)}",
                  "- why the paired comparisons stopped: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(stopped.items())),
                  f"- paired worlds per decision: {sum(r['paired_worlds'] for r in rows) / decisions:.0f}",
                  f"- CPU seconds per 50 decisions (one process): median "
                  f"{percentile(per50, 50):.0f}, max {max(per50):.0f}; load average "
                  f"{min(r['load'] for r in rows):.1f}–{max(r['load'] for r in rows):.1f}",
                  "", "| players | seed | moves | marks (move: sign drop [interval] sure, worlds) "
                  "| CPU s |", "|---:|---:|---:|---|---:|"]
        for r in rows:
            text = "; ".join(
                f"{m['index']}: {m['sign']} {100 * m['drop']:.1f} [{100 * m['interval'][0]:.1f}, "
                f"{100 * m['interval'][1]:.1f}] {100 * m['sure']:.1f}%, {m['worlds']}"
                for m in sorted(r["marks"], key=lambda m: m["index"])) or "-"
            lines.append(f"| {r['players']} | {r['seed']} | {r['moves']} | {text} | "
                         f"{r['cpu_seconds']:.0f} |")
        lines.append("")
    every = read_rows(out / "calibration.jsonl")
    for bot in sorted({r.get("bot", "greedy") for r in every}, key=lambda b: (b != "greedy", b)):
        cal = [r for r in every if r.get("bot", "greedy") == bot]
        if not cal:
            continue
        lines += [f"## Calibration of the evaluator (greedy playouts) on `{bot}` games", "",
                  f"{len(cal)} positions of {bot} games, {cal[0]['worlds']} worlds each.", "",
                  "| predicted | positions | mean predicted | won | 95% interval | gap |",
                  "|---|---:|---:|---:|---|---:|"]
        for b in calibration_bins(cal):
            lo, hi = b["interval"]
            lines.append(f"| {100 * b['lo']:.0f}–{100 * b['hi']:.0f}% | {b['n']} | "
                         f"{100 * b['predicted']:.1f}% | {100 * b['won']:.1f}% | "
                         f"[{100 * lo:.1f}, {100 * hi:.1f}] | {100 * b['gap']:+.1f} |")
        lines.append("")
    for path in sorted(out.glob("calibrated-*.jsonl")):
        cal = read_rows(path)
        bot = path.stem.removeprefix("calibrated-")
        lines += [f"## The calibrated estimator on held-out `{bot}` games", "",
                  f"The greedy estimator's chance mapped by `bots/data/calibration-{bot}.json` "
                  f"(isotonic, fitted on the odd seeds' positions), on {len(cal)} positions of "
                  f"the even seeds' {bot} games ({cal[0]['worlds']} worlds each).", "",
                  "| calibrated | positions | mean predicted | won | 95% interval | gap |",
                  "|---|---:|---:|---:|---|---:|"]
        for b in calibration_bins(cal):
            lo, hi = b["interval"]
            lines.append(f"| {100 * b['lo']:.0f}–{100 * b['hi']:.0f}% | {b['n']} | "
                         f"{100 * b['predicted']:.1f}% | {100 * b['won']:.1f}% | "
                         f"[{100 * lo:.1f}, {100 * hi:.1f}] | {100 * b['gap']:+.1f} |")
        raw = [{**r, "chance": r["raw"]} for r in cal]
        worst = max((abs(b["gap"]) for b in calibration_bins(cal) if b["n"] >= 30), default=0)
        worst_raw = max((abs(b["gap"]) for b in calibration_bins(raw) if b["n"] >= 30),
                        default=0)
        lines += ["", f"Largest gap in a bin of 30 or more positions: {100 * worst:.1f} points "
                  f"calibrated, {100 * worst_raw:.1f} points for the greedy chance on the same "
                  "positions.", ""]
    md.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="step", required=True)
    a = sub.add_parser("review")
    a.add_argument("--games", required=True)
    a.add_argument("--out", required=True)
    a.add_argument("--bot", default="greedy")
    a.add_argument("--count", type=int, default=20)
    a.add_argument("--workers", type=int, default=1)
    c = sub.add_parser("calibrate")
    c.add_argument("--games", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--positions", type=int, default=600)
    c.add_argument("--stride", type=int, default=5)
    c.add_argument("--worlds", type=int, default=30)
    c.add_argument("--bot", default="greedy", help="the games of this bot")
    f = sub.add_parser("fit")
    f.add_argument("--out", required=True)
    f.add_argument("--bot", default="uct")
    f.add_argument("--write", action="store_true", help="write bots/data/calibration-BOT.json")
    f.add_argument("--rows", default=None,
                   help="the calibrate step's rows (default DIR/calibration.jsonl)")
    r = sub.add_parser("report")
    r.add_argument("--out", required=True)
    r.add_argument("--force", action="store_true")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.step == "review":
        review(Path(args.games), out, args.bot, args.count, args.workers)
    elif args.step == "fit":
        fit(out, args.bot, args.write, Path(args.rows) if args.rows else None)
    elif args.step == "calibrate":
        calibrate(Path(args.games), out, args.positions, args.stride, args.worlds, args.bot)
    else:
        report(out, args.force)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
