"""Proofs of loss from mid-game positions are sound, and say why in words.

A proven loss that is a win is the worst bug this project can have, so every bound, every
reason and the CP-SAT loss model are checked against the naive reference
(:mod:`tests.reference`) from random mid-game positions of tiny games (hypothesis, 1–3
players, every ruling option), and the loss model also on 4–5-player tiny games against the
exhaustive DFS:

* the waste still to spend, bounded from below (:meth:`Bounds.waste_lower_bound`, the
  Bridges' least replacement costs, the solo draw down to what the win needs), never
  exceeds the least waste the reference finds from a won position, and the bounds never
  cut a won root (``bound_fails``);
* :func:`solver.reasons.static_reason` gives no reason for a won position;
* the new switches (``budget``, ``bridge_costs``, ``loss_model``) change no verdict;
* the loss model is never infeasible for a won position, and what it decodes replays as a
  win;
* ``analyse`` and ``solve`` give the reason of a proven loss (JSON and text).
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import main as cli
from model.deal import Deal
from model.game import Game
from model.records import Plan, dumps, replay
from model.rules import RuleSet
from solver import solve
from solver.analysis import analyse
from solver.bounds import Bounds
from solver.cpsat_loss import GROUPS, INFEASIBLE, solve_loss_model
from solver.reasons import LossReason, relaxation_reason, search_reason, static_reason
from solver.state import INF
from tests.reference import first_losing_move, reference_solve
from tests.strategies import examples, random_position, tiny_games

SOUND = settings(max_examples=examples(80), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
STATIC_KINDS = {"summit", "cards", "turns", "height", "bridges", "deck", "windows"}


def _bounds(game: Game) -> Bounds:
    b = Bounds(game, "none")
    b.pruned = {"summit": 0, "height": 0, "cards": 0, "objective": 0, "spare": 0}
    return b


@SOUND
@given(deal=tiny_games(), steps=st.integers(0, 9), seed=st.integers(0, 2**16))
def test_waste_bounds_and_reasons_never_claim_a_won_position_lost(deal: Deal, steps: int,
                                                                  seed: int) -> None:
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    verdict, least = reference_solve(game, "waste")
    b = _bounds(game)
    reason = static_reason(game)
    where = (deal.seed, deal.players, deal.rules.to_dict(), steps, seed)
    if verdict == "win":
        assert least is not None
        assert reason is None, (reason, where)
        assert not b.bound_fails(INF), where
        assert b.waste_lower_bound() <= least, (b.waste_lower_bound(), least, where)
        costs = b.bridge_costs() if b.n_bridges else 0
        assert b.n_bridges + costs <= least, (b.n_bridges, costs, least, where)
        if b.P == 1:
            k, _ = b.solo_prefix()
            assert k < INF
        spare = b.n_remaining - (b._slots_total - b.filled)
        assert least <= spare  # the identity the budget cut rests on
    elif reason is not None:
        assert reason.kind in STATIC_KINDS and reason.text.endswith("."), reason
        assert isinstance(reason.specific, bool)


@SOUND
@given(deal=tiny_games(), steps=st.integers(0, 8), seed=st.integers(0, 2**16))
def test_the_new_switches_change_no_verdict_from_mid_game(deal: Deal, steps: int,
                                                          seed: int) -> None:
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    want, _ = reference_solve(game, "none")
    where = (deal.seed, deal.players, deal.rules.to_dict(), steps, seed)
    for variant in ({}, {"budget": False}, {"bridge_costs": False},
                    {"budget": False, "bridge_costs": False, "core": False}):
        res = solve(game, "none", **variant)
        assert res.verdict == want, (variant, res.verdict, want, where)
        if res.verdict == "win":
            assert res.plan is not None and res.plan.replay().outcome == "win"
        else:
            assert isinstance(res.reason, LossReason) and res.reason.text


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deal=tiny_games(), steps=st.integers(1, 8), seed=st.integers(0, 2**16))
def test_the_loss_model_is_never_infeasible_from_a_won_mid_game_position(deal: Deal, steps: int,
                                                                         seed: int) -> None:
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    verdict, _ = reference_solve(game, "none")
    status, moves, stats = solve_loss_model(game, 30)
    where = (deal.seed, deal.players, deal.rules.to_dict(), steps, seed)
    if verdict == "win":
        assert status != INFEASIBLE, where
    else:
        assert moves is None, where
    if moves is not None:
        end = game.copy()
        for mv in moves:
            end.push(mv)
        assert end.is_won(), where
    if status == INFEASIBLE:
        assert set(stats["groups"]) <= set(GROUPS), stats["groups"]
        assert relaxation_reason(stats["groups"]).text.endswith(".")


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5])
def test_the_loss_model_agrees_with_the_dfs_for_four_and_five_players(players: int) -> None:
    rules = RuleSet.from_options(["preset=tiny", "rows=3", "values=3", "copies=3"])
    rng = random.Random(players)
    decided = infeasible = 0
    for _ in range(12):
        deal = Deal.from_seed(rng.randint(0, 2**32), players, rules)
        game = random_position(deal, rng, rng.randint(0, 6))
        if game.is_over():
            continue
        ref = solve(game, "none", loss_model=False)
        assert ref.verdict in ("win", "loss")
        status, moves, _ = solve_loss_model(game, 30)
        if ref.verdict == "win":
            assert status != INFEASIBLE
        if status == INFEASIBLE:
            infeasible += 1
        if moves is not None:
            end = game.copy()
            for mv in moves:
                end.push(mv)
            assert end.is_won()
        decided += status == INFEASIBLE or moves is not None
    assert decided >= 4


def _lost_tiny_game() -> tuple[Deal, list]:
    """A tiny solo deal that is winnable, played to a loss at random (seeded)."""
    rules = RuleSet.from_options(["preset=tiny"])
    for seed in range(200):
        deal = Deal.from_seed(seed, 1, rules)
        if reference_solve(deal, "none")[0] != "win":
            continue
        rng = random.Random(seed)
        game = Game(deal)
        while not game.is_over():
            game.push(rng.choice(game.legal_moves()))
        if not game.is_won():
            return deal, list(game.move_stack)
    raise AssertionError("no lost tiny game in seeds 0-199")


def test_analyse_names_the_reference_losing_move_and_says_why() -> None:
    deal, moves = _lost_tiny_game()
    a = analyse(deal, moves, "none", None)
    assert a.losing_move == first_losing_move(deal, moves)
    k = a.first_proven_loss
    assert k is not None and a.reason is not None and a.reason.text
    assert a.positions[k].reason == a.reason
    assert a.positions[k].proof in ("bound", "search", "loss-model")
    for p in a.positions:
        assert (p.proof is None) == (p.verdict == "unknown")
        if p.derived:
            assert p.proof == "derived"
    data = json.loads(dumps(a.to_json()))
    assert data["reason"] == {"kind": a.reason.kind, "text": a.reason.text,
                              "specific": a.reason.specific}
    assert data["positions"][k]["proof"] == a.positions[k].proof


def test_analyse_and_solve_print_the_reason(tmp_path) -> None:
    deal, moves = _lost_tiny_game()
    path = tmp_path / "lost.json"
    path.write_text(dumps(Plan(deal, moves).to_json()))
    out = CliRunner().invoke(cli, ["analyse", str(path), "--time-per-move", "5"])
    assert out.exit_code == 0, out.output
    a = analyse(deal, moves, "none", None)
    assert f"Why the position after move {a.first_proven_loss} cannot be won" in out.output
    lost = replay(deal, moves[:a.first_proven_loss]).game
    pos = tmp_path / "pos.json"
    pos.write_text(dumps(Plan(deal, moves[:a.first_proven_loss]).to_json()))
    res = solve(lost, "none")
    assert res.verdict == "loss" and res.reason is not None
    out = CliRunner().invoke(cli, ["solve", str(pos)])
    assert out.exit_code == 0, out.output
    assert "Why: " in out.output
    data = json.loads(CliRunner().invoke(cli, ["solve", str(pos), "--json"]).output)
    assert data["reason"]["text"] == res.reason.text


def test_static_reasons_name_what_runs_out() -> None:
    """Random play of small standard-like games meets each kind of static reason, and each
    text names numbers that the position shows."""
    rules = RuleSet.from_options(["rows=4", "values=5", "colours=3", "copies=2",
                                  "campfires=1", "bridges=2", "summits=2", "hand_size=3"])
    seen: dict[str, LossReason] = {}
    rng = random.Random(5)
    for _ in range(300):
        deal = Deal.from_seed(rng.randint(0, 2**32), rng.choice([1, 1, 2, 3]), rules)
        game = Game(deal)
        while not game.is_over():
            r = static_reason(game)
            if r is not None:
                seen.setdefault(r.kind, r)
                break
            game.push(rng.choice(game.legal_moves()))
    assert {"summit", "cards", "height", "bridges"} <= set(seen), sorted(seen)
    assert seen["summit"].specific and "Summit" in seen["summit"].text
    assert "Bridge" in seen["bridges"].text


def test_search_and_relaxation_reasons_are_sentences() -> None:
    deal, moves = _lost_tiny_game()
    a = analyse(deal, moves, "none", None)
    assert a.first_proven_loss is not None
    lost = replay(deal, moves[:a.first_proven_loss]).game
    r = search_reason(lost, {"pruned": {"cards": 3, "height": 1}, "nodes": 10})
    assert r.kind == "search" and r.text.endswith(".")
    text = relaxation_reason(["order", "hand"]).text
    assert text.startswith("No schedule") and " and " in text


@pytest.mark.slow
def test_the_losing_move_benchmark_runs_resumes_and_reports(tmp_path) -> None:
    from benchmarks.losing_move import main as bench

    out = tmp_path / "lm"
    args = ["--players", "1,2", "--greedy", "1", "--random", "1", "--rules", "preset=tiny",
            "--time-per-move", "2", "--waste-check", "--reprove", "1", "--reprove-seconds", "30",
            "--out", str(out)]
    assert bench(args) == 0
    rows = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(r["kind"] for r in rows) == ["greedy", "greedy", "random", "random"]
    for r in rows:
        assert len(r["verdicts"]) == r["moves"] + 1 and r["verdicts"][-1] == "l"
        if r["losing_move"] is not None:
            assert r["verdicts"][r["losing_move"] - 1] == "w" and r["window"] == 0
    text = (out / "report.md").read_text()
    assert "losing move named" in text and "## Reasons of the first proven loss" in text
    again = [json.loads(x) for x in (out / "reprove.jsonl").read_text().splitlines()]
    assert all(r["verdict"] == "loss" for r in again)
    assert bench(args) == 0  # resumed: nothing is solved twice, nothing is lost
    again = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert [r["key"] for r in again] == [r["key"] for r in rows]


def test_hint_on_a_lost_position_says_why(tmp_path) -> None:
    from solver.analysis import hint

    deal, moves = _lost_tiny_game()
    a = analyse(deal, moves, "none", None)
    assert a.first_proven_loss is not None
    lost = replay(deal, moves[:a.first_proven_loss]).game
    h = hint(lost, "none", None)
    assert h.verdict == "loss" and h.reason is not None and h.reason.text
    assert h.to_json()["reason"]["text"] == h.reason.text
    pos = tmp_path / "pos.json"
    pos.write_text(dumps(Plan(deal, moves[:a.first_proven_loss]).to_json()))
    out = CliRunner().invoke(cli, ["hint", str(pos)])
    assert out.exit_code == 0, out.output
    assert "Why: " + h.reason.text.split()[0] in out.output
