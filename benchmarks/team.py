"""``team`` against ``greedy`` on the same fresh deals, and the beliefs ablation.

Usage (one process each; run with ``nice``)::

    python -m benchmarks.team play --out DIR --players 1,3,5 --seeds 20001-20030 --bot team
    python -m benchmarks.team play --out DIR --players 1,3,5 --seeds 20001-20030 --bot team-nobeliefs
    python -m benchmarks.team report --out DIR
    python -m benchmarks.team speed --players 1,3,5 --seeds 20001-20005

``play`` plays, seed by seed and at each player count, ``greedy`` and the ``--bot`` named
(``team``: :class:`bots.team.TeamBot` with ``beliefs=True``, the configuration of the
2026-12-04 run; ``team-nobeliefs``: the same with ``beliefs=False``, today's default);
one row per game (bot, players, seed, outcome, moves, CPU seconds, the moves as JSON for
``benchmarks.review_marks``) is
appended to ``DIR/games.jsonl`` as it is played, so an interrupted run resumes (rows there
are not played again). ``report`` prints a Markdown table: wins with 95 % Wilson intervals
per bot and player count, the deals won by one bot and lost by the other (paired on the
seed), and CPU seconds per move (``time.process_time``). ``speed`` times the greedy playout
(:func:`bots.team.playout`) from the first decision of each deal in 10 worlds and prints
playouts and greedy moves per CPU second.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.journal import seed_range
from studies.stats import wilson

#: The variants played: name -> (bot of :func:`bots.make_bot`, its parameters). ``team`` is
#: the configuration of the first run (12 worlds, beliefs on); the others are the parts of
#: the ablation: ``team-nobeliefs`` the rollout alone at 12 worlds; ``team-64`` the same at
#: 64 worlds (what the compiled playouts buy); ``uct`` the tree search at its defaults;
#: ``uct-beliefs`` with beliefs; ``uct-flat`` the tree cut to the root (one decision
#: searched, the same playouts as ``uct``); ``uct-400`` a quarter of the iterations.
BOTS: dict[str, tuple[str, dict[str, Any]]] = {
    "greedy": ("greedy", {}),
    "team": ("team", {"beliefs": True}),
    "team-nobeliefs": ("team", {"beliefs": False}),
    "team-64": ("team", {"beliefs": False, "worlds": 64, "candidates": 5}),
    "uct": ("uct", {}),
    "uct-400": ("uct", {"iterations": 400}),
    "uct-beliefs": ("uct", {"beliefs": True}),
    "uct-flat": ("uct", {"flat": True}),
}


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def play(out: Path, players: list[int], seeds: list[int], bot: str) -> None:
    """Play the deals not yet in ``out/games.jsonl`` (see the module docstring)."""
    from bots import make_bot
    from bots.base import play_deal
    from model.deal import Deal

    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    done = {(r["bot"], r["players"], r["seed"]) for r in _rows(path)}
    for seed in seeds:
        for p in players:
            for name in ("greedy",) if bot == "greedy" else ("greedy", bot):
                if (name, p, seed) in done:
                    continue
                kind, params = BOTS[name]
                b = make_bot(kind, **params)
                t0 = time.process_time()
                r = play_deal(Deal.from_seed(seed, p), b)
                row = {"bot": name, "players": p, "seed": seed, "outcome": r.outcome,
                       "moves": r.turns, "cpu": round(time.process_time() - t0, 3),
                       "plan": [m.to_json() for m in r.plan.moves]}
                with path.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
                done.add((name, p, seed))


def report(out: Path, base: str = "greedy", extra: list[Path] | None = None) -> str:
    """The Markdown table of ``out/games.jsonl`` and of the ``extra`` files of such rows
    (module docstring): every variant on the deals it shares with ``base``, paired with
    ``base`` deal by deal."""
    rows = _rows(out / "games.jsonl") + [r for x in extra or [] for r in _rows(x)]
    by = {(r["bot"], r["players"], r["seed"]): r for r in rows}
    lines = [f"| players | bot | deals | wins | 95 % interval | won only by it / by {base} "
             "(paired) | CPU s per move |", "|---:|---|---:|---:|---|---|---:|"]
    for p in sorted({r["players"] for r in rows}):
        for name in BOTS:
            seeds = sorted(s for (b, q, s) in by if b == name and q == p and (base, p, s) in by)
            if not seeds:
                continue
            games = [by[(name, p, s)] for s in seeds]
            k = sum(g["outcome"] == "win" for g in games)
            lo, hi = wilson(k, len(games))
            paired = "—"
            if name != base:
                won = [(by[(name, p, s)]["outcome"] == "win", by[(base, p, s)]["outcome"] == "win")
                       for s in seeds]
                paired = f"{sum(a and not b for a, b in won)} / {sum(b and not a for a, b in won)}"
            cpu = sum(g["cpu"] for g in games) / max(1, sum(g["moves"] for g in games))
            lines.append(f"| {p} | {name} | {len(games)} | {k} | {100 * lo:.0f}–{100 * hi:.0f} % "
                         f"| {paired} | {cpu:.3f} |")
    return "\n".join(lines) + "\n"


def simulate_rows(paths: list[Path]) -> dict[tuple[str, int], dict[str, Any]]:
    """The per-player-count rows of ``ascent simulate --json`` outputs, keyed by (bot,
    players); a file holding several JSON documents one after another gives each."""
    found: dict[tuple[str, int], dict[str, Any]] = {}
    dec = json.JSONDecoder()
    for path in paths:
        text = path.read_text(encoding="utf-8")
        i = 0
        while True:
            while i < len(text) and text[i].isspace():
                i += 1
            if i >= len(text):
                break
            doc, i = dec.raw_decode(text, i)
            for row in doc.get("players", []):
                if row["players"].isdigit():
                    found[(doc["bot"], int(row["players"]))] = row
    return found


def report_simulate(out: Path, paths: list[Path], main: str = "uct") -> str:
    """Rows for the bots of ``ascent simulate --json`` files (``best``, ``cheat``) next to
    ``main`` and ``greedy`` of ``out/games.jsonl``, and the price of silence: the open-hand
    (``cheat``) win share minus each silent bot's, and the silent/open ratio."""
    rows = _rows(out / "games.jsonl")
    sim = simulate_rows(paths)
    lines = ["| players | bot | games | wins | 95 % interval | open-hand wins | price of "
             "silence (points) | silent / open |", "|---:|---|---:|---:|---|---:|---:|---:|"]
    for p in sorted({r["players"] for r in rows} | {q for _, q in sim}):
        opened = next((r for (b, q), r in sim.items() if q == p and r.get("open_games")), None)
        open_share = opened["open_won"] / opened["open_games"] if opened else None
        entries = []
        for name in ("greedy", main):
            games = [r for r in rows if r["bot"] == name and r["players"] == p]
            if games:
                entries.append((name, len(games), sum(g["outcome"] == "win" for g in games)))
        for (b, q), r in sorted(sim.items()):
            if q == p and b not in ("greedy", main):
                entries.append((f"{b} (simulate)", r["games"], r["won"]))
        for name, n, k in entries:
            lo, hi = wilson(k, n)
            if open_share is None:
                price = ratio = "—"
            else:
                price = f"{100 * (open_share - k / n):+.1f}"
                ratio = f"{(k / n) / open_share:.2f}" if open_share else "—"
            lines.append(f"| {p} | {name} | {n} | {k} | {100 * lo:.1f}–{100 * hi:.1f} % | "
                         f"{opened['open_won'] if opened else '—'} | {price} | {ratio} |")
    return "\n".join(lines) + "\n"


def speed(players: list[int], seeds: list[int]) -> str:
    """Playouts and greedy moves per CPU second (module docstring), one line per player count."""
    import random

    from bots.greedy import GreedyPolicy
    from bots.playout import greedy, play_out
    from bots.team import playout, sample_worlds
    from model.deal import Deal
    from model.game import Game
    from model.observation import observe

    policy = GreedyPolicy()
    lines = []
    for p in players:
        n = moves = 0
        cpu = 0.0
        for seed in seeds:
            g = Game(Deal.from_seed(seed, p))
            obs = observe(g)
            worlds, _ = sample_worlds(obs, 10, random.Random(seed), beliefs=False)
            first = policy.move(obs.view(), obs.out)
            for w in worlds:
                t0 = time.process_time()
                playout(w, first, policy)
                cpu += time.process_time() - t0
                w.push(first)
                play_out(w, greedy(policy))
                moves += w.turn - obs.turn
                n += 1
        lines.append(f"{p} players: {n} playouts, {n / cpu:.0f} playouts/s, "
                     f"{moves / cpu:.0f} greedy moves/s (CPU)")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.team")
    ap.add_argument("command", choices=("play", "report", "speed"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--players", default="1,3,5")
    ap.add_argument("--seeds", default="20001-20030")
    ap.add_argument("--bot", default="uct", choices=tuple(BOTS))
    ap.add_argument("--base", default="greedy", choices=tuple(BOTS),
                    help="report: the variant every other is paired with")
    ap.add_argument("--extra", nargs="*", default=[], metavar="JSONL",
                    help="report: more games.jsonl files (e.g. the main run's, for the ablation)")
    ap.add_argument("--simulate", nargs="*", default=[], metavar="JSON",
                    help="report: ascent simulate --json outputs of other bots on the same "
                         "seeds (best, cheat), added as rows")
    a = ap.parse_args(argv)
    try:
        players = [int(x) for x in a.players.split(",")]
        seeds = seed_range(a.seeds)
    except ValueError:
        print("error: --players is a list like 1,3,5 and --seeds a range like 20001-20030",
              file=sys.stderr)
        return 2
    if not seeds or not all(1 <= p <= 5 for p in players):
        print("error: --players must be counts from 1 to 5 and --seeds a non-empty range",
              file=sys.stderr)
        return 2
    missing = [x for x in a.extra + a.simulate if not Path(x).is_file()]
    if missing:
        print(f"error: {missing[0]}: no such file", file=sys.stderr)
        return 2
    if a.command == "speed":
        print(speed(players, seeds), end="")
        return 0
    if a.out is None:
        print("error: --out DIR is needed for play and report", file=sys.stderr)
        return 2
    if a.command == "play":
        play(Path(a.out), players, seeds, a.bot)
    else:
        print(report(Path(a.out), a.base, [Path(x) for x in a.extra]), end="")
        if a.simulate:
            print()
            print(report_simulate(Path(a.out), [Path(x) for x in a.simulate], a.bot), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
