"""A solve study: every (deal, player count, rule set, objective) of a grid, one SQLite row each.

The grid is built by :func:`build_grid` from seeds, player counts, a base rule set
(``--rules K=V``), rule options to vary (``--vary OPTION=V1,V2``: every combination, or one
option at a time with ``each=True``) and objectives. Each grid point is solved by
:func:`solve_task` (the DFS of :mod:`solver`, with a time limit) on the Dask runner
(:func:`studies.runner.run_tasks`) and stored in the table ``solves`` (:data:`COLUMNS`).

Row key: ``seed|players|rules|objective|time limit|solver version`` where ``rules`` is the full
rule set as canonical JSON and the solver version is the package version plus a hash of the
``model/`` and ``solver/`` sources (:func:`solver_version`). The grid *point* is the key
without the time limit and the solver version.

Resume (:func:`plan_run`): a point that has a row is not solved again, whatever limit or
solver version the row came from, except

* rows with verdict ``error`` (rerun and replaced),
* with ``retry_unknown``: rows with verdict ``unknown`` at another time limit (rerun at the new
  limit; the new row replaces the old one in one transaction).

A database is extended by new points; a database of another kind (other tables or columns) is
refused (:class:`~studies.runner.RunnerError`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from model.errors import RuleOptionError
from model.rules import ALL_CHOICES, INT_RANGES, MOVE_RULINGS, RuleSet
from studies.runner import RunnerError, Skip, connect, ensure_table, run_tasks

TABLE = "solves"

#: Columns of the ``solves`` table, besides the runner's ``key``, ``task``, ``worker`` and
#: ``finished_at``: the point, the answer and the effort.
COLUMNS: dict[str, str] = {
    "point": "TEXT",           # key without time limit and solver version
    "seed": "INTEGER",
    "players": "INTEGER",
    "rules": "TEXT",           # full rule set, canonical JSON
    "variant": "TEXT",         # preset and changed options, e.g. "standard bridge_replace_cost=left"
    "objective": "TEXT",
    "time_limit": "REAL",      # seconds
    "solver_version": "TEXT",
    "verdict": "TEXT",         # win | loss | unknown | error
    "value": "INTEGER",        # objective value of the plan found (waste: cards out; turns: moves)
    "bound": "INTEGER",        # proven lower bound on the objective (None if nothing proven)
    "optimal": "INTEGER",      # value proven minimal
    "proven": "INTEGER",       # the verdict (and for waste/turns the value) is proven
    "cards_out": "INTEGER",    # cards out of the game at the end of the plan found (wins)
    "turns": "INTEGER",        # moves of the plan found (wins)
    "best_progress": "INTEGER",  # most mountain slots filled on any line searched
    "seconds": "REAL",         # wall time of the solve on its worker
    "nodes": "INTEGER",
    "peak_mb": "REAL",         # peak resident memory of the worker process during the solve
    "error": "TEXT",
}

RULINGS = MOVE_RULINGS  # the options that change a move's legality or cost (docs/rules.md, section 3)


class StudyError(RunnerError):
    """Bad study input (options, grid, database); a one-line message."""


# ---- parsing ----------------------------------------------------------------------------


def parse_int_list(text: str, what: str) -> list[int]:
    """``"1-5"``, ``"1,3,5"`` or ``"1-3,7"`` as a list of whole numbers (in order, no
    repeats). Raises :class:`StudyError` for anything else or a reversed range."""
    out: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        try:
            if "-" in part[1:]:
                a, b = part.split("-", 1) if not part.startswith("-") else (part, "")
                lo, hi = int(a), int(b)
                if hi < lo:
                    raise StudyError(f"{what}: range {part} is empty ({lo} > {hi})")
                out.extend(range(lo, hi + 1))
            else:
                out.append(int(part))
        except ValueError:
            raise StudyError(f"{what} takes whole numbers like 1-5 or 1,3,5, not {text!r}") from None
    return list(dict.fromkeys(out))  # each once, in the order given


def parse_vary(items: Iterable[str]) -> dict[str, list[str]]:
    """``--vary`` items: ``OPTION=V1,V2``, ``OPTION`` (every value of a ruling option) or
    ``rulings`` (every ruling option with every value). Raises :class:`StudyError` for an
    unknown option or value (naming the valid ones) or an option given twice."""
    out: dict[str, list[str]] = {}
    for item in items:
        item = item.strip()
        if item == "rulings":
            pairs = [(k, list(ALL_CHOICES[k])) for k in RULINGS]
        elif "=" in item:
            k, values = item.split("=", 1)
            pairs = [(k.strip(), [v.strip() for v in values.split(",") if v.strip()])]
        else:
            if item in INT_RANGES:
                lo, hi = INT_RANGES[item]
                raise StudyError(f"--vary {item}: give its values (e.g. {item}={lo},{hi}); only a "
                                 f"ruling option alone means all its values: {', '.join(ALL_CHOICES)}")
            if item not in ALL_CHOICES:
                raise StudyError(f"--vary: unknown rule option {item!r}; valid options: "
                                 f"{', '.join([*INT_RANGES, *ALL_CHOICES])}, or 'rulings'")
            pairs = [(item, list(ALL_CHOICES[item]))]
        for k, vs in pairs:
            if k not in ALL_CHOICES and k not in INT_RANGES:
                raise StudyError(f"--vary: unknown rule option {k!r}; valid options: "
                                 f"{', '.join([*INT_RANGES, *ALL_CHOICES])}")
            if k in out:
                raise StudyError(f"--vary: option {k} given twice")
            if not vs:
                raise StudyError(f"--vary {k}: no values")
            for v in vs:
                try:
                    RuleSet.from_options([f"{k}={v}"])
                except RuleOptionError as exc:
                    raise StudyError(f"--vary: {exc}") from None
            out[k] = list(dict.fromkeys(vs))
    return out


def rule_sets(base: Sequence[str], vary: dict[str, list[str]], each: bool) -> list[RuleSet]:
    """The rule sets of the grid: the base (``K=V`` options) changed by every combination of
    ``vary`` or, with ``each``, the base plus one option changed at a time. Duplicates are
    dropped, the order is kept. Raises :class:`StudyError` for a bad option."""
    try:
        base_rules = RuleSet.from_options(list(base))
    except RuleOptionError as exc:
        raise StudyError(str(exc)) from None
    combos: list[list[str]] = []
    if not vary:
        combos = [[]]
    elif each:
        combos = [[]] + [[f"{k}={v}"] for k, vs in vary.items() for v in vs]
    else:
        combos = [[f"{k}={v}" for k, v in zip(vary, vs)]
                  for vs in itertools.product(*vary.values())]
    out: list[RuleSet] = []
    for c in combos:
        r = RuleSet.from_options({**base_rules.to_dict(), **dict(x.split("=", 1) for x in c)})
        if r not in out:
            out.append(r)
    return out


# ---- the grid ---------------------------------------------------------------------------


def solver_version() -> str:
    """``<package version>+<12 hex digits>``: the version of :mod:`model.version`, and a
    hash of the sources of ``model/`` and ``solver/``, so any change to the rules engine or
    the searches gives a new version."""
    from model.version import VERSION

    h = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for pkg in ("model", "solver"):
        for p in sorted((root / pkg).glob("*.py")):
            h.update(p.name.encode())
            h.update(p.read_bytes())
    return f"{VERSION}+{h.hexdigest()[:12]}"


def rules_json(rules: RuleSet) -> str:
    """The full rule set as canonical JSON (sorted keys, no spaces)."""
    return json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))


@dataclass
class Grid:
    """The study grid: ``seeds`` × ``players`` × ``rules`` × ``objectives``, solved with
    ``time_limit`` seconds and ``memory_limit_mb`` each."""

    seeds: list[int]
    players: list[int]
    rules: list[RuleSet]
    objectives: list[str]
    time_limit: float
    memory_limit_mb: int = 2048
    version: str = field(default_factory=solver_version)

    def __len__(self) -> int:
        return len(self.seeds) * len(self.players) * len(self.rules) * len(self.objectives)

    def tasks(self) -> list[dict[str, Any]]:
        """One task per grid point, seed by seed (then players, objective, rule set): the
        paired rule sets of one deal run close together, and a run stopped early covers every
        player count and rule set on its first seeds."""
        out = []
        for seed in self.seeds:
            for players in self.players:
                for objective in self.objectives:
                    for rules in self.rules:
                        rj = rules_json(rules)
                        point = f"seed={seed}|players={players}|rules={rj}|objective={objective}"
                        out.append({
                            "key": f"{point}|time_limit={self.time_limit:g}|solver={self.version}",
                            "point": point, "seed": seed, "players": players, "rules": rj,
                            "variant": rules.describe(), "objective": objective,
                            "time_limit": self.time_limit, "memory_limit_mb": self.memory_limit_mb,
                            "solver_version": self.version,
                        })
        return out


def build_grid(players: str, seeds: str | None = None, deals: int | None = None,
               rules: Sequence[str] = (), vary: Sequence[str] = (), each: bool = False,
               objectives: Sequence[str] = ("none",), time_limit: float = 10.0,
               memory_limit_mb: int = 2048) -> Grid:
    """The grid of ``ascent study run``; raises :class:`StudyError` for bad or empty input.

    ``players``: ``"1-5"``; ``seeds``: ``"A-B"`` or ``deals``: N (seeds 1..N); ``rules``:
    base ``K=V`` options; ``vary``: see :func:`parse_vary`; ``objectives``: of
    :data:`solver.result.OBJECTIVES`.
    """
    from solver.result import OBJECTIVES

    ps = parse_int_list(players, "--players")
    if not ps or any(not 1 <= p <= 5 for p in ps):
        raise StudyError(f"--players must be within 1-5, not {players!r}")
    if seeds is not None and deals is not None:
        raise StudyError("give --deals N or --seeds A-B, not both")
    if seeds is not None:
        ss = parse_int_list(seeds, "--seeds")
        if any(s < 0 for s in ss):
            raise StudyError("--seeds must be 0 or more")
    elif deals is not None:
        if deals < 1:
            raise StudyError(f"--deals must be at least 1, not {deals}")
        ss = list(range(1, deals + 1))
    else:
        raise StudyError("give --deals N (seeds 1..N) or --seeds A-B")
    objs = list(dict.fromkeys(o.strip() for x in objectives for o in x.split(",") if o.strip()))
    bad = [o for o in objs if o not in OBJECTIVES]
    if bad or not objs:
        raise StudyError(f"unknown objective {', '.join(bad) or '(none given)'}; valid: "
                         f"{', '.join(OBJECTIVES)}")
    if not time_limit > 0:
        raise StudyError("--time-limit must be more than 0 seconds")
    rs = rule_sets(rules, parse_vary(vary), each)
    grid = Grid(ss, ps, rs, objs, float(time_limit), memory_limit_mb)
    if not len(grid):
        raise StudyError("the grid is empty")
    return grid


# ---- resume -----------------------------------------------------------------------------


@dataclass
class Plan:
    """What a run will do: ``todo`` tasks (with ``replaces``), and the points already covered
    (``done``), kept at another time limit or solver version (``other_limit``), and unknowns
    left as they are because ``retry_unknown`` was not given (``unknown_kept``)."""

    todo: list[dict[str, Any]]
    done: int = 0
    other_limit: int = 0
    unknown_kept: int = 0
    retried: int = 0


def plan_run(db_path: str | os.PathLike, grid: Grid, retry_unknown: bool = False) -> Plan:
    """Compare ``grid`` with the rows stored in ``db_path`` (see the module docstring).

    Creates the database and its tables when missing. Raises
    :class:`~studies.runner.RunnerError` for a file that is not a study database.
    """
    con = connect(db_path, tables={TABLE: ["key", "task", *COLUMNS, "worker", "finished_at"],
                                   "runs": RUNS_COLUMNS})
    try:
        ensure_table(con, TABLE, COLUMNS, str(db_path))
        _ensure_runs(con, str(db_path))
        stored: dict[str, list[tuple[str, str, float]]] = {}
        for key, point, verdict, tl in con.execute(
                f"SELECT key, point, verdict, time_limit FROM {TABLE}"):
            stored.setdefault(point, []).append((key, verdict, tl))
    finally:
        con.close()
    plan = Plan([])
    for task in grid.tasks():
        rows = stored.get(task["point"])
        if not rows:
            plan.todo.append(task)
            continue
        good = [r for r in rows if r[1] != "error"]
        unknown = [r for r in good if r[1] == "unknown"]
        decided = [r for r in good if r[1] != "unknown"]
        if not good:
            plan.todo.append({**task, "replaces": [r[0] for r in rows]})
        elif decided:
            plan.done += 1
            if all(r[0] != task["key"] for r in decided):
                plan.other_limit += 1
        elif retry_unknown and all(r[0] != task["key"] for r in unknown):
            plan.todo.append({**task, "replaces": [r[0] for r in rows]})
            plan.retried += 1
        else:
            plan.done += 1
            if any(r[0] != task["key"] for r in unknown):
                plan.unknown_kept += 1
    return plan


#: The columns of the ``runs`` table (one row per ``study run``).
RUNS_COLUMNS = ["id", "started_at", "finished_at", "command", "grid", "summary"]


def _ensure_runs(con: sqlite3.Connection, name: str) -> None:
    have = [r[1] for r in con.execute("PRAGMA table_info(runs)")]
    want = RUNS_COLUMNS
    if have and have != want:
        raise RunnerError(f"{name}: table runs has columns {', '.join(have)}; not a study "
                          "database of this version; use another --db")
    if not have:
        con.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at TEXT, "
                    "finished_at TEXT, command TEXT, grid TEXT, summary TEXT)")


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def record_run(db_path: str | os.PathLike, command: str, grid: Grid) -> int:
    """Add a row to the ``runs`` table (the command and grid of this run); returns its id."""
    con = connect(db_path)
    try:
        g = {"seeds": [min(grid.seeds), max(grid.seeds), len(grid.seeds)],
             "players": grid.players, "rules": [r.describe() for r in grid.rules],
             "objectives": grid.objectives, "time_limit": grid.time_limit,
             "solver_version": grid.version}
        try:
            cur = con.execute("INSERT INTO runs (started_at, command, grid) VALUES (?, ?, ?)",
                              (_now(), command, json.dumps(g)))
        except sqlite3.Error as exc:
            raise RunnerError(f"{db_path}: cannot write ({exc})") from None
        assert cur.lastrowid is not None  # set by the INSERT
        return int(cur.lastrowid)
    finally:
        con.close()


def finish_run(db_path: str | os.PathLike, run_id: int, summary: dict[str, Any]) -> None:
    """Record the end and the summary of run ``run_id``."""
    con = connect(db_path)
    try:
        try:
            con.execute("UPDATE runs SET finished_at = ?, summary = ? WHERE id = ?",
                        (_now(), json.dumps(summary), run_id))
        except sqlite3.Error as exc:
            raise RunnerError(f"{db_path}: cannot write ({exc})") from None
    finally:
        con.close()


# ---- the task ---------------------------------------------------------------------------


def _reset_peak() -> bool:
    """Reset this process's peak resident set (Linux ``clear_refs``); False if unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _peak_mb() -> float:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve_task(task: dict[str, Any]) -> dict[str, Any]:
    """Solve one grid point (runs on a Dask worker): the deal of ``seed`` for ``players``
    under ``rules`` (JSON) with the DFS, ``objective``, ``time_limit`` seconds,
    ``memory_limit_mb``. Returns the :data:`COLUMNS` values. Raises
    :class:`~studies.runner.Skip` when the solve was interrupted (Ctrl-C), so that no
    half-done answer is stored."""
    from model.deal import Deal
    from model.records import replay
    from solver import solve

    rules = RuleSet.from_options(json.loads(task["rules"]))
    deal = Deal.from_seed(task["seed"], task["players"], rules)
    _reset_peak()
    start = time.perf_counter()
    res = solve(deal, task["objective"], time_limit=task["time_limit"],
                memory_limit_mb=task.get("memory_limit_mb", 2048))
    seconds = time.perf_counter() - start
    if res.stats.get("interrupted"):
        raise Skip("interrupted")
    cards_out = turns = None
    if res.plan is not None:
        cards_out = len(replay(deal, res.plan.moves).game.out)
        turns = len(res.plan.moves)
    proven = res.verdict == "loss" or (res.verdict == "win" and
                                       (task["objective"] == "none" or res.optimal))
    return {
        **{k: task[k] for k in ("point", "seed", "players", "rules", "variant", "objective",
                                "time_limit", "solver_version")},
        "verdict": res.verdict, "value": res.value, "bound": res.bound,
        "optimal": bool(res.optimal), "proven": bool(proven), "cards_out": cards_out,
        "turns": turns, "best_progress": res.best_progress, "seconds": round(seconds, 4),
        "nodes": int(res.stats.get("nodes", 0) or 0), "peak_mb": round(_peak_mb(), 1),
        "error": None,
    }


def run_study(grid: Grid, db_path: str | os.PathLike, workers: int | None = None,
              scheduler: str | None = None, retry_unknown: bool = False,
              progress: bool | str = True, command: str = "", backend: str = "dask",
              echo=None):
    """Plan (:func:`plan_run`) and run the study; returns ``(plan, summary)``.

    ``echo(text)`` receives one line before the run starts (what is stored and what will
    run). Raises :class:`~studies.runner.RunnerError` for a bad database or scheduler.
    """
    if scheduler is not None:
        from studies.runner import probe_scheduler

        probe_scheduler(scheduler)  # before anything is written
    plan = plan_run(db_path, grid, retry_unknown)
    if echo is not None:
        parts = [f"grid: {len(grid)} point(s) ({len(grid.seeds)} deal(s) × "
                 f"{len(grid.players)} player count(s) × {len(grid.rules)} rule set(s) × "
                 f"{len(grid.objectives)} objective(s)); {plan.done} already stored; "
                 f"{len(plan.todo)} to solve"]
        if plan.retried:
            parts.append(f"{plan.retried} unknown(s) rerun at {grid.time_limit:g} s")
        if plan.other_limit:
            parts.append(f"{plan.other_limit} point(s) kept from another time limit or "
                         "solver version")
        if plan.unknown_kept:
            parts.append(f"{plan.unknown_kept} unknown(s) from another time limit kept "
                         "(--retry-unknown reruns them)")
        echo("; ".join(parts))
    run_id = record_run(db_path, command, grid)
    summary = run_tasks(solve_task, plan.todo, db_path, TABLE, COLUMNS, workers=workers,
                        scheduler=scheduler, progress=progress, title="solving",
                        backend=backend)
    summary.total += plan.done
    summary.already += plan.done
    finish_run(db_path, run_id, {"stored": summary.stored, "by_verdict": dict(summary.by_outcome),
                                 "interrupted": summary.interrupted,
                                 "seconds": round(summary.seconds, 2),
                                 "workers": summary.workers, "backend": backend})
    return plan, summary
