"""Mixed tables: a bot in seat 1 and another in every other seat, on the same fresh deals.

Usage (one process each; run with ``nice``)::

    python -m benchmarks.mixed play --out DIR --players 3 --seeds 50001-50100 --table plausible/uct
    python -m benchmarks.mixed report --out DIR --base uct/uct
    python -m benchmarks.mixed cost --players 3,5 --seeds 50001-50010
    python -m benchmarks.mixed beliefs --players 3 --seeds 80001-80006 --table adhoc/plausible

A *table* is ``SEAT1/OTHERS``, two variants of :data:`VARIANTS` (``uct/uct`` is self-play,
``plausible/uct`` a person-like player with ``uct`` team-mates, ``uct/plausible`` ``uct`` with
two such partners). ``play`` plays the deals not yet in ``DIR/games.jsonl`` and appends one
row per game as it is played (table, seat-1 and partners' variants, players, seed, outcome,
moves, CPU seconds of each seat's bots, the moves as JSON), so an interrupted run resumes.
``report`` prints a Markdown table per player count: wins with 95 % Wilson intervals, the
ratio to the ``--base`` table's wins on the same deals, the deals won only by one of the
two (paired on the seed) and the difference of the win shares with Newcombe's paired 95 %
interval (:func:`bots.mistakes.paired_interval`), and the ratio's paired bootstrap interval
(:func:`ratio_interval`). CPU is ``time.process_time`` of each ``choose`` call. ``cost``
times a decision of ``uct`` with and without the parts of the partner model (:func:`cost`).
``beliefs`` plays a table whose seat 1 is ``uct`` with the partner model and prints what the
model believes of the partners, early and late in the game (:func:`beliefs`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.journal import seed_range
from benchmarks.team import BOTS
from studies.stats import wilson

#: The variants a table is made of: name -> (bot of :func:`bots.make_bot`, parameters). Those
#: of :data:`benchmarks.team.BOTS`, the stand-ins for people at their issue rates, and ``uct``
#: with the partner model (``adhoc``; ``adhoc-worlds``: in the worlds only; ``adhoc-tree``: in
#: the tree and playouts only).
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    **BOTS,
    "plausible": ("plausible", {"rate": 0.3}),
    # the same stand-in with another random stream: which deals a table wins by the partners'
    # draws rather than by the deal (2026-12-05's probe of 0.11 against 0.32)
    "plausible-s1": ("plausible", {"rate": 0.3, "seed": 1}),
    "noisy": ("noisy", {"rate": 0.2}),
    # uct with the partner model (bots/partner_model.py): both parts, then each alone
    "adhoc": ("uct", {"model": True}),
    "adhoc-worlds": ("uct", {"model": True, "model_tree": False}),
    "adhoc-tree": ("uct", {"model": True, "model_worlds": False}),
    # uct expecting people: the partners depart from the blueprint at that rate to one of its
    # best 3, in the tree and the playouts (UctBot's ``departures``)
    "uct-d10": ("uct", {"departures": 0.10}),
    "uct-d20": ("uct", {"departures": 0.20}),
    "uct-d30": ("uct", {"departures": 0.30}),
    # stronger team-mates: twice the iterations (is greedy/uct's 0.79 of uct/uct a ceiling?)
    "uct-3200": ("uct", {"iterations": 3200}),
}


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def parse_table(text: str) -> tuple[str, str]:
    """``(seat-1 variant, partners' variant)`` of ``"A/B"`` (``"A"``: A everywhere). Raises
    ``ValueError`` for a variant not in :data:`VARIANTS`."""
    a, _, b = text.partition("/")
    b = b or a
    for v in (a, b):
        if v not in VARIANTS:
            raise ValueError(f"unknown variant {v!r} (known: {', '.join(VARIANTS)})")
    return a, b


class _Timed:
    """A bot whose ``choose`` calls are timed (CPU seconds, moves)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.sees_hidden_cards = getattr(bot, "sees_hidden_cards", False)
        self.cpu = 0.0
        self.moves = 0

    def start(self, deal: Any) -> None:
        self.bot.start(deal)

    def choose(self, observation: Any) -> Any:
        t0 = time.process_time()
        try:
            return self.bot.choose(observation)
        finally:
            self.cpu += time.process_time() - t0
            self.moves += 1


def play(out: Path, players: list[int], seeds: list[int], table: str) -> None:
    """Play the deals of ``table`` not yet in ``out/games.jsonl`` (module docstring)."""
    from bots import make_bot
    from bots.base import play_table
    from model.deal import Deal

    first, other = parse_table(table)
    name = f"{first}/{other}"
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    done = {(r["table"], r["players"], r["seed"]) for r in _rows(path)}
    for seed in seeds:
        for p in players:
            if (name, p, seed) in done:
                continue
            seats = [_Timed(make_bot(VARIANTS[first][0], **VARIANTS[first][1]))] + [
                _Timed(make_bot(VARIANTS[other][0], **VARIANTS[other][1])) for _ in range(p - 1)]
            r = play_table(Deal.from_seed(seed, p), seats)
            row = {"table": name, "seat1": first, "partners": other, "players": p, "seed": seed,
                   "outcome": r.outcome, "moves": r.turns,
                   "cpu": [round(s.cpu, 3) for s in seats], "seat_moves": [s.moves for s in seats],
                   "plan": [m.to_json() for m in r.plan.moves]}
            with path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
            done.add((name, p, seed))


def ratio_interval(won: list[tuple[bool, bool]], draws: int = 2000, seed: int = 0
                   ) -> tuple[float, float] | None:
    """A paired percentile bootstrap 95 % interval of the ratio of wins ``k / kb`` from
    ``won``, one ``(table won, base won)`` pair per deal: ``draws`` resamples of the deals
    with replacement (seeded: the same rows give the same interval), a resample whose base
    won nothing left out. ``None`` when the base won no deal (no ratio)."""
    import random as _random

    if not any(b for _, b in won):
        return None
    rng = _random.Random(seed)
    n = len(won)
    ratios = []
    for _ in range(draws):
        sample = [won[rng.randrange(n)] for _ in range(n)]
        kb = sum(b for _, b in sample)
        if kb:
            ratios.append(sum(a for a, _ in sample) / kb)
    ratios.sort()
    return ratios[int(0.025 * (len(ratios) - 1))], ratios[int(0.975 * (len(ratios) - 1))]


def report(outs: list[Path], base: str = "uct/uct") -> str:
    """The Markdown table of the rows of ``outs`` (each ``DIR/games.jsonl`` or a jsonl file)
    against the ``base`` table on the deals both played (module docstring)."""
    from bots.mistakes import paired_interval

    rows = [r for o in outs for r in _rows(o / "games.jsonl" if o.is_dir() else o)]
    by = {(r["table"], r["players"], r["seed"]): r for r in rows}
    lines = [f"| players | seat 1 / others | deals | won | 95 % interval | {base} won "
             f"| ratio | won only by it / by {base} | difference, Newcombe 95 % "
             f"| CPU s a move, seat 1 / others | ratio, paired bootstrap 95 % |",
             "|---:|---|---:|---:|---|---:|---:|---|---|---|---|"]
    tables = list(dict.fromkeys(r["table"] for r in rows))
    for p in sorted({r["players"] for r in rows}):
        for t in tables:
            seeds = sorted(s for (b, q, s) in by if b == t and q == p and (base, p, s) in by)
            if not seeds:
                continue
            games = [by[(t, p, s)] for s in seeds]
            bases = [by[(base, p, s)] for s in seeds]
            k = sum(g["outcome"] == "win" for g in games)
            kb = sum(g["outcome"] == "win" for g in bases)
            lo, hi = wilson(k, len(games))
            won = [(g["outcome"] == "win", b["outcome"] == "win") for g, b in zip(games, bases)]
            only, only_base = sum(a and not b for a, b in won), sum(b and not a for a, b in won)
            paired = f"{only} / {only_base}"
            dlo, dhi = paired_interval(sum(a and b for a, b in won), only, only_base,
                                       sum(not a and not b for a, b in won))
            diff = f"{100 * (k - kb) / len(games):+.0f} pts [{100 * dlo:+.0f}, {100 * dhi:+.0f}]"
            ratio = f"{k / kb:.2f}" if kb else "—"
            ri = ratio_interval(won)
            rint = f"{ri[0]:.2f}–{ri[1]:.2f}" if ri else "—"
            c1 = sum(g["cpu"][0] for g in games) / max(1, sum(g["seat_moves"][0] for g in games))
            co = (sum(sum(g["cpu"][1:]) for g in games)
                  / max(1, sum(sum(g["seat_moves"][1:]) for g in games)))
            lines.append(f"| {p} | {t} | {len(games)} | {k} | {100 * lo:.0f}–{100 * hi:.0f} % "
                         f"| {kb} | {ratio} | {paired} | {diff} | {c1:.3f} / {co:.3f} | {rint} |")
    return "\n".join(lines) + "\n"


def cost(players: list[int], seeds: list[int]) -> str:
    """CPU seconds a decision of ``uct`` without and with the parts of the partner model, from
    the same positions: seat 1's observation after 2–4 rounds of a game whose other seats play
    ``plausible`` (seed by seed), one line per player count and variant; and the inference
    alone (:func:`bots.partner_model.infer` on the 32 worlds of the pool)."""
    import random as _random

    from bots import fastplay, make_bot
    from bots.partner_model import infer
    from model.deal import Deal
    from model.game import Game
    from model.observation import observe

    variants = ("uct", "adhoc-worlds", "adhoc-tree", "adhoc")
    lines = ["| players | positions | " + " | ".join(variants) + " | inference alone |",
             "|---:|---:|" + "---:|" * (len(variants) + 1)]
    for p in players:
        obs_list = []
        for seed in seeds:
            g = Game(Deal.from_seed(seed, p))
            person = make_bot("plausible", seed=seed)
            for _ in range(p * (2 + seed % 3)):
                if g.outcome() is not None:
                    break
                g.push(person.choose(observe(g)))
            while g.outcome() is None and g.to_move != 0:
                g.push(person.choose(observe(g)))
            if g.outcome() is None:
                obs_list.append(observe(g))
        cells = []
        for v in variants:
            kind, params = VARIANTS[v]
            t0 = time.process_time()
            for obs in obs_list:
                make_bot(kind, **params).choose(obs)
            cells.append(f"{(time.process_time() - t0) / max(1, len(obs_list)):.3f}")
        t0 = time.process_time()
        for obs in obs_list:
            sampler = fastplay.Sampler(obs)
            infer(obs, [sampler.draw(k).to_game() for k in range(32)], _random.Random(0))
        cells.append(f"{(time.process_time() - t0) / max(1, len(obs_list)):.3f}")
        lines.append(f"| {p} | {len(obs_list)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def beliefs(players: list[int], seeds: list[int], table: str = "adhoc/plausible",
            iterations: int | None = None) -> str:
    """What the partner model of seat 1 believes of its partners: plays ``table`` (seat 1 a
    variant with ``model`` on, e.g. ``adhoc``) on each deal and, at each of seat 1's searched
    decisions, reads its posterior (:attr:`bots.uct.UctBot.partners`, from the observation
    only). One Markdown row per policy type of :data:`bots.partner_model.TYPES`: its prior,
    its mean posterior over the partners and decisions of the first and of the second half of
    each game, and how often it is the most likely type where some move was checked (the
    heading counts the partner-decisions without evidence, whose posterior is the prior).
    ``iterations`` overrides seat 1's (tests). Raises ``ValueError`` for a table whose seat 1 has no partner model."""
    from bots import make_bot
    from bots.base import play_table
    from bots.partner_model import TYPES
    from model.deal import Deal

    first, other = parse_table(table)
    kind, params = VARIANTS[first]
    if not params.get("model"):
        raise ValueError(f"seat 1 of {table!r} has no partner model (use adhoc, adhoc-tree, ...)")
    if iterations is not None:
        params = {**params, "iterations": iterations}

    class _Reader:
        """Seat 1's bot, its posterior kept after each decision (first half, second half)."""

        sees_hidden_cards = False

        def __init__(self) -> None:
            self.bot: Any = make_bot(kind, **params)
            self.name = self.bot.name
            self.seen: list[list[list[float]]] = []

        def start(self, deal: Any) -> None:
            self.bot.start(deal)

        def choose(self, observation: Any) -> Any:
            move = self.bot.choose(observation)
            if self.bot.partners is not None:
                self.seen.append(list(self.bot.partners.posterior.values()))
            return move

    halves: list[list[list[float]]] = [[], []]
    games = 0
    for seed in seeds:
        for p in players:
            if p < 2:
                continue
            reader = _Reader()
            seats: list[Any] = [reader] + [make_bot(VARIANTS[other][0], **VARIANTS[other][1])
                                           for _ in range(p - 1)]
            play_table(Deal.from_seed(seed, p), seats)
            games += 1
            half = (len(reader.seen) + 1) // 2
            for i, posts in enumerate(reader.seen):
                halves[i >= half].extend(posts)
    if not games:
        raise ValueError("beliefs needs deals of 2 players or more")
    every = halves[0] + halves[1]
    flat = [x for x in every if max(x) - min(x) < 1e-12]  # no move checked: the prior
    told = [x for x in every if max(x) - min(x) >= 1e-12]
    lines = [f"{table}, {games} games: seat 1's posterior over its partners' types "
             f"({len(every)} partner-decisions, {len(flat)} of them without evidence: the "
             "posterior is the prior)",
             "", "| type | prior | mean, first half | mean, second half "
             "| most likely, with evidence |",
             "|---|---:|---:|---:|---:|"]
    for i, t in enumerate(TYPES):
        mean = [sum(x[i] for x in h) / max(1, len(h)) for h in halves]
        top = sum(max(range(len(x)), key=x.__getitem__) == i for x in told)
        lines.append(f"| {t.name} | {1 / len(TYPES):.3f} | {mean[0]:.3f} | {mean[1]:.3f} "
                     f"| {top / max(1, len(told)):.0%} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.mixed")
    ap.add_argument("command", choices=("play", "report", "cost", "beliefs"))
    ap.add_argument("--out", nargs="+", default=[])
    ap.add_argument("--players", default="3")
    ap.add_argument("--seeds", default="50001-50100")
    ap.add_argument("--table", default="uct/uct", help="play, beliefs: SEAT1/OTHERS variants")
    ap.add_argument("--base", default="uct/uct", help="report: the table every other is "
                    "compared with")
    a = ap.parse_args(argv)
    try:
        players = [int(x) for x in a.players.split(",")]
        seeds = seed_range(a.seeds)
        parse_table(a.table)
        parse_table(a.base)
    except ValueError as exc:
        print(f"error: {exc} (--players is a list like 1,3,5, --seeds a range like "
              "50001-50100)", file=sys.stderr)
        return 2
    if not seeds or not all(1 <= p <= 5 for p in players):
        print("error: --players must be counts from 1 to 5 and --seeds a non-empty range",
              file=sys.stderr)
        return 2
    if a.command == "cost":
        print(cost(players, seeds), end="")
        return 0
    if a.command == "beliefs":
        try:
            print(beliefs(players, seeds, a.table), end="")
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
    if a.command == "play":
        if len(a.out) != 1:
            print("error: play writes to one --out DIR", file=sys.stderr)
            return 2
        play(Path(a.out[0]), players, seeds, a.table)
    else:
        if not a.out:
            print("error: report needs --out DIR or jsonl files", file=sys.stderr)
            return 2
        print(report([Path(x) for x in a.out], a.base), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
