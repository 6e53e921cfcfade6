"""The par of full deal puzzles (generator version 2, :mod:`puzzles.par`): deterministic
under node limits, never above the beams' par, and a ``proven`` par is the true optimum
(checked against the naive reference on tiny deals, every part switched on and off)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.records import replay
from puzzles import daily
from puzzles.par import ParSwitches, full_par
from solver.heuristic import heuristic_win
from tests.reference import reference_solve
from tests.strategies import examples, tiny_rules


def _beams(deal: Deal):
    moves = heuristic_win(deal, "waste", beam_schedule=((4, 1),))
    if moves is None:
        return None
    return len(replay(deal, moves).game.out), list(moves)


def test_full_size_par_is_deterministic_and_replays():
    deal = Deal.from_seed(4002, 1, daily.FULL_RULES)
    beams = _beams(deal)
    assert beams is not None
    runs = [full_par(deal, *beams, par_nodes=30_000, window_nodes=10_000, rounds=1)
            for _ in range(2)]
    a, b = runs
    assert (a.par, a.moves, a.proven, a.bound, a.nodes, a.lns) == \
        (b.par, b.moves, b.proven, b.bound, b.nodes, b.lns)
    assert a.par <= beams[0] and a.beams == beams[0]
    r = replay(deal, a.moves)
    assert r.error is None and r.outcome == "win" and len(r.game.out) == a.par
    assert a.bound <= a.par


@settings(max_examples=examples(25), deadline=None)
@given(rules=tiny_rules(), seed=st.integers(0, 2**32 - 1),
       switches=st.sampled_from([ParSwitches(), ParSwitches(lns=False),
                                 ParSwitches(search=False)]))
def test_a_proven_par_is_never_beatable(rules, seed, switches):
    deal = Deal.from_seed(seed, 1, rules)
    beams = _beams(deal)
    if beams is None:
        return
    rep = full_par(deal, *beams, switches=switches, par_nodes=20_000, window_nodes=2_000)
    verdict, best = reference_solve(deal, "waste")
    assert verdict == "win" and best is not None
    assert rep.par >= best and rep.bound <= best  # a par is a real win, a bound is sound
    if rep.proven:
        assert rep.par == best
    r = replay(deal, rep.moves)
    assert r.outcome == "win" and len(r.game.out) == rep.par


def test_version_2_full_deal_record_proves_or_says_so(monkeypatch):
    # the tiny rules as "full": the version-2 path end to end, against the reference
    tiny = daily.RULES["mini"].__class__.from_options(
        {"preset": "tiny", "rows": 2, "values": 3, "copies": 1})
    monkeypatch.setitem(daily.RULES, "full", tiny)
    checked = 0
    for seed in range(1, 30):
        rec = daily.evaluate_deal({"seed": seed, "players": 1}, "full", version=2)
        if rec is None:
            continue
        _v, best = reference_solve(Deal.from_seed(seed, 1, tiny), "waste")
        assert rec["par"] >= best and rec["features"]["par_bound"] <= best
        assert rec["par"] <= rec["features"]["par_beams"]
        if rec["par_proven"]:
            assert rec["par"] == best
        old = daily.evaluate_deal({"seed": seed, "players": 1}, "full", version=1)
        assert old is not None and old["par"] == rec["features"]["par_beams"]
        assert "par_beams" not in old["features"] and not old["par_proven"]
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_versions_of_records():
    assert daily.version_for("deal", "full") == 2 == daily.GENERATOR_VERSION
    for kind, size in (("deal", "mini"), ("position", "full"), ("position", "mini")):
        assert daily.version_for(kind, size) == 1  # published records stay byte-identical


def test_a_line_that_is_not_the_claimed_par_is_refused():
    deal = Deal.from_seed(4002, 1, daily.FULL_RULES)
    beams = _beams(deal)
    assert beams is not None
    with pytest.raises(ValueError):
        full_par(deal, beams[0] + 1, beams[1])
