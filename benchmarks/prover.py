"""The clause-learning prover benchmark (issue 39 step 5): what the CP-SAT loss model of
:mod:`solver.cpsat_loss` decides today.

Two tables, each deal in this one process, CPU seconds (``time.process_time``, CP-SAT's
threads included; one CP-SAT worker) and wall seconds recorded with the load average:

* ``ladder``: the ``hand_size=2`` ladder's 7-row rung (:data:`benchmarks.frontier.LADDER`),
  solo, asked "no win at all": ``infeasible`` (a proof of loss), ``win`` (a candidate the
  engine replays as a win), ``nonreplay`` (a candidate that is not a real play: the
  relaxation is too weak there) or ``unknown`` (the limit ran out first).
* ``probe``: the ladder's deals again under a deterministic time limit (CP-SAT's own,
  which the machine's load does not change), for subsets of the rule groups
  (``--probe``: a weaker relaxation is smaller; its infeasibility is still a proof) and
  with the presolve on or off (``--no-presolve``).
* ``waste``: the 7-row waste-ladder rung and the standard game, solo, asked "no win within
  waste B" for B = 0, 1, 2, ... until the first answer that is not ``infeasible``: the root
  bound it proves is the first such B (every smaller B is refuted).

Run: ``nice -n 10 python -m benchmarks.prover --out DIR [--seeds 1-6] [--time-limit 20]``.
Rows go to ``DIR/ladder.jsonl`` and ``DIR/waste.jsonl`` (written whole at the end of each
deal, tmp + rename), machine and load to ``DIR/meta.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

LADDER7 = "rows=7,values=10,colours=3,copies=2,campfires=1,bridges=4,summits=4,hand_size=2"
WASTE = ["rows=7,values=10,colours=3,copies=2,campfires=1,bridges=4,summits=4", ""]


def _rules(text: str):
    from model.rules import RuleSet

    return RuleSet.from_options([x for x in text.split(",") if x]) if text else RuleSet()


def ask(deal: Any, budget: int | None, limit: float, groups: tuple[str, ...] | None = None,
        params: dict[str, Any] | None = None) -> dict[str, Any]:
    """One question to the loss model (``groups``: the rule groups, default all;
    ``params``: CP-SAT settings): its answer, CPU and wall seconds, the groups used."""
    from solver.cpsat_loss import CANDIDATE, solve_loss_model

    c, w = time.process_time(), time.perf_counter()
    status, moves, stats = solve_loss_model(deal, time_limit=limit, budget=budget,
                                            groups=groups, params=params)
    if status == CANDIDATE:
        status = "win" if moves is not None else "nonreplay"
    return {"answer": status, "cpu": round(time.process_time() - c, 2),
            "wall": round(time.perf_counter() - w, 2), "groups": stats.get("groups"),
            "conflicts": stats.get("conflicts"), "variables": stats.get("variables"),
            "load": os.getloadavg()[0]}


def _write(path: Path, rows: list[dict]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in rows))
    tmp.rename(path)


def _range(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    from model.deal import Deal

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seeds", default="1-6")
    ap.add_argument("--waste-seeds", default="1-3")
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--max-budget", type=int, default=6)
    ap.add_argument("--tables", default="ladder,waste", help="ladder, waste, probe")
    ap.add_argument("--probe", default="all,order+heights+cards",
                    help="probe table: rule-group subsets ('+'-joined; 'all'), on --seeds")
    ap.add_argument("--det-time", type=float, default=8.0,
                    help="probe table: CP-SAT deterministic time limit (load-independent)")
    ap.add_argument("--no-presolve", action="store_true", help="probe table: presolve off")
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    _write(a.out / "meta.json", [{"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                   "machine": platform.node(), "cpus": os.cpu_count(),
                                   "load": os.getloadavg(), "time_limit": a.time_limit}])
    if "ladder" in a.tables:
        rows = []
        for seed in _range(a.seeds):
            deal = Deal.from_seed(seed, 1, _rules(LADDER7))
            rows.append({"rules": LADDER7, "seed": seed, **ask(deal, None, a.time_limit)})
            print(json.dumps(rows[-1]), flush=True)
            _write(a.out / "ladder.jsonl", rows)
    if "probe" in a.tables:
        rows = []
        params = {"max_deterministic_time": a.det_time, "cp_model_presolve": not a.no_presolve}
        for seed in _range(a.seeds):
            deal = Deal.from_seed(seed, 1, _rules(LADDER7))
            for gs in a.probe.split(","):
                groups = None if gs == "all" else tuple(gs.split("+"))
                rows.append({"rules": LADDER7, "seed": seed, "probe": gs, **params,
                             **ask(deal, None, 10 * a.det_time + 60, groups, params)})
                print(json.dumps(rows[-1]), flush=True)
                _write(a.out / "probe.jsonl", rows)
    if "waste" in a.tables:
        rows = []
        for rules in WASTE:
            for seed in _range(a.waste_seeds):
                deal = Deal.from_seed(seed, 1, _rules(rules))
                for b in range(a.max_budget + 1):
                    r = {"rules": rules or "standard", "seed": seed, "budget": b,
                         **ask(deal, b, a.time_limit)}
                    rows.append(r)
                    print(json.dumps(r), flush=True)
                    _write(a.out / "waste.jsonl", rows)
                    if r["answer"] != "infeasible":
                        break


if __name__ == "__main__":
    main()
