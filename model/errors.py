"""Errors raised by the rules engine.

Every error is a :class:`ValueError` subclass whose message is one line that names the
offending input (and, for illegal moves, the ruling id it breaks), so that the command line
can print it as-is and exit non-zero.
"""

from __future__ import annotations

import json

#: The longest piece of the user's input an error message quotes (a 400 KB token
#: must not become a 400 KB "one-line" error).
QUOTE_LIMIT = 40


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to at most ``limit`` characters of the input plus ``…`` and the
    full length, so that an error quoting user input stays one short line.

    >>> quoted("7r")
    "'7r'"
    >>> quoted("1" * 100 + "r")
    "'1111111111111111111111111111111111111111…' (101 characters)"
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        head = repr(value[:limit])
        return f"{head[:-1]}…{head[-1]} ({len(value)} characters)"
    text = repr(value)
    if len(text) > limit + 2:
        return text[: limit + 1] + "…"
    return text


def json_error_text(exc: json.JSONDecodeError) -> str:
    """The words of a JSON syntax error with its place, as one complete phrase: Python's
    ``msg`` ends in "at" or "starting at" when its full text goes on with the place, so
    that ending is dropped and the place follows.

    >>> import json
    >>> try:
    ...     json.loads('{"deal": "ab')
    ... except json.JSONDecodeError as exc:
    ...     print(json_error_text(exc))
    malformed JSON at line 1 column 10: unterminated string
    """
    words = exc.msg
    for tail in (" starting at", " at"):
        if words.endswith(tail):
            words = words[: -len(tail)]
            break
    words = words[:1].lower() + words[1:] if words[1:2].islower() else words
    return f"malformed JSON at line {exc.lineno} column {exc.colno}: {words}"


class AscentError(ValueError):
    """Base class of every error the engine raises on bad input."""


class CardSyntaxError(AscentError):
    """A card token that is not valid card text (see :mod:`model.cards`).

    ``token`` is the text that failed and ``position`` its 1-based position in the list it
    came from (``None`` when it was parsed alone).
    """

    def __init__(self, token: str, position: int | None = None, reason: str = "") -> None:
        self.token = token
        self.position = position
        self.reason = reason
        where = f" at position {position}" if position is not None else ""
        why = f": {reason}" if reason else ""
        super().__init__(f"bad card {quoted(token)}{where}{why}")


class RuleOptionError(AscentError):
    """An unknown rule option name or value; the message lists the valid ones."""


class InvalidDealError(AscentError):
    """A deal or position that cannot exist (wrong card counts, too many copies, ...)."""


class IllegalMoveError(AscentError):
    """A move that the rules forbid in the current position.

    ``ruling`` is the id of the ruling it breaks (``"R5"``...), ``move_number`` the 1-based
    index of the move in the plan being replayed (``None`` outside a replay).
    """

    def __init__(self, ruling: str, message: str, move_number: int | None = None) -> None:
        self.ruling = ruling
        self.reason = message
        self.move_number = move_number
        prefix = f"move {move_number}: " if move_number is not None else ""
        super().__init__(f"{prefix}illegal ({ruling}): {message}")


class RecordError(AscentError):
    """A plan, game record or position file that is malformed (bad JSON, missing keys...)."""
