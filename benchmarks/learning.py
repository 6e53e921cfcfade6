"""The ablation table of the loss proofs by learning and abstraction (``solver.nogood``,
``solver.abstraction``), from runs already made:

* the ``hand_size=2`` ladder of ``python -m benchmarks.frontier --tables ladder --config
  after,neither,no-abstraction,no-nogood`` (a folder with ``ladder-CONFIG.jsonl``);
* the lost games of ``python -m benchmarks.losing_move`` run twice on the same games, with
  the defaults and with ``--switches nogood=0,abstraction=0`` (two folders with
  ``games.jsonl``).

Usage::

    python -m benchmarks.learning --ladder DIR --games-on DIR --games-off DIR [--out FILE]

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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.learning",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--ladder", type=Path, required=True)
    ap.add_argument("--games-on", type=Path, default=None)
    ap.add_argument("--games-off", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    if not a.ladder.is_dir():
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
