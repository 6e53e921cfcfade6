"""``ascent hint``: the best next moves of a position, each rated by the solver."""

from __future__ import annotations

import click
from rich.table import Table
from rich.text import Text

from bots.advice import ESTIMATOR_TEXT, ESTIMATORS, advise
from bots.calibration import Calibration, calibrated_teams, calibration_for
from cli.common import EXIT_INTERRUPTED, CliError, console, load_source, source_options
from cli.options import COUNT, DEFAULT_MEMORY_MB, MEMORY_MB, SECONDS, table_share_mb
from cli.start import describe_start, position_of
from model.deal import Deal
from model.game import Game, count_text
from model.observation import observe
from model.records import dumps
from solver.analysis import hint as rate_moves
from solver.result import LOSS, OBJECTIVES, WIN


def value_text(value: int | None, optimal: bool, bound: int | None) -> str:
    """``7`` (proven), ``≤ 9 (≥ 5)`` (best found and proven lower bound), ``-``."""
    if value is None:
        return "-"
    if optimal:
        return str(value)
    return f"≤ {value}" + (f" (≥ {bound})" if bound is not None else "")


@click.command()
@source_options
@click.option("--objective", type=click.Choice(OBJECTIVES), default="none", show_default=True,
              help="none: any win; waste: fewest cards out of the game from here; "
                   "turns: fewest moves from here.")
@click.option("--time-limit", type=SECONDS,
              default=10.0, show_default=True, metavar="S",
              help="Seconds for the whole hint (the position, then its moves in turn).")
@click.option("--all", "all_moves", is_flag=True,
              help="Rate every legal move (grouped by placement), not only those that win.")
@click.option("--memory-limit", type=MEMORY_MB, default=DEFAULT_MEMORY_MB,
              show_default="a quarter of this machine's memory",
              metavar="MB", help="Memory of the whole process (128 or more): the search "
                                 "table (and, after a proven loss, the furthest search's "
                                 "states) gets what is left.")
@click.option("--silent", is_flag=True,
              help="Rate the moves from the observation of the player to move alone (ruling "
                   "V1: own hand, mountain, cards out): each move's win chance over worlds "
                   "sampled from the fair shuffle of the unseen cards.")
@click.option("--estimator", type=click.Choice(ESTIMATORS), default="greedy", show_default=True,
              help="--silent: how a sampled world is played on: greedy (the greedy bot in "
                   "every seat), best (the determinized bot, fast configuration; slower) or beam (the open-hand "
                   "beam, which sees the sampled cards: an upper estimate).")
@click.option("--worlds", type=COUNT, default=400, show_default=True, metavar="N",
              help="--silent: at most N sampled worlds per move (it stops sooner at the time "
                   "limit or once the best move is separated).")
@click.option("--team", default=None, metavar="BOT",
              help="--silent: the bot in the other seats (default: the record's \"bot\", as "
                   "ascent simulate writes it): the chances are calibrated for that team where "
                   "the project has a calibration (uct; greedy estimator); 'none': as they are.")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"verdict", "moves": [{"move", "verdict", "value", "optimal"}, ...]} '
                   'best first, as JSON (--silent: {"estimator", "moves": [{"move", "chance", '
                   '"interval", "cards_out", ...}, ...], ...}).')
def hint(source: str | None, seed: int | None, players: int, rule_options: tuple[str, ...],
         step: int | None, objective: str, time_limit: float, all_moves: bool,
         memory_limit: int, silent: bool, estimator: str, worlds: int, team: str | None,
         as_json: bool) -> None:
    """The moves of the player to move that keep a POSITION (or a PLAN after K moves)
    winnable, best first, each with its verdict and the best value after it, like an
    engine's multi-line view.

    Each placement is one line (a turn that discards two is one more); when it can be paid
    in several ways, the solver picks the way. Values count from the position (for waste:
    the cards still to leave the game, this move's included) and are "≤ V (≥ B)" when only
    a bound is proven. A move whose search ran out of time is "unknown", never a guess. A
    lost position says so, with the furthest progress the solver found.

    \b
    Examples:
      ascent solve --seed 3 --rules preset=tiny --record game.json
      ascent hint game.json --step 5
      ascent hint game.json --step 5 --objective waste --all
      ascent hint --seed 1 --json
      ascent hint --seed 3 --rules preset=tiny --silent --time-limit 2
    """
    if time_limit != time_limit:  # NaN passes FloatRange
        raise CliError("--time-limit must be a number of seconds, not nan")
    src = load_source(source, seed, players, rule_options)
    start = position_of(src, step)
    game = Game(start) if isinstance(start, Deal) else start
    if game.is_over():
        raise CliError(f"{src.name}: the game is over ({game.outcome()}); there is no move "
                       "to hint")
    if silent:
        _silent_hint(src.name, game, start, estimator, worlds, time_limit, as_json,
                     _team(team, src, estimator))
        return
    if team is not None:
        raise CliError("--team goes with --silent (the open-hand hint knows every card)")
    h = rate_moves(game, objective, time_limit, all_moves,
                   memory_limit_mb=table_share_mb(memory_limit))
    if as_json:
        click.echo(dumps(h.to_json()))
        _stop_if_interrupted(h.stats)
        return
    out = console()
    where = describe_start(game if game.move_stack or isinstance(start, Game) else start)
    head = f"{where}: {h.verdict}"
    if h.verdict == WIN and objective != "none":
        head += f" · {objective} from here {value_text(h.value, h.optimal, h.bound)}"
    if h.verdict == LOSS:
        head += (" (proven): no move keeps the game winnable · furthest progress found: "
                 f"{count_text(h.best_progress, 'slot')}")
    elif h.verdict != WIN:
        head += (" (interrupted before a win or a proof)" if h.stats.get("interrupted")
                 else " (the time limit ran out before a win or a proof)")
    out.print(Text(head[0].upper() + head[1:], style="bold"))
    if h.reason is not None:
        out.print(Text(f"Why: {h.reason.text}"), highlight=False)
    if not h.moves:
        if h.verdict != LOSS:
            out.print("No move is proven to keep the game winnable "
                      + ("before the interrupt." if h.stats.get("interrupted")
                         else "within the time limit."))
        _stop_if_interrupted(h.stats)
        return
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("move", no_wrap=True)
    table.add_column("after")
    if objective != "none":
        table.add_column(objective, justify="right")
    table.add_column("ways to pay", justify="right")
    table.add_column("then")
    for i, r in enumerate(h.moves, start=1):
        cells = [str(i), game.move_text(r.move), r.verdict]
        if objective != "none":
            cells.append(value_text(r.value, r.optimal, r.bound))
        cells.append(str(r.choices))
        rest = len(r.line) - 1
        cells.append(count_text(rest, "more move") if r.verdict == WIN else "")
        table.add_row(*cells)
    out.print(table)
    out.print(Text(f"{h.stats['seconds']:.2f} s · {h.stats['nodes']:,} nodes · "
                   f"{count_text(h.stats['placements'], 'choice')} "
                   "(placements and discard turns)", style="dim"))
    _stop_if_interrupted(h.stats)


def _stop_if_interrupted(stats: dict) -> None:
    """Exit 130 after what an interrupted hint found was shown (README: exit codes)."""
    if stats.get("interrupted"):
        raise CliError("interrupted; the moves rated so far are shown above", EXIT_INTERRUPTED)


def _team(team: str | None, src: object, estimator: str) -> Calibration | None:
    """The calibration of ``hint --silent --team`` (default: the record's ``bot``), or
    ``None``. Raises :class:`CliError` for a team the project has no calibration for."""
    if team == "none":
        return None
    if team is None:
        plan = getattr(src, "plan", None)
        sat = getattr(plan, "extra", {}).get("bot") if plan is not None else None
        team = sat.get("name") if isinstance(sat, dict) else sat if isinstance(sat, str) else None
        return calibration_for(team, estimator)
    cal = calibration_for(team, estimator)
    if cal is None and team != "greedy":
        raise CliError(f"--team: no calibration for {team!r} with the {estimator} estimator; "
                       "valid: " + ", ".join(calibrated_teams() + ["greedy", "none"]))
    return cal


def _silent_hint(name: str, game: Game, start: Deal | Game, estimator: str, worlds: int,
                 time_limit: float, as_json: bool, cal: Calibration | None = None) -> None:
    """``hint --silent``: :func:`bots.advice.advise` on the mover's observation, printed
    (the chances calibrated by ``cal`` when given)."""
    obs = observe(game)
    try:
        a = advise(obs, estimator=estimator, worlds=worlds, time_limit=time_limit)
    except KeyboardInterrupt:
        raise CliError("interrupted before every move had a world played", EXIT_INTERRUPTED) from None

    def shown(x: float) -> float:
        return cal(x) if cal is not None else x

    if as_json:
        data = a.to_json()
        if cal is not None:
            for m in data["moves"]:
                m["estimate"] = m["chance"]
                m["chance"] = round(cal(m["chance"]), 4)
                m["interval"] = [round(x, 4) for x in cal.interval(*m["interval"])]
            data["team"] = cal.team
            data["estimator_text"] += f", calibrated for {cal.team} team-mates"
        click.echo(dumps(data))
        _stop_if_interrupted(a.stats)
        return
    out = console()
    where = describe_start(game if game.move_stack or isinstance(start, Game) else start)
    out.print(Text(f"{where[0].upper() + where[1:]}: player {a.player} to move, from what "
                   f"player {a.player} sees", style="bold"))
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("move", no_wrap=True)
    table.add_column("win chance", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("cards out", justify="right")
    for i, r in enumerate(a.moves, start=1):
        lo, hi = r.interval
        lo, hi = shown(lo), shown(hi)
        table.add_row(str(i), game.move_text(r.move), f"{100 * shown(r.chance):.0f}%",
                      f"{100 * lo:.0f}–{100 * hi:.0f}%", f"{r.cards_out:.1f}")
    out.print(table)
    why = {"separated": "the best move is separated", "time": "the time limit ran out",
           "alike": "every move lost (or won) every world so far",
           "worlds": f"{count_text(a.worlds, 'world')} per move played",
           "interrupted": "interrupted"}[a.stopped]
    calibrated = f", calibrated for {cal.team} team-mates" if cal is not None else ""
    out.print(Text(f"Estimator: {estimator}: {ESTIMATOR_TEXT[estimator]}{calibrated}. "
                   f"{count_text(a.worlds, 'world')} per move; stopped: {why} · "
                   f"{a.stats['seconds']:.2f} s", style="dim"))
    _stop_if_interrupted(a.stats)
