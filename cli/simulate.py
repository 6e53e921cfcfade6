"""``ascent simulate``: bots play many deals; win rates with intervals, the open-hand verdict on
the same deals and the price of silence (:mod:`bots.simulate`, on :mod:`studies.runner`)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import click

from bots import BOT_NAMES
from cli.common import EXIT_INTERRUPTED, CliError, console, flush_stdout, parse_rules
from cli.options import COUNT, DEALS, PLAYER_COUNTS, SECONDS, SEED, SEED_RANGE, WORKERS
from model.rules import RuleSet


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _interval(iv) -> str:
    return f"[{100 * iv[0]:.1f}, {100 * iv[1]:.1f}]"


@click.command()
@click.option("--bot", type=click.Choice(BOT_NAMES), required=True,
              help="The bot in every seat: greedy, sampling (PIMC), determinized (sampled "
                   "worlds searched by the beam), best (the strongest silent bot measured: today "
                   "uct), team (rollouts over the greedy blueprint), uct "
                   "(information-set MCTS over the same blueprint), adhoc (uct with a partner "
                   "model inferred from the partners' moves), plausible and noisy (greedy "
                   "with a share of other moves: stand-ins for people), cheat (open-hand "
                   "solver) or openspiel-ismcts (needs the .[openspiel] extra).")
@click.option("--partners", default=None, metavar="BOT[:K=V,...]",
              help="A mixed table: --bot sits in seat 1 and this bot in every other seat, "
                   "e.g. plausible, noisy:rate=0.1, uct:iterations=400 (default: --bot in "
                   "every seat).")
@click.option("--players", type=PLAYER_COUNTS, default="1-5", show_default=True, metavar="P",
              help="Player counts, e.g. 1-5 or 1,3.")
@click.option("--deals", type=DEALS, default=None, metavar="N", help="Seeds 1..N for each player count.")
@click.option("--seeds", type=SEED_RANGE, default=None, metavar="A-B", help="Seeds to play instead, e.g. 101-200.")
@click.option("--rules", "rule_options", multiple=True, metavar="K=V",
              help="Rule option (repeatable), e.g. preset=tiny or discards_seen=own.")
@click.option("--worlds", type=COUNT, default=None, metavar="N",
              help="sampling, determinized, team: worlds sampled per move (default 8; "
                   "team 12).")
@click.option("--seconds", "move_seconds", type=SECONDS, default=None, metavar="S",
              help="sampling, determinized: time per move in seconds (at least one "
                   "world is always played).")
@click.option("--candidates", type=COUNT, default=None, metavar="K",
              help="sampling, determinized, team, uct (and best): moves compared per turn (the "
                   "greedy's best K; default 4 for sampling, 5 for determinized and uct, 3 "
                   "for team).")
@click.option("--iterations", type=COUNT, default=None, metavar="N",
              help="uct: search iterations per move, one sampled world each (default 1600).")
@click.option("--max-iterations", type=COUNT, default=None, metavar="N",
              help="uct: spend iterations where they matter: stop a decision once it is "
                   "settled, give a close one (runner-up ≥ 0.8× the leader's visits) "
                   "--iterations more, up to N in all (default: exactly --iterations).")
@click.option("--rate", type=float, default=None, metavar="R",
              help="plausible, noisy: the share of moves (0 to 1) that depart from greedy's "
                   "first choice (default 0.3 for plausible, 0.2 for noisy).")
@click.option("--beliefs/--no-beliefs", default=False, show_default=True,
              help="team, uct: keep only worlds where the blueprint would have made the "
                   "partners' moves seen.")
@click.option("--horizon", type=COUNT, default=12, show_default=True,
              metavar="T", help="sampling: playout length in turns.")
@click.option("--simulations", type=COUNT, default=50, show_default=True,
              metavar="N", help="openspiel-ismcts: ISMCTS simulations per move.")
@click.option("--bot-seed", type=SEED, default=0, show_default=True, metavar="N",
              help="Seed of the bots' own random choices.")
@click.option("--time-limit", type=SECONDS, default=10.0, show_default=True, metavar="S",
              help="Seconds per open-hand solve (the cheat bot, and the paired verdict).")
@click.option("--open-hand/--no-open-hand", default=True, show_default=True,
              help="Also solve every deal open-hand, for the price of silence.")
@click.option("--db", "db_path", default=None, metavar="FILE",
              help="SQLite results database (created or extended, never overwritten; a run "
                   "resumes where it stopped; a deal's open-hand verdict proven by an earlier "
                   "run of any bot is reused, not solved again). Default: a temporary one.")
@click.option("--records", "records_dir", default=None, metavar="DIR",
              help="Write every game's record (JSON, for ascent replay/show) into DIR.")
@click.option("--workers", type=WORKERS, default=None, metavar="K",
              help="Worker processes of the embedded Dask LocalCluster (default: one per core).")
@click.option("--scheduler", default=None, metavar="ADDR",
              help="Run on a Dask cluster instead, e.g. tcp://head:8786.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", is_flag=True, help="No progress on standard error.")
def simulate(bot: str, partners: str | None, players: str, deals: int | None, seeds: str | None,
             rule_options: tuple[str, ...], worlds: int | None, move_seconds: float | None,
             candidates: int | None, iterations: int | None, max_iterations: int | None,
             rate: float | None, beliefs: bool, horizon: int,
             simulations: int, bot_seed: int, time_limit: float,
             open_hand: bool, db_path: str | None, records_dir: str | None, workers: int | None,
             scheduler: str | None, as_json: bool, quiet: bool) -> None:
    """Play deals with one bot in every seat (or with --partners, in seat 1); report the win
    rate per player count.

    Silent bots (greedy, sampling, determinized or best, team, uct, openspiel-ismcts) see only what
    their player sees (ruling V1: own hand, mountain, cards out, hand and deck sizes); cheat sees everything. For each
    player count: games, wins and the 95 % Wilson interval, mean slots filled at a loss, cards
    out at a win, seconds per game, and on the same deals the open-hand verdict and the price
    of silence (open-hand win share minus the bot's, paired deal by deal).

    \b
    Examples:
      ascent simulate --bot greedy --players 1-2 --deals 5 --rules preset=tiny --workers 1
      ascent simulate --bot sampling --worlds 2 --horizon 4 --players 1 --seeds 1-2 --workers 1 --json
      ascent simulate --bot best --iterations 50 --players 1 --deals 2 --rules preset=tiny --workers 1
      ascent simulate --bot plausible --partners uct:iterations=50 --players 3 --deals 2 --workers 1
    """
    from bots.simulate import (
        COLUMNS,
        TABLE,
        build_tasks,
        load_rows,
        parse_partners,
        play_task,
        report,
        reuse_open_verdicts,
        write_records,
    )
    from studies.runner import RunnerError, run_tasks
    from studies.study import StudyError, build_grid

    if time_limit != time_limit or not time_limit > 0:
        raise CliError("--time-limit must be more than 0 seconds")
    if move_seconds is not None and not move_seconds > 0:
        raise CliError("--seconds must be more than 0")
    if workers is not None and scheduler is not None:
        raise CliError("give --workers (the embedded cluster) or --scheduler ADDR, not both")
    if records_dir is not None:
        _check_records_dir(records_dir)
    partner_params: dict | None = None
    if partners is not None:
        try:
            partners, partner_params = parse_partners(partners)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        if "seed" not in partner_params and _takes_seed(partners):
            partner_params["seed"] = bot_seed  # the partners' random choices: --bot-seed
    rules = parse_rules(rule_options) or RuleSet.standard()
    try:
        grid = build_grid(players, seeds, deals)
    except StudyError as exc:
        raise CliError(str(exc)) from None
    if partners is not None and 1 in grid.players:
        raise CliError("--partners needs 2-5 players: a solo deal has no partners")
    params: dict = {}
    if bot == "best":
        from bots import BEST

        bot_params = BEST
    else:
        bot_params = bot
    # an option the bot does not take is refused, never silently dropped
    options = {"--worlds": ("worlds", worlds, worlds is not None),
               "--seconds": ("seconds", move_seconds, move_seconds is not None),
               "--iterations": ("iterations", iterations, iterations is not None),
               "--max-iterations": ("max_iterations", max_iterations, max_iterations is not None),
               "--rate": ("rate", rate, rate is not None),
               "--beliefs": ("beliefs", beliefs, beliefs),
               "--candidates": ("candidates", candidates, candidates is not None)}
    takes = {"--worlds": ("sampling", "determinized", "team"),
             "--seconds": ("sampling", "determinized"), "--iterations": ("uct", "adhoc"),
             "--max-iterations": ("uct", "adhoc"),
             "--rate": ("plausible", "noisy"),
             "--beliefs": ("team", "uct"),
             "--candidates": ("sampling", "determinized", "team", "uct", "adhoc")}
    for opt, (_, _, on) in options.items():
        if on and bot_params not in takes[opt]:
            named = f"best (today {bot_params})" if bot == "best" else bot
            raise CliError(f"{opt} is not an option of the {named} bot (it is for "
                           f"{', '.join(takes[opt])})")
    if bot_params == "sampling":
        params = {"worlds": worlds or 8, "seconds": move_seconds, "candidates": candidates or 4,
                  "horizon": horizon, "seed": bot_seed}
    elif bot_params in ("determinized", "team", "uct", "adhoc"):
        # the options given (all the bot's own, checked above); the bot's defaults otherwise
        always = ({"seconds": move_seconds} if bot_params == "determinized"
                  else {} if bot_params == "adhoc" else {"beliefs": beliefs})
        params = {"seed": bot_seed, **always,
                  **{name: v for name, v, on in options.values() if on}}
    elif bot_params in ("plausible", "noisy"):
        if rate is not None and not 0 <= rate <= 1:
            raise CliError(f"--rate must be from 0 to 1, not {rate:g}")
        params = {"seed": bot_seed, **({"rate": rate} if rate is not None else {})}
    elif bot == "cheat":
        params = {"time_limit": time_limit}
    elif bot == "openspiel-ismcts":
        try:
            import bots.openspiel_bot  # noqa: F401
        except ImportError:
            raise CliError("the openspiel-ismcts bot needs OpenSpiel: pip install -e '.[openspiel]'") from None
        params = {"simulations": simulations, "seed": bot_seed}
    if bot_params in ("sampling", "determinized", "team", "uct", "adhoc", "plausible", "noisy"):
        from bots import make_bot

        try:  # refused here in one line, not as an error row per game
            make_bot(bot_params, **params)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    tasks = build_tasks(bot, params, grid.players, grid.seeds, rules,
                        open_hand and (bot != "cheat" or partners is not None), time_limit,
                        partners, partner_params)
    if db_path is not None:  # a deal's proven open-hand verdict is solved once per database
        reuse_open_verdicts(db_path, tasks)
    tmp = None
    if db_path is None:
        tmp = tempfile.TemporaryDirectory(prefix="ascent-simulate-")
        db_path = str(Path(tmp.name) / "simulate.db")
    try:
        try:
            summary = run_tasks(
                play_task, tasks, db_path, TABLE, COLUMNS,
                workers=workers, scheduler=scheduler, progress=not quiet, outcome="outcome",
                title=f"simulate {bot}",
            )
        except RunnerError as exc:
            raise CliError(str(exc)) from None
        rows = load_rows(db_path, [t["key"] for t in tasks])
        lines = report(rows, grid.players)
        if as_json:
            out = {"bot": bot, "params": params, "partners": partners,
                   "partner_params": partner_params, "rules": rules.to_dict(),
                   "seeds": [grid.seeds[0], grid.seeds[-1]] if grid.seeds else [],
                   "deals_per_player_count": len(grid.seeds),
                   "open_hand_time_limit": time_limit if (open_hand or bot == "cheat") else None,
                   "players": lines}
            click.echo(json.dumps(out, indent=2))
        else:
            _print_table(bot if partners is None else f"{bot} --partners {partners}", lines,
                         rules)
        if records_dir is not None:  # after the report, so that a failed write loses nothing
            try:
                written, kept = write_records(rows, records_dir)
            except OSError as exc:
                flush_stdout()
                raise CliError(f"{records_dir}: cannot write the records "
                               f"({exc.strerror or exc.__class__.__name__}); the report is on "
                               "standard output") from None
            if not quiet:
                click.echo(f"records: {written} written, {kept} already there, in {records_dir}", err=True)
        if not quiet:
            click.echo(summary.text(), err=True)
        if summary.interrupted:
            sys.exit(EXIT_INTERRUPTED)
    finally:
        if tmp is not None:
            tmp.cleanup()


def _takes_seed(name: str) -> bool:
    """Whether the bot ``name`` takes a ``seed`` parameter."""
    import inspect

    from bots import make_bot

    return "seed" in inspect.signature(type(make_bot(name)).__init__).parameters


def _check_records_dir(path: str) -> None:
    """Refuse ``--records DIR`` before any game is played (:class:`CliError`, exit 2) unless
    DIR is a writable folder; a missing DIR is made now (with its parents), so that a folder
    that cannot be made is found before the games rather than after them."""
    if not path.strip():
        raise CliError("--records needs a folder name")
    p = Path(path)
    try:
        if p.exists() and not p.is_dir():
            raise CliError(f"--records {path}: not a folder")
        p.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or exc.__class__.__name__
        raise CliError(f"--records {path}: cannot make the folder ({why})") from None
    if not os.access(p, os.W_OK):
        raise CliError(f"--records {path}: the folder is not writable")


def _cells(ln: dict) -> dict[str, str]:
    """One report line's cells, by column header (every column of the full table)."""
    def num(x, fmt="{:.1f}"):
        return "-" if x is None else fmt.format(x)

    return {
        "players": ln["players"], "games": str(ln["games"]), "won": str(ln["won"]),
        "win": _pct(ln["win"]), "95% interval": _interval(ln["interval"]),
        "price of silence": (f"{100 * ln['price']:+.1f} pts {_interval(ln['price_interval'])}"
                             if "price" in ln else "-"),
        "open-hand win": (f"{_pct(ln['open_win'])} {_interval(ln['open_interval'])}"
                          if "open_win" in ln else "-"),
        "out at win": num(ln["out_at_win"]), "slots at loss": num(ln["slots_at_loss"]),
        "silent/open": _pct(ln.get("silent_share")), "s/game": num(ln["seconds_per_game"], "{:.2f}"),
    }


#: The table's columns, in the order shown; :data:`DROP_ORDER` says which go first when the
#: terminal is too narrow for all of them (the first five always stay).
COLUMN_ORDER = ("players", "games", "won", "win", "95% interval", "slots at loss", "out at win",
                "s/game", "open-hand win", "price of silence", "silent/open")
DROP_ORDER = ("s/game", "silent/open", "slots at loss", "out at win", "open-hand win",
              "price of silence")


def _table(bot: str, lines: list[dict], rules: RuleSet, columns: list[str]):
    from rich.table import Table

    t = Table(title=f"ascent simulate --bot {bot} ({rules.describe()})")
    for col in columns:
        t.add_column(col, justify="right")
    for ln in lines:
        cells = _cells(ln)
        t.add_row(*(cells[c] for c in columns))
    return t


def _print_table(bot: str, lines: list[dict], rules: RuleSet) -> None:
    """The report as a table that fits the console's width (the terminal's, ``COLUMNS``, or
    200 columns in a pipe): columns of :data:`DROP_ORDER` are left out, first to last, until
    it does, and a line below names them. ``--json`` and the database keep every figure."""
    from rich.measure import Measurement

    out = console()
    columns = list(COLUMN_ORDER)
    left_out: list[str] = []
    t = _table(bot, lines, rules, columns)
    unbounded = out.options.update(width=10_000)  # the table's natural width, unwrapped
    for col in DROP_ORDER:
        if Measurement.get(out, unbounded, t).maximum <= out.width:
            break
        columns.remove(col)
        left_out.append(col)
        t = _table(bot, lines, rules, columns)
    out.print(t)
    if left_out:
        out.print(f"({', '.join(left_out)}: left out at {out.width} columns; every column is "
                  "in --json and the database)", soft_wrap=False)
