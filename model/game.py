"""The game state: mountain, hands, decks, the discard pile; legal moves, push and pop.

:class:`Game` is the single source of truth for the rules (R1–R13, see ``docs/rules.md``).
It works like python-chess's ``Board``: :meth:`Game.legal_moves` lists the legal moves,
:meth:`Game.push` checks and applies one (raising :class:`~model.errors.IllegalMoveError`
with the ruling it breaks), :meth:`Game.pop` takes the last one back.

>>> from model.deal import Deal
>>> g = Game(Deal.from_seed(1))
>>> len(g.hands[0])
5
>>> m = g.legal_moves()[0]
>>> g.push(m); g.pop() == m
True
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterator, Sequence, cast

from model.cards import Card, sort_cards
from model.deal import Deal, check_players, check_subset, count_cards
from model.errors import IllegalMoveError, InvalidDealError
from model.moves import CAMPFIRE, DISCARD, GOAT, PLACE, Move
from model.rules import RuleSet

WIN = "win"
LOSS = "loss"


def count_text(n: int, word: str) -> str:
    """``1 discard``, ``3 discards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True, slots=True)
class Placement:
    """A legal way to play ``card`` (before choosing which cards pay the cost).

    ``row``/``slot``: where the card goes (for a Campfire: the Ascent card it replaces);
    ``to_row``/``to_slot``: where a Campfire's replaced card moves (0 otherwise);
    ``cost``: discards owed (R6, R8, R9); ``onto_bridge``: the card replaces a Bridge (R8).
    """

    card: Card
    row: int
    slot: int
    cost: int
    to_row: int = 0
    to_slot: int = 0
    onto_bridge: bool = False

    def move(self, player: int, discard: Sequence[Card] = ()) -> Move:
        """The :class:`~model.moves.Move` of this placement by ``player`` (1-based)."""
        kind = CAMPFIRE if self.card.is_campfire else PLACE
        return Move(kind, player, self.card, self.row, self.slot, self.to_row, self.to_slot,
                    tuple(discard))


class Game:
    """A game in progress.

    Attributes (read them, change them only through :meth:`push`/:meth:`pop`):

    * ``rules``: the :class:`~model.rules.RuleSet`; ``players``: 1–5;
    * ``mountain``: list of ``rules.peak_row`` rows, row 1 first, each a list of the cards in
      its filled slots, slot 1 first (rows fill from the left, R3, so a row is a prefix);
    * ``hands``: per player, the cards in hand (canonical order);
    * ``decks``: per player, the cards still to draw, top card first;
    * ``out``: cards that left the game (discards and replaced Bridges), in order;
    * ``to_move``: 0-based index of the player to move; ``turn``: moves made so far;
    * ``move_stack``: the moves made;
    * ``goats``: with ``goats=on`` (the optional Goats module, rulings G1–G7), the (row, slot)
      of every goat on the mountain, one entry per goat, sorted; always empty with
      ``goats=off``; with ``goats=on`` :meth:`to_position` adds a last key
      ``"goats": [[row, slot], ...]`` and :meth:`key` a fifth element.
    """

    def __init__(self, deal: Deal) -> None:
        check_players(deal.players)
        self.rules: RuleSet = deal.rules
        self.players: int = deal.players
        self.deal: Deal | None = deal  # None for a bare position (Game.from_position)
        self.mountain: list[list[Card]] = [[] for _ in range(self.rules.peak_row)]
        self.decks: list[list[Card]] = [list(d) for d in deal.decks]
        self.hands: list[list[Card]] = [[] for _ in range(self.players)]
        self.out: list[Card] = []
        self.to_move = 0
        self.turn = 0
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []
        self.goats: list[tuple[int, int]] = []
        for p in range(self.players):  # R13: each player draws up to the hand size
            self._draw(p)

    # ---- basic queries -------------------------------------------------------------------

    def row(self, row: int) -> list[Card]:
        """Cards of ``row`` (1-based), slot 1 first."""
        return self.mountain[row - 1]

    def card_at(self, row: int, slot: int) -> Card | None:
        """The card in ``row``/``slot`` (1-based), or ``None`` if empty or off the mountain."""
        if not 1 <= row <= self.rules.peak_row:
            return None
        r = self.mountain[row - 1]
        return r[slot - 1] if 1 <= slot <= len(r) else None

    def next_slot(self, row: int) -> int | None:
        """The leftmost empty slot of ``row`` (R3), or ``None`` if the row is full."""
        n = len(self.mountain[row - 1])
        return n + 1 if n < self.rules.row_length(row) else None

    def is_supported(self, row: int, slot: int) -> bool:
        """R3: a slot of row ≥ 2 needs slots ``slot`` and ``slot+1`` of the row below filled."""
        return row == 1 or len(self.mountain[row - 2]) >= slot + 1

    def bridges(self) -> list[tuple[int, int]]:
        """(row, slot) of every Bridge on the mountain, bottom row first."""
        return [
            (r + 1, s + 1)
            for r, cards in enumerate(self.mountain)
            for s, c in enumerate(cards)
            if c.is_bridge
        ]

    def rows_full(self) -> bool:
        """Rows 1..rows are all filled (the peak excluded)."""
        return all(
            len(self.mountain[r - 1]) == self.rules.row_length(r)
            for r in range(1, self.rules.rows + 1)
        )

    def filled_slots(self) -> int:
        """Number of filled slots, peak included."""
        return sum(len(r) for r in self.mountain)

    def is_won(self) -> bool:
        """R10: a Summit stands on the peak. With ``goats=on`` and ``goat_top=summit`` (G4)
        every goat must stand on it too (under ``goat_top=row`` the Summit itself waits for
        the goats, so a Summit on the peak is a win)."""
        if not self.mountain[-1]:
            return False
        if self.rules.goats_on and self.rules.goat_top == "summit":
            peak = self.rules.peak_row
            return all(r == peak for r, _ in self.goats)
        return True

    def is_lost(self) -> bool:
        """R12: the player to move can neither play a card nor discard two."""
        if self.is_won():
            return False
        hand = self.hands[self.to_move]
        if len(hand) >= 2:
            return False
        if next(self.generate_placements(), None) is not None:
            return False
        return next(self.generate_goat_moves(), None) is None

    def outcome(self) -> str | None:
        """``"win"``, ``"loss"`` or ``None`` while the game goes on."""
        if self.is_won():
            return WIN
        if self.is_lost():
            return LOSS
        return None

    def is_over(self) -> bool:
        return self.outcome() is not None

    # ---- references for cost (R6, R8) ----------------------------------------------------

    def _reference(self, row: int, slot: int, step: int) -> int | None:
        """Value of the nearest non-Campfire card from ``slot`` in direction ``step``
        (-1 left, +1 right) in ``row``: ``None`` if there is none, if it is a Bridge under
        ``bridge_neighbour=zero``, or if an empty slot comes first (R6, R8)."""
        cards = self.mountain[row - 1]
        i = slot - 1 + step
        look_through = self.rules.bridge_neighbour == "look-through"
        while 0 <= i < len(cards):
            c = cards[i]
            if c.is_ascent:
                return c.value
            if c.is_bridge and not look_through:
                return None
            i += step
        return None

    def left_reference(self, row: int, slot: int) -> int | None:
        """The value an Ascent card at ``row``/``slot`` pays against on its left (R6)."""
        return self._reference(row, slot, -1)

    def right_reference(self, row: int, slot: int) -> int | None:
        """The value a card played onto a Bridge pays against on its right (R8)."""
        return self._reference(row, slot, +1)

    def _colour_clash(self, card: Card, row: int, slot: int, both_sides: bool) -> Card | None:
        """The neighbour whose colour equals ``card``'s (R5), or ``None``."""
        cards = self.mountain[row - 1]
        sides = (slot - 2, slot) if both_sides else (slot - 2,)
        for i in sides:
            if 0 <= i < len(cards) and cards[i].has_colour and cards[i].colour == card.colour:
                return cards[i]
        return None

    def _ascent_cost(self, value: int, row: int, slot: int, onto_bridge: bool) -> int:
        left = self.left_reference(row, slot)
        dl = abs(value - left) if left is not None else 0
        if not onto_bridge or self.rules.bridge_replace_cost == "left":
            return dl
        right = self.right_reference(row, slot)
        dr = abs(value - right) if right is not None else 0
        return max(dl, dr)

    # ---- legality: one function says why a placement is refused --------------------------

    def why_not(
        self, card: Card, row: int, slot: int, to_row: int = 0, to_slot: int = 0,
        player: int | None = None,
    ) -> tuple[str, str] | tuple[None, int]:
        """Check playing ``card`` at ``row``/``slot`` (and, for a Campfire, moving the replaced
        card to ``to_row``/``to_slot``) by ``player`` (0-based, default the player to move),
        ignoring whether the card is in hand.

        Returns ``(ruling, reason)`` when it is illegal, else ``(None, cost)`` with the number
        of discards owed. The affordability part of R6 (cost ≤ other cards in hand) is
        checked here too.
        """
        p = self.to_move if player is None else player
        rules = self.rules
        if not 1 <= row <= rules.peak_row:
            return "R2", f"there is no row {row} (rows are 1..{rules.peak_row})"
        length = rules.row_length(row)
        if not 1 <= slot <= length:
            return "R2", f"row {row} has slots 1..{length}, not {slot}"
        occupant = self.card_at(row, slot)
        others = len(self.hands[p]) - 1

        if card.is_summit:
            if row != rules.peak_row:
                return "R10", "a Summit goes only on the peak"
            if not self.rows_full():
                return "R10", "the Summit needs every row below the peak full"
            if self.bridges():
                return "R8", "the Summit cannot be played while a Bridge is on the mountain"
            if occupant is not None:
                return "R3", "the peak is taken"
            if rules.goats_on and rules.goat_top == "row":
                low = [g for g in self.goats if g[0] != rules.rows]
                if low:
                    r, s = low[0]
                    return "G4", (f"the Summit waits until every goat is at the top (row "
                                  f"{rules.rows}); a goat stands at row {r} slot {s}")
            return None, 0

        if row == rules.peak_row:
            return "R10", "only a Summit goes on the peak"

        if card.is_campfire:
            return self._why_not_campfire(card, row, slot, to_row, to_slot, others)

        if card.is_bridge:
            bad = self._why_not_next_slot(row, slot, occupant)
            if bad:
                return bad
            if slot == 1 or slot == length:
                return "R7", f"a Bridge never takes the first or last slot of a row (row {row} slot {slot})"
            return None, 0

        # Ascent card: onto a Bridge (R8) or into the next slot of a row (R3)
        onto_bridge = occupant is not None and occupant.is_bridge
        if not onto_bridge:
            bad = self._why_not_next_slot(row, slot, occupant)
            if bad:
                return bad
        if row > rules.max_row(card.value):
            return "R4", f"a {card.value} may go up to row {rules.max_row(card.value)}, not {row}"
        # R5 (and R8: a card onto a Bridge differs from both neighbours)
        clash = self._colour_clash(card, row, slot, both_sides=onto_bridge)
        if clash:
            return "R5", f"{card} would stand next to {clash} of the same colour"
        cost = self._ascent_cost(card.value, row, slot, onto_bridge=onto_bridge)
        if cost > others:
            return "R6", f"costs {count_text(cost, 'discard')} but only {count_text(others, 'other card')} in hand"
        return None, cost

    def _why_not_next_slot(self, row: int, slot: int, occupant: Card | None) -> tuple[str, str] | None:
        if occupant is not None:
            return "R3", f"row {row} slot {slot} is taken by {occupant}"
        nxt = self.next_slot(row)
        if slot != nxt:
            return "R3", f"cards go into the leftmost empty slot of a row (row {row}: slot {nxt})"
        if not self.is_supported(row, slot):
            return "R3", f"row {row} slot {slot} needs slots {slot} and {slot + 1} of row {row - 1} filled"
        return None

    def _why_not_campfire(
        self, card: Card, row: int, slot: int, to_row: int, to_slot: int, others: int
    ) -> tuple[str, str] | tuple[None, int]:
        rules = self.rules
        target = self.card_at(row, slot)
        if target is None or not target.is_ascent:
            what = "an empty slot" if target is None else str(target)
            return "R9", f"a Campfire replaces an Ascent card, and row {row} slot {slot} holds {what}"
        if target.colour != card.colour:
            return "R9", f"{card} replaces only cards of its colour, not {target}"
        if not to_row:
            return "R9", "the replaced card must move to a higher row (to_row/to_slot)"
        if not row < to_row <= rules.rows:
            return "R9", f"the replaced card must move to a higher row below the peak, not row {to_row}"
        length = rules.row_length(to_row)
        if not 1 <= to_slot <= length:
            return "R2", f"row {to_row} has slots 1..{length}, not {to_slot}"
        bad = self._why_not_next_slot(to_row, to_slot, self.card_at(to_row, to_slot))
        if bad:
            return bad
        if to_row > rules.max_row(target.value):
            return "R4", f"the moved {target} may go up to row {rules.max_row(target.value)}, not {to_row}"
        clash = self._colour_clash(target, to_row, to_slot, both_sides=False)
        if clash:
            return "R5", f"the moved {target} would stand next to {clash} of the same colour"
        cost = 0
        if rules.campfire_move_cost == "paid":
            cost = self._ascent_cost(target.value, to_row, to_slot, onto_bridge=False)
        if cost > others:
            return "R6", (f"the moved {target} costs {count_text(cost, 'discard')} but only "
                          f"{count_text(others, 'other card')} in hand")
        return None, cost

    # ---- the Goats module (G1–G7) --------------------------------------------------------

    def goat_can_stand(self, card: Card | None) -> bool:
        """G6: a goat stands on any card, but on a Bridge only with ``goat_bridge=allowed``."""
        if card is None:
            return False
        return not (card.is_bridge and self.rules.goat_bridge == "forbidden")

    def _goat_above(self, row: int, slot: int) -> list[tuple[int, int]]:
        """The slots of the row above that rest on ``row``/``slot`` (R3: slot *i* of a row
        rests on slots *i* and *i*+1 below, so these are slots ``slot-1`` and ``slot``),
        up to the goats' top row (G4)."""
        up = row + 1
        if up > self.rules.goat_top_row:
            return []
        n = self.rules.row_length(up)
        return [(up, s) for s in (slot - 1, slot) if 1 <= s <= n]

    def goat_destinations(self, row: int, slot: int) -> list[tuple[int, int]]:
        """G2: where the goats at ``row``/``slot`` may move: a filled slot resting on their
        card that a goat may stand on (``goat_move=step``), or any such slot reached by a
        chain of steps (``far``). Bottom row first, then left to right."""
        seen: set[tuple[int, int]] = set()
        frontier = [(row, slot)]
        out: list[tuple[int, int]] = []
        while frontier:
            nxt = []
            for r, s in frontier:
                for t in self._goat_above(r, s):
                    if t in seen or not self.goat_can_stand(self.card_at(*t)):
                        continue
                    seen.add(t)
                    out.append(t)
                    nxt.append(t)
            if self.rules.goat_move == "step":
                break
            frontier = nxt
        return sorted(out)

    def why_not_goat(self, row: int, slot: int, to_row: int, to_slot: int) -> str | None:
        """Why moving the goats at ``row``/``slot`` to ``to_row``/``to_slot`` is refused
        (the reason, ruling G2), or ``None`` if it is legal."""
        if not any(g == (row, slot) for g in self.goats):
            return f"no goat stands at row {row} slot {slot}"
        if row >= self.rules.goat_top_row:
            return f"the goats at row {row} slot {slot} are at the top already (G4)"
        if (to_row, to_slot) in self.goat_destinations(row, slot):
            return None
        target = self.card_at(to_row, to_slot)
        if target is not None and target.is_bridge and not self.goat_can_stand(target):
            return "a goat may not stand on a Bridge (goat_bridge=forbidden, G6)"
        if to_row <= row:
            return "goats move up the mountain, to a higher row"
        if target is None:
            return f"row {to_row} slot {to_slot} holds no card for the goats to stand on"
        how = ("a card in the row above resting on theirs" if self.rules.goat_move == "step"
               else "a card above reached by cards resting on each other")
        return f"goats move only to {how} (goat_move={self.rules.goat_move})"

    def generate_goat_moves(self, player: int | None = None) -> Iterator[Move]:
        """Every legal goat move (G2) of ``player`` (0-based, default the player to move):
        one per goat group (goats on one card move together, G7) and destination. Nothing
        with ``goats=off`` or once the game is won."""
        if not self.goats or self.is_won():
            return
        p = self.to_move if player is None else player
        for r, s in sorted(set(self.goats)):
            if r >= self.rules.goat_top_row:
                continue
            for r2, s2 in self.goat_destinations(r, s):
                yield Move(GOAT, p + 1, None, r, s, r2, s2)

    def explain_goats(self) -> list[tuple[int, int, int, int, str | None, str]]:
        """For ``legal --explain goat``: each goat group and each slot above it within the
        goats' reach, with why the move is refused (``G2``/``G4``/``G6`` and the reason) or
        ``legal``. Rows ``(row, slot, to_row, to_slot, ruling_or_None, text)``."""
        out: list[tuple[int, int, int, int, str | None, str]] = []
        top = self.rules.goat_top_row
        for r, s in sorted(set(self.goats)):
            n = sum(1 for g in self.goats if g == (r, s))
            if r >= top:
                out.append((r, s, 0, 0, "G4", f"{count_text(n, 'goat')} at the top already"))
                continue
            span = 1 if self.rules.goat_move == "step" else top - r
            for r2 in range(r + 1, r + span + 1):
                for s2 in range(max(1, s - (r2 - r)), min(s, self.rules.row_length(r2)) + 1):
                    why = self.why_not_goat(r, s, r2, s2)
                    ruling = None if why is None else ("G6" if "Bridge" in why else "G2")
                    out.append((r, s, r2, s2, ruling,
                                f"legal: {count_text(n, 'goat')} move" if why is None else why))
        return out

    # ---- move generation -----------------------------------------------------------------

    def candidate_targets(self, card: Card) -> Iterator[tuple[int, int, int, int]]:
        """Every (row, slot, to_row, to_slot) worth checking for ``card``: each row's next
        slot, each Bridge (Ascent cards), the peak (Summit), and for a Campfire each Ascent
        card times each higher row's next slot. Legality is decided by :meth:`why_not`."""
        rules = self.rules
        if card.is_summit:
            yield rules.peak_row, 1, 0, 0
            return
        if card.is_campfire:
            for r in range(1, rules.rows):
                for s, c in enumerate(self.mountain[r - 1], start=1):
                    if c.is_ascent and c.colour == card.colour:
                        for r2 in range(r + 1, rules.rows + 1):
                            n2 = self.next_slot(r2)
                            if n2 is not None:
                                yield r, s, r2, n2
            return
        for r in range(1, rules.rows + 1):
            n = self.next_slot(r)
            if n is not None:
                yield r, n, 0, 0
        if card.is_ascent:
            for r, s in self.bridges():
                yield r, s, 0, 0

    def generate_placements(self, player: int | None = None) -> Iterator[Placement]:
        """Every legal placement of every distinct card in the hand of ``player`` (0-based,
        default the player to move), with its cost; the discard choice is not expanded."""
        p = self.to_move if player is None else player
        if self.is_won():
            return
        for card in sorted(set(self.hands[p]), key=Card.sort_key):
            for r, s, r2, s2 in self.candidate_targets(card):
                ruling, cost = self.why_not(card, r, s, r2, s2, player=p)
                if ruling is None:  # then cost is the number of discards (an int)
                    there = self.card_at(r, s)
                    yield Placement(card, r, s, cast(int, cost), r2, s2,
                                    onto_bridge=there is not None and there.is_bridge)

    def discard_choices(self, hand: Sequence[Card], k: int) -> list[tuple[Card, ...]]:
        """The distinct multisets of ``k`` cards from ``hand`` (copies are interchangeable)."""
        return sorted(set(combinations(sort_cards(hand), k)),
                      key=lambda t: [c.sort_key() for c in t])

    def generate_legal_moves(self) -> Iterator[Move]:
        """Every legal move of the player to move, discard choices expanded (R11), without
        duplicates (the two copies of a card are the same move). Nothing once the game is
        over."""
        if self.is_won():
            return
        p = self.to_move
        hand = self.hands[p]
        for pl in self.generate_placements():
            rest = list(hand)
            rest.remove(pl.card)
            for disc in self.discard_choices(rest, pl.cost):
                yield pl.move(p + 1, disc)
        if len(hand) >= 2:
            for disc in self.discard_choices(hand, 2):
                yield Move(DISCARD, p + 1, discard=disc)
        yield from self.generate_goat_moves()

    def legal_moves(self) -> list[Move]:
        """:meth:`generate_legal_moves` as a list."""
        return list(self.generate_legal_moves())

    def explain(self, card: Card) -> list[tuple[int, int, int, int, str | None, str]]:
        """Why each candidate slot refuses ``card`` (R-id and reason) or what it costs.

        Rows of ``(row, slot, to_row, to_slot, ruling_or_None, text)``: every row's next slot,
        every Bridge and the peak, for any card (Campfires: every card of the mountain).
        """
        rules = self.rules
        out = []
        targets: list[tuple[int, int, int, int]] = []
        if card.is_campfire:
            for r in range(1, rules.rows + 1):
                for s in range(1, len(self.mountain[r - 1]) + 1):
                    tos = [(r2, s2) for r2 in range(r + 1, rules.rows + 1)
                           if (s2 := self.next_slot(r2)) is not None] or [(0, 0)]
                    targets.extend((r, s, r2, s2) for r2, s2 in tos)
        else:
            for r in range(1, rules.peak_row + 1):
                n = self.next_slot(r)
                if n is not None:
                    targets.append((r, n, 0, 0))
            targets.extend((r, s, 0, 0) for r, s in self.bridges())
        for r, s, r2, s2 in targets:
            ruling, info = self.why_not(card, r, s, r2, s2)
            text = f"legal, costs {info}" if ruling is None else str(info)
            out.append((r, s, r2, s2, ruling, text))
        return out

    # ---- applying moves ------------------------------------------------------------------

    def check(self, move: Move) -> int:
        """Raise :class:`~model.errors.IllegalMoveError` (with the ruling id) if ``move`` is
        illegal now; else return its cost in discards."""
        if self.is_won():
            raise IllegalMoveError("R10", "the game is already won")
        if self.is_lost():
            raise IllegalMoveError("R12", "the game is already lost")
        p = self.to_move
        if move.player != p + 1:
            raise IllegalMoveError("R11", f"it is player {p + 1}'s turn, not player {move.player}'s")
        hand = count_cards(self.hands[p])
        if move.kind == GOAT:
            return self._check_goat(move)
        if move.kind not in (DISCARD, PLACE, CAMPFIRE):
            raise IllegalMoveError("R11", f"a move is a discard, place or campfire, not {move.kind!r}")
        if (move.kind != CAMPFIRE and (move.to_row or move.to_slot)) or (
                move.kind == DISCARD and (move.card is not None or move.row or move.slot)):
            raise IllegalMoveError("R11", f"a {move.kind} move with fields it does not use: {move}")
        if move.kind == DISCARD:
            if len(move.discard) != 2:
                raise IllegalMoveError("R11", f"a discard turn discards exactly 2 cards, not {len(move.discard)}")
            self._check_in_hand(hand, move.discard, "to discard")
            return 0
        if move.card is None:
            raise IllegalMoveError("R11", "the move names no card")
        self._check_in_hand(hand, (move.card,), "to play")
        if move.kind == PLACE and move.card.is_campfire:
            raise IllegalMoveError("R9", "a Campfire is played with kind \"campfire\"")
        if move.kind == CAMPFIRE and not move.card.is_campfire:
            raise IllegalMoveError("R9", f"{move.card} is not a Campfire")
        ruling, info = self.why_not(move.card, move.row, move.slot, move.to_row, move.to_slot)
        if ruling is not None:
            raise IllegalMoveError(ruling, str(info))
        cost = int(info)
        if len(move.discard) != cost:
            raise IllegalMoveError(
                "R6", f"this placement costs {count_text(cost, 'discard')}, {len(move.discard)} given")
        hand[move.card] -= 1
        self._check_in_hand(hand, move.discard, "to pay with (besides the card played)")
        return cost

    def _check_goat(self, move: Move) -> int:
        if not self.rules.goats_on:
            raise IllegalMoveError("G1", "goat moves need the Goats module (--rules goats=on)")
        if move.card is not None or move.discard:
            raise IllegalMoveError("G3", "a goat move plays and discards no card")
        why = self.why_not_goat(move.row, move.slot, move.to_row, move.to_slot)
        if why is not None:
            ruling = "G6" if "Bridge" in why else "G4" if "(G4)" in why else "G2"
            raise IllegalMoveError(ruling, why)
        return 0

    @staticmethod
    def _check_in_hand(hand: dict[Card, int], cards: Sequence[Card], what: str) -> None:
        need = count_cards(cards)
        for c, n in need.items():
            if hand.get(c, 0) < n:
                raise IllegalMoveError("R11", f"{c} {what} is not in the hand")

    def push(self, move: Move) -> None:
        """Check ``move`` (raising :class:`~model.errors.IllegalMoveError`), apply it, draw
        back up to the hand size (R11) and pass the turn."""
        self.check(move)
        self._apply(move)

    def push_unchecked(self, move: Move) -> None:
        """Apply ``move`` without checking it: for searches, and only for a move taken from
        :meth:`generate_legal_moves` of this very position (anything else corrupts the
        game). Plans found this way are still replayed with :meth:`push`."""
        self._apply(move)

    def _apply(self, move: Move) -> None:
        p = self.to_move
        self._undo.append((
            [list(r) for r in self.mountain], [list(h) for h in self.hands],
            [list(d) for d in self.decks], len(self.out), self.to_move, self.turn,
            list(self.goats),
        ))
        if move.kind == GOAT:  # G2, G7: every goat on the card moves; G3: whole turn or free
            here, there = (move.row, move.slot), (move.to_row, move.to_slot)
            self.goats = sorted(there if g == here else g for g in self.goats)
            self.move_stack.append(move)
            self.turn += 1
            if not self.is_won() and self.rules.goat_turn == "whole":
                self.to_move = (p + 1) % self.players
            return
        hand = self.hands[p]
        for c in move.discard:
            hand.remove(c)
            self.out.append(c)
        if move.kind != DISCARD:
            card = move.card
            assert card is not None
            hand.remove(card)
            cards = self.mountain[move.row - 1]
            if move.kind == CAMPFIRE:
                moved = cards[move.slot - 1]
                cards[move.slot - 1] = card
                self.mountain[move.to_row - 1].append(moved)
                if self.goats and self.rules.goat_campfire == "moves":  # G5
                    here, there = (move.row, move.slot), (move.to_row, move.to_slot)
                    self.goats = sorted(there if g == here else g for g in self.goats)
            elif move.slot <= len(cards):  # onto a Bridge (R8): the Bridge leaves the game
                self.out.append(cards[move.slot - 1])
                cards[move.slot - 1] = card
            else:
                cards.append(card)
            if self.rules.goats_on and self.rules.carries_goat(card):  # G1: a goat arrives
                self.goats = sorted(self.goats + [(move.row, move.slot)])
        self._draw(p)
        self.move_stack.append(move)
        self.turn += 1
        if not self.is_won():
            self.to_move = (p + 1) % self.players

    def pop(self) -> Move:
        """Take back the last move and return it. Raises ``IndexError`` if none was made."""
        move = self.move_stack.pop()
        mountain, hands, decks, n_out, self.to_move, self.turn, self.goats = self._undo.pop()
        self.mountain, self.hands, self.decks = mountain, hands, decks
        del self.out[n_out:]
        return move

    def _draw(self, p: int) -> None:
        hand, deck = self.hands[p], self.decks[p]
        while len(hand) < self.rules.hand_size and deck:
            hand.append(deck.pop(0))
        hand.sort(key=Card.sort_key)

    # ---- positions -----------------------------------------------------------------------

    def to_position(self) -> dict[str, Any]:
        """The position as JSON-ready data (read back by :meth:`from_position`)::

            {"rules": {...}, "players": P, "to_move": 1, "turn": T,
             "mountain": [[row 1 cards], ..., [peak]], "hands": [[...], ...],
             "decks": [[top first], ...], "out": [...]}

        ``to_move`` is ``null`` once the Summit stands on the peak: the game is over and no
        player is to move (R10).
        """
        data = {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "to_move": None if self.is_won() else self.to_move + 1,
            "turn": self.turn,
            "mountain": [[c.text for c in r] for r in self.mountain],
            "hands": [[c.text for c in h] for h in self.hands],
            "decks": [[c.text for c in d] for d in self.decks],
            "out": [c.text for c in self.out],
        }
        if self.rules.goats_on:
            data["goats"] = [[r, s] for r, s in self.goats]
        return data

    @classmethod
    def from_parts(
        cls,
        rules: RuleSet,
        mountain: Sequence[Sequence[Card]],
        hands: Sequence[Sequence[Card]],
        decks: Sequence[Sequence[Card]],
        to_move: int = 0,
        out: Sequence[Card] | None = None,
        turn: int = 0,
        goats: Sequence[tuple[int, int]] | None = None,
    ) -> Game:
        """A mid-game position. ``mountain`` rows bottom first (missing rows are empty),
        ``to_move`` 0-based; ``out`` defaults to every card not elsewhere.

        Raises :class:`~model.errors.InvalidDealError` for a position that cannot arise: more
        copies of a card than the deck has (R1), a row longer than its slots or a row with no
        support (R2, R3), a card above its height (R4), neighbours of one colour (R5), a Bridge
        at a row's end (R7), a Summit or Campfire off its rows (R9, R10), a hand over the hand
        size, a wrong player count or player to move.

        ``goats`` (``goats=on`` only): the (row, slot) of every goat; by default each card
        with a goat icon on the mountain carries its own goat (G1). Refused unless there is
        one goat per goat card on the mountain, each on a card it may stand on (G6), none
        above the top (G4), and, under ``goat_top=row``, all at the top if the Summit is on
        the peak.
        """
        players = len(hands)
        check_players(players)
        if len(decks) != players:
            raise InvalidDealError(f"{players} hands but {len(decks)} decks")
        if not 0 <= to_move < players:
            raise InvalidDealError(f"player to move must be 1..{players}, not {to_move + 1}")
        if len(mountain) > rules.peak_row:
            raise InvalidDealError(f"the mountain has {rules.peak_row} rows, not {len(mountain)}")
        rows = [list(r) for r in mountain] + [[] for _ in range(rules.peak_row - len(mountain))]
        for i, h in enumerate(hands):
            if len(h) > rules.hand_size:
                raise InvalidDealError(f"player {i + 1} holds {len(h)} cards; the hand size is {rules.hand_size}")
        _check_mountain(rules, rows)
        placed = [c for r in rows for c in r]
        held = [c for h in hands for c in h] + [c for d in decks for c in d]
        check_subset(placed + held + list(out or []), rules, "the position")
        for i, h in enumerate(hands):
            if len(h) < rules.hand_size and decks[i]:
                raise InvalidDealError(
                    f"player {i + 1} holds {len(h)} cards with cards left in the deck; a hand "
                    f"is drawn back up to {rules.hand_size} while the deck lasts (R11)")
        if out is None:
            rest = count_cards(placed + held)
            out = []
            for c in rules.composition():
                if rest.get(c, 0) > 0:
                    rest[c] -= 1
                else:
                    out.append(c)
        else:
            from model.deal import check_complete
            check_complete(placed + held + list(out), rules, "the position (mountain, hands, decks, out)")
        game = cls.__new__(cls)
        game.rules = rules
        game.players = players
        game.deal = None
        game.mountain = rows
        game.hands = [sort_cards(h) for h in hands]
        game.decks = [list(d) for d in decks]
        game.out = list(out)
        game.to_move = to_move
        game.turn = turn
        game.move_stack = []
        game._undo = []
        game.goats = _check_goats(rules, rows, goats)
        return game

    def copy(self) -> Game:
        """An independent copy of the position (without the move history)."""
        return Game.from_parts(self.rules, self.mountain, self.hands, self.decks,
                               self.to_move, self.out, self.turn,
                               self.goats if self.rules.goats_on else None)

    def key(self) -> tuple:
        """A hashable key of everything that decides the future (not the history). After
        the winning Summit no player is to move: the fourth item is then ``None``; with
        ``goats=on`` the goats' places are a fifth item."""
        key: tuple = (
            tuple(tuple(r) for r in self.mountain),
            tuple(tuple(h) for h in self.hands),
            tuple(tuple(d) for d in self.decks),
            None if self.is_won() else self.to_move,
        )
        if self.rules.goats_on:
            key += (tuple(self.goats),)
        return key

    def move_text(self, move: Move) -> str:
        """Human text of ``move`` in this position (before it is made): names the card a
        Campfire moves. ``T12 P1 place 7r → row 2 slot 3, discard 2g 9b``."""
        text = str(move)
        if move.kind == GOAT:
            n = sum(1 for g in self.goats if g == (move.row, move.slot))
            under = self.card_at(move.row, move.slot)
            onto = self.card_at(move.to_row, move.to_slot)
            text = (f"P{move.player} {'goat' if n == 1 else f'{n} goats'} on {under} at row "
                    f"{move.row} slot {move.slot} → {onto} at row {move.to_row} slot "
                    f"{move.to_slot}")
        elif move.kind == CAMPFIRE:
            moved = self.card_at(move.row, move.slot)
            if moved is not None:
                text = text.replace("card moves", f"{moved} moves")
        elif move.kind == PLACE and move.card is not None and move.card.is_ascent:
            under = self.card_at(move.row, move.slot)
            if under is not None and under.is_bridge:
                text = text.replace("→", "onto the Bridge at", 1)
        return f"T{self.turn + 1} {text}"


def _check_mountain(rules: RuleSet, rows: list[list[Card]]) -> None:
    for r, cards in enumerate(rows, start=1):
        length = rules.row_length(r)
        if len(cards) > length:
            raise InvalidDealError(f"row {r} has {length} slots, {len(cards)} cards given")
        if r > 1 and cards and len(rows[r - 2]) < len(cards) + 1:
            raise InvalidDealError(f"row {r} slot {len(cards)} has no support in row {r - 1} (R3)")
        for s, c in enumerate(cards, start=1):
            where = f"row {r} slot {s}"
            if r == rules.peak_row:
                if not c.is_summit:
                    raise InvalidDealError(f"{c} at {where}: only a Summit goes on the peak (R10)")
                continue
            if c.is_summit:
                raise InvalidDealError(f"Summit at {where}: a Summit goes only on the peak (R10)")
            if c.is_ascent and r > rules.max_row(c.value):
                raise InvalidDealError(f"{c} at {where} is above its height (R4)")
            if c.is_campfire and r >= rules.rows:  # its card must have moved strictly higher
                raise InvalidDealError(f"{c} at {where}: no higher row for the card it replaced (R9)")
            if c.is_bridge and (s == 1 or s == length):
                raise InvalidDealError(f"Bridge at {where}, the end of a row (R7)")
            if s > 1:
                left = cards[s - 2]
                if c.has_colour and left.has_colour and c.colour == left.colour:
                    raise InvalidDealError(f"{left} and {c} of one colour side by side in row {r} (R5)")
    peak = rows[rules.peak_row - 1]
    if peak:
        full = all(len(rows[r - 1]) == rules.row_length(r) for r in range(1, rules.rows + 1))
        if not full or any(c.is_bridge for row in rows for c in row):
            raise InvalidDealError("a Summit on the peak needs full rows and no Bridge (R10)")


def _check_goats(rules: RuleSet, rows: list[list[Card]],
                 goats: Sequence[tuple[int, int]] | None) -> list[tuple[int, int]]:
    """The checked, sorted goat list of a position (see :meth:`Game.from_parts`)."""
    carriers = [(r, s) for r, cards in enumerate(rows, start=1)
                for s, c in enumerate(cards, start=1) if rules.carries_goat(c)]
    if not rules.goats_on:
        if goats:
            raise InvalidDealError("goats are given but the Goats module is off (G1: goats=on)")
        return []
    if goats is None:
        return sorted(carriers)
    out = []
    for g in goats:
        r, s = g
        card = rows[r - 1][s - 1] if 1 <= r <= len(rows) and 1 <= s <= len(rows[r - 1]) else None
        if card is None:
            raise InvalidDealError(f"a goat at row {r} slot {s}, where there is no card (G1)")
        if r > rules.goat_top_row:
            raise InvalidDealError(f"a goat at row {r} slot {s}, above the top (G4)")
        if card.is_bridge and rules.goat_bridge == "forbidden":
            raise InvalidDealError(f"a goat on the Bridge at row {r} slot {s} (G6)")
        out.append((r, s))
    if len(out) != len(carriers):
        raise InvalidDealError(
            f"{count_text(len(out), 'goat')} given, but the mountain holds "
            f"{count_text(len(carriers), 'card')} with a goat icon; each brought one goat (G1)")
    if rows[rules.peak_row - 1] and rules.goat_top == "row" and any(r != rules.rows for r, _ in out):
        raise InvalidDealError("the Summit is on the peak but not every goat is at the top (G4)")
    return sorted(out)
