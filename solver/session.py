"""One search reused across the positions of one game.

A game's positions share most of their future: the position after move k+1 is a child of
the position after move k. :class:`Session` keeps one :class:`~solver.exhaustive.Search`
(its compact state, its caches and above all its transposition table) and solves position
after position with it: the table's entries are proven lower bounds on the cost *still to
pay* from a state (``INF``: no win at all), true whatever the root, so every proof made for
one position serves the next ones. Solving a game's positions from the last to the first
lets the proofs of the later, smaller positions cut the searches of the earlier ones.

>>> from model.deal import Deal
>>> from model.records import replay
>>> deal = Deal.from_seed(1)
>>> s = Session(deal)
>>> first = s.solve(replay(deal, []).game)
>>> later = s.solve(replay(deal, first.continuation[:10]).game)
>>> first.verdict, later.verdict, s.solves
('win', 'win', 2)
"""

from __future__ import annotations

import time
from typing import Callable

from model.deal import Deal
from model.game import Game
from solver.beam import DEFAULT_BEAM_SCHEDULE
from solver.exhaustive import FURTHEST_MODES, Search, core_will_run, table_entries_for
from solver.result import OBJECTIVES, SolveResult
from solver.state import Switches


class Session:
    """Solves positions of one game with one search and one transposition table.

    ``root``: the game's start: a :class:`~model.deal.Deal` or a fully known
    :class:`~model.game.Game` (a bare position; the positions solved later must then be
    reached from it by play). ``objective``, ``memory_limit_mb`` (the table's and the
    furthest search's cap, as in :func:`solver.solve`), ``furthest`` (``bounded``,
    ``proven``, ``off``), ``beam_schedule`` and ``switches`` (search switches of
    :class:`~solver.state.Switches` by name, e.g. ``{"abstraction": False}``) hold for every
    position.

    :meth:`solve` answers like :func:`solver.solve` from the position given; a position
    that is not of this game (other rules, players, or decks that are not what is left of
    the known decks) is solved by a search of its own. Raises ``ValueError`` for an
    unknown objective or furthest mode.
    """

    def __init__(self, root: Deal | Game, objective: str = "none", memory_limit_mb: int = 2048,
                 furthest: str = "bounded",
                 beam_schedule: tuple[tuple[int, int], ...] = DEFAULT_BEAM_SCHEDULE,
                 progress: Callable[[dict], None] | None = None,
                 switches: dict[str, bool] | None = None) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
        if furthest not in FURTHEST_MODES:
            raise ValueError(f"unknown furthest mode {furthest!r}; valid: {', '.join(FURTHEST_MODES)}")
        self.objective = objective
        self.furthest = furthest
        self.beam_schedule = beam_schedule
        self.memory_limit_mb = memory_limit_mb
        self.progress = progress
        self.switches = dict(switches or {})
        for k in self.switches:
            if not hasattr(Switches, k):
                raise ValueError(f"unknown search switch {k!r}")
        self.search = self._new_search(root)
        self.solves = 0

    def _new_search(self, start: Deal | Game) -> Search:
        sw = Switches(**self.switches)
        sw.table_size = table_entries_for(self.memory_limit_mb, core_will_run(sw))
        return Search(start, self.objective, sw, None, None, self.progress)

    def solve(self, position: Deal | Game, time_limit: float | None = None,
              node_limit: int | None = None, furthest: str | None = None,
              pass_interrupt: bool = True, explain: bool = True) -> SolveResult:
        """Solve from ``position`` (a :class:`Game` of this game, or the root deal) within
        ``time_limit`` seconds and ``node_limit`` nodes (``None``: no limit), reusing the
        table. The answer is that of :func:`solver.solve` from ``position`` (its
        ``stats`` count this position's work only; ``table_entries`` the shared table).
        ``furthest``: this solve's furthest-line mode (default: the session's). Raises
        :class:`KeyboardInterrupt` when Ctrl-C or SIGTERM stopped the search: a session
        serves many positions, and its caller must stop rather than take the stopped
        position for an ``unknown`` and go on to the next. ``pass_interrupt=False``: return
        the stopped search's answer instead (``stats["interrupted"]``; a win found so far
        is kept). ``explain``: a proven loss gets its reason in words (``reason``)."""
        game = Game(position) if isinstance(position, Deal) else position
        search = self.search
        try:
            search.load(game)
        except ValueError:  # not reached from this game's start: a search of its own
            search = self._new_search(game)
        deadline = time.monotonic() + time_limit if time_limit is not None else None
        search.begin(deadline, node_limit)
        search.explain = explain
        self.solves += 1
        mode = self.furthest if furthest is None else furthest
        if mode not in FURTHEST_MODES:
            raise ValueError(f"unknown furthest mode {mode!r}; valid: {', '.join(FURTHEST_MODES)}")
        res = search.run(self.beam_schedule, mode)
        return res.passed_on() if pass_interrupt else res
