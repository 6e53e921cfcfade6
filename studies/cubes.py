"""The Dask side of cube-and-conquer (issue 39 step 6): a mapper for
:func:`solver.cubes.solve_cubes` that runs the cube tasks on Dask workers, an embedded
``LocalCluster`` by default (``workers`` single-threaded worker processes) or a running
cluster by ``scheduler`` address, started and closed as :mod:`studies.runner` does."""
from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from studies.runner import RunnerError, _close, _local_cluster, _remote_client


def dask_mapper(workers: int | None = None, scheduler: str | None = None
                ) -> Callable[[Callable[[dict], dict], Iterable[dict | None]], Iterator[tuple[int, dict]]]:
    """A mapper (:data:`solver.cubes.Mapper`) on Dask: keeps one task a worker thread in
    flight, draws the next when one finishes, and yields ``(k, result)`` as each finishes
    (``k``: the task's place in the order drawn); the cluster starts on the first call and
    closes when the iteration ends (also on Ctrl-C or an early stop, cancelling the
    unfinished tasks).

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
            done = as_completed()
            tag = uuid.uuid4().hex
            drawn = 0

            slots = max(1, sum(client.nthreads().values()))

            def fill() -> None:
                """Draw tasks until every worker thread has one or the source has none
                to start now (``None``) or at all."""
                nonlocal drawn
                while len(pending) < slots:
                    task = next(source, None)
                    if task is None:
                        return
                    fut = client.submit(fn, task, key=f"cube-{drawn}-{tag}", pure=False)
                    pending[fut.key] = (drawn, fut)
                    done.add(fut)
                    drawn += 1

            # one task a worker thread: the next is drawn when one finishes, so that it sees
            # the incumbent, the bounds and the deadline as they are then
            fill()
            for fut in done:
                k, _ = pending.pop(fut.key)
                yield k, fut.result()
                fill()
        finally:
            for _, f in pending.values():
                f.cancel()
            _close(client, cluster)

    return mapper


__all__ = ["dask_mapper"]
