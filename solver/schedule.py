"""The phases of a solve, declared as data (issue 39, step 2).

A :class:`Schedule` says which phases :meth:`solver.exhaustive.Search.run` and
:func:`solver.exhaustive.solve` walk, in this order:

1. ``beams``: the beams of :attr:`Schedule.beams` (heuristic: a first, then a better win);
2. ``wide-beams`` (``waste``/``turns``, when the beams' best is above the root's bound): the
   wide beams of :attr:`Schedule.wide_beams` on half of what is left of the budget;
3. ``decide`` (no win yet): a first DFS slice, the wide beams, then the exact search (with
   the colour-free abstraction and the CP-SAT loss model where their switches are on);
4. ``furthest`` (after a proven loss): the furthest-line search on its own small budget;
5. ``improve`` (``waste``/``turns``, a win found): the bottom-up/top-down proof of the optimum;
6. ``lns`` and ``resume`` (``waste`` with a time limit): :mod:`solver.lns`.

The schedule is the same whether the compiled core or the pure-Python reference runs the
search: nothing in it depends on which one runs (it used to: the wide beams ran only when
``beam_schedule is DEFAULT_BEAM_SCHEDULE`` *and* the core was on, so the default was never
compared node for node with the reference). Each phase leaves a
:class:`solver.budget.PhaseRecord` in ``stats["budget"]["phases"]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.beam import DEFAULT_BEAM_SCHEDULE, WIDE_BEAM_SCHEDULE

#: The phase names a :class:`~solver.budget.PhaseRecord` may carry, in schedule order.
PHASES = ("beams", "wide-beams", "decide", "furthest", "improve", "lns-window", "resume")


@dataclass(frozen=True)
class Schedule:
    """The phases of one solve as data. ``beams``: pairs (beam width, ways to pay kept per
    placement; 0 = all) run in order; ``wide_beams``: the wider beams of phases 2 and 3
    (``()``: none). Both the compiled core and the Python reference run exactly this."""

    beams: tuple[tuple[int, int], ...] = DEFAULT_BEAM_SCHEDULE
    wide_beams: tuple[tuple[int, int], ...] = WIDE_BEAM_SCHEDULE

    @classmethod
    def for_beams(cls, beams: tuple[tuple[int, int], ...]) -> Schedule:
        """The schedule of a caller's ``beam_schedule``: the default beams (compared by
        value) get the wide beams; a schedule of one's own runs without them, as it always
        did (puzzles/daily.py's par beams, the tests' small schedules)."""
        beams = tuple(tuple(b) for b in beams)  # type: ignore[misc]
        return cls(beams, WIDE_BEAM_SCHEDULE if beams == DEFAULT_BEAM_SCHEDULE else ())


DEFAULT_SCHEDULE = Schedule()

__all__ = ["DEFAULT_SCHEDULE", "PHASES", "Schedule"]
