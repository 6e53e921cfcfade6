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
        assert row["screen_drop"] == pytest.approx(row["chance_best"] - row["chance_after"],
                                                   abs=1e-3)
        # one number per decision: the paired comparison's drop and interval when compared
        p = row["paired"]
        assert row["drop"] == (p["drop"] if p else row["screen_drop"])
        assert row["drop_interval"] == (p["interval"] if p else None)
        # the cards the mover drew after the move: the top of its deck, as the engine drew
        after = replay(game.plan.start, moves[:k + 1]).game
        seat = moves[k].player - 1
        n = len(pos.decks[seat]) - len(after.decks[seat])
        assert row["drawn"] == [c.text for c in pos.decks[seat][:n]]
        lo, hi = row["interval_before"]
        assert lo <= row["chance_before"] <= hi
    # costly: exactly the marked moves, biggest paired drop first
    assert j["costly"] == [m["index"] for m in j["marks"]]
    assert sorted(j["costly"]) == [m["index"] for m in j["moves"] if m["mark"]]
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


def test_a_stopped_review_resumes_with_the_moves_it_kept() -> None:
    """The moves reviewed before a stop, kept as JSON (MoveReview.to_state) and given back as
    ``done``, are not reviewed again, and the review is the same as one made at once."""
    from bots.review import MoveReview

    game = _greedy_game(4)
    moves = game.plan.moves
    kept: list[dict] = []
    whole = review_game(game.plan.start, moves, worlds=4, open_hand=False, paired_cap=16,
                        reviewed=lambda m: kept.append(json.loads(dumps(m.to_state()))))
    assert [k["index"] for k in kept] == list(range(1, len(moves) + 1))
    half = {k["index"] - 1: MoveReview.from_state(k) for k in kept[: len(kept) // 2]}
    again: list[int] = []
    resumed = review_game(game.plan.start, moves, worlds=4, open_hand=False, paired_cap=16,
                          done=half, reviewed=lambda m: again.append(m.index))
    assert again == list(range(len(kept) // 2 + 1, len(moves) + 1))
    a, b = whole.to_json(), resumed.to_json()
    a.pop("stats"), b.pop("stats")
    assert a == b


def test_the_chart_is_one_svg_for_the_page_and_the_plot(tmp_path) -> None:
    from bots.review import plot_review, review_chart

    game = _greedy_game(4)
    r = review_game(game.plan.start, game.plan.moves, worlds=4, open_hand=False, paired_cap=16)
    svg = review_chart(r, window=(3, 5))
    assert svg.count('class="point') == len(r.moves)
    assert "prefers-color-scheme: dark" in svg and 'class="window"' in svg
    for m in r.moves:
        assert f'data-move="{m.index}"' in svg and f'data-position="{m.index - 1}"' in svg
        assert (f"then drew {' '.join(m.drawn)}" in svg) == bool(m.drawn) or not m.drawn
    plot_review(r, tmp_path / "c.svg")
    assert (tmp_path / "c.svg").read_text(encoding="utf-8") == review_chart(r)
    with pytest.raises(FileExistsError):
        plot_review(r, tmp_path / "c.svg")


def test_the_uct_calibration_is_monotone_and_only_changes_the_chances_shown() -> None:
    from bots.calibration import calibration_for

    cal = calibration_for("uct")
    assert cal is not None and calibration_for("greedy") is None and calibration_for(None) is None
    xs = [i / 200 for i in range(201)]
    ys = [cal(x) for x in xs]
    assert ys == sorted(ys) and all(0 <= y <= 1 for y in ys)
    game = _greedy_game(4)
    plain = review_game(game.plan.start, game.plan.moves, worlds=4, open_hand=False,
                        paired_cap=16).to_json()
    team = review_game(game.plan.start, game.plan.moves, worlds=4, open_hand=False,
                       paired_cap=16, team="uct").to_json()
    assert team["team"] == "uct" and "calibrated for uct" in team["estimator_text"]
    for a, b in zip(plain["moves"], team["moves"]):
        assert b["estimate"]["before"] == a["chance_before"]
        assert b["chance_before"] == round(cal(a["chance_before"]), 4) or \
            abs(b["chance_before"] - cal(a["chance_before"])) < 1e-3
        lo, hi = b["interval_before"]
        assert lo <= b["chance_before"] <= hi
        assert (b["drop"], b["drop_interval"], b["mark"]) == (a["drop"], a["drop_interval"],
                                                              a["mark"])
    assert team["marks"] == plain["marks"]


def test_fit_calibration_is_the_isotonic_fit() -> None:
    pytest.importorskip("scipy.optimize")
    import random as _random

    from bots.calibration import fit_calibration

    rng = _random.Random(3)
    xs = [rng.random() for _ in range(400)]
    won = [rng.random() < 0.3 + 0.6 * x for x in xs]
    cal = fit_calibration(xs, won, "t")
    ys = [cal(x) for x in sorted(xs)]
    assert ys == sorted(ys)
    # the fit keeps the share won overall (each block's mean is its share won)
    assert abs(sum(cal(x) for x in xs) / len(xs) - sum(won) / len(won)) < 0.03
    with pytest.raises(ValueError):
        fit_calibration([0.5], [True, False], "t")


def test_hint_silent_calibrates_for_the_team() -> None:
    from bots.calibration import calibration_for

    cal = calibration_for("uct")
    base = ["hint", "--seed", "3", "--rules", "preset=tiny", "--players", "2", "--silent",
            "--worlds", "8", "--json"]
    res = run(*base, "--team", "uct")
    assert res.exit_code == 0, res.stderr
    j = json.loads(res.stdout)
    assert j["team"] == "uct"
    for m in j["moves"]:
        assert m["chance"] == round(cal(m["estimate"]), 4)
    bad = run(*base, "--team", "nobody")
    assert bad.exit_code == 2 and bad.stderr.startswith("ascent: error: --team")
