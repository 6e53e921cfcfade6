"""Reports over a study database: tables per group, paired differences, plots.

* :func:`load_rows` reads the ``solves`` table of ``ascent study run``;
* :func:`group_summary` gives per group the counts (``won``, ``lost``, ``unknown``,
  ``error``, ``total``), the share won with its 95 % Wilson interval with unknowns (and errors)
  counted both ways (:func:`studies.stats.wilson_unknown`), the unknown share, median and p95
  seconds, and the cards out of the game of the wins (their distribution; with objective
  ``waste`` the best found per deal and how many are proven optimal, with the proven bounds);
* :func:`paired` compares each rule set with the baseline rule set of the same player count
  and objective on the deals both have: won under both, lost under both, won only under one,
  unknown under either;
* :func:`plots` draws, with matplotlib, winnability by player count and by rule set (with
  intervals), the cards-out histogram per player count and the solve-time CDF, each as PNG
  and SVG (written whole: a temporary file, then a rename).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from model.files import link_new
from model.rules import ALL_CHOICES, INT_RANGES
from studies.runner import read_only_uri
from studies.stats import percentile, wilson_unknown

if TYPE_CHECKING:
    from rich.console import Console

GROUP_COLUMNS = ("players", "variant", "objective", "time_limit", "solver_version", "seed")


class ReportError(Exception):
    """Bad report input (database, ``--by``); a one-line message."""


# ---- rows -------------------------------------------------------------------------------


def load_rows(db_path: str | os.PathLike) -> list[dict[str, Any]]:
    """Every row of the ``solves`` table as a dict (rule options of the ``rules`` JSON
    added as keys). Raises :class:`ReportError` for a missing file, a file that is not
    SQLite, or a database without a study table. Opens the database read-only."""
    path = Path(db_path)
    if not path.is_file():
        raise ReportError(f"{path}: no such database")
    with open(path, "rb") as fh:
        if fh.read(16) != b"SQLite format 3\x00":
            raise ReportError(f"{path}: not an SQLite database")
    try:
        con = sqlite3.connect(read_only_uri(path), uri=True, timeout=30)
        con.row_factory = sqlite3.Row
        try:
            rows = [dict(r) for r in con.execute("SELECT * FROM solves")]
        finally:
            con.close()
    except sqlite3.OperationalError as exc:
        raise ReportError(f"{path}: not a study database ({exc})") from None
    for r in rows:
        try:
            r.update({k: v for k, v in json.loads(r["rules"]).items() if k not in r})
        except (TypeError, ValueError):
            pass
    return rows


def parse_by(by: str) -> list[str]:
    """The ``--by`` columns; raises :class:`ReportError` for an unknown one."""
    cols = [c.strip() for c in by.split(",") if c.strip()]
    valid = [*GROUP_COLUMNS, "preset", *INT_RANGES, *ALL_CHOICES]
    for c in cols:
        if c not in valid:
            raise ReportError(f"--by: unknown column {c!r}; valid: {', '.join(valid)}")
    return cols


#: ``--only`` columns whose values are whole numbers (or ranges ``A-B`` of them)
WHOLE_COLUMNS = frozenset({"players", "seed", *INT_RANGES})


def _whole(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 20


def _seconds(text: str) -> float | None:
    """``text`` as a finite, non-negative number of seconds, or ``None``."""
    if not text.isascii():
        return None
    try:
        x = float(text)
    except ValueError:
        return None
    return x if x == x and 0 <= x < float("inf") else None


def parse_only(items: Sequence[str]) -> list[tuple[str, Any]]:
    """``--only K=V1,V2`` filters (``K=A-B`` for a range of whole numbers, e.g. seeds; empty
    values between commas are ignored). Returns ``(column, predicate)`` pairs; raises
    :class:`ReportError` for a bad item: an unknown column, no value, a value that is not a
    whole number where the column holds them (``players``, ``seed`` and the whole-number rule
    options), a range that runs backwards, or a ``time_limit`` that is not a number of
    seconds (compared as a number: ``10`` and ``10.0`` are the same)."""
    valid = [*GROUP_COLUMNS, "preset", *INT_RANGES, *ALL_CHOICES, "verdict"]
    out = []
    for item in items:
        k, sep, vs = item.partition("=")
        k = k.strip()
        if not sep or k not in valid:
            raise ReportError(f"--only takes COLUMN=V1,V2 with a column of: {', '.join(valid)}; "
                              f"not {item!r}")
        values = [x.strip() for x in vs.split(",") if x.strip()]
        if not values:
            raise ReportError(f"--only {item}: give at least one value after '='")
        wanted: set[str] = set()
        ranges: list[tuple[int, int]] = []
        seconds: set[float] = set()
        for v in values:
            a, dash, b = v.partition("-")
            if k == "time_limit":
                x = _seconds(v)
                if x is None:
                    raise ReportError(f"--only {item}: time_limit takes seconds (one number "
                                      f"each), not {v!r}")
                seconds.add(x)
            elif dash and _whole(a.strip()) and _whole(b.strip()):
                lo, hi = int(a), int(b)
                if lo > hi:
                    raise ReportError(f"--only {item}: the range {v} runs backwards "
                                      f"(write {hi}-{lo})")
                ranges.append((lo, hi))
            elif k in WHOLE_COLUMNS and not _whole(v):
                raise ReportError(f"--only {item}: {k} takes whole numbers or ranges A-B, "
                                  f"not {v!r}")
            else:
                wanted.add(str(int(v)) if k in WHOLE_COLUMNS else v)

        def pred(x: Any, wanted=wanted, ranges=ranges, seconds=seconds) -> bool:
            if seconds:
                return isinstance(x, (int, float)) and float(x) in seconds
            if str(x) in wanted:
                return True
            return isinstance(x, int) and any(a <= x <= b for a, b in ranges)
        out.append((k, pred))
    return out


def _sort_key(v: Any) -> tuple:
    return (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v))


def groups(rows: Iterable[dict[str, Any]], by: Sequence[str]) -> dict[tuple, list[dict]]:
    """Rows grouped by the values of ``by`` (sorted: numbers first, then text)."""
    out: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        out[tuple(r.get(c) for c in by)].append(r)
    return dict(sorted(out.items(), key=lambda kv: tuple(_sort_key(v) for v in kv[0])))


def group_summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts, share won with its Wilson interval (unknowns and errors counted both ways),
    unknown share, seconds and cards out of ``rows`` (see the module docstring)."""
    c = Counter(r["verdict"] for r in rows)
    won, lost, unknown, error = c["win"], c["loss"], c["unknown"], c["error"]
    total = len(rows)
    lo, hi = wilson_unknown(won, unknown + error, total)
    secs = [float(r["seconds"]) for r in rows if r.get("seconds") is not None]
    wins = [r for r in rows if r["verdict"] == "win" and r.get("cards_out") is not None]
    out = [int(r["cards_out"]) for r in wins]
    waste = [r for r in wins if r.get("objective") == "waste"]
    summary: dict[str, Any] = {
        "won": won, "lost": lost, "unknown": unknown, "error": error, "total": total,
        "share_won": won / total if total else None,
        "interval": [lo, hi],
        "unknown_share": (unknown + error) / total if total else None,
        "median_s": percentile(secs, 50), "p95_s": percentile(secs, 95),
        "max_s": max(secs) if secs else None,
        "cards_out": {
            "median": percentile(out, 50), "p95": percentile(out, 95),
            "min": min(out) if out else None, "max": max(out) if out else None,
            "histogram": {str(k): v for k, v in sorted(Counter(out).items())},
        },
    }
    if waste:
        summary["cards_out"]["optimal"] = sum(1 for r in waste if r.get("optimal"))
        bounds = [int(r["bound"]) for r in waste if r.get("bound") is not None]
        summary["cards_out"]["bound_median"] = percentile(bounds, 50)
    return summary


def baseline(variants: Iterable[str]) -> str | None:
    """The baseline rule set among ``variants`` (``describe()`` texts): the one with the
    fewest changed options (ties: the first in sorted order)."""
    vs = sorted(set(variants))
    return min(vs, key=lambda v: (len(v.split()), v)) if vs else None


def paired(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each rule set against the baseline (:func:`baseline`) of its player count and
    objective, on the deals (seeds) both have: ``deals``, ``won_both``, ``lost_both``,
    ``won_base_only`` (won under the baseline, lost under the rule set), ``won_variant_only``,
    ``unknown_either`` (unknown or error under either) and the seeds that differ (up to 20)."""
    by: dict[tuple, dict[str, dict[int, str]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        by[(r["players"], r["objective"])][r["variant"]][r["seed"]] = r["verdict"]
    out = []
    for (players, objective), variants in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        base = baseline(variants)
        if base is None:  # (variants is never empty here)
            continue
        for v in sorted(variants):
            if v == base:
                continue
            a, b = variants[base], variants[v]
            seeds = sorted(set(a) & set(b))
            res: Counter[str] = Counter()
            differ = []
            for s in seeds:
                va, vb = a[s], b[s]
                if va not in ("win", "loss") or vb not in ("win", "loss"):
                    res["unknown_either"] += 1
                elif va == vb:
                    res["won_both" if va == "win" else "lost_both"] += 1
                else:
                    res["won_base_only" if va == "win" else "won_variant_only"] += 1
                    differ.append(s)
            out.append({"players": players, "objective": objective, "baseline": base,
                        "variant": v, "deals": len(seeds),
                        **{k: res[k] for k in ("won_both", "lost_both", "won_base_only",
                                               "won_variant_only", "unknown_either")},
                        "differing_seeds": differ[:20]})
    return out


# ---- output -----------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x: Any, fmt: str = "{:.3f}") -> str:
    return "-" if x is None else fmt.format(x)


TABLE_HEAD = ["won", "lost", "unknown", "error", "total", "share won", "95% interval",
              "unknown share", "median s", "p95 s", "cards out median (min-max)"]


SHORT_HEAD = ["won", "lost", "unk", "err", "n", "won %", "95% CI", "unk %", "med s", "p95 s",
              "out med (range)"]


def table_rows(summaries: Sequence[tuple[tuple, dict]]) -> list[list[str]]:
    """Text cells of the group table (the group's values, then :data:`TABLE_HEAD`)."""
    out = []
    for key, s in summaries:
        co = s["cards_out"]
        cards = "-" if co["median"] is None else f"{co['median']} ({co['min']}-{co['max']})"
        if "optimal" in co:
            cards += f"; {co['optimal']} optimal"
        out.append([*(str(k) for k in key), str(s["won"]), str(s["lost"]), str(s["unknown"]),
                    str(s["error"]), str(s["total"]), _pct(s["share_won"]),
                    f"{_pct(s['interval'][0])}–{_pct(s['interval'][1])}",
                    _pct(s["unknown_share"]), _num(s["median_s"]), _num(s["p95_s"]), cards])
    return out


PAIR_HEAD = ["players", "objective", "baseline", "rule set", "deals", "won both", "lost both",
             "won only under baseline", "won only under rule set", "unknown either"]


def pair_rows(pairs: Sequence[dict[str, Any]]) -> list[list[str]]:
    return [[str(p["players"]), p["objective"], p["baseline"], p["variant"], str(p["deals"]),
             str(p["won_both"]), str(p["lost_both"]), str(p["won_base_only"]),
             str(p["won_variant_only"]), str(p["unknown_either"])] for p in pairs]


def markdown_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table (numbers right-aligned)."""
    def num(cell: str) -> bool:
        return cell[:1].isdigit() or cell == "-"
    align = ["---:" if rows and all(num(r[i]) for r in rows) else "---" for i in range(len(head))]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


#: What the tables' columns mean (printed below them, in the terminal and in Markdown).
LEGEND = ("Share won: 95 % Wilson interval, unknowns counted both ways (lower end: as losses; "
          "upper end: as wins). Cards out: wins only; with objective none the plan found (not "
          "minimal), with waste the best found (optimal when proven).")


def report(db_path: str, by: str = "players,variant,objective", plots_dir: str | None = None,
           as_json: bool = False, markdown: bool = False, echo=None,
           only: Sequence[str] = (), console: Console | None = None) -> dict[str, Any]:
    """Print the report of ``db_path`` (rich tables, Markdown or JSON) and draw the plots
    into ``plots_dir``; ``only``: ``--only`` filters (:func:`parse_only`). Returns
    ``{"groups": [...], "pairs": [...]}``. ``echo`` prints a line (default
    :func:`click.echo`), ``console`` the rich tables (default: a console on standard
    output).

    Raises :class:`ReportError` for a bad database, ``--by`` or plots folder.
    """
    import click

    echo = echo or click.echo
    cols = parse_by(by)
    filters = parse_only(only)
    rows = load_rows(db_path)
    if not rows:
        raise ReportError(f"{db_path}: the study database has no rows yet")
    rows = [r for r in rows if all(pred(r.get(k)) for k, pred in filters)]
    if not rows:
        raise ReportError(f"{db_path}: no rows match --only {' '.join(only)}")
    summaries = [(k, group_summary(g)) for k, g in groups(rows, cols).items()]
    pairs = paired(rows)
    grouped = groups(rows, cols)
    for col, what, one in (("variant", "rule sets", "rule set"),
                           ("objective", "objectives", "objective")):
        n = max((len({r.get(col) for r in g}) for g in grouped.values()), default=0)
        if col not in cols and n > 1:
            echo(f"note: a group pools up to {n} {what} (the same deals counted once per "
                 f"{one}); add {col} to --by, or --only {col}=…, to tell them apart", err=True)
    result = {"groups": [{**dict(zip(cols, k)), **s} for k, s in summaries], "pairs": pairs}
    written: list[str] = []
    if plots_dir is not None:
        written = plots(rows, plots_dir)
    if as_json:
        echo(json.dumps(result, indent=1, sort_keys=False))
        return result
    head = [*cols, *TABLE_HEAD]
    import sys

    if markdown or not sys.stdout.isatty():  # plain Markdown in a pipe or a file
        echo(markdown_table(head, table_rows(summaries)))
        if pairs:
            echo("\nPaired on the same deals:\n")
            echo(markdown_table(PAIR_HEAD, pair_rows(pairs)))
        echo(f"\n{len(rows)} solves. {LEGEND}")
    else:
        from rich.console import Console
        from rich.table import Table

        out = console or Console()
        t = Table(title=f"{db_path}: {len(rows)} solves", title_justify="left")
        for h in [*cols, *SHORT_HEAD]:
            t.add_column(h, justify="right" if h not in ("variant", "objective") else "left",
                         overflow="fold")
        for r in table_rows(summaries):
            t.add_row(*r)
        out.print(t)
        if pairs:
            p = Table(title="Paired on the same deals", title_justify="left")
            for h in PAIR_HEAD:
                p.add_column(h, overflow="fold")
            for r in pair_rows(pairs):
                p.add_row(*r)
            out.print(p)
        out.print(LEGEND, highlight=False)
    if written:
        echo(f"plots: {', '.join(written)}", err=True)
    return result


# ---- plots ------------------------------------------------------------------------------


#: the plots :func:`plots` may draw, each as PNG and SVG
PLOT_NAMES = ("winnability_by_players", "winnability_by_rule", "cards_out_by_players",
              "solve_time_cdf")


def _save(fig, folder: Path, name: str) -> list[str]:
    """Write ``fig`` as NAME.png and NAME.svg, each whole or not at all, never over an
    existing file (a hard link from a temporary file: raises :class:`ReportError` if the
    name was taken meanwhile)."""
    out = []
    for ext in ("png", "svg"):
        dest = folder / f"{name}.{ext}"
        try:
            def draw(fh: Any, ext: str = ext) -> None:
                fig.savefig(fh, format=ext, dpi=110, bbox_inches="tight",
                            metadata={"Date": None} if ext == "svg" else None)

            link_new(dest, draw)
        except FileExistsError:
            raise ReportError(f"{dest}: exists; plots never overwrite a file "
                              "(give a new --plots folder)") from None
        out.append(str(dest))
    return out


def plots(rows: Sequence[dict[str, Any]], plots_dir: str | os.PathLike) -> list[str]:
    """Draw the four plots of the module docstring into ``plots_dir`` (created if missing);
    returns the files written. Raises :class:`ReportError` if the folder cannot be made or
    already holds one of the plot files (:data:`PLOT_NAMES`; nothing is overwritten)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(plots_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"{folder}: cannot make the plots folder ({exc.strerror})") from None
    if not os.access(folder, os.W_OK):
        raise ReportError(f"{folder}: the plots folder is not writable")
    taken = [folder / f"{n}.{e}" for n in PLOT_NAMES for e in ("png", "svg")
             if (folder / f"{n}.{e}").exists()]
    if taken:
        raise ReportError(f"{taken[0]}: exists; plots never overwrite a file "
                          "(give a new --plots folder)")
    written: list[str] = []
    objectives = sorted({r["objective"] for r in rows})
    main_obj = "none" if "none" in objectives else objectives[0]
    rs = [r for r in rows if r["objective"] == main_obj]
    variants = sorted({r["variant"] for r in rs}, key=lambda v: (len(v.split()), v))
    players = sorted({r["players"] for r in rs})

    def interval(sub):
        s = group_summary(sub)
        return s["share_won"], s["interval"]

    # 1. winnability by player count, one line per rule set
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, v in enumerate(variants):
        xs, ys, lo, hi = [], [], [], []
        for p in players:
            sub = [r for r in rs if r["variant"] == v and r["players"] == p]
            if not sub:
                continue
            share, (a, b) = interval(sub)
            xs.append(p + (i - (len(variants) - 1) / 2) * 0.06)
            ys.append(100 * share)
            lo.append(100 * (share - a))
            hi.append(100 * (b - share))
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=v)
    ax.set_xlabel("players")
    ax.set_ylabel("deals won (%)")
    ax.set_xticks(players)
    ax.set_title(f"Winnability by player count (objective {main_obj}; 95 % Wilson, unknowns both ways)",
                 fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    written += _save(fig, folder, "winnability_by_players")
    plt.close(fig)

    # 2. winnability by rule set, one marker per player count
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * max(1, len(variants)) * 1.4))
    for j, p in enumerate(players):
        ys, xs, lo, hi = [], [], [], []
        for i, v in enumerate(variants):
            sub = [r for r in rs if r["variant"] == v and r["players"] == p]
            if not sub:
                continue
            share, (a, b) = interval(sub)
            ys.append(i + (j - (len(players) - 1) / 2) * 0.12)
            xs.append(100 * share)
            lo.append(100 * (share - a))
            hi.append(100 * (b - share))
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=2, label=f"{p} player(s)")
    ax.set_yticks(range(len(variants)))
    ax.set_yticklabels(variants, fontsize=7)
    ax.set_xlabel("deals won (%)")
    ax.set_title("Winnability by rule set (95 % Wilson, unknowns both ways)", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    written += _save(fig, folder, "winnability_by_rule")
    plt.close(fig)

    # 3. cards out of the game per player count (waste rows if any: best found)
    wobj = "waste" if "waste" in objectives else main_obj
    base = baseline({r["variant"] for r in rows if r["objective"] == wobj})
    ws = [r for r in rows if r["objective"] == wobj and r["variant"] == base
          and r["verdict"] == "win" and r.get("cards_out") is not None]
    wp = sorted({r["players"] for r in ws})
    fig, axes = plt.subplots(1, max(1, len(wp)), figsize=(2.4 * max(1, len(wp)) + 1, 3.2),
                             sharey=True, squeeze=False)
    for ax, p in zip(axes[0], wp):
        vals = [int(r["cards_out"]) for r in ws if r["players"] == p]
        ax.hist(vals, bins=range(min(vals), max(vals) + 2), color="tab:blue", alpha=0.8)
        ax.set_title(f"{p} player(s), {len(vals)} wins", fontsize=8)
        ax.set_xlabel("cards out of the game")
    axes[0][0].set_ylabel("deals")
    what = ("best found within the time limit (objective waste)" if wobj == "waste"
            else f"of the first plan found (objective {wobj}, not minimal)")
    fig.suptitle(f"Cards out of the game, {base}: {what}", fontsize=9)
    written += _save(fig, folder, "cards_out_by_players")
    plt.close(fig)

    # 4. solve-time CDF per player count
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for p in players:
        secs = sorted(float(r["seconds"]) for r in rs if r["players"] == p and r["seconds"])
        if secs:
            ax.step(secs, [100 * (i + 1) / len(secs) for i in range(len(secs))], where="post",
                    label=f"{p} player(s) ({len(secs)})")
    ax.set_xscale("log")
    ax.set_xlabel("seconds per solve (log)")
    ax.set_ylabel("solves finished (%)")
    ax.set_title(f"Solve-time CDF (objective {main_obj}, all rule sets)", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    written += _save(fig, folder, "solve_time_cdf")
    plt.close(fig)
    return written
