"""Search aids of the exhaustive frontier: how the optimum is proven, and in which
order the DFS tries moves. Both are switches of :class:`~solver.state.Switches`; neither
changes an answer (only the time it takes), which the tests check against the naive
reference.

* ``deepening`` (:func:`improve`): after the beam's win of value ``best``, two searches take
  turns on the same transposition table (it holds lower bounds on the cost to go, valid for
  every budget): *bottom-up*, DFS with budget ``lb`` (the proven bound; a failure proves
  ``lb + 1``, a success is the optimum), and *top-down*, DFS with budget ``best − 1`` (a
  success is a better incumbent, a failure proves ``best`` optimal). Each runs for a slice of
  nodes (:data:`FIRST_SLICE`, doubled every round) and an unfinished slice is resumed with
  the table it left. So a search stopped by a limit reports both a raised bound and an
  improved incumbent. Off: the top-down loop alone (budget ``best − 1`` until a
  search fails), which proves nothing until it ends.
* ``pv_order`` (:class:`PVOrder`): the moves of the best known winning line (the beam's, then
  each better one the DFS finds) are stored by the key of the state they are played from;
  where the DFS meets such a state it tries that move first.
"""

from __future__ import annotations

import time

from solver.state import State, Stop


class PVOrder(State):
    """Mixin of :class:`solver.exhaustive.Search`: the principal-variation move order."""

    pv: dict[bytes, tuple]

    def set_pv(self, line: list[tuple] | None) -> None:
        """Store ``line`` (internal moves from the search's start) as the principal
        variation: state key → move. Leaves the state as it was."""
        self.pv = {}
        if not line or not self.sw.pv_order:
            return
        snap = self.snapshot()
        filled = self.filled
        recs = []
        for mv in line:
            self.pv[self.key(self.dead_flags())] = mv
            recs.append((mv, self.apply(mv)))
        for mv, rec in reversed(recs):
            self.undo(mv, rec)
        assert self.snapshot() == snap and self.filled == filled

    def ordered_children(self, flags, key: bytes | None) -> list[tuple]:
        """:meth:`~solver.state.State.children`, the principal-variation move first."""
        moves = self.children(flags)
        pv = self.__dict__.get("pv")
        if pv:
            if key is None:
                key = self.key(flags)
            mv = pv.get(key)
            if mv is not None and mv in moves and moves[0] != mv:
                moves.remove(mv)
                moves.insert(0, mv)
                self.pv_hits = self.__dict__.get("pv_hits", 0) + 1
        return moves


def improve(s, best: list[tuple], best_value: int) -> tuple[list[tuple], int]:
    """Prove the optimum of search ``s`` (a :class:`solver.exhaustive.Search` at its start)
    given a win ``best`` of value ``best_value``; returns the optimal line and value. Raises
    :class:`~solver.state.Stop` when a limit runs out (the table then holds the proven bound
    at the start, read by ``root_bound``). See the module docstring."""
    try:
        return _improve(s, best, best_value)
    finally:
        s.pv = {}  # the principal variation serves this proof only (a session's search is
        # reused from other positions)


def _improve(s, best: list[tuple], best_value: int) -> tuple[list[tuple], int]:
    s.set_pv(best)
    if not s.sw.deepening:
        while best_value > s.root_bound():
            if not s.dfs(best_value - 1):
                break
            best = s.win_line
            best_value = s.line_cost(best)
            s.incumbent = best_value
            s.set_pv(best)
        return best, best_value
    root = s.snapshot()
    lb = s.root_bound()
    s.proven_bound = lb
    size = FIRST_SLICE
    while lb < best_value:
        for upward in (True, False):
            if lb >= best_value:
                break
            budget = lb if upward else best_value - 1
            done, ok = run_slice(s, budget, size, root)
            if not done:
                continue
            if ok:
                best = s.win_line
                best_value = s.line_cost(best)
                s.incumbent = best_value
                s.set_pv(best)
            elif upward:
                lb = max(budget + 1, s.root_bound())
                s.proven_bound = lb
                # read by root_bound at this root only (the table may be off or lose the entry)
                s.proven_lb = (root, lb)
            else:
                lb = best_value  # no win below the incumbent: it is optimal
                s.proven_bound = lb
                s.proven_lb = (root, lb)
        size *= 2
    return best, best_value


#: Nodes of the first slice of each direction; each round doubles it.
FIRST_SLICE = 4096


def run_slice(s, budget: int, size: int, root: tuple) -> tuple[bool, bool]:
    """``s.dfs(budget)`` within ``size`` more nodes: (finished, found a win). A slice that
    runs out goes back to ``root``; a limit of the search's own (time, nodes) is raised."""
    own = s.node_limit
    lim = s.nodes + size
    s.node_limit = lim if own is None else min(own, lim)
    s.next_check = min(s.next_check, s.node_limit)
    try:
        return True, s.dfs(budget)
    except Stop:
        if ((own is not None and s.nodes >= own)
                or (s.deadline is not None and time.monotonic() > s.deadline)):
            raise
        s.path.clear()
        s.restore(root)
        return False, False
    finally:
        s.node_limit = own
        if own is not None:
            s.next_check = min(s.next_check, own)


__all__ = ["FIRST_SLICE", "PVOrder", "improve"]
