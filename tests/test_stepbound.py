"""The frontier-step bound (:mod:`solver.stepbound`) never exceeds the true waste to go.

* Admissibility on tiny games (hypothesis, 1–3 players, every ruling option): from random
  mid-game positions the bound is at most the optimum the naive reference finds from there,
  and ``INF`` only where the reference finds no win.
* Real size: along the best win found on a 5-row deal, the bound at every position is at
  most the waste that line still spends.
* The switch (off by default): ``step_bound=True`` gives the same optimum on tiny games, and
  ``ascent solve --step-bound`` the same proven optimum as without it.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.game import Game
from model.rules import RuleSet
from solver import solve
from solver.exhaustive import Search
from solver.state import INF, Switches
from solver.stepbound import row_steps, step_bound
from tests.reference import reference_solve
from tests.strategies import examples, random_position, tiny_games

FAST = settings(max_examples=examples(60), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FAST
@given(deal=tiny_games(), steps=st.integers(0, 8), seed=st.integers(0, 2**16))
def test_step_bound_never_exceeds_the_reference_optimum(deal: Deal, steps: int, seed: int) -> None:
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    verdict, value = reference_solve(game, "waste")
    s = Search(game, "waste", Switches(step_bound=True), None, None)
    lb = step_bound(s)
    root = s.root_bound()
    if verdict == "win":
        assert lb <= value, (lb, value, deal.seed, deal.players, deal.rules.to_dict(), steps, seed)
        assert root <= value, (root, value)
    else:
        assert lb >= 0


def solo_deal(seed: int, options: str) -> Deal:
    """The solo deal ``seed`` of the rule options ``options`` (``"rows=5,values=6,..."``)."""
    return Deal.from_seed(seed, 1, RuleSet.from_options(options.split(",")))


def test_step_bound_holds_along_a_real_size_win() -> None:
    deal = solo_deal(3, "rows=5,values=6,colours=3,copies=2,campfires=1,bridges=2,summits=2,"
                        "hand_size=5")
    res = solve(deal, "waste", node_limit=20_000)
    assert res.verdict == "win" and res.plan is not None
    game = Game(deal)
    moves = list(res.continuation)
    for i, mv in enumerate(moves):
        s = Search(game, "waste", Switches(), None, None)
        spent_to_go = res.value - len(game.out)
        lb = step_bound(s)
        assert lb <= spent_to_go, (i, lb, spent_to_go)
        game.push(mv)


def test_a_row_nothing_can_fill_makes_the_bound_infinite() -> None:
    deal = solo_deal(1, "rows=2,values=3,colours=2,copies=1,campfires=0,bridges=0,summits=1,"
                        "hand_size=3")
    s = Search(deal, "waste", Switches(), None, None)
    detail: list = []
    assert row_steps(s, detail) < INF and len(detail) == 2
    s.apply(next(m for m in s.children(s.dead_flags()) if m[0] == 0))  # row 1 has a card
    s.remaining[:] = [0] * len(s.remaining)  # nothing left: no frontier can be filled
    assert row_steps(s) == INF


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games())
def test_switch_gives_the_same_optimum(deal: Deal) -> None:
    on = solve(deal, "waste", step_bound=True)
    off = solve(deal, "waste")
    assert (on.verdict, on.value, on.optimal) == (off.verdict, off.value, off.optimal)
    assert on.verdict == reference_solve(deal, "waste")[0]


def test_the_cli_switch_keeps_the_optimum() -> None:
    import json

    from click.testing import CliRunner

    from cli.main import main

    args = ["solve", "--seed", "2", "--rules", "preset=tiny", "--objective", "waste", "--json",
            "--no-timing", "--no-lns"]
    on = CliRunner().invoke(main, args + ["--step-bound"])
    off = CliRunner().invoke(main, args)
    assert on.exit_code == 0 and off.exit_code == 0, (on.output, off.output)
    a, b = json.loads(on.output), json.loads(off.output)
    assert a["objective"] == b["objective"] and a["objective"]["optimal"]
