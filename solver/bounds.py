"""Bounds of the exhaustive search: when no win (within a budget) can exist from a state.

A state is abandoned when (a) no Summit is left in any hand or deck; (b) for some height h
the Ascent cards of value ≥ h still to play plus the Campfires cannot fill the empty slots
and Bridges of rows ≥ h (R4: each such card fills at most one of them); (c) the cards left
cannot cover the empty slots and the Bridges to replace, in all and (2–5 players, R12) for
each player's turns; (d) the objective's lower bound exceeds the budget (turns: one move per
slot still to fill, and 2–5 players the turn order, see
:meth:`solver.windows.PlayerWindows.players_turns_bound`; waste: every Bridge on the
mountain, and solo the deck prefix that must be drawn, see :meth:`Bounds.waste_lower_bound`;
2–5 players each player's own deck window, see
:meth:`solver.windows.PlayerWindows.players_window_bound`). Every bound is a cost *to go*, so
it holds from any start position.

Each of (a)–(d) is an object of :mod:`solver.bound_set` (its ``lower``, its ``pruned`` key and
its witness); :meth:`Bounds.bound_fails` asks them in order. This mixin holds what they read
of the state: the waste lower bound, the deck prefix, the Bridges' costs, the root's bound.
"""

from __future__ import annotations

from solver.bound_set import BOUNDS
from solver.nogood import Nogoods
from solver.state import INF, K_ASCENT, K_CAMPFIRE, State
from solver.windows import PlayerWindows

_fails = BOUNDS.fails


class Bounds(Nogoods, PlayerWindows, State):
    """The bounds on a :class:`~solver.state.State`. Counts the states each bound cuts in
    ``pruned`` (set by the search)."""

    pruned: dict[str, int]
    tt: dict[bytes, int]

    def bound_fails(self, budget: int) -> bool:
        """True when no win within ``budget`` can exist from here: the first bound of
        :data:`solver.bound_set.BOUNDS` that cuts counts in ``pruned``."""
        return _fails(self, budget)

    def _prepare_waste_tables(self) -> None:
        """Solo: per height h, deck positions of the cards that can fill rows ≥ h and how many
        stand before each position; the next Summit at or after each position."""
        deck = self.decks[0]
        n = len(deck)
        mr = self.t.maxrow
        qual_before: list[list[int]] = [[]]
        for h in range(1, self.R + 1):
            before = [0] * (n + 1)
            for i, c in enumerate(deck):
                before[i + 1] = before[i] + (mr[c] >= h)
            qual_before.append(before)
        nxt = [INF] * (n + 1)
        for i in range(n - 1, -1, -1):
            nxt[i] = i if deck[i] == self.t.summit else nxt[i + 1]
        # all three at once, qual_pos last (waste_lower_bound tests for it): a Ctrl-C that
        # lands while they are computed leaves none of them half-made
        self.qual_before, self.next_summit = qual_before, nxt
        self.qual_pos: list[list[int]] = [[]] + [[i for i, c in enumerate(deck) if mr[c] >= h]
                                                 for h in range(1, self.R + 1)]

    def waste_lower_bound(self, budget: int = INF) -> int:
        """Cards that must still leave the game (INF if no win is possible; with ``budget``,
        2–5 players, any value above ``budget`` once it is known to be above it).

        Every Bridge on the mountain leaves the game when replaced, and its replacement costs
        at least :meth:`bridge_costs` (switch ``bridge_costs``). Solo, moreover: let k be the
        shortest stretch of the deck of :meth:`solo_prefix`. Each card played or spent draws
        one card, so reaching the k-th card and playing it spends at least k + 1 cards, of
        which at most E (the slots still to fill, the peak included, and the Bridges to
        replace) end on the mountain: at least k + 1 - E are discarded. 2–5 players: the
        per-player deck windows of :meth:`~solver.windows.PlayerWindows.players_window_bound`.
        The parts may count the same cards (a replacement may be paid with the cards that
        reaching deep into the deck takes out), so the bound is the largest of them.
        """
        nb = self.n_bridges
        floor = nb
        if nb and self.sw.bridge_costs:
            extra = self.bridge_costs()
            if extra >= INF:
                return INF
            floor = nb + extra
        if self.P != 1:
            base = self.players_window_bound(budget) if self.sw.window_players else nb
            return max(base, floor)
        k, _ = self.solo_prefix()
        if k >= INF:
            return INF
        if k == 0:
            return floor
        e = self._slots_below_peak - self.filled + nb + 1
        return max(floor, nb + max(0, k + 1 - e))

    def solo_prefix(self) -> tuple[int, int]:
        """Solo: ``(k, h)``: the shortest stretch of the deck (``k`` cards from the next one to
        draw) that, with the hand, holds a Summit (``h = 0``) and, for every height h, enough
        cards to fill the empty slots and Bridges of rows ≥ h (R4); ``h`` is the requirement
        that set ``k`` (``-1``: none, ``k = 0``). ``k`` is ``INF`` when the deck cannot meet
        one of them."""
        if not hasattr(self, "qual_pos"):
            self._prepare_waste_tables()
        hand = self.hands[0]
        ptr = self.ptr[0]
        mr = self.t.maxrow
        nb = self.n_bridges
        k, why = 0, -1
        if self.t.summit not in hand:
            ns = self.next_summit[ptr]
            if ns >= INF:
                return INF, 0
            k, why = ns - ptr + 1, 0
        rows, rowlen, bridge = self.rows, self.rowlen, self.t.bridge
        need = 0
        for h in range(self.R, 0, -1):
            row = rows[h - 1]
            need += rowlen[h - 1] - len(row)
            if nb:
                need += row.count(bridge)
            m = need
            for c in hand:
                if mr[c] >= h:
                    m -= 1
            if m > 0:
                idx = self.qual_before[h][ptr] + m - 1
                pos = self.qual_pos[h]
                if idx >= len(pos):
                    return INF, h
                kk = pos[idx] - ptr + 1
                if kk > k:
                    k, why = kk, h
        return k, why

    def bridge_costs(self, detail: list | None = None) -> int:
        """The least cards that replacing the Bridges standing must still cost (R8), summed
        over the Bridges; ``INF`` when one can never be replaced (no card left that may go
        there, or every one would cost more than a hand can pay).

        For each Bridge, the candidates are the Ascent cards left (in hands and decks) that
        fit its row (R4) and differ in colour from its coloured neighbours (R5; a Campfire
        put on a neighbour later has the neighbour's colour). The cost of a candidate of
        value ``v`` is ``max(|v − left|, |v − right|)`` (``left`` only under
        ``bridge_replace_cost=left``), each side's reference taken at its most favourable
        (:meth:`_reference_options`: a side with no card yet, or a Bridge, adds nothing).
        Each replacement is a move of its own, so the least costs add up. ``detail``: a list
        that receives ``(row, slot, cost, card)`` for each Bridge (0-based; ``card`` the id
        of a cheapest candidate, ``-1`` for none)."""
        t = self.t
        kind, value, colour, maxrow = t.kind, t.value, t.colour, t.maxrow
        rem = self.remaining
        camp = 0  # colours with a Campfire left in a hand or deck
        for c in t.campfire_ids:
            if rem[c]:
                camp |= 1 << colour[c]
        if self.colourless:  # solver.abstraction: a Campfire moves any card, no R5 block
            camp = -1 if camp else 0
        most = self.hand_size - 1
        bridge = t.bridge
        total = 0
        for r, row in enumerate(self.rows):
            for s, b in enumerate(row):
                if b != bridge:
                    continue
                left = self._reference_options(row, s - 1, -1, r, camp)
                right = self._reference_options(row, s + 1, 1, r, camp) if self.bridge_max else (-1,)
                lc = colour[row[s - 1]] if s > 0 and not self.colourless else -9
                rc = colour[row[s + 1]] if s + 1 < len(row) and not self.colourless else -9
                best, arg = INF, -1
                for c in range(t.dead):
                    if kind[c] != K_ASCENT or not rem[c] or maxrow[c] < r + 1:
                        continue
                    col = colour[c]
                    if col in (lc, rc):
                        continue
                    v = value[c]
                    a = min(abs(v - x) if x >= 0 else 0 for x in left)
                    w = min(abs(v - x) if x >= 0 else 0 for x in right)
                    cost = a if a > w else w
                    if cost < best:
                        best, arg = cost, c
                if detail is not None:
                    detail.append((r, s, best, arg))
                if best > most:
                    return INF
                total += best
        return total

    def _reference_options(self, row: list[int], i: int, step: int, r: int, camp: int) -> tuple[int, ...]:
        """The reference values (R6, R8) that the walk from index ``i`` of row ``r`` in
        direction ``step`` may still give: the Ascent card it meets and, where a Campfire of
        its colour is left and the card could move up (R9), what lies beyond it; ``-1``
        stands for no reference (the row's end, a slot still empty, a Bridge)."""
        t = self.t
        kind, value, colour, maxrow = t.kind, t.value, t.colour, t.maxrow
        out = []
        n = len(row)
        while 0 <= i < n:
            c = row[i]
            k = kind[c]
            if k == K_CAMPFIRE:
                i += step
                continue
            if k != K_ASCENT:  # a Bridge: it may be replaced by any card before
                out.append(-1)
                return tuple(out)
            out.append(value[c])
            if (camp >> colour[c]) & 1 and maxrow[c] > r + 1:
                i += step
                continue
            return tuple(out)
        out.append(-1)
        return tuple(out)

    def root_bound(self) -> int:
        """Proven lower bound on the objective at the start: the table's entry for the
        start position, or (turns) one move per slot. Call it on the start position only
        (:func:`solve` restores it after a limit stops the search mid-line)."""
        if self.objective == "none":
            return 0
        flags = self.dead_flags()
        lb = self.tt.get(self.learned_key(flags), 0) if self.sw.transposition else 0
        proven = self.__dict__.get("proven_lb")  # budgets that failed here (solver.frontier)
        if proven is not None and proven[0] == self.snapshot():
            lb = max(lb, proven[1])
        if self.objective == "turns":
            lb = max(lb, self._slots_below_peak - self.filled + self.n_bridges + 1)
            if self.P > 1 and self.sw.window_players:
                lb = max(lb, self.players_turns_bound())
        if self.objective == "waste":
            lb = max(lb, self.waste_lower_bound())
            if self.sw.step_bound and lb < INF:
                from solver.stepbound import step_bound

                lb = max(lb, step_bound(self))
        return lb
