"""Shared test machinery: the hypothesis profiles, the xdist groups, and the session guard.

Hypothesis profiles: ``dev`` (the default: the quick loop, ``python -m pytest -m "not slow"
-n auto``) and ``ci`` (``.ci/run``: ``--hypothesis-profile ci``, or ``HYPOTHESIS_PROFILE=ci``).
A profile's ``max_examples`` is the share, in percent, of each property test's full count that
it runs: a test asks :func:`tests.strategies.examples` for its count (``ci``: the full count;
``dev``: a quarter of it, at least 10 or the full count when that is smaller). Neither profile
has a deadline or the too-slow health check: a test's result never depends on the machine's
speed or load.

Under pytest-xdist (``-n 2 --dist loadgroup``), every test marked ``browser`` is in the
xdist group ``browser``: one worker runs them one after the other, so one Chromium runs at a
time and the module's server and browser are started once.

The session guard: no test may leave a child process running.

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
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Bytecode caching on for the run and every Python it starts. The tests start Python a few
# hundred times (the ``ascent`` command in a subprocess, the spawned solver workers, the xdist
# workers); with PYTHONDONTWRITEBYTECODE set (this machine's environment sets it) each of them
# compiled the project from source (0.25 s of CPU more per ``ascent`` start, 0.57 s against
# 0.33 s) and each xdist worker rewrote the asserts of every test module anew (collection
# 13.4 s of CPU against 6.4 s). The .pyc files go to __pycache__/ (ignored by git).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

#: ``max_examples`` of each profile: the percentage of a property test's full count
#: (:func:`tests.strategies.examples`); a test without its own count runs this many
PROFILE_SHARE = {"ci": 100, "dev": 25}
for _name, _share in PROFILE_SHARE.items():
    settings.register_profile(_name, max_examples=_share, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
# hypothesis's own --hypothesis-profile option (loaded after this file) overrides the variable
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


#: Variables a pytest-xdist worker finds set (COLUMNS=80, LINES=24) where the run that started
#: it had none: the CLI's tables are 200 columns wide when written to a pipe unless COLUMNS says
#: otherwise, so a test would see other tables in a worker than in a run without xdist
WORKER_ENV = ("COLUMNS", "LINES")


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook, in the run that starts the workers
def pytest_configure_node(node) -> None:  # noqa: ANN001 - pytest's hook
    node.workerinput["ascent_env"] = {k: os.environ.get(k) for k in WORKER_ENV}


def pytest_configure(config) -> None:  # noqa: ANN001 - pytest's hook
    """In an xdist worker, the variables of :data:`WORKER_ENV` as the starting run had them."""
    given = getattr(config, "workerinput", {}).get("ascent_env")
    for key, value in (given or {}).items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items) -> None:  # noqa: ANN001 - pytest's hook
    """Put every ``browser`` test in the xdist group ``browser`` (one worker runs them all)."""
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group("browser"))


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
