"""``ascent daily``: the daily puzzle of a date, and ``daily build`` / ``daily check`` of
the frozen archive (a thin layer over :mod:`puzzles`)."""

from __future__ import annotations

import datetime as _dt
import sys

import click
from rich.text import Text

from cli.common import EXIT_INTERRUPTED, CliError, console, render_game
from cli.options import old_name
from model.cards import parse_cards
from model.game import count_text
from model.records import dumps, position_from_data
from model.rules import RuleSet
from puzzles.archive import ArchiveError, check_dir
from puzzles.check import find
from puzzles.dates import KINDS, SIZES, DateError, parse_date, today_utc


def _date(text: str | None) -> _dt.date:
    if text is None:
        return today_utc()
    try:
        return parse_date(text)
    except DateError as exc:
        raise CliError(str(exc)) from None


def _record(date: _dt.date, kind: str, size: str, archive: str | None,
            generate: bool = False) -> dict:
    from puzzles.archive import PUBLISHED
    from puzzles.daily import GenerationError, puzzle_for

    if archive is not None:
        try:
            check_dir(archive, writable=False)
        except ArchiveError as exc:
            raise CliError(f"--archive {exc}") from None
    elif not generate and PUBLISHED.is_dir():
        archive = str(PUBLISHED)
    if archive is not None and not generate:
        try:
            rec = find(archive, date, kind, size)
        except ArchiveError as exc:
            raise CliError(str(exc)) from None
        if rec is not None:
            return rec
    try:
        return puzzle_for(date, kind, size)
    except GenerationError as exc:
        raise CliError(str(exc), 1) from None


def _print_puzzle(rec: dict) -> None:
    out = console()
    kind, size = rec["kind"], rec["size"]
    out.print(Text(f"Daily puzzle {rec['date']} (UTC) · {kind} · {size} · grade {rec['grade']}",
                   style="bold"))
    if kind == "deal":
        deck = parse_cards(rec["deal"]["decks"][0])
        # the record's rules, named as --rules preset=NAME accepts them (standard or mini)
        rules = RuleSet.from_options(rec["rules"]).describe()
        out.print(f"Solo deal, rules: {rules} ({len(deck)} cards). Your deck, top card first:")
        from cli.common import cards_text

        for i in range(0, len(deck), 17):
            out.print(cards_text(deck[i:i + 17]))
    else:
        game = position_from_data(rec["position"])
        out.print(render_game(game, title="Position"))
        from cli.common import cards_text

        for p, d in enumerate(game.decks):
            line = Text(f"  P{p + 1}  deck (top first): ")
            line.append_text(cards_text(d, empty="(empty)"))
            out.print(line)
    par = "proven" if rec["par_proven"] else "best found, not proven"
    out.print(Text(f"Goal: {rec['goal']['text']}", style="bold"))
    keys = len(rec["key_moves"])
    hints = (f"Hints: {keys} (--hint N)." if keys else
             "Hints: none (no move is shared by every winning line; --solution shows one).")
    bonus = (": the fewest a win can leave; any win solves the puzzle"
             if rec["kind"] == "position" else "")
    out.print(f"Par: {rec['par']} {'card' if rec['par'] == 1 else 'cards'} out of the game "
              f"({par}){bonus}. {hints}")


@click.group(invoke_without_command=True)
@click.option("--date", "date_text", metavar="YYYY-MM-DD",
              help="The puzzle's date, a UTC calendar date. [default: today in UTC]")
@click.option("--kind", type=click.Choice(KINDS), default="deal", show_default=True,
              help="deal: a solo deal with its deck shown; position: a mid-game position.")
@click.option("--size", type=click.Choice(SIZES), default="full", show_default=True,
              help="full: the standard game; mini: 3 rows, 20 cards (par proven).")
@click.option("--hint", type=click.IntRange(min=1), metavar="N",
              help="Show the N-th key move (1 = the first).")
@click.option("--solution", is_flag=True, help="Show the whole solution line.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the puzzle record (deal or position, rules, goal, par, grade, "
                   "features, key moves, solution as a game record, generator).")
@click.option("--archive", metavar="DIR",
              help="Read the puzzle from this archive (a folder) when it is there, instead "
                   "of the published one; else it is generated. [default: the published "
                   "archive, puzzles/archive/]")
@click.option("--generate", is_flag=True,
              help="Generate the puzzle even when an archive holds it (the generator's "
                   "answer today; a published puzzle stays as it was frozen).")
@click.pass_context
def daily(ctx: click.Context, date_text: str | None, kind: str, size: str, hint: int | None,
          solution: bool, as_json: bool, archive: str | None, generate: bool) -> None:
    """The daily puzzle: one certainly winnable puzzle per date, kind and size.

    A date is a UTC calendar date; the default is today in UTC (the day changes at
    midnight UTC, not at your local midnight). Weekdays ramp: Monday and Tuesday easy,
    Wednesday and Thursday medium, Friday and Saturday hard, Sunday expert. The same date
    gives the same puzzle on every machine. A date of the published archive
    (puzzles/archive/, December 2026) is read from it, as frozen; any other date is
    generated (seconds to minutes).

    \b
    Examples:
      ascent daily --date 2026-12-01 --size mini
      ascent daily --date 2026-12-01 --size mini --hint 1
      ascent daily --date 2026-12-02 --kind position --size mini --solution
      ascent daily --date 2026-12-01 --size mini --json
      mkdir -p archive && ascent daily build --from 2026-12-01 --to 2026-12-02 --kind deal --size mini --archive archive
      ascent daily check archive --quick
    """
    if ctx.invoked_subcommand is not None:
        # the puzzle's options would be silently ignored by `daily build` / `daily check`
        given = [p.opts[0] for p in ctx.command.params
                 if ctx.get_parameter_source(p.name) is not click.core.ParameterSource.DEFAULT]
        if given:
            sub = ctx.invoked_subcommand
            raise CliError(f"{', '.join(given)} before '{sub}' "
                           + ("is an option" if len(given) == 1 else "are options")
                           + f" of the daily puzzle itself and would be ignored by 'daily {sub}'"
                           f"; give {sub}'s own options after its name (see 'ascent daily "
                           f"{sub} --help')")
        return
    date = _date(date_text)
    if archive is not None and generate:
        raise CliError("give --archive DIR (read the published puzzle) or --generate, not both")
    rec = _record(date, kind, size, archive, generate)
    if as_json:
        click.echo(dumps(rec))
        return
    if hint is not None:
        keys = rec["key_moves"]
        if not keys and solution:  # the line asked for is still shown
            click.echo("No hint: this puzzle has no key moves (no move is shared by every "
                       "winning line).")
        elif not keys:
            raise CliError("this puzzle has no key moves to hint at")
        elif hint > len(keys):
            raise CliError(f"--hint must be from 1 to {len(keys)} (this puzzle has "
                           f"{len(keys)} key moves), not {hint}")
        else:
            click.echo(f"Hint {hint} of {len(keys)}: {keys[hint - 1]['text']}")
        if not solution:
            return
    if solution:
        from model.records import Plan

        plan = Plan.from_json(rec["solution"])
        start = plan.extra.get("start_move", 0)
        game = plan.replay(start).game
        click.echo(f"Solution ({len(plan.moves) - start} moves, {rec['par']} cards out "
                   "of the game):")
        for m in plan.moves[start:]:
            click.echo(game.move_text(m))
            game.push(m)
        return
    _print_puzzle(rec)


@daily.command()
@click.option("--from", "first", required=True, metavar="YYYY-MM-DD", help="First date (UTC).")
@click.option("--to", "last", required=True, metavar="YYYY-MM-DD", help="Last date (UTC).")
@click.option("--archive", "out_dir", default=None, metavar="DIR",
              help="The archive directory (must exist and be writable). Required.")
@old_name("--out", "--archive", "out_dir", metavar="DIR")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              metavar="K", help="Worker processes.")
@click.option("--kind", "kinds", type=click.Choice(KINDS), multiple=True,
              help="Kinds to build (repeatable). [default: both]")
@click.option("--size", "sizes", type=click.Choice(SIZES), multiple=True,
              help="Sizes to build (repeatable). [default: both]")
def build(first: str, last: str, out_dir: str | None, workers: int, kinds: tuple[str, ...],
          sizes: tuple[str, ...]) -> None:
    """Write the puzzles of --from..--to into DIR/YYYY/MM/YYYY-MM-DD-<kind>-<size>.json.

    A file that exists is never rewritten (published puzzles are frozen), files are
    written whole or not at all, and an interrupted build is resumed by running it again.

    \b
    Example:
      mkdir -p archive && ascent daily build --from 2026-12-01 --to 2026-12-02 --kind deal --size mini --archive archive
    """
    from puzzles.build import build_archive

    if out_dir is None:
        raise click.UsageError("Missing option '--archive' (the archive directory).")
    d1, d2 = _date(first), _date(last)
    if d2 < d1:
        raise CliError(f"--to {d2.isoformat()} is before --from {d1.isoformat()}")
    err = console_err()
    progress = None
    task = None
    if err.is_terminal:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        progress = Progress(TextColumn("building"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=err)

    def on_total(n: int) -> None:
        nonlocal task
        if progress is not None:
            task = progress.add_task("build", total=n)
            progress.start()

    def on_done(name: str, status: str) -> None:
        if progress is not None and task is not None:
            progress.advance(task)
        else:
            click.echo(f"{status} {name}", err=True)

    try:
        summary = build_archive(out_dir, d1, d2, kinds or KINDS, sizes or SIZES, workers,
                                on_done=on_done, on_total=on_total)
    except ArchiveError as exc:
        raise CliError(str(exc)) from None
    finally:
        if progress is not None:
            progress.stop()
    click.echo(f"built {len(summary.built)}, skipped {len(summary.skipped)} (already there), "
               f"failed {len(summary.failed)}")
    for name, msg in summary.failed:
        click.echo(f"failed {name}: {msg}", err=True)
    if summary.interrupted:
        click.echo("interrupted: the files written so far are whole; run again to resume",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    if summary.failed:
        sys.exit(1)


def console_err():
    from rich.console import Console

    return Console(stderr=True)


@daily.command()
@click.argument("directory", metavar="DIR")
@click.option("--quick", is_flag=True,
              help="Skip evaluating each puzzle's candidate again (the other checks run).")
@click.option("--from", "first", metavar="YYYY-MM-DD", help="Dates that must be there from.")
@click.option("--to", "last", metavar="YYYY-MM-DD", help="Dates that must be there until.")
def check(directory: str, quick: bool, first: str | None, last: str | None) -> None:
    """Re-verify an archive: every solution replays to a win within par, every deal or
    position matches its date's derivation, grades and key moves agree, no day is
    missing, and (without --quick) every record is what its candidate gives again.
    Exit 1 when anything is wrong.

    \b
    Example:
      ascent daily check archive --quick
    """
    from pathlib import Path

    from puzzles.archive import check_dir
    from puzzles.check import check_archive

    try:
        check_dir(directory, writable=False)
    except ArchiveError as exc:
        raise CliError(str(exc)) from None
    d1 = _date(first) if first else None
    d2 = _date(last) if last else None
    n, problems = check_archive(Path(directory), quick=quick, first=d1, last=d2)
    for p in problems:
        click.echo(p)
    if problems:
        click.echo(f"{count_text(n, 'file')} checked: {count_text(len(problems), 'problem')}",
                   err=True)
        sys.exit(1)
    if n == 0:  # an empty or wrong folder is not a good archive
        click.echo(f"no puzzle files (YYYY/MM/YYYY-MM-DD-<kind>-<size>.json) under "
                   f"{directory}", err=True)
        sys.exit(1)
    click.echo(f"{count_text(n, 'file')} checked: all good")
