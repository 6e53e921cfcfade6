"""``ascent replay``: replay a plan through the rules engine."""

from __future__ import annotations

import click

from cli.common import CliError, describe_illegal, load_source
from cli.errors import EXIT_FINDING
from model.game import LOSS, WIN, Game, count_text
from model.records import dumps


def outcome_line(game: Game) -> str:
    """``win in 40 turns · 30 cards out of the game · 45 of 45 slots filled`` (or
    ``loss ...`` / ``unfinished ...``)."""
    outcome = game.outcome()
    tail = (f"{count_text(len(game.out), 'card')} out of the game · "
            f"{game.filled_slots()} of {game.rules.mountain_slots} slots filled")
    if outcome == WIN:
        return f"win in {count_text(game.turn, 'turn')} · {tail}"
    if outcome == LOSS:
        return (f"loss after {count_text(game.turn, 'turn')} (player {game.to_move + 1} can neither play "
                f"nor discard 2) · {tail}")
    return f"unfinished after {count_text(game.turn, 'turn')} (player {game.to_move + 1} to move) · {tail}"


@click.command()
@click.argument("plan", metavar="PLAN")
@click.option("--json", "as_json", is_flag=True,
              help="Print the result as JSON (with the final position).")
def replay(plan: str, as_json: bool) -> None:
    """Replay PLAN (a JSON game record, or - for standard input) through the rules engine.

    Prints the outcome (win, loss or unfinished, with turns, cards out of the game and
    slots filled) and exits 0; or stops at the first illegal move, prints
    "move N (T.. P..): illegal (R..): reason" and exits 1.

    \b
    Examples:
      ascent solve --seed 1 --record plan.json
      ascent replay plan.json
      ascent replay plan.json --json > replayed.json
      ascent show replayed.json
      ascent solve --seed 2 --players 3 --json | ascent replay -
    """
    src = load_source(plan)
    if src.kind != "plan":
        raise CliError(f"{src.name}: replay needs a plan (a deal and its moves), not a {src.kind}")
    the_plan = src.plan
    assert the_plan is not None
    rep = the_plan.replay()
    game = rep.game
    if as_json:
        err = rep.error
        click.echo(dumps({
            "moves": len(the_plan.moves),
            "legal_moves": rep.legal_moves,
            "error": None if err is None else {
                "move": err.move_number, "ruling": err.ruling, "reason": err.reason,
                "text": describe_illegal(the_plan, err)},
            "outcome": None if err else (game.outcome() or "unfinished"),
            "turns": game.turn,
            "out": len(game.out),
            "filled": game.filled_slots(),
            "position": game.to_position(),
        }))
    elif rep.error is not None:
        click.echo(f"{rep.legal_moves} of {len(the_plan.moves)} moves legal; then")
        click.echo(describe_illegal(the_plan, rep.error))
    else:
        click.echo(f"{len(the_plan.moves)} moves replayed, all legal.")
        click.echo(outcome_line(game))
    if rep.error is not None:
        raise SystemExit(EXIT_FINDING)
