"""The CP-SAT model (:mod:`solver.cpsat`) against the naive reference solver on tiny games.

Agreement on verdict and optimum for every objective, every rule option (drawn by
:func:`tests.strategies.tiny_games`) and 1–3 players; every win replays (``checked_plan``
inside :func:`solve_cpsat`); a fixed seed with one worker gives the identical plan twice; a
proven loss names the rule groups its proof used.
No timing assertions; a generous CP-SAT time limit only guards against a hung test.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.records import replay
from model.rules import CHOICES, RuleSet
from solver.cpsat import GROUPS, UnsupportedRuleError, build_model, check_rules, groups_of_proof, solve_cpsat
from solver.result import SolveResult
from tests.reference import reference_solve
from tests.strategies import examples, tiny_games

LIMIT = 60.0  # seconds: the limit the naming test passes on (a tiny game takes well under one)


def _agree(deal: Deal, objective: str) -> None:
    ref_verdict, ref_value = reference_solve(deal, objective)
    res = solve_cpsat(deal, objective, workers=1, seed=0)
    assert res.solver == "cpsat"
    assert res.verdict == ref_verdict, (deal.deck_texts(), deal.rules.describe(), objective)
    if res.verdict == "win":
        assert res.plan is not None
        r = replay(deal, res.plan.moves)
        assert r.error is None and r.outcome == "win"
        if objective != "none":
            assert res.optimal
            assert res.value == ref_value, (deal.deck_texts(), deal.rules.describe(), objective)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
        a = solve_cpsat(deal, "waste", workers=1, seed=3)
        if a.verdict == "win":
            break
    b = solve_cpsat(deal, "waste", workers=1, seed=3)
    assert a.verdict == b.verdict == "win"
    assert [m.to_json() for m in a.plan.moves] == [m.to_json() for m in b.plan.moves]


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_games())
def test_hint_from_a_winning_line(deal: Deal) -> None:
    from tests.reference import reference_search

    verdict, _, line = reference_search(deal, "waste")
    res = solve_cpsat(deal, "waste", hint=line)
    assert res.verdict == verdict
    if line is not None:
        assert res.value is not None and res.value <= len(replay(deal, line).game.out)



def _first_loss(time_limit: float | None = None) -> tuple[Deal, SolveResult]:
    """The first tiny two-player deal with hands of two that the exact model proves lost
    (two players: the exact model, not the solo loss model), and its result (no limit: one
    worker and a seed make CP-SAT's answer the same on any machine, whatever its load)."""
    rules = RuleSet.from_options({"preset": "tiny", "hand_size": "2"})
    for seed in range(1, 30):
        deal = Deal.from_seed(seed, 2, rules)
        res = solve_cpsat(deal, "none", time_limit=time_limit, workers=1, seed=0)
        if res.verdict == "loss":
            return deal, res
    raise AssertionError("no proven loss among the tiny deals with hands of two")


def test_a_proven_loss_names_the_rule_groups_its_proof_used() -> None:
    """Objective ``none``, one worker: the exact model's rule groups stand under assumptions,
    and a loss names the groups of its proof (``stats["groups"]``), each a known group; those
    groups alone are still infeasible (CP-SAT's sufficient assumptions)."""
    from ortools.sat.python import cp_model

    deal, res = _first_loss()
    named = res.stats["groups"]
    assert named and set(named) <= set(GROUPS)
    cm = build_model(deal, "none", assumptions=True, groups=named)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(cm.model) == cp_model.INFEASIBLE
    assert set(groups_of_proof(cm, solver)) <= set(named)


def test_the_groups_are_named_in_a_second_solve_whatever_the_objective() -> None:
    """The model that answers has no assumptions (they would force one worker and change the
    decide model's plans); a loss proven with objective ``waste`` names the same groups as
    with ``none`` (the naming solve is the decide model's); ``groups=False`` skips the
    naming; an unknown group is a ValueError."""
    deal = Deal.from_seed(1, 2, RuleSet.tiny())
    assert not list(build_model(deal, "none").model.proto.assumptions)
    cm = build_model(deal, "none", assumptions=True)
    assert sorted(cm.assumed) == sorted(GROUPS)
    assert sorted(cm.model.proto.assumptions) == sorted(v.index for v in cm.assumed.values())
    lost, decided = _first_loss()
    res = solve_cpsat(lost, "waste", workers=1)
    assert res.verdict == "loss" and res.stats["groups"] == decided.stats["groups"]
    quick = solve_cpsat(lost, "none", workers=1, groups=False)
    assert quick.verdict == "loss" and "groups" not in quick.stats
    with pytest.raises(ValueError, match="unknown rule group"):
        build_model(deal, "none", groups=["heights"])


def test_the_naming_solve_is_capped_by_work_not_by_the_proofs_seconds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The naming solve's cap does not depend on the machine's speed or load: its only wall
    limit is the run's time left (not a multiple of the proof's seconds, which a loaded
    machine could exhaust while the naming solve waits for a core), and its own cap is
    twice the proof's deterministic time (at least ``GROUP_WORK_MIN``)."""
    import solver.cpsat as cpsat

    calls: list[tuple[float | None, float | None]] = []
    real = cpsat.name_groups

    def recording(deal: Deal, time_limit: float | None = None, seed: int = 0,
                  work_limit: float | None = None) -> tuple[list[str] | None, float, bool]:
        calls.append((time_limit, work_limit))
        more = {} if work_limit is None else {"work_limit": work_limit}
        return real(deal, time_limit, seed, **more)

    monkeypatch.setattr(cpsat, "name_groups", recording)
    lost, decided = _first_loss(LIMIT)
    assert calls and decided.stats["groups"]
    time_limit, work_limit = calls[0]
    assert time_limit is not None and time_limit > LIMIT / 2
    assert work_limit is not None and work_limit >= cpsat.GROUP_WORK_MIN
