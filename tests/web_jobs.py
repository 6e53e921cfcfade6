"""Jobs for the solver pool's tests (module-level, so that a worker process can import them)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def add(a: int, b: int) -> int:
    return a + b


def fail(message: str) -> None:
    raise LookupError(message)


def hold(started: str, release: str) -> int:
    """Write this process's id to ``started``, then wait until the file ``release`` exists
    (a job that runs until the test lets it go, or kills it)."""
    Path(started).write_text(str(os.getpid()), encoding="utf-8")
    while not os.path.exists(release):
        time.sleep(0.01)
    return os.getpid()


def counting(n: int) -> int:
    """Report progress 0, 1, …, ``n - 1`` (:func:`web.pool.report_progress`), return ``n``."""
    from web.pool import report_progress

    for i in range(n):
        report_progress(i)
    return n
