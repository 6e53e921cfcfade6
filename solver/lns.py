"""Large-neighbourhood search on the fewest-cards objective: a cheaper win from a known one.

The exhaustive search proves optima bottom-up and improves its incumbent top-down from the
start of the game; on large mountains neither finishes, and the incumbent it reports is the
beam's or the first better line the top-down DFS met. This module takes such a winning plan
and re-optimises *windows* of it:

* a **window** is the suffix of the plan from the position after its first ``i`` moves. The
  exhaustive search (:class:`solver.exhaustive.Search`) starts at that position with the
  plan's own suffix as its incumbent (and principal variation, so it is tried first), and
  looks for a win from there with fewer cards out (:func:`solver.frontier.improve`: the
  bottom-up and top-down searches on one table), within a slice of the time;
* the windows slide from the end of the plan towards its start (short suffixes first: they
  are small games the search often closes, each improvement shortens the suffix searched by
  the next), by a stride of a quarter of the plan; when every window has been tried, the time
  a window gets doubles and the windows are tried again from the end;
* a cheaper suffix is spliced in only when :mod:`model` replays the whole new plan as a win
  with fewer cards out than the plan kept so far (:func:`solver.result.waste_of`), so the
  answer is never worse than the plan given, and every plan it returns is replayed.

The window's search is exact: when its bottom-up search closes, the suffix is proven optimal
*from that position* (not for the game: the moves before the window stay fixed). A window
whose suffix is proven optimal is not searched again until an earlier splice changes it.

Switch: ``lns`` of :func:`solver.exhaustive.solve` (objective ``waste`` with a time limit:
the search gets the first half of it, LNS :data:`LNS_SHARE` with the search's own table,
then :func:`resume_proof` :data:`RESUME_SHARE`: the search's proof from the start again, the
cheaper plan as its incumbent), ``--lns/--no-lns`` of ``ascent solve``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from model.deal import Deal
from model.game import WIN, Game
from model.moves import Move
from model.records import replay
from solver.frontier import improve
from solver.state import Stop

#: Share of a waste solve's time limit that LNS gets by default (the last part of it).
LNS_SHARE = 0.3
#: Share of the time limit given back to the search's proof after LNS (the last part).
RESUME_SHARE = 0.2
#: Seconds of the first round's window searches (doubled each round).
FIRST_WINDOW_SECONDS = 0.25
#: Transposition-table entries of a search made for the windows alone (tests, scripts).
WINDOW_TABLE = 1 << 18


@dataclass
class LnsReport:
    """What one LNS run did: ``start_waste`` → ``waste`` (cards out of the game, counted from
    the start given), ``windows`` searched, ``improvements`` spliced in (each a dict: the
    window's first move index, suffix waste before and after), ``rounds`` and ``seconds``;
    ``interrupted``: Ctrl-C stopped it; ``plan``: the cheapest plan kept so far;
    ``proven``: the window of the whole plan (from ``start``) was searched to the end, so
    ``waste`` is the optimum from ``start``."""

    start_waste: int
    waste: int
    windows: int = 0
    rounds: int = 0
    seconds: float = 0.0
    proven: bool = False
    interrupted: bool = False
    plan: list[Move] = field(default_factory=list)
    improvements: list[dict[str, int]] = field(default_factory=list)

    def to_stats(self) -> dict[str, Any]:
        """The report as the ``stats["lns"]`` dict of a :class:`~solver.result.SolveResult`."""
        return {"from": self.start_waste, "to": self.waste, "windows": self.windows,
                "rounds": self.rounds, "proven": self.proven,
                **({"interrupted": True} if self.interrupted else {}), "improvements": list(self.improvements),
                "seconds": round(self.seconds, 3)}


def plan_waste(start: Deal | Game, moves: Sequence[Move]) -> int | None:
    """Cards out of the game during ``moves`` from ``start`` (a deal or a fully known
    position), or ``None`` if :mod:`model` does not replay them as a win."""
    r = replay(start, moves)
    if r.error is not None or r.outcome != WIN:
        return None
    before = len(start.out) if isinstance(start, Game) else 0
    return len(r.game.out) - before


def _window(s: Any, position: Game, suffix: list[Move], seconds: float,
            budget: Any = None) -> tuple[list[Move], bool]:
    """Re-optimise ``suffix`` (a winning continuation from ``position``) with the exhaustive
    search ``s`` (loaded at ``position``; its table kept) for at most ``seconds``: (the best
    continuation found, proven optimal from ``position``). Returns ``suffix`` itself when
    nothing cheaper was found. ``budget``: the solve's :class:`solver.budget.Budget` (or
    ``None``): the window's node limit is what is left of it, and its nodes are charged."""
    s.load(position)
    s.begin(time.monotonic() + seconds, None if budget is None else budget.nodes_left())
    t0 = time.monotonic()
    try:
        return _window_run(s, position, suffix)
    finally:
        if budget is not None:
            budget.charge("lns-window", s.nodes, time.monotonic() - t0, "done")


def _window_run(s: Any, position: Game, suffix: list[Move]) -> tuple[list[Move], bool]:
    """The search of :func:`_window` once ``s`` is loaded and begun."""
    best = s.from_moves(suffix)
    value = s.line_cost(best)
    whole = (s.incumbent, s.proven_bound)  # the progress reports the whole plan's values
    try:
        line, line_value = improve(s, best, value)
        return (s.to_moves(line) if line_value < value else suffix), True
    except Stop:
        pass
    finally:
        s.incumbent, s.proven_bound = whole
    # stopped by the time slice: the last win the top-down search found (each one cheaper
    # than the one before) is in win_line; the search may have left mid-line
    s.path.clear()
    s.load(position)
    line = list(s.win_line)
    if line:
        try:
            return s.to_moves(line), False
        except (IndexError, KeyError, ValueError):  # not a line from the root: ignore it
            return suffix, False
    return suffix, False


def improve_plan(start: Deal | Game, moves: Sequence[Move], time_limit: float, search: Any,
                 bound: int | None = None, budget: Any = None) -> tuple[list[Move], LnsReport]:
    """Make the winning plan ``moves`` from ``start`` cheaper (fewer cards out of the game)
    by large-neighbourhood search (see the module docstring), for at most ``time_limit``
    seconds (wall clock, about; one window's search may overrun its slice by a check
    interval). ``bound``: a proven lower bound on the waste from ``start``; the search stops
    when it is reached. ``search``: a :class:`solver.exhaustive.Search` of objective
    ``waste`` started from ``start`` (or from a position the windows are reached from): every
    window loads it at its position and reuses its transposition table (its bounds are costs
    to go, true from any root); the waste solve passes its own, a caller without one makes
    ``Search(start, "waste", Switches(table_size=WINDOW_TABLE), None, None)``.

    ``budget``: the solve's :class:`solver.budget.Budget` (or ``None``): every window draws
    its nodes from it, and no window starts once its node limit is spent.

    Returns (the cheapest plan found, its :class:`LnsReport`). The plan returned is ``moves``
    itself or a plan that :mod:`model` replays as a win with fewer cards out; never worse.
    Raises ``ValueError`` when ``moves`` is not a winning plan from ``start``."""
    t0 = time.monotonic()
    deadline = t0 + time_limit
    plan = list(moves)
    waste = plan_waste(start, plan)
    if waste is None:
        raise ValueError("LNS needs a plan that the rules engine replays as a win")
    report = LnsReport(waste, waste)
    seconds = FIRST_WINDOW_SECONDS
    try:
        plan, waste = _rounds(start, plan, waste, deadline, bound, search, report, seconds,
                              budget)
    except KeyboardInterrupt:  # Ctrl-C: the cheapest plan kept so far is the answer
        report.interrupted = True
        plan, waste = report.plan, report.waste
    report.seconds = time.monotonic() - t0
    return plan, report


def _rounds(start: Deal | Game, plan: list[Move], waste: int, deadline: float,
            bound: int | None, search: Any, report: LnsReport, seconds: float,
            budget: Any = None) -> tuple[list[Move], int]:
    """The rounds of :func:`improve_plan`; keeps ``report`` (and its ``plan``) up to date."""
    settled: set[int] = set()  # window starts whose suffix is proven optimal (since the last splice)
    report.plan = list(plan)
    while (time.monotonic() < deadline and (bound is None or waste > bound)
           and (budget is None or not budget.out_of_nodes())):
        report.rounds += 1
        n = len(plan)
        stride = max(1, n // 4)
        starts = [i for i in range(n - stride, 0, -stride)] + [0]  # the whole plan last
        starts = [i for i in starts if i not in settled]
        if not starts:
            break
        for i in starts:
            left = deadline - time.monotonic()
            if (left <= 0.01 or (bound is not None and waste <= bound) or i >= len(plan)
                    or (budget is not None and budget.out_of_nodes())):
                break
            position = replay(start, plan[:i]).game
            suffix = plan[i:]
            before = waste - _waste_between(start, plan, i)
            report.windows += 1
            new_suffix, proven = _window(search, position, suffix, min(seconds, left), budget)
            kept = new_suffix is suffix
            if not kept:
                candidate = plan[:i] + new_suffix
                new_waste = plan_waste(start, candidate)
                if new_waste is not None and new_waste < waste:
                    report.improvements.append({"window": i, "before": before,
                                                "after": before - (waste - new_waste)})
                    plan, waste = candidate, new_waste
                    report.plan, report.waste = list(plan), waste
                    settled = {j for j in settled if j < i}
                    kept = True
            if proven and kept:  # the suffix now in the plan is optimal from position i
                settled.add(i)
        seconds *= 2
    report.waste = waste
    report.proven = 0 in settled
    return plan, waste


def _waste_between(start: Deal | Game, plan: list[Move], i: int) -> int:
    """Cards out of the game during the first ``i`` moves of ``plan`` (a legal line)."""
    before = len(start.out) if isinstance(start, Game) else 0
    return len(replay(start, plan[:i]).game.out) - before





def lns_result(res: Any, seconds: float, search: Any, budget: Any = None) -> Any:
    """``res`` (a :class:`~solver.result.SolveResult` of objective ``waste``) with its plan
    improved by :func:`improve_plan` for at most ``seconds``, when it is a win not proven
    optimal (else ``res`` unchanged); ``search``: the search that produced ``res``, whose
    table the windows reuse (see :func:`improve_plan`). The plan is rebuilt with
    :func:`solver.result.checked_plan` (replayed by :mod:`model`); ``optimal`` becomes true
    when the plan reaches the proven ``bound``; ``stats["lns"]`` holds the
    :class:`LnsReport` (or ``{"skipped": why}``). ``budget``: the solve's
    :class:`solver.budget.Budget` (or ``None``), which the windows draw from."""
    import dataclasses

    from solver.result import WIN as RESULT_WIN
    from solver.result import checked_plan

    if res.verdict != RESULT_WIN or res.objective != "waste" or res.value is None:
        return res
    stats = dict(res.stats)
    if res.optimal or stats.get("interrupted"):
        stats["lns"] = {"skipped": "optimal" if res.optimal else "interrupted"}
        return dataclasses.replace(res, stats=stats)
    if seconds <= 0.05:
        stats["lns"] = {"skipped": "no time left"}
        return dataclasses.replace(res, stats=stats)
    if budget is not None and budget.out_of_nodes():
        stats["lns"] = {"skipped": "no nodes left"}
        return dataclasses.replace(res, stats=stats)
    root: Deal | Game = res.start if res.start is not None else res.deal
    moves, report = improve_plan(root, res.continuation, seconds, search, res.bound, budget)
    stats["lns"] = report.to_stats()
    if report.interrupted:
        stats["interrupted"] = True
    if report.waste >= res.value:
        if report.proven:  # the whole plan's window closed: the plan is optimal
            return dataclasses.replace(res, stats=stats, optimal=True, bound=res.value)
        return dataclasses.replace(res, stats=stats)
    plan = checked_plan(root, moves, "lns")
    optimal = report.proven or (res.bound is not None and report.waste <= res.bound)
    bound = report.waste if optimal else res.bound
    return dataclasses.replace(res, plan=plan, value=report.waste, optimal=optimal, bound=bound,
                               continuation=list(moves), stats=stats)


def resume_proof(res: Any, search: Any, seconds: float, node_limit: int | None = None,
                 budget: Any = None) -> Any:
    """Give the waste solve's search ``search`` (the one that produced ``res``, its table
    kept) ``seconds`` more to prove the optimum of ``res``'s plan from the start (the
    bottom-up and top-down searches of :func:`solver.frontier.improve`), the plan LNS made
    cheaper as its incumbent. Returns ``res`` with the bound the table proves now (never
    lower than ``res.bound``), ``optimal`` where the proof closed, and a cheaper plan where
    the top-down search found one (replayed by :mod:`model`); ``stats["resume"]`` holds its
    nodes and the bound before and after. Unchanged when ``res`` is not an unproven win.
    ``budget``: the solve's :class:`solver.budget.Budget`: the resumed search's node limit
    is what is left of it (instead of ``node_limit``), and it is not run when none is."""
    import dataclasses

    from solver.result import WIN as RESULT_WIN
    from solver.result import checked_plan

    if (res.verdict != RESULT_WIN or res.objective != "waste" or res.optimal
            or res.value is None or seconds <= 0.05 or res.stats.get("interrupted")
            or (budget is not None and budget.out_of_nodes())):
        return res
    if budget is not None:
        node_limit = budget.nodes_left()
    root: Deal | Game = res.start if res.start is not None else res.deal
    position = root if isinstance(root, Game) else Game(root)
    s = search
    s.load(position)
    s.begin(time.monotonic() + seconds, node_limit)
    t0 = time.monotonic()
    best = s.from_moves(res.continuation)
    value = s.line_cost(best)
    closed = False
    try:
        best, value = improve(s, best, value)
        closed = True
    except (Stop, KeyboardInterrupt):
        s.path.clear()
        s.load(position)
        line = list(s.win_line)
        if line and s.line_cost(line) < value:
            best, value = line, s.line_cost(line)
    if budget is not None:
        budget.charge("resume", s.nodes, time.monotonic() - t0, "closed" if closed else "unknown")
    moves = s.to_moves(best)
    got = plan_waste(root, moves)
    if got is None or got > res.value:  # never worse than the plan given
        moves, got, closed = list(res.continuation), res.value, False
    bound = max(res.bound or 0, min(s.root_bound(), got))
    optimal = closed or got <= bound
    if optimal:
        bound = got
    stats = dict(res.stats)
    stats["resume"] = {"nodes": s.nodes, "bound_before": res.bound, "bound": bound,
                       "value_before": res.value, "value": got}
    plan = checked_plan(root, moves, "lns") if got < res.value else res.plan
    return dataclasses.replace(res, plan=plan, value=got, optimal=optimal, bound=bound,
                               continuation=list(moves), stats=stats)


__all__ = ["FIRST_WINDOW_SECONDS", "LNS_SHARE", "LnsReport", "RESUME_SHARE", "improve_plan",
           "lns_result", "plan_waste", "resume_proof"]
