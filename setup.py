"""Build of the compiled search core: ``solver._core`` from ``solver/_core.c``, and of the
compiled playout engine of the silent bots: ``bots._playout`` from ``bots/_playout.c``
(optional too: without it :mod:`bots.fastplay` plays its pure-Python fallback). Both include
``solver/rules_core.h``, the placement rules written once in C.

Everything else about the package is in ``pyproject.toml``. The extensions are optional: where
they cannot be compiled (no C compiler, or no Python headers), the install goes on and the
solver runs its pure-Python search, the reference (``solver.exhaustive.CORE_AVAILABLE`` is
then False and ``ascent --version`` says so), and the bots their Python playouts. Each build
records a digest of ALL its sources (``SOURCE_HASH``: sha256 of the files of
:data:`CORE_SOURCES` or :data:`PLAYOUT_SOURCES` in that order, 16 hex digits): an extension
built from other sources is not used (``solver.exhaustive.core_status()`` and
``bots.fastplay.status()`` say what runs).
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
RULES = "solver/rules_core.h"
CORE_SOURCES = ["solver/_core.c", RULES]
PLAYOUT_SOURCES = ["bots/_playout.c", RULES]


def digest(paths: list[str]) -> str:
    """sha256 of the files' bytes one after the other, 16 hex digits."""
    h = hashlib.sha256()
    for p in paths:
        h.update((ROOT / p).read_bytes())
    return h.hexdigest()[:16]


setup(ext_modules=[Extension("solver._core", [CORE_SOURCES[0]], optional=True, depends=[RULES],
                             include_dirs=["solver"],
                             define_macros=[("ASCENT_CORE_SOURCE", f'"{digest(CORE_SOURCES)}"')],
                             extra_compile_args=["-O2"]),
                   Extension("bots._playout", [PLAYOUT_SOURCES[0]], optional=True, depends=[RULES],
                             include_dirs=["solver"],
                             define_macros=[("ASCENT_PLAYOUT_SOURCE",
                                             f'"{digest(PLAYOUT_SOURCES)}"')],
                             extra_compile_args=["-O2"])])
