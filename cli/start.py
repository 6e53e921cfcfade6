"""Where a solve, a hint or an analysis starts: a deal's first move or a mid-game position.

Shared by ``ascent solve``, ``ascent hint`` and ``ascent analyse``. A POSITION|PLAN
argument is read by :func:`cli.common.load_source` and :func:`cli.common.resolve_game`: a
position as it is, a game record after its moves (or after ``--step K``), the output of
``replay --json`` (its ``position``) or a solver's ``--json`` answer (its plan).
"""

from __future__ import annotations

from typing import Sequence

import click

from cli.common import CliError, load_source, resolve_game
from model.deal import Deal
from model.game import Game, count_text


def resolve_start(source: str | None, deal_file: str | None, seed: int | None,
                  players: int | None, rule_options: Sequence[str], step: int | None
                  ) -> tuple[str, Deal | Game, str | None]:
    """``(name, start, note)`` for ``ascent solve``: ``start`` is a :class:`Deal` (``--seed``,
    ``--deal FILE`` as always: the deal's first move; or a record with no moves) or a
    :class:`Game` (a POSITION, or a PLAN after its moves / ``--step K``). ``note`` is a line
    for standard error, or ``None``. Raises :class:`CliError` (exit 2) for a missing or
    doubled source or ``--step`` without a POSITION|PLAN (``--players`` with a file: see
    :func:`cli.common.load_source`)."""
    given = [x for x in (source, deal_file, seed) if x is not None]
    if len(given) != 1:
        raise CliError("give exactly one of POSITION|PLAN, --seed N and --deal FILE")
    if step is not None and source is None:
        raise CliError("--step applies to a POSITION|PLAN argument (the position after K moves)")
    src = load_source(source if source is not None else deal_file, seed=seed, players=players,
                      rule_options=rule_options)
    if deal_file is not None or seed is not None:
        if src.kind == "position":
            assert src.position is not None
            return src.name, src.position, None
        assert src.plan is not None
        note = None
        if src.plan.moves:
            note = (f"{src.name} holds {count_text(len(src.plan.moves), 'move')}; solve "
                    "starts from the deal's first move (give the file as POSITION|PLAN to "
                    "solve from the position after them)")
        start = src.plan.start
        return src.name, (start.copy() if isinstance(start, Game) else start), note
    return src.name, position_of(src, step), None


def position_of(src, step: int | None) -> Deal | Game:
    """The start of a loaded POSITION|PLAN (:func:`cli.common.resolve_game`), with a game
    still at its deal's first move given back as the :class:`Deal` (same answer as
    ``--deal``)."""
    game = resolve_game(src, step)
    if game.deal is not None and not game.move_stack:
        return game.deal
    return game


def describe_start(start: Deal | Game) -> str:
    """``the deal's first move`` or ``the position after 12 moves (turn 13, player 2 to
    move)`` for answers that start mid-game."""
    if isinstance(start, Deal):
        return "the deal's first move"
    done = len(start.move_stack)
    where = f"after {count_text(done, 'move')} of the record" if done else "given"
    return f"the position {where} (turn {start.turn + 1}, player {start.to_move + 1} to move)"


def add_start_note(note: str | None) -> None:
    """Print ``note`` on standard error as ``ascent: note: ...``."""
    if note:
        click.echo(f"ascent: note: {note}", err=True)
