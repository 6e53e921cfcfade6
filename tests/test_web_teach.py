"""The teaching field of the game state (``explain``) and ``GET /api/games/{id}/explain``:
every legal slot of a selected card with its cost and the sentence saying why, checked against
the rules engine and against a cost counted here from the mountain; the ruling of a card that
fits nowhere; bad input answered with a JSON 4xx."""

from __future__ import annotations

import random
import re
import warnings

import pytest

from model.cards import parse_card
from model.deal import Deal
from model.game import Game
from model.rules import RuleSet
from web.app import create_app
from web.teach import RULING_ORDER, explain_card, explain_hand

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TINY = {"preset": "tiny"}
STEP = re.compile(r"^(\d+[a-z]) next to (\d+[a-z]): \|(\d+) − (\d+)\| = (\d+)")


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
def test_every_legal_slot_is_explained_with_the_engines_cost(seed, players, rules):
    checked = refused = 0
    for game in positions(seed, players, rules, 40):
        hand = game.hands[game.to_move]
        why = explain_hand(game, hand)
        legal: dict[str, set] = {}
        for pl in game.generate_placements():
            legal.setdefault(pl.card.text, set()).add((pl.row, pl.slot, pl.to_row, pl.to_slot, pl.cost))
        assert set(why) == {c.text for c in hand}
        for text, ans in why.items():
            got = {(x["row"], x["slot"], x["to_row"], x["to_slot"], x["cost"]) for x in ans["slots"]}
            assert got == legal.get(text, set()), (text, got, legal.get(text))
            card = parse_card(text)
            for x in ans["slots"]:
                assert x["text"].endswith(")"), x
                assert (("nothing to discard" in x["text"]) if x["cost"] == 0
                        else (f": {x['cost']} card" in x["text"])), x
                m = STEP.match(x["text"])
                if m and game.card_at(x["row"], x["slot"]) is None and card.is_ascent:
                    assert (m.group(1), int(m.group(3))) == (text, card.value)
                    assert int(m.group(4)) == left_value(game, x["row"], x["slot"])
                    assert int(m.group(5)) == x["cost"] == abs(card.value - int(m.group(4)))
                    checked += 1
            if not ans["slots"]:
                refused += 1
                r, s = map(int, re.search(r"at row (\d+) slot (\d+)", ans["text"]).groups())
                found = [row for row in game.explain(card) if (row[0], row[1]) == (r, s)]
                assert any(row[4] == ans["ruling"] and row[5] == ans["reason"] for row in found)
                best = min(RULING_ORDER.index(row[4]) if row[4] in RULING_ORDER else 99
                           for row in game.explain(card))
                assert RULING_ORDER.index(ans["ruling"]) == best
            else:
                assert ans["ruling"] is None and ans["text"] is None
    assert checked > 5 and refused > 0


def test_the_sentence_names_the_step_from_the_left_neighbour():
    """Row 1 ``4r``: a ``7g`` in slot 2 costs |7 − 4| = 3 (the R6 example of docs/rules.md)."""
    game = Game(Deal.from_seed(1, 1, RuleSet()))
    game.mountain[0].append(parse_card("4r"))
    game.hands[0][:2] = [parse_card("7g"), parse_card("7g")]
    ans = explain_card(game, parse_card("7g"))
    row1 = [x for x in ans["slots"] if x["row"] == 1]
    assert row1 and row1[0]["text"] == "7g next to 4r: |7 − 4| = 3: 3 cards to discard (R6)"


def test_the_explain_route_and_its_bad_input():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        state = c.post("/api/games", json={"seed": 4, "players": 2, "rules": TINY}).json()
        gid = state["id"]
        assert set(state["explain"]) == set(state["hands"][0])
        card = state["hands"][0][0]
        ans = c.get(f"/api/games/{gid}/explain", params={"card": card}).json()
        assert ans["slots"] == state["explain"][card]["slots"] and "refused" in ans
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
        assert sil["explain"] == {}  # a bot is to move
        r = c.get(f"/api/games/{sil['id']}/explain?card=1r")
        assert r.status_code == 409 and r.json()["error"]
