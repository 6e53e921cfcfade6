"""What the page says while a card is selected: every legal slot with its cost and why (the step
from its neighbour, R6; a Bridge's neighbours, R8; the card a Campfire moves, R9), and for a card
with no legal slot the rulings that refuse it.

Two fields of the game state come from here, :func:`targets` (``targets[card][i].why``) and
:func:`no_slot`, and so does ``GET /api/games/{id}/explain`` (:func:`explain_card`). Every number
and every refusal comes from the rules engine (:meth:`model.game.Game.generate_placements`,
:meth:`~model.game.Game.why_not`, :meth:`~model.game.Game.explain`, the neighbour values of
:meth:`~model.game.Game.left_reference`); the sentences only name what the engine counted.
Nothing here reads a card the player cannot see: the player's own hand and the mountain.
"""

from __future__ import annotations

from typing import Any

from model.cards import Card, sort_cards
from model.game import Game, count_text

#: The order in which the refusals of a card with no legal slot are listed: first the ruling
#: that comes closest to a legal placement (a slot the card could take but for its cost or
#: colour), last those that rule the slot out whatever the card.
RULING_ORDER = ("R6", "R5", "R8", "R7", "R4", "R9", "G4", "R10", "R3", "R2")


def _discards(n: int) -> str:
    return "nothing to discard" if n == 0 else f"{count_text(n, 'card')} to discard"


def _ascent_why(g: Game, value: int, row: int, slot: int, onto_bridge: bool, cost: int) -> str:
    """Where the cost of an Ascent card of ``value`` at ``row``/``slot`` comes from (R6, R8)."""
    left = g.left_reference(row, slot)
    if onto_bridge and g.rules.bridge_replace_cost == "max":
        right = g.right_reference(row, slot)
        if left is not None or right is not None:
            sides = " and ".join(str(v) for v in (left, right) if v is not None)
            return (f"{value} onto a Bridge next to {sides}: the greater difference, "
                    f"{_discards(cost)} (R8)")
        return f"{value} onto a Bridge with no value beside it: {_discards(cost)} (R8)"
    if left is not None:
        return f"{value} next to {left}: {_discards(cost)} (R6)"
    before = [c for c in g.mountain[row - 1][: slot - 1] if not c.is_campfire]
    if before and before[-1].is_bridge:
        return f"{value} after a Bridge: {_discards(cost)} (R6)"
    return f"first card of row {row}: {_discards(cost)} (R6)"


def cost_why(g: Game, card: Card, row: int, slot: int, to_row: int, to_slot: int,
             cost: int) -> str:
    """One sentence saying where a legal placement's ``cost`` (discards, the engine's count)
    comes from, naming the ruling: ``"4 next to 7: 3 cards to discard (R6)"``, ``"a Bridge
    costs nothing (R7)"``; a Campfire (R9) says where the card it replaces goes and what that
    costs."""
    if card.is_summit:
        return "the Summit costs nothing and wins the game (R10)"
    if card.is_bridge:
        return "a Bridge costs nothing (R7)"
    if card.is_campfire:
        moved = g.card_at(row, slot)
        assert moved is not None and moved.value is not None  # a legal Campfire replaces one
        where = f"{card} replaces {moved}, which moves to row {to_row} slot {to_slot}"
        if g.rules.campfire_move_cost != "paid":
            return f"{where}: nothing to discard (R9)"
        return f"{where}; " + _ascent_why(g, moved.value, to_row, to_slot, False, cost)
    there = g.card_at(row, slot)
    return _ascent_why(g, card.value, row, slot, there is not None and there.is_bridge, cost)


def targets(g: Game) -> dict[str, list[dict[str, Any]]]:
    """Every legal placement of the player to move, by card text (the page's slot marks):
    ``{"row", "slot", "to_row", "to_slot", "cost", "why"}`` (``to_*`` 0 but for a Campfire),
    where ``why`` says where the cost comes from (:func:`cost_why`)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for pl in g.generate_placements():
        out.setdefault(pl.card.text, []).append(
            {"row": pl.row, "slot": pl.slot, "to_row": pl.to_row, "to_slot": pl.to_slot,
             "cost": pl.cost, "why": cost_why(g, pl.card, pl.row, pl.slot, pl.to_row,
                                              pl.to_slot, pl.cost)})
    return out


def refusals(g: Game, card: Card) -> list[dict[str, Any]]:
    """Why no slot takes ``card`` (a card of the hand of the player to move): the engine's
    refusals (:meth:`Game.explain`) as ``{"row", "slot", "ruling", "reason"}``, one per distinct
    reason, in :data:`RULING_ORDER` (then the engine's order). A Campfire with no Ascent card of
    its colour on the mountain gets that one reason (R9, row and slot 0); only the Summit hears
    from the peak. Meaningful when the card has no legal placement."""
    rows = g.explain(card)
    if card.is_campfire:
        mine = [r for r in rows if (c := g.card_at(r[0], r[1])) is not None
                and c.is_ascent and c.colour == card.colour]
        if not mine:
            return [{"row": 0, "slot": 0, "ruling": "R9",
                     "reason": f"no Ascent card of {card}'s colour on the mountain to replace"}]
        rows = mine
    peak = g.rules.peak_row
    rows = [r for r in rows if (r[0] == peak) == card.is_summit] or rows
    seen: set[tuple[str, str]] = set()
    why: list[dict[str, Any]] = []
    for r, s, _, _, ruling, text in rows:
        if ruling is not None and (ruling, text) not in seen:
            seen.add((ruling, text))
            why.append({"row": r, "slot": s, "ruling": ruling, "reason": text})
    rank = {r: i for i, r in enumerate(RULING_ORDER)}
    return sorted(why, key=lambda w: rank.get(w["ruling"], len(rank)))


def no_slot(g: Game, hand: list[Card], legal: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """For each distinct card of ``hand`` (the hand of the player to move) that is not in
    ``legal`` (:func:`targets`), why not (:func:`refusals`), by card text."""
    return {c.text: refusals(g, c) for c in sort_cards(set(hand)) if c.text not in legal}


def explain_card(g: Game, card: Card) -> dict[str, Any]:
    """What ``card`` (in the hand of the player to move) may do now, for
    ``GET /api/games/{id}/explain``: ``{"card", "slots", "ruling", "reason", "text",
    "refused"}``. ``slots`` are its entries of :func:`targets`; when there is none, ``ruling``
    and ``reason`` are the first of :func:`refusals` and ``text`` a sentence naming it (else
    those three are ``null``). ``refused`` lists every candidate slot the engine refuses,
    ``{"row", "slot", "to_row", "to_slot", "ruling", "reason"}`` (as ``ascent legal
    --explain``)."""
    slots = targets(g).get(card.text, [])
    out: dict[str, Any] = {"card": card.text, "slots": slots, "ruling": None, "reason": None,
                           "text": None}
    if not slots:
        first = (refusals(g, card) or [{"row": 0, "slot": 0, "ruling": "R3",
                                        "reason": "no row has an open slot"}])[0]
        out["ruling"], out["reason"] = first["ruling"], first["reason"]
        where = f"at row {first['row']} slot {first['slot']}, " if first["row"] else ""
        out["text"] = f"No slot takes {card} now: {where}{first['reason']} ({first['ruling']})."
    out["refused"] = [{"row": r, "slot": s, "to_row": r2, "to_slot": s2, "ruling": ruling,
                       "reason": text}
                      for r, s, r2, s2, ruling, text in g.explain(card) if ruling is not None]
    return out


__all__ = ["RULING_ORDER", "cost_why", "explain_card", "no_slot", "refusals", "targets"]
