"""``ascent solve``: decide a deal with every card known, and show the (optimal) play."""

from __future__ import annotations

import time
from typing import Any

import click
from rich.text import Text

from cli.common import EXIT_INTERRUPTED, CliError, console, emit_answer, render_game
from cli.files import check_new_file
from cli.options import (
    DEFAULT_MEMORY_MB,
    MEMORY_MB,
    NODE_LIMIT,
    PLAYERS,
    SEED,
    SOLVER_SEED,
    STEP,
    TIME_LIMIT,
    WORKERS,
    WholeNumber,
    learning_options,
    old_name,
    process_rss_mb,
)
from cli.picture import check_picture_paths, picture_options, solve_pictures
from cli.progress import ProgressLine, solve_progress_text
from cli.start import add_start_note, describe_start, resolve_start
from model.deal import Deal
from model.game import Game, count_text
from model.records import dumps, replay
from solver.exhaustive import FURTHEST_MODES
from solver.result import LOSS, OBJECTIVES, UNKNOWN, WIN, SolveResult

SOLVERS = ("dfs", "cpsat", "portfolio")
CUBES = WholeNumber(1, 100_000)

#: The time limit of an optimum search (``--objective waste|turns``) when none is given:
#: proving an optimum on a full deal can take hours.
DEFAULT_OPTIMUM_SECONDS = 60.0


def run_solver(name: str, deal: Deal | Game, objective: str, time_limit: float | None,
               memory_limit: int, node_limit: int | None, workers: int, seed: int,
               verbose: bool, progress: Any, hint: str = "beam",
               furthest: str = "bounded", switches: dict[str, bool] | None = None) -> SolveResult:
    """Dispatch to the named solver (``dfs``, ``cpsat`` or ``portfolio``); ``deal`` is a
    deal or a mid-game :class:`Game` (DFS only); ``hint`` (cpsat): ``beam`` hints the DFS
    beam's first win, ``none`` runs CP-SAT on its own; ``furthest`` (dfs): the
    furthest-line search after a loss (``bounded``, ``proven``, ``off``); ``switches`` (dfs):
    search switches by name (``nogood``, ``abstraction``, ``step_bound``: the frontier-step
    bound of :mod:`solver.stepbound`; ``lns``: the large-neighbourhood search of
    :mod:`solver.lns` in the last part of a ``waste`` solve's time limit).

    ``memory_limit`` (MB) bounds the whole process: the DFS's transposition table gets what
    the process does not use yet; CP-SAT stops its search (verdict unknown) when the process
    goes over it (its ``max_memory_in_mb``); the portfolio splits it between its solvers."""
    free = max(16, memory_limit - process_rss_mb())
    from solver.generic import needs_generic

    if name in ("dfs", "portfolio") and needs_generic(deal.rules):
        # rule sets the compact DFS does not model (goats=on): the generic exact search
        from solver.generic import solve as generic_solve

        return generic_solve(deal, objective, time_limit=time_limit, node_limit=node_limit,
                             memory_limit_mb=free, progress=progress)
    if name == "dfs":
        from solver.exhaustive import solve

        return solve(deal, objective, time_limit=time_limit, node_limit=node_limit,
                     memory_limit_mb=free, progress=progress, furthest=furthest,
                     **(switches or {}))
    try:
        if name == "cpsat":
            from solver.cpsat import solve_cpsat

            return solve_cpsat(deal, objective, time_limit=time_limit, workers=workers,
                               seed=seed, verbose=verbose,
                               hint="beam" if hint == "beam" else None,
                               params={"max_memory_in_mb": memory_limit})
        from solver.portfolio import solve_portfolio

        return solve_portfolio(deal, objective, time_limit=time_limit, workers=workers,
                               seed=seed, memory_limit_mb=free, verbose=verbose)
    except NotImplementedError as exc:
        raise CliError(f"--solver {name}: {exc}") from None


def cube_mapper(cubes: int | None, scheduler: str | None, workers: int | None,
                solver_name: str, objective: str, deal: Deal | Game) -> Any:
    """The Dask mapper for ``--cubes`` (``None`` without it); raises :class:`CliError` for
    options that do not go with it (exit 2)."""
    if cubes is None:
        if scheduler is not None:
            raise CliError("--scheduler needs --cubes N")
        return None
    if solver_name != "dfs":
        raise CliError(f"--cubes runs the dfs solver, not --solver {solver_name}")
    if objective not in ("none", "waste"):
        raise CliError(f"--cubes solves --objective none or waste, not {objective}")
    if scheduler is not None and workers is not None:
        raise CliError("give --workers (a LocalCluster) or --scheduler ADDR, not both")
    from solver.generic import needs_generic

    if needs_generic(deal.rules):
        raise CliError("--cubes runs the compact DFS, which does not model these rules")
    from studies.cubes import dask_mapper

    return dask_mapper(workers, scheduler)


def without_timing(stats: dict[str, Any]) -> dict[str, Any]:
    """``stats`` without what depends on the clock (seconds, rates, CP-SAT's wall time, the
    portfolio's per-solver times), so that equal input gives byte-identical JSON."""
    out = {}
    for k, v in stats.items():
        if k in ("seconds", "wall_time") or k.endswith("_seconds") or "per_second" in k:
            continue
        if isinstance(v, dict):
            v = without_timing(v)
        elif isinstance(v, list):  # e.g. the budget's phase records
            v = [without_timing(x) if isinstance(x, dict) else x for x in v]
        out[k] = v
    return out


def check_writable(output: str) -> None:
    """Refuse ``--record`` before any search (see :func:`cli.files.check_new_file`)."""
    check_new_file(output, "--record")


def _no_furthest_line(res: SolveResult) -> bool:
    """A loss proven by CP-SAT (its model's infeasibility): no furthest-line search ran."""
    return (res.verdict == LOSS and res.solver.startswith("cpsat") and not res.best_line
            and not res.best_progress)


def verdict_line(res: SolveResult, time_limit: float | None,
                 seconds: float | None = None) -> str:
    """One line: verdict, objective value and whether it is proven, who proved it, effort:
    the verdict's search nodes and ``seconds``, the whole solve's time (every phase: the
    search, LNS, the resumed proof, the furthest-line search; default: the ``seconds`` of
    ``res.stats``)."""
    st = res.stats
    n = st.get('nodes', 0)
    secs = st.get('seconds', 0) if seconds is None else seconds
    effort = f"{n:,} {'node' if n == 1 else 'nodes'} in {secs:.2f} s"
    if res.solver == "cpsat" and st.get("hint", "none") != "none":
        effort += f" (hint: {st['hint']})"
    if st.get("interrupted"):
        effort += " · interrupted"
    lns = st.get("lns") or {}
    if "to" in lns and lns["to"] < lns["from"]:
        effort += f" (LNS: {lns['from']} → {lns['to']})"
    if res.verdict == WIN and res.start is not None:  # from a mid-game position
        assert res.plan is not None
        game = res.plan.replay().game
        head = (f"win in {count_text(len(res.continuation), 'more turn')} from the position, "
                f"{len(game.out) - len(res.start.out)} more cards out of the game"
                if res.continuation else "win: the position is already won")
        if res.objective != "none":
            what = "waste" if res.objective == "waste" else "turns"
            what += " from the position"
            if res.optimal:
                head += f" · {what} {res.value}, proven optimal"
            else:
                head += f" · {what} {res.value}, best found; proven lower bound {res.bound}"
        return f"{head} · {res.solver} · {effort}"
    if res.verdict == WIN:
        assert res.plan is not None
        game = replay(res.plan.deal, res.plan.moves).game
        head = (f"win in {count_text(len(res.plan.moves), 'turn')}, "
                f"{count_text(len(game.out), 'card')} out of the game")
        if res.objective != "none":
            what = "waste" if res.objective == "waste" else "turns"
            if res.optimal:
                head += f" · {what} {res.value}, proven optimal"
            else:
                head += f" · {what} {res.value}, best found; proven lower bound {res.bound}"
        return f"{head} · {res.solver} · {effort}"
    if res.verdict == LOSS:
        furthest = ("furthest the deal can be taken" if st.get("best_progress_proven")
                    else "furthest line found")
        if res.start is not None:
            furthest = furthest.replace("the deal", "the position")
        fs = st.get("furthest")
        if fs and fs.get("mode") != "off" and not st.get("best_progress_proven"):
            if fs.get("mode") == "bounded":
                why = "--furthest proven searches until it is proven"
            elif fs.get("stopped_by") == "memory":
                why = "its states filled the memory cap; a larger --memory-limit goes further"
            else:
                why = "a limit ran out"
            effort += f" (+ furthest-line search {fs['nodes']:,} nodes, not proven: {why})"

        lm = st.get("loss_model") or {}
        how = ("proven: the CP-SAT model has no solution" if res.solver.startswith("cpsat")
               else "proven by the CP-SAT loss model" if lm.get("status") == "INFEASIBLE"
               else "proven by exhaustive search of the game with colours ignored"
               if st.get("decided_by") == "abstraction"
               else "proven by exhaustive search")
        reach = (f"{furthest}: {count_text(res.best_progress, 'slot')}"
                 if not _no_furthest_line(res) else
                 "no furthest line (CP-SAT searches none; --solver dfs finds it)")
        return f"loss: no play wins ({how}) · {reach} · {res.solver} · {effort}"
    limit = f"the time limit ({time_limit:g} s)" if time_limit else "a search limit"
    why = "interrupted" if st.get("interrupted") else f"{limit} ran out"
    return (f"unknown: {why} before a win or a proof · furthest line found: "
            f"{count_text(res.best_progress, 'slot')} · {res.solver} · {effort}")


@click.command()
@click.argument("source", metavar="[POSITION|PLAN]", required=False)
@click.option("--step", "step", type=STEP, default=None, metavar="K",
              help="For a PLAN: solve from the position after its first K moves "
                   "(default: after all of them).")
@click.option("--seed", type=SEED, default=None, metavar="N", help="Solve deal number N.")
@click.option("--deal", "deal_file", default=None, metavar="FILE",
              help="Solve a deal from FILE: a typed-in deal (one deck per line), a plan or "
                   "a deal JSON record (solved from its start); - is standard input.")
@click.option("--players", type=PLAYERS, default=None, metavar="P",
              help="Players (1-5) with --seed (default 1).")
@click.option("--rules", "rule_options", multiple=True, metavar="K=V",
              help="Rule option (repeatable), e.g. --rules bridge_replace_cost=left.")
@click.option("--objective", type=click.Choice(OBJECTIVES), default="none", show_default=True,
              help="none: any win; waste: fewest cards out of the game; turns: fewest moves.")
@click.option("--time-limit", type=TIME_LIMIT, default=None, metavar="S",
              help="Give up after S seconds (verdict unknown, or the best win found with a "
                   "proven bound); 'none' for no limit. Default: none with --objective none, "
                   f"{DEFAULT_OPTIMUM_SECONDS:g} s with waste or turns (an optimum search can "
                   "run for hours).")
@click.option("--node-limit", type=NODE_LIMIT, default=None, metavar="N",
              help="Give up after N search nodes (deterministic, unlike --time-limit).")
@click.option("--memory-limit", type=MEMORY_MB, default=DEFAULT_MEMORY_MB,
              show_default="a quarter of this machine's memory",
              metavar="MB", help="Memory of the whole process (128 or more): the DFS's table "
                                 "gets what is left; CP-SAT stops when over it; the "
                                 "portfolio shares it between its solvers.")
@click.option("--solver", "solver_name", type=click.Choice(SOLVERS), default="dfs",
              show_default=True, help="Which exact solver runs.")
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="CP-SAT workers, 1 to 64 (cpsat/portfolio); with --cubes: Dask "
                   "LocalCluster worker processes (default: one per core).")
@click.option("--cubes", type=CUBES, default=None, metavar="N",
              help="dfs, --objective none|waste: split the search into about N independent "
                   "cubes (first plies) solved on Dask workers, verdicts merged soundly.")
@click.option("--scheduler", default=None, metavar="ADDR",
              help="With --cubes: a running Dask scheduler (tcp://HOST:8786) instead of a "
                   "LocalCluster.")
@click.option("--solver-seed", type=SOLVER_SEED, default=0, show_default=True,
              help="Random seed of CP-SAT, 0 to 2147483647 (cpsat/portfolio).")
@click.option("--hint", type=click.Choice(["beam", "none"]), default="beam", show_default=True,
              help="cpsat: start from the DFS beam's first win as a solution hint (beam), "
                   "or search alone (none). A hint guides CP-SAT; its answer is still its own.")
@click.option("--furthest", type=click.Choice(FURTHEST_MODES), default="bounded",
              show_default=True,
              help="After a proven loss: bounded: a short search for the furthest line "
                   "(the verdict never waits on it); proven: search until the furthest line "
                   "is proven (can take far longer than the proof); off: none.")
@learning_options
@click.option("--lns/--no-lns", default=True, show_default=True,
              help="dfs, --objective waste: spend the last 30 % of the time limit making the "
                   "win cheaper by re-optimising windows of it (large-neighbourhood search).")
@click.option("--step-bound/--no-step-bound", default=False, show_default=True,
              help="dfs, --objective waste: the root's bound also counts every row's least "
                   "next step (admissible; measured to add nothing, so off by default).")
@click.option("--verbose", is_flag=True, help="Show the solver's log (cpsat) on standard error.")
@click.option("--quiet", is_flag=True,
              help="No progress line on standard error (by default: on a terminal, one line "
                   "redrawn in place; in a log, a line every 10 s of a long search).")
@click.option("--json", "as_json", is_flag=True,
              help="Print {verdict, plan, objective, bound, best_progress, stats} as JSON.")
@click.option("--no-timing", is_flag=True,
              help="Leave seconds and rates out of the JSON stats, so that equal input "
                   "gives byte-identical output.")
@click.option("--record", "output", default=None, metavar="FILE",
              help="Also write the plan (or the furthest line) as a game record to FILE; "
                   "an existing FILE is never overwritten.")
@old_name("--output", "--record", "output", metavar="FILE")
@picture_options()
def solve(source: str | None, step: int | None, seed: int | None, deal_file: str | None,
          players: int | None, rule_options: tuple[str, ...],
          objective: str, time_limit: float | None, node_limit: int | None, memory_limit: int,
          solver_name: str, workers: int, cubes: int | None, scheduler: str | None,
          solver_seed: int, hint: str, furthest: str,
          nogood: bool, abstraction: bool, lns: bool, step_bound: bool, verbose: bool,
          quiet: bool, as_json: bool, no_timing: bool,
          output: str | None, fmt: str = "text",
          picture: str | None = None, frames: str | None = None,
          animate: str | None = None) -> None:
    """Decide a deal, or a mid-game POSITION|PLAN, with every card known: win (with the
    play), loss (proven) or unknown.

    POSITION|PLAN: a position JSON, or a game record solved from the position after its
    moves (or after --step K); the answer's plan is the record's moves so far followed by
    the solver's, and the objective counts from the position (waste still to spend, turns
    still to play). --deal FILE and --seed N solve from the deal's first move. CP-SAT and
    the portfolio start only from a deal's first move.

    One planner plays every seat in turn order with all hands and decks open. "win" comes
    only with a plan the rules engine replays to a win; "loss" only after an exhaustive
    search; "unknown" when a limit ran out. For a loss or unknown, the furthest line the
    search found (most mountain slots filled) is shown.

    Ctrl-C or SIGTERM stops the search: the best found so far is printed (and written
    to --record), marked interrupted, and the exit code is 130. Exit codes: 0 answered,
    2 bad input (a --record that cannot be written is refused before the search; one
    whose writing fails after it still gets the answer printed), 130 interrupted.

    \b
    Examples:
      ascent solve --seed 1
      ascent solve --seed 7 --players 3 --objective waste --time-limit 1
      ascent deal --seed 5 --players 2 > my-table.txt
      ascent solve --deal my-table.txt --json > answer.json
      ascent show answer.json --step 3
      ascent solve --seed 3 --rules preset=tiny --solver cpsat --time-limit 60
      ascent solve answer.json --step 5 --objective waste --time-limit 5
      ascent solve --seed 1 --format svg --picture final.svg --frames moves
      ascent solve --seed 1 --rules goats=on
    """
    ctx = click.get_current_context()
    if (objective != "none"
            and ctx.get_parameter_source("time_limit") == click.core.ParameterSource.DEFAULT):
        time_limit = DEFAULT_OPTIMUM_SECONDS
    if output is not None:
        check_writable(output)
    name, deal, note = resolve_start(source, deal_file, seed, players, rule_options, step)
    add_start_note(note)
    if isinstance(deal, Game) and solver_name != "dfs":
        from solver.cpsat import POSITION_UNSUPPORTED

        raise CliError(f"--solver {solver_name}: {POSITION_UNSUPPORTED}")
    check_picture_paths(picture, animate, frames)
    if as_json and fmt != "text" and picture is None:
        raise CliError(f"--json prints JSON; give --picture FILE for the {fmt} picture")

    line = None
    progress = None
    t0 = time.monotonic()
    if not (verbose or quiet):
        line = ProgressLine()
        counted = [0, 0]  # nodes of the phases done, nodes of this phase so far

        def progress(st: dict) -> None:
            if st.get("nodes", 0) < counted[1]:  # a new phase (LNS, the resumed proof)
                counted[0] += counted[1]
            counted[1] = st.get("nodes", 0)
            line.update(solve_progress_text({**st, "nodes": sum(counted)}, objective,
                                            time.monotonic() - t0, time_limit))

    workers_given = (ctx.get_parameter_source("workers")
                     != click.core.ParameterSource.DEFAULT)
    mapper = cube_mapper(cubes, scheduler, workers if workers_given else None,
                         solver_name, objective, deal)
    try:
        if cubes is not None:
            from solver.cubes import solve_cubes
            from studies.runner import RunnerError

            try:
                res = solve_cubes(deal, objective, cubes, time_limit=time_limit,
                                  node_limit=node_limit, mapper=mapper,
                                  memory_limit_mb=max(128, memory_limit // 2))
            except RunnerError as exc:
                raise CliError(str(exc)) from None
        else:
            res = run_solver(solver_name, deal, objective, time_limit, memory_limit, node_limit,
                             workers, solver_seed, verbose, progress, hint, furthest,
                             {"nogood": nogood, "abstraction": abstraction, "lns": lns,
                              "step_bound": step_bound})
    finally:
        if line is not None:
            line.close()
    seconds = time.monotonic() - t0

    data = res.to_json()
    if no_timing:
        data["stats"] = without_timing(data["stats"])
    record = None
    if output is not None:
        record = dumps(res.record().to_json()) + "\n"
    emit_answer(lambda: print_answer(res, data, deal, time_limit, as_json, fmt, picture,
                                     frames, animate, seconds), output, record)
    if res.stats.get("interrupted"):
        raise CliError("interrupted; the best found so far is shown above", EXIT_INTERRUPTED)


def print_answer(res: SolveResult, data: dict[str, Any], deal: Deal | Game,
                 time_limit: float | None, as_json: bool, fmt: str = "text",
                 picture: str | None = None, frames: str | None = None,
                 animate: str | None = None, seconds: float | None = None) -> None:
    """Print the answer: ``data`` as JSON, or the verdict line (``seconds``: the whole
    solve's time, see :func:`verdict_line`), the plan (or furthest line) move by move and
    the final position; and the pictures asked for (``--format``, ``--picture``,
    ``--frames``, ``--animate``; a picture on standard output replaces the text answer)."""
    pictured = solve_pictures(res.record(), res.verdict, fmt, picture, frames, animate)
    if as_json:
        click.echo(dumps(data))
        return
    if pictured:
        return
    out = console()
    out.print(Text(verdict_line(res, time_limit, seconds), style="bold"))
    if res.reason is not None:
        out.print(Text(f"Why: {res.reason.text}"), highlight=False)
    line = res.plan.moves if res.plan is not None else res.best_line
    game = Game(deal) if isinstance(deal, Deal) else deal.copy()
    if res.start is not None:
        out.print(f"From {describe_start(res.start)}:")
        line = res.continuation
    if _no_furthest_line(res):
        return  # a CP-SAT proof of loss: no line to show (the verdict line says so)
    if res.verdict != WIN:
        what = ("Furthest line, proven" if res.stats.get("best_progress_proven")
                else "Furthest line found")
        out.print(f"{what} ({count_text(len(line), 'move')}, "
                  f"{count_text(res.best_progress, 'slot')}):")
    for mv in line:
        out.print(game.move_text(mv), highlight=False)
        game.push(mv)
    out.print(render_game(game, title="Final mountain" if res.verdict == WIN else
                          "Furthest position"))
    if res.verdict == UNKNOWN and res.objective != "none" and res.bound is not None:
        out.print(f"Proven lower bound on {res.objective}: {res.bound}")
