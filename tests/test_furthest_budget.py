"""A proven loss does not wait for the furthest-line search.

The furthest-line search after a loss proof runs on its own bounded budget by default
(``furthest="bounded"``), fully only on request (``"proven"``), or not at all (``"off"``);
the answer's ``stats`` give the proof's nodes and seconds apart from the furthest search's,
and the two searches share the memory cap.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from model.deal import Deal
from model.records import replay
from model.rules import RuleSet
from solver import solve
from solver.exhaustive import FURTHEST_MIN_NODES
from tests.strategies import examples, tiny_games

#: 5 rows made losable by a hand of 2 (proof in ~1.6 k nodes, the
#: exact furthest search in ~24 M).
HARSH = RuleSet.from_options(["rows=5", "values=6", "colours=3", "copies=2", "campfires=1",
                              "bridges=2", "summits=2", "hand_size=2"])


def test_the_verdict_does_not_wait_for_the_furthest_line() -> None:
    deal = Deal.from_seed(4, 1, HARSH)
    res = solve(deal)
    st = res.stats
    assert res.verdict == "loss"
    assert st["proof"]["nodes"] == st["nodes"] > 0
    assert "seconds" in st["proof"]
    fur = st["furthest"]
    assert fur["mode"] == "bounded"
    assert fur["nodes"] <= fur["budget_nodes"] == max(FURTHEST_MIN_NODES, st["nodes"] // 4)
    assert not fur["proven"] and not st["best_progress_proven"]  # the budget ran out
    assert fur["stopped_by"] == "limit"
    # the best line found is still a real line of that many slots
    game = replay(deal, res.best_line).game
    assert game.filled_slots() == res.best_progress > 0


def test_the_two_searches_share_the_memory_cap() -> None:
    deal = Deal.from_seed(4, 1, HARSH)
    res = solve(deal, table_size=4096, furthest="proven", node_limit=60_000)
    st = res.stats
    assert res.verdict == "loss"
    assert st["table_entries"] + st["furthest"]["states"] <= 4096


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=tiny_games())
def test_every_mode_gives_the_same_verdict_and_never_claims_more(deal: Deal) -> None:
    full = solve(deal, furthest="proven")
    if full.verdict != "loss":
        return
    assert full.stats["best_progress_proven"] and full.stats["furthest"]["proven"]
    for mode in ("bounded", "off"):
        res = solve(deal, furthest=mode)
        assert res.verdict == "loss"
        assert res.stats["proof"] == {"nodes": res.stats["nodes"],
                                      "seconds": res.stats["seconds"]}
        assert res.best_progress <= full.best_progress
        if res.stats["best_progress_proven"]:
            assert res.best_progress == full.best_progress
        assert replay(deal, res.best_line).game.filled_slots() == res.best_progress
    off = solve(deal, furthest="off")
    assert off.stats["furthest"]["nodes"] == 0 and not off.stats["best_progress_proven"]


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="furthest"):
        solve(Deal.from_seed(1), furthest="sometimes")


def test_a_full_seen_set_is_named_as_the_reason() -> None:
    # seed 4: the proof fills 163 table entries; the furthest search's seen-set gets the
    # rest of 4096 and fills it before the furthest line (18 slots here) is proven
    res = solve(Deal.from_seed(4, 1, HARSH), table_size=4096, furthest="proven")
    fur = res.stats["furthest"]
    assert res.verdict == "loss" and not fur["proven"]
    assert fur["stopped_by"] == "memory"
    assert fur["states"] + res.stats["table_entries"] >= 4096 - 1


def test_a_line_one_slot_short_of_the_summit_ends_the_furthest_search() -> None:
    # a lost deal can fill at most every slot but one; once a line does, it is proven
    res = solve(Deal.from_seed(2, 1, HARSH), furthest="proven")
    assert res.verdict == "loss" and res.stats["best_progress_proven"]
    assert res.best_progress == HARSH.mountain_slots - 1
    assert replay(Deal.from_seed(2, 1, HARSH),
                  res.best_line).game.filled_slots() == res.best_progress
