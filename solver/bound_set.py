"""The bounds of the exhaustive search as objects: each one a proof that no win (within a
budget) exists from a state, with the numbers that prove it.

A bound is a small object with

* ``name``: the key it counts in the search's ``pruned`` when it cuts (``summit``, ``cards``,
  ``height``, ``objective``, ``spare``; :meth:`Bound.key` where it depends on the budget);
  ``switch``: its own switch of :class:`~solver.state.Switches` where it has one (off: it
  never cuts, but :class:`WasteBound` still cuts against a waste budget; ``bounds`` off: no
  bound is asked);
* ``lower(s, budget) -> int``: a proven lower bound on what is still to pay, in the
  objective's units (waste: cards out of the game; turns: moves; none: nothing), from the
  state ``s`` on; ``INF`` when no win exists from ``s`` at all. A pure feasibility bound
  returns 0 or ``INF``. With a finite ``budget`` a bound may stop early: it then returns
  some value above ``budget`` (still a proven lower bound). The search cuts ``s`` when the
  value is above ``budget`` or ``INF``;
* ``witness(s, budget=INF)``: a frozen record with the numbers that prove the cut
  (:data:`Witness`), or ``None`` when the bound does not cut at ``budget``. With
  ``budget = INF`` a witness proves a loss; :mod:`solver.reasons` puts every kind into
  words.

:data:`BOUNDS` is the list the search asks, in order (the first that cuts counts in
``pruned``): :class:`SummitLeft` (R10), :class:`CardsLeft` (R8, R11), :class:`PlayersCards`
(R11, R12; 2–5 players), :class:`MovesLeft` and :class:`PlayersTurns` (objective ``turns``;
R11, R12), :class:`HeightBound` (R4), :class:`WasteBound` (the Bridges' replacements, R8;
solo the deck prefix to draw, R11; 2–5 players the deck windows, R13; against the waste
budget and, in every objective, the cards to spare). :class:`BoundSet` asks the ones that
apply to a state's player count and objective (:meth:`BoundSet.fails`). The numbers come
from the state's own tables (:mod:`solver.bounds`, :mod:`solver.windows`); the compiled core
(``solver/_core.c``) has its own copy of the same bounds, in the same order.

Every bound is a cost *to go*, so it holds from any start position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar, Protocol, Sequence

from solver.state import INF, Switches, Tables


class BoundedState(Protocol):
    """What the bounds read of a state (:class:`solver.bounds.Bounds` has it all)."""

    t: Tables
    sw: Switches
    objective: str
    P: int
    R: int
    hand_size: int
    rowlen: list[int]
    rows: list[list[int]]
    hands: list[list[int]]
    decks: list[tuple[int, ...]]
    ptr: list[int]
    to_move: int
    filled: int
    n_bridges: int
    n_remaining: int
    remaining: list[int]
    rem_by_maxrow: list[int]
    pruned: dict[str, int]
    _slots_total: int

    def players_turns_bound(self, budget: int = INF) -> int: ...
    def players_window_bound(self, budget: int = INF) -> int: ...
    def waste_lower_bound(self, budget: int = INF) -> int: ...
    def solo_prefix(self) -> tuple[int, int]: ...
    def bridge_costs(self, detail: list | None = None) -> int: ...


# --- the witnesses: what proves each cut (rows, slots and players counted from 1) -----------

@dataclass(frozen=True)
class SummitsGone:
    """Every Summit has left the game (R10)."""


@dataclass(frozen=True)
class CardsShort:
    """The ``slots`` still empty (the peak included) and the ``bridges`` standing need a card
    each, and only ``left`` are left in hands and decks (R8, R11)."""

    slots: int
    bridges: int
    left: int


@dataclass(frozen=True)
class PlayerShort:
    """``player`` has ``left`` cards in hand and deck, fewer than the ``turns`` the win still
    needs of them (R11, R12)."""

    player: int
    left: int
    turns: int


@dataclass(frozen=True)
class HeightShort:
    """Rows ``low``–``top`` still have ``need`` empty slots and Bridges (``bridges`` of
    them Bridges), and only ``have`` cards left can go that high (R4)."""

    low: int
    top: int
    need: int
    bridges: int
    have: int


@dataclass(frozen=True)
class MovesShort:
    """The win still needs at least ``moves`` moves (one a slot and Bridge; with
    ``turn_order``, the players' turns and cards of :meth:`~solver.windows.PlayerWindows.
    players_turns_bound`), more than the ``budget`` allowed (objective ``turns``)."""

    moves: int
    budget: int
    turn_order: bool


@dataclass(frozen=True)
class BridgeCost:
    """The least a Bridge standing at ``row``, ``slot`` costs to replace (R8), with ``card``
    (its text; ``None`` when no card left may go there)."""

    row: int
    slot: int
    cost: int
    card: str | None


@dataclass(frozen=True)
class WasteShort:
    """At least ``lower`` cards must still leave the game, more than ``budget`` (the
    objective's waste budget) or ``spare`` (the cards to spare: cards left minus ``slots``
    still to fill; exactly what a win may still take out). The parts:

    * ``bridges`` standing, each of which leaves the game, and the least costs of their
      replacements (``costs``: ``INF`` when one can never be paid; ``costs_sum``);
    * solo: ``prefix`` cards must still be drawn (``INF``: the deck cannot give what the win
      needs) to reach a Summit (``prefix_why = 0``) or enough cards of value ``prefix_why``
      or more for the rows from there up (R4, R11), while at most ``slots + bridges`` cards
      may go onto the mountain; ``prefix = 0``: nothing to reach;
    * 2–5 players: ``windows``, the players' deck windows' bound (R11, R13; ``None`` when not
      asked).
    """

    lower: int
    budget: int
    spare: int
    slots: int
    bridges: int
    costs: tuple[BridgeCost, ...]
    costs_sum: int
    hand_size: int
    top: int
    prefix: int
    prefix_why: int
    windows: int | None

    @property
    def prefix_cost(self) -> int:
        """The cards that reaching ``prefix`` takes out of the game (the Bridges included)."""
        return self.bridges + max(0, self.prefix + 1 - self.slots - self.bridges)


#: Every kind of witness (:mod:`solver.reasons` formats each).
Witness = SummitsGone | CardsShort | PlayerShort | HeightShort | MovesShort | WasteShort
WITNESS_KINDS: tuple[type, ...] = (SummitsGone, CardsShort, PlayerShort, HeightShort, MovesShort,
                                   WasteShort)


# --- the bounds ------------------------------------------------------------------------------

def _to_fill(s: BoundedState) -> int:
    """Cards the win still places: the empty slots (the peak included) and the Bridges."""
    return s._slots_total - s.filled + s.n_bridges


class Bound:
    """One bound (see the module docstring). ``players``: the player counts it applies to
    (``"solo"``, ``"team"`` or ``"any"``); ``objectives``: the objectives it applies to
    (``None``: all)."""

    name: ClassVar[str]
    switch: ClassVar[str | None] = None
    players: ClassVar[str] = "any"
    objectives: ClassVar[tuple[str, ...] | None] = None

    def applies(self, P: int, objective: str) -> bool:
        if self.players == "solo" and P != 1 or self.players == "team" and P == 1:
            return False
        return self.objectives is None or objective in self.objectives

    def lower(self, s: BoundedState, budget: int = INF) -> int:
        raise NotImplementedError

    def key(self, s: BoundedState, budget: int) -> str:
        """The ``pruned`` key a cut at ``budget`` counts under."""
        return self.name

    def witness(self, s: BoundedState, budget: int = INF) -> Witness | None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class SummitLeft(Bound):
    """R10: only a Summit wins; none left in a hand or deck, no win."""

    name = "summit"

    def lower(self, s: BoundedState, budget: int = INF) -> int:
        return INF if s.remaining[s.t.summit] == 0 else 0

    def witness(self, s: BoundedState, budget: int = INF) -> SummitsGone | None:
        return SummitsGone() if s.remaining[s.t.summit] == 0 else None


class CardsLeft(Bound):
    """R8, R11: every empty slot and every Bridge standing takes a card of its own."""

    name = "cards"

    def lower(self, s: BoundedState, budget: int = INF) -> int:
        return INF if s.n_remaining < s._slots_total - s.filled + s.n_bridges else 0

    def witness(self, s: BoundedState, budget: int = INF) -> CardsShort | None:
        if s.n_remaining >= _to_fill(s):
            return None
        return CardsShort(s._slots_total - s.filled, s.n_bridges, s.n_remaining)


class PlayersCards(Bound):
    """R11, R12 (2–5 players): each of the moves still to play (at least one a slot and
    Bridge) is made by the player in turn and takes a card of that player's hand and deck."""

    name = "cards"
    players = "team"

    def _short(self, s: BoundedState) -> PlayerShort | None:
        n, P, to_move = _to_fill(s), s.P, s.to_move
        hands, decks, ptr = s.hands, s.decks, s.ptr
        for q in range(P):
            turns = (n - (q - to_move) % P + P - 1) // P
            left = len(hands[q]) + len(decks[q]) - ptr[q]
            if left < turns:
                return PlayerShort(q + 1, left, turns)
        return None

    def lower(self, s: BoundedState, budget: int = INF) -> int:
        return 0 if self._short(s) is None else INF

    def witness(self, s: BoundedState, budget: int = INF) -> PlayerShort | None:
        return self._short(s)


class MovesLeft(Bound):
    """Objective ``turns``: one move at least for each empty slot and each Bridge."""

    name = "objective"
    objectives = ("turns",)

    def lower(self, s: BoundedState, budget: int = INF) -> int:
        return s._slots_total - s.filled + s.n_bridges

    def witness(self, s: BoundedState, budget: int = INF) -> MovesShort | None:
        n = _to_fill(s)
        return MovesShort(n, budget, False) if n > budget else None


class PlayersTurns(Bound):
    """Objective ``turns``, 2–5 players (switch ``window_players``): the turn order and the
    cards each player has left (:meth:`~solver.windows.PlayerWindows.players_turns_bound`);
    asked only under a finite budget."""

    name = "objective"
    switch = "window_players"
    players = "team"
    objectives = ("turns",)

    def lower(self, s: BoundedState, budget: int = INF) -> int:
        if not s.sw.window_players or budget >= INF:
            return 0
        return s.players_turns_bound(budget)

    def witness(self, s: BoundedState, budget: int = INF) -> MovesShort | None:
        n = self.lower(s, budget)
        return MovesShort(n, budget, True) if n > budget else None


class HeightBound(Bound):
    """R4: for every height h, the cards left that may go into rows ≥ h (value ≥ h, or a
    Campfire) cover the empty slots and Bridges of those rows, each card at most one."""

    name = "height"

    def lower(self, s: BoundedState, budget: int = INF) -> int:
        rows, rowlen, by_row = s.rows, s.rowlen, s.rem_by_maxrow
        bridge = s.t.bridge
        nb = s.n_bridges
        need = have = 0
        for h in range(s.R, 0, -1):
            row = rows[h - 1]
            need += rowlen[h - 1] - len(row)
            if nb:
                need += row.count(bridge)
            have += by_row[h]
            if have < need:
                return INF
        return 0

    def _rows(self, s: BoundedState) -> list[HeightShort]:
        """For h from the top row down: rows h and up, their slots and Bridges to fill and
        the cards left that may go there."""
        out = []
        bridge = s.t.bridge
        need = have = nbr = 0
        for h in range(s.R, 0, -1):
            row = s.rows[h - 1]
            b = row.count(bridge) if s.n_bridges else 0
            nbr += b
            need += s.rowlen[h - 1] - len(row) + b
            have += s.rem_by_maxrow[h]
            out.append(HeightShort(h, s.R, need, nbr, have))
        return out

    def witness(self, s: BoundedState, budget: int = INF) -> HeightShort | None:
        for w in self._rows(s):
            if w.have < w.need:
                return w
        return None

    def tightest(self, s: BoundedState) -> HeightShort | None:
        """The rows (h ≥ 2, the bottom row left out) whose cards to spare ``have − need``
        are fewest (the higher rows on a tie), among those with something to fill; ``None``
        when none has. What the height cut runs into first along the lines of a search."""
        best = None
        for w in self._rows(s):
            if w.low >= 2 and w.need and (best is None or w.have - w.need < best.have - best.need):
                best = w
        return best


class WasteBound(Bound):
    """The cards that must still leave the game (:meth:`solver.bounds.Bounds.
    waste_lower_bound`: every Bridge standing and its least replacement cost, R8; solo the
    deck prefix to draw; 2–5 players the players' deck windows), against the objective's
    waste budget and, in every objective (switch ``budget``), against the cards to spare (a
    win takes out exactly the slots still to fill plus its waste). ``lower``: the waste to go
    (objective ``waste``, 0 in the others) or ``INF`` when it is above the cards to spare."""

    name = "spare"
    switch = "budget"  # against the cards to spare; ``bridge_costs``, ``window_players``: parts

    @staticmethod
    def _caps(s: BoundedState, budget: int) -> tuple[int, int]:
        waste_b = budget if (s.objective == "waste" and budget < INF) else INF
        spare = (s.n_remaining - (s._slots_total - s.filled)) if s.sw.budget else INF
        return waste_b, spare

    def lower(self, s: BoundedState, budget: int = INF) -> int:
        waste = s.objective == "waste"
        cap = budget if (waste and budget < INF) else INF
        spare = (s.n_remaining - (s._slots_total - s.filled)) if s.sw.budget else INF
        if spare < cap:
            cap = spare
        if cap >= INF:  # nothing to cut against: not asked
            return 0
        w = s.waste_lower_bound(cap)
        if w > spare:
            return INF
        return w if waste else 0

    def key(self, s: BoundedState, budget: int) -> str:
        waste_b, spare = self._caps(s, budget)
        return "objective" if waste_b <= spare else "spare"

    def witness(self, s: BoundedState, budget: int = INF) -> WasteShort | None:
        waste_b, spare = self._caps(s, budget)
        cap = min(waste_b, spare)
        if cap >= INF:
            return None
        w = s.waste_lower_bound(cap)
        if w <= cap:
            return None
        return self.parts(s, budget, w)

    def parts(self, s: BoundedState, budget: int = INF, lower: int | None = None) -> WasteShort:
        """The parts of the bound at ``s`` (see :class:`WasteShort`), whether it cuts or not;
        ``lower``: the bound itself when known (else computed)."""
        waste_b, spare = self._caps(s, budget)
        nb = s.n_bridges
        detail: list[tuple[int, int, int, int]] = []
        costs_sum = s.bridge_costs(detail) if nb and s.sw.bridge_costs else 0
        cards = s.t.cards
        costs = tuple(BridgeCost(r + 1, k + 1, cost, str(cards[c]) if c >= 0 else None)
                      for r, k, cost, c in detail)
        prefix, why, windows = 0, -1, None
        if s.P == 1:
            prefix, why = s.solo_prefix()
        elif s.sw.window_players:
            windows = s.players_window_bound(min(waste_b, spare))
        if lower is None:
            lower = s.waste_lower_bound(min(waste_b, spare))
        return WasteShort(lower, waste_b, spare, s._slots_total - s.filled, nb, costs,
                          costs_sum, s.hand_size, s.R, prefix, why, windows)


_Asked = tuple[Callable[[BoundedState, int], int], str, Callable[[BoundedState, int], str] | None]


class BoundSet:
    """The bounds the search asks, in order, as data (:data:`BOUNDS`); :meth:`fails` is
    :meth:`solver.bounds.Bounds.bound_fails`."""

    def __init__(self, bounds: Sequence[Bound]) -> None:
        self.bounds = tuple(bounds)
        # per (players, objective): the bounds that apply, each with its ``lower`` and its
        # ``key`` where that is not just ``name`` (the search asks them at every node)
        self._asked: dict[tuple[int, str], tuple[_Asked, ...]] = {}

    def _ask(self, P: int, objective: str) -> tuple[_Asked, ...]:
        got = self._asked[(P, objective)] = tuple(
            (b.lower, b.name, b.key if type(b).key is not Bound.key else None)
            for b in self.bounds if b.applies(P, objective))
        return got

    def active(self, P: int, objective: str) -> tuple[Bound, ...]:
        """The bounds that apply to ``P`` players and ``objective``, in order."""
        return tuple(b for b in self.bounds if b.applies(P, objective))

    def fails(self, s: BoundedState, budget: int) -> bool:
        """True when a bound proves that no win within ``budget`` exists from ``s``; the
        first one that does counts in ``s.pruned`` (under :meth:`Bound.key`)."""
        asked = self._asked.get((s.P, s.objective)) or self._ask(s.P, s.objective)
        for lower, name, key in asked:
            v = lower(s, budget)
            if v > budget or v >= INF:
                s.pruned[name if key is None else key(s, budget)] += 1
                return True
        return False

    def witness(self, s: BoundedState, budget: int = INF) -> Witness | None:
        """The witness of the first bound that cuts at ``budget`` (``INF``: a loss), or
        ``None``."""
        for b in self.active(s.P, s.objective):
            w = b.witness(s, budget)
            if w is not None:
                return w
        return None


#: The search's bounds, in the order it asks them.
BOUNDS = BoundSet([SummitLeft(), CardsLeft(), PlayersCards(), MovesLeft(), PlayersTurns(),
                   HeightBound(), WasteBound()])

__all__ = ["BOUNDS", "WITNESS_KINDS", "Bound", "BoundSet", "BoundedState", "BridgeCost", "CardsLeft",
           "CardsShort", "HeightBound", "HeightShort", "MovesLeft", "MovesShort", "PlayerShort",
           "PlayersCards", "PlayersTurns", "SummitLeft", "SummitsGone", "WasteBound", "WasteShort",
           "Witness"]
