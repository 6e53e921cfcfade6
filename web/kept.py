"""Finished silent games kept for later study (opt in: ``ascent serve --keep-games FILE``).

A later study can measure how well a partner model (:mod:`bots.partner_model`) predicts
people only from people's games. With ``--keep-games FILE`` the server writes each silent
game that ends (won or lost) to the local SQLite file ``FILE``; nothing leaves the machine,
and without the flag nothing is kept beyond the page's own game store.

**Format** (one table, ``finished_games``; one row per game, the last finish of a game kept
when it is undone and finished again):

=============  ======  =========================================================
column         type    meaning
=============  ======  =========================================================
``id``         TEXT    the page's game id (primary key)
``finished``   TEXT    when it ended, UTC, ISO 8601 (``2026-12-04T18:40:00Z``)
``players``    INT     table size, 1–5
``seat``       INT     the person's seat, 1-based
``bot``        TEXT    the team-mates' bot (``adhoc``, ``uct``, ``greedy``, …)
``outcome``    TEXT    ``win`` or ``loss``
``moves``      INT     moves made (every seat)
``record``     TEXT    the game record, JSON of :meth:`model.records.Plan.to_json`
                       (the deal and every seat's moves; ``ascent replay`` reads it)
=============  ======  =========================================================

The person's moves are those of ``record`` whose ``player`` is ``seat``.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import threading
from pathlib import Path

from model.records import Plan
from web.games import SilentGame

TABLE = "finished_games"
COLUMNS = ("id", "finished", "players", "seat", "bot", "outcome", "moves", "record")


class KeptGamesError(Exception):
    """The file cannot be used to keep games (not SQLite, another table layout, unwritable)."""


class KeptGames:
    """The ``finished_games`` table of the SQLite file ``path`` (created when missing).
    Raises :class:`KeptGamesError` for a file that is not an SQLite database, one whose
    ``finished_games`` table has other columns, or one that cannot be written."""

    def __init__(self, path: str | Path) -> None:
        p = Path(path)
        if p.is_dir():
            raise KeptGamesError(f"{p}: is a folder, not a database file")
        if p.exists() and p.stat().st_size > 0:
            with open(p, "rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise KeptGamesError(f"{p}: not an SQLite database (left as it is)")
        try:
            self.con = sqlite3.connect(str(p), check_same_thread=False, isolation_level=None,
                                       timeout=30)
            have = [r[1] for r in self.con.execute(f"PRAGMA table_info({TABLE})")]
            if have and have != list(COLUMNS):
                self.con.close()
                raise KeptGamesError(f"{p}: table {TABLE} has columns {', '.join(have)}, not "
                                     f"{', '.join(COLUMNS)} (left as it is)")
            self.con.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id TEXT PRIMARY KEY, "
                             "finished TEXT, players INTEGER, seat INTEGER, bot TEXT, "
                             "outcome TEXT, moves INTEGER, record TEXT)")
        except sqlite3.Error as exc:
            raise KeptGamesError(f"{p}: cannot keep games there ({exc})") from None
        self.lock = threading.Lock()

    def finished(self, session) -> bool:
        """Keep ``session`` (a :class:`web.games.WebGame`) if it is a silent game that has
        ended and started from a deal; whether it was kept. A write that fails is not the
        player's problem: it returns ``False``."""
        g = session.game
        outcome = g.outcome()
        if not isinstance(session, SilentGame) or outcome is None or g.deal is None:
            return False
        record = json.dumps(Plan(g.deal, list(g.move_stack)).to_json(), separators=(",", ":"))
        when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        try:
            with self.lock:
                self.con.execute(f"INSERT OR REPLACE INTO {TABLE} VALUES (?,?,?,?,?,?,?,?)",
                                 (session.id, when, g.players, session.seat + 1, session.bot,
                                  outcome, len(g.move_stack), record))
        except sqlite3.Error:
            return False
        return True

    def close(self) -> None:
        """Close the file."""
        self.con.close()
