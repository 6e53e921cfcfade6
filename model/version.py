"""The version of ascent, in one place.

The package metadata takes it from here (``pyproject.toml``: ``dynamic = ["version"]``), and
so do ``ascent --version`` and the study database's solver version
(:func:`studies.study.solver_version`). ``CHANGELOG.md``'s newest entry names it too
(``tests/test_packaging.py`` checks that they agree).
"""

VERSION = "0.2.0"

__all__ = ["VERSION"]
