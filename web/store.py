"""Games and their reviews on disk: one SQLite file, kept across restarts of the server.

:class:`GameDB` holds one row per game (its recipe, its moves, its reference line: what
:mod:`web.games` needs to rebuild the game) and one per review, as JSON text. The file is
in WAL mode (readers never wait for the writer) and the server writes through one connection
under one lock (one writer). At most ``max_games`` games are kept; beyond that the one
changed least recently goes first, with its review.

``path=None`` keeps the database in memory (the in-process test client).

The default folder of the file, :func:`default_data_dir`, is the per-user data folder:
``platformdirs.user_data_dir("ascent")`` when platformdirs is installed, else
``$XDG_DATA_HOME/ascent`` or ``~/.local/share/ascent``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

#: The file name of the database inside the data folder.
DB_NAME = "games.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_seq ON games (seq);
CREATE TABLE IF NOT EXISTS reviews (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL
);
"""


def default_data_dir() -> Path:
    """The per-user data folder of ascent (see the module docstring); not created here."""
    try:
        import platformdirs  # type: ignore[import-not-found]

        return Path(platformdirs.user_data_dir("ascent"))
    except ImportError:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
        return Path(base) / "ascent"


class GameDB:
    """The games and reviews of one server (see the module docstring). ``path``: the SQLite
    file (its folder is created), or ``None`` for memory. Raises ``sqlite3.Error`` (an
    ``OSError`` for the folder) when the file cannot be opened."""

    def __init__(self, path: str | Path | None, max_games: int = 500) -> None:
        self.max_games = max_games
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path) if path is not None else ":memory:"
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   timeout=10)
        self._lock = threading.Lock()
        with self._lock:
            if path is not None:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            row = self._db.execute("SELECT MAX(seq) FROM games").fetchone()
        self._seq = int(row[0] or 0)

    def put(self, sid: str, data: dict[str, Any]) -> list[str]:
        """Write game ``sid`` (a JSON-able dict) as the most recently changed one; drops the
        oldest beyond ``max_games`` and returns their ids."""
        text = json.dumps(data, separators=(",", ":"))
        with self._lock:
            self._seq += 1
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO games (id, seq, data) VALUES (?, ?, ?) "
                                 "ON CONFLICT(id) DO UPDATE SET seq=excluded.seq, data=excluded.data",
                                 (sid, self._seq, text))
                old = [r[0] for r in self._db.execute(
                    "SELECT id FROM games ORDER BY seq DESC LIMIT -1 OFFSET ?", (self.max_games,))]
                for gid in old:
                    self._db.execute("DELETE FROM games WHERE id = ?", (gid,))
                    self._db.execute("DELETE FROM reviews WHERE id = ?", (gid,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return old

    def get(self, sid: str) -> dict[str, Any] | None:
        """Game ``sid`` as written by :meth:`put`, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT data FROM games WHERE id = ?", (sid,)).fetchone()
        return json.loads(row[0]) if row else None

    def put_review(self, sid: str, data: dict[str, Any]) -> None:
        """Write the review of game ``sid`` (nothing if the game was dropped meanwhile)."""
        text = json.dumps(data, separators=(",", ":"))
        with self._lock:
            if self._db.execute("SELECT 1 FROM games WHERE id = ?", (sid,)).fetchone():
                self._db.execute("INSERT OR REPLACE INTO reviews (id, data) VALUES (?, ?)",
                                 (sid, text))

    def get_review(self, sid: str) -> dict[str, Any] | None:
        """The review of game ``sid``, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT data FROM reviews WHERE id = ?", (sid,)).fetchone()
        return json.loads(row[0]) if row else None

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        """Close the connection (the WAL is checkpointed into the file)."""
        with self._lock:
            self._db.close()


__all__ = ["DB_NAME", "GameDB", "default_data_dir"]
