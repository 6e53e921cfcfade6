"""The command line's one signal path: SIGINT and SIGTERM stop a command the same way.

Kept free of heavy imports (only the standard library), so that :mod:`cli.entry` can install
it before anything else is imported: a Ctrl-C during start-up is then a one-line
``ascent: error: interrupted`` and exit 130, not a traceback.

* SIGINT (Ctrl-C, ``kill -INT``) raises :class:`KeyboardInterrupt`, as Python does.
* SIGTERM (``kill``, ``timeout``) raises :class:`Terminated`, a :class:`KeyboardInterrupt`
  subclass: every search that stops on Ctrl-C and reports the best it found (the DFS, the
  portfolio) does the same on SIGTERM, with nothing to change in the solvers.
* SIGPIPE stays ignored (Python's default); a closed output pipe is handled where it is
  written (exit :data:`EXIT_BROKEN_PIPE`).

Commands report an interrupted run with :data:`EXIT_INTERRUPTED` (130), whether or not the
search had found an answer; the answer found so far is printed (and written) first.

Use :func:`install` at the start of a command line (done by :class:`cli.common.AscentGroup`
and :mod:`cli.entry`), and :func:`restore` with what it returned to undo it (tests).
"""

from __future__ import annotations

import signal
import threading
from typing import Any

EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: stop as after a Ctrl-C (``signum`` says which signal)."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


def _on_term(signum: int, frame: Any) -> None:
    raise Terminated(signum)


def install() -> dict[int, Any] | None:
    """Make SIGINT raise :class:`KeyboardInterrupt` and SIGTERM :class:`Terminated`.

    Returns the previous handlers (for :func:`restore`), or ``None`` when called outside the
    main thread (signal handlers can only be set there; nothing is changed)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    old = {}
    for signum, handler in ((signal.SIGINT, signal.default_int_handler),
                            (signal.SIGTERM, _on_term)):
        try:
            old[signum] = signal.signal(signum, handler)
        except (OSError, ValueError):  # pragma: no cover - exotic platforms
            pass
    return old


def restore(old: dict[int, Any] | None) -> None:
    """Put back the handlers :func:`install` replaced."""
    if not old or threading.current_thread() is not threading.main_thread():
        return
    for signum, handler in old.items():
        try:
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        except (OSError, ValueError, TypeError):  # pragma: no cover
            pass
