"""The review's marks (:mod:`bots.mistakes`): the paired interval's arithmetic and coverage,
the marking rule on constructed outcomes (a clear mistake is marked, overlapping intervals
are not), the sequential comparison with a pluggable evaluator, no peeking at hidden cards,
and the marks in ``review --json``."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from bots import make_bot
from bots.advice import MoveChance
from bots.base import play_deal
from bots.mistakes import (
    FDR_LEVEL,
    Comparison,
    bh_qvalues,
    compare_moves,
    look_z,
    looks,
    mark_of,
    mcnemar_p,
    paired_interval,
    playout_evaluator,
    sureness,
)
from bots.review import MoveReview, apply_game_fdr, review_game
from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.observation import observe
from model.records import dumps, replay
from model.rules import RuleSet
from tests.test_bots import _positions, _reshuffled_hidden

TINY = RuleSet.tiny()


def test_paired_interval_holds_the_drop_and_is_antisymmetric() -> None:
    for counts in [(3, 7, 1, 21), (0, 0, 0, 40), (10, 0, 0, 0), (0, 5, 0, 0), (2, 9, 9, 4)]:
        both, a, p, nn = counts
        n = sum(counts)
        d = (a - p) / n
        lo, hi = paired_interval(*counts)
        assert -1 <= lo <= d <= hi <= 1
        lo2, hi2 = paired_interval(both, p, a, nn)  # the moves swapped
        assert (lo2, hi2) == pytest.approx((-hi, -lo), abs=1e-12)
    # more worlds at the same shares: a narrower interval
    w1 = paired_interval(2, 6, 1, 23)
    w4 = paired_interval(8, 24, 4, 92)
    assert w4[1] - w4[0] < w1[1] - w1[0]
    # a higher level (the looks' Bonferroni z) widens it
    assert paired_interval(2, 6, 1, 23, z=2.58)[0] < w1[0]
    with pytest.raises(ValueError):
        paired_interval(-1, 0, 0, 0)


@pytest.mark.parametrize("p_alt,p_played,agree", [(0.3, 0.2, 0.8), (0.1, 0.1, 0.9),
                                                   (0.5, 0.3, 0.3), (0.05, 0.0, 1.0)])
def test_paired_interval_covers_the_true_drop(p_alt: float, p_played: float,
                                              agree: float) -> None:
    """Simulated paired worlds (outcomes correlated as common worlds make them): the 95 %
    interval holds the true drop in at least 92 % of 400 samples of 40 worlds."""
    rng = random.Random(7)
    covered = 0
    for _ in range(400):
        c = [0, 0, 0, 0]
        for _ in range(40):
            played = rng.random() < p_played
            if rng.random() < agree:  # the same world decides both moves alike, mostly
                alt = played or rng.random() < (p_alt - p_played) / (1 - p_played)
            else:
                alt = rng.random() < p_alt
            c[0 if alt and played else 1 if alt else 2 if played else 3] += 1
        lo, hi = paired_interval(*c)
        covered += lo <= p_alt - p_played <= hi  # either way, alt wins with p_alt
    assert covered >= 0.92 * 400


def test_sureness_is_the_exact_one_sided_mcnemar() -> None:
    assert sureness(0, 5) == 0.0
    assert sureness(5, 0) == pytest.approx(1 - 1 / 32)
    assert sureness(2, 2) == pytest.approx(1 - 11 / 16)
    assert sureness(20, 2) > sureness(10, 2) > sureness(10, 8)


def test_a_clear_mistake_is_marked_and_overlapping_intervals_are_not() -> None:
    def comparison(both: int, alt_only: int, played_only: int, neither: int) -> Comparison:
        c = Comparison(Move("discard", 1, discard=()), Move("discard", 1, discard=()),
                       both, alt_only, played_only, neither)
        c.interval = paired_interval(both, alt_only, played_only, neither, look_z(5))
        return c

    clear = comparison(2, 20, 1, 41)  # 20 worlds won only by the alternative, 1 the other way
    assert clear.interval[0] > 0 and clear.drop == pytest.approx(19 / 64)
    assert clear.mark == "blunder" and clear.sure > 0.999
    small = comparison(10, 12, 2, 232)  # a sure drop, but under 5 points
    assert small.interval[0] > 0 and small.drop < 0.05 and small.mark is None
    overlap = comparison(4, 6, 3, 19)  # the alternative ahead by 3 worlds: not separated
    assert overlap.interval[0] < 0 < overlap.interval[1] and overlap.mark is None
    assert 0.5 < overlap.sure < 0.95
    big_but_unsure = comparison(0, 3, 0, 3)  # a drop of 50 points on 6 worlds
    assert big_but_unsure.drop == 0.5 and big_but_unsure.mark is None
    assert mark_of(0.07, (0.01, 0.2)) == "inaccuracy" and mark_of(0.10, (0.01, 0.2)) == "mistake"
    assert mark_of(0.15, (0.001, 0.3)) == "blunder" and mark_of(0.3, (0.0, 0.5)) is None
    assert comparison(0, 0, 0, 0).to_json()["worlds"] == 0


def test_looks_and_their_level() -> None:
    assert looks(16, 256) == [16, 32, 64, 128, 256] and looks(5, 5) == [5]
    assert look_z(1) == pytest.approx(1.96, abs=1e-3)
    assert look_z(5) == pytest.approx(2.576, abs=1e-3)
    with pytest.raises(ValueError):
        looks(10, 5)


def _position() -> tuple[Game, list[Move]]:
    g = Game(Deal.from_seed(3, 2, TINY))
    return g, g.legal_moves()


def test_compare_moves_stops_once_separated_with_a_constructed_evaluator() -> None:
    g, legal = _position()
    played, alt = legal[0], legal[1]
    seen: list[int] = []

    def alternative_always_wins(world, moves, seed):
        seen.append(seed)
        return [m == alt for m in moves]

    c = compare_moves(observe(g), played, alt, alternative_always_wins, first=16, cap=256)
    assert c.stopped == "separated" and c.worlds == 16 and c.alt_only == 16
    assert c.mark == "blunder" and c.looks_made == 1 and c.looks_allowed == 5
    assert c.p_value == pytest.approx(5 * 2 ** -16) and c.sure == pytest.approx(1 - c.p_value)
    assert len(seen) == 16  # one call a world: both moves with the same randomness

    def same_outcome(world, moves, seed):  # common random numbers: the same seed decides
        won = random.Random(seed).random() < 0.3
        return [won for _ in moves]

    c = compare_moves(observe(g), played, alt, same_outcome, first=16, cap=256)
    assert c.mark is None and c.drop == 0 and c.stopped == "small"

    def independent_coins(world, moves, seed):  # equal moves, no common randomness
        r = random.Random(seed)
        return [r.random() < 0.5 for _ in moves]

    c = compare_moves(observe(g), played, alt, independent_coins, first=16, cap=64, seed=4)
    assert c.mark is None and c.worlds == 64 and c.stopped == "cap"
    assert c.interval[0] < 0 < c.interval[1]
    c = compare_moves(observe(g), played, alt, same_outcome, first=8, cap=64,
                      time_limit=0.0)  # out of time at once: the first look is still played
    assert c.stopped == "time" and c.worlds == 8 and c.mark is None
    with pytest.raises(ValueError, match="not a legal move"):
        compare_moves(observe(g), Move("discard", 2, discard=()), alt, same_outcome)


def test_compare_moves_cannot_read_hidden_cards() -> None:
    """Dealing every hidden card again never changes the comparison."""
    rng = random.Random(5)
    checked = 0
    for g in _positions(2, seeds=range(1, 4), rules=TINY):
        other = _reshuffled_hidden(g, rng)
        if other.key() == g.key():
            continue
        moves = g.legal_moves()
        if len(moves) < 2:
            continue
        a, b = (dataclasses.replace(observe(x), history=()) for x in (g, other))
        ja, jb = (compare_moves(o, moves[0], moves[-1], playout_evaluator("greedy"), first=8,
                                cap=16, seed=1).to_json() for o in (a, b))
        assert ja == jb
        checked += 1
    assert checked >= 2


def test_the_review_json_carries_the_marks() -> None:
    game = play_deal(Deal.from_seed(5, 2, TINY), make_bot("greedy"))
    r = review_game(game.plan.start, game.plan.moves, worlds=6, open_hand=False,
                    paired_cap=16)
    j = json.loads(dumps(r.to_json()))
    marked = {}
    for k, row in enumerate(j["moves"]):
        p = row["paired"]
        if p is None:
            continue
        pos = replay(game.plan.start, game.plan.moves[:k]).game
        alt = Move.from_json(p["alternative"])
        assert alt in pos.legal_moves() and alt != game.plan.moves[k]
        assert p["worlds"] <= 16 and p["interval"][0] <= p["drop"] <= p["interval"][1]
        assert row["tested"] and row["mark_alone"] == p["mark"]
        assert row["p_value"] == p["p_value"] and row["q_value"] >= row["p_value"]
        assert row["sure"] == round(1 - row["q_value"], 4)
        assert row["mark_survived"] == (None if p["mark"] is None else row["mark"] is not None)
        if row["mark"]:
            assert p["interval"][0] > 0 and p["drop"] >= 0.05 and row["q_value"] <= FDR_LEVEL
            assert row["mark"] == p["mark"]
            marked[row["index"]] = row["mark"]
    assert {m["index"]: m["mark"] for m in j["marks"]} == marked
    assert j["stats"]["paired_cap"] == 16
    off = review_game(game.plan.start, game.plan.moves, worlds=4, open_hand=False,
                      marks=False).to_json()
    assert off["marks"] == [] and all(m["paired"] is None for m in off["moves"])


def test_review_text_json_and_plot_show_the_marks(monkeypatch, tmp_path) -> None:
    """With an evaluator under which every alternative wins and every move played loses (the
    evaluator is the one pluggable function), every compared decision is a blunder: the
    text, the JSON and the plot carry the marks."""
    import bots.review
    from tests.test_cli import run

    def evaluator_for(estimator):
        def evaluate(world, moves, seed):
            return [k == 0 for k in range(len(moves))]  # moves = [alternative, played]
        return evaluate

    monkeypatch.setattr(bots.review, "evaluator_for", evaluator_for)
    game = play_deal(Deal.from_seed(6, 1, TINY), make_bot("greedy"))
    plan = tmp_path / "game.json"
    plan.write_text(dumps(game.plan.to_json()), encoding="utf-8")
    svg = tmp_path / "line.svg"
    res = run("review", str(plan), "--worlds", "4", "--json", "--quiet", "--no-open-hand",
              "--plot", str(svg))
    assert res.exit_code == 0, res.stderr
    j = json.loads(res.stdout)
    compared = [m for m in j["moves"] if m["paired"]]
    assert compared and len(j["marks"]) == len(compared)
    assert all(m["mark"] == "blunder" and m["sign"] == "??" and m["sure"] >= 0.9999
               and m["q_value"] <= FDR_LEVEL for m in j["marks"])
    assert "blunder" in svg.read_text(encoding="utf-8")
    text = run("review", str(plan), "--worlds", "4", "--quiet", "--no-open-hand")
    assert text.exit_code == 0 and "the mistakes named" in text.stdout and "??" in text.stdout


def test_bh_qvalues_are_the_step_up_procedure_and_monotone() -> None:
    rng = random.Random(7)
    for m in (1, 2, 5, 40):
        ps = [rng.random() ** 3 for _ in range(m)] + [0.01] * (m % 3)  # with ties
        qs = bh_qvalues(ps)
        order = sorted(range(len(ps)), key=lambda i: ps[i])
        # monotone: a smaller p never gets a larger q; q ≥ p; q ≤ 1
        assert all(qs[a] <= qs[b] for a, b in zip(order, order[1:]))
        assert all(p <= q <= 1 for p, q in zip(ps, qs))
        # q ≤ α exactly for the hypotheses BH's step-up rejects (largest rank k with
        # p(k) ≤ kα/m; all of rank ≤ k rejected)
        for alpha in (0.01, 0.05, 0.2):
            k = max([r for r in range(1, len(ps) + 1)
                     if ps[order[r - 1]] <= r * alpha / len(ps)], default=0)
            assert {i for i in range(len(ps)) if qs[i] <= alpha} == set(order[:k])
    assert bh_qvalues([]) == [] and bh_qvalues([0.2]) == [0.2]
    assert bh_qvalues([0.01, 0.02, 0.03, 0.5]) == pytest.approx([0.04, 0.04, 0.04, 0.5])
    with pytest.raises(ValueError):
        bh_qvalues([1.5])


def test_bh_qvalues_agree_with_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    if not hasattr(stats, "false_discovery_control"):
        pytest.skip("scipy too old")
    ps = [random.Random(3).random() ** 2 for _ in range(30)]
    assert bh_qvalues(ps) == pytest.approx(list(stats.false_discovery_control(ps)))


def test_the_p_value_counts_every_look() -> None:
    c = Comparison(Move("discard", 1, discard=()), Move("discard", 1, discard=()), 0, 7, 3, 6,
                   looks_allowed=5, looks_made=2, p_looks=mcnemar_p(6, 0))
    assert c.p_value == pytest.approx(5 * 2 ** -6)  # the smaller look's p, times 5 looks
    assert mcnemar_p(7, 3) > 2 ** -6 and c.sure == pytest.approx(1 - 5 * 2 ** -6)
    assert Comparison(c.played, c.alternative, 0, 0, 3, 0, looks_allowed=5).p_value == 1.0


def _decision(index: int, counts: tuple[int, int, int, int], looks: int = 5) -> MoveReview:
    """A compared decision with constructed paired outcomes, judged as the review judges
    them (the interval at the level of one of ``looks`` looks)."""
    played, alt = Move("discard", 1, discard=()), Move("pass", 1)
    c = Comparison(played, alt, *counts, looks_allowed=looks, looks_made=looks,
                   p_looks=mcnemar_p(counts[1], counts[2]))
    c.interval = paired_interval(*counts, look_z(looks))
    r = MoveChance(played)
    return MoveReview(index, 1, played, "x", r, r, MoveChance(alt), played, 8, c)


def test_the_game_wide_control_removes_chance_marks_and_keeps_a_blunder() -> None:
    """40 decisions: 36 with no difference (as many worlds each way), 3 with a borderline
    edge that a decision alone marks (interval just above 0), 1 clear blunder. Alone, 4
    marks; game-wide, only the blunder survives (BH's threshold for the p of rank k is
    k × 5 % / 40)."""
    null = (40, 20, 20, 176)
    edge = (0, 15, 4, 13)  # 15 worlds to 4 of 32: interval above 0, p = 5 × 0.0096
    blunder = (10, 60, 2, 184)
    moves = [_decision(i + 1, null) for i in range(36)]
    moves += [_decision(37, edge), _decision(38, edge), _decision(39, edge),
              _decision(40, blunder)]
    moves.append(MoveReview(41, 1, moves[0].move, "x", moves[0].before, moves[0].after,
                            moves[0].best, moves[0].move, 8))  # not compared
    assert [m.mark_alone for m in moves[36:40]] == ["blunder"] * 4
    assert all(m.mark_alone is None for m in moves[:36])
    edge_p = moves[36].paired.p_value  # type: ignore[union-attr]
    assert 0.005 < edge_p < 0.05  # a decision alone is sure; not 40 of them
    apply_game_fdr(moves, fdr=True)
    assert [m.index for m in moves if m.mark] == [40] and moves[39].mark == "blunder"
    assert all(moves[k].mark is None and moves[k].mark_alone for k in (36, 37, 38))
    assert moves[39].q_value is not None and moves[39].q_value <= FDR_LEVEL
    assert moves[39].sure == pytest.approx(1 - moves[39].q_value)
    assert moves[40].q_value is None and moves[40].sure is None and moves[40].mark is None
    j = moves[36].to_json()
    assert j["tested"] and j["mark_alone"] == "blunder" and j["mark_survived"] is False
    assert j["mark"] is None and j["q_value"] > FDR_LEVEL and j["p_value"] == edge_p
    assert moves[40].to_json()["tested"] is False
    apply_game_fdr(moves, fdr=False)  # each decision alone, for comparison
    assert [m.index for m in moves if m.mark] == [37, 38, 39, 40]
    assert moves[36].sure == pytest.approx(1 - edge_p)
    apply_game_fdr(moves[36:37], fdr=True)  # the edge on its own is kept
    assert moves[36].mark == "blunder" and moves[36].q_value == edge_p


def test_the_game_wide_control_on_simulated_equal_moves() -> None:
    """Paired worlds where both moves win half the time independently (no real difference),
    200 decisions, plus one where the alternative always wins: the decisions alone mark some
    equal moves by chance; the game-wide control keeps the blunder only."""
    g, legal = _position()
    played, alt = legal[0], legal[1]

    def coins(world, moves, seed):
        r = random.Random(seed)
        return [r.random() < 0.5 for _ in moves]

    def blunder(world, moves, seed):
        return [m == alt for m in moves]

    r = MoveChance(played)
    reviewed = [MoveReview(s + 1, 1, played, "x", r, r, r, played, 8,
                           compare_moves(observe(g), played, alt, coins, first=16, cap=64,
                                         seed=s)) for s in range(200)]
    reviewed.append(MoveReview(201, 1, played, "x", r, r, r, played, 8,
                               compare_moves(observe(g), played, alt, blunder, first=16,
                                             cap=64)))
    apply_game_fdr(reviewed, fdr=False)
    chance = [m.index for m in reviewed[:200] if m.mark]
    assert chance and reviewed[200].mark == "blunder"  # alone: chance marks
    apply_game_fdr(reviewed, fdr=True)
    assert [m.index for m in reviewed if m.mark] == [201]
