"""Reading inputs and writing outputs safely: the shared reader and the shared writer.

* :func:`read_input` reads a file or standard input (``-``) whole, refusing anything over
  :data:`MAX_INPUT_BYTES` (8 MiB) before it is read whole (it is
  :func:`model.records.read_text`, which every loader of records goes through).
* :func:`check_new_file` refuses an output path before any work is done: an existing file is
  never overwritten; the folder must exist and be writable.
* :func:`write_new_file` writes a file whole or not at all: into a temporary file in the same
  folder, flushed and synced, then linked into place only if the name is still free (so an
  existing file is never replaced, even one created meanwhile). On any failure the temporary
  file is removed and nothing is left under the name.

Commands that write a file should call :func:`check_new_file` first and, when the final
:func:`write_new_file` fails, still print their answer on standard output and then raise
the error (see ``cli/solve.py``): an answer is never lost.
"""

from __future__ import annotations

import os
from pathlib import Path

from cli.errors import CliError
from model.files import write_new_text
from model.records import MAX_INPUT_BYTES, read_text

__all__ = ["check_new_file", "read_input", "write_new_file"]


def read_input(path: str | Path, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of ``path`` (``-``: standard input), at most ``limit`` bytes; a leading
    byte-order mark is dropped. Raises :class:`model.errors.RecordError` (one line)."""
    return read_text(path, limit)


def check_new_file(path: str, option: str) -> None:
    """Raise :class:`cli.errors.CliError` (exit 2) unless ``path`` can be created: a name
    is given, nothing exists under it (a file, folder or dangling link is never replaced),
    and its folder exists and is writable. Call it before a long computation."""
    if not path.strip():
        raise CliError(f"{option} needs a file name")
    p = Path(path)
    try:
        exists = p.exists() or p.is_symlink()
    except (OSError, ValueError) as exc:
        raise CliError(f"{path}: unusable file name ({exc.__class__.__name__})") from None
    if exists:
        raise CliError(f"{path}: exists; {option} never writes over an existing file")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise CliError(f"{path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise CliError(f"{path}: the folder {parent} is not writable")


def write_new_file(path: str | Path, text: str) -> None:
    """Create ``path`` holding ``text`` (UTF-8), whole or not at all.

    :func:`model.files.write_new_text`: a temporary file in the same folder, synced, then
    hard-linked to ``path`` (atomic, and refused if ``path`` exists meanwhile).
    Raises :class:`FileExistsError` if ``path`` exists, :class:`OSError` if the disk is full,
    the file too large (``ulimit -f``) or the folder not writable; nothing is left behind
    then."""
    write_new_text(path, text)
