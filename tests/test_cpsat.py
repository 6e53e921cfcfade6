"""The CP-SAT model (:mod:`solver.cpsat`) against the naive reference solver on tiny games.

Agreement on verdict and optimum for every objective, every rule option (drawn by
:func:`tests.strategies.tiny_games`) and 1–3 players; every win replays (``checked_plan``
inside :func:`solve_cpsat`); a fixed seed with one worker gives the identical plan twice.
No timing assertions; a generous CP-SAT time limit only guards against a hung test.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.records import replay
from model.rules import CHOICES, RuleSet
from solver.cpsat import UnsupportedRuleError, build_model, check_rules, solve_cpsat
from tests.reference import reference_solve
from tests.strategies import tiny_games

LIMIT = 60.0  # seconds; a tiny game takes well under one


def _agree(deal: Deal, objective: str) -> None:
    ref_verdict, ref_value = reference_solve(deal, objective)
    res = solve_cpsat(deal, objective, time_limit=LIMIT, workers=1, seed=0)
    assert res.solver == "cpsat"
    assert res.verdict == ref_verdict, (deal.deck_texts(), deal.rules.describe(), objective)
    if res.verdict == "win":
        assert res.plan is not None
        r = replay(deal, res.plan.moves)
        assert r.error is None and r.outcome == "win"
        if objective != "none":
            assert res.optimal
            assert res.value == ref_value, (deal.deck_texts(), deal.rules.describe(), objective)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_games(), st.sampled_from(["none", "waste", "turns"]))
def test_agrees_with_reference(deal: Deal, objective: str) -> None:
    _agree(deal, objective)


@pytest.mark.parametrize("option,value", [(k, v) for k, vs in CHOICES.items() for v in vs])
def test_every_rule_option_is_expressible(option: str, value: str) -> None:
    rules = RuleSet.from_options({"preset": "tiny", option: value})
    check_rules(Deal.from_seed(1, 1, rules))


def test_unsupported_option_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.cpsat as cpsat

    monkeypatch.setitem(cpsat.SUPPORTED, "campfire_move_cost", ("paid",))
    rules = RuleSet.from_options({"preset": "tiny", "campfire_move_cost": "free"})
    with pytest.raises(UnsupportedRuleError, match="campfire_move_cost=free"):
        build_model(Deal.from_seed(1, 1, rules))


def test_reproducible_plan() -> None:
    rules = RuleSet.from_options({"preset": "tiny", "rows": "2", "values": "3", "hand_size": "3"})
    for seed in range(1, 30):
        deal = Deal.from_seed(seed, 1, rules)
        a = solve_cpsat(deal, "waste", time_limit=LIMIT, workers=1, seed=3)
        if a.verdict == "win":
            break
    b = solve_cpsat(deal, "waste", time_limit=LIMIT, workers=1, seed=3)
    assert a.verdict == b.verdict == "win"
    assert [m.to_json() for m in a.plan.moves] == [m.to_json() for m in b.plan.moves]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_games())
def test_hint_from_a_winning_line(deal: Deal) -> None:
    from tests.reference import reference_search

    verdict, _, line = reference_search(deal, "waste")
    res = solve_cpsat(deal, "waste", time_limit=LIMIT, hint=line)
    assert res.verdict == verdict
    if line is not None:
        assert res.value is not None and res.value <= len(replay(deal, line).game.out)
