"""The Dask side of cube-and-conquer (issue 39 step 6): a mapper for
:func:`solver.cubes.solve_cubes` that runs the cube tasks on Dask workers, an embedded
``LocalCluster`` by default (``workers`` single-threaded worker processes) or a running
cluster by ``scheduler`` address, started and closed as :mod:`studies.runner` does."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from studies.runner import RunnerError, _close, _local_cluster, _remote_client


def dask_mapper(workers: int | None = None, scheduler: str | None = None
                ) -> Callable[[Callable[[dict], dict], Sequence[dict]], Iterator[tuple[int, dict]]]:
    """A mapper (:data:`solver.cubes.Mapper`) on Dask: yields ``(index, result)`` as each
    cube task finishes; the cluster starts on the first call and closes when the iteration
    ends (also on Ctrl-C or an early stop, cancelling the unfinished tasks).

    Raises :class:`studies.runner.RunnerError` for both ``workers`` and ``scheduler``, a
    ``workers`` < 1, or a cluster that cannot be started or reached."""
    if workers is not None and scheduler is not None:
        raise RunnerError("give workers (a LocalCluster) or a scheduler address, not both")
    if workers is not None and workers < 1:
        raise RunnerError("workers must be at least 1")

    def mapper(fn: Callable[[dict], dict], tasks: Sequence[dict]) -> Iterator[tuple[int, dict]]:
        from distributed import as_completed

        client, cluster = (_local_cluster(workers) if scheduler is None
                           else (_remote_client(scheduler), None))
        futures = []
        try:
            # priority: earlier tasks (the cheaper paths) first
            futures = [client.submit(fn, t, key=f"cube-{i}-{id(tasks)}", pure=False,
                                     priority=len(tasks) - i)
                       for i, t in enumerate(tasks)]
            index = {f.key: i for i, f in enumerate(futures)}
            for fut in as_completed(futures):
                yield index[fut.key], fut.result()
        finally:
            for f in futures:
                f.cancel()
            _close(client, cluster)

    return mapper


__all__ = ["dask_mapper"]
