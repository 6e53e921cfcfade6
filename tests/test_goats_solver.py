"""Solving with the Goats module: :mod:`solver.generic` against the naive
reference (:mod:`tests.reference`) on tiny games with goats on, the routing of ``goats=on``
(``solver.solve``, ``ascent solve``, CP-SAT's refusal), and ``goats=off`` changing no answer.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from model.deal import Deal
from model.game import Game
from model.records import replay
from model.rules import GOAT_CHOICES, RuleSet
from solver import solve
from solver.cpsat import UnsupportedRuleError, check_rules
from solver.generic import solve as generic_solve
from tests import reference
from tests.strategies import random_tiny_game

ROOT = Path(__file__).resolve().parent.parent


class _TooBig(Exception):
    pass


def capped_reference(deal: Deal, objective: str, cap: int = 5_000) -> tuple[str, int | None]:
    """:func:`tests.reference.reference_solve`, given up (``_TooBig``) past ``cap`` nodes:
    the same plain search, so that the test only keeps deals it decides quickly."""
    count = 0
    game = Game(deal)

    def best() -> int | None:
        nonlocal count
        count += 1
        if count > cap:
            raise _TooBig
        result = game.outcome()
        if result == "win":
            return reference._value(game, objective)
        if result == "loss":
            return None
        found = None
        for move in game.legal_moves():
            game.push(move)
            sub = best()
            game.pop()
            if sub is not None and (found is None or sub < found):
                found = sub
                if objective == "none":
                    break
        return found

    value = best()
    if value is None:
        return "loss", None
    return "win", (None if objective == "none" else value)


def goat_deals(n: int, seed: int) -> list[Deal]:
    """``n`` tiny deals (as :func:`tests.strategies.random_tiny_game`) with goats on and
    every goat option drawn at random."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        d = random_tiny_game(rng)
        opts = {k: rng.choice(v) for k, v in GOAT_CHOICES.items()}
        opts["goats"] = "on"
        rules = RuleSet.from_options({**d.rules.to_dict(), **opts})
        out.append(Deal.from_seed(d.seed, d.players, rules))
    return out


@pytest.mark.parametrize("objective", ["none", "waste", "turns"])
def test_generic_agrees_with_the_reference_with_goats(objective: str) -> None:
    """Same verdict and optimum as the reference on tiny deals with goats; every win replays
    to a win with the value claimed; the lift of the base game's win (``none``) and the
    plain search agree."""
    compared = wins = 0
    for deal in goat_deals(40, {"none": 1, "waste": 2, "turns": 3}[objective]):
        try:
            expected = capped_reference(deal, objective)
        except _TooBig:
            continue
        compared += 1
        for lift in (True, False) if objective == "none" else (True,):
            res = generic_solve(deal, objective, lift=lift)
            assert (res.verdict, res.value) == expected, (deal.seed, deal.rules.to_dict(), lift)
            assert res.solver == "generic"
            if res.verdict == "win":
                game = replay(deal, res.plan.moves).game
                assert game.outcome() == "win"
                if objective == "waste":
                    assert len(game.out) == res.value
                if objective == "turns":
                    assert len(res.plan.moves) == res.value
                assert res.optimal == (objective != "none")
        wins += expected[0] == "win"
    assert compared >= 20 and 0 < wins < compared, (compared, wins)


def test_generic_agrees_with_the_dfs_without_goats() -> None:
    """The generic search is exact for the base game too: on tiny deals with goats off it
    gives the compact DFS's verdict and optimum."""
    rng = random.Random(8)
    for _ in range(25):
        deal = random_tiny_game(rng)
        for objective in ("none", "waste"):
            a = generic_solve(deal, objective)
            b = solve(deal, objective)
            assert (a.verdict, a.value) == (b.verdict, b.value)


def test_goats_off_changes_no_answer() -> None:
    """``goats=off`` with every other goat option changed gives the same answers and plans
    as the base rules, through the routing of ``solver.solve`` (the compact DFS answers)."""
    rng = random.Random(21)
    odd = {k: v[1] for k, v in GOAT_CHOICES.items() if k != "goats"}
    deals = [random_tiny_game(rng) for _ in range(15)]
    deals += [Deal.from_seed(s, p, RuleSet.standard()) for s, p in ((1, 1), (2, 3))]
    for deal in deals:
        twin = Deal.from_seed(deal.seed, deal.players,
                              RuleSet.from_options({**deal.rules.to_dict(), **odd}))
        assert twin.rules != deal.rules and twin.decks == deal.decks
        for objective in ("none", "turns") if deal.rules.rows < 8 else ("none",):
            a = solve(deal, objective, node_limit=1_000_000)
            b = solve(twin, objective, node_limit=1_000_000)
            assert a.solver == b.solver == "dfs"
            assert (a.verdict, a.value) == (b.verdict, b.value)
            if a.plan is not None:
                assert a.plan.moves == b.plan.moves


def test_routing_and_cpsat_refusal() -> None:
    """``solver.solve`` sends goats=on to the generic search; CP-SAT refuses it in one
    line; the portfolio falls back to the generic search."""
    from solver.portfolio import solve_portfolio

    deal = Deal.from_seed(4, 2, RuleSet.from_options(["preset=tiny", "goats=on"]))
    res = solve(deal, "none", node_limit=1_000_000)
    assert res.solver == "generic" and res.verdict in ("win", "loss")
    with pytest.raises(UnsupportedRuleError) as exc:
        check_rules(deal)
    assert "goats=on" in str(exc.value) and "\n" not in str(exc.value)
    assert solve_portfolio(deal, "none").verdict == res.verdict


def test_free_goat_moves_keep_the_base_loss() -> None:
    """``goat_turn=free``: a proven loss of the base game is a loss with goats (the lift's
    transfer), and the plain search agrees."""
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        base = random_tiny_game(rng)
        if solve(base).verdict != "loss":
            continue
        rules = RuleSet.from_options({**base.rules.to_dict(), "goats": "on", "goat_turn": "free"})
        deal = Deal.from_seed(base.seed, base.players, rules)
        lifted = generic_solve(deal)
        assert lifted.verdict == "loss" and "loss_by" in lifted.stats
        assert generic_solve(deal, lift=False).verdict == "loss"
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True,
                          text=True, cwd=ROOT, input=stdin, timeout=300)


@pytest.mark.slow
def test_cli_solve_replay_show_legal_with_goats(tmp_path: Path) -> None:
    """``ascent solve --rules goats=on`` answers with a plan that ``ascent replay`` accepts;
    ``--solver cpsat`` is a one-line error; ``show`` and ``legal`` show the goats."""
    args = ["--seed", "2", "--players", "2", "--rules", "preset=tiny", "--rules", "goats=on",
            "--rules", "goat_cards=highest"]
    r = run("solve", *args, "--json", "--record", str(tmp_path / "plan.json"))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["solver"] == "generic" and data["rules"]["goats"] == "on"
    assert data["verdict"] in ("win", "loss")
    r = run("replay", str(tmp_path / "plan.json"))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run("solve", *args, "--solver", "cpsat")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("ascent: error: --solver cpsat:") and "goats=on" in r.stderr
    pos = {"position": {"rules": {"preset": "tiny", "goats": "on"}, "to_move": 1,
                        "mountain": [["1r", "2g", "1r", "2g"], ["3r", "4g"]],
                        "hands": [["4r", "3g", "S"], ["4g", "B", "Cr"]],
                        "decks": [["2r", "4r"], ["3g", "Cg", "3r"]],
                        "goats": [[2, 1], [1, 3]]}}
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos))
    r = run("show", str(path))
    assert r.returncode == 0 and "3r*" in r.stdout and "1r*" in r.stdout
    assert "Goats: 2 on the mountain, 0 at the top (row 3)" in r.stdout
    r = run("legal", str(path), "--json")
    data = json.loads(r.stdout)
    assert data["goat_moves"] == [{"player": 1, "kind": "goat", "row": 1, "slot": 3,
                                   "to_row": 2, "to_slot": 2, "discard": []}]
    r = run("legal", str(path), "--explain", "goat")
    assert r.returncode == 0
    assert "row 1 slot 3 (1r) → row 2 slot 2 (4g)  legal" in r.stdout
    assert "G2: row 2 slot 3 holds no card" in r.stdout
    r = run("legal", "--seed", "1", "--rules", "preset=tiny", "--json")
    assert "goat_moves" not in json.loads(r.stdout)


def test_goats_benchmark_smoke(tmp_path: Path) -> None:
    """``benchmarks/goats.py`` on one solo deal and two readings: rows whose wins replay,
    the Markdown tables, and ``--paired`` from the rows; an existing output is kept."""
    from benchmarks import goats

    out = tmp_path / "run"
    args = ["--players", "1", "--deals", "1", "--readings", "default,goat_cards=highest",
            "--time-limit", "20", "--out", str(out), "--quiet"]
    assert goats.main(args) == 0
    rows = [json.loads(x) for x in (out / "goats.jsonl").read_text().splitlines()]
    assert [r["reading"] for r in rows] == ["default", "goat_cards=highest"]
    assert all(r["verdict"] == "win" and r["players"] == 1 and r["seed"] == 1 for r in rows)
    assert rows[1]["goats"] >= 1 and rows[1]["goat_moves"] >= 1
    md = (out / "goats.md").read_text()
    assert "| default | 1 | 1 | 1 | 0 | 0 | 100.0% |" in md and "Paired" in md
    assert goats.main(args) == 2  # never over an existing run without --resume
    assert goats.main([*args, "--resume"]) == 0
    assert len((out / "goats.jsonl").read_text().splitlines()) == 2
