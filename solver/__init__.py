"""Searches over deals: the memoized DFS (:func:`solver.dfs.solve`) and their shared result
type (:mod:`solver.result`). Every plan a solver returns has been replayed by :mod:`model`."""

from solver.dfs import solve
from solver.result import LOSS, OBJECTIVES, UNKNOWN, WIN, SolveResult, SolverBug

__all__ = ["LOSS", "OBJECTIVES", "SolveResult", "SolverBug", "UNKNOWN", "WIN", "solve"]
