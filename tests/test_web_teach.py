"""What the play page says while a card is selected (web/teach.py): where each legal slot's cost
comes from (``targets[...]["why"]``, the worked examples of R6, R8 and R9 in docs/rules.md, and
a step counted here from the mountain in random positions); for a card with no legal slot the
rulings that refuse it (``no_slot``), each the engine's own; and
``GET /api/games/{id}/explain`` with its bad input answered by a JSON 4xx."""

from __future__ import annotations

import random
import re
import warnings

import pytest

from model.cards import parse_card, parse_cards
from model.deal import Deal
from model.game import Game
from model.rules import RuleSet
from web.app import create_app
from web.teach import RULING_ORDER, cost_why, explain_card, no_slot, targets

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

STANDARD = RuleSet()
TINY = {"preset": "tiny"}
STEP = re.compile(r"^(\d+) next to (\d+): ")


def position(rows: list[str], hand: str) -> Game:
    """A one-player standard position: ``rows`` bottom first, ``hand``, an empty deck."""
    return Game.from_parts(STANDARD, [parse_cards(r) for r in rows], [parse_cards(hand)], [[]], 0)


def why(rows: list[str], hand: str, card: str) -> dict[tuple[int, int], str]:
    g = position(rows, hand)
    return {(t["row"], t["slot"]): t["why"] for t in targets(g).get(card, [])}


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
    for card, ts in targets(g).items():
        for t in ts:
            assert t["why"].endswith(")") and "(R" in t["why"], (card, t)
            assert cost_why(g, parse_card(card), t["row"], t["slot"], t["to_row"], t["to_slot"],
                            t["cost"]) == t["why"]


def test_a_card_with_no_legal_slot_is_explained_by_the_engine():
    g = position(["1r"], "3r S 2b")
    legal = targets(g)
    assert "3r" not in legal and "S" not in legal and "2b" in legal
    no = no_slot(g, g.hands[0], legal)
    assert set(no) == {"3r", "S"}
    assert no["3r"][0] == {"row": 1, "slot": 2, "ruling": "R5",
                           "reason": "3r would stand next to 1r of the same colour"}
    assert all(r["row"] != 9 for r in no["3r"])  # the peak speaks only for a Summit
    assert [r["ruling"] for r in no["S"]] == ["R10"]
    for card, reasons in no.items():  # each reason is the engine's own
        for r in reasons:
            assert g.why_not(parse_card(card), r["row"], r["slot"]) == (r["ruling"], r["reason"])
    ans = explain_card(g, parse_card("3r"))
    assert ans["slots"] == [] and (ans["ruling"], ans["reason"]) == ("R5", no["3r"][0]["reason"])
    assert ans["text"].startswith("No slot takes 3r now: at row 1 slot 2, 3r would stand")


def test_a_campfire_without_a_card_of_its_colour():
    g = position(["1r 2g"], "Cb 5r")
    no = no_slot(g, g.hands[0], targets(g))
    assert no["Cb"] == [{"row": 0, "slot": 0, "ruling": "R9",
                         "reason": "no Ascent card of Cb's colour on the mountain to replace"}]
    assert explain_card(g, parse_card("Cb"))["text"] == (
        "No slot takes Cb now: no Ascent card of Cb's colour on the mountain to replace (R9).")


def positions(seed: int, players: int, rules: RuleSet, count: int):
    """``count`` positions of random play (placements preferred) from deal ``seed``."""
    rng = random.Random(seed)
    game = Game(Deal.from_seed(seed, players, rules))
    out = []
    while len(out) < count and game.outcome() is None:
        out.append(game.copy())
        legal = game.legal_moves()
        places = [m for m in legal if m.kind != "discard"]
        game.push(rng.choice(places if places and rng.random() < 0.8 else legal))
    return out


def left_value(game: Game, row: int, slot: int) -> int | None:
    """The value R6 counts against, found here from the row (Campfires looked through, a
    Bridge stops the walk under the default rules)."""
    for c in reversed(game.mountain[row - 1][: slot - 1]):
        if c.is_ascent:
            return c.value
        if c.is_bridge:
            return None
    return None


@pytest.mark.parametrize("seed, players, rules", [(1, 2, RuleSet()), (7, 3, RuleSet()),
                                                  (3, 1, RuleSet.tiny()), (11, 2, RuleSet())])
def test_every_legal_slot_and_every_refusal_is_explained(seed, players, rules):
    """Random positions: every card of the hand is in ``targets`` or in ``no_slot``; each
    sentence states the engine's cost, and an Ascent card's step is the one counted here from
    the mountain; refusals come in :data:`RULING_ORDER` and ``/explain`` names the first."""
    checked = refused = 0
    for game in positions(seed, players, rules, 40):
        hand = game.hands[game.to_move]
        legal = targets(game)
        no = no_slot(game, hand, legal)
        assert set(legal) | set(no) == {c.text for c in hand} and not set(legal) & set(no)
        for text, ts in legal.items():
            card = parse_card(text)
            for t in ts:
                assert (("nothing" in t["why"]) if t["cost"] == 0
                        else (f" {t['cost']} card" in t["why"])), t
                if not card.is_ascent or game.card_at(t["row"], t["slot"]) is not None:
                    continue
                left = left_value(game, t["row"], t["slot"])
                m = STEP.match(t["why"])
                if left is None:
                    assert m is None and t["cost"] == 0, t
                else:
                    assert m and (int(m.group(1)), int(m.group(2))) == (card.value, left), t
                    assert t["cost"] == abs(card.value - left)
                    checked += 1
        for text, reasons in no.items():
            refused += 1
            ranks = [RULING_ORDER.index(r["ruling"]) for r in reasons]
            assert reasons and ranks == sorted(ranks), reasons
            ans = explain_card(game, parse_card(text))
            assert ans["slots"] == [] and ans["ruling"] == reasons[0]["ruling"]
            assert ans["text"].endswith(f"({ans['ruling']}).")
    assert checked > 5 and refused > 0


def test_the_explain_route_and_its_bad_input():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        state = c.post("/api/games", json={"seed": 4, "players": 2, "rules": TINY}).json()
        gid = state["id"]
        assert set(state["targets"]) | set(state["no_slot"]) == set(state["hands"][0])
        card = state["hands"][0][0]
        ans = c.get(f"/api/games/{gid}/explain", params={"card": card}).json()
        assert ans["slots"] == state["targets"].get(card, []) and "refused" in ans
        assert all(r["ruling"] for r in ans["refused"])
        absent = next(t for t in ("1r", "2r", "3r", "1g", "2g", "3g") if t not in state["hands"][0])
        no = c.get(f"/api/games/{gid}/explain", params={"card": absent}).json()
        assert no["ruling"] == "R11" and no["slots"] == []
        for query, status in (("", 400), ("?card=", 400), ("?card=99z", 400), ("?card=" + "7" * 50, 400)):
            r = c.get(f"/api/games/{gid}/explain{query}")
            assert r.status_code == status and r.json()["error"], (query, r.text)
        assert c.get("/api/games/0123456789abcdef/explain?card=1r").status_code == 404
        assert c.post(f"/api/games/{gid}/explain?card=1r").status_code == 405
        assert c.get(f"/api/games/{gid}").json()["turn"] == 0  # nothing changed
        sil = c.post("/api/games", json={"seed": 3, "players": 3, "seat": 2, "mode": "silent",
                                         "bot": "greedy", "rules": TINY}).json()
        assert sil["targets"] == {} and sil["no_slot"] == {}  # a bot is to move
        r = c.get(f"/api/games/{sil['id']}/explain?card=1r")
        assert r.status_code == 409 and r.json()["error"]
