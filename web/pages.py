"""What the server answers a browser besides the page itself: the check of the page's address
(its query numbers are parsed here, strictly, before the page is served), and a small HTML
error page for an address that names nothing (``/g/<unknown>``) or holds a bad value.

A client that does not ask for HTML (``Accept`` without ``text/html``: the API's clients,
``curl``) gets the same errors as JSON ``{"error", "status"}``.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any, Mapping

from model.errors import RecordError
from web.games import json_text, silent_bots

#: The page's query parameters that are whole numbers, and their most digits.
NUMBERS = {"seed": 20, "players": 2, "seat": 2, "pause": 6}
#: The page's query parameters that take one of a few words.
WORDS = {"mode": ("open", "silent"), "kind": ("deal", "position"), "size": ("full", "mini")}

_DIGITS = re.compile(r"[0-9]+")


def whole_number(name: str, value: Any, most_digits: int = 20) -> int:
    """``value`` as a whole number ≥ 0: a JSON integer, or a string of decimal digits only
    (``"12"``; not ``"12abc"``, ``" 12"``, ``"1e3"``, ``"-1"``). Raises
    :class:`RecordError` naming ``name`` and the value as the client wrote it."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise RecordError(f"{name} must be a whole number ≥ 0, not {value}")
        return value
    if isinstance(value, str) and _DIGITS.fullmatch(value) and len(value) <= most_digits:
        return int(value)
    what = "a whole number ≥ 0" + (f" of at most {most_digits} digits"
                                   if isinstance(value, str) and _DIGITS.fullmatch(value) else "")
    raise RecordError(f"{name} must be {what}, not {json_text(value)}")


def check_page_query(query: Mapping[str, str]) -> None:
    """Check the address of the page (``/?seed=7&players=3&mode=silent…``, docs/web.md):
    the numbers ``seed``, ``players``, ``seat``, ``pause`` strictly (:func:`whole_number`),
    ``date`` (``YYYY-MM-DD`` or ``today``), ``mode``, ``kind``, ``size`` and ``bot`` among
    their values (an empty ``bot``: the default team-mate of the table's size). Other parameters are
    left to the page. Raises :class:`RecordError` with a one-line message."""
    for name, digits in NUMBERS.items():
        if name in query:
            whole_number(name, query[name], digits)
    for name, allowed in WORDS.items():
        if name in query and query[name] not in allowed:
            raise RecordError(f"{name} must be {' or '.join(allowed)}, not {json_text(query[name])}")
    if "date" in query and query["date"] != "today":
        try:
            dt.date.fromisoformat(query["date"])
        except ValueError:
            raise RecordError(f"date must be YYYY-MM-DD or today, not {json_text(query['date'])}") from None
    if query.get("bot") and query["bot"] not in silent_bots():  # empty: the default
        raise RecordError(f"bot must be one of {', '.join(silent_bots())}, not {json_text(query['bot'])}")


def wants_html(accept: str | None) -> bool:
    """Whether a request's ``Accept`` header asks for HTML (a browser's navigation)."""
    return bool(accept) and "text/html" in str(accept)


def error_page(status: int, title: str, message: str) -> str:
    """A small HTML page for an error the person should read: ``title``, ``message`` and
    links to start again (the page's own style sheet; nothing from the internet)."""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · The Ascent</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="/static/play.css">
</head>
<body data-ready="error" data-status="{status}">
<main class="error-page">
<h1>{html.escape(title)}</h1>
<p id="message" class="error" role="alert">{html.escape(message)}</p>
<p><a href="/">Play the real game</a> · <a href="/?mode=open">Today's daily puzzle</a></p>
</main>
</body>
</html>
"""


__all__ = ["NUMBERS", "WORDS", "check_page_query", "error_page", "wants_html", "whole_number"]
