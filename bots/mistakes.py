"""Naming the mistakes: the move played against the best alternative, paired in the same worlds.

:func:`compare_moves` answers, for one decision, "how much did the move played cost?" from
the mover's observation alone (ruling V1). Worlds are drawn from the fair-shuffle posterior
of the unseen cards (:func:`model.observation.sample_world`, R13); in each world *both*
moves are played and the world is played on to its end by a team-mate policy, with the same
future randomness for both (common random numbers: the same world and the same seed for the
partners' and later choices). So each world gives a *pair* of outcomes (won after the
alternative, won after the move played), and the drop in the chance to win is the mean of
the paired differences.

**The interval.** The 95 % interval of the drop is Newcombe's hybrid score interval for a
difference of paired proportions (Newcombe 1998, *Statistics in Medicine* 17:2635, method
10: the Wilson intervals of both chances, combined with the phi correlation of the pairs;
:func:`paired_interval`). It is fast, never leaves [−1, 1], and keeps close to its nominal
coverage at the small counts of a review (zero or few discordant worlds), where a Wald
interval of the differences collapses to a point.

**Sequential worlds.** Worlds are played in looks of doubling size (``first`` worlds, then
2×, 4×, … up to ``cap``); after each look the comparison stops when the interval lies above
0 (the alternative is surely better), below 0 (the move played is surely better), or below
:data:`INACCURACY` (whatever the truth, it cannot be an inaccuracy). Looking several times
would make a 95 % interval wrong more than 5 % of the time, so each look uses the level
1 − 0.05 / K (Bonferroni over the K looks the cap allows): the interval shown and used is
then a 95 % interval over the whole sequence.

**The marks,** on lichess's scale of the drop in the chance to win (its win-percentage
thresholds: 5, 10 and 15 points): ``inaccuracy`` (drop ≥ 5 points), ``mistake`` (≥ 10),
``blunder`` (≥ 15) — and only when the interval's lower end is above 0. That is the mark of
the decision *alone* (:attr:`Comparison.mark`).

**The p-value** of a decision (:attr:`Comparison.p_value`) tests "the alternative wins no
more often than the move played": at each look, the one-sided exact McNemar p-value of the
discordant worlds (the worlds won after one move and lost after the other;
:func:`mcnemar_p`); the smallest over the looks made, times the K looks the cap allows
(Bonferroni over the looks, as for the interval), capped at 1. It is a valid p-value however
the comparison stopped: P(some look's p ≤ α/K) ≤ K · α/K under the null, and the looks not
made only make the minimum larger. ``sure`` = 1 − that p-value.

**The game-wide control** (:func:`bh_qvalues`): a review compares some 45 decisions, so
about 1 in 40 equal decisions would be marked by chance. Benjamini and Hochberg's step-up
procedure (1995, *J. R. Stat. Soc. B* 57:289) over the p-values of the decisions compared
in a game gives each its q-value; keeping the marks with q ≤ :data:`FDR_LEVEL` keeps the
expected share of false marks among the marks at most 5 % (the decisions' worlds are drawn
independently, so the p-values are independent given the game: BH's condition).

**The evaluator** is one small pluggable function (:data:`WorldEvaluator`): given a world,
the moves and a seed, whether each move wins the world. :func:`playout_evaluator` gives the
default, a playout under the team-mate policy of :mod:`bots.advice` (``greedy`` or the
``determinized`` bot of the ``best`` estimator in every seat, each seat seeing only its own
observation).

>>> paired_interval(0, 0, 0, 0)
(-1.0, 1.0)
>>> mark_of(0.12, (0.02, 0.2)), mark_of(0.12, (-0.01, 0.2)), mark_of(0.03, (0.01, 0.05))
('mistake', None, None)
>>> [round(q, 4) for q in bh_qvalues([0.01, 0.04, 0.03, 0.5])]
[0.04, 0.0533, 0.0533, 0.5]
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Callable, Sequence

from model.game import Game
from model.moves import Move
from model.observation import Observation, sample_world
from studies.stats import wilson

#: lichess's thresholds (drop in the chance to win, shares): the smallest drop of each mark
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.15
MARKS = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
#: the sign of each mark in the text and the plot (as chess annotators write them)
MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: the confidence of the interval over the whole sequence of looks
LEVEL = 0.95
FIRST_WORLDS = 16
CAP_WORLDS = 256
#: the game-wide false discovery rate of the marks (Benjamini–Hochberg)
FDR_LEVEL = 0.05

#: ``evaluate(world, moves, seed) -> [won after moves[0], won after moves[1], …]``: each move
#: played in ``world`` (the mover to move) and the world played on to its end with the
#: randomness ``seed`` (the same for every move: common random numbers). The world is given
#: back unchanged.
WorldEvaluator = Callable[[Game, Sequence[Move], int], list[bool]]


def playout_evaluator(estimator: str = "greedy") -> WorldEvaluator:
    """The default :data:`WorldEvaluator`: every move played on by :class:`bots.advice.
    WorldPlayer` with ``estimator`` (``greedy``: the greedy bot in every seat, deterministic;
    ``best``: the ``determinized`` bot, its random stream seeded by ``seed``, the same for each
    move; ``beam``: the open-hand beam, an upper estimate). Raises ``ValueError`` for an
    unknown estimator."""
    from bots.advice import WorldPlayer

    WorldPlayer(estimator)  # an unknown estimator fails here, before any world
    players: dict[int, WorldPlayer] = {}

    def evaluate(world: Game, moves: Sequence[Move], seed: int) -> list[bool]:
        player = players.get(seed)
        if player is None:
            players.clear()  # one world at a time: keep only this seed's bot
            player = players[seed] = WorldPlayer(estimator, seed)
        wins = []
        for m in moves:
            world.push(m)
            try:
                won, _, _ = player.finish(world)
            finally:
                world.pop()
            wins.append(won)
        return wins

    return evaluate


def paired_interval(both: int, alt_only: int, played_only: int, neither: int,
                    z: float = 1.959963984540054) -> tuple[float, float]:
    """Newcombe's hybrid score interval (1998, method 10) of ``p_alt − p_played`` from paired
    outcomes: ``both`` worlds won after either move, ``alt_only`` won only after the
    alternative, ``played_only`` only after the move played, ``neither``. ``z``: standard
    normal quantile (1.96: 95 %). ``(−1, 1)`` with no world. Raises ``ValueError`` for a
    negative count."""
    if min(both, alt_only, played_only, neither) < 0:
        raise ValueError("counts must be ≥ 0")
    n = both + alt_only + played_only + neither
    if n == 0:
        return -1.0, 1.0
    p1, p2 = (both + alt_only) / n, (both + played_only) / n
    l1, u1 = wilson(both + alt_only, n, z)
    l2, u2 = wilson(both + played_only, n, z)
    denom = (both + alt_only) * (played_only + neither) * (both + played_only) \
        * (alt_only + neither)
    phi = 0.0 if denom == 0 else (both * neither - alt_only * played_only) / math.sqrt(denom)
    d = p1 - p2
    lo = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)
                           + (u2 - p2) ** 2))
    hi = d + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2)
                           + (p2 - l2) ** 2))
    return max(-1.0, lo), min(1.0, hi)


def mcnemar_p(alt_only: int, played_only: int) -> float:
    """The one-sided exact McNemar p-value that the alternative wins more often:
    P(X ≥ ``alt_only``) for X ~ Binomial(``alt_only + played_only``, ½) (the discordant
    worlds split evenly if both moves were as good). 1.0 with no world won by the
    alternative alone.

    >>> mcnemar_p(6, 0), mcnemar_p(0, 3)
    (0.015625, 1.0)
    """
    if alt_only <= 0:
        return 1.0
    m = alt_only + played_only
    return sum(math.comb(m, k) for k in range(alt_only, m + 1)) / 2 ** m


def sureness(alt_only: int, played_only: int) -> float:
    """How sure it is that the alternative wins more often, from one look: 1 −
    :func:`mcnemar_p`. 0.0 with no world won by the alternative alone.

    >>> round(sureness(6, 0), 4), round(sureness(3, 3), 4)
    (0.9844, 0.3438)
    """
    return 0.0 if alt_only <= 0 else 1.0 - mcnemar_p(alt_only, played_only)


def bh_qvalues(p_values: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg q-values (adjusted p-values, 1995) of ``p_values``, in their order:
    with the p-values sorted p₍₁₎ ≤ … ≤ p₍ₘ₎, q₍ᵢ₎ = min over j ≥ i of m·p₍ⱼ₎ / j, capped at
    1. The hypotheses with q ≤ α are exactly those BH's step-up procedure rejects at false
    discovery rate α; q is monotone in p. ``[]`` for no p-value. Raises ``ValueError`` for a
    p-value outside [0, 1]."""
    m = len(p_values)
    if any(not 0.0 <= p <= 1.0 for p in p_values):
        raise ValueError("p-values must lie in [0, 1]")
    order = sorted(range(m), key=lambda i: p_values[i])
    q = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, m * p_values[i] / rank)
        q[i] = running
    return q


def mark_of(drop: float, interval: tuple[float, float]) -> str | None:
    """The mark of a decision (``inaccuracy``, ``mistake``, ``blunder`` or ``None``) by the
    size of the ``drop`` (:data:`MARKS`), only when ``interval``'s lower end is above 0."""
    if interval[0] <= 0:
        return None
    for name, threshold in MARKS:
        if drop >= threshold - 1e-12:
            return name
    return None


def looks(first: int = FIRST_WORLDS, cap: int = CAP_WORLDS) -> list[int]:
    """The numbers of worlds after which the comparison looks: ``first``, doubling, then
    ``cap``. Raises ``ValueError`` unless 1 ≤ ``first`` ≤ ``cap``.

    >>> looks(16, 256), looks(10, 50)
    ([16, 32, 64, 128, 256], [10, 20, 40, 50])
    """
    if not 1 <= first <= cap:
        raise ValueError(f"need 1 ≤ first ≤ cap, not first={first}, cap={cap}")
    out = [first]
    while out[-1] < cap:
        out.append(min(cap, out[-1] * 2))
    return out


def look_z(k: int, level: float = LEVEL) -> float:
    """The normal quantile of one look when ``k`` looks share ``1 − level`` (Bonferroni,
    two-sided)."""
    return NormalDist().inv_cdf(1 - (1 - level) / (2 * k))


@dataclass
class Comparison:
    """The paired comparison of one decision: the ``played`` move and the ``alternative``,
    the counts of worlds (``both`` won, ``alt_only``, ``played_only``, ``neither``), the
    ``interval`` of the drop (95 % over the sequence of looks), ``stopped`` (``separated``:
    the interval is clear of 0; ``small``: it is below :data:`INACCURACY`; ``cap``: the cap of
    worlds was reached; ``time``: the time limit) and ``seconds``."""

    played: Move
    alternative: Move
    both: int = 0
    alt_only: int = 0
    played_only: int = 0
    neither: int = 0
    interval: tuple[float, float] = (-1.0, 1.0)
    stopped: str = "cap"
    seconds: float = 0.0
    looks_allowed: int = 1
    looks_made: int = 0
    p_looks: float = 1.0

    @property
    def worlds(self) -> int:
        return self.both + self.alt_only + self.played_only + self.neither

    @property
    def chance_played(self) -> float:
        return (self.both + self.played_only) / self.worlds if self.worlds else 0.0

    @property
    def chance_alternative(self) -> float:
        return (self.both + self.alt_only) / self.worlds if self.worlds else 0.0

    @property
    def drop(self) -> float:
        """The drop in the chance to win (shares): alternative's chance − played's."""
        return self.chance_alternative - self.chance_played

    @property
    def mark(self) -> str | None:
        return mark_of(self.drop, self.interval)

    @property
    def p_value(self) -> float:
        """The decision's p-value, adjusted for its sequential looks (module docstring):
        ``min(1, looks_allowed × smallest McNemar p over the looks)`` (the counts now are
        those of the last look, so they count as a look)."""
        p = min(self.p_looks, mcnemar_p(self.alt_only, self.played_only))
        return min(1.0, self.looks_allowed * p)

    @property
    def sure(self) -> float:
        """How sure the alternative is better, this decision alone: 1 − :attr:`p_value`."""
        return 1.0 - self.p_value

    def add(self, alt_won: bool, played_won: bool) -> None:
        """Count one world's pair of outcomes."""
        if alt_won and played_won:
            self.both += 1
        elif alt_won:
            self.alt_only += 1
        elif played_won:
            self.played_only += 1
        else:
            self.neither += 1

    def to_json(self) -> dict[str, Any]:
        """``{"mark", "sure", "p_value", "looks": [made, allowed], "drop", "interval",
        "worlds", "alternative", "chance_played", "chance_alternative", "discordant":
        [alt_only, played_only], "stopped"}``: ``mark``, ``sure`` and ``p_value`` are this
        decision's alone (before any game-wide control); ``p_value`` unrounded."""
        return {"mark": self.mark, "sure": round(self.sure, 4), "p_value": self.p_value,
                "looks": [self.looks_made, self.looks_allowed], "drop": round(self.drop, 4),
                "interval": [round(x, 4) for x in self.interval], "worlds": self.worlds,
                "alternative": self.alternative.to_json(),
                "chance_played": round(self.chance_played, 4),
                "chance_alternative": round(self.chance_alternative, 4),
                "discordant": [self.alt_only, self.played_only], "stopped": self.stopped}


def decide(c: Comparison, z: float) -> str | None:
    """Update ``c.interval`` at the normal quantile ``z`` and say why to stop (``separated``,
    ``small``) or ``None`` to play on."""
    c.interval = paired_interval(c.both, c.alt_only, c.played_only, c.neither, z)
    lo, hi = c.interval
    if lo > 0 or hi < 0:
        return "separated"
    if hi < INACCURACY:
        return "small"
    return None


def compare_moves(observation: Observation, played: Move, alternative: Move,
                  evaluate: WorldEvaluator | None = None, first: int = FIRST_WORLDS,
                  cap: int = CAP_WORLDS, seed: int = 0,
                  time_limit: float | None = None) -> Comparison:
    """The paired comparison of ``played`` and ``alternative`` (legal moves of the player to
    move in ``observation``) in worlds drawn from ``observation`` alone, looked at after
    :func:`looks` (``first``, …, ``cap``) worlds (module docstring). ``evaluate`` defaults
    to :func:`playout_evaluator` (greedy). ``seed`` fixes the worlds and the playouts'
    randomness. ``time_limit`` (seconds): no new look is begun after it (the last look is
    finished). Raises ``ValueError`` for a move that is not legal there or a bad ``first``
    / ``cap``."""
    import time

    t0 = time.monotonic()
    legal = observation.legal_moves()
    for m in (played, alternative):
        if m not in legal:
            raise ValueError(f"{m} is not a legal move of player {observation.player} here")
    plan = looks(first, cap)
    z = look_z(len(plan))
    evaluate = evaluate or playout_evaluator("greedy")
    rng = random.Random(f"mistakes/{seed}")
    c = Comparison(played, alternative, looks_allowed=len(plan))
    if played == alternative:
        c.interval, c.stopped = (0.0, 0.0), "small"
        return c
    for target in plan:
        while c.worlds < target:
            world = sample_world(observation, rng)
            alt_won, played_won = evaluate(world, [alternative, played], rng.getrandbits(31))
            c.add(alt_won, played_won)
        why = decide(c, z)
        c.looks_made += 1
        c.p_looks = min(c.p_looks, mcnemar_p(c.alt_only, c.played_only))
        if why is not None:
            c.stopped = why
            break
        if time_limit is not None and time.monotonic() - t0 >= time_limit:
            c.stopped = "time"
            break
    c.seconds = round(time.monotonic() - t0, 3)
    return c
