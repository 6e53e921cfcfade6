"""Nogood learning (:mod:`solver.nogood`) and the colour-free abstraction
(:mod:`solver.abstraction`) prove nothing the naive reference does not.

From random mid-game positions of tiny games (1–5 players, every rule option): the learned
key (row fronts) is the same in the compiled core and in Python; the solve with the switches
on (and the abstraction forced to run from the first node) gives the reference's verdict and
optimum; every real legal move is a legal move of the abstraction at no greater cost; and an
abstract loss is always a real loss.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.abstraction as abstraction
from model.deal import Deal
from model.game import Game
from model.rules import RuleSet
from solver import solve
from solver.abstraction import Abstraction, abstract_search, colour_classes
from solver.exhaustive import CORE_AVAILABLE, Search
from solver.state import Switches
from tests.reference import reference_solve
from tests.strategies import examples, random_position, tiny_games

FAST = settings(max_examples=examples(40), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PLAYERS = st.integers(1, 5)


def _position(deal: Deal, seed: int, steps: int) -> Game | None:
    game = random_position(deal, random.Random(seed), steps)
    return None if game.is_over() else game


@pytest.mark.skipif(not CORE_AVAILABLE, reason="the compiled core is not built")
@FAST
@given(deal=tiny_games(PLAYERS), steps=st.integers(0, 8), seed=st.integers(0, 2**16),
       colourless=st.booleans())
def test_learned_key_and_moves_are_the_same_in_the_core(deal, steps, seed, colourless):
    game = _position(deal, seed, steps)
    if game is None:
        return
    s = abstract_search(Search(game, "none", Switches(), None, None)) if colourless else \
        Search(game, "none", Switches(), None, None)
    core = s.core()
    on_rows = sum(len(r) for r in s.rows)
    core.set_state(s.rows, s.hands, s.ptr, s.to_move, s.filled - on_rows)
    flags = s.dead_flags()
    assert core.learned_key() == s.learned_key(flags)
    assert core.key() == s.key(flags)
    assert core.children() == s.children(flags)
    s.pruned = {"summit": 0, "height": 0, "cards": 0, "objective": 0, "spare": 0}
    assert core.bounds(3) == (s.bound_fails(3), s.waste_lower_bound(3),
                              s.players_window_bound(3) if s.P > 1 else -1,
                              s.players_turns_bound(3) if s.P > 1 else -1)


def test_the_learned_key_drops_what_no_rule_can_see_again() -> None:
    """Two positions that differ only left of a row's anchor share the learned key, not the
    full key; a row with a card a Campfire can still move keeps that card."""
    rules = RuleSet.from_options(["rows=3", "values=5", "colours=2", "copies=2", "campfires=0",
                                  "bridges=0", "summits=1"])
    s = Search(Deal.from_seed(1, 1, rules), "none", Switches(), None, None)
    ids = s.t.id_of
    a = [c for c in s.t.cards if c.is_ascent and c.value >= 3]
    x, y, z = ids[a[0]], ids[a[1]], ids[a[2]]
    snap = s.snapshot()
    s.restore((((x, y, z), (), ()), snap[1], snap[2], snap[3]))
    k1, f1 = s.learned_key(s.dead_flags()), s.key(s.dead_flags())
    s.restore((((y, x, z), (), ()), snap[1], snap[2], snap[3]))
    assert s.learned_key(s.dead_flags()) == k1
    assert s.key(s.dead_flags()) != f1
    s.sw.nogood = False
    assert s.learned_key(s.dead_flags()) == s.key(s.dead_flags())


@FAST
@given(deal=tiny_games(PLAYERS), steps=st.integers(0, 8), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["none", "waste"]), core=st.booleans())
def test_learned_nogoods_and_the_abstraction_agree_with_the_reference(
        deal, steps, seed, objective, core):
    """With every switch on, and the abstraction taking turns with the search from its
    first node, the verdict and the optimum are the reference's."""
    game = _position(deal, seed, steps)
    if game is None:
        return
    want = reference_solve(game, objective)
    old = abstraction.FIRST_SLICE, abstraction.ABSTRACT_SHARE
    abstraction.FIRST_SLICE, abstraction.ABSTRACT_SHARE = 1, 1.0
    try:
        res = solve(game, objective, core=core and CORE_AVAILABLE, furthest="off",
                    nogood=True, abstraction=True)
    finally:
        abstraction.FIRST_SLICE, abstraction.ABSTRACT_SHARE = old
    assert (res.verdict, res.value) == want


@FAST
@given(deal=tiny_games(PLAYERS), steps=st.integers(0, 8), seed=st.integers(0, 2**16))
def test_every_real_move_is_an_abstract_move_at_no_greater_cost(deal, steps, seed):
    """The abstraction over-approximates: from random positions, each legal move of the
    rules engine (:mod:`model`) is, its card taken to its colour class, a legal move of the
    abstraction at no greater cost (waste: the cards it takes out of the game)."""
    game = _position(deal, seed, steps)
    if game is None:
        return
    real = Search(game, "none", Switches(), None, None)
    ab = abstract_search(real)
    cls = colour_classes(real)
    p = real.to_move
    got: dict[tuple, int] = {}
    for kind, card, r, s, r2, s2, cost in ab.placements(p):
        key = (kind, card, r, s, r2, s2)
        got[key] = min(cost, got.get(key, cost))
    assert sorted(cls[c] for c in real.hands[p]) == ab.hands[p]
    for move in game.legal_moves():
        (kind, card, r, s, r2, s2, disc), = real.from_moves([move])
        real_cost = len(disc) + (kind == 1)  # M_BRIDGE_REPLACE: the Bridge leaves too
        if kind == 3:  # M_DISCARD: two cards of the hand, as in the abstraction
            assert len(ab.hands[p]) >= 2
            continue
        key = (kind, cls[card], r, s, r2, s2)
        assert key in got, (move, key)
        assert got[key] + (kind == 1) <= real_cost


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deal=tiny_games(PLAYERS), steps=st.integers(0, 8), seed=st.integers(0, 2**16),
       core=st.booleans())
def test_an_abstract_loss_is_a_real_loss(deal, steps, seed, core):
    game = _position(deal, seed, steps)
    if game is None:
        return
    real = Search(game, "none", Switches(core=core and CORE_AVAILABLE), None, None)
    verdict = Abstraction(real).run_slice(10**7, None)
    if verdict == "loss":
        assert reference_solve(game, "none")[0] == "loss"


@pytest.mark.skipif(not CORE_AVAILABLE, reason="the compiled core is not built")
def test_the_abstraction_proves_a_loss_the_same_way_in_the_core_and_in_python() -> None:
    rules = RuleSet.from_options(["rows=4", "values=6", "colours=2", "copies=2", "campfires=1",
                                  "bridges=2", "summits=2", "hand_size=2"])
    deal = Deal.from_seed(4, 1, rules)
    out = []
    for core in (False, True):
        ab = Abstraction(Search(deal, "none", Switches(core=core), None, None))
        out.append((ab.run_slice(10**6, None), ab.search.nodes))
    assert out[0] == out[1]
    assert out[0][0] in ("loss", "win")


@pytest.mark.parametrize("core", [False, True])
def test_a_loss_the_abstraction_proves_says_so_and_is_a_loss_without_it(core) -> None:
    """Deal 2 of the 4-row hand-of-two rung: the abstraction, taking turns with the search
    from its first node, proves the loss; the answer names it (``decided_by``, the reason in
    words) and the search with the abstraction off proves the same loss."""
    if core and not CORE_AVAILABLE:
        pytest.skip("the compiled core is not built")
    rules = RuleSet.from_options(["rows=4", "values=6", "colours=2", "copies=2", "campfires=1",
                                  "bridges=2", "summits=2", "hand_size=2"])
    deal = Deal.from_seed(2, 1, rules)
    old = abstraction.FIRST_SLICE, abstraction.ABSTRACT_SHARE
    abstraction.FIRST_SLICE, abstraction.ABSTRACT_SHARE = 1, 1.0
    try:
        res = solve(deal, "none", furthest="off", core=core, loss_model=False,
                    beam_schedule=((8, 1),))
    finally:
        abstraction.FIRST_SLICE, abstraction.ABSTRACT_SHARE = old
    assert res.verdict == "loss"
    assert res.stats["decided_by"] == "abstraction"
    assert res.stats["abstraction"]["verdict"] == "loss"
    assert res.reason is not None and res.reason.kind == "abstraction"
    assert "colours ignored" in res.reason.text
    plain = solve(deal, "none", furthest="off", core=core, loss_model=False, abstraction=False,
                  nogood=False)
    assert plain.verdict == "loss" and plain.stats["decided_by"] == "search"


@FAST
@given(deal=tiny_games(PLAYERS), steps=st.integers(0, 8), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["none", "waste"]))
def test_nogoods_matched_by_dominance_agree_with_the_reference(deal, steps, seed, objective):
    """The dominance store (worse hands than a learned lost state are lost) with a store of
    4 entries (emptied when full) changes no verdict and no optimum."""
    game = _position(deal, seed, steps)
    if game is None:
        return
    res = solve(game, objective, furthest="off", nogood_dominance=True, table_size=16)
    assert (res.verdict, res.value) == reference_solve(game, objective)


def test_dominance_between_hands() -> None:
    from solver.nogood import _dominates

    dead = 9
    assert _dominates(((1, 2),), ((1, dead),), dead, (False,))
    assert not _dominates(((1, dead),), ((1, 2),), dead, (False,))
    assert not _dominates(((1, 2),), ((1,),), dead, (False,))
    assert _dominates(((1, 2),), ((1,),), dead, (True,))
    assert not _dominates(((1, 2),), ((3, dead),), dead, (False,))


def test_the_ablation_table_counts_what_each_run_decided(tmp_path) -> None:
    import json

    from benchmarks.frontier import LADDER
    from benchmarks.learning import main

    lad = tmp_path / "ladder"
    lad.mkdir()
    for cfg, verdicts in (("after", ["loss", "loss"]), ("neither", ["loss", "unknown"])):
        (lad / f"ladder-{cfg}.jsonl").write_text("".join(
            json.dumps({"rules": LADDER[4], "verdict": v, "nodes": 10, "seconds": 1.5}) + "\n"
            for v in verdicts))
    on, off = tmp_path / "on", tmp_path / "off"
    for d, move in ((on, 7), (off, None)):
        d.mkdir()
        (d / "games.jsonl").write_text(json.dumps({
            "key": "greedy-p1-1", "kind": "greedy", "players": 1, "losing_move": move,
            "window": 0 if move else 3, "cpu_seconds": 2.0,
            "first_loss_proof": "abstraction" if move else "search"}) + "\n")
    out = tmp_path / "table.md"
    assert main(["--ladder", str(lad), "--games-on", str(on), "--games-off", str(off),
                 "--out", str(out)]) == 0
    text = out.read_text()
    assert f"| `{LADDER[4]}` | after | 2 | 2 | 2 | 20 | 3.0 |" in text
    assert f"| `{LADDER[4]}` | neither | 2 | 1 | 1 | 20 | 3.0 |" in text
    assert "| greedy, 1 player | on | 1 | 1 of 1 | 0 | 2.0 | abstraction 1 |" in text
    assert "| greedy, 1 player | off | 1 | 0 of 1 | 3 | 2.0 | search 1 |" in text


def test_the_command_line_switches_turn_the_techniques_off() -> None:
    """``ascent solve --no-nogood --no-abstraction`` proves the same loss of the 4-row deal 1
    with more nodes (the learned nogoods match fewer positions)."""
    import json

    from click.testing import CliRunner

    from cli.main import main

    args = ["solve", "--seed", "1", "--rules", "rows=4", "--rules", "values=6", "--rules",
            "colours=2", "--rules", "copies=2", "--rules", "campfires=1", "--rules", "bridges=2",
            "--rules", "summits=2", "--rules", "hand_size=2", "--furthest", "off", "--json"]
    on = json.loads(CliRunner().invoke(main, args).output)
    off = json.loads(CliRunner().invoke(main, args + ["--no-nogood", "--no-abstraction"]).output)
    assert on["verdict"] == off["verdict"] == "loss"
    assert on["stats"]["nodes"] < off["stats"]["nodes"]
