"""Portfolio: the DFS and CP-SAT run side by side (one process each, the two cores of the
machine), and the first that *proves* the answer is reported, naming which one did.

Proven means: ``loss``; or ``win`` with objective ``none``; or ``win`` with ``optimal=True``.
When neither proves anything within the limit, the answers are merged: the best win found
(lowest objective value), and the larger of the two proven lower bounds. Two proven verdicts
that disagree would be a bug in one solver: :class:`~solver.result.SolverBug` is raised rather
than one of them being shown.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, cast

from model.deal import Deal
from model.game import Game
from solver.result import LOSS, UNKNOWN, WIN, SolverBug, SolveResult

GRACE_SECONDS = 5.0

#: Seconds the interrupted workers have to send their best answers (the DFS its win).
ANSWER_AFTER_STOP_SECONDS = 3.0


def _dfs(deal: Deal, objective: str, time_limit: float | None, memory_limit_mb: int,
         **_: Any) -> SolveResult:
    from solver.exhaustive import solve

    # half of the memory for each solver (--memory-limit bounds the processes)
    return solve(deal, objective, time_limit=time_limit,
                 memory_limit_mb=max(16, memory_limit_mb // 2))


def _cpsat(deal: Deal, objective: str, time_limit: float | None, workers: int, seed: int,
           memory_limit_mb: int = 2048, **_: Any) -> SolveResult:
    from solver.cpsat import solve_cpsat

    # hinted by the DFS beam's first win, as `ascent solve --solver cpsat` runs it: measured,
    # CP-SAT alone finds no win on a full deal in 30 s, while hinted it proves turn optima
    # the DFS does not (benchmarks/results/compare-dfs-cpsat-turns.md)
    return solve_cpsat(deal, objective, time_limit=time_limit, workers=workers, seed=seed,
                       hint="beam", params={"max_memory_in_mb": max(16, memory_limit_mb // 2)})


def _prover(deal: Deal, objective: str, time_limit: float | None, workers: int, seed: int,
            **_: Any) -> SolveResult:
    """The clause-learning prover (issue 39 step 5): the CP-SAT loss model of
    :mod:`solver.cpsat_loss` alone, asked "no win at all" with the whole time limit. Its
    infeasibility is a proven ``loss`` (for every objective); a solution the engine replays
    as a win is a ``win`` (proven for objective ``none``); anything else is ``unknown``."""
    from solver.cpsat_loss import CANDIDATE, INFEASIBLE, solve_loss_model
    from solver.result import checked_plan

    verdict, moves, raw = solve_loss_model(deal, time_limit, workers, seed)
    stats = {"nodes": raw["branches"], "table_entries": 0, "seconds": raw["seconds"],
             "loss_model": {k: raw[k] for k in ("status", "conflicts", "groups") if k in raw}}
    if verdict == INFEASIBLE:
        return SolveResult(LOSS, objective, deal, solver="prover", stats=stats)
    if verdict == CANDIDATE and moves is not None:
        plan = checked_plan(deal, moves, "prover")
        value = (None if objective == "none" else
                 len(plan.replay().game.out) if objective == "waste" else len(moves))
        return SolveResult(WIN, objective, deal, plan=plan, value=value,
                           best_progress=deal.rules.mountain_slots, best_line=list(moves),
                           solver="prover", stats=stats)
    return SolveResult(UNKNOWN, objective, deal, solver="prover", stats=stats)


SOLVERS: dict[str, Callable[..., SolveResult]] = {"dfs": _dfs, "cpsat": _cpsat}

#: The portfolio with the prover as a third process (the switch ``solvers=WITH_PROVER``; off
#: by default: on two cores a third process slows the other two, and the CP-SAT solver
#: already runs the same loss model first when its beam finds no win).
WITH_PROVER: dict[str, Callable[..., SolveResult]] = {**SOLVERS, "prover": _prover}


def _die_with_parent() -> None:
    """Linux: the worker is killed when the portfolio's process dies, however it dies."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        # SIGKILL, not SIGTERM: an interrupted worker does not stop for SIGTERM (``_first_interrupt``)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


_INTERRUPTED: list[int] = []  # set in a worker by its first interrupt, or once it is done


def _first_interrupt(signum: int, frame: Any) -> None:
    # only the first signal raises; later ones (Ctrl-C reaches the whole process group and
    # the portfolio passes it on, then its SIGTERM) run this handler again and return. The
    # handler stays installed: setting SIG_IGN here would make CPython report a signal
    # already delivered but not yet handled as "ignored due to race condition" (a traceback
    # on standard error)
    if _INTERRUPTED:
        return
    _INTERRUPTED.append(signum)
    raise KeyboardInterrupt


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _send(conn: Any, message: tuple) -> None:
    """Send to the portfolio; a portfolio that stopped listening (it has its answer, or
    it died) is no error of the worker's."""
    try:
        conn.send(message)
    except (OSError, EOFError):
        pass


def _run(fn: Callable[..., SolveResult], kwargs: dict, conn: Any) -> None:
    # The worker starts with SIGINT and SIGTERM blocked (see solve_portfolio): a signal that
    # arrives while it starts up waits for its own handlers instead of running the
    # handlers inherited from the command line (a traceback on standard error). SIGINT
    # (Ctrl-C, or passed on by the portfolio) or SIGTERM stops the search and sends its
    # best answer; a second one (Ctrl-C reaches the whole process group *and* the
    # portfolio passes it on) is ignored, so that it cannot break the worker while it
    # sends that answer
    try:
        try:
            signal.signal(signal.SIGINT, _first_interrupt)
            signal.signal(signal.SIGTERM, _first_interrupt)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
            _die_with_parent()
            _send(conn, ("ok", fn(**kwargs)))
        except NotImplementedError as exc:
            _send(conn, ("unsupported", str(exc)))
        except KeyboardInterrupt:
            _send(conn, ("interrupted", "Ctrl-C"))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, never lost
            _send(conn, ("error", f"{exc.__class__.__name__}: {exc}"))
    except KeyboardInterrupt:
        # the one interrupt (the handler ignores later ones) came while an answer was
        # being sent, e.g. the portfolio stopping a worker that had just finished
        pass
    finally:
        # nothing left to stop: a signal from now on is ignored by the handler (blocking it
        # holds only for this thread; a library's thread may still take it, and CPython
        # then runs the handler here)
        _INTERRUPTED.append(0)
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        conn.close()


def is_proven(res: SolveResult) -> bool:
    """The answer needs no more search: a loss, a win for ``none``, or a proven optimum."""
    return res.verdict == LOSS or (res.verdict == WIN and (res.objective == "none" or res.optimal))


def solve_portfolio(deal: Deal, objective: str = "none", time_limit: float | None = None,
                    workers: int = 1, seed: int = 0, memory_limit_mb: int = 2048,
                    verbose: bool = False,
                    solvers: dict[str, Callable[..., SolveResult]] | None = None,
                    wait_all: bool = False) -> SolveResult:
    """Run every solver of ``solvers`` (default DFS and CP-SAT) in its own process on
    ``deal``; return the first proven answer (its ``solver`` field names who proved it), or
    the merge of all answers when none proves anything by ``time_limit`` seconds.

    ``stats["portfolio"]`` records each solver's verdict, seconds and status (``proved``,
    ``stopped``, ``unsupported: …``, ``error: …``). With ``wait_all`` every solver runs to
    its own answer (for cross-checks and benchmarks) and the first prover is still the one
    reported. Raises :class:`SolverBug` when two solvers prove contradicting verdicts or
    optima, or when a solver fails (an exception, a plan the engine rejects). A mid-game
    position raises ``NotImplementedError``: CP-SAT starts only from a deal's first move.
    """
    from solver.generic import needs_generic

    if needs_generic(deal.rules) and solvers is None:  # goats=on: only the generic search
        from solver.generic import solve as generic_solve

        return generic_solve(deal, objective, time_limit=time_limit,
                             memory_limit_mb=memory_limit_mb)
    if isinstance(deal, Game):  # CP-SAT starts only from a deal's first move
        from solver.cpsat import deal_of_start

        deal = deal_of_start(deal)
    solvers = solvers or SOLVERS
    ctx = mp.get_context("fork")
    kwargs = dict(deal=deal, objective=objective, time_limit=time_limit, workers=workers,
                  seed=seed, memory_limit_mb=memory_limit_mb)
    t0 = time.monotonic()
    procs: dict[str, Any] = {}
    conns: dict[Any, str] = {}
    for name, fn in solvers.items():
        parent, child = ctx.Pipe(duplex=False)
        p = ctx.Process(target=_run, args=(fn, kwargs, child), daemon=True)
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:  # the worker is forked with them blocked; here they wait until it started
            p.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        child.close()
        procs[name] = p
        conns[parent] = name
    results: dict[str, SolveResult] = {}
    status: dict[str, dict[str, Any]] = {}
    deadline = None if time_limit is None else t0 + time_limit + GRACE_SECONDS

    terminated = []

    def on_term(signum: int, frame: Any) -> None:
        terminated.append(signum)
        raise KeyboardInterrupt  # ends the wait below; the finally stops the workers

    old_term = signal.signal(signal.SIGTERM, on_term)
    interrupted = False
    try:
        try:
            _collect(conns, results, status, deadline, t0, wait_all)
        except KeyboardInterrupt:
            # Ctrl-C at a terminal reaches the workers too; a SIGTERM is passed on to them
            # as SIGINT. The DFS then stops and sends its best win: keep what arrives in the
            # next ANSWER_AFTER_STOP_SECONDS
            # (`kill -INT` of this process alone, or a SIGTERM, reaches no worker: pass it
            # on always; a worker ignores a second one)
            interrupted = True
            for p in procs.values():
                if p.is_alive() and p.pid is not None:
                    try:
                        os.kill(p.pid, signal.SIGINT)
                    except ProcessLookupError:
                        pass
            _collect(conns, results, status, time.monotonic() + ANSWER_AFTER_STOP_SECONDS, t0,
                     True, stopping=True)
    finally:
        signal.signal(signal.SIGTERM, old_term)
        _stop_workers(procs, status, t0)
        for conn in conns:
            conn.close()
    proven = [n for n in status if status[n].get("status") == "proved"]
    winner = min(proven, key=lambda n: status[n]["seconds"]) if proven else None
    res = results[winner] if winner is not None else _merge(results, deal, objective)
    res.stats = {**res.stats, "portfolio": status,
                 "portfolio_seconds": round(time.monotonic() - t0, 3),
                 **({"interrupted": True} if interrupted else {})}
    return res


#: Seconds a worker has to end after SIGTERM before it is killed (SIGKILL).
KILL_AFTER_SECONDS = 2.0


def _stop_workers(procs: dict[str, Any], status: dict[str, dict[str, Any]], t0: float) -> None:
    """End every worker still running: SIGTERM, then SIGKILL after
    :data:`KILL_AFTER_SECONDS`. A worker that was interrupted ignores further signals while
    it sends its answer (see ``_run``), and a forked worker can hang on a lock another thread
    of the parent held at the fork; neither may outlive the portfolio (a live daemon child
    also blocks the interpreter's exit, which joins it). A Ctrl-C or SIGTERM that arrives
    meanwhile (a :class:`KeyboardInterrupt`) cuts the grace short: the workers are killed at
    once, and it is raised again once none is left."""
    pending: BaseException | None = None
    alive = [(n, p) for n, p in procs.items() if p.is_alive()]
    for name, _ in alive:
        status.setdefault(name, {"verdict": None, "status": "stopped by the portfolio",
                                 "seconds": round(time.monotonic() - t0, 3)})
    try:
        for _, p in alive:
            p.terminate()
        end = time.monotonic() + KILL_AFTER_SECONDS
        for _, p in alive:
            p.join(timeout=max(0.0, end - time.monotonic()))
    except BaseException as exc:  # noqa: BLE001 - raised again below, after the kill
        pending = exc
    while any(p.is_alive() for p in procs.values()):
        try:
            for p in procs.values():
                if p.is_alive():
                    p.kill()
            for p in procs.values():
                p.join()
        except BaseException as exc:  # noqa: BLE001 - the first one is raised below
            pending = pending or exc
    if pending is not None:
        raise pending


def _collect(conns: dict[Any, str], results: dict[str, SolveResult],
             status: dict[str, dict[str, Any]], deadline: float | None, t0: float,
             wait_all: bool, stopping: bool = False) -> None:
    """Receive answers until one is proven (all of them with ``wait_all``), the workers are
    done, or ``deadline`` passes. ``stopping``: the workers were interrupted, so one that
    ends without an answer was stopped, not crashed."""
    proved = False
    while conns and (not proved or wait_all):
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready = wait(list(conns), timeout=timeout)
        if not ready:
            break
        for conn in cast("list[Connection]", ready):  # (wait() is given connections only)
            name = conns.pop(conn)
            try:
                kind, payload = conn.recv()
            except EOFError:
                kind, payload = ("interrupted" if stopping else "error",
                                 "the process ended without an answer")
            secs = round(time.monotonic() - t0, 3)
            if kind == "ok":
                results[name] = payload
                status[name] = {"verdict": payload.verdict, "seconds": secs,
                                "status": "proved" if is_proven(payload) else "stopped"}
                if is_proven(payload):
                    _check_agreement(results)
                    proved = True
            elif kind == "error":
                # a crash (or a plan the engine rejected) is a bug, never an "unknown"
                raise SolverBug(f"{name} failed in the portfolio: {payload}")
            else:
                status[name] = {"verdict": None, "seconds": secs, "status": f"{kind}: {payload}"}


def _check_agreement(results: dict[str, SolveResult]) -> None:
    proven = {n: r for n, r in results.items() if is_proven(r)}
    verdicts = {r.verdict for r in proven.values()}
    if len(verdicts) > 1:
        raise SolverBug("solvers disagree: " + ", ".join(f"{n} says {r.verdict}" for n, r in proven.items()))
    values = {r.value for r in proven.values() if r.optimal}
    if len(values) > 1:
        raise SolverBug("solvers disagree on the optimum: "
                        + ", ".join(f"{n} {r.value}" for n, r in proven.items()))


def _merge(results: dict[str, SolveResult], deal: Deal, objective: str) -> SolveResult:
    """No solver proved anything: keep the best win (or furthest line) and the best bound."""
    if not results:
        return SolveResult(UNKNOWN, objective, deal, solver="portfolio",
                           stats={"nodes": 0, "seconds": 0.0, "table_entries": 0})
    wins = [r for r in results.values() if r.verdict == WIN]
    bounds = [r.bound for r in results.values() if r.bound is not None]
    if wins:
        best = min(wins, key=lambda r: (r.value if r.value is not None else 0))
    else:
        best = max(results.values(), key=lambda r: r.best_progress)
    best.bound = max(bounds) if bounds else best.bound
    if best.verdict == WIN and best.value is not None and best.bound is not None and best.bound >= best.value:
        best.optimal = True
    return best
