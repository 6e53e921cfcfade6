"""The naive reference solver (tests/reference.py) checked on its own.

First on hand-made micro deals whose answers are derived by hand below (each test says
why), then on random tiny games for properties that do not need the answer: the returned
line replays to a win with the returned value, the optimum is no worse than any win found,
and the three objectives agree on the verdict.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from model.cards import parse_cards
from model.deal import Deal
from model.records import replay
from model.rules import RuleSet
from tests.reference import reference_search, reference_solve, winning_lines
from tests.strategies import examples, tiny_games


def rules(**kw: int) -> RuleSet:
    """Rows 2 (3 + 2 slots and the peak), 2 colours, no Campfire/Bridge, 1 Summit, hand 3,
    changed by ``kw``."""
    base = dict(rows=2, values=2, colours=2, copies=1, campfires=0, bridges=0, summits=1,
                hand_size=3)
    base.update(kw)
    return RuleSet.from_options({"preset": "tiny", **{k: str(v) for k, v in base.items()}})


def deal(rs: RuleSet, *decks: str) -> Deal:
    return Deal.from_decks([parse_cards(d) for d in decks], rs)


def all_objectives(d: Deal) -> dict[str, tuple[str, int | None]]:
    return {o: reference_solve(d, o) for o in ("none", "waste", "turns")}


# ---- losses derivable by counting --------------------------------------------------------

def test_too_few_cards_is_a_loss():
    # 1r 2r 1g 2g S: rows 1-2 have 3 + 2 = 5 slots, the Summit goes only on the peak (R10),
    # so 4 Ascent cards can never fill them: no win.
    d = deal(rules(), "2r 1g 1r 2g S")
    assert all_objectives(d) == {"none": ("loss", None), "waste": ("loss", None),
                                 "turns": ("loss", None)}
    assert list(winning_lines(d)) == []


def test_no_card_high_enough_is_a_loss():
    # values=1: every Ascent card fits row 1 only (R4), so row 2 stays empty; 2 colours x 2
    # copies = 4 cards + S.
    d = deal(rules(values=1, copies=2, hand_size=2), "1r 1g", "1g 1r S")
    assert reference_solve(d, "none") == ("loss", None)
    assert reference_solve(d, "waste") == ("loss", None)


def test_bridge_must_leave_before_summit_is_a_loss():
    # 1r 2r 1g 2g B S: 5 slots. The Summit needs no Bridge on the mountain (R8, R10); a
    # Bridge leaves only when an Ascent card is played onto it, so the 5 slots must finally
    # hold 5 Ascent cards, and there are only 4.
    d = deal(rules(bridges=1), "1r 1g 2r B 2g S")
    assert reference_solve(d, "none") == ("loss", None)
    assert reference_solve(d, "turns") == ("loss", None)


# ---- wins whose optimum is derivable -----------------------------------------------------

# Lower bound used below: 6 slots (5 + peak) each take one card and each move puts at most
# one new card on the mountain (a Campfire replaces one and moves it: one new card), so every
# win has at least 6 moves; waste is never below 0.

def test_solo_win_without_waste():
    # values 2, copies 2 (1r 1r 2r 2r 1g 1g 2g 2g S), hand 3, deck top first:
    # 1g 1r 1g 2r 2g S 1r 2r 2g. Play: 1g, 1r, 1g on row 1 (equal values: cost 0, colours
    # alternate), 2r, 2g on row 2 (cost 0), then S. 6 moves, nothing discarded: both bounds
    # are met, so waste optimum 0 and turns optimum 6.
    d = deal(rules(copies=2), "1g 1r 1g 2r 2g S 1r 2r 2g")
    assert all_objectives(d) == {"none": ("win", None), "waste": ("win", 0),
                                 "turns": ("win", 6)}


def test_forced_cost_costs_one_card():
    # values 3, copies 1: 1r 2r 3r 1g 2g 3g S. Row 1 alternates colours (R5), so slots 1 and
    # 3 hold the same colour, hence different values, so at least one of |v1-v2|, |v2-v3| is
    # ≥ 1 (R6): every win discards ≥ 1 card. Deck 1r 1g 2r 2g 3g 3r S: play 1r, 1g, 2r
    # (cost 1: discard 2g or 3g... 2g is the spare), 3g, 3r on row 2 (cost 0), S = 6 moves,
    # waste 1. Both bounds met: waste 1, turns 6.
    d = deal(rules(values=3), "1r 1g 2r 2g 3g 3r S")
    assert all_objectives(d) == {"none": ("win", None), "waste": ("win", 1),
                                 "turns": ("win", 6)}


def test_two_players_alternate():
    # Same cards as the solo zero-waste deal, two decks. Turns alternate P1, P2 (R11):
    # P1 1g, P2 1r, P1 1g, P2 2r (row 2), P1 2g (row 2), P2 S (P2 holds S from the start).
    # 6 moves, nothing discarded: waste 0, turns 6.
    d = deal(rules(copies=2), "1g 1g 2g 2r", "1r 2r S 1r 2g")
    assert all_objectives(d) == {"none": ("win", None), "waste": ("win", 0),
                                 "turns": ("win", 6)}
    verdict, value, line = reference_search(d, "turns")
    assert [m.player for m in line] == [1, 2, 1, 2, 1, 2]


def test_campfire_win():
    # 1r 2r 1g 2g Cr Cg S: 4 Ascent cards for 5 slots, so a Campfire must be on the mountain.
    # Line: 2r (row 1 slot 1), 2g (slot 2, cost 0), Cr onto 2r which moves to row 2 slot 1
    # (no left neighbour: cost 0), 1r at row 1 slot 3 (cost |1-2| = 1: discard 1g), Cg onto
    # 2g which moves to row 2 slot 2 (cost 0), S: a win of 6 moves and waste 1. So: win,
    # turns 6 (the bound), waste at most 1.
    d = deal(rules(campfires=1), "2r 2g Cr 1r Cg 1g S")
    assert reference_solve(d, "none") == ("win", None)
    assert reference_solve(d, "turns") == ("win", 6)
    verdict, waste = reference_solve(d, "waste")
    assert verdict == "win" and waste is not None and waste <= 1


def test_unknown_objective_is_an_error():
    d = deal(rules(copies=2), "1g 1r 1g 2r 2g S 1r 2r 2g")
    try:
        reference_solve(d, "fastest")
    except ValueError as exc:
        assert "fastest" in str(exc)
    else:
        raise AssertionError("an unknown objective must raise ValueError")


# ---- properties on random tiny games -----------------------------------------------------

@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_games())
def test_reference_lines_replay_and_are_optimal(d: Deal):
    results = {o: reference_search(d, o) for o in ("none", "waste", "turns")}
    verdicts = {o: r[0] for o, r in results.items()}
    assert len(set(verdicts.values())) == 1, verdicts
    wins = list(winning_lines(d, limit=300))
    if verdicts["none"] == "loss":
        assert wins == []
        assert all(r[1] is None and r[2] is None for r in results.values())
        return
    assert wins, "a win verdict needs at least one winning line"
    for objective, (_verdict, value, line) in results.items():
        r = replay(d, line)
        assert r.error is None and r.outcome == "win", (objective, r.error)
        if objective == "waste":
            assert value == len(r.game.out)
            assert all(value <= len(replay(d, w).game.out) for w in wins)
        elif objective == "turns":
            assert value == len(line)
            assert all(value <= len(w) for w in wins)
        else:
            assert value is None
