"""The frozen archive of daily puzzles: one JSON file per date, kind and size.

Layout: ``DIR/YYYY/MM/YYYY-MM-DD-<kind>-<size>.json``, each file one puzzle record
(:func:`puzzles.daily.puzzle_for`) as compact JSON and a final newline
(:func:`dumps_record`).

Published puzzles are frozen: :func:`write_new` never replaces a file that exists (even if
the generator has changed since), and writes a temporary file in the same directory that is
then hard-linked into place (an atomic create-if-absent) and removed, so a file is whole or
absent, even after Ctrl-C or ``kill -9``.

:func:`puzzles.check.check_archive` re-verifies an archive, and :func:`puzzles.check.find`
gives out one checked record.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
from pathlib import Path
from typing import Any, Iterator

from model.files import write_new_text

_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})-(deal|position)-(full|mini)\.json$")


#: The archive published with the project (``puzzles/archive/``: December 2026, every kind
#: and size). ``ascent daily`` and ``ascent serve`` read a date's puzzle from it when it is
#: there, so a published puzzle is shown as it was frozen, whatever the generator does now.
PUBLISHED = Path(__file__).resolve().parent / "archive"


class ArchiveError(RuntimeError):
    """The archive directory cannot be used (missing, not a directory, not writable)."""


def dumps_record(record: dict[str, Any]) -> str:
    """The bytes of an archive file (as text): compact JSON, key order kept, newline."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def path_for(root: str | Path, date: _dt.date, kind: str, size: str) -> Path:
    """``root/YYYY/MM/YYYY-MM-DD-<kind>-<size>.json``."""
    return (Path(root) / f"{date.year:04d}" / f"{date.month:02d}"
            / f"{date.isoformat()}-{kind}-{size}.json")


def parse_name(path: Path) -> tuple[_dt.date, str, str] | None:
    """``(date, kind, size)`` of an archive file name, or ``None`` if it is not one."""
    m = _NAME.match(path.name)
    if not m:
        return None
    try:
        date = _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
    return date, m.group(4), m.group(5)


def check_dir(root: str | Path, writable: bool) -> Path:
    """``root`` as a Path; :class:`ArchiveError` if it is missing, not a directory, or (when
    ``writable``) not writable."""
    p = Path(root)
    if not p.exists():
        raise ArchiveError(f"{root}: no such directory")
    if not p.is_dir():
        raise ArchiveError(f"{root}: not a directory")
    if writable and not os.access(p, os.W_OK | os.X_OK):
        raise ArchiveError(f"{root}: directory is not writable")
    return p


def write_new(path: Path, text: str) -> bool:
    """Create ``path`` with ``text`` unless it exists. Returns True if written, False if a
    file was already there (left untouched). Whole or nothing: temporary file in the same
    directory, fsync, then an atomic hard link into place (:func:`model.files.write_new_text`)."""
    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_new_text(path, text)
    except FileExistsError:  # appeared meanwhile: left untouched
        return False
    return True


def iter_files(root: str | Path) -> Iterator[tuple[Path, _dt.date, str, str]]:
    """Every archive file under ``root`` (sorted by path) with its date, kind and size."""
    for p in sorted(Path(root).glob("[0-9][0-9][0-9][0-9]/[0-9][0-9]/*.json")):
        parsed = parse_name(p)
        if parsed is not None:
            yield (p, *parsed)


def load_archive(root: str | Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Every puzzle record of the archive, keyed by ``(date ISO, kind, size)``. Raises
    :class:`ArchiveError` for a missing directory or an unreadable file."""
    check_dir(root, writable=False)
    out = {}
    for p, date, kind, size in iter_files(root):
        out[date.isoformat(), kind, size] = read_record(p)
    return out


def read_record(p: Path, root: str | Path | None = None) -> dict[str, Any]:
    """The puzzle record in the archive file ``p``; :class:`ArchiveError` (naming the file
    relative to ``root``, when given) for a file that cannot be read as JSON."""
    name = p.relative_to(root) if root is not None else p
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ArchiveError(f"{name}: unreadable puzzle file ({exc.__class__.__name__})") from None


__all__ = ["ArchiveError", "dumps_record", "load_archive", "path_for", "read_record",
           "write_new"]
