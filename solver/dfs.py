"""Exact solver: memoized depth-first branch and bound over the open-hand game (issue 3).

All decks are known (the "thoughtful" question of exhaustive solitaire solvers) and one
planner plays every seat in turn order. The search answers *win* (with a plan the rules engine
replays), *loss* (the search was exhaustive) or *unknown* (a limit ran out).

Representation (the solver's own, compact; :mod:`model` checks every plan it returns):

* a card type is a small int (see :class:`Tables`); the two copies of a card are one type;
* the mountain is a list of rows, each a list of card ids, filled from the left (R3);
* per player a hand (sorted list of ids) and a deck pointer into the known deck;
* the state key (bytes) holds the mountain, every hand with *dead* cards (cards that can never
  be placed again, and a second Summit in one hand) mapped to one id, the deck pointers and the
  player to move: everything that decides the future, and nothing else.

Search: depth-first, cost-to-go branch and bound. The cost of a line is the objective's
increment along it (``waste``: cards that leave the game, i.e. discards and replaced Bridges;
``turns``: one per move; ``none``: nothing). The transposition table maps a key to a proven
lower bound on the cost still to pay to win from it (``INF`` = no win at all). Since the waste
so far and the turns so far do not affect what can still happen, the table is shared across
the whole solve and across budgets.

Pruning, each with a switch so that tests can check it changes no answer:

* ``transposition``: the table above;
* ``dominance``: pay costs and discards with dead cards first (a dead card can only ever be
  discarded, so keeping a live card instead is never worse); dead cards are one type in keys;
* ``bounds``: a state is abandoned when (a) no Summit is left in any hand or deck; (b) for some
  height h the Ascent cards of value ≥ h still to play plus the Campfires cannot fill the empty
  slots and Bridges of rows ≥ h (R4: each such card fills at most one of them); (c) the cards
  left cannot cover the empty slots and the Bridges to replace, in all and (2–5 players, R12)
  for each player's turns; (d) the objective's lower bound exceeds the budget (turns: one
  move per slot still to fill; waste: every Bridge on the mountain, and solo the deck
  prefix that must be drawn, see :meth:`Search.waste_lower_bound`).

Phases: a beam search (heuristic, :meth:`Search.beam`) looks for a first win; the exhaustive
DFS runs when it finds none (to find a win or prove a loss) and, for ``waste``/``turns``, with
budget ``best - 1`` until one search fails, which proves the optimum. Move order is
colour-free (ties broken by where a card first stands in its deck), so a deal with its colours
relabelled gets the relabelled plan.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Callable

from model.cards import Card
from model.deal import Deal
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move
from model.rules import RuleSet
from solver.result import (
    LOSS,
    OBJECTIVES,
    UNKNOWN,
    WIN,
    SolveResult,
    checked_line,
    checked_plan,
)

INF = 1 << 30

K_ASCENT, K_CAMPFIRE, K_BRIDGE, K_SUMMIT = 0, 1, 2, 3

# internal move: (kind, card, row, slot, to_row, to_slot, discards) rows/slots 0-based;
# kind 0 place, 1 onto bridge, 2 campfire, 3 discard two, 4 summit
M_PLACE, M_BRIDGE_REPLACE, M_CAMPFIRE, M_DISCARD, M_SUMMIT = 0, 1, 2, 3, 4


class Tables:
    """Card-type tables of one rule set: id → kind, value, colour; ``dead`` is the extra id
    that stands for any dead card in keys."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        types: list[Card] = []
        for c in rules.composition():
            if c not in types:
                types.append(c)
        self.cards = types
        self.id_of = {c: i for i, c in enumerate(types)}
        self.kind = [
            K_ASCENT if c.is_ascent else K_CAMPFIRE if c.is_campfire else K_BRIDGE if c.is_bridge else K_SUMMIT
            for c in types
        ]
        cols = rules.colour_letters
        self.value = [c.value for c in types]
        self.colour = [cols.index(c.colour) if c.colour else -1 for c in types]
        # highest row a card can fill (R4); a Campfire can add a card to any row (R9), so it
        # counts as a filler of every row for the height bound; Bridges and Summits fill none
        self.maxrow = [
            min(c.value, rules.rows) if c.is_ascent else rules.rows if c.is_campfire else 0
            for c in types
        ]
        self.dead = len(types)
        self.summit = self.id_of[Card("summit")]
        self.campfire_ids = [i for i, k in enumerate(self.kind) if k == K_CAMPFIRE]
        self.bridge = self.id_of.get(Card("bridge"), -1)


@dataclass
class Switches:
    """Search switches (all on by default); off only for metamorphic tests and studies."""

    transposition: bool = True
    dominance: bool = True
    bounds: bool = True
    table_size: int = 0  # 0: from the memory limit


def table_entries_for(memory_limit_mb: int) -> int:
    """Transposition-table entries that fit ``memory_limit_mb``: measured about 140 bytes an
    entry (a 60–70 byte key and the dict slot); 200 leaves room for the dict's growth and the
    rest of the process."""
    return max(1024, memory_limit_mb * 1024 * 1024 // 200)


class _Stop(Exception):
    """A limit ran out."""


class Search:
    """One solve from one start: a deal (its first move) or a fully known
    :class:`~model.game.Game` position. Use :func:`solve`.

    From a deal, each player's known deck is the deal's deck and a deck pointer says how
    far it was drawn. From a position, the same: a game replayed from a deal keeps the deal's
    decks (pointers past the cards drawn); a bare position gets for each player a virtual
    deck of its hand (in the engine's order) followed by its deck, drawn up to the hand."""

    def __init__(self, start: Deal | Game, objective: str, switches: Switches,
                 deadline: float | None, node_limit: int | None,
                 progress: Callable[[dict], None] | None = None) -> None:
        game = start if isinstance(start, Game) else None
        deal = start if isinstance(start, Deal) else None
        self.start = start
        self.game = game
        self.deal = deal if deal is not None else (game.deal if game is not None else None)
        self.t = Tables(start.rules)
        r = start.rules
        self.R = r.rows  # rows below the peak
        self.rowlen = [r.row_length(i + 1) for i in range(self.R)]
        self._slots_below_peak = sum(self.rowlen)
        self._slots_total = self._slots_below_peak + 1
        self.hand_size = r.hand_size
        self.P = start.players
        self.look_through = r.bridge_neighbour == "look-through"
        self.bridge_max = r.bridge_replace_cost == "max"
        self.campfire_paid = r.campfire_move_cost == "paid"
        self.objective = objective
        self.sw = switches
        if not switches.table_size:
            switches.table_size = table_entries_for(2048)
        self.deadline = deadline
        self.node_limit = node_limit
        self.progress = progress
        if game is None:
            decks = deal.decks
        elif game.deal is not None:
            decks = game.deal.decks
        else:
            decks = [list(h) + list(d) for h, d in zip(game.hands, game.decks)]
        self.decks = [tuple(self.t.id_of[c] for c in d) for d in decks]
        # colour-free tie-break: where a card type first stands in its player's deck. A
        # relabelling of colours keeps these positions, so the search order (and the plan)
        # changes only by the relabelling.
        self.first_pos = []
        for d in self.decks:
            fp = [255] * (self.t.dead + 1)
            for i, c in enumerate(d):
                if fp[c] == 255:
                    fp[c] = min(i, 254)
            self.first_pos.append(fp)
        # mutable state
        self.rows: list[list[int]] = [[] for _ in range(self.R)]
        self.hands: list[list[int]] = [[] for _ in range(self.P)]
        self.ptr = [0] * self.P
        self.to_move = 0
        self.filled = 0
        self.n_bridges = 0
        # remaining (hands + decks) counts by id, for bounds
        self.remaining = [0] * (self.t.dead + 1)
        for d in self.decks:
            for c in d:
                self.remaining[c] += 1
        self.n_remaining = sum(len(d) for d in self.decks)
        self.rem_by_maxrow = self._by_maxrow(self.remaining)
        for p in range(self.P):
            self._draw(p)
        self.spent0 = 0
        self.root: Deal | Game = start
        self.root_to_move = 0
        if game is not None:
            self.load(game)
        self.tt: dict[bytes, int] = {}
        self._canon_cache: dict[tuple, list[int]] = {}
        self.nodes = 0
        self.tt_hits = 0
        self.tt_evictions = 0
        self.pruned = {"summit": 0, "height": 0, "cards": 0, "objective": 0}
        self.path: list[tuple] = []
        self.best_progress = -1
        self.best_line: list[tuple] = []
        self.win_line: list[tuple] | None = None
        self.stopped = False
        self.interrupted = False
        self.progress_proven = False
        self.next_check = 1024 if node_limit is None else min(1024, node_limit)
        self.t0 = time.monotonic()
        self.last_report = self.t0

    # ---- state changes -------------------------------------------------------------------

    def _draw(self, p: int) -> int:
        hand = self.hands[p]
        need = self.hand_size - len(hand)
        if need <= 0:
            return 0
        deck = self.decks[p]
        i = self.ptr[p]
        got = deck[i:i + need]
        if got:
            hand.extend(got)
            hand.sort()
            self.ptr[p] = i + len(got)
        return len(got)

    def _undraw(self, p: int, n: int) -> None:
        if n:
            hand = self.hands[p]
            i = self.ptr[p]
            for c in self.decks[p][i - n:i]:
                hand.remove(c)
            self.ptr[p] = i - n

    def snapshot_of(self, game: Game) -> tuple:
        """The compact state (a :meth:`snapshot`) of ``game``, a position reached from this
        search's start (same decks: each of ``game``'s decks is what is left of the known
        deck). Raises ``ValueError`` for a position that does not fit the known decks."""
        id_of = self.t.id_of
        if game.players != self.P or game.rules != self.t.rules:
            raise ValueError("the position is not of this search's game")
        ptr = []
        for p in range(self.P):
            deck = self.decks[p]
            rest = tuple(id_of[c] for c in game.decks[p])
            n = len(deck) - len(rest)
            if n < 0 or deck[n:] != rest:
                raise ValueError(f"player {p + 1}'s deck is not what is left of the known deck")
            ptr.append(n)
        rows = tuple(tuple(id_of[c] for c in game.mountain[i]) for i in range(self.R))
        peak = game.mountain[self.R]
        hands = tuple(tuple(sorted(id_of[c] for c in h)) for h in game.hands)
        return rows, hands, tuple(ptr), game.to_move, len(peak)

    def load(self, game: Game) -> None:
        """Set the current state to ``game``'s position (see :meth:`snapshot_of`); the
        objectives count from it (``spent0``)."""
        rows, hands, ptr, to_move, peak = self.snapshot_of(game)
        self.restore((rows, hands, ptr, to_move))
        self.filled += peak
        self.spent0 = 0
        self.spent0 = self.spent()
        self.root = game
        self.root_to_move = to_move

    def spent(self) -> int:
        """Cards that left the game (discarded or a replaced Bridge) since the start."""
        return sum(self.ptr) - sum(len(h) for h in self.hands) - self.filled - self.spent0

    def apply(self, mv: tuple) -> tuple:
        """Apply internal move ``mv``; return the undo record."""
        kind, card, r, s, r2, s2, disc = mv
        p = self.to_move
        hand = self.hands[p]
        rem = self.remaining
        by_row = self.rem_by_maxrow
        mr = self.t.maxrow
        for c in disc:
            hand.remove(c)
            rem[c] -= 1
            by_row[mr[c]] -= 1
        self.n_remaining -= len(disc)
        replaced = -1
        if kind != M_DISCARD:
            hand.remove(card)
            rem[card] -= 1
            by_row[mr[card]] -= 1
            self.n_remaining -= 1
            if kind == M_PLACE:
                self.rows[r].append(card)
                self.filled += 1
                if card == self.t.bridge:
                    self.n_bridges += 1
            elif kind == M_BRIDGE_REPLACE:
                self.rows[r][s] = card
                self.n_bridges -= 1
            elif kind == M_CAMPFIRE:
                replaced = self.rows[r][s]
                self.rows[r][s] = card
                self.rows[r2].append(replaced)
                self.filled += 1
            else:  # summit
                self.filled += 1
        drawn = self._draw(p)
        self.to_move = (p + 1) % self.P
        return (p, drawn, replaced)

    def undo(self, mv: tuple, rec: tuple) -> None:
        kind, card, r, s, r2, s2, disc = mv
        p, drawn, replaced = rec
        self.to_move = p
        self._undraw(p, drawn)
        hand = self.hands[p]
        rem = self.remaining
        by_row = self.rem_by_maxrow
        mr = self.t.maxrow
        if kind != M_DISCARD:
            hand.append(card)
            rem[card] += 1
            by_row[mr[card]] += 1
            self.n_remaining += 1
            if kind == M_PLACE:
                self.rows[r].pop()
                self.filled -= 1
                if card == self.t.bridge:
                    self.n_bridges -= 1
            elif kind == M_BRIDGE_REPLACE:
                self.rows[r][s] = self.t.bridge
                self.n_bridges += 1
            elif kind == M_CAMPFIRE:
                self.rows[r2].pop()
                self.rows[r][s] = replaced
                self.filled -= 1
            else:
                self.filled -= 1
        for c in disc:
            hand.append(c)
            rem[c] += 1
            by_row[mr[c]] += 1
        self.n_remaining += len(disc)
        hand.sort()

    # ---- rules on the compact state (mirror model.game; model replays every plan) -------

    def _ref(self, row: list[int], i: int, step: int) -> int:
        """Reference value from index ``i`` in direction ``step`` (-1 if none), R6/R8."""
        kind, value = self.t.kind, self.t.value
        n = len(row)
        while 0 <= i < n:
            c = row[i]
            k = kind[c]
            if k == K_ASCENT:
                return value[c]
            if k == K_BRIDGE and not self.look_through:
                return -1
            i += step
        return -1

    def placements(self, p: int) -> list[tuple[int, int, int, int, int, int, int]]:
        """Legal placements of player ``p``: (kind, card, r, s, r2, s2, cost), 0-based rows."""
        t = self.t
        kind, value, colour, maxrow = t.kind, t.value, t.colour, t.maxrow
        rows, rowlen, R = self.rows, self.rowlen, self.R
        hand = self.hands[p]
        others = len(hand) - 1
        out = []
        prev = -1
        for c in hand:
            if c == prev:
                continue
            prev = c
            k = kind[c]
            if k == K_ASCENT:
                v, col = value[c], colour[c]
                for r in range(maxrow[c]):
                    row = rows[r]
                    n = len(row)
                    if n == rowlen[r] or (r and len(rows[r - 1]) < n + 2):
                        continue
                    if n and colour[row[-1]] == col:
                        continue
                    u = self._ref(row, n - 1, -1)
                    cost = abs(v - u) if u >= 0 else 0
                    if cost <= others:
                        out.append((M_PLACE, c, r, n, 0, 0, cost))
                if self.n_bridges:
                    for r in range(maxrow[c]):
                        row = rows[r]
                        for s, b in enumerate(row):
                            if b != t.bridge:
                                continue
                            if s and colour[row[s - 1]] == col:
                                continue
                            if s + 1 < len(row) and colour[row[s + 1]] == col:
                                continue
                            u = self._ref(row, s - 1, -1)
                            cost = abs(v - u) if u >= 0 else 0
                            if self.bridge_max:
                                w = self._ref(row, s + 1, 1)
                                if w >= 0 and abs(v - w) > cost:
                                    cost = abs(v - w)
                            if cost <= others:
                                out.append((M_BRIDGE_REPLACE, c, r, s, 0, 0, cost))
            elif k == K_BRIDGE:
                for r in range(R):
                    row = rows[r]
                    n = len(row)
                    if n == 0 or n >= rowlen[r] - 1 or (r and len(rows[r - 1]) < n + 2):
                        continue
                    out.append((M_PLACE, c, r, n, 0, 0, 0))
            elif k == K_CAMPFIRE:
                col = colour[c]
                for r in range(R - 1):
                    for s, x in enumerate(rows[r]):
                        if kind[x] != K_ASCENT or colour[x] != col:
                            continue
                        for r2 in range(r + 1, maxrow[x]):
                            row2 = rows[r2]
                            n2 = len(row2)
                            if n2 == rowlen[r2] or len(rows[r2 - 1]) < n2 + 2:
                                continue
                            if n2 and colour[row2[-1]] == colour[x]:
                                continue
                            cost = 0
                            if self.campfire_paid:
                                u = self._ref(row2, n2 - 1, -1)
                                cost = abs(value[x] - u) if u >= 0 else 0
                            if cost <= others:
                                out.append((M_CAMPFIRE, c, r, s, r2, n2, cost))
            else:  # summit
                if self.filled == self._slots_below_peak and not self.n_bridges:
                    out.append((M_SUMMIT, c, R, 0, 0, 0, 0))
        return out

    # ---- dead cards, keys, bounds --------------------------------------------------------

    def dead_flags(self) -> tuple[int, bool, bool]:
        """(k, campfires_dead, bridges_dead): Ascent cards with max row ≤ k are dead (rows
        1..k full and bridgeless); Campfires are dead once no row ≥ 2 has an empty slot;
        Bridges once no row has an empty inner slot left."""
        rows, rowlen = self.rows, self.rowlen
        k = 0
        bridge = self.t.bridge
        for r in range(self.R):
            if len(rows[r]) == rowlen[r] and bridge not in rows[r]:
                k = r + 1
            else:
                break
        camp_dead = all(len(rows[r]) == rowlen[r] for r in range(1, self.R))
        bridge_dead = all(len(rows[r]) >= rowlen[r] - 1 for r in range(self.R))
        return k, camp_dead, bridge_dead

    def is_dead(self, c: int, flags: tuple[int, bool, bool]) -> bool:
        k = self.t.kind[c]
        if k == K_ASCENT:
            return self.t.maxrow[c] <= flags[0]
        if k == K_CAMPFIRE:
            return flags[1]
        if k == K_BRIDGE:
            return flags[2]
        return False

    def canon_map(self, flags) -> list[int]:
        """id → id, or the dead id for a card that is dead under ``flags`` (cached)."""
        cm = self._canon_cache.get(flags)
        if cm is None:
            dead = self.t.dead
            cm = [dead if self.is_dead(c, flags) else c for c in range(dead)]
            self._canon_cache[flags] = cm
        return cm

    def canonical_hand(self, hand: list[int], flags) -> list[int]:
        """The hand with dead cards, and every Summit but one, as the dead id (sorted)."""
        cm = self.canon_map(flags)
        live = [c for c in hand if cm[c] == c]
        nd = len(hand) - len(live)
        summit = self.t.summit
        while len(live) >= 2 and live[-1] == summit and live[-2] == summit:
            live.pop()
            nd += 1
        if nd:
            live.extend([self.t.dead] * nd)
        return live

    def key(self, flags) -> bytes:
        parts = [self.to_move]
        for row in self.rows:
            parts.extend(row)
            parts.append(254)
        dominance = self.sw.dominance
        for p in range(self.P):
            parts.extend(self.canonical_hand(self.hands[p], flags) if dominance else self.hands[p])
            parts.append(254)
            parts.append(self.ptr[p] >> 8)  # deck pointers take two bytes: decks may
            parts.append(self.ptr[p] & 255)  # hold more than 255 cards
        return bytes(parts)

    def bound_fails(self, budget: int) -> bool:
        """True when no win within ``budget`` can exist from here (see module docstring)."""
        rem = self.remaining
        t = self.t
        if rem[t.summit] == 0:
            self.pruned["summit"] += 1
            return True
        need_total = self._slots_below_peak - self.filled + self.n_bridges
        if self.n_remaining < need_total + 1:
            self.pruned["cards"] += 1
            return True
        if self.P > 1:
            # R12: each of the next need_total+1 moves is made by the player in turn and
            # uses at least one card of that player's hand and deck
            n = need_total + 1
            hands, decks, ptr = self.hands, self.decks, self.ptr
            for q in range(self.P):
                turns = (n - (q - self.to_move) % self.P + self.P - 1) // self.P
                if len(hands[q]) + len(decks[q]) - ptr[q] < turns:
                    self.pruned["cards"] += 1
                    return True
        if self.objective == "turns" and need_total + 1 > budget:
            self.pruned["objective"] += 1
            return True
        # height bound: the cards that can fill rows >= h must cover their empty slots and
        # Bridges (each card fills at most one)
        rows, rowlen = self.rows, self.rowlen
        by_row = self.rem_by_maxrow
        need = 0
        have = 0
        bridge = t.bridge
        nb = self.n_bridges
        for h in range(self.R, 0, -1):
            row = rows[h - 1]
            need += rowlen[h - 1] - len(row)
            if nb:
                need += row.count(bridge)
            have += by_row[h]
            if have < need:
                self.pruned["height"] += 1
                return True
        if self.objective == "waste" and self.waste_lower_bound() > budget:
            self.pruned["objective"] += 1
            return True
        return False

    def _prepare_waste_tables(self) -> None:
        """Solo: per height h, deck positions of the cards that can fill rows ≥ h and how many
        stand before each position; the next Summit at or after each position."""
        deck = self.decks[0]
        n = len(deck)
        mr = self.t.maxrow
        self.qual_pos = [[]] + [[i for i, c in enumerate(deck) if mr[c] >= h] for h in range(1, self.R + 1)]
        self.qual_before = [[]]
        for h in range(1, self.R + 1):
            before = [0] * (n + 1)
            for i, c in enumerate(deck):
                before[i + 1] = before[i] + (mr[c] >= h)
            self.qual_before.append(before)
        nxt = [INF] * (n + 1)
        for i in range(n - 1, -1, -1):
            nxt[i] = i if deck[i] == self.t.summit else nxt[i + 1]
        self.next_summit = nxt

    def waste_lower_bound(self) -> int:
        """Cards that must still leave the game (INF if no win is possible).

        Every Bridge on the mountain leaves the game when replaced. Solo, moreover: let k be
        the shortest stretch of the deck that, with the hand, holds a Summit and, for every
        height h, enough cards to fill the empty slots and Bridges of rows ≥ h (R4). Each
        card played or spent draws one card, so reaching the k-th card and playing it spends
        at least k + 1 cards, of which at most E (the slots still to fill, the peak included)
        end on the mountain: at least k + 1 - E are discarded.
        """
        nb = self.n_bridges
        if self.P != 1:
            return nb
        if not hasattr(self, "qual_pos"):
            self._prepare_waste_tables()
        hand = self.hands[0]
        ptr = self.ptr[0]
        mr = self.t.maxrow
        k = 0
        if self.t.summit not in hand:
            ns = self.next_summit[ptr]
            if ns >= INF:
                return INF
            k = ns - ptr + 1
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
                    return INF
                kk = pos[idx] - ptr + 1
                if kk > k:
                    k = kk
        if k == 0:
            return nb
        e = self._slots_below_peak - self.filled + nb + 1
        return nb + max(0, k + 1 - e)

    # ---- search --------------------------------------------------------------------------

    def move_cost(self, kind: int, ndisc: int) -> int:
        if self.objective == "waste":
            return ndisc + (1 if kind == M_BRIDGE_REPLACE else 0)
        if self.objective == "turns":
            return 1
        return 0

    def children(self, flags) -> list[tuple]:
        """Moves of the player to move in search order (internal move tuples)."""
        p = self.to_move
        hand = self.hands[p]
        pls = self.placements(p)
        moves = []
        for pl in pls:
            kind, card, r, s, r2, s2, cost = pl
            if kind == M_SUMMIT:
                return [(M_SUMMIT, card, r, s, r2, s2, ())]
            rest = list(hand)
            rest.remove(card)
            for disc in self.discard_sets(rest, cost, flags):
                moves.append((kind, card, r, s, r2, s2, disc))
        if len(hand) >= 2:
            for disc in self.discard_sets(hand, 2, flags):
                moves.append((M_DISCARD, -1, 0, 0, 0, 0, disc))
        if len(moves) > 1:
            moves.sort(key=self._order_key)
        return moves

    def discard_sets(self, cards: list[int], k: int, flags) -> list[tuple[int, ...]]:
        """Distinct multisets of ``k`` of ``cards``; with dominance, dead cards go first and
        only sets that use every dead card available (up to ``k``) are kept."""
        if k == 0:
            return [()]
        if k > len(cards):
            return []
        fp = self.first_pos[self.to_move]
        cards = sorted(cards, key=fp.__getitem__)
        if self.sw.dominance:
            cm = self.canon_map(flags)
            dead = [c for c in cards if cm[c] != c]
            summits = [c for c in cards if c == self.t.summit]
            if len(summits) > 1:
                dead.extend(summits[1:])
            if len(dead) >= k:
                return [tuple(sorted(dead[:k]))]
            # (dead cards in first-position order: the choice among them is colour-free)
            live = list(cards)
            for c in dead:
                live.remove(c)
            return [tuple(sorted(dead + list(x))) for x in _multisets(live, k - len(dead))]
        return [tuple(sorted(x)) for x in _multisets(cards, k)]

    def _order_key(self, mv: tuple) -> tuple:
        """Search order: :meth:`_heuristic_key`, then a colour-free total tie-break."""
        kind, card, r, s, r2, s2, disc = mv
        fp = self.first_pos[self.to_move]
        tie = (kind, fp[card] if card >= 0 else -1, r, s, r2, s2,
               tuple(sorted(fp[c] for c in disc)))
        return self._heuristic_key(mv) + tie

    def _heuristic_key(self, mv: tuple) -> tuple:
        """Cheap placements first (higher rows first at equal cost: low rows are for low
        cards), Campfires and Bridge replacements early, discarding two late, placing a
        Bridge last; pay with cards least worth keeping (not Summits or Campfires)."""
        kind, card, r, s, r2, s2, disc = mv
        t = self.t
        # keep Summits, Campfires and cards that fit many slots; spend dead and far cards
        keep_pen = 0
        for c in disc:
            k = t.kind[c]
            if k == K_SUMMIT:
                keep_pen += 6
            elif k == K_CAMPFIRE:
                keep_pen += 2
            elif k == K_ASCENT:
                keep_pen += 1
        if kind == M_DISCARD:
            return (2, keep_pen, 0)
        n = len(disc)
        if kind == M_CAMPFIRE:
            return (0, n, -10 - r2)
        if kind == M_BRIDGE_REPLACE:
            return (0, n, -20)
        if t.kind[card] == K_BRIDGE:
            return (3, 0, 0)
        # prefer cheap; then higher rows for the same cost (low rows are for low cards)
        return (0 if n <= 1 else 1, n * 8 + keep_pen, -r)

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
        winning line from the start is then in ``self.win_line``. Raises ``_Stop`` when a
        limit runs out."""
        self._enter_node()
        if self.filled == self._slots_total:
            self.win_line = list(self.path)
            return True
        flags = self.dead_flags()
        key = None
        if self.sw.transposition:
            key = self.key(flags)
            lb = self.tt.get(key)
            if lb is not None and lb > budget:
                self.tt_hits += 1
                return False
        if self.sw.bounds and self.bound_fails(budget):
            return False
        for mv in self.children(flags):
            c = self.move_cost(mv[0], len(mv[6]))
            if c > budget:
                continue
            rec = self.apply(mv)
            self.path.append(mv)
            ok = self.dfs(budget - c)
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
        return False

    # ---- beam search: a fast heuristic phase that looks for a first win ---------------

    def snapshot(self) -> tuple:
        return (tuple(tuple(r) for r in self.rows), tuple(tuple(h) for h in self.hands),
                tuple(self.ptr), self.to_move)

    def restore(self, snap: tuple) -> None:
        rows, hands, ptr, to_move = snap
        self.rows = [list(r) for r in rows]
        self.hands = [list(h) for h in hands]
        self.ptr = list(ptr)
        self.to_move = to_move
        self.filled = sum(len(r) for r in rows)
        self.n_bridges = sum(r.count(self.t.bridge) for r in rows)
        rem = [0] * (self.t.dead + 1)
        n = 0
        for p in range(self.P):
            for c in hands[p]:
                rem[c] += 1
            for c in self.decks[p][ptr[p]:]:
                rem[c] += 1
            n += len(hands[p]) + len(self.decks[p]) - ptr[p]
        self.remaining = rem
        self.n_remaining = n
        self.rem_by_maxrow = self._by_maxrow(rem)

    def _by_maxrow(self, rem: list[int]) -> list[int]:
        """Remaining cards counted by the highest row they can fill (index 0: none)."""
        by_row = [0] * (self.R + 1)
        for c in range(self.t.dead):
            by_row[self.t.maxrow[c]] += rem[c]
        return by_row

    beam_spent = 1
    beam_real = 1
    beam_bridge = 5

    def beam(self, width: int, cap: int = INF) -> bool:
        """Beam search by turns: keep the ``width`` states that have spent the fewest cards
        (a Bridge on the mountain counts as a card to spend; ties: most cards placed).

        For ``none`` and ``turns`` the first win is returned (layers are turns, so it is the
        beam's fewest-turn win); for ``waste`` the beam runs on and keeps its cheapest win,
        dropping states that cannot beat it. Only wins of objective value < ``cap`` count.
        Sets ``win_line``; returns True if a win was found. Heuristic: a failure proves
        nothing.
        """
        start = self.snapshot()
        layer = [(start, [])]
        total = self._slots_total
        found = False
        waste_mode = self.objective == "waste"
        try:
            while layer:
                seen: dict[bytes, tuple] = {}
                for snap, line in layer:
                    self.restore(snap)
                    flags = self.dead_flags()
                    for mv in self._beam_children(flags):
                        self.nodes += 1
                        if self.nodes >= self.next_check:
                            self._check_limits()
                        rec = self.apply(mv)
                        if self.filled == total:
                            win = line + [mv]
                            value = self.line_cost(win)
                            if value < cap:
                                self.win_line = win
                                cap = value
                                found = True
                                if not waste_mode:
                                    return True
                            self.undo(mv, rec)
                            continue
                        if self.filled > self.best_progress:
                            self.best_progress = self.filled
                            self.best_line = line + [mv]
                        spent = self.spent()
                        if waste_mode and spent + self.n_bridges >= cap:
                            self.undo(mv, rec)
                            continue
                        if not self.bound_fails(INF) and self._can_move():
                            f2 = self.dead_flags()
                            k = self.key(f2)
                            if k not in seen:
                                real = self.filled - self.n_bridges
                                score = (spent * self.beam_spent + self.n_bridges * self.beam_bridge
                                         - real * self.beam_real + self._slack_penalty(), -real)
                                seen[k] = (score, self.snapshot(), line, mv)
                        self.undo(mv, rec)
                best = sorted(seen.values(), key=lambda e: e[0])[:width]
                layer = [(snap, line + [mv]) for _, snap, line, mv in best]
            return found
        except (_Stop, KeyboardInterrupt) as exc:
            if isinstance(exc, KeyboardInterrupt):
                self.interrupted = True
            if found:  # keep the win found before the limit ran out
                self.stopped = True
                return True
            raise _Stop from None
        finally:
            self.restore(start)

    beam_discard_choices = 2

    def _beam_children(self, flags) -> list[tuple]:
        """The beam's moves: :meth:`children`, keeping for each placement only its first
        ``beam_discard_choices`` ways to pay (in move order) and the first few discard-2
        moves. Heuristic: the exact search expands every choice."""
        keep = self.beam_discard_choices
        if not keep:
            return self.children(flags)
        out = []
        seen: dict[tuple, int] = {}
        for mv in self.children(flags):
            head = mv[:6]
            n = seen.get(head, 0)
            if n < (keep + 1 if mv[0] == M_DISCARD else keep):
                seen[head] = n + 1
                out.append(mv)
        return out

    beam_slack = 3
    beam_slack_floor = 2

    def _slack_penalty(self) -> int:
        """Beam only, 2–5 players: penalise states where some player is near running out of
        cards for the turns the game still needs (R12 ends the game for everyone)."""
        if self.P == 1 or not self.beam_slack:
            return 0
        n = self._slots_below_peak - self.filled + self.n_bridges + 1
        worst = INF
        for q in range(self.P):
            turns = (n - (q - self.to_move) % self.P + self.P - 1) // self.P
            slack = len(self.hands[q]) + len(self.decks[q]) - self.ptr[q] - turns
            if slack < worst:
                worst = slack
        short = self.beam_slack_floor - worst
        return self.beam_slack * short if short > 0 else 0

    def beams(self, schedule: tuple[tuple[int, int], ...]) -> list[tuple] | None:
        """The heuristic phase: run the beams of ``schedule`` (pairs of width and ways to
        pay kept per placement) in order and return the best winning line found (``None``
        if none). Stops at the first win for ``none``, or once a win meets the proven
        bound. A limit that runs out sets ``stopped`` and keeps the wins found."""
        best = None
        try:
            for width, choices in schedule:
                self.beam_discard_choices = choices
                cap = self.line_cost(best) if best is not None else INF
                if self.beam(width, cap):
                    best = self.win_line
                    if (self.objective == "none" or self.line_cost(best) <= self.root_bound()
                            or self.stopped):
                        break
        except _Stop:
            self.stopped = True
        return best

    def _can_move(self) -> bool:
        """R12: the player to move can discard two or play something."""
        p = self.to_move
        return len(self.hands[p]) >= 2 or bool(self.placements(p))

    def furthest(self) -> bool:
        """After a proven loss: search every line for the most slots filled (into
        ``best_progress``/``best_line``). True when the search finished, so that the furthest
        is proven; raises ``_Stop`` when a limit runs out. Each card fills at most one slot,
        so a state that cannot pass the best so far is cut; a state seen before is not
        searched again (its lines were counted the first time)."""
        seen: set[bytes] = set()
        cap = self.sw.table_size
        total = self._slots_total

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
                raise _Stop
            seen.add(key)
            for mv in self.children(flags):
                rec_ = self.apply(mv)
                self.path.append(mv)
                rec()
                self.path.pop()
                self.undo(mv, rec_)

        rec()
        return True

    def _evict(self) -> None:
        """Replacement policy: drop the older half of the table (insertion order)."""
        tt = self.tt
        n = len(tt) // 2
        for k in list(tt)[:n]:
            del tt[k]
        self.tt_evictions += n

    def _check_limits(self) -> None:
        """Called every 1024 nodes, and exactly at the node limit."""
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise _Stop
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Stop
        self.next_check = self.nodes + 1024
        if self.node_limit is not None:
            self.next_check = min(self.next_check, self.node_limit)
        if self.progress is not None and now - self.last_report > 0.5:
            self.last_report = now
            self.progress(self.stats())

    def stats(self) -> dict:
        secs = time.monotonic() - self.t0
        return {
            "nodes": self.nodes,
            "seconds": round(secs, 3),
            "nodes_per_second": int(self.nodes / secs) if secs > 0 else 0,
            "table_entries": len(self.tt),
            "table_hits": self.tt_hits,
            "table_evictions": self.tt_evictions,
            "pruned": dict(self.pruned),
            "best_progress": max(self.best_progress, 0),
            "best_progress_proven": self.progress_proven,
            **({"interrupted": True} if self.interrupted else {}),
        }

    def line_cost(self, line: list[tuple]) -> int:
        """The objective's value of a line from the start (0 for ``none``)."""
        return sum(self.move_cost(m[0], len(m[6])) for m in line)

    def root_bound(self) -> int:
        """Proven lower bound on the objective at the start: the table's entry for the
        start position, or (turns) one move per slot. Call it on the start position only
        (:func:`solve` restores it after a limit stops the search mid-line)."""
        if self.objective == "none":
            return 0
        flags = self.dead_flags()
        lb = self.tt.get(self.key(flags), 0) if self.sw.transposition else 0
        if self.objective == "turns":
            lb = max(lb, self._slots_below_peak - self.filled + self.n_bridges + 1)
        if self.objective == "waste":
            lb = max(lb, self.waste_lower_bound())
        return lb

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
            return SolveResult(WIN, self.objective, deal, plan, value, optimal, bound,
                               self._slots_total, best_line, "dfs", stats, start, list(moves))
        verdict = LOSS if exhausted else UNKNOWN
        bound = None
        if self.objective != "none":
            bound = INF if exhausted else self.root_bound()
            bound = None if bound >= INF else bound
        return SolveResult(verdict, self.objective, deal, None, None, False, bound,
                           max(self.best_progress, 0), best_line, "dfs", stats, start,
                           list(best_line))

    # ---- decoding ------------------------------------------------------------------------

    def to_moves(self, line: list[tuple]) -> list[Move]:
        """Internal moves → :class:`~model.moves.Move` (players, rows, slots 1-based)."""
        cards = self.t.cards
        out = []
        p = self.root_to_move
        for kind, card, r, s, r2, s2, disc in line:
            dc = tuple(cards[c] for c in disc)
            if kind == M_DISCARD:
                out.append(Move(DISCARD, p + 1, discard=dc))
            elif kind == M_CAMPFIRE:
                out.append(Move(CAMPFIRE, p + 1, cards[card], r + 1, s + 1, r2 + 1, s2 + 1, dc))
            elif kind == M_SUMMIT:
                out.append(Move(PLACE, p + 1, cards[card], self.R + 1, 1, discard=dc))
            else:
                out.append(Move(PLACE, p + 1, cards[card], r + 1, s + 1, discard=dc))
            p = (p + 1) % self.P
        return out


def _multisets(cards: list[int], k: int) -> list[tuple[int, ...]]:
    """Distinct k-multisets of sorted ``cards`` (copies are interchangeable)."""
    res: list[tuple[int, ...]] = []
    n = len(cards)

    def rec(start: int, acc: list[int]) -> None:
        if len(acc) == k:
            res.append(tuple(acc))
            return
        prev = None
        for i in range(start, n - (k - len(acc)) + 1):
            c = cards[i]
            if c == prev:
                continue
            prev = c
            acc.append(c)
            rec(i + 1, acc)
            acc.pop()

    rec(0, [])
    return res


DEFAULT_BEAM_SCHEDULE: tuple[tuple[int, int], ...] = (
    (8, 2), (16, 1), (64, 2), (64, 1), (256, 1), (256, 2))


def heuristic_win(start: Deal | Game, objective: str = "none", time_limit: float | None = None,
                  beam_schedule: tuple[tuple[int, int], ...] = DEFAULT_BEAM_SCHEDULE
                  ) -> list[Move] | None:
    """The beam phase of :func:`solve` alone: a winning move list from ``start`` (a deal's
    first move, or a fully known :class:`~model.game.Game` position), or ``None`` when no
    beam of the schedule finds one within ``time_limit`` seconds. Heuristic: ``None`` proves
    nothing. Used to give CP-SAT a solution hint (:func:`solver.cpsat.solve_cpsat`)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    if isinstance(start, Game) and start.is_won():
        return []
    deadline = time.monotonic() + time_limit if time_limit is not None else None
    s = Search(start, objective, Switches(), deadline, None)
    best = s.beams(beam_schedule)
    if s.interrupted:  # Ctrl-C is the user's, not a limit: pass it on
        raise KeyboardInterrupt
    return s.to_moves(best) if best is not None else None


def solve(
    start: Deal | Game,
    objective: str = "none",
    time_limit: float | None = None,
    node_limit: int | None = None,
    memory_limit_mb: int = 2048,
    progress: Callable[[dict], None] | None = None,
    beam_schedule: tuple[tuple[int, int], ...] = DEFAULT_BEAM_SCHEDULE,
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
    ``transposition``, ``dominance``, ``bounds`` (bools) and ``table_size`` (entries).
    ``progress``: called about twice a second with the stats dict. ``beam_schedule``: the
    heuristic phase, pairs (beam width, ways to pay kept per placement; 0 = all), run in
    order until one wins (for ``waste``/``turns``: all run, each only keeping better wins).

    Raises ``ValueError`` for an unknown objective or switch. Every returned plan has been
    replayed by :mod:`model` (:func:`solver.result.checked_plan`).
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    sw = Switches()
    for k, v in switches.items():
        if not hasattr(sw, k):
            raise ValueError(f"unknown search switch {k!r}")
        setattr(sw, k, v)
    if not sw.table_size:
        sw.table_size = table_entries_for(memory_limit_mb)
    deadline = time.monotonic() + time_limit if time_limit is not None else None
    s = Search(start, objective, sw, deadline, node_limit, progress)
    if s.filled == s._slots_total:  # a won position: nothing left to play
        s.progress_proven = True
        return s.result([], 0, True)
    start = s.snapshot()
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 10_000))
    best: list[tuple] | None = None
    best_value: int | None = None
    exhausted = False
    try:
        # phase 1 (heuristic): beams of growing width look for a first, then a better, win
        best = s.beams(beam_schedule)
        if best is not None:
            best_value = s.line_cost(best)
        if s.stopped:
            raise _Stop
        # phase 2 (exact): a win within budget best - 1, until a search fails (optimal)
        if best is None:
            if s.dfs(INF):
                best = s.win_line
                best_value = s.line_cost(best)
            else:
                exhausted = True  # a proven loss, whatever the furthest search below does
                s.progress_proven = s.furthest()
        if best is not None and objective != "none":
            while best_value > s.root_bound():
                if not s.dfs(best_value - 1):
                    break
                best = s.win_line
                best_value = s.line_cost(best)
        exhausted = True
    except (_Stop, KeyboardInterrupt) as exc:
        # a limit (or Ctrl-C) stopped the search mid-line: back to the start position, so
        # that the bound read from the table is the start's; the wins found are kept
        if isinstance(exc, KeyboardInterrupt):
            s.interrupted = True
        s.restore(start)
    finally:
        sys.setrecursionlimit(old_limit)
    return s.result(best, best_value, exhausted)
