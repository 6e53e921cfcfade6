"""The ablation table of the loss proofs by learning and abstraction (``solver.nogood``,
``solver.abstraction``), from runs already made:

* the ``hand_size=2`` ladder of ``python -m benchmarks.frontier --tables ladder --config
  after,neither,no-abstraction,no-nogood`` (a folder with ``ladder-CONFIG.jsonl``);
* the lost games of ``python -m benchmarks.losing_move`` run twice on the same games, with
  the defaults and with ``--switches nogood=0,abstraction=0`` (two folders with
  ``games.jsonl``).

Usage::

    python -m benchmarks.learning --ladder DIR --games-on DIR --games-off DIR [--out FILE]
    python -m benchmarks.learning --crosscheck N

prints (or writes) the Markdown tables: per rung and configuration the deals decided, the
losses proven, the nodes and CPU seconds; per group of lost games and configuration the
losing move named, the median open window, the nodes and CPU seconds, and which proof
decided the first proven loss. Only the games analysed in both runs are compared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from benchmarks.frontier import LADDER

CONFIGS = ("after", "no-abstraction", "no-nogood", "neither")


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def ladder_table(folder: Path) -> list[str]:
    """Markdown lines: the ladder per rung and configuration."""
    out = ["| rung | config | deals | decided | losses proven | nodes (sum) | CPU s (sum) |",
           "|---|---|---:|---:|---:|---:|---:|"]
    data = {c: _rows(folder / f"ladder-{c}.jsonl") for c in CONFIGS}
    for rules in LADDER:
        for c in CONFIGS:
            g = [r for r in data[c] if r["rules"] == rules]
            if not g:
                continue
            out.append(f"| `{rules}` | {c} | {len(g)} | {sum(r['verdict'] != 'unknown' for r in g)} "
                       f"| {sum(r['verdict'] == 'loss' for r in g)} "
                       f"| {sum(r.get('nodes') or 0 for r in g):,} "
                       f"| {sum(r['seconds'] for r in g):.1f} |")
    return out


def games_table(on: Path, off: Path) -> list[str]:
    """Markdown lines: the lost games per group (kind, players) with the switches on and off,
    on the games analysed in both runs."""
    a = {r["key"]: r for r in _rows(on / "games.jsonl")}
    b = {r["key"]: r for r in _rows(off / "games.jsonl")}
    keys = sorted(set(a) & set(b))
    out = ["| group | switches | games | losing move named | median window | CPU s (sum) "
           "| first proven loss by |", "|---|---|---:|---:|---:|---:|---|"]
    groups: dict[tuple[str, int], list[str]] = {}
    for k in keys:
        groups.setdefault((a[k]["kind"], a[k]["players"]), []).append(k)
    for (kind, players), ks in sorted(groups.items()):
        for name, rows in (("on", a), ("off", b)):
            g = [rows[k] for k in ks]
            named = sum(r["losing_move"] is not None for r in g)
            windows = [r["window"] for r in g if r.get("window") is not None]
            med = statistics.median(windows) if windows else "-"
            by: dict[str, int] = {}
            for r in g:
                p = r.get("first_loss_proof")
                if p:
                    by[p] = by.get(p, 0) + 1
            proofs = ", ".join(f"{p} {n}" for p, n in sorted(by.items())) or "-"
            out.append(f"| {kind}, {players} player{'s' if players > 1 else ''} | {name} | "
                       f"{len(g)} | {named} of {len(g)} | {med} | "
                       f"{sum(r['cpu_seconds'] for r in g):.1f} | {proofs} |")
    return out


#: Rule sets of the cross-check: the 4- and 5-row ladder rungs, and a 4-row one with hands of
#: three and Bridges seen through.
CROSS_RULES = [
    "rows=4,values=6,colours=2,copies=2,campfires=1,bridges=2,summits=2,hand_size=2",
    "rows=5,values=6,colours=3,copies=2,campfires=1,bridges=2,summits=2,hand_size=2",
    "rows=4,values=6,colours=2,copies=2,campfires=1,bridges=2,summits=2,hand_size=3,"
    "bridge_neighbour=look-through",
]


def crosscheck(samples: int, seed: int = 7, node_limit: int = 3_000_000) -> dict[str, Any]:
    """Re-prove with both switches off every loss proven with them on, from random mid-game
    positions (1–3 players, :data:`CROSS_RULES`, up to 15 random moves), the abstraction
    taking turns with the search from its first node. Returns the counts of (verdict on,
    verdict off, proof on) and the mismatches (a verdict on that differs from a verdict off
    where both finished): must be 0."""
    import random

    import solver.abstraction as abstraction
    from model.deal import Deal
    from model.game import Game
    from model.rules import RuleSet
    from solver import solve

    rng = random.Random(seed)
    old = abstraction.FIRST_SLICE, abstraction.ABSTRACT_SHARE
    abstraction.FIRST_SLICE, abstraction.ABSTRACT_SHARE = 1, 1.0
    counts: dict[str, int] = {}
    mismatches = 0
    try:
        for _ in range(samples):
            rules = RuleSet.from_options(rng.choice(CROSS_RULES).split(","))
            deal = Deal.from_seed(rng.randint(0, 10**6), rng.choice([1, 1, 2, 3]), rules)
            game = Game(deal)
            for _ in range(rng.randint(0, 15)):
                moves = game.legal_moves()
                if not moves or game.is_over():
                    break
                game.push(rng.choice(moves))
            if game.is_over():
                continue
            on = solve(game, "none", furthest="off", loss_model=False, node_limit=node_limit,
                       beam_schedule=((8, 1), (64, 2)))
            off = solve(game, "none", furthest="off", loss_model=False, node_limit=node_limit,
                        nogood=False, abstraction=False)
            key = f"{on.verdict}/{off.verdict}/{on.stats.get('decided_by', '-')}"
            counts[key] = counts.get(key, 0) + 1
            if "unknown" not in (on.verdict, off.verdict) and on.verdict != off.verdict:
                mismatches += 1
    finally:
        abstraction.FIRST_SLICE, abstraction.ABSTRACT_SHARE = old
    return {"samples": samples, "seed": seed, "node_limit": node_limit,
            "counts (on/off/proof)": dict(sorted(counts.items())), "mismatches": mismatches}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.learning",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--ladder", type=Path, default=None)
    ap.add_argument("--crosscheck", type=int, default=0, metavar="N",
                    help="instead: re-prove with the switches off the losses proven with them "
                         "on, from N random positions; prints JSON")
    ap.add_argument("--games-on", type=Path, default=None)
    ap.add_argument("--games-off", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    if a.crosscheck:
        sys.stdout.write(json.dumps(crosscheck(a.crosscheck), indent=1) + "\n")
        return 0
    if a.ladder is None or not a.ladder.is_dir():
        ap.error(f"--ladder {a.ladder}: no such folder")
    lines = ["## The hand_size=2 ladder", ""] + ladder_table(a.ladder)
    if a.games_on and a.games_off:
        lines += ["", "## Lost games (analyse, the same games)", ""] + games_table(a.games_on,
                                                                              a.games_off)
    text = "\n".join(lines) + "\n"
    if a.out:
        tmp = a.out.with_suffix(a.out.suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(a.out)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
