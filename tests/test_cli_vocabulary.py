"""One vocabulary on the command line (issue 42, item 5): the renamed options and their old
names, a repeated option refused, ``--memory-limit`` checked, the progress line, the
summary's time, ``analyse`` with no moves, ``variants``' marks, complete error texts."""

from __future__ import annotations

import io
import json
import re
import types

import pytest
from click.testing import CliRunner

import cli.progress as progress_mod
from cli.main import main
from cli.options import machine_mb
from cli.progress import ProgressLine, solve_progress_text
from model.records import load

TINY = ("--rules", "preset=tiny")


#: the seconds a solve took, as its summary line prints them ("2,756 nodes in 0.01 s")
SECONDS = re.compile(r"in [0-9][0-9.,]* s\b")


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def one_line_error(res, *needles: str) -> str:
    """Exit 2 and exactly one line ``ascent: error: …`` holding every needle."""
    assert res.exit_code == 2, (res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ascent: error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def deprecation_lines(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.startswith("ascent: warning:")]


# ---- the new names, and the old ones for a release -----------------------------------------

def test_solve_record_writes_the_game_record_and_no_warning(tmp_path):
    rec = tmp_path / "plan.json"
    res = run("solve", "--seed", "1", *TINY, "--record", str(rec))
    assert res.exit_code == 0, res.stderr
    assert load(str(rec))[0] == "plan"
    assert deprecation_lines(res.stderr) == []


@pytest.mark.parametrize("command, old, new, made", [
    (["solve", "--seed", "1", *TINY], "--output", "--record", "plan"),
    (["show", "--seed", "1", *TINY, "--format", "svg"], "--output", "--picture", "svg"),
    (["show", "--seed", "1", *TINY], "--position", "--save-position", "position"),
])
def test_an_old_name_still_works_with_one_deprecation_line(tmp_path, command, old, new, made):
    out_new, out_old = tmp_path / "new.out", tmp_path / "old.out"
    by_new = run(*command, new, str(out_new))
    by_old = run(*command, old, str(out_old))
    assert by_new.exit_code == by_old.exit_code == 0, (by_new.stderr, by_old.stderr)
    assert out_new.read_bytes() == out_old.read_bytes()  # the same file by either name
    if made == "svg":
        assert out_old.read_text().lstrip().startswith("<")
    else:
        assert load(str(out_old))[0] == made
    assert deprecation_lines(by_new.stderr) == []
    warned = deprecation_lines(by_old.stderr)
    assert len(warned) == 1 and old in warned[0] and new in warned[0], by_old.stderr
    # the same answer by either name, but for the seconds the solve took ("… nodes in 0.01 s"):
    # two runs may round their time differently, so the seconds are not compared
    assert SECONDS.sub("in … s", by_new.stdout) == SECONDS.sub("in … s", by_old.stdout)


@pytest.mark.parametrize("args, old, new", [
    (["study", "run", "--players", "1", "--deals", "1", *TINY, "--db",
      "/nonexistent/folder/x.db", "--memory-limit", "256"], "--memory-limit", "--table-limit"),
    (["daily", "build", "--from", "2026-12-01", "--to", "2026-12-01", "--out",
      "/nonexistent/x"], "--out", "--archive"),
])
def test_old_names_of_study_and_daily_reach_the_new_option(args, old, new):
    """Refused for the missing folder (before any work), after the deprecation line: the
    old name's value reached the command as the new option's."""
    res = run(*args)
    assert res.exit_code == 2
    warned = deprecation_lines(res.stderr)
    assert len(warned) == 1 and old in warned[0] and new in warned[0], res.stderr
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("ascent: error:")]
    assert len(errors) == 1 and "/nonexistent" in errors[0], res.stderr


def test_the_old_and_the_new_name_together_are_refused(tmp_path):
    res = run("solve", "--seed", "1", *TINY, "--record", str(tmp_path / "a.json"),
              "--output", str(tmp_path / "b.json"))
    one_line_error(res, "--output", "--record")
    assert not list(tmp_path.iterdir())


def test_review_takes_bot_seed_and_its_old_name(tmp_path):
    rec = tmp_path / "game.json"
    assert run("solve", "--seed", "1", *TINY, "--record", str(rec)).exit_code == 0
    common = ["review", str(rec), "--worlds", "2", "--candidates", "1", "--json", "--quiet"]
    by_new = run(*common, "--bot-seed", "3")
    by_old = run(*common, "--seed", "3")
    assert by_new.exit_code == by_old.exit_code == 0, (by_new.stderr, by_old.stderr)
    assert json.loads(by_new.stdout)["moves"] == json.loads(by_old.stdout)["moves"]
    assert len(deprecation_lines(by_old.stderr)) == 1 and not by_new.stderr


def test_help_names_only_the_new_options():
    for command, shown, hidden in ((["solve"], "--record", "--output"),
                                   (["show"], "--save-position", "--position "),
                                   (["show"], "--picture", "--output"),
                                   (["study", "run"], "--table-limit", "--memory-limit"),
                                   (["review"], "--bot-seed", "--seed ")):
        text = run(*command, "--help").stdout
        assert shown in text and hidden not in text, (command, hidden)


# ---- a repeated single-value option ---------------------------------------------------------

@pytest.mark.parametrize("args, flag", [
    (["solve", "--seed", "1", "--seed", "2"], "--seed"),
    (["solve", "--seed=1", *TINY, "--node-limit", "5", "--node-limit=6"], "--node-limit"),
    (["show", "--seed", "1", "--step", "0", "--step", "0"], "--step"),
    (["deal", "--seed", "1", "--json", "--json"], "--json"),
    (["solve", "--seed", "1", "--lns", "--no-lns"], "--lns/--no-lns"),
    (["hint", "--seed", "1", "--objective", "none", "--objective", "waste"], "--objective"),
    (["study", "run", "--db", "a.db", "--db", "b.db"], "--db"),
    (["daily", "--kind", "deal", "--kind", "position"], "--kind"),
    (["daily", "build", "--from", "2026-12-01", "--from", "2026-12-02"], "--from"),
    (["simulate", "--bot", "greedy", "--deals", "1", "--deals", "2"], "--deals"),
    (["serve", "--port", "1", "--port", "2"], "--port"),
    (["analyse", "-", "--time-per-move", "1", "--time-per-move", "2"], "--time-per-move"),
])
def test_a_repeated_single_value_option_is_refused(args, flag):
    one_line_error(run(*args), f"{flag} is given twice", "give it once")


def test_repeatable_options_still_add_up():
    res = run("deal", "--seed", "1", "--rules", "preset=tiny", "--rules", "hand_size=2",
              "--json")
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["rules"]["hand_size"] == 2


# ---- --memory-limit ------------------------------------------------------------------------

def _over_machine() -> str:
    machine = machine_mb()
    if machine is None or machine + 1 > 1_048_576:
        pytest.skip("the machine's memory is unknown or beyond the option's range")
    return str(machine + 1)


@pytest.mark.parametrize("command", [["solve", "--seed", "1"], ["hint", "--seed", "1"],
                                     ["analyse", "-"], ["variants", "--seed", "1"]])
@pytest.mark.parametrize("value", ["-1", "abc", "over"])
def test_bad_memory_limits_are_one_line_and_exit_2(command, value):
    value = _over_machine() if value == "over" else value
    line = one_line_error(run(*command, "--memory-limit", value), "--memory-limit")
    if value not in ("-1", "abc"):
        assert "more than this machine's memory" in line


def test_memory_limit_is_the_whole_process_in_hint(monkeypatch):
    """hint's search table gets the limit less what the process uses, as solve's does."""
    import cli.hint as hint_mod
    import cli.options as options

    seen = {}

    def fake_rate(game, objective, time_limit, all_moves, memory_limit_mb):
        seen["mb"] = memory_limit_mb
        raise KeyboardInterrupt

    monkeypatch.setattr(hint_mod, "rate_moves", fake_rate)
    monkeypatch.setattr(options, "process_rss_mb", lambda: 300)
    run("hint", "--seed", "1", "--memory-limit", "1000")
    assert seen["mb"] == 700


# ---- the progress line ---------------------------------------------------------------------

class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_in_a_log_is_whole_lines_at_most_every_log_interval():
    buf, clock = io.StringIO(), Clock()
    line = ProgressLine(buf, tty=False, clock=clock)
    for t in range(0, 35):
        clock.now = float(t)
        line.update(f"step {t} " + "x" * 200)
    line.close()
    text = buf.getvalue()
    assert "\r" not in text and text.endswith("\n")
    lines = text.splitlines()
    assert len(lines) == 34 // progress_mod.LOG_EVERY  # at 10, 20 and 30 s
    assert all(len(ln) <= 79 and ln.startswith("ascent: step ") for ln in lines)


def test_progress_on_a_terminal_redraws_one_line_and_clears_it():
    buf, clock = io.StringIO(), Clock()
    line = ProgressLine(buf, tty=True, clock=clock)
    for t in range(4):
        clock.now = float(t)
        line.update("y" * (150 - 40 * t))
    line.close()
    text = buf.getvalue()
    assert "\n" not in text and text.count("\r") == 4 + 2  # 4 lines, then the clearing
    frames = text.split("\r")[1:]
    assert all(len(f) <= 79 for f in frames)
    assert frames[-2].strip() == "" and frames[-1] == ""  # ends at the start of a cleared line


@pytest.mark.parametrize("objective", ["none", "waste", "turns"])
@pytest.mark.parametrize("limit", [None, 1e7])
def test_the_solve_progress_line_fits_80_columns(objective, limit):
    """A month-long solve of ten trillion nodes still shows all its parts in 79 columns."""
    stats = {"nodes": 10**13, "best_progress": 999, "incumbent": 9999, "proven_bound": 9999}
    text = solve_progress_text(stats, objective, 3 * 10**6, limit)
    assert len(text) < 80, text
    assert "10T nodes" in text and ("833 h, 1944 h left" in text or "no time limit" in text)
    if objective != "none":
        assert f"{objective} best 9999, bound 9999" in text
    else:
        assert "furthest 999 slots" in text
    huge = {"nodes": 10**30, "best_progress": 10**20, "incumbent": 10**20, "proven_bound": 10**20}
    assert len(solve_progress_text(huge, objective, 1e9, 1e9)) < 80


def test_solve_progress_reaches_a_log_as_whole_lines(monkeypatch):
    """solve's progress callback, called by the search, becomes newline-ended lines on a
    standard error that is not a terminal (the callback is called here directly: when the
    search calls it depends on the clock)."""
    import cli.solve as solve_mod

    real = solve_mod.run_solver
    monkeypatch.setattr(progress_mod, "LOG_EVERY", 0.0)

    def calling(*args, **kwargs):
        progress = args[9]  # None with --quiet
        for n in (1000, 2000):
            if progress is not None:
                progress({"nodes": n, "best_progress": 5, "incumbent": 12, "proven_bound": 7})
        return real(*args, **kwargs)

    monkeypatch.setattr(solve_mod, "run_solver", calling)
    res = run("solve", "--seed", "1", *TINY, "--objective", "waste", "--node-limit", "50")
    assert res.exit_code == 0, res.stderr
    assert "\r" not in res.stderr and res.stderr.endswith("\n")
    lines = res.stderr.splitlines()
    assert len(lines) == 2 and "best 12, bound 7" in lines[1] and "2,000" not in lines[1]
    assert all(len(ln) < 80 for ln in lines)
    quiet = run("solve", "--seed", "1", *TINY, "--objective", "waste", "--node-limit", "50",
                "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_the_summary_gives_the_whole_solves_time(monkeypatch):
    """A solve whose phases took 20 s in all says 20 s, whatever its first phase's stats
    say (the clock is a fake: 0 before the search, 20 after)."""
    import cli.solve as solve_mod

    ticks = iter([0.0, 20.0])
    fake = types.SimpleNamespace(monotonic=lambda: next(ticks, 20.0))
    monkeypatch.setattr(solve_mod, "time", fake)
    res = run("solve", "--seed", "1", *TINY, "--quiet")
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines()[0].endswith("in 20.00 s"), res.stdout.splitlines()[0]


# ---- analyse with no moves, variants' marks --------------------------------------------------

def test_analyse_a_record_with_no_moves_says_there_is_nothing_to_analyse():
    deal = run("deal", "--seed", "1", *TINY, "--json").stdout
    for extra in ([], ["--json"]):
        res = run("analyse", "-", *extra, input=deal)
        one_line_error(res, "no moves", "nothing to analyse")
        assert res.stdout == ""


def test_variants_marks_every_row_that_differs_from_the_base():
    args = ["variants", "--seed", "1", *TINY, "--vary", "bridge_replace_cost", "--vary",
            "campfire_move_cost", "--time-limit", "30"]
    data = json.loads(run(*args, "--json").stdout)
    text = run(*args).stdout
    rows = data["rows"]
    base = next(r for r in rows if r["base"])
    table = [ln for ln in text.splitlines() if ln.startswith("│")]
    assert len(table) == len(rows)
    for row, drawn in zip(rows, table):
        other = (row["turns"], row["cards_out"]) != (base["turns"], base["cards_out"])
        marked = "≠ base" in drawn or "other line" in drawn
        assert marked == (row["differs"] or row["unproven_difference"] or other), drawn
    if any("other line" in ln for ln in table):
        assert "other line: the base's answer" in text


def test_differs_mark_names_each_case():
    from cli.variants import OTHER_LINE, differs_mark

    def row(base=False, differs=False, unproven=False, turns=10, cards_out=4, error=None):
        return types.SimpleNamespace(base=base, differs=differs, unproven=unproven,
                                     turns=turns, cards_out=cards_out, error=error)

    base = row(base=True)
    rows = [base, row(differs=True), row(unproven=True), row(turns=11), row(cards_out=5),
            row(), row(turns=11, error="cannot be set up")]
    assert [differs_mark(r, rows) for r in rows] == [
        "", "≠ base", "≠ base?", OTHER_LINE, OTHER_LINE, "", ""]


# ---- complete error texts ------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ('{"deal": "ab', "unterminated string"),
    ('{"deal": "a\tb"}', "invalid control character"),
    ('{"a": 1,}', "line 1 column 9"),
])
def test_a_json_error_is_a_whole_phrase(text, words):
    line = one_line_error(run("show", "-", input=text), "malformed JSON", words)
    assert not line.rstrip().endswith((" at", "starting at")), line


@pytest.mark.parametrize("value", ["0", "1e10"])
def test_a_time_limit_out_of_range_reads_as_a_sentence(value):
    line = one_line_error(run("solve", "--seed", "1", "--time-limit", value), "--time-limit")
    assert "more than 0 and at most 1,000,000,000" in line and "e+09" not in line
    assert "is not more than 0" not in line


def test_click_messages_have_no_stop_before_the_help_hint():
    line = one_line_error(run("solve", "--objective", "x"), "'x' is not one of")
    assert ". (see" not in line and line.endswith("(see 'ascent solve --help')")


@pytest.mark.parametrize("flag", ["--bot-seed", "--seed"])
@pytest.mark.parametrize("value", ["-1", "١", "1_0", "abc"])
def test_review_bot_seed_follows_the_one_rule_for_numbers(flag, value):
    line = one_line_error(run("review", "-", flag, value, input="{}"), flag)
    assert "whole number" in line or "is not from 0" in line, line
