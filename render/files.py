"""Writing pictures to files: whole or not at all, never over an existing file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputExistsError(FileExistsError):
    """The output path exists; nothing was written (pictures never replace a file)."""


def write_new(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then link it
    into place, so that ``path`` holds all of ``data`` or does not exist.

    Raises :class:`OutputExistsError` if ``path`` exists (also when it appears while
    writing), :class:`FileNotFoundError` if its folder does not exist, other
    :class:`OSError` for what the system refuses.
    """
    path = Path(path)
    if path.exists() or path.is_symlink():
        raise OutputExistsError(f"{path}: exists; pictures are never written over a file")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(f"{path}: the folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; a picture is an ordinary file
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)  # fails if path appeared meanwhile: never replace it
        except FileExistsError:
            raise OutputExistsError(f"{path}: exists; pictures are never written over a file") from None
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
    return path
