"""Dask worker plugins of the study runner (imported only when a cluster starts)."""

from __future__ import annotations

import signal
import threading

from distributed import WorkerPlugin


class IgnoreSigint(WorkerPlugin):
    """The worker process ignores SIGINT, so that Ctrl-C in the terminal stops the caller
    (which then closes the cluster) without tracebacks from the workers. Registered on the
    embedded LocalCluster only; a restarted worker gets it again."""

    name = "ascent-ignore-sigint"

    def setup(self, worker) -> None:  # noqa: D401 - Dask WorkerPlugin API
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
