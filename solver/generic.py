"""An exact search over :class:`model.game.Game` positions, for rule sets the compact DFS
(:mod:`solver.exhaustive`) does not model: today the optional Goats module (``goats=on``, rulings
G1–G7 in ``docs/rules.md``).

The search is the rules engine's own move generator with the field's usual machinery:

* a memoized depth-first search: the transposition table maps :meth:`Game.key` (the
  mountain, hands, decks, player to move and, with goats, the goats' places) to the largest
  budget under which the position was proven to have no win, so a position is never searched
  twice for the same or a smaller budget; a full table drops its older half;
* objectives as in :mod:`solver.result`: ``none`` searches with an unlimited budget;
  ``waste`` and ``turns`` first find a win, then search again with budget ``best - 1`` until
  that fails (the last win is then optimal); ``turns`` prunes with a lower bound (one move per
  empty slot and per Bridge, plus the goats' remaining climb under ``goat_move=step``);
* move ordering for a first win: the Summit, cheap placements high up, goat moves, discards;
* node and time limits: when one runs out the verdict is ``unknown`` (or a win not proven
  optimal), never a guess.

With goats on and a deal as the start, :func:`solve` first tries a *lift* of the base game
(objective ``none`` only): the compact DFS solves the same deal with ``goats=off``; its win
is replayed with goats up to the Summit and the exact search above finishes from there (and,
failing that, from a few earlier points of the plan). Under ``goat_turn=free`` a proven loss
of the base game is a proven loss with goats: taking the goat moves out of a winning game
leaves a legal base game (goat moves touch no card and do not pass the turn, and the goats
only ever hold the Summit back, G4) that still ends with the Summit on the peak. Every plan
is replayed by :mod:`model` (:func:`solver.result.checked_plan`) before it is returned.

>>> from model.deal import Deal
>>> from model.rules import RuleSet
>>> rules = RuleSet.from_options(["preset=tiny", "goats=on"])
>>> solve(Deal.from_seed(11, 1, rules)).verdict in ("win", "loss")
True
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from typing import Any, Callable

from model.deal import Deal
from model.errors import IllegalMoveError
from model.game import Game
from model.moves import DISCARD, GOAT, Move
from model.rules import GOAT_CHOICES, RuleSet
from solver.result import (
    LOSS,
    OBJECTIVES,
    UNKNOWN,
    WIN,
    SolveResult,
    checked_line,
    checked_plan,
)
from solver.state import NodeLimits, Stop

INF = 10**9
#: Bytes a transposition-table entry is counted at (a key holds the whole position).
ENTRY_BYTES = 1500


#: A node or time limit ran out (the searches' one exception for it).
_Stop = Stop


def needs_generic(rules: Any) -> bool:
    """Whether a rule set needs this search rather than the compact DFS: ``goats=on``."""
    return getattr(rules, "goats", "off") == "on"


class GenericSearch(NodeLimits):
    """One memoized DFS from ``game`` (which it pushes and pops; it is left as given).

    ``objective``: ``none`` | ``waste`` | ``turns``; ``deadline``: a ``time.monotonic()``
    instant or ``None``; ``node_limit``: nodes or ``None``; ``table_size``: entries.
    """

    def __init__(self, game: Game, objective: str = "none", deadline: float | None = None,
                 node_limit: int | None = None, table_size: int = 1_000_000,
                 progress: Callable[[dict], None] | None = None) -> None:
        self.game = game
        self.objective = objective
        self.deadline = deadline
        self.node_limit = node_limit
        self.table_size = max(16, table_size)
        self.progress = progress
        self.table: dict[tuple, int] = {}
        self.nodes = 0
        self.hits = 0
        self.evictions = 0
        self.line: list[Move] = []
        self.win_line: list[Move] = []
        self.best_progress = game.filled_slots()
        self.best_line: list[Move] = []
        self.t0 = time.monotonic()
        self.last_report = self.t0
        self.next_check = 1024
        self.stopped = False

    # ---- bounds and ordering -------------------------------------------------------------

    def lower_bound(self) -> int:
        """A lower bound on the objective still to pay from the current position."""
        if self.objective != "turns":
            return 0
        g = self.game
        rules = g.rules
        empty = rules.mountain_slots - g.filled_slots()
        lb = empty + len(g.bridges())
        if g.goats:
            top = rules.goat_top_row
            climb = max(top - r for r, _ in g.goats)
            if climb > 0:
                lb += climb if rules.goat_move == "step" else 1
        return lb

    def ordered(self, moves: list[Move]) -> list[Move]:
        """Summit first, then placements (cheap, high up first), goat moves (furthest
        climb first), discards last."""
        peak = self.game.rules.peak_row

        def key(m: Move) -> tuple:
            if m.kind == DISCARD:
                return (3, 0, 0)
            if m.kind == GOAT:
                return (2, -(m.to_row - m.row), 0)
            if m.row == peak:
                return (0, 0, 0)
            return (1, len(m.discard), -m.row)

        return sorted(moves, key=key)

    # ---- the search ----------------------------------------------------------------------

    def run(self, budget: int = INF) -> bool:
        """Search for a win costing at most ``budget`` more; ``True`` with ``win_line`` set
        (moves from the start position), ``False`` when there is none (a proof). Raises
        :class:`_Stop` when a limit runs out (the game is restored first)."""
        depth = len(self.game.move_stack)
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            return self._dfs(budget)
        except _Stop:
            while len(self.game.move_stack) > depth:
                self.game.pop()
            self.line.clear()
            self.stopped = True
            raise
        finally:
            sys.setrecursionlimit(old)

    def _dfs(self, budget: int) -> bool:
        g = self.game
        if g.is_won():
            self.win_line = list(self.line)
            return True
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check_limits()
        filled = g.filled_slots()
        if filled > self.best_progress:
            self.best_progress = filled
            self.best_line = list(self.line)
        if self.lower_bound() > budget:
            return False
        key = g.key()
        failed = self.table.get(key)
        if failed is not None and failed >= budget:
            self.hits += 1
            return False
        for m in self.ordered(g.legal_moves()):
            n_out = len(g.out)
            g.push_unchecked(m)
            step = (len(g.out) - n_out if self.objective == "waste"
                    else 1 if self.objective == "turns" else 0)
            self.line.append(m)
            ok = step <= budget and self._dfs(budget - step)
            self.line.pop()
            g.pop()
            if ok:
                return True
        if len(self.table) >= self.table_size:
            drop = list(self.table)[: len(self.table) // 2]
            for k in drop:
                del self.table[k]
            self.evictions += len(drop)
        self.table[key] = max(budget, failed or 0)
        return False

    def value(self, line: list[Move]) -> int:
        """The objective value of ``line`` played from the start position."""
        if self.objective == "turns":
            return len(line)
        if self.objective == "waste":
            n = len(self.game.out)
            for m in line:
                self.game.push_unchecked(m)
            v = len(self.game.out) - n
            for _ in line:
                self.game.pop()
            return v
        return 0

    def stats(self) -> dict[str, Any]:
        secs = time.monotonic() - self.t0
        return {
            "nodes": self.nodes,
            "seconds": round(secs, 3),
            "nodes_per_second": int(self.nodes / secs) if secs > 0 else 0,
            "table_entries": len(self.table),
            "table_hits": self.hits,
            "table_evictions": self.evictions,
            "best_progress": self.best_progress,
        }


def _finish(search: GenericSearch, root: Deal | Game, objective: str, verdict: str,
            line: list[Move] | None, value: int | None, optimal: bool, bound: int | None,
            extra: dict[str, Any]) -> SolveResult:
    """Build the result as :mod:`solver.result` describes it for a start ``root`` (a deal or
    a position): lines from ``root``, replayed by :mod:`model` before they are returned."""
    stats = {**search.stats(), **extra}
    best_line = checked_line(root, line if line is not None else search.best_line, "generic")
    plan = checked_plan(root, line, "generic") if line is not None else None
    deal = root if isinstance(root, Deal) else root.deal
    start = root if isinstance(root, Game) else None
    rules = root.rules
    progress = rules.mountain_slots if line is not None else search.best_progress
    return SolveResult(verdict, objective, deal, plan, value, optimal, bound, progress,
                       best_line, "generic", stats, start, list(best_line))


def base_rules(rules: RuleSet) -> RuleSet:
    """The base game of ``rules``: the Goats module off and its options at their defaults
    (with ``goats=off`` they change nothing, so this is the same game)."""
    defaults: dict[str, Any] = {k: v[0] for k, v in GOAT_CHOICES.items()}
    return replace(rules, **defaults)


def _lift(deal: Deal, deadline: float | None, node_limit: int | None,
          memory_limit_mb: int, base_result: SolveResult | None = None
          ) -> tuple[str, list[Move] | None, dict[str, Any]]:
    """Solve the deal without goats (the compact DFS) and carry its win over to goats.

    Returns ``(verdict, winning moves or None, notes)``: ``win`` with a plan, ``loss`` when
    the base game is a proven loss and ``goat_turn=free`` (see the module docstring), else
    ``unknown``."""
    from solver.exhaustive import solve as base_solve  # the base rules have no goats

    rules = deal.rules
    base = Deal(deal.players, deal.decks, base_rules(rules), deal.seed)
    if base_result is not None and base_result.deal is not None and (
            base_result.deal.decks == base.decks and base_result.deal.rules == base.rules):
        res = base_result
    else:
        share = None if deadline is None else max(0.05, (deadline - time.monotonic()) / 2)
        res = base_solve(base, "none", time_limit=share, node_limit=node_limit,
                         memory_limit_mb=memory_limit_mb)
    notes: dict[str, Any] = {"base_verdict": res.verdict, "base_nodes": res.stats.get("nodes", 0)}
    if res.verdict == LOSS:
        if rules.goat_turn == "free":
            notes["loss_by"] = "base game proven lost; goat_turn=free moves change no card play"
            return LOSS, None, notes
        return UNKNOWN, None, notes
    if res.verdict != WIN or res.plan is None:
        return UNKNOWN, None, notes
    moves = list(res.plan.moves)
    n = len(moves)
    cuts = [n - 1] + [n - 1 - k * deal.players for k in (1, 2, 3)] + [n - 2, n - 3]
    tried = []
    for cut in cuts:
        if cut < 0 or cut in tried:
            continue
        tried.append(cut)
        game = Game(deal)
        try:
            for m in moves[:cut]:
                game.push(m)
        except IllegalMoveError:  # the base plan is illegal with goats from here on
            continue
        search = GenericSearch(game, "none", deadline, 20_000)
        try:
            found = search.run()
            notes["lift_nodes"] = notes.get("lift_nodes", 0) + search.nodes
            if found:
                notes["lift_cut"] = cut
                return WIN, moves[:cut] + search.win_line, notes
        except _Stop:
            notes["lift_nodes"] = notes.get("lift_nodes", 0) + search.nodes
            if deadline is not None and time.monotonic() > deadline:
                break
    notes["lift"] = f"no finish found from {len(tried)} cut points"
    return UNKNOWN, None, notes


def solve(start: Deal | Game, objective: str = "none", time_limit: float | None = None,
          node_limit: int | None = None, memory_limit_mb: int = 2048,
          progress: Callable[[dict], None] | None = None, lift: bool = True,
          base: SolveResult | None = None) -> SolveResult:
    """Decide ``start`` (a :class:`~model.deal.Deal` or a fully known
    :class:`~model.game.Game` position) under any rule set the engine plays, goats included.

    ``objective``: ``none`` | ``waste`` | ``turns`` (see :mod:`solver.result`);
    ``time_limit`` (seconds) and ``node_limit`` (nodes) bound the search, after which the
    verdict is ``unknown`` (or an unproven win); ``memory_limit_mb`` caps the transposition
    table (counted at :data:`ENTRY_BYTES` an entry). Objectives count from ``start``; the
    result's ``continuation`` holds the moves from ``start`` and ``plan`` the whole record
    (as :mod:`solver.result` describes). ``lift``: with goats on, a deal and
    ``none``, try the base game's solution first (module docstring); ``base``: the compact
    DFS's answer for the same deal with ``goats=off``, if already known (used only when its
    deal and rules match; studies of several goat readings share it). The result's
    ``solver`` is ``generic``. Raises ``ValueError`` for an unknown objective; every plan
    has been replayed by :mod:`model`.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    t0 = time.monotonic()
    deadline = t0 + time_limit if time_limit is not None else None
    game = Game(start) if isinstance(start, Deal) else start.copy()
    table = max(16, memory_limit_mb * 1_000_000 // ENTRY_BYTES)
    extra: dict[str, Any] = {}
    if (lift and objective == "none" and isinstance(start, Deal) and needs_generic(start.rules)):
        try:
            verdict, line, notes = _lift(start, deadline, node_limit, memory_limit_mb, base)
        except KeyboardInterrupt:  # Ctrl-C: an answer that says so, never a traceback
            verdict, line, notes = UNKNOWN, None, {"interrupted": True}
        extra.update(notes)
        if extra.get("interrupted"):
            search = GenericSearch(game, objective)
            search.t0 = t0
            return _finish(search, start, objective, UNKNOWN, None, None, False, None, extra)
        if verdict != UNKNOWN:
            search = GenericSearch(game, objective)
            search.t0 = t0
            search.nodes = extra.get("base_nodes", 0) + extra.get("lift_nodes", 0)
            return _finish(search, start, objective, verdict, line, None, False, None,
                           {**extra, "phase": "lift"})
    search = GenericSearch(game, objective, deadline, node_limit, table, progress)
    search.t0 = t0
    search.nodes = search.next_check = extra.get("base_nodes", 0) + extra.get("lift_nodes", 0)
    best: list[Move] | None = None
    best_value: int | None = None
    exhausted = False
    try:
        if search.run(INF):
            best = search.win_line
            best_value = search.value(best)
            if objective != "none":
                while best_value > 0 and search.run(best_value - 1):
                    best = search.win_line
                    best_value = search.value(best)
        exhausted = True
    except _Stop:
        pass
    except KeyboardInterrupt:
        while game.move_stack:
            game.pop()
        search.line.clear()
        extra["interrupted"] = True
    if best is not None:
        optimal = exhausted and objective != "none"
        value = best_value if objective != "none" else None
        bound = value if optimal else None
        return _finish(search, start, objective, WIN, best, value, optimal, bound, extra)
    verdict = LOSS if exhausted else UNKNOWN
    return _finish(search, start, objective, verdict, None, None, False, None, extra)


def route(dfs_solve: Callable[..., SolveResult]) -> Callable[..., SolveResult]:
    """Wrap the compact DFS's ``solve`` so that rule sets it does not model (``goats=on``)
    go to :func:`solve` here instead; the call signature is the DFS's."""

    def solve_any(start: Any, objective: str = "none", *args: Any, **kwargs: Any) -> SolveResult:
        rules = getattr(start, "rules", None)
        if needs_generic(rules):
            allowed = {k: v for k, v in kwargs.items()
                       if k in ("time_limit", "node_limit", "memory_limit_mb", "progress")}
            return solve(start, objective, *args[:4], **allowed)
        return dfs_solve(start, objective, *args, **kwargs)

    solve_any.__doc__ = dfs_solve.__doc__
    solve_any.__wrapped__ = dfs_solve  # type: ignore[attr-defined]
    return solve_any


__all__ = ["GenericSearch", "base_rules", "needs_generic", "route", "solve"]
