"""The optional Goats module (rulings G1–G7 of ``docs/rules.md``).

Every sentence of EN's text is a test (``test_sentence_*``), each option's readings are
tested against each other, positions and records with goats round-trip, random legal play
keeps the goats' invariants, and ``goats=off`` leaves the base game as it was.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.cards import parse_card, parse_cards
from model.deal import Deal
from model.errors import IllegalMoveError, InvalidDealError, RecordError, RuleOptionError
from model.game import Game
from model.moves import GOAT, Move
from model.records import Plan, position_from_data
from model.rules import CHOICES, GOAT_CHOICES, RuleSet
from tests.strategies import examples

TINY_GOATS = ["preset=tiny", "goats=on"]


def rules(*options: str) -> RuleSet:
    return RuleSet.from_options([*TINY_GOATS, *options])


def position(mountain: list[str], hands: list[str], decks: list[str], *options: str,
             goats: list[tuple[int, int]] | None = None, to_move: int = 0) -> Game:
    """A tiny-rules position from row texts (``"1r 2g"``), hand and deck texts."""
    return Game.from_parts(rules(*options), [parse_cards(r) for r in mountain],
                           [parse_cards(h) for h in hands], [parse_cards(d) for d in decks],
                           to_move, goats=goats)


def place(player: int, card: str, row: int, slot: int, discard: str = "") -> Move:
    kind = "campfire" if card.startswith("C") else "place"
    return Move(kind, player, parse_card(card), row, slot, discard=tuple(parse_cards(discard)))


def goat(player: int, row: int, slot: int, to_row: int, to_slot: int) -> Move:
    return Move(GOAT, player, None, row, slot, to_row, to_slot)


# ---- EN, sentence by sentence -----------------------------------------------------------

def test_sentence_1_some_ascent_cards_feature_a_goat_icon() -> None:
    """"Some Ascent cards feature a goat icon." (G1): only Ascent cards, only the ones
    ``goat_cards`` names, and none at all with goats off."""
    low, high = rules(), rules("goat_cards=highest")
    for text in ("1r", "1g"):
        assert low.carries_goat(parse_card(text)) and not high.carries_goat(parse_card(text))
    for text in ("4r", "4g"):
        assert high.carries_goat(parse_card(text)) and not low.carries_goat(parse_card(text))
    for text in ("2r", "3g", "Cr", "B", "S"):
        assert not low.carries_goat(parse_card(text)) and not high.carries_goat(parse_card(text))
    off = RuleSet.from_options(["preset=tiny"])
    assert not any(off.carries_goat(c) for c in off.composition())
    assert sum(low.carries_goat(c) for c in low.composition()) == 4  # 1r 1r 1g 1g


def test_sentence_2_placing_one_adds_a_goat_on_the_card_placed() -> None:
    """"Placing one of these cards adds a goat meeple to the mountain, on the ascent card
    that was placed." (G1)"""
    g = position(["3r"], ["1g 2g 4r", "2r 3g 4g"], ["", ""])
    g.push(place(1, "2g", 1, 2, "4r"))
    assert g.goats == []  # not a goat card
    g2 = position(["3r"], ["1g 2g 4r", "2r 3g 4g"], ["", ""])
    g2.push(place(1, "1g", 1, 2, "2g 4r"))  # |1 - 3| = 2
    assert g2.goats == [(1, 2)]
    assert g2.card_at(1, 2) == parse_card("1g")
    # onto a Bridge (R8): the goat stands on the card that replaced the Bridge
    g3 = position(["2g B 2g"], ["1r 3g 4r"], [""])
    g3.push(place(1, "1r", 1, 2, "3g"))  # max(|1 - 2|, |1 - 2|) = 1
    assert g3.goats == [(1, 2)]


def test_sentence_3_goats_move_up_the_mountain_as_your_turn() -> None:
    """"Goats can be moved up the mountain as your turn." (G2, G3): up one row onto a card
    resting on theirs, as the whole turn (the turn passes, no card is played or drawn)."""
    g = position(["1r 2g 1r 2g", "3r 4g"], ["4r 3g S", "4g B Cr"], ["2r 4r", "3g Cg 3r"],
                 goats=[(2, 1), (1, 3)])
    moves = [m for m in g.legal_moves() if m.kind == GOAT]
    assert moves == [goat(1, 1, 3, 2, 2)]  # (2, 3) is empty; (2, 1) has nothing above yet
    hands = [list(h) for h in g.hands]
    g.push(moves[0])
    assert g.goats == [(2, 1), (2, 2)]
    assert g.to_move == 1 and g.turn == 1 and g.hands == hands and len(g.out) == 3
    with pytest.raises(IllegalMoveError) as exc:  # down the mountain: refused
        g.push(goat(2, 2, 2, 1, 3))
    assert exc.value.ruling == "G2"
    with pytest.raises(IllegalMoveError) as exc:  # nowhere to stand
        g.push(goat(2, 2, 1, 3, 1))
    assert exc.value.ruling == "G2"
    g.pop()
    assert g.goats == [(1, 3), (2, 1)] and g.to_move == 0


def test_sentence_3_reading_free_and_far() -> None:
    """G3 ``goat_turn=free``: the same player moves again; G2 ``goat_move=far``: any card
    higher up reached by cards resting on each other."""
    base = (["1r 2g 1r 2g", "3r 4g 3r", "4g 4r"], ["3g S", "2r B Cr"], ["", "3g Cg"])
    step = position(*base, goats=[(1, 1), (1, 3)])
    far = position(*base, "goat_move=far", goats=[(1, 1), (1, 3)])
    free = position(*base, "goat_turn=free", goats=[(1, 1), (1, 3)])
    assert {(m.to_row, m.to_slot) for m in step.generate_goat_moves() if m.slot == 3} == {(2, 2), (2, 3)}
    assert {(m.to_row, m.to_slot) for m in far.generate_goat_moves() if m.slot == 3} == {
        (2, 2), (2, 3), (3, 1), (3, 2)}
    assert {(m.to_row, m.to_slot) for m in far.generate_goat_moves() if m.slot == 1} == {
        (2, 1), (3, 1)}
    free.push(goat(1, 1, 1, 2, 1))
    assert free.to_move == 0
    step.push(goat(1, 1, 1, 2, 1))
    assert step.to_move == 1
    with pytest.raises(IllegalMoveError):
        step.push(goat(2, 1, 3, 3, 1))  # two rows at once: only under far


def test_goat_move_saves_a_player_from_r12() -> None:
    """G3: a goat move is a legal move, so a player with one card that fits nowhere but a
    goat that can climb has not lost (R12); without the goat they would have."""
    g = position(["1r 2g 1r 2g", "3r 4g"], ["S", "4g"], ["", ""], goats=[(1, 1), (1, 3)])
    assert not g.is_lost()
    assert all(m.kind == GOAT for m in g.legal_moves())
    stuck = position(["1r 2g 1r 2g", "3r 4g"], ["S", "4g"], ["", ""], goats=[(2, 1), (2, 2)])
    assert stuck.is_lost()


def test_sentence_4_goats_on_one_card_move_together() -> None:
    """Goats can be on the same card, after which they move together. (G7)"""
    mountain = ["1r 2g 1r 2g", "3r 4g 3r", "4g"]
    g = position(mountain, ["3g S", "2r B"], ["", ""], goats=[(1, 1), (1, 3)])
    g.push(goat(1, 1, 1, 2, 1))
    g.push(goat(2, 1, 3, 2, 2))
    assert g.goats == [(2, 1), (2, 2)]
    g.push(goat(1, 2, 2, 3, 1))
    g.push(goat(2, 2, 1, 3, 1))  # onto the same card: one group of two
    assert g.goats == [(3, 1), (3, 1)]
    pair = position(mountain, ["3g S", "2r B"], ["", ""], goats=[(2, 1), (2, 1)])
    assert pair.legal_moves()[-1] == goat(1, 2, 1, 3, 1)
    assert pair.move_text(goat(1, 2, 1, 3, 1)) == "T1 P1 2 goats on 3r at row 2 slot 1 → 4g at row 3 slot 1"
    pair.push(goat(1, 2, 1, 3, 1))
    assert pair.goats == [(3, 1), (3, 1)]


def test_sentence_5_the_goal_is_the_top_row() -> None:
    """"If playing with goats, the goal is to move them to the top of the mountain." (G4,
    ``goat_top=row``): the Summit waits until every goat is in the top row."""
    full = ["1r 2g 1r 2g", "3g 4r 3g", "4g 4r"]
    g = position(full, ["S 2r", "4g 1g"], ["", ""], goats=[(1, 1), (3, 2)])
    with pytest.raises(IllegalMoveError) as exc:
        g.push(place(1, "S", 4, 1))
    assert exc.value.ruling == "G4"
    g.push(goat(1, 1, 1, 2, 1))
    g.push(goat(2, 2, 1, 3, 1))
    g.push(place(1, "S", 4, 1))
    assert g.outcome() == "win"
    # the reading goat_top=summit: the goats must stand on the Summit itself
    h = position(full, ["S 2r", "4g 1g"], ["", ""], "goat_top=summit", goats=[(3, 1), (3, 2)])
    h.push(place(1, "S", 4, 1))
    assert h.outcome() is None and h.to_move == 1
    h.push(goat(2, 3, 1, 4, 1))
    assert h.outcome() is None
    h.push(goat(1, 3, 2, 4, 1))
    assert h.outcome() == "win" and h.goats == [(4, 1), (4, 1)]


def test_sentence_6_still_fill_the_bridges_and_place_the_summit() -> None:
    """"You still have to fill the bridges and place the summit card." (G4, R8, R10): goats
    at the top do not win by themselves; a Bridge still holds the Summit back."""
    g = position(["1r B 1r 2g", "3g 4r 3g", "4g 4r"], ["S 2g", "4g 1g"], ["", ""],
                 goats=[(3, 1), (3, 2)])
    assert g.outcome() is None
    with pytest.raises(IllegalMoveError) as exc:
        g.push(place(1, "S", 4, 1))
    assert exc.value.ruling == "R8"


def test_campfire_readings() -> None:
    """G5: a goat on a card a Campfire replaces goes up with it (``moves``) or stays on the
    Campfire (``stays``)."""
    for reading, where in (("moves", (3, 1)), ("stays", (2, 1))):
        g = position(["1g 2r 1g 2r", "3g 4r"], ["Cg 4r", "3r"], ["", ""],
                     f"goat_campfire={reading}", goats=[(1, 3), (2, 1)])
        g.push(Move("campfire", 1, parse_card("Cg"), 2, 1, 3, 1))
        assert where in g.goats and g.card_at(2, 1) == parse_card("Cg")
        assert len(g.goats) == 2


def test_bridge_readings() -> None:
    """G6: a goat may step onto a Bridge (``allowed``) or not (``forbidden``); when the
    Bridge is replaced the goats stay in the slot."""
    allowed = position(["1r 2g 1r 2g", "3r B 3r"], ["2r 4r 4g", "3g"], ["", ""],
                       goats=[(1, 1), (1, 3)])
    forbidden = position(["1r 2g 1r 2g", "3r B 3r"], ["2r 4r 4g", "3g"], ["", ""],
                         "goat_bridge=forbidden", goats=[(1, 1), (1, 3)])
    assert goat(1, 1, 3, 2, 2) in allowed.legal_moves()
    assert goat(1, 1, 3, 2, 2) not in forbidden.legal_moves()
    with pytest.raises(IllegalMoveError) as exc:
        forbidden.push(goat(1, 1, 3, 2, 2))
    assert exc.value.ruling == "G6"
    allowed.push(goat(1, 1, 3, 2, 2))
    assert allowed.goats == [(1, 1), (2, 2)]
    g = position(["1r 2g 1r 2g", "3r B 3r"], ["4r 2r 4g", "3g"], ["", ""],
                 goats=[(1, 1), (2, 2)])
    g.push(place(1, "4g", 2, 2, "2r"))  # max(|4 - 3|, |4 - 3|) = 1
    assert g.goats == [(1, 1), (2, 2)] and g.card_at(2, 2) == parse_card("4g")
    with pytest.raises(InvalidDealError, match="G6"):
        position(["1r 2g 1r 2g", "3r B 3r"], ["", ""], ["", ""], "goat_bridge=forbidden",
                 goats=[(1, 1), (2, 2)])


def test_goat_moves_need_goats_on() -> None:
    """G1: with goats off a goat move is refused and no goat ever appears."""
    g = Game(Deal.from_seed(3, 2, RuleSet.from_options(["preset=tiny"])))
    with pytest.raises(IllegalMoveError) as exc:
        g.push(goat(1, 1, 1, 2, 1))
    assert exc.value.ruling == "G1"


# ---- records ----------------------------------------------------------------------------

def test_rule_options_and_errors() -> None:
    """Every goat option takes its named values and refuses others, listing them; the goat
    options appear in records only when one differs from its default."""
    for name, values in GOAT_CHOICES.items():
        for v in values:
            assert getattr(RuleSet.from_options([f"{name}={v}"]), name) == v
        with pytest.raises(RuleOptionError) as exc:
            RuleSet.from_options([f"{name}=sideways"])
        assert all(v in str(exc.value) for v in values)
    assert "goats" not in RuleSet.standard().to_dict()
    assert len(RuleSet.standard().to_dict()) == 13
    r = RuleSet.from_options(["goats=on", "goat_top=summit"])
    assert RuleSet.from_options(r.to_dict()) == r
    assert r.changed_options() == ["goats=on", "goat_top=summit"]
    assert not set(GOAT_CHOICES) & set(CHOICES)


def test_move_json_round_trip_and_refusals() -> None:
    m = goat(2, 1, 3, 2, 2)
    assert Move.from_json(m.to_json()) == m
    assert m.to_json() == {"player": 2, "kind": "goat", "row": 1, "slot": 3, "to_row": 2,
                           "to_slot": 2, "discard": []}
    assert str(m) == "P2 goat row 1 slot 3 → row 2 slot 2"
    with pytest.raises(RecordError, match="card"):
        Move.from_json({**m.to_json(), "card": "1r"})
    with pytest.raises(RecordError, match="to_row"):
        Move.from_json({"player": 1, "kind": "goat", "row": 1, "slot": 1, "discard": []})


def play_randomly(deal: Deal, rng: random.Random) -> Game:
    g = Game(deal)
    while g.outcome() is None:
        g.push(rng.choice(g.legal_moves()))
    return g


def test_plans_and_positions_round_trip() -> None:
    """A game record with goat moves replays from its JSON; every position along it
    round-trips through its JSON (goats included)."""
    rng = random.Random(14)
    seen_goat_move = False
    for seed in range(40):
        r = RuleSet.from_options({**rules().to_dict(),
                                  **{k: rng.choice(v) for k, v in GOAT_CHOICES.items() if k != "goats"}})
        deal = Deal.from_seed(seed, 1 + seed % 3, r)
        g = play_randomly(deal, rng)
        seen_goat_move |= any(m.kind == GOAT for m in g.move_stack)
        data = json.loads(json.dumps(Plan(deal, g.move_stack).to_json()))
        rep = Plan.from_json(data).replay()
        assert rep.error is None and rep.game.key() == g.key()
        assert rep.game.outcome() == g.outcome()
        again = position_from_data(json.loads(json.dumps(g.to_position())))
        assert again.key() == g.key() and again.to_position() == g.to_position()
        assert again.outcome() == g.outcome()
    assert seen_goat_move


def test_position_checks() -> None:
    """G1, G4: a position's goats must match its goat cards and stand where goats can."""
    mountain = ["1r 2g 1r 2g", "3r 4g"]
    default = position(mountain, ["S", "4g"], ["", ""])
    assert default.goats == [(1, 1), (1, 3)]  # missing: each goat on its card
    with pytest.raises(InvalidDealError, match="G1"):
        position(mountain, ["S", "4g"], ["", ""], goats=[(1, 1)])
    with pytest.raises(InvalidDealError, match="no card"):
        position(mountain, ["S", "4g"], ["", ""], goats=[(1, 1), (3, 1)])
    with pytest.raises(RecordError, match="goats"):
        position_from_data({"rules": {"preset": "tiny", "goats": "on"}, "mountain": [["1r"]],
                            "hands": [["S"]], "decks": [[]], "goats": [[1]]})
    with pytest.raises(InvalidDealError, match="Goats module is off"):
        Game.from_parts(RuleSet.tiny(), [[parse_card("1r")]], [[]], [[]], goats=[(1, 1)])


# ---- properties of random legal play ----------------------------------------------------

def goat_rules() -> st.SearchStrategy[RuleSet]:
    opts = {k: st.sampled_from(v) for k, v in GOAT_CHOICES.items() if k != "goats"}
    return st.fixed_dictionaries(opts).map(
        lambda o: RuleSet.from_options({**rules().to_dict(), **o}))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(goat_rules(), st.integers(0, 2**32), st.integers(1, 3), st.randoms(use_true_random=False))
def test_random_legal_play_keeps_the_goat_invariants(r: RuleSet, seed: int, players: int,
                                                     rng: random.Random) -> None:
    """Random legal play with goats: the goat count equals the goat cards placed from hands
    (and the goat cards on the mountain); goats stand only on filled slots, never above the
    top nor (when forbidden) on a Bridge; the goats on one card all arrive where a goat
    move takes them; pop undoes every move."""
    g = Game(Deal.from_seed(seed, players, r))
    placed = 0
    while g.outcome() is None:
        before = Counter(g.goats)
        key = g.key()
        m = rng.choice(g.legal_moves())
        g.push(m)
        if m.kind in ("place",) and r.carries_goat(m.card):
            placed += 1
        on_mountain = sum(r.carries_goat(c) for row in g.mountain for c in row)
        assert len(g.goats) == placed == on_mountain
        for row, slot in g.goats:
            card = g.card_at(row, slot)
            assert card is not None and row <= r.goat_top_row
            assert not (card.is_bridge and r.goat_bridge == "forbidden")
        if m.kind == GOAT:
            after = Counter(g.goats)
            moved = before[(m.row, m.slot)]
            assert moved >= 1 and after[(m.row, m.slot)] == 0
            assert after[(m.to_row, m.to_slot)] == before[(m.to_row, m.to_slot)] + moved
        if rng.random() < 0.1:
            g.pop()
            assert g.key() == key
            g.push(m)


# ---- goats off is the base game ---------------------------------------------------------

def test_goats_off_changes_nothing() -> None:
    """With ``goats=off`` (whatever the other goat options say) every legal move list, key,
    position record and outcome along random play is the base game's."""
    rng = random.Random(2)
    for seed in range(30):
        base_rules = RuleSet.from_options(["preset=tiny"] if seed % 2 else [])
        odd = replace(base_rules, goat_move="far", goat_top="summit", goat_turn="free",
                      goat_cards="highest", goat_campfire="stays", goat_bridge="forbidden")
        a = Game(Deal.from_seed(seed, 1 + seed % 4, base_rules))
        b = Game(Deal.from_seed(seed, 1 + seed % 4, odd))
        for _ in range(60):
            if a.outcome() is not None:
                break
            moves = a.legal_moves()
            assert b.legal_moves() == moves and b.key() == a.key()
            pa, pb = a.to_position(), b.to_position()
            del pa["rules"], pb["rules"]
            assert pa == pb and "goats" not in pa
            m = rng.choice(moves)
            a.push(m)
            b.push(m)
        assert a.outcome() == b.outcome()
