"""What the page says while a card is selected: for each legal slot its cost and why (the step
from its neighbour, R6; a Bridge's neighbours, R8; the card a Campfire moves, R9), and for a
card with no legal slot the ruling that refuses it and the reason.

Every number comes from the rules engine (:meth:`model.game.Game.why_not`); the sentences only
name what the engine counted against (the neighbour found as R6 walks left, looking through
Campfires). Nothing here reads a card the player cannot see: the card in hand, the mountain
and the number of cards in the player's own hand.
"""

from __future__ import annotations

from typing import Any

from model.cards import Card
from model.game import Game, count_text

#: When no slot takes a card, the refusal shown first: the ruling that comes closest to a
#: legal placement (a slot the card could take but for its cost or colour) before those
#: that rule the slot out whatever the card.
RULING_ORDER = ("R6", "R5", "R8", "R7", "R4", "R9", "G4", "R10", "R3", "R2")


def _neighbour(game: Game, row: int, slot: int, step: int) -> tuple[Card | None, bool]:
    """The card R6/R8 pays against from ``row``/``slot`` in direction ``step`` (-1 left,
    +1 right): the nearest Ascent card, Campfires looked through (and Bridges under
    ``bridge_neighbour=look-through``); ``None`` at the row's end, at an empty slot, or at a
    Bridge that stops the walk (then the flag says a Bridge stopped it). Mirrors
    :meth:`model.game.Game._reference`, whose value is the one counted."""
    cards = game.mountain[row - 1]
    i = slot - 1 + step
    look_through = game.rules.bridge_neighbour == "look-through"
    while 0 <= i < len(cards):
        c = cards[i]
        if c.is_ascent:
            return c, False
        if c.is_bridge and not look_through:
            return None, True
        i += step
    return None, False


def _step_text(game: Game, card: Card, row: int, slot: int, step: int) -> tuple[str, int]:
    """``4g next to 7r: |4 − 7| = 3`` and the step (0 when nothing counts), for ``card`` at
    ``row``/``slot`` against its neighbour in direction ``step``."""
    other, bridge = _neighbour(game, row, slot, step)
    if other is None:
        if bridge:
            return (f"{card} after a Bridge (bridge_neighbour={game.rules.bridge_neighbour})"
                    if step < 0 else "a Bridge to its right", 0)
        return (f"{card} starts row {row}" if step < 0 else "nothing to its right", 0)
    d = abs(card.value - other.value)
    side = "next to" if step < 0 else "and to its right"
    return f"{card} {side} {other}: |{card.value} − {other.value}| = {d}", d


def _discards(n: int) -> str:
    return "nothing to discard" if n == 0 else f"{count_text(n, 'card')} to discard"


def cost_text(game: Game, card: Card, row: int, slot: int, to_row: int, to_slot: int,
              cost: int) -> str:
    """One line saying why placing ``card`` at ``row``/``slot`` (a Campfire: moving the
    replaced card to ``to_row``/``to_slot``) costs ``cost`` discards (the engine's count,
    :meth:`Game.why_not`): ``"4g next to 7r: |4 − 7| = 3: 3 cards to discard (R6)"``."""
    rules = game.rules
    if card.is_summit:
        return f"the Summit on the peak wins the game: {_discards(cost)} (R10)"
    if card.is_bridge:
        return f"a Bridge costs nothing: {_discards(cost)} (R7)"
    if card.is_campfire:
        moved = game.card_at(row, slot)
        where = f"{card} replaces {moved} at row {row} slot {slot}, which moves to row {to_row} slot {to_slot}"
        if rules.campfire_move_cost == "free" or moved is None:
            return f"{where}, free (campfire_move_cost={rules.campfire_move_cost}): {_discards(cost)} (R9)"
        text, _ = _step_text(game, moved, to_row, to_slot, -1)
        return f"{where}: {text}: {_discards(cost)} (R9, R6)"
    there = game.card_at(row, slot)
    if there is not None and there.is_bridge:
        left, dl = _step_text(game, card, row, slot, -1)
        if rules.bridge_replace_cost == "left":
            return f"{card} replaces the Bridge; {left}: {_discards(cost)} (R8)"
        right, dr = _step_text(game, card, row, slot, +1)
        return (f"{card} replaces the Bridge; {left}, {right}; the larger counts: "
                f"{_discards(cost)} (R8)")
    text, d = _step_text(game, card, row, slot, -1)
    if d == 0 and "|" in text:
        return f"{text}, the same value: {_discards(cost)} (R6)"
    return f"{text}: {_discards(cost)} (R6)"


def explain_card(game: Game, card: Card, refusals: bool = False) -> dict[str, Any]:
    """What ``card`` (in the hand of the player to move) may do now:

    ``{"card", "slots": [{"row", "slot", "to_row", "to_slot", "cost", "text"}], "ruling",
    "reason", "text"}``: every legal slot with its cost and why (:func:`cost_text`); when
    there is none, ``ruling`` and ``reason`` of the refusal closest to legal
    (:data:`RULING_ORDER`, then the lowest slot) and ``text`` a sentence naming it (else
    those three are ``null``). With ``refusals``, ``"refused": [{"row", "slot", "to_row",
    "to_slot", "ruling", "reason"}]`` lists every candidate slot refused
    (:meth:`Game.explain`, as ``ascent legal --explain``)."""
    slots = []
    for r, s, r2, s2 in game.candidate_targets(card):  # as the engine's placements
        ruling, cost = game.why_not(card, r, s, r2, s2)
        if ruling is None and isinstance(cost, int):
            slots.append({"row": r, "slot": s, "to_row": r2, "to_slot": s2, "cost": cost,
                          "text": cost_text(game, card, r, s, r2, s2, cost)})
    refused = []
    if refusals or not slots:  # every candidate slot, as ascent legal --explain
        refused = [{"row": r, "slot": s, "to_row": r2, "to_slot": s2, "ruling": ruling,
                    "reason": text}
                   for r, s, r2, s2, ruling, text in game.explain(card) if ruling is not None]
    out: dict[str, Any] = {"card": card.text, "slots": slots, "ruling": None, "reason": None,
                           "text": None}
    if not slots:
        if refused:
            rank = {r: i for i, r in enumerate(RULING_ORDER)}
            main = min(refused, key=lambda x: (rank.get(x["ruling"], len(rank)), x["row"], x["slot"]))
            out["ruling"], out["reason"] = main["ruling"], main["reason"]
            where = f"row {main['row']} slot {main['slot']}"
            if main["to_row"]:
                where += f" → row {main['to_row']} slot {main['to_slot']}"
            out["text"] = f"No slot takes {card} now: at {where}, {main['reason']} ({main['ruling']})."
        else:
            out["ruling"], out["reason"] = "R3", "no row has an open slot"
            out["text"] = f"No slot takes {card} now: no row has an open slot (R3)."
    if refusals:
        out["refused"] = refused
    return out


def explain_hand(game: Game, hand: list[Card]) -> dict[str, dict[str, Any]]:
    """:func:`explain_card` (without the refusals) for every distinct card of ``hand`` (the
    hand of the player to move), by card text; ``{}`` once the game is over."""
    if game.outcome() is not None:
        return {}
    return {c.text: explain_card(game, c) for c in sorted(set(hand), key=Card.sort_key)}


__all__ = ["RULING_ORDER", "cost_text", "explain_card", "explain_hand"]
