"""Iterations where they matter (issue 41 item 3): ``uct`` with the fixed budget against the
adaptive one (:class:`bots.uct.IterationBudget`), self-play on the same deals.

Usage (one process each; run them with ``nice``)::

    python -m benchmarks.uct_budget play --out DIR --config fixed --players 5 --seeds 97001-97100
    python -m benchmarks.uct_budget play --out DIR --config adaptive --players 5 --seeds 97001-97100
    python -m benchmarks.uct_budget report --out DIR

A config is ``NAME`` from :data:`CONFIGS` (``fixed``: 1,600 iterations a decision, today's
``best``; ``settled``: the same with a decision stopped once settled, the same moves;
``adaptive``: 1,600, a close decision extended up to 6,400; ``fixed3200``: 3,200 a decision;
the equal-playout controls ``adaptive1100`` and ``fixed2300``).
The same bot object plays every seat (silent: it reads observations only). One row per game
goes to ``DIR/NAME.jsonl`` as it is played (players, seed, outcome, slots, moves, searches,
playouts, process CPU s); an interrupted run resumes. ``report`` pairs the configs deal by
deal against ``fixed``: wins, the paired difference with Newcombe's 95 % interval
(:func:`bots.mistakes.paired_interval`), playouts and CPU s a search (a decision that was not
a lone move or the Summit), and writes ``DIR/report.md``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.journal import append_row, read_rows, seed_range

#: The configs: keyword arguments of :class:`bots.uct.UctBot`.
CONFIGS: dict[str, dict[str, Any]] = {
    "fixed": {"iterations": 1600},
    "settled": {"iterations": 1600, "max_iterations": 1600},
    "adaptive": {"iterations": 1600, "max_iterations": 6400, "close": 0.8},
    "fixed3200": {"iterations": 3200},
    # the controls at equal playouts: adaptive from a smaller allowance (about fixed's
    # 1,600 playouts a search), and fixed at adaptive's mean (about 2,300)
    "adaptive1100": {"iterations": 1100, "max_iterations": 4400, "close": 0.8},
    "fixed2300": {"iterations": 2300},
}


def play(out: Path, config: str, players: list[int], seeds: list[int]) -> None:
    """Play every (players, seed) not yet in ``out/config.jsonl`` (module docstring)."""
    from bots.uct import UctBot
    from model.deal import Deal
    from model.game import Game
    from model.observation import observe

    path = out / f"{config}.jsonl"
    done = {(r["players"], r["seed"]) for r in read_rows(path)}
    for s in seeds:
        for p in players:
            if (p, s) in done:
                continue
            bot = UctBot(seed=0, **CONFIGS[config])
            searches = 0
            search = bot.search

            def counted(observation, moves, _search=search):
                nonlocal searches
                searches += 1
                return _search(observation, moves)

            bot.search = counted  # type: ignore[method-assign]
            deal = Deal.from_seed(s, players=p)
            game = Game(deal)
            limit = len(deal.rules.composition()) + 1
            t0 = time.process_time()
            moves = 0
            while game.outcome() is None and game.turn < limit:
                game.push(bot.choose(observe(game)))
                moves += 1
            cpu = time.process_time() - t0
            row = {"config": config, "params": CONFIGS[config], "players": p, "seed": s,
                   "outcome": game.outcome() or "loss", "slots": game.filled_slots(),
                   "moves": moves, "searches": searches,
                   "playouts": bot.playouts, "cpu_s": round(cpu, 2),
                   "at": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
                   "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}
            append_row(path, row)
            print(f"{config} P{p} seed {s}: {row['outcome']} {row['slots']} slots, "
                  f"{bot.playouts} playouts, {cpu:.1f} CPU s", file=sys.stderr, flush=True)


def report(out: Path, base: str = "fixed") -> str:
    """The paired table of every ``out/*.jsonl`` against ``base`` (module docstring)."""
    from bots.mistakes import paired_interval

    rows = {f.stem: {(r["players"], r["seed"]): r for r in read_rows(f)}
            for f in sorted(out.glob("*.jsonl"))}
    if base not in rows:
        raise ValueError(f"no {base}.jsonl in {out}")
    lines = [f"# uct: fixed against adaptive iterations ({out.name})", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
             f"{platform.python_version()}; CPU s by time.process_time; rows carry their "
             "own date and load average.", "",
             "| config | players | deals | won | fixed won | difference, Newcombe 95 % | "
             "playouts a search | CPU s a search | CPU s a game |",
             "|---|---:|---:|---:|---:|---|---:|---:|---:|"]
    for name, rs in rows.items():
        for p in sorted({k[0] for k in rs}):
            keys = sorted(k for k in rs if k[0] == p and k in rows[base])
            if not keys:
                continue
            won = [rs[k]["outcome"] == "win" for k in keys]
            bwon = [rows[base][k]["outcome"] == "win" for k in keys]
            both = sum(a and b for a, b in zip(won, bwon))
            only, bonly = sum(a and not b for a, b in zip(won, bwon)), sum(b and not a for a, b in zip(won, bwon))
            lo, hi = paired_interval(both, only, bonly, len(keys) - both - only - bonly)
            searches = sum(rs[k]["searches"] for k in keys) or 1
            diff = (sum(won) - sum(bwon)) / len(keys)
            cell = "" if name == base else f"{100 * diff:+.0f} pts [{100 * lo:+.0f}, {100 * hi:+.0f}]"
            lines.append(
                f"| {name} | {p} | {len(keys)} | {sum(won)} | {sum(bwon)} | {cell} | "
                f"{sum(rs[k]['playouts'] for k in keys) / searches:.0f} | "
                f"{sum(rs[k]['cpu_s'] for k in keys) / searches:.3f} | "
                f"{sum(rs[k]['cpu_s'] for k in keys) / len(keys):.1f} |")
    text = "\n".join(lines) + "\n"
    tmp = out / "report.md.tmp"
    tmp.write_text(text)
    tmp.replace(out / "report.md")
    return text


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring); exit 2 with a one-line error on bad input."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks.uct_budget")
    sub = ap.add_subparsers(dest="cmd", required=True)
    pl = sub.add_parser("play")
    pl.add_argument("--out", required=True)
    pl.add_argument("--config", required=True)
    pl.add_argument("--players", default="5")
    pl.add_argument("--seeds", default="97001-97100")
    rp = sub.add_parser("report")
    rp.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    out = Path(a.out)
    try:
        if a.cmd == "report":
            print(report(out), end="")
            return 0
        if a.config not in CONFIGS:
            raise ValueError(f"unknown config {a.config!r} (configs: {', '.join(CONFIGS)})")
        players = [int(x) for x in a.players.split(",")]
        if any(not 1 <= x <= 5 for x in players):
            raise ValueError(f"--players must be within 1-5, not {a.players!r}")
        seeds = seed_range(a.seeds)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    play(out, a.config, players, seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
