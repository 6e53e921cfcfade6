"""The progress of a long command on standard error: one line, at most 79 characters.

On a terminal, :class:`ProgressLine` redraws one line in place (``\\r``) about twice a
second and clears it when the command ends. Anywhere else (a log file, a pipe, a test
runner) it writes whole lines, each ended by a newline and starting ``ascent: ``, at most
one every :data:`LOG_EVERY` seconds (none for a command that ends sooner), so a log never
holds a ``\\r`` or a line without its end.

:func:`solve_progress_text` is the line of a search (``solve``): nodes, the objective's best
value and proven bound (or, for ``--objective none``, the furthest slots), the time spent and
the time left.
"""

from __future__ import annotations

import shutil
import sys
import time
from typing import Any, Callable, TextIO

#: The widest progress line: one less than an 80-column terminal, so it never wraps.
WIDTH = 79
#: Seconds between two redraws on a terminal, and between two lines of a log.
TTY_EVERY = 0.5
LOG_EVERY = 10.0


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def fit(text: str, width: int = WIDTH) -> str:
    """``text`` cut to ``width`` characters (its end replaced by ``…`` when cut)."""
    return text if len(text) <= width else text[: width - 1] + "…"


class ProgressLine:
    """A progress line on ``stream`` (standard error by default); see the module docstring.

    ``update(text)`` shows ``text`` if enough time has passed since the last one (``force``:
    now); ``finish(text)`` shows a last line that stays; ``close()`` ends it (clears the
    terminal line; call it in a ``finally``). ``clock`` (seconds, monotonic)
    and ``tty`` (default: ``stream.isatty()``) are for tests. Write errors (a closed
    standard error) are ignored: progress never stops a command."""

    def __init__(self, stream: TextIO | None = None, *, tty: bool | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = _is_tty(self.stream) if tty is None else tty
        self.clock = clock
        self.every = TTY_EVERY if self.tty else LOG_EVERY
        self.width = WIDTH
        if self.tty:
            self.width = max(20, min(WIDTH, shutil.get_terminal_size((80, 24)).columns - 1))
        self.last = None if self.tty else clock()  # a log's first line after LOG_EVERY
        self.shown = 0

    def update(self, text: str, force: bool = False) -> None:
        """Show ``text`` (cut to the width) unless the last line is too recent."""
        now = self.clock()
        if not force and self.last is not None and now - self.last < self.every:
            return
        self.last = now
        if self.tty:
            text = fit(text, self.width)
            self._write("\r" + text + " " * max(0, self.shown - len(text)))
            self.shown = len(text)
        else:
            self._write(fit(f"ascent: {text}") + "\n")

    def finish(self, text: str) -> None:
        """Show ``text`` as the last line, kept and ended by a newline (terminal and log)."""
        if self.tty:
            text = fit(text, self.width)
            self._write("\r" + text + " " * max(0, self.shown - len(text)) + "\n")
            self.shown = 0
        else:
            self._write(fit(f"ascent: {text}") + "\n")
        self.last = self.clock()

    def close(self) -> None:
        """End the progress: a terminal's line is cleared (a log's lines are all ended)."""
        if self.tty and self.shown:
            self._write("\r" + " " * self.shown + "\r")
            self.shown = 0

    def _write(self, text: str) -> None:
        if self.stream is None:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass


def count_short(n: int) -> str:
    """``950``, ``12.3k``, ``4.56M``, ``7.89G``, ``10T``: a count in a few characters."""
    for size, unit in ((10**12, "T"), (10**9, "G"), (10**6, "M"), (10**3, "k")):
        if n >= size:
            value = n / size
            return f"{value:.3g}{unit}" if value < 1000 else f"{value:.0f}{unit}"
    return str(n)


def _seconds(s: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 07 min``, ``833 h``."""
    s = max(0, int(s))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    if s < 100 * 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    return f"{s // 3600} h"


def solve_progress_text(stats: dict[str, Any], objective: str, elapsed: float,
                        time_limit: float | None) -> str:
    """The progress line of a search from its ``stats`` (the progress callback's dict:
    ``nodes``, ``best_progress``, and for waste/turns ``incumbent``/``proven_bound``),
    ``elapsed`` seconds since the command started and its ``time_limit`` (``None``: none).

    >>> solve_progress_text({"nodes": 1234567, "incumbent": 14, "proven_bound": 9},
    ...                     "waste", 12.3, 60)
    'solving · 1.23M nodes · waste best 14, bound 9 · 12 s, 47 s left'
    >>> solve_progress_text({"nodes": 950, "best_progress": 40}, "none", 75, None)
    'solving · 950 nodes · furthest 40 slots · 1 min 15 s, no time limit'
    """
    parts = ["solving", f"{count_short(int(stats.get('nodes', 0)))} nodes"]
    if objective != "none":
        best, bound = stats.get("incumbent"), stats.get("proven_bound")
        parts.append(f"{objective} best {'-' if best is None else best}, "
                     f"bound {'-' if bound is None else bound}")
    else:
        parts.append(f"furthest {stats.get('best_progress', 0)} slots")
    if time_limit is None:
        parts.append(f"{_seconds(elapsed)}, no time limit")
    else:
        parts.append(f"{_seconds(elapsed)}, {_seconds(time_limit - elapsed)} left")
    return fit(" · ".join(parts))
