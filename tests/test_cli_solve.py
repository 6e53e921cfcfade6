"""`ascent solve`: verdicts, plans that replay, JSON shape, determinism, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli.main import main
from model.deal import Deal
from model.records import Plan, replay
from model.rules import RuleSet
from tests.reference import reference_solve


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def test_solve_seed_prints_verdict_plan_and_mountain() -> None:
    res = run("solve", "--seed", "1")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith("win in "), lines[0]
    assert lines[1].startswith("T1 P1 "), lines[1]
    assert "Final mountain" in res.output and "peak" in res.output


def test_solve_json_plan_replays_to_a_win_with_its_value() -> None:
    # a node limit, not a time limit: the answer must not depend on the machine's load
    res = run("solve", "--seed", "2", "--players", "2", "--objective", "waste",
              "--time-limit", "none", "--node-limit", "20000", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert set(data) >= {"verdict", "plan", "objective", "bound", "best_progress", "stats"}
    assert {"nodes", "seconds", "table_entries"} <= set(data["stats"])
    assert data["verdict"] == "win"
    plan = Plan.from_json(data["plan"])
    rep = plan.replay()
    assert rep.error is None and rep.outcome == "win"
    assert data["objective"]["value"] == len(rep.game.out)
    assert data["bound"] is not None and data["bound"] <= data["objective"]["value"]


def test_output_file_holds_the_plan_and_is_never_overwritten(tmp_path) -> None:
    out = tmp_path / "plan.json"
    res = run("solve", "--seed", "3", "--record", str(out))
    assert res.exit_code == 0, res.output
    plan = Plan.from_json(json.loads(out.read_text()))
    assert plan.replay().outcome == "win"
    before = out.read_text()
    again = CliRunner().invoke(main, ["solve", "--seed", "4", "--record", str(out)])
    assert again.exit_code == 2
    assert "exists" in again.output
    assert out.read_text() == before


def _tiny_deals(n: int):
    rules = RuleSet.from_options({"preset": "tiny", "rows": 2, "values": 3, "hand_size": 2})
    return [Deal.from_seed(seed, 1 + seed % 2, rules) for seed in range(n)]


def test_tiny_verdicts_match_the_reference_through_the_cli(tmp_path) -> None:
    seen = set()
    for i, deal in enumerate(_tiny_deals(12)):
        f = tmp_path / f"d{i}.json"
        f.write_text(json.dumps(Plan(deal).to_json()))
        res = run("solve", "--deal", str(f), "--objective", "turns", "--json")
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        verdict, value = reference_solve(deal, "turns")
        assert data["verdict"] == verdict
        seen.add(verdict)
        if verdict == "win":
            assert data["objective"] == {"name": "turns", "value": value, "optimal": True}
        else:
            assert data["plan"] is None
            record = {**Plan(deal).to_json(), "moves": data["best_progress"]["moves"]}
            line = Plan.from_json(record).moves
            rep = replay(deal, line)
            assert rep.error is None
            assert rep.game.filled_slots() == data["best_progress"]["slots"]
    assert seen == {"win", "loss"}, "the sample should hold wins and losses"


def test_node_limit_gives_unknown_not_a_guess() -> None:
    res = run("solve", "--seed", "5", "--players", "3", "--node-limit", "1", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["verdict"] == "unknown"
    assert data["plan"] is None


@pytest.mark.slow
def test_json_is_byte_identical_across_hash_seeds() -> None:
    outs = set()
    for hs in ("0", "1", "977"):
        env = {**os.environ, "PYTHONHASHSEED": hs}
        p = subprocess.run(
            [sys.executable, "-m", "cli.main", "solve", "--seed", "6", "--players", "2",
             "--json", "--no-timing"],
            capture_output=True, text=True, env=env, timeout=120,
        )
        assert p.returncode == 0, p.stderr
        outs.add(p.stdout)
    assert len(outs) == 1


@pytest.mark.parametrize("args, needle", [
    ([], "exactly one of"),
    (["--seed", "1", "--deal", "x.txt"], "exactly one of"),
    (["--deal", "no-such-file.json"], "no such file"),
    (["--seed", "1", "--players", "6"], "players"),
    (["--seed", "-3"], "seed"),
    (["--seed", "1", "--rules", "colour=x"], "unknown rule option"),
    (["--seed", "1", "--objective", "speed"], "speed"),
    (["--seed", "1", "--time-limit", "0"], "time-limit"),
    (["--seed", "1", "--time-limit", "nan"], "time-limit"),
    (["--seed", "1", "--record", ""], "--record"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], needle: str) -> None:
    p = subprocess.run([sys.executable, "-m", "cli.main", "solve", *args],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    assert needle in p.stderr
    errors = [ln for ln in p.stderr.splitlines() if "error" in ln.lower()]
    assert len(errors) == 1, p.stderr


def test_a_position_file_is_solved_from_that_position(tmp_path) -> None:
    # a position is solved from where it stands, given as
    # POSITION or with --deal; its answer reads back as a record that starts there
    from model.game import Game

    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"position": Game(Deal.from_seed(1)).to_position()}))
    for args in ((str(pos),), ("--deal", str(pos))):
        res = run("solve", *args, "--json")
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        assert data["verdict"] == "win" and data["objective"]["counted_from"] == "position"
        plan = Plan.from_json(data["plan"])
        assert plan.deal is None and plan.position is not None
        assert plan.replay().outcome == "win"
        assert [m.to_json() for m in plan.moves] == data["continuation"]


def test_json_answer_is_read_back_by_replay_and_show(tmp_path) -> None:
    ans = tmp_path / "answer.json"
    res = run("solve", "--seed", "8", "--players", "2", "--json")
    assert res.exit_code == 0
    ans.write_text(res.output)
    rep = run("replay", str(ans))
    assert rep.exit_code == 0 and "win in" in rep.output
    # without a win the answer is read as its furthest line
    stopped = run("solve", "--seed", "8", "--players", "2", "--node-limit", "3", "--json")
    ans.unlink()
    ans.write_text(stopped.output)
    data = json.loads(stopped.output)
    shown = run("show", str(ans))
    assert shown.exit_code == 0
    assert f"mountain: {data['best_progress']['slots']} of 45 slots filled" in shown.output


def test_output_folder_is_checked_before_solving(tmp_path) -> None:
    res = run("solve", "--seed", "1", "--objective", "waste", "--time-limit", "30",
              "--record", str(tmp_path / "missing" / "plan.json"))
    assert res.exit_code == 2
    assert "does not exist" in res.output
    assert "nodes" not in res.output  # refused before any search


def test_options_a_deal_file_overrides_are_refused(tmp_path) -> None:
    deal = tmp_path / "d.txt"
    deal.write_text(run("deal", "--seed", "2", "--rules", "preset=tiny").output)
    res = run("solve", "--deal", str(deal), "--rules", "bridge_replace_cost=left")
    assert res.exit_code == 2 and "rules" in res.output
    res = run("solve", "--deal", str(deal), "--players", "3")
    assert res.exit_code == 2 and "--players" in res.output
    assert run("solve", "--deal", str(deal)).exit_code == 0


def test_output_record_of_a_loss_replays_its_furthest_line(tmp_path) -> None:
    rules = ["--rules", "values=1", "--rules", "bridges=0", "--rules", "summits=1",
             "--rules", "colours=2", "--rules", "copies=1", "--rules", "campfires=0"]
    rec = tmp_path / "loss.json"
    res = run("solve", "--seed", "1", "--players", "5", *rules, "--record", str(rec))
    assert res.exit_code == 0 and res.output.startswith("loss")
    assert "furthest the deal can be taken: 2 slots" in res.output
    rep = run("replay", str(rec))
    assert rep.exit_code == 0
    assert "2 of 45 slots filled" in rep.output


def test_cpsat_calls_a_deal_whose_values_cannot_reach_the_top_a_loss() -> None:
    res = run("solve", "--seed", "1", "--rules", "preset=tiny", "--rules", "values=2",
              "--solver", "cpsat", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["verdict"] == "loss"
    dfs = json.loads(run("solve", "--seed", "1", "--rules", "preset=tiny", "--rules",
                         "values=2", "--json").output)
    assert dfs["verdict"] == "loss"


@pytest.mark.slow
def test_a_closed_pipe_exits_141_not_1() -> None:
    for args in (["solve", "--seed", "1"], ["solve", "--seed", "1", "--json"], ["deal", "--seed", "1"]):
        p = subprocess.run(f"{sys.executable} -m cli.main {' '.join(args)} | true",
                           shell=True, capture_output=True, text=True, timeout=60,
                           executable="/bin/bash")
        code = subprocess.run(
            f"{sys.executable} -m cli.main {' '.join(args)} | true; echo ${{PIPESTATUS[0]}}",
            shell=True, capture_output=True, text=True, timeout=60, executable="/bin/bash")
        assert code.stdout.strip().splitlines()[-1] in ("0", "141"), (args, code.stdout)
        assert "Traceback" not in p.stderr
