"""The study runner (studies.runner): one row per task in SQLite, resume, a worker that dies,
errors and skips, bad databases, an unreachable scheduler. One 2-worker LocalCluster; the
other runs use the plain process pool, which shares the same writer and resume logic."""

from __future__ import annotations

import socket
import sqlite3
import time
from pathlib import Path

import pytest

from studies.runner import RunnerError, probe_scheduler, run_tasks
from tests.runner_tasks import die_once, square

COLS = {"verdict": "TEXT", "value": "INTEGER", "error": "TEXT"}


def rows(db: Path, table: str = "t") -> dict[str, tuple]:
    con = sqlite3.connect(db)
    try:
        out = con.execute(f"SELECT key, verdict, value, error, worker FROM {table}").fetchall()
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()
    keys = [r[0] for r in out]
    assert len(keys) == len(set(keys))
    return {r[0]: r[1:] for r in out}


def test_local_cluster_two_workers_survives_a_killed_worker(tmp_path: Path) -> None:
    tasks = [{"key": f"n{n}", "n": n, "dir": str(tmp_path)} for n in [*range(8), 13, 99]]
    s = run_tasks(die_once, tasks, tmp_path / "x.db", "t", COLS, workers=2, progress=False)
    got = rows(tmp_path / "x.db")
    dead_pid = (tmp_path / "died").read_text()  # the worker really was killed once
    assert set(got) == {f"n{n}" for n in [*range(8), 13]}  # 99 skipped itself
    assert got["n3"][:2] == ("odd", 9) and not got["n3"][3].endswith(f":{dead_pid}")
    assert got["n13"][0] == "error" and "unlucky 13" in got["n13"][2]
    for n in range(8):
        assert got[f"n{n}"][:2] == ("even" if n % 2 == 0 else "odd", n * n)
    assert s.workers == 2 and s.stored == 9 and s.skipped == 1 and not s.interrupted
    assert s.by_outcome == {"even": 4, "odd": 4, "error": 1}
    assert s.remaining == 1 and "run the same command again" in s.text()


def test_resume_skips_stored_keys_reruns_errors_and_replaces(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    tasks = [{"key": f"n{n}", "n": n} for n in (1, 2, 13)]
    s1 = run_tasks(square, tasks, db, "t", COLS, workers=1, progress=False, backend="processes")
    assert s1.stored == 3 and s1.already == 0
    first = rows(db)
    more = tasks + [{"key": "n4", "n": 4}, {"key": "n5b", "n": 5, "replaces": ["n1"]}]
    s2 = run_tasks(square, more, db, "t", COLS, workers=1, progress=False, backend="processes")
    # n1, n2 kept as they were; n13 (an error) run again; n4 new; n5b replaced n1
    assert s2.already == 2 and s2.stored == 3
    got = rows(db)
    assert set(got) == {"n2", "n13", "n4", "n5b"}
    assert got["n2"] == first["n2"] and got["n5b"][:2] == ("odd", 25)
    s3 = run_tasks(square, more[1:4], db, "t", COLS, workers=1, progress=False,
                   backend="processes")
    assert s3.already == 2 and s3.stored == 1  # only the error row again


def test_plain_progress_lines_and_summary(tmp_path: Path, capsys) -> None:
    tasks = [{"key": f"n{n}", "n": n} for n in range(4)]
    run_tasks(square, tasks, tmp_path / "x.db", "t", COLS, workers=1, progress="plain",
              backend="processes", title="squares")
    err = capsys.readouterr().err
    assert "squares: 4 task(s) to run" in err and "[4/4] even 2 odd 2" in err


def test_bad_databases_are_refused_and_left_alone(tmp_path: Path) -> None:
    t = [{"key": "a", "n": 1}]
    text = tmp_path / "notes.txt"
    text.write_text("my notes\n")
    with pytest.raises(RunnerError, match="not an SQLite database"):
        run_tasks(square, t, text, "t", COLS, progress=False, backend="processes")
    assert text.read_text() == "my notes\n"
    with pytest.raises(RunnerError, match="does not exist"):
        run_tasks(square, t, tmp_path / "no" / "x.db", "t", COLS, progress=False)
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (key TEXT PRIMARY KEY, something TEXT)")
    con.execute("INSERT INTO t VALUES ('a', 'precious')")
    con.commit()
    con.close()
    with pytest.raises(RunnerError, match="has columns key, something"):
        run_tasks(square, t, other, "t", COLS, progress=False, backend="processes")
    assert sqlite3.connect(other).execute("SELECT * FROM t").fetchall() == [("a", "precious")]
    with pytest.raises(RunnerError, match="not unique"):
        run_tasks(square, t + t, tmp_path / "y.db", "t", COLS, progress=False)
    with pytest.raises(RunnerError, match="outcome column"):
        run_tasks(square, t, tmp_path / "y.db", "t", {"value": "INTEGER"}, progress=False)


def test_unreachable_scheduler_is_one_error(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.monotonic()
    with pytest.raises(RunnerError, match="cannot reach the Dask scheduler"):
        probe_scheduler(f"tcp://127.0.0.1:{port}", timeout=2)
    assert time.monotonic() - start < 60
