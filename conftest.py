"""Session guard for the test suite: no test may leave a child process running.

A live daemon child of :mod:`multiprocessing` makes the interpreter's exit wait for it
(``multiprocessing.util._exit_function`` joins every child), so one leaked solver worker
turned a finished test run into a CI timeout (the portfolio's SIGTERM test once left a
worker that ignored SIGTERM). Here, after pytest's own teardown of the fixtures, every child
of the test process still running is killed and named: a :mod:`multiprocessing` child fails a
run that had passed; any other child (read from ``/proc``) gets 5 s to end first.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest


def _other_children() -> list[int]:
    """Running pids whose parent is this process (Linux ``/proc``; empty elsewhere). A child
    that has ended but was not waited for (a zombie) is reaped here, not counted."""
    me, out = os.getpid(), []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) != me:  # fields: state, parent's pid, …
            continue
        pid = int(stat.parent.name)
        if "multiprocessing.resource_tracker" in _cmdline(pid):
            continue  # multiprocessing's own helper: it ends with this process
        if fields[0] == "Z":
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
            continue
        out.append(pid)
    return out


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
    except OSError:
        return "?"


@pytest.hookimpl(trylast=True)  # after pytest's runner has torn the fixtures down
def pytest_sessionfinish(session, exitstatus) -> None:  # noqa: ANN001 - pytest's hook
    leaked = [f"{p.name} (pid {p.pid})" for p in multiprocessing.active_children()]
    for p in multiprocessing.active_children():
        p.kill()
        p.join(timeout=10)
    # other children (subprocesses, a browser driver) may still be ending after their
    # fixture's teardown: they get 5 s, then are killed and named; only a multiprocessing
    # child, whom the interpreter's exit would wait for, fails the run
    deadline = time.monotonic() + 5
    while _other_children() and time.monotonic() < deadline:
        time.sleep(0.1)
    killed = []
    for pid in _other_children():
        name = _cmdline(pid)
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            continue
        killed.append(f"pid {pid} ({name})")
    if killed:
        print(f"\nconftest: still running 5 s after the tests, killed: {', '.join(killed)}")
    if leaked:
        print(f"\nconftest: multiprocessing children left running after the tests, killed: "
              f"{', '.join(leaked)}")
        if session.exitstatus == 0:
            session.exitstatus = 1
