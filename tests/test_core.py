"""The compiled search core (``solver/_core.c``) is the pure-Python search, faster.

The Python search stays the reference. From random positions of tiny games (every ruling
option, 1–3 players) and of standard games (1–5 players) the core must give the same state
key, the same moves in the same search order and the same bounds; a whole solve must give the
same verdict, value, bound, plan and node count (the core visits the same nodes in the same
order), also with a small transposition table (eviction), the switches off, positions, the
furthest-line search after a loss, and limits that stop it.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.rules import RuleSet
from solver import solve
from solver.beam import DEFAULT_BEAM_SCHEDULE
from solver.exhaustive import CORE_AVAILABLE, Search, core_status
from solver.schedule import Schedule
from solver.state import INF, Stop, Switches
from tests.strategies import examples, random_position, tiny_games

needs_core = pytest.mark.skipif(not CORE_AVAILABLE, reason="the compiled core is not built")
FAST = settings(max_examples=examples(60), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def test_the_core_is_built_where_a_compiler_is() -> None:
    """``pip install -e .`` builds solver/_core.c (setup.py); a silent build failure would
    leave every solve on the slow path."""
    headers = Path(sysconfig.get_paths()["include"], "Python.h").exists()
    if os.environ.get("ASCENT_PURE_PYTHON") == "1" or not (shutil.which("cc") or shutil.which("gcc")) \
            or not headers:
        pytest.skip("no C compiler or no Python headers, or the pure-Python search asked for")
    assert CORE_AVAILABLE, core_status()


def test_a_core_built_from_another_source_is_not_used(tmp_path) -> None:
    """A compiled core whose recorded digest is not that of its sources (solver/_core.c and
    solver/rules_core.h; a checkout that
    moved on without a rebuild) is not imported as the search: the Python reference runs."""
    code = """
import sys, types, warnings
fake = types.ModuleType("solver._core")
fake.SOURCE_HASH = "stale"
sys.modules["solver._core"] = fake
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import solver.exhaustive as e
print("warned", *[str(w.message) for w in caught])
print(e.CORE_AVAILABLE, e.core_status())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1], check=True).stdout
    assert ("warned ascent: warning: the search runs in pure Python (solver/_core.c or "
            "solver/rules_core.h changed") in out
    assert "False pure Python (solver/_core.c or solver/rules_core.h changed" in out


def _same_state_answers(start, objective: str, budgets=(0, 1, 3, 8, INF)) -> None:
    s = Search(start, objective, Switches(), None, None)
    core = s.core()
    assert core is not None
    on_rows = sum(len(r) for r in s.rows)
    core.set_state(s.rows, s.hands, s.ptr, s.to_move, s.filled - on_rows)
    flags = s.dead_flags()
    assert core.key() == s.key(flags)
    assert core.children() == s.children(flags)
    for budget in budgets:
        s.pruned = {"summit": 0, "height": 0, "cards": 0, "objective": 0, "spare": 0}
        want = (s.bound_fails(budget), s.waste_lower_bound(budget),
                s.players_window_bound(budget) if s.P > 1 else -1,
                s.players_turns_bound(budget) if s.P > 1 else -1)
        assert core.bounds(budget) == want, (budget, want)


@needs_core
@FAST
@given(deal=tiny_games(), steps=st.integers(0, 10), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["none", "waste", "turns"]))
def test_core_state_moves_and_bounds_are_the_reference_on_tiny_games(deal, steps, seed, objective):
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    _same_state_answers(game, objective)


@needs_core
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_core_state_moves_and_bounds_are_the_reference_on_real_games(players: int) -> None:
    rng = random.Random(players)
    for seed in range(1, 4):
        deal = Deal.from_seed(seed, players, RuleSet())
        for steps in (0, 7, 20, 33):
            game = random_position(deal, rng, steps)
            if not game.is_over():
                for objective in ("waste", "turns"):
                    _same_state_answers(game, objective, budgets=(0, 5, 20, 60, INF))


#: the default beams without the wide ones (the pure-Python wide beams take long); the
#: default schedule itself, wide beams included, is compared in tests/test_budget.py
SAME_BEAMS = Schedule(DEFAULT_BEAM_SCHEDULE, ())


def _both(start, objective: str, **kw):
    """Solve with the Python reference and with the core: the same answer, plan, furthest
    line and node count while the reference's table never filled. Once it did, the two
    replacement policies differ (the reference drops the older half in insertion order; the
    core replaces within a key's probe sequence, solver/_core.c), so only what must agree is
    compared: a decided verdict, a proven optimum, and no bound above the other's win."""
    kw.setdefault("beam_schedule", SAME_BEAMS)
    a = solve(start, objective, core=False, **kw)
    b = solve(start, objective, core=True, **kw)
    if a.stats["table_evictions"]:
        _consistent(a, b)
        return b
    moves = lambda r: None if r.plan is None else [m.to_json() for m in r.plan.moves]  # noqa: E731
    line = lambda r: [m.to_json() for m in r.best_line]  # noqa: E731
    assert (a.verdict, a.value, a.bound, a.optimal) == (b.verdict, b.value, b.bound, b.optimal)
    assert moves(a) == moves(b)
    assert line(a) == line(b)
    for k in ("nodes", "pruned", "table_entries", "table_hits", "table_evictions",
              "best_progress", "best_progress_proven"):
        assert a.stats[k] == b.stats[k], (k, a.stats[k], b.stats[k])
    return b


def _consistent(a, b) -> None:
    """Two sound answers of one question (possibly under different limits or tables)."""
    if "unknown" not in (a.verdict, b.verdict):
        assert a.verdict == b.verdict
    if a.optimal and b.optimal:
        assert a.value == b.value
    for x, y in ((a, b), (b, a)):
        if x.bound is not None and y.value is not None and y.verdict == "win":
            assert x.bound <= y.value, (x.bound, y.value)


@needs_core
@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deal=tiny_games(), objective=st.sampled_from(["none", "waste", "turns"]),
       table=st.sampled_from([0, 16]))
def test_core_solves_tiny_games_node_for_node(deal, objective, table):
    kw = {"table_size": table} if table else {}
    _both(deal, objective, **kw)


@needs_core
@pytest.mark.parametrize("variant", [{"transposition": False}, {"dominance": False},
                                     {"bounds": False}, {"window_players": False},
                                     {"deepening": False, "pv_order": False}])
def test_core_with_switches_off_is_the_reference(variant) -> None:
    for seed in (1, 2, 3):
        for players, objective in ((1, "none"), (2, "waste"), (3, "turns")):
            _both(Deal.from_seed(seed, players, RuleSet.tiny()), objective, **variant)


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("players,objective", [(1, "waste"), (2, "waste"), (4, "turns"),
                                               (5, "turns"), (1, "none")])
def test_core_on_real_deals_with_a_node_limit_is_the_reference(players, objective) -> None:
    res = _both(Deal.from_seed(2, players, RuleSet()), objective, node_limit=60_000)
    assert res.stats["nodes"] <= 60_000


@needs_core
def test_core_loss_proof_and_furthest_line_are_the_reference() -> None:
    rules = RuleSet.from_options(["rows=4", "values=6", "colours=2", "copies=2", "campfires=1",
                                  "bridges=2", "summits=2", "hand_size=2"])
    for seed in (2, 5, 9):
        res = _both(Deal.from_seed(seed, 1, rules), "none")
        assert res.verdict == "loss"
        for mode in ("proven", "off"):
            _both(Deal.from_seed(seed, 1, rules), "none", furthest=mode)


@needs_core
def test_core_from_a_position_and_a_small_table_is_the_reference() -> None:
    rng = random.Random(7)
    deal = Deal.from_seed(4, 3, RuleSet())
    game = random_position(deal, rng, 25)
    _both(game, "waste", node_limit=40_000, table_size=500)
    _both(game, "none", node_limit=40_000)


@needs_core
def test_core_stops_at_its_limits_and_passes_on_ctrl_c() -> None:
    deal = Deal.from_seed(1, 1, RuleSet())
    res = solve(deal, "waste", node_limit=5_000)
    assert res.stats["nodes"] <= 5_000
    s = Search(deal, "waste", Switches(), None, 10_000)
    with pytest.raises(Stop):
        s.dfs(8)  # a long proof (no win spends 8 cards or fewer): the node limit stops it
    assert s.nodes == 10_000

    calls = []

    def interrupt(stats):
        calls.append(stats["nodes"])
        raise KeyboardInterrupt

    s = Search(deal, "waste", Switches(), None, None, progress=interrupt)
    s.last_report = -1e9
    with pytest.raises(KeyboardInterrupt):
        s.dfs(8)
    assert calls and 0 < calls[0] <= 1024


@needs_core
def test_pure_python_environment_variable_turns_the_core_off(monkeypatch) -> None:
    monkeypatch.setenv("ASCENT_PURE_PYTHON", "1")
    s = Search(Deal.from_seed(1, 1, RuleSet.tiny()), "none", Switches(), None, None)
    assert s.core() is None


def test_the_table_cuts_states_proven_lost_with_objective_none() -> None:
    """A state whose search found no win at all is stored as INF; with objective ``none`` every
    search runs with budget INF, so the cut must be ``lb >= INF`` (``INF > INF`` is false: a
    table that compares with ``>`` never cuts a loss proof). Python and the core alike."""
    rules = RuleSet.from_options(["rows=4", "values=6", "colours=2", "copies=2", "campfires=1",
                                  "bridges=2", "summits=2", "hand_size=2"])
    deal = Deal.from_seed(3, 1, rules)
    with_table = solve(deal, "none", furthest="off", core=False)
    without = solve(deal, "none", furthest="off", transposition=False)
    assert with_table.verdict == without.verdict == "loss"
    assert with_table.stats["table_hits"] > 0
    assert with_table.stats["nodes"] < without.stats["nodes"] / 1.5
    if CORE_AVAILABLE:
        assert solve(deal, "none", furthest="off").stats["nodes"] == with_table.stats["nodes"]


@pytest.mark.slow
@needs_core
def test_wide_beams_run_with_the_core_and_never_give_a_worse_win() -> None:
    deal = Deal.from_seed(2, 1, RuleSet())
    plain = solve(deal, "waste", node_limit=400_000, beam_schedule=SAME_BEAMS)
    wide = solve(deal, "waste", node_limit=4_000_000)
    assert wide.verdict == plain.verdict == "win"
    assert wide.value <= plain.value
    assert wide.plan.replay().outcome == "win"


@needs_core
def test_the_wide_beams_leave_the_exact_search_its_share_of_a_node_limit() -> None:
    """The wide beams (core only) take about 6 M nodes on a standard solo deal; under a
    300 k node limit they get at most half, and the exact search runs with the rest."""
    res = solve(Deal.from_seed(7, 1), "waste", node_limit=300_000)
    assert res.verdict == "win" and res.stats["nodes"] <= 300_000
    assert res.stats["table_entries"] > 0  # the DFS ran
    assert res.bound is not None and res.bound <= res.value
