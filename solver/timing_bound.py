"""A bound that sees timing: the solo game as single-machine scheduling, solved by CP-SAT.

The waste still to spend from a position is a function of *when* the Summit is played. Count
the cards that leave the hand (played or discarded) from the position on as *ticks*. Every
card that leaves the hand either ends on the mountain or leaves the game, and the mountain
gains exactly one card per slot still empty (the peak included; a Bridge put down and later
replaced leaves again, a Campfire adds one card, R7–R9). So, with ``S`` the empty slots and
``T`` the ticks up to and including the Summit, **waste to go = T − S** (R11, section 6 of
``docs/rules.md``). A lower bound on ``T`` is a lower bound on the waste.

The model (solo, :func:`timing_lower_bound`)
--------------------------------------------
*Card instances.* Every card in the hand (release 0) and every card still in the deck: the
``j``-th card from the top (0-based) has release ``j + 1 − g`` (``g`` = cards missing from a
full hand, 0 while the deck lasts). R11: the hand refills after every turn, so after ``m``
ticks at a turn's end the hand holds exactly the deck's first ``m`` cards drawn; the card at
``j`` is in the hand at the start of a turn only after ``j + 1`` ticks.

*Jobs.* One job per empty slot (its *first occupant*: the card that first fills it), one per
Bridge standing on the mountain (its replacement), one optional job per empty slot that a
Bridge may take (the replacement of a Bridge put there), and the Summit. A job is a turn: an
interval ``[start, start + 1 + cost)`` of ticks, the played card and the ``cost`` cards paid.
Constraints, each implied by the rules for every real line of play (the real line gives a
solution of the same ``T``: each turn's interval is its ticks, each slot's first occupant is
the card that first filled it, discard turns are the gaps):

1. *One card per job, each card at most once* (R11: a turn plays one card). A slot's first
   occupant is an Ascent card that fits the row (R4), a Bridge in a slot that is neither the
   row's first nor its last (R7), or a Campfire in rows ≥ 2: a Campfire moves an Ascent card
   up into the next slot of a higher row (R9), which in the model is the Campfire's job
   filling that slot (which card moved, and its paid cost, are relaxed away). A replacement
   takes an Ascent card that fits the row (R4, R8). The Summit job takes a Summit (R10).
2. *Release:* a job starts no earlier than the release of its card (the played card is in
   the hand when the turn starts, R11).
3. *One machine:* the intervals do not overlap (turns follow one another; NoOverlap).
4. *The staircase:* a slot's job starts after the jobs of the slot left of it (R3: leftmost
   empty slot) and of the two slots below it (R3: support, any card counts, a Bridge too)
   have ended, when those are empty now. A Bridge's replacement starts after the Bridge was
   put down. The Summit starts after every other job has ended (R10: rows full, no Bridge).
5. *Costs* (R6): ``0 ≤ cost ≤ hand size − 1`` (the cost is paid from the other cards of the
   hand). For two adjacent empty slots whose first occupants are both Ascent cards, the right
   one pays at least ``|v − u|`` of the two values, unless the left one is ever turned into a
   Campfire (then the reference may look through it); at most as many slots are turned as
   Campfires are played (R9). The first empty slot of a row pays at least the least
   ``|v − u|`` over the references the walk left of it may still give
   (:meth:`solver.bounds.Bounds._reference_options`: the card left of it, or beyond it when a
   Campfire of its colour may still move it away; a Bridge or the row's start gives 0).
   A Bridge or a Campfire first occupant pays 0 here and makes no reference for the slot right
   of it (R6, R7, R9: relaxed), and replacements pay at least 0 (R8, relaxed).
6. *Colour* (R5): two adjacent first occupants that are both Ascent cards differ in colour
   (if the left one is later turned into a Campfire, that Campfire has its colour); the first
   empty slot differs from the card left of it when that card has a colour.
7. *Paired idle ticks:* ``T = Σ (1 + cost) + 2·d`` with ``d ≥ 0`` the discard turns (R11: a
   discard turn discards exactly two cards).
8. *Holding capacity* (R11: the hand holds at most ``hand size`` cards, and refills only at a
   turn's end): a card that is played is in the hand at every turn start from its release to
   its own turn's start, and the cards a turn pays are in the hand when it starts and are not
   played later (they leave the game). So at every tick, the played cards with release ≤ tick
   ≤ their start, plus the cost of the job starting there, number at most the hand size
   (Cumulative). Between two turn starts no card is drawn, and a card counted at a tick inside
   a turn is counted at that turn's end too, so checking every tick is sound.

Objective: minimise ``T − S``. CP-SAT runs with a deterministic work limit
(``max_deterministic_time``, one worker), and the bound returned is its best *proven*
objective bound (optimal value, or the lower bound at the limit); ``INF`` when the model is
infeasible (no win). It never returns less than today's solo bound
(:meth:`solver.bounds.Bounds.waste_lower_bound`), so it is never weaker.

2–5 players: the ticks of different players do not form one clock (each player draws from
their own deck, turns alternate), so the model does not apply; :func:`timing_lower_bound`
returns today's bound (:meth:`~solver.bounds.Bounds.waste_lower_bound`) unchanged. The
goats module (G1–G7) only adds conditions to a win, so the solo model stays a relaxation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from solver.state import INF, K_ASCENT, K_BRIDGE, K_CAMPFIRE, K_SUMMIT

#: A search state with the bounds' helpers (:class:`solver.bounds.Bounds`).
Bounds = Any

#: Default CP-SAT deterministic work limit (its "deterministic seconds"), per call.
DEFAULT_WORK = 2.0


@dataclass
class TimingResult:
    """What one call of :func:`timing_bound` found: ``bound`` (cards still to leave the game,
    ``INF`` for no win), ``today`` (:meth:`Bounds.waste_lower_bound`, the fallback),
    ``model`` (the model's proven bound alone, ``None`` when not built: 2–5 players, or no
    win by today's bound), ``status`` (CP-SAT's status name, or ``"fallback"``), ``cpu``
    (CPU seconds of the call; a measure, never used for logic) and the model's size."""

    bound: int
    today: int
    model: int | None
    status: str
    cpu: float = 0.0
    variables: int = 0


class TimingBound:
    """The scheduling relaxation as a composable bound: ``lower(state)`` returns a lower bound
    on the waste to go of a :class:`solver.bounds.Bounds` state (see the module docstring);
    ``last`` keeps the :class:`TimingResult` of the latest call. ``work``: CP-SAT's
    deterministic time limit per call (work units, not wall-clock)."""

    def __init__(self, work: float = DEFAULT_WORK) -> None:
        if not work > 0:
            raise ValueError(f"work must be positive, got {work!r}")
        self.work = work
        self.last: TimingResult | None = None

    def lower(self, s: Bounds) -> int:
        """The lower bound of :func:`timing_bound` at ``s``."""
        self.last = timing_bound(s, self.work)
        return self.last.bound


def timing_lower_bound(s: Bounds, work: float = DEFAULT_WORK) -> int:
    """Cards that must still leave the game from state ``s`` (``INF``: no win); solo the
    scheduling model's proven bound, 2–5 players today's bound. See :func:`timing_bound`."""
    return timing_bound(s, work).bound


def timing_bound(s: Bounds, work: float = DEFAULT_WORK, holding: bool = True) -> TimingResult:
    """Build and solve the scheduling relaxation of the module docstring at ``s`` (any
    :class:`solver.bounds.Bounds` state, e.g. :class:`solver.exhaustive.Search`; not
    changed) with CP-SAT under the deterministic limit ``work``. Returns a
    :class:`TimingResult` whose ``bound`` is the larger of today's bound and the model's
    proven bound."""
    import time

    t0 = time.process_time()
    today = s.waste_lower_bound()
    if s.P != 1 or today >= INF:
        return TimingResult(today, today, None, "fallback")
    model, objective_offset, n_vars = _build(s, holding)
    if model is None:
        return TimingResult(INF, today, INF, "infeasible-by-construction",
                            time.process_time() - t0)
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = work
    solver.parameters.random_seed = 0
    status = solver.solve(model)
    name = solver.status_name(status)
    if status == cp_model.INFEASIBLE:
        value = INF
    elif status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if status == cp_model.OPTIMAL:
            value = int(round(solver.objective_value))
        else:
            value = int(math.ceil(solver.best_objective_bound - 1e-6))
    else:  # UNKNOWN: the bound CP-SAT proved so far, if any
        b = solver.best_objective_bound
        value = int(math.ceil(b - 1e-6)) if math.isfinite(b) else 0
    if value < INF:
        value = max(0, value + objective_offset)
    return TimingResult(max(today, value), today, value, name, time.process_time() - t0, n_vars)


def _build(s: Bounds, holding: bool = True) -> tuple[Any, int, int]:
    """The CP-SAT model at solo state ``s``: ``(model, offset, variables)``; the bound is the
    model's objective plus ``offset``. ``model`` is ``None`` when a job has no card at all
    (no win)."""
    from ortools.sat.python import cp_model

    t = s.t
    kind, value, colour, maxrow = t.kind, t.value, t.colour, t.maxrow
    h = s.hand_size
    hand = list(s.hands[0])
    deck = s.decks[0]
    ptr = s.ptr[0]
    gap = max(0, h - len(hand))
    # card instances: (type id, release)
    inst: list[tuple[int, int]] = [(c, 0) for c in hand]
    inst += [(c, max(0, j + 1 - gap)) for j, c in enumerate(deck[ptr:])]
    horizon = len(inst)  # every tick is the departure of a different card
    max_cost = max(0, h - 1)
    vmax = max([value[c] for c, _ in inst if kind[c] == K_ASCENT] + [0])
    use_colour = not getattr(s, "colourless", False)
    rem = s.remaining
    camp = 0
    for c in t.campfire_ids:
        if rem[c]:
            camp |= 1 << colour[c]
    n_camp = sum(1 for c, _ in inst if kind[c] == K_CAMPFIRE)

    m = cp_model.CpModel()
    uses: list[list[tuple[Any, Any]]] = [[] for _ in inst]  # per instance: (literal, job start)
    intervals = []
    pays: list[tuple[Any, Any]] = []  # (the tick a job starts, its cost): the cards it pays
    sizes = []  # linear expressions of each job's ticks (0 when absent)
    ends = []  # (end, presence or None) of every job but the Summit
    R = s.R
    rows, rowlen = s.rows, s.rowlen

    # ---- empty slots
    slot: dict[tuple[int, int], dict[str, Any]] = {}
    for r in range(R):
        row = rows[r]
        for i in range(len(row), rowlen[r]):
            lits_asc, lits_br, lits_cf = [], [], []
            value_terms, release_terms = [], []
            colour_lits: dict[int, list[Any]] = {}
            first_cost_terms = []
            mine: list[tuple[int, Any]] = []
            first = i == len(row) and i > 0
            if first:
                opts = s._reference_options(row, i - 1, -1, r, camp)
                lc = colour[row[i - 1]] if use_colour else -1
            for k, (c, rel) in enumerate(inst):
                kc = kind[c]
                ok = (kc == K_ASCENT and maxrow[c] >= r + 1) or \
                     (kc == K_BRIDGE and 0 < i < rowlen[r] - 1) or \
                     (kc == K_CAMPFIRE and r >= 1)
                if not ok:
                    continue
                if first and kc == K_ASCENT and lc >= 0 and colour[c] == lc:
                    continue  # R5 against the card left of it (or its Campfire, same colour)
                x = m.new_bool_var(f"a{k}_{r}_{i}")
                mine.append((k, x))
                release_terms.append(rel * x)
                if kc == K_ASCENT:
                    lits_asc.append(x)
                    value_terms.append(value[c] * x)
                    if use_colour:
                        colour_lits.setdefault(colour[c], []).append(x)
                    if first:
                        mc = min(abs(value[c] - u) if u >= 0 else 0 for u in opts)
                        if mc:
                            first_cost_terms.append(mc * x)
                elif kc == K_BRIDGE:
                    lits_br.append(x)
                else:
                    lits_cf.append(x)
            alll = lits_asc + lits_br + lits_cf
            if not alll:
                return None, 0, 0
            m.add_exactly_one(alll)
            start = m.new_int_var(0, horizon, f"s{r}_{i}")
            cost = m.new_int_var(0, max_cost, f"c{r}_{i}")
            end = m.new_int_var(0, horizon, f"e{r}_{i}")
            m.add(end == start + 1 + cost)
            m.add(start >= sum(release_terms))
            for k, x in mine:
                uses[k].append((x, start))
            if first_cost_terms:
                m.add(cost >= sum(first_cost_terms))
            plain = m.new_bool_var(f"p{r}_{i}")
            m.add(plain == sum(lits_asc))
            intervals.append(m.new_interval_var(start, 1 + cost, end, f"i{r}_{i}"))
            pays.append((m.new_fixed_size_interval_var(start, 1, f"P{r}_{i}"), cost))
            sizes.append(1 + cost)
            ends.append((end, None))
            info = {"start": start, "end": end, "cost": cost, "plain": plain,
                    "value": sum(value_terms) if value_terms else 0, "colour": colour_lits,
                    "bridge": lits_br}
            if n_camp and r < R - 1:
                info["conv"] = m.new_bool_var(f"v{r}_{i}")
            slot[(r, i)] = info

    convs = [v["conv"] for v in slot.values() if "conv" in v]
    if convs:
        m.add(sum(convs) <= n_camp)

    for (r, i), v in slot.items():
        left = slot.get((r, i - 1))
        if left is not None:
            m.add(v["start"] >= left["end"])
            # R6 cost between two Ascent first occupants, unless the left one is turned
            big = 2 * vmax
            drop = [1 - v["plain"], 1 - left["plain"]]
            if "conv" in left:
                drop.append(left["conv"])
            m.add(v["cost"] >= v["value"] - left["value"] - big * sum(drop))
            m.add(v["cost"] >= left["value"] - v["value"] - big * sum(drop))
            for col, lits in v["colour"].items():
                other = left["colour"].get(col)
                if other:
                    m.add(sum(lits) + sum(other) <= 1)
        for below in ((r - 1, i), (r - 1, i + 1)):
            b = slot.get(below)
            if b is not None:
                m.add(v["start"] >= b["end"])

    # ---- replacements: Bridges standing, and Bridges that may be put down
    asc_for_row = [[k for k, (c, _) in enumerate(inst) if kind[c] == K_ASCENT and maxrow[c] >= r + 1]
                   for r in range(R)]

    def replacement(r: int, tag: str, presence: Any, after: Any) -> bool:
        cands = asc_for_row[r]
        if presence is None and not cands:
            return False
        start = m.new_int_var(0, horizon, f"rs{tag}")
        cost = m.new_int_var(0, max_cost, f"rc{tag}")
        end = m.new_int_var(0, horizon, f"re{tag}")
        m.add(end == start + 1 + cost)
        lits = []
        rel_terms = []
        for k in cands:
            x = m.new_bool_var(f"b{k}{tag}")
            uses[k].append((x, start))
            lits.append(x)
            rel_terms.append(inst[k][1] * x)
        if presence is None:
            m.add_exactly_one(lits)
            intervals.append(m.new_interval_var(start, 1 + cost, end, f"ri{tag}"))
            pays.append((m.new_fixed_size_interval_var(start, 1, f"RP{tag}"), cost))
            sizes.append(1 + cost)
        else:
            m.add(sum(lits) == presence)
            m.add(cost <= max_cost * presence)
            intervals.append(m.new_optional_interval_var(start, 1 + cost, end, presence, f"ri{tag}"))
            pays.append((m.new_optional_fixed_size_interval_var(start, 1, presence, f"RP{tag}"), cost))
            sizes.append(presence + cost)
        if rel_terms:
            m.add(start >= sum(rel_terms))
        if after is not None:
            m.add(start >= after).only_enforce_if(presence)
        ends.append((end, presence))
        return True

    for r in range(R):
        for i, c in enumerate(rows[r]):
            if kind[c] == K_BRIDGE and not replacement(r, f"{r}_{i}", None, None):
                return None, 0, 0
    for (r, i), v in slot.items():
        if v["bridge"]:
            p = m.new_bool_var(f"bp{r}_{i}")
            m.add(p == sum(v["bridge"]))
            replacement(r, f"n{r}_{i}", p, v["end"])

    # ---- the Summit
    summit_lits, rel_terms = [], []
    for k, (c, rel) in enumerate(inst):
        if kind[c] == K_SUMMIT:
            x = m.new_bool_var(f"S{k}")
            summit_lits.append((k, x))
            rel_terms.append(rel * x)
    if not summit_lits:
        return None, 0, 0
    m.add_exactly_one([x for _, x in summit_lits])
    s_start = m.new_int_var(0, horizon - 1, "Sstart")
    for k, x in summit_lits:
        uses[k].append((x, s_start))
    m.add(s_start >= sum(rel_terms))
    for end, presence in ends:
        if presence is None:
            m.add(s_start >= end)
        else:
            m.add(s_start >= end).only_enforce_if(presence)
    holds: list[Any] = []
    demands: list[Any] = []
    for k, lits in enumerate(uses):
        if len(lits) > 1:
            m.add_at_most_one([x for x, _ in lits])
        if not holding or not lits:
            continue
        # holding: a card played at its job's start is in the hand from its release on
        rel = inst[k][1]
        used = m.new_bool_var(f"u{k}")
        m.add(used == sum(x for x, _ in lits))
        when = m.new_int_var(rel, horizon, f"w{k}")
        for x, st in lits:
            m.add(when == st).only_enforce_if(x)
        size = m.new_int_var(1, horizon + 1, f"h{k}")
        m.add(size == when + 1 - rel)
        holds.append(m.new_optional_interval_var(rel, size, when + 1, used, f"H{k}"))
        demands.append(1)
    if holds:
        for iv, cost in pays:
            holds.append(iv)
            demands.append(cost)
        m.add_cumulative(holds, demands, h)
    m.add_no_overlap(intervals)
    # paired idle ticks: T = s_start + 1 = Σ job ticks + 1 + 2·d
    d = m.new_int_var(0, horizon, "d")
    m.add(s_start == sum(sizes) + 2 * d)
    n_empty = len(slot) + 1
    m.minimize(s_start + 1 - n_empty)
    return m, 0, len(m.proto.variables)


__all__ = ["DEFAULT_WORK", "TimingBound", "TimingResult", "timing_bound", "timing_lower_bound"]


