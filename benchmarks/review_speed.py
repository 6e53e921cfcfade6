"""How long the web page's review of a silent game takes, and what a resume saves.

Usage (run with ``nice``; each game costs about 20 s)::

    python -m benchmarks.review_speed --out DIR --games 5 --players 3 --first-seed 40001

Plays silent games of the standard rules with the greedy bot in every seat (fast to play; the
review does not depend on who played, only on the positions), from ``--first-seed`` on,
keeping the lost games of at least ``--min-moves`` moves, and reviews each as the server does
(:func:`web.review.review_data` with the ``best`` bot and the ``uct`` team-mates'
calibration, :data:`web.jobs.REVIEW_SECONDS` a position), counting the progress reports.
Then it reviews the game again with the results kept from the first review's first half
(the open-hand verdicts and the first half of the moves judged: a server stopped half way)
and times that resume. One row a game goes to ``DIR/review-speed.jsonl`` (appended: a
stopped run resumes); ``DIR/review-speed.md`` is the table (written whole, over the last).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from benchmarks.journal import append_row, read_rows


def run(out: Path, games: int, players: int, first_seed: int, min_moves: int) -> None:
    """The measurement (module docstring)."""
    from bots import make_bot
    from bots.base import play_deal
    from model.deal import Deal
    from web.jobs import REVIEW_SECONDS
    from web.review import review_data

    path = out / "review-speed.jsonl"
    done = {r["seed"] for r in read_rows(path)}
    seed = first_seed
    while len(done) < games:
        if seed in done:
            seed += 1
            continue
        deal = Deal.from_seed(seed, players)
        g = play_deal(deal, make_bot("greedy"))
        seed += 1
        if g.outcome != "loss" or len(g.plan.moves) < min_moves:
            continue
        moves = g.plan.moves
        seen: list[dict[str, Any]] = []
        t, c = time.monotonic(), time.process_time()
        first = review_data(deal, moves, REVIEW_SECONDS, "best", progress=seen.append,
                            team="uct")
        wall, cpu = time.monotonic() - t, time.process_time() - c
        half = {"open": [p["solved"] for p in seen if "solved" in p],
                "silent": [p["reviewed"] for p in seen if "reviewed" in p][: len(moves) // 2]}
        t = time.monotonic()
        again = review_data(deal, moves, REVIEW_SECONDS, "best", known=half, team="uct")
        resumed = time.monotonic() - t
        row = {"seed": seed - 1, "players": players, "moves": len(moves),
               "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
               "reports": len(seen), "window": first["window"],
               "losing_move": first["losing_move"], "unknown": first["unknown"],
               "marks": len(first["marks"]), "resumed_wall_seconds": round(resumed, 1),
               "resumed_same_window": again["window"] == first["window"],
               "load": round(os.getloadavg()[0], 2), "date": time.strftime("%Y-%m-%d %H:%M")}
        append_row(path, row)
        done.add(row["seed"])
        print(f"seed {row['seed']}: {len(moves)} moves, {row['wall_seconds']} s "
              f"(resumed half way: {row['resumed_wall_seconds']} s), load {row['load']}",
              flush=True)
    report(out)


def report(out: Path) -> None:
    """``DIR/review-speed.md`` from the rows."""
    from model.files import link_new
    from studies.stats import percentile

    rows = read_rows(out / "review-speed.jsonl")
    if not rows:
        return
    walls = [r["wall_seconds"] for r in rows]
    lines = ["# The web review of a silent game: time and resume", "",
             f"{len(rows)} lost {rows[0]['players']}-player games of the standard rules (greedy "
             f"in every seat), {min(r['moves'] for r in rows)}–{max(r['moves'] for r in rows)} "
             "moves, reviewed as the server does (open-hand analysis, then the silent review "
             "with the `best` bot, chances calibrated for `uct` team-mates), one process. "
             f"Wall seconds: median {percentile(walls, 50):.1f}, max {max(walls):.1f}; load "
             f"average {min(r['load'] for r in rows):.1f}–{max(r['load'] for r in rows):.1f} "
             f"(2 cores, shared); {rows[0]['date'][:10]}.", "",
             "| seed | moves | wall s | CPU s | progress reports | window | unknown | marks | "
             "resumed half way, wall s | load |", "|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        w = r["window"]
        lines.append(f"| {r['seed']} | {r['moves']} | {r['wall_seconds']} | {r['cpu_seconds']} "
                     f"| {r['reports']} | {'-' if w is None else f'{w[0]}–{w[1]}'} | "
                     f"{r['unknown']} | {r['marks']} | {r['resumed_wall_seconds']} | "
                     f"{r['load']} |")
    text = ("\n".join(lines) + "\n").encode("utf-8")
    md = out / "review-speed.md"
    if md.exists():
        md.unlink()
    link_new(md, lambda fh: fh.write(text))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--first-seed", type=int, default=40001)
    ap.add_argument("--min-moves", type=int, default=45)
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    run(out, args.games, args.players, args.first_seed, args.min_moves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
