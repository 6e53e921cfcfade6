"""The stand-ins for people (``plausible``, ``noisy``) and mixed tables: they read no hidden
card (history kept: it is public), depart from greedy at their rate, their move chances add up
to one, a mixed table plays whole replayable games, and ``ascent simulate --partners`` records
who sat where and refuses bad partners in one line."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from bots import make_bot
from bots.base import play_deal, play_table
from bots.greedy import GreedyBot, GreedyPolicy
from bots.people import NoisyBot, PlausibleBot, move_probability
from bots.simulate import build_tasks, parse_partners
from model.deal import Deal
from model.game import Game
from model.observation import observe
from model.records import Plan, replay
from model.rules import RuleSet
from tests.test_bots import _positions, _reshuffled_hidden
from tests.test_cli import assert_one_line_error, run

TINY = RuleSet.tiny()


def moves_differ_with_history(make, players=(2, 3), seeds=range(1, 5)) -> int:
    """Positions where dealing every hidden card again changes the bot's move, the history
    (public: the moves everybody saw) kept in both observations. ``make()`` builds the bot."""
    rng = random.Random(0)
    differ = checked = 0
    for p in players:
        for g in _positions(p, seeds=seeds):
            other = _reshuffled_hidden(g, rng)
            if other.key() == g.key():
                continue
            a = observe(g)
            b = dataclasses.replace(observe(other), history=a.history)
            assert dataclasses.replace(a, history=()) == dataclasses.replace(b, history=())
            differ += make().choose(a) != make().choose(b)
            checked += 1
    assert checked >= 6
    return differ


@pytest.mark.parametrize("make", [lambda: PlausibleBot(rate=0.5, seed=3),
                                  lambda: NoisyBot(rate=0.5, seed=3)])
def test_people_read_no_hidden_card(make) -> None:
    assert moves_differ_with_history(make) == 0


def test_rate_zero_is_greedy_and_departures_follow_the_rate() -> None:
    policy = GreedyPolicy()
    positions = [g for p in (1, 3) for g in _positions(p, seeds=range(1, 9))]
    departed = {"plausible": 0, "noisy": 0}
    for g in positions:
        obs = observe(g)
        greedy = GreedyBot().choose(obs)
        assert PlausibleBot(rate=0.0, seed=1).choose(obs) == greedy
        assert NoisyBot(rate=0.0, seed=1).choose(obs) == greedy
        top = [m for _, m in policy.ranked(obs.view(), obs.out, limit=3)]
        assert PlausibleBot(rate=1.0, seed=1).choose(obs) in top
        assert NoisyBot(rate=1.0, seed=1).choose(obs) in obs.legal_moves()
        for seed in range(10):
            p = PlausibleBot(rate=0.3, seed=seed)
            n = NoisyBot(rate=0.2, seed=seed)
            p.choose(obs)
            n.choose(obs)
            departed["plausible"] += p.departures
            departed["noisy"] += n.departures
    draws = 10 * len(positions)
    # binomial: 0.3 and 0.2 of the draws, within 4 standard deviations
    for kind, rate in (("plausible", 0.3), ("noisy", 0.2)):
        sd = (draws * rate * (1 - rate)) ** 0.5
        assert abs(departed[kind] - rate * draws) < 4 * sd, (kind, departed[kind], draws)


def test_move_chances_add_up_to_one() -> None:
    policy = GreedyPolicy()
    for g in _positions(3, seeds=range(1, 4)):
        obs = observe(g)
        legal = obs.legal_moves()
        ranked = [m for _, m in policy.ranked(obs.view(), obs.out, limit=3)]
        for kind, rate in (("greedy", 0.0), ("plausible", 0.3), ("noisy", 0.2), ("noisy", 1.0)):
            total = sum(move_probability(m, ranked, len(legal), kind, rate) for m in legal)
            assert abs(total - 1.0) < 1e-9, (kind, rate, total)


def test_people_are_repeatable_and_refuse_bad_parameters() -> None:
    deal = Deal.from_seed(4, 3, TINY)
    a = play_deal(deal, make_bot("noisy", rate=0.5, seed=2))
    b = play_deal(deal, make_bot("noisy", rate=0.5, seed=2))
    assert a.plan.moves == b.plan.moves
    for bad in (-0.1, 1.5, float("nan"), "x", True):
        with pytest.raises(ValueError):
            make_bot("plausible", rate=bad)
    with pytest.raises(ValueError):
        make_bot("plausible", top=0)
    with pytest.raises(TypeError):
        make_bot("noisy", top=3)


def test_a_mixed_table_plays_whole_replayable_games() -> None:
    for players in (2, 3):
        deal = Deal.from_seed(6, players, TINY)
        seats = [make_bot("plausible", seed=1)] + [make_bot("uct", iterations=8, seed=1)
                                                    for _ in range(players - 1)]
        r = play_table(deal, seats)
        assert replay(deal, r.plan.moves).outcome == r.outcome
    with pytest.raises(ValueError):
        play_table(Deal.from_seed(6, 3, TINY), [GreedyBot()])
    g = Game(Deal.from_seed(6, 3, TINY))
    assert play_table(g.deal, [GreedyBot()] * 3).plan.moves == play_deal(g.deal, GreedyBot()).plan.moves


def test_partner_specs_parse_and_refuse() -> None:
    assert parse_partners("noisy:rate=0.1,seed=4") == ("noisy", {"rate": 0.1, "seed": 4})
    assert parse_partners("uct:iterations=20,flat=true") == ("uct", {"iterations": 20, "flat": True})
    for bad, why in (("oracle", "unknown bot"), ("noisy:rate", "not K=V"),
                     ("noisy:rate=2", "rate"), ("plausible:speed=1", "does not take")):
        with pytest.raises(ValueError, match=why):
            parse_partners(bad)
    # a key without partners is the key of old databases (the same bot in every seat)
    (plain,) = build_tasks("greedy", {}, [3], [1], TINY)
    (mixed,) = build_tasks("greedy", {}, [3], [1], TINY, partners="noisy", partner_params={})
    assert "partners" not in plain and "|partners=noisy" in mixed["key"]
    assert mixed["key"].startswith(plain["key"])


def test_simulate_partners_records_the_seats_and_refuses_bad_partners(tmp_path: Path) -> None:
    db, rec = tmp_path / "m.db", tmp_path / "rec"
    args = ["simulate", "--bot", "plausible", "--partners", "noisy:rate=0.5", "--players", "3",
            "--seeds", "1-2", "--rules", "preset=tiny", "--workers", "1", "--db", str(db),
            "--json", "--quiet", "--no-open-hand"]
    res = run(*args, "--records", str(rec))
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["partners"] == "noisy" and data["partner_params"] == {"rate": 0.5, "seed": 0}
    files = sorted(rec.glob("*.json"))
    assert [f.name for f in files] == ["plausible+noisy-p3-seed1.json", "plausible+noisy-p3-seed2.json"]
    for f in files:
        rec_data = json.loads(f.read_text())
        assert [s["bot"] for s in rec_data["seats"]] == ["plausible", "noisy", "noisy"]
        plan = Plan.from_json(rec_data)
        assert replay(plan.deal, plan.moves).outcome == rec_data["bot"]["outcome"]
    again = run(*args)  # resumes from the database
    assert again.exit_code == 0 and json.loads(again.stdout) == data
    for spec, why in (("plausble", "unknown bot"), ("noisy:rate=3", "rate"),
                      ("noisy:depth=2", "does not take"), ("noisy:rate", "K=V")):
        assert_one_line_error(run("simulate", "--bot", "uct", "--partners", spec, "--players", "3",
                                  "--deals", "1"), 2, why)
    assert_one_line_error(run("simulate", "--bot", "noisy", "--rate", "2", "--players", "3",
                              "--deals", "1"), 2, "--rate")
    assert_one_line_error(run("simulate", "--bot", "uct", "--partners", "noisy", "--players", "1-3",
                              "--deals", "1"), 2, "solo deal has no partners")


@pytest.mark.parametrize("argv", [
    ["play", "--out", "X", "--table", "oracle/uct"],
    ["play", "--out", "X", "--players", "7"],
    ["report"],
])
def test_mixed_benchmark_refuses_bad_input(argv, tmp_path, capsys) -> None:
    from benchmarks.mixed import main

    argv = [str(tmp_path / "x") if a == "X" else a for a in argv]
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


def test_mixed_benchmark_plays_and_reports(tmp_path) -> None:
    from benchmarks.mixed import main, report

    for table in ("greedy/greedy", "plausible/greedy"):
        assert main(["play", "--out", str(tmp_path), "--players", "2", "--seeds", "1-3",
                     "--table", table]) == 0
    text = report([tmp_path], "greedy/greedy")
    assert "| 2 | plausible/greedy | 3 |" in text and "| 2 | greedy/greedy | 3 |" in text


def test_mixed_report_gives_the_paired_difference_with_a_real_interval(tmp_path) -> None:
    """One deal won by ``uct/uct`` and lost by ``plausible/uct``: a difference of −100 points
    whose Newcombe interval is not the zero-width [−100, −100] of a Wald interval."""
    from benchmarks.mixed import report

    rows = [{"table": t, "players": 3, "seed": 7, "outcome": o, "cpu": [0.1, 0.1, 0.1],
             "seat_moves": [1, 1, 1]} for t, o in (("uct/uct", "win"), ("plausible/uct", "loss"))]
    (tmp_path / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    line = next(x for x in report([tmp_path]).splitlines() if "| plausible/uct |" in x)
    assert "| 0 / 1 | -100 pts [-100, " in line and "-100 pts [-100, -100]" not in line


def test_mixed_benchmark_has_a_second_partner_stream() -> None:
    """``plausible-s1`` is ``plausible`` with another seed: its departures are other draws."""
    from benchmarks.mixed import VARIANTS, parse_table
    from bots import make_bot

    assert parse_table("uct/plausible-s1") == ("uct", "plausible-s1")
    a, b = (make_bot(VARIANTS[v][0], **VARIANTS[v][1]) for v in ("plausible", "plausible-s1"))
    assert (a.seed, b.seed, a.rate) == (0, 1, b.rate)
    g = Game(Deal.from_seed(3, 3, TINY))
    moves = []
    while g.outcome() is None:
        obs = observe(g)
        moves.append((a.choose(obs), b.choose(obs)))
        g.push(moves[-1][0])
    assert any(x != y for x, y in moves)


def test_mixed_beliefs_reads_the_partner_model_of_seat_one(capsys) -> None:
    """``beliefs`` gives one row per policy type whose mean posteriors are chances, and refuses
    a seat 1 without a partner model in one line (exit 2)."""
    from benchmarks.mixed import beliefs, main
    from bots.partner_model import TYPES

    text = beliefs([3], [80001], "adhoc/plausible", iterations=20)
    rows = [x for x in text.splitlines() if x.startswith("| ") and "prior" not in x]
    assert [r.split("|")[1].strip() for r in rows] == [t.name for t in TYPES]
    for col in (3, 4):
        assert abs(sum(float(r.split("|")[col]) for r in rows) - 1) < 0.01
    assert main(["beliefs", "--table", "uct/plausible", "--seeds", "1-1"]) == 2
    assert "no partner model" in capsys.readouterr().err


def test_mixed_ratio_interval_is_paired_seeded_and_holds_the_ratio() -> None:
    """The bootstrap interval of ``k / kb``: the same rows give the same interval, which holds
    the ratio itself; a table that won exactly the base's deals gives [1, 1]; no base win, no
    interval."""
    from benchmarks.mixed import ratio_interval

    won = [(True, True)] * 6 + [(False, True)] * 10 + [(True, False)] * 2 + [(False, False)] * 2
    lo, hi = ratio_interval(won)
    assert (lo, hi) == ratio_interval(won) and lo < 8 / 16 < hi and hi < 1
    assert ratio_interval([(True, True), (False, False)]) == (1.0, 1.0)
    assert ratio_interval([(True, False), (False, False)]) is None
