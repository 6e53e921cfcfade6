"""Sum ``ascent study report --json`` outputs of the same grid over disjoint deals.

Usage::

    python -m benchmarks.combine_reports A.json B.json [...] [--markdown]

A study run in parts (two sessions, two machines, a database that was not kept) leaves one
report per part. When the parts cover the same groups (player count, rule set, …) on
*disjoint* seeds, their counts add up: won, lost, unknown, error and total of each group, the
paired counts (``deals``, ``won_both``, …, ``differing_seeds``) of each rule set against its
baseline, and the cards-out histogram. The share won and its Wilson interval (unknowns
counted both ways, :func:`studies.stats.wilson_unknown`) and the cards-out median, p95, min
and max are computed again from the sums. Solve-time percentiles cannot be combined from
percentiles and are left out (``None``).

That the seeds are disjoint is the caller's claim (a report does not list its seeds); the
parts must have the same groups and pairs, or this exits with a one-line error (code 2).
Prints JSON (``{"groups": [...], "pairs": [...], "parts": [...]}``) or, with
``--markdown``, the two tables of ``ascent study report --markdown``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Sequence

from studies.report import PAIR_HEAD, TABLE_HEAD, markdown_table, pair_rows, table_rows
from studies.stats import percentile, wilson_unknown

COUNTS = ("won", "lost", "unknown", "error", "total")
PAIR_COUNTS = ("deals", "won_both", "lost_both", "won_base_only", "won_variant_only",
               "unknown_either")
PAIR_KEY = ("players", "objective", "baseline", "variant")
SUMMARY_KEYS = {*COUNTS, "share_won", "interval", "unknown_share", "median_s", "p95_s",
                "max_s", "cards_out"}


class CombineError(Exception):
    """Parts that cannot be added up (a one-line message)."""


def _group_key(g: dict[str, Any]) -> tuple:
    return tuple(sorted((k, v) for k, v in g.items() if k not in SUMMARY_KEYS))


def _cards_out(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    hist: dict[int, int] = {}
    for co in parts:
        for k, v in co.get("histogram", {}).items():
            hist[int(k)] = hist.get(int(k), 0) + v
    values = [k for k, v in sorted(hist.items()) for _ in range(v)]
    return {"median": percentile(values, 50), "p95": percentile(values, 95),
            "min": min(values) if values else None, "max": max(values) if values else None,
            "histogram": {str(k): v for k, v in sorted(hist.items())}}


def combine(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The sum of ``reports`` (each ``{"groups": [...], "pairs": [...]}``, as
    ``ascent study report --json`` prints). Groups and pairs keep the first report's order.
    Raises :class:`CombineError` unless every report has the same groups and pairs."""
    if not reports:
        raise CombineError("no reports to combine")
    keys = [[_group_key(g) for g in r.get("groups", [])] for r in reports]
    pkeys = [[tuple(p[k] for k in PAIR_KEY) for p in r.get("pairs", [])] for r in reports]
    for i in range(1, len(reports)):
        if sorted(keys[i]) != sorted(keys[0]):
            raise CombineError(f"report {i + 1} has other groups than report 1 "
                               "(the same --by and --only are needed)")
        if sorted(pkeys[i]) != sorted(pkeys[0]):
            raise CombineError(f"report {i + 1} has other paired rule sets than report 1")
    groups = []
    for key in keys[0]:
        parts = [g for r in reports for g in r["groups"] if _group_key(g) == key]
        s = {c: sum(int(g[c]) for g in parts) for c in COUNTS}
        lo, hi = wilson_unknown(s["won"], s["unknown"] + s["error"], s["total"])
        groups.append({**{k: parts[0][k] for k in parts[0] if k not in SUMMARY_KEYS}, **s,
                       "share_won": s["won"] / s["total"] if s["total"] else None,
                       "interval": [lo, hi],
                       "unknown_share": (s["unknown"] + s["error"]) / s["total"] if s["total"] else None,
                       "median_s": None, "p95_s": None,
                       "max_s": max((g["max_s"] for g in parts if g.get("max_s") is not None),
                                    default=None),
                       "cards_out": _cards_out([g.get("cards_out", {}) for g in parts])})
    pairs = []
    for key in pkeys[0]:
        parts = [p for r in reports for p in r["pairs"] if tuple(p[k] for k in PAIR_KEY) == key]
        pairs.append({**dict(zip(PAIR_KEY, key)),
                      **{c: sum(int(p[c]) for p in parts) for c in PAIR_COUNTS},
                      "differing_seeds": sorted({s for p in parts for s in p.get("differing_seeds", [])})})
    return {"groups": groups, "pairs": pairs}


def markdown(result: dict[str, Any], by: Sequence[str]) -> str:
    """The group table (columns ``by``, then those of ``ascent study report``) and the paired
    table, in Markdown."""
    summaries = [(tuple(g.get(c) for c in by), g) for g in result["groups"]]
    text = markdown_table([*by, *TABLE_HEAD], table_rows(summaries))
    if result["pairs"]:
        text += "\n\nPaired on the same deals:\n\n" + markdown_table(PAIR_HEAD, pair_rows(result["pairs"]))
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.combine_reports",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("reports", nargs="+", help="ascent study report --json outputs")
    ap.add_argument("--markdown", action="store_true", help="Markdown tables instead of JSON")
    a = ap.parse_args(argv)
    try:
        loaded = []
        for path in a.reports:
            try:
                with open(path, encoding="utf-8") as fh:
                    loaded.append(json.load(fh))
            except (OSError, ValueError) as exc:
                raise CombineError(f"{path}: {exc}") from None
            if not isinstance(loaded[-1], dict) or "groups" not in loaded[-1]:
                raise CombineError(f"{path}: not the JSON of ascent study report --json")
        result = combine(loaded)
    except CombineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if a.markdown:
        first = result["groups"][0] if result["groups"] else {}
        text = markdown(result, [k for k in first if k not in SUMMARY_KEYS])
    else:
        text = json.dumps({**result, "parts": a.reports}, indent=1)
    try:
        print(text, flush=True)
    except BrokenPipeError:  # a reader such as head that stopped early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
