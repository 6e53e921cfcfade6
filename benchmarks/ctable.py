"""The compiled core's transposition table at work (issue 39 step 3): bytes an entry, entries
in 1 GB, nodes a CPU second, the overflow share and the write/replacement rates, on the
rung deals of :data:`benchmarks.waste_ladder.RUNGS` at a fixed node limit.

For each deal (a rung and a seed, solo, hand 5) and table size (entries), one
:class:`solver.exhaustive.Search` with the compiled core runs its own schedule for objective
``waste`` (:meth:`~solver.exhaustive.Search.run`) within the node limit. Where the core has
``tt_stats`` (the exact table of ``solver/_core.c``) its counters are recorded: slots and
bytes (the slot array and the overflow arena), entries, keys stored inline / in the
overflow arena / unpacked, writes of new keys and raised entries, entries replaced by the
policy and writes skipped, DFS expansions, and with ``--track`` the distinct expanded keys
(so the re-expansion ratio, expansions / distinct, as :mod:`benchmarks.tt_rates` measures it
on the Python reference). Without it (an older core: the 128-bit
fingerprint table) the bytes are those of its layout: 32-byte slots in a power-of-two array
at most half full.

Run ``nice -n 10 python -m benchmarks.ctable --help``. Rows go to ``--out`` (``rows.jsonl``)
and ``report.md``; CPU seconds are the process's (:func:`time.process_time`).
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

GB = 1 << 30


def _old_table_bytes(entries: int) -> int:
    """Bytes of the fingerprint table (32-byte slots, power-of-two capacity, at most half
    full, 4,096 at least) holding ``entries``."""
    cap = 1 << 12
    while entries * 2 > cap:
        cap *= 2
    return 32 * cap


def measure(rules_text: str, seed: int, table_size: int, node_limit: int,
            track: bool = False, python_schedule: bool = False) -> dict[str, Any]:
    """One deal, one table size: the counters of the module docstring."""
    from benchmarks.frontier import _rules
    from model.deal import Deal
    from solver.exhaustive import Search
    from solver.state import Switches

    rules = _rules(rules_text + ",hand_size=5" if "standard" not in rules_text else rules_text)
    deal = Deal.from_seed(seed, 1, rules)
    sw = Switches()
    sw.table_size = table_size
    s = Search(deal, "waste", sw, None, node_limit)
    core = s.core()
    if track and core is not None and hasattr(core, "track_expansions"):
        core.track_expansions(True)  # an exact set of the expanded keys beside the table
    t = time.process_time()
    if python_schedule:  # the schedule the Python reference runs: no wide beams
        from solver.beam import DEFAULT_BEAM_SCHEDULE
        from solver.schedule import Schedule

        res = s.run(Schedule(DEFAULT_BEAM_SCHEDULE, ()))
    else:
        res = s.run()
    secs = time.process_time() - t
    row: dict[str, Any] = {
        "rules": rules_text, "seed": seed, "table_size": table_size, "node_limit": node_limit,
        "verdict": res.verdict, "value": res.value, "bound": res.bound, "optimal": res.optimal,
        "nodes": s.nodes, "cpu_seconds": round(secs, 2),
        "nodes_per_cpu_s": round(s.nodes / secs) if secs else None,
        "entries": len(s.tt), "hits": res.stats.get("table_hits"),
        "evictions": res.stats.get("table_evictions")}
    st = core.tt_stats() if core is not None and hasattr(core, "tt_stats") else None
    if st is not None:
        row["table"] = st
        row["layout"] = "exact"
        row["bytes"] = st["bytes"]
        n = st["entries"]
        row["bytes_per_entry"] = round(st["bytes"] / n, 1) if n else None
        row["overflow_share"] = round(st["overflow"] / n, 5) if n else None
        w = st["writes_new"] + st["writes_raised"]
        row["overwrite_rate"] = round(st["writes_raised"] / w, 3) if w else None
        row["replaced_per_new"] = round(st["replaced"] / st["writes_new"], 3) if st["writes_new"] else None
        row["expansions_per_new"] = round(st["expansions"] / st["writes_new"], 3) if st["writes_new"] else None
        # at the table's full load (3/4 of its slots) plus the overflow bytes an entry
        over = st["arena_used"] / n if n else 0.0
        row["entries_per_gb_full"] = int(GB / (st["slot_bytes"] * 4 / 3 + over))
        if track:
            exp, distinct = core.expanded()
            row["distinct_expanded"] = distinct
            row["reexpansion_ratio"] = round(exp / distinct, 3) if distinct else None
    else:
        n = len(s.tt)
        row["layout"] = "fingerprint"
        row["bytes"] = _old_table_bytes(n)
        row["bytes_per_entry"] = round(row["bytes"] / n, 1) if n else None
        # fullest: half the slots (its grow doubles at half load), 32 bytes a slot
        row["entries_per_gb_full"] = GB // 64
    return row


def report(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """The markdown table of the rows."""
    out = ["# The compiled core's transposition table", "",
           f"Run {meta['date']} on {meta['machine']}; load average {meta['load_start']} at the "
           f"start, {meta['load_end']} at the end. The compiled core, objective waste, solo, "
           "hand 5, its own schedule within the node limit. CPU seconds.", "",
           "Layout `fingerprint`: the table before (128-bit fingerprints, run from the main "
           "checkout's build); `exact`: the packed exact table. Schedule `py`: the Python "
           "reference's (no wide beams). Bytes/entry: the table's bytes at the end over its "
           "entries; entries in 1 GB: at full load (fingerprint: half of 32-byte slots).", "",
           "| tag | deal | layout | sched | table size | nodes | verdict (best/bound) | CPU s | "
           "nodes/CPU s | entries | bytes/entry | entries in 1 GB (full) | overflow share | "
           "overwrite rate | replaced/new | re-expansion ratio | evictions | load |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        name = r["rules"].split(",")[0] if "preset" not in r["rules"] else "standard"
        out.append(
            f"| {r.get('tag', '')} | {name} seed {r['seed']} | {r['layout']} | "
            f"{'py' if r.get('python_schedule') else 'default'} | {r['table_size']:,} | {r['nodes']:,} | "
            f"{r['verdict']} ({r['value']}/{r['bound']}{', optimal' if r['optimal'] else ''}) | "
            f"{r['cpu_seconds']} | {r['nodes_per_cpu_s']:,} | {r['entries']:,} | "
            f"{r['bytes_per_entry']} | {r['entries_per_gb_full']:,} | {r.get('overflow_share', '-')} | "
            f"{r.get('overwrite_rate', '-')} | {r.get('replaced_per_new', '-')} | "
            f"{r.get('reexpansion_ratio', '-')} | {r['evictions']:,} | {r.get('load', '')} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--out DIR --deals 2:301,3:301 --table-sizes N,M --nodes N``."""
    from benchmarks.waste_ladder import RUNGS

    ap = argparse.ArgumentParser(prog="python -m benchmarks.ctable",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--deals", default="2:301,3:301",
                    help="RUNG:SEED,... (RUNG: index of benchmarks.waste_ladder.RUNGS)")
    ap.add_argument("--table-sizes", default="10000000,65536", help="entries, comma-separated")
    ap.add_argument("--nodes", type=int, default=1_000_000, help="node limit a run")
    ap.add_argument("--out", required=True)
    ap.add_argument("--tag", default="", help="a label kept in each row (before/after)")
    ap.add_argument("--python-schedule", action="store_true",
                    help="the Python reference's schedule (no wide beams): while the table "
                         "is not full, the nodes of benchmarks.tt_rates")
    ap.add_argument("--track", action="store_true",
                    help="count the distinct expanded keys (the re-expansion ratio; memory "
                         "grows with them, and nodes/s is not comparable)")
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
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "rows.jsonl"
    load0 = " ".join(f"{x:.1f}" for x in os.getloadavg())
    with path.open("a") as f:
        for rung, seed, size in jobs:
            r = measure(rung, seed, size, a.nodes, a.track, a.python_schedule)
            r["python_schedule"] = a.python_schedule
            r["tag"] = a.tag
            r["date"] = f"{_dt.datetime.now(_dt.UTC):%Y-%m-%d %H:%M} UTC"
            r["load"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
            f.write(json.dumps(r) + "\n")
            f.flush()
            print(json.dumps(r), flush=True)
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
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
