"""Task functions for the runner's tests (top level, so Dask workers can import them)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from studies.runner import Skip


def square(task: dict) -> dict:
    """``{"value": n*n, "verdict": "even"|"odd"}``; n == 13 raises, n == 99 skips; sleeps
    ``task["sleep"]`` seconds first."""
    time.sleep(task.get("sleep", 0))
    n = task["n"]
    if n == 13:
        raise ValueError("unlucky 13")
    if n == 99:
        raise Skip("not now")
    return {"value": n * n, "verdict": "even" if n % 2 == 0 else "odd", "error": None}


def die_once(task: dict) -> dict:
    """Kill the worker process (SIGKILL) the first time task ``n == 3`` runs (a marker file
    in ``task["dir"]`` remembers it), then behave like :func:`square`."""
    if task["n"] == 3:
        mark = Path(task["dir"]) / "died"
        if not mark.exists():
            mark.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
    return square(task)
