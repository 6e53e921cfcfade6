"""Shared option types of the command line: one rule for numbers, sane ranges.

Numbers on the command line follow the same rule as card text (:mod:`model.cards`): ASCII
digits only. ``--seed ٣``, ``--seed １``, ``--seed 1_000``, ``--players ٢`` and ``--seed +1``
are refused (Python's ``int()`` would accept them). Every number has a range, checked
before any work, so that a value can never reach a library that cannot take it (CP-SAT's
``num_workers`` and ``random_seed`` are 32-bit).

Types: :class:`WholeNumber` and :class:`Seconds`. Ready-made instances for the options the
commands share: :data:`SEED`, :data:`PLAYERS`, :data:`STEP`, :data:`NODE_LIMIT`,
:data:`MEMORY_MB`, :data:`WORKERS`, :data:`SOLVER_SEED`, :data:`TIME_LIMIT`. Use them as
``click.option("--seed", type=SEED, ...)``; a bad value is click's usage error, which
:class:`cli.common.AscentGroup` prints as one line with exit 2.
"""

from __future__ import annotations

import math
import re
from typing import Any

import click

from model.errors import quoted

_INT = re.compile(r"-?[0-9]{1,40}")
_FLOAT = re.compile(r"(?:[0-9]{1,20}(?:\.[0-9]{0,20})?|\.[0-9]{1,20})(?:[eE][-+]?[0-9]{1,3})?")


class WholeNumber(click.ParamType):
    """A whole number written with the ASCII digits 0-9 (and an optional leading ``-``),
    from ``low`` to ``high`` inclusive (``None``: unbounded on that side, at most 40 digits).
    """

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low = low
        self.high = high

    def _range(self) -> str:
        if self.low is not None and self.high is not None:
            return f"from {self.low} to {self.high}"
        if self.low is not None:
            return f"≥ {self.low}"
        return f"≤ {self.high}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """The int of ``value``; fails (a one-line usage error) for anything else."""
        if isinstance(value, bool):
            self.fail(f"{quoted(value)} is not a whole number", param, ctx)
        if isinstance(value, int):
            number = value
        else:
            text = str(value)
            if not _INT.fullmatch(text):
                self.fail(f"{quoted(text)} is not a whole number {self._range()} written with "
                          "the digits 0-9", param, ctx)
            number = int(text)
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            self.fail(f"{quoted(number)} is not {self._range()}", param, ctx)
        return number

    def __repr__(self) -> str:
        return f"WholeNumber({self.low}, {self.high})"


class Seconds(click.ParamType):
    """A number of seconds written with ASCII digits (``10``, ``2.5``, ``1e3``), greater than
    0 and at most ``high``; with ``allow_none`` the word ``none`` means no limit (``None``)."""

    name = "seconds"

    def __init__(self, high: float = 1e9, allow_none: bool = True) -> None:
        self.high = high
        self.allow_none = allow_none

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float | None:
        """The float of ``value`` (or ``None`` for ``none``); fails for anything else."""
        if value is None:
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            text = str(value)
            if self.allow_none and text == "none":
                return None
            if not _FLOAT.fullmatch(text):
                extra = " or none" if self.allow_none else ""
                self.fail(f"{quoted(text)} is not a number of seconds (digits 0-9, e.g. 10 or "
                          f"2.5){extra}", param, ctx)
            number = float(text)
        if not math.isfinite(number) or not 0 < number <= self.high:
            self.fail(f"{quoted(value)} is not more than 0 and at most {self.high:g} seconds",
                      param, ctx)
        return number


#: ``--seed``: a deal number (R13).
SEED = WholeNumber(0, 2**64 - 1)
#: ``--players``: 1 to 5 (R13).
PLAYERS = WholeNumber(1, 5)
#: ``--step``: moves of a plan (checked against the plan's length later).
STEP = WholeNumber(0, 10**9)
#: ``--node-limit``.
NODE_LIMIT = WholeNumber(1, 10**15)
#: ``--memory-limit`` in MB (the whole process; see ``ascent solve --help``).
MEMORY_MB = WholeNumber(128, 1_048_576)
#: ``--workers``: CP-SAT workers (a 32-bit number in CP-SAT; more than 64 never helps).
WORKERS = WholeNumber(1, 64)
#: ``--solver-seed``: CP-SAT's ``random_seed`` (32-bit, signed).
SOLVER_SEED = WholeNumber(0, 2**31 - 1)
#: ``--time-limit``: seconds, or ``none``.
TIME_LIMIT = Seconds(1e9, allow_none=True)
