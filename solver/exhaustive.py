"""The exhaustive search and :func:`solve`: memoized depth-first branch and bound over the
open-hand game, from a deal or any fully known position.

All decks are known (the "thoughtful" question of exhaustive solitaire solvers) and one
planner plays every seat in turn order. The search answers *win* (with a plan the rules engine
replays), *loss* (the search was exhaustive) or *unknown* (a limit ran out).

Search: depth-first, cost-to-go branch and bound over the compact state of
:mod:`solver.state`. The cost of a line is the objective's increment along it (``waste``:
cards that leave the game, i.e. discards and replaced Bridges; ``turns``: one per move;
``none``: nothing). The transposition table maps a key to a proven lower bound on the cost
still to pay to win from it (``INF`` = no win at all). Since the waste so far and the turns
so far do not affect what can still happen, the table is shared across the whole solve,
across budgets, and across the positions of one game (:class:`solver.session.Session`).

Pruning, each with a switch so that tests can check it changes no answer:

* ``transposition``: the table above;
* ``dominance``: pay costs and discards with dead cards first (a dead card can only ever be
  discarded, so keeping a live card instead is never worse); dead cards are one type in keys;
* ``bounds``: the bounds of :mod:`solver.bounds`.

Phases: a beam search (heuristic, :mod:`solver.beam`) looks for a first win; the exhaustive
DFS runs when it finds none (to find a win or prove a loss) and, for ``waste``/``turns``, with
budget ``best - 1`` until one search fails, which proves the optimum. Move order is
colour-free (ties broken by where a card first stands in its deck), so a deal with its colours
relabelled gets the relabelled plan.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Sequence, cast

from model.deal import Deal
from model.game import Game
from solver.abstraction import Abstraction
from solver.beam import DEFAULT_BEAM_SCHEDULE, WIDE_BEAM_SCHEDULE, Beam
from solver.budget import Budget, PhaseRecord
from solver.frontier import PVOrder, improve, run_slice
from solver.nogood import DominanceStore
from solver.reasons import LossReason
from solver.result import (
    LOSS,
    OBJECTIVES,
    UNKNOWN,
    WIN,
    SolveResult,
    checked_line,
    checked_plan,
)
from solver.schedule import Schedule
from solver.state import INF, NodeLimits, Stop, Switches

#: The core's sources, in the order of setup.py's digest (``CORE_SOURCES``).
CORE_SOURCES = ("_core.c", "rules_core.h")


def source_digest(paths: Sequence[Path]) -> str | None:
    """The digest setup.py records in a compiled extension: sha256 of the files ``paths`` in
    order, as 16 hex digits; None where a source is not there (an installed wheel). Used for
    the search core here and for the bots' playout engine (:mod:`bots.fastplay`)."""
    if not all(p.exists() for p in paths):
        return None
    h = hashlib.sha256()
    for p in paths:
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _source_digest() -> str | None:
    """The core's digest (:func:`source_digest` of ``solver/_core.c`` then
    ``solver/rules_core.h``), or None where the sources are not beside this file."""
    return source_digest([Path(__file__).with_name(n) for n in CORE_SOURCES])


try:  # the compiled search core (solver/_core.c, built by setup.py where a C compiler is)
    import solver._core as _core
except ImportError:  # pragma: no cover - a machine without a compiler: the Python search
    _core = None
    _CORE_BUILD = "pure Python (the compiled core is not built; `pip install -e .` builds it)"
else:
    if _source_digest() not in (None, getattr(_core, "SOURCE_HASH", "")):
        # a core built from another version of _core.c (a checkout that moved on without a
        # rebuild): its answers could differ from the Python reference, so it is not used
        _core = None
        _CORE_BUILD = ("pure Python (solver/_core.c or solver/rules_core.h changed since the "
                       "compiled core was built; `pip install -e .` rebuilds it)")
        warnings.warn("ascent: warning: the search runs in " + _CORE_BUILD, RuntimeWarning,
                      stacklevel=2)
    else:
        _core.set_stop(Stop)
        _CORE_BUILD = "compiled core (solver/_core.c)"

#: True when the compiled core is importable and built from this ``solver/_core.c``;
#: ``Switches(core=False)`` (or the environment variable ``ASCENT_PURE_PYTHON=1``) runs the
#: pure-Python search, the reference. :func:`core_status` says which runs, and why.
CORE_AVAILABLE = _core is not None


def core_status() -> str:
    """Which search runs by default, in words: ``"compiled core (solver/_core.c)"``, or
    ``"pure Python (...)"`` with the reason (not built, built from another ``_core.c``, or
    ``ASCENT_PURE_PYTHON=1``). Shown by ``ascent --version``."""
    if CORE_AVAILABLE and os.environ.get("ASCENT_PURE_PYTHON") == "1":
        return "pure Python (ASCENT_PURE_PYTHON=1)"
    return _CORE_BUILD


_OBJECTIVE_CODE = {"none": 0, "waste": 1, "turns": 2}


#: After a proven loss, the furthest-line search gets at most this share of the proof's
#: nodes (and of the time limit), and at least :data:`FURTHEST_MIN_NODES` nodes.
FURTHEST_SHARE = 0.25
FURTHEST_MIN_NODES = 5_000
FURTHEST_MODES = ("bounded", "proven", "off")

#: Deciding with the wide beams: nodes of the first DFS slice, before the wide beams run.
DECIDE_SLICE = 2_000_000
#: Deciding with a time limit: the share of it that the CP-SAT loss model gets where the
#: search has not decided by then.
LOSS_MODEL_SHARE = 0.4


#: Bytes an entry of the Python search's table (a ``dict``): measured about 140 (a 60–70
#: byte key and the dict slot); 200 leaves room for the dict's growth.
DICT_ENTRY_BYTES = 200
#: Bytes an entry of the compiled core's exact table (solver/_core.c): a 40-byte slot and
#: its control byte at most 3/4 full (54.7 bytes), 1.5 times that while its last doubling
#: holds the old and the new slot arrays (82), and at most 8 for the overflow arena of keys
#: longer than 32 bytes.
CORE_ENTRY_BYTES = 90


def table_entries_for(memory_limit_mb: int, core: bool = False) -> int:
    """Transposition-table entries that fit ``memory_limit_mb`` (MB): the Python search's
    ``dict`` (:data:`DICT_ENTRY_BYTES` an entry) or, with ``core``, the compiled core's exact
    table (:data:`CORE_ENTRY_BYTES`, its peak, the growth included). At least 1,024."""
    per = CORE_ENTRY_BYTES if core else DICT_ENTRY_BYTES
    return max(1024, memory_limit_mb * 1024 * 1024 // per)


def core_will_run(switches: Switches) -> bool:
    """Whether a search with ``switches`` runs in the compiled core (see
    :meth:`Search.core`): the switch is on, the core is built and not refused by
    ``ASCENT_PURE_PYTHON=1``, and the Python-only dominance store is off."""
    return bool(switches.core and _core is not None
                and os.environ.get("ASCENT_PURE_PYTHON") != "1" and not switches.nogood_dominance)


class CoreTable:
    """Read-only view of the compiled core's transposition table with the parts of the
    ``dict`` interface the search uses (``get``, ``len``, ``in``). Keys are the state keys
    of :meth:`~solver.state.State.key` (bytes); the core stores them bit-packed and
    compares them whole (an exact table: no fingerprints)."""

    def __init__(self, core) -> None:
        self._core = core

    def get(self, key: bytes, default=None):
        v = self._core.tt_get(key)
        return default if v is None else v

    def __contains__(self, key: bytes) -> bool:
        return self._core.tt_get(key) is not None

    def __len__(self) -> int:
        return self._core.tt_len()


class Search(PVOrder, Beam, NodeLimits):
    """One search from one start (a deal or a fully known position): the state
    (:mod:`solver.state`), its bounds (:mod:`solver.bounds`), the beam (:mod:`solver.beam`),
    and here the limits, the transposition table, the exhaustive DFS and the furthest-line
    search. Use :func:`solve`."""

    def __init__(self, start: Deal | Game, objective: str, switches: Switches,
                 deadline: float | None, node_limit: int | None,
                 progress: Callable[[dict], None] | None = None) -> None:
        super().__init__(start, objective)
        self.sw = switches
        if not switches.table_size:
            switches.table_size = table_entries_for(2048, core_will_run(switches))
        self.progress = progress
        #: for progress reports: the objective's value of the best win found so far, and
        #: the lower bound proven so far at the start (``None`` until known)
        self.incumbent: int | None = None
        self.proven_bound: int | None = None
        self.tt: dict[bytes, int] = {}
        self.begin(deadline, node_limit)

    def begin(self, deadline: float | None, node_limit: int | None) -> None:
        """Start a new run from the current state (the root): its limits (``deadline`` on
        :func:`time.monotonic`, ``node_limit`` nodes of this run) and fresh counters. The
        transposition table is kept: its bounds are costs to go, true from any root."""
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.tt_hits = 0
        self.tt_evictions = 0
        self.dominance_hits = 0
        self.pruned = {"summit": 0, "height": 0, "cards": 0, "objective": 0, "spare": 0}
        self.path: list[tuple] = []
        self.best_progress = -1
        self.best_line: list[tuple] = []
        self.win_line: list[tuple] = []  # set by the search that finds a win
        self.stopped = False
        self.interrupted = False
        self.progress_proven = False
        self.proof: dict | None = None  # nodes and seconds of a loss proof
        self.__dict__.pop("loss_model_stats", None)
        self.__dict__.pop("abstraction_run", None)
        #: what proved a loss: "search" (the DFS, with the table's learned nogoods),
        #: "abstraction" (solver.abstraction) or "loss-model" (solver.cpsat_loss)
        self.decided_by = "search"
        self.furthest_stats: dict | None = None
        self.next_check = 1024 if node_limit is None else min(1024, node_limit)
        self.t0 = time.monotonic()
        self.last_report = self.t0

    def _enter_node(self) -> None:
        """Count a node of the exhaustive searches, check the limits, and keep the furthest
        line (``best_progress``/``best_line``)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check_limits()
        if self.filled > self.best_progress:
            self.best_progress = self.filled
            self.best_line = list(self.path)

    def dfs(self, budget: int) -> bool:
        """True iff a win with cost-to-go ≤ ``budget`` exists from the current state; the
        winning line from the start is then in ``self.win_line``. Raises ``Stop`` when a
        limit runs out. Runs in the compiled core when it is on (:meth:`core`), else in
        Python (:meth:`_dfs_py`, the reference); both visit the same nodes in the same
        order."""
        core = self.core()
        if core is None:
            return self._dfs_py(budget)
        pv = self.__dict__.get("pv") or {}
        if pv is not self.__dict__.get("_core_pv"):
            core.set_pv(list(pv.items()))
            self._core_pv = pv  # kept alive: compared by identity
        ok = self._core_call(core.dfs, budget)
        if ok:
            self.win_line = list(self.path) + core.win_line()
        return ok

    def beam(self, width: int, cap: int = INF) -> bool:
        """:meth:`solver.beam.Beam.beam`, in the compiled core when it is on (the same
        states in the same order)."""
        core = self.core()
        if core is None:
            return Beam.beam(self, width, cap)
        rows = self.rows
        core.set_state(rows, self.hands, self.ptr, self.to_move,
                       self.filled - sum(len(r) for r in rows))
        core.reset_counters()
        weights = (self.beam_spent, self.beam_real, self.beam_bridge, self.beam_slack,
                   self.beam_slack_floor, self.beam_discard_choices)
        try:
            found, win, best, progress = core.beam(
                width, cap, weights, self.spent0, self._core_check, self.nodes,
                self.next_check, self.best_progress)
        except (Stop, KeyboardInterrupt) as exc:
            self._core_sync()
            win, best, progress = core.beam_result()
            self._beam_furthest(best, progress)
            if isinstance(exc, KeyboardInterrupt):
                self.interrupted = True
            if win is not None:  # keep the win found before the limit ran out
                self.win_line = win
                self.stopped = True
                return True
            raise Stop from None
        self._core_sync()
        self._beam_furthest(best, progress)
        if win is not None:
            self.win_line = win
        return found

    def _beam_furthest(self, best, progress: int) -> None:
        if best is not None and progress > self.best_progress:
            self.best_progress = progress
            self.best_line = best

    def _dfs_py(self, budget: int) -> bool:
        """:meth:`dfs` in pure Python."""
        self._enter_node()
        if self.filled == self._slots_total:
            self.win_line = list(self.path)
            return True
        flags = self.dead_flags()
        key = None
        if self.sw.transposition:
            key = self.learned_key(flags)  # solver.nogood: the row fronts
            lb = self.tt.get(key)
            if lb is not None and (lb > budget or lb >= INF):  # INF: no win at all (none)
                self.tt_hits += 1
                return False
        dom = None
        if self.sw.nogood_dominance and self.sw.dominance and self.sw.transposition:
            base, hands, exhausted = self.dominance_parts(flags)
            dom = (base, hands)
            if self.dominance_worth_asking(hands, exhausted):
                v = self.dominance_store().bound(base, hands, self.t.dead, exhausted)
                if v > budget or v >= INF:
                    self.dominance_hits += 1
                    return False
        if self.sw.bounds and self.bound_fails(budget):
            return False
        summit = self.t.summit
        last_summits = self.remaining[summit] if self.sw.bounds else 0
        for mv in self.ordered_children(flags, None if self.sw.nogood else key):
            c = self.move_cost(mv[0], len(mv[6]))
            if c > budget:
                continue
            if last_summits and mv[6].count(summit) == last_summits:
                # it would discard every Summit left (R10: no win after it): cut here
                self.pruned["summit"] += 1
                continue
            rec = self.apply(mv)
            self.path.append(mv)
            ok = self._dfs_py(budget - c)
            self.path.pop()
            self.undo(mv, rec)
            if ok:
                return True
        if key is not None:
            tt = self.tt
            if len(tt) >= self.sw.table_size:
                self._evict()
            old = tt.get(key, 0)
            if budget + 1 > old:
                tt[key] = INF if self.objective == "none" else budget + 1
        if dom is not None:
            self.dominance_store().add(dom[0], dom[1], INF if self.objective == "none" else budget + 1)
        return False

    def dominance_store(self) -> DominanceStore:
        """The store of :class:`solver.nogood.DominanceStore` (made at the first call), a
        quarter of the table's size."""
        st = self.__dict__.get("_dominance")
        if st is None:
            st = self._dominance = DominanceStore(self.sw.table_size // 4)
        return st

    def furthest(self, cap: int | None = None) -> bool:
        """After a proven loss: search every line for the most slots filled (into
        ``best_progress``/``best_line``). True when the search finished, so that the furthest
        is proven; raises ``Stop`` when a limit runs out. Each card fills at most one slot,
        so a state that cannot pass the best so far is cut (no line can fill every slot: the
        deal is lost); a state seen before is not
        searched again (its lines were counted the first time). ``cap``: most states
        remembered (default: the table size); a full seen-set stops the search."""
        cap = self.sw.table_size if cap is None else cap
        core = self.core()
        if core is not None:
            try:
                return self._core_call(core.furthest, cap)
            finally:
                self.furthest_states = core.counters()[6]
                core.clear_seen()
        seen: set[bytes] = set()
        self.furthest_seen = seen
        # after a proven loss no line fills every slot (that is a win), so the furthest
        # is at most one slot short: a line that reaches it ends the search
        total = self._slots_total - 1

        def rec() -> None:
            self._enter_node()
            reach = self.filled + min(total - self.filled, self.n_remaining)
            if reach <= self.best_progress:
                return
            flags = self.dead_flags()
            key = self.key(flags)
            if key in seen:
                return
            if len(seen) >= cap:
                raise Stop
            seen.add(key)
            for mv in self.children(flags):
                rec_ = self.apply(mv)
                self.path.append(mv)
                rec()
                self.path.pop()
                self.undo(mv, rec_)

        rec()
        return True

    # ---- the compiled core -----------------------------------------------------------

    def core(self):
        """This search's compiled core (:mod:`solver._core`), made at the first call, or
        ``None`` when the switch ``core`` is off, the core is not built, or the environment
        variable ``ASCENT_PURE_PYTHON`` is ``1``. Once made, the transposition table lives in
        the core and ``self.tt`` is a read-only view of it (:class:`CoreTable`)."""
        c = self.__dict__.get("_core")
        if c is not None:
            return c
        if (not (self.sw.core and _core is not None) or os.environ.get("ASCENT_PURE_PYTHON") == "1"
                or self.sw.nogood_dominance):  # the dominance store is in the Python search only
            return None
        t, sw = self.t, self.sw
        c = _core.Core(t.kind, [v if v is not None else 0 for v in t.value], t.colour, t.maxrow,
                       t.summit, t.bridge, self.rowlen, self.hand_size,
                       [list(d) for d in self.decks], self.first_pos, int(self.look_through),
                       int(self.bridge_max), int(self.campfire_paid),
                       _OBJECTIVE_CODE[self.objective], int(sw.transposition),
                       int(sw.dominance), int(sw.bounds), int(sw.window_players),
                       int(sw.table_size), int(sw.budget), int(sw.bridge_costs),
                       int(sw.nogood), int(self.colourless))
        self._core = c
        # the core's table, behind the dict methods the search reads (only the Python
        # search, which does not run with the core, writes to self.tt)
        self.tt = CoreTable(c)  # type: ignore[assignment]
        return c

    def _core_call(self, fn, arg: int) -> bool:
        """Run ``fn`` (the core's ``dfs`` or ``furthest``) from the current state with this
        search's counters, limits and furthest line; its counters are added to the
        search's whether it ends or a limit (``Stop``) or Ctrl-C stops it."""
        core = self._core
        rows = self.rows
        on_rows = sum(len(r) for r in rows)
        core.set_state(rows, self.hands, self.ptr, self.to_move, self.filled - on_rows)
        core.reset_counters()
        try:
            return fn(arg, self._core_check, self.nodes, self.next_check, self.best_progress)
        finally:
            self._core_sync()

    def _core_sync(self) -> None:
        nodes, hits, evictions, cuts, best, pv_hits, _ = self._core.counters()
        self.nodes = nodes
        self.tt_hits += hits
        self.tt_evictions += evictions
        for name, n in zip(("summit", "height", "cards", "objective", "spare"), cuts):
            self.pruned[name] += n
        if pv_hits:
            self.pv_hits = self.__dict__.get("pv_hits", 0) + pv_hits
        self._core.reset_counters()
        if best > self.best_progress:
            line = self._core.best_line()
            if line is not None:
                self.best_progress = best
                self.best_line = list(self.path) + line

    def _core_check(self, nodes: int) -> int:
        """Called by the core every 1024 nodes (and at the node limit): the limits of
        :meth:`NodeLimits._check_limits` (raises :class:`Stop`); returns the node count
        of the next call."""
        self.nodes = nodes
        if self.progress is not None:
            self._core_sync()
        self._check_limits()
        return self.next_check

    def _evict(self) -> None:
        """Make room: drop half of the table. The Python reference drops the older half in
        insertion order; the core drops the entries of older generations, then those with
        the smaller bounds (``solver/_core.c``, ``xt_evict_half``)."""
        if self.__dict__.get("_core") is not None:
            self.tt_evictions += self._core.evict()
            return
        tt = self.tt
        n = len(tt) // 2
        for k in list(tt)[:n]:
            del tt[k]
        self.tt_evictions += n

    def progress_stats(self) -> dict:
        """:meth:`stats` and, for ``waste``/``turns``, ``incumbent`` (the best win's value
        found so far) and ``proven_bound`` (the lower bound proven so far), each ``None``
        until known."""
        out = self.stats()
        if self.objective != "none":
            out["incumbent"] = self.incumbent
            out["proven_bound"] = self.proven_bound
        return out

    def stats(self) -> dict:
        """The run's counters. ``nodes`` and ``seconds`` are the verdict's: after a loss
        proof, the proof's (also under ``proof``); the furthest-line search after it has its
        own entry ``furthest`` (nodes, seconds, budget, whether it finished)."""
        now = time.monotonic()
        nodes = self.nodes if self.proof is None else self.proof["nodes"]
        secs = now - self.t0 if self.proof is None else self.proof["seconds"]
        out = {
            "nodes": nodes,
            "seconds": round(secs, 3),
            "nodes_per_second": int(nodes / secs) if secs > 0 else 0,
            "table_entries": len(self.tt),
            "table_hits": self.tt_hits,
            "dominance_hits": self.dominance_hits,
            "table_evictions": self.tt_evictions,
            "pruned": dict(self.pruned),
            "best_progress": max(self.best_progress, 0),
            "best_progress_proven": self.progress_proven,
            **({"interrupted": True} if self.interrupted else {}),
        }
        if self.proof is not None:
            out["proof"] = {"nodes": nodes, "seconds": round(secs, 3)}
        if self.furthest_stats is not None:
            out["furthest"] = dict(self.furthest_stats)
        lm = self.__dict__.get("loss_model_stats")
        if lm is not None:
            out["loss_model"] = dict(lm)
        ab = self.__dict__.get("abstraction_run")
        if ab is not None:
            out["abstraction"] = ab.stats()
        if self.proof is not None:  # a proven loss: which proof decided it
            out["decided_by"] = self.decided_by
        return out

    def _wide_beams(self, best: list[tuple] | None) -> list[tuple] | None:
        """The wide beams of :data:`~solver.beam.WIDE_BEAM_SCHEDULE` (about 3 s
        and 6 M nodes on a standard solo deal in the core) on at most half of what is left
        of the node and time limits, so that a small ``node_limit`` still leaves the exact
        search its share. Their share running out is not the run's stop; Ctrl-C, or the
        run's own node or time limit running out with it, is."""
        saved = (self.deadline, self.node_limit)
        if self.node_limit is not None:
            self.node_limit = self.nodes + max(1, (self.node_limit - self.nodes) // 2)
            self.next_check = min(self.next_check, self.node_limit)
        if self.deadline is not None:
            now = time.monotonic()
            self.deadline = now + max(0.0, self.deadline - now) / 2
        try:
            best = self.beams(self.__dict__.get("wide_schedule", WIDE_BEAM_SCHEDULE), best)
        finally:
            self.deadline, self.node_limit = saved
            self.next_check = self.nodes + 1  # the run's own limits, checked at the next node
        if self.stopped and not self.interrupted and not self._limits_reached():
            self.stopped = False  # the beams' share ran out, not the run's limits
        return best

    def _limits_reached(self) -> bool:
        """Whether the run's node limit or deadline has run out (a search started now would
        count a node past the limit before its first check)."""
        return ((self.node_limit is not None and self.nodes >= self.node_limit)
                or (self.deadline is not None and time.monotonic() > self.deadline))

    def _decide(self, root: tuple, wide: bool) -> bool:
        """The exact search for a first win from the root (snapshot ``root``): True with
        ``win_line`` set, False when no win exists; raises :class:`Stop` when a limit runs
        out. With ``wide`` (the default beams and the compiled core): a first slice of
        :data:`DECIDE_SLICE` nodes of the DFS (most proofs of loss are quick), then the wide
        beams of :meth:`_wide_beams` (tight wins, which the DFS finds late), then the DFS
        to the end; the transposition table keeps what each part proved."""
        if wide:
            done, ok = run_slice(self, INF, DECIDE_SLICE, root)
            if done:
                return ok
            best = self._wide_beams(None)
            if best is not None:
                self.win_line = best
                return True
            if self.stopped:
                raise Stop
        if self.objective == "none" and self.sw.abstraction:
            return self._decide_abstracted(root, not wide)
        return self.dfs(INF)

    def _decide_abstracted(self, root: tuple, first: bool) -> bool:
        """:meth:`_decide` with the colour-free abstraction (:mod:`solver.abstraction`):
        (``first``: after a first slice of the real search of
        :data:`~solver.abstraction.FIRST_SLICE` nodes) the abstract and the real search take
        turns in node slices doubled each round (the abstract one
        :data:`~solver.abstraction.ABSTRACT_SHARE` of the real one); an abstract loss is a real loss, an
        abstract win drops the abstraction. The abstract search's nodes count against the
        run's node limit; ``stats["abstraction"]`` holds its counters."""
        import solver.abstraction

        first_slice = solver.abstraction.FIRST_SLICE  # read at the call: tests lower it
        if first:
            done, ok = run_slice(self, INF, first_slice, root)
            if done:
                return ok
        ab = Abstraction(self)
        self.abstraction_run = ab
        size = first_slice
        while ab.verdict is None:
            share = max(1, int(size * solver.abstraction.ABSTRACT_SHARE))
            if self.node_limit is not None:
                share = min(share, self.node_limit - self.nodes)
            before = ab.nodes
            try:
                verdict = ab.run_slice(share, self.deadline)
            finally:
                self.nodes += ab.nodes - before
                self.next_check = self.nodes + 1
            if verdict == "loss":
                self.decided_by = "abstraction"
                return False
            if verdict is None and ((self.node_limit is not None and self.nodes >= self.node_limit)
                                    or (self.deadline is not None
                                        and time.monotonic() > self.deadline)):
                raise Stop
            if verdict == "win":
                break
            done, ok = run_slice(self, INF, size, root)
            if done:
                return ok
            size *= 2
        return self.dfs(INF)

    def _decide_or_relax(self, root: tuple, wide: bool) -> bool:
        """:meth:`_decide`, and with objective ``none`` and a time limit (switch
        ``loss_model``), the CP-SAT loss model (:mod:`solver.cpsat_loss`) where the search
        has not decided within its share (``1 −`` :data:`LOSS_MODEL_SHARE` of the time
        left): its infeasibility proves the loss, and a solution that :mod:`model` replays
        as a win is the win. A node limit or Ctrl-C stops the search as usual."""
        real = self.deadline
        if not (self.objective == "none" and self.sw.loss_model and real is not None):
            return self._decide(root, wide)
        now = time.monotonic()
        self.deadline = now + max(0.0, real - now) * (1 - LOSS_MODEL_SHARE)
        try:
            return self._decide(root, wide)
        except Stop:
            if (self.interrupted or time.monotonic() >= real
                    or (self.node_limit is not None and self.nodes >= self.node_limit)):
                raise
            self.path.clear()
            self.restore(root)
        finally:
            self.deadline = real
            self.next_check = self.nodes + 1
        from solver.cpsat_loss import CANDIDATE, INFEASIBLE, solve_loss_model

        status, moves, stats = solve_loss_model(self.root, max(0.01, real - time.monotonic()))
        self.loss_model_stats = stats
        if stats.get("interrupted"):
            self.interrupted = True
            raise Stop
        if status == INFEASIBLE:
            self.decided_by = "loss-model"
            return False
        if status == CANDIDATE and moves is not None:
            self.win_line = self.from_moves(moves)
            return True
        raise Stop

    def run_furthest(self, mode: str) -> bool:
        """After a proven loss, the furthest-line search (:meth:`furthest`) on its own
        budget, so that the verdict never waits on it. ``mode``: ``bounded``
        (at most ``max(FURTHEST_MIN_NODES, FURTHEST_SHARE * proof nodes)`` nodes and
        ``FURTHEST_SHARE`` of the time limit), ``proven`` (until it finishes, within the
        run's limits), ``off`` (not run: the furthest line seen by the proof). Its seen-set
        and the transposition table share the memory cap: the table is halved first when
        it holds more than half of it. Returns True when the search finished (the furthest
        line is then proven); a budget or limit that runs out keeps the best line found.
        Ctrl-C is passed on."""
        self.proof = {"nodes": self.nodes, "seconds": round(time.monotonic() - self.t0, 3)}
        if mode == "off":
            self.furthest_stats = {"mode": mode, "nodes": 0, "seconds": 0.0, "proven": False,
                                   "states": 0}
            return False
        start = self.snapshot()
        saved = (self.deadline, self.node_limit)
        n0, t0 = self.nodes, time.monotonic()
        self.furthest_seen = set()
        self.__dict__.pop("furthest_states", None)
        budget = None
        if mode == "bounded":
            budget = max(FURTHEST_MIN_NODES, int(FURTHEST_SHARE * self.nodes))
            self.node_limit = n0 + budget if self.node_limit is None else min(
                self.node_limit, n0 + budget)
            if self.deadline is not None:
                self.deadline = min(self.deadline, t0 + FURTHEST_SHARE * (self.deadline - self.t0))
            self.next_check = min(self.next_check, self.node_limit)
        if len(self.tt) > self.sw.table_size // 2:
            self._evict()
        proven = False
        cap = self.sw.table_size - len(self.tt)
        try:
            proven = self.furthest(cap)
        except Stop:
            self.path.clear()
            self.restore(start)
        finally:
            states = self.__dict__.get("furthest_states", len(self.furthest_seen))
            self.furthest_stats = {
                "mode": mode, "nodes": self.nodes - n0,
                "seconds": round(time.monotonic() - t0, 3), "proven": proven,
                "states": states,
                # why an unproven search stopped: its seen-set filled the memory cap, or
                # a limit (its node budget, the run's time or node limit, Ctrl-C) ran out
                **({} if proven else {"stopped_by": "memory" if states >= cap else "limit"}),
                **({"budget_nodes": budget} if budget is not None else {}),
            }
            self.deadline, self.node_limit = saved[0], saved[1]
            self.next_check = self.nodes + 1  # the run's own limits, checked at the next node
        return proven

    @contextmanager
    def _phase(self, name: str) -> Iterator[None]:
        """Record the phase ``name`` of :meth:`run` (its nodes, seconds and whether it ended
        or a limit stopped it) in ``self.records``, whatever way it ends."""
        n0, t0 = self.nodes, time.monotonic()
        outcome = "stopped"
        try:
            yield
            outcome = "stopped" if self.stopped else "done"
        finally:
            self.records.append(PhaseRecord(name, self.nodes - n0, time.monotonic() - t0, outcome))

    def run(self, beam_schedule: tuple[tuple[int, int], ...] | Schedule = DEFAULT_BEAM_SCHEDULE,
            furthest: str = "bounded") -> SolveResult:
        """Solve from the current state (the root: the start, or the position last given to
        :meth:`load`) within the limits of :meth:`begin`; see :func:`solve`.
        ``beam_schedule``: a :class:`~solver.schedule.Schedule`, or beams
        (:meth:`Schedule.for_beams`). The phases walked are recorded in ``self.records``
        (:class:`~solver.budget.PhaseRecord`); the compiled core and the Python reference
        walk the same ones."""
        sched = (beam_schedule if isinstance(beam_schedule, Schedule)
                 else Schedule.for_beams(beam_schedule))
        self.wide_schedule = sched.wide_beams
        self.records: list[PhaseRecord] = []
        objective = self.objective
        if self.filled == self._slots_total:  # a won position: nothing left to play
            self.progress_proven = True
            return self.result([], 0, True)
        start = self.snapshot()
        if objective != "none":  # for progress reports: the start's bound before any search
            self.proven_bound = self.root_bound()
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 10_000))
        best: list[tuple] | None = None
        best_value: int | None = None
        exhausted = False
        try:
            # phase 1 (heuristic): beams of growing width look for a first, then a better, win
            with self._phase("beams"):
                best = self.beams(sched.beams)
            wide = bool(sched.wide_beams)
            if (wide and not self.stopped and best is not None and objective != "none"
                    and self.line_cost(best) > self.root_bound()):
                with self._phase("wide-beams"):
                    best = self._wide_beams(best)
            if best is not None:
                best_value = self.line_cost(best)
                self.incumbent = best_value
                self.best_progress = self._slots_total  # a win fills every slot
            if self.stopped:
                raise Stop
            # phase 2 (exact): a first win or a proof that none exists, then (waste, turns) a
            # win within budget best - 1, until a search fails (optimal)
            if best is None:
                with self._phase("decide"):
                    decided = self._decide_or_relax(start, wide and not self.stopped)
                if decided:
                    best = self.win_line
                    best_value = self.line_cost(best)
                    self.incumbent = best_value
                    self.best_progress = self._slots_total
                else:
                    exhausted = True  # a proven loss, whatever the furthest search does
                    with self._phase("furthest"):
                        self.progress_proven = self.run_furthest(furthest)
            if best is not None and objective != "none":
                with self._phase("improve"):
                    best, best_value = improve(self, best, cast(int, best_value))  # solver.frontier
            exhausted = True
        except (Stop, KeyboardInterrupt) as exc:
            # a limit (or Ctrl-C) stopped the search mid-line: back to the start position, so
            # that the bound read from the table is the start's; the wins found are kept
            if isinstance(exc, KeyboardInterrupt):
                self.interrupted = True
            self.path.clear()
            self.restore(start)
        finally:
            sys.setrecursionlimit(old_limit)
        return self.result(best, best_value, exhausted)

    def result(self, best: list[tuple] | None, best_value: int | None, exhausted: bool) -> SolveResult:
        """Build the :class:`SolveResult`, replaying the plan and best line through model."""
        stats = self.stats()
        line = best if best is not None else self.best_line
        moves = self.to_moves(line)
        root = self.root
        best_line = checked_line(root, moves, "dfs")
        deal = root if isinstance(root, Deal) else root.deal
        start = root if isinstance(root, Game) else None
        if best is not None:
            plan = checked_plan(root, moves, "dfs")
            value = best_value if self.objective != "none" else None
            optimal = exhausted and self.objective != "none"
            bound = value if optimal else (self.root_bound() if self.objective != "none" else None)
            if bound is not None and value is not None and value <= bound:
                # a limit stopped the search, but the win already meets the start's proven
                # bound: it is optimal all the same
                optimal, bound = True, value
            return SolveResult(WIN, self.objective, deal, plan, value, optimal, bound,
                               self._slots_total, best_line, "dfs", stats, start, list(moves))
        verdict = LOSS if exhausted else UNKNOWN
        bound = None
        if self.objective != "none":
            bound = INF if exhausted else self.root_bound()
            bound = None if bound >= INF else bound
        reason = self.loss_reason(stats) if verdict == LOSS and self.explain else None
        return SolveResult(verdict, self.objective, deal, None, None, False, bound,
                           max(self.best_progress, 0), best_line, "dfs", stats, start,
                           list(best_line), reason)

    #: Whether a proven loss gets its reason in words (:meth:`loss_reason`).
    explain = True

    def loss_reason(self, stats: dict) -> LossReason:
        """Why the root is lost (:mod:`solver.reasons`): the loss model's rule groups where
        it proved the loss, a bound at the root, the colour-free abstraction where it proved
        the loss, the next turns' positions, or the cuts of the search."""
        from solver.reasons import (
            abstraction_reason,
            relaxation_reason,
            search_reason,
            static_reason,
        )

        lm = stats.get("loss_model")
        if lm and lm.get("status") == "INFEASIBLE":
            return relaxation_reason(lm.get("groups") or [])
        root = self.root if isinstance(self.root, Game) else Game(self.root)
        if stats.get("decided_by") == "abstraction":
            return static_reason(root) or abstraction_reason(root, stats)
        return static_reason(root) or search_reason(root, stats)


def solve(
    start: Deal | Game,
    objective: str = "none",
    time_limit: float | None = None,
    node_limit: int | None = None,
    memory_limit_mb: int = 2048,
    progress: Callable[[dict], None] | None = None,
    beam_schedule: tuple[tuple[int, int], ...] | Schedule = DEFAULT_BEAM_SCHEDULE,
    furthest: str = "bounded",
    lns: bool = True,
    **switches,
) -> SolveResult:
    """Decide ``start`` with every card known; optionally find the optimal win.

    ``start``: a :class:`~model.deal.Deal` (solved from its first move) or a fully known
    :class:`~model.game.Game` position (a bare position, or a game replayed from a deal).
    From a position the objective counts from it (waste still to spend, turns still to
    play), ``SolveResult.continuation`` holds the moves from it and ``SolveResult.plan`` is
    the whole record (the game's moves so far, then the winning moves; see
    :func:`solver.result.record_of`).
    ``objective``: ``none`` | ``waste`` | ``turns`` (see :mod:`solver.result`).
    ``time_limit`` in seconds and ``node_limit`` in nodes bound the search (``None``: no
    limit); when one runs out the verdict is ``unknown`` (or ``win`` with ``optimal=False`` and
    the proven ``bound`` when a win was found). ``memory_limit_mb`` caps the transposition
    table (counted at 200 bytes an entry); a full table drops its older half. ``switches``:
    ``transposition``, ``dominance``, ``bounds``, ``window_players``, ``deepening``, ``pv_order``
    (bools; see :mod:`solver.windows`, :mod:`solver.frontier`), ``step_bound``
    (:mod:`solver.stepbound`) and ``table_size`` (entries).
    ``progress``: called about twice a second with the stats dict. ``beam_schedule``: the
    heuristic phase, pairs (beam width, ways to pay kept per placement; 0 = all), run in
    order until one wins (for ``waste``/``turns``: all run, each only keeping better wins);
    or a whole :class:`~solver.schedule.Schedule` (the default beams get the wide beams,
    with or without the compiled core). ``stats["budget"]``: the node limit, the nodes
    spent by all phases together and one :class:`~solver.budget.PhaseRecord` per phase.
    ``furthest``: after a proven loss, how far the furthest-line search goes:
    ``bounded`` (default: its own small budget, see :meth:`Search.run_furthest`; the verdict
    never waits on it), ``proven`` (until the furthest line is proven, within the limits) or
    ``off``. ``stats.best_progress_proven`` says whether the furthest line is proven;
    ``stats.nodes``/``seconds`` are the verdict's work and ``stats.furthest`` the furthest
    search's.
    ``lns`` (objective ``waste`` with a time limit): the search gets the first half of the
    time; where it has not proven its win optimal, :data:`solver.lns.LNS_SHARE` of the time
    goes to the large-neighbourhood search of :mod:`solver.lns` (windows of the plan
    re-optimised; ``stats["lns"]``: ``from`` → ``to`` cards) and the last
    :data:`solver.lns.RESUME_SHARE` back to the search's proof, with the cheaper plan as
    its incumbent and its table kept (:func:`solver.lns.resume_proof`; ``stats["resume"]``).

    Raises ``ValueError`` for an unknown objective, switch or furthest mode, or a
    ``memory_limit_mb`` that is not a whole number ≥ 1 (it used to be taken as a table of
    1,024 entries). Every returned
    plan has been replayed by :mod:`model` (:func:`solver.result.checked_plan`).
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    if isinstance(memory_limit_mb, bool) or not isinstance(memory_limit_mb, int) or memory_limit_mb < 1:
        raise ValueError(f"memory limit must be a whole number of MB, at least 1, not {memory_limit_mb!r}")
    sw = Switches()
    for k, v in switches.items():
        if not hasattr(sw, k):
            raise ValueError(f"unknown search switch {k!r}")
        setattr(sw, k, v)
    if not sw.table_size:
        sw.table_size = table_entries_for(memory_limit_mb, core_will_run(sw))
    if furthest not in FURTHEST_MODES:
        raise ValueError(f"unknown furthest mode {furthest!r}; valid: {', '.join(FURTHEST_MODES)}")
    t0 = time.monotonic()
    use_lns = lns and objective == "waste" and time_limit is not None
    from solver.lns import LNS_SHARE, RESUME_SHARE, lns_result, resume_proof

    own = (time_limit * (1 - LNS_SHARE - RESUME_SHARE) if use_lns and time_limit is not None
           else time_limit)
    deadline = t0 + own if own is not None else None
    budget = Budget(node_limit, t0 + time_limit if time_limit is not None else None,
                    memory_limit_mb)
    s = Search(start, objective, sw, deadline, node_limit, progress)
    res = s.run(beam_schedule, furthest)
    for rec in s.records:
        budget.charge(rec.name, rec.nodes, rec.seconds, rec.outcome)
    rest = s.nodes - sum(rec.nodes for rec in s.records)
    if rest:  # nodes outside the declared phases (none today): still the budget's
        budget.charge("search", rest, 0.0, res.verdict)
    if use_lns and time_limit is not None:
        end = t0 + time_limit
        res = lns_result(res, end - RESUME_SHARE * time_limit - time.monotonic(), s, budget)
        res = resume_proof(res, s, end - time.monotonic(), budget=budget)
    return dataclasses.replace(res, stats={**res.stats, "budget": budget.to_stats()})
