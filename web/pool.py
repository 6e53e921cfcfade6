"""One bounded pool for the server's solver work (hints, solutions, reviews, bot moves of the
slow bots, daily puzzles made on demand).

:class:`JobPool` runs at most ``workers`` jobs at once and lets at most ``queue`` more wait
for a worker; a job beyond that is refused at once with :class:`Busy` (the API answers 503
with ``Retry-After``), so a request never hangs behind an unbounded queue. A job whose
client goes away is cancelled: a waiting job leaves the queue, a running one has its worker
process killed (and a fresh worker is started for the next job).

Two kinds of worker:

* ``processes=True`` (``ascent serve``): ``workers`` child processes (``spawn``), each
  running one job at a time; the job is a module-level function and its arguments and answer
  are pickled. The event loop and the request threads never run solver code, so a move or a
  plain ``GET`` is answered while every worker is busy.
* ``processes=False`` (the in-process test client, and a ``solver`` given as a closure):
  the jobs run in threads of the server process, the same bounds apply; a running job
  cannot be killed there (it ends at its own time limit), a waiting one is still cancelled.

The pool is used from the event loop only (:meth:`run` is a coroutine).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import math
import multiprocessing as mp
import threading
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

#: Niceness a worker process adds to its own (the requests of the server come first; the
#: kernel caps it at 19).
WORKER_NICE = 19
#: Seconds between two looks at whether the client of a waiting job is still there.
DISCONNECT_POLL = 0.2


class Busy(RuntimeError):
    """Every worker is busy and the queue is full: HTTP 503; ``retry_after``: seconds (an
    estimate: the mean job time so far times the jobs ahead, per worker; at least 1)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Cancelled(RuntimeError):
    """The job was cancelled because its client went away (nobody is told: the client is
    gone)."""


class JobError(RuntimeError):
    """A job raised in its worker process: ``kind`` is the exception's class name (the
    server turns the known ones back into their HTTP status)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


_reporter = threading.local()


def report_progress(value: Any) -> None:
    """Called by a job while it runs: pass ``value`` (pickleable) to the ``progress``
    callback its :meth:`JobPool.run` was given, on the server's event loop; nothing when
    there is none."""
    send = getattr(_reporter, "send", None)
    if send is not None:
        send(value)


def _worker_main(conn: Any) -> None:
    """A worker process: receive ``(module, name, args)``, answer ``("ok", value)`` or
    ``("error", kind, message)``, until the pipe closes."""
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C of the server stops the server
    try:
        os.nice(WORKER_NICE)  # solver work gives way to the server's answers
    except OSError:
        pass
    _reporter.send = lambda value: conn.send(("progress", value))
    while True:
        try:
            module, name, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            fn = getattr(importlib.import_module(module), name)
            conn.send(("ok", fn(*args)))
        except Exception as exc:  # noqa: BLE001 - any failure of the job goes back to the server
            conn.send(("error", type(exc).__name__, str(exc)))


@dataclass
class _Worker:
    process: Any
    conn: Any


class JobPool:
    """At most ``workers`` jobs running and ``queue`` waiting (see the module docstring).
    Raises ``ValueError`` for ``workers < 1`` or ``queue < 0``."""

    def __init__(self, workers: int = 2, queue: int = 4, processes: bool = False) -> None:
        if workers < 1 or queue < 0:
            raise ValueError(f"a pool needs workers ≥ 1 and queue ≥ 0, not {workers}/{queue}")
        self.workers = workers
        self.queue = queue
        self.processes = processes
        self.admitted = 0  # jobs running or waiting
        self.running = 0
        self.done = 0
        self.refused = 0
        self.cancelled = 0
        self._seconds = 0.0
        self._slots: asyncio.Semaphore | None = None
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self._guard = threading.Lock()
        self._ctx = mp.get_context("spawn")
        # the threads that wait on the workers (or run the jobs): the pool's own, so that two
        # pools, or the server's other threads, never wait for one another's threads
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(4, workers + 2), thread_name_prefix="ascent-pool")

    # ---- status ---------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """``{"workers", "queue", "running", "waiting", "done", "refused", "cancelled",
        "processes"}``: counts since the pool started."""
        return {"workers": self.workers, "queue": self.queue, "running": self.running,
                "waiting": self.admitted - self.running, "done": self.done,
                "refused": self.refused, "cancelled": self.cancelled,
                "processes": self.processes}

    def retry_after(self) -> int:
        """Seconds a refused client should wait before it asks again (at least 1)."""
        mean = self._seconds / self.done if self.done else 2.0
        return max(1, math.ceil(mean * max(1, self.admitted) / self.workers))

    # ---- running jobs ---------------------------------------------------------------------

    async def run(self, fn: Callable[..., Any], *args: Any,
                  disconnected: Callable[[], Awaitable[bool]] | None = None,
                  progress: Callable[[Any], None] | None = None) -> Any:
        """Run ``fn(*args)`` on a worker and return its value. Raises :class:`Busy` at once
        when ``workers`` jobs run and ``queue`` wait; :class:`Cancelled` when
        ``disconnected()`` turns true before the job ends; :class:`JobError` (process
        workers) or the job's own exception (thread workers) when the job fails.
        ``progress(value)`` is called on the event loop for each :func:`report_progress`
        of the job."""
        if self.admitted >= self.workers + self.queue:
            self.refused += 1
            raise Busy(f"the server is busy: {self.running} solver jobs running and "
                       f"{self.admitted - self.running} waiting (at most {self.queue})",
                       self.retry_after())
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        self.admitted += 1
        try:
            if not await self._acquire(disconnected):
                self.cancelled += 1
                raise Cancelled("the client went away while the job waited")
            self.running += 1
            t0 = time.monotonic()
            try:
                if self.processes:
                    value = await self._in_process(fn, args, disconnected, progress)
                else:
                    value = await self._in_thread(fn, args, disconnected, progress)
            finally:
                self.running -= 1
                self._slots.release()
            self.done += 1
            self._seconds += time.monotonic() - t0
            return value
        finally:
            self.admitted -= 1

    async def _acquire(self, disconnected: Callable[[], Awaitable[bool]] | None) -> bool:
        """Wait for a free worker; ``False`` if the client went away first."""
        assert self._slots is not None
        if disconnected is None:
            await self._slots.acquire()
            return True
        waiter = asyncio.ensure_future(self._slots.acquire())
        while True:
            done, _ = await asyncio.wait({waiter}, timeout=DISCONNECT_POLL)
            if done:
                return True
            if await disconnected():
                waiter.cancel()
                try:
                    await waiter
                except asyncio.CancelledError:
                    return False
                self._slots.release()  # it was granted as it was cancelled
                return False

    async def _watch(self, task: asyncio.Future, disconnected: Callable[[], Awaitable[bool]] | None,
                     on_cancel: Callable[[], None]) -> Any:
        while True:
            done, _ = await asyncio.wait({task}, timeout=None if disconnected is None else DISCONNECT_POLL)
            if done:
                return task.result()
            if disconnected is not None and await disconnected():
                on_cancel()
                self.cancelled += 1
                raise Cancelled("the client went away while the job ran")

    async def _in_thread(self, fn: Callable[..., Any], args: tuple,
                         disconnected: Callable[[], Awaitable[bool]] | None,
                         progress: Callable[[Any], None] | None = None) -> Any:
        loop = asyncio.get_running_loop()

        def job() -> Any:
            _reporter.send = None if progress is None else (
                lambda value: loop.call_soon_threadsafe(progress, value))
            try:
                return fn(*args)
            finally:
                _reporter.send = None

        task = loop.run_in_executor(self._threads, job)
        return await self._watch(task, disconnected, lambda: None)

    async def _in_process(self, fn: Callable[..., Any], args: tuple,
                          disconnected: Callable[[], Awaitable[bool]] | None,
                          progress: Callable[[Any], None] | None = None) -> Any:
        loop = asyncio.get_running_loop()
        worker = await loop.run_in_executor(self._threads, self._take_worker)
        job = (fn.__module__, fn.__qualname__, args)
        killed = False

        def exchange() -> Any:
            worker.conn.send(job)
            while True:
                answer = worker.conn.recv()
                if answer[0] != "progress":
                    return answer
                if progress is not None:
                    loop.call_soon_threadsafe(progress, answer[1])

        def kill() -> None:
            nonlocal killed
            killed = True
            worker.process.kill()

        task = loop.run_in_executor(self._threads, exchange)
        try:
            answer = await self._watch(task, disconnected, kill)
        except Cancelled:
            await asyncio.wait({task})  # the pipe breaks once the process is gone
            self._drop(worker)
            raise
        except (EOFError, OSError) as exc:
            self._drop(worker)
            raise JobError("WorkerDied", f"the worker process died ({exc})") from None
        if killed:  # pragma: no cover - the answer came as the kill was sent
            self._drop(worker)
        else:
            with self._guard:
                self._idle.append(worker)
        if answer[0] == "ok":
            return answer[1]
        raise JobError(answer[1], answer[2])

    def _take_worker(self) -> _Worker:
        with self._guard:
            while self._idle:
                w = self._idle.pop()
                if w.process.is_alive():
                    return w
                self._all.remove(w)
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_worker_main, args=(child,), daemon=True,
                                 name="ascent-solver-worker")
        proc.start()
        child.close()
        w = _Worker(proc, parent)
        with self._guard:
            self._all.append(w)
        return w

    def _drop(self, worker: _Worker) -> None:
        worker.process.join(timeout=5)
        worker.conn.close()
        with self._guard:
            if worker in self._all:
                self._all.remove(worker)

    def close(self) -> None:
        """Stop every worker process (their jobs are abandoned)."""
        with self._guard:
            workers, self._all, self._idle = list(self._all), [], []
        for w in workers:
            try:
                w.conn.close()
            except OSError:
                pass
            w.process.join(timeout=2)
            if w.process.is_alive():
                w.process.kill()
                w.process.join(timeout=5)
        self._threads.shutdown(wait=False, cancel_futures=True)


__all__ = ["Busy", "Cancelled", "JobError", "JobPool", "report_progress"]
