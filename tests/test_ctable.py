"""The compiled core's exact transposition table (``solver/_core.c``, issue 39 step 3).

A hit must compare the whole key: two different states under one hash are two entries (the
old 128-bit fingerprint table would have merged them: a false proof). The state keys the
search builds pack into the geometry's field widths (none falls back to raw bytes), keys
longer than an entry's key field go to the exact overflow arena, and a table far too small
for the search (replacement on every store) never makes the default solve claim a loss that
is a win, or a bound above the naive reference's optimum (``tests/reference.py``).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.rules import RuleSet
from solver import solve
from solver.exhaustive import CORE_AVAILABLE, Search, table_entries_for
from solver.state import Stop, Switches
from tests.reference import reference_solve
from tests.strategies import examples, random_position, tiny_games

needs_core = pytest.mark.skipif(not CORE_AVAILABLE, reason="the compiled core is not built")


def _keys_of_positions(deal: Deal, n: int, seed: int) -> tuple[Search, list[bytes]]:
    """A search on ``deal`` (its core made) and the learned keys (the table's keys) of
    ``n`` random positions of it, as the Python search builds them."""
    s = Search(deal, "waste", Switches(), None, None)
    assert s.core() is not None
    rng = random.Random(seed)
    keys = []
    for i in range(n):
        game = random_position(deal, rng, i % 12)
        t = Search(game, "waste", Switches(core=False), None, None)
        keys.append(t.learned_key(t.dead_flags()))
    return s, keys


def _deepen(s: Search) -> None:
    """The DFS at budgets 0, 1, 2, ... (each call one generation of the table) until a win
    or the search's node limit."""
    try:
        for budget in range(200):
            if s.dfs(budget):
                return
    except Stop:
        pass


@needs_core
def test_keys_under_one_hash_stay_apart() -> None:
    s, keys = _keys_of_positions(Deal.from_seed(3, 2, RuleSet()), 60, 1)
    core = s.core()
    core.tt_debug_hash_bits(0)  # one hash for every key: only the keys tell them apart
    distinct = sorted(set(keys))
    assert len(distinct) > 20
    for v, k in enumerate(distinct, 1):
        core.tt_put(k, v)
    for v, k in enumerate(distinct, 1):
        assert core.tt_get(k) == v  # a fingerprint table would return the last one
    st_ = core.tt_stats()
    assert st_["entries"] == len(distinct)
    assert st_["raw"] == 0  # every real key packs into the geometry's widths
    assert core.tt_get(bytes([0, 254])) is None  # never stored: no hit by hash


@needs_core
def test_long_keys_go_to_the_overflow_arena_exactly() -> None:
    core = Search(Deal.from_seed(1, 1, RuleSet.tiny()), "waste", Switches(), None, None).core()
    core.tt_debug_hash_bits(0)
    a, b = bytes(range(1, 101)), bytes(range(1, 100)) + b"\x00"  # off the layout: raw bytes
    core.tt_put(a, 7)
    core.tt_put(b, 8)
    assert (core.tt_get(a), core.tt_get(b)) == (7, 8)
    assert core.tt_get(a[:-1]) is None
    st_ = core.tt_stats()
    assert (st_["overflow"], st_["raw"], st_["entries"]) == (2, 2, 2)
    core.tt_put(a, 9)  # raising an entry keeps one entry
    assert core.tt_get(a) == 9 and core.tt_stats()["entries"] == 2


@needs_core
@pytest.mark.parametrize("players", [1, 3, 5])
def test_a_search_packs_every_key_of_a_real_deal(players: int) -> None:
    s = Search(Deal.from_seed(2, players, RuleSet()), "waste", Switches(), None, 20_000)
    _deepen(s)
    st_ = s.core().tt_stats()
    assert st_["entries"] > 100 and st_["raw"] == 0
    assert st_["bytes"] == st_["slots"] * st_["slot_bytes"] + st_["arena_bytes"]


@needs_core
def test_a_tiny_table_replaces_and_stays_within_its_slots() -> None:
    s = Search(Deal.from_seed(2, 1, RuleSet()), "waste", Switches(table_size=64), None, 20_000)
    _deepen(s)
    st_ = s.core().tt_stats()
    assert st_["replaced"] > 0 and s.tt_evictions >= st_["replaced"]
    assert st_["slots"] <= st_["max_slots"] and st_["entries"] <= 64


def test_the_memory_option_sizes_the_core_table_smaller_per_entry() -> None:
    assert table_entries_for(1024, core=True) > 2 * table_entries_for(1024)
    assert table_entries_for(1) >= 1024


@needs_core
@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deal=tiny_games(st.integers(1, 3)), steps=st.integers(0, 8), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["none", "waste", "turns"]), table=st.sampled_from([1, 3, 12]))
def test_a_tiny_table_never_makes_a_false_proof(deal, steps, seed, objective, table) -> None:
    """From random mid-game positions, the default solve with the core and a table of a few
    entries (replacement at nearly every store): a decided verdict is the reference's, a
    win's value is at least the optimum, the proven bound at most it."""
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    want_verdict, want_value = reference_solve(game, objective)
    res = solve(game, objective, core=True, table_size=table, furthest="off", node_limit=200_000)
    if res.verdict != "unknown":
        assert res.verdict == want_verdict
    if want_verdict == "loss":
        assert res.verdict != "win"
    if objective != "none" and want_value is not None:
        if res.bound is not None:
            assert res.bound <= want_value
        if res.verdict == "win" and res.value is not None:
            assert res.value >= want_value
            if res.optimal:
                assert res.value == want_value


def _least_budget(start, table_size: int) -> tuple[int | None, dict]:
    """The least waste budget the core's DFS wins within (``None``: no win at all, a
    proven loss), deepening 0, 1, 2, ... on one table; and the table's counters."""
    s = Search(start, "waste", Switches(table_size=table_size), None, 2_000_000)
    for budget in range(60):
        if s.dfs(budget):
            return budget, s.core().tt_stats()
    return None, s.core().tt_stats()


@needs_core
def test_replacement_on_every_store_keeps_the_optimum_of_a_small_rung() -> None:
    """Positions of the 4-row rung (hand 3) where a 16-entry table replaces thousands of
    entries: the optimum (or the loss) is the one a table that never fills proves (which is
    the Python reference's, node for node: tests/test_core.py)."""
    from benchmarks.frontier import _rules
    from benchmarks.waste_ladder import RUNGS

    rules = _rules(RUNGS[0] + ",hand_size=3")
    replaced = 0
    for seed in (3, 4, 5):
        game = random_position(Deal.from_seed(seed, 1, rules), random.Random(seed), 6)
        small, st_ = _least_budget(game, 16)
        big, _ = _least_budget(game, 1 << 20)
        assert small == big, seed
        replaced += st_["replaced"]
    assert replaced > 1000


def test_the_default_memory_limit_is_a_share_of_the_machine() -> None:
    from cli.options import default_memory_mb, machine_mb

    machine = machine_mb()
    if machine is None:
        assert default_memory_mb() == 2048
    else:
        assert 128 <= default_memory_mb() <= max(128, machine // 4)


@needs_core
@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32), bits=st.integers(0, 6), table=st.sampled_from([16, 100]))
def test_a_key_never_reads_another_keys_bound(seed, bits, table) -> None:
    """Thousands of stores into a small table, keys short (inline) and long (overflow
    arena), hashes cut to a few bits (collisions, replacement and backward-shift
    deletion on nearly every store): a key reads back its own last bound or nothing, and the
    table never holds more than its size."""
    core = Search(Deal.from_seed(1, 1, RuleSet.tiny()), "waste", Switches(table_size=table),
                  None, None).core()
    core.tt_debug_hash_bits(bits)
    rng = random.Random(seed)
    pool = [bytes(rng.randrange(256) for _ in range(rng.choice([3, 20, 33, 60])))
            for _ in range(300)]
    last: dict[bytes, int] = {}
    for _ in range(3000):
        k = rng.choice(pool)
        v = rng.randrange(1, 1000)
        skipped = core.tt_stats()["skipped"]
        core.tt_put(k, v)
        if core.tt_stats()["skipped"] == skipped:  # stored (not skipped): it reads back
            assert core.tt_get(k) == v
        last[k] = v
    for k, v in last.items():
        assert core.tt_get(k) in (None, v)
    st_ = core.tt_stats()
    assert st_["entries"] <= table and st_["replaced"] > 0


@needs_core
def test_evicting_half_keeps_the_larger_bounds_readable() -> None:
    """``Core.evict`` (before the furthest-line search) drops half the entries, the smaller
    bounds first within a generation, and every key left still reads its own bound."""
    core = Search(Deal.from_seed(1, 1, RuleSet.tiny()), "waste", Switches(table_size=4096),
                  None, None).core()
    core.tt_debug_hash_bits(6)
    keys = [bytes([i % 251, i // 251, 7, 9]) + bytes(i % 40) for i in range(1000)]
    for v, k in enumerate(keys, 1):
        core.tt_put(k, v)
    assert core.evict() == 500 and core.tt_len() == 500
    for v, k in enumerate(keys, 1):
        assert core.tt_get(k) == (v if v > 500 else None)
