"""The beam phase of the search alone (:func:`heuristic_win`): a fast, unproven first win.

Above both the beam (:mod:`solver.beam`) and the search that runs it
(:mod:`solver.exhaustive`), so that neither imports the other back.
"""

from __future__ import annotations

import time

from model.deal import Deal
from model.game import Game
from model.moves import Move
from solver.beam import DEFAULT_BEAM_SCHEDULE
from solver.exhaustive import Search
from solver.result import OBJECTIVES
from solver.state import Switches


def heuristic_win(start: Deal | Game, objective: str = "none", time_limit: float | None = None,
                  beam_schedule: tuple[tuple[int, int], ...] = DEFAULT_BEAM_SCHEDULE
                  ) -> list[Move] | None:
    """The beam phase of :func:`solver.exhaustive.solve` alone: a winning move list from ``start`` (a deal's
    first move, or a fully known :class:`~model.game.Game` position), or ``None`` when no
    beam of the schedule finds one within ``time_limit`` seconds. Heuristic: ``None`` proves
    nothing. Used to give CP-SAT a solution hint (:func:`solver.cpsat.solve_cpsat`)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    if isinstance(start, Game) and start.is_won():
        return []
    deadline = time.monotonic() + time_limit if time_limit is not None else None
    s = Search(start, objective, Switches(), deadline, None)
    best = s.beams(beam_schedule)
    if s.interrupted:  # Ctrl-C is the user's, not a limit: pass it on
        raise KeyboardInterrupt
    return s.to_moves(best) if best is not None else None


__all__ = ["heuristic_win"]
