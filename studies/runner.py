"""The study machinery: run many independent tasks on Dask and store one SQLite row per task.

API (used by ``ascent study run`` and by the bots' ``ascent simulate``)::

    from studies.runner import RunnerError, Skip, Summary, run_tasks

    summary = run_tasks(
        fn,              # a top-level (picklable, importable on the workers) function
                         #   fn(task: dict) -> dict of column values
        tasks,           # list of JSON-able dicts, each with a stable string "key"
        db_path,         # SQLite file (created if missing; WAL journal)
        table,           # table name, e.g. "solves"
        columns,         # {name: SQLite type}, the values fn returns ("verdict": "TEXT", ...)
        workers=None,    # LocalCluster worker processes (default: one per core)
        scheduler=None,  # "tcp://HOST:8786": a running Dask scheduler instead of a LocalCluster
        progress=True,   # rich progress bar on a terminal, plain lines otherwise, False: silent
        outcome="verdict",  # the column whose values are counted in the progress and summary
    ) -> Summary

How it runs:

* **One writer.** Only the calling process writes to the database. Workers return their row;
  the caller streams finished tasks with ``distributed.as_completed`` and commits each row in
  its own transaction (WAL journal, ``synchronous=NORMAL``), so a ``kill -9`` of the caller
  loses at most the tasks in flight, never a stored row.
* **Resume.** A task whose ``key`` is already in ``table`` is skipped. A task may carry
  ``"replaces": [old keys]``: those rows are deleted in the same transaction that stores its
  row (how ``--retry-unknown`` swaps an unknown for the answer at a new time limit).
  Rows whose outcome is ``"error"`` are rerun (and replaced) by the next run.
* **Worker death.** A worker process that dies (killed, out of memory) is restarted by its
  nanny and the scheduler reruns its task elsewhere; a task is stored once, when its result
  arrives. A task that kills :data:`ALLOWED_FAILURES` workers in a row is stored as an
  ``error`` row. An exception raised by ``fn`` is stored as an ``error`` row with its text in
  the ``error`` column (when ``columns`` has one). ``fn`` may raise :class:`Skip` to store
  nothing (e.g. a solve cut short by Ctrl-C).
* **Ctrl-C** (or SIGTERM). Stops submitting, drops the tasks in flight, shuts the cluster
  down and returns a :class:`Summary` with ``interrupted=True`` (the command line prints it
  and exits 130). The workers of the embedded cluster ignore SIGINT (the caller stops them).
  Rerunning the same command resumes.
* **Cluster.** By default an embedded ``distributed.LocalCluster`` (one single-threaded worker
  process per core, its HTTP server on a free port, nothing to start). With
  ``scheduler=ADDR`` the tasks go to a running cluster, started for example with::

      dask scheduler                        # on the head machine, listens on :8786
      dask worker tcp://HEAD:8786 --nthreads 1 --nworkers -1   # on each machine, one per core

  The workers must be able to import ``fn``'s module (install the project on every machine:
  ``pip install -e .``). The database stays on the machine that runs the command.
  ``backend="processes"`` runs the same tasks on a plain
  :class:`concurrent.futures.ProcessPoolExecutor` instead of Dask (for measuring Dask's
  overhead; no retry on worker death there).

Errors: :class:`RunnerError` (a one-line message) for a database that cannot be opened,
written or is not SQLite, a table whose columns differ from ``columns``, an unreachable
scheduler, or a bad argument.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sqlite3
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

#: How many times a task may take its worker down with it before it is stored as an error.
ALLOWED_FAILURES = 3

#: Column names the runner owns in every table.
RESERVED = ("key", "task", "worker", "finished_at")

_SQL_TYPES = ("TEXT", "INTEGER", "REAL", "BLOB", "NUMERIC")


class RunnerError(Exception):
    """A problem with the run's set-up (database, scheduler, arguments); one line of text."""


class Skip(Exception):
    """Raised by a task function: store no row for this task (it runs again next time)."""


@dataclass
class Summary:
    """What a run did.

    * ``total``: tasks given; ``already``: skipped because their key was stored before;
    * ``stored``: rows stored by this run; ``by_outcome``: those rows counted by ``outcome``;
    * ``skipped``: tasks whose function raised :class:`Skip`; ``dropped``: tasks in flight or
      not started when the run stopped early (they run next time);
    * ``interrupted``: Ctrl-C stopped the run; ``seconds``: wall time of the run.
    """

    total: int = 0
    already: int = 0
    stored: int = 0
    by_outcome: Counter = field(default_factory=Counter)
    skipped: int = 0
    dropped: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    workers: int = 0

    @property
    def remaining(self) -> int:
        """Tasks still without a row after this run."""
        return self.total - self.already - self.stored

    def text(self) -> str:
        """A few lines for the terminal."""
        counts = ", ".join(f"{k} {v}" for k, v in sorted(self.by_outcome.items())) or "none"
        rate = self.stored / self.seconds * 60 if self.seconds > 0 else 0.0
        head = "interrupted" if self.interrupted else "done"
        lines = [
            f"{head}: {self.stored} row(s) stored this run ({counts}) in {self.seconds:.1f} s "
            f"({rate:.0f}/min on {self.workers} worker(s)); {self.already} already stored",
        ]
        if self.remaining:
            lines.append(f"{self.remaining} task(s) still to run ({self.dropped} dropped in "
                         f"flight or not started, {self.skipped} skipped by the task); "
                         "run the same command again to resume")
        return "\n".join(lines)


# ---- the database ------------------------------------------------------------------------


def read_only_uri(path: str | os.PathLike) -> str:
    """An SQLite URI that reads ``path`` without writing anything: with no ``-wal`` file
    beside it no connection is open, so it is opened immutable (SQLite then makes no
    ``-shm``/``-wal`` files, which a read-only connection could not remove); otherwise
    read-only beside the open connections."""
    p = Path(path).resolve()
    mode = "ro" if Path(f"{p}-wal").exists() else "ro&immutable=1"
    return f"{p.as_uri()}?mode={mode}"


def _tables_of(path: Path) -> dict[str, list[str]]:
    """The tables of the SQLite database ``path`` and their columns, read without writing:
    with no ``-wal`` file beside it no connection is open, and it is read as immutable (no
    ``-shm``/``-wal`` file is made); otherwise read-only beside the open connections.
    Raises :class:`RunnerError` if it cannot be read (locked past the timeout, damaged)."""
    try:
        con = sqlite3.connect(read_only_uri(path), uri=True, timeout=30)
        try:
            names = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")]
            return {n: [r[1] for r in con.execute(f'PRAGMA table_info("{n}")')] for n in names}
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise RunnerError(f"{path}: cannot read its tables ({exc}); the file is left as it "
                          "is") from None


def connect(db_path: str | os.PathLike, create: bool = True,
            tables: Mapping[str, Sequence[str]] | None = None) -> sqlite3.Connection:
    """Open ``db_path`` as an SQLite database in WAL mode (creating it when ``create``).

    ``tables``: the tables of the command's own databases and their columns; an existing
    database that has tables but none of these, or one of these with other columns, is
    another program's, and is refused before anything is written to it (not even the switch
    to WAL).
    Raises :class:`RunnerError` if the file is not an SQLite database (or is another
    program's), cannot be created or opened, or cannot be written. Never truncates an
    existing file.
    """
    if str(db_path) in ("", ":memory:"):  # SQLite's names for a database of no file
        raise RunnerError(f"{str(db_path)!r}: the results database must be a file")
    path = Path(db_path)
    if path.is_dir():
        raise RunnerError(f"{path}: is a folder, not a database file")
    if not create and not path.exists():
        raise RunnerError(f"{path}: no such database")
    if not path.parent.exists() and str(path.parent) not in ("", "."):
        raise RunnerError(f"{path}: the folder {path.parent} does not exist")
    if path.exists() and path.stat().st_size > 0:
        with open(path, "rb") as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                raise RunnerError(f"{path}: not an SQLite database (the file is left as it is)")
        if tables is not None:
            have = _tables_of(path)
            if have and not set(have) & set(tables):
                raise RunnerError(
                    f"{path}: an SQLite database of other tables ({', '.join(sorted(have)[:5])}), "
                    "not one this command wrote; the file is left as it is: use another --db")
            for name, want in tables.items():
                if name in have and have[name] != list(want):
                    raise RunnerError(
                        f"{path}: table {name} has columns {', '.join(have[name])}, not the "
                        f"{', '.join(want)} this run writes; the file is left as it is: use "
                        "another --db")
    try:
        con = sqlite3.connect(str(path), timeout=30, isolation_level=None)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
        con.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError as exc:
        raise RunnerError(f"{path}: cannot open as an SQLite database ({exc})") from None
    return con


def ensure_table(con: sqlite3.Connection, table: str, columns: Mapping[str, str],
                 db_name: str = "database") -> None:
    """Create ``table`` (``key`` primary key, ``task`` JSON, ``columns``, ``worker``,
    ``finished_at``) or check that the existing one has exactly these columns.

    Raises :class:`RunnerError` for a bad name or type, a table of another shape, or a
    database that cannot be written.
    """
    _check_name(table, "table")
    for name, typ in columns.items():
        _check_name(name, "column")
        if name in RESERVED:
            raise RunnerError(f"column name {name!r} is reserved by the runner")
        if typ.upper() not in _SQL_TYPES:
            raise RunnerError(f"column {name}: unknown SQLite type {typ!r}")
    want = ["key", "task", *columns, "worker", "finished_at"]
    have = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
    if have:
        if have != want:
            raise RunnerError(
                f"{db_name}: table {table} has columns {', '.join(have)}, not the "
                f"{', '.join(want)} this run writes; use another --db")
        return
    cols = ", ".join(f"{n} {t.upper()}" for n, t in columns.items())
    try:
        con.execute(f"CREATE TABLE {table} (key TEXT PRIMARY KEY, task TEXT NOT NULL, {cols}, "
                    "worker TEXT, finished_at TEXT)")
    except sqlite3.OperationalError as exc:
        raise RunnerError(f"{db_name}: cannot write ({exc})") from None


def _check_name(name: str, what: str) -> None:
    if not name or not (name.replace("_", "a").isalnum() and name[0].isalpha()):
        raise RunnerError(f"bad {what} name {name!r}: letters, digits and _ only")


def stored_keys(con: sqlite3.Connection, table: str, outcome: str | None = None,
                exclude: Sequence[str] = ()) -> set[str]:
    """Keys stored in ``table`` (leaving out rows whose ``outcome`` is in ``exclude``)."""
    if outcome and exclude:
        marks = ",".join("?" * len(exclude))
        rows = con.execute(f"SELECT key FROM {table} WHERE {outcome} IS NULL OR "
                           f"{outcome} NOT IN ({marks})", list(exclude))
    else:
        rows = con.execute(f"SELECT key FROM {table}")
    return {r[0] for r in rows}


def _store(con: sqlite3.Connection, table: str, columns: Sequence[str], task: Mapping[str, Any],
           row: Mapping[str, Any], worker: str | None, replaces: Iterable[str]) -> None:
    """Store one row (and delete the rows it replaces) in one transaction."""
    names = ["key", "task", *columns, "worker", "finished_at"]
    values = [task["key"], json.dumps(task, sort_keys=True), *(_sql(row.get(c)) for c in columns),
              worker, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())]
    con.execute("BEGIN IMMEDIATE")
    try:
        for old in replaces:
            if old != task["key"]:
                con.execute(f"DELETE FROM {table} WHERE key = ?", (old,))
        con.execute(f"INSERT OR REPLACE INTO {table} ({', '.join(names)}) "
                    f"VALUES ({', '.join('?' * len(names))})", values)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _sql(v: Any) -> Any:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (dict, list, tuple)):
        return json.dumps(v, sort_keys=True)
    return v


# ---- running one task on a worker --------------------------------------------------------


def call_task(fn: Callable[[dict], dict], task: dict) -> dict:
    """Run ``fn(task)`` on a worker; never raises for ``fn``'s own errors.

    Returns ``{"row": {...}, "worker": host:pid}``, ``{"error": text, ...}`` when ``fn``
    raised, or ``{"skip": reason, ...}`` when it raised :class:`Skip`.
    """
    import socket

    where = f"{socket.gethostname()}:{os.getpid()}"
    try:
        row = fn(task)
    except Skip as exc:
        return {"skip": str(exc), "worker": where}
    except Exception as exc:  # noqa: BLE001 - stored as an error row
        tb = traceback.extract_tb(exc.__traceback__)
        at = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
        return {"error": f"{type(exc).__name__}: {exc}{at}"[:1000], "worker": where}
    if not isinstance(row, Mapping):
        return {"error": f"task function returned {type(row).__name__}, not a dict",
                "worker": where}
    return {"row": dict(row), "worker": where}


# ---- progress ----------------------------------------------------------------------------


class _Progress:
    """A rich progress bar on a terminal (counts by outcome, rate, ETA), plain lines on a
    pipe (every ``every`` seconds), or nothing."""

    def __init__(self, mode: bool | str, total: int, title: str) -> None:
        self.total = total
        self.done = 0
        self.counts: Counter = Counter()
        self.start = time.monotonic()
        self.last = 0.0
        self.every = 10.0
        self.title = title
        self.bar = None
        self.mode = "off"
        if mode and total:
            tty = sys.stderr.isatty() if mode is True else mode == "rich"
            self.mode = "rich" if tty else "plain"
        if self.mode == "rich":
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[counts]}"), TimeElapsedColumn(), TextColumn("ETA"),
                TimeRemainingColumn(), transient=False)
            self.bar.start()
            self.task_id = self.bar.add_task(title, total=total, counts="")
        elif self.mode == "plain":
            print(f"{title}: {total} task(s) to run", file=sys.stderr, flush=True)

    def _counts(self) -> str:
        return " ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))

    def advance(self, outcome: str | None) -> None:
        self.done += 1
        if outcome is not None:
            self.counts[outcome] += 1
        if self.mode == "rich" and self.bar is not None:
            self.bar.update(self.task_id, advance=1, counts=self._counts())
        elif self.mode == "plain":
            now = time.monotonic()
            if now - self.last >= self.every or self.done == self.total:
                self.last = now
                el = now - self.start
                rate = self.done / el if el > 0 else 0.0
                eta = (self.total - self.done) / rate if rate > 0 else float("nan")
                print(f"[{self.done}/{self.total}] {self._counts()} · {rate * 60:.0f}/min · "
                      f"elapsed {el:.0f} s · ETA {eta:.0f} s", file=sys.stderr, flush=True)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


# ---- the run -----------------------------------------------------------------------------


def _local_cluster(workers: int | None):
    import signal

    import dask
    from distributed import Client, LocalCluster

    n = workers or os.cpu_count() or 1
    # a worker that dies takes its task with it ALLOWED_FAILURES times at most
    dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES - 1,
                     "distributed.worker.daemon": False,
                     "distributed.admin.tick.limit": "1h"})
    # worker processes started now inherit "ignore SIGINT"; restarted ones get the plugin
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.CRITICAL,
                               scheduler_port=0)
        client = Client(cluster)
        from studies.dask_plugins import IgnoreSigint

        client.register_plugin(IgnoreSigint())
    except (OSError, RuntimeError, TimeoutError) as exc:
        raise RunnerError(f"cannot start a local Dask cluster of {n} worker(s): "
                          f"{' '.join(str(exc).split()) or type(exc).__name__}") from None
    finally:
        signal.signal(signal.SIGINT, old)
    return client, cluster


def _remote_client(scheduler: str, timeout: float = 5.0):
    from distributed import Client

    try:
        return Client(scheduler, timeout=f"{timeout}s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise RunnerError(f"cannot reach the Dask scheduler at {scheduler}: "
                          f"{' '.join(str(exc).split()) or type(exc).__name__}") from None


def probe_scheduler(scheduler: str, timeout: float = 5.0, wait_workers: float = 30.0) -> int:
    """Connect to the Dask scheduler at ``scheduler`` and return its number of workers
    (waiting up to ``wait_workers`` seconds for a first one to join).

    Raises :class:`RunnerError` if it cannot be reached within ``timeout`` seconds or has no
    worker.
    """
    client = _remote_client(scheduler, timeout)
    try:
        try:
            client.wait_for_workers(1, timeout=wait_workers)
        except (TimeoutError, OSError):
            raise RunnerError(f"the Dask scheduler at {scheduler} has no workers; start some "
                              f"with 'dask worker {scheduler}'") from None
        return len(client.scheduler_info().get("workers", {}))
    finally:
        _close(client, None)


def run_tasks(fn: Callable[[dict], dict], tasks: Sequence[dict], db_path: str | os.PathLike,
              table: str, columns: Mapping[str, str], workers: int | None = None,
              scheduler: str | None = None, progress: bool | str = True,
              outcome: str = "verdict", title: str = "tasks", backend: str = "dask",
              on_start: Callable[[int], None] | None = None) -> Summary:
    """Run ``fn`` on every task not yet stored and store one row per task (see the module
    docstring for the guarantees).

    ``tasks``: JSON-able dicts with a unique string ``key`` (and optionally ``replaces``);
    ``columns``: ``{name: SQLite type}`` of the values ``fn`` returns (extra values are
    ignored, missing ones stored as NULL); ``outcome``: a column of ``columns`` counted in the
    progress and the summary; ``progress``: ``True`` (rich bar on a terminal, plain lines
    otherwise), ``"plain"``, ``"rich"`` or ``False``; ``on_start(n)``: called with the number
    of tasks to run once the database is checked, before the cluster starts.

    Returns a :class:`Summary`. Raises :class:`RunnerError` for a bad database, table,
    argument or scheduler, before any task runs.
    """
    if outcome not in columns:
        raise RunnerError(f"outcome column {outcome!r} is not one of the columns")
    if workers is not None and workers < 1:
        raise RunnerError("workers must be at least 1")
    if scheduler is not None and workers is not None:
        raise RunnerError("give workers (a LocalCluster) or a scheduler address, not both")
    if backend not in ("dask", "processes"):
        raise RunnerError(f"unknown backend {backend!r}")
    keys = [t.get("key") for t in tasks]
    if any(not isinstance(k, str) or not k for k in keys):
        raise RunnerError("every task needs a non-empty string key")
    if len(set(keys)) != len(keys):
        raise RunnerError("task keys are not unique")
    con = connect(db_path, tables={table: ["key", "task", *columns, "worker", "finished_at"]})
    summary = Summary(total=len(tasks))
    start = time.monotonic()
    old_term = _term_as_interrupt()
    try:
        ensure_table(con, table, columns, str(db_path))
        done = stored_keys(con, table, outcome, exclude=("error",))
        todo = [t for t in tasks if t["key"] not in done]
        summary.already = len(tasks) - len(todo)
        if on_start is not None:
            on_start(len(todo))
        if todo:
            if backend == "processes":
                _run_pool(fn, todo, con, table, columns, workers, progress, outcome, title,
                          summary)
            else:
                _run_dask(fn, todo, con, table, columns, workers, scheduler, progress, outcome,
                          title, summary)
    finally:
        con.close()
        summary.seconds = time.monotonic() - start
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
    return summary


def _raise_interrupt(signum, frame) -> None:
    # once: a second SIGTERM (``timeout`` sends one to the process and one to its group)
    # must not cut the clean stop short
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def _term_as_interrupt():
    """In the main thread, make SIGTERM stop the run like Ctrl-C (a clean stop with a
    summary; also for a run started in the background, where SIGINT is ignored). Returns the
    old handler, or ``None`` when nothing was changed."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_interrupt)


def _handle(con, table, columns, outcome, task, res, summary, bar) -> None:
    cols = list(columns)
    if "skip" in res:
        summary.skipped += 1
        bar.advance(None)
        return
    if "error" in res:
        row = {outcome: "error"}
        if "error" in columns:
            row["error"] = res["error"]
    else:
        row = res["row"]
    _store(con, table, cols, task, row, res.get("worker"), task.get("replaces", ()))
    summary.stored += 1
    summary.by_outcome[str(row.get(outcome))] += 1
    bar.advance(str(row.get(outcome)))


def _run_dask(fn, todo, con, table, columns, workers, scheduler, progress, outcome, title,
              summary) -> None:
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    client = cluster = None
    bar = None
    in_flight: dict = {}
    try:
        if scheduler is not None:
            client = _remote_client(scheduler)
        else:
            client, cluster = _local_cluster(workers)
        n_workers = max(1, len(client.scheduler_info().get("workers", {})) or (workers or 1))
        summary.workers = n_workers
        window = max(4, 4 * n_workers)
        pending = iter(todo)
        ac = as_completed()

        def submit_next() -> bool:
            task = next(pending, None)
            if task is None:
                return False
            fut = client.submit(call_task, fn, task, pure=False,
                                key=f"task-{abs(hash(task['key'])):x}-{time.monotonic_ns()}")
            in_flight[fut.key] = (task, fut)
            ac.add(fut)
            return True

        for _ in range(window):
            if not submit_next():
                break
        bar = _Progress(progress, len(todo), title)
        for fut in ac:
            task, _ = in_flight.pop(fut.key)
            try:
                res = fut.result()
            except KilledWorker as exc:
                res = {"error": f"the task took {ALLOWED_FAILURES} worker processes down with "
                                f"it (killed or out of memory): {exc}"[:1000]}
            except Exception as exc:  # noqa: BLE001 - a Dask-level failure of this task
                res = {"error": f"{type(exc).__name__}: {exc}"[:1000]}
            _handle(con, table, columns, outcome, task, res, summary, bar)
            submit_next()
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        if bar is not None:
            bar.stop()
        summary.dropped = len(todo) - summary.stored - summary.skipped
        if client is not None:
            try:
                for _, fut in list(in_flight.values()):
                    fut.cancel()
            except Exception:  # noqa: BLE001 - shutting down
                pass
            _close(client, cluster)


def _close(client, cluster) -> None:
    """Close the client and the LocalCluster quietly (also after Ctrl-C)."""
    import contextlib
    import io

    with contextlib.redirect_stderr(io.StringIO()):
        for obj in (client, cluster):
            if obj is None:
                continue
            try:
                obj.close(timeout=10) if obj is cluster else obj.close()
            except BaseException:  # noqa: BLE001 - shutting down; Ctrl-C twice included
                pass


def _run_pool(fn, todo, con, table, columns, workers, progress, outcome, title,
              summary) -> None:
    import concurrent.futures as cf

    n = workers or os.cpu_count() or 1
    summary.workers = n
    bar = _Progress(progress, len(todo), title)
    pool = cf.ProcessPoolExecutor(max_workers=n)
    try:
        pending = iter(todo)
        in_flight: dict = {}

        def submit_next() -> None:
            task = next(pending, None)
            if task is not None:
                in_flight[pool.submit(call_task, fn, task)] = task

        for _ in range(4 * n):
            submit_next()
        while in_flight:
            finished, _ = cf.wait(list(in_flight), return_when=cf.FIRST_COMPLETED)
            for fut in finished:
                task = in_flight.pop(fut)
                try:
                    res = fut.result()
                except Exception as exc:  # noqa: BLE001 - a broken pool
                    res = {"error": f"{type(exc).__name__}: {exc}"[:1000]}
                _handle(con, table, columns, outcome, task, res, summary, bar)
                submit_next()
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        bar.stop()
        summary.dropped = len(todo) - summary.stored - summary.skipped
        pool.shutdown(wait=False, cancel_futures=True)
