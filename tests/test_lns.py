"""Large-neighbourhood search (:mod:`solver.lns`): from the costliest win of a tiny game, the
re-solved suffixes give a plan that :mod:`model` replays to a win, never costlier than the
start, and (the last suffix being the whole game) exactly the naive reference's optimum, never
below it. Through :func:`solver.solve` the switch ``lns`` changes no proven optimum."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from model.deal import Deal
from model.records import replay
from solver import solve
from solver.lns import improve_by_lns
from solver.result import WIN, SolveResult, record_of, waste_of
from tests.reference import reference_solve, winning_lines
from tests.strategies import tiny_games


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deal=tiny_games())
def test_lns_from_the_costliest_win_reaches_the_optimum_and_replays(deal: Deal) -> None:
    lines = list(winning_lines(deal, limit=200))
    if not lines:
        return
    worst = max(lines, key=lambda m: waste_of(m, deal))
    value = waste_of(worst, deal)
    start = SolveResult(WIN, "waste", deal, record_of(deal, worst), value, False, 0,
                        continuation=list(worst), best_line=list(worst))
    out = improve_by_lns(deal, start, 600.0, solve, window=2)
    assert out.value is not None and out.value <= value
    r = replay(deal, out.continuation)
    assert r.error is None and r.outcome == WIN
    assert waste_of(out.continuation, deal) == out.value
    _, best = reference_solve(deal, "waste")
    assert out.value == best, (out.value, best, deal.seed, deal.players, deal.rules.to_dict())
    if out.value < value:
        assert out.stats["lns"]["improvements"][0][0] == value


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games())
def test_lns_switch_changes_no_proven_optimum(deal: Deal) -> None:
    on = solve(deal, "waste", time_limit=600)
    off = solve(deal, "waste", time_limit=600, lns=False)
    assert (on.verdict, on.value, on.optimal) == (off.verdict, off.value, off.optimal)


def test_lns_rejects_an_empty_window() -> None:
    import pytest

    deal = Deal.from_seed(1)
    with pytest.raises(ValueError):
        improve_by_lns(deal, SolveResult("loss"), 1.0, solve, window=0)


def test_the_cli_switches_reach_the_search() -> None:
    import json

    from click.testing import CliRunner

    from cli.main import main

    args = ["solve", "--seed", "2", "--rules", "preset=tiny", "--objective", "waste", "--json",
            "--no-timing"]
    on = CliRunner().invoke(main, args)
    off = CliRunner().invoke(main, args + ["--no-lns", "--no-step-bound"])
    assert on.exit_code == 0 and off.exit_code == 0, (on.output, off.output)
    a, b = json.loads(on.output), json.loads(off.output)
    assert a["objective"] == b["objective"] and a["objective"]["optimal"]
