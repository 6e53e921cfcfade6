"""Solving from any position: the DFS started from a mid-game :class:`Game` agrees
with the naive reference solver started from the same position.

Positions come from random legal play on tiny deals (:func:`tests.strategies.tiny_games`,
1–3 players, every ruling option). Each is solved twice: as the game replayed from its deal
(the answer's plan is the whole record) and as a bare position (``Game.copy()``: no history;
the answer's plan is a record that starts from the position). Values count from the
position (waste still to spend, turns still to play).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.game import Game
from model.records import Plan, replay
from solver import solve
from solver.heuristic import heuristic_win
from solver.result import OBJECTIVES, WIN
from tests.reference import reference_solve
from tests.strategies import examples, random_position, tiny_games

FAST = settings(max_examples=examples(40), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])



def check_answer(start: Game, objective: str) -> None:
    expect = reference_solve(start, objective)
    res = solve(start, objective)
    assert (res.verdict, res.value) == expect
    assert res.start is start
    if res.verdict == WIN:
        assert res.optimal == (objective != "none")
        # the continuation replays from the position to a win of the promised value
        after = replay(start, res.continuation).game
        assert after.is_won()
        if objective == "waste":
            assert len(after.out) - len(start.out) == res.value
        if objective == "turns":
            assert len(res.continuation) == res.value
        # the plan is the whole record: the history, then the continuation; it replays
        assert res.plan is not None
        assert res.plan.moves == list(start.move_stack) + res.continuation
        assert res.plan.replay().outcome == WIN
        back = Plan.from_json(res.plan.to_json())
        assert back.replay().outcome == WIN
    else:
        assert res.plan is None
        assert replay(start, res.continuation).error is None


@FAST
@given(deal=tiny_games(), steps=st.integers(0, 8), seed=st.integers(0, 2**16),
       objective=st.sampled_from(OBJECTIVES))
def test_solve_from_position_agrees_with_reference(deal: Deal, steps: int, seed: int,
                                                  objective: str) -> None:
    game = random_position(deal, random.Random(seed), steps)
    check_answer(game, objective)          # replayed from its deal: has a history
    check_answer(game.copy(), objective)   # the bare position


@FAST
@given(deal=tiny_games(), steps=st.integers(0, 6), seed=st.integers(0, 2**16))
def test_heuristic_win_from_position_wins(deal: Deal, steps: int, seed: int) -> None:
    game = random_position(deal, random.Random(seed), steps).copy()
    line = heuristic_win(game)
    if line is not None:  # heuristic: it may find nothing, but what it finds wins
        assert replay(game, line).outcome == WIN
    if reference_solve(game)[0] != WIN:
        assert line is None


def test_deal_start_and_game_at_move_zero_agree() -> None:
    deal = Deal.from_seed(3)
    a = solve(deal, node_limit=200_000)
    b = solve(Game(deal), node_limit=200_000)
    assert a.verdict == b.verdict == WIN
    assert a.plan.moves == b.plan.moves == b.continuation
    assert b.plan.deal == deal
