"""The clause-learning prover phase of the portfolio (issue 39 step 5, solver/portfolio.py
``_prover``): the CP-SAT loss model alone. Its verdicts never contradict the naive reference
on tiny solo games (hypothesis): a ``loss`` only where the reference finds no win, a ``win``
only with a plan the engine replays. Its search settings (``params``: presolve off, a
deterministic limit) change how fast an answer comes, never a proof into a refutation."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.records import replay
from solver.cpsat_loss import INFEASIBLE, solve_loss_model
from solver.portfolio import SOLVERS, WITH_PROVER, _prover
from solver.result import LOSS, WIN
from tests.reference import reference_solve
from tests.strategies import examples, tiny_games


@settings(max_examples=examples(8), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deal=tiny_games(players=st.just(1)), presolve=st.booleans())
def test_the_prover_never_contradicts_the_reference(deal: Deal, presolve: bool) -> None:
    verdict, _ = reference_solve(deal, "none")
    res = _prover(deal, "none", None, 1, 0)
    if res.verdict == LOSS:
        assert verdict == "loss", (deal.seed, deal.rules.to_dict())
    if res.verdict == WIN:
        assert verdict == "win"
        assert res.plan is not None and replay(deal, res.plan.moves).game.is_won()
    status, _, _ = solve_loss_model(deal, params={"cp_model_presolve": presolve,
                                                  "max_deterministic_time": 50.0})
    if verdict == "win":
        assert status != INFEASIBLE


def test_the_prover_is_a_switch_off_by_default() -> None:
    assert "prover" not in SOLVERS and WITH_PROVER["prover"] is _prover
    assert set(SOLVERS) < set(WITH_PROVER)
