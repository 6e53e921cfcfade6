"""``ascent variants``: a typed-in deal on which R8's reading (bridge_replace_cost) decides the
verdict shows both answers and the move where the rulings part (checked with the rules
engine); the same from a mid-game position; every combination for a seed; bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from model.game import Game
from model.records import parse_deal_text
from solver import solve

# 1 player on a 2-row mountain: 2g onto the Bridge between 2r and 3r costs
# max(|2-2|, |2-3|) = 1 discard under R8 "max", and |2-2| = 0 under "left".
DEAL = """rules: preset=tiny rows=2 values=3 hand_size=2
P1: 1r 2r 1r 3r 2r B 3r 2g 3g 1g S 2g Cr 1g 3g Cg
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def variants_json(*args: str) -> dict:
    r = run("variants", *args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_bridge_replace_cost_decides_this_deal(tmp_path: Path) -> None:
    path = tmp_path / "deal.txt"
    path.write_text(DEAL)
    data = variants_json("--deal", str(path), "--vary", "bridge_replace_cost")
    rows = data["rows"]
    assert [r["options"] for r in rows] == [{"bridge_replace_cost": "max"},
                                            {"bridge_replace_cost": "left"}]
    deal = parse_deal_text(DEAL)
    want = [solve(deal, "none").verdict,
            solve(parse_deal_text(DEAL.replace("hand_size=2", "hand_size=2 bridge_replace_cost=left")), "none").verdict]
    assert [r["verdict"] for r in rows] == want == ["loss", "win"]
    assert rows[0]["base"] and not rows[0]["differs"] and rows[1]["differs"]
    (p,) = data["partings"]
    assert p["a"] == {"bridge_replace_cost": "left"} and p["line_move_only_under_a"]
    # the engine agrees: at the parting position the line's move is legal under "left" only
    pos = p["position"]
    from model.records import position_from_data

    g_left = position_from_data(pos)
    assert g_left.rules.bridge_replace_cost == "left"
    g_max = Game.from_parts(deal.rules, g_left.mountain, g_left.hands, g_left.decks,
                            g_left.to_move, g_left.out, g_left.turn)
    legal_left = {g_left.move_text(m) for m in g_left.legal_moves()}
    legal_max = {g_max.move_text(m) for m in g_max.legal_moves()}
    assert p["line_move"] in legal_left and p["line_move"] not in legal_max
    assert set(p["only_a"]) == legal_left - legal_max and set(p["only_b"]) == legal_max - legal_left
    assert "onto the Bridge" in p["line_move"]
    # and the terminal table marks the differing row and names the parting
    r = run("variants", "--deal", str(path), "--vary", "bridge_replace_cost")
    assert r.exit_code == 0, r.output
    assert "≠ base" in r.stdout and "Where bridge_replace_cost=left and bridge_replace_cost=max part" in r.stdout


def test_from_a_mid_game_position(tmp_path: Path) -> None:
    deal = parse_deal_text(DEAL)
    left = parse_deal_text(DEAL.replace("hand_size=2", "hand_size=2 bridge_replace_cost=left"))
    win = solve(left, "none")
    assert win.verdict == "win"
    game = Game(deal)  # the first two moves of the winning line are legal under both readings
    for mv in win.continuation[:2]:
        game.push(mv)
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"position": game.to_position()}))
    data = variants_json(str(pos), "--vary", "bridge_replace_cost=max,left")
    verdicts = [r["verdict"] for r in data["rows"]]
    assert verdicts == [solve(game, "none").verdict, solve(Game.from_parts(
        left.rules, game.mountain, game.hands, game.decks, game.to_move, game.out, game.turn),
        "none").verdict] == ["loss", "win"]
    assert data["partings"][0]["step"] is not None


def test_step_starts_after_the_first_k_moves_of_a_plan(tmp_path: Path) -> None:
    """``--step K``: the rows are those of the position after the plan's first K moves (the
    plan's later moves need not be legal: only the first K are replayed); K past the plan's
    end, --step with --seed or with a position: one-line errors, exit 2."""
    from model.records import Plan

    deal = parse_deal_text(DEAL)
    left = parse_deal_text(DEAL.replace("hand_size=2", "hand_size=2 bridge_replace_cost=left"))
    line = solve(left, "none").continuation  # wins under "left", illegal under "max" later
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(Plan(deal, list(line)).to_json()))
    game = Game(deal)
    for mv in line[:2]:
        game.push(mv)
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"position": game.to_position()}))
    after = variants_json(str(plan), "--step", "2", "--vary", "bridge_replace_cost=max,left")
    there = variants_json(str(pos), "--vary", "bridge_replace_cost=max,left")
    assert [r["verdict"] for r in after["rows"]] == [r["verdict"] for r in there["rows"]] \
        == ["loss", "win"]
    assert after["start"] == f"{plan}, after 2 moves"
    whole = run("variants", str(plan), "--vary", "bridge_replace_cost")
    assert whole.exit_code == 2 and "illegal" in whole.stderr, whole.output
    for args, needle in (([str(plan), "--step", str(len(line) + 1)], "--step must be from 0"),
                         (["--seed", "1", "--step", "1"], "--step applies to a PLAN"),
                         ([str(pos), "--step", "1"], "this is a position")):
        r = run("variants", *args)
        assert r.exit_code == 2, (args, r.output)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], lines


def test_every_ruling_combination_for_a_seed() -> None:
    data = variants_json("--seed", "11", "--rules", "preset=tiny", "--rules", "rows=2",
                         "--rules", "values=3", "--rules", "hand_size=2")
    rows = data["rows"]
    assert len(rows) == 16 and rows[0]["base"]
    assert data["varied"] == ["bridge_neighbour", "bridge_replace_cost", "campfire_move_cost", "dealing"]
    assert len({json.dumps(r["options"], sort_keys=True) for r in rows}) == 16
    assert any(r["differs"] for r in rows)
    for r in rows:
        assert r["differs"] == ((r["verdict"], r["value"]) != (rows[0]["verdict"], rows[0]["value"]))


@pytest.mark.parametrize("args, needle", [
    (["--seed", "1", "--vary", "colour"], "unknown ruling option 'colour'"),
    (["--seed", "1", "--vary", "dealing=sideways"], "unknown value 'sideways'"),
    (["--seed", "1", "--deal", "x.txt"], "exactly one of"),
    ([], "exactly one of"),
])
def test_bad_input_is_one_line_exit_2(args: list[str], needle: str) -> None:
    r = run("variants", *args)
    assert r.exit_code == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_dealing_cannot_vary_for_a_deal_file(tmp_path: Path) -> None:
    path = tmp_path / "deal.txt"
    path.write_text(DEAL)
    r = run("variants", "--deal", str(path), "--vary", "dealing")
    assert r.exit_code == 2 and "re-deal" in r.stderr
    r = run("variants", "--deal", str(path), "--players", "2")
    assert r.exit_code == 2 and "--players applies to --seed" in r.stderr


@pytest.mark.parametrize("args, needle", [
    (["--seed", "１"], "digits 0-9"),
    (["--seed", "1", "--players", "٢"], "--players"),
    (["--seed", "1", "--players", "9"], "--players"),
    (["--seed", "18446744073709551616"], "--seed"),
    (["--seed", "1", "--time-limit", "nan"], "--time-limit"),
    (["--seed", "1", "--time-limit", "-1"], "--time-limit"),
])
def test_options_use_the_shared_types(args: list[str], needle: str) -> None:
    r = run("variants", *args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ascent: error: ") and needle in lines[0], lines


def test_a_plan_with_an_illegal_move_is_refused(tmp_path: Path) -> None:
    """A move illegal under the plan's own rules is bad input (exit 2, one line naming the
    move and the ruling), not a table of rows that all say "error" with exit 0."""
    deal = parse_deal_text(DEAL)
    game = Game(deal)
    first = game.legal_moves()[0]
    from model.records import Plan

    good = Plan(deal, [first]).to_json()
    good["moves"].append(dict(good["moves"][0]))  # the same card again: not in the hand any more
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(good))
    r = run("variants", str(path), "--vary", "bridge_replace_cost", "--time-limit", "1")
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "move 2" in lines[0] and "illegal" in lines[0], lines


def test_a_plan_illegal_under_a_varied_ruling_is_an_error_row_naming_the_move(tmp_path: Path) -> None:
    from model.records import Plan

    left = parse_deal_text(DEAL.replace("hand_size=2", "hand_size=2 bridge_replace_cost=left"))
    line = list(solve(left, "none").continuation)  # pays 0 onto the Bridge: 1 under "max"
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(Plan(left, line).to_json()))
    data = variants_json(str(plan), "--vary", "bridge_replace_cost")
    base, other = data["rows"]
    assert base["options"] == {"bridge_replace_cost": "left"} and base["error"] is None
    assert other["error"].startswith("move ") and "of the plan" in other["error"] and other["differs"]
    assert data["partings"] == []
    r = run("variants", str(plan), "--vary", "bridge_replace_cost")
    assert r.exit_code == 0, r.output
    assert "cannot be set up under their rules" in r.stdout
    assert "Every rule set gives the base's answer" not in r.stdout


def test_only_proven_differences_are_differences() -> None:
    from model.rules import RuleSet
    from studies.variants import VariantRow, compare

    def row(verdict, value=None, bound=None, optimal=False, error=None):
        return VariantRow({}, RuleSet(), verdict=verdict, value=value, bound=bound,
                          optimal=optimal, error=error)

    assert compare(row("win"), row("loss"), "none") == (True, False)
    assert compare(row("win"), row("unknown"), "none") == (False, True)
    assert compare(row("win"), row("win"), "none") == (False, False)
    assert compare(row("win"), row("error", error="move 3: illegal"), "none") == (True, False)
    # waste: 27 found (bound 2) against 29 found (bound 3): the ranges overlap, unproven
    assert compare(row("win", 27, 2), row("win", 29, 3), "waste") == (False, True)
    # 5 proven against 7 found with bound 6: apart, proven
    assert compare(row("win", 5, 5, True), row("win", 7, 6), "waste") == (True, False)
    assert compare(row("win", 5, 5, True), row("win", 5, 5, True), "waste") == (False, False)
