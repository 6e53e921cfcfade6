"""The command line's exit codes and its one error type, :class:`CliError`.

Below every other module of :mod:`cli` but :mod:`cli.signals` (which the entry point loads
first, with nothing else): the file helpers (:mod:`cli.files`) raise :class:`CliError` as
the commands do, and :mod:`cli.common` turns every other error into one.
"""

from __future__ import annotations

import sys
from typing import Any

import click

#: Exit codes: success, a finding the user should act on (an illegal move in a plan), bad
#: input (file, card text, option, position...), an internal error, an interrupt.
EXIT_OK = 0
EXIT_FINDING = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70
# EXIT_INTERRUPTED (130) and EXIT_BROKEN_PIPE (141, 128 + SIGPIPE, as other command-line
# tools end) are in cli.signals

PROG = "ascent"


#: The longest error line printed (characters); longer messages are cut with ``…``.
MAX_MESSAGE = 400


class CliError(click.ClickException):
    """An error reported as one line ``ascent: error: <message>`` with ``exit_code``."""

    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(_one_line(message))
        self.exit_code = exit_code

    def show(self, file: Any = None) -> None:  # noqa: D401 - click API
        stream = file or sys.stderr
        if stream is None:  # standard error is closed: say nothing rather than on stdout
            return
        try:
            click.echo(f"{PROG}: error: {self.message}", file=stream)
        except (OSError, ValueError):
            pass


def _one_line(message: str) -> str:
    text = " ".join(str(message).split()) or "unknown error"
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


__all__ = ["EXIT_BAD_INPUT", "EXIT_FINDING", "EXIT_INTERNAL", "EXIT_OK", "MAX_MESSAGE", "PROG",
           "CliError"]
