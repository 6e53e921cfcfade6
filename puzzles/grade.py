"""Difficulty grades of the daily puzzles: features, score, calibrated thresholds.

Every candidate puzzle gets measured **features** (stored in the puzzle record) and one
**score** (higher = harder), and the score falls into a band by thresholds calibrated on
candidate puzzles (``python -m benchmarks.daily calibrate``, results in
``benchmarks/results/daily-calibration.md``): the thresholds are the 25th, 50th and 75th
percentiles of the calibration scores of that kind and size, moved to the nearest split
that leaves no band empty (:func:`quantile_thresholds`), so every band is populated.

Deal puzzles (goal: the Summit with at most *par* cards out of the game):

* ``par``, ``par_proven``, ``solver_nodes``: from the waste-optimising solver;
* ``greedy_waste``: cards out of the game of the deterministic greedy player
  (:mod:`puzzles.playouts`), ``None`` when it loses;
* ``greedy_gap``: ``greedy_waste - par``, or the deck size when the greedy player loses;
* ``playouts``, ``playout_wins``, ``playout_wins_within_par``: noisy greedy playouts.
* ``beam_width``: the narrowest beam of the solver (1, 2, 4, ... 32, one way to pay kept)
  that wins; ``beam_gap``: its win's cards out of the game minus par;
* **score**, full: ``log2(beam_width)`` (how much look-ahead a win needs; the greedy
  player never wins a full deal); mini: ``greedy_gap`` (how many cards more than par the
  obvious play costs).

Position puzzles (goal: win from the position):

* ``empty_slots``, ``first_moves``, ``winning_first_moves``, ``winning_lines``,
  ``key_moves``, ``states``, ``par`` (the fewest cards out of the game on a winning line);
* ``random_win``: the exact chance that uniformly random legal moves win;
* ``playouts``, ``playout_wins``: noisy greedy playouts;
* **score** = ``-log10(random_win)`` (how unlikely a player without a plan is to win).

**Second signal.** The noisy greedy playouts are not part of any score: full deals
(where they never win) by the mean share of the mountain they fill (``playout_filled``),
mini deals by the share that reach the Summit within par, positions by the share that
win. The calibration report shows whether its mean falls from ``easy`` to ``expert``.
"""

from __future__ import annotations

import math
from typing import Any

from puzzles.dates import GRADES

#: Calibrated thresholds (score ≤ t[0] easy, ≤ t[1] medium, ≤ t[2] hard, else expert) per
#: (kind, size). Written from ``benchmarks/results/daily-calibration.md``.
THRESHOLDS: dict[tuple[str, str], tuple[float, float, float]] = {
    ("deal", "full"): (1.0, 2.0, 3.0),
    ("deal", "mini"): (1.0, 3.0, 9.0),
    ("position", "full"): (2.30103, 2.967125, 3.900947),
    ("position", "mini"): (1.66552, 2.00786, 2.60718),
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
    """Thresholds ``(t1, t2, t3)`` that split ``scores`` into four non-empty bands
    (``s ≤ t1``, ``t1 < s ≤ t2``, ``t2 < s ≤ t3``, ``s > t3``) as close as possible to the
    quartiles: among all choices of three of the distinct score values, the one whose
    cumulative shares are nearest (least total absolute difference) to 25 %, 50 % and 75 %.
    Scores take few distinct values for some kinds, so plain percentiles could leave a band
    empty. Raises ``ValueError`` with fewer than four distinct scores."""
    xs = sorted(scores)
    values = sorted(set(xs))
    if len(values) < 4:
        raise ValueError(f"{len(values)} distinct scores: four bands cannot all be populated")
    n = len(xs)
    cum = []
    count = 0
    for v in values:
        count += xs.count(v)
        cum.append(count / n)
    best = None
    m = len(values)
    for i in range(m - 3):
        for j in range(i + 1, m - 2):
            for k in range(j + 1, m - 1):
                cost = abs(cum[i] - 0.25) + abs(cum[j] - 0.5) + abs(cum[k] - 0.75)
                if best is None or cost < best[0]:
                    best = (cost, (values[i], values[j], values[k]))
    assert best is not None
    return best[1]
