"""Greedy playouts per CPU second: Python (:func:`bots.team.playout`) against the compiled
engine (:mod:`bots.fastplay`), from the start and from mid-game positions of the standard game.

Usage (run with ``nice``)::

    python -m benchmarks.playouts --players 1 3 5 --positions 20 --seconds 3

For each player count, ``--positions`` deals (seeds 1, 2, ...) give the start positions; the
mid-game positions are the same deals after 8 + 4·(seed mod 5) greedy moves. From each
position the first move is greedy's; every engine plays playouts (a fresh copy of the world,
that move, greedy to the end) from the positions in turn, round after round, until it has
spent ``--seconds`` of CPU time (``time.process_time``) on the cell. Engines:

* ``python``: :func:`bots.team.playout` on the :class:`~model.game.Game` (:func:`bots.playout.play_out`);
* ``compiled``: :meth:`FastWorld.copy`, :meth:`~bots.fastplay.FastWorld.push` and
  :meth:`~bots.fastplay.FastWorld.playout` called from Python;
* ``evaluate``: :func:`bots.fastplay.evaluate` of the greedy move over 200 sampled worlds per
  call (the whole loop in C, world sampling included).

Prints a Markdown table of playouts per CPU second (total playouts / total CPU seconds) and
the mean game length of the playouts (moves); the compiled rows are skipped with a note when
``bots._playout`` is not built.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable

from bots import fastplay
from bots.greedy import GreedyPolicy
from bots.playout import greedy, play_out
from bots.team import playout
from model.deal import Deal
from model.game import Game
from model.observation import observe

EVALUATE_WORLDS = 200


def positions(players: int, count: int, mid: bool) -> list[Game]:
    """The start (or mid-game) positions of deals 1..count of the standard game."""
    policy = GreedyPolicy()
    out = []
    for seed in range(1, count + 1):
        g = Game(Deal.from_seed(seed, players))
        if mid:
            play_out(g, greedy(policy), horizon=8 + 4 * (seed % 5))
        if g.outcome() is None:
            out.append(g)
    return out


def runner(engine: str, g: Game, policy: GreedyPolicy) -> Callable[[], int]:
    """One call of ``engine`` from ``g`` after greedy's first move; returns its playouts."""
    first = policy.move(g, g.out)
    if engine == "python":
        def run_python() -> int:
            playout(g, first, policy)
            return 1
        return run_python
    if engine == "compiled":
        base = fastplay.make_world(g)

        def run_compiled() -> int:
            w = base.copy()
            w.push(first)
            w.playout()
            return 1
        return run_compiled
    obs = observe(g)
    calls = [0]

    def run_evaluate() -> int:
        calls[0] += 1
        fastplay.evaluate(obs, [first], EVALUATE_WORLDS, calls[0])
        return EVALUATE_WORLDS
    return run_evaluate


def measure(games: list[Game], engine: str, seconds: float) -> tuple[int, float]:
    """(playouts, CPU seconds) of ``engine``, cycling over ``games`` (one call each in turn)
    until ``seconds`` of CPU time are spent. Cycling matters: the same playout repeated is
    learnt by the CPU's branch predictor and runs about 3 times as fast as new ones."""
    policy = GreedyPolicy()
    runs = [runner(engine, g, policy) for g in games]
    n = 0
    t0 = time.process_time()
    while True:
        for run in runs:
            n += run()
        spent = time.process_time() - t0
        if spent >= seconds:
            return n, spent


def mean_length(games: list[Game]) -> float:
    """Mean number of moves of the greedy playouts from ``games`` (first move included)."""
    lengths = [len(fastplay.PyWorld(g.copy()).playout_moves()) for g in games]
    return sum(lengths) / len(lengths)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, measure, print the table. Exit code 2 on bad arguments."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[1, 3, 5], help="player counts (1-5)")
    ap.add_argument("--positions", type=int, default=20, help="deals per player count (≥ 1)")
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per table cell (at least one round)")
    args = ap.parse_args(argv)
    if args.positions < 1 or args.seconds <= 0 or any(not 1 <= p <= 5 for p in args.players):
        ap.error("--positions ≥ 1, --seconds > 0 and --players within 1..5")
    engines = ["python"]
    if fastplay.AVAILABLE:
        engines += ["compiled", "evaluate"]
    else:
        print("note: bots._playout is not built; compiled rows skipped", file=sys.stderr)
    print("| players | from | moves/playout | " + " | ".join(f"{e} playouts/CPU s" for e in engines)
          + (" | speed-up |" if len(engines) > 1 else " |"))
    print("|---|---|---|" + "---|" * len(engines) + ("---|" if len(engines) > 1 else ""))
    for p in args.players:
        for mid in (False, True):
            games = positions(p, args.positions, mid)
            if not games:
                continue
            rates = []
            for e in engines:
                n, t = measure(games, e, args.seconds)
                rates.append(n / t)
            cells = " | ".join(f"{r:,.0f}" for r in rates)
            ratio = f" | {rates[1] / rates[0]:.0f}× |" if len(rates) > 1 else " |"
            print(f"| {p} | {'mid-game' if mid else 'start'} | {mean_length(games):.1f} | {cells}{ratio}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
