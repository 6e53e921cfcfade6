"""CP-SAT model of one deal: a second, independent exact solver (issue 4).

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
from solver.result import LOSS, OBJECTIVES, UNKNOWN, WIN, SolveResult, SolverBug, checked_plan

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


@dataclass
class CpsatModel:
    """The built model and its variables, keyed by indices (see :func:`build_model`)."""

    model: cp_model.CpModel
    deal: Deal
    slots: list[tuple[int, int]]  # slot index -> (row, position), 1-based
    horizon: int
    t1: dict[int, Any] = field(default_factory=dict)
    t2: dict[int, Any] = field(default_factory=dict)
    t3: dict[int, Any] = field(default_factory=dict)
    bridge: dict[int, Any] = field(default_factory=dict)
    fire: dict[int, Any] = field(default_factory=dict)
    moved_in: dict[int, Any] = field(default_factory=dict)
    mv: dict[tuple[int, int], Any] = field(default_factory=dict)
    x: dict[tuple[int, int, str, int], Any] = field(default_factory=dict)
    placed: dict[tuple[int, int], Any] = field(default_factory=dict)
    k: dict[tuple[int, int], Any] = field(default_factory=dict)
    isp: dict[tuple[int, int], Any] = field(default_factory=dict)
    isd: dict[tuple[int, int], Any] = field(default_factory=dict)
    cst: dict[tuple[int, int], Any] = field(default_factory=dict)
    cost: dict[int, Any] = field(default_factory=dict)
    tend: Any = None
    waste: Any = None
    moves_per_player: list[int] = field(default_factory=list)


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


def build_model(deal: Deal, objective: str = "none", redundant: bool = True) -> CpsatModel:
    """Build the CP-SAT model of ``deal`` (plain data in, model and variable dicts out).

    ``objective``: ``none`` (feasibility), ``waste`` (cards out of the game at the win) or
    ``turns`` (number of moves). Raises :class:`UnsupportedRuleError` for a rule option the
    model cannot express and ``ValueError`` for an unknown objective. ``redundant`` adds the
    redundant constraints (slot ancestor counts, deck prefix); off only for measurements.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    check_rules(deal)
    rules = deal.rules
    m = cp_model.CpModel()
    P, H, R, V = deal.players, rules.hand_size, rules.rows, rules.values
    look_through = rules.bridge_neighbour == "look-through"
    max_rule = rules.bridge_replace_cost == "max"
    paid = rules.campfire_move_cost == "paid"
    cols = {c: i for i, c in enumerate(rules.colour_letters)}
    ncol = len(cols)
    decks = deal.decks
    n = [len(d) for d in decks]
    # A player makes at most n_p moves (each consumes a card); the game must end before any
    # player's (n_p + 1)-th turn.
    horizon = min(P * n[p] + p for p in range(P))
    K = [len([k for k in range(n[p] + 1) if P * k + p < horizon]) for p in range(P)]
    slots = [(r, i) for r in range(1, R + 1) for i in range(1, rules.row_length(r) + 1)]
    sid = {rs: s for s, rs in enumerate(slots)}
    S = range(len(slots))
    cm = CpsatModel(m, deal, slots, horizon, moves_per_player=K)

    def can_bridge(s: int) -> bool:
        r, i = slots[s]
        return rules.bridges > 0 and 1 < i < rules.row_length(r)

    def can_fire(s: int) -> bool:
        return rules.campfires > 0 and slots[s][0] <= R - 1

    def can_move_in(s: int) -> bool:
        return rules.campfires > 0 and slots[s][0] >= 2

    # Slot event times: first fill, Ascent arrival, Campfire (horizon = never).
    for s in S:
        r, i = slots[s]
        cm.t1[s] = m.new_int_var(0, horizon - 1, f"t1[{r},{i}]")
        cm.t2[s] = m.new_int_var(0, horizon - 1, f"t2[{r},{i}]")
        cm.t3[s] = m.new_int_var(0, horizon, f"t3[{r},{i}]")
    # Slot kinds: a Bridge first, a Campfire last, first filled by a moved card.
    for s in S:
        r, i = slots[s]
        cm.bridge[s] = m.new_bool_var(f"bridge[{r},{i}]") if can_bridge(s) else m.new_constant(0)
        cm.fire[s] = m.new_bool_var(f"fire[{r},{i}]") if can_fire(s) else m.new_constant(0)
        cm.moved_in[s] = m.new_bool_var(f"moved_in[{r},{i}]") if can_move_in(s) else m.new_constant(0)
    # Ascent content of each slot: value (R4 lower bound) and colour index.
    v = {s: m.new_int_var(slots[s][0], V, f"v[{slots[s][0]},{slots[s][1]}]") for s in S}
    col = {s: m.new_int_var(0, ncol - 1, f"col[{slots[s][0]},{slots[s][1]}]") for s in S}
    # Campfire moves: mv[s, s2] = the Campfire on s sends its card to s2 (a higher row).
    for s in S:
        if not can_fire(s):
            continue
        for s2 in S:
            if slots[s2][0] > slots[s][0]:
                cm.mv[s, s2] = m.new_bool_var(f"mv[{slots[s]},{slots[s2]}]")
    # Turn of the Summit (the last move).
    cm.tend = m.new_int_var(0, horizon - 1, "tend")

    # ---- slot structure ------------------------------------------------------------------
    for s in S:
        r, i = slots[s]
        b, f, mi = cm.bridge[s], cm.fire[s], cm.moved_in[s]
        m.add(cm.t2[s] == cm.t1[s]).only_enforce_if(~b)
        m.add(cm.t2[s] > cm.t1[s]).only_enforce_if(b)
        m.add(cm.t3[s] > cm.t2[s]).only_enforce_if(f)
        m.add(cm.t3[s] == horizon).only_enforce_if(~f)
        m.add(cm.t3[s] < cm.tend).only_enforce_if(f)
        m.add_implication(mi, ~b)
        m.add(cm.tend > cm.t2[s])  # R10: rows full and no Bridge left before the Summit
        if i > 1:
            m.add(cm.t1[sid[r, i - 1]] < cm.t1[s])  # R3: leftmost empty slot
            m.add(col[sid[r, i - 1]] != col[s])  # R5 (static, see module docstring)
        if r > 1:
            m.add(cm.t1[sid[r - 1, i]] < cm.t1[s])  # R3: support
            m.add(cm.t1[sid[r - 1, i + 1]] < cm.t1[s])
        outs = [cm.mv[s, s2] for s2 in S if (s, s2) in cm.mv]
        m.add(sum(outs) == f)
        ins = [cm.mv[s0, s] for s0 in S if (s0, s) in cm.mv]
        m.add(sum(ins) == mi)
    for (s, s2), b in cm.mv.items():
        m.add(cm.t1[s2] == cm.t3[s]).only_enforce_if(b)
        m.add(v[s2] == v[s]).only_enforce_if(b)
        m.add(col[s2] == col[s]).only_enforce_if(b)

    # Redundant (ancestor counts): every slot that must be filled before s is a distinct turn.
    if redundant:
        for s in S:
            r, i = slots[s]
            before = sum(1 for (r0, i0) in slots if (r0 == r and i0 < i) or (
                r0 < r and i <= i0 <= i + (r - r0)) or (r0 < r and i0 < i))
            m.add(cm.t1[s] >= before)
        m.add(cm.tend >= len(slots))

    # ---- cost of each slot's Ascent content at its arrival time t2 (R6, R8) ---------------
    for s in S:
        r, i = slots[s]
        length = rules.row_length(r)
        tau = cm.t2[s]

        def reference(side: list[int], tag: str) -> tuple[Any, Any]:
            """(has reference, reference value) scanning ``side`` slots outward at tau."""
            reach = None  # all slots before this one in the scan were looked through
            refs = []
            lval = m.new_int_var(0, V, f"ref{tag}[{r},{i}]")
            for j in side:
                filled = None
                if j > s:  # right side: the slot may still be empty
                    filled = m.new_bool_var(f"filled[{slots[j]}@{r},{i}]")
                    m.add(cm.t1[j] < tau).only_enforce_if(filled)
                    m.add(cm.t1[j] > tau).only_enforce_if(~filled)
                camp = m.new_bool_var(f"camp[{slots[j]}@{r},{i}]")
                m.add(cm.t3[j] < tau).only_enforce_if(camp)
                m.add(cm.t3[j] > tau).only_enforce_if(~camp)
                if can_bridge(j):
                    later = m.new_bool_var(f"later[{slots[j]}@{r},{i}]")
                    m.add(cm.t2[j] > tau).only_enforce_if(later)
                    m.add(cm.t2[j] < tau).only_enforce_if(~later)
                    if filled is None:
                        brg = later  # left slots are always filled at tau
                    else:  # a Bridge at tau: filled before tau, Ascent content after
                        brg = m.new_bool_var(f"brg[{slots[j]}@{r},{i}]")
                        m.add_bool_and([filled, later]).only_enforce_if(brg)
                        m.add_bool_or([brg, ~filled, ~later])
                else:
                    brg = None
                # asc: slot j holds its Ascent card at tau and is the reference if reached.
                asc = m.new_bool_var(f"asc[{slots[j]}@{r},{i}]")
                parts = [~camp] + ([~brg] if brg is not None else []) + (
                    [filled] if filled is not None else [])
                m.add_bool_and(parts).only_enforce_if(asc)
                m.add_bool_or([asc] + [~p for p in parts])
                ref = m.new_bool_var(f"isref[{slots[j]}@{r},{i}]")
                if reach is None:
                    m.add(ref == asc)
                else:
                    m.add_bool_and([reach, asc]).only_enforce_if(ref)
                    m.add_bool_or([ref, ~reach, ~asc])
                m.add(lval == v[j]).only_enforce_if(ref)
                refs.append(ref)
                # cont: the scan goes on past j (a Campfire, or a Bridge under look-through).
                through = [camp] + ([brg] if (brg is not None and look_through) else [])
                cont = m.new_bool_var(f"cont[{slots[j]}@{r},{i}]")
                m.add_bool_or(through).only_enforce_if(cont)
                for t in through:
                    m.add_implication(t, cont)
                if reach is None:
                    nxt = cont
                else:
                    nxt = m.new_bool_var(f"reach[{slots[j]}@{r},{i}]")
                    m.add_bool_and([reach, cont]).only_enforce_if(nxt)
                    m.add_bool_or([nxt, ~reach, ~cont])
                reach = nxt
            has = m.new_bool_var(f"has{tag}[{r},{i}]")
            if refs:
                m.add(sum(refs) == has)
            else:
                m.add(has == 0)
            m.add(lval == 0).only_enforce_if(~has)
            diff = m.new_int_var(0, V, f"d{tag}[{r},{i}]")
            raw = m.new_int_var(0, V, f"raw{tag}[{r},{i}]")
            m.add_abs_equality(raw, v[s] - lval)
            m.add(diff == raw).only_enforce_if(has)
            m.add(diff == 0).only_enforce_if(~has)
            return has, diff

        left = [sid[r, j] for j in range(i - 1, 0, -1)]
        _, dl = reference(left, "L")
        c = m.new_int_var(0, V, f"cost[{r},{i}]")
        if max_rule and can_bridge(s):
            right = [sid[r, j] for j in range(i + 1, length + 1)]
            _, dr = reference(right, "R")
            m.add_max_equality(c, [dl, dr])
        else:
            m.add(c == dl)
        cm.cost[s] = c

    # ---- cards: which deck card makes which event ----------------------------------------
    # x[p, j, kind, s]: card j of player p's deck is the slot s event of kind
    #   "a" (Ascent content from the hand), "b" (Bridge), "c" (Campfire); "s" = the Summit.
    event_time: dict[tuple[str, int], Any] = {}
    event_cost: dict[tuple[str, int], Any] = {}
    for s in S:
        event_time["a", s] = cm.t2[s]
        event_cost["a", s] = cm.cost[s]
        event_time["b", s] = cm.t1[s]
        event_cost["b", s] = 0
        event_time["c", s] = cm.t3[s]
        if paid:
            cc = m.new_int_var(0, V, f"firecost[{slots[s]}]")
            for (s0, s2), b in cm.mv.items():
                if s0 == s:
                    m.add(cc == cm.cost[s2]).only_enforce_if(b)
            event_cost["c", s] = cc
        else:
            event_cost["c", s] = 0
    event_time["s", -1] = cm.tend
    event_cost["s", -1] = 0
    by_event: dict[tuple[str, int], list[Any]] = {e: [] for e in event_time}
    card_events: dict[tuple[int, int], list[tuple[str, int]]] = {}
    for p in range(P):
        for j, card in enumerate(decks[p]):
            choices: list[tuple[str, int]] = []
            if card.is_ascent:
                choices = [("a", s) for s in S if slots[s][0] <= rules.max_row(card.value)]
            elif card.is_bridge:
                choices = [("b", s) for s in S if can_bridge(s)]
            elif card.is_campfire:
                choices = [("c", s) for s in S if can_fire(s)]
            elif card.is_summit:
                choices = [("s", -1)]
            for kind, s in choices:
                b = m.new_bool_var(f"x[{p},{j},{kind},{s}]")
                cm.x[p, j, kind, s] = b
                by_event[kind, s].append(b)
                if kind == "a":
                    m.add(v[s] == card.value).only_enforce_if(b)
                    m.add(col[s] == cols[card.colour]).only_enforce_if(b)
                elif kind == "c":
                    m.add(col[s] == cols[card.colour]).only_enforce_if(b)
            card_events[p, j] = choices
            pl = m.new_bool_var(f"placed[{p},{j}]")
            m.add(sum(cm.x[p, j, kind, s] for kind, s in choices) == pl)
            cm.placed[p, j] = pl
    for s in S:
        m.add(sum(by_event["a", s]) + cm.moved_in[s] == 1)
        m.add(sum(by_event["b", s]) == cm.bridge[s])
        m.add(sum(by_event["c", s]) == cm.fire[s])
    m.add(sum(by_event["s", -1]) == 1)

    # ---- moves and hands, per player (R11) -----------------------------------------------
    waste_terms = [cm.bridge[s] for s in S]
    for p in range(P):
        Kp, np_ = K[p], n[p]
        # prefix[i]: placed cards among the top i cards of the deck.
        prefix = [m.new_constant(0)]
        for j in range(np_):
            pv = m.new_int_var(0, j + 1, f"prefix[{p},{j + 1}]")
            m.add(pv == prefix[-1] + cm.placed[p, j])
            prefix.append(pv)
        consumed = m.new_constant(0)  # C[k]: cards consumed before move k
        placed_before: Any = 0  # placements before move k
        w_list, isp_list, cst_list = [], [], []
        for k in range(Kp):
            act = m.new_bool_var(f"act[{p},{k}]")
            m.add(cm.tend >= P * k + p).only_enforce_if(act)
            m.add(cm.tend < P * k + p).only_enforce_if(~act)
            ip = m.new_bool_var(f"isp[{p},{k}]")  # move k plays a card
            idc = m.new_bool_var(f"isd[{p},{k}]")  # move k discards two
            m.add(ip + idc == act)
            cs = m.new_int_var(0, max(H - 1, 0), f"cst[{p},{k}]")  # discards paid by move k
            m.add(cs == 0).only_enforce_if(~ip)
            cm.isp[p, k], cm.isd[p, k], cm.cst[p, k] = ip, idc, cs
            w = m.new_int_var(min(H, np_), np_, f"w[{p},{k}]")  # drawn window
            m.add_min_equality(w, [consumed + H, np_])
            plw = m.new_int_var(0, np_, f"plw[{p},{k}]")
            m.add_element(w, prefix, plw)
            # junk in hand covers the discards of this move
            m.add(w - plw - (consumed - placed_before) >= cs + 2 * idc).only_enforce_if(act)
            nxt = m.new_int_var(0, np_, f"C[{p},{k + 1}]")
            m.add(nxt == consumed + ip + cs + 2 * idc)
            consumed = nxt
            placed_before = placed_before + ip
            w_list.append(w)
            isp_list.append(ip)
            cst_list.append(cs)
            waste_terms += [cs, 2 * idc]
        m.add(sum(isp_list) == sum(cm.placed[p, j] for j in range(np_)))
        # Redundant (deck prefix): a placed card was drawn, so at least j - H + 1 cards were
        # consumed by the end; the LP then sees that deep cards force discards.
        if redundant:
            for j in range(H, np_):
                m.add(consumed >= j - H + 1).only_enforce_if(cm.placed[p, j])
        w_ext = w_list + [m.new_constant(np_)] * np_
        isp_ext = isp_list + [m.new_constant(0)] * np_
        cst_ext = cst_list + [m.new_constant(0)] * np_
        for j in range(np_):
            pl = cm.placed[p, j]
            kc = m.new_int_var(0, Kp + np_ - 1, f"k[{p},{j}]")  # own move that plays card j
            m.add(kc < Kp).only_enforce_if(pl)
            m.add(kc == Kp + j).only_enforce_if(~pl)
            cm.k[p, j] = kc
            wk = m.new_int_var(0, np_, f"wk[{p},{j}]")
            m.add_element(kc, w_ext, wk)
            m.add(wk >= j + 1).only_enforce_if(pl)  # the card is drawn when played
            ik = m.new_int_var(0, 1, f"ik[{p},{j}]")
            m.add_element(kc, isp_ext, ik)
            m.add(ik == 1).only_enforce_if(pl)
            ck = m.new_int_var(0, max(H - 1, 0), f"ck[{p},{j}]")
            m.add_element(kc, cst_ext, ck)
            for kind, s in card_events[p, j]:
                b = cm.x[p, j, kind, s]
                m.add(event_time[kind, s] == P * kc + p).only_enforce_if(b)
                m.add(ck == event_cost[kind, s]).only_enforce_if(b)
        m.add_all_different([cm.k[p, j] for j in range(np_)])
        # Symmetry breaking: equal cards of one deck, both placed -> the upper one first.
        first: dict[Card, int] = {}
        for j, card in enumerate(decks[p]):
            if card in first:
                j0 = first[card]
                m.add(cm.k[p, j0] < cm.k[p, j]).only_enforce_if(
                    [cm.placed[p, j0], cm.placed[p, j]])
            first[card] = j

    cm.waste = sum(waste_terms)
    if objective == "waste":
        m.minimize(cm.waste)
    elif objective == "turns":
        m.minimize(cm.tend + 1)
    return cm


# ---- solving and decoding -----------------------------------------------------------------


def _decode(cm: CpsatModel, solver: cp_model.CpSolver) -> list[Move]:
    """Turn a solution into the list of moves, choosing the discards from the junk in hand."""
    deal = cm.deal
    rules = deal.rules
    P = deal.players
    val = solver.value
    tend = val(cm.tend)
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
    m.add_hint(cm.tend, len(hint) - 1)


#: Why CP-SAT does not start from a mid-game position (issue 8).
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

    ``loss_model`` (solo deals, default on; issue 11): where no hint is known (none given,
    or the beam found no win), first run the relaxed loss model of
    :mod:`solver.cpsat_loss` (all of the time left; its build counts). Its
    infeasibility proves the loss for every objective; with objective ``none`` a solution
    that the engine replays as a win is the answer; otherwise the exact model runs with the
    time left (a replayed win from the loss model is its hint). ``stats["loss_model"]``
    holds its status and seconds.
    """
    deal = deal_of_start(deal)
    start = time.perf_counter()
    check_rules(deal)
    rules = deal.rules
    if rules.values < rules.rows:
        # no Ascent card reaches the top rows (R4), so the Summit can never be played: the
        # model would hold a slot value with an empty domain, which CP-SAT calls invalid
        return SolveResult(LOSS, objective, deal, solver="cpsat", stats={
            "nodes": 0, "seconds": round(time.perf_counter() - start, 3), "table_entries": 0,
            "status": f"INFEASIBLE (no Ascent card reaches row {rules.values + 1}, R4)"})
    hint_note = "none"
    hint_seconds = 0.0
    loss_stats = None
    deadline = None if time_limit is None else start + time_limit

    def left() -> float | None:  # seconds of the limit still to spend (builds count)
        return None if deadline is None else max(0.01, deadline - time.perf_counter())

    # the beam first: it is cheap, and a win it finds makes the loss model pointless
    if isinstance(hint, str):
        if hint != "beam":
            raise ValueError(f"hint must be a move list, 'beam' or None, not {hint!r}")
        from solver.heuristic import heuristic_win

        share = None if time_limit is None else time_limit / 2
        try:
            hint = heuristic_win(deal, objective, time_limit=share)
        except KeyboardInterrupt:  # Ctrl-C/SIGTERM before CP-SAT ran: an honest unknown
            return SolveResult(UNKNOWN, objective, deal, solver="cpsat", stats={
                "nodes": 0, "seconds": round(time.perf_counter() - start, 3),
                "table_entries": 0, "status": "interrupted during the hint's beam",
                "interrupted": True})
        hint_seconds = round(time.perf_counter() - start, 3)
        hint_note = (f"beam of the DFS ({len(hint)} moves)" if hint
                     else "beam of the DFS found no win")
    elif hint:
        hint_note = f"given ({len(hint)} moves)"
    if loss_model and deal.players == 1 and not hint:
        from solver.cpsat_loss import CANDIDATE, INFEASIBLE, solve_loss_model

        verdict, moves, raw = solve_loss_model(deal, left(), workers, seed, verbose)
        loss_stats = {"status": verdict, "seconds": raw["seconds"],
                      "branches": raw["branches"], "conflicts": raw["conflicts"]}
        base = {"nodes": loss_stats["branches"], "table_entries": 0, "hint": hint_note,
                "hint_seconds": hint_seconds, "loss_model": loss_stats}
        if raw.get("interrupted"):
            base["interrupted"] = True
            if verdict != INFEASIBLE and moves is None:
                # Ctrl-C or SIGTERM: an honest unknown, not a start of the exact model
                return SolveResult(UNKNOWN, objective, deal, solver="cpsat", stats={
                    **base, "seconds": round(time.perf_counter() - start, 3),
                    "status": "interrupted during the loss model"})
        if verdict == INFEASIBLE:
            return SolveResult(LOSS, objective, deal, solver="cpsat", stats={
                **base, "seconds": round(time.perf_counter() - start, 3),
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
                        **base, "seconds": round(time.perf_counter() - start, 3),
                        "status": "FEASIBLE (the loss model's solution, replayed as a win)"})
            hint = moves
            hint_note = f"the loss model's win ({len(moves)} moves)"
    cm = build_model(deal, objective)
    if hint:
        _add_hints(cm, hint)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.random_seed = int(seed)
    if deadline is not None:
        solver.parameters.max_time_in_seconds = float(left())
    solver.parameters.log_search_progress = bool(verbose)
    if verbose:  # the log goes to standard error: standard output is the answer (--json)
        solver.parameters.log_to_stdout = False
        solver.log_callback = lambda line: print(line, file=sys.stderr, flush=True)
    if hint:
        # Measured: with a complete hint, probing is most of the time to the first solution
        # (solo seed 1: 7.8 s with default probing, 2.3 s without; docs/cpsat.md).
        solver.parameters.cp_model_probing_level = 0
    for key, value in (params or {}).items():
        setattr(solver.parameters, key, value)
    status, interrupted = solve_interruptibly(solver, cm.model)
    seconds = time.perf_counter() - start
    stats = {
        "nodes": solver.num_branches, "seconds": round(seconds, 3), "table_entries": 0,
        "status": solver.status_name(status), "branches": solver.num_branches,
        "conflicts": solver.num_conflicts, "wall_time": round(solver.wall_time, 3),
        "variables": len(cm.model.proto.variables),
        "constraints": len(cm.model.proto.constraints),
        "hint": hint_note,
        "hint_seconds": hint_seconds,
        **({"interrupted": True} if interrupted else {}),
        **({"loss_model": loss_stats} if loss_stats is not None else {}),
    }
    if status == cp_model.MODEL_INVALID:
        raise SolverBug(f"cpsat built an invalid model: {cm.model.validate()}")
    if status == cp_model.INFEASIBLE:
        return SolveResult(LOSS, objective, deal, solver="cpsat", stats=stats)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return SolveResult(UNKNOWN, objective, deal, solver="cpsat", stats=stats)
    moves = _decode(cm, solver)
    plan = checked_plan(deal, moves, "cpsat")
    game = plan.replay().game
    if objective == "waste":
        value: int | None = len(game.out)
        if value != round(solver.objective_value):
            raise SolverBug(f"cpsat: objective {solver.objective_value} but the plan wastes {value}")
    elif objective == "turns":
        value = len(moves)
    else:
        value = None
    optimal = status == cp_model.OPTIMAL
    bound = None
    if objective != "none":
        bound = value if optimal else int(-(-solver.best_objective_bound // 1))
    return SolveResult(
        WIN, objective, deal, plan=plan, value=value, optimal=optimal,
        bound=bound, best_progress=deal.rules.mountain_slots, best_line=list(moves),
        solver="cpsat", stats=stats,
    )


__all__ = ["CpsatModel", "UnsupportedRuleError", "build_model", "check_rules", "solve_cpsat"]
