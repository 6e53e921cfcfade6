"""CP-SAT model of one deal: a second, independent exact solver.

Formulation (see ``docs/cpsat.md`` for the argument and the measurements)
--------------------------------------------------------------------------
Time is the global turn ``t`` (player ``t mod P`` moves at turn ``t``); the model is an
*event* model, not a time-indexed one:

* Every mountain slot ``s`` (rows 1..R) has up to three events with integer times:
  ``t1[s]`` its first fill (a Bridge, an Ascent card from a hand, or the card a Campfire
  moves), ``t2[s]`` the arrival of its Ascent content (``== t1`` unless a Bridge stood there
  first), ``t3[s]`` a Campfire onto it (``== horizon`` when none). Row order, support (R3) and
  the Summit (R10) are precedences between these times.
* The Ascent content of a slot has a value ``v[s]`` and colour ``col[s]``; it comes from one
  deck card (``x`` assignment booleans) or, for a slot first filled by a Campfire's moved card,
  from the source slot (``mv`` booleans, which copy value, colour and time). R4 is the lower
  bound of ``v[s]``; R5 reduces to "adjacent slots differ in colour" (a slot's colour never
  changes once it has one, and Bridges have none), so it is static.
* Cost (R6, R8, R9) is dynamic: the reference of slot ``s`` is found by scanning its row at
  time ``t2[s]``; a left slot ``j`` is a Campfire then iff ``t3[j] < t2[s]``, a Bridge iff
  ``t2[j] > t2[s]``, empty (right side only) iff ``t1[j] > t2[s]``. Reified comparisons and a
  look-through chain select the reference slot; cost is ``|v - ref|``.
* Hands (R11) without a boolean per card and turn: cards that are never placed are *junk*
  and interchangeable, so a move is feasible iff the card it plays is in the player's drawn
  window and the hand holds enough junk to pay. Per player and own move ``k``: ``C[k]`` cards
  consumed before it, window ``w[k] = min(C[k] + H, n)``, and
  ``junk in hand = (w - placed cards with deck index < w) - (C - placements before k)``, which
  must cover the discards of move ``k``. "Placed cards with index < w" is an element
  constraint over the prefix sums of the ``placed`` booleans; each placed card's own move
  ``k[c]`` (all different per player) reads ``w``, the move kind and the cost through element
  constraints.

Symmetry breaking: of two equal cards in one deck, if both are placed, the one nearer the top
is placed first (an exchange argument; see ``docs/cpsat.md``).

Layout (as in OR-Tools' samples: data, model, solve, decode apart): :class:`CpsatData` is the
plain data of the deal; :func:`build_model` makes the variables, then one function per rule
group of :data:`GROUPS` (``order``, ``colours``, ``costs``, ``contents``, ``hand``), then the
objective. :func:`solve_cpsat` runs named steps: the data's quick verdict
(:func:`_no_summit_reachable`), the hints (:func:`_beam_hint`, :func:`_loss_model_first`), the
model (:func:`build_model`, :func:`_add_hints`), the solve (:func:`_solver`,
:func:`_solve_stats`, :func:`_name_the_groups` after a proven loss) and the decode
(:func:`_win`: :func:`_decode` turns a solution into moves that :mod:`model` replays).

Each group's constraints can stand under one enforcement literal that the model assumes true,
so that an infeasible model names the groups its proof used (CP-SAT's sufficient assumptions
for infeasibility, ``stats["groups"]``).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from ortools.sat.python import cp_model

from model.cards import BRIDGE_CARD, SUMMIT_CARD, Card
from model.deal import Deal
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move
from model.rules import CHOICES
from solver.cpsat_run import solve_interruptibly
from solver.result import LOSS, OBJECTIVES, UNKNOWN, WIN, SolverBug, SolveResult, checked_plan

#: Rule option values this model expresses (every value of model.rules.CHOICES today).
SUPPORTED: dict[str, tuple[str, ...]] = {
    "bridge_neighbour": ("zero", "look-through"),
    "bridge_replace_cost": ("max", "left"),
    "campfire_move_cost": ("paid", "free"),
    "dealing": ("round-robin", "blocks"),
    "discards_seen": ("all", "own"),  # V1: the observation only, not the open-hand game
}


class UnsupportedRuleError(NotImplementedError):
    """A rule option the CP-SAT model cannot express (one-line message for the CLI)."""


#: The rule groups of the model, each added by one function under one enforcement literal
#: (see :func:`build_model`), with the words a reason uses for them. The heights (R4), the
#: slots a Bridge or a Campfire may take (R7, R9) and the turn limit (R11, R12) are in the
#: variables' domains and hold in every group.
GROUPS: dict[str, str] = {
    "order": "the order of play (R3: left to right, on two supporting cards; R8, R9: a Bridge "
             "before its replacement, a Campfire after its card; R10: the Summit last)",
    "colours": "the colours (R5)",
    "costs": "the step costs (R6, R8, R9)",
    "contents": "the cards on the slots (R7, R9: one Ascent card a slot, from a hand or moved "
                "up by a Campfire of its colour; one Summit)",
    "hand": "the turns and the hand (R11: a card is played from the hand, its cost and every "
            "discard paid from the cards in hand)",
}

@dataclass(frozen=True)
class CpsatData:
    """The plain data of a deal for the model: ``P`` players, hand size ``H``, ``R`` rows,
    ``V`` values; the rule options read (``look_through``, ``max_rule``: a Bridge's
    replacement pays the larger side, ``paid``: a moved card pays its cost); colour letter
    → index; the decks (``n[p]`` cards each); the turn ``horizon`` (the game ends before any
    player's ``n_p + 1``-th turn, R11), ``K[p]`` the own moves player ``p`` can make before
    it; ``slots`` (index → ``(row, position)``, 1-based) and ``sid`` (its inverse)."""

    deal: Deal
    P: int
    H: int
    R: int
    V: int
    look_through: bool
    max_rule: bool
    paid: bool
    cols: dict[str, int]
    decks: list[list[Card]]
    n: list[int]
    horizon: int
    K: list[int]
    slots: list[tuple[int, int]]
    sid: dict[tuple[int, int], int]

    @classmethod
    def of(cls, deal: Deal) -> CpsatData:
        """The data of ``deal`` (its first move: an empty mountain, full decks)."""
        rules = deal.rules
        P = deal.players
        decks = [list(d) for d in deal.decks]
        n = [len(d) for d in decks]
        # A player makes at most n_p moves (each consumes a card); the game must end before
        # any player's (n_p + 1)-th turn.
        horizon = min(P * n[p] + p for p in range(P))
        K = [len([k for k in range(n[p] + 1) if P * k + p < horizon]) for p in range(P)]
        slots = [(r, i) for r in range(1, rules.rows + 1) for i in range(1, rules.row_length(r) + 1)]
        return cls(deal, P, rules.hand_size, rules.rows, rules.values,
                   rules.bridge_neighbour == "look-through", rules.bridge_replace_cost == "max",
                   rules.campfire_move_cost == "paid",
                   {c: i for i, c in enumerate(rules.colour_letters)}, decks, n, horizon, K,
                   slots, {rs: s for s, rs in enumerate(slots)})

    @property
    def S(self) -> range:
        """The slot indices."""
        return range(len(self.slots))

    def can_bridge(self, s: int) -> bool:
        """A Bridge may stand on slot ``s``: an inner slot (R7)."""
        r, i = self.slots[s]
        return self.deal.rules.bridges > 0 and 1 < i < self.deal.rules.row_length(r)

    def can_fire(self, s: int) -> bool:
        """A Campfire may go on slot ``s``: below the top row (R9)."""
        return self.deal.rules.campfires > 0 and self.slots[s][0] <= self.R - 1

    def can_move_in(self, s: int) -> bool:
        """Slot ``s`` may receive a Campfire's moved card: above the ground row (R9)."""
        return self.deal.rules.campfires > 0 and self.slots[s][0] >= 2


@dataclass
class CpsatModel:
    """The built model and its variables, keyed by indices (see :func:`build_model`).

    Per slot ``s``: the event times ``t1`` (first fill), ``t2`` (Ascent content), ``t3``
    (Campfire, ``horizon`` when none); the kinds ``bridge``, ``fire``, ``moved_in``; the
    content's value ``v`` and colour index ``col``; the cost of its Ascent content ``cost``.
    ``mv[s, s2]``: the Campfire on ``s`` moves its card to ``s2``. ``x[p, j, kind, s]``: card
    ``j`` of player ``p``'s deck makes the event ``kind`` (``a`` Ascent content, ``b``
    Bridge, ``c`` Campfire, ``s`` Summit with ``s = -1``) of slot ``s``; ``placed[p, j]``,
    ``k[p, j]`` its own move (``K[p] + j`` when never played). Per player ``p`` and own move
    ``k``: ``isp`` (plays a card), ``isd`` (discards two), ``cst`` (cards paid). ``tend``:
    the turn of the Summit; ``waste``: the cards out of the game at the win. ``lit``: the
    enforcement literal of each rule group of :data:`GROUPS`: a Boolean variable (an
    assumption), the constant 0 (the group relaxed away) or ``None`` (the group's
    constraints hold unconditionally); ``assumed``: the groups under an assumption (see
    :func:`build_model`)."""

    model: cp_model.CpModel
    deal: Deal
    slots: list[tuple[int, int]]  # slot index -> (row, position), 1-based
    horizon: int
    data: CpsatData
    lit: dict[str, cp_model.IntVar | None] = field(default_factory=dict)
    assumed: dict[str, cp_model.IntVar] = field(default_factory=dict)
    t1: dict[int, cp_model.IntVar] = field(default_factory=dict)
    t2: dict[int, cp_model.IntVar] = field(default_factory=dict)
    t3: dict[int, cp_model.IntVar] = field(default_factory=dict)
    bridge: dict[int, cp_model.IntVar] = field(default_factory=dict)
    fire: dict[int, cp_model.IntVar] = field(default_factory=dict)
    moved_in: dict[int, cp_model.IntVar] = field(default_factory=dict)
    v: dict[int, cp_model.IntVar] = field(default_factory=dict)
    col: dict[int, cp_model.IntVar] = field(default_factory=dict)
    mv: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    x: dict[tuple[int, int, str, int], cp_model.IntVar] = field(default_factory=dict)
    placed: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    k: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    isp: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    isd: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    cst: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    cost: dict[int, cp_model.IntVar] = field(default_factory=dict)
    #: the cost of a moved card (``campfire_move_cost=paid``), per Campfire slot
    fire_cost: dict[int, cp_model.IntVar] = field(default_factory=dict)
    #: the events each card can make, per ``(p, j)``
    card_events: dict[tuple[int, int], list[tuple[str, int]]] = field(default_factory=dict)
    tend: cp_model.IntVar | None = None
    waste: cp_model.LinearExpr | int = 0
    moves_per_player: list[int] = field(default_factory=list)

    @property
    def end(self) -> cp_model.IntVar:
        """``tend``, the turn of the Summit (set by the variables, before every group)."""
        assert self.tend is not None
        return self.tend

    def on(self, group: str, ct: cp_model.Constraint, *when: cp_model.BoolVarT) -> None:
        """Enforce ``ct`` by ``group``'s literal (when it has one) and the literals
        ``when``."""
        g = self.lit[group]
        lits = ([g] if g is not None else []) + list(when)
        if lits:
            ct.only_enforce_if(lits)

    def event_time(self, kind: str, s: int) -> cp_model.IntVar:
        """The turn of event ``kind`` on slot ``s`` (see :attr:`x`)."""
        return {"a": self.t2, "b": self.t1, "c": self.t3}[kind][s] if kind != "s" else self.end

    def event_cost(self, kind: str, s: int) -> cp_model.LinearExpr | int:
        """The cards that event ``kind`` on slot ``s`` costs (a Bridge and the Summit
        nothing, R7, R10; a Campfire its moved card's cost when paid, R9)."""
        if kind == "a":
            return self.cost[s]
        if kind == "c" and s in self.fire_cost:
            return self.fire_cost[s]
        return 0


def check_rules(deal: Deal) -> None:
    """Raise :class:`UnsupportedRuleError` if a rule option of ``deal`` is not expressible."""
    rules = deal.rules
    if getattr(rules, "goats", "off") != "off":
        raise UnsupportedRuleError(
            "the CP-SAT model cannot express the Goats module (goats=on); use --solver dfs")
    for name in CHOICES:
        value = getattr(rules, name)
        if value not in SUPPORTED.get(name, ()):
            raise UnsupportedRuleError(
                f"the CP-SAT model cannot express rule option {name}={value}; use --solver dfs"
            )


def build_model(deal: Deal, objective: str = "none", redundant: bool = True,
                assumptions: bool = False, groups: Sequence[str] | None = None) -> CpsatModel:
    """Build the CP-SAT model of ``deal`` (plain data in, model and variable dicts out): the
    variables, then one function per rule group of :data:`GROUPS`, then the objective.

    ``objective``: ``none`` (feasibility), ``waste`` (cards out of the game at the win) or
    ``turns`` (number of moves). ``redundant`` adds the redundant constraints (slot ancestor
    counts, deck prefix); off only for measurements. ``assumptions``: each group's
    constraints are enforced by a Boolean literal of its own, which the model assumes true
    (``add_assumptions``), so that an infeasible solve names the groups its proof used
    (:func:`groups_of_proof`); CP-SAT gives that core only with no objective and one worker
    (else it fixes the literals true and names every group), forces one worker and keeps
    every feasible solution in presolve. Without (the default), the groups' constraints
    hold unconditionally. ``groups``: the groups to add (default all); a group left out is
    relaxed away (its literal is the constant 0). Raises :class:`UnsupportedRuleError` for a
    rule option the model cannot express and ``ValueError`` for an unknown objective or
    group.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    wanted = tuple(GROUPS) if groups is None else tuple(groups)
    unknown = set(wanted) - set(GROUPS)
    if unknown:
        raise ValueError(f"unknown rule group {sorted(unknown)[0]!r}; valid: {', '.join(GROUPS)}")
    check_rules(deal)
    d = CpsatData.of(deal)
    m = cp_model.CpModel()
    cm = CpsatModel(m, deal, d.slots, d.horizon, d, moves_per_player=d.K)
    _variables(cm)
    for g in GROUPS:
        if g not in wanted:
            cm.lit[g] = m.new_constant(0)
        elif assumptions:
            cm.lit[g] = cm.assumed[g] = m.new_bool_var(f"group_{g}")
        else:
            cm.lit[g] = None
    _rule_order(cm, redundant)
    _rule_colours(cm)
    _rule_costs(cm)
    _rule_contents(cm)
    _rule_hand(cm, redundant)
    _objective(cm, objective)
    if cm.assumed:
        m.add_assumptions(list(cm.assumed.values()))
    return cm


def _variables(cm: CpsatModel) -> None:
    """The slots' event times and kinds, contents (R4: a value at least the row), the
    Campfire moves (to a higher row, R9) and the Summit's turn."""
    d, m = cm.data, cm.model
    S, slots, horizon = d.S, d.slots, d.horizon
    # Slot event times: first fill, Ascent arrival, Campfire (horizon = never).
    for s in S:
        r, i = slots[s]
        cm.t1[s] = m.new_int_var(0, horizon - 1, f"t1[{r},{i}]")
        cm.t2[s] = m.new_int_var(0, horizon - 1, f"t2[{r},{i}]")
        cm.t3[s] = m.new_int_var(0, horizon, f"t3[{r},{i}]")
    # Slot kinds: a Bridge first, a Campfire last, first filled by a moved card.
    for s in S:
        r, i = slots[s]
        cm.bridge[s] = m.new_bool_var(f"bridge[{r},{i}]") if d.can_bridge(s) else m.new_constant(0)
        cm.fire[s] = m.new_bool_var(f"fire[{r},{i}]") if d.can_fire(s) else m.new_constant(0)
        cm.moved_in[s] = m.new_bool_var(f"moved_in[{r},{i}]") if d.can_move_in(s) else m.new_constant(0)
    # Ascent content of each slot: value (R4 lower bound) and colour index.
    cm.v = {s: m.new_int_var(slots[s][0], d.V, f"v[{slots[s][0]},{slots[s][1]}]") for s in S}
    cm.col = {s: m.new_int_var(0, len(d.cols) - 1, f"col[{slots[s][0]},{slots[s][1]}]") for s in S}
    # Campfire moves: mv[s, s2] = the Campfire on s sends its card to s2 (a higher row).
    for s in S:
        if not d.can_fire(s):
            continue
        for s2 in S:
            if slots[s2][0] > slots[s][0]:
                cm.mv[s, s2] = m.new_bool_var(f"mv[{slots[s]},{slots[s2]}]")
    # Turn of the Summit (the last move).
    cm.tend = m.new_int_var(0, horizon - 1, "tend")


def _rule_order(cm: CpsatModel, redundant: bool) -> None:
    """Group ``order``: a Bridge before its slot's Ascent content (R7, R8), a Campfire after
    it and before the Summit (R9), the card a Campfire moves arrives at its Campfire's turn,
    every slot before the Summit (R10), a slot after its left neighbour and its two
    supporting slots (R3). ``redundant``: each slot after as many turns as the slots that
    must come before it."""
    d, m = cm.data, cm.model
    S, slots, sid, tend = d.S, d.slots, d.sid, cm.end

    def on(ct: cp_model.Constraint, *when: cp_model.BoolVarT) -> None:
        cm.on("order", ct, *when)

    for s in S:
        r, i = slots[s]
        b, f, mi = cm.bridge[s], cm.fire[s], cm.moved_in[s]
        on(m.add(cm.t2[s] == cm.t1[s]), ~b)
        on(m.add(cm.t2[s] > cm.t1[s]), b)
        on(m.add(cm.t3[s] > cm.t2[s]), f)
        on(m.add(cm.t3[s] == d.horizon), ~f)
        on(m.add(cm.t3[s] < tend), f)
        on(m.add_implication(mi, ~b))
        on(m.add(tend > cm.t2[s]))  # R10: rows full and no Bridge left before the Summit
        if i > 1:
            on(m.add(cm.t1[sid[r, i - 1]] < cm.t1[s]))  # R3: leftmost empty slot
        if r > 1:
            on(m.add(cm.t1[sid[r - 1, i]] < cm.t1[s]))  # R3: support
            on(m.add(cm.t1[sid[r - 1, i + 1]] < cm.t1[s]))
        outs = [cm.mv[s, s2] for s2 in S if (s, s2) in cm.mv]
        on(m.add(sum(outs) == f))
        ins = [cm.mv[s0, s] for s0 in S if (s0, s) in cm.mv]
        on(m.add(sum(ins) == mi))
    for (s, s2), b in cm.mv.items():
        on(m.add(cm.t1[s2] == cm.t3[s]), b)
    # Redundant (ancestor counts): every slot that must be filled before s is a distinct turn.
    if redundant:
        for s in S:
            r, i = slots[s]
            before = sum(1 for (r0, i0) in slots if (r0 == r and i0 < i) or (
                r0 < r and i <= i0 <= i + (r - r0)) or (r0 < r and i0 < i))
            on(m.add(cm.t1[s] >= before))
        on(m.add(tend >= len(slots)))


def _rule_colours(cm: CpsatModel) -> None:
    """Group ``colours`` (R5): two neighbours in a row hold Ascent contents of different
    colours. Static: a slot's colour never changes once it has one, and Bridges have none."""
    d, m = cm.data, cm.model
    for s in d.S:
        r, i = d.slots[s]
        if i > 1:
            cm.on("colours", m.add(cm.col[d.sid[r, i - 1]] != cm.col[s]))


def _rule_costs(cm: CpsatModel) -> None:
    """Group ``costs`` (R6, R8, R9): the cost of each slot's Ascent content at its arrival
    ``t2``, ``|v - reference|`` against the left reference (and the right one for a
    Bridge's replacement under ``bridge_replace_cost=max``; none: 0); a moved card's cost is
    its Campfire's under ``campfire_move_cost=paid``."""
    d, m = cm.data, cm.model
    rules = d.deal.rules
    for s in d.S:
        r, i = d.slots[s]
        left = [d.sid[r, j] for j in range(i - 1, 0, -1)]
        dl = _reference_cost(cm, s, left, "L")
        c = m.new_int_var(0, d.V, f"cost[{r},{i}]")
        if d.max_rule and d.can_bridge(s):
            right = [d.sid[r, j] for j in range(i + 1, rules.row_length(r) + 1)]
            dr = _reference_cost(cm, s, right, "R")
            cm.on("costs", m.add_max_equality(c, [dl, dr]))
        else:
            cm.on("costs", m.add(c == dl))
        cm.cost[s] = c
    if d.paid:
        for s in d.S:
            cc = m.new_int_var(0, d.V, f"firecost[{d.slots[s]}]")
            for (s0, s2), b in cm.mv.items():
                if s0 == s:
                    cm.on("costs", m.add(cc == cm.cost[s2]), b)
            cm.fire_cost[s] = cc


def _reference_cost(cm: CpsatModel, s: int, side: list[int], tag: str) -> cp_model.IntVar:
    """The difference ``|v[s] - reference|`` (0 without one) against the reference found by
    scanning the ``side`` slots outward at slot ``s``'s arrival time ``t2[s]`` (R6, R8): a
    slot ``j`` is a Campfire then iff ``t3[j] < t2[s]``, a Bridge iff ``t2[j] > t2[s]``,
    empty (right side only) iff ``t1[j] > t2[s]``; the scan goes past a Campfire, and past
    a Bridge under ``bridge_neighbour=look-through``."""
    d, m = cm.data, cm.model
    V, slots = d.V, d.slots
    r, i = slots[s]
    tau = cm.t2[s]

    def on(ct: cp_model.Constraint, *when: cp_model.BoolVarT) -> None:
        cm.on("costs", ct, *when)

    reach: cp_model.IntVar | None = None  # all slots before this one in the scan were looked through
    refs = []
    lval = m.new_int_var(0, V, f"ref{tag}[{r},{i}]")
    for j in side:
        filled = None
        if j > s:  # right side: the slot may still be empty
            filled = m.new_bool_var(f"filled[{slots[j]}@{r},{i}]")
            on(m.add(cm.t1[j] < tau), filled)
            on(m.add(cm.t1[j] > tau), ~filled)
        camp = m.new_bool_var(f"camp[{slots[j]}@{r},{i}]")
        on(m.add(cm.t3[j] < tau), camp)
        on(m.add(cm.t3[j] > tau), ~camp)
        brg: cp_model.IntVar | None = None
        if d.can_bridge(j):
            later = m.new_bool_var(f"later[{slots[j]}@{r},{i}]")
            on(m.add(cm.t2[j] > tau), later)
            on(m.add(cm.t2[j] < tau), ~later)
            if filled is None:
                brg = later  # left slots are always filled at tau
            else:  # a Bridge at tau: filled before tau, Ascent content after
                brg = m.new_bool_var(f"brg[{slots[j]}@{r},{i}]")
                on(m.add_bool_and([filled, later]), brg)
                on(m.add_bool_or([brg, ~filled, ~later]))
        # asc: slot j holds its Ascent card at tau and is the reference if reached.
        asc = m.new_bool_var(f"asc[{slots[j]}@{r},{i}]")
        parts = [~camp] + ([~brg] if brg is not None else []) + (
            [filled] if filled is not None else [])
        on(m.add_bool_and(parts), asc)
        on(m.add_bool_or([asc] + [~p for p in parts]))
        ref = m.new_bool_var(f"isref[{slots[j]}@{r},{i}]")
        if reach is None:
            on(m.add(ref == asc))
        else:
            on(m.add_bool_and([reach, asc]), ref)
            on(m.add_bool_or([ref, ~reach, ~asc]))
        on(m.add(lval == cm.v[j]), ref)
        refs.append(ref)
        # cont: the scan goes on past j (a Campfire, or a Bridge under look-through).
        through = [camp] + ([brg] if (brg is not None and d.look_through) else [])
        cont = m.new_bool_var(f"cont[{slots[j]}@{r},{i}]")
        on(m.add_bool_or(through), cont)
        for t in through:
            on(m.add_implication(t, cont))
        if reach is None:
            nxt = cont
        else:
            nxt = m.new_bool_var(f"reach[{slots[j]}@{r},{i}]")
            on(m.add_bool_and([reach, cont]), nxt)
            on(m.add_bool_or([nxt, ~reach, ~cont]))
        reach = nxt
    has = m.new_bool_var(f"has{tag}[{r},{i}]")
    if refs:
        on(m.add(sum(refs) == has))
    else:
        on(m.add(has == 0))
    on(m.add(lval == 0), ~has)
    diff = m.new_int_var(0, V, f"d{tag}[{r},{i}]")
    raw = m.new_int_var(0, V, f"raw{tag}[{r},{i}]")
    on(m.add_abs_equality(raw, cm.v[s] - lval))
    on(m.add(diff == raw), has)
    on(m.add(diff == 0), ~has)
    return diff


def _rule_contents(cm: CpsatModel) -> None:
    """Group ``contents``: which deck card makes which event (:attr:`CpsatModel.x`). Each
    slot's Ascent content comes from one Ascent card of a hand (its value and colour) or from
    the slot a Campfire moved it from (R9: the same value and colour); a Campfire goes on a
    content of its colour (R9); each Bridge and Campfire event is made by one card; the
    Summit is played once (R10)."""
    d, m = cm.data, cm.model
    rules = d.deal.rules
    S, slots = d.S, d.slots

    def on(ct: cp_model.Constraint, *when: cp_model.BoolVarT) -> None:
        cm.on("contents", ct, *when)

    by_event: dict[tuple[str, int], list[cp_model.IntVar]] = {
        e: [] for s in S for e in (("a", s), ("b", s), ("c", s))}
    by_event["s", -1] = []
    for p in range(d.P):
        for j, card in enumerate(d.decks[p]):
            choices: list[tuple[str, int]] = []
            if card.is_ascent:
                choices = [("a", s) for s in S if slots[s][0] <= rules.max_row(card.value)]
            elif card.is_bridge:
                choices = [("b", s) for s in S if d.can_bridge(s)]
            elif card.is_campfire:
                choices = [("c", s) for s in S if d.can_fire(s)]
            elif card.is_summit:
                choices = [("s", -1)]
            for kind, s in choices:
                b = m.new_bool_var(f"x[{p},{j},{kind},{s}]")
                cm.x[p, j, kind, s] = b
                by_event[kind, s].append(b)
                if kind == "a":
                    on(m.add(cm.v[s] == card.value), b)
                    on(m.add(cm.col[s] == d.cols[card.colour]), b)
                elif kind == "c":
                    on(m.add(cm.col[s] == d.cols[card.colour]), b)
            cm.card_events[p, j] = choices
            pl = m.new_bool_var(f"placed[{p},{j}]")
            on(m.add(sum(cm.x[p, j, kind, s] for kind, s in choices) == pl))
            cm.placed[p, j] = pl
    for s in S:
        on(m.add(sum(by_event["a", s]) + cm.moved_in[s] == 1))
        on(m.add(sum(by_event["b", s]) == cm.bridge[s]))
        on(m.add(sum(by_event["c", s]) == cm.fire[s]))
    on(m.add(sum(by_event["s", -1]) == 1))
    for (s, s2), b in cm.mv.items():
        on(m.add(cm.v[s2] == cm.v[s]), b)
        on(m.add(cm.col[s2] == cm.col[s]), b)


def _rule_hand(cm: CpsatModel, redundant: bool) -> None:
    """Group ``hand`` (R11), per player, without a Boolean per card and turn: cards never
    placed are interchangeable junk, so a move is feasible iff its card is in the player's
    drawn window and the hand holds enough junk to pay. Per own move ``k``: ``C[k]`` cards
    consumed before it, window ``w[k] = min(C[k] + H, n)``, junk in hand ``(w - placed cards
    with deck index < w) - (C - placements before k)``, which covers the move's discards.
    Each placed card's own move ``k[c]`` (all different per player) reads ``w``, the move
    kind and the cost through element constraints, and makes its event at turn ``P·k + p``.
    Symmetry breaking: of two equal cards in one deck, both placed, the upper one first.
    ``redundant``: a placed card ``j`` was drawn, so ``j - H + 1`` cards were consumed."""
    d, m = cm.data, cm.model
    P, H, tend = d.P, d.H, cm.end

    def on(ct: cp_model.Constraint, *when: cp_model.BoolVarT) -> None:
        cm.on("hand", ct, *when)

    waste_terms: list[cp_model.LinearExpr | int] = [cm.bridge[s] for s in d.S]
    for p in range(P):
        Kp, np_ = d.K[p], d.n[p]
        # prefix[i]: placed cards among the top i cards of the deck.
        prefix = [m.new_constant(0)]
        for j in range(np_):
            pv = m.new_int_var(0, j + 1, f"prefix[{p},{j + 1}]")
            on(m.add(pv == prefix[-1] + cm.placed[p, j]))
            prefix.append(pv)
        consumed = m.new_constant(0)  # C[k]: cards consumed before move k
        placed_before: cp_model.LinearExpr | int = 0  # placements before move k
        w_list, isp_list, cst_list = [], [], []
        for k in range(Kp):
            act = m.new_bool_var(f"act[{p},{k}]")
            on(m.add(tend >= P * k + p), act)
            on(m.add(tend < P * k + p), ~act)
            ip = m.new_bool_var(f"isp[{p},{k}]")  # move k plays a card
            idc = m.new_bool_var(f"isd[{p},{k}]")  # move k discards two
            on(m.add(ip + idc == act))
            cs = m.new_int_var(0, max(H - 1, 0), f"cst[{p},{k}]")  # discards paid by move k
            on(m.add(cs == 0), ~ip)
            cm.isp[p, k], cm.isd[p, k], cm.cst[p, k] = ip, idc, cs
            w = m.new_int_var(min(H, np_), np_, f"w[{p},{k}]")  # drawn window
            on(m.add_min_equality(w, [consumed + H, np_]))
            plw = m.new_int_var(0, np_, f"plw[{p},{k}]")
            on(m.add_element(w, prefix, plw))
            # junk in hand covers the discards of this move
            on(m.add(w - plw - (consumed - placed_before) >= cs + 2 * idc), act)
            nxt = m.new_int_var(0, np_, f"C[{p},{k + 1}]")
            on(m.add(nxt == consumed + ip + cs + 2 * idc))
            consumed = nxt
            placed_before = placed_before + ip
            w_list.append(w)
            isp_list.append(ip)
            cst_list.append(cs)
            waste_terms += [cs, 2 * idc]
        on(m.add(sum(isp_list) == sum(cm.placed[p, j] for j in range(np_))))
        # Redundant (deck prefix): a placed card was drawn, so at least j - H + 1 cards were
        # consumed by the end; the LP then sees that deep cards force discards.
        if redundant:
            for j in range(H, np_):
                on(m.add(consumed >= j - H + 1), cm.placed[p, j])
        w_ext = w_list + [m.new_constant(np_)] * np_
        isp_ext = isp_list + [m.new_constant(0)] * np_
        cst_ext = cst_list + [m.new_constant(0)] * np_
        for j in range(np_):
            pl = cm.placed[p, j]
            kc = m.new_int_var(0, Kp + np_ - 1, f"k[{p},{j}]")  # own move that plays card j
            on(m.add(kc < Kp), pl)
            on(m.add(kc == Kp + j), ~pl)
            cm.k[p, j] = kc
            wk = m.new_int_var(0, np_, f"wk[{p},{j}]")
            on(m.add_element(kc, w_ext, wk))
            on(m.add(wk >= j + 1), pl)  # the card is drawn when played
            ik = m.new_int_var(0, 1, f"ik[{p},{j}]")
            on(m.add_element(kc, isp_ext, ik))
            on(m.add(ik == 1), pl)
            ck = m.new_int_var(0, max(H - 1, 0), f"ck[{p},{j}]")
            on(m.add_element(kc, cst_ext, ck))
            for kind, s in cm.card_events[p, j]:
                b = cm.x[p, j, kind, s]
                on(m.add(cm.event_time(kind, s) == P * kc + p), b)
                on(m.add(ck == cm.event_cost(kind, s)), b)
        on(m.add_all_different([cm.k[p, j] for j in range(np_)]))
        # Symmetry breaking: equal cards of one deck, both placed -> the upper one first.
        first: dict[Card, int] = {}
        for j, card in enumerate(d.decks[p]):
            if card in first:
                j0 = first[card]
                on(m.add(cm.k[p, j0] < cm.k[p, j]), cm.placed[p, j0], cm.placed[p, j])
            first[card] = j
    cm.waste = sum(waste_terms)


def _objective(cm: CpsatModel, objective: str) -> None:
    """``waste``: minimise the cards out of the game at the win (every discard and every
    Bridge, which its replacement sends out, R8); ``turns``: minimise the moves; ``none``:
    no objective (feasibility)."""
    if objective == "waste":
        cm.model.minimize(cm.waste)
    elif objective == "turns":
        cm.model.minimize(cm.end + 1)


def groups_of_proof(cm: CpsatModel, solver: cp_model.CpSolver) -> list[str]:
    """The rule groups (keys of :data:`GROUPS`) whose assumption literals CP-SAT's proof of
    infeasibility used (its sufficient assumptions), in :data:`GROUPS` order; empty when the
    model was built without assumptions."""
    used = set(solver.sufficient_assumptions_for_infeasibility())
    return [g for g, lit in cm.assumed.items() if lit.index in used]


# ---- solving and decoding -----------------------------------------------------------------


def _decode(cm: CpsatModel, solver: cp_model.CpSolver) -> list[Move]:
    """Turn a solution into the list of moves, choosing the discards from the junk in hand."""
    deal = cm.deal
    rules = deal.rules
    P = deal.players
    val = solver.value
    tend = val(cm.end)
    # events per (player, own move) and placed cards per player
    by_move: dict[tuple[int, int], tuple[int, str, int]] = {}
    placed_at: dict[int, list[tuple[int, int]]] = {p: [] for p in range(P)}  # (k, j)
    for (p, j, kind, s), b in cm.x.items():
        if val(b):
            kc = val(cm.k[p, j])
            by_move[p, kc] = (j, kind, s)
            placed_at[p].append((kc, j))
    dest = {s: s2 for (s, s2), b in cm.mv.items() if val(b)}
    game = Game(deal)
    moves: list[Move] = []
    for t in range(tend + 1):
        p, k = t % P, t // P
        drawn = len(deal.decks[p]) - len(game.decks[p])
        future = Counter(deal.decks[p][j] for kc, j in placed_at[p] if kc >= k and j < drawn)
        junk = Counter(game.hands[p])
        junk.subtract(future)
        if any(c < 0 for c in junk.values()):
            raise SolverBug(f"cpsat: turn {t + 1}: a card to be played is not in hand")
        pool = [c for c in sorted(junk, key=Card.sort_key) for _ in range(junk[c])]
        cost = val(cm.cst[p, k]) if val(cm.isp[p, k]) else 2
        if len(pool) < cost:
            raise SolverBug(f"cpsat: turn {t + 1}: not enough cards to pay {cost}")
        disc = tuple(pool[:cost])
        if (p, k) not in by_move:
            if not val(cm.isd[p, k]):
                raise SolverBug(f"cpsat: turn {t + 1} has no move")
            mv = Move(DISCARD, p + 1, discard=disc)
        else:
            j, kind, s = by_move[p, k]
            card = deal.decks[p][j]
            if kind == "s":
                mv = Move(PLACE, p + 1, SUMMIT_CARD, rules.peak_row, 1, discard=disc)
            elif kind == "c":
                r, i = cm.slots[s]
                r2, i2 = cm.slots[dest[s]]
                mv = Move(CAMPFIRE, p + 1, card, r, i, r2, i2, disc)
            else:
                r, i = cm.slots[s]
                mv = Move(PLACE, p + 1, card if kind == "a" else BRIDGE_CARD, r, i, discard=disc)
        try:
            game.push(mv)
        except ValueError as exc:
            raise SolverBug(f"cpsat returned a plan the rules engine rejects: turn {t + 1}: {exc}") from None
        moves.append(mv)
    return moves


def _add_hints(cm: CpsatModel, hint: Sequence[Move]) -> None:
    """Add solution hints from a known winning plan ``hint`` (slot event times, slot kinds,
    card assignment). Copies of a card are matched top of the deck first."""
    deal = cm.deal
    P = deal.players
    m = cm.model
    sid = {rs: s for s, rs in enumerate(cm.slots)}
    t1: dict[int, int] = {}
    t2: dict[int, int] = {}
    t3: dict[int, int] = {}
    kinds: dict[int, set[str]] = {s: set() for s in range(len(cm.slots))}
    mv: dict[int, int] = {}
    used: dict[tuple[int, int], tuple[str, int, int]] = {}  # (p, j) -> (kind, s, k)
    H = deal.rules.hand_size
    hands = [list(range(min(H, len(d)))) for d in deal.decks]  # deck indices in hand
    drawn = [len(h) for h in hands]
    for t, move in enumerate(hint):
        p, k = t % P, t // P
        for c in move.discard:  # discard the deepest copy in hand
            j = max(j for j in hands[p] if deal.decks[p][j] == c)
            hands[p].remove(j)
        if move.kind != DISCARD and move.card is not None:
            j = min(j for j in hands[p] if deal.decks[p][j] == move.card)  # upper copy
            hands[p].remove(j)
            if move.card.is_summit:
                kind, s = "s", -1
            elif move.kind == CAMPFIRE:
                kind, s = "c", sid[move.row, move.slot]
                s2 = sid[move.to_row, move.to_slot]
                t3[s] = t
                t1[s2] = t2[s2] = t
                mv[s] = s2
                kinds[s].add("c")
                kinds[s2].add("m")
            elif move.card.is_bridge:
                kind, s = "b", sid[move.row, move.slot]
                t1[s] = t
                kinds[s].add("b")
            else:
                kind, s = "a", sid[move.row, move.slot]
                if s not in t1:
                    t1[s] = t
                t2[s] = t
            used[p, j] = (kind, s, k)
        while len(hands[p]) < H and drawn[p] < len(deal.decks[p]):
            hands[p].append(drawn[p])
            drawn[p] += 1
    for s in range(len(cm.slots)):
        if s in t1:
            m.add_hint(cm.t1[s], t1[s])
        if s in t2:
            m.add_hint(cm.t2[s], t2[s])
        m.add_hint(cm.t3[s], t3.get(s, cm.horizon))
        for var, tag in ((cm.bridge[s], "b"), (cm.fire[s], "c"), (cm.moved_in[s], "m")):
            if list(cm.model.proto.variables[var.index].domain) != [0, 0]:
                m.add_hint(var, int(tag in kinds[s]))
    for (s, s2), b in cm.mv.items():
        m.add_hint(b, int(mv.get(s) == s2))
    for (p, j, kind, s), b in cm.x.items():
        u = used.get((p, j))
        m.add_hint(b, int(u is not None and u[0] == kind and u[1] == s))
    for (p, j), kc in cm.k.items():
        u = used.get((p, j))
        m.add_hint(cm.placed[p, j], int(u is not None))
        m.add_hint(kc, u[2] if u is not None else cm.moves_per_player[p] + j)
    m.add_hint(cm.end, len(hint) - 1)


def name_groups(deal: Deal, time_limit: float | None = None, seed: int = 0,
                work_limit: float | None = None) -> tuple[list[str] | None, float, bool]:
    """The rule groups of :data:`GROUPS` that a proof of ``deal``'s loss uses: the decide
    model (objective ``none``) with every group under an assumption, solved on one worker
    (the only setting in which CP-SAT names them), at most ``time_limit`` seconds and
    ``work_limit`` units of CP-SAT's deterministic time (``max_deterministic_time``: the
    same work on any machine and load; ``None``: no cap). Returns
    the groups (CP-SAT's sufficient assumptions: enough for the proof, not always the fewest;
    empty when presolve closed the model without them), or ``None`` when the time ran out or
    a Ctrl-C/SIGTERM came first; the seconds; whether it was interrupted. Raises
    :class:`SolverBug` when the model turns out feasible (the loss was proven)."""
    t = time.perf_counter()
    cm = build_model(deal, "none", assumptions=True)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = int(seed)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.01, time_limit)
    if work_limit is not None:
        solver.parameters.max_deterministic_time = max(0.01, work_limit)
    status, interrupted = solve_interruptibly(solver, cm.model)
    seconds = round(time.perf_counter() - t, 3)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolverBug("cpsat: a proven loss is feasible with every rule group assumed")
    if status != cp_model.INFEASIBLE:
        return None, seconds, interrupted
    return groups_of_proof(cm, solver), seconds, interrupted


#: The naming solve's least work cap, in CP-SAT's deterministic time (about 5 s of one core
#: of the development machine; naming a tiny deal's loss takes about 0.17).
GROUP_WORK_MIN = 1.0

#: Why CP-SAT does not start from a mid-game position.
POSITION_UNSUPPORTED = ("CP-SAT's model starts from a deal's first move (an empty mountain, "
                        "full decks), not from a mid-game position; use --solver dfs")


def deal_of_start(start: Any) -> Deal:
    """The deal CP-SAT can solve for ``start``: a :class:`Deal`, or a
    :class:`~model.game.Game` at a deal's first move. Raises ``NotImplementedError``
    (:data:`POSITION_UNSUPPORTED`) for a mid-game position."""
    if isinstance(start, Game):
        if start.deal is not None and not start.move_stack:
            return start.deal
        raise NotImplementedError(POSITION_UNSUPPORTED)
    return start


def solve_cpsat(
    deal: Deal,
    objective: str = "none",
    time_limit: float | None = None,
    workers: int = 1,
    seed: int = 0,
    verbose: bool = False,
    hint: Sequence[Move] | str | None = None,
    params: dict[str, Any] | None = None,
    loss_model: bool = True,
    groups: bool = True,
) -> SolveResult:
    """Solve ``deal`` with the CP-SAT model (:func:`build_model`). A mid-game
    :class:`~model.game.Game` raises ``NotImplementedError`` (see :func:`deal_of_start`).

    Returns a :class:`~solver.result.SolveResult` with ``solver="cpsat"``: ``win`` with a
    plan replayed by :mod:`model` (``optimal`` only when CP-SAT proved the optimum), ``loss``
    when the model is infeasible (a proof), ``unknown`` when the time limit ran out first.
    ``workers`` and ``seed`` are CP-SAT's ``num_workers`` and ``random_seed``; with the same
    values (and ``workers=1``) the plan is reproducible. ``hint``: a known winning move list
    to add as solution hints, or ``"beam"``: first run the DFS's beam phase
    (:func:`solver.heuristic.heuristic_win`, at most half of ``time_limit``) and hint its win, if
    any. A hint only guides the search: a ``win`` is still a solution of this model,
    replayed by :mod:`model`, and ``loss`` and optimality are CP-SAT's own proofs.
    ``stats["hint"]`` says where the hint came from. ``verbose`` prints the CP-SAT search
    log. ``params``: further CP-SAT parameters by name (for experiments).

    ``loss_model`` (solo deals, default on): where no hint is known (none given,
    or the beam found no win), first run the relaxed loss model of
    :mod:`solver.cpsat_loss` (all of the time left; its build counts). Its
    infeasibility proves the loss for every objective; with objective ``none`` a solution
    that the engine replays as a win is the answer; otherwise the exact model runs with the
    time left (a replayed win from the loss model is its hint). ``stats["loss_model"]``
    holds its status and seconds (and, for its proof, the groups of
    :data:`solver.cpsat_loss.GROUPS` it used).

    A ``loss`` the exact model proves names the rule groups of :data:`GROUPS` that its proof
    uses, ``stats["groups"]`` (:func:`name_groups`: a second solve, of the decide model with
    the groups under assumptions, on one worker, at most twice the first solve's work in
    CP-SAT's deterministic time (at least :data:`GROUP_WORK_MIN`) and within the time limit;
    ``stats["group_seconds"]``; no ``groups`` when it ran out). The
    first solve has no assumptions: it is the model and search of :func:`build_model`'s
    default, whatever the objective and workers. ``groups=False`` skips the naming (a loss
    then costs one proof, not about two).
    """
    deal = deal_of_start(deal)
    clock = _Clock(time_limit)
    check_rules(deal)
    # data: a deal whose Summit no card can reach is lost before any model is built
    trivial = _no_summit_reachable(deal, objective, clock)
    if trivial is not None:
        return trivial
    # hints: the beam's win, or the loss model's proof, win or hint (solo)
    start = _Start(hint=hint if not isinstance(hint, str) else None)
    if isinstance(hint, str):
        stopped = _beam_hint(start, deal, objective, hint, time_limit, clock)
        if stopped is not None:
            return stopped
    elif hint:
        start.note = f"given ({len(hint)} moves)"
    if loss_model and deal.players == 1 and not start.hint:
        answered = _loss_model_first(start, deal, objective, workers, seed, verbose, clock)
        if answered is not None:
            return answered
    # variables, constraints, objective: no assumptions here (with them CP-SAT forces one
    # worker and a weaker presolve, and the decide model's plans change); a proven loss
    # names its groups in a second solve
    cm = build_model(deal, objective)
    if start.hint:
        _add_hints(cm, start.hint)
    # solve
    solver = _solver(workers, seed, clock.left(), verbose, bool(start.hint), params)
    status, interrupted = solve_interruptibly(solver, cm.model)
    stats = _solve_stats(cm, solver, status, interrupted, start, clock)
    if status == cp_model.MODEL_INVALID:
        raise SolverBug(f"cpsat built an invalid model: {cm.model.validate()}")
    if status == cp_model.INFEASIBLE:
        if groups and not interrupted:
            _name_the_groups(stats, deal, solver, seed, clock)
        return SolveResult(LOSS, objective, deal, solver="cpsat", stats=stats)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return SolveResult(UNKNOWN, objective, deal, solver="cpsat", stats=stats)
    # decode: the solution's moves, replayed by the rules engine
    return _win(cm, solver, status, objective, stats)


class _Clock:
    """The time limit of one :func:`solve_cpsat` call, from its start (model builds count)."""

    def __init__(self, time_limit: float | None) -> None:
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit

    def left(self) -> float | None:
        """Seconds of the limit still to spend (at least 0.01), or ``None`` without a limit."""
        return None if self.deadline is None else max(0.01, self.deadline - time.perf_counter())

    def seconds(self) -> float:
        """Seconds since the start, rounded to milliseconds."""
        return round(time.perf_counter() - self.start, 3)


@dataclass
class _Start:
    """What the exact model starts from: a hint (a winning move list, or none), where it came
    from (``stats["hint"]``), the beam's seconds and the loss model's stats (solo)."""

    hint: Sequence[Move] | None = None
    note: str = "none"
    seconds: float = 0.0
    loss_stats: dict[str, Any] | None = None


def _no_summit_reachable(deal: Deal, objective: str, clock: _Clock) -> SolveResult | None:
    """A ``loss`` when no Ascent card reaches the top rows (R4), so the Summit can never be
    played (the model would hold a slot value with an empty domain, which CP-SAT calls
    invalid); else ``None``."""
    rules = deal.rules
    if rules.values >= rules.rows:
        return None
    return SolveResult(LOSS, objective, deal, solver="cpsat", stats={
        "nodes": 0, "seconds": clock.seconds(), "table_entries": 0,
        "status": f"INFEASIBLE (no Ascent card reaches row {rules.values + 1}, R4)"})


def _beam_hint(start: _Start, deal: Deal, objective: str, hint: str, time_limit: float | None,
               clock: _Clock) -> SolveResult | None:
    """``hint="beam"``: run the DFS's beam phase (at most half of ``time_limit``) and keep
    its win, if any, as ``start.hint``. The beam comes first: it is cheap, and a win it finds
    makes the loss model pointless. Returns an ``unknown`` result when a Ctrl-C/SIGTERM came
    during the beam (before CP-SAT ran), else ``None``; ``ValueError`` for another string."""
    if hint != "beam":
        raise ValueError(f"hint must be a move list, 'beam' or None, not {hint!r}")
    from solver.heuristic import heuristic_win

    share = None if time_limit is None else time_limit / 2
    try:
        start.hint = heuristic_win(deal, objective, time_limit=share)
    except KeyboardInterrupt:  # Ctrl-C/SIGTERM before CP-SAT ran: an honest unknown
        return SolveResult(UNKNOWN, objective, deal, solver="cpsat", stats={
            "nodes": 0, "seconds": clock.seconds(),
            "table_entries": 0, "status": "interrupted during the hint's beam",
            "interrupted": True})
    start.seconds = clock.seconds()
    start.note = (f"beam of the DFS ({len(start.hint)} moves)" if start.hint
                  else "beam of the DFS found no win")
    return None


def _loss_model_first(start: _Start, deal: Deal, objective: str, workers: int, seed: int,
                      verbose: bool, clock: _Clock) -> SolveResult | None:
    """Run the relaxed loss model of :mod:`solver.cpsat_loss` with the time left. Returns the
    answer when it settles the solve (its proof of the loss; its solution replayed as a win
    with objective ``none`` or after an interrupt; an interrupt with nothing found, as
    ``unknown``); else ``None``, with its replayed win, if any, as ``start.hint`` for the
    exact model. ``start.loss_stats`` holds its status and seconds either way."""
    from solver.cpsat_loss import CANDIDATE, INFEASIBLE, solve_loss_model

    verdict, moves, raw = solve_loss_model(deal, clock.left(), workers, seed, verbose)
    start.loss_stats = {"status": verdict, "seconds": raw["seconds"],
                        "branches": raw["branches"], "conflicts": raw["conflicts"],
                        **({"groups": raw["groups"]} if "groups" in raw else {})}
    base = {"nodes": start.loss_stats["branches"], "table_entries": 0, "hint": start.note,
            "hint_seconds": start.seconds, "loss_model": start.loss_stats}
    if raw.get("interrupted"):
        base["interrupted"] = True
        if verdict != INFEASIBLE and moves is None:
            # Ctrl-C or SIGTERM: an honest unknown, not a start of the exact model
            return SolveResult(UNKNOWN, objective, deal, solver="cpsat", stats={
                **base, "seconds": clock.seconds(),
                "status": "interrupted during the loss model"})
    if verdict == INFEASIBLE:
        return SolveResult(LOSS, objective, deal, solver="cpsat", stats={
            **base, "seconds": clock.seconds(),
            "status": "INFEASIBLE (the loss model, a relaxation: no play wins)"})
    if verdict == CANDIDATE and moves is not None:
        if objective == "none" or raw.get("interrupted"):
            plan = checked_plan(deal, moves, "cpsat")
            value = (None if objective == "none" else
                     len(plan.replay().game.out) if objective == "waste" else len(moves))
            return SolveResult(
                WIN, objective, deal, plan=plan, value=value,
                best_progress=deal.rules.mountain_slots,
                best_line=list(moves), solver="cpsat", stats={
                    **base, "seconds": clock.seconds(),
                    "status": "FEASIBLE (the loss model's solution, replayed as a win)"})
        start.hint = moves
        start.note = f"the loss model's win ({len(moves)} moves)"
    return None


def _solver(workers: int, seed: int, limit: float | None, verbose: bool, hinted: bool,
            params: dict[str, Any] | None) -> cp_model.CpSolver:
    """A CP-SAT solver with :func:`solve_cpsat`'s parameters: ``workers``, ``seed``, the
    time ``limit`` in seconds (``None``: none), the search log on standard error when
    ``verbose`` (standard output is the answer, ``--json``), no probing for a ``hinted``
    model, then ``params`` by name."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.random_seed = int(seed)
    if limit is not None:
        solver.parameters.max_time_in_seconds = limit
    solver.parameters.log_search_progress = bool(verbose)
    if verbose:
        solver.parameters.log_to_stdout = False
        solver.log_callback = lambda line: print(line, file=sys.stderr, flush=True)
    if hinted:
        # Measured: with a complete hint, probing is most of the time to the first solution
        # (solo seed 1: 7.8 s with default probing, 2.3 s without; docs/cpsat.md).
        solver.parameters.cp_model_probing_level = 0
    for key, value in (params or {}).items():
        setattr(solver.parameters, key, value)
    return solver


def _solve_stats(cm: CpsatModel, solver: cp_model.CpSolver, status: int, interrupted: bool,
                 start: _Start, clock: _Clock) -> dict[str, Any]:
    """The ``stats`` of the exact model's solve (search counts, model size, the hint)."""
    return {
        "nodes": solver.num_branches, "seconds": clock.seconds(), "table_entries": 0,
        "status": solver.status_name(status), "branches": solver.num_branches,
        "conflicts": solver.num_conflicts, "wall_time": round(solver.wall_time, 3),
        "variables": len(cm.model.proto.variables),
        "constraints": len(cm.model.proto.constraints),
        "hint": start.note,
        "hint_seconds": start.seconds,
        **({"interrupted": True} if interrupted else {}),
        **({"loss_model": start.loss_stats} if start.loss_stats is not None else {}),
    }


def _name_the_groups(stats: dict[str, Any], deal: Deal, solver: cp_model.CpSolver, seed: int,
                     clock: _Clock) -> None:
    """After a proven loss, :func:`name_groups` within twice the proof's work in CP-SAT's
    deterministic time (at least :data:`GROUP_WORK_MIN`; a cap in seconds would make the
    names depend on the machine's speed and load) and the time left; adds
    ``group_seconds``, ``groups`` (unless it ran out) and ``interrupted``."""
    work = max(GROUP_WORK_MIN, 2.0 * solver.deterministic_time)
    named, group_seconds, interrupted = name_groups(deal, clock.left(), seed, work_limit=work)
    stats["group_seconds"] = group_seconds
    if named is not None:
        stats["groups"] = named
    if interrupted:
        stats["interrupted"] = True
    stats["seconds"] = clock.seconds()


def _win(cm: CpsatModel, solver: cp_model.CpSolver, status: int, objective: str,
         stats: dict[str, Any]) -> SolveResult:
    """The ``win`` of a solution: its moves (:func:`_decode`) replayed by :mod:`model`, the
    objective's value checked against CP-SAT's, ``optimal`` and the bound."""
    deal = cm.deal
    moves = _decode(cm, solver)
    plan = checked_plan(deal, moves, "cpsat")
    game = plan.replay().game
    value = None
    if objective == "waste":
        value = len(game.out)
        if value != round(solver.objective_value):
            raise SolverBug(f"cpsat: objective {solver.objective_value} but the plan wastes {value}")
    elif objective == "turns":
        value = len(moves)
    optimal = status == cp_model.OPTIMAL
    bound = None
    if objective != "none":
        bound = value if optimal else int(-(-solver.best_objective_bound // 1))
    return SolveResult(
        WIN, objective, deal, plan=plan, value=value, optimal=optimal,
        bound=bound, best_progress=deal.rules.mountain_slots, best_line=list(moves),
        solver="cpsat", stats=stats,
    )


__all__ = ["GROUPS", "CpsatData", "CpsatModel", "UnsupportedRuleError", "build_model", "check_rules",
           "GROUP_WORK_MIN", "groups_of_proof", "name_groups", "solve_cpsat"]
