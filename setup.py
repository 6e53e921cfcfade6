"""Build of the compiled search core: ``solver._core`` from ``solver/_core.c``, and of the
compiled playout engine of the silent bots: ``bots._playout`` from ``bots/_playout.c``
(optional too: without it :mod:`bots.fastplay` plays its pure-Python fallback).

Everything else about the package is in ``pyproject.toml``. The extension is optional: where
it cannot be compiled (no C compiler, or no Python headers), the install goes on and the
solver runs its pure-Python search, the reference (``solver.exhaustive.CORE_AVAILABLE`` is
then False and ``ascent --version`` says so). The build records a digest of the source
(``solver._core.SOURCE_HASH``): a core built from another version of ``_core.c`` is not
used (``solver.exhaustive.core_status()`` says which search runs).
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "solver/_core.c"
DIGEST = hashlib.sha256((Path(__file__).resolve().parent / SOURCE).read_bytes()).hexdigest()[:16]

setup(ext_modules=[Extension("solver._core", [SOURCE], optional=True,
                             define_macros=[("ASCENT_CORE_SOURCE", f'"{DIGEST}"')],
                             extra_compile_args=["-O2"]),
                   Extension("bots._playout", ["bots/_playout.c"], optional=True,
                             extra_compile_args=["-O2"])])
