"""Large-neighbourhood search on the waste objective: cheaper wins by re-solving the end of
the best plan.

A plan's *suffix* from move ``i`` is re-solved exactly as its own problem: the position after
the first ``i`` moves (a :class:`~model.game.Game`) goes to :func:`solver.solve` with objective
``waste`` and a slice of the budget. Its answer counts the waste still to spend from there;
if the plan's first ``i`` moves plus that answer spend fewer cards than the plan, the joined
plan replaces it (replayed by :mod:`model` before it is kept). The neighbourhoods are taken
from the end of the plan backwards, ``window`` moves further each time: short suffixes are
solved (often proven optimal) in milliseconds, long ones reach the early choices that decide
most of the waste. An improvement starts the walk again from the new plan's end.

LNS only ever lowers the best win; it proves nothing about the whole plan (a suffix proven
optimal is optimal only given its prefix), so the answer's ``bound`` is the search's.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Callable

from model.deal import Deal
from model.game import Game
from model.records import replay
from solver.result import WIN, SolveResult, checked_plan, record_of

#: Moves added to the suffix at each step of the walk back from the plan's end.
DEFAULT_WINDOW = 6


def _waste_of_prefix(start: Deal | Game, game: Game) -> int:
    base = len(start.out) if isinstance(start, Game) else 0
    return len(game.out) - base


def improve_by_lns(start: Deal | Game, result: SolveResult, seconds: float,
                   solve_fn: Callable[..., SolveResult], window: int = DEFAULT_WINDOW,
                   suffix_nodes: int | None = None,
                   suffix_share: float = 1.0,
                   clock: Callable[[], float] | None = None) -> SolveResult:
    """``result`` (a ``waste`` win from ``start``) with a plan at most as costly, found by
    re-solving suffixes of its continuation with ``solve_fn`` (:func:`solver.solve`, passed
    in so that this module does not import the search) for about
    ``seconds`` of ``clock`` (default this module's ``time.monotonic``).
    ``window``: moves added to the suffix each step (≥ 1). ``suffix_nodes``: a node limit per
    suffix solve (``None``: only the time). ``suffix_share``: the most of ``seconds`` one
    suffix solve may take (1.0: all that is left). Returns ``result`` itself when it is not a
    non-optimal waste win or nothing better is found; otherwise a copy whose ``plan``,
    ``continuation`` and ``value`` are the better win's and whose ``stats["lns"]`` holds
    ``{"suffixes", "improvements": [[from, to, first move re-solved], ...], "nodes",
    "seconds"}``. Raises ``ValueError`` for ``window < 1``."""
    if window < 1:
        raise ValueError("the LNS window is at least 1 move")
    if result.verdict != WIN or result.objective != "waste" or result.optimal or result.value is None:
        return result
    if clock is None:
        clock = time.monotonic  # read at the call: a benchmark may have set the module's clock
    run = solve_fn
    t0 = clock()
    moves = list(result.continuation)
    value = result.value
    stats: dict[str, Any] = {"suffixes": 0, "improvements": [], "nodes": 0}
    back = window
    while back <= len(moves) + window - 1 and clock() - t0 < seconds:
        i = max(0, len(moves) - back)
        game = replay(start, moves[:i]).game
        prefix = _waste_of_prefix(start, game)
        left = seconds - (clock() - t0)
        if left <= 0:
            break
        sub = run(game, "waste", time_limit=max(0.05, min(left, seconds * suffix_share)), node_limit=suffix_nodes,
                       furthest="off", lns=False)
        stats["suffixes"] += 1
        stats["nodes"] += int(sub.stats.get("nodes", 0))
        if sub.stats.get("interrupted"):  # Ctrl-C: the answer says so (exit 130)
            stats["interrupted"] = True
            break
        if sub.verdict == WIN and sub.value is not None and prefix + sub.value < value:
            new = moves[:i] + list(sub.continuation)
            checked_plan(start, new, "lns")  # a plan the engine rejects is a bug, never kept
            stats["improvements"].append([value, prefix + sub.value, i])
            moves, value = new, prefix + sub.value
            back = window
            continue
        if i == 0:
            break
        back += window
    stats["seconds"] = round(clock() - t0, 3)
    top = {**result.stats, "lns": stats}
    if stats.get("interrupted"):
        top["interrupted"] = True
    if not stats["improvements"]:
        return replace(result, stats=top)
    plan = record_of(start, moves)
    optimal = result.bound is not None and value <= result.bound
    return replace(result, plan=plan, continuation=moves, best_line=list(moves), value=value,
                   optimal=optimal,
                   bound=value if optimal else result.bound,
                   stats=top)
