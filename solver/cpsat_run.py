"""Running a CP-SAT model so that Ctrl-C and SIGTERM stay with Python: the solve runs in a
helper thread while the main thread waits, ready to take the interrupt and stop the search.
Shared by the exact model (:mod:`solver.cpsat`) and the loss model (:mod:`solver.cpsat_loss`).
"""

from __future__ import annotations

import threading
from typing import Any

from ortools.sat.python import cp_model


def solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel) -> tuple[Any, bool]:
    """``solver.solve(model)`` in a helper thread, so that the main thread stays free to
    take a Ctrl-C or SIGTERM (a :class:`KeyboardInterrupt`; Python runs signal handlers in
    the main thread only, never while it waits inside CP-SAT): the search is then stopped
    with ``stop_search`` and CP-SAT's best solution so far is kept. Returns the status and
    whether the search was interrupted."""
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model), False
    solver.parameters.catch_sigint_signal = False  # Python's handler, not CP-SAT's own
    box: dict[str, Any] = {}
    done = threading.Event()  # (an interrupted Thread.join can wrongly report the end)

    def run() -> None:
        try:
            box["status"] = solver.solve(model)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=run, name="cpsat-solve", daemon=True)
    interrupted = False
    try:
        worker.start()
    except KeyboardInterrupt:  # before the solve began: it is stopped as soon as it runs
        interrupted = True
    while not done.is_set():
        try:
            if interrupted:
                # a stop asked for before CP-SAT's search began is not kept: ask again until
                # the solve returns
                solver.stop_search()
            done.wait(0.1)
        except KeyboardInterrupt:
            interrupted = True
            solver.stop_search()
    while True:
        try:
            worker.join()
            break
        except KeyboardInterrupt:
            interrupted = True
    if "error" in box:
        raise box["error"]
    return box["status"], interrupted


__all__ = ["solve_interruptibly"]
