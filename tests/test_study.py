"""``ascent study run``: agreement with ``ascent solve`` deal by deal; Ctrl-C (SIGINT), kill -9
of the parent and of a worker, then resume: exactly one row per grid point and the same
answers as uninterrupted solves; a Dask scheduler and worker started here (the cluster path);
one-line errors for bad input. Small rules (tiny, 2 rows, hand of 2) keep every solve short."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from model.deal import Deal
from model.rules import RuleSet
from solver import solve

ROOT = Path(__file__).resolve().parent.parent
RULES = ["preset=tiny", "rows=2", "values=3", "hand_size=2"]
RULE_ARGS = [x for r in RULES for x in ("--rules", r)]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def _default_sigint() -> None:
    # as a terminal would have it, even when the tests run in the background (SIGINT ignored)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def ascent(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_default_sigint, **kw)


def reference(players: range, seeds: range) -> dict[tuple[int, int], tuple[str, int | None]]:
    """(players, seed) -> (verdict, turns of the plan) by solving in this process."""
    rules = RuleSet.from_options(RULES)
    out = {}
    for p in players:
        for s in seeds:
            r = solve(Deal.from_seed(s, p, rules), "none")
            out[(p, s)] = (r.verdict, len(r.plan.moves) if r.plan else None)
    return out


def stored(db: Path) -> dict[tuple[int, int], tuple[str, int | None]]:
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT players, seed, verdict, turns, point FROM solves").fetchall()
    finally:
        con.close()
    points = [r[4] for r in rows]
    assert len(points) == len(set(points)), "a grid point is stored twice"
    return {(p, s): (v, t) for p, s, v, t, _ in rows}


def count(db: Path) -> int:
    try:
        con = sqlite3.connect(db, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM solves").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def wait_rows(db: Path, proc: subprocess.Popen, at_least: int, timeout: float = 120) -> int:
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        n = count(db)
        if n >= at_least:
            return n
        time.sleep(0.05)
    raise AssertionError(f"no {at_least} rows: {proc.poll()} {proc.stderr.read() if proc.poll() is not None else ''}")


@pytest.mark.slow
def test_interrupted_and_killed_studies_resume_to_the_uninterrupted_answers(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    players, seeds = range(1, 4), range(1, 41)
    total = len(players) * len(seeds)
    args = ["study", "run", "--players", "1-3", "--seeds", "1-40", *RULE_ARGS, "--db", str(db),
            "--workers", "1", "--time-limit", "60"]
    # 1. Ctrl-C (SIGINT to the whole process group, as a terminal sends it)
    p = ascent(*args)
    wait_rows(db, p, 5)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "Traceback" not in err and "interrupted:" in err and "to resume" in err
    first = count(db)
    assert 5 <= first < total
    # 2. kill -9 of the parent: the stored rows survive, nothing is half-written
    p = ascent(*args)
    wait_rows(db, p, first + 5)
    os.kill(p.pid, signal.SIGKILL)
    p.communicate(timeout=60)
    second = count(db)
    assert first + 5 <= second < total
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # 3. kill -9 of a worker process mid-run: its solve is rerun, not lost or doubled
    p = ascent(*args)
    wait_rows(db, p, second + 3)
    with sqlite3.connect(db) as con:
        worker = con.execute("SELECT worker FROM solves ORDER BY finished_at DESC, rowid DESC "
                             "LIMIT 1").fetchone()[0]
    pid = int(worker.rsplit(":", 1)[1])
    assert pid != p.pid
    os.kill(pid, signal.SIGKILL)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    assert f"{second}" in err.splitlines()[0]  # "... N already stored"
    got = stored(db)
    assert len(got) == total
    assert got == reference(players, seeds)
    # 4. a rerun finds everything stored and solves nothing
    p = ascent(*args)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0 and f"{total} already stored; 0 to solve" in err


@pytest.mark.slow
def test_study_on_a_scheduler_started_here_agrees_with_ascent_solve(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    addr = f"tcp://127.0.0.1:{port}"
    common = dict(cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sched = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                              "--port", str(port), "--no-dashboard"], **common)
    worker = subprocess.Popen([sys.executable, "-m", "dask", "worker", addr, "--nthreads", "1",
                               "--nworkers", "1", "--no-dashboard"], **common)
    try:
        db = tmp_path / "c.db"
        p = ascent("study", "run", "--players", "1,3", "--seeds", "1-6", *RULE_ARGS,
                   "--db", str(db), "--scheduler", addr, "--quiet")
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0, err
    finally:
        for proc in (worker, sched):
            proc.terminate()
        for proc in (worker, sched):
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    got = stored(db)
    assert got == reference(range(1, 4, 2), range(1, 7))
    # deal by deal against the command line itself, for two of them
    for players, seed in ((1, 1), (3, 6)):
        r = CliRunner().invoke(main, ["solve", "--seed", str(seed), "--players", str(players),
                                      *RULE_ARGS, "--json"])
        data = json.loads(r.stdout)
        turns = len(data["plan"]["moves"]) if data["plan"] else None
        assert got[(players, seed)] == (data["verdict"], turns)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("args, needle", [
    (["--players", "1", "--deals", "2", "--vary", "colour=x"], "unknown rule option 'colour'"),
    (["--players", "1", "--deals", "2", "--vary", "dealing=sideways"], "unknown value 'sideways'"),
    (["--players", "1", "--deals", "2", "--vary", "campfire"], "unknown rule option 'campfire'"),
    (["--players", "1", "--deals", "2", "--vary", "hand_size"], "give its values (e.g. hand_size="),
    (["--players", "1", "--deals", "2", "--rules", "nope=1"], "unknown rule option 'nope'"),
    (["--players", "1", "--seeds", "5-4"], "range 5-4 is empty"),
    (["--players", "1", "--deals", "0"], "--deals must be at least 1"),
    (["--players", "0-2", "--deals", "2"], "--players must be within 1-5"),
    (["--players", "1", "--deals", "2", "--objective", "speed"], "unknown objective speed"),
    (["--players", "1", "--deals", "2", "--workers", "1", "--scheduler", "tcp://x:1"], "not both"),
    # the shared option types (cli/options.py): ASCII digits, sane ranges, checked first
    (["--players", "١", "--deals", "2"], "--players"),
    (["--players", "1", "--seeds", "1-١"], "digits 0-9"),
    (["--players", "1", "--seeds", "0-99999999999999999"], "more than 1,000,000"),
    (["--players", "1", "--seeds", "18446744073709551615"], "--seeds"),
    (["--players", "1", "--deals", "99999999999999999999"], "--deals"),
    (["--players", "1", "--deals", "2", "--time-limit", "nan"], "--time-limit"),
    (["--players", "1", "--deals", "2", "--time-limit", "-1"], "--time-limit"),
    (["--players", "1", "--deals", "2", "--workers", "2147483648"], "--workers"),
    (["--players", "1", "--deals", "2", "--table-limit", "１２８"], "--table-limit"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, args: list[str], needle: str) -> None:
    r = run("study", "run", *args, "--db", str(tmp_path / "x.db"))
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ascent: error: ") and needle in lines[0], lines
    assert not (tmp_path / "x.db").exists()


def test_a_database_of_no_file_is_refused() -> None:
    for cmd in (["study", "run", "--players", "1", "--deals", "1"],
                ["simulate", "--bot", "greedy", "--players", "1", "--deals", "1"]):
        r = run(*cmd, "--rules", "preset=tiny", "--workers", "1", "--db", ":memory:")
        assert r.exit_code == 2 and "must be a file" in r.stderr, r.stderr


def test_bad_databases_are_refused_untouched(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("not a database\n")
    r = run("study", "run", "--players", "1", "--deals", "1", "--db", str(notes))
    assert r.exit_code == 2 and "not an SQLite database" in r.stderr
    assert notes.read_text() == "not a database\n"
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE solves (key TEXT, x INTEGER)")
    r = run("study", "run", "--players", "1", "--deals", "1", "--db", str(other))
    assert r.exit_code == 2 and "table solves has columns key, x" in r.stderr
    r = run("study", "run", "--players", "1", "--deals", "1", "--db", str(tmp_path / "no" / "x.db"))
    assert r.exit_code == 2 and "does not exist" in r.stderr
    r = run("study", "run", "--players", "1", "--deals", "1", "--db", str(tmp_path))
    assert r.exit_code == 2 and "is a folder" in r.stderr
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as a user who can write anywhere (root)")
        r = run("study", "run", "--players", "1", "--deals", "1", "--db", str(ro / "x.db"))
        assert r.exit_code == 2 and "ascent: error:" in r.stderr
    finally:
        ro.chmod(0o700)


def test_another_programs_database_is_refused_before_any_write(tmp_path: Path) -> None:
    """A database with tables but none of a study's is another program's: refused before any
    write, not even the switch to WAL; so is it by ascent simulate."""
    theirs = tmp_path / "theirs.db"
    with sqlite3.connect(theirs) as con:
        con.execute("CREATE TABLE t (x INTEGER)")
        con.execute("INSERT INTO t VALUES (1)")
    con.close()
    before = theirs.read_bytes()
    r = run("study", "run", "--players", "1", "--deals", "1", "--rules", "preset=tiny",
            "--db", str(theirs), "--workers", "1")
    assert r.exit_code == 2 and "other tables (t)" in r.stderr, r.output
    assert len(r.stderr.strip().splitlines()) == 1
    r = run("simulate", "--bot", "greedy", "--players", "1", "--seeds", "1", "--rules",
            "preset=tiny", "--workers", "1", "--db", str(theirs), "--quiet")
    assert r.exit_code == 2 and "other tables (t)" in r.stderr, r.output
    assert theirs.read_bytes() == before
    assert sorted(x.name for x in tmp_path.iterdir() if x.name.startswith("theirs")) == ["theirs.db"]
    # a table of a study's name with other columns is refused before anything is written too
    runs_only = tmp_path / "runs.db"
    with sqlite3.connect(runs_only) as con:
        con.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT, score REAL)")
    con.close()
    before = runs_only.read_bytes()
    r = run("study", "run", "--players", "1", "--deals", "1", "--rules", "preset=tiny",
            "--db", str(runs_only), "--workers", "1")
    assert r.exit_code == 2 and "table runs has columns id, name, score" in r.stderr, r.output
    assert runs_only.read_bytes() == before
    # a database in WAL mode, closed (no -wal/-shm beside it), given to simulate: refused,
    # and the probe leaves no -wal/-shm behind
    study_db = tmp_path / "study.db"
    con = sqlite3.connect(study_db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE solves (key TEXT PRIMARY KEY, task TEXT)")
    con.commit()
    con.close()
    assert sorted(x.name for x in tmp_path.iterdir() if x.name.startswith("study")) == ["study.db"]
    before = study_db.read_bytes()
    r = run("simulate", "--bot", "greedy", "--players", "1", "--seeds", "1", "--rules",
            "preset=tiny", "--workers", "1", "--db", str(study_db), "--quiet")
    assert r.exit_code == 2 and "other tables" in r.stderr, r.output
    assert study_db.read_bytes() == before
    assert sorted(x.name for x in tmp_path.iterdir() if x.name.startswith("study")) == ["study.db"]


@pytest.mark.slow
def test_unreachable_scheduler_is_one_line_exit_2(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = run("study", "run", "--players", "1", "--deals", "1", "--db", str(tmp_path / "x.db"),
            "--scheduler", f"tcp://127.0.0.1:{port}")
    assert r.exit_code == 2 and "cannot reach the Dask scheduler" in r.stderr
    assert not (tmp_path / "x.db").exists()


def test_retry_unknown_replaces_unknowns_at_the_new_limit(tmp_path: Path) -> None:
    from studies.runner import run_tasks
    from studies.study import COLUMNS, TABLE, build_grid, plan_run, solve_task

    db = tmp_path / "r.db"
    old = build_grid("1", "1-3", rules=RULES, time_limit=20.0)
    run_tasks(solve_task, old.tasks(), db, TABLE, COLUMNS, progress=False, backend="processes",
              workers=1)
    with sqlite3.connect(db) as con:  # pretend seed 1 ran out of time and seed 2 crashed
        con.execute("UPDATE solves SET verdict = 'unknown' WHERE seed = 1")
        con.execute("UPDATE solves SET verdict = 'error', error = 'boom' WHERE seed = 2")
    new = build_grid("1", "1-3", rules=RULES, time_limit=30.0)
    kept = plan_run(db, new)
    assert [t["seed"] for t in kept.todo] == [2] and kept.unknown_kept == 1
    retry = plan_run(db, new, retry_unknown=True)
    assert [t["seed"] for t in retry.todo] == [1, 2] and retry.retried == 1
    run_tasks(solve_task, retry.todo, db, TABLE, COLUMNS, progress=False, backend="processes",
              workers=1)
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT seed, verdict, time_limit FROM solves ORDER BY seed").fetchall()
    ref = reference(range(1, 2), range(1, 4))
    assert rows == [(1, ref[(1, 1)][0], 30.0), (2, ref[(1, 2)][0], 30.0), (3, ref[(1, 3)][0], 20.0)]
    assert plan_run(db, new, retry_unknown=True).todo == []
