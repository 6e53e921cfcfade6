"""Portable deals (ruling R13) and the deck composition (R1).

Deal number N is a frozen, portable format ("document the shuffle ... with test
vectors, so any other program can rebuild deal N"): SplitMix64 seeded with N drives a
Fisher–Yates shuffle of the canonical card order. The golden vectors below are that format;
a change to the PRNG, the shuffle or the canonical order must break them.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.cards import parse_cards
from model.deal import MASK64, Deal, SplitMix64, deal_out, shuffle
from model.errors import InvalidDealError
from model.game import Game
from model.rules import STANDARD, RuleSet
from tests.strategies import examples

# ---- SplitMix64 ------------------------------------------------------------------------------


def reference_splitmix64(seed: int, n: int) -> list[int]:
    """SplitMix64 written out from Vigna's splitmix64.c (prng.di.unimi.it/splitmix64.c),
    independently of :mod:`model.deal`."""
    out, x = [], seed % 2**64
    for _ in range(n):
        x = (x + 0x9E3779B97F4A7C15) % 2**64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        out.append(z ^ (z >> 31))
    return out


def test_splitmix64_published_vectors_seed_0() -> None:
    """R13: the published first outputs of splitmix64.c for seed 0 (also Java 8
    ``SplittableRandom``'s mixer); the module docstring quotes the first."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_splitmix64_published_vectors_seed_1234567() -> None:
    """R13: splitmix64.c's outputs for seed 1234567 (a second, commonly quoted vector)."""
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [
        0x599ED017FB08FC85,
        0x2C73F08458540FA5,
        0x883EBCE5A3F27C77,
    ]


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, MASK64))
def test_splitmix64_matches_the_reference_formula(seed: int) -> None:
    """R13: for any 64-bit seed the generator is the documented formula, outputs in
    [0, 2**64)."""
    rng = SplitMix64(seed)
    got = [rng.next() for _ in range(5)]
    assert got == reference_splitmix64(seed, 5)
    assert all(0 <= x <= MASK64 for x in got)


# ---- the shuffle -----------------------------------------------------------------------------


def reference_shuffle(items: list, seed: int) -> list:
    """Durstenfeld's Fisher–Yates from the back, j = next() mod (i+1), as documented."""
    out = list(items)
    draws = iter(reference_splitmix64(seed, max(len(out) - 1, 0)))
    for i in range(len(out) - 1, 0, -1):
        j = next(draws) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_canonical_card_order_is_frozen() -> None:
    """R1/R13: the shuffle starts from the canonical order: Ascent cards colour by colour
    (r, g, b), values ascending, copies adjacent; Campfires r g b; 5 Bridges; 5 Summits."""
    texts = [c.text for c in STANDARD.composition()]
    assert len(texts) == 85
    assert texts[:6] == ["1r", "1r", "2r", "2r", "3r", "3r"]
    assert texts[22:26] == ["12r", "12r", "1g", "1g"]
    assert texts[70:72] == ["12b", "12b"]
    assert texts[72:] == ["Cr", "Cg", "Cb"] + ["B"] * 5 + ["S"] * 5


def test_golden_deal_1_shuffle() -> None:
    """R13 frozen portable format: the first 10 cards of the shuffle of deal 1 (standard deck).
    Recorded from the engine and checked against :func:`reference_shuffle`; never edit these
    to make a change pass — a change here breaks every recorded deal number."""
    order = shuffle(STANDARD.composition(), 1)
    first10 = ["12b", "10r", "9b", "4g", "7b", "6g", "6b", "4r", "5r", "Cr"]
    assert [c.text for c in order[:10]] == first10
    assert order == reference_shuffle(STANDARD.composition(), 1)
    deal = Deal.from_seed(1, 1)
    assert [c.text for c in deal.decks[0][:10]] == first10
    two = Deal.from_seed(1, 2)
    assert [c.text for c in two.decks[0][:5]] == first10[0::2]
    assert [c.text for c in two.decks[1][:5]] == first10[1::2]


def test_golden_deal_0_and_tiny_deal_1() -> None:
    """R13 frozen portable format: deal 0 (first 10) and the whole tiny deal 1 (20 cards)."""
    assert [c.text for c in shuffle(STANDARD.composition(), 0)[:10]] == [
        "B", "1g", "8b", "S", "6r", "11b", "6g", "8g", "11g", "4g"]
    assert [c.text for c in shuffle(RuleSet.tiny().composition(), 1)] == [
        "1r", "4g", "2g", "2r", "S", "3r", "4r", "Cr", "4g", "3g",
        "2r", "1r", "2g", "4r", "B", "1g", "Cg", "3g", "1g", "3r"]


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, MASK64))
def test_shuffle_is_the_documented_fisher_yates_and_a_permutation(seed: int) -> None:
    """R13: every deal number gives a permutation of the 85 cards equal to the reference."""
    comp = STANDARD.composition()
    order = shuffle(comp, seed)
    assert Counter(order) == Counter(comp)
    assert order == reference_shuffle(comp, seed)
    assert comp == STANDARD.composition()  # the input is not changed


def test_shuffle_does_not_use_python_random() -> None:
    """R13: "Do not depend on random's internals": reseeding Python's random changes nothing."""
    import random

    random.seed(1)
    a = shuffle(STANDARD.composition(), 42)
    random.seed(2)
    b = shuffle(STANDARD.composition(), 42)
    assert a == b
    assert shuffle(STANDARD.composition(), 43) != a


# ---- dealing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(1, 6))
@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_round_robin_dealing(players: int, seed: int) -> None:
    """R13 default ``dealing=round-robin``: card k of the shuffle goes to player k mod P,
    player 1 first; sizes differ by at most one, the first players taking the extra."""
    order = shuffle(STANDARD.composition(), seed)
    deal = Deal.from_seed(seed, players)
    assert deal.players == players and deal.seed == seed and deal.rules == STANDARD
    assert len(deal.decks) == players
    sizes = [len(d) for d in deal.decks]
    assert sum(sizes) == 85
    assert sizes == [85 // players + (1 if p < 85 % players else 0) for p in range(players)]
    for p in range(players):
        assert list(deal.decks[p]) == order[p::players]
    assert deal.decks[0][0] == order[0]  # player 1 gets the first card


@pytest.mark.parametrize("players", range(1, 6))
def test_blocks_dealing(players: int) -> None:
    """R13 ``dealing=blocks``: contiguous blocks, player 1 first, the first 85 mod P players
    one card more."""
    rules = RuleSet.from_options(["dealing=blocks"])
    order = shuffle(rules.composition(), 5)
    deal = Deal.from_seed(5, players, rules)
    sizes = [len(d) for d in deal.decks]
    assert sizes == [85 // players + (1 if p < 85 % players else 0) for p in range(players)]
    start = 0
    for p, size in enumerate(sizes):
        assert list(deal.decks[p]) == order[start:start + size]
        start += size
    expected = {1: [85], 2: [43, 42], 3: [29, 28, 28], 4: [22, 21, 21, 21], 5: [17] * 5}
    assert sizes == expected[players]


@pytest.mark.parametrize("dealing", ["round-robin", "blocks"])
@pytest.mark.parametrize("n", [0, 1, 4, 20, 85])
def test_deal_out_sizes_for_any_count(dealing: str, n: int) -> None:
    """R13: every card dealt exactly once, for any deck size and 1–5 players."""
    cards = list(range(n))
    for players in range(1, 6):
        decks = deal_out(cards, players, dealing)
        assert len(decks) == players
        assert sorted(c for d in decks for c in d) == cards
        assert max(map(len, decks)) - min(map(len, decks)) <= 1
        assert [len(d) for d in decks] == sorted((len(d) for d in decks), reverse=True)


@pytest.mark.parametrize("players", range(1, 6))
def test_setup_each_player_draws_five_and_player_one_starts(players: int) -> None:
    """R13: each player draws 5 from the top of their own deck; player 1 starts."""
    deal = Deal.from_seed(11, players)
    g = Game(deal)
    assert g.to_move == 0 and g.turn == 0 and g.out == []
    assert all(not row for row in g.mountain)
    for p in range(players):
        assert Counter(g.hands[p]) == Counter(deal.decks[p][:5])
        assert g.decks[p] == list(deal.decks[p][5:])
    assert all(m.player == 1 for m in g.legal_moves())


def test_tiny_deal_draws_three() -> None:
    """R13 with the ``tiny`` preset (hand size 3, 20 cards)."""
    tiny = RuleSet.tiny()
    deal = Deal.from_seed(4, 3, tiny)
    assert sum(len(d) for d in deal.decks) == 20
    g = Game(deal)
    assert [len(h) for h in g.hands] == [3, 3, 3]


def test_eighty_five_cards() -> None:
    """R1: 72 Ascent cards (1–12 × r g b × 2), 3 Campfires, 5 Bridges, 5 Summits."""
    comp = STANDARD.composition()
    kinds = Counter(c.kind for c in comp)
    assert kinds == {"ascent": 72, "campfire": 3, "bridge": 5, "summit": 5}
    assert len(comp) == 85
    asc = Counter((c.value, c.colour) for c in comp if c.is_ascent)
    assert asc == {(v, col): 2 for v in range(1, 13) for col in "rgb"}
    assert {c.colour for c in comp if c.is_campfire} == {"r", "g", "b"}
    assert all(STANDARD.copies_of(c) == n for c, n in Counter(comp).items())


# ---- errors ------------------------------------------------------------------------------------


def test_from_decks_accepts_a_table_deal() -> None:
    """R13: a deal typed in from a table: any split of the whole deck, top card first."""
    order = shuffle(STANDARD.composition(), 9)
    deal = Deal.from_decks([order[:50], order[50:]])
    assert deal.players == 2 and deal.seed is None
    assert list(deal.decks[0]) == order[:50]
    assert Game(deal).hands[0] == sorted(order[:5], key=lambda c: c.sort_key())


def test_from_decks_rejects_a_missing_card_naming_it() -> None:
    """R1: a missing card is named."""
    cards = STANDARD.composition()
    cards.remove(parse_cards("7r")[0])
    with pytest.raises(InvalidDealError, match="7r") as exc:
        Deal.from_decks([cards])
    assert "84" in str(exc.value) and "85" in str(exc.value)


def test_from_decks_rejects_an_extra_copy_naming_it() -> None:
    """R1: a third 7r is named, with how many the deck has."""
    cards = STANDARD.composition()
    cards.remove(parse_cards("8g")[0])
    cards += parse_cards("7r")
    with pytest.raises(InvalidDealError, match=r"3 copies of 7r; the deck has 2"):
        Deal.from_decks([cards[:40], cards[40:]])


def test_from_decks_rejects_a_card_not_in_the_deck() -> None:
    """R1: a 13r or a yellow card is not in the standard deck; the error names it."""
    for text in ("13r", "5y", "Cy"):
        cards = STANDARD.composition()
        cards[0] = parse_cards(text)[0]
        with pytest.raises(InvalidDealError, match=text):
            Deal.from_decks([cards])


def test_from_decks_rejects_too_many_cards_and_wrong_player_counts() -> None:
    """R1/R13: 86 cards (a sixth Summit) is refused; 0 or 6 decks are refused."""
    cards = STANDARD.composition() + parse_cards("S")
    with pytest.raises(InvalidDealError, match="S"):
        Deal.from_decks([cards])
    with pytest.raises(InvalidDealError, match="players"):
        Deal.from_decks([])
    order = STANDARD.composition()
    with pytest.raises(InvalidDealError, match="players"):
        Deal.from_decks([order[i::6] for i in range(6)])


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70, 1.5, "1", None])
def test_seed_out_of_range_is_rejected(seed) -> None:
    """R13: deal numbers are 0..2**64-1."""
    with pytest.raises(InvalidDealError, match="seed"):
        Deal.from_seed(seed, 1)


def test_seed_bounds_are_accepted() -> None:
    """R13: 0 and 2**64-1 are deal numbers."""
    assert Deal.from_seed(0).seed == 0
    top = Deal.from_seed(2**64 - 1, 5)
    assert sum(len(d) for d in top.decks) == 85


@pytest.mark.parametrize("players", [0, 6, -1, 2.0])
def test_player_count_out_of_range_is_rejected(players) -> None:
    """R13: 1–5 players."""
    with pytest.raises(InvalidDealError, match="players"):
        Deal.from_seed(1, players)


def test_deal_numbers_differ() -> None:
    """R13: different deal numbers give different deals (no accidental constant shuffle)."""
    firsts = {tuple(shuffle(STANDARD.composition(), s)[:10]) for s in range(50)}
    assert len(firsts) == 50
