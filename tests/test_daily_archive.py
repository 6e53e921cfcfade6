"""Daily puzzles: building, freezing and checking an archive; the committed December 2026
archive; byte-identical output; the CLI's errors."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from model.deal import Deal
from model.records import Plan
from model.rules import RuleSet
from puzzles import daily
from puzzles.archive import dumps_record, load_archive, path_for, write_new
from puzzles.check import EFFORT_FEATURES, check_archive, find
from tests.reference import reference_solve

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / "puzzles" / "archive"
WEEK = ("2026-12-07", "2026-12-13")  # Monday to Sunday: every band


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def week(tmp_path_factory) -> Path:
    """A week of mini deal puzzles built by the command line."""
    out = tmp_path_factory.mktemp("archive")
    r = run("daily", "build", "--from", WEEK[0], "--to", WEEK[1], "--archive", str(out),
            "--kind", "deal", "--size", "mini")
    assert r.exit_code == 0, r.output
    assert "built 7, skipped 0" in r.output
    return out


def replay_within_par(rec: dict) -> None:
    plan = Plan.from_json(rec["solution"])
    start = plan.extra["start_move"]
    before = plan.replay(start)
    after = plan.replay()
    assert after.error is None and after.outcome == "win"
    assert len(after.game.out) - len(before.game.out) <= rec["par"]


def test_week_replays_within_par_with_every_band(week):
    recs = load_archive(week)
    assert len(recs) == 7
    for rec in recs.values():
        replay_within_par(rec)
        assert rec["par_proven"]
    grades = [recs[k]["grade"] for k in sorted(recs)]
    assert grades == ["easy", "easy", "medium", "medium", "hard", "hard", "expert"]


def test_rebuild_is_frozen_and_byte_identical(week):
    before = {p: p.read_bytes() for p in week.rglob("*.json")}
    r = run("daily", "build", "--from", WEEK[0], "--to", WEEK[1], "--archive", str(week),
            "--kind", "deal", "--size", "mini")
    assert r.exit_code == 0 and "built 0, skipped 7" in r.output
    assert {p: p.read_bytes() for p in week.rglob("*.json")} == before
    # write_new never replaces a file, whatever it is given
    p = next(iter(before))
    assert write_new(p, "changed") is False and p.read_bytes() == before[p]


def test_check_passes_and_catches_tampering(week, tmp_path):
    assert check_archive(week, quick=False)[1] == []
    r = run("daily", "check", str(week), "--quick")
    assert r.exit_code == 0 and "7 files checked: all good" in r.output
    import shutil

    bad = tmp_path / "bad"
    shutil.copytree(week, bad)
    files = sorted(bad.rglob("*.json"))
    # a tampered card: two cards of the deck swapped
    rec = json.loads(files[0].read_text())
    deck = rec["deal"]["decks"][0]
    deck[0], deck[1] = deck[1], deck[0]
    files[0].write_text(dumps_record(rec))
    # a changed par (goal and features changed along, so only the replay can tell)
    rec = json.loads(files[1].read_text())
    rec["par"] += 1
    rec["features"]["par"] += 1
    rec["goal"]["max_out"] += 1
    files[1].write_text(dumps_record(rec))
    # a missing day
    files[3].unlink()
    n, problems = check_archive(bad, quick=True)
    text = "\n".join(problems)
    assert n == 6
    assert files[0].name in text and "not the date's deal" in text
    assert files[1].name in text and "par says" in text
    assert "missing: 2026-12-10 deal mini" in text
    r = run("daily", "check", str(bad), "--quick")
    assert r.exit_code == 1


def test_changed_features_are_caught_by_the_full_check(week, tmp_path):
    import shutil

    bad = tmp_path / "bad2"
    shutil.copytree(week, bad)
    f = sorted(bad.rglob("*.json"))[2]
    rec = json.loads(f.read_text())
    rec["features"]["playout_wins"] += 1
    f.write_text(dumps_record(rec))
    assert check_archive(bad, quick=True)[1] == []
    assert any("evaluated again" in p for p in check_archive(bad, quick=False)[1])


def test_hints_that_are_not_the_solutions_are_caught_by_the_full_check(week, tmp_path):
    """The full check lets a deal record keep its own par line (the solver may find another
    one spending par), so it checks that the hints are the ones taken from that line."""
    import shutil

    bad = tmp_path / "bad3"
    shutil.copytree(week, bad)
    f = next(p for p in sorted(bad.rglob("*.json"))
             if len(json.loads(p.read_text())["key_moves"]) >= 2)
    rec = json.loads(f.read_text())
    rec["key_moves"] = rec["key_moves"][1:]  # still moves of the solution: --quick passes
    f.write_text(dumps_record(rec))
    assert check_archive(bad, quick=True)[1] == []
    problems = check_archive(bad, quick=False)[1]
    assert len(problems) == 1 and "not the hints of the solution" in problems[0]


def test_same_puzzle_for_any_hash_seed():
    outs = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        r = subprocess.run([sys.executable, "-m", "cli.main", "daily", "--date", "2026-12-03",
                            "--size", "mini", "--json", "--generate"], capture_output=True,
                           text=True, env=env, cwd=ROOT, check=True)
        outs.append(r.stdout)
    assert outs[0] == outs[1]
    rec = json.loads(outs[0])
    assert rec["date"] == "2026-12-03" and rec["kind"] == "deal" and rec["size"] == "mini"
    for key in ("rules", "deal", "goal", "par", "par_proven", "grade", "features",
                "key_moves", "solution", "generator"):
        assert key in rec
    archived = find(ARCHIVE, dt.date(2026, 12, 3), "deal", "mini")
    if archived is not None:  # the committed file is the same puzzle (but the solver's effort)
        frozen = json.loads(path_for(ARCHIVE, dt.date(2026, 12, 3), "deal", "mini").read_text())
        for rec_ in (rec, frozen):
            for k in EFFORT_FEATURES:
                rec_["features"].pop(k)
        assert dumps_record(rec) == dumps_record(frozen)


def test_proven_par_matches_the_reference_on_tiny_rules(monkeypatch):
    # tiny rules cut to 2 rows and 10 cards, so that the naive search stays quick
    tiny = RuleSet.from_options({"preset": "tiny", "rows": 2, "values": 3, "copies": 1})
    monkeypatch.setitem(daily.RULES, "mini", tiny)
    checked = 0
    for seed in range(1, 40):
        rec = daily.evaluate_deal({"seed": seed, "players": 1}, "mini")
        if rec is None:
            continue
        verdict, value = reference_solve(Deal.from_seed(seed, 1, tiny), "waste")
        assert verdict == "win" and rec["par"] == value
        checked += 1
        if checked == 4:
            break
    assert checked == 4


@pytest.mark.parametrize("args,needle", [
    (["daily", "--date", "2026-02-30"], "bad date"),
    (["daily", "--date", "yesterday"], "bad date"),
    (["daily", "--date", "3000-01-01"], "out of range"),
    (["daily", "--kind", "crossword"], "--kind"),
    (["daily", "build", "--from", "2026-12-01", "--to", "2026-12-01", "--archive", "/nonexistent/x"],
     "no such directory"),
    (["daily", "check", "/nonexistent/x"], "no such directory"),
    # the puzzle's own options before a subcommand were silently ignored
    (["daily", "--date", "2026-12-01", "--size", "mini", "check", "/tmp"],
     "--date, --size before 'check' are options of the daily puzzle itself"),
    (["daily", "--archive", "/tmp", "build", "--from", "2026-12-01", "--to", "2026-12-01",
      "--archive", "/tmp"], "--archive before 'build' is an option of the daily puzzle itself"),
])
def test_bad_input_is_one_line_exit_2(args, needle):
    r = subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 2
    assert r.stderr.startswith("ascent: error:") and needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_read_only_output_directory(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as root: permissions are not enforced")
        r = run("daily", "build", "--from", "2026-12-01", "--to", "2026-12-01",
                "--archive", str(ro))
        assert r.exit_code == 2
    finally:
        ro.chmod(0o700)


def test_committed_december_archive_passes_check():
    n, problems = check_archive(ARCHIVE, quick=True, first=dt.date(2026, 12, 1),
                                last=dt.date(2026, 12, 31))
    assert problems == []
    # every kind and size, every day of the month
    assert n == 31 * 4
    kinds = {(k, s) for _d, k, s in load_archive(ARCHIVE)}
    assert kinds == {(k, s) for k in ("deal", "position") for s in ("full", "mini")}
    recs = load_archive(ARCHIVE)
    for rec in recs.values():
        replay_within_par(rec)
    assert {r["grade"] for r in recs.values()} == {"easy", "medium", "hard", "expert"}


def test_committed_archive_files_are_what_the_generator_makes():
    # the full check (the candidate evaluated again) on two cheap files
    for day in ("2026-12-01", "2026-12-06"):
        date = dt.date.fromisoformat(day)
        text = path_for(ARCHIVE, date, "deal", "mini").read_text()
        from puzzles.check import check_record

        assert check_record(json.loads(text), date, "deal", "mini", quick=False, text=text) == []


@pytest.mark.slow
def test_committed_week_of_every_kind_and_size_is_rebuilt_from_its_candidates(tmp_path):
    """A week (Monday to Sunday: every band) of each kind and size, as committed: every
    candidate is evaluated again by the generator and must give the same record (the full
    check), every solution replays to a win within par, and the grades ramp."""
    import shutil

    days = [dt.date.fromisoformat(WEEK[0]) + dt.timedelta(days=i) for i in range(7)]
    for day in days:
        for kind in ("deal", "position"):
            for size in ("full", "mini"):
                src = path_for(ARCHIVE, day, kind, size)
                dst = path_for(tmp_path, day, kind, size)
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst)
    n, problems = check_archive(tmp_path, quick=False)
    assert (n, problems) == (28, [])
    recs = load_archive(tmp_path)
    for (_day, kind, size), rec in recs.items():
        replay_within_par(rec)
        assert rec["par_proven"] == (kind == "position" or size == "mini")
    for kind in ("deal", "position"):
        for size in ("full", "mini"):
            grades = [recs[d.isoformat(), kind, size]["grade"] for d in days]
            assert grades == ["easy", "easy", "medium", "medium", "hard", "hard", "expert"]


def test_daily_shows_the_published_puzzle_and_generates_on_request():
    """``ascent daily`` reads a date of the published archive as frozen (2026-12-09
    deal/mini: today's solver finds another line of the same par, which --generate shows);
    --archive with --generate is refused."""
    from puzzles.archive import PUBLISHED

    text = path_for(PUBLISHED, dt.date(2026, 12, 9), "deal", "mini").read_text()
    shown = run("daily", "--date", "2026-12-09", "--size", "mini", "--json")
    assert shown.exit_code == 0 and json.loads(shown.output) == json.loads(text)
    made = run("daily", "--date", "2026-12-09", "--size", "mini", "--json", "--generate")
    assert made.exit_code == 0
    fresh = json.loads(made.output)
    assert fresh["par"] == json.loads(text)["par"] and fresh["deal"] == json.loads(text)["deal"]
    r = CliRunner().invoke(main, ["daily", "--archive", str(PUBLISHED), "--generate"])
    assert r.exit_code == 2 and "not both" in r.output


def test_a_deal_solution_that_starts_late_is_refused(week, tmp_path):
    """A deal puzzle's solution is a record of the whole deal: a line that spends far more
    than par and marks the puzzle as starting after the wasteful moves is caught by the
    quick check (and the full check)."""
    import shutil

    bad = tmp_path / "bad4"
    shutil.copytree(week, bad)
    f = sorted(bad.rglob("*.json"))[0]
    rec = json.loads(f.read_text())
    plan = Plan.from_json(rec["solution"])
    rec["solution"] = Plan(plan.deal, plan.moves, {"start_move": 2}).to_json()
    spent = len(plan.replay().game.out) - len(plan.replay(2).game.out)
    rec["par"] = rec["features"]["par"] = rec["goal"]["max_out"] = spent
    f.write_text(dumps_record(rec))
    for quick in (True, False):
        problems = check_archive(bad, quick=quick)[1]
        assert any("start_move 0" in p for p in problems), problems


@pytest.mark.parametrize("content", ["[]", "{}", '{"date": "2026-12-07"}', "not json"])
def test_a_broken_archive_file_is_one_line_for_daily_and_serve(week, tmp_path, content):
    """A file of the archive that is not a valid puzzle record (valid JSON or not) is a
    one-line error for ascent daily (exit 2) and a 409 for the web API, naming the file
    relative to the archive; a missing --archive folder is refused too."""
    import shutil
    import warnings

    from web.app import create_app

    with warnings.catch_warnings():  # starlette's note on httpx, as in tests/test_web_api.py
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    bad = tmp_path / "broken"
    shutil.copytree(week, bad)
    path_for(bad, dt.date(2026, 12, 7), "deal", "mini").write_text(content)
    r = CliRunner().invoke(main, ["daily", "--date", "2026-12-07", "--size", "mini",
                                  "--archive", str(bad)])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ascent: error: ") and "2026/12/" in lines[0]
    with TestClient(create_app(archive=bad)) as c:
        res = c.get("/api/daily/2026-12-07?kind=deal&size=mini")
        assert res.status_code == 409 and str(tmp_path) not in res.text
    r = CliRunner().invoke(main, ["daily", "--archive", str(tmp_path / "nowhere")])
    assert r.exit_code == 2 and "no such directory" in r.output


def test_sigterm_stops_a_puzzle_being_made():
    """SIGTERM (like Ctrl-C) stops `ascent daily` while it makes a puzzle: exit 130, one line
    (the solver's stopped search is not taken for a rejected candidate)."""
    import signal

    from tests import signalling

    proc = signalling.start(["daily", "--date", "2026-12-20", "--kind", "position", "--size",
                             "full", "--generate"], "search")
    signalling.wait_ready(proc, "search")  # the solver searches a candidate
    proc.send_signal(signal.SIGTERM)
    out, err = signalling.finish(proc, timeout=60)
    assert proc.returncode == 130, err
    assert err.strip() == "ascent: error: interrupted" and out == ""


def test_check_of_a_folder_without_puzzles_is_not_all_good(tmp_path):
    r = run("daily", "check", str(tmp_path), "--quick")
    assert r.exit_code == 1 and "no puzzle files" in r.output


def test_hint_and_solution_together_show_both():
    """``--hint N --solution`` shows the hint and then the whole line (it showed the hint
    only); the published 2026-12-01 deal/mini puzzle."""
    both = run("daily", "--date", "2026-12-01", "--size", "mini", "--hint", "1", "--solution")
    assert both.exit_code == 0, both.output
    lines = both.output.splitlines()
    assert lines[0].startswith("Hint 1 of ") and lines[1].startswith("Solution (")
    alone = run("daily", "--date", "2026-12-01", "--size", "mini", "--solution")
    assert both.output.endswith(alone.output)


def test_solution_is_shown_even_when_the_puzzle_has_no_hint():
    """2026-12-02 position/mini has no key moves: ``--hint 1 --solution`` says so and shows
    the line (the puzzle's text promises "--solution shows one"); ``--hint 1`` alone is the
    one-line error."""
    date = ("--date", "2026-12-02", "--kind", "position", "--size", "mini")
    assert json.loads(run("daily", *date, "--json").output)["key_moves"] == []
    both = run("daily", *date, "--hint", "1", "--solution")
    assert both.exit_code == 0 and both.output.startswith("No hint: ")
    assert both.output.splitlines()[1].startswith("Solution (")
    alone = CliRunner().invoke(main, ["daily", *date, "--hint", "1"])
    assert alone.exit_code == 2 and "no key moves" in alone.output


def test_the_mini_rules_are_the_mini_preset_and_records_keep_their_rules() -> None:
    """The daily mini rules are the ``mini`` preset (equal, named ``mini``), while a record's
    ``rules`` object stays as the published puzzles have it."""
    from model.rules import RuleSet
    from puzzles.daily import MINI_RULES

    assert RuleSet.mini() == MINI_RULES and MINI_RULES.describe() == "mini"
    assert MINI_RULES.to_dict()["preset"] == "standard"
    assert RuleSet.from_options(MINI_RULES.to_dict()) == RuleSet.from_options(["preset=mini"])
