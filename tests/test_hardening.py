"""The command line under bad input, large input, full disks and signals.

Bad input exits 2 with one line; inputs of any size; answers never lost, files whole or not
at all; SIGINT/SIGTERM through one path; records from other programs; messages. Things that
need a real process (closed descriptors, /dev/full, signals, ulimit) run ``ascent`` in a
subprocess; the rest runs in-process with click's CliRunner. No timing assertions.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from model.deal import Deal
from model.records import MAX_INPUT_BYTES, Plan, dumps
from model.rules import RuleSet
from tests import signalling

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
ENV.pop("ASCENT_DEBUG", None)
ASCENT = [sys.executable, "-m", "cli.entry"]
SHELL_ASCENT = f"{sys.executable} -m cli.entry"


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def sh(script: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run a shell script where ``ascent`` is this checkout's command line."""
    return subprocess.run(["bash", "-c", f"ascent() {{ {SHELL_ASCENT} \"$@\"; }}\n{script}"],
                          cwd=cwd or ROOT, env=ENV, capture_output=True, text=True,
                          timeout=timeout)


def one_line_error(stderr: str, *needles: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("ascent: error: "), stderr
    assert "Traceback" not in stderr and len(lines[0]) <= 420
    for n in needles:
        assert n in lines[0], (n, lines[0])


def check(result, code: int, *needles: str) -> None:
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    one_line_error(result.stderr, *needles)


# ---- bad input: exit 2 and one line, never 70 ------------------------------------------

@pytest.mark.parametrize("cmd", [["replay", "-"], ["show", "-"], ["legal", "-"],
                                 ["solve", "--deal", "-"]])
def test_an_answer_without_its_deal_is_bad_input(cmd):
    check(run(*cmd, input='{"verdict":"win","best_progress":{}}'), 2, "deal")


@pytest.mark.parametrize("record, where", [
    ({"deal": {"decks": [["1r"], ["1r", "zz"]]}, "moves": []}, "deal.decks, deck 2: bad card 'zz'"),
    ({"deal": {"decks": [["1r"], "1r"]}, "moves": []}, "deal.decks, deck 2 must be a list"),
    ({"position": {"mountain": [["1r"], ["zz"]], "hands": [[]], "decks": [[]]}, "moves": []},
     "mountain, row 2: bad card 'zz'"),
    ({"position": {"mountain": [], "hands": [[], ["zz"]], "decks": [[], []]}, "moves": []},
     "hands, P2's hand: bad card 'zz'"),
    ({"position": {"mountain": [], "hands": [[]], "decks": [["zz"]]}, "moves": []},
     "decks, P1's deck: bad card 'zz'"),
])
def test_a_bad_card_list_is_named_as_the_game_numbers_it_not_as_a_json_index(record, where):
    """Decks, hands and rows are numbered from 1 in words (deck 2, P2's hand, row 2), as the
    game numbers them; an index in brackets would read as a JSON index, counted from 0."""
    result = run("replay", "-", input=json.dumps(record))
    check(result, 2, where)
    assert "[" not in result.stderr


@pytest.mark.parametrize("text", [
    '{"decks":[["7r"]],"rules":{"rows":Infinity}}',
    '{"decks":[["7r"]],"rules":{"rows":-Infinity}}',
    '{"decks":[["7r"]],"rules":{"rows":NaN}}',
    '{"decks":[["7r"]],"rules":{"rows":1e400}}',
])
def test_non_finite_numbers_in_json_are_bad_input(text):
    check(run("show", "-", input=text), 2)


def test_a_json_file_that_is_not_json_says_so(tmp_path):
    """A file named .json holding text was read as a typed-in deal ("bad card 'not' at
    position 1"); now its JSON error is the message. Other names still read deal text."""
    bad = tmp_path / "game.json"
    bad.write_text("not json {\n")
    check(run("solve", str(bad)), 2, "malformed JSON at line 1")
    deal = tmp_path / "deal.txt"
    deal.write_text("not json {\n")
    check(run("solve", str(deal)), 2, "bad card")


def test_a_deck_label_of_4301_digits_is_bad_input_with_a_short_message():
    r = run("show", "-", input="P" + "1" * 4301 + ": 7r\n")
    check(r, 2, "deck label")
    assert len(r.stderr) < 300


@pytest.mark.parametrize("args,needle", [
    (["--workers", "2147483648"], "--workers"),
    (["--workers", "2147483647"], "--workers"),
    (["--solver-seed", "2147483648"], "--solver-seed"),
    (["--solver-seed", "-1"], "--solver-seed"),
    (["--memory-limit", "50"], "--memory-limit"),
    (["--time-limit", "nan"], "--time-limit"),
    (["--time-limit", "inf"], "--time-limit"),
    (["--node-limit", "0"], "--node-limit"),
])
def test_solver_options_have_sane_ranges(args, needle):
    check(run("solve", "--seed", "1", "--solver", "cpsat", *args), 2, needle)


@pytest.mark.parametrize("args", [
    ["deal", "--seed", "٣"], ["deal", "--seed", "１"], ["deal", "--seed", "1_000"],
    ["deal", "--seed", "+1"], ["deal", "--seed", "1", "--players", "٢"],
    ["show", "--seed", "٣"], ["legal", "--seed", "1", "--step", "٢"],
    ["solve", "--seed", "1", "--node-limit", "1_000"], ["deal", "--seed", " 1"],
])
def test_options_take_ascii_digits_only_like_card_text(args):
    check(run(*args), 2, "digits 0-9")


def test_closed_stdin_is_one_line():
    r = sh("ascent show - <&-")
    assert r.returncode == 2 and r.stdout == ""
    one_line_error(r.stderr, "standard input is closed")


def test_closed_stderr_never_sends_the_message_to_stdout():
    r = sh("ascent solve --players 2 2>&-")  # no --seed: an error
    assert r.returncode == 2 and r.stdout == ""
    r = sh("ascent deal --seed 1 2>&-")
    assert r.returncode == 0 and r.stdout.startswith("# ascent deal")
    r = sh("ascent solve --seed 1 --rules preset=tiny 2>&-")
    assert r.returncode == 0 and r.stdout.startswith("win in ")


@pytest.mark.parametrize("cmd", ["deal --seed 1", "show --seed 1", "legal --seed 1",
                                 "solve --seed 1 --rules preset=tiny",
                                 "solve --seed 1 --rules preset=tiny --json"])
def test_a_full_disk_on_stdout_is_one_line_and_exit_2(cmd):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    r = sh(f"ascent {cmd} > /dev/full")
    assert r.returncode == 2, r.stderr
    one_line_error(r.stderr, "cannot write standard output")


def test_closed_stdout_is_an_error_not_a_silent_success():
    r = sh("ascent solve --seed 1 --rules preset=tiny >&-")
    assert r.returncode == 2
    one_line_error(r.stderr, "standard output is closed")


def test_ctrl_c_during_start_up_is_one_line_and_130():
    # a KeyboardInterrupt while the command line's modules load (the first ~0.2 s): made
    # deterministic by raising it from the import of rich
    code = ("import builtins\nreal = builtins.__import__\n"
            "def imp(name, *a, **k):\n"
            "    if name.startswith('rich'):\n        raise KeyboardInterrupt\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = imp\n"
            "import sys; sys.argv = ['ascent', 'deal', '--seed', '1']\n"
            "from cli.entry import main; main()\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=ENV, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 130
    one_line_error(r.stderr, "interrupted")


def test_ascent_alone_prints_its_help():
    r = run()
    assert r.exit_code == 0
    assert r.output.startswith("Usage: ascent") and "Commands:" in r.output
    assert len(r.output.splitlines()) > 10 and "error" not in r.output


# ---- inputs of any size -------------------------------------------------------------------

def test_dev_zero_is_refused_by_the_size_limit():
    r = sh("ascent show /dev/zero")
    assert r.returncode == 2
    one_line_error(r.stderr, "too large", "8 MB")


def test_a_file_over_the_limit_is_refused_from_its_size(tmp_path):
    big = tmp_path / "big.txt"
    with big.open("wb") as fh:  # a sparse file: nothing is read to refuse it
        fh.truncate(MAX_INPUT_BYTES + 1)
    check(run("show", str(big)), 2, "too large", f"{MAX_INPUT_BYTES + 1:,} bytes")


def test_stdin_over_the_limit_is_refused():
    check(run("show", "-", input=b"7r " * (MAX_INPUT_BYTES // 3 + 1)), 2, "too large")


def test_a_huge_card_token_is_refused_quickly_with_a_short_message():
    r = run("show", "-", input="1" * 400_000 + "r\n")
    check(r, 2, "too long to be card text", "400001 characters")
    assert len(r.stderr) < 300


def test_a_byte_order_mark_is_accepted_on_stdin_as_in_files(tmp_path):
    text = "\ufeff" + "\n".join(" ".join(c.text for c in d) for d in Deal.from_seed(1, 2).decks)
    (tmp_path / "bom.txt").write_text(text, encoding="utf-8")
    assert run("show", str(tmp_path / "bom.txt")).exit_code == 0
    r = run("show", "-", input=text.encode("utf-8"))
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("cmd", ["show", "legal"])
def test_players_with_a_file_is_refused_everywhere(tmp_path, cmd):
    (tmp_path / "d.json").write_text(dumps(Plan(Deal.from_seed(1, 2)).to_json()))
    check(run(cmd, str(tmp_path / "d.json"), "--players", "3"), 2, "--players")


# ---- answers never lost, files whole or not at all --------------------------------------

def test_a_failed_output_write_leaves_no_file_and_still_prints_the_answer(tmp_path):
    r = sh("(ulimit -f 4; ascent solve --seed 1 --record o.json)", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stdout.startswith("win in ")  # the answer
    one_line_error(r.stderr, "o.json", "cannot write", "standard output only")
    assert list(tmp_path.iterdir()) == []  # no truncated o.json, no temporary file
    r = sh("ascent solve --seed 1 --record o.json", cwd=tmp_path)  # a re-run works
    assert r.returncode == 0
    assert json.loads((tmp_path / "o.json").read_text())["moves"]


def test_output_never_overwrites(tmp_path):
    (tmp_path / "o.json").write_text("mine")
    check(run("solve", "--seed", "1", "--record", str(tmp_path / "o.json")), 2, "exists")
    assert (tmp_path / "o.json").read_text() == "mine"


def test_write_new_file_is_exclusive_and_leaves_nothing_on_failure(tmp_path):
    from cli.files import write_new_file

    write_new_file(tmp_path / "a.txt", "one")
    with pytest.raises(FileExistsError):
        write_new_file(tmp_path / "a.txt", "two")
    assert (tmp_path / "a.txt").read_text() == "one"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def _stopped(args: list[str], hook: str, signum: int) -> str:
    """Run ``ascent args``, send ``signum`` once the search shows it reached ``hook`` (see
    :data:`tests.signalling.HOOKS`), and check the interrupted exit: code 130 and one line
    ``ascent: error: interrupted…``. Returns what the command printed on standard output."""
    proc = signalling.start(args, hook)
    signalling.wait_ready(proc, hook)
    proc.send_signal(signum)
    out, err = signalling.finish(proc)
    assert proc.returncode == 130, err
    one_line_error(err, "interrupted")
    return out


@pytest.mark.slow
def test_sigterm_stops_the_dfs_like_ctrl_c_and_keeps_the_best_win():
    # signalled once the beams' win is in and the search for a better one runs
    # --quiet: on a busy machine the search may run past the progress log's first line
    out = _stopped(["solve", "--seed", "42", "--players", "3", "--objective", "waste",
                    "--time-limit", "none", "--quiet"], "optimising", signal.SIGTERM)
    assert out.startswith("win in ") and "interrupted" in out


@pytest.mark.slow
def test_sigint_stops_hint_and_prints_the_moves_rated_so_far():
    out = _stopped(["hint", "--seed", "2", "--objective", "waste", "--time-limit", "600"],
                   "optimising", signal.SIGINT)
    # the deal's own search found a win before the signal: it and its first move are shown
    assert out.startswith("The deal's first move: win") and "place" in out


def test_sigterm_stops_analyse_and_prints_the_positions_solved_so_far(tmp_path):
    record = tmp_path / "game.json"
    done = subprocess.run(ASCENT + ["solve", "--seed", "2", "--record", str(record)], cwd=ROOT,
                          env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # signalled once a first position is solved (each of the others takes up to 2 s)
    data = json.loads(_stopped(["analyse", str(record), "--objective", "waste",
                                "--time-per-move", "2", "--json"], "solved", signal.SIGTERM))
    assert data["stats"].get("interrupted") is True
    assert 0 < data["stats"]["solved_positions"] < len(data["positions"])


@pytest.mark.slow
def test_kill_int_of_the_portfolio_parent_keeps_the_dfs_win():
    proc = signalling.start(["solve", "--seed", "1", "--solver", "portfolio", "--objective",
                             "waste", "--time-limit", "none", "--json"], "optimising")
    signalling.wait_ready(proc, "optimising")  # the DFS worker has its win
    os.kill(proc.pid, signal.SIGINT)  # the parent alone, not the process group
    out, err = signalling.finish(proc)
    assert proc.returncode == 130, err
    data = json.loads(out)
    assert data["verdict"] == "win" and data["plan"]["moves"]
    assert data["stats"].get("interrupted") is True
    one_line_error(err, "interrupted")


def test_memory_limit_reaches_both_solvers_of_the_portfolio(monkeypatch):
    import solver.cpsat
    import solver.exhaustive
    from solver import portfolio

    seen = {}
    monkeypatch.setattr(solver.cpsat, "solve_cpsat", lambda *a, **k: seen.setdefault("cpsat", k))
    monkeypatch.setattr(solver.exhaustive, "solve", lambda *a, **k: seen.setdefault("dfs", k))
    deal = Deal.from_seed(1)
    portfolio._cpsat(deal, "none", None, 1, 0, memory_limit_mb=300)
    portfolio._dfs(deal, "none", None, memory_limit_mb=300)
    assert seen["cpsat"]["params"]["max_memory_in_mb"] == 150
    assert seen["dfs"]["memory_limit_mb"] == 150


def test_cli_memory_limit_bounds_cpsat_and_leaves_the_dfs_table_what_is_free(monkeypatch):
    import cli.solve as cs
    import solver.cpsat
    import solver.exhaustive

    seen = {}
    monkeypatch.setattr(solver.cpsat, "solve_cpsat", lambda *a, **k: seen.setdefault("cpsat", k))
    monkeypatch.setattr(solver.exhaustive, "solve", lambda *a, **k: seen.setdefault("dfs", k))
    deal = Deal.from_seed(1)
    cs.run_solver("cpsat", deal, "none", None, 500, None, 1, 0, False, None)
    cs.run_solver("dfs", deal, "none", None, 500, None, 1, 0, False, None)
    assert seen["cpsat"]["params"] == {"max_memory_in_mb": 500}
    assert 16 <= seen["dfs"]["memory_limit_mb"] <= 500 - cs.process_rss_mb() + 1


def test_an_optimum_search_has_a_default_time_limit_stated_in_the_help(monkeypatch):
    import cli.solve as cs

    assert f"{cs.DEFAULT_OPTIMUM_SECONDS:g} s with waste" in " ".join(run("solve", "--help").output.split())
    seen = []

    def fake(name, deal, objective, time_limit, *rest, **kw):
        seen.append(time_limit)
        from solver.exhaustive import solve
        return solve(deal, objective, node_limit=50)

    monkeypatch.setattr(cs, "run_solver", fake)
    run("solve", "--seed", "1", "--objective", "waste")
    run("solve", "--seed", "1", "--objective", "waste", "--time-limit", "none")
    run("solve", "--seed", "1")
    assert seen == [cs.DEFAULT_OPTIMUM_SECONDS, None, None]


def test_cpsat_verbose_log_goes_to_stderr_so_json_parses():
    r = subprocess.run(ASCENT + ["solve", "--seed", "1", "--rules", "preset=tiny", "--solver",
                                 "cpsat", "--verbose", "--json", "--time-limit", "20"],
                       cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["solver"] == "cpsat"
    assert "CP-SAT" in r.stderr or "#" in r.stderr  # the log is there, on stderr


# ---- records from other programs; after the Summit ---------------------------------------

def _won_plan() -> Plan:
    from solver.exhaustive import solve

    res = solve(Deal.from_seed(1, 1, RuleSet.tiny()))
    assert res.verdict == "win"
    return res.plan


def test_unused_move_fields_are_accepted_when_empty(tmp_path):
    data = _won_plan().to_json()
    for m in data["moves"]:
        if m["kind"] == "place":
            m.update(to_row=0, to_slot=None)
        elif m["kind"] == "discard":
            m.update(card=None, row=0, slot=0, to_row=0, to_slot=0)
    (tmp_path / "p.json").write_text(json.dumps(data))
    r = run("replay", str(tmp_path / "p.json"))
    assert r.exit_code == 0, r.output
    data["moves"][0]["to_row"] = 3
    if data["moves"][0]["kind"] == "place":
        (tmp_path / "q.json").write_text(json.dumps(data))
        check(run("replay", str(tmp_path / "q.json")), 2, "to_row")


def test_after_the_winning_summit_no_player_is_to_move(tmp_path):
    plan = _won_plan()
    game = plan.replay().game
    pos = game.to_position()
    assert pos["to_move"] is None
    (tmp_path / "plan.json").write_text(dumps(plan.to_json()))
    r = run("show", str(tmp_path / "plan.json"), "--save-position", str(tmp_path / "pos.json"))
    assert r.exit_code == 0 and "no player to move" in r.output and "▶" not in r.output
    assert json.loads((tmp_path / "pos.json").read_text())["position"]["to_move"] is None
    r = run("show", str(tmp_path / "pos.json"))
    assert r.exit_code == 0 and "Game over" in r.output and "no player to move" in r.output
    assert json.loads(run("legal", str(tmp_path / "pos.json"), "--json").output)["to_move"] is None
    # null is refused for a game that goes on
    live = Plan(plan.deal, plan.moves[:2]).replay().game.to_position()
    live["to_move"] = None
    (tmp_path / "live.json").write_text(json.dumps({"position": live}))
    check(run("show", str(tmp_path / "live.json")), 2, "to_move is null")


def test_show_writes_the_position_after_a_step_and_reads_replay_json(tmp_path):
    (tmp_path / "plan.json").write_text(dumps(_won_plan().to_json()))
    r = run("show", str(tmp_path / "plan.json"), "--step", "3", "--save-position", str(tmp_path / "p.json"))
    assert r.exit_code == 0
    pos = json.loads((tmp_path / "p.json").read_text())["position"]
    assert pos["turn"] == 3
    assert run("legal", str(tmp_path / "p.json")).exit_code == 0
    check(run("show", str(tmp_path / "plan.json"), "--save-position", str(tmp_path / "p.json")), 2, "exists")
    replayed = run("replay", str(tmp_path / "plan.json"), "--json").output
    (tmp_path / "r.json").write_text(replayed)
    r = run("show", str(tmp_path / "r.json"))
    assert r.exit_code == 0 and "Game over" in r.output


# ---- messages -----------------------------------------------------------------------------

def test_every_extra_and_missing_card_in_one_message():
    cards = [c.text for c in Deal.from_seed(1).decks[0]]
    cards[cards.index("10r")] = "7r"  # an extra 7r, a missing 10r
    cards[cards.index("12g")] = "9b"  # an extra 9b, a missing 12g
    r = run("show", "-", input=" ".join(cards))
    check(r, 2, "3 copies of 7r", "3 copies of 9b", "10r (1 of 2)", "12g (1 of 2)")


def test_one_card_is_singular():
    from rich.console import Console

    from cli.common import render_game
    from cli.replay import outcome_line

    plan = _won_plan()
    steps = [i for i in range(len(plan.moves) + 1) if len(plan.replay(i).game.out) == 1]
    assert steps, "the tiny plan never has exactly one card out; pick another deal"
    game = plan.replay(steps[0]).game
    con = Console(record=True, width=200)
    con.print(render_game(game))
    assert "Out of the game: 1 card ·" in con.export_text()
    assert "· 1 card out of the game ·" in outcome_line(game)


def test_best_progress_is_one_figure_for_a_win():
    r = run("solve", "--seed", "1", "--json")
    data = json.loads(r.output)
    assert data["verdict"] == "win"
    assert data["best_progress"]["slots"] == data["stats"]["best_progress"] == 45


# ---- benchmarks ---------------------------------------------------------------------------



def unknown_solve(deal, objective="none", time_limit=None):
    """A benchmark test double: always ``unknown`` (so a larger limit retries it)."""
    from solver.result import SolveResult

    return SolveResult("unknown", objective, deal, stats={"nodes": 1})


def slow_solve(deal, objective="none", time_limit=None):
    """A benchmark test double that takes long (interrupted by the test)."""
    signalling.ready("solving")
    time.sleep(600)
    return unknown_solve(deal, objective, time_limit)


def bench(cwd: Path, *args: str, **kw) -> subprocess.Popen | subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "benchmarks.solve", "--rules", "preset=tiny", "--quiet", *args]
    return subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=300)


def test_benchmark_writes_a_new_folder_unless_out_names_one(tmp_path):
    results = ROOT / "benchmarks" / "results"
    before = {p.name: p.stat().st_mtime_ns for p in results.iterdir()}
    r = bench(tmp_path, "--players", "1", "--seeds", "1")
    assert r.returncode == 0, r.stderr
    made = [p for p in tmp_path.iterdir() if p.name.startswith("bench-")]
    assert len(made) == 1 and (made[0] / "solve-dfs-none-preset_tiny.md").exists()
    assert {p.name: p.stat().st_mtime_ns for p in results.iterdir()} == before


@pytest.mark.slow
def test_benchmark_resume_skips_done_rows_and_retries_unknowns_when_the_limit_grew(tmp_path):
    out = tmp_path / "run"
    solver = "tests.test_hardening:unknown_solve"
    base = ["--players", "1", "--seeds", "1-2", "--solver", solver, "--out", str(out)]
    assert bench(tmp_path, *base, "--time-limit", "1").returncode == 0
    jsonl = out / "solve-tests-test_hardening-unknown_solve-none-preset_tiny.jsonl"
    rows = [json.loads(x) for x in jsonl.read_text().splitlines()]
    assert [(r["seed"], r["time_limit"]) for r in rows] == [(1, 1.0), (2, 1.0)]
    r = bench(tmp_path, *base, "--time-limit", "1", "--resume")
    assert r.returncode == 0
    assert [json.loads(x)["time_limit"] for x in jsonl.read_text().splitlines()] == [1.0, 1.0]
    r = bench(tmp_path, *base, "--time-limit", "2", "--resume")
    assert r.returncode == 0
    rows = [json.loads(x) for x in jsonl.read_text().splitlines()]
    assert [(r["seed"], r["time_limit"]) for r in rows] == [(1, 2.0), (2, 2.0)]  # no duplicates
    assert bench(tmp_path, "--resume", "--players", "1", "--seeds", "1").returncode == 2


def test_benchmark_ctrl_c_gives_a_summary_and_no_traceback(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "benchmarks.solve", "--rules", "preset=tiny", "--players", "1",
           "--seeds", "1-3", "--solver", "tests.test_hardening:slow_solve", "--out", str(out)]
    marks = tmp_path / "marks"
    proc = subprocess.Popen(cmd, cwd=tmp_path, env={**ENV, "ASCENT_TEST_READY_FILE": str(marks)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    signalling.wait_file(proc, marks, "solving")  # a deal's solve runs (in its own process)
    proc.send_signal(signal.SIGINT)
    _, err = signalling.finish(proc)
    assert "3 deals, 0 already done, 3 to run" in err, err
    assert proc.returncode == 130, err
    assert "interrupted: 0 of 3 deals done" in err and "--resume" in err
    assert "Traceback" not in err


def test_ctrl_c_stops_cpsat_and_keeps_an_honest_answer():
    # CP-SAT alone finds no win on a full deal in seconds: it is stopped mid-search, once its
    # log (--verbose, on standard error) shows that the solve runs. Its presolve, not its
    # first line: the first line comes from CP-SAT's thread as soon as it starts, a moment
    # before the main thread waits for it, and a signal in that moment is not yet caught
    # (a solve abandoned at exit: "terminate called without an active exception")
    proc = signalling.start(["solve", "--seed", "1", "--solver", "cpsat", "--hint", "none",
                             "--time-limit", "120", "--verbose", "--json"])
    log = ""
    while "Starting presolve" not in log:
        line = proc.stderr.readline()
        assert line, (proc.wait(), log)
        log += line
    proc.send_signal(signal.SIGINT)
    out, err = signalling.finish(proc)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("ascent: error: interrupted")
    assert "Traceback" not in err
    res = json.loads(out)
    assert res["stats"].get("interrupted") is True
    assert res["verdict"] in ("unknown", "win") and res["stats"]["seconds"] < 120


def test_written_files_are_ordinary_files_under_the_umask(tmp_path):
    """Records, archive files and simulation records were written 0600 (mkstemp's mode):
    a built archive could not be served or published by another user. Under umask 022
    they are 0644, like the pictures."""
    import stat

    from bots.simulate import write_records
    from cli.files import write_new_file
    from puzzles.archive import write_new

    old = os.umask(0o022)
    try:
        write_new_file(tmp_path / "game.json", "{}\n")
        assert write_new(tmp_path / "archive" / "2026-12-01-deal-mini.json", "{}\n")
        written, _ = write_records([{"bot": "greedy", "players": 1, "seed": 1,
                                     "record": "{}"}], tmp_path / "records")
        assert written == 1
    finally:
        os.umask(old)
    for p in (tmp_path / "game.json", tmp_path / "archive" / "2026-12-01-deal-mini.json",
              tmp_path / "records" / "greedy-p1-seed1.json"):
        assert stat.S_IMODE(p.stat().st_mode) == 0o644, p
