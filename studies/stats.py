"""Statistics of study reports: Wilson score intervals, unknowns counted both ways, percentiles.

A share won over ``n`` deals is reported with the Wilson score interval (Wilson 1927; the
interval Solvitaire's winnability tables use), which behaves at 0 % and 100 % where the normal
approximation does not. Deals whose verdict is unknown (a limit ran out) are counted both
ways, as Solvitaire does: the lower end treats them as losses, the upper end as wins, so the
interval covers every way the unknowns could fall.

>>> lo, hi = wilson(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
>>> lo, hi = wilson_unknown(won=8, unknown=1, n=10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9821)
"""

from __future__ import annotations

import math
from typing import Sequence


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval ``(lo, hi)`` (shares in 0..1) of ``k`` successes in ``n``
    trials at ``z`` standard deviations (1.96: 95 %). ``(0.0, 1.0)`` when ``n`` is 0.

    Raises ``ValueError`` unless ``0 <= k <= n``.

    >>> wilson(6, 6)[1], wilson(0, 11)[0]
    (1.0, 0.0)
    """
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, not k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # at k = 0 and k = n the ends are exactly 0 and 1 (floating point gave 1 - 1e-16, and a
    # plot's error bar from the share to that end was then negative)
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return lo, hi


def wilson_unknown(won: int, unknown: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The interval of the share won with ``unknown`` deals counted both ways: the lower end
    of :func:`wilson` with them as losses, the upper end with them as wins.

    Raises ``ValueError`` unless ``won + unknown <= n`` (all non-negative).
    """
    if won < 0 or unknown < 0 or won + unknown > n:
        raise ValueError(f"need won + unknown <= n, not {won} + {unknown} > {n}")
    return wilson(won, n, z)[0], wilson(won + unknown, n, z)[1]


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank ``q``-percentile (0 < q <= 100) of ``values``; ``None`` when empty.

    >>> percentile([1, 2, 3, 4], 50), percentile([1, 2, 3, 4], 95)
    (2, 4)
    """
    if not values:
        return None
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]
