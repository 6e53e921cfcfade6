"""Notation: card text, moves, positions and plans as JSON; impossible positions.

Deals and notation: card text ``7r`` ``12g`` ``Cr`` ``B`` ``S`` round-trips and a bad
card names the token and its position; the Move / position / Plan JSON shapes round-trip;
impossible positions are refused (R1–R10).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.cards import (
    BRIDGE_CARD,
    COLOUR_LETTERS,
    SUMMIT_CARD,
    Card,
    ascent,
    campfire,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from model.deal import Deal
from model.errors import (
    AscentError,
    CardSyntaxError,
    InvalidDealError,
    RecordError,
    RuleOptionError,
)
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move
from model.records import Plan, position_from_data, replay
from model.rules import STANDARD, RuleSet
from tests.strategies import examples

L = parse_cards

# ---- card text -------------------------------------------------------------------------------

ALL_RULES = [STANDARD, RuleSet.tiny(),
             RuleSet.from_options({"colours": 5, "values": 12, "campfires": 2})]


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.describe())
def test_every_card_of_the_deck_round_trips(rules: RuleSet) -> None:
    """R1: the parse/format round-trip for every card of the deck."""
    for card in set(rules.composition()):
        text = format_card(card)
        assert parse_card(text) == card
        assert format_card(parse_card(text)) == text
        assert str(card) == text and repr(card) == f"Card({text!r})"
    comp = rules.composition()
    assert parse_cards(format_cards(comp)) == comp


def test_card_text_examples() -> None:
    """Ascent ``7r`` ``12g`` ``3b``; Campfire ``Cr`` ``Cg`` ``Cb``; ``B``; ``S``."""
    assert parse_card("7r") == ascent(7, "r")
    assert parse_card("12g") == ascent(12, "g")
    assert parse_card("3b") == ascent(3, "b")
    assert [parse_card(t) for t in ("Cr", "Cg", "Cb")] == [campfire(c) for c in "rgb"]
    assert parse_card("B") == BRIDGE_CARD and parse_card("S") == SUMMIT_CARD
    assert parse_card("12g").value == 12 and parse_card("12g").colour == "g"
    assert not parse_card("B").has_colour and parse_card("Cb").has_colour
    assert parse_cards("7r, 12g B  S") == [ascent(7, "r"), ascent(12, "g"), BRIDGE_CARD, SUMMIT_CARD]


@pytest.mark.parametrize("token, position, reason", [
    ("", 1, "empty"),
    ("7x", 2, "expected"),
    ("Cx", 3, "unknown colour"),
    ("0r", 4, "≥ 1"),
    ("07r", 5, "≥ 1"),
    ("r7", 6, "expected"),
    ("BB", 7, "expected"),
    ("7 r", 8, "expected"),
])
def test_bad_card_names_token_and_position(token: str, position: int, reason: str) -> None:
    """A bad card is an error that names the token and its position."""
    with pytest.raises(CardSyntaxError) as exc:
        parse_card(token, position)
    msg = str(exc.value)
    assert repr(token) in msg and f"position {position}" in msg and reason in msg
    assert exc.value.token == token and exc.value.position == position


def test_parse_cards_reports_the_position_in_the_list() -> None:
    """The position is the token's 1-based place in the list."""
    with pytest.raises(CardSyntaxError, match=r"'xx' at position 3"):
        parse_cards("7r 8g xx 9b")
    with pytest.raises(CardSyntaxError, match=r"position 2"):
        parse_cards(["7r", 5])


def test_bad_card_reason_survives_a_colon_in_the_token() -> None:
    """Regression (bug fixed in model/cards.py): the reason was cut out of the message by
    splitting on ': ', so a token holding ': ' gave a garbled reason."""
    with pytest.raises(CardSyntaxError) as exc:
        parse_card("a: b", 2)
    assert str(exc.value) == (
        "bad card 'a: b' at position 2: expected an Ascent card like 7r, a Campfire like Cg, B or S")


@pytest.mark.parametrize("token", ["²r", "٣r", "７r", "ſ", "9" * 5000 + "r"])
def test_non_ascii_lookalikes_and_huge_values_are_card_syntax_errors(token: str) -> None:
    """Regression (bug fixed in model/cards.py): '²r' and a 5000-digit value escaped as a bare
    ``ValueError`` from ``int()`` naming neither token nor position; '٣r', '７r' (other Unicode
    digits) and 'ſ' (upper-cases to 'S') were accepted as cards."""
    with pytest.raises(CardSyntaxError) as exc:
        parse_card(token, 9)
    assert "position 9" in str(exc.value) and exc.value.token == token


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(
    st.text(max_size=8),
    st.text(alphabet="0123456789rgbypxCBS cRGB\t,:", max_size=6),
    st.from_regex(r"\A[0-9]{1,3}[rgbypRGBYPx]\Z"),
), st.integers(1, 1000))
def test_parse_card_only_ever_raises_card_syntax_error(token: str, position: int) -> None:
    """Any string either parses to a card whose canonical text parses back to it, or
    raises :class:`CardSyntaxError` (a ``ValueError``) naming the token and position."""
    try:
        card = parse_card(token, position)
    except CardSyntaxError as exc:
        msg = str(exc)
        assert repr(token) in msg and f"position {position}" in msg
        assert "\n" not in msg.replace(repr(token), "")
        return
    assert isinstance(card, Card)
    assert parse_card(format_card(card)) == card
    assert format_card(card).lower() == token.strip().lower() or card.is_ascent


@st.composite
def card_spellings(draw) -> tuple[Card, str]:
    """A card and a non-canonical but accepted spelling: any case, surrounding spaces."""
    kind = draw(st.sampled_from(["ascent", "campfire", "B", "S"]))
    if kind == "ascent":
        v, col = draw(st.integers(1, 99)), draw(st.sampled_from(COLOUR_LETTERS))
        card, text = ascent(v, col), f"{v}{draw(st.sampled_from([col, col.upper()]))}"
    elif kind == "campfire":
        col = draw(st.sampled_from(COLOUR_LETTERS))
        card = campfire(col)
        text = draw(st.sampled_from(["C", "c"])) + draw(st.sampled_from([col, col.upper()]))
    else:
        card = BRIDGE_CARD if kind == "B" else SUMMIT_CARD
        text = draw(st.sampled_from([kind, kind.lower()]))
    pad = draw(st.sampled_from(["", " ", "\t"]))
    return card, pad + text + pad


@settings(max_examples=examples(200), deadline=None)
@given(card_spellings())
def test_accepted_spellings_parse_to_the_card(spelled: tuple[Card, str]) -> None:
    """Card text: kind letters in any case, surrounding blanks ignored; format is canonical."""
    card, text = spelled
    assert parse_card(text) == card
    assert parse_card(format_card(card)) == card


# ---- random positions, for the JSON round-trips ------------------------------------------------


def random_games(count: int, seed: str):
    """(game, moves) pairs from short random games, standard and tiny, 1–5 players."""
    rng = random.Random(seed)
    for i in range(count):
        rules = ALL_RULES[i % 2] if i % 5 else RuleSet.from_options(
            {"bridge_neighbour": "look-through", "dealing": "blocks"})
        g = Game(Deal.from_seed(rng.randrange(2**64), 1 + i % 5, rules))
        while True:
            moves = g.legal_moves()
            yield g, moves
            if not moves:
                break
            places = [m for m in moves if m.kind != DISCARD]
            g.push(rng.choice(places) if places and rng.random() < 0.85 else rng.choice(moves))


def test_move_json_shapes_from_the_issue() -> None:
    """The record shapes: each move is exactly one of these objects."""
    shapes = [
        {"player": 1, "kind": "discard", "discard": ["3r", "S"]},
        {"player": 1, "kind": "place", "card": "7r", "row": 1, "slot": 4, "discard": ["2g"]},
        {"player": 1, "kind": "campfire", "card": "Cr", "row": 2, "slot": 3, "to_row": 4,
         "to_slot": 1, "discard": []},
        {"player": 2, "kind": "place", "card": "S", "row": 9, "slot": 1, "discard": []},
        {"player": 3, "kind": "place", "card": "B", "row": 1, "slot": 2, "discard": []},
    ]
    for d in shapes:
        m = Move.from_json(d)
        assert m.to_json() == d
        assert json.loads(json.dumps(m.to_json())) == d
    assert Move.from_json(shapes[0]) == Move(DISCARD, 1, discard=L("3r S"))
    assert Move.from_json(shapes[2]) == Move(CAMPFIRE, 1, campfire("r"), 2, 3, 4, 1)


def test_move_json_round_trip_for_every_legal_move() -> None:
    """Every legal move of many positions round-trips through JSON text unchanged."""
    seen = set()
    for _g, moves in random_games(25, "moves"):
        for m in moves:
            back = Move.from_json(json.loads(json.dumps(m.to_json())))
            assert back == m
            seen.add(m.kind)
    assert seen == {DISCARD, PLACE, CAMPFIRE}


def test_discard_order_does_not_matter() -> None:
    """R11: a discard is a multiset; ``Move`` keeps it in canonical order."""
    a = Move.from_json({"player": 1, "kind": "discard", "discard": ["S", "3r"]})
    b = Move.from_json({"player": 1, "kind": "discard", "discard": ["3r", "S"]})
    assert a == b and a.to_json()["discard"] == ["3r", "S"]


@pytest.mark.parametrize("bad, field", [
    ([], "object"),
    ({"player": 1, "kind": "pass"}, "kind"),
    ({"player": 0, "kind": "discard", "discard": []}, "player"),
    ({"player": True, "kind": "discard", "discard": []}, "player"),
    ({"player": 1, "kind": "discard", "discard": "3r S"}, "discard"),
    ({"player": 1, "kind": "discard", "discard": ["3r", "zz"]}, "zz"),
    ({"player": 1, "kind": "place", "card": "7r", "slot": 4}, "row"),
    ({"player": 1, "kind": "place", "card": "7q", "row": 1, "slot": 4}, "7q"),
    ({"player": 1, "kind": "place", "row": 1, "slot": 4}, "card"),
    ({"player": 1, "kind": "campfire", "card": "Cr", "row": 1, "slot": 1, "to_row": 2}, "to_slot"),
    ({"player": 1, "kind": "place", "card": "7r", "row": 1.0, "slot": 4}, "row"),
    # fields a kind does not use must be absent, and discard is always given (review)
    ({"player": 1, "kind": "discard", "card": "zz", "discard": ["3r", "S"]}, "card"),
    ({"player": 1, "kind": "discard", "row": 1.5, "discard": ["3r", "S"]}, "row"),
    ({"player": 1, "kind": "place", "card": "7r", "row": 1, "slot": 4, "to_row": "a",
      "discard": []}, "to_row"),
    ({"player": 1, "kind": "place", "card": "7r", "row": 1, "slot": 4}, "discard"),
])
def test_malformed_move_json_is_a_record_error(bad, field: str) -> None:
    """Bad input is a one-line error naming the move and the field."""
    with pytest.raises(RecordError) as exc:
        Move.from_json(bad, 7)
    msg = str(exc.value)
    assert msg.startswith("move 7: ") and field in msg and "\n" not in msg


def test_position_json_round_trip() -> None:
    """A position format ... that can be written and read back: ``to_position`` →
    JSON text → ``position_from_data`` gives the same ``key()``, out pile, turn and legal
    moves, for positions from random play of standard and tiny games."""
    count = 0
    for g, moves in random_games(20, "positions"):
        data = json.loads(json.dumps(g.to_position()))
        back = position_from_data(data)
        assert back.key() == g.key()
        assert back.out == g.out and back.turn == g.turn and back.rules == g.rules
        assert back.legal_moves() == moves
        assert back.outcome() == g.outcome()
        assert position_from_data({"position": data}).key() == g.key()
        assert back.to_position() == g.to_position()
        count += 1
    assert count > 200


def test_position_without_out_rebuilds_it() -> None:
    """Position: ``out`` may be left off; it is every card not elsewhere."""
    g = next(g for g, _ in random_games(1, "no-out") if g.turn == 6)
    data = g.to_position()
    del data["out"]
    back = position_from_data(data)
    assert back.key() == g.key()
    assert sorted(back.out, key=Card.sort_key) == sorted(g.out, key=Card.sort_key)


def test_plan_json_round_trip() -> None:
    """Plan JSON: ``{"deal": {"players", "decks"}, "rules", "moves"}``, decks top card
    first; reading it back gives the same deal, rules and moves, and replays the same game."""
    finished = []
    for g, moves in random_games(15, "plans"):
        if not moves:
            finished.append(g)
    assert len(finished) == 15
    for g in finished:
        plan = Plan(g.deal, list(g.move_stack), {"note": "random play"})
        text = json.dumps(plan.to_json())
        data = json.loads(text)
        assert set(data) >= {"deal", "rules", "moves"}
        assert data["deal"]["players"] == g.players
        assert data["deal"]["decks"] == g.deal.deck_texts()
        back = Plan.from_json(data)
        assert back.deal.decks == g.deal.decks and back.deal.rules == g.rules
        assert back.deal.seed == g.deal.seed
        assert back.moves == g.move_stack and back.extra == {"note": "random play"}
        result = back.replay()
        assert result.error is None and result.legal_moves == len(g.move_stack)
        assert result.game.key() == g.key() and result.outcome == g.outcome()
        assert back.to_json() == plan.to_json()


def test_plan_with_decks_but_no_seed_and_wrong_players() -> None:
    """Plan JSON: a typed-in deal has no seed; ``players`` must match the decks."""
    deal = Deal.from_seed(5, 2)
    data = Plan(deal).to_json()
    del data["deal"]["seed"]
    back = Plan.from_json(data)
    assert back.deal.seed is None and back.deal.decks == deal.decks
    data["deal"]["seed"] = 6  # a seed that does not give these decks is not kept
    assert Plan.from_json(data).deal.seed is None
    data["deal"]["players"] = 3
    with pytest.raises(RecordError, match="players"):
        Plan.from_json(data)
    with pytest.raises(RuleOptionError):
        Plan.from_json({**Plan(deal).to_json(), "rules": {"dealing": "shuffle"}})


# ---- impossible positions ------------------------------------------------------------------------

GROUND = "5r 6g 7b 8r 9g 10b 11r 12g 1b"
FULL = ["1r 1g 1r 1g 1b 2r 2g 2r 2g", "2b 3r 3g 3r 3g 3b 4r 4g", "4r 4g 4b 5r 5g 5r 5g",
        "5b 6r 6g 6b 6r 6g", "6b 7r 7g 7b 7r", "7g 7b 8r 8g", "8b 8r 8g", "8b 9r"]


def make(rows: list[str], hands: list[str] | None = None, decks=None, to_move: int = 0,
         rules: RuleSet = STANDARD) -> Game:
    hands = hands if hands is not None else [""]
    decks = decks if decks is not None else [""] * len(hands)
    return Game.from_parts(rules, [L(r) for r in rows], [L(h) for h in hands],
                           [L(d) for d in decks], to_move)


@pytest.mark.parametrize("rows, hands, ruling", [
    (["7r 8g 7r"], ["7r"], "3 copies of 7r"),  # R1
    (["5r 6g", "7b 8r"], [""], "support"),  # R3: row 2 slot 2 needs row 1 slot 3
    (["5r", "7b"], [""], "support"),  # R3
    (["5r 6g 7b", "2r"], [""], "R4"),  # a 2 on row 3? no: row 2 is fine for a 2 ...
    (["5r 6g 7b", "8r 9g", "2b"], [""], "R4"),  # ... but not on row 3
    (["5r 5r 6g"], [""], "R5"),  # two reds side by side
    (["5r Cr"], [""], "R5"),  # a Campfire keeps its colour
    (["B 5r"], [""], "R7"),  # Bridge at the start of a row
    ([GROUND[:-2] + "B"], [""], "R7"),  # Bridge at the end of a row
    (["5r S"], [""], "R10"),  # Summit off the peak
    (["5r"] + [""] * 7 + ["S"], [""], "R3"),  # the peak needs support like any slot
    (FULL + ["12r"], [""], "R10"),  # only a Summit on the peak
    (FULL[:2] + ["4r B 4b 5r 5g 5r 5g"] + FULL[3:] + ["S"], [""], "R10"),  # a Bridge left
    ([GROUND + " 2r"], [""], "slots"),  # row 1 has 9 slots
])
def test_impossible_positions_are_refused(rows, hands, ruling: str) -> None:
    """An impossible position (3 copies of 7r) and the other rulings' positions
    are an :class:`InvalidDealError` naming the problem (R1, R2, R3, R4, R5, R7, R10)."""
    if ruling == "R4" and rows[-1] == "2r":  # the control case: legal
        assert make(rows, hands).row(2) == L("2r")
        return
    with pytest.raises(InvalidDealError, match=ruling):
        make(rows, hands)


def test_campfire_on_the_top_row_is_impossible() -> None:
    """Regression (bug fixed in model/game.py): a Campfire's replaced card moves to a strictly
    higher row below the peak (R9), so no Campfire can stand on row 8; ``from_parts`` promised
    to refuse it but accepted it."""
    rows = FULL[:7]
    assert make(rows + ["8b"]).row(8) == L("8b")
    with pytest.raises(InvalidDealError, match="R9"):
        make(rows + ["Cg"])
    assert make(rows[:6] + ["8b Cr 8g"]).row(7)[1] == campfire("r")  # row 7 is fine
    tiny = RuleSet.tiny()
    with pytest.raises(InvalidDealError, match="R9"):
        make(["1r 2g 3r 4g", "2r 3g 4r", "Cr"], rules=tiny)


@pytest.mark.parametrize("kwargs, match", [
    ({"hands": ["1r 2r 3r 4r 5r 6r"]}, "hand size"),
    ({"hands": ["", ""], "decks": [""]}, "decks"),
    ({"hands": [""], "to_move": 1}, "player to move"),
    ({"hands": [""] * 6}, "players"),
    ({"hands": ["13r"]}, "13r"),
    ({"hands": ["1r"], "decks": ["1r 1r"]}, "3 copies of 1r"),
])
def test_impossible_hands_and_decks_are_refused(kwargs, match: str) -> None:
    """R1/R11/R13: hands over the hand size, decks not matching the players, a bad player to
    move, a card not in the deck, too many copies across hand and deck."""
    with pytest.raises(InvalidDealError, match=match):
        make(["5r"], **kwargs)


def test_impossible_positions_from_json_are_one_line_errors() -> None:
    """An impossible position (3 copies of 7r) read from JSON is an
    :class:`AscentError` with a one-line message, as are malformed position objects."""
    base = make(["5r 6g"], ["7r 1b"]).to_position()
    three = dict(base, mountain=[["7r", "6g", "7r"]] + [[]] * 8)
    three.pop("out")
    bads = [three, dict(base, mountain="5r"), dict(base, hands=[["7x"]]), dict(base, to_move="1"),
            {k: v for k, v in base.items() if k != "decks"}, [], dict(base, turn=-1),
            dict(base, rules={"preset": "huge"})]
    for bad in bads:
        with pytest.raises(AscentError) as exc:
            position_from_data(bad)
        assert "\n" not in str(exc.value)
    with pytest.raises(InvalidDealError, match="3 copies of 7r"):
        position_from_data(three)


def test_position_out_must_complete_the_deck() -> None:
    """R1: with an explicit ``out`` the position must hold exactly the whole deck."""
    data = make(["5r 6g"], ["7r 1b"]).to_position()
    data["out"] = data["out"][1:]
    with pytest.raises(InvalidDealError):
        position_from_data(data)


def test_replay_of_move_json_from_text() -> None:
    """Plan moves written as JSON text replay through the engine (R11 turn order)."""
    deal = Deal.from_seed(2, 2)
    g = Game(deal)
    moves = []
    for _ in range(6):
        m = g.legal_moves()[0]
        moves.append(Move.from_json(json.loads(json.dumps(m.to_json()))))
        g.push(m)
    assert [m.player for m in moves] == [1, 2, 1, 2, 1, 2]
    r = replay(deal, moves)
    assert r.error is None and r.game.key() == g.key()


def test_hand_short_of_the_hand_size_with_a_deck_left_is_impossible() -> None:
    """R11: a hand is drawn back up to the hand size while the deck lasts."""
    from model.cards import parse_cards
    from model.errors import InvalidDealError
    from model.game import Game
    from model.rules import RuleSet

    with pytest.raises(InvalidDealError, match="drawn back up"):
        Game.from_parts(RuleSet.standard(), [], [parse_cards("Cb")], [parse_cards("1r")])
    # with the deck empty a short hand is normal
    Game.from_parts(RuleSet.standard(), [], [parse_cards("Cb")], [[]])


def test_position_players_must_match_the_hands() -> None:
    from model.game import Game
    from model.records import position_from_data

    pos = Game(Deal.from_seed(1, 2)).to_position()
    position_from_data(pos)
    for bad in (3, "x", True):
        with pytest.raises(RecordError, match="players"):
            position_from_data({**pos, "players": bad})


def test_json_with_an_integer_too_long_to_convert_is_a_record_error() -> None:
    from model.records import parse_json

    with pytest.raises(RecordError, match="unreadable JSON"):
        parse_json('{"deal": {"players": ' + "9" * 5000 + "}}")
