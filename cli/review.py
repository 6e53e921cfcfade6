"""``ascent review``: a played game move by move from the players' point of view
(:func:`bots.review.review_game`)."""

from __future__ import annotations

import click
from rich.table import Table
from rich.text import Text

from bots.advice import ESTIMATOR_TEXT, ESTIMATORS
from bots.mistakes import MARK_SIGNS
from cli.common import EXIT_INTERRUPTED, CliError, console, load_played_record
from cli.files import check_new_file
from cli.options import COUNT, SECONDS, SEED, WORKERS, old_name
from cli.progress import ProgressLine
from model.errors import IllegalMoveError
from model.records import dumps
from solver.analysis import window_text


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


@click.command()
@click.argument("record", metavar="PLAN")
@click.option("--worlds", type=COUNT, default=48, show_default=True, metavar="N",
              help="Sampled worlds per rated move at each position (fewer once the best "
                   "move is separated).")
@click.option("--estimator", type=click.Choice(ESTIMATORS), default="greedy", show_default=True,
              help="How a sampled world is played on: greedy (the greedy bot in every seat), "
                   "best (the determinized bot, fast configuration; much slower) or beam (the open-hand beam, "
                   "which sees the sampled cards: an upper estimate).")
@click.option("--candidates", type=COUNT, default=4, show_default=True, metavar="K",
              help="Also rate the greedy ranking's best K moves at each position.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Seconds for the whole review, shared out over the moves (default none). "
                   "Every move plays at least one world for each move it rates, so a small "
                   "limit can be exceeded.")
@click.option("--open-hand/--no-open-hand", default=True, show_default=True,
              help="Also analyse the game with every card known (ascent analyse, 1 s a "
                   "position): was the deal winnable, and the open-hand losing move.")
@click.option("--plot", "plot_path", default=None, metavar="FILE",
              help="Draw the chance chart into FILE (.svg, or .png; never over a file): the "
                   "chance before each move with its 95 % band, after it, the marks as "
                   "symbols; the same chart as the web page's review.")
@click.option("--workers", type=WORKERS, default=1, show_default=True, metavar="K",
              help="Processes reviewing moves side by side (the answer is the same).")
@click.option("--marks/--no-marks", default=True, show_default=True,
              help="Compare the move played with the best alternative in fresh paired worlds "
                   "(the same worlds and partners for both) and mark inaccuracies (?!), "
                   "mistakes (?) and blunders (??): a drop of 5, 10, 15 points of the chance "
                   "to win whose 95 % interval is above 0, with how sure each mark is.")
@click.option("--paired-cap", type=COUNT, default=256, show_default=True, metavar="N",
              help="At most N paired worlds a decision (looks at 16, 32, 64, ... worlds; it "
                   "stops once the interval is clear of 0 or below 5 points).")
@click.option("--marks-fdr/--no-marks-fdr", "fdr", default=True, show_default=True,
              help="Keep only the marks that survive Benjamini-Hochberg at 5 % false "
                   "discoveries over every decision compared in the game (each decision's "
                   "one-sided exact McNemar p-value, adjusted for its looks); \"sure\" is "
                   "then 1 - q. --no-marks-fdr judges each decision alone (sure = 1 - p).")
@click.option("--team", default=None, metavar="BOT",
              help="The bot that played in the other seats (default: the record's \"bot\", "
                   "as ascent simulate writes it): the chances shown are calibrated for that "
                   "team where the project has a calibration (uct); 'none': the estimator's "
                   "chances as they are.")
@click.option("--bot-seed", "bot_seed", type=SEED, default=0, show_default=True, metavar="N",
              help="Seed of the sampled worlds (the review is repeatable).")
@old_name("--seed", "--bot-seed", "bot_seed", type=SEED, metavar="N")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"players", "moves": [{"index", "player", "move", "chance_before", '
                   '"interval_before", "chance_after", "chance_best", "best_move", "drop", '
                   '"tested", "mark", "sure", "p_value", "q_value", "mark_alone", '
                   '"mark_survived", "paired"}, ...], "costly", "fdr", "marks": [{"index", '
                   '"mark", "sign", "sure", "p_value", "q_value", "drop", "interval", '
                   '"worlds", "alternative"}, ...], "open_hand", "stats"} as JSON.')
@click.option("--quiet", is_flag=True, help="No progress on standard error.")
def review(record: str, worlds: int, estimator: str, candidates: int, time_limit: float | None,
           open_hand: bool, plot_path: str | None, workers: int, marks: bool, paired_cap: int,
           fdr: bool, team: str | None, bot_seed: int, as_json: bool, quiet: bool) -> None:
    """Review a played game (PLAN: a game record, or - for standard input) from the
    players' point of view: at every move, from what the mover could see (ruling V1), the
    win chance before it (playing on as the strong bot would), after the move played, and
    after the best move found, the paired drop of each decision with its interval, and the
    costly decisions (the marked ones), biggest drop first.

    Chances are shares of worlds won among worlds sampled from the fair shuffle of the
    cards the mover could not see, each played on by --estimator in every seat, with 95 %
    Wilson intervals. A move's "before" is seen by its own player after the cards drawn
    since the move before (shown under "then drawn").

    The marks name the mistakes more surely: the move played and the best alternative of
    the screen are played in the same fresh worlds with the same partners' play, until the
    95 % interval of the drop (paired worlds, Newcombe's interval) is clear of 0 or below 5
    points; a drop of 5 / 10 / 15 points whose interval lies above 0 is an inaccuracy (?!),
    a mistake (?) or a blunder (??). Each decision's p-value is the one-sided exact McNemar
    p-value of the worlds won by one move only (the smallest over its looks, times the
    looks allowed); a mark is kept only when it survives Benjamini-Hochberg at 5 % over the
    game's compared decisions, and "sure" is one minus its q-value. Beside it, the open-hand verdicts of
    ascent analyse: whether the deal was winnable with every card known, and the move after
    which it no longer was.

    \b
    Examples:
      ascent simulate --bot greedy --players 1 --seeds 3 --rules preset=tiny --records games --workers 1 --quiet
      ascent review games/greedy-p1-seed3.json --worlds 8
      ascent review games/greedy-p1-seed3.json --worlds 8 --json --no-open-hand
    """
    from bots.calibration import calibrated_teams
    from bots.review import plot_review, review_game

    if time_limit is not None and (time_limit != time_limit or not time_limit > 0):
        raise CliError("--time-limit must be more than 0 seconds")
    if plot_path is not None:
        check_new_file(plot_path, "--plot")
        if not plot_path.lower().endswith((".png", ".svg")):
            raise CliError(f"{plot_path}: --plot draws .png or .svg files")
    name, plan = load_played_record(record, "review")
    if not plan.moves:
        raise CliError(f"{name}: the record has no moves to review")
    if team is None:
        sat = plan.extra.get("bot")
        team = sat.get("name") if isinstance(sat, dict) else sat if isinstance(sat, str) else None
    elif team == "none":
        team = None
    elif team not in calibrated_teams() + ["greedy"]:
        raise CliError(f"--team: no calibration for {team!r}; valid: "
                       + ", ".join(calibrated_teams() + ["greedy", "none"]))

    line = None if quiet else ProgressLine()

    def progress(done: int, total: int) -> None:
        if line is not None:
            if done == total:
                line.finish(f"reviewed {done}/{total} moves")
            else:
                line.update(f"reviewed {done}/{total} moves")

    try:
        r = review_game(plan.start, plan.moves, worlds=worlds, time_limit=time_limit,
                        progress=progress, open_hand=open_hand, estimator=estimator,
                        candidates=candidates, seed=bot_seed, workers=workers, marks=marks,
                        paired_cap=paired_cap, fdr=fdr, team=team)
    except IllegalMoveError as exc:  # pragma: no cover - replayed above
        raise CliError(f"{name}: {exc}") from None
    finally:
        if line is not None:
            line.close()
    plot_error = None
    if plot_path is not None and r.moves:
        try:
            plot_review(r, plot_path)
        except FileExistsError:
            plot_error = f"{plot_path}: exists (created meanwhile); it was not written over"
        except OSError as exc:
            plot_error = f"{plot_path}: cannot write the plot ({exc.strerror or exc.__class__.__name__})"
        except RuntimeError as exc:  # PNG without cairo
            plot_error = f"{plot_path}: {exc}"
    if as_json:
        click.echo(dumps(r.to_json()))
    else:
        _print_review(r)
    if plot_error:
        raise CliError(plot_error + "; the review is on standard output")
    if not r.complete:
        raise CliError("interrupted; the moves reviewed so far are shown above",
                       EXIT_INTERRUPTED)


def _sure(x: float) -> str:
    """``97.3%``; ``>99.9%`` rather than a rounded 100 %."""
    return ">99.9%" if x > 0.999 else f"{100 * x:.1f}%"


def _drop_text(m) -> str:
    """The decision's one number: the paired drop with its interval (``+31 [+12, +50]``),
    or the screen's drop (``+8*``) when it was not compared."""
    if m.drop_interval is None:
        return f"{100 * m.drop:+.0f}*" if round(100 * m.drop) else "0*"
    lo, hi = m.drop_interval
    return f"{100 * m.drop:+.0f} [{100 * lo:+.0f}, {100 * hi:+.0f}]"


def _print_review(r) -> None:
    out = console()
    out.width = max(out.width, 120)
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("move", no_wrap=True)
    table.add_column("before", justify="right")
    table.add_column("after", justify="right")
    table.add_column("best", justify="right")
    table.add_column("drop [95%]", justify="right")
    table.add_column("mark")
    table.add_column("then drawn")
    table.add_column("")
    oh = r.open_hand or {}
    screened = False
    for m in r.moves:
        named = f"{MARK_SIGNS[m.mark]} {_sure(m.sure)} sure" if m.mark else ""
        note = "◀ costly" if m.mark else ""
        if oh.get("losing_move") == m.index:
            note = (note + " · " if note else "") + "open-hand losing move"
        elif not oh.get("losing_move") and oh.get("window") and oh["window"][0] == m.index:
            note = (note + " · " if note else "") + \
                f"open hand: {window_text(oh['window'])}"
        screened = screened or m.drop_interval is None
        table.add_row(str(m.index), m.text, _pct(m.shown(m.before)), _pct(m.shown(m.after)),
                      _pct(m.shown(m.best)), _drop_text(m), named, " ".join(m.drawn), note)
    out.print(table)
    out.print(Text("drop: the paired comparison's drop in the chance to win (points) with its "
                   "95 % interval" + ("; * not compared: the screen's drop, biased up"
                                      if screened else "")
                   + ". A move's \"before\" is its player's view after the cards drawn "
                   "(\"then drawn\": the cards the mover drew after each move), so it can "
                   "differ from the move before's \"after\".", style="dim"))
    if r.marked:
        out.print(Text("The costly decisions: the mistakes named (paired worlds, 95 % "
                       "interval of the drop" + (", kept game-wide), biggest drop first:"
                                                 if r.fdr else "), biggest drop first:"),
                       style="bold"))
        for m in r.marked:
            p = m.paired
            out.print(f"  move {m.index} ({m.text}): {m.mark} {MARK_SIGNS[m.mark]} "
                      f"{_drop_text(m)} points against {p.alternative} "
                      f"({_pct(p.chance_played)} vs {_pct(p.chance_alternative)}, "
                      f"{p.worlds} worlds), {_sure(m.sure)} sure")
    elif any(m.paired is not None for m in r.moves):
        out.print("No costly decision: no paired drop of 5 points or more had its interval "
                  "above 0" + (" and survived the game-wide control." if r.fdr else "."))
    else:
        out.print("No decision compared (--no-marks): no costly decision named.")
    if r.fdr and r.removed:
        out.print(Text(f"{len(r.removed)} mark(s) of a decision alone did not survive the "
                       f"game-wide control (Benjamini-Hochberg, 5 % false discoveries over "
                       f"{r.stats.get('compared', 0)} compared decisions): move"
                       f"{'s' if len(r.removed) > 1 else ''} "
                       + ", ".join(str(m.index) for m in r.removed) + ".", style="dim"))
    if r.open_hand is not None:
        w = oh["winnable"]
        text = {"win": "the deal was winnable with every card known",
                "loss": "the deal could not be won even with every card known",
                "unknown": "the open-hand solver did not decide the deal in time"}[w]
        line = f"Open hand: {text}"
        if oh.get("losing_move"):
            line += f"; the open-hand losing move: move {oh['losing_move']}"
        elif oh.get("window"):
            line += (f"; the game was {window_text(oh['window'])} (the positions between "
                     "stayed unknown within 1 s a position)")
        out.print(line + ".")
        if oh.get("reason"):
            where = (f"Why the position after move {oh['first_proven_loss']} cannot be won: "
                     if oh.get("first_proven_loss") else "")
            out.print(Text(f"  {where}{oh['reason']}", style="dim"))
    outcome = r.outcome or "unfinished"
    cal = (f"; the chances calibrated for {r.calibration.team} team-mates (bots/data/"
           f"calibration-{r.calibration.team}.json), the drops and marks the estimator's"
           if r.calibration is not None else "")
    out.print(Text(f"Estimator: {r.estimator}: {ESTIMATOR_TEXT[r.estimator]}{cal}. Outcome: "
                   f"{outcome} · {len(r.moves)} moves · {r.stats['seconds']:.1f} s", style="dim"))
