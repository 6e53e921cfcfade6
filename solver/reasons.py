"""Why a position cannot be won, in words, the way a player would put it.

A loss proven by reasoning has a reason that names what runs out: :func:`static_reason`
reads the bounds of :mod:`solver.bounds` at the position itself, with no search (each is a
proof on its own: a bound that fails at a position means that no play from it wins):

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
from solver.bounds import Bounds

INF = 1 << 30


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


def _card_text(s: Bounds, c: int) -> str:
    return str(s.t.cards[c])


def static_reason(position: Game | Deal) -> LossReason | None:
    """The reason, in words, why no win exists from ``position`` (a fully known position or
    a deal's first move) when one of the bounds proves it with no search; ``None`` when none
    does (the position may still be lost: the search then decides). A won position has
    none."""
    if isinstance(position, Game) and position.is_won():
        return None
    return _static(_search_at(position))


def _static(s: Bounds) -> LossReason | None:
    """:func:`static_reason` of the compact state ``s`` (a search, in its current state)."""
    if s.filled == s._slots_total:
        return None
    t = s.t
    rem = s.remaining
    if rem[t.summit] == 0:
        return LossReason("summit", "Every Summit has left the game, and only a Summit wins "
                          "(R10).", True)
    S = s._slots_total - s.filled
    nb = s.n_bridges
    need_total = S + nb
    bridges = f" and {count_text(nb, 'Bridge')} standing" if nb else ""
    if s.n_remaining < need_total:
        return LossReason("cards", (
            f"The {count_text(S, 'empty slot')}{bridges} need at least "
            f"{count_text(need_total, 'more card')}, but only {s.n_remaining} "
            f"{'is' if s.n_remaining == 1 else 'are'} left in hands and decks (R8, R11)."), False)
    if s.P > 1:
        for q in range(s.P):
            turns = (need_total - (q - s.to_move) % s.P + s.P - 1) // s.P
            left = len(s.hands[q]) + len(s.decks[q]) - s.ptr[q]
            if left < turns:
                return LossReason("turns", (
                    f"Player {q + 1} has {count_text(left, 'card')} left, but the win still "
                    f"needs at least {count_text(turns, 'turn')} of them, and every turn takes "
                    "a card out of the hand (R11, R12)."), True)
    need = have = 0
    for h in range(s.R, 0, -1):
        row = s.rows[h - 1]
        need += s.rowlen[h - 1] - len(row)
        if nb:
            need += row.count(t.bridge)
        have += s.rem_by_maxrow[h]
        if have < need:
            what = f"{count_text(need, 'empty slot')}" + (" and Bridges" if nb and any(
                t.bridge in s.rows[r - 1] for r in range(h, s.R + 1)) else "")
            verb = "needs" if h == s.R else "need"
            can = (f"only {count_text(have, 'card')} left can" if have else "no card left can")
            return LossReason("height", (
                f"{_rows_text(h, s.R).capitalize()} still {verb} {what} to fill, but {can} go "
                f"that high (a value of {h} or more, or a Campfire; R4)."), True)
    spare = s.n_remaining - S
    detail: list[tuple[int, int, int, int]] = []
    costs = s.bridge_costs(detail) if nb else 0
    if nb and (costs >= INF or nb + costs > spare):
        parts = []
        for r, k, cost, c in detail:
            if cost >= INF:
                return LossReason("bridges", (
                    f"The Bridge in row {r + 1} slot {k + 1} can never be replaced: no card "
                    "left fits its row and its neighbours' colours (R4, R5, R8)."), True)
            if cost > s.hand_size - 1:
                return LossReason("bridges", (
                    f"Replacing the Bridge in row {r + 1} slot {k + 1} costs at least {cost} "
                    f"cards, more than a hand of {s.hand_size} can pay (R8)."), True)
            parts.append(f"row {r + 1} slot {k + 1} at least {cost} (with {_card_text(s, c)})")
        return LossReason("bridges", (
            f"The {count_text(nb, 'Bridge')} standing must be replaced (R8): {nb} "
            f"{'card leaves' if nb == 1 else 'cards leave'} with them and the replacements "
            f"cost {', '.join(parts)}: {nb + costs} in all, but only "
            f"{count_text(max(spare, 0), 'card')} {'is' if spare == 1 else 'are'} to spare "
            f"({s.n_remaining} left for {count_text(S, 'empty slot')})."), True)
    if s.P == 1:
        k, why = s.solo_prefix()
        e = S + nb
        if k >= INF:
            what = ("a Summit" if why == 0 else
                    f"enough cards of value {why} or more for {_rows_text(why, s.R)}")
            return LossReason("deck", f"The deck no longer holds {what} (R4, R10).", True)
        if k and nb + max(0, k + 1 - e) > spare:
            what = ("the next Summit" if why == 0 else
                    f"enough cards of value {why} or more for {_rows_text(why, s.R)}")
            out = k + 1
            return LossReason("deck", (
                f"To reach {what} the player must draw {count_text(k, 'more card')}, so at "
                f"least {out} cards leave the hand, and at most {e} of them can go onto the "
                f"mountain: {nb + out - e} cards would leave the game, but only {spare} are to "
                "spare (R4, R11)."), True)
    elif s.sw.window_players:
        lb = s.players_window_bound(spare)
        if lb > spare:
            return LossReason("windows", (
                "Each player draws only from their own deck, in turn (R11, R13): what the "
                "decks hand out in time to fill the mountain makes at least "
                f"{count_text(min(lb, s.n_remaining), 'card')} leave the game, but only "
                f"{spare} are to spare."), False)
    return None


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
        need = have = 0
        best: tuple[int, int, int, int] | None = None  # (slack, -h, need, have)
        for h in range(s.R, 1, -1):
            row = s.rows[h - 1]
            need += s.rowlen[h - 1] - len(row) + (row.count(t.bridge) if s.n_bridges else 0)
            have += s.rem_by_maxrow[h]
            if need and (best is None or have - need < best[0]):
                best = (have - need, -h, need, have)
        if best is None or best[0] > 3:  # much to spare: the cut comes from deep in the lines
            return ""
        slack, h, need, have = best[0], -best[1], best[2], best[3]
        return (f" The tightest: {_rows_text(h, s.R)} still need {count_text(need, 'card')} of "
                f"value {h} or more (or a Campfire; R4), and {have} are left, so at most "
                f"{count_text(slack, 'such card')} may be discarded or played lower.")
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
    their least replacement costs, the draw down to the next Summit), and the share of the
    cards to spare it takes."""
    S = s._slots_total - s.filled
    spare = s.n_remaining - S
    if spare <= 0:
        return "", 0.0
    parts, taken = [], 0
    if s.n_bridges:
        detail: list[tuple[int, int, int, int]] = []
        cost = s.bridge_costs(detail)
        if cost < INF:
            where = ", ".join(f"row {r + 1} slot {k + 1}" for r, k, _, _ in detail)
            need = s.n_bridges + cost
            verb = "takes" if s.n_bridges == 1 else "take"
            parts.append(f"the {count_text(s.n_bridges, 'Bridge')} standing ({where}) {verb} at "
                         f"least {need} of them")
            taken = need
    if s.P == 1:
        k, why = s.solo_prefix()
        e = S + s.n_bridges
        if 0 < k < INF and why == 0 and k + 1 - e > 0:
            parts.append(f"drawing down to the next Summit, {count_text(k, 'card')} deep, takes at "
                         f"least {k + 1 - e}")
            taken = max(taken, k + 1 - e)
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


__all__ = ["CUT_WORDS", "LossReason", "abstraction_reason", "relaxation_reason", "search_reason", "static_reason"]
