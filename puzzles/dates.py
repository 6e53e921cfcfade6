"""Dates and the candidate derivation of the daily puzzles.

A puzzle date is a **UTC calendar date** ``YYYY-MM-DD`` (the day boundary is midnight UTC;
"today" is today in UTC). Dates from 2000-01-01 to 2999-12-31 are accepted.

Derivation (generator version 1), the same on every machine and Python version (it uses only
integer arithmetic and the project's SplitMix64 of :mod:`model.deal`; no ``random``, no
``hash``):

1. **Day number** ``d``: days since the epoch 2000-01-01 (``d = 0`` on 2000-01-01,
   ``d = 9831`` on 2026-12-01).
2. **Salt** of the puzzle's kind and size: the 8 ASCII bytes of its name read as a
   big-endian unsigned 64-bit integer (:data:`SALT_NAMES`: ``DEALFULL``, ``DEALMINI``,
   ``POSNFULL``, ``POSNMINI``; ``DEALFULL`` = ``0x4445414C46554C4C``).
3. **Stream**: SplitMix64 seeded with ``(salt + d) mod 2**64``. Its outputs, in order, are
   the date's candidates:

   * a deal puzzle takes one output per candidate: candidate *k* is deal number
     ``out[k]``, solo;
   * a position puzzle takes three outputs per candidate: the deal number ``out[3k]``, the
     players ``1 + out[3k+1] mod 5`` and the playout seed ``out[3k+2]`` (which decides where
     the game is cut and which random moves lead to the position, see
     :mod:`puzzles.positions`).

4. Candidates are tried in order; the first that meets the criteria of the date's grade
   band (:func:`band_for`) is the puzzle, and its index *k* is recorded in the puzzle.

Weekdays ramp like newspaper puzzles: Monday and Tuesday ``easy``, Wednesday and Thursday
``medium``, Friday and Saturday ``hard``, Sunday ``expert``.

>>> day_number(parse_date("2026-12-01"))
9831
>>> hex(salt("deal", "full"))
'0x4445414c46554c4c'
>>> band_for(parse_date("2026-12-06"))  # a Sunday
'expert'
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Iterator

from model.deal import MASK64, SplitMix64

EPOCH = _dt.date(2000, 1, 1)
FIRST_DATE = _dt.date(2000, 1, 1)
LAST_DATE = _dt.date(2999, 12, 31)

KINDS = ("deal", "position")
SIZES = ("full", "mini")
GRADES = ("easy", "medium", "hard", "expert")

#: The salt names of (kind, size): 8 ASCII characters each.
SALT_NAMES = {
    ("deal", "full"): "DEALFULL",
    ("deal", "mini"): "DEALMINI",
    ("position", "full"): "POSNFULL",
    ("position", "mini"): "POSNMINI",
}

#: Grade band of each weekday (``date.weekday()``: 0 = Monday ... 6 = Sunday).
WEEKDAY_BANDS = ("easy", "easy", "medium", "medium", "hard", "hard", "expert")

_DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


class DateError(ValueError):
    """A date that is not a real ``YYYY-MM-DD`` calendar date in the accepted range."""


def parse_date(text: str) -> _dt.date:
    """Parse ``YYYY-MM-DD`` (a UTC calendar date). Raises :class:`DateError` for anything
    else (``2026-02-30``, ``yesterday``, a year outside 2000–2999)."""
    m = _DATE_RE.match(text.strip()) if isinstance(text, str) else None
    if not m:
        raise DateError(f"bad date {text!r}: expected YYYY-MM-DD (a UTC calendar date)")
    try:
        date = _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError as exc:
        raise DateError(f"bad date {text!r}: {exc}") from None
    check_date(date)
    return date


def check_date(date: _dt.date) -> None:
    """Raise :class:`DateError` unless ``date`` is within 2000-01-01 .. 2999-12-31."""
    if not FIRST_DATE <= date <= LAST_DATE:
        raise DateError(f"date {date.isoformat()} is out of range: puzzles exist from "
                        f"{FIRST_DATE.isoformat()} to {LAST_DATE.isoformat()}")


def today_utc() -> _dt.date:
    """Today's date in UTC (the day boundary of the daily puzzles)."""
    return _dt.datetime.now(_dt.UTC).date()


def day_number(date: _dt.date) -> int:
    """Days since the epoch 2000-01-01 (0 on the epoch)."""
    return date.toordinal() - EPOCH.toordinal()


def salt(kind: str, size: str) -> int:
    """The salt of ``kind``/``size``: its 8-character name as a big-endian 64-bit integer."""
    if (kind, size) not in SALT_NAMES:
        raise ValueError(f"unknown puzzle kind/size {kind!r}/{size!r}")
    return int.from_bytes(SALT_NAMES[kind, size].encode("ascii"), "big")


def stream_seed(date: _dt.date, kind: str, size: str) -> int:
    """The SplitMix64 seed of a date's candidate stream: ``(salt + day) mod 2**64``."""
    return (salt(kind, size) + day_number(date)) & MASK64


def outputs(date: _dt.date, kind: str, size: str) -> Iterator[int]:
    """The date's stream of 64-bit outputs (endless)."""
    rng = SplitMix64(stream_seed(date, kind, size))
    while True:
        yield rng.next()


def candidate(date: _dt.date, kind: str, size: str, k: int) -> dict[str, int]:
    """Candidate ``k`` (0-based) of the date: ``{"seed": N, "players": P}`` for a deal
    (``P`` = 1) and ``{"seed": N, "players": P, "playout": X}`` for a position."""
    rng = SplitMix64(stream_seed(date, kind, size))
    per = 1 if kind == "deal" else 3
    for _ in range(per * k):
        rng.next()
    if kind == "deal":
        return {"seed": rng.next(), "players": 1}
    seed = rng.next()
    players = 1 + rng.next() % 5
    return {"seed": seed, "players": players, "playout": rng.next()}


#: The salt of the daily challenge (the real game of the date, played silently on the web page).
CHALLENGE_SALT = int.from_bytes(b"CHALLNGE", "big")


def challenge_seed(date: _dt.date) -> int:
    """The deal number of ``date``'s daily challenge: the first output of SplitMix64 seeded
    with ``(CHALLENGE_SALT + day) mod 2**64``, with ``CHALLENGE_SALT`` the bytes
    ``CHALLNGE`` read as above. Every player of the date gets this deal (standard rules, any
    number of players); unlike a puzzle it is not chosen for a grade and may be lost from the
    start. Raises :class:`DateError` outside the accepted range.

    >>> challenge_seed(parse_date("2026-12-02")) == challenge_seed(parse_date("2026-12-02"))
    True
    >>> challenge_seed(parse_date("2026-12-02")) != challenge_seed(parse_date("2026-12-03"))
    True
    """
    check_date(date)
    return SplitMix64((CHALLENGE_SALT + day_number(date)) & MASK64).next()


def band_for(date: _dt.date) -> str:
    """The grade band of ``date``'s weekday (Monday easy ... Sunday expert)."""
    return WEEKDAY_BANDS[date.weekday()]
