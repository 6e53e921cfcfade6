"""Signal a child process only once it has started the work the signal is to interrupt.

A test that sends a signal after a fixed sleep races the machine: on a busy machine the
work has not started yet (and the signal tests start-up instead), on a quiet one it may
already be over. Here the child says when it is ready instead: it writes one line to a pipe
the test reads (``ASCENT_TEST_READY_FD``), and the test signals it only then. Nothing of
this is in the code under test: the child is ``ascent`` (or a test double) with a wrapper
around one function that writes the line when that function is entered or returns.

* :func:`start` runs ``ascent ARGS`` with the hooks named (see :data:`HOOKS`);
  :func:`wait_ready` blocks until the first of them fired;
* :func:`start_python` runs a Python script whose test doubles call :func:`ready`;
* :func:`ready` writes a mark (does nothing outside such a child); to a file named by
  ``ASCENT_TEST_READY_FILE`` too, for a grandchild that does not inherit the pipe
  (:func:`wait_file` waits for it).
"""

from __future__ import annotations

import functools
import importlib
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ,
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
ENV.pop("ASCENT_DEBUG", None)

#: Hooks by name: (module, attribute path, from which call on the mark is written as the
#: function is entered). Marks are written on entry, never on return: a mark written as a
#: function returns would race the caller's use of what it returned.
HOOKS = {
    # a win was found and the exact search for a better one starts (objective waste/turns)
    "optimising": ("solver.exhaustive", "improve", 1),
    # a session starts its second solve or a later one: the one before is done and kept
    # (analyse)
    "solved": ("solver.session", "Session.solve", 2),
    # an exhaustive search starts (solve, daily)
    "search": ("solver.exhaustive", "Search.run", 1),
    # uvicorn listens and has taken the signals over (serve): its main loop starts
    "serving": ("uvicorn.server", "Server.main_loop", 1),
}

_BOOT = "from tests.signalling import _ascent_child; _ascent_child()"


def ready(mark: str) -> None:
    """Write ``mark`` as one line to the test's pipe, when this process was started by
    :func:`start` or :func:`start_python` (a test double calls it as its work starts)."""
    fd = os.environ.get("ASCENT_TEST_READY_FD")
    if fd is not None:
        try:
            os.write(int(fd), mark.encode() + b"\n")
        except OSError:
            pass
    path = os.environ.get("ASCENT_TEST_READY_FILE")  # reaches grandchildren run by subprocess
    if path is not None:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(mark + "\n")


def _hook(name: str) -> None:
    module, path, first = HOOKS[name]
    owner: Any = importlib.import_module(module)
    *outer, attr = path.split(".")
    for part in outer:
        owner = getattr(owner, part)
    fn = getattr(owner, attr)

    calls = [0]

    @functools.wraps(fn)
    def marked(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] >= first:
            ready(name)
        return fn(*args, **kwargs)

    setattr(owner, attr, marked)


def _ascent_child() -> None:
    """The child of :func:`start`: install the hooks, then run ``ascent``."""
    for name in filter(None, os.environ.pop("ASCENT_TEST_HOOKS", "").split(",")):
        _hook(name)
    from cli.entry import main

    sys.argv[0] = "ascent"
    sys.exit(main())


def _popen(cmd: list[str], hooks: str | None, cwd: Path | None, **kw: Any
           ) -> tuple[subprocess.Popen, int]:
    r, w = os.pipe()
    env = {**ENV, "ASCENT_TEST_READY_FD": str(w), **({"ASCENT_TEST_HOOKS": hooks} if hooks else {})}
    try:
        proc = subprocess.Popen(cmd, cwd=cwd or ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, pass_fds=(w,), **kw)
    finally:
        os.close(w)
    proc.ready_fd = r  # type: ignore[attr-defined]
    return proc, r


def start(args: list[str], *hooks: str, cwd: Path | None = None, **kw: Any) -> subprocess.Popen:
    """Start ``ascent args`` in a child whose :data:`HOOKS` ``hooks`` write their mark."""
    for h in hooks:
        assert h in HOOKS, h
    proc, _ = _popen([sys.executable, "-c", _BOOT, *args], ",".join(hooks), cwd, **kw)
    return proc


def start_python(script: str, args: Sequence[str] = (), cwd: Path | None = None,
                 **kw: Any) -> subprocess.Popen:
    """Start ``python -c script args``; its test doubles call :func:`ready`."""
    proc, _ = _popen([sys.executable, "-c", script, *args], None, cwd, **kw)
    return proc


def wait_ready(proc: subprocess.Popen, *marks: str, timeout: float = 600) -> None:
    """Block until the child wrote every mark of ``marks`` (each at least once; no marks:
    any one). Fails, with the child's output, when it ended first or nothing came within
    ``timeout`` seconds (a bound against a hang, not a race: the work takes far longer)."""
    fd = proc.ready_fd  # type: ignore[attr-defined]
    want, seen, buf = set(marks), set(), b""
    end = time.monotonic() + timeout
    while True:
        if (want and want <= seen) or (not want and seen):
            return
        left = end - time.monotonic()
        r, _, _ = select.select([fd], [], [], max(0.0, left))
        chunk = os.read(fd, 4096) if r else b""
        if not chunk:  # the child ended (the pipe closed), or the time ran out
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError(f"the child never became ready ({sorted(want - seen)}; "
                                 f"exit {proc.returncode}):\n{out}\n{err}")
        buf += chunk
        *lines, buf = buf.split(b"\n")
        seen.update(line.decode() for line in lines)


def wait_file(proc: subprocess.Popen, path: Path, mark: str, timeout: float = 600) -> None:
    """Block until ``path`` holds the line ``mark`` (written by :func:`ready` through
    ``ASCENT_TEST_READY_FILE``); fails when ``proc`` ended first or after ``timeout`` s."""
    end = time.monotonic() + timeout
    while mark not in (path.read_text().splitlines() if path.exists() else []):
        if proc.poll() is not None or time.monotonic() > end:
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError(f"no {mark!r} in {path} (exit {proc.returncode}):\n{out}\n{err}")
        time.sleep(0.05)


def finish(proc: subprocess.Popen, timeout: float = 120) -> tuple[str, str]:
    """``proc.communicate`` with a bound; the child is killed if it hangs (the test fails).
    ``proc.late_marks``: the marks the child wrote after the last :func:`wait_ready`."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"the child did not end within {timeout} s after the signal:"
                             f"\n{out}\n{err}") from None
    finally:
        fd = getattr(proc, "ready_fd", None)
        if fd is not None:  # the marks written after the last wait_ready
            late = b""
            while select.select([fd], [], [], 0)[0]:
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                late += chunk
            proc.late_marks = late.decode().split()  # type: ignore[attr-defined]
            os.close(fd)
    return out, err
