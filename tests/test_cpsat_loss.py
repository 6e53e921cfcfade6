"""The CP-SAT loss model (solver/cpsat_loss.py) is a relaxation of the solo game.

Its infeasibility is a proof of loss, so it must never be infeasible for a deal that has a
win: checked against the naive reference on tiny solo games with every ruling option
(hypothesis), and against the exhaustive DFS on larger random solo games (more rows,
Campfires and Bridges, hands of 2 and 3). A solution it decodes is a plan the engine replays
as a win. ``solve_cpsat`` runs it first (solo), and the ``hand_size=2`` ladder's first rungs
are decided by it.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.rules import CHOICES, RuleSet
from solver import solve
from solver.cpsat import solve_cpsat
from solver.cpsat_loss import CANDIDATE, INFEASIBLE, build_loss_model, solve_loss_model
from tests.reference import reference_solve
from tests.strategies import examples, tiny_games


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deal=tiny_games(players=st.just(1)))
def test_loss_model_is_never_infeasible_for_a_winnable_tiny_deal(deal: Deal) -> None:
    verdict, _ = reference_solve(deal, "none")
    status, moves, _ = solve_loss_model(deal)
    if verdict == "win":
        assert status != INFEASIBLE, (deal.seed, deal.rules.to_dict())
    if moves is not None:
        assert verdict == "win"
        from model.records import replay

        assert replay(deal, moves).game.is_won()


def _random_solo(rng: random.Random) -> Deal:
    rows = rng.choice([2, 3, 3, 4])
    opts = {"preset": "tiny", "rows": rows, "values": rng.choice([rows, rows + 1, rows + 2]),
            "colours": rng.choice([2, 3]), "copies": rng.choice([1, 2]),
            "campfires": rng.choice([0, 1, 2]), "bridges": rng.choice([0, 1, 2, 3]),
            "summits": rng.choice([1, 2]), "hand_size": rng.choice([2, 2, 3])}
    for name, values in CHOICES.items():
        opts[name] = rng.choice(values)
    rules = RuleSet.from_options({k: str(v) for k, v in opts.items()})
    return Deal.from_seed(rng.randint(0, 2**32), 1, rules)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_loss_model_agrees_with_the_dfs_on_larger_random_solo_games(seed: int) -> None:
    """Up to 4 rows, two Campfires a colour, three Bridges, every ruling option: a deal the
    DFS wins is never infeasible; a proven loss of the loss model is a loss of the DFS."""
    rng = random.Random(seed)
    decided = 0
    for _ in range(8):
        deal = _random_solo(rng)
        ref = solve(deal, "none", node_limit=1_000_000)
        assert ref.verdict != "unknown"
        status, moves, _ = solve_loss_model(deal)
        if status == INFEASIBLE:
            assert ref.verdict == "loss", (deal.seed, deal.rules.to_dict())
            decided += 1
        if moves is not None:
            assert ref.verdict == "win"
            decided += 1
    assert decided >= 4


LADDER_3 = RuleSet.from_options(["preset=tiny", "hand_size=2"])


def test_solve_cpsat_proves_ladder_losses_with_the_loss_model() -> None:
    """Tiny hand-2 deals that the exact model could not decide in 60 s without a hint."""
    for seed, want in ((1, "loss"), (2, "loss"), (4, "win")):
        res = solve_cpsat(Deal.from_seed(seed, 1, LADDER_3), "none")
        assert res.verdict == want
        assert res.stats["loss_model"]["status"] == (INFEASIBLE if want == "loss" else CANDIDATE)
        if want == "win":
            assert res.plan.replay().outcome == "win"


def test_a_proven_loss_holds_for_every_objective_and_can_be_switched_off() -> None:
    deal = Deal.from_seed(1, 1, LADDER_3)
    for objective in ("waste", "turns"):
        assert solve_cpsat(deal, objective).verdict == "loss"
    off = solve_cpsat(deal, "none", loss_model=False, params={"max_deterministic_time": 0.2})
    assert "loss_model" not in off.stats


def test_loss_model_takes_every_player_count_and_refuses_a_won_position() -> None:
    deal = Deal.from_seed(1, 2, LADDER_3)
    assert build_loss_model(deal).data.P == 2
    game = solve(Deal.from_seed(4, 1, LADDER_3), "none").plan.replay().game
    with pytest.raises(ValueError):
        build_loss_model(game)


def test_the_beam_runs_first_and_its_win_skips_the_loss_model() -> None:
    """``hint="beam"``: the beam is cheap and a win it finds proves the deal winnable, so
    the loss model does not run (it used to run first and leave the beam no time on a
    standard deal); where the beam finds no win the loss model still decides."""
    won = solve_cpsat(Deal.from_seed(4, 1, LADDER_3), "none", hint="beam")
    assert won.verdict == "win" and "loss_model" not in won.stats
    assert won.stats["hint"].startswith("beam of the DFS (")
    lost = solve_cpsat(Deal.from_seed(1, 1, LADDER_3), "none", hint="beam")
    assert lost.verdict == "loss" and lost.stats["loss_model"]["status"] == INFEASIBLE
    assert lost.stats["hint"] == "beam of the DFS found no win"
