"""Advice from one observation (``hint --silent``) and the game review (``ascent review``):
the Wilson and calibration arithmetic, no peeking at hidden cards, the review's JSON against
the rules engine and the open-hand analysis, and the command lines' one-line errors."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import pytest

from benchmarks.silent import calibration_bins
from bots import make_bot
from bots.advice import MoveChance, advise, rated_moves
from bots.base import play_deal
from bots.review import review_game
from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.observation import observe
from model.records import Plan, dumps, replay
from model.rules import RuleSet
from solver.analysis import analyse
from tests.test_bots import _positions, _reshuffled_hidden
from tests.test_cli import assert_one_line_error, run

TINY = RuleSet.tiny()


def _wilson_by_hand(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k,n", [(0, 5), (3, 10), (7, 7), (19, 40)])
def test_a_moves_chance_and_interval_are_the_wilson_score(k: int, n: int) -> None:
    r = MoveChance(Move("discard", 1, discard=()), worlds=n, wins=k, out_total=3 * n)
    assert r.chance == k / n and r.cards_out == 3
    lo, hi = r.interval
    want = _wilson_by_hand(k, n)
    assert lo == pytest.approx(max(0.0, want[0]), abs=1e-9)
    assert hi == pytest.approx(min(1.0, want[1]), abs=1e-9)
    assert lo <= r.chance <= hi


def test_calibration_bins_on_a_small_case() -> None:
    rows = [{"chance": c, "won": w} for c, w in
            [(0.0, False), (0.04, False), (0.35, True), (0.31, False), (0.38, True), (1.0, True)]]
    bins = calibration_bins(rows)
    assert [(b["lo"], b["n"]) for b in bins] == [(0.0, 2), (pytest.approx(0.3), 3),
                                                 (pytest.approx(0.9), 1)]
    mid = bins[1]
    assert mid["predicted"] == pytest.approx((0.35 + 0.31 + 0.38) / 3)
    assert mid["won"] == pytest.approx(2 / 3)
    assert mid["gap"] == pytest.approx(2 / 3 - mid["predicted"])
    assert sum(b["n"] for b in bins) == len(rows)


def test_a_won_and_a_lost_position_are_rated_one_and_zero() -> None:
    """The Summit playable: the advice rates it alone, won in every world; a position where
    every world is lost (the last card of a deck cannot be placed) is rated 0."""
    for seed in range(1, 40):
        g = Game(Deal.from_seed(seed, 1, TINY))
        while g.outcome() is None and not any(m.card is not None and m.card.is_summit
                                              for m in g.legal_moves()):
            g.push(make_bot("greedy").choose(observe(g)))
        if g.outcome() is None:
            a = advise(observe(g), estimator="greedy", worlds=5, seed=seed)
            assert len(a.moves) == 1 and a.moves[0].chance == 1.0 and a.moves[0].move.card.is_summit
            return
    pytest.fail("no tiny deal reached a playable Summit")  # pragma: no cover


@pytest.mark.parametrize("estimator", ["greedy", "beam", "best"])
def test_the_advice_cannot_read_hidden_cards(estimator: str) -> None:
    """Dealing every hidden card again never changes the advice: it is a function of the
    mover's observation (and the seed) only."""
    rng = random.Random(3)
    checked = 0
    for players in (1, 2):
        for g in _positions(players, seeds=range(1, 4), rules=TINY):
            other = _reshuffled_hidden(g, rng)
            if other.key() == g.key():
                continue
            a, b = (dataclasses.replace(observe(x), history=()) for x in (g, other))
            worlds = 3 if estimator == "best" else 12
            ja, jb = (advise(o, estimator=estimator, worlds=worlds, seed=2).to_json() for o in (a, b))
            ja.pop("stats"), jb.pop("stats")
            assert ja == jb
            checked += 1
    assert checked >= 3


def test_the_advice_rates_legal_moves_and_refuses_others() -> None:
    g = Game(Deal.from_seed(2, 2, TINY))
    obs = observe(g)
    a = advise(obs, estimator="greedy", worlds=6)
    legal = g.legal_moves()
    assert {r.move for r in a.moves} == set(rated_moves(obs)) and all(r.move in legal for r in a.moves)
    assert all(r.worlds == a.worlds for r in a.moves)
    chances = [r.chance for r in a.moves]
    assert chances == sorted(chances, reverse=True)
    with pytest.raises(ValueError, match="not a legal move"):
        advise(obs, [Move("discard", 2, discard=())], estimator="greedy", worlds=2)
    with pytest.raises(ValueError, match="estimator"):
        advise(obs, estimator="oracle", worlds=2)


def _greedy_game(seed: int, players: int = 1):
    return play_deal(Deal.from_seed(seed, players, TINY), make_bot("greedy"))


@pytest.mark.parametrize("players", [1, 3])
def test_the_review_json_agrees_with_the_engine(players: int) -> None:
    game = _greedy_game(5, players)
    r = review_game(game.plan.start, game.plan.moves, worlds=6, paired_cap=16)
    j = json.loads(dumps(r.to_json()))
    moves = game.plan.moves
    assert j["players"] == players and len(j["moves"]) == len(moves)
    assert j["outcome"] == game.outcome and j["complete"]
    for k, row in enumerate(j["moves"]):
        pos = replay(game.plan.start, moves[:k]).game
        legal = pos.legal_moves()
        assert row["index"] == k + 1 and row["player"] == pos.to_move + 1 == moves[k].player
        assert Move.from_json(row["move"]) == moves[k]
        assert Move.from_json(row["best_move"]) in legal and Move.from_json(row["bot_move"]) in legal
        assert row["text"] == pos.move_text(moves[k])
        assert row["chance_best"] >= row["chance_after"] and row["chance_best"] >= row["chance_before"]
        assert row["drop"] == pytest.approx(row["chance_best"] - row["chance_after"], abs=1e-3)
        lo, hi = row["interval_before"]
        assert lo <= row["chance_before"] <= hi
    drops = [j["moves"][i - 1]["drop"] for i in j["costly"]]
    assert drops == sorted(drops, reverse=True)
    a = analyse(game.plan.start, moves, "none", None)
    assert j["open_hand"]["winnable"] == a.positions[0].verdict
    assert j["open_hand"]["losing_move"] == a.losing_move


def test_the_review_is_repeatable_and_refuses_an_open_hand_bot() -> None:
    game = _greedy_game(4)
    a = review_game(game.plan.start, game.plan.moves, worlds=4, open_hand=False,
                    paired_cap=16).to_json()
    b = review_game(game.plan.start, game.plan.moves, worlds=4, open_hand=False,
                    paired_cap=16).to_json()
    c = review_game(game.plan.start, game.plan.moves, worlds=4, open_hand=False,
                    workers=2, paired_cap=16).to_json()
    a.pop("stats"), b.pop("stats"), c.pop("stats")
    assert a == b == c and a["open_hand"] is None
    with pytest.raises(ValueError, match="hidden cards"):
        review_game(game.plan.start, game.plan.moves, bot="cheat", worlds=2)


def test_hint_silent_json_matches_the_engine() -> None:
    res = run("hint", "--seed", "3", "--rules", "preset=tiny", "--players", "2", "--silent",
              "--worlds", "8", "--json")
    assert res.exit_code == 0, res.stderr
    j = json.loads(res.stdout)
    g = Game(Deal.from_seed(3, 2, TINY))
    legal = g.legal_moves()
    assert j["player"] == 1 and j["estimator"] == "greedy" and j["worlds"] <= 8
    assert [Move.from_json(m["move"]) for m in j["moves"]] and all(
        Move.from_json(m["move"]) in legal for m in j["moves"])
    assert all(m["interval"][0] <= m["chance"] <= m["interval"][1] for m in j["moves"])
    text = run("hint", "--seed", "3", "--rules", "preset=tiny", "--silent", "--worlds", "4")
    assert text.exit_code == 0 and "Estimator: greedy" in text.stdout


def test_review_command_json_plot_and_errors(tmp_path) -> None:
    game = _greedy_game(6)
    plan = tmp_path / "game.json"
    plan.write_text(dumps(game.plan.to_json()), encoding="utf-8")
    png = tmp_path / "line.png"
    res = run("review", str(plan), "--worlds", "4", "--json", "--plot", str(png), "--quiet",
              "--paired-cap", "16")
    assert res.exit_code == 0, res.stderr
    j = json.loads(res.stdout)
    assert len(j["moves"]) == len(game.plan.moves) and png.stat().st_size > 0
    again = run("review", str(plan), "--worlds", "4", "--plot", str(png), "--quiet")
    assert_one_line_error(again, 2, "exists")
    assert_one_line_error(run("review", str(plan), "--plot", str(tmp_path / "x.gif")), 2, ".png")
    empty = tmp_path / "empty.json"
    empty.write_text(dumps(Plan(game.plan.start).to_json()), encoding="utf-8")
    assert_one_line_error(run("review", str(empty)), 2, "no moves")
    assert_one_line_error(run("review", str(tmp_path / "missing.json")), 2)
    text = run("review", str(plan), "--worlds", "4", "--quiet", "--no-open-hand",
               "--paired-cap", "16")
    assert text.exit_code == 0 and "Estimator: greedy" in text.stdout


def test_advice_interrupted_keeps_the_worlds_played() -> None:
    """A Ctrl-C after three rounds (raised here from the progress callback, as the signal
    handler would raise it between two worlds) keeps those rounds and says so."""
    from bots.advice import advise
    from model.deal import Deal
    from model.game import Game
    from model.observation import observe
    from model.rules import RuleSet

    obs = observe(Game(Deal.from_seed(3, 2, RuleSet.from_options(["preset=tiny"]))))

    def stop_after_three(n: int, seconds: float) -> None:
        if n == 3:
            raise KeyboardInterrupt

    a = advise(obs, estimator="greedy", worlds=50, min_worlds=50, progress=stop_after_three)
    assert a.stopped == "interrupted" and a.stats["interrupted"] and a.worlds == 3
    assert all(r.worlds == 3 for r in a.moves)

    def stop_at_once(n: int, seconds: float) -> None:
        raise KeyboardInterrupt

    b = advise(obs, estimator="greedy", worlds=50, min_worlds=50, progress=stop_at_once)
    assert b.worlds == 1 and b.stopped == "interrupted"
