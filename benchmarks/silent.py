"""The strong silent bot against ``greedy`` and ``sampling`` on the same deals, and the
calibration of the advice.

Usage (the runs of ``docs/results.md``; one process, run it with ``nice``)::

    python -m benchmarks.silent play --out DIR --players 1-5 --seeds 10001-10050 \\
        --sampling-deals 10
    python -m benchmarks.silent calibrate --out DIR --positions 300
    python -m benchmarks.silent report --out DIR

``play`` plays every deal of ``--seeds`` (disjoint from the seeds 1–60 the bot was tuned
on) at each player count with ``best`` and ``greedy``, and the first ``--sampling-deals`` of
them with ``sampling`` (N=4, K=3, H=4: the configuration of the 2026-12-01 figures), and
with ``cheat`` (the open-hand solver, 10 s a deal: the bound) unless ``--no-cheat``. The
deals are played seed by seed, every player count and bot at each seed. One row
per game (bot, players, seed, outcome, slots, moves, seconds) goes to ``DIR/games.jsonl``,
appended as it is played: an interrupted run resumes where it stopped (rows already there
are not played again).

``calibrate`` takes positions of the ``greedy`` and ``best`` games of ``games.jsonl``
(replayed by :mod:`model`, every ``--stride``-th move of each game, up to ``--positions``
per bot) and predicts there, from the mover's observation alone, the chance of the move
played: for ``greedy`` games with the ``greedy`` estimator, for ``best`` games with the
``beam`` estimator (:mod:`bots.advice`), ``--worlds`` worlds each. One row per position
(bot, estimator, predicted chance, won) goes to ``DIR/calibration.jsonl``.

``report`` writes ``DIR/silent.md`` (win shares with 95 % Wilson intervals per bot and
player count, paired differences, seconds per move; the calibration in bins of 10 points)
and ``DIR/calibration.png`` and ``DIR/silent.png``. Existing report files are never
overwritten (``--force`` to rewrite them).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.journal import append_row, read_rows, seed_range
from studies.stats import wilson

SAMPLING = {"worlds": 4, "candidates": 3, "horizon": 4, "seed": 0}
CHEAT = {"time_limit": 10.0}


def play(out: Path, players: list[int], seeds: list[int], sampling_deals: int,
         cheat: bool = True) -> None:
    """The ``play`` step (module docstring)."""
    from bots import make_bot
    from bots.base import play_deal
    from model.deal import Deal

    path = out / "games.jsonl"
    done = {(r["bot"], r["players"], r["seed"]) for r in read_rows(path)}
    jobs = []
    for i, s in enumerate(seeds):  # seed-major: a run stopped early has every player count
        for p in players:
            jobs.append(("best", p, s))
            jobs.append(("greedy", p, s))
            if i < sampling_deals:
                jobs.append(("sampling", p, s))
            if cheat:
                jobs.append(("cheat", p, s))
    for k, (bot, p, s) in enumerate(jobs, start=1):
        if (bot, p, s) in done:
            continue
        b = make_bot(bot, **(SAMPLING if bot == "sampling" else CHEAT if bot == "cheat" else {}))
        r = play_deal(Deal.from_seed(s, players=p), b)
        row = {"bot": bot, "players": p, "seed": s, "outcome": r.outcome, "slots": r.slots,
               "out": r.out, "moves": r.turns, "seconds": round(r.seconds, 3),
               "plan": [m.to_json() for m in r.plan.moves]}
        append_row(path, row)
        print(f"[{k}/{len(jobs)}] {bot} P{p} seed {s}: {r.outcome} {r.slots} slots "
              f"{r.seconds:.1f} s", file=sys.stderr, flush=True)


def calibrate(out: Path, positions: int, stride: int, worlds: int) -> None:
    """The ``calibrate`` step (module docstring)."""
    from bots.advice import advise
    from model.deal import Deal
    from model.moves import Move
    from model.observation import observe
    from model.records import replay

    path = out / "calibration.jsonl"
    done = {(r["bot"], r["players"], r["seed"], r["index"]) for r in read_rows(path)}
    games = read_rows(out / "games.jsonl")
    for bot, estimator in (("greedy", "greedy"), ("best", "beam")):
        count = sum(1 for k in done if k[0] == bot)
        for g in [g for g in games if g["bot"] == bot]:
            if count >= positions:
                break
            moves = [Move.from_json(m) for m in g["plan"]]
            deal = Deal.from_seed(g["seed"], players=g["players"])
            offset = g["seed"] % stride
            for i in range(offset, len(moves), stride):
                if count >= positions:
                    break
                key = (bot, g["players"], g["seed"], i)
                if key in done:
                    continue
                rep = replay(deal, moves[:i])
                assert rep.error is None and rep.game is not None
                t = time.monotonic()
                a = advise(observe(rep.game), [moves[i]], estimator=estimator, worlds=worlds,
                           min_worlds=worlds, seed=i)
                append_row(path, {"bot": bot, "estimator": estimator, "players": g["players"],
                               "seed": g["seed"], "index": i, "chance": a.moves[0].chance,
                               "worlds": a.worlds, "won": g["outcome"] == "win",
                               "seconds": round(time.monotonic() - t, 3)})
                count += 1
            print(f"calibrate {bot}: {count} positions", file=sys.stderr, flush=True)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _iv(iv: tuple[float, float]) -> str:
    return f"[{100 * iv[0]:.1f}, {100 * iv[1]:.1f}]"


def calibration_bins(rows: list[dict[str, Any]], width: float = 0.1) -> list[dict[str, Any]]:
    """Rows ``{"chance", "won"}`` in bins of predicted chance (``[0, 0.1)``, …, the last bin
    closed): per bin its range, positions ``n``, mean predicted chance, share won with its
    Wilson interval, and ``gap`` = share won − mean predicted. Empty bins are left out.

    >>> b = calibration_bins([{"chance": 0.05, "won": False}, {"chance": 0.15, "won": True},
    ...                       {"chance": 0.12, "won": False}])
    >>> [(x["n"], round(x["predicted"], 3), x["won"]) for x in b]
    [(1, 0.05, 0.0), (2, 0.135, 0.5)]
    """
    nbins = round(1 / width)
    bins: list[list[dict[str, Any]]] = [[] for _ in range(nbins)]
    for r in rows:
        bins[min(nbins - 1, int(r["chance"] / width))].append(r)
    out = []
    for i, b in enumerate(bins):
        if not b:
            continue
        k = sum(1 for r in b if r["won"])
        pred = sum(r["chance"] for r in b) / len(b)
        out.append({"lo": i * width, "hi": (i + 1) * width, "n": len(b), "predicted": pred,
                    "won": k / len(b), "interval": wilson(k, len(b)), "gap": k / len(b) - pred})
    return out


def _paired(games: list[dict[str, Any]], a: str, b: str, p: int) -> tuple[int, int, int] | None:
    ga = {g["seed"]: g for g in games if g["bot"] == a and g["players"] == p}
    gb = {g["seed"]: g for g in games if g["bot"] == b and g["players"] == p}
    both = sorted(set(ga) & set(gb))
    if not both:
        return None
    only_a = sum(1 for s in both if ga[s]["outcome"] == "win" and gb[s]["outcome"] != "win")
    only_b = sum(1 for s in both if gb[s]["outcome"] == "win" and ga[s]["outcome"] != "win")
    return len(both), only_a, only_b


def report(out: Path, force: bool) -> None:
    """The ``report`` step (module docstring)."""
    md, png, cpng = out / "silent.md", out / "silent.png", out / "calibration.png"
    for f in (md, png, cpng):
        if f.exists() and not force:
            raise SystemExit(f"silent: error: {f} exists; give --force to rewrite it")
    games = read_rows(out / "games.jsonl")
    players = sorted({g["players"] for g in games})
    lines = ["| bot | players | deals | won | win | 95% interval | slots at loss | s/move |",
             "|---|---:|---:|---:|---:|---|---:|---:|"]
    summary: dict[tuple[str, int], dict[str, Any]] = {}
    for bot in ("best", "greedy", "sampling", "cheat"):
        for p in players + [0]:
            gs = [g for g in games if g["bot"] == bot and (p == 0 or g["players"] == p)]
            if not gs:
                continue
            k = sum(1 for g in gs if g["outcome"] == "win")
            losses = [g["slots"] for g in gs if g["outcome"] != "win"]
            spm = sum(g["seconds"] for g in gs) / max(1, sum(g["moves"] for g in gs))
            iv = wilson(k, len(gs))
            summary[(bot, p)] = {"n": len(gs), "k": k, "iv": iv}
            lines.append(f"| {bot} | {p or 'all'} | {len(gs)} | {k} | {_pct(k / len(gs))} | {_iv(iv)} | "
                         f"{(sum(losses) / len(losses)) if losses else 0:.1f} | {spm:.3f} |")
    lines += ["", "Paired on the same deals (deals both played; wins only one of the two had):", "",
              "| players | pair | deals | only the first won | only the second won | ratio of wins |",
              "|---:|---|---:|---:|---:|---:|"]
    for p in players:
        for a, b in (("best", "greedy"), ("best", "sampling"), ("best", "cheat")):
            pr = _paired(games, a, b, p)
            if pr is None:
                continue
            n, oa, ob = pr
            ga = {g["seed"] for g in games if g["bot"] == b and g["players"] == p}
            wa = sum(1 for g in games if g["bot"] == a and g["players"] == p and g["seed"] in ga
                     and g["outcome"] == "win")
            wb = sum(1 for g in games if g["bot"] == b and g["players"] == p and g["outcome"] == "win")
            ratio = f"{wa / wb:.2f}" if wb else "-"
            lines.append(f"| {p} | {a} vs {b} | {n} | {oa} | {ob} | {ratio} |")
    cal = read_rows(out / "calibration.jsonl")
    for bot in ("greedy", "best"):
        rows = [r for r in cal if r["bot"] == bot]
        if not rows:
            continue
        est = rows[0]["estimator"]
        lines += ["", f"Calibration: positions of {bot} games, chance predicted by the {est} "
                  f"estimator ({rows[0]['worlds']} worlds), share of those positions whose game "
                  f"{bot} then won ({len(rows)} positions):", "",
                  "| predicted | positions | mean predicted | share won | 95% interval | gap |",
                  "|---|---:|---:|---:|---|---:|"]
        for b in calibration_bins(rows):
            lines.append(f"| {100 * b['lo']:.0f}–{100 * b['hi']:.0f}% | {b['n']} | {_pct(b['predicted'])} | "
                         f"{_pct(b['won'])} | {_iv(b['interval'])} | {100 * b['gap']:+.1f} pts |")
    _write(md, "\n".join(lines) + "\n")
    _plots(summary, players, cal, png, cpng)
    print(f"wrote {md}, {png} and {cpng}")


def _write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def _plots(summary, players, cal, png: Path, cpng: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for j, bot in enumerate(("best", "greedy", "sampling")):
        pts = [(p, summary[(bot, p)]) for p in players if (bot, p) in summary]
        if not pts:
            continue
        xs = [p + (j - 1) * 0.08 for p, _ in pts]
        ys = [100 * s["k"] / s["n"] for _, s in pts]
        err = [[max(0.0, y - 100 * s["iv"][0]) for y, (_, s) in zip(ys, pts)],
               [max(0.0, 100 * s["iv"][1] - y) for y, (_, s) in zip(ys, pts)]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3,
                    label=f"{bot} ({pts[0][1]['n']} deals a player count)")
    ax.set_xlabel("players")
    ax.set_ylabel("games won (%)")
    ax.set_xticks(players)
    ax.set_ylim(0, 100)
    ax.set_title("Silent bots on the same deals (95% Wilson intervals)")
    ax.legend(fontsize=8)
    _save(fig, png)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 100], [0, 100], color="grey", ls="--", lw=1)
    for bot in ("greedy", "best"):
        rows = [r for r in cal if r["bot"] == bot]
        if not rows:
            continue
        bs = calibration_bins(rows)
        xs = [100 * b["predicted"] for b in bs]
        ys = [100 * b["won"] for b in bs]
        err = [[max(0.0, y - 100 * b["interval"][0]) for y, b in zip(ys, bs)],
               [max(0.0, 100 * b["interval"][1] - y) for y, b in zip(ys, bs)]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3,
                    label=f"{bot} games, {rows[0]['estimator']} estimator ({len(rows)} positions)")
        for x, y, b in zip(xs, ys, bs):
            ax.annotate(str(b["n"]), (x, y), textcoords="offset points", xytext=(4, -10), fontsize=7)
    ax.set_xlabel("predicted win chance (%)")
    ax.set_ylabel("share of those positions won (%)")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_title("Calibration of the advice (bins of 10 points)")
    ax.legend(fontsize=7, loc="upper left")
    _save(fig, cpng)
    plt.close(fig)


def _save(fig, path: Path) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".png.tmp")
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=110, bbox_inches="tight")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="step", required=True)
    a = sub.add_parser("play")
    a.add_argument("--out", required=True)
    a.add_argument("--players", default="1-5")
    a.add_argument("--seeds", default="10001-10050")
    a.add_argument("--sampling-deals", type=int, default=10)
    a.add_argument("--no-cheat", action="store_true")
    c = sub.add_parser("calibrate")
    c.add_argument("--out", required=True)
    c.add_argument("--positions", type=int, default=300)
    c.add_argument("--stride", type=int, default=5)
    c.add_argument("--worlds", type=int, default=40)
    r = sub.add_parser("report")
    r.add_argument("--out", required=True)
    r.add_argument("--force", action="store_true")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.step == "play":
        play(out, seed_range(args.players), seed_range(args.seeds), args.sampling_deals, not args.no_cheat)
    elif args.step == "calibrate":
        calibrate(out, args.positions, args.stride, args.worlds)
    else:
        report(out, args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
