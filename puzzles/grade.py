"""Difficulty grades of the daily puzzles: features, score, calibrated thresholds.

Every candidate puzzle gets measured **features** (stored in the puzzle record) and one
**score** (higher = harder), and the score falls into a band by thresholds calibrated on
candidate puzzles (``python -m benchmarks.daily calibrate``, results in
``benchmarks/results/daily-calibration.md``): the thresholds are the 25th, 50th and 75th
percentiles of the calibration scores of that kind and size, so every band is populated.

Deal puzzles (goal: the Summit with at most *par* cards out of the game):

* ``par``, ``par_proven``, ``solver_nodes``: from the waste-optimising solver;
* ``greedy_waste``: cards out of the game of the deterministic greedy player
  (:mod:`puzzles.playouts`), ``None`` when it loses;
* ``greedy_gap``: ``greedy_waste - par``, or the deck size when the greedy player loses;
* ``playouts``, ``playout_wins``, ``playout_wins_within_par``: noisy greedy playouts.
* **score** = ``greedy_gap`` (how many cards more than par the obvious play costs).

Position puzzles (goal: win from the position):

* ``empty_slots``, ``first_moves``, ``winning_first_moves``, ``winning_lines``,
  ``key_moves``, ``states``, ``par`` (the fewest cards out of the game on a winning line);
* ``random_win``: the exact chance that uniformly random legal moves win;
* ``playouts``, ``playout_wins``: noisy greedy playouts;
* **score** = ``-log10(random_win)`` (how unlikely a player without a plan is to win).

**Second signal.** The noisy greedy playout success (``playout_wins / playouts``) is not
part of either score; the calibration checks that its mean falls from ``easy`` to
``expert`` (see the calibration report).
"""

from __future__ import annotations

import math
from typing import Any

from puzzles.dates import GRADES

#: Calibrated thresholds (score ≤ t[0] easy, ≤ t[1] medium, ≤ t[2] hard, else expert) per
#: (kind, size). Written from ``benchmarks/results/daily-calibration.md``.
THRESHOLDS: dict[tuple[str, str], tuple[float, float, float]] = {
    ("deal", "full"): (4.0, 8.0, 14.0),
    ("deal", "mini"): (1.0, 2.0, 3.0),
    ("position", "full"): (1.0, 2.0, 3.0),
    ("position", "mini"): (1.0, 2.0, 3.0),
}


def score(kind: str, size: str, features: dict[str, Any]) -> float:
    """The difficulty score of a candidate (higher is harder), see the module docstring."""
    if kind == "deal" and size == "full":
        return float(round(math.log2(features["beam_width"]), 6))
    if kind == "deal":
        return float(features["greedy_gap"])
    p = features["random_win"]
    return round(-math.log10(p), 6) if p > 0 else 99.0


def grade_of(kind: str, size: str, s: float,
             thresholds: dict[tuple[str, str], tuple[float, float, float]] | None = None) -> str:
    """The band of score ``s`` for ``kind``/``size``: ``easy``, ``medium``, ``hard`` or
    ``expert``."""
    t = (thresholds or THRESHOLDS)[kind, size]
    for band, limit in zip(GRADES, t):
        if s <= limit:
            return band
    return GRADES[-1]


def quantile_thresholds(scores: list[float]) -> tuple[float, float, float]:
    """The 25th, 50th and 75th percentiles (nearest rank, lower) of ``scores``."""
    xs = sorted(scores)
    if not xs:
        raise ValueError("no scores to calibrate on")

    def q(f: float) -> float:
        return xs[max(0, math.ceil(f * len(xs)) - 1)]

    return (q(0.25), q(0.5), q(0.75))
