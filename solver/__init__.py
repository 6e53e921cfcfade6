"""Searches over deals: the memoized DFS (:func:`solver.dfs.solve`) and their shared result
type (:mod:`solver.result`). Every plan a solver returns has been replayed by :mod:`model`."""

from solver.dfs import solve
from solver.generic import route as _route_rules

solve = _route_rules(solve)  # rule sets the compact DFS does not model (goats=on): generic
from solver.result import LOSS, OBJECTIVES, UNKNOWN, WIN, SolveResult, SolverBug

__all__ = ["LOSS", "OBJECTIVES", "SolveResult", "SolverBug", "UNKNOWN", "WIN", "solve"]
