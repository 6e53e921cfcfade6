"""The resumable JSONL journals of the benchmark runs: one row a line, appended as it is
measured, so that an interrupted run resumes where it stopped."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def seed_range(text: str) -> list[int]:
    """The seeds of a range ``"A-B"`` (both ends included) or of one seed ``"A"``.

    Raises ``ValueError`` on text that is not such a range.

    >>> seed_range("3-5"), seed_range("7")
    ([3, 4, 5], [7])
    """
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of the journal ``path`` (``[]`` if it does not exist). A line that is not
    JSON (cut by an interrupt) is skipped: its row is measured again."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out


def append_row(path: Path, row: dict[str, Any]) -> None:
    """Append ``row`` as one JSON line to ``path`` and sync it to disk."""
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
