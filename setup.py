"""Build of the compiled search core (issue 11): ``solver._core`` from ``solver/_core.c``.

Everything else about the package is in ``pyproject.toml``. The extension is optional: where
it cannot be compiled (no C compiler), the install goes on and the solver runs its
pure-Python search, the reference (``solver.exhaustive.CORE_AVAILABLE`` is then False).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("solver._core", ["solver/_core.c"], optional=True,
                             extra_compile_args=["-O2"])])
