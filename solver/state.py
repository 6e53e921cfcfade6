"""The solver's compact state of a game and its moves (from any position).

Representation (the solver's own; :mod:`model` checks every plan a search returns):

* a card type is a small int (see :class:`Tables`); the two copies of a card are one type;
* the mountain is a list of rows, each a list of card ids, filled from the left (R3); the
  peak is counted in ``filled`` only;
* per player a hand (sorted list of ids) and a deck pointer into the known deck: from a
  deal, the deal's deck; from a game replayed from a deal, the same, its pointer past the
  cards drawn; from a bare position, a virtual deck of its hand followed by its deck;
* the state key (bytes) holds the mountain, every hand with *dead* cards (cards that can never
  be placed again, and a second Summit in one hand) mapped to one id, the deck pointers and the
  player to move: everything that decides the future, and nothing else (not the waste or the
  turns so far, so that bounds stored under a key hold from any start).

Moves are tuples ``(kind, card, row, slot, to_row, to_slot, discards)`` with 0-based rows
and slots (``M_PLACE``, ``M_BRIDGE_REPLACE``, ``M_CAMPFIRE``, ``M_DISCARD``, ``M_SUMMIT``);
:meth:`State.apply` / :meth:`State.undo` play and take them back, :meth:`State.children`
lists them in search order, and :meth:`State.to_moves` turns a line of them into
:class:`~model.moves.Move` objects. The rules here mirror :mod:`model.game` for speed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Sequence

from model.cards import Card
from model.deal import Deal
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move
from model.rules import RuleSet

INF = 1 << 30

K_ASCENT, K_CAMPFIRE, K_BRIDGE, K_SUMMIT = 0, 1, 2, 3

# internal move: (kind, card, row, slot, to_row, to_slot, discards) rows/slots 0-based;
# kind 0 place, 1 onto bridge, 2 campfire, 3 discard two, 4 summit
M_PLACE, M_BRIDGE_REPLACE, M_CAMPFIRE, M_DISCARD, M_SUMMIT = 0, 1, 2, 3, 4


@dataclass
class Switches:
    """Search switches (all on by default); off only for metamorphic tests and studies."""

    transposition: bool = True
    dominance: bool = True
    bounds: bool = True
    table_size: int = 0  # 0: from the memory limit
    # each bound and search aid its switch (see solver.bounds and solver.frontier)
    window_players: bool = True  # 2-5 players: per-player deck windows and turn order (bounds)
    deepening: bool = True  # prove the optimum bottom-up: budgets root bound, +1, ... (table kept)
    pv_order: bool = True  # try the best known line's move first where the search meets it
    core: bool = True  # the compiled search core (solver/_core.c) where it is built
    # every objective: a win spends at most the cards to spare (cards left minus slots to
    # fill), so the waste lower bound cuts where it exceeds them (solver.bounds)
    budget: bool = True
    bridge_costs: bool = True  # the waste bound counts the Bridges' least replacement costs
    # objective none with a time limit: the CP-SAT loss model where the search stalls
    loss_model: bool = True
    # the table learns under the row fronts, so a proof holds for every state with the same
    # fronts, hands and deck pointers (solver.nogood)
    nogood: bool = True
    # a state proven lost also rules out the states with worse hands (solver.nogood); off by
    # default: measured to cut almost nothing; in the Python search only (on: no core)
    nogood_dominance: bool = False
    # objective none: the colour-free abstraction takes turns with the search; its loss is a
    # real loss (solver.abstraction)
    abstraction: bool = True
    # waste: the root's bound also takes every row's least next step (solver.stepbound); off
    # by default: admissible but measured to raise no bound on the ladder
    step_bound: bool = False


class Stop(Exception):
    """A limit (time, nodes, memory) ran out: raised deep in a search, caught by its driver."""


class NodeLimits:
    """The limit check shared by the searches (:class:`solver.exhaustive.Search`,
    :class:`solver.generic.GenericSearch`). The search sets ``deadline`` (``time.monotonic``
    seconds or ``None``), ``node_limit`` (nodes or ``None``), ``nodes``, ``next_check``,
    ``progress`` (a callable taking :meth:`stats`, or ``None``) and ``last_report``, and calls
    :meth:`_check_limits` when ``nodes`` reaches ``next_check``."""

    deadline: float | None
    node_limit: int | None
    nodes: int
    next_check: int
    progress: Callable[[dict], None] | None
    last_report: float

    def stats(self) -> dict:  # pragma: no cover - every search defines its own
        raise NotImplementedError

    def _check_limits(self) -> None:
        """Called every 1024 nodes, and exactly at the node limit. Raises :class:`Stop` when
        the deadline has passed or the node limit is reached; reports progress about twice a
        second."""
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise Stop
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise Stop
        self.next_check = self.nodes + 1024
        if self.node_limit is not None:
            self.next_check = min(self.next_check, self.node_limit)
        if self.progress is not None and now - self.last_report > 0.5:
            self.last_report = now
            self.progress(self.progress_stats())

    def progress_stats(self) -> dict:
        """What the ``progress`` callback gets: :meth:`stats` (a search may add the
        objective's best value and proven bound so far)."""
        return self.stats()


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


class State:
    """The compact state of one game from one start (a :class:`~model.deal.Deal` or a fully
    known :class:`~model.game.Game`), its moves and its keys. ``objective`` (``none``,
    ``waste``, ``turns``) sets what a move costs (:meth:`move_cost`).

    The searches (:class:`solver.exhaustive.Search`) add the limits and the table; the
    bounds (:class:`solver.bounds.Bounds`) and the beam (:class:`solver.beam.Beam`) work on
    this state."""

    def __init__(self, start: Deal | Game, objective: str = "none") -> None:
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
        # solver.abstraction: colours ignored (no R5 block, a Campfire moves any colour)
        self.colourless = False
        self.objective = objective
        self.sw = Switches()
        decks: Sequence[Sequence[Card]]
        if game is None:
            assert deal is not None
            decks = deal.decks
        elif game.deal is not None:
            decks = game.deal.decks
        else:
            decks = [list(h) + list(d) for h, d in zip(game.hands, game.decks)]
        self.decks = [tuple(self.t.id_of[c] for c in d) for d in decks]
        # colour-free tie-break: where a card type first stands in its player's deck. A
        # relabelling of colours keeps these positions, so the search order (and the plan)
        # changes only by the relabelling.
        self.first_pos = self.first_positions()
        self._canon_cache: dict[tuple, list[int]] = {}
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

    def first_positions(self) -> list[list[int]]:
        """Per player, where each card type first stands in that player's ``decks`` entry
        (hand then deck; 255 where it never does, capped at 254): the colour-free tie-break
        of the move order."""
        out = []
        for d in self.decks:
            fp = [255] * (self.t.dead + 1)
            for i, c in enumerate(d):
                if fp[c] == 255:
                    fp[c] = min(i, 254)
            out.append(fp)
        return out

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
        nocol = self.colourless  # solver.abstraction: colours ignored (R5, R9 relaxed)
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
                    if n and colour[row[-1]] == col and not nocol:
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
                            if s and colour[row[s - 1]] == col and not nocol:
                                continue
                            if s + 1 < len(row) and colour[row[s + 1]] == col and not nocol:
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
                        if kind[x] != K_ASCENT or (colour[x] != col and not nocol):
                            continue
                        for r2 in range(r + 1, maxrow[x]):
                            row2 = rows[r2]
                            n2 = len(row2)
                            if n2 == rowlen[r2] or len(rows[r2 - 1]) < n2 + 2:
                                continue
                            if n2 and colour[row2[-1]] == colour[x] and not nocol:
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

    def _can_move(self) -> bool:
        """R12: the player to move can discard two or play something."""
        p = self.to_move
        return len(self.hands[p]) >= 2 or bool(self.placements(p))

    # ---- dead cards and keys -------------------------------------------------------------

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
        self.extend_with_hands(parts, flags)
        return bytes(parts)

    def extend_with_hands(self, parts: list[int], flags) -> None:
        """Append to the key bytes ``parts`` each player's hand (canonical under switch
        ``dominance``), 254, and the deck pointer in two bytes."""
        dominance = self.sw.dominance
        for p in range(self.P):
            parts.extend(self.canonical_hand(self.hands[p], flags) if dominance else self.hands[p])
            parts.append(254)
            parts.append(self.ptr[p] >> 8)  # deck pointers take two bytes: decks may
            parts.append(self.ptr[p] & 255)  # hold more than 255 cards

    # ---- moves in search order, costs ----------------------------------------------------

    def move_cost(self, kind: int, ndisc: int) -> int:
        if self.objective == "waste":
            return ndisc + (1 if kind == M_BRIDGE_REPLACE else 0)
        if self.objective == "turns":
            return 1
        return 0

    def line_cost(self, line: list[tuple]) -> int:
        """The objective's value of a line from the start (0 for ``none``)."""
        return sum(self.move_cost(m[0], len(m[6])) for m in line)

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

    # ---- decoding ------------------------------------------------------------------------

    def from_moves(self, moves: list[Move]) -> list[tuple]:
        """:class:`~model.moves.Move` objects (legal from the current state, as
        :mod:`model` replays them) → internal moves; the inverse of :meth:`to_moves`. Leaves
        the state as it was."""
        id_of = self.t.id_of
        out = []
        recs = []
        try:
            for mv in moves:
                disc = tuple(sorted(id_of[c] for c in mv.discard))
                if mv.kind == DISCARD:
                    im = (M_DISCARD, -1, 0, 0, 0, 0, disc)
                else:
                    assert mv.card is not None
                    card = id_of[mv.card]
                    r, k = mv.row - 1, mv.slot - 1
                    if mv.kind == CAMPFIRE:
                        im = (M_CAMPFIRE, card, r, k, mv.to_row - 1, mv.to_slot - 1, disc)
                    elif r == self.R:
                        im = (M_SUMMIT, card, self.R, 0, 0, 0, disc)
                    elif k < len(self.rows[r]) and self.rows[r][k] == self.t.bridge:
                        im = (M_BRIDGE_REPLACE, card, r, k, 0, 0, disc)
                    else:
                        im = (M_PLACE, card, r, k, 0, 0, disc)
                out.append(im)
                recs.append((im, self.apply(im)))
        finally:
            for im, rec in reversed(recs):
                self.undo(im, rec)
        return out

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
