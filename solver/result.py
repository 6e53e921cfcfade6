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
from model.game import Game
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
    * ``stats``: ``nodes``, ``seconds``, ``table_entries`` and solver-specific counters;
    * ``start``: ``None`` when the solve started from a deal's first move, else the
      :class:`~model.game.Game` position it started from (objectives then count from that
      position: the waste still to spend, the turns still to play);
    * ``continuation``: the solver's moves from the start (the winning moves for a win, the
      furthest line for a loss or unknown). ``plan`` is the whole game record: the start's
      history (the moves of a game replayed from a deal) followed by the winning moves, or
      for a bare position a record that starts from it (``{"position", "moves"}``);
    * ``reason``: for a proven loss, why no win exists in words
      (:class:`solver.reasons.LossReason`), or ``None``.
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
    start: Game | None = None
    continuation: list[Move] = field(default_factory=list)
    reason: Any = None

    def passed_on(self) -> SolveResult:
        """``self``, or :class:`KeyboardInterrupt` when Ctrl-C or SIGTERM stopped the search
        (``stats["interrupted"]``). For callers that solve many positions in a row (game
        analysis, puzzle generation): they must stop, not take the stopped one for an
        ``unknown`` and go on to the next."""
        if self.stats.get("interrupted"):
            raise KeyboardInterrupt
        return self

    def record(self) -> Plan:
        """The whole game record of the answer: the winning plan, or else the start's
        history followed by the furthest line (with an extra key ``verdict``)."""
        if self.plan is not None:
            return self.plan
        if self.start is None:
            assert self.deal is not None
            return Plan(self.deal, list(self.best_line), {"verdict": self.verdict})
        rec = record_of(self.start, self.best_line)
        rec.extra["verdict"] = self.verdict
        return rec

    def to_json(self) -> dict[str, Any]:
        """JSON-ready answer: ``verdict``, ``plan`` (game-record JSON or null), ``objective``,
        ``bound``, ``best_progress``, ``solver``, ``stats``, and the ``deal`` and ``rules``
        (so that :func:`model.records.load` reads an answer back as its plan or, without a
        win, its furthest line). Deterministic for equal input, except ``stats.seconds`` and
        rates.

        From a position (``start`` set): ``deal``/``rules`` are the record's start (or
        ``position`` for a bare position), ``best_progress.moves`` the whole line from there,
        and two more keys: ``from`` (``{"moves_before": k, "position": ...}``: the position
        solved, after k moves of the record) and ``continuation`` (the solver's moves from
        it); ``objective.counted_from`` is ``"position"``."""
        from model.records import deal_to_data

        head: dict[str, Any] = {}
        line = self.best_line
        objective: dict[str, Any] = {"name": self.objective, "value": self.value,
                                     "optimal": self.optimal}
        tail: dict[str, Any] = {}
        if self.start is not None:
            history = record_of(self.start, [])
            if history.deal is None:
                assert history.position is not None
                head = {"position": history.position.to_position()}
            else:
                head = {"deal": deal_to_data(history.deal),
                        "rules": history.deal.rules.to_dict()}
            line = history.moves + list(self.best_line)
            objective["counted_from"] = "position"
            tail = {"from": {"moves_before": len(history.moves),
                             "position": self.start.to_position()},
                    "continuation": [m.to_json() for m in self.continuation]}
        elif self.deal is not None:
            head = {"deal": deal_to_data(self.deal), "rules": self.deal.rules.to_dict()}
        return {
            **head,
            "verdict": self.verdict,
            "solver": self.solver,
            "objective": objective,
            "bound": self.bound,
            "plan": self.plan.to_json() if self.plan else None,
            "best_progress": {
                "slots": self.best_progress,
                "moves": [m.to_json() for m in line],
            },
            **tail,
            "reason": self.reason.to_json() if self.reason is not None else None,
            "stats": self.stats,
        }


def history_of(game: Game) -> tuple[Deal | Game, list[Move]]:
    """Where ``game``'s record starts and the moves made since: ``(deal, moves)`` for a game
    replayed from a deal; ``(position, moves)`` for a game played on from a bare position
    (the position is a new :class:`Game`, ``game`` is left as it is)."""
    moves = list(game.move_stack)
    if game.deal is not None:
        return game.deal, moves
    if not moves:
        return game.copy(), moves
    import copy

    root = copy.deepcopy(game)
    while root.move_stack:
        root.pop()
    return root.copy(), moves


def record_of(start: Deal | Game, moves: Sequence[Move], extra: dict | None = None) -> Plan:
    """The game record of ``moves`` made from ``start``: from a deal, ``Plan(deal, moves)``;
    from a :class:`Game`, its history (see :func:`history_of`) followed by ``moves``."""
    if isinstance(start, Deal):
        return Plan(start, list(moves), dict(extra or {}))
    root, history = history_of(start)
    if isinstance(root, Deal):
        return Plan(root, history + list(moves), dict(extra or {}))
    return Plan(None, history + list(moves), dict(extra or {}), position=root)


def waste_of(plan_moves: Sequence[Move], start: Deal | Game) -> int:
    """Cards that leave the game during ``plan_moves`` (discards and replaced Bridges) made
    from ``start`` (a deal, or a position: counted from the position)."""
    before = len(start.out) if isinstance(start, Game) else 0
    return len(replay(start, plan_moves).game.out) - before


def checked_plan(start: Deal | Game, moves: Sequence[Move], solver: str) -> Plan:
    """Replay ``moves`` from ``start`` (a deal or a :class:`Game` position) through
    :mod:`model` and return the game record (:func:`record_of`) if they are legal and end
    in a win. Raises :class:`SolverBug` otherwise: a rejected plan is a bug in the solver,
    never output."""
    r = replay(start, moves)
    if r.error is not None:
        raise SolverBug(f"{solver} returned a plan the rules engine rejects: {r.error}")
    if r.outcome != WIN:
        raise SolverBug(f"{solver} returned a plan that does not win (outcome {r.outcome})")
    return record_of(start, moves)


def checked_line(start: Deal | Game, moves: Sequence[Move], solver: str) -> list[Move]:
    """Replay a best-progress line from ``start``; raises :class:`SolverBug` if any move is
    illegal."""
    r = replay(start, moves)
    if r.error is not None:
        raise SolverBug(f"{solver} returned a line the rules engine rejects: {r.error}")
    return list(moves)


def objective_value(objective: str, start: Deal | Game, moves: Sequence[Move]) -> int | None:
    """The value of a winning line from ``start`` under ``objective`` (``None`` for
    ``none``), counted from ``start``."""
    if objective == "waste":
        return waste_of(moves, start)
    if objective == "turns":
        return len(moves)
    return None


__all__ = [
    "LOSS", "OBJECTIVES", "SolveResult", "SolverBug", "UNKNOWN", "VERDICTS", "WIN",
    "checked_line", "checked_plan", "history_of", "objective_value", "record_of", "waste_of",
]
