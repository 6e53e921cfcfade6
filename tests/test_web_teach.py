"""What the play page says while a card is selected (web/games.py): where each legal slot's
cost comes from (``targets[...]["why"]``, the worked examples of R6, R8 and R9 in
docs/rules.md) and, for a card with no legal slot, the rulings that refuse it (``no_slot``)."""

from __future__ import annotations

from model.cards import parse_card, parse_cards
from model.game import Game
from model.rules import RuleSet
from web.games import _no_slot, _targets, cost_why

STANDARD = RuleSet()


def position(rows: list[str], hand: str) -> Game:
    """A one-player standard position: ``rows`` bottom first, ``hand``, an empty deck."""
    return Game.from_parts(STANDARD, [parse_cards(r) for r in rows], [parse_cards(hand)], [[]], 0)


def why(rows: list[str], hand: str, card: str) -> dict[tuple[int, int], str]:
    g = position(rows, hand)
    return {(t["row"], t["slot"]): t["why"] for t in _targets(g).get(card, [])}


def test_a_placement_says_its_neighbour_and_the_discards():
    w = why(["4r"], "7g 2b 3b 5b 6b", "7g")
    assert w[(1, 2)] == "7 next to 4: 3 cards to discard (R6)"
    assert why(["4r"], "5g 2b", "5g")[(1, 2)] == "5 next to 4: 1 card to discard (R6)"


def test_first_card_of_a_row_and_after_a_bridge_cost_nothing():
    w = why(["3r 6g 5b"], "7g 2b", "7g")
    assert w[(2, 1)] == "first card of row 2: nothing to discard (R6)"
    assert why(["4r B"], "9g 2b", "9g")[(1, 3)] == "9 after a Bridge: nothing to discard (R6)"


def test_a_campfire_is_looked_through():
    assert why(["3r Cg"], "5b 2b 3b", "5b")[(1, 3)] == "5 next to 3: 2 cards to discard (R6)"


def test_replacing_a_bridge_pays_the_greater_difference():
    w = why(["5r B 2g"], "3b 7b 8b", "3b")
    assert w[(1, 2)] == "3 onto a Bridge next to 5 and 2: the greater difference, 2 cards to discard (R8)"


def test_a_campfire_says_where_the_replaced_card_goes():
    w = why(["3r 6g 5b 8r", "4g"], "Cb 2r 3r 7r", "Cb")
    assert w[(1, 3)] == ("Cb replaces 5b, which moves to row 2 slot 2; "
                         "5 next to 4: 1 card to discard (R6)")


def test_every_legal_target_has_a_reason_naming_a_ruling():
    g = position(["3r 6g 5b 8r", "4g"], "Cb 2r 9g B S")
    for card, targets in _targets(g).items():
        for t in targets:
            assert t["why"].endswith(")") and "(R" in t["why"], (card, t)
            assert cost_why(g, parse_card(card), t["row"], t["slot"], t["to_row"], t["to_slot"],
                            t["cost"]) == t["why"]


def test_a_card_with_no_legal_slot_is_explained_by_the_engine():
    g = position(["1r"], "3r S 2b")
    targets = _targets(g)
    assert "3r" not in targets and "S" not in targets and "2b" in targets
    no = _no_slot(g, g.hands[0], targets)
    assert set(no) == {"3r", "S"}
    assert no["3r"][0] == {"row": 1, "slot": 2, "ruling": "R5",
                           "reason": "3r would stand next to 1r of the same colour"}
    assert all(r["row"] != 9 for r in no["3r"])  # the peak speaks only for a Summit
    assert [r["ruling"] for r in no["S"]] == ["R10"]
    for card, reasons in no.items():  # each reason is the engine's own
        for r in reasons:
            assert g.why_not(parse_card(card), r["row"], r["slot"]) == (r["ruling"], r["reason"])


def test_a_campfire_without_a_card_of_its_colour():
    g = position(["1r 2g"], "Cb 5r")
    no = _no_slot(g, g.hands[0], _targets(g))
    assert no["Cb"] == [{"row": 0, "slot": 0, "ruling": "R9",
                         "reason": "no Ascent card of Cb's colour on the mountain to replace"}]
