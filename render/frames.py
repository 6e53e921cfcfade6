"""A plan move by move: one picture per position (a folder of frames) or one animated SVG.

Frame ``k`` is the position after the plan's first ``k`` moves (frame 0 is the deal), titled
with the move just made and with its slot outlined. Every move is replayed by
:mod:`model` (:meth:`model.game.Game.push`), so an illegal plan stops with its
:class:`~model.errors.IllegalMoveError` before anything is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import drawsvg as dw

from model.game import Game
from model.moves import CAMPFIRE, DISCARD, Move
from model.records import Plan
from render.files import OutputExistsError, write_new
from render.svg import draw_game


def move_marks(move: Move | None) -> list[tuple[int, int]]:
    """The (row, slot) pairs a move filled: its slot, and for a Campfire also the slot the
    replaced card moved to; none for a discard turn."""
    if move is None or move.kind == DISCARD:
        return []
    marks = [(move.row, move.slot)]
    if move.kind == CAMPFIRE:
        marks.append((move.to_row, move.to_slot))
    return marks


def plan_frames(plan: Plan, name: str = "") -> Iterator[tuple[int, dw.Drawing]]:
    """``(k, drawing)`` for k = 0..len(plan.moves): the position after k moves.

    Raises :class:`~model.errors.IllegalMoveError` at the first illegal move (the frames
    before it have been yielded).
    """
    game = Game(plan.deal)
    prefix = f"{name}: " if name else ""
    yield 0, draw_game(game, f"{prefix}the deal")
    for k, move in enumerate(plan.moves, start=1):
        text = game.move_text(move)
        game.push(move)
        yield k, draw_game(game, f"{prefix}{text}", marks=move_marks(move))


def frame_name(k: int, total: int, ext: str) -> str:
    """``frame-007.svg``: zero-padded so that the files sort in move order."""
    return f"frame-{k:0{max(3, len(str(total)))}d}.{ext}"


def write_frames(plan: Plan, folder: str | Path, fmt: str = "svg", name: str = "") -> list[Path]:
    """Write one picture per position of ``plan`` into ``folder`` (created if missing):
    ``frame-000.svg`` (the deal) to ``frame-NNN.svg`` (after the last move); ``fmt`` is
    ``svg`` or ``png``. Returns the paths written.

    Nothing is written over an existing file: :class:`~render.files.OutputExistsError` is
    raised before the first frame if any frame's name is taken. The plan is replayed in full
    first, so an illegal move writes nothing.
    """
    if fmt not in ("svg", "png"):
        raise ValueError(f"frames are svg or png, not {fmt!r}")
    folder = Path(folder)
    frames = list(plan_frames(plan, name))
    names = [folder / frame_name(k, len(plan.moves), fmt) for k, _ in frames]
    for p in names:
        if p.exists() or p.is_symlink():
            raise OutputExistsError(f"{p}: exists; frames are never written over files")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for (_, drawing), path in zip(frames, names):
        svg = drawing.as_svg()
        if fmt == "png":
            from render.png import svg_to_png

            data = svg_to_png(svg)
        else:
            data = svg.encode("utf-8")
        written.append(write_new(path, data))
    return written


def animated_svg(plan: Plan, seconds_per_move: float = 1.2, name: str = "") -> str:
    """One SVG that shows the positions of ``plan`` one after the other, ``seconds_per_move``
    each, and starts again (SMIL ``<animate>`` of each frame's visibility; browsers play it,
    still-image converters show the last position).

    Raises :class:`~model.errors.IllegalMoveError` at an illegal move, ``ValueError`` for a
    non-positive ``seconds_per_move``.
    """
    if not seconds_per_move > 0:
        raise ValueError("seconds_per_move must be > 0")
    frames = list(plan_frames(plan, name))
    n = len(frames)
    width = max(d.width for _, d in frames)
    height = max(d.height for _, d in frames)
    from render.svg import FONT

    out = dw.Drawing(width, height, id_prefix="a", font_family=FONT)
    total = seconds_per_move * n
    for k, drawing in frames:
        last = k == n - 1
        g = dw.Group(visibility="visible" if last else "hidden", class_="frame")
        for el in drawing.elements:
            g.append(el)
        if n > 1:
            # visible during [k/n, (k+1)/n) of each cycle, hidden otherwise
            times = sorted({0.0, k / n, (k + 1) / n, 1.0})
            values = ["visible" if k / n <= t < (k + 1) / n else "hidden" for t in times]
            g.append(dw.Animate("visibility", f"{total:g}s", ";".join(values),
                                keyTimes=";".join(f"{t:.6f}".rstrip("0").rstrip(".") or "0"
                                                  for t in times),
                                calcMode="discrete", repeatCount="indefinite"))
        out.append(g)
    return out.as_svg()
