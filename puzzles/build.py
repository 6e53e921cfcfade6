"""Build a range of dates into the frozen archive (``ascent daily build``).

:func:`build_archive` makes the puzzle of every date, kind and size whose file does not
exist yet, in date order, on ``workers`` processes (:class:`concurrent.futures.
ProcessPoolExecutor`; 1 = in this process), and writes each file as it arrives through
:func:`puzzles.archive.write_new` (one writer; never over an existing file; whole or not at
all). Interrupted (Ctrl-C, or killed), it keeps every file written so far; running it again
resumes, skipping the files that exist.
"""

from __future__ import annotations

import datetime as _dt
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from puzzles.archive import check_dir, dumps_record, path_for, write_new


@dataclass
class BuildSummary:
    """What a build did: files ``built``, ``skipped`` (already there), ``failed``
    (``(name, message)``), and whether it was ``interrupted``."""

    built: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    interrupted: bool = False


def make_text(date_iso: str, kind: str, size: str) -> str:
    """The archive file text of one puzzle (top level, so worker processes can run it)."""
    from puzzles.daily import puzzle_for

    return dumps_record(puzzle_for(_dt.date.fromisoformat(date_iso), kind, size))


def dates_between(first: _dt.date, last: _dt.date) -> list[_dt.date]:
    """Every date from ``first`` to ``last`` inclusive (empty if ``last < first``)."""
    return [first + _dt.timedelta(days=i) for i in range((last - first).days + 1)]


def build_archive(root: str | Path, first: _dt.date, last: _dt.date,
                  kinds: tuple[str, ...], sizes: tuple[str, ...], workers: int = 1,
                  on_done: Callable[[str, str], None] | None = None,
                  on_total: Callable[[int], None] | None = None) -> BuildSummary:
    """Build ``first``..``last`` for ``kinds`` × ``sizes`` into ``root`` (an existing,
    writable directory; :class:`puzzles.archive.ArchiveError` otherwise).
    ``on_total(n)`` is told how many puzzles are to be made; ``on_done(name, status)`` is
    called for each (``built`` | ``skipped`` | ``failed``)."""
    root = check_dir(root, writable=True)
    summary = BuildSummary()
    todo = []
    for date in dates_between(first, last):
        for kind in kinds:
            for size in sizes:
                path = path_for(root, date, kind, size)
                name = str(path.relative_to(root))
                if path.exists():
                    summary.skipped.append(name)
                else:
                    todo.append((date.isoformat(), kind, size, path, name))
    if on_total:
        on_total(len(todo))

    def finish(name: str, path: Path, text: str | None, error: str | None) -> None:
        if error is not None:
            summary.failed.append((name, error))
            status = "failed"
        elif write_new(path, text or ""):
            summary.built.append(name)
            status = "built"
        else:
            summary.skipped.append(name)
            status = "skipped"
        if on_done:
            on_done(name, status)

    try:
        if workers <= 1:
            for d, kind, size, path, name in todo:
                try:
                    text, error = make_text(d, kind, size), None
                except Exception as exc:  # noqa: BLE001 - reported per puzzle, build goes on
                    text, error = None, f"{type(exc).__name__}: {exc}"
                finish(name, path, text, error)
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                pending: dict[Future, tuple] = {}
                queue = list(todo)
                try:
                    while queue or pending:
                        while queue and len(pending) < 2 * workers:
                            d, kind, size, path, name = queue.pop(0)
                            pending[pool.submit(make_text, d, kind, size)] = (path, name)
                        done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                        for fut in sorted(done, key=lambda f: pending[f][1]):
                            path, name = pending.pop(fut)
                            try:
                                text, error = fut.result(), None
                            except Exception as exc:  # noqa: BLE001
                                text, error = None, f"{type(exc).__name__}: {exc}"
                            finish(name, path, text, error)
                except KeyboardInterrupt:
                    for fut in pending:
                        fut.cancel()
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
    except KeyboardInterrupt:
        summary.interrupted = True
    return summary
