"""The estimator for the team that played: the greedy estimator's chances, calibrated.

The review's chances come from worlds played on by the greedy bot in every seat
(:mod:`bots.advice`). A team of stronger bots wins far more often than greedy play does from
the same position: on games played by ``uct`` team-mates the greedy estimate is 2–73 points
pessimistic (``benchmarks/results/uct-2026-12-04/marks/marks.md``). Playing every world with
``uct`` itself would cost ~0.1 s a move a world, far beyond a review's time; so the chance is
instead mapped through a **calibration map** fitted on positions of that team's games: the
isotonic regression (pool-adjacent-violators, :func:`scipy.optimize.isotonic_regression`) of
whether the game was won on the greedy chance, as a monotone piecewise-linear map between the
fitted blocks' mean chances (:class:`Calibration`). Monotone, so it keeps the order of moves
rated in the same position; fitted on one half of the games (odd seeds) and checked on the
other (``python -m benchmarks.review_marks fit`` and ``report``).

The maps ship in ``bots/data/calibration-TEAM.json``; :func:`calibration_for` gives the one of
a team (``None`` where there is none: the greedy estimate is shown as it is).

>>> c = Calibration("t", "greedy", ((0.0, 0.1), (0.5, 0.8), (1.0, 1.0)))
>>> c(0.0), round(c(0.25), 4), c(1.0)
(0.1, 0.45, 1.0)
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Sequence

DATA = Path(__file__).with_name("data")


@dataclass(frozen=True)
class Calibration:
    """A monotone map from the ``estimator``'s chance to the chance of the ``team`` (the bot
    that sat in every seat of the games it was fitted on): ``knots`` ``(x, y)`` in
    increasing ``x`` and non-decreasing ``y`` (shares in 0..1), linear between them and flat
    outside; ``info``: how it was fitted (positions, games, date)."""

    team: str
    estimator: str
    knots: tuple[tuple[float, float], ...]
    info: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        xs = [x for x, _ in self.knots]
        ys = [y for _, y in self.knots]
        if not self.knots or xs != sorted(xs) or ys != sorted(ys) or \
                not all(0.0 <= v <= 1.0 for v in xs + ys):
            raise ValueError("a calibration needs knots increasing in x and y, within 0..1")

    def __call__(self, chance: float) -> float:
        """The team's chance for the estimator's ``chance`` (0..1)."""
        xs = [x for x, _ in self.knots]
        i = bisect.bisect_right(xs, chance)
        if i == 0:
            return self.knots[0][1]
        if i == len(xs):
            return self.knots[-1][1]
        (x0, y0), (x1, y1) = self.knots[i - 1], self.knots[i]
        return y0 if x1 == x0 else y0 + (y1 - y0) * (chance - x0) / (x1 - x0)

    def interval(self, lo: float, hi: float) -> tuple[float, float]:
        """An interval of the estimator's chance mapped to the team's (the map is
        monotone, so the ends map to the ends)."""
        return self(lo), self(hi)

    def to_json(self) -> dict[str, Any]:
        return {"team": self.team, "estimator": self.estimator,
                "knots": [[round(x, 6), round(y, 6)] for x, y in self.knots], **self.info}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        """Read :meth:`to_json`'s form. Raises ``KeyError``, ``TypeError`` or
        ``ValueError`` for a malformed one."""
        info = {k: v for k, v in data.items() if k not in ("team", "estimator", "knots")}
        return cls(str(data["team"]), str(data["estimator"]),
                   tuple((float(x), float(y)) for x, y in data["knots"]), info)


def fit_calibration(chances: Sequence[float], won: Sequence[bool], team: str,
                    estimator: str = "greedy", info: dict[str, Any] | None = None
                    ) -> Calibration:
    """The isotonic calibration of ``won`` (whether each position's game was won) on the
    estimator's ``chances`` (one a position): the pool-adjacent-violators fit, one knot a
    block at its mean chance. Needs SciPy (≥ 1.12; only the fit, which the benchmark makes:
    the reviews read the fitted knots). Raises ``ValueError`` for no position or lengths
    that differ."""
    from scipy.optimize import isotonic_regression  # type: ignore[import-untyped, unused-ignore]

    if not chances or len(chances) != len(won):
        raise ValueError("need one outcome per chance, and at least one")
    order = sorted(range(len(chances)), key=lambda i: chances[i])
    xs = [float(chances[i]) for i in order]
    fitted = isotonic_regression([1.0 if won[i] else 0.0 for i in order]).x
    knots: list[tuple[float, float]] = []
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and fitted[j + 1] == fitted[i]:
            j += 1
        x = sum(xs[i:j + 1]) / (j + 1 - i)
        y = min(1.0, max(0.0, float(fitted[i])))
        if knots and x <= knots[-1][0]:  # equal chances in two blocks: keep the higher
            knots[-1] = (knots[-1][0], max(knots[-1][1], y))
        else:
            knots.append((x, y))
        i = j + 1
    return Calibration(team, estimator, tuple(knots),
                       {"positions": len(xs), **(info or {})})


@cache
def calibration_for(team: str | None, estimator: str = "greedy") -> Calibration | None:
    """The calibration of ``estimator``'s chances for games played by ``team`` (the bot in
    the other seats), or ``None`` when the project has none (then the estimator's chance is
    shown as it is)."""
    if not team:
        return None
    path = DATA / f"calibration-{team}.json"
    if not path.is_file():
        return None
    c = Calibration.from_json(json.loads(path.read_text(encoding="utf-8")))
    return c if c.estimator == estimator else None


def calibrated_teams() -> list[str]:
    """The teams with a calibration (``bots/data/calibration-TEAM.json``)."""
    return sorted(p.stem.removeprefix("calibration-") for p in DATA.glob("calibration-*.json"))


__all__ = ["Calibration", "calibrated_teams", "calibration_for", "fit_calibration"]
