"""The large-neighbourhood search of :mod:`solver.lns` against the naive reference.

From random mid-game positions of tiny games (1–5 players), a winning line of the reference
(its first, usually wasteful) is improved: the plan returned replays as a win, is never worse
than the line given and never better than the reference optimum; where the window of the
whole plan closed it is the optimum. And the switch of :func:`solver.exhaustive.solve`: on or
off, no proven optimum changes.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.game import Game
from solver.exhaustive import Search, solve
from solver.lns import WINDOW_TABLE, improve_plan, lns_result, plan_waste
from solver.result import WIN, SolveResult, checked_plan
from solver.state import Switches
from tests.reference import reference_solve, winning_lines
from tests.strategies import examples, random_position, tiny_games


def window_search(start: Deal | Game) -> Search:
    """A search of objective waste for the windows (as :func:`improve_plan` asks)."""
    return Search(start, "waste", Switches(table_size=WINDOW_TABLE), None, None)


FAST = settings(max_examples=examples(40), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FAST
@given(deal=tiny_games(players=st.integers(1, 5)), steps=st.integers(0, 6),
       seed=st.integers(0, 2**16), costliest=st.booleans())
def test_lns_plans_replay_and_are_never_worse(deal: Deal, steps: int, seed: int,
                                              costliest: bool) -> None:
    """From the reference's first winning line, or the costliest of its first 50 (the most
    for LNS to win back)."""
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    lines = list(winning_lines(game, limit=50 if costliest else 1))
    if not lines:
        return
    line = max(lines, key=lambda m: plan_waste(game, m) or 0) if costliest else lines[0]
    start_waste = plan_waste(game, line)
    assert start_waste is not None
    _, optimum = reference_solve(game, "waste")
    assert optimum is not None
    moves, report = improve_plan(game, line, 2.0, window_search(game))
    got = plan_waste(game, moves)
    assert got is not None, "an LNS plan the rules engine rejects"
    assert got == report.waste and report.start_waste == start_waste
    assert optimum <= got <= start_waste
    if report.proven:
        assert got == optimum, (got, optimum, deal.seed, deal.rules.to_dict(), steps, seed)
    for imp in report.improvements:
        assert imp["after"] < imp["before"]


def test_improve_plan_refuses_a_plan_that_does_not_win() -> None:
    from tests.strategies import random_tiny_game

    deal = random_tiny_game(random.Random(3))
    with pytest.raises(ValueError):
        improve_plan(deal, [], 1.0, window_search(deal))


def unproven_win(deal: Deal) -> tuple[SolveResult, int, int] | None:
    """The reference's first winning line of ``deal`` as an unproven win (bound 0), with its
    waste and the reference optimum; ``None`` if ``deal`` has no win."""
    line = next(iter(winning_lines(deal, limit=1)), None)
    if line is None:
        return None
    value = plan_waste(deal, line)
    _, optimum = reference_solve(deal, "waste")
    assert value is not None and optimum is not None
    res = SolveResult(WIN, "waste", deal, checked_plan(deal, line, "reference"), value, False, 0,
                      continuation=list(line))
    return res, value, optimum


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deal=tiny_games(players=st.integers(1, 5)))
def test_lns_result_keeps_the_answer_sound(deal: Deal) -> None:
    """An unproven win (the reference's first winning line, bound 0) passed through
    :func:`lns_result`: still a replayed win, value between the reference optimum and the
    value given, bound never above the optimum, optimal only at the optimum."""
    given = unproven_win(deal)
    if given is None:
        return
    res, value, optimum = given
    out: SolveResult = lns_result(res, 2.0, window_search(deal))
    assert out.verdict == WIN and out.plan is not None
    assert plan_waste(deal, out.continuation) == out.value
    assert list(out.plan.moves) == list(out.continuation)
    assert out.value is not None and optimum <= out.value <= value
    assert out.bound is not None and out.bound <= optimum
    assert "to" in out.stats["lns"]
    if out.optimal:
        assert out.value == optimum == out.bound


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deal=tiny_games(players=st.integers(1, 5)), slice_nodes=st.integers(1, 3000))
def test_resume_proof_keeps_the_answer_sound(deal: Deal, slice_nodes: int) -> None:
    """The search's proof resumed on an unproven win (the reference's first winning line,
    bound 0), stopped after a few nodes or run to the end: a replayed win between the
    optimum and the value given, a bound never above the optimum, optimal only at it."""
    from solver.lns import resume_proof

    given = unproven_win(deal)
    if given is None:
        return
    res, value, optimum = given
    search = Search(deal, "waste", Switches(table_size=1 << 14), None, None)
    out = resume_proof(res, search, 30.0, node_limit=slice_nodes)
    assert out.plan is not None and plan_waste(deal, out.continuation) == out.value
    assert out.value is not None and optimum <= out.value <= value
    assert out.bound is not None and out.bound <= optimum
    if out.optimal:
        assert out.value == optimum == out.bound


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games())
def test_lns_switch_changes_no_proven_optimum(deal: Deal) -> None:
    """On or off, the same verdict and optimum; off, no ``stats["lns"]``."""
    on = solve(deal, "waste", time_limit=600)
    off = solve(deal, "waste", time_limit=600, lns=False)
    assert (on.verdict, on.value, on.optimal) == (off.verdict, off.value, off.optimal)
    assert "lns" not in off.stats


RUNG7 = ["rows=7", "values=10", "colours=3", "copies=2", "campfires=1", "bridges=4", "summits=4"]


@pytest.mark.parametrize("flag", ["--lns", "--no-lns"])
def test_cli_switch(flag: str) -> None:
    """``ascent solve --objective waste`` runs LNS by default (``stats.lns``: what it did, or
    why it was skipped) and not with ``--no-lns``; the plan printed replays with its value."""
    import json

    from click.testing import CliRunner

    from cli.main import main
    from model.records import Plan

    args = ["solve", "--seed", "2", "--objective", "waste", "--time-limit", "1", "--json", flag]
    for o in RUNG7:
        args += ["--rules", o]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert ("lns" in data["stats"]) == (flag == "--lns")
    if data["verdict"] == "win":
        plan = Plan.from_json(data["plan"])
        assert plan.deal is not None
        assert plan_waste(plan.deal, plan.moves) == data["objective"]["value"]
