"""What every solver returns, and the replay check every plan goes through before it is shown.

Three verdicts, as exhaustive solvers use them (Solvitaire, fc-solve):

* ``win``: a plan that :mod:`model` replays to a win is attached;
* ``loss``: the search was exhaustive and found no win (a proof);
* ``unknown``: a limit (time, nodes, memory) ran out first. Never a guess.

Objectives: ``none`` (any win), ``waste`` (the win with the fewest cards out of the game at
the end: every discard plus every replaced Bridge; the 45 cards on the mountain and the cards
still in hands and decks do not count), ``turns`` (the win with the fewest moves).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from model.deal import Deal
from model.errors import IllegalMoveError
from model.moves import Move
from model.records import Plan, replay

WIN, LOSS, UNKNOWN = "win", "loss", "unknown"
VERDICTS = (WIN, LOSS, UNKNOWN)
OBJECTIVES = ("none", "waste", "turns")


class SolverBug(RuntimeError):
    """A solver produced a plan the rules engine rejects. Never shown as an answer."""


@dataclass
class SolveResult:
    """The answer of one solve.

    * ``verdict``: ``win`` | ``loss`` | ``unknown``;
    * ``objective``: ``none`` | ``waste`` | ``turns``; ``value``: the objective value of
      ``plan`` (waste: cards out of the game at the win; turns: moves), ``None`` without a plan;
    * ``optimal``: ``value`` is proven minimal; ``bound``: the proven lower bound on the
      objective (equal to ``value`` when optimal; ``None`` when nothing was proven);
    * ``plan``: the winning :class:`~model.records.Plan` (replayed by :mod:`model`) or ``None``;
    * ``best_progress``: most mountain slots filled (peak included) on any line the search
      expanded (bounds and the table skip lines that cannot win, so this is the furthest
      found, a lower bound on the furthest possible);
      ``best_line``: the moves of that line from the start;
    * ``solver``: which solver proved the answer (``dfs``, ``cpsat``...);
    * ``stats``: ``nodes``, ``seconds``, ``table_entries`` and solver-specific counters.
    """

    verdict: str
    objective: str = "none"
    deal: Deal | None = None
    plan: Plan | None = None
    value: int | None = None
    optimal: bool = False
    bound: int | None = None
    best_progress: int = 0
    best_line: list[Move] = field(default_factory=list)
    solver: str = "dfs"
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready answer: ``verdict``, ``plan`` (game-record JSON or null), ``objective``,
        ``bound``, ``best_progress``, ``solver``, ``stats``, and the ``deal`` and ``rules``
        (so that :func:`model.records.load` reads an answer back as its plan or, without a
        win, its furthest line). Deterministic for equal input, except ``stats.seconds`` and
        rates."""
        from model.records import deal_to_data

        head: dict[str, Any] = {}
        if self.deal is not None:
            head = {"deal": deal_to_data(self.deal), "rules": self.deal.rules.to_dict()}
        return {
            **head,
            "verdict": self.verdict,
            "solver": self.solver,
            "objective": {"name": self.objective, "value": self.value, "optimal": self.optimal},
            "bound": self.bound,
            "plan": self.plan.to_json() if self.plan else None,
            "best_progress": {
                "slots": self.best_progress,
                "moves": [m.to_json() for m in self.best_line],
            },
            "stats": self.stats,
        }


def waste_of(plan_moves: Sequence[Move], deal: Deal) -> int:
    """Cards out of the game after ``plan_moves`` (discards and replaced Bridges)."""
    return len(replay(deal, plan_moves).game.out)


def checked_plan(deal: Deal, moves: Sequence[Move], solver: str) -> Plan:
    """Replay ``moves`` through :mod:`model` and return them as a :class:`Plan` if they are
    legal and end in a win. Raises :class:`SolverBug` otherwise: a rejected plan is a bug in
    the solver, never output."""
    r = replay(deal, moves)
    if r.error is not None:
        raise SolverBug(f"{solver} returned a plan the rules engine rejects: {r.error}")
    if r.outcome != WIN:
        raise SolverBug(f"{solver} returned a plan that does not win (outcome {r.outcome})")
    return Plan(deal, list(moves))


def checked_line(deal: Deal, moves: Sequence[Move], solver: str) -> list[Move]:
    """Replay a best-progress line; raises :class:`SolverBug` if any move is illegal."""
    r = replay(deal, moves)
    if r.error is not None:
        raise SolverBug(f"{solver} returned a line the rules engine rejects: {r.error}")
    return list(moves)


def objective_value(objective: str, deal: Deal, moves: Sequence[Move]) -> int | None:
    """The value of a winning line under ``objective`` (``None`` for ``none``)."""
    if objective == "waste":
        return waste_of(moves, deal)
    if objective == "turns":
        return len(moves)
    return None


__all__ = [
    "LOSS", "OBJECTIVES", "SolveResult", "SolverBug", "UNKNOWN", "VERDICTS", "WIN",
    "checked_line", "checked_plan", "objective_value", "waste_of", "IllegalMoveError",
]
