"""The Dask side of cube-and-conquer (issue 39 step 6): a mapper for
:func:`solver.cubes.solve_cubes` that runs the cube tasks on Dask workers, an embedded
``LocalCluster`` by default (``workers`` single-threaded worker processes) or a running
cluster by ``scheduler`` address, started and closed as :mod:`studies.runner` does."""
from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from studies.runner import RunnerError, _close, _local_cluster, _remote_client

#: Seconds a mapper waits past the tasks' deadline for a result before it gives up on the
#: rest (each task stops itself at the deadline; this covers a cluster with no worker).
GRACE = 5.0


def dask_mapper(workers: int | None = None, scheduler: str | None = None
                ) -> Callable[[Callable[[dict], dict], Iterable[dict | None]], Iterator[tuple[int, dict]]]:
    """A mapper (:data:`solver.cubes.Mapper`) on Dask: keeps one task a worker thread in
    flight, draws the next when one finishes, and yields ``(k, result)`` as each finishes
    (``k``: the task's place in the order drawn); the cluster starts on the first call and
    closes when the iteration ends (also on Ctrl-C, an early stop, or no result by the tasks'
    ``"deadline"`` + :data:`GRACE`, cancelling the unfinished tasks).

    Raises :class:`studies.runner.RunnerError` for both ``workers`` and ``scheduler``, a
    ``workers`` < 1, or a cluster that cannot be started or reached."""
    if workers is not None and scheduler is not None:
        raise RunnerError("give workers (a LocalCluster) or a scheduler address, not both")
    if workers is not None and workers < 1:
        raise RunnerError("workers must be at least 1")

    def mapper(fn: Callable[[dict], dict], tasks: Iterable[dict | None]
               ) -> Iterator[tuple[int, dict]]:
        from distributed import as_completed

        client, cluster = (_local_cluster(workers) if scheduler is None
                           else (_remote_client(scheduler), None))
        pending: dict[str, tuple[int, Any]] = {}
        try:
            source = iter(tasks)
            tag = uuid.uuid4().hex
            drawn = 0
            slots = max(1, sum(client.nthreads().values()))
            done: Any = None
            deadline: list[float | None] = []  # the first task's (epoch s), shared by all

            def fill() -> None:
                """Draw tasks until every worker thread has one or the source has none
                to start now (``None``) or at all."""
                nonlocal drawn
                while len(pending) < slots:
                    task = next(source, None)
                    if task is None:
                        return
                    if not deadline:
                        deadline.append(task.get("deadline"))
                    fut = client.submit(fn, task, key=f"cube-{drawn}-{tag}", pure=False)
                    pending[fut.key] = (drawn, fut)
                    if done is not None:
                        done.add(fut)
                    drawn += 1

            # one task a worker thread: the next is drawn when one finishes, so that it sees
            # the incumbent, the bounds and the deadline as they are then
            fill()
            if not pending:
                return
            # a cluster with no worker, or one that stopped answering, must not outlast the
            # answer's deadline: wait at most until it (plus GRACE) for the next result
            end = deadline[0]
            done = as_completed([f for _, f in pending.values()], timeout=None if end is None
                                else max(0.0, end - time.time()) + GRACE)
            try:
                for fut in done:
                    k, _ = pending.pop(fut.key)
                    yield k, fut.result()
                    fill()
            except TimeoutError:
                return  # what finished is kept; the rest is cancelled below
        finally:
            for _, f in pending.values():
                f.cancel()
            _close(client, cluster)

    return mapper


__all__ = ["GRACE", "dask_mapper"]
