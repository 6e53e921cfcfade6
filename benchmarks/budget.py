"""One budget for the whole solve (issue 39 step 2): does ``node_limit`` cap every phase
together? Solves standard solo deals (objective ``waste``, a time limit so that LNS and the
resumed proof run) under a node limit and records the nodes each phase spent, the answer and
CPU seconds. Run it with this checkout (``--label budget``) and with a checkout from before the
budget (``PYTHONPATH=/path/to/old --label before``): before, ``stats["budget"]`` is absent and
only the resumed proof's own nodes are known (``resume_nodes``; the LNS windows counted none).

``nice -n 10 python -m benchmarks.budget --label budget --out benchmarks/results/budget-2026-12-05``
appends one JSON row per solve to ``rows.jsonl`` in ``--out``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--node-limit", type=int, default=300_000)
    ap.add_argument("--time-limit", type=float, default=6.0)
    a = ap.parse_args()
    from model.deal import Deal
    from solver.exhaustive import solve

    a.out.mkdir(parents=True, exist_ok=True)
    for seed in a.seeds:
        c0 = time.process_time()
        res = solve(Deal.from_seed(seed, 1), "waste", time_limit=a.time_limit,
                    node_limit=a.node_limit)
        cpu = time.process_time() - c0
        st = res.stats
        b = st.get("budget")
        row = {"label": a.label, "seed": seed, "node_limit": a.node_limit,
               "time_limit": a.time_limit, "verdict": res.verdict, "value": res.value,
               "bound": res.bound, "optimal": res.optimal, "nodes": st.get("nodes"),
               "resume_nodes": (st.get("resume") or {}).get("nodes"),
               "lns": st.get("lns"), "nodes_spent": None if b is None else b["nodes_spent"],
               "phases": None if b is None else b["phases"], "cpu_s": round(cpu, 3),
               "load": os.getloadavg()[0], "date": _dt.datetime.now(_dt.UTC).isoformat(),
               "machine": f"{platform.machine()} {os.cpu_count()} cores"}
        with open(a.out / "rows.jsonl", "a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps({k: row[k] for k in ("label", "seed", "verdict", "value", "bound",
                                               "nodes", "resume_nodes", "nodes_spent", "cpu_s",
                                               "load")}))


if __name__ == "__main__":
    main()
