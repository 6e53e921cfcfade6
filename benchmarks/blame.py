"""Whose move lost a mixed table's game: the open-hand losing move of lost games, by seat.

Usage (one process; run with ``nice``)::

    python -m benchmarks.blame run --games DIR/games.jsonl --table plausible/uct \\
        --base uct/uct --out OUT --count 30 --time-per-move 5 --game-seconds 90
    python -m benchmarks.blame report --out OUT

``run`` takes the games of ``--table`` (rows of :mod:`benchmarks.mixed`) that were lost on
deals where ``--base`` won (so the deal was winnable in play, not only with open hands), in
seed order, at most ``--count`` of them, and analyses each with ``ascent analyse``'s
engine (:func:`solver.analysis.analyse`, objective ``none``: every hand and deck known,
every seat cooperating). Where the losing move is named (the last position won with open
hands before the first one lost), it records the seat that made it, that seat's variant,
and whether the move was the blueprint's first choice (:class:`bots.greedy.GreedyPolicy` in
the real position): for a stand-in for people, a move that is not is one of its departures.
Where only a window is found (a limit left positions unknown), it records the window and
which seats moved in it. One row per game is appended to ``OUT/blame.jsonl`` as it is
analysed, so an interrupted run resumes; ``report`` writes ``OUT/report.md``.

This measures which side of the team's gap is wrong: a game lost by a stand-in's departure
from which no play of the others, even with open hands, could recover, is out of reach of
any team-mate; a game lost by a team-mate's move is what a better team-mate could win. The
limits are wall seconds of ``analyse`` (``--time-per-move`` a position, ``--game-seconds`` a
game), so the named share depends on the machine and its load: report both.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.journal import append_row, read_rows
from benchmarks.mixed import parse_table
from benchmarks.solve import write_whole


def _lost_games(games: Path, table: str, base: str) -> list[dict[str, Any]]:
    rows = read_rows(games)
    won_by_base = {(r["players"], r["seed"]) for r in rows
                   if r["table"] == base and r["outcome"] == "win"}
    return sorted((r for r in rows if r["table"] == table and r["outcome"] != "win"
                   and (r["players"], r["seed"]) in won_by_base),
                  key=lambda r: (r["players"], r["seed"]))


def blame_game(row: dict[str, Any], time_per_move: float, game_seconds: float,
               rules: Any = None) -> dict[str, Any]:
    """Analyse one lost game of a :mod:`benchmarks.mixed` row (its deal from the seed, its
    moves from the plan; ``rules``: a :class:`model.rules.RuleSet`, default the standard
    game, as :mod:`benchmarks.mixed` plays) and say whose move lost it (module docstring).
    Returns the row to
    record: ``seed``, ``players``, ``moves``, ``losing_move`` (counted from 1, or ``None``),
    ``window`` (``[first, last]`` or ``None``), ``seat`` (1-based, of the losing move),
    ``variant`` (of that seat), ``first_choice`` (the move was the blueprint's first choice),
    ``window_seats`` (the seats that moved in the window), ``window_departures`` (the seats
    that played other than the blueprint's first choice in it), ``seconds``."""
    from bots.greedy import GreedyPolicy
    from model.deal import Deal
    from model.moves import Move
    from solver.analysis import analyse, positions_of

    deal = (Deal.from_seed(row["seed"], row["players"]) if rules is None
            else Deal.from_seed(row["seed"], row["players"], rules))
    moves = [Move.from_json(m, k) for k, m in enumerate(row["plan"], start=1)]
    t0 = time.monotonic()
    a = analyse(deal, moves, "none", time_per_move=time_per_move, time_limit=game_seconds)
    seconds = round(time.monotonic() - t0, 1)
    variants = [row["seat1"]] + [row["partners"]] * (row["players"] - 1)
    out: dict[str, Any] = {"table": row["table"], "players": row["players"],
                           "seed": row["seed"], "moves": len(moves),
                           "losing_move": a.losing_move,
                           "window": list(a.window) if a.window else None,
                           "start": a.positions[0].verdict, "seconds": seconds}
    if a.losing_move is not None:
        k = a.losing_move
        move = moves[k - 1]
        before = positions_of(deal, moves[:k - 1])[-1]
        out["seat"] = move.player
        out["variant"] = variants[move.player - 1]
        out["first_choice"] = GreedyPolicy().move(before, before.out) == move
        out.update(_ranks(before, move))
    elif a.window is not None:
        first, last = a.window
        out["window_seats"] = sorted({moves[j - 1].player for j in range(first, last + 1)})
        games = positions_of(deal, moves[:last])
        policy = GreedyPolicy()
        out["window_departures"] = sorted({
            moves[j - 1].player for j in range(first, last + 1)
            if policy.move(games[j - 1], games[j - 1].out) != moves[j - 1]})
    return out


def _ranks(before: Any, played: Any, node_limit: int = 200_000) -> dict[str, Any]:
    """Where the move played and the winning moves stand in the blueprint's ranking of the
    position ``before`` the losing move (1-based ranks of :meth:`bots.greedy.GreedyPolicy.
    ranked`: each placement with its cheapest payment and the best discard turn): which of
    them still win with open hands (each solved from the position after it, ``node_limit``
    nodes; ``unknown_ranks`` where the limit ran out). A winning move ranked within the
    search's candidates (``uct``: the best 5) was in reach of a search that looked at it."""
    from bots.greedy import GreedyPolicy
    from solver.exhaustive import solve

    ranked = [m for _, m in GreedyPolicy().ranked(before, before.out)]
    wins, unknown = [], []
    for rank, m in enumerate(ranked, start=1):
        child = before.copy()
        child.push(m)
        verdict = solve(child, node_limit=node_limit, lns=False).verdict
        if verdict == "win":
            wins.append(rank)
        elif verdict == "unknown":
            unknown.append(rank)
    return {"played_rank": ranked.index(played) + 1 if played in ranked else None,
            "ranked": len(ranked), "winning_ranks": wins, "unknown_ranks": unknown}


def run(games: Path, table: str, base: str, out: Path, count: int, time_per_move: float,
        game_seconds: float) -> None:
    """Analyse the lost games not yet in ``out/blame.jsonl`` (module docstring)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "blame.jsonl"
    done = {(r["table"], r["players"], r["seed"]) for r in read_rows(path)}
    for row in _lost_games(games, table, base)[:count]:
        if (row["table"], row["players"], row["seed"]) in done:
            continue
        append_row(path, blame_game(row, time_per_move, game_seconds))


def report(out: Path) -> str:
    """A Markdown table per table: lost games analysed, losing move named, and by whom."""
    rows = read_rows(out / "blame.jsonl")
    lines = ["| table | lost games analysed | lost from the start | losing move named "
             "| by seat 1 | of which not the blueprint's first choice | by a team-mate "
             "| of which not the blueprint's first choice "
             "| window only | seat 1 departed in the window | only seat 1 departed in it "
             "| median s a game |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for table in sorted({r["table"] for r in rows}):
        rs = [r for r in rows if r["table"] == table]
        named = [r for r in rs if r["losing_move"] is not None]
        by1 = [r for r in named if r["seat"] == 1]
        byo = [r for r in named if r["seat"] != 1]
        win = [r for r in rs if r["losing_move"] is None and r["window"]]
        secs = sorted(r["seconds"] for r in rs)
        lines.append(
            f"| {table} | {len(rs)} | {sum(r['start'] == 'loss' for r in rs)} | {len(named)} "
            f"| {len(by1)} | {sum(not r['first_choice'] for r in by1)} | {len(byo)} "
            f"| {sum(not r['first_choice'] for r in byo)} | {len(win)} "
            f"| {sum(1 in r['window_departures'] for r in win)} "
            f"| {sum(r['window_departures'] == [1] for r in win)} "
            f"| {secs[len(secs) // 2] if secs else 0} |")
    kinds = Counter((r["table"], r.get("variant"), r.get("first_choice")) for r in rows
                    if r["losing_move"] is not None)
    lines += ["", "Named losing moves by (table, variant of the seat, blueprint's first choice): "
              + ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items(), key=str)) + "."]
    for table in sorted({r["table"] for r in rows}):
        ranked = [r for r in rows if r["table"] == table and r.get("winning_ranks") is not None]
        if not ranked:
            continue
        top5 = sum(bool(r["winning_ranks"]) and min(r["winning_ranks"]) <= 5 for r in ranked)
        beyond = sum(bool(r["winning_ranks"]) and min(r["winning_ranks"]) > 5 for r in ranked)
        none = sum(not r["winning_ranks"] for r in ranked)
        lines += ["", f"{table}: before the {len(ranked)} named losing moves, the best-ranked "
                  f"winning move (open hands) was among the blueprint's best 5 in {top5}, "
                  f"ranked lower in {beyond}, and no ranked move was proven to win in {none} "
                  "(a winning move may pay otherwise than the cheapest way or discard other "
                  "cards, or a limit left it unknown)."]
    text = "\n".join(lines) + "\n"
    write_whole(out / "report.md", text)
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.blame")
    ap.add_argument("command", choices=("run", "report"))
    ap.add_argument("--games", type=Path, help="run: a benchmarks.mixed games.jsonl")
    ap.add_argument("--table", default="plausible/uct")
    ap.add_argument("--base", default="uct/uct")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--time-per-move", type=float, default=5.0)
    ap.add_argument("--game-seconds", type=float, default=90.0)
    a = ap.parse_args(argv)
    if a.command == "report":
        if not (a.out / "blame.jsonl").exists():
            print(f"error: no {a.out / 'blame.jsonl'} to report", file=sys.stderr)
            return 2
        try:
            print(report(a.out), end="")
        except (KeyError, TypeError) as exc:
            print(f"error: {a.out / 'blame.jsonl'} is not a benchmarks.blame journal ({exc!r})",
                  file=sys.stderr)
            return 2
        return 0
    if a.out.exists() and not a.out.is_dir():
        print(f"error: --out must be a directory, not the file {a.out}", file=sys.stderr)
        return 2
    try:
        parse_table(a.table)
        parse_table(a.base)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if a.games is None or not a.games.is_file():
        print(f"error: --games must be a benchmarks.mixed games.jsonl, not {a.games}",
              file=sys.stderr)
        return 2
    if a.count < 1 or not a.time_per_move > 0 or not a.game_seconds > 0:
        print("error: --count must be ≥ 1 and the seconds > 0", file=sys.stderr)
        return 2
    try:
        run(a.games, a.table, a.base, a.out, a.count, a.time_per_move, a.game_seconds)
    except KeyError as exc:
        print(f"error: {a.games} is not a benchmarks.mixed games.jsonl ({exc})", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot write to --out {a.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(report(a.out), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
