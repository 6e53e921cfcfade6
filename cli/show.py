"""``ascent show``: draw a position (the mountain, hands, decks); ``--picture FILE`` writes
the drawing to a file, ``--save-position FILE`` the position as a position record."""

from __future__ import annotations

import click

from cli.common import (
    CliError,
    console,
    emit_answer,
    load_source,
    render_game,
    resolve_game,
    source_options,
)
from cli.files import check_new_file
from cli.options import old_name
from cli.picture import check_picture_paths, emit_picture, emit_plan_pictures, picture_options
from model.records import dumps


@click.command()
@source_options
@click.option("--save-position", "position_file", default=None, metavar="FILE",
              help="Also write the position shown (after --step K) as a position record "
                   "to FILE, for legal, show or a solver to read; an existing FILE is never "
                   "overwritten.")
@old_name("--position", "--save-position", "position_file", metavar="FILE")
@picture_options()
@old_name("--output", "--picture", "picture", metavar="FILE")
def show(source: str | None, seed: int | None, players: int | None,
         rule_options: tuple[str, ...], step: int | None, position_file: str | None, fmt: str,
         picture: str | None, frames: str | None, animate: str | None) -> None:
    """Draw a POSITION, or a PLAN after K moves: the mountain with the peak on top, each
    card in its colour, empty slots as ··; then each player's hand and deck, the cards out
    of the game, the turn and the outcome if the game is over (after the winning Summit no
    player is to move).

    POSITION|PLAN is a JSON file (a plan, a position, a deal, a solver's --json answer or
    replay's --json output), a typed-in deal, or - for standard input. Use --seed instead of
    a file for the start of a seeded deal.

    \b
    Examples:
      ascent solve --seed 1 --players 2 --record plan.json
      ascent show plan.json
      ascent show plan.json --step 3 --save-position position.json
      ascent show position.json
      ascent show --seed 1 --players 3
      ascent deal --seed 1 | ascent show -
      ascent show --seed 1 --format svg --picture seed1.svg
      ascent show plan.json --format png --picture plan.png
      ascent show plan.json --frames plan-frames
    """
    if position_file is not None:
        check_new_file(position_file, "--save-position")
    src = load_source(source, seed, players, rule_options)
    game = resolve_game(src, step)
    title = f"{src.name}" + (f", after {step} moves" if step is not None else "")
    check_picture_paths(picture, animate, frames)
    if (frames or animate) and src.kind != "plan":
        raise CliError(f"{src.name}: --frames and --animate draw a plan move by move, and "
                       "this is a position")
    record = dumps({"position": game.to_position()}) + "\n" if position_file else None

    def draw() -> None:
        if frames or animate:
            for note in emit_plan_pictures(src.plan, src.name, fmt, frames, animate):
                click.echo(f"ascent: {note}", err=True)
        elif fmt == "text" and picture is None:
            console().print(render_game(game, title))
        else:
            emit_picture(game, title, fmt, picture)

    emit_answer(draw, position_file, record)
