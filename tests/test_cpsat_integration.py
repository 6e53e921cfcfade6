"""CP-SAT wired into the command line and the portfolio: the beam hint, the real
two-solver portfolio agreeing with the naive reference, `ascent solve --solver cpsat`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings

from cli.main import main
from model.deal import Deal
from model.records import Plan
from solver.cpsat import solve_cpsat
from solver.portfolio import solve_portfolio
from tests.reference import reference_solve
from tests.strategies import examples, tiny_games


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games())
def test_beam_hint_changes_no_answer(deal: Deal) -> None:
    verdict, value = reference_solve(deal, "waste")
    res = solve_cpsat(deal, "waste", hint="beam", loss_model=False)  # the hint's path
    assert res.verdict == verdict
    if verdict == "win":
        assert res.optimal and res.value == value
        assert res.plan is not None and res.plan.replay().outcome == "win"
    assert res.stats["hint"].startswith("beam of the DFS")


@pytest.mark.slow
@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games())
def test_portfolio_of_dfs_and_cpsat_agrees_with_the_reference(deal: Deal) -> None:
    verdict, value = reference_solve(deal, "turns")
    # wait_all: both solvers answer and the portfolio checks they agree (SolverBug if not)
    res = solve_portfolio(deal, "turns", wait_all=True)
    assert res.verdict == verdict
    assert res.solver in ("dfs", "cpsat")
    st = res.stats["portfolio"]
    assert set(st) == {"dfs", "cpsat"}
    assert all(s["status"] == "proved" for s in st.values()), st
    if verdict == "win":
        assert res.value == value and res.optimal


def test_cli_solver_cpsat_prints_a_replayable_plan() -> None:
    res = CliRunner().invoke(main, ["solve", "--seed", "4", "--players", "2", "--rules",
                                    "preset=tiny", "--solver", "cpsat", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["solver"] == "cpsat"
    ref, _ = reference_solve(_tiny_rules_deal(4, 2), "none")
    assert data["verdict"] == ref
    if ref == "win":
        assert Plan.from_json(data["plan"]).replay().outcome == "win"


def _tiny_rules_deal(seed: int, players: int) -> Deal:
    from model.rules import RuleSet

    return Deal.from_seed(seed, players, RuleSet.tiny())


def test_cli_hint_none_is_cpsat_alone() -> None:
    res = CliRunner().invoke(main, ["solve", "--seed", "4", "--rules", "preset=tiny",
                                    "--solver", "cpsat", "--hint", "none", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["stats"]["hint"] == "none"
    assert data["verdict"] == reference_solve(_tiny_rules_deal(4, 1), "none")[0]


def test_cpsat_json_without_timing_is_byte_identical_run_to_run() -> None:
    args = ["solve", "--seed", "2", "--rules", "preset=tiny", "--solver", "cpsat", "--json",
            "--no-timing"]
    first, second = (CliRunner().invoke(main, args) for _ in range(2))
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    assert "wall_time" not in first.output and "hint_seconds" not in first.output
