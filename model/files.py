"""Writing a file whole or not at all, never over an existing file.

Every package of the project that writes a file the user keeps (records, pictures, the puzzle
archive, bot game records, plots) writes it through :func:`link_new`: a temporary file in the
same folder, synced, then hard-linked to its name, which the system refuses if the name is
taken (so nothing is ever written over, even by a race), and the temporary name removed. A
file therefore holds all that was written or does not exist, also after a kill or a full
disk. The mode is that of an ordinary file (0666 less the umask), not ``mkstemp``'s 0600.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Callable


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def link_new(path: str | os.PathLike, write: Callable[[IO[bytes]], object]) -> Path:
    """Create ``path`` holding what ``write(fh)`` writes into the binary file ``fh``.

    ``path``'s folder must exist. Where the file system has no hard links (some network or
    FAT file systems) the temporary file is renamed instead, after checking the name is
    free (the one case where a file created in between could be replaced).
    Returns ``path`` as a :class:`~pathlib.Path`. Raises :class:`FileExistsError` if
    ``path`` exists (also when it appears while writing), :class:`FileNotFoundError` if
    its folder does not exist, other :class:`OSError` if the disk is full, the file too
    large (``ulimit -f``) or the folder not writable (an error that names no file, such as
    a full disk, is raised again naming ``path``), and whatever ``write`` raises; in every
    case nothing is left behind.
    """
    path = Path(path)
    if path.exists() or path.is_symlink():
        raise FileExistsError(17, "File exists", str(path))
    folder = path.parent if str(path.parent) else Path(".")
    # the temporary name stays within NAME_MAX (255 bytes) whatever the length of the name
    stem = os.fsencode(path.name)[:200].decode("utf-8", "ignore")
    fd, tmp = tempfile.mkstemp(prefix=f".{stem}.", suffix=".tmp", dir=folder)
    try:
        try:
            os.fchmod(fd, 0o666 & ~_umask())
            with os.fdopen(fd, "wb") as fh:
                write(fh)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:  # a full disk names no file: name the one being written
            if exc.filename is None and exc.errno is not None:
                raise OSError(exc.errno, exc.strerror, str(path)) from exc
            raise
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError:  # no hard links here
            if path.exists() or path.is_symlink():
                raise FileExistsError(17, "File exists", str(path)) from None
            os.replace(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
    return path


def write_new_text(path: str | os.PathLike, text: str) -> Path:
    """:func:`link_new` of ``text`` encoded as UTF-8 (same errors)."""
    data = text.encode("utf-8")
    return link_new(path, lambda fh: fh.write(data))
