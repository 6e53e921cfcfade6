"""``ascent analyse``: the verdict before and after every move of a played game, and the
move that lost it."""

from __future__ import annotations

import click
from rich.table import Table
from rich.text import Text

from cli.common import EXIT_INTERRUPTED, CliError, console, load_played_record
from cli.options import DEFAULT_MEMORY_MB, MEMORY_MB, SECONDS, learning_options, table_share_mb
from model.errors import IllegalMoveError
from model.game import count_text
from model.records import dumps, replay
from solver.analysis import analyse as analyse_game
from solver.analysis import window_text
from solver.result import OBJECTIVES, UNKNOWN

MARKS = {"win": "win", "loss": "loss", "unknown": "unknown"}
#: How the first proven loss was proven, in the line that gives its reason.
PROOFS = {"bound": " (a bound, no search)", "search": " (exhaustive search)",
          "loss-model": " (the CP-SAT loss model)",
          "abstraction": " (exhaustive search of the game with colours ignored)"}


@click.command()
@click.argument("record", metavar="RECORD")
@click.option("--objective", type=click.Choice(OBJECTIVES), default="none", show_default=True,
              help="none: find where the game could no longer be won; waste: also the "
                   "cards each move gave away against best play; turns: the turns each "
                   "move lost against best play (waste and turns are slower: every "
                   "position is solved to its optimum).")
@click.option("--time-per-move", type=SECONDS,
              default=10.0, show_default=True, metavar="S",
              help="Seconds for each position searched; when they run out, that position "
                   "is unknown.")
@click.option("--memory-limit", type=MEMORY_MB, default=DEFAULT_MEMORY_MB,
              show_default="a quarter of this machine's memory",
              metavar="MB", help="Memory of the whole process (128 or more): each "
                                 "position's search table gets what is left.")
@learning_options
@click.option("--json", "as_json", is_flag=True,
              help='Print {"moves": [{"index", "move", "before", "after", "spent_extra"}, ...], '
                   '"losing_move", "window": [first, last], "reason", ...} as JSON '
                   '(window: the moves between which the game was lost).')
def analyse(record: str, objective: str, time_per_move: float, memory_limit: int,
            nogood: bool, abstraction: bool, as_json: bool) -> None:
    """Analyse a played game: for every move of RECORD (a game record from a deal or from
    a position, or - for standard input), the verdict of the position before and after it.

    It marks the losing move: the first move after which the game could no longer be won,
    with what the solver would have played instead and its winning line from there, and
    says in words why the position after it cannot be won (what runs out). With
    --objective waste, each move that spent more cards than best play would have says how
    many it gave away (--objective turns: how many turns it lost). A record may end in a
    loss, a win, or mid-game. Where a search runs out of time a position is "unknown"
    (never a guess), and the first move after which a loss is proven is still named.
    A record with no moves has nothing to analyse: one line on standard error, exit 2
    (as review does).

    \b
    Examples:
      ascent solve --seed 3 --rules preset=tiny --record game.json
      ascent analyse game.json
      ascent analyse game.json --objective waste --time-per-move 5
      ascent analyse game.json --json > analysis.json
    """
    if time_per_move != time_per_move:  # NaN passes FloatRange
        raise CliError("--time-per-move must be a number of seconds, not nan")
    name, plan = load_played_record(record, "analyse")
    if not plan.moves:
        raise CliError(f"{name}: the record has no moves, so there is nothing to analyse")
    try:
        a = analyse_game(plan.start, plan.moves, objective, time_per_move,
                         memory_limit_mb=table_share_mb(memory_limit),
                         switches={"nogood": nogood, "abstraction": abstraction})
    except IllegalMoveError as exc:  # pragma: no cover - replayed above
        raise CliError(f"{name}: {exc}") from None
    if as_json:
        click.echo(dumps(a.to_json()))
        _stop_if_interrupted(a.stats)
        return
    out = console()
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("move", no_wrap=True)
    table.add_column("before")
    table.add_column("after")
    if objective != "none":  # what the move cost against best play
        table.add_column("gave away" if objective == "waste" else "turns lost", justify="right")
    table.add_column("")
    game = replay(plan.start, []).game
    for k, mv in enumerate(plan.moves, start=1):
        before, after = a.positions[k - 1].verdict, a.positions[k].verdict
        note = ""
        if k == a.losing_move:
            note = "◀ the losing move"
        elif k == a.first_proven_loss and a.losing_move is None:
            note = "◀ a loss is proven from here"
        elif a.window is not None and a.losing_move is None and a.window[0] <= k < a.window[1]:
            note = f"◀ lost between here and move {a.window[1]}" if k == a.window[0] else "│"
        style = "bold red" if k == a.losing_move else None
        cells = [str(k), game.move_text(mv), MARKS[before], MARKS[after]]
        if objective != "none":
            extra = a.spent_extra[k - 1]
            cells.append("?" if extra is None and after != "loss" else
                         "" if extra is None or extra == 0 else str(extra))
        cells.append(note)
        table.add_row(*cells, style=style)
        game.push(mv)
    out.print(table)
    out.print(Text(summary(a, plan), style="bold"))
    if a.reason is not None and a.first_proven_loss is not None:
        k = a.first_proven_loss
        how = PROOFS.get(a.positions[k].proof or "", "")
        out.print(Text(f"Why the position after move {k} cannot be won{how}: {a.reason.text}"),
                  highlight=False)
    if a.losing_move is None and a.first_proven_loss is not None:
        last_win = max((p.index for p in a.positions if p.verdict == "win"), default=None)
        if last_win is not None and a.first_proven_loss - last_win > 1:
            out.print(Text(f"Unknown between: the positions after moves {last_win + 1}–"
                           f"{a.first_proven_loss - 1} (a larger --time-per-move may decide "
                           "them).", style="dim"))
    if a.losing_move is not None and a.winning_line:
        g = replay(plan.start, plan.moves[:a.losing_move - 1]).game
        out.print(f"Winning line from before move {a.losing_move} "
                  f"({count_text(len(a.winning_line), 'move')}):")
        for mv in a.winning_line:
            out.print(g.move_text(mv), highlight=False)
            g.push(mv)
    unknown = sum(p.verdict == UNKNOWN for p in a.positions)
    out.print(Text(f"{count_text(len(plan.moves), 'move')} · "
                   f"{count_text(a.stats['solved_positions'], 'position')} searched · "
                   f"{unknown} unknown · {a.stats['seconds']:.2f} s", style="dim"))
    _stop_if_interrupted(a.stats)


def _stop_if_interrupted(stats: dict) -> None:
    """Exit 130 after what an interrupted analysis found was shown (README: exit codes)."""
    if stats.get("interrupted"):
        raise CliError("interrupted; the positions solved so far are shown above",
                       EXIT_INTERRUPTED)


def first_win(a) -> bool:
    """Whether the start of the analysed game was proven winnable."""
    return bool(a.positions[0].verdict == "win")


def summary(a, plan) -> str:
    """One line: the losing move and what to play instead, or why there is none."""
    first = a.positions[0].verdict
    last = a.positions[-1].verdict
    if a.losing_move is not None:
        k = a.losing_move
        g = replay(plan.start, plan.moves[:k - 1]).game
        text = f"The losing move: move {k} ({g.move_text(plan.moves[k - 1])})"
        if a.best_instead is not None:
            text += f"; instead: {g.move_text(a.best_instead)}"
        return text
    if last == "win":
        return "No losing move: the game is won (or still winnable at its end)."
    if first == "loss":
        return "No losing move: the start was already lost."
    if a.window is not None:
        first, last = a.window
        before = (f"the position before move {first} could be won" if first > 1 or first_win(a)
                  else "the start was not decided")
        return (f"The game was {window_text(a.window)}: {before} and the one after move {last} "
                "cannot; the positions between stayed unknown within the time per move, so "
                "the losing move itself is not pinned.")
    return "No losing move found: the game is still winnable or the searches ran out of time."
