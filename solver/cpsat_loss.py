"""The CP-SAT loss model: a relaxation of the solo game whose infeasibility proves a loss
(issue 11).

The exact CP-SAT model (:mod:`solver.cpsat`) decided none of the ``hand_size=2`` ladder's
3- and 4-row deals in 60 s without a hint. This model drops what makes the exact one heavy
(which card pays which cost, the moves of the Campfires' cards as cards, the Bridges'
replacements as slot contents) but keeps what loses these games: the hand. Every winning
play of the real game (R1–R13) gives a solution of the model, so **INFEASIBLE is a proof that
the deal is lost**. A solution is only a candidate: it is decoded into moves and replayed by
:mod:`model`; when the replay wins, it is a win (a plan the engine accepted), else the model
proved nothing.

Formulation (solo: one deck, read in order; ``H`` the hand size). Time is the *consumption*
``u``: the number of cards that have left the hand before a move (R11: a move takes the card
played and its cost, or two discards, out of the hand; the hand draws back to ``H``, so the
cards drawn are the deck's first ``H + u``).

* **Events.** Every slot of rows 1..R and the peak has one event, its first fill: an Ascent
  card, a Bridge (R7), a Campfire's moved card (R9: the event's card is the Campfire), or the
  Summit (R10). A slot first filled by a Bridge has a second, optional event: its replacement
  by an Ascent card (R8). Event ``e`` starts at consumption ``u_e`` and takes ``1 + cost_e``
  cards, so the events' intervals ``[u_e, u_e + 1 + cost_e)`` do not overlap; the gaps between
  them are discard turns, two cards each (parity).
* **Cards.** ``x[i, s]``: deck card ``i`` is the first fill of slot ``s`` (R4 heights, Bridges
  not at a row's ends, Campfires above row 1, the Summit only on the peak); replacement events
  take an Ascent card of the row's height. A card plays at most once, and only once drawn:
  ``i < H + u``.
* **Order.** R3: along a row and above the two supporting slots; the peak last, after every
  replacement (R10).
* **Content and cost.** A slot's content is its Ascent card or the card a Campfire moved into it
  (an Ascent card of the Campfire's colour from a lower row, placed earlier, high enough: R9).
  Adjacent contents differ in colour (R5). The cost is exactly ``|v − reference|`` (R6) when the
  reference is known: the left content, or, when a Campfire replaced it before, the content
  beyond it (look-through); 0 at a row's start and next to a standing Bridge
  (``bridge_neighbour=zero``); a replacement pays the left difference and, under
  ``bridge_replace_cost=max``, the right one if that slot is filled (R8). Where the reference
  is not known (a Bridge's replacement card, a card moved out of a replaced Bridge's slot) the
  cost is free in ``0..H−1``.
* **The hand.** The cards a plan plays later are *held*. At each event: the card played, its
  cost and the held cards fit in the hand: ``1 + cost + held ≤ H``; at the last discard turn
  before an event (gaps are made of discard turns): ``2 + held ≤ H``. This is what loses the
  small-hand games: a Summit drawn early is held to the end.

Relaxed (so that the model stays a relaxation): what a Bridge's replacement card and a moved
card look like where they are not modelled, R12 (a player with fewer than two cards), and the
hand between events. Solo only; positions (mid-game) are not modelled.
"""

from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model

from model.deal import Deal
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move

INFEASIBLE, CANDIDATE, UNKNOWN_STATUS = "infeasible", "candidate", "unknown"


class LossModel:
    """The loss model of a solo ``deal`` (see the module docstring). Build with
    :func:`build_loss_model`; :meth:`decode` turns a solution into moves."""

    def __init__(self, deal: Deal) -> None:
        if deal.players != 1:
            raise ValueError("the loss model is solo only")
        self.deal = deal
        rules = deal.rules
        self.R = R = rules.rows
        self.H = H = rules.hand_size
        self.deck = deck = list(deal.decks[0])
        self.N = N = len(deck)
        letters = rules.colour_letters
        rowlen = [rules.row_length(r + 1) for r in range(R)]
        slots = [(r, k) for r in range(R) for k in range(rowlen[r])] + [(R, 0)]
        self.slots = slots
        S = len(slots)
        peak = S - 1
        sid = {s: j for j, s in enumerate(slots)}
        m = self.model = cp_model.CpModel()
        U = N
        # first fills: x[i, j]
        x: dict[tuple[int, int], Any] = {}
        for i, c in enumerate(deck):
            for j, (r, k) in enumerate(slots):
                if r == R:
                    ok = c.is_summit
                elif c.is_ascent:
                    ok = c.value >= r + 1
                elif c.is_campfire:
                    ok = r >= 1
                elif c.is_bridge:
                    ok = 0 < k < rowlen[r] - 1
                else:
                    ok = False
                if ok:
                    x[i, j] = m.NewBoolVar(f"x{i}_{j}")
        self.x = x
        for j in range(S):
            m.AddExactlyOne([v for (i, jj), v in x.items() if jj == j])
        u = {j: m.NewIntVar(0, U, f"u{j}") for j in range(S)}
        self.u = u
        for (i, j), v in x.items():
            m.Add(u[j] >= i - H + 1).OnlyEnforceIf(v)
        for (r, k), j in sid.items():
            if r == R:
                for j2 in range(S - 1):
                    m.Add(u[j] > u[j2])
                continue
            if k > 0:
                m.Add(u[j] > u[sid[r, k - 1]])
            if r > 0:
                m.Add(u[j] > u[sid[r - 1, k]])
                m.Add(u[j] > u[sid[r - 1, k + 1]])
        # redundant: every slot that must be filled before j (R3, transitively) takes at least
        # one card before u_j
        preds: dict[int, set[int]] = {}
        for j, (r, k) in enumerate(slots):
            if r == R:
                preds[j] = set(range(S - 1))
                continue
            ps: set[int] = set()
            if k > 0:
                ps |= {sid[r, k - 1]} | preds[sid[r, k - 1]]
            if r > 0:
                for kk in (k, k + 1):
                    ps |= {sid[r - 1, kk]} | preds[sid[r - 1, kk]]
            preds[j] = ps
        for j in range(S):
            m.Add(u[j] >= len(preds[j]))
        # slot kinds; fval/fcol: the Ascent content a slot gets (its card, the card a
        # Campfire moved into it, or a Bridge's replacement), before any Campfire replaces it
        asc, camp, brg, fval, fcol = {}, {}, {}, {}, {}
        for j, (r, k) in enumerate(slots):
            if r == R:
                continue
            items = [(i, v) for (i, jj), v in x.items() if jj == j]
            asc[j] = self._sum_bool([v for i, v in items if deck[i].is_ascent])
            camp[j] = self._sum_bool([v for i, v in items if deck[i].is_campfire])
            brg[j] = self._sum_bool([v for i, v in items if deck[i].is_bridge])
            fval[j] = m.NewIntVar(0, rules.values, f"v{j}")
            fcol[j] = m.NewIntVar(0, len(letters), f"c{j}")
            for i, v in items:
                if deck[i].is_ascent:
                    m.Add(fval[j] == deck[i].value).OnlyEnforceIf(v)
                    m.Add(fcol[j] == letters.index(deck[i].colour) + 1).OnlyEnforceIf(v)
        # Bridge replacements (R8): card, time, cost
        xr: dict[int, list[Any]] = {i: [] for i in range(N)}
        rep: dict[int, dict[str, Any]] = {}
        for j, (r, k) in enumerate(slots):
            if r == R or not any(deck[i].is_bridge for (i, jj) in x if jj == j):
                continue
            isb = brg[j]
            cands = [(i, m.NewBoolVar(f"rep{i}_{j}")) for i, c in enumerate(deck)
                     if c.is_ascent and c.value >= r + 1]
            m.Add(sum(v for _, v in cands) == isb)
            ur = m.NewIntVar(0, U, f"ur{j}")
            for i, v in cands:
                xr[i].append(v)
                m.Add(ur >= i - H + 1).OnlyEnforceIf(v)
                m.Add(fval[j] == deck[i].value).OnlyEnforceIf(v)
                m.Add(fcol[j] == letters.index(deck[i].colour) + 1).OnlyEnforceIf(v)
            m.Add(ur > u[j]).OnlyEnforceIf(isb)
            m.Add(u[peak] > ur).OnlyEnforceIf(isb)
            rep[j] = {"u": ur, "cost": m.NewIntVar(0, H - 1, f"cr{j}"), "present": isb,
                      "slot": None, "rep": j, "cands": cands}
        # Campfire sources (R9): src[j0, j] - the card moved into j came from slot j0: an
        # Ascent content of the Campfire's colour, high enough for j's row, there before
        src: dict[tuple[int, int], list[Any]] = {}
        for j, (r, k) in enumerate(slots):
            if r == R or r == 0:
                continue
            for (i, jj), v in x.items():
                if jj != j or not deck[i].is_campfire:
                    continue
                cc = letters.index(deck[i].colour) + 1
                cands = []
                for j0, (r0, k0) in enumerate(slots):
                    if r0 >= r:
                        continue
                    q = m.NewBoolVar(f"src{j0}_{j}_{i}")
                    m.AddImplication(q, v)
                    m.Add(u[j0] < u[j]).OnlyEnforceIf(q)
                    m.Add(fcol[j0] == cc).OnlyEnforceIf(q)
                    m.Add(fval[j0] >= r + 1).OnlyEnforceIf(q)
                    m.Add(fval[j] == fval[j0]).OnlyEnforceIf(q)
                    m.Add(fcol[j] == fcol[j0]).OnlyEnforceIf(q)
                    if j0 in rep:  # a Bridge's slot: its replacement came first
                        m.Add(rep[j0]["u"] < u[j]).OnlyEnforceIf([q, brg[j0]])
                    src.setdefault((j0, j), []).append(q)
                    cands.append(q)
                m.Add(sum(cands) == v)
        for j0 in asc:
            m.AddAtMostOne([q for (a, _), lst in src.items() if a == j0 for q in lst])
        self.src = src
        known = {j: self._or([asc[j], camp[j]]) for j in asc}  # not a Bridge's slot

        def camp_on_before(j0: int, t: Any) -> Any:
            """A bool: the content of slot j0 was replaced by a Campfire before time t."""
            ws = []
            for (a, jc), lst in src.items():
                if a != j0:
                    continue
                for q in lst:
                    w = m.NewBoolVar("")
                    m.AddImplication(w, q)
                    m.Add(u[jc] < t).OnlyEnforceIf(w)
                    nw = m.NewBoolVar("")  # not w: q false, or not before t
                    m.AddBoolOr([w, nw])
                    m.AddImplication(w, nw.Not())
                    m.Add(u[jc] >= t).OnlyEnforceIf([nw, q])
                    ws.append(w)
            return self._or(ws)

        def absdiff(a: Any, b: Any) -> Any:
            d = m.NewIntVar(-rules.values, rules.values, "")
            m.Add(d == a - b)
            ad = m.NewIntVar(0, rules.values, "")
            m.AddAbsEquality(ad, d)
            return ad

        free_move = rules.campfire_move_cost == "free"
        look_through = rules.bridge_neighbour == "look-through"
        cost = {}
        for j, (r, k) in enumerate(slots):
            cost[j] = m.NewIntVar(0, H - 1, f"cost{j}")
            if r == R or k == 0:
                m.Add(cost[j] == 0)
                continue
            m.Add(cost[j] == 0).OnlyEnforceIf(brg[j])  # R7: a Bridge costs nothing
            if free_move:
                m.Add(cost[j] == 0).OnlyEnforceIf(camp[j])
            mine = [] if not free_move else [camp[j].Not()]
            jl = sid[r, k - 1]
            both = self._and([known[j], known[jl]])
            m.Add(fcol[j] != fcol[jl]).OnlyEnforceIf(both)  # R5
            o = camp_on_before(jl, u[j])
            m.Add(cost[j] == absdiff(fval[j], fval[jl])).OnlyEnforceIf([both, o.Not()] + mine)
            if k - 2 < 0:
                m.Add(cost[j] == 0).OnlyEnforceIf([o, known[j]] + mine)
            else:
                jl2 = sid[r, k - 2]
                o2 = camp_on_before(jl2, u[j])
                m.Add(cost[j] == absdiff(fval[j], fval[jl2])).OnlyEnforceIf(
                    [o, known[j], known[jl2], o2.Not()] + mine)
        events = [{"u": u[j], "cost": cost[j], "present": None, "slot": j} for j in range(S)]
        for j, e in rep.items():
            r, k = slots[j]
            isb, ur, cr = e["present"], e["u"], e["cost"]
            jl, jr = sid[r, k - 1], sid[r, k + 1]
            ol = camp_on_before(jl, ur)
            m.Add(fcol[j] != fcol[jl]).OnlyEnforceIf([isb, known[jl]])  # R5, both sides
            m.Add(fcol[j] != fcol[jr]).OnlyEnforceIf([isb, known[jr]])
            left = [isb, known[jl], ol.Not()]
            rb = m.NewBoolVar("")  # the right slot is filled before the replacement
            m.Add(u[jr] < ur).OnlyEnforceIf(rb)
            m.Add(u[jr] >= ur).OnlyEnforceIf(rb.Not())
            if rules.bridge_replace_cost == "max":
                orr = camp_on_before(jr, ur)
                right = [isb, known[jr], rb, orr.Not()]
                # max(left, right) when both are known; at least each one
                dl, dr = absdiff(fval[j], fval[jl]), absdiff(fval[j], fval[jr])
                m.Add(cr >= dl).OnlyEnforceIf(left)
                m.Add(cr >= dr).OnlyEnforceIf(right)
                mx = m.NewIntVar(0, rules.values, "")
                m.AddMaxEquality(mx, [dl, dr])
                m.Add(cr == mx).OnlyEnforceIf(left + [known[jr], rb, orr.Not()])
                m.Add(cr == dl).OnlyEnforceIf(left + [rb.Not()])
            else:
                m.Add(cr == absdiff(fval[j], fval[jl])).OnlyEnforceIf(left)
            # the right neighbour's own cost: 0 next to the standing Bridge (zero), else the
            # difference with the replacement
            rmine = [] if not free_move else [camp[jr].Not()]
            if not look_through:
                m.Add(cost[jr] == 0).OnlyEnforceIf([isb, rb] + rmine)
            ob = camp_on_before(j, u[jr])  # the replacement card itself replaced: look-through
            m.Add(cost[jr] == absdiff(fval[jr], fval[j])).OnlyEnforceIf(
                [isb, known[jr], rb.Not(), ob.Not()] + rmine)
            events.append(e)
        for i in range(N):
            m.AddAtMostOne([v for (ii, j), v in x.items() if ii == i] + xr[i])
        # symmetry: of two copies of an Ascent card that are both played, the one nearer the
        # top plays first (swapping them keeps every draw, cost, colour and hand count)
        tcard: dict[int, Any] = {}
        for i, c in enumerate(deck):
            if not c.is_ascent:
                continue
            t = m.NewIntVar(0, U, f"t{i}")
            for (ii, j), v in x.items():
                if ii == i:
                    m.Add(t == u[j]).OnlyEnforceIf(v)
            for j, e in rep.items():
                for ii, v in e["cands"]:
                    if ii == i:
                        m.Add(t == e["u"]).OnlyEnforceIf(v)
            tcard[i] = t
        copies: dict[Any, list[int]] = {}  # deck indices of each Ascent card's copies
        for i, c in enumerate(deck):
            if c.is_ascent:
                copies.setdefault((c.value, c.colour), []).append(i)
        copy_pairs = [(a, b) for idx in copies.values() for a, b in zip(idx, idx[1:])]
        self.events = events
        ivs = []
        for e in events:
            e["end"] = end = m.NewIntVar(0, U + H, "")
            m.Add(end == e["u"] + 1 + e["cost"])
            if e["present"] is None:
                m.Add(end <= N)
                ivs.append(m.NewIntervalVar(e["u"], e["cost"] + 1, end, ""))
            else:
                m.Add(end <= N).OnlyEnforceIf(e["present"])
                ivs.append(m.NewOptionalIntervalVar(e["u"], e["cost"] + 1, end, e["present"], ""))
        m.AddNoOverlap(ivs)
        # the cards a plan plays
        F = {}
        for i in range(N):
            F[i] = self._sum_bool([v for (ii, j), v in x.items() if ii == i] + xr[i])
        for a, b in copy_pairs:
            m.Add(tcard[a] < tcard[b]).OnlyEnforceIf([F[a], F[b]])
        # before[a, b]: event a is present and starts before event b
        before: dict[tuple[int, int], Any] = {}
        for a, ea in enumerate(events):
            for b, eb in enumerate(events):
                if a == b:
                    continue
                q = m.NewBoolVar("")
                if ea["present"] is None:
                    m.Add(ea["u"] < eb["u"]).OnlyEnforceIf(q)
                    m.Add(ea["u"] >= eb["u"]).OnlyEnforceIf(q.Not())
                else:
                    m.AddImplication(q, ea["present"])
                    m.Add(ea["u"] < eb["u"]).OnlyEnforceIf(q)
                    m.Add(ea["u"] >= eb["u"]).OnlyEnforceIf([q.Not(), ea["present"]])
                before[a, b] = q

        def held_at(w: Any, used: Any) -> Any:
            ds = []
            for i in range(N):
                if i < H:
                    ds.append(F[i])
                    continue
                d = m.NewBoolVar("")
                m.Add(w >= i - H + 1).OnlyEnforceIf(d)
                m.Add(w <= i - H).OnlyEnforceIf(d.Not())
                ds.append(self._and([d, F[i]]))
            return sum(ds) - used

        for b, eb in enumerate(events):
            pres = [] if eb["present"] is None else [eb["present"]]
            earlier = sum(before[a, b] for a in range(len(events)) if a != b)
            # parity: before the event, (1 + cost) per earlier event and 2 per discard turn
            terms = []
            for a, ea in enumerate(events):
                if a == b:
                    continue
                w = m.NewIntVar(0, H, "")
                m.AddMultiplicationEquality(w, [before[a, b], ea["cost"] + 1])
                terms.append(w)
            kk = m.NewIntVar(0, U, "")
            m.Add(eb["u"] - sum(terms) == 2 * kk).OnlyEnforceIf(pres)
            # the move: card, cost and held cards in the hand
            hu = held_at(eb["u"], earlier + 1)
            m.Add(1 + eb["cost"] + hu <= H).OnlyEnforceIf(pres)
            m.Add(1 + eb["cost"] + hu <= N - eb["u"]).OnlyEnforceIf(pres)  # the deck's end
            # the last discard turn before it, when a gap precedes it
            adj = []
            for a, ea in enumerate(events):
                if a == b:
                    continue
                q = m.NewBoolVar("")
                m.Add(ea["end"] == eb["u"]).OnlyEnforceIf(q)
                m.Add(ea["end"] != eb["u"]).OnlyEnforceIf(q.Not())
                if ea["present"] is not None:
                    m.AddImplication(q, ea["present"])
                adj.append(q)
            z = m.NewBoolVar("")
            m.Add(eb["u"] == 0).OnlyEnforceIf(z)
            m.Add(eb["u"] != 0).OnlyEnforceIf(z.Not())
            gap = m.NewBoolVar("")
            m.AddBoolOr(adj + [z]).OnlyEnforceIf(gap.Not())
            for q in adj + [z]:
                m.AddImplication(q, gap.Not())
            hg = held_at(eb["u"] - 2, earlier)
            m.Add(2 + hg <= H).OnlyEnforceIf([gap] + pres)
            m.Add(2 + hg <= N - (eb["u"] - 2)).OnlyEnforceIf([gap] + pres)

    def _sum_bool(self, vs: list[Any]) -> Any:
        b = self.model.NewBoolVar("")
        self.model.Add(b == sum(vs)) if vs else self.model.Add(b == 0)
        return b

    def _and(self, vs: list[Any]) -> Any:
        m = self.model
        b = m.NewBoolVar("")
        m.AddBoolAnd(vs).OnlyEnforceIf(b)
        m.AddBoolOr([v.Not() for v in vs]).OnlyEnforceIf(b.Not())
        return b

    def _or(self, vs: list[Any]) -> Any:
        m = self.model
        b = m.NewBoolVar("")
        if not vs:
            m.Add(b == 0)
            return b
        m.AddBoolOr(vs).OnlyEnforceIf(b)
        for v in vs:
            m.AddImplication(v, b)
        return b

    def decode(self, solver: cp_model.CpSolver) -> list[Move] | None:
        """The solution as moves, replayed by :class:`~model.game.Game`: discard turns in the
        gaps (the first junk cards of the hand), each event's card with the engine's cost
        paid in junk. ``None`` when the engine refuses a move (the solution is not a real
        play: the model proved nothing)."""
        deck, H, R = self.deck, self.H, self.R
        plan = []
        for e in self.events:
            if e["present"] is not None and not solver.Value(e["present"]):
                continue
            ue = solver.Value(e["u"])
            if e["slot"] is not None:
                j = e["slot"]
                who = next(i for (i, jj), v in self.x.items() if jj == j and solver.Value(v))
                source = None
                if deck[who].is_campfire:
                    source = next(self.slots[j0] for (j0, jj), lst in self.src.items()
                                  if jj == j for q in lst if solver.Value(q))
                plan.append((ue, self.slots[j], who, source))
            else:
                who = next(i for i, v in e["cands"] if solver.Value(v))
                plan.append((ue, self.slots[e["rep"]], who, None))
        plan.sort()
        played = {who for _, _, who, _ in plan}
        game = Game(self.deal)
        moves: list[Move] = []
        consumed = 0
        gone: set[int] = set()

        def hand() -> list[int]:
            return [i for i in range(min(self.N, H + consumed)) if i not in gone]

        def junk(k: int, avoid: int) -> list[int]:
            return [i for i in hand() if i not in played and i != avoid][:k]

        for ue, (r, k), who, source in plan:
            while consumed < ue:
                j2 = junk(2, -1)
                if len(j2) < 2:
                    return None
                mv = Move(DISCARD, 1, discard=tuple(deck[i] for i in j2))
                try:
                    game.push(mv)
                except Exception:  # noqa: BLE001 - the engine's refusal: not a real play
                    return None
                moves.append(mv)
                gone.update(j2)
                consumed += 2
            if who not in hand():
                return None
            card = deck[who]
            for cost in range(H):
                pay = junk(cost, who)
                if len(pay) < cost:
                    return None
                dc = tuple(deck[i] for i in pay)
                if card.is_campfire:
                    mv = Move(CAMPFIRE, 1, card, source[0] + 1, source[1] + 1, r + 1, k + 1, dc)
                elif r == R:
                    mv = Move(PLACE, 1, card, R + 1, 1, discard=dc)
                else:
                    mv = Move(PLACE, 1, card, r + 1, k + 1, discard=dc)
                try:
                    game.push(mv)
                except Exception:  # noqa: BLE001 - wrong cost or an illegal move
                    continue
                moves.append(mv)
                gone.add(who)
                gone.update(pay)
                consumed += 1 + cost
                break
            else:
                return None
        return moves if game.is_won() else None


def build_loss_model(deal: Deal) -> LossModel:
    """The loss model of the solo ``deal`` (see the module docstring). Raises ``ValueError``
    for 2–5 players."""
    return LossModel(deal)


def solve_loss_model(deal: Deal, time_limit: float | None = None, workers: int = 1,
                     seed: int = 0, verbose: bool = False
                     ) -> tuple[str, list[Move] | None, dict[str, Any]]:
    """Run the loss model of the solo ``deal``: ``("infeasible", None, stats)`` is a proof
    that the deal is lost; ``("candidate", moves, stats)`` a solution, with ``moves`` the
    winning plan when the engine replays it as a win (else ``None``); ``("unknown", None,
    stats)`` when ``time_limit`` (seconds, building the model included) ran out first.
    ``verbose``: CP-SAT's search log on standard error."""
    from solver.cpsat import _solve_interruptibly

    t = time.perf_counter()
    lm = build_loss_model(deal)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.random_seed = int(seed)
    if time_limit is not None:  # what the build left of the limit
        solver.parameters.max_time_in_seconds = max(0.01, time_limit - (time.perf_counter() - t))
    if verbose:  # standard output is the answer (--json)
        import sys

        solver.parameters.log_search_progress = True
        solver.parameters.log_to_stdout = False
        solver.log_callback = lambda line: print(line, file=sys.stderr, flush=True)
    status, interrupted = _solve_interruptibly(solver, lm.model)
    stats = {"status": solver.status_name(status), "branches": solver.num_branches,
             "conflicts": solver.num_conflicts, "seconds": round(time.perf_counter() - t, 3),
             "variables": len(lm.model.proto.variables),
             **({"interrupted": True} if interrupted else {})}
    if status == cp_model.INFEASIBLE:
        return INFEASIBLE, None, stats
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return CANDIDATE, lm.decode(solver), stats
    return UNKNOWN_STATUS, None, stats


__all__ = ["CANDIDATE", "INFEASIBLE", "LossModel", "UNKNOWN_STATUS", "build_loss_model",
           "solve_loss_model"]
