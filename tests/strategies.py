"""Hypothesis strategies for tiny games that the naive reference solver decides quickly.

:func:`tiny_games` draws a :class:`~model.deal.Deal` (a seed, 1–3 players and a
:class:`~model.rules.RuleSet` with every ruling option drawn) from small geometries:

* 2 rows (3 + 2 slots and the peak) with Ascent values 2–4 in 2 or 3 colours, 1–2 copies,
  0–1 Campfire per colour, 0–1 Bridge, 1–2 Summits, hands of 2 or 3;
* 3 rows (4 + 3 + 2 slots and the peak) with values 3, 2 colours, 2 copies, hands of 2 or 3.

A size budget (:func:`fits_budget`) keeps the full game tree small: the reference solver
decides each drawn deal in well under a second (typically a few hundredths of a second) for
every objective. Hands of 3 make wins common, hands of 2 and 3 rows make losses common;
about half the drawn deals are wins (see :func:`win_loss_mix`).
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable, Sequence

from hypothesis import settings
from hypothesis import strategies as st

from model.deal import Deal
from model.rules import CHOICES, RuleSet


def examples(full: int) -> int:
    """The examples a property test runs under the loaded hypothesis profile (conftest.py):
    ``full`` under ``ci``; under ``dev`` (the quick loop) the profile's share of it (a
    quarter), but never fewer than 10 or ``full`` when that is smaller."""
    share = settings.default.max_examples  # the profile's percentage of the full count
    return max(min(full, 10), round(full * share / 100))


def deck_size(cfg: dict[str, int]) -> int:
    """Cards in the deck of the geometry/deck parameters ``cfg`` (R1)."""
    return (
        cfg["values"] * cfg["colours"] * cfg["copies"]
        + cfg["colours"] * cfg["campfires"]
        + cfg["bridges"]
        + cfg["summits"]
    )


def fits_budget(cfg: dict[str, int], players: int) -> bool:
    """Whether the reference solver decides a deal of ``cfg`` for ``players`` players fast.

    Measured (pure Python, one core): with hands of 3 a full search of a 10-card solo deal
    takes about 0.15 s, each further card roughly triples it, and each further player divides
    it by about 3; with hands of 2 even 13 cards take a few hundredths of a second. Also
    requires enough cards besides the Summits to fill every row (else the loss is trivial).
    """
    n = deck_size(cfg)
    rows = cfg["rows"]
    slots = sum(rows + 2 - r for r in range(1, rows + 1))
    if n - cfg["summits"] < slots or cfg["values"] < min(rows, 2):
        return False
    if cfg["hand_size"] == 3:
        return n <= 9 + players if rows == 2 else (players == 3 and n <= 13)
    return n <= 13


def build_rules(pick: Callable[[Sequence[Any]], Any], players: int = 1) -> RuleSet:
    """A small :class:`RuleSet` within :func:`fits_budget` for ``players``; ``pick`` chooses
    one element of a sequence (hypothesis ``sampled_from`` or ``random.choice``). Every
    ruling option (``bridge_neighbour``, ``bridge_replace_cost``, ``campfire_move_cost``,
    ``dealing``) is picked from its named values."""
    rows = pick([2, 2, 2, 3])
    if rows == 2:
        cfg = {
            "rows": 2,
            "values": pick([2, 3, 4]),
            "colours": pick([2, 2, 2, 3]),
            "copies": pick([1, 2]),
            "campfires": pick([0, 1]),
            "bridges": pick([0, 1]),
            "summits": pick([1, 2]),
            "hand_size": pick([2, 3]),
        }
    else:
        cfg = {
            "rows": 3, "values": 3, "colours": 2, "copies": 2,
            "campfires": pick([0, 1]),
            "bridges": pick([0, 1]),
            "summits": 1,
            "hand_size": pick([2, 3]),
        }
    if not fits_budget(cfg, players):
        # Shrink the deck until it fits (keeps every draw usable instead of filtering).
        for key, lo in (("copies", 1), ("summits", 1), ("campfires", 0), ("colours", 2),
                        ("values", 2)):
            while cfg[key] > lo and not fits_budget(cfg, players):
                cfg[key] -= 1
        if not fits_budget(cfg, players):
            cfg["hand_size"] = 2
        if not fits_budget(cfg, players):
            cfg.update(rows=2, values=3, colours=2, copies=1, campfires=1, bridges=1,
                       summits=1, hand_size=2)
    options: dict[str, Any] = {"preset": "tiny", **{k: str(v) for k, v in cfg.items()}}
    for name, values in CHOICES.items():
        options[name] = pick(values)
    return RuleSet.from_options(options)


@st.composite
def tiny_rules(draw: Any, players: int = 1) -> RuleSet:
    """Hypothesis strategy of :func:`build_rules` for ``players``."""
    return build_rules(lambda xs: draw(st.sampled_from(list(xs))), players)


@st.composite
def tiny_games(draw: Any, players: st.SearchStrategy[int] | None = None) -> Deal:
    """A :class:`Deal` of a tiny game: seed 0–2**32, 1–3 players (or from ``players``),
    rules from :func:`tiny_rules`. ``deal.seed``, ``deal.players`` and ``deal.rules`` say
    what was drawn."""
    p = draw(players if players is not None else st.integers(1, 3))
    rules = draw(tiny_rules(p))
    seed = draw(st.integers(0, 2**32))
    return Deal.from_seed(seed, p, rules)


def random_tiny_game(rng: random.Random) -> Deal:
    """One deal drawn like :func:`tiny_games`, from a plain ``random.Random`` (for scripts
    such as :func:`win_loss_mix` and the benchmark test)."""
    players = rng.randint(1, 3)
    rules = build_rules(lambda xs: rng.choice(list(xs)), players)
    return Deal.from_seed(rng.randint(0, 2**32), players, rules)


def win_loss_mix(samples: int = 200, objective: str = "waste", seed: int = 1) -> dict[str, Any]:
    """Solve ``samples`` deals drawn like :func:`tiny_games` with the reference solver:
    wins, losses, win/loss counts per player count, and reference seconds (mean, max).
    A measuring tool for choosing the budget (run it by hand), not a test."""
    from tests.reference import reference_solve

    rng = random.Random(seed)
    wins = losses = 0
    times = []
    by_players: dict[int, list[int]] = {}
    for _ in range(samples):
        deal = random_tiny_game(rng)
        t = time.perf_counter()
        verdict, _ = reference_solve(deal, objective)
        times.append(time.perf_counter() - t)
        wins += verdict == "win"
        losses += verdict == "loss"
        by_players.setdefault(deal.players, [0, 0])[verdict == "loss"] += 1
    times.sort()
    return {
        "wins": wins, "losses": losses, "by_players_win_loss": dict(sorted(by_players.items())),
        "mean_seconds": round(sum(times) / len(times), 4),
        "p95_seconds": round(times[int(0.95 * (len(times) - 1))], 4),
        "max_seconds": round(times[-1], 4),
    }


if __name__ == "__main__":  # python -m tests.strategies [samples]
    import sys

    print(win_loss_mix(int(sys.argv[1]) if len(sys.argv) > 1 else 200))


def random_position(deal, rng, steps: int):
    """The :class:`~model.game.Game` after up to ``steps`` random legal moves (drawn with
    ``rng``, a :class:`random.Random`) from ``deal``; fewer if the game ends first."""
    from model.game import Game

    game = Game(deal)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves or game.is_over():
            break
        game.push(rng.choice(moves))
    return game
