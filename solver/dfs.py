"""The DFS solver's public names, kept where they have always been imported from.

The solver is split into modules (issue 8): :mod:`solver.state` (the compact state and its
moves), :mod:`solver.bounds`, :mod:`solver.beam` (the heuristic phase,
:func:`heuristic_win`), :mod:`solver.exhaustive` (the exhaustive search and :func:`solve`),
:mod:`solver.session` (one search reused across the positions of one game) and
:mod:`solver.result` (the shared result type). ``solver.solve`` is the stable name.
"""

from solver.beam import DEFAULT_BEAM_SCHEDULE, heuristic_win
from solver.exhaustive import Search, solve, table_entries_for
from solver.state import INF, Stop, Switches, Tables

__all__ = ["DEFAULT_BEAM_SCHEDULE", "INF", "Search", "Stop", "Switches", "Tables",
           "heuristic_win", "solve", "table_entries_for"]
