"""Search aids of the exhaustive frontier (issue 11): how the optimum is proven, and in which
order the DFS tries moves. Both are switches of :class:`~solver.state.Switches`; neither
changes an answer (only the time it takes), which the tests check against the naive
reference.

* ``deepening`` (:func:`improve`): after the beam's win of value ``best``, prove the optimum
  *bottom-up*: DFS with budget ``b = root bound``, then ``b + 1``, ... keeping the
  transposition table (it holds lower bounds on the cost to go, valid for every budget). The
  first budget that succeeds is the optimum (every smaller one failed); each failure raises
  the proven bound to ``b + 1``, so a search stopped by a limit still reports the best bound
  reached. Off: the top-down loop of issue 3 (budget ``best − 1`` until a search fails),
  which improves the incumbent but proves nothing until it ends.
* ``pv_order`` (:class:`PVOrder`): the moves of the best known winning line (the beam's, then
  each better one the DFS finds) are stored by the key of the state they are played from;
  where the DFS meets such a state it tries that move first.
"""

from __future__ import annotations

from solver.state import INF


class PVOrder:
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
            s.set_pv(best)
        return best, best_value
    root = s.snapshot()
    b = s.root_bound()
    while b < best_value:
        s.deepening_budget = b
        if s.dfs(b):
            line = s.win_line
            return line, s.line_cost(line)
        # read by root_bound at this root only (the table may be off or lose the entry)
        s.proven_lb = (root, b + 1)
        b = max(b + 1, s.root_bound())
    return best, best_value


__all__ = ["INF", "PVOrder", "improve"]
