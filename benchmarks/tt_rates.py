"""How the transposition table is used: the re-expansion ratio and the overwrite rate of
the exhaustive search, measured on the Python reference search (the compiled core,
``solver/_core.c``, counts only nodes, hits and evictions; it visits the same nodes in the
same order, so the figures are the core's too at the same table size).

Run ``nice -n 10 python -m benchmarks.tt_rates --help``. For each deal (a rung of
:data:`benchmarks.waste_ladder.RUNGS` and a seed, solo, hand 5) and table size, one
:class:`solver.exhaustive.Search` with ``core=False`` runs its own schedule for objective
``waste`` (:meth:`~solver.exhaustive.Search.run`: the beams, then the bottom-up/top-down
proof of :func:`solver.frontier.improve` on one table) within a node limit, with the table
and the move generation instrumented from outside (nothing in :mod:`solver` changes):

* **expansions**: nodes whose moves are generated (past the table's and the bounds' cuts);
  **distinct**: the different table keys (learned keys, :mod:`solver.nogood`) among them;
  the **re-expansion ratio** is expansions / distinct (1.0: every state expanded once).
* each re-expansion by cause: the table held the state's entry but its bound was not above
  the budget (**budget**: a larger budget, or a smaller one after a slice was cut, asks
  again), the entry had been **evicted**, or there was **no entry** (the state's earlier
  search found a win, or was cut by a slice or is still on the path).
* table writes: **new** keys and **raised** entries (a key already there gets a higher
  bound); the **overwrite rate** is raised / writes. **Evicted** entries (the policy drops
  the older half when the table is full) per new key is the replacement rate.

Rows go to ``--out`` (``rows.jsonl``, resumed) and ``report.md``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import time
from pathlib import Path
from typing import Any


class CountingTable(dict):
    """The Python search's table (``Search.tt``, a dict key → lower bound) with counters:
    writes of new keys, raised entries, and the keys evicted (dropped by ``del``)."""

    def __init__(self) -> None:
        super().__init__()
        self.new = 0
        self.raised = 0
        self.evicted_keys: set[bytes] = set()

    def __setitem__(self, key, value) -> None:
        if key in self:
            self.raised += 1
        else:
            self.new += 1
        super().__setitem__(key, value)

    def __delitem__(self, key) -> None:
        self.evicted_keys.add(key)
        super().__delitem__(key)


def measure(rules_text: str, seed: int, table_size: int, node_limit: int) -> dict[str, Any]:
    """One deal, one table size: the counters of the module docstring."""
    from benchmarks.frontier import _rules
    from model.deal import Deal
    from solver.exhaustive import Search
    from solver.state import Switches

    rules = _rules(rules_text + ",hand_size=5" if "standard" not in rules_text else rules_text)
    deal = Deal.from_seed(seed, 1, rules)
    sw = Switches()
    sw.core = False
    sw.table_size = table_size
    s = Search(deal, "waste", sw, None, node_limit)
    table = CountingTable()
    s.tt = table
    seen: set[bytes] = set()
    cause = {"budget": 0, "evicted": 0, "no_entry": 0}
    expansions = 0
    orig_children = s.ordered_children

    def children(flags, key):
        nonlocal expansions
        expansions += 1
        k = key if key is not None else s.learned_key(flags)
        if k in seen:
            if k in table:
                cause["budget"] += 1
            elif k in table.evicted_keys:
                cause["evicted"] += 1
            else:
                cause["no_entry"] += 1
        else:
            seen.add(k)
        return orig_children(flags, key)

    s.ordered_children = children  # type: ignore[method-assign]
    t = time.process_time()
    res = s.run()
    secs = time.process_time() - t
    writes = table.new + table.raised
    distinct = len(seen)
    return {"rules": rules_text, "seed": seed, "table_size": table_size,
            "node_limit": node_limit, "verdict": res.verdict, "value": res.value,
            "bound": res.bound, "optimal": res.optimal, "nodes": s.nodes,
            "expansions": expansions, "distinct": distinct,
            "reexpansion_ratio": round(expansions / distinct, 3) if distinct else None,
            "reexpanded": cause, "writes_new": table.new, "writes_raised": table.raised,
            "overwrite_rate": round(table.raised / writes, 3) if writes else None,
            "evictions": s.tt_evictions,
            "evicted_per_new": round(s.tt_evictions / table.new, 3) if table.new else None,
            "table_entries_end": len(table), "cpu_seconds": round(secs, 1)}


def report(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """The markdown table of the rows."""
    out = ["# The transposition table: re-expansion and overwrite rates", "",
           f"Run {meta['date']} on {meta['machine']}; load average {meta['load_start']} at the "
           f"start, {meta['load_end']} at the end. The Python reference search "
           "(`core=False`), objective waste, solo, hand 5, its own schedule within the node "
           "limit.", "",
           "| deal | table size | nodes | verdict (best/bound) | expansions | distinct | "
           "re-expansion ratio | re-expanded: budget / evicted / no entry | writes: new / "
           "raised | overwrite rate | evicted | CPU s |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        c = r["reexpanded"]
        name = r["rules"].split(",")[0] if "preset" not in r["rules"] else "standard"
        out.append(
            f"| {name} seed {r['seed']} | {r['table_size']:,} | {r['nodes']:,} | "
            f"{r['verdict']} ({r['value']}/{r['bound']}{', optimal' if r['optimal'] else ''}) | "
            f"{r['expansions']:,} | {r['distinct']:,} | {r['reexpansion_ratio']} | "
            f"{c['budget']:,} / {c['evicted']:,} / {c['no_entry']:,} | "
            f"{r['writes_new']:,} / {r['writes_raised']:,} | {r['overwrite_rate']} | "
            f"{r['evictions']:,} | {r['cpu_seconds']} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    from benchmarks.waste_ladder import RUNGS

    ap = argparse.ArgumentParser(prog="python -m benchmarks.tt_rates",
                                 description="Re-expansion ratio and overwrite rate of the "
                                             "transposition table (Python reference search).")
    ap.add_argument("--deals", default="2:301,3:301",
                    help="RUNG:SEED,... (RUNG: index of benchmarks.waste_ladder.RUNGS)")
    ap.add_argument("--table-sizes", default="1000000,65536",
                    help="table entries, comma-separated")
    ap.add_argument("--nodes", type=int, default=2_000_000, help="node limit a run")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    jobs = []
    for spec in a.deals.split(","):
        try:
            k, seed = (int(x) for x in spec.split(":"))
            rung = RUNGS[k]
        except (ValueError, IndexError):
            ap.error(f"deal {spec!r} is not RUNG:SEED with RUNG 0..{len(RUNGS) - 1}")
        for size in a.table_sizes.split(","):
            if not size.isdigit() or int(size) < 1024:
                ap.error(f"table size {size!r} is not a whole number ≥ 1024")
            jobs.append((rung, seed, int(size)))
    now = _dt.datetime.now(_dt.UTC)
    out = Path(a.out or f"benchmarks/results/tt-rates-{now:%Y%m%d-%H%M}")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "rows.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.exists() else []
    done = {(r["rules"], r["seed"], r["table_size"], r["node_limit"]) for r in rows}
    load0 = " ".join(f"{x:.1f}" for x in os.getloadavg())
    with path.open("a") as f:
        for rung, seed, size in jobs:
            if (rung, seed, size, a.nodes) in done:
                continue
            r = measure(rung, seed, size, a.nodes)
            rows.append(r)
            f.write(json.dumps(r) + "\n")
            f.flush()
            print(json.dumps(r), flush=True)
    meta = {"date": f"{now:%Y-%m-%d %H:%M} UTC", "machine": f"{platform.machine()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}",
            "load_start": load0, "load_end": " ".join(f"{x:.1f}" for x in os.getloadavg())}
    tmp = out / "report.md.tmp"
    tmp.write_text(report(rows, meta))
    tmp.replace(out / "report.md")
    print((out / "report.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
