"""The exhaustive search and :func:`solve`: memoized depth-first branch and bound over the
open-hand game (issue 3), from a deal or any fully known position (issue 8).

All decks are known (the "thoughtful" question of exhaustive solitaire solvers) and one
planner plays every seat in turn order. The search answers *win* (with a plan the rules engine
replays), *loss* (the search was exhaustive) or *unknown* (a limit ran out).

Search: depth-first, cost-to-go branch and bound over the compact state of
:mod:`solver.state`. The cost of a line is the objective's increment along it (``waste``:
cards that leave the game, i.e. discards and replaced Bridges; ``turns``: one per move;
``none``: nothing). The transposition table maps a key to a proven lower bound on the cost
still to pay to win from it (``INF`` = no win at all). Since the waste so far and the turns
so far do not affect what can still happen, the table is shared across the whole solve,
across budgets, and across the positions of one game (:class:`solver.session.Session`).

Pruning, each with a switch so that tests can check it changes no answer:

* ``transposition``: the table above;
* ``dominance``: pay costs and discards with dead cards first (a dead card can only ever be
  discarded, so keeping a live card instead is never worse); dead cards are one type in keys;
* ``bounds``: the bounds of :mod:`solver.bounds`.

Phases: a beam search (heuristic, :mod:`solver.beam`) looks for a first win; the exhaustive
DFS runs when it finds none (to find a win or prove a loss) and, for ``waste``/``turns``, with
budget ``best - 1`` until one search fails, which proves the optimum. Move order is
colour-free (ties broken by where a card first stands in its deck), so a deal with its colours
relabelled gets the relabelled plan.
"""

from __future__ import annotations

import sys
import time
from typing import Callable

from model.deal import Deal
from model.game import Game
from solver.beam import DEFAULT_BEAM_SCHEDULE, Beam
from solver.result import (
    LOSS,
    OBJECTIVES,
    UNKNOWN,
    WIN,
    SolveResult,
    checked_line,
    checked_plan,
)
from solver.frontier import PVOrder, improve
from solver.state import INF, Stop, Switches


def table_entries_for(memory_limit_mb: int) -> int:
    """Transposition-table entries that fit ``memory_limit_mb``: measured about 140 bytes an
    entry (a 60–70 byte key and the dict slot); 200 leaves room for the dict's growth and the
    rest of the process."""
    return max(1024, memory_limit_mb * 1024 * 1024 // 200)


class Search(PVOrder, Beam):
    """One search from one start (a deal or a fully known position): the state
    (:mod:`solver.state`), its bounds (:mod:`solver.bounds`), the beam (:mod:`solver.beam`),
    and here the limits, the transposition table, the exhaustive DFS and the furthest-line
    search. Use :func:`solve`."""

    def __init__(self, start: Deal | Game, objective: str, switches: Switches,
                 deadline: float | None, node_limit: int | None,
                 progress: Callable[[dict], None] | None = None) -> None:
        super().__init__(start, objective)
        self.sw = switches
        if not switches.table_size:
            switches.table_size = table_entries_for(2048)
        self.deadline = deadline
        self.node_limit = node_limit
        self.progress = progress
        self.tt: dict[bytes, int] = {}
        self.nodes = 0
        self.tt_hits = 0
        self.tt_evictions = 0
        self.pruned = {"summit": 0, "height": 0, "cards": 0, "objective": 0}
        self.path: list[tuple] = []
        self.best_progress = -1
        self.best_line: list[tuple] = []
        self.win_line: list[tuple] | None = None
        self.stopped = False
        self.interrupted = False
        self.progress_proven = False
        self.next_check = 1024 if node_limit is None else min(1024, node_limit)
        self.t0 = time.monotonic()
        self.last_report = self.t0

    def _enter_node(self) -> None:
        """Count a node of the exhaustive searches, check the limits, and keep the furthest
        line (``best_progress``/``best_line``)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check_limits()
        if self.filled > self.best_progress:
            self.best_progress = self.filled
            self.best_line = list(self.path)

    def dfs(self, budget: int) -> bool:
        """True iff a win with cost-to-go ≤ ``budget`` exists from the current state; the
        winning line from the start is then in ``self.win_line``. Raises ``Stop`` when a
        limit runs out."""
        self._enter_node()
        if self.filled == self._slots_total:
            self.win_line = list(self.path)
            return True
        flags = self.dead_flags()
        key = None
        if self.sw.transposition:
            key = self.key(flags)
            lb = self.tt.get(key)
            if lb is not None and lb > budget:
                self.tt_hits += 1
                return False
        if self.sw.bounds and self.bound_fails(budget):
            return False
        for mv in self.ordered_children(flags, key):
            c = self.move_cost(mv[0], len(mv[6]))
            if c > budget:
                continue
            rec = self.apply(mv)
            self.path.append(mv)
            ok = self.dfs(budget - c)
            self.path.pop()
            self.undo(mv, rec)
            if ok:
                return True
        if key is not None:
            tt = self.tt
            if len(tt) >= self.sw.table_size:
                self._evict()
            old = tt.get(key, 0)
            if budget + 1 > old:
                tt[key] = INF if self.objective == "none" else budget + 1
        return False

    def furthest(self) -> bool:
        """After a proven loss: search every line for the most slots filled (into
        ``best_progress``/``best_line``). True when the search finished, so that the furthest
        is proven; raises ``Stop`` when a limit runs out. Each card fills at most one slot,
        so a state that cannot pass the best so far is cut; a state seen before is not
        searched again (its lines were counted the first time)."""
        seen: set[bytes] = set()
        cap = self.sw.table_size
        total = self._slots_total

        def rec() -> None:
            self._enter_node()
            reach = self.filled + min(total - self.filled, self.n_remaining)
            if reach <= self.best_progress:
                return
            flags = self.dead_flags()
            key = self.key(flags)
            if key in seen:
                return
            if len(seen) >= cap:
                raise Stop
            seen.add(key)
            for mv in self.children(flags):
                rec_ = self.apply(mv)
                self.path.append(mv)
                rec()
                self.path.pop()
                self.undo(mv, rec_)

        rec()
        return True

    def _evict(self) -> None:
        """Replacement policy: drop the older half of the table (insertion order)."""
        tt = self.tt
        n = len(tt) // 2
        for k in list(tt)[:n]:
            del tt[k]
        self.tt_evictions += n

    def _check_limits(self) -> None:
        """Called every 1024 nodes, and exactly at the node limit."""
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise Stop
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise Stop
        self.next_check = self.nodes + 1024
        if self.node_limit is not None:
            self.next_check = min(self.next_check, self.node_limit)
        if self.progress is not None and now - self.last_report > 0.5:
            self.last_report = now
            self.progress(self.stats())

    def stats(self) -> dict:
        secs = time.monotonic() - self.t0
        return {
            "nodes": self.nodes,
            "seconds": round(secs, 3),
            "nodes_per_second": int(self.nodes / secs) if secs > 0 else 0,
            "table_entries": len(self.tt),
            "table_hits": self.tt_hits,
            "table_evictions": self.tt_evictions,
            "pruned": dict(self.pruned),
            "best_progress": max(self.best_progress, 0),
            "best_progress_proven": self.progress_proven,
            **({"interrupted": True} if self.interrupted else {}),
        }

    def result(self, best: list[tuple] | None, best_value: int | None, exhausted: bool) -> SolveResult:
        """Build the :class:`SolveResult`, replaying the plan and best line through model."""
        stats = self.stats()
        line = best if best is not None else self.best_line
        moves = self.to_moves(line)
        root = self.root
        best_line = checked_line(root, moves, "dfs")
        deal = root if isinstance(root, Deal) else root.deal
        start = root if isinstance(root, Game) else None
        if best is not None:
            plan = checked_plan(root, moves, "dfs")
            value = best_value if self.objective != "none" else None
            optimal = exhausted and self.objective != "none"
            bound = value if optimal else (self.root_bound() if self.objective != "none" else None)
            return SolveResult(WIN, self.objective, deal, plan, value, optimal, bound,
                               self._slots_total, best_line, "dfs", stats, start, list(moves))
        verdict = LOSS if exhausted else UNKNOWN
        bound = None
        if self.objective != "none":
            bound = INF if exhausted else self.root_bound()
            bound = None if bound >= INF else bound
        return SolveResult(verdict, self.objective, deal, None, None, False, bound,
                           max(self.best_progress, 0), best_line, "dfs", stats, start,
                           list(best_line))


def solve(
    start: Deal | Game,
    objective: str = "none",
    time_limit: float | None = None,
    node_limit: int | None = None,
    memory_limit_mb: int = 2048,
    progress: Callable[[dict], None] | None = None,
    beam_schedule: tuple[tuple[int, int], ...] = DEFAULT_BEAM_SCHEDULE,
    **switches,
) -> SolveResult:
    """Decide ``start`` with every card known; optionally find the optimal win.

    ``start``: a :class:`~model.deal.Deal` (solved from its first move) or a fully known
    :class:`~model.game.Game` position (a bare position, or a game replayed from a deal).
    From a position the objective counts from it (waste still to spend, turns still to
    play), ``SolveResult.continuation`` holds the moves from it and ``SolveResult.plan`` is
    the whole record (the game's moves so far, then the winning moves; see
    :func:`solver.result.record_of`).
    ``objective``: ``none`` | ``waste`` | ``turns`` (see :mod:`solver.result`).
    ``time_limit`` in seconds and ``node_limit`` in nodes bound the search (``None``: no
    limit); when one runs out the verdict is ``unknown`` (or ``win`` with ``optimal=False`` and
    the proven ``bound`` when a win was found). ``memory_limit_mb`` caps the transposition
    table (counted at 200 bytes an entry); a full table drops its older half. ``switches``:
    ``transposition``, ``dominance``, ``bounds``, ``window_players``, ``deepening``, ``pv_order``
    (bools; see :mod:`solver.windows`, :mod:`solver.frontier`) and ``table_size`` (entries).
    ``progress``: called about twice a second with the stats dict. ``beam_schedule``: the
    heuristic phase, pairs (beam width, ways to pay kept per placement; 0 = all), run in
    order until one wins (for ``waste``/``turns``: all run, each only keeping better wins).

    Raises ``ValueError`` for an unknown objective or switch. Every returned plan has been
    replayed by :mod:`model` (:func:`solver.result.checked_plan`).
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    sw = Switches()
    for k, v in switches.items():
        if not hasattr(sw, k):
            raise ValueError(f"unknown search switch {k!r}")
        setattr(sw, k, v)
    if not sw.table_size:
        sw.table_size = table_entries_for(memory_limit_mb)
    deadline = time.monotonic() + time_limit if time_limit is not None else None
    s = Search(start, objective, sw, deadline, node_limit, progress)
    if s.filled == s._slots_total:  # a won position: nothing left to play
        s.progress_proven = True
        return s.result([], 0, True)
    start = s.snapshot()
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 10_000))
    best: list[tuple] | None = None
    best_value: int | None = None
    exhausted = False
    try:
        # phase 1 (heuristic): beams of growing width look for a first, then a better, win
        best = s.beams(beam_schedule)
        if best is not None:
            best_value = s.line_cost(best)
        if s.stopped:
            raise Stop
        # phase 2 (exact): a win within budget best - 1, until a search fails (optimal)
        if best is None:
            if s.dfs(INF):
                best = s.win_line
                best_value = s.line_cost(best)
            else:
                exhausted = True  # a proven loss, whatever the furthest search below does
                s.progress_proven = s.furthest()
        if best is not None and objective != "none":
            best, best_value = improve(s, best, best_value)  # issue 11: solver.frontier
        exhausted = True
    except (Stop, KeyboardInterrupt) as exc:
        # a limit (or Ctrl-C) stopped the search mid-line: back to the start position, so
        # that the bound read from the table is the start's; the wins found are kept
        if isinstance(exc, KeyboardInterrupt):
            s.interrupted = True
        s.restore(start)
    finally:
        sys.setrecursionlimit(old_limit)
    return s.result(best, best_value, exhausted)
