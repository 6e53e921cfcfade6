"""Limits never make the solver claim more than it proved: under a node limit the
verdict is ``unknown`` or a replayed win, the lower bound never exceeds the true optimum, and
the node count never passes the limit."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from model.cards import parse_cards
from model.deal import Deal
from model.records import replay
from model.rules import RuleSet
from solver.exhaustive import solve
from tests.reference import reference_solve
from tests.strategies import examples, tiny_games


def test_bound_after_a_node_limit_is_the_start_positions() -> None:
    # Regression: a limit used to stop the DFS deep in a line, and the bound was then read
    # from the table entry of that deep state (here it said 1073741824 for an optimum of 8).
    deal = Deal.from_seed(59, 1, RuleSet.tiny())
    exact = solve(deal, "waste")
    assert exact.optimal
    res = solve(deal, "waste", node_limit=3000)
    assert res.bound is not None and res.bound <= exact.value


# Regression: the wide beams' share of the node limit (1 node here) ran out together with
# the run's own limit, the run went on into the DFS and counted node 337 of 336.
BEAMS_END_AT_THE_LIMIT = Deal.from_decks(
    [parse_cards("3r 1r 4r 1g 2r 3g S 4g 2g")],
    RuleSet(preset="tiny", rows=2, values=4, colours=2, copies=1, campfires=0, bridges=0,
            summits=1, hand_size=3))

# Regression: the beams won at waste 2, the node limit (61) stopped them, and the start's
# proven bound was 2 as well; the win was reported not optimal with value == bound.
WIN_MEETS_THE_BOUND = Deal.from_seed(0, 1, RuleSet(
    preset="tiny", rows=2, values=4, colours=3, copies=1, campfires=0, bridges=0, summits=1,
    hand_size=2))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games(), objective=st.sampled_from(["waste", "turns"]),
       limit=st.integers(min_value=1, max_value=400))
@example(deal=BEAMS_END_AT_THE_LIMIT, objective="waste", limit=336)
@example(deal=WIN_MEETS_THE_BOUND, objective="waste", limit=61)
def test_limits_never_overclaim(deal: Deal, objective: str, limit: int) -> None:
    verdict, value = reference_solve(deal, objective)
    res = solve(deal, objective, node_limit=limit)
    assert res.stats["nodes"] <= limit
    assert res.verdict in (verdict, "unknown")
    if res.bound is not None and verdict == "win":
        assert res.bound <= value
    if res.verdict == "win":
        assert res.plan is not None and res.plan.replay().outcome == "win"
        assert res.value >= value
        assert res.optimal == (res.value == res.bound)


@pytest.mark.parametrize("limit", [1, 7, 1024, 1025])
def test_node_limit_is_exact(limit: int) -> None:
    res = solve(Deal.from_seed(21, 3), node_limit=limit)
    assert res.stats["nodes"] <= limit


def naive_furthest(deal: Deal) -> int:
    """Most slots any line fills: plain exhaustive search over model.Game (no table)."""
    from model.game import Game

    game = Game(deal)
    best = 0

    def rec() -> None:
        nonlocal best
        best = max(best, game.filled_slots())
        for move in game.legal_moves():
            game.push(move)
            rec()
            game.pop()

    rec()
    return best


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games())
def test_a_proven_loss_reports_the_furthest_the_deal_can_be_taken(deal: Deal) -> None:
    res = solve(deal, furthest="proven")
    if res.verdict != "loss":
        return
    assert res.stats["best_progress_proven"]
    assert res.best_progress == naive_furthest(deal)
    rep = replay(deal, res.best_line)
    assert rep.error is None and rep.game.filled_slots() == res.best_progress


def test_furthest_of_a_loss_counts_lines_the_bounds_cut() -> None:
    # Review case: the bounds cut the root (no Summit can ever be played), yet P1 and P2
    # can still place their cards.
    rules = RuleSet.from_options(["values=1", "bridges=0", "summits=1", "colours=2",
                                  "copies=1", "campfires=0"])
    deal = Deal.from_seed(1, 5, rules)
    res = solve(deal, node_limit=1_000_000, furthest="proven")
    assert res.verdict == "loss"
    assert res.stats["best_progress_proven"]
    assert res.best_progress >= 2


def test_an_interrupt_while_the_waste_tables_are_made_leaves_none_half_made() -> None:
    """A Ctrl-C that landed while the solo waste bound's tables were being made left them
    half-made, and the bound read after the interrupt (the answer's) failed with an
    IndexError: the portfolio reported the DFS as crashed."""
    from solver.exhaustive import Search
    from solver.state import Switches

    s = Search(Deal.from_seed(2, 1), "waste", Switches(core=False), None, None)
    maxrow, reads = s.t.maxrow, [0]

    class Interrupting(list):
        def __getitem__(self, i):  # the Ctrl-C, after some of the tables are made
            reads[0] += 1
            if reads[0] == (s.R + 1) * len(s.decks[0]):
                raise KeyboardInterrupt
            return list.__getitem__(self, i)

    s.t.maxrow = Interrupting(maxrow)
    with pytest.raises(KeyboardInterrupt):
        s.root_bound()
    s.t.maxrow = maxrow
    fresh = Search(Deal.from_seed(2, 1), "waste", Switches(core=False), None, None)
    assert s.root_bound() == fresh.root_bound()


@pytest.mark.parametrize("mb", [-1, 0, "abc", 1.5, True])
def test_a_memory_limit_that_is_not_a_positive_whole_number_is_refused(mb) -> None:
    with pytest.raises(ValueError, match="memory limit"):
        solve(Deal.from_seed(1), "none", node_limit=10, memory_limit_mb=mb)
