"""The timing bound (:mod:`solver.timing_bound`) never exceeds the true waste to go.

* Admissibility on tiny solo games (hypothesis): from random mid-game positions the bound,
  and the model's own bound, are at most the optimum the naive reference finds from there;
  the model says "no win" (``INF``) only where the reference finds none.
* It is not trivially 0: on tiny solo positions it proves more than today's bound somewhere.
* 2–5 players it is today's bound unchanged.
* Real size: along the best win found on a 5-row deal, the bound at sampled positions is at
  most the waste that line still spends.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.game import Game
from model.rules import RuleSet
from solver import solve
from solver.exhaustive import Search
from solver.state import INF, Switches
from solver.timing_bound import TimingBound, timing_bound
from tests.reference import reference_solve
from tests.strategies import random_position, tiny_games

#: CP-SAT work per call in the tests (deterministic units; small games finish far below it)
WORK = 0.5
FAST = settings(max_examples=50, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: the slow run's own examples, on top of FAST's 50 (.ci/run runs both: 200 in all)
SLOW = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _check(deal: Deal, steps: int, seed: int) -> None:
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    verdict, value = reference_solve(game, "waste")
    res = timing_bound(Search(game, "waste", Switches(), None, None), WORK)
    where = (res, value, deal.seed, deal.rules.to_dict(), steps, seed)
    if verdict == "win":
        assert res.bound <= value, where
        assert res.model is None or res.model <= value, where
        assert res.today <= res.bound, where
    else:
        assert res.bound >= 0, where


@FAST
@given(deal=tiny_games(players=st.just(1)), steps=st.integers(0, 8), seed=st.integers(0, 2**16))
def test_timing_bound_never_exceeds_the_reference_optimum(deal: Deal, steps: int, seed: int) -> None:
    _check(deal, steps, seed)


@pytest.mark.slow
@SLOW
@given(deal=tiny_games(players=st.just(1)), steps=st.integers(0, 8), seed=st.integers(0, 2**16))
def test_timing_bound_never_exceeds_the_reference_optimum_long(deal: Deal, steps: int, seed: int) -> None:
    _check(deal, steps, seed)


def test_it_proves_more_than_todays_bound_on_tiny_games() -> None:
    from tests.strategies import build_rules

    rng = random.Random(39)
    closed = positive = wins = 0
    for _ in range(300):
        if wins >= 15:
            break
        rules = build_rules(lambda xs: rng.choice(list(xs)), 1)
        deal = Deal.from_seed(rng.randint(0, 2**32), 1, rules)
        game = random_position(deal, rng, rng.randint(0, 4))
        if game.is_over():
            continue
        verdict, value = reference_solve(game, "waste")
        if verdict != "win":
            continue
        wins += 1
        res = timing_bound(Search(game, "waste", Switches(), None, None), WORK)
        assert res.bound <= value
        positive += res.bound > 0
        closed += res.bound > res.today
    assert wins >= 15
    assert positive > 0 and closed > 0, (wins, positive, closed)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games(players=st.integers(2, 3)), steps=st.integers(0, 6), seed=st.integers(0, 2**16))
def test_two_to_five_players_fall_back_to_todays_bound(deal: Deal, steps: int, seed: int) -> None:
    game = random_position(deal, random.Random(seed), steps)
    s = Search(game, "waste", Switches(), None, None)
    res = timing_bound(s, WORK)
    assert (res.bound, res.model, res.status) == (s.waste_lower_bound(), None, "fallback")


def test_the_work_limit_must_be_positive() -> None:
    with pytest.raises(ValueError):
        TimingBound(0)


@pytest.mark.slow
def test_timing_bound_holds_along_a_real_size_win() -> None:
    rules = RuleSet.from_options(["rows=5", "values=6", "colours=3", "copies=2", "campfires=1",
                                  "bridges=2", "summits=2", "hand_size=5"])
    deal = Deal.from_seed(3, 1, rules)
    res = solve(deal, "waste", node_limit=20_000)
    assert res.verdict == "win" and res.value is not None
    game = Game(deal)
    bound = TimingBound(WORK)
    for i, mv in enumerate(res.continuation):
        if i % 6 == 0:
            lb = bound.lower(Search(game, "waste", Switches(), None, None))
            assert lb <= res.value - len(game.out), (i, lb, bound.last)
            assert lb < INF
        game.push(mv)
