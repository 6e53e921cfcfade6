"""``ascent simulate``: bots over many deals on the study runner (tiny games, one worker)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots.simulate import report
from model.records import Plan, replay
from tests.test_cli import assert_one_line_error, run


def test_simulate_greedy_json_records_and_resume(tmp_path: Path) -> None:
    db, rec = tmp_path / "sim.db", tmp_path / "records"
    args = ["simulate", "--bot", "greedy", "--players", "1-2", "--deals", "4", "--rules",
            "preset=tiny", "--workers", "1", "--db", str(db), "--json", "--quiet"]
    first = run(*args, "--records", str(rec))
    assert first.exit_code == 0, first.stderr
    data = json.loads(first.stdout)
    lines = {ln["players"]: ln for ln in data["players"]}
    assert set(lines) == {"1", "2", "all"}
    assert lines["all"]["games"] == 8 and lines["1"]["games"] == 4
    for ln in lines.values():
        lo, hi = ln["interval"]
        assert 0 <= lo <= ln["won"] / ln["games"] <= hi <= 1
        assert ln["open_games"] == ln["games"]
        assert abs(ln["price"] - (ln["open_won"] - ln["won"]) / ln["games"]) < 1e-9
    files = sorted(rec.glob("*.json"))
    assert len(files) == 8
    wins = 0
    for f in files:  # every record replays to the outcome it claims
        rec_data = json.loads(f.read_text())
        plan = Plan.from_json(rec_data)
        outcome = replay(plan.deal, plan.moves).outcome
        assert outcome == rec_data["bot"]["outcome"]
        wins += outcome == "win"
    assert wins == lines["all"]["won"]
    again = run(*args)  # resumes: everything is stored already, same answer
    assert again.exit_code == 0 and json.loads(again.stdout) == data


def test_simulate_cheat_has_no_price(tmp_path: Path) -> None:
    res = run("simulate", "--bot", "cheat", "--players", "1", "--seeds", "1-3", "--rules",
              "preset=tiny", "--workers", "1", "--db", str(tmp_path / "c.db"), "--json", "--quiet")
    assert res.exit_code == 0, res.stderr
    (ln,) = json.loads(res.stdout)["players"]
    assert ln["won"] == ln["open_won"] and ln["price"] == 0


def test_simulate_bad_input_is_one_line() -> None:
    assert_one_line_error(run("simulate", "--bot", "greedy", "--players", "7", "--deals", "2"),
                          2, "--players")
    assert_one_line_error(run("simulate", "--bot", "oracle", "--deals", "2"), 2, "oracle")
    assert_one_line_error(run("simulate", "--bot", "greedy", "--deals", "2", "--rules", "x=1"),
                          2, "unknown rule option")
    assert_one_line_error(run("simulate", "--bot", "greedy", "--deals", "2", "--time-limit", "nan"),
                          2, "--time-limit")


def test_report_pairs_deal_by_deal() -> None:
    rows = [
        {"players": 1, "outcome": "win", "open_verdict": "win", "slots": 10, "out_cards": 5, "seconds": 1.0},
        {"players": 1, "outcome": "loss", "open_verdict": "win", "slots": 7, "out_cards": 9, "seconds": 1.0},
        {"players": 1, "outcome": "loss", "open_verdict": "unknown", "slots": 5, "out_cards": 9, "seconds": 2.0},
        {"players": 1, "outcome": "loss", "open_verdict": "loss", "slots": 3, "out_cards": 9, "seconds": 2.0},
    ]
    (ln,) = report(rows, [1])
    assert (ln["games"], ln["won"], ln["open_won"], ln["open_unknown"]) == (4, 1, 2, 1)
    assert ln["price"] == 0.25 and ln["silent_share"] == 0.5
    assert ln["slots_at_loss"] == 5 and ln["out_at_win"] == 5 and ln["seconds_per_game"] == 1.5
    assert ln["price_interval"][0] < 0.25 < ln["price_interval"][1]
    # two deals, one lost silently: the interval stays within [-1, 1]
    (ln,) = report(rows[:2], [1])
    assert ln["price"] == 0.5 and -1.0 <= ln["price_interval"][0] < 0.5 < ln["price_interval"][1] <= 1.0


@pytest.mark.parametrize("outcomes", [
    [("win", "loss")],  # one deal: +100 points
    [("win", "win")] * 4,  # four deals alike: 0 points
    [("win", "loss")] * 3 + [("win", "win")],
])
def test_the_price_interval_has_width_on_small_runs(outcomes) -> None:
    """The paired differences of these runs have variance 0; a normal interval had zero width
    ("+100.0 pts [100.0, 100.0]"). Newcombe's paired interval does not, and holds the price."""
    rows = [{"players": 3, "outcome": bot, "open_verdict": opened, "slots": 9, "out_cards": 9,
             "seconds": 1.0} for opened, bot in outcomes]
    (ln,) = report(rows, [3])
    lo, hi = ln["price_interval"]
    assert -1.0 <= lo <= ln["price"] <= hi <= 1.0
    assert hi - lo > 0.2
    from bots.mistakes import paired_interval
    both = sum(o == b == "win" for o, b in outcomes)
    open_only = sum(o == "win" and b != "win" for o, b in outcomes)
    assert (lo, hi) == paired_interval(both, open_only, 0, len(outcomes) - both - open_only)


def test_the_price_interval_covers_at_its_level() -> None:
    """On simulated paired deals (open hand wins 0.95, the bot 0.8 of those, 10 deals a run),
    the interval holds the true price in at least 90 % of 400 runs (nominal 95 %)."""
    import random

    rng = random.Random(7)
    truth = 0.95 - 0.95 * 0.8
    held = 0
    for _ in range(400):
        rows = []
        for _ in range(10):
            opened = rng.random() < 0.95
            won = opened and rng.random() < 0.8
            rows.append({"players": 1, "outcome": "win" if won else "loss",
                         "open_verdict": "win" if opened else "loss", "slots": 1,
                         "out_cards": 1, "seconds": 0.0})
        (ln,) = report(rows, [1])
        held += ln["price_interval"][0] <= truth <= ln["price_interval"][1]
    assert held >= 360, held


def test_a_bad_records_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    """--records naming a file (or a folder under a file) is refused at once, one line, before
    a cluster starts (with --scheduler on a closed port the run itself would fail otherwise)."""
    afile = tmp_path / "notes.txt"
    afile.write_text("mine\n")
    base = ["simulate", "--bot", "greedy", "--players", "1", "--deals", "1", "--quiet",
            "--db", str(tmp_path / "s.db"), "--scheduler", "tcp://127.0.0.1:1"]
    assert_one_line_error(run(*base, "--records", str(afile)), 2, "not a folder")
    assert_one_line_error(run(*base, "--records", str(afile / "x")), 2, "cannot make the folder")
    assert afile.read_text() == "mine\n"
    assert not (tmp_path / "s.db").exists()


def test_records_are_never_written_over(tmp_path: Path, monkeypatch) -> None:
    """write_records links each file into place: a file that appears under the name between
    the check and the write keeps its content; the record goes to the next free name."""
    import os

    from bots import simulate as sim
    from model.deal import Deal
    from model.rules import RuleSet

    record = json.dumps(Plan(Deal.from_seed(1, 1, RuleSet.from_options(["preset=tiny"]))).to_json())
    row = {"bot": "greedy", "players": 1, "seed": 1, "record": record}
    real_link = os.link

    def racing_link(src, dst, *a, **k):  # someone creates the file just before the link
        if str(dst).endswith("seed1.json") and not Path(dst).exists():
            Path(dst).write_text("someone else's\n")
        return real_link(src, dst, *a, **k)

    monkeypatch.setattr(sim.os, "link", racing_link)
    assert sim.write_records([row], tmp_path) == (1, 0)
    assert (tmp_path / "greedy-p1-seed1.json").read_text() == "someone else's\n"
    assert json.loads((tmp_path / "greedy-p1-seed1-1.json").read_text())["deal"]["seed"] == 1
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    # a dangling symlink under the name is kept; the record goes to the next name once, and a
    # rerun finds it there (kept, not written again)
    monkeypatch.setattr(sim.os, "link", real_link)
    (tmp_path / "greedy-p1-seed2.json").symlink_to(tmp_path / "nowhere")
    row2 = {**row, "seed": 2}
    assert sim.write_records([row2], tmp_path) == (1, 0)
    assert sim.write_records([row2], tmp_path) == (0, 1)
    assert (tmp_path / "greedy-p1-seed2.json").is_symlink() and not (tmp_path / "nowhere").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if "seed2" in p.name) == [
        "greedy-p1-seed2-1.json", "greedy-p1-seed2.json"]


def test_proven_open_hand_verdicts_are_reused_across_bots(tmp_path: Path, monkeypatch) -> None:
    """A second bot on the same deals and database pairs with the verdicts the first proved,
    without solving them again; a task without a stored proof is solved; an unknown is
    never reused."""
    import sqlite3

    import solver
    from bots.simulate import TABLE, build_tasks, play_task, reuse_open_verdicts
    from model.rules import RuleSet

    db = tmp_path / "sim.db"
    args = ["--players", "1", "--seeds", "1-3", "--rules", "preset=tiny", "--workers", "1",
            "--db", str(db), "--json", "--quiet"]
    first = run("simulate", "--bot", "cheat", *args)
    assert first.exit_code == 0, first.stderr
    rules = RuleSet.from_options(["preset=tiny"])
    tasks = build_tasks("greedy", {}, [1], [1, 2, 3, 4], rules)
    con = sqlite3.connect(db)
    stored = {s: v for s, v in con.execute(f"SELECT seed, open_verdict FROM {TABLE}")}
    con.execute(f"UPDATE {TABLE} SET open_verdict = 'unknown' WHERE seed = 3")
    con.commit()
    con.close()
    assert reuse_open_verdicts(db, tasks) == 2  # seeds 1 and 2; seed 3 unknown, seed 4 absent
    assert [t.get("known_open_verdict") for t in tasks] == [stored[1], stored[2], None, None]

    def no_solve(*a, **k):
        raise AssertionError("a proven verdict was solved again")

    monkeypatch.setattr(solver, "solve", no_solve)
    assert play_task(tasks[0])["open_verdict"] == stored[1]
    monkeypatch.undo()
    assert play_task(tasks[3])["open_verdict"] in ("win", "loss", "unknown")
    # the command reuses them too, and its report pairs with them
    second = run("simulate", "--bot", "greedy", *args)
    assert second.exit_code == 0, second.stderr
    (ln,) = json.loads(second.stdout)["players"]
    assert ln["open_games"] == 3
    assert reuse_open_verdicts(tmp_path / "missing.db", tasks) == 0
    assert not (tmp_path / "missing.db").exists()
    (tmp_path / "text.db").write_text("not a database")
    assert reuse_open_verdicts(tmp_path / "text.db", tasks) == 0


def _report_lines() -> list[dict]:
    rows = [{"players": p, "outcome": o, "open_verdict": "win", "slots": 10 - k, "out_cards": 5 + k,
             "seconds": 1.25} for p in (1, 2, 3) for k, o in enumerate(["win", "loss", "loss", "win"])]
    return report(rows, [1, 2, 3])


@pytest.mark.parametrize("columns", [80, 100])
def test_the_table_fits_the_terminal_and_says_what_it_left_out(columns, capsys, monkeypatch) -> None:
    """At 80 or 100 columns no line of the table is wider than the terminal; the player
    counts, win rates and intervals stay, and a line names the columns left out. With room
    (200 columns, a pipe's width) every column is there and nothing is said to be left out."""
    from cli.simulate import COLUMN_ORDER, _print_table
    from model.rules import RuleSet

    monkeypatch.setenv("COLUMNS", str(columns))
    _print_table("greedy", _report_lines(), RuleSet.tiny())
    narrow = capsys.readouterr().out
    assert max(len(line) for line in narrow.splitlines()) <= columns, narrow
    for head in ("players", "games", "won", "win", "95% interval"):
        assert head in narrow
    assert "left out at" in narrow and "--json" in narrow
    assert "s/game" in narrow.split("left out at")[-2].splitlines()[-1]  # named in the note
    monkeypatch.setenv("COLUMNS", "200")
    _print_table("greedy", _report_lines(), RuleSet.tiny())
    wide = capsys.readouterr().out
    assert all(head in wide for head in COLUMN_ORDER) and "left out" not in wide
    assert max(len(line) for line in wide.splitlines()) > columns  # the full table is wider


@pytest.mark.parametrize("args,opt", [
    (["--bot", "best", "--worlds", "3"], "--worlds"),
    (["--bot", "uct", "--seconds", "1"], "--seconds"),
    (["--bot", "greedy", "--beliefs"], "--beliefs"),
    (["--bot", "determinized", "--iterations", "4"], "--iterations"),
    (["--bot", "greedy", "--candidates", "3"], "--candidates"),
])
def test_simulate_refuses_an_option_the_bot_does_not_take(args, opt):
    """``best`` names ``uct`` today: its old ``--worlds`` must not be silently dropped."""
    res = run("simulate", *args, "--players", "1", "--deals", "1", "--workers", "1",
              "--no-open-hand", "--rules", "preset=tiny", "--quiet")
    assert_one_line_error(res, 2, opt, "not an option")
