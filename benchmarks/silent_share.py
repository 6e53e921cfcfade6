"""Where the silent team's losses come from (issue 41 item 3): ``uct`` searched over the
true position instead of sampled worlds.

Usage (one process, run it with ``nice``)::

    python -m benchmarks.silent_share oracle --out DIR --players 5 --seeds 60001-60008

``oracle`` plays every deal of ``--seeds`` with :class:`OracleWorldsUCT` in every seat: the
``uct`` bot, same tree, same blueprint, same iterations, except that every iteration's
world is the real position (every hand and deck), not one sampled from the observation.
It **peeks by construction**: it is a diagnostic, never a bot, and it is not registered in
:func:`bots.make_bot`. On deals the open hand wins, compare its outcome with ``best``'s on
the same deal (``ascent simulate --bot best --seeds ...``):

- ``oracle`` wins where ``best`` loses: the loss comes from the worlds (what the seat does
  not know about its partners' hands and the decks);
- ``oracle`` loses too: it comes from the tree or the blueprint (the partners in the tree
  play greedy's first choice; the playouts are greedy), not from hidden information.

One row per game (players, seed, outcome, slots, moves, process CPU s) goes to
``DIR/oracle.jsonl``, appended as it is played; an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.journal import append_row, read_rows, seed_range


class OracleWorldsUCT:
    """``uct`` whose worlds are the true position (see the module docstring). Built with
    the keyword arguments of :class:`bots.uct.UctBot`; :meth:`play` plays one deal with it
    in every seat and returns ``(outcome, slots, moves)``. Peeks: a diagnostic only."""

    sees_hidden_cards = True

    def __init__(self, **params) -> None:
        from bots.uct import UctBot

        self.params = params

        class _Peeking(UctBot):
            truth: Any = None  # the real Game at the current decision, set by play()

            def _world_source(self, observation, rng):  # the real position every iteration
                from bots import fastplay

                self.partners = None
                base = fastplay.make_world(self.truth)
                return lambda i: base.copy()

        self.bot = _Peeking(**params)

    def play(self, deal) -> tuple[str, int, int]:
        """Play ``deal`` (a :class:`model.deal.Deal`) to its end; every move is checked by
        :meth:`model.game.Game.push`."""
        from model.game import Game
        from model.observation import observe

        game = Game(deal)
        limit = len(deal.rules.composition()) + 1
        while game.outcome() is None and game.turn < limit:
            self.bot.truth = game
            game.push(self.bot.choose(observe(game)))
        return game.outcome() or "loss", game.filled_slots(), game.turn


def oracle(out: Path, players: list[int], seeds: list[int], iterations: int) -> None:
    """The ``oracle`` step (module docstring)."""
    from model.deal import Deal

    path = out / "oracle.jsonl"
    done = {(r["players"], r["seed"]) for r in read_rows(path)}
    for s in seeds:
        for p in players:
            if (p, s) in done:
                continue
            t0 = time.process_time()
            outcome, slots, moves = OracleWorldsUCT(iterations=iterations).play(
                Deal.from_seed(s, players=p))
            cpu = time.process_time() - t0
            append_row(path, {"bot": "oracle-worlds-uct", "iterations": iterations,
                              "players": p, "seed": s, "outcome": outcome, "slots": slots,
                              "moves": moves, "cpu_s": round(cpu, 2),
                              "cpu_s_per_move": round(cpu / max(moves, 1), 4)})
            print(f"oracle P{p} seed {s}: {outcome} {slots} slots {cpu:.1f} CPU s",
                  file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring); exit 2 with a one-line error on bad input."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks.silent_share")
    sub = ap.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("oracle")
    o.add_argument("--out", required=True)
    o.add_argument("--players", default="5")
    o.add_argument("--seeds", default="60001-60008")
    o.add_argument("--iterations", type=int, default=1600)
    a = ap.parse_args(argv)
    try:
        players = seed_range(a.players) if "-" in a.players else [int(x) for x in a.players.split(",")]
        seeds = seed_range(a.seeds)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    oracle(out, players, seeds, a.iterations)
    return 0


if __name__ == "__main__":
    sys.exit(main())
