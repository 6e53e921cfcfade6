"""``ascent variants``: one deal or position under every combination of rule options, side by
side, and the first move where two rulings part (:mod:`studies.variants`)."""

from __future__ import annotations

import click
from rich.table import Table
from rich.text import Text

from cli.common import CliError, console, describe_illegal, load_source, render_game
from cli.options import DEFAULT_MEMORY_MB, MEMORY_MB, PLAYERS, SECONDS, SEED, STEP, table_share_mb
from model.records import dumps
from model.rules import MOVE_RULINGS
from solver.result import OBJECTIVES


def _start(path, seed, deal_file, players, rule_options, players_given, step=None):
    from studies.variants import Start

    given = [x for x in (path, seed, deal_file) if x is not None]
    if len(given) != 1:
        raise CliError("give exactly one of --seed N, --deal FILE and a POSITION or PLAN file")
    if step is not None and path is None:
        hint = ": give a plan file as the argument, not with --deal" if deal_file is not None else ""
        raise CliError("--step applies to a PLAN argument (the position after its first K "
                       f"moves){hint}")
    if seed is not None:
        src = load_source(None, seed=seed, players=players, rule_options=rule_options)
        deal = src.plan.deal
        return Start(f"seed {seed}", seed=seed, players=players), deal.rules
    if players_given:
        raise CliError("--players applies to --seed; a file has its own players")
    src = load_source(deal_file if deal_file is not None else path, rule_options=rule_options)
    if src.kind == "position":
        if step is not None:
            raise CliError(f"{src.name}: --step applies to a plan, and this is a position")
        return Start(src.name, position=src.position), src.position.rules
    plan = src.plan
    if deal_file is not None and plan.moves:
        raise CliError(f"{src.name}: --deal takes a deal; give a plan as POSITION to start "
                       "after its moves")
    n = len(plan.moves)
    if step is not None and step > n:
        raise CliError(f"{src.name}: --step must be from 0 to {n} (the plan has {n} moves), not {step}")
    k = n if step is None else step
    rep = plan.replay(k)
    if rep.error is not None:  # illegal under the plan's own rules: bad input, not a row
        raise CliError(f"{src.name}: {describe_illegal(plan, rep.error)}")
    name = f"{src.name}, after {k} moves" if step is not None or n else src.name
    moves = list(plan.moves[:k])
    if plan.deal is not None:
        return Start(name, deal=plan.deal, moves=moves), plan.deal.rules
    return Start(name, position=plan.position, moves=moves), plan.position.rules


#: The mark of a row with the base's answer whose line found differs in turns or cards out.
OTHER_LINE = "other line"


def differs_mark(row, rows) -> str:
    """The ``differs`` cell of ``row``: ``≠ base`` (its answer provably differs from the base
    row's), ``≠ base?`` (only as far as the limits let the solver see), :data:`OTHER_LINE`
    (the same answer, but the line found takes other turns or cards out), or empty."""
    if row.differs:
        return "≠ base"
    if row.unproven:
        return "≠ base?"
    base = next((r for r in rows if r.base), rows[0])
    if (row is not base and row.error is None and base.error is None
            and (row.turns, row.cards_out) != (base.turns, base.cards_out)):
        return OTHER_LINE
    return ""


@click.command()
@click.argument("position", required=False, metavar="[POSITION]")
@click.option("--seed", type=SEED, default=None, metavar="N", help="Deal number N.")
@click.option("--deal", "deal_file", default=None, metavar="FILE",
              help="A deal file (typed-in deal or record); - is standard input.")
@click.option("--players", type=PLAYERS, default=1, show_default=True, metavar="P",
              help="Players (1-5) with --seed.")
@click.option("--rules", "rule_options", multiple=True, metavar="K=V",
              help="Base rule option (repeatable), for --seed and typed-in deals.")
@click.option("--step", "step", type=STEP, default=None, metavar="K",
              help="For a PLAN: the position after its first K moves (default: all).")
@click.option("--objective", type=click.Choice(OBJECTIVES), default="none", show_default=True,
              help="none: any win; waste: fewest cards out; turns: fewest moves.")
@click.option("--vary", multiple=True, metavar="OPTION[=V1,V2]",
              help="Ruling option to vary (repeatable; default: all of "
                   f"{', '.join(MOVE_RULINGS)}; dealing only with --seed; the Goats options "
                   "and discards_seen when named).")
@click.option("--time-limit", type=SECONDS, default=10.0,
              show_default=True, metavar="S", help="Seconds per solve (unknown when it runs out).")
@click.option("--memory-limit", type=MEMORY_MB, default=DEFAULT_MEMORY_MB,
              show_default="a quarter of this machine's memory",
              metavar="MB", help="Memory of the whole process (128 or more): each solve's "
                                 "table gets what is left.")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"start", "objective", "rows": [...], "partings": [...]}.')
def variants(position: str | None, seed: int | None, deal_file: str | None, players: int,
             rule_options: tuple[str, ...], step: int | None, objective: str, vary: tuple[str, ...],
             time_limit: float, memory_limit: int, as_json: bool) -> None:
    """Solve one deal (or a POSITION, or the position after a PLAN's moves, or after its
    first K with --step) under every combination of rule options: one row each, rows whose
    answer provably differs from the base rules' marked "≠ base" ("≠ base?" where only a
    limit leaves them apart; "other line" where the answer is the base's but the line found
    takes other turns or cards out), and for each proven difference the first position where the
    engine's legal moves under the two rule sets differ, along the better answer's line.
    Turns and cards out count from the start position.

    \b
    Examples:
      ascent variants --seed 1 --players 2 --vary bridge_replace_cost
      ascent variants --seed 11 --rules preset=tiny --rules rows=2 --rules values=3 --rules hand_size=2
      ascent deal --seed 3 --players 2 > d.txt && ascent variants --deal d.txt --vary bridge_replace_cost --json
      ascent solve --seed 3 --rules preset=tiny --record game.json
      ascent variants game.json --step 4 --vary campfire_move_cost
    """
    from studies.variants import parse_vary_options, parting, partings_for, run_variants

    if time_limit != time_limit:
        raise CliError("--time-limit must be a number of seconds, not nan")
    ctx = click.get_current_context()
    players_given = ctx.get_parameter_source("players") != click.core.ParameterSource.DEFAULT
    start, base = _start(position, seed, deal_file, players, rule_options, players_given, step)
    vary_opts = parse_vary_options(vary, start, base)
    rows = run_variants(start, base, vary_opts, objective, time_limit,
                        table_share_mb(memory_limit))
    partings = [parting(start, rows[0], r) for r in partings_for(rows)]
    if as_json:
        click.echo(dumps({"start": start.name, "objective": objective,
                          "base_rules": base.describe(), "varied": list(vary_opts),
                          "rows": [r.to_json() for r in rows],
                          "partings": [p.to_json() for p in partings]}))
        return
    out = console()
    whole = " (the whole plan; --step K starts earlier)" if start.moves and step is None else ""
    t = Table(title=f"{start.name}{whole}: {base.describe()}, objective {objective}, "
                    f"{time_limit:g} s per solve", title_justify="left")
    for k in vary_opts:
        t.add_column(k.replace("_", "\n"))
    for h in ("verdict", "value" if objective != "none" else None, "turns", "cards out",
              "seconds", "differs"):
        if h:
            t.add_column(h, justify="right" if h not in ("verdict", "differs") else "left")
    marks = [differs_mark(r, rows) for r in rows]
    for r, mark in zip(rows, marks):
        verdict = r.verdict if r.error is None else f"error: {r.error}"
        if r.verdict == "win" and objective != "none" and not r.optimal:
            verdict += " (best found)"
        cells = [r.options[k] + (" (base)" if r.base and k == next(iter(vary_opts)) else "")
                 for k in vary_opts]
        cells += [verdict] + ([str(r.value) if r.value is not None else "-"] if objective != "none" else [])
        cells += [str(r.turns) if r.turns is not None else "-",
                  str(r.cards_out) if r.cards_out is not None else "-", f"{r.seconds:.2f}",
                  mark]
        t.add_row(*cells, style="bold" if r.differs else None)
    out.print(t)
    out.print("turns and cards out: of the line found, counted from the start position"
              + (f" ({start.name})" if start.moves else "") + ".", highlight=False)
    if OTHER_LINE in marks:
        out.print(f"{OTHER_LINE}: the base's answer, by a line found with other turns or cards "
                  "out" + (" (neither is optimised with --objective none; --objective waste or "
                           "turns compares them)" if objective == "none" else " (the objective's "
                           "value is the same)") + ".", highlight=False)
    if any(r.unproven for r in rows):
        out.print("≠ base?: the answers differ only as far as the limits let the solver see (an "
                  "unknown, or values not proven optimal); not a proven difference — give a "
                  "longer --time-limit.", highlight=False)
    if not partings:
        if any(r.differs for r in rows):
            out.print("The rows marked ≠ base cannot be set up under their rules (see the error): "
                      "there is no line to compare.", highlight=False)
        elif len(rows) > 1 and all(r.verdict == "unknown" for r in rows if r.error is None):
            out.print("No rule set was decided within the limit: give a longer --time-limit.")
        elif len(rows) > 1 and not any(r.unproven for r in rows):
            out.print("Every rule set gives the base's answer.")
    for p in partings:
        changed = [k for k in p.a if p.a[k] != p.b.get(k)]
        a = " ".join(f"{k}={p.a[k]}" for k in changed)
        b = " ".join(f"{k}={p.b[k]}" for k in changed)
        out.print(Text(f"\nWhere {a} and {b} part:", style="bold"))
        if p.step is None:
            out.print(p.note)
            continue
        g = p.game
        line = f"after {p.step} move(s) of the line found under {a}" + (
            " from the start position" if start.moves else "")
        if p.line_move is not None:
            mark = " (legal under this rule set only)" if p.line_move_only_a else ""
            line += f"; its next move: {g.move_text(p.line_move)}{mark}"
        out.print(line, highlight=False)
        for label, ms in ((a, p.only_a), (b, p.only_b)):
            shown = " | ".join(g.move_text(m) for m in ms[:8])  # a move's text has commas
            more = f" … and {len(ms) - 8} more" if len(ms) > 8 else ""
            out.print(f"  legal only under {label}: {shown or 'none'}{more}", highlight=False)
        out.print(render_game(g, title=f"Position after {p.step} move(s)"))
