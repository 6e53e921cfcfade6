"""Searches over deals and positions: the memoized DFS (:func:`solver.solve`), its beam alone
(:func:`solver.heuristic_win`) and their shared result type (:mod:`solver.result`). A search
starts from a deal's first move or from any fully known :class:`model.game.Game` position.
Every plan a solver returns has been replayed by :mod:`model`."""

from solver.exhaustive import solve as _compact_solve
from solver.generic import route as _route_rules
from solver.heuristic import heuristic_win
from solver.result import LOSS, OBJECTIVES, UNKNOWN, WIN, SolverBug, SolveResult

solve = _route_rules(_compact_solve)  # rule sets the compact DFS does not model (goats=on)

__all__ = ["LOSS", "OBJECTIVES", "SolveResult", "SolverBug", "UNKNOWN", "WIN", "heuristic_win",
           "solve"]
