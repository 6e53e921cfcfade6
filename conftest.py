"""Session guard for the test suite: no test may leave a child process running.

A live daemon child of :mod:`multiprocessing` makes the interpreter's exit wait for it
(``multiprocessing.util._exit_function`` joins every child), so one leaked solver worker
turned a finished test run into a CI timeout (stop 18: the portfolio's SIGTERM test left a
worker that ignored SIGTERM). Here a leftover child is killed, named, and fails the run.
"""

from __future__ import annotations

import multiprocessing


def pytest_sessionfinish(session, exitstatus) -> None:  # noqa: ANN001 - pytest's hook
    left = multiprocessing.active_children()
    for p in left:
        p.kill()
        p.join(timeout=10)
    if left:
        names = ", ".join(f"{p.name} (pid {p.pid})" for p in left)
        print(f"\nconftest: child processes left running after the tests, killed: {names}")
        session.exitstatus = 1
