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
from bots.base import play_deal
from bots.mistakes import (
    Comparison,
    compare_moves,
    look_z,
    looks,
    mark_of,
    paired_interval,
    playout_evaluator,
    sureness,
)
from bots.review import review_game
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
    assert c.mark == "blunder" and c.sure == pytest.approx(1 - 2 ** -16)
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
        assert row["mark"] == p["mark"] and row["sure"] == p["sure"]
        if row["mark"]:
            assert p["interval"][0] > 0 and p["drop"] >= 0.05
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
    assert all(m["mark"] == "blunder" and m["sign"] == "??" and m["sure"] > 0.99999
               for m in j["marks"])
    assert "blunder" in svg.read_text(encoding="utf-8")
    text = run("review", str(plan), "--worlds", "4", "--quiet", "--no-open-hand")
    assert text.exit_code == 0 and "The mistakes named" in text.stdout and "??" in text.stdout
