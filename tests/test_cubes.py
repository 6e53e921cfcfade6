"""Cube-and-conquer (solver/cubes.py, studies/cubes.py; issue 39 step 6): the merged answer is
the plain answer and the naive reference's on random tiny positions, a loss needs every
cube, node limits cover the whole answer, Dask gives what the sequential mapper gives."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.solve import without_timing
from model.deal import Deal
from model.records import replay
from model.rules import RuleSet
from solver.cubes import (
    Cube,
    CubeAnswer,
    merge,
    raise_cube,
    root_bound,
    root_game,
    sequential_mapper,
    solve_below,
    solve_cubes,
    split,
)
from solver.result import LOSS, UNKNOWN, WIN
from tests.reference import reference_solve
from tests.strategies import examples, random_position, tiny_games

FAST = settings(max_examples=examples(40), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FAST
@given(deal=tiny_games(), steps=st.integers(0, 8), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["none", "waste"]), cubes=st.integers(1, 12),
       raise_bounds=st.booleans(), top_down=st.booleans(), wide_beams=st.booleans())
def test_cubes_answer_is_the_reference_on_tiny_positions(deal, steps, seed, objective, cubes,
                                                         raise_bounds, top_down, wide_beams):
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    want, value = reference_solve(game, objective)
    res = solve_cubes(game, objective, cubes, raise_bounds=raise_bounds, top_down=top_down,
                      wide_beams=wide_beams)
    assert res.verdict == want
    if want == WIN:
        assert replay(res.plan.start, res.plan.moves).outcome == WIN
        if objective == "waste":
            assert res.optimal and res.value == value  # no limit: every cube decided


def test_split_deduplicates_and_keeps_every_first_move_covered():
    deal = Deal.from_seed(3)
    cubes = split(deal, 20)
    keys = [c.game.key() for c in cubes]
    assert len(set(keys)) == len(keys)
    firsts = {c.moves[0] for c in cubes}
    game = root_game(deal)
    # every first move's positions are covered (a first move whose children all equal
    # another's may be dropped only as a duplicate position)
    assert len(firsts) >= 1 and sum(c.status == "open" for c in cubes) >= 20
    assert all(len(c.moves) >= 1 for c in cubes) and not game.is_over()


@FAST
@given(deal=tiny_games(), steps=st.integers(0, 8), seed=st.integers(0, 2**16),
       slack=st.integers(-3, 3))
def test_solve_below_finds_the_optimum_under_the_cap_or_proves_none(deal, steps, seed, slack):
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    want, value = reference_solve(game, "waste")
    cap = max(0, (value if want == WIN else 3) + slack)
    got = solve_below(game, cap, None, None, 64)
    if want == WIN and value < cap:
        assert got.verdict == WIN and got.optimal and got.value == value
        after = game.copy()
        for m in got.continuation:
            after.push(m)
        assert after.is_won() and len(after.out) - len(game.out) == value
    else:  # no win cheaper than the cap: never a loss claimed, the bound reaches the cap
        assert got.verdict == UNKNOWN and got.bound is not None and got.bound >= cap
        if want == WIN:
            assert got.bound <= value


@FAST
@given(deal=tiny_games(), steps=st.integers(0, 8), seed=st.integers(0, 2**16),
       below=st.integers(0, 3), up=st.integers(0, 3), top=st.none() | st.integers(-2, 4))
def test_raise_cube_gives_the_optimum_or_a_bound_never_above_it(deal, steps, seed, below, up,
                                                                top):
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    want, value = reference_solve(game, "waste")
    budget = max(0, value - below) if want == WIN else below  # a proven bound, as the caller's
    task = {"game": game, "budget": budget, "deadline": None, "node_limit": None,
            "memory_limit_mb": 64, "ceiling": budget + up}
    if top is not None:
        task["top"] = budget + top
    got = raise_cube(task)["answer"]
    assert got.verdict in (WIN, UNKNOWN)  # never a loss claimed
    if got.verdict == WIN:
        assert want == WIN and got.value >= value
        assert got.bound is not None and got.bound <= value
        if top is None or got.optimal:
            assert got.optimal and got.value == value
        else:
            assert got.value <= budget + top
        after = game.copy()
        for m in got.continuation:
            after.push(m)
        assert after.is_won() and len(after.out) - len(game.out) == got.value
    else:
        assert got.bound is not None and got.bound >= budget
        if top is None:
            assert got.bound > budget  # one card more, at least
        if want == WIN:
            assert got.bound <= value


def test_a_task_source_may_not_wait_on_itself_sequentially():
    with pytest.raises(RuntimeError):
        list(sequential_mapper(lambda t: t, iter([{}, None])))


def test_split_stops_near_the_number_asked():
    deal = Deal.from_seed(3)
    widest = 0
    for n in (1, 7, 50, 200):
        cubes = split(deal, n)
        opened = [c for c in cubes if c.status == "open"]
        widest = max([widest] + [len(c.game.legal_moves()) for c in opened])
        assert n <= len(opened) < n + widest
        assert len({c.game.key() for c in cubes}) == len(cubes)


def test_a_deadline_already_passed_starts_no_cube():
    deal = Deal.from_seed(3, 1)
    res = solve_cubes(deal, "waste", 50, time_limit=0.0)
    assert res.verdict == UNKNOWN and res.stats["solved"] == 0
    assert res.stats["open"] == 1  # the split stopped at the root
    assert res.bound == root_bound(deal)  # the root's static bound is still proven


def test_both_waste_schedules_keep_the_plain_optimum():
    deal = Deal.from_seed(3, 1, RuleSet.from_options(["rows=4"]))
    plain = solve_cubes(deal, "waste", 1, raise_bounds=False)
    capped = solve_cubes(deal, "waste", 12, raise_bounds=False)
    raised = solve_cubes(deal, "waste", 12)
    assert plain.verdict == capped.verdict == raised.verdict == WIN
    assert plain.optimal and capped.optimal and raised.optimal
    assert capped.value == raised.value == plain.value
    assert capped.stats["schedule"] == "solve" and capped.stats["capped"] > 0
    assert raised.stats["schedule"] == "raise" and raised.stats["solved"] > 0
    for r in (capped, raised):
        assert r.stats["budget"]["nodes_spent"] == r.stats["nodes"]


def _cube(status: str = "open", cost: int = 0) -> Cube:
    return Cube([], root_game(Deal.from_seed(1)), cost, status)


def test_a_loss_needs_every_cube():
    cubes = [_cube(), _cube(), _cube(LOSS)]
    lost = CubeAnswer(LOSS)
    assert merge("none", cubes, [lost, lost, None])[0] == LOSS
    assert merge("none", cubes, [lost, None, None])[0] == UNKNOWN
    assert merge("none", cubes, [lost, CubeAnswer(UNKNOWN), None])[0] == UNKNOWN
    assert merge("none", cubes, [lost, CubeAnswer(WIN, continuation=[]), None])[0] == WIN


def test_the_waste_optimum_needs_every_other_cubes_bound():
    cubes = [_cube(cost=1), _cube(cost=0), _cube(cost=3)]
    win = CubeAnswer(WIN, value=2, optimal=True, bound=2)  # 1 + 2 = 3
    # cube 2 unknown with its path cost 3: no better win there; cube 1 proven ≥ 0 + 3
    v = merge("waste", cubes, [win, CubeAnswer(UNKNOWN, bound=3), CubeAnswer(UNKNOWN)])
    assert v == (WIN, 0, 3, True, 3)
    # cube 1 only proven ≥ 0 + 2: the answer is a win not proven optimal, bound 2
    v = merge("waste", cubes, [win, CubeAnswer(UNKNOWN, bound=2), CubeAnswer(UNKNOWN)])
    assert v == (WIN, 0, 3, False, 2)
    # a cheaper win elsewhere wins
    v = merge("waste", cubes, [win, CubeAnswer(WIN, value=1, optimal=True, bound=1),
                               CubeAnswer(LOSS)])
    assert v == (WIN, 1, 1, True, 1)


def test_node_limited_cubes_are_deterministic_and_within_the_limit():
    deal = Deal.from_seed(2, 2)
    runs = [solve_cubes(deal, "waste", 6, node_limit=3000) for _ in range(2)]
    a, b = (r.to_json() for r in runs)
    for d in (a, b):
        d["stats"] = without_timing(d["stats"])
    assert a == b
    assert runs[0].stats["nodes"] <= 3000


def test_cli_cubes_bad_combinations_exit_2():
    from cli.main import main

    for args in (["--scheduler", "tcp://x:1"], ["--cubes", "3", "--solver", "cpsat"],
                 ["--cubes", "3", "--objective", "turns"], ["--cubes", "0"]):
        r = CliRunner().invoke(main, ["solve", "--seed", "1", *args])
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output


@pytest.mark.slow
def test_cubes_on_a_dask_local_cluster_give_the_sequential_answer():
    from studies.cubes import dask_mapper

    game = random_position(Deal.from_seed(5), random.Random(5), 40)
    seq = solve_cubes(game, "none", 4, node_limit=200_000)
    dask = solve_cubes(game, "none", 4, node_limit=200_000, mapper=dask_mapper(workers=2))
    assert dask.verdict == seq.verdict != UNKNOWN
    # the bound-raising schedule on 2 workers (a task source that may wait: None)
    deal = Deal.from_seed(1, 1, RuleSet.from_options(["rows=4"]))
    seq = solve_cubes(deal, "waste", 12)
    dask = solve_cubes(deal, "waste", 12, mapper=dask_mapper(workers=2))
    assert dask.stats["schedule"] == seq.stats["schedule"] == "raise"
    assert dask.verdict == seq.verdict == WIN and dask.optimal and seq.optimal
    assert dask.value == seq.value


def test_ctrl_c_before_the_split_ends_is_never_a_loss(monkeypatch):
    import solver.cubes as cubes_mod

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cubes_mod, "split", interrupted)
    deal = Deal.from_seed(1, 1, RuleSet.from_options(["rows=4"]))  # a won deal
    res = solve_cubes(deal, "none", 50)
    assert res.verdict == UNKNOWN and res.stats["interrupted"]
    res = solve_cubes(deal, "waste", 50)  # the root's beams won before Ctrl-C
    assert res.verdict == WIN and res.stats["interrupted"] and res.stats["solved"] == 0
    assert res.bound == root_bound(deal)


def test_ctrl_c_in_the_root_beams_stops_the_solve(monkeypatch):
    import solver.cubes as cubes_mod

    monkeypatch.setattr(cubes_mod, "root_beams", lambda *a, **k: (None, None, 7, True))
    res = solve_cubes(Deal.from_seed(1, 1, RuleSet.from_options(["rows=4"])), "waste", 8)
    assert res.verdict == UNKNOWN and res.stats["interrupted"]
    assert res.stats["solved"] == 0 and res.stats["nodes"] == 7


def test_no_cube_proves_nothing_and_bad_limits_are_refused_first():
    assert merge("none", [], [])[0] == UNKNOWN
    deal = Deal.from_seed(1, 1, RuleSet.from_options(["rows=4"]))
    for kwargs in ({"node_limit": -1}, {"max_plies": -1}, {"cubes": 0}):
        with pytest.raises(ValueError):
            solve_cubes(deal, "waste", **{"cubes": 4, **kwargs})


@pytest.mark.slow
def test_a_cluster_without_workers_gives_up_at_the_deadline(monkeypatch):
    from distributed import LocalCluster

    import studies.cubes as dask_cubes

    monkeypatch.setattr(dask_cubes, "GRACE", 0.5)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        mapper = dask_cubes.dask_mapper(scheduler=cluster.scheduler_address)
        deal = Deal.from_seed(1, 1, RuleSet.from_options(["rows=4"]))
        res = solve_cubes(deal, "waste", 6, time_limit=1.0, mapper=mapper)
    assert res.verdict == WIN and res.stats["solved"] == 0  # the root's beams' win, kept
