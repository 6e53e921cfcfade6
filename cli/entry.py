"""Console-script entry of ``ascent`` (``ascent = cli.entry:main`` in pyproject.toml).

It installs the signal path of :mod:`cli.signals` before the heavy imports (click, rich,
the rules engine, the solvers): a Ctrl-C or SIGTERM during the first ~0.2 s of start-up
ends as one line ``ascent: error: interrupted`` and exit 130, never a traceback.
Everything after start-up is handled by :class:`cli.common.AscentGroup`.
"""

from __future__ import annotations

import os
import sys
import warnings

from cli import signals


def _say_interrupted() -> None:
    try:
        os.write(2, b"ascent: error: interrupted\n")
    except OSError:
        pass


def _one_line_warning(message, category, filename, lineno, line=None) -> str:
    """Warnings (e.g. the compiled core not used) as one line, without Python's source line."""
    text = str(message)
    return (text if text.startswith("ascent: ") else f"ascent: warning: {text}") + "\n"


def main() -> None:
    """Run the ``ascent`` command line; see :func:`cli.main.main`."""
    signals.install()
    warnings.formatwarning = _one_line_warning
    try:
        from cli.main import main as group
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM while the modules load
        _say_interrupted()
        raise SystemExit(signals.EXIT_INTERRUPTED) from None
    try:
        group()
    except KeyboardInterrupt:  # after the group ended (its own handling covers the rest)
        _say_interrupted()
        raise SystemExit(signals.EXIT_INTERRUPTED) from None


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
