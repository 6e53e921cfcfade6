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

    def row_front_parts(self, anchored: bool) -> list[int]:
        """The start of a key: the player to move, then each row and 254; with ``anchored``
        a row with an anchor (:meth:`row_anchor`) is written as ``FRONT_MARK``, its length
        and the cards from the anchor on."""
        live = self.campfire_colours_left()
        parts = [self.to_move]
        for r, row in enumerate(self.rows):
            a = self.row_anchor(r, live) if anchored else -1
            if a > 0:
                parts.append(FRONT_MARK)
                parts.append(len(row))
                parts.extend(row[a:])
            else:
                parts.extend(row)
            parts.append(254)
        return parts

    def dominance_parts(self, flags) -> tuple[bytes, tuple[tuple[int, ...], ...], tuple[bool, ...]]:
        """For :class:`DominanceStore`: the base (player to move, row fronts as in
        :meth:`learned_key`, deck pointers), the canonical hands, and which decks are
        empty."""
        parts = self.row_front_parts(self.sw.nogood)
        for p in range(self.P):
            parts.append(self.ptr[p] >> 8)
            parts.append(self.ptr[p] & 255)
        hands = tuple(tuple(self.canonical_hand(h, flags)) for h in self.hands)
        exhausted = tuple(self.ptr[p] >= len(self.decks[p]) for p in range(self.P))
        return bytes(parts), hands, exhausted

    def dominance_worth_asking(self, hands: tuple[tuple[int, ...], ...],
                               exhausted: tuple[bool, ...]) -> bool:
        """Whether a learned state could dominate this one without being it: some hand
        holds a dead card, or is short of a full hand with its deck empty."""
        dead = self.t.dead
        return any((h and h[-1] == dead) or (e and len(h) < self.hand_size)
                   for h, e in zip(hands, exhausted))

    def learned_key(self, flags) -> bytes:
        """The key of the transposition table with the switch ``nogood``: :meth:`key` with
        every row written from its anchor (``FRONT_MARK``, the row's length, the cards from
        the anchor on). Off: :meth:`key` itself."""
        if not self.sw.nogood:
            return self.key(flags)
        parts = self.row_front_parts(True)
        self.extend_with_hands(parts, flags)
        return bytes(parts)


__all__ = ["FRONT_MARK", "Nogoods"]



#: Learned nogoods kept for each base (row fronts, deck pointers, player to move): the
#: oldest gives way to a new one.
DOMINANCE_WAYS = 4


class DominanceStore:
    """Learned nogoods matched by **dominance** (switch ``nogood_dominance``): a state proven
    to have no win of cost below ``v`` (``INF``: no win at all) also rules out every state
    with the same row fronts, deck pointers and player to move whose hands are *worse*:
    each hand is the learned hand with some live cards replaced by dead ones (a dead card can
    only be discarded or paid, which any card can), or, for a player whose deck is empty,
    the learned hand with cards taken out. Proof: the better state can play every line of
    the worse one, move for move, at the same cost (it pays with a live card where the worse
    one pays with a dead one, and draws the same cards, since its hands are as large), so a
    win of the worse one would be a win of the better one.

    Capped: at most ``cap`` learned states; a full store is emptied (its bases are
    forgotten, never a wrong answer). The compiled core keeps the same store, entry for
    entry, so that the two searches visit the same nodes."""

    def __init__(self, cap: int) -> None:
        self.cap = max(DOMINANCE_WAYS, cap)
        self.store: dict[bytes, list[tuple[tuple[tuple[int, ...], ...], int]]] = {}
        self.count = 0
        self.hits = 0

    def add(self, base: bytes, hands: tuple[tuple[int, ...], ...], val: int) -> None:
        """Learn ``hands`` (canonical, sorted) under ``base`` with bound ``val``."""
        if self.count >= self.cap:
            self.store.clear()
            self.count = 0
        lst = self.store.setdefault(base, [])
        if len(lst) >= DOMINANCE_WAYS:
            lst.pop(0)
            self.count -= 1
        lst.append((hands, val))
        self.count += 1

    def bound(self, base: bytes, hands: tuple[tuple[int, ...], ...], dead: int,
              exhausted: tuple[bool, ...]) -> int:
        """The largest learned bound of a state that dominates one with ``hands`` (0: none).
        ``dead``: the dead id; ``exhausted[p]``: player ``p``'s deck is empty."""
        lst = self.store.get(base)
        if not lst:
            return 0
        best = 0
        for learned, val in lst:
            if val > best and _dominates(learned, hands, dead, exhausted):
                best = val
        return best


def _dominates(better: tuple[tuple[int, ...], ...], worse: tuple[tuple[int, ...], ...],
               dead: int, exhausted: tuple[bool, ...]) -> bool:
    """Each hand of ``worse`` is the hand of ``better`` with live cards made dead, or (empty
    deck) cards taken out: its live cards are a sub-multiset of ``better``'s, and it is as
    large, or no larger where the deck is empty (hands sorted, dead id largest)."""
    for p, (b, w) in enumerate(zip(better, worse)):
        if len(w) != len(b) and not (exhausted[p] and len(w) < len(b)):
            return False
        i = 0
        nb = len(b)
        for c in w:
            if c == dead:
                break
            while i < nb and b[i] < c:
                i += 1
            if i == nb or b[i] != c:
                return False
            i += 1
    return True
