"""``ascent study run`` and ``ascent study report``: winnability over many deals, on Dask,
with an SQLite results database (:mod:`studies`)."""

from __future__ import annotations

import shlex
import sys

import click

from cli.common import EXIT_INTERRUPTED, CliError, console
from cli.options import DEALS, PLAYER_COUNTS, SECONDS, SEED_RANGE, TABLE_MB, WORKERS, old_name
from solver.result import OBJECTIVES
from studies.runner import RunnerError


@click.group()
def study() -> None:
    """Solve a grid of deals into an SQLite database, and report on it.

    \b
    Examples:
      ascent study run --players 1-2 --deals 10 --rules preset=tiny --db tiny.db --workers 1
      ascent study report --db tiny.db --by players
    """


@study.command("run")
@click.option("--players", type=PLAYER_COUNTS, default="1-5", show_default=True, metavar="P",
              help="Player counts, e.g. 1-5 or 1,3.")
@click.option("--deals", type=DEALS, default=None, metavar="N", help="Seeds 1..N for each player count.")
@click.option("--seeds", type=SEED_RANGE, default=None, metavar="A-B", help="Seeds to solve instead, e.g. 101-200.")
@click.option("--rules", "rule_options", multiple=True, metavar="K=V",
              help="Base rule option (repeatable), e.g. preset=tiny.")
@click.option("--vary", multiple=True, metavar="OPTION=V1,V2",
              help="Rule option to vary (repeatable): OPTION=V1,V2; a ruling option alone "
                   "(all its values); or 'rulings' (every ruling option). Every combination "
                   "is solved, unless --each.")
@click.option("--each", is_flag=True,
              help="Vary one option at a time from the base rules (the base plus one rule "
                   "set per other value) instead of every combination.")
@click.option("--objective", "objectives", multiple=True, default=("none",), show_default=True,
              metavar="OBJ", help=f"Objective(s): {' | '.join(OBJECTIVES)} (repeatable or comma-separated).")
@click.option("--time-limit", type=SECONDS, default=10.0, show_default=True, metavar="S",
              help="Seconds per solve (a solve that runs out is stored as unknown).")
@click.option("--table-limit", "memory_limit", type=TABLE_MB, default=2048, show_default=True,
              metavar="MB", help="Cap on each solve's transposition table (the solves run "
                                 "side by side in the worker processes).")
@old_name("--memory-limit", "--table-limit", "memory_limit", type=TABLE_MB, metavar="MB")
@click.option("--db", "db_path", required=True, metavar="FILE",
              help="SQLite results database (created, or extended: never overwritten).")
@click.option("--workers", type=WORKERS, default=None, metavar="K",
              help="Worker processes of the embedded Dask LocalCluster (default: one per core).")
@click.option("--scheduler", default=None, metavar="ADDR",
              help="Run on a Dask cluster instead, e.g. tcp://head:8786 (see README).")
@click.option("--retry-unknown", is_flag=True,
              help="Solve again the points stored as unknown at another time limit; the new "
                   "row replaces the old one.")
@click.option("--quiet", is_flag=True, help="No progress and no summary on standard error.")
def run_cmd(players: str, deals: int | None, seeds: str | None, rule_options: tuple[str, ...],
            vary: tuple[str, ...], each: bool, objectives: tuple[str, ...], time_limit: float,
            memory_limit: int, db_path: str, workers: int | None, scheduler: str | None,
            retry_unknown: bool, quiet: bool) -> None:
    """Solve every (deal, player count, rule set, objective) of a grid; one row each in --db.

    Rows are keyed by deal, players, full rule set, objective, time limit and solver
    version. A point already stored is skipped (so an interrupted run resumes where it
    stopped); unknowns are rerun with --retry-unknown. Ctrl-C stops cleanly with a summary
    (exit 130); a killed run loses only the solves in flight.

    \b
    Examples:
      ascent study run --players 1-2 --deals 10 --rules preset=tiny --db tiny.db --workers 1
      ascent study run --players 1-2 --deals 3 --rules preset=tiny --vary rulings --each --db tiny.db --workers 1
    """
    from studies.study import build_grid, run_study

    if time_limit != time_limit:
        raise CliError("--time-limit must be a number of seconds, not nan")
    if workers is not None and scheduler is not None:
        raise CliError("give --workers (the embedded cluster) or --scheduler ADDR, not both")
    try:
        grid = build_grid(players, seeds, deals, rule_options, vary, each, objectives,
                          time_limit, memory_limit)
        command = "ascent study " + " ".join(shlex.quote(a) for a in sys.argv[2:])
        echo = None if quiet else (lambda s: click.echo(s, err=True))
        plan, summary = run_study(grid, db_path, workers, scheduler, retry_unknown,
                                  progress=not quiet, command=command, echo=echo)
    except RunnerError as exc:
        raise CliError(str(exc)) from None
    if not quiet:
        click.echo(summary.text(), err=True)
    if summary.interrupted:
        sys.exit(EXIT_INTERRUPTED)
@study.command("report")
@click.option("--db", "db_path", required=True, metavar="FILE", help="Study database.")
@click.option("--by", default="players,variant,objective", show_default=True,
              metavar="COLS", help="Group rows by these columns (players, variant, objective, "
                                   "time_limit, solver_version, seed, or a rule option such as "
                                   "hand_size). A group that pools several rule sets or "
                                   "objectives is noted on standard error.")
@click.option("--plots", "plots_dir", default=None, metavar="DIR",
              help="Also draw the plots (PNG and SVG) into DIR (created if missing; a folder "
                   "that already holds them is refused, nothing is overwritten).")
@click.option("--json", "as_json", is_flag=True,
              help='JSON: {"groups": [one object per group], "pairs": [...]}.')
@click.option("--markdown", is_flag=True, help="Markdown tables instead of terminal tables "
              "(also what a pipe or a file gets), with the legend below them.")
@click.option("--only", multiple=True, metavar="COLUMN=V1,V2",
              help="Keep only rows whose COLUMN is one of the values (A-B: a range of whole "
                   "numbers), e.g. --only objective=none --only seed=1-200 (repeatable).")
def report_cmd(db_path: str, by: str, plots_dir: str | None, as_json: bool,
               markdown: bool, only: tuple[str, ...]) -> None:
    """Tables per group: share won with its 95 % Wilson interval (unknowns counted both
    ways), unknown share, median and p95 seconds, cards out of the game; rule sets compared
    paired on the same deals; optional plots.

    \b
    Examples:
      ascent study report --db tiny.db --plots tiny-plots
      ascent study report --db tiny.db --by players,variant --json
      ascent study report --db tiny.db --only variant=tiny --markdown > tiny.md
    """
    from studies.report import ReportError, report

    try:
        report(db_path, by, plots_dir, as_json, markdown, only=only, console=console())
    except (RunnerError, ReportError) as exc:
        raise CliError(str(exc)) from None
