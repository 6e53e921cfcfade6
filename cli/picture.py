"""Picture options shared by ``ascent show`` and ``ascent solve``: ``--format text|svg|png``,
a file for the picture, ``--frames DIR`` (one picture per move) and ``--animate FILE`` (one
animated SVG). The drawing itself lives in :mod:`render`; this module only reads options and
writes files (whole or not at all, never over an existing file)."""

from __future__ import annotations

import io
import os
import sys
from typing import Callable

import click

from cli.common import CliError, console, render_game
from model.game import Game
from model.records import Plan

FORMATS = ("text", "svg", "png")


def picture_options(output_flag: str = "--picture") -> Callable[[Callable], Callable]:
    """Add ``--format``, ``OUTPUT_FLAG FILE`` (the picture's file), ``--frames DIR`` and
    ``--animate FILE`` to a command; the values arrive as ``fmt``, ``picture``, ``frames``
    and ``animate``."""

    def deco(f: Callable) -> Callable:
        f = click.option("--animate", "animate", default=None, metavar="FILE",
                         help="Write one animated SVG of the plan, move by move, to FILE "
                              "(plays in a browser).")(f)
        f = click.option("--frames", "frames", default=None, metavar="DIR",
                         help="Write one picture per move of the plan into DIR "
                              "(frame-000 is the deal), as --format svg (default) or png.")(f)
        f = click.option(output_flag, "picture", default=None, metavar="FILE",
                         help="Write the picture to FILE instead of standard output; an "
                              "existing FILE is never overwritten.")(f)
        f = click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
                         show_default=True,
                         help="text: the terminal drawing; svg or png: a picture of the "
                              "mountain (colour plus letter and shape per colour).")(f)
        return f

    return deco


def check_picture_paths(picture: str | None, animate: str | None, frames: str | None,
                        flag: str = "--picture") -> None:
    """Refuse, before any work, output files that exist or whose folder does not; ``flag``
    names the picture's file option in messages."""
    for opt, path in ((flag, picture), ("--animate", animate)):
        if path is None:
            continue
        if not path.strip():
            raise CliError(f"{opt} needs a file name")
        if os.path.lexists(path):
            raise CliError(f"{path}: exists; pictures are never written over a file")
        folder = os.path.dirname(path) or "."
        if not os.path.isdir(folder):
            raise CliError(f"{path}: the folder {folder} does not exist")
    if frames is not None:
        if not frames.strip():
            raise CliError("--frames needs a folder name")
        if os.path.exists(frames) and not os.path.isdir(frames):
            raise CliError(f"--frames {frames}: exists and is not a folder")


def _write(path: str, data: bytes) -> None:
    from render.files import OutputExistsError, write_new

    try:
        write_new(path, data)
    except OutputExistsError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"{path}: cannot write ({exc.strerror or exc})") from None


def picture_bytes(game: Game, title: str, fmt: str) -> bytes:
    """The picture of ``game`` in ``fmt`` (``text``: plain text of the terminal drawing)."""
    if fmt == "text":
        buf = io.StringIO()
        from rich.console import Console

        Console(file=buf, soft_wrap=True, highlight=False, no_color=True,
                width=120).print(render_game(game, title))
        return buf.getvalue().encode("utf-8")
    from render.svg import game_svg

    svg = game_svg(game, title, marks=_last_marks(game))
    if fmt == "svg":
        return svg.encode("utf-8")
    from render.png import svg_to_png

    try:
        return svg_to_png(svg)
    except RuntimeError as exc:
        raise CliError(str(exc), 70) from None


def _last_marks(game: Game) -> list[tuple[int, int]]:
    from render.frames import move_marks

    return move_marks(game.move_stack[-1] if game.move_stack else None)


def emit_picture(game: Game, title: str, fmt: str, picture: str | None) -> None:
    """Show ``game`` in ``fmt``: text on the terminal (rich, in colour), or the picture's
    bytes to the file ``picture`` or to standard output (PNG only when it is not a
    terminal)."""
    if fmt == "text" and picture is None:
        console().print(render_game(game, title))
        return
    data = picture_bytes(game, title, fmt)
    if picture is not None:
        _write(picture, data)
        return
    if fmt == "png" and sys.stdout.isatty():
        raise CliError("a PNG is not shown on a terminal: give a file name for it, or "
                       "redirect standard output")
    out = getattr(sys.stdout, "buffer", None) or sys.stdout
    out.write(data)
    out.flush()


def emit_plan_pictures(plan: Plan, name: str, fmt: str, frames: str | None,
                       animate: str | None) -> list[str]:
    """Write ``--frames`` and ``--animate`` for ``plan``; returns one line per thing
    written (for a note on standard error)."""
    notes = []
    from model.errors import IllegalMoveError
    from render.files import OutputExistsError

    try:
        if frames is not None:
            from render.frames import write_frames

            paths = write_frames(plan, frames, "png" if fmt == "png" else "svg", name)
            notes.append(f"{len(paths)} frames written to {frames}")
        if animate is not None:
            from render.frames import animated_svg

            _write(animate, animated_svg(plan, name=name).encode("utf-8"))
            notes.append(f"animation written to {animate}")
    except OutputExistsError as exc:
        raise CliError(str(exc)) from None
    except IllegalMoveError as exc:
        raise CliError(f"{name}: {exc}") from None
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        raise CliError(f"{where}cannot write ({exc.strerror or exc})") from None
    return notes


def solve_pictures(plan: Plan, verdict: str, fmt: str, picture: str | None,
                   frames: str | None, animate: str | None) -> bool:
    """The pictures of ``ascent solve``: the final mountain of ``plan`` (the win, or the
    furthest line) in ``fmt`` to ``picture`` or standard output, and the plan's frames or
    animation. Returns True when the picture went to standard output (so the text answer is
    left out)."""
    name = "win" if verdict == "win" else "furthest line"
    for note in emit_plan_pictures(plan, name, fmt, frames, animate):
        click.echo(f"ascent: {note}", err=True)
    if fmt == "text":
        return False
    game = plan.replay().game
    title = "Final mountain" if verdict == "win" else "Furthest position"
    emit_picture(game, f"{title} ({len(plan.moves)} moves)", fmt, picture)
    return picture is None
