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


def _count(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise CombineError(f"{what} is not a count: {v!r}")
    return v


def _check(report: Any, i: int) -> None:
    """Raise :class:`CombineError` unless ``report`` has the shape of a report's JSON."""
    if not isinstance(report, dict) or not isinstance(report.get("groups"), list) \
            or not isinstance(report.get("pairs", []), list):
        raise CombineError(f"report {i}: not the JSON of ascent study report --json")
    for g in report["groups"]:
        if not isinstance(g, dict) or not isinstance(g.get("cards_out", {}), dict):
            raise CombineError(f"report {i}: a group is not an object")
        for c in COUNTS:
            _count(g.get(c), f"report {i}: {c}")
        for k, v in g.get("cards_out", {}).get("histogram", {}).items():
            if not (isinstance(k, str) and k.isascii() and k.isdigit()):
                raise CombineError(f"report {i}: cards-out histogram key {k!r} is not a number")
            _count(v, f"report {i}: cards-out histogram count")
    for q in report.get("pairs", []):
        if not isinstance(q, dict) or any(k not in q for k in PAIR_KEY):
            raise CombineError(f"report {i}: a pair is not an object with {', '.join(PAIR_KEY)}")
        for c in PAIR_COUNTS:
            _count(q.get(c), f"report {i}: {c}")
    keys = [_group_key(g) for g in report["groups"]]
    if len(set(keys)) != len(keys):
        raise CombineError(f"report {i}: a group appears twice")


def combine(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The sum of ``reports`` (each ``{"groups": [...], "pairs": [...]}``, as
    ``ascent study report --json`` prints). Groups and pairs keep the first report's order.

    ``differing_seeds`` is the union of the parts' lists (each report lists at most 20).
    With objective ``waste`` the count of proven optima (``cards_out.optimal``) is summed; the
    median bound cannot be combined and is left out.
    Raises :class:`CombineError` for a report of another shape, parts with other groups or
    pairs, or parts whose lists of differing seeds share a seed (so not disjoint)."""
    if not reports:
        raise CombineError("no reports to combine")
    for i, r in enumerate(reports, 1):
        _check(r, i)
    keys = [[_group_key(g) for g in r["groups"]] for r in reports]
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
        s = {c: sum(g[c] for g in parts) for c in COUNTS}
        if s["won"] + s["lost"] + s["unknown"] + s["error"] != s["total"]:
            raise CombineError(f"group {dict(key)}: won + lost + unknown + error is not total")
        lo, hi = wilson_unknown(s["won"], s["unknown"] + s["error"], s["total"])
        cards = _cards_out([g.get("cards_out", {}) for g in parts])
        optimal = [g["cards_out"]["optimal"] for g in parts if "optimal" in g.get("cards_out", {})]
        if optimal:
            cards["optimal"] = sum(_count(x, "cards_out.optimal") for x in optimal)
        groups.append({**{k: parts[0][k] for k in parts[0] if k not in SUMMARY_KEYS}, **s,
                       "share_won": s["won"] / s["total"] if s["total"] else None,
                       "interval": [lo, hi],
                       "unknown_share": (s["unknown"] + s["error"]) / s["total"] if s["total"] else None,
                       "median_s": None, "p95_s": None,
                       "max_s": max((g["max_s"] for g in parts
                                     if isinstance(g.get("max_s"), (int, float))), default=None),
                       "cards_out": cards})
    pairs = []
    for key in pkeys[0]:
        parts = [p for r in reports for p in r["pairs"] if tuple(p[k] for k in PAIR_KEY) == key]
        seen: set = set()
        for q in parts:
            mine = set(q.get("differing_seeds") or [])
            if mine & seen:
                raise CombineError(f"{key[3]} ({key[0]} players): seed(s) {sorted(mine & seen)} "
                                   "differ in two parts, so the parts are not disjoint")
            seen |= mine
        pairs.append({**dict(zip(PAIR_KEY, key)),
                      **{c: sum(p[c] for p in parts) for c in PAIR_COUNTS},
                      "differing_seeds": sorted(seen)})
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
        paths = [os.path.realpath(x) for x in a.reports]
        if len(set(paths)) != len(paths):
            raise CombineError("a report is given twice: the parts must be on disjoint seeds")
        loaded = []
        for path in a.reports:
            try:
                with open(path, encoding="utf-8") as fh:
                    loaded.append(json.load(fh))
            except (OSError, ValueError) as exc:
                raise CombineError(f"{path}: {exc}") from None
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
