"""The daily puzzles: deals that are certainly winnable, with a known difficulty.

:mod:`puzzles.daily` makes the puzzle of a date (:mod:`puzzles.dates` derives its candidates;
:mod:`puzzles.playouts` and :mod:`puzzles.keymoves` measure them, :mod:`puzzles.grade` grades);
:mod:`puzzles.build` and :mod:`puzzles.check` write and re-verify the frozen archive of
:mod:`puzzles.archive`. Built on :mod:`model` and :mod:`solver`.
"""
