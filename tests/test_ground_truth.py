"""The reference answers of benchmarks/results/ground-truth/ (the proven waste optima of
ladder deals): every plan replays under model/ to a win with the stated waste, on the
stated deal; and the ground-truth script's deepening and resumption on a small deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import frontier, ground_truth
from model.game import WIN
from model.records import Plan
from solver import solve

ANSWERS = sorted((Path(__file__).parent.parent / "benchmarks/results/ground-truth").glob("*.json"))


@pytest.mark.parametrize("path", ANSWERS, ids=[p.name for p in ANSWERS])
def test_reference_answer_replays(path: Path) -> None:
    rec = json.loads(path.read_text())
    _, _, deal = ground_truth.deal_of(rec["name"])
    assert rec["bound"] >= 0
    if rec["best"] is None:
        assert not rec["optimal"]
        return
    plan = Plan.from_json(rec["best"]["plan"])
    assert plan.deal is not None and plan.deal.decks == deal.decks
    assert plan.rules == deal.rules
    r = plan.replay()
    assert r.error is None and r.outcome == WIN
    assert len(r.game.out) == rec["best"]["value"]
    assert rec["bound"] <= rec["best"]["value"]
    assert rec["optimal"] == (rec["bound"] == rec["best"]["value"])


def test_answers_are_committed() -> None:
    assert len(ANSWERS) >= 1


def test_deepening_resumes_to_the_optimum(tmp_path: Path, monkeypatch) -> None:
    """A step cut by its node limit is stored as ``limit``; the run resumed with a larger
    limit proves the optimum that the solver's own schedule proves."""
    monkeypatch.setattr(frontier, "_cpu_limits", lambda: None)  # keep this process's clocks
    state = tmp_path / "state.json"
    args = ["run", "--state", str(state), "--deals", "1:302", "--today-cpu", "0",
            "--table-entries", "100000"]
    assert ground_truth.main(args + ["--step-nodes", "500"]) == 0
    d = json.loads(state.read_text())["deals"]["1:302"]
    assert d["steps"][-1]["result"] == "limit" and not d["optimal"]
    assert ground_truth.main(args + ["--step-nodes", "10000000"]) == 0
    d = json.loads(state.read_text())["deals"]["1:302"]
    _, _, deal = ground_truth.deal_of("1:302")
    ref = solve(deal, "waste", node_limit=10_000_000)
    assert ref.optimal
    assert d["optimal"] and d["best"]["value"] == d["bound"] == ref.value
    results = [s["result"] for s in d["steps"]]
    assert results.count("limit") == 1  # the first run's last step, retried by the second
    after = results[results.index("limit") + 1:]
    assert after[-1] == "win" and set(after[:-1]) <= {"no-win"}
    assert ref.value is not None
    no_win = [s["budget"] for s in d["steps"] if s["result"] == "no-win"]
    assert no_win == list(range(d["steps"][0]["budget"], ref.value))
    r = Plan.from_json(d["best"]["plan"]).replay()
    assert r.outcome == WIN and len(r.game.out) == ref.value
    ground_truth.export(json.loads(state.read_text()), tmp_path / "out")
    assert json.loads((tmp_path / "out" / "rung1-seed302.json").read_text())["optimal"]


def test_bad_deal_is_refused(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        ground_truth.main(["run", "--state", "x.json", "--deals", "9:1"])
    assert exc.value.code == 2
    assert "rung 9 out of range" in capsys.readouterr().err
