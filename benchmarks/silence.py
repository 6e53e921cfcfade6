"""The price of silence: tables and a plot from ``ascent simulate --json`` outputs.

Usage (the runs of ``docs/results.md``)::

    python -m benchmarks.silence --out DIR RUN.json [RUN.json ...]

Each RUN is the ``--json`` output of one ``ascent simulate`` run. Writes, into ``DIR`` (a new
folder: an existing ``silence.md`` or ``silence.png`` there is never overwritten):

* ``silence.md``: one table row per run and player count (bot, parameters, games, wins, win
  share with its 95 % Wilson interval, the open-hand win share on the same deals, the price of
  silence with its paired 95 % interval, the silent bot's share of the open-hand wins, seconds
  per game), then the sampling bot's win rate against its number of worlds N;
* ``silence.png``: win share per player count of each bot and of the open-hand solver
  (``cheat``) on the same deals, with 95 % intervals (standard rules only); beside it the
  sampling curve against N (single-player-count sampling runs, standard rules).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _iv(iv: list[float] | None) -> str:
    return "-" if iv is None else f"[{100 * iv[0]:.1f}, {100 * iv[1]:.1f}]"


def label(run: dict[str, Any]) -> str:
    """Short name of a run: the bot and its parameters that matter."""
    p = run.get("params") or {}
    name = run["bot"]
    if run["bot"] == "sampling":
        name = f"sampling N={p.get('worlds')} K={p.get('candidates')} H={p.get('horizon')}"
    elif run["bot"] == "openspiel-ismcts":
        name = f"openspiel-ismcts sims={p.get('simulations')}"
    preset = (run.get("rules") or {}).get("preset", "standard")
    return name if preset == "standard" else f"{name} ({preset})"


def standard(run: dict[str, Any]) -> bool:
    """The run plays the real game (the standard preset)."""
    return (run.get("rules") or {}).get("preset", "standard") == "standard"


def _limit(run: dict[str, Any]) -> str:
    t = run.get("open_hand_time_limit")
    return f", {t:g} s a deal" if t else ""


def table(runs: list[dict[str, Any]]) -> str:
    """The Markdown tables of ``runs`` (see the module docstring)."""
    lines = [
        "| bot | players | games | won | win | 95% interval | open-hand win (same deals) | "
        "price of silence | 95% interval | price, unknown = won | silent/open | silent/open, unknown = won | s/game |",
        "|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for run in runs:
        for ln in run["players"]:
            lines.append(
                f"| {label(run)} | {ln['players']} | {ln['games']} | {ln['won']} | {_pct(ln['win'])} | "
                f"{_iv(ln['interval'])} | "
                + (f"{_pct(ln['open_win'])} {_iv(ln['open_interval'])}" if "open_win" in ln else "-")
                + " | "
                + (f"{100 * ln['price']:+.1f} pts | {_iv(ln['price_interval'])}" if "price" in ln else "- | -")
                + (f" | {100 * ln['price_if_unknown_won']:+.1f} pts" if "price_if_unknown_won" in ln else " | -")
                + f" | {_pct(ln.get('silent_share'))} | {_pct(ln.get('silent_share_if_unknown_won'))} | "
                + ("-" if ln["seconds_per_game"] is None else f"{ln['seconds_per_game']:.2f}")
                + " |")
    curve = curve_points(runs)
    if curve:
        lines += ["", "| N (worlds per move) | K, H | players | games | won | win | 95% interval | s/game |",
                  "|---:|---|---:|---:|---:|---:|---|---:|"]
        for kh, n, ln in curve:
            lines.append(f"| {n} | {kh} | {ln['players']} | {ln['games']} | {ln['won']} | "
                         f"{_pct(ln['win'])} | {_iv(ln['interval'])} | {ln['seconds_per_game']:.2f} |")
    return "\n".join(lines) + "\n"


def curve_points(runs: list[dict[str, Any]]) -> list[tuple[str, int, dict[str, Any]]]:
    """``(K and H, N, line)`` of every sampling run that plays one player count only, by K
    and H (candidates and horizon: one curve each), then N."""
    pts = []
    for run in runs:
        lines = [ln for ln in run["players"] if ln["players"] != "all"]
        if run["bot"] == "sampling" and len(lines) == 1 and standard(run):
            p = run["params"]
            pts.append((f"K={p.get('candidates')}, H={p.get('horizon')}", p["worlds"], lines[0]))
    return sorted(pts, key=lambda t: (t[0], t[1]))


def _err(shares: list[float], intervals: list[list[float]]) -> list[list[float]]:
    """Error bars in points below and above each share (never negative: an interval end
    rounded a hair inside its share, as at 100 %, is a bar of 0)."""
    return [[max(0.0, 100 * (w - iv[0])) for w, iv in zip(shares, intervals)],
            [max(0.0, 100 * (iv[1] - w)) for w, iv in zip(shares, intervals)]]


def plot(runs: list[dict[str, Any]], path: Path) -> None:
    """The figure of the module docstring, written whole to ``path`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    shown_open = False
    offsets = {}
    for run in runs:
        lines = [ln for ln in run["players"] if ln["players"] != "all"]
        if len(lines) < 2 or not standard(run):
            continue
        name = label(run)
        off = offsets.setdefault(name, (len(offsets) - 1) * 0.08)
        xs = [int(ln["players"]) + off for ln in lines]
        ys = [100 * ln["win"] for ln in lines]
        err = _err([ln["win"] for ln in lines], [ln["interval"] for ln in lines])
        if run["bot"] == "cheat":
            tl = (run.get("params") or {}).get("time_limit")
            ax.errorbar(xs, ys, yerr=err, marker="D", capsize=3, color="grey",
                        label=f"cheat, {tl:g} s a deal, {lines[0]['games']} deals")
            continue
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=f"{name} (silent)")
        if not shown_open and all("open_win" in ln for ln in lines):
            ys = [100 * ln["open_win"] for ln in lines]
            err = _err([ln["open_win"] for ln in lines], [ln["open_interval"] for ln in lines])
            ax.errorbar([int(ln["players"]) - 0.1 for ln in lines], ys, yerr=err, marker="s",
                        capsize=3, color="black", label=f"open-hand solver{_limit(run)} (same deals as {name})")
            shown_open = True
    ax.set_xlabel("players")
    ax.set_ylabel("games won (%)")
    ax.set_ylim(0, 105)
    ax.set_xticks([1, 2, 3, 4, 5])
    ax.set_title("Silent bots and the open-hand bound (95% intervals)")
    ax.legend(fontsize=7, loc="best", framealpha=0.8)
    curve = curve_points(runs)
    if curve:
        groups: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        for kh, n, ln in curve:
            groups.setdefault(kh, []).append((n, ln))
        for i, (kh, pts) in enumerate(groups.items()):
            ns = [n * (1 + 0.04 * i) for n, _ in pts]
            ys = [100 * ln["win"] for _, ln in pts]
            err = _err([ln["win"] for _, ln in pts], [ln["interval"] for _, ln in pts])
            ax2.errorbar(ns, ys, yerr=err, marker="o", capsize=3,
                         label=f"{kh}, {pts[0][1]['games']} deals")
        ticks = sorted({n for _, n, _ in curve})
        ax2.set_xscale("log", base=2)
        ax2.set_xticks(ticks)
        ax2.set_xticklabels([str(n) for n in ticks])
        ax2.set_xlabel("worlds sampled per move (N)")
        ax2.set_ylabel("games won (%)")
        ax2.set_ylim(0, 105)
        ax2.legend(fontsize=7, loc="best", framealpha=0.8)
        ax2.set_title(f"sampling bot against N ({curve[0][2]['players']} player)")
    else:
        ax2.axis("off")
    fig.tight_layout()
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".png.tmp")
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=110)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
        plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="ascent simulate --json outputs")
    ap.add_argument("--out", required=True, help="folder for silence.md and silence.png")
    args = ap.parse_args(argv)
    runs = []
    for f in args.runs:
        try:
            runs.append(json.loads(Path(f).read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            print(f"silence: error: {f}: {exc}", file=sys.stderr)
            return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    md, png = out / "silence.md", out / "silence.png"
    for p in (md, png):
        if p.exists():
            print(f"silence: error: {p} exists; give a new --out folder", file=sys.stderr)
            return 2
    md.write_text(table(runs), encoding="utf-8")
    plot(runs, png)
    print(f"wrote {md} and {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
