"""Writing pictures to files: whole or not at all, never over an existing file."""

from __future__ import annotations

from pathlib import Path

from model.files import link_new


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
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(f"{path}: the folder {folder} does not exist")
    try:
        return link_new(path, lambda fh: fh.write(data))
    except FileExistsError:
        raise OutputExistsError(f"{path}: exists; pictures are never written over a file") from None
