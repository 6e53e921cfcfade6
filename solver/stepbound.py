"""The frontier-step bound: a lower bound on the waste still to spend from the steps that
the next card of every row must pay (R6, R8), added to the Bridges' replacement costs.

Each row with an empty slot has a *frontier*, its next slot to fill. Some move must fill it
before the Summit (R11), and the moves that fill different rows' frontiers, and the moves
that replace the Bridges standing, are all different moves. So their least costs add up:

* an Ascent card of value ``v`` left in a hand or deck, fitting the row (R4) and differing
  in colour from the card left of the slot (R5; a Campfire that later takes that card's place
  has its colour), pays ``|v − u|`` for the reference ``u`` the slot will have, taken at its
  most favourable (:meth:`solver.bounds.Bounds._reference_options`: a Campfire may still move
  the card left of it away; a Bridge or no card gives no reference, cost 0);
* a Bridge left (not in the first or last slot of the row) costs nothing now but leaves the
  game when replaced (R8): at least 1;
* a Campfire left may move a card up into rows ≥ 2 (R9): 0 (its cost, if paid, is not
  counted).

The row's term is the least of these; a row whose frontier nothing left can fill makes the
bound ``INF`` (no win). The bound is ``nb + bridge_costs + Σ rows``; :meth:`Bounds.root_bound
<solver.bounds.Bounds.root_bound>` takes the largest of it and the other waste bounds (switch
``step_bound``). It is a relaxation of the reordering buffer in which every row's first step
is paid from everything left, whatever the hand holds when it is paid.
"""

from __future__ import annotations

from typing import Any

from solver.state import INF, K_ASCENT

#: A search state with the bounds' helpers (:class:`solver.bounds.Bounds`; not imported:
#: the bounds module imports this one).
Bounds = Any


def row_steps(s: Bounds, detail: list | None = None) -> int:
    """The least cards that filling the frontier slot of every row must still cost, summed
    over the rows (``INF`` when a frontier can never be filled). ``s``: a search state
    (:class:`solver.bounds.Bounds`) at any position, any number of players. ``detail``: a
    list that receives ``(row, cost)`` for each row with an empty slot (0-based)."""
    t = s.t
    kind, value, colour, maxrow = t.kind, t.value, t.colour, t.maxrow
    rem = s.remaining
    camp = 0
    for c in t.campfire_ids:
        if rem[c]:
            camp |= 1 << colour[c]
    bridge_left = t.bridge >= 0 and rem[t.bridge] > 0
    total = 0
    for r, row in enumerate(s.rows):
        n = len(row)
        if n == s.rowlen[r]:
            continue
        if n == 0:
            if detail is not None:
                detail.append((r, 0))
            continue
        best = INF
        if camp and r >= 1:
            best = 0
        if bridge_left and 0 < n < s.rowlen[r] - 1:
            best = min(best, 1)
        if best:
            left = s._reference_options(row, n - 1, -1, r, camp)
            lc = colour[row[n - 1]]
            for c in range(t.dead):
                if kind[c] != K_ASCENT or not rem[c] or maxrow[c] < r + 1 or colour[c] == lc:
                    continue
                v = value[c]
                cost = min(abs(v - x) if x >= 0 else 0 for x in left)
                if cost < best:
                    best = cost
                    if best == 0:
                        break
        if detail is not None:
            detail.append((r, best))
        if best >= INF:
            return INF
        total += best
    return total


def step_bound(s: Bounds) -> int:
    """Waste still to spend (cards out of the game) at least: every Bridge standing leaves
    (R8), its replacement costs at least :meth:`~solver.bounds.Bounds.bridge_costs`, and every
    row's frontier at least :func:`row_steps`. ``INF`` when no win can exist."""
    nb = s.n_bridges
    extra = s.bridge_costs() if nb else 0
    steps = row_steps(s)
    if extra >= INF or steps >= INF:
        return INF
    return nb + extra + steps
