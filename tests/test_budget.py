"""One budget for the whole solve (solver.budget, issue 39 step 2): under ``node_limit`` the
nodes of every phase together (the search's run, the LNS windows, the resumed proof) stay
within the limit, a node-limited solve is deterministic, and running out never overclaims."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.rules import RuleSet
from solver.budget import Budget
from solver.exhaustive import solve
from tests.reference import reference_solve
from tests.strategies import examples, tiny_games


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games(), limit=st.integers(min_value=1, max_value=3000))
def test_all_phases_together_stay_within_the_node_limit(deal: Deal, limit: int) -> None:
    # a time limit far beyond the solve switches LNS and the resumed proof on; it never runs out
    res = solve(deal, "waste", time_limit=10_000.0, node_limit=limit)
    budget = res.stats["budget"]
    spent = sum(p["nodes"] for p in budget["phases"])
    assert spent == budget["nodes_spent"] <= limit
    assert [p["name"] for p in budget["phases"]][:1] in ([], ["beams"])
    verdict, value = reference_solve(deal, "waste")
    assert res.verdict in (verdict, "unknown")
    if res.verdict == "win":
        assert res.plan is not None and res.plan.replay().outcome == "win"
        assert res.value >= value
        assert res.bound is None or res.bound <= value


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games(), objective=st.sampled_from(["none", "waste", "turns"]),
       limit=st.integers(min_value=1, max_value=3000))
def test_a_node_limited_solve_is_deterministic(deal: Deal, objective: str, limit: int) -> None:
    a = solve(deal, objective, node_limit=limit)
    b = solve(deal, objective, node_limit=limit)
    assert (a.verdict, a.value, a.bound, a.continuation) == (b.verdict, b.value, b.bound,
                                                             b.continuation)
    assert a.stats["budget"]["nodes_spent"] == b.stats["budget"]["nodes_spent"] <= limit


def test_the_resumed_proof_no_longer_gets_a_fresh_node_limit() -> None:
    # before the budget, resume_proof began with the whole node_limit again
    deal = Deal.from_seed(59, 1, RuleSet.tiny())
    res = solve(deal, "waste", time_limit=10_000.0, node_limit=500)
    assert res.stats["budget"]["nodes_spent"] <= 500
    phases = res.stats["budget"]["phases"]
    assert sum(p["nodes"] for p in phases) <= 500


def test_budget_refuses_negative_nodes() -> None:
    b = Budget(node_limit=None, deadline=None)
    assert b.nodes_left() is None and not b.out_of_nodes()
    try:
        b.charge("search", -1, 0.0, "x")
    except ValueError:
        pass
    else:
        raise AssertionError("negative nodes accepted")


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games(), objective=st.sampled_from(["none", "waste", "turns"]),
       limit=st.integers(min_value=1, max_value=5000))
def test_core_and_reference_walk_the_same_default_schedule(deal: Deal, objective: str,
                                                            limit: int) -> None:
    # the default schedule (wide beams included) with and without the compiled core: the same
    # verdict, plan, node count and phase records (the identity check used to give them
    # different schedules)
    a = solve(deal, objective, node_limit=limit, core=False)
    b = solve(deal, objective, node_limit=limit, core=True)
    assert (a.verdict, a.value, a.bound, a.optimal) == (b.verdict, b.value, b.bound, b.optimal)
    assert a.continuation == b.continuation
    assert a.stats["nodes"] == b.stats["nodes"]
    strip = lambda r: [(p["name"], p["nodes"], p["outcome"]) for p in r.stats["budget"]["phases"]]  # noqa: E731
    assert strip(a) == strip(b)


def test_the_default_schedule_is_data_not_identity() -> None:
    from solver.beam import DEFAULT_BEAM_SCHEDULE, WIDE_BEAM_SCHEDULE
    from solver.schedule import DEFAULT_SCHEDULE, Schedule

    assert Schedule.for_beams(tuple(list(DEFAULT_BEAM_SCHEDULE))) == DEFAULT_SCHEDULE
    assert DEFAULT_SCHEDULE.wide_beams == WIDE_BEAM_SCHEDULE
    assert Schedule.for_beams(((8, 1),)).wide_beams == ()
