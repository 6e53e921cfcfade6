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

import functools
import math
import os
import re
from typing import Any, Callable

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


def _number_text(value: float) -> str:
    """``1e9`` as ``1,000,000,000``, ``2.5`` as ``2.5``: a number as a person writes it."""
    return f"{int(value):,}" if value == int(value) else f"{value:,}"


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
            self.fail(f"{quoted(value)} is out of range: the seconds must be more than 0 and "
                      f"at most {_number_text(self.high)}", param, ctx)
        return number


#: ``--seed``: a deal number (R13).
SEED = WholeNumber(0, 2**64 - 1)
#: ``--players``: 1 to 5 (R13).
PLAYERS = WholeNumber(1, 5)
#: ``--step``: moves of a plan (checked against the plan's length later).
STEP = WholeNumber(0, 10**9)
#: ``--node-limit``.
NODE_LIMIT = WholeNumber(1, 10**15)
def machine_mb() -> int | None:
    """The machine's physical memory in MB (``None`` where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)
    except (AttributeError, OSError, ValueError):
        return None


def process_rss_mb() -> int:
    """Resident memory of this process now, in MB (Linux ``/proc``; 0 where unknown)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") // (1024 * 1024)
    except (OSError, ValueError, IndexError):
        return 0


def table_share_mb(memory_limit: int) -> int:
    """What a transposition table may take (MB) under ``--memory-limit`` (MB, the whole
    process): the limit less what the process uses now, at least 16."""
    return max(16, memory_limit - process_rss_mb())


class MemoryMB(WholeNumber):
    """Megabytes from ``low`` to ``high``, and, when typed in, at most the machine's
    physical memory (:func:`machine_mb`): a limit the machine cannot reach is a mistake."""

    name = "megabytes"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """The int of ``value``; fails (a one-line usage error) for anything else."""
        number = super().convert(value, param, ctx)
        machine = machine_mb()
        if isinstance(value, str) and machine is not None and number > machine:
            self.fail(f"{number:,} MB is more than this machine's memory ({machine:,} MB)",
                      param, ctx)
        return number


def default_memory_mb() -> int:
    """The default ``--memory-limit`` (MB): a quarter of the machine's physical memory
    (:func:`machine_mb`), at least 128; 2,048 where the system does not say. A search's
    table grows with what it stores, so the limit is a cap, not an allocation."""
    machine = machine_mb()
    return 2048 if machine is None else max(128, machine // 4)


#: The default of ``--memory-limit`` on this machine (:func:`default_memory_mb`).
DEFAULT_MEMORY_MB = default_memory_mb()
#: ``--memory-limit`` in MB: the memory of the whole process, in every command that has it
#: (a search's table gets what the process does not use yet: :func:`table_share_mb`).
MEMORY_MB = MemoryMB(128, 1_048_576)
#: ``--table-limit`` in MB: the cap of one solve's transposition table (``study run``, whose
#: solves run side by side in worker processes).
TABLE_MB = MemoryMB(16, 1_048_576)
#: ``--workers``: CP-SAT workers (a 32-bit number in CP-SAT; more than 64 never helps).
WORKERS = WholeNumber(1, 64)
#: ``--solver-seed``: CP-SAT's ``random_seed`` (32-bit, signed).
SOLVER_SEED = WholeNumber(0, 2**31 - 1)
#: ``--time-limit``: seconds, or ``none``.
TIME_LIMIT = Seconds(1e9, allow_none=True)


class WholeNumbers(click.ParamType):
    """A list of whole numbers as ``1-5``, ``1,3,5`` or ``1-3,7`` (ASCII digits 0-9 only),
    each from ``low`` to ``high``, at most ``max_count`` of them in all (so that
    ``--seeds 0-99999999999999`` is refused at once rather than filling the memory).
    The value is passed on as the text given (stripped), for the command's own parser."""

    name = "numbers"
    _ITEM = re.compile(r"([0-9]{1,40})(?:-([0-9]{1,40}))?")

    def __init__(self, low: int, high: int, max_count: int = 1_000_000) -> None:
        self.low = low
        self.high = high
        self.max_count = max_count

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """``value`` (stripped) if it is such a list; fails (one-line usage error) otherwise."""
        text = str(value).strip()
        count = 0
        for part in text.split(","):
            m = self._ITEM.fullmatch(part.strip())
            if m is None:
                self.fail(f"{quoted(text)} is not a list of whole numbers like 1-5 or 1,3,5 "
                          "written with the digits 0-9", param, ctx)
            lo = int(m.group(1))
            hi = int(m.group(2)) if m.group(2) is not None else lo
            for n in (lo, hi):
                if not self.low <= n <= self.high:
                    self.fail(f"{quoted(n)} is not from {self.low} to {self.high}", param, ctx)
            if hi < lo:
                self.fail(f"the range {lo}-{hi} is empty", param, ctx)
            count += hi - lo + 1
            if count > self.max_count:
                self.fail(f"{quoted(text)} names more than {self.max_count:,} numbers", param, ctx)
        return text


#: ``--time-limit`` / ``--time-per-move`` where a limit is required (no ``none``).
SECONDS = Seconds(1e9, allow_none=False)
#: ``--players`` of studies and simulations: player counts such as ``1-5`` or ``1,3``.
PLAYER_COUNTS = WholeNumbers(0, 99)  # 1-5 is checked by studies.study.build_grid
#: ``--seeds`` of studies and simulations: deal numbers such as ``101-200`` (R13).
SEED_RANGE = WholeNumbers(0, 2**63 - 1)  # stored in SQLite INTEGER columns (64-bit signed)
#: ``--deals N``: seeds 1..N.
DEALS = WholeNumber(0, 1_000_000)  # 0 is refused by build_grid, with its message
#: ``--port``: a TCP port (0: any free port).
PORT = WholeNumber(0, 65535)
#: A count of at least 1 (worlds, candidates, horizon, simulations), at most a million.
COUNT = WholeNumber(1, 1_000_000)


def learning_options(fn):
    """``--nogood/--no-nogood`` and ``--abstraction/--no-abstraction`` (the DFS's loss proofs
    by nogood learning and by the colour-free abstraction, on by default; see
    docs/solver.md), passed to the command as ``nogood`` and ``abstraction``."""
    import click

    fn = click.option("--abstraction/--no-abstraction", default=True, show_default=True,
                      help="Prove losses also in the game with colours ignored (an abstract "
                           "loss is a real loss).")(fn)
    return click.option("--nogood/--no-nogood", default=True, show_default=True,
                        help="Learn lost positions under their row fronts, so that a proof "
                             "matches every position with the same fronts, hands and decks.")(fn)


def old_name(old: str, new: str, dest: str, **attrs: Any) -> Callable[[Callable], Callable]:
    """Keep ``old``, the name an option had before its renaming, working for one more release:
    a hidden option whose value goes to the command's parameter ``dest`` (the option
    ``new``), with one line ``ascent: warning: OLD is deprecated; use NEW ...`` on standard
    error. Both names at once is a usage error (exit 2). ``attrs`` go to ``click.option``
    (give the same ``type`` as ``new``'s). Every renamed option is listed in docs/formats.md
    and CHANGELOG.md."""
    hidden = "old_" + old.lstrip("-").replace("-", "_")

    def deco(f: Callable) -> Callable:
        @functools.wraps(f)
        def command(*args: Any, **kwargs: Any) -> Any:
            value = kwargs.pop(hidden, None)
            if value is not None:
                ctx = click.get_current_context()
                if ctx.get_parameter_source(dest) not in (
                        None, click.core.ParameterSource.DEFAULT,
                        click.core.ParameterSource.DEFAULT_MAP):
                    raise click.UsageError(f"{old} is the old name of {new}: give {new} only",
                                           ctx=ctx)
                click.echo(f"ascent: warning: {old} is deprecated; use {new} (the old name "
                           "goes away in the next release)", err=True)
                kwargs[dest] = value
            return f(*args, **kwargs)

        return click.option(old, hidden, default=None, hidden=True, **attrs)(command)

    return deco
