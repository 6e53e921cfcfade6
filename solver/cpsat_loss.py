"""The CP-SAT loss model: a relaxation of the game from any fully known position, 1–5
players, whose infeasibility proves that no win exists.

Every winning continuation of the real game (R1–R13) gives a solution of the model, so
**INFEASIBLE is a proof that the position is lost** (with a budget ``B`` on the waste still
to spend: that no win spends ``≤ B``). A solution is only a candidate: :meth:`LossModel.decode`
turns it into moves that :mod:`model` replays; when the replay wins it is a win, else the
model proved nothing. The model exists for what the exhaustive search cannot do quickly:
reason about **the order in which the cards arrive** (a hand of ``H``, the decks read in
order) together with the step costs, over all the slots still to fill at once.

Data (:class:`LossData`): per player ``q`` a sequence of its cards, the hand first and then
the deck in order; card ``i`` of ``q`` is in the hand once ``q`` has taken ``i + 1 − H``
cards out of it (R11: a hand draws back to ``H`` after every move). Time is the *move
index* ``τ`` (0 for the player to move now; move ``τ`` is made by player
``(to_move + τ) mod P``, R11) and, for the mover, the *consumption* ``u``: the cards it has
taken out of its hand before that move.

* **Events.** Every empty slot (the peak included) has one event, its first fill: an Ascent
  card, a Bridge (R7), a Campfire (R9: the slot receives the card the Campfire moved; the
  Campfire takes that card's slot) or the Summit (R10). Every Bridge standing on the
  mountain has a replacement event (R8), and every empty inner slot an optional one (present
  iff a Bridge first fills it). An event at move ``τ`` is made by the owner of its card and
  takes ``1 + cost`` cards out of that player's hand; every other move is a discard turn
  (two cards). So the mover's consumption before an event is
  ``u = 2·k + Σ (cost − 1)`` over its own earlier events, ``k`` its own moves before it.

The rules enter in groups, each under one *assumption literal* (an enforcement literal that
the solve assumes true), so that an infeasible model names the groups its proof used
(CP-SAT's sufficient assumptions for infeasibility; :data:`GROUPS`):

* ``order`` (R3, R8, R9, R10): left to right along a row, above the two supporting slots, a
  replacement after its Bridge, a Campfire after its card is there, the Summit last;
* ``turns`` (R11): the players move in turn, one move at a time;
* ``heights`` (R4): a card of value ``v`` fills rows ``≤ v`` (a moved card too);
* ``colours`` (R5): at a win every two neighbours in a row differ in colour (a Campfire has
  the colour of the card it took the place of, a Bridge is replaced by then);
* ``costs`` (R6, R8, R9): an event's cost is ``|v − reference|`` where the reference is
  known; where a Campfire may look through the neighbour, or a Bridge stands to the left, it
  is relaxed (any cost from 0 to ``H − 1``);
* ``hand`` (R11): at each event the cards still to be played that the mover holds, plus its
  cost, fit in the hand (and at the discard turn just before it, two more);
* ``cards`` (R11, R12, R13): each player's cards out, until the Summit's move, do not exceed
  the player's own cards; with a budget, all cards out do not exceed the slots still to fill
  plus the budget.

Relaxed (so that the model stays a relaxation): the costs named above, R12 for a player down
to one card, which cards pay a cost or are discarded (any that are not played later), and
that a Campfire's card must be able to leave (only its destination is modelled). The
optional Goats module is not modelled (``ValueError``).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from ortools.sat.python import cp_model

from model.cards import Card
from model.deal import Deal
from model.errors import IllegalMoveError
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move
from solver.cpsat_run import solve_interruptibly

INFEASIBLE, CANDIDATE, UNKNOWN_STATUS = "infeasible", "candidate", "unknown"

#: The rule groups, each under one assumption literal (see the module docstring), with the
#: words a reason uses for them.
GROUPS: dict[str, str] = {
    "order": "the order of play (R3: left to right, on two supporting cards; the Summit last)",
    "turns": "the turn order (R11)",
    "heights": "the heights (R4)",
    "colours": "the colours (R5)",
    "costs": "the step costs (R6, R8)",
    "hand": "the hand size (R11: the cards still to play must be held)",
    "cards": "the cards each player has left (R12, R13)",
}


@dataclass(frozen=True)
class SeqCard:
    """Card ``card`` of player ``owner`` (0-based) at index ``index`` of its sequence (the
    hand first, then the deck in order)."""

    owner: int
    index: int
    card: Card


@dataclass
class LossData:
    """The plain data of a fully known position for the loss model: ``P`` players, hand size
    ``H``, ``to_move`` (0-based), ``cards`` (every card still in a hand or deck),
    ``n_cards[q]`` (cards of player ``q``), ``slots`` (``(row, slot)`` 0-based, the peak as
    ``(R, 0)``), ``fixed`` (slot → the card on it), ``empty`` (the slots still to fill),
    ``hand_sizes`` and the rule set's options read by the model."""

    game: Game
    P: int
    H: int
    R: int
    to_move: int
    cards: list[SeqCard]
    n_cards: list[int]
    rowlen: list[int]
    slots: list[tuple[int, int]]
    fixed: dict[tuple[int, int], Card]
    empty: list[tuple[int, int]]
    colours: tuple[str, ...]
    values: int
    look_through: bool
    bridge_max: bool
    campfire_paid: bool

    @classmethod
    def of(cls, start: Deal | Game) -> LossData:
        """The data of ``start`` (a deal's first move, or any fully known position). Raises
        ``ValueError`` for a won position or the Goats module."""
        game = Game(start) if isinstance(start, Deal) else start
        rules = game.rules
        if rules.goats == "on":
            raise ValueError("the loss model does not model the Goats module")
        if game.is_won():
            raise ValueError("the position is already won")
        R = rules.rows
        rowlen = [rules.row_length(r + 1) for r in range(R)]
        slots = [(r, k) for r in range(R) for k in range(rowlen[r])] + [(R, 0)]
        fixed = {}
        for r in range(R + 1):
            for k, c in enumerate(game.mountain[r]):
                fixed[r, k] = c
        empty = [s for s in slots if s not in fixed]
        cards: list[SeqCard] = []
        n_cards: list[int] = []
        for q in range(game.players):
            seq = list(game.hands[q]) + list(game.decks[q])
            cards.extend(SeqCard(q, i, c) for i, c in enumerate(seq))
            n_cards.append(len(seq))
        return cls(game, game.players, rules.hand_size, R, game.to_move, cards, n_cards,
                   rowlen, slots, fixed, empty, rules.colour_letters, rules.values,
                   rules.bridge_neighbour == "look-through",
                   rules.bridge_replace_cost == "max", rules.campfire_move_cost == "paid")

    def offset(self, q: int) -> int:
        """The move index of player ``q``'s first move (R11: turns go round)."""
        return (q - self.to_move) % self.P


@dataclass
class Event:
    """One event of the model: the first fill of ``slot`` (``kind="fill"``) or the
    replacement of the Bridge on ``slot`` (``kind="replace"``). ``present`` is ``None`` for
    an event every win has, else its literal; ``choice`` maps a card index (into
    ``LossData.cards``) to the literal that the card makes this event."""

    kind: str
    slot: tuple[int, int]
    present: Any
    choice: dict[int, Any] = field(default_factory=dict)
    tau: Any = None
    k: Any = None
    u: Any = None
    cost: Any = None
    end: Any = None
    player: dict[int, Any] = field(default_factory=dict)


class LossModel:
    """The loss model of a position (see the module docstring). ``budget``: the most waste
    still to spend that a win may have (``None``: no budget beyond the cards left).
    ``groups``: the rule groups to add (default all of :data:`GROUPS`); a group left out is
    relaxed away. Build, then :func:`solve_loss_model`; :meth:`decode` turns a solution
    into moves."""

    def __init__(self, start: Deal | Game, budget: int | None = None,
                 groups: tuple[str, ...] | None = None) -> None:
        self.data = d = LossData.of(start)
        self.model = m = cp_model.CpModel()
        self.budget = budget
        self.groups = tuple(GROUPS) if groups is None else tuple(groups)
        unknown = set(self.groups) - set(GROUPS)
        if unknown:
            raise ValueError(f"unknown rule group {sorted(unknown)[0]!r}; valid: {', '.join(GROUPS)}")
        #: assumption literal of each rule group
        self.lit = {g: m.new_bool_var(f"group_{g}") for g in self.groups}
        self.T = sum(d.n_cards)  # every move takes a card out of a hand for good
        self._cb_cache: dict[tuple, Any] = {}
        self._variables()
        self._idx = {id(e): n for n, e in enumerate(self.events)}
        for g in self.groups:
            getattr(self, "_rule_" + g)(self.lit[g])
        m.add_assumptions(list(self.lit.values()))

    # ---- variables and the definitions every group reads ---------------------------------

    def _on(self, group: str) -> list[Any]:
        """The enforcement literals of ``group`` (empty when it is not modelled: then the
        constraints that read it are not added)."""
        return [self.lit[group]] if group in self.lit else []

    def _variables(self) -> None:
        """The variables and the definitions every group reads, family by family (in this
        order, which is the model's variable order): the events (first fills, then Bridge
        replacements), which cards are played, the slots' contents, the Campfires' sources,
        the events' times and costs, their order, their movers, the hand's consumption and
        the cards' arrival in the hand."""
        self.events: list[Event] = []
        self._fill_events()
        self._replace_events()
        self._played_cards()
        self._contents()
        self._campfire_sources()
        self._event_times()
        self._event_order()
        self._same_mover()
        self._consumption()
        self._arrival()

    def _fill_events(self) -> None:
        """``fill[s]``: the first fill of each empty slot, with a literal per card that may
        make it (a Summit at the peak; Ascent cards and Campfires; Bridges inside a row)."""
        d, m = self.data, self.model
        R, cards = d.R, d.cards
        self.fill: dict[tuple[int, int], Event] = {}
        for s in d.empty:
            r, k = s
            e = Event("fill", s, None)
            for ci, sc in enumerate(cards):
                c = sc.card
                if r == R:
                    ok = c.is_summit
                elif c.is_ascent:
                    ok = True  # heights (R4) is a group of its own
                elif c.is_campfire:
                    ok = r >= 1
                elif c.is_bridge:
                    ok = 0 < k < d.rowlen[r] - 1
                else:
                    ok = False
                if ok:
                    e.choice[ci] = m.new_bool_var(f"fill_c{ci}_r{r}_s{k}")
            m.add_exactly_one(e.choice.values())
            self.fill[s] = e
            self.events.append(e)

    def _replace_events(self) -> None:
        """``rep[s]``: the replacement of a Bridge on ``s`` (standing, or one a fill may put
        there), with a literal per Ascent card that may make it."""
        d, m = self.data, self.model
        cards = d.cards
        self.rep: dict[tuple[int, int], Event] = {}
        for s in d.slots:
            r, k = s
            standing = d.fixed.get(s) is not None and d.fixed[s].is_bridge
            may = s in self.fill and any(cards[ci].card.is_bridge for ci in self.fill[s].choice)
            if not (standing or may):
                continue
            if standing:
                present = None
            else:
                present = m.new_bool_var(f"bridge_r{r}_s{k}")
                m.add(present == sum(v for ci, v in self.fill[s].choice.items()
                                     if cards[ci].card.is_bridge))
            e = Event("replace", s, present)
            for ci, sc in enumerate(cards):
                if sc.card.is_ascent:
                    e.choice[ci] = m.new_bool_var(f"rep_c{ci}_r{r}_s{k}")
            m.add(sum(e.choice.values()) == (1 if present is None else present))
            self.rep[s] = e
            self.events.append(e)

    def _played_cards(self) -> None:
        """``played[ci]``: card ``ci`` makes one event; no card makes two."""
        m, cards = self.model, self.data.cards
        uses: dict[int, list[Any]] = {ci: [] for ci in range(len(cards))}
        for e in self.events:
            for ci, v in e.choice.items():
                uses[ci].append(v)
        self.played = {}
        for ci, vs in uses.items():
            m.add_at_most_one(vs)
            p = m.new_bool_var(f"played_c{ci}")
            m.add(p == sum(vs))
            self.played[ci] = p

    def _contents(self) -> None:
        """``val``/``col`` of each empty slot below the peak (0 for a Bridge), ``is_bridge``
        and ``is_camp`` of its first fill, ``rval``/``rcol`` of each Bridge's replacement."""
        d, m = self.data, self.model
        R, cards = d.R, d.cards
        self.val: dict[tuple[int, int], Any] = {}
        self.col: dict[tuple[int, int], Any] = {}
        self.is_bridge: dict[tuple[int, int], Any] = {}
        self.is_camp: dict[tuple[int, int], Any] = {}
        ncol = len(d.colours)
        for s, e in self.fill.items():
            if s[0] == R:
                continue
            self.val[s] = m.new_int_var(0, d.values, f"val_r{s[0]}_s{s[1]}")
            self.col[s] = m.new_int_var(0, ncol, f"col_r{s[0]}_s{s[1]}")
            bridges, camps = [], []
            for ci, v in e.choice.items():
                card = cards[ci].card
                if card.is_ascent:
                    m.add(self.val[s] == card.value).only_enforce_if(v)
                    m.add(self.col[s] == d.colours.index(card.colour) + 1).only_enforce_if(v)
                elif card.is_bridge:
                    bridges.append(v)
                    m.add(self.val[s] == 0).only_enforce_if(v)
                    m.add(self.col[s] == 0).only_enforce_if(v)
                else:
                    camps.append(v)
            self.is_bridge[s] = self._sum_bool(bridges)
            self.is_camp[s] = self._sum_bool(camps)
        self.rval: dict[tuple[int, int], Any] = {}
        self.rcol: dict[tuple[int, int], Any] = {}
        for s, e in self.rep.items():
            self.rval[s] = m.new_int_var(0, d.values, f"rval_r{s[0]}_s{s[1]}")
            self.rcol[s] = m.new_int_var(0, ncol, f"rcol_r{s[0]}_s{s[1]}")
            for ci, v in e.choice.items():
                card = cards[ci].card
                m.add(self.rval[s] == card.value).only_enforce_if(v)
                m.add(self.rcol[s] == d.colours.index(card.colour) + 1).only_enforce_if(v)

    def _event_times(self) -> None:
        """Each event's move index ``tau``, the mover's own move count ``k``, the cards
        consumed before it ``u``, its ``cost`` and ``end``, and its mover (``player``)."""
        d, m = self.data, self.model
        cards, R, H, P = d.cards, d.R, d.H, d.P
        for e in self.events:
            tag = f"{e.kind}_r{e.slot[0]}_s{e.slot[1]}"
            e.tau = m.new_int_var(0, self.T, f"tau_{tag}")
            e.k = m.new_int_var(0, self.T, f"k_{tag}")
            e.u = m.new_int_var(0, self.T + H, f"u_{tag}")
            e.cost = m.new_int_var(0, H - 1, f"cost_{tag}")
            e.end = m.new_int_var(1, self.T + 2 * H, f"end_{tag}")
            m.add(e.end == e.u + e.cost + 1)
            for q in range(P):
                mine = [v for ci, v in e.choice.items() if cards[ci].owner == q]
                e.player[q] = self._sum_bool(mine) if P > 1 else (
                    e.present if e.present is not None else None)
            if e.present is not None:  # an absent event is parked: no time, no cost
                m.add(e.cost == 0).only_enforce_if(e.present.negated())
        self.peak = self.fill[(R, 0)]

    def _event_order(self) -> None:
        """``before[a, b]``: events ``a`` and ``b`` both happen and ``a`` comes first."""
        m = self.model
        E = len(self.events)
        self.before: dict[tuple[int, int], Any] = {}
        for a, b in itertools.permutations(range(E), 2):
            ea, eb = self.events[a], self.events[b]
            lit = m.new_bool_var(f"before_{a}_{b}")
            both = [x for x in (ea.present, eb.present) if x is not None]
            for x in both:
                m.add_implication(lit, x)
            m.add(ea.tau < eb.tau).only_enforce_if(lit)
            m.add(ea.tau > eb.tau).only_enforce_if([lit.negated()] + both)
            self.before[a, b] = lit

    def _same_mover(self) -> None:
        """``same[a, b]``: ``a`` and ``b`` happen and are made by the same player."""
        P = self.data.P
        E = len(self.events)
        self.same: dict[tuple[int, int], Any] = {}
        for a, b in itertools.combinations(range(E), 2):
            ea, eb = self.events[a], self.events[b]
            if P == 1:
                both = [x for x in (ea.present, eb.present) if x is not None]
                same = self._and(both) if both else None
            else:
                same = self._or([self._and([ea.player[q], eb.player[q]]) for q in range(P)])
            self.same[a, b] = self.same[b, a] = same

    def _consumption(self) -> None:
        """``u = 2·k + Σ (cost − 1)`` over the mover's earlier events; ``earlier[b]``: the
        literals "``a`` is an earlier event of ``b``'s mover"."""
        m = self.model
        H, P = self.data.H, self.data.P
        self.earlier: dict[int, Any] = {}
        for b, eb in enumerate(self.events):
            terms = []
            n_before = []
            for a, ea in enumerate(self.events):
                if a == b:
                    continue
                w = self._and_opt([self.before[a, b], self.same[a, b]])
                z = m.new_int_var(-1, H - 2, "")
                m.add(z == ea.cost - 1).only_enforce_if(w)
                m.add(z == 0).only_enforce_if(w.negated())
                terms.append(z)
                n_before.append(w)
            pres = [] if eb.present is None else [eb.present]
            m.add(eb.u == 2 * eb.k + sum(terms)).only_enforce_if(pres)
            self.earlier[b] = n_before
            if P == 1:
                m.add(eb.k == eb.tau)

    def _arrival(self) -> None:
        """A card is played by an event whose mover holds it: it has arrived by then (R11)."""
        m, cards, H = self.model, self.data.cards, self.data.H
        for eb in self.events:
            for ci, v in eb.choice.items():
                need = cards[ci].index + 1 - H
                if need > 0:
                    m.add(eb.u >= need).only_enforce_if(v)

    def _campfire_sources(self) -> None:
        """``src[(j0, j)]``: the card moved into slot ``j`` by a Campfire came from slot
        ``j0`` (lower row; an Ascent content of the Campfire's colour, R9). Fixed Ascent
        cards and empty slots of lower rows may be sources; a slot is a source at most
        once (a Campfire stays for good)."""
        d, m = self.data, self.model
        self.src: dict[tuple[tuple[int, int], tuple[int, int], int], Any] = {}
        by_source: dict[tuple[int, int], list[Any]] = {}
        for j, e in self.fill.items():
            r, _ = j
            camps = [(ci, v) for ci, v in e.choice.items() if d.cards[ci].card.is_campfire]
            for ci, v in camps:
                colour = d.cards[ci].card.colour
                opts = []
                for j0 in d.slots:
                    if j0[0] >= r or j0[0] >= d.R:
                        continue
                    f = d.fixed.get(j0)
                    if f is not None and not (f.is_ascent and f.colour == colour) and not f.is_bridge:
                        continue  # (a Bridge's slot: its replacement may be a source)
                    if f is not None and f.is_ascent and f.value < r + 1:
                        continue  # R4: this card cannot go up to row r (a fact of the position)
                    q = m.new_bool_var(f"src_c{ci}_from_r{j0[0]}_s{j0[1]}_to_r{r}_s{j[1]}")
                    m.add_implication(q, v)
                    cc = d.colours.index(colour) + 1
                    if f is not None and f.is_ascent:
                        m.add(self.val[j] == f.value).only_enforce_if(q)
                        m.add(self.col[j] == cc).only_enforce_if(q)
                    elif f is not None:  # a standing Bridge: its replacement card moves
                        m.add(self.val[j] == self.rval[j0]).only_enforce_if(q)
                        m.add(self.rcol[j0] == cc).only_enforce_if(q)
                        m.add(self.col[j] == cc).only_enforce_if(q)
                    else:  # an empty slot: its Ascent content (or a Bridge's replacement)
                        m.add(self.col[j0] == cc).only_enforce_if([q, self.is_bridge[j0].negated()])
                        m.add(self.val[j] == self.val[j0]).only_enforce_if([q, self.is_bridge[j0].negated()])
                        m.add(self.col[j] == cc).only_enforce_if(q)
                        if j0 in self.rval:
                            m.add(self.val[j] == self.rval[j0]).only_enforce_if([q, self.is_bridge[j0]])
                            m.add(self.rcol[j0] == cc).only_enforce_if([q, self.is_bridge[j0]])
                        else:
                            m.add_implication(q, self.is_bridge[j0].negated())
                    self.src[j0, j, ci] = q
                    opts.append(q)
                    by_source.setdefault(j0, []).append(q)
                m.add(sum(opts) == v)
        self.campfired: dict[tuple[int, int], Any] = {}
        for j0, qs in by_source.items():
            m.add_at_most_one(qs)
            self.campfired[j0] = self._sum_bool(qs)

    # ---- the rule groups ------------------------------------------------------------------

    def _rule_order(self, g: Any) -> None:
        """R3, R8, R9, R10: an event comes after the events of its left and supporting
        slots; a replacement after its Bridge's fill; a Campfire after its source is filled
        (and a source Bridge replaced); the Summit after every other event."""
        d, m = self.data, self.model
        R = d.R

        def after(later: Event, earlier: Event, extra: Sequence[Any] = ()) -> None:
            m.add(later.tau > earlier.tau).only_enforce_if([g, *extra])

        for (r, k), e in self.fill.items():
            if r == R:
                for e2 in self.events:
                    if e2 is not e:
                        pres = [] if e2.present is None else [e2.present]
                        m.add(e.tau > e2.tau).only_enforce_if([g] + pres)
                continue
            pre = [(r, k - 1)] if k > 0 else []
            if r > 0:
                pre += [(r - 1, k), (r - 1, k + 1)]
            for s in pre:
                if s in self.fill:
                    after(e, self.fill[s])
        for s, e in self.rep.items():
            if s in self.fill:
                after(e, self.fill[s], [e.present])
        # redundant: an event comes after every event it needs (R3, transitively), each a move
        need: dict[tuple[int, int], set[tuple[int, int]]] = {}
        for s in sorted(self.fill, key=lambda x: (x[0], x[1])):
            r, k = s
            needed: set[tuple[int, int]] = set()
            if r == R:
                needed = {x for x in self.fill if x != s}
            else:
                for x in ([(r, k - 1)] if k > 0 else []) + ([(r - 1, k), (r - 1, k + 1)] if r else []):
                    if x in self.fill:
                        needed |= {x} | need[x]
            need[s] = needed
            m.add(self.fill[s].tau >= len(needed)).only_enforce_if(g)
        for (j0, j, _), q in self.src.items():
            e = self.fill[j]
            if j0 in self.fill:
                after(e, self.fill[j0], [q])
            if j0 in self.rep:
                extra = [q] if self.rep[j0].present is None else [q, self.rep[j0].present]
                after(e, self.rep[j0], extra)

    def _rule_turns(self, g: Any) -> None:
        """R11: one event a move, and the move index of an event made by player ``q`` is
        ``P·k + offset(q)``, ``k`` the player's own moves before it."""
        d, m = self.data, self.model
        ivs = []
        for e in self.events:
            if e.present is None:
                ivs.append(m.new_interval_var(e.tau, 1, e.tau + 1, ""))
            else:
                ivs.append(m.new_optional_interval_var(e.tau, 1, e.tau + 1, e.present, ""))
        m.add_no_overlap(ivs).only_enforce_if(g)
        for q in range(d.P):  # redundant: a player's moves take its cards out one after another
            spans = []
            for e in self.events:
                mine = [x for x in ((e.player[q] if d.P > 1 else None), e.present) if x is not None]
                spans.append(m.new_optional_interval_var(e.u, e.cost + 1, e.end,
                                                      self._and_opt(mine), ""))
            m.add_no_overlap(spans).only_enforce_if(g)
        if d.P > 1:
            for e in self.events:
                for q in range(d.P):
                    m.add(e.tau == d.P * e.k + d.offset(q)).only_enforce_if([g, e.player[q]])

    def _rule_heights(self, g: Any) -> None:
        """R4: a card of value ``v`` fills rows 1..v: first fills, moved cards and
        replacements alike (the contents' values)."""
        m = self.model
        for (r, k), v in self.val.items():
            m.add(v >= r + 1).only_enforce_if([g, self.is_bridge[r, k].negated()])
        for (r, k), v in self.rval.items():
            e = self.rep[r, k]
            m.add(v >= r + 1).only_enforce_if([g] + ([] if e.present is None else [e.present]))

    def _rule_colours(self, g: Any) -> None:
        """R5 at the win: two neighbours in a row differ in colour (a Bridge's slot by its
        replacement's colour, a Campfire by the colour of the card it replaced)."""
        d, m = self.data, self.model

        def colour(s: tuple[int, int]) -> tuple[Any, list[Any]]:
            """The colour of slot ``s`` at the win: a constant or a variable."""
            f = d.fixed.get(s)
            if f is not None:
                if f.is_bridge:
                    return self.rcol[s], []
                return d.colours.index(f.colour) + 1, []
            if s in self.rep:  # a Bridge's replacement, or the first fill's colour
                return None, [(self.rcol[s], [self.is_bridge[s]]),
                              (self.col[s], [self.is_bridge[s].negated()])]
            return self.col[s], []

        for r in range(d.R):
            for k in range(d.rowlen[r] - 1):
                a, b = (r, k), (r, k + 1)
                if a in d.fixed and b in d.fixed and not (d.fixed[a].is_bridge or d.fixed[b].is_bridge):
                    continue
                ca, alt_a = colour(a)
                cb, alt_b = colour(b)
                pa = alt_a if ca is None else [(ca, [])]
                pb = alt_b if cb is None else [(cb, [])]
                for x, ex in pa:
                    for y, ey in pb:
                        if isinstance(x, int) and isinstance(y, int):
                            continue
                        m.add(x != y).only_enforce_if([g, *ex, *ey])

    def _walk(self, s: tuple[int, int], step: int) -> tuple[str, tuple[int, int] | None]:
        """The reference slot of slot ``s`` in direction ``step`` (-1 left, +1 right; R6,
        R8): the first slot that does not hold a Campfire now. ``("none", None)`` past the
        row's end; ``("fixed", slot)`` an Ascent card on the mountain; ``("bridge", slot)``
        a Bridge standing; ``("slot", slot)`` a slot still empty (filled before an event to
        its right, R3)."""
        d = self.data
        r, k = s
        j = k + step
        while 0 <= j < d.rowlen[r]:
            sl = (r, j)
            f = d.fixed.get(sl)
            if f is None:
                return "slot", sl
            if f.is_campfire:
                j += step
                continue
            return ("bridge" if f.is_bridge else "fixed"), sl
        return "none", None

    def _camp_before(self, sl: tuple[int, int], e: Event) -> Any | None:
        """A literal: a Campfire takes the place of slot ``sl``'s card before event ``e``
        (then the reference looks through it, R6, and the model relaxes the cost); ``None``
        when no Campfire can take that place."""
        key = (sl, id(e))
        if key in self._cb_cache:
            return self._cb_cache[key]
        ws = []
        for (j0, j, _), q in self.src.items():
            if j0 != sl:
                continue
            ej = self.fill[j]
            if ej is e:
                continue
            ws.append(self._and([q, self.before[self._idx[id(ej)], self._idx[id(e)]]]))
        lit = self._or(ws) if ws else None
        self._cb_cache[key] = lit
        return lit

    def _absdiff(self, a: Any, b: Any) -> Any:
        d, m = self.data, self.model
        x = m.new_int_var(-d.values, d.values, "")
        m.add(x == a - b)
        y = m.new_int_var(0, d.values, "")
        m.add_abs_equality(y, x)
        return y

    def _side(self, g: Any, s: tuple[int, int], e: Event, value: Any, conds: list[Any],
              step: int, exact: bool) -> None:
        """The cost of event ``e`` (value ``value`` on slot ``s``) against its reference in
        direction ``step``: ``==`` (``exact``) or ``>=`` the difference where the reference
        is known at the event, nothing where it is not (a Campfire there before ``e``, a
        Bridge under ``bridge_neighbour=look-through``, a right neighbour not yet there)."""
        d, m = self.data, self.model
        kind, sl = self._walk(s, step)

        def rel(diff: Any, cond: list[Any]) -> None:
            (m.add(e.cost == diff) if exact else m.add(e.cost >= diff)).only_enforce_if(
                [g, *conds, *cond])

        if kind == "none":
            if exact:
                m.add(e.cost == 0).only_enforce_if([g, *conds])
            return
        assert sl is not None  # _walk names a slot for every kind but "none"
        cb = self._camp_before(sl, e)
        not_cb = [] if cb is None else [cb.negated()]
        there = []  # the right neighbour is filled before the event
        if step > 0 and kind == "slot":
            there = [self.before[self._idx[id(self.fill[sl])], self._idx[id(e)]]]
        if kind == "fixed":
            rel(self._absdiff(value, d.fixed[sl].value), not_cb)
            return
        if kind == "slot":
            rel(self._absdiff(value, self.val[sl]), [*there, self.is_bridge[sl].negated(), *not_cb])
            if sl not in self.rep:
                return
        # a Bridge there: standing, or the first fill of the empty slot
        rep = self.rep[sl]
        rb = self.before[self._idx[id(rep)], self._idx[id(e)]]
        bridge = [] if kind == "bridge" else [self.is_bridge[sl]]
        if not d.look_through and exact:
            m.add(e.cost == 0).only_enforce_if([g, *conds, *there, *bridge, rb.negated()])
        rel(self._absdiff(value, self.rval[sl]), [*there, *bridge, rb, *not_cb])

    def _rule_costs(self, g: Any) -> None:
        """R6, R8, R9: the cost of every event where its references are known (see
        :meth:`_side`); a Bridge costs nothing (R7), the Summit nothing (R10), a moved card
        nothing under ``campfire_move_cost=free``. A replacement pays at least each side's
        difference under ``bridge_replace_cost=max``, the left one under ``left``."""
        d, m = self.data, self.model
        for s, e in self.fill.items():
            if s[0] == d.R:
                m.add(e.cost == 0).only_enforce_if(g)
                continue
            m.add(e.cost == 0).only_enforce_if([g, self.is_bridge[s]])
            conds = [self.is_bridge[s].negated()]
            if not d.campfire_paid:
                m.add(e.cost == 0).only_enforce_if([g, self.is_camp[s]])
                conds.append(self.is_camp[s].negated())
            self._side(g, s, e, self.val[s], conds, -1, True)
        for s, e in self.rep.items():
            pres = [] if e.present is None else [e.present]
            self._side(g, s, e, self.rval[s], pres, -1, not d.bridge_max)
            if d.bridge_max:
                self._side(g, s, e, self.rval[s], pres, +1, False)

    def _rule_hand(self, g: Any) -> None:
        """R11, one cumulative resource per player, the hand of ``H`` cards over the player's
        consumption: every card it plays occupies it from its arrival to its play; an event
        also needs its cost in other cards, the discard turn just before an event (the
        mover's previous move, when it is not an event) two; near the deck's end the hand
        holds only the cards left."""
        d, m = self.data, self.model
        H = d.H
        horizon = self.T + H + 2
        gaps = {}
        for b, eb in enumerate(self.events):
            prev = []
            for a, ea in enumerate(self.events):
                if a == b:
                    continue
                w = self.same[a, b]
                adj = m.new_bool_var("")  # event a is the mover's previous move
                m.add(ea.k == eb.k - 1).only_enforce_if(adj)
                if w is not None:
                    m.add_implication(adj, w)
                    m.add(ea.k != eb.k - 1).only_enforce_if([adj.negated(), w])
                else:
                    m.add(ea.k != eb.k - 1).only_enforce_if(adj.negated())
                prev.append(adj)
            gap = m.new_bool_var("")
            m.add(eb.k >= 1).only_enforce_if(gap)
            m.add(eb.k == 0).only_enforce_if([gap.negated()] + [x.negated() for x in prev])
            for x in prev:
                m.add_implication(x, gap.negated())
            gaps[b] = gap
        for q in range(d.P):
            ivs, dem = [], []
            for ci, sc in enumerate(d.cards):
                if sc.owner != q:
                    continue
                start = max(0, sc.index + 1 - H)
                end = m.new_int_var(start + 1, horizon, "")
                for e in self.events:
                    v = e.choice.get(ci)
                    if v is not None:
                        m.add(end == e.u + 1).only_enforce_if(v)
                ivs.append(m.new_optional_interval_var(start, end - start, end, self.played[ci], ""))
                dem.append(1)
            for b, e in enumerate(self.events):
                mine = [x for x in ((e.player[q] if d.P > 1 else None), e.present) if x is not None]
                pay = self._and_opt(mine)
                ivs.append(m.new_optional_interval_var(e.u, 1, e.u + 1, pay, ""))
                dem.append(e.cost)
                lit = self._and_opt(mine + [gaps[b]])
                ivs.append(m.new_optional_interval_var(e.u - 2, 1, e.u - 1, lit, ""))
                dem.append(2)
            for j in range(1, H):
                start = d.n_cards[q] - H + j
                if start < horizon:
                    start = max(0, start)
                    ivs.append(m.new_interval_var(start, horizon - start, horizon, ""))
                    dem.append(1)
            m.add_cumulative(ivs, dem, H).only_enforce_if(g)

    def _rule_cards(self, g: Any) -> None:
        """R11–R13: until the Summit's move each player's cards out (two a discard turn,
        ``1 + cost`` an event) do not exceed its cards; with a budget, all cards out do not
        exceed the slots to fill plus the budget."""
        d, m = self.data, self.model
        tau_end = self.peak.tau
        outs = []
        for q in range(d.P):
            moves = m.new_int_var(0, self.T, f"moves_p{q}")  # q's moves until the Summit's
            off = d.offset(q)
            m.add(d.P * moves >= tau_end + 1 - off)
            m.add(d.P * moves <= tau_end + d.P - off)
            extra = []
            for e in self.events:
                z = m.new_int_var(-1, d.H - 2, "")
                mine = e.player[q] if d.P > 1 else e.present
                if mine is None:
                    m.add(z == e.cost - 1)
                else:
                    m.add(z == e.cost - 1).only_enforce_if(mine)
                    m.add(z == 0).only_enforce_if(mine.negated())
                extra.append(z)
            out = m.new_int_var(0, 2 * self.T + d.H * len(self.events), f"out_p{q}")
            m.add(out == 2 * moves + sum(extra))
            m.add(out <= d.n_cards[q]).only_enforce_if(g)
            outs.append(out)
        self.out_total = sum(outs)
        if self.budget is not None:
            m.add(self.out_total <= len(d.empty) + self.budget).only_enforce_if(g)

    # ---- helpers ----------------------------------------------------------------------

    def _sum_bool(self, vs: list[Any]) -> Any:
        b = self.model.new_bool_var("")
        self.model.add(b == sum(vs)) if vs else self.model.add(b == 0)
        return b

    def _and(self, vs: list[Any]) -> Any:
        m = self.model
        b = m.new_bool_var("")
        m.add_bool_and(vs).only_enforce_if(b)
        m.add_bool_or([v.negated() for v in vs]).only_enforce_if(b.negated())
        return b

    def _and_opt(self, vs: list[Any]) -> Any:
        """:meth:`_and` of the literals in ``vs`` that are not ``None`` (true if none)."""
        vs = [v for v in vs if v is not None]
        if not vs:
            b = self.model.new_bool_var("")
            self.model.add(b == 1)
            return b
        return vs[0] if len(vs) == 1 else self._and(vs)

    def _or(self, vs: list[Any]) -> Any:
        m = self.model
        b = m.new_bool_var("")
        if not vs:
            m.add(b == 0)
            return b
        m.add_bool_or(vs).only_enforce_if(b)
        for v in vs:
            m.add_implication(v, b)
        return b

    # ---- decoding -----------------------------------------------------------------------

    def decode(self, solver: cp_model.CpSolver) -> list[Move] | None:
        """The solution as moves from the position, replayed by :class:`~model.game.Game`:
        at each move index the event scheduled there (its card, the cost paid with the
        mover's first cards that no later event plays), else a discard turn of two such
        cards. ``None`` when the engine refuses a move or the game is not won at the end
        (the solution is not a real play: the model proved nothing)."""
        d = self.data
        cards = d.cards
        plan: dict[int, tuple[Event, int, Any]] = {}
        for e in self.events:
            if e.present is not None and not solver.value(e.present):
                continue
            ci = next(ci for ci, v in e.choice.items() if solver.value(v))
            source = None
            if e.kind == "fill" and cards[ci].card.is_campfire:
                source = next(j0 for (j0, j, c), q in self.src.items()
                              if j == e.slot and c == ci and solver.value(q))
            plan[solver.value(e.tau)] = (e, ci, source)
        game = d.game.copy()
        moves: list[Move] = []
        end = max(plan)
        for t in range(end + 1):
            p = game.to_move
            hand = list(game.hands[p])
            junk = self._junk(game, p, plan, t)
            if t in plan:
                e, ci, source = plan[t]
                card = cards[ci].card
                if cards[ci].owner != p or card not in hand:
                    return None
                mv = self._event_move(game, e, card, source, p, junk)
                if mv is None:
                    return None
            else:
                if len(junk) < 2:
                    return None
                mv = Move(DISCARD, p + 1, discard=tuple(junk[:2]))
            try:
                game.push(mv)
            except IllegalMoveError:
                return None
            moves.append(mv)
        return moves if game.is_won() else None

    def _junk(self, game: Game, p: int, plan: dict, t: int) -> list[Card]:
        """Cards of player ``p``'s hand that no event from move ``t`` on plays: the cards it
        may pay with or discard. A card an event plays later is kept only when that very
        card (by its place in the player's sequence) has been drawn: a copy of it drawn
        earlier may go (copies are alike, R1)."""
        d = self.data
        drawn = d.n_cards[p] - len(game.decks[p])
        keep: dict[Card, int] = {}
        for tt, (_, ci, _) in plan.items():
            sc = d.cards[ci]
            if tt >= t and sc.owner == p and sc.index < drawn:
                keep[sc.card] = keep.get(sc.card, 0) + 1
        out = []
        for c in game.hands[p]:
            if keep.get(c, 0) > 0:
                keep[c] -= 1
            else:
                out.append(c)
        return out

    def _event_move(self, game: Game, e: Event, card: Card, source: Any, p: int,
                    pool: list[Card]) -> Move | None:
        """The engine's move for event ``e`` played with ``card``, paid from ``pool``."""
        r, k = e.slot
        for cost in range(self.data.H):
            if cost > len(pool):
                return None
            pay = tuple(pool[:cost])
            if e.kind == "fill" and card.is_campfire:
                mv = Move(CAMPFIRE, p + 1, card, source[0] + 1, source[1] + 1, r + 1, k + 1, pay)
            else:
                mv = Move(PLACE, p + 1, card, r + 1, k + 1, discard=pay)
            try:
                game.check(mv)
            except IllegalMoveError:
                continue
            return mv
        return None

    def solve(self, time_limit: float | None = None, workers: int = 1, seed: int = 0,
              verbose: bool = False, params: dict[str, Any] | None = None
              ) -> tuple[str, list[Move] | None, dict[str, Any]]:
        """See :func:`solve_loss_model`."""
        t = time.perf_counter()
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = max(1, int(workers))
        solver.parameters.random_seed = int(seed)
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(0.01, time_limit)
        for name, value in (params or {}).items():  # search settings only: the model is the same
            setattr(solver.parameters, name, value)
        if verbose:
            import sys

            solver.parameters.log_search_progress = True
            solver.parameters.log_to_stdout = False
            solver.log_callback = lambda line: print(line, file=sys.stderr, flush=True)
        status, interrupted = solve_interruptibly(solver, self.model)
        stats: dict[str, Any] = {
            "status": solver.status_name(status), "branches": solver.num_branches,
            "conflicts": solver.num_conflicts, "seconds": round(time.perf_counter() - t, 3),
            "variables": len(self.model.proto.variables),
            **({"interrupted": True} if interrupted else {})}
        if status == cp_model.INFEASIBLE:
            names = {v.index: g for g, v in self.lit.items()}
            core = [names[i] for i in solver.sufficient_assumptions_for_infeasibility()
                    if i in names]
            stats["groups"] = core
            return INFEASIBLE, None, stats
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return CANDIDATE, self.decode(solver), stats
        return UNKNOWN_STATUS, None, stats


def build_loss_model(start: Deal | Game, budget: int | None = None,
                     groups: tuple[str, ...] | None = None) -> LossModel:
    """The loss model of ``start`` (a deal's first move or a fully known position, 1–5
    players; see the module docstring). ``budget``: the most waste still to spend (``None``:
    only the cards left). Raises ``ValueError`` for a won position, the Goats module or an
    unknown rule group."""
    return LossModel(start, budget, groups)


def solve_loss_model(start: Deal | Game, time_limit: float | None = None, workers: int = 1,
                     seed: int = 0, verbose: bool = False, budget: int | None = None,
                     groups: tuple[str, ...] | None = None,
                     params: dict[str, Any] | None = None
                     ) -> tuple[str, list[Move] | None, dict[str, Any]]:
    """Run the loss model of ``start``: ``("infeasible", None, stats)`` is a proof that no
    win exists (within ``budget``), ``stats["groups"]`` the rule groups the proof used;
    ``("candidate", moves, stats)`` a solution, ``moves`` the winning continuation when the
    engine replays it as a win (else ``None``); ``("unknown", None, stats)`` when
    ``time_limit`` (seconds, the build included) ran out first. ``verbose``: CP-SAT's log on
    standard error. ``params``: CP-SAT parameters by name (search settings such as
    ``max_deterministic_time``, a limit that the machine's load does not change, or
    ``cp_model_presolve``; they change how fast an answer comes, never which). Raises
    ``ValueError`` as :func:`build_loss_model` (``AttributeError`` for an unknown parameter)."""
    t = time.perf_counter()
    lm = build_loss_model(start, budget, groups)
    left = None if time_limit is None else max(0.01, time_limit - (time.perf_counter() - t))
    status, moves, stats = lm.solve(left, workers, seed, verbose, params)
    stats["seconds"] = round(time.perf_counter() - t, 3)
    return status, moves, stats


__all__ = ["CANDIDATE", "GROUPS", "INFEASIBLE", "LossData", "LossModel", "UNKNOWN_STATUS",
           "build_loss_model", "solve_loss_model"]
