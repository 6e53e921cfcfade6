"""The pure-Python search on a fixed set of deals: node counts, the cuts of each bound
(``pruned``) and CPU time, to compare a change to the bounds (:mod:`solver.bound_set`)
before and after, node for node.

Usage::

    python -m benchmarks.bound_set [--repeat N] [--node-limit N] [--json FILE]

Each row is one node-limited solve (``solve(..., core=False, node_limit=LIMIT)``: the
Python reference search, deterministic under a node limit) of one deal of :data:`CASES`
under one objective; it prints verdict, value, nodes and ``pruned`` per row, and the total
CPU seconds (the least over ``--repeat`` runs). The counts must not change when only the
way the bounds are written changes; the CPU time is the speed of the Python search.
``--json FILE`` must be a new file (an existing one is refused, never overwritten); bad
input is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from model.deal import Deal
from model.files import write_new_text
from model.rules import RuleSet
from solver.exhaustive import solve

LIMIT = 20_000

#: (rule options, players, seeds): small geometries, solo and 2–3 players
CASES: list[tuple[str, int, tuple[int, ...]]] = [
    ("preset=tiny", 1, (1, 2, 3, 4)),
    ("preset=tiny", 2, (1, 2, 3)),
    ("preset=mini", 1, (1, 2, 3)),
    ("preset=mini", 2, (1, 2)),
    ("preset=mini", 3, (1, 2)),
    ("rows=4,values=5,colours=3,copies=1,campfires=1,bridges=1,summits=1,hand_size=4", 1, (1, 2)),
    ("rows=4,values=5,colours=3,copies=1,campfires=1,bridges=1,summits=1,hand_size=4", 2, (1,)),
]
OBJECTIVES = ("none", "waste", "turns")


def rows(limit: int = LIMIT) -> list[dict]:
    """One solve per (case, seed, objective) under ``limit`` nodes: its key, case, verdict,
    value, nodes and pruned."""
    out = []
    for options, players, seeds in CASES:
        rules = RuleSet.from_options(options.split(","))
        for seed in seeds:
            deal = Deal.from_seed(seed, players, rules)
            for objective in OBJECTIVES:
                res = solve(deal, objective, node_limit=limit, core=False)
                out.append({"key": f"{options} p{players} s{seed} {objective}",
                            "case": [options, players, seed, objective],
                            "verdict": res.verdict, "value": res.value,
                            "nodes": res.stats["nodes"], "pruned": res.stats["pruned"]})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="write the rows and the CPU time to this new file")
    ap.add_argument("--node-limit", type=int, default=LIMIT, help="nodes a solve (default %(default)s)")
    args = ap.parse_args(argv)
    if args.repeat < 1 or args.node_limit < 1:
        print("error: --repeat and --node-limit must be at least 1", file=sys.stderr)
        return 2
    if args.json and (Path(args.json).exists() or Path(args.json).is_symlink()):
        print(f"error: --json {args.json} exists; give a new file (it is never overwritten)",
              file=sys.stderr)
        return 2
    best = float("inf")
    table: list[dict] = []
    for _ in range(args.repeat):
        t0 = time.process_time()
        table = rows(args.node_limit)
        best = min(best, time.process_time() - t0)
    for r in table:
        print(f"{r['key']:<100} {r['verdict']:<7} {r['value']!s:>4} {r['nodes']:>7} {r['pruned']}")
    print(f"nodes {sum(r['nodes'] for r in table):,} · CPU {best:.2f} s (least of {args.repeat})")
    if args.json:
        try:
            write_new_text(args.json, json.dumps(
                {"node_limit": args.node_limit, "rows": table, "cpu_s": best}, indent=1))
        except OSError as exc:
            print(f"error: cannot write --json {args.json}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
