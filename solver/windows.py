"""The per-player deck-window bound on the waste still to spend, 2–5 players.

Notation, from the current position: ``S`` slots still to fill (the peak included), ``nb``
Bridges on the mountain, ``out`` the cards that will still leave the players' hands (played or
discarded) until the win. Every card that leaves a hand either ends on the mountain or is
waste; the cards that end on the mountain from now on fill the ``S`` slots and replace the
``nb`` Bridges, and each Bridge still to be placed is replaced too, so

    waste to go = out − S                                  (1)

(a replaced Bridge is waste but not a card out of a hand; a Bridge placed later is a card
out that ends as waste; the two terms cancel).

Let ``n`` be the moves still to play, the Summit's move included. At least one move fills
each slot and replaces each Bridge, so ``n = N0 + e`` with ``N0 = S + nb`` and ``e ≥ 0``; at
most ``e`` of the ``n`` moves are not placements (R11: a move is one card played or two
discarded). Turns go round (R11), so player ``q`` makes exactly ``t_q(n)`` of them, and:

* each move takes at least one card out of the mover's hand: ``out_q ≥ t_q``;
* ``q`` makes at least ``t_q − e`` placements, each of a different card of its own hand
  (R13: own deck), none of them dead (:meth:`~solver.state.State.dead_flags`). A card at
  deck index ``r`` past the pointer is in the hand only after ``r + 1 − d`` cards left it
  (``d``: cards the hand lacks now), and then leaves it itself: ``out_q ≥ r + 2 − d`` for
  the ``(t_q − e)``-th usable card;
* the last move is the Summit's (R10), by player ``(to_move + n − 1) mod P``: a Summit must
  be in that player's window likewise;
* for every height ``h`` (R4) the cards that can fill rows ``≥ h`` must, over all windows
  (each hand plus the first ``out_q − 1 + d`` cards of its deck), cover the empty slots and
  Bridges of rows ``≥ h``; one more card out adds at most one card to one window, so a
  shortfall of ``D`` cards costs at least ``D`` more cards out.

The bound is the minimum over ``e`` of the sum of these per-player minima (plus the
shortfall) minus ``S``; it is at least ``nb + e`` for each ``e``, which ends the minimum.
It is a cost *to go*: it holds from any position (a deal or a mid-game :class:`Game`).
Switch: ``window_players`` (:class:`~solver.state.Switches`).
"""

from __future__ import annotations

from solver.state import INF, State


class PlayerWindows(State):
    """Mixin of :class:`solver.bounds.Bounds`: :meth:`players_window_bound` on the compact
    state (:class:`solver.state.State`)."""

    def _pw_static(self) -> tuple:
        """Per player: the next Summit at or after each deck index, and per height ``h`` the
        cards that can fill rows ≥ h (R4, Campfires count for every row) before each index."""
        st = self.__dict__.get("_pw_static_tables")
        if st is None:
            mr = self.t.maxrow
            summit = self.t.summit
            nxt_all, qual_all = [], []
            for deck in self.decks:
                n = len(deck)
                nxt = [INF] * (n + 1)
                for i in range(n - 1, -1, -1):
                    nxt[i] = i if deck[i] == summit else nxt[i + 1]
                nxt_all.append(nxt)
                qual: list[list[int] | None] = [None]
                for h in range(1, self.R + 1):
                    before = [0] * (n + 1)
                    for i, c in enumerate(deck):
                        before[i + 1] = before[i] + (mr[c] >= h)
                    qual.append(before)
                qual_all.append(qual)
            st = (nxt_all, qual_all)
            self.__dict__["_pw_static_tables"] = st
        return st

    def _pw_usable(self, flags) -> list[tuple[list[int], list[int]]]:
        """Per player, for the dead-card ``flags``: deck indices of the cards that are not
        dead, and how many of them stand before each index (cached per ``flags``)."""
        cache = self.__dict__.setdefault("_pw_usable_cache", {})
        tab = cache.get(flags)
        if tab is None:
            cm = self.canon_map(flags)
            tab = []
            for deck in self.decks:
                pos = [i for i, c in enumerate(deck) if cm[c] == c]
                before = [0] * (len(deck) + 1)
                for i, c in enumerate(deck):
                    before[i + 1] = before[i] + (cm[c] == c)
                tab.append((pos, before))
            cache[flags] = tab
        return tab

    def players_window_bound(self, budget: int = INF) -> int:
        """A lower bound on the waste still to spend (``INF``: no win), 2–5 players; see the
        module docstring. With ``budget``, the minimum stops once it is above ``budget``
        (the answer is then some value > ``budget``)."""
        P = self.P
        R = self.R
        S = self._slots_total - self.filled
        nb = self.n_bridges
        N0 = S + nb
        flags = self.dead_flags()
        cm = self.canon_map(flags)
        nxt_all, qual_all = self._pw_static()
        usable = self._pw_usable(flags)
        hands, decks, ptrs = self.hands, self.decks, self.ptr
        hs = self.hand_size
        to_move = self.to_move
        mr = self.t.maxrow
        summit = self.t.summit
        # empty slots and Bridges of rows >= h
        need = [0] * (R + 2)
        rows, rowlen, bridge = self.rows, self.rowlen, self.t.bridge
        acc = 0
        for h in range(R, 0, -1):
            row = rows[h - 1]
            acc += rowlen[h - 1] - len(row)
            if nb:
                acc += row.count(bridge)
            need[h] = acc
        hu, hdef, left, hq, srq = [], [], [], [], []
        for q in range(P):
            hand = hands[q]
            hu.append(sum(1 for c in hand if cm[c] == c))
            d = max(0, hs - len(hand))
            hdef.append(d)
            left.append(len(hand) + len(decks[q]) - ptrs[q])
            hq.append([0] + [sum(1 for c in hand if mr[c] >= h) for h in range(1, R + 1)])
            if summit in hand:
                srq.append(1)
            else:
                ns = nxt_all[q][ptrs[q]]
                srq.append(INF if ns >= INF else ns - ptrs[q] + 2 - d)
        best = INF
        e = 0
        while N0 + e <= self.n_remaining:
            if nb + e >= best or nb + e > budget:
                break
            n = N0 + e
            qlast = (to_move + n - 1) % P
            total = 0
            outs = []
            for q in range(P):
                t = (n - (q - to_move) % P + P - 1) // P
                o = t
                m = t - e
                if m > hu[q]:
                    pos, before = usable[q]
                    idx = before[ptrs[q]] + (m - hu[q]) - 1
                    if idx >= len(pos):
                        o = INF
                        break
                    r = pos[idx] - ptrs[q] + 2 - hdef[q]
                    if r > o:
                        o = r
                if q == qlast and srq[q] > o:
                    o = srq[q]
                if o > left[q]:
                    o = INF
                    break
                outs.append(o)
                total += o
            if len(outs) == P:
                extra = 0
                for h in range(1, R + 1):
                    have = 0
                    for q in range(P):
                        p0 = ptrs[q]
                        w = outs[q] - 1 + hdef[q]
                        end = min(len(decks[q]), p0 + w) if w > 0 else p0
                        qb = qual_all[q][h]
                        have += hq[q][h] + qb[end] - qb[p0]
                    short = need[h] - have
                    if short > extra:
                        extra = short
                lb = total + extra - S
                if lb < best:
                    best = lb
            e += 1
        return best

    def players_turns_bound(self, budget: int = INF) -> int:
        """A lower bound on the moves still to play (``INF``: no win), 2–5 players: the
        smallest ``n = N0 + e`` (see the module docstring) such that every player has at
        least ``t_q(n)`` cards left (each move takes one out of the mover's hand, R11), at
        least ``t_q(n) − e`` cards left that are not dead (its placements), and the player
        of the last move holds or will draw a Summit (R10). Stops above ``budget``."""
        P = self.P
        S = self._slots_total - self.filled
        nb = self.n_bridges
        N0 = S + nb
        flags = self.dead_flags()
        cm = self.canon_map(flags)
        usable = self._pw_usable(flags)
        nxt_all, _ = self._pw_static()
        hands, decks, ptrs = self.hands, self.decks, self.ptr
        summit = self.t.summit
        to_move = self.to_move
        left, live, has_summit = [], [], []
        for q in range(P):
            hand = hands[q]
            left.append(len(hand) + len(decks[q]) - ptrs[q])
            pos, before = usable[q]
            live.append(sum(1 for c in hand if cm[c] == c) + len(pos) - before[ptrs[q]])
            has_summit.append(summit in hand or nxt_all[q][ptrs[q]] < INF)
        n = N0
        while n <= self.n_remaining and n <= budget:
            e = n - N0
            if has_summit[(to_move + n - 1) % P]:
                ok = True
                for q in range(P):
                    t = (n - (q - to_move) % P + P - 1) // P
                    if t > left[q] or t - e > live[q]:
                        ok = False
                        break
                if ok:
                    return n
            n += 1
        return INF if budget >= INF else budget + 1
