"""Nogood learning: what the transposition table learns holds for every state with the same
*relevant part*, not only for the state it was learned on.

When the search proves a state lost (objective ``none``: no win at all) or proves a lower
bound on the cost still to pay (``waste``, ``turns``), it stores the result under a key. The
plain key (:meth:`~solver.state.State.key`) holds the whole mountain. But the proof below a
state can only ever use part of it: the **row fronts**. Every rule that looks at a row looks
at its end (the reference value of the next card, R6, and the colour of the last card, R5),
at its Bridges and their neighbours (R8), or at a card a Campfire can still move (R9). Walking
left from the end or from a Bridge, the reference stops at the first Ascent card; so the
cards left of the row's *anchor* can never be seen again once no Campfire can move them.

The anchor of a row is the rightmost Ascent card standing left of every Bridge of the row
such that neither it nor any card left of it is *movable* (an Ascent card ``x`` in row ``r``
is movable while a Campfire of ``x``'s colour is left in a hand or deck and ``x`` may stand
in a higher row, R9). The learned key (:meth:`Nogoods.learned_key`) writes such a row as its
length and the cards from the anchor on; everything left of the anchor is dropped.

Why this is exact (two states with the same learned key have the same wins at the same costs):
the moves of a state and their costs depend only on the row lengths, the ends, the Bridges
and their neighbours, the movable cards, the hands and the deck pointers; all are in the
learned key. A move changes a row only right of its anchor (a placement at the end, a
replaced Bridge, a movable card replaced by a Campfire); a card that is not movable never
becomes movable (Campfires only leave the game), so an anchor stays an anchor and the anchor
after the move is found from the cards kept. Hence equal learned keys go to equal learned
keys by the same moves, and the two states are bisimilar. The tests check it against the
naive reference from random mid-game positions.

Switch ``nogood`` of :func:`solver.solve` (on by default); it changes only which states share
a table entry, so the answers with it off are the same (fewer table hits).
"""

from __future__ import annotations

from solver.state import K_ASCENT, K_BRIDGE, State

#: Byte that starts a row written from its anchor (card ids are below 250; 254 ends a row).
FRONT_MARK = 253


class Nogoods(State):
    """Mixin of :class:`solver.exhaustive.Search`: the key under which the table learns."""

    def campfire_colours_left(self) -> set[int]:
        """Colours of the Campfires still in a hand or deck (R9: only these can move a card)."""
        t = self.t
        rem = self.remaining
        live = {t.colour[c] for c in t.campfire_ids if rem[c] > 0}
        if live and self.colourless:  # solver.abstraction: a Campfire moves any colour
            return set(range(-1, len(t.rules.colour_letters)))
        return live

    def row_anchor(self, r: int, live: set[int]) -> int:
        """Index of row ``r``'s anchor (0-based row; see the module docstring), or -1 when
        the row has none. ``live``: :meth:`campfire_colours_left`."""
        t = self.t
        kind, colour, maxrow = t.kind, t.colour, t.maxrow
        anchor = -1
        for i, c in enumerate(self.rows[r]):
            k = kind[c]
            if k == K_BRIDGE:
                break
            if k == K_ASCENT:
                if colour[c] in live and maxrow[c] > r + 1:
                    break  # movable: no anchor at or right of it
                anchor = i
        return anchor

    def learned_key(self, flags) -> bytes:
        """The key of the transposition table with the switch ``nogood``: :meth:`key` with
        every row written from its anchor (``FRONT_MARK``, the row's length, the cards from
        the anchor on). Off: :meth:`key` itself."""
        if not self.sw.nogood:
            return self.key(flags)
        live = self.campfire_colours_left()
        parts = [self.to_move]
        for r, row in enumerate(self.rows):
            a = self.row_anchor(r, live)
            if a > 0:
                parts.append(FRONT_MARK)
                parts.append(len(row))
                parts.extend(row[a:])
            else:
                parts.extend(row)
            parts.append(254)
        dominance = self.sw.dominance
        for p in range(self.P):
            parts.extend(self.canonical_hand(self.hands[p], flags) if dominance else self.hands[p])
            parts.append(254)
            parts.append(self.ptr[p] >> 8)
            parts.append(self.ptr[p] & 255)
        return bytes(parts)


__all__ = ["FRONT_MARK", "Nogoods"]

