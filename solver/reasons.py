"""Why a position cannot be won, in words, the way a player would put it.

A loss proven by reasoning has a reason that names what runs out: :func:`static_reason`
asks the bounds of :mod:`solver.bound_set` at the position itself, with no search (each is a
proof on its own: a bound that fails at a position means that no play from it wins), and
:func:`describe` puts the witness of the first that cuts into words (the bound's own
numbers, not a second computation of them):

* ``summit`` (R10): every Summit has left the game;
* ``cards`` (R8, R11): the empty slots and the Bridges standing need more cards than are
  left in hands and decks;
* ``turns`` (R11, R12): a player has fewer cards left than the turns the win still needs of
  them (every turn takes a card out of the mover's hand);
* ``height`` (R4): the top rows have more empty slots than there are cards left that may go
  that high;
* ``bridges`` (R8): the Bridges standing cost more to replace than the cards to spare (the
  cards left minus the slots still to fill: exactly what a win may still spend);
* ``deck`` (R11, solo): a card the win needs lies so deep in the deck that drawing it spends
  more than the cards to spare;
* ``windows`` (R11, R13, 2–5 players): each player draws from their own deck, and what the
  decks hand out in turn order costs more than the cards to spare.

(:func:`describe` also words a witness under a finite budget, kind ``budget``: no win within
the turns or waste allowed.)

A loss proven by exhaustive search has :func:`search_reason` (every move leads to a position
with a static reason, or else what cut the lines of the search, and how many lines a learned
nogood of :mod:`solver.nogood` ended), one proven by the CP-SAT relaxation
:func:`relaxation_reason` (the rule groups its proof used), and one proven by the colour-free
abstraction of :mod:`solver.abstraction` :func:`abstraction_reason`. Each
:class:`LossReason` says whether it is *specific* (it names a row, a value, a card or a
player) or generic.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from model.deal import Deal
from model.game import Game, count_text
from solver.bound_set import (
    BOUNDS,
    CardsShort,
    HeightBound,
    HeightShort,
    MovesShort,
    PlayerShort,
    SummitsGone,
    WasteBound,
    WasteShort,
    Witness,
)
from solver.bounds import Bounds

INF = 1 << 30
HEIGHT = HeightBound()
WASTE = WasteBound()


@dataclass(frozen=True)
class LossReason:
    """A reason why no win exists: ``kind`` (see the module docstring, or ``search``,
    ``relaxation``), ``text`` (one or two sentences, no trailing newline), ``specific``
    (names a row, a value, a card or a player)."""

    kind: str
    text: str
    specific: bool

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "specific": self.specific}


def _search_at(position: Game | Deal) -> Bounds:
    """The compact state of ``position`` with its bounds (no search, no compiled core)."""
    s = Bounds(position, "none")
    s.pruned = {"summit": 0, "height": 0, "cards": 0, "objective": 0, "spare": 0}
    return s


def _rows_text(lo: int, hi: int) -> str:
    return f"row {lo}" if lo == hi else f"rows {lo}–{hi}"


def static_reason(position: Game | Deal) -> LossReason | None:
    """The reason, in words, why no win exists from ``position`` (a fully known position or
    a deal's first move) when one of the bounds proves it with no search; ``None`` when none
    does (the position may still be lost: the search then decides). A won position has
    none."""
    if isinstance(position, Game) and position.is_won():
        return None
    return _static(_search_at(position))


def _static(s: Bounds) -> LossReason | None:
    """:func:`static_reason` of the compact state ``s`` (a search, in its current state): the
    witness of the first bound of :data:`solver.bound_set.BOUNDS` that proves a loss (no
    win at all), in words."""
    if s.filled == s._slots_total:
        return None
    w = BOUNDS.witness(s, INF)
    return None if w is None else describe(w)


def describe(w: Witness) -> LossReason:
    """A bound's witness (:mod:`solver.bound_set`) in words: the one place that turns each
    kind into a reason. A witness with a finite ``budget`` (objective ``turns`` or
    ``waste``) says that no win within the budget exists (kind ``budget``)."""
    if isinstance(w, SummitsGone):
        return LossReason("summit", "Every Summit has left the game, and only a Summit wins "
                          "(R10).", True)
    if isinstance(w, CardsShort):
        need = w.slots + w.bridges
        bridges = f" and {count_text(w.bridges, 'Bridge')} standing" if w.bridges else ""
        return LossReason("cards", (
            f"The {count_text(w.slots, 'empty slot')}{bridges} need at least "
            f"{count_text(need, 'more card')}, but only {w.left} "
            f"{'is' if w.left == 1 else 'are'} left in hands and decks (R8, R11)."), False)
    if isinstance(w, PlayerShort):
        return LossReason("turns", (
            f"Player {w.player} has {count_text(w.left, 'card')} left, but the win still "
            f"needs at least {count_text(w.turns, 'turn')} of them, and every turn takes "
            "a card out of the hand (R11, R12)."), True)
    if isinstance(w, HeightShort):
        slots = w.need - w.bridges
        what = count_text(slots, "empty slot") + (
            f" and {count_text(w.bridges, 'Bridge')}" if w.bridges else "")
        verb = "has" if w.low == w.top else "have"
        can = (f"only {count_text(w.have, 'card')} left can" if w.have else "no card left can")
        return LossReason("height", (
            f"{_rows_text(w.low, w.top).capitalize()} still {verb} {what} to fill, but {can} "
            f"go that high (a value of {w.low} or more, or a Campfire; R4)."), True)
    if isinstance(w, MovesShort):
        why = ("the players' turns and the cards each has left" if w.turn_order else
               "one for each empty slot and each Bridge standing")
        return LossReason("budget", (
            f"The win still needs at least {count_text(w.moves, 'move')} ({why}; R11, R12), "
            f"more than the {w.budget} allowed."), False)
    if isinstance(w, WasteShort):
        return _describe_waste(w)
    raise TypeError(f"not a bound's witness: {w!r}")


def _describe_waste(w: WasteShort) -> LossReason:
    """:func:`describe` of a :class:`~solver.bound_set.WasteShort`: the part that exceeds
    the cards to spare (the Bridges, then solo the deck, then the players' deck windows), or
    else the waste budget."""
    limit = min(w.spare, w.budget)
    over_spare = w.spare <= w.budget
    floor = w.bridges + w.costs_sum
    spare_words = (f"but only {count_text(max(w.spare, 0), 'card')} "
                   f"{'is' if w.spare == 1 else 'are'} to spare ({w.spare + w.slots} left for "
                   f"{count_text(w.slots, 'empty slot')})")
    if not over_spare:
        spare_words = f"more than the {w.budget} allowed"
    if w.bridges and floor > limit:
        parts = []
        for b in w.costs:
            if b.cost >= INF:
                return LossReason("bridges", (
                    f"The Bridge in row {b.row} slot {b.slot} can never be replaced: no card "
                    "left fits its row and its neighbours' colours (R4, R5, R8)."), True)
            if b.cost > w.hand_size - 1:
                return LossReason("bridges", (
                    f"Replacing the Bridge in row {b.row} slot {b.slot} costs at least "
                    f"{b.cost} cards, more than a hand of {w.hand_size} can pay (R8)."), True)
            parts.append(f"row {b.row} slot {b.slot} at least {b.cost} (with {b.card})")
        costs = f" and the replacements cost {', '.join(parts)}" if parts else ""
        kind = "bridges" if over_spare else "budget"
        return LossReason(kind, (
            f"The {count_text(w.bridges, 'Bridge')} standing must be replaced (R8): "
            f"{w.bridges} {'card leaves' if w.bridges == 1 else 'cards leave'} with them"
            f"{costs}: {floor} in all, {spare_words}."), True)
    if w.windows is None and w.prefix_why >= 0:  # solo: the deck prefix
        what = ("a Summit" if w.prefix_why == 0 else
                f"enough cards of value {w.prefix_why} or more for "
                f"{_rows_text(w.prefix_why, w.top)}")
        if w.prefix >= INF:
            return LossReason("deck", f"The deck no longer holds {what} (R4, R10).", True)
        if w.prefix_cost > limit:
            what = "the next Summit" if w.prefix_why == 0 else what
            out = w.prefix + 1
            e = w.slots + w.bridges
            return LossReason("deck" if over_spare else "budget", (
                f"To reach {what} the player must draw {count_text(w.prefix, 'more card')}, "
                f"so at least {out} cards leave the hand, and at most {e} of them can go onto "
                f"the mountain: {w.bridges + out - e} cards would leave the game, "
                f"{spare_words} (R4, R11)."), True)
    if w.windows is not None and w.windows > limit:
        return LossReason("windows" if over_spare else "budget", (
            "Each player draws only from their own deck, in turn (R11, R13): what the "
            "decks hand out in time to fill the mountain makes at least "
            f"{count_text(min(w.windows, w.spare + w.slots), 'card')} leave the game, "
            f"{spare_words}."), False)
    return LossReason(("deck" if w.windows is None else "windows") if over_spare else "budget", (
        f"At least {count_text(w.lower, 'more card')} must leave the game, "
        f"{spare_words}."), False)


#: What each of the search's cuts (``stats["pruned"]``) means, for :func:`search_reason`.
CUT_WORDS = {
    "summit": "every Summit left the game",
    "cards": "the cards ran out before the mountain was full",
    "height": "no card was left that could go high enough",
    "objective": "the win would have cost more than allowed",
    "spare": ("the cards still to leave the game (the Bridges to replace, the cards to draw to "
              "reach the ones needed) outgrew the cards to spare"),
}


def search_reason(position: Game, stats: dict[str, Any] | None = None,
                  most: int = 2000) -> LossReason:
    """The reason for a loss proven by exhaustive search from ``position``: when every line
    of the next one or two turns (up to four after a small proof: at most 20 × ``most``
    nodes; every placement, way to pay and discard turn) ends in a
    position with a static reason (:func:`static_reason`), those reasons ("whatever player 2
    plays, …"; at most ``most`` positions are looked at); else the cuts that ended the
    lines of the search (``stats["pruned"]`` of the solve)."""
    s = _search_at(position)
    p = s.to_move + 1
    if not s.children(s.dead_flags()):
        return LossReason("search", (
            f"Player {p} can neither play a card nor discard two (R12)."), True)
    nodes = (stats or {}).get("nodes") or 0
    # a small proof: look further ahead for a reason (at most ``most`` positions a depth)
    for depth in ((1, 2, 3, 4) if nodes and nodes <= 20 * most else (1, 2)):
        kinds: Counter[str] = Counter()
        found: list[LossReason] = []
        budget = [most]
        if _all_explained(s, depth, kinds, found, budget):
            if not found:  # every line ends with a player stuck
                return LossReason("search", (
                    f"Whatever the players play in the next {count_text(depth, 'turn')}, a "
                    "player is left who can neither play a card nor discard two (R12)."), True)
            best = max(found, key=lambda r: (r.specific, kinds[r.kind]))
            turns = ("now" if depth == 1 else "in this turn and the next" if depth == 2
                     else f"in the next {depth} turns")
            who = f"player {p}" if s.P == 1 or depth == 1 else "the players"
            return LossReason("search", (
                f"Whatever {who} {'plays' if depth == 1 else 'play'} {turns}, the game can no "
                f"longer be won; for example: {best.text}"), best.specific)
    facts, share = _pressure(s)
    pruned = (stats or {}).get("pruned") or {}
    total = sum(pruned.values())
    if total:
        ranked = sorted(((n, k) for k, n in pruned.items() if n), reverse=True)
        words = [f"{CUT_WORDS.get(k, k)} ({round(100 * n / total)} %)" for n, k in ranked[:2]]
        nodes = (stats or {}).get("nodes")
        hits = (stats or {}).get("table_hits") or 0
        learned = (f", {hits:,} lines ended by a learned nogood: a position whose row fronts, "
                   "hands and decks were already proven lost" if hits else "")
        seen = f" ({nodes:,} positions{learned})" if nodes else ""
        cut = _cut_fact(s, ranked[0][1])
        return LossReason("search", (
            f"No line of play wins: an exhaustive search{seen} ended every line, most often "
            f"because {' or '.join(words)}.{cut}{facts}"), share >= 0.5 or bool(cut))
    return LossReason("search", f"No line of play wins (exhaustive search).{facts}", share >= 0.5)


def _cut_fact(s: Bounds, kind: str) -> str:
    """What the search's most frequent cut ``kind`` runs into, read at the root: for
    ``height``, the rows whose cards to spare are fewest (the cards left that can go that
    high, R4, against their empty slots and Bridges); for ``summit``, where the Summits left
    are (R10). Empty when there is nothing specific to say."""
    t = s.t
    if kind == "height":
        w = HEIGHT.tightest(s)
        if w is None or w.have - w.need > 3:  # much to spare: the cut comes from deep in the lines
            return ""
        return (f" The tightest: {_rows_text(w.low, w.top)} still "
                f"{'needs' if w.low == w.top else 'need'} "
                f"{count_text(w.need, 'card')} of value {w.low} or more (or a Campfire; R4), "
                f"and {w.have} are left, so at most {count_text(w.have - w.need, 'such card')} "
                "may be discarded or played lower.")
    if kind == "summit":
        where = []
        for q in range(s.P):
            held = sum(c == t.summit for c in s.hands[q])
            deck = s.decks[q]
            deep = [i - s.ptr[q] + 1 for i in range(s.ptr[q], len(deck)) if deck[i] == t.summit]
            who = "the player" if s.P == 1 else f"player {q + 1}"
            if held:
                where.append(f"{count_text(held, 'Summit')} in {who}'s hand")
            for d in deep:
                where.append(f"the next card of {who}'s deck" if d == 1 else
                             f"one {d} cards deep in {who}'s deck")
        n = s.remaining[t.summit]
        if not where:
            return ""
        return (f" {'Only ' if n <= 2 else ''}{count_text(n, 'Summit')} "
                f"{'is' if n == 1 else 'are'} left ({', '.join(where)}), and discarding the "
                "last one ends every line (R10).")
    return ""


def _pressure(s: Bounds) -> tuple[str, float]:
    """What already takes the cards to spare at the root, in words (the Bridges standing and
    their least replacement costs, the draw down to the next Summit: the parts of
    :class:`~solver.bound_set.WasteBound`), and the share of the cards to spare it takes."""
    S = s._slots_total - s.filled
    spare = s.n_remaining - S
    if spare <= 0:
        return "", 0.0
    w = WASTE.parts(s)
    parts, taken = [], 0
    if w.bridges and w.costs_sum < INF:
        where = ", ".join(f"row {b.row} slot {b.slot}" for b in w.costs)
        need = w.bridges + w.costs_sum
        verb = "takes" if w.bridges == 1 else "take"
        parts.append(f"the {count_text(w.bridges, 'Bridge')} standing ({where}) {verb} at "
                     f"least {need} of them")
        taken = need
    e = w.slots + w.bridges
    if s.P == 1 and 0 < w.prefix < INF and w.prefix_why == 0 and w.prefix + 1 - e > 0:
        parts.append(f"drawing down to the next Summit, {count_text(w.prefix, 'card')} deep, "
                     f"takes at least {w.prefix + 1 - e}")
        taken = max(taken, w.prefix + 1 - e)
    if not parts:
        return "", 0.0
    return (f" Of the {count_text(spare, 'card')} to spare, {' and '.join(parts)}.",
            min(1.0, taken / spare))


def _all_explained(s: Bounds, depth: int, kinds: Counter, found: list, budget: list[int]) -> bool:
    """Every line of ``depth`` moves from ``s``'s state ends in a position with a static
    reason (collected into ``kinds`` and ``found``), or in one where the player to move is
    stuck (R12); False as soon as one does not, or ``budget[0]`` positions were looked at."""
    moves = s.children(s.dead_flags())
    if not moves:
        return True  # R12: the player to move is stuck
    for mv in moves:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        rec = s.apply(mv)
        try:
            r = _static(s)
            if r is not None:
                kinds[r.kind] += 1
                found.append(r)
                continue
            if s.filled == s._slots_total or depth <= 1:
                return False
            if not _all_explained(s, depth - 1, kinds, found, budget):
                return False
        finally:
            s.undo(mv, rec)
    return True


def abstraction_reason(position: Game, stats: dict[str, Any] | None = None) -> LossReason:
    """The reason for a loss proven by the colour-free abstraction
    (:mod:`solver.abstraction`): the game with colours ignored allows every move of the real
    one at the same cost, and has no win; with what already takes the cards to spare."""
    s = _search_at(position)
    facts, share = _pressure(s)
    ab = (stats or {}).get("abstraction") or {}
    n = ab.get("nodes")
    seen = f" (an exhaustive search of it, {n:,} positions)" if n else ""
    return LossReason("abstraction", (
        "The game cannot be won even with colours ignored: where any card may lie beside any "
        "other (R5) and a Campfire may move a card of any colour (R9), which allows every "
        f"move of this game at the same cost, no line of play wins{seen}.{facts}"),
        share >= 0.5)


def relaxation_reason(groups: list[str]) -> LossReason:
    """The reason for a loss proven by the CP-SAT loss model (:mod:`solver.cpsat_loss`),
    from the rule groups its proof of infeasibility used (none: the slots and the cards
    left alone rule a win out)."""
    # imported here: solver.cpsat_loss loads OR-Tools (and with it numpy and pandas), about
    # 0.4 s at every start of `ascent`, and is only needed once its loss model has run
    from solver.cpsat_loss import GROUPS

    named = [GROUPS[g] for g in groups if g in GROUPS]
    if not named:
        return LossReason("relaxation", (
            "No assignment of the cards left to the empty slots exists at all, whatever the "
            "order of play: the cards that can still reach the mountain do not fit its slots "
            "(R3, R10)."), False)
    rules = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return LossReason("relaxation", (
        "No schedule of the cards left, in the order they will be drawn, fills the mountain: "
        f"it is ruled out by {rules}."), False)


__all__ = ["CUT_WORDS", "LossReason", "abstraction_reason", "describe", "relaxation_reason", "search_reason",
           "static_reason"]
