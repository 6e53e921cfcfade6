"""Cube-and-conquer (issue 39 step 6): split a proof into independent sub-positions (cubes),
solve each with the ordinary DFS (:func:`solver.exhaustive.solve`), merge the verdicts
soundly. This module holds the split, the per-cube task and the merge; it imports no Dask
(the layers keep Dask in :mod:`studies`): :func:`solve_cubes` takes a ``mapper`` that runs
the cube tasks, sequentially in this process by default, on Dask workers through
:func:`studies.cubes.dask_mapper`.

The game is cooperative with every card known (one planner plays every seat), so a position
is won iff one of its moves leads to a won position, lost iff every move does:

* **split**: breadth-first from the root, expand the shallowest open cube into its legal
  moves until there are ``cubes`` open cubes or ``max_plies`` plies. Equal positions
  (:meth:`model.game.Game.key`) are one cube (the cheaper path kept: the waste still to spend
  depends only on the position). A child already won or lost is closed at once.
* **conquer**: each open cube is solved from its position; ``node_limit`` is shared out
  (the sum over cubes never exceeds it) and ``time_limit`` is one deadline for the whole answer.
  With objective ``waste`` a cube whose path cost alone already reaches the incumbent's
  waste is closed without a search (waste never goes down along a line).
* **merge** (:func:`merge`): a loss needs every cube proven lost; a win needs one cube's win,
  replayed by :mod:`model` from the ROOT (path + continuation) before it is returned. The
  waste optimum is proven when the best win's waste is ≤ every other cube's proven lower
  bound (path cost + the cube's bound). A cube that ran out makes the answer ``unknown``
  (or a win not proven optimal) with the proven bound the minimum over cubes.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.records import replay
from solver.result import LOSS, OBJECTIVES, UNKNOWN, WIN, SolveResult, checked_plan

#: a mapper runs ``fn`` on every task and yields ``(index, result)`` as each finishes
Mapper = Callable[[Callable[[dict], dict], Sequence[dict]], Iterator[tuple[int, dict]]]


@dataclass
class Cube:
    """One independent sub-position: ``moves`` from the root (list of
    :class:`~model.moves.Move`), ``game`` the position after them (no history),
    ``cost`` the cards that left the game along ``moves`` (waste), ``status``: ``open`` or
    the verdict it was closed with (``win``/``loss``) by the split."""

    moves: list[Move]
    game: Game
    cost: int
    status: str = "open"


@dataclass
class CubeAnswer:
    """What solving one cube gave (the fields of :class:`SolveResult` the merge needs):
    ``verdict``; ``value``/``optimal``/``bound`` counted from the cube's position;
    ``continuation`` the winning moves from it; ``nodes`` the search nodes spent."""

    verdict: str
    value: int | None = None
    optimal: bool = False
    bound: int | None = None
    continuation: list[Move] = field(default_factory=list)
    nodes: int = 0


def root_game(start: Deal | Game) -> Game:
    """The position ``start`` stands for, as a new :class:`Game` without history."""
    return replay(start, []).game.copy() if isinstance(start, Deal) else start.copy()


def split(start: Deal | Game, cubes: int, max_plies: int = 8) -> list[Cube]:
    """Expand ``start`` breadth-first into at least ``cubes`` open cubes (fewer when the tree
    is smaller than that within ``max_plies`` plies). Returns every cube, open and closed, in
    a deterministic order (breadth-first, moves in :meth:`Game.legal_moves` order).

    ``cubes`` ≥ 1 (1 gives the root alone). Raises ``ValueError`` for ``cubes`` < 1 or
    ``max_plies`` < 0."""
    if cubes < 1 or max_plies < 0:
        raise ValueError(f"cubes must be ≥ 1 and max_plies ≥ 0, not {cubes}, {max_plies}")
    root = root_game(start)
    base = len(root.out)
    frontier: list[Cube] = [Cube([], root, 0, _closed(root))]
    closed: list[Cube] = []
    depth = 0
    while depth < max_plies and sum(c.status == "open" for c in frontier) < cubes:
        opened = [c for c in frontier if c.status == "open"]
        if not opened:
            break
        closed += [c for c in frontier if c.status != "open"]
        seen: dict[tuple, int] = {}
        nxt: list[Cube] = []
        for c in opened:
            for m in c.game.legal_moves():
                g = c.game.copy()
                g.push(m)
                child = Cube(c.moves + [m], g.copy(), len(g.out) - base, _closed(g))
                k = g.key()
                if k in seen:  # one cube per position, the cheaper path kept
                    if child.cost < nxt[seen[k]].cost:
                        nxt[seen[k]] = child
                    continue
                seen[k] = len(nxt)
                nxt.append(child)
        frontier = nxt
        depth += 1
    return closed + frontier


def _closed(g: Game) -> str:
    if g.is_won():
        return WIN
    if g.is_lost() or not g.legal_moves():
        return LOSS
    return "open"


def solve_cube(task: dict) -> dict:
    """The per-cube task (runs on a worker): ``task`` = ``{"game": Game, "objective": str,
    "deadline": epoch seconds (time.time()) | None, "node_limit": n | None, "memory_limit_mb": MB}``. Returns
    ``{"answer": CubeAnswer, "cpu": CPU seconds}``."""
    from solver.exhaustive import solve

    c0 = time.process_time()
    left = None if task["deadline"] is None else max(0.01, task["deadline"] - time.time())
    r = solve(task["game"], task["objective"], time_limit=left,
              node_limit=task["node_limit"], memory_limit_mb=task["memory_limit_mb"],
              furthest="off", lns=False)
    ans = CubeAnswer(r.verdict, r.value, r.optimal, r.bound, list(r.continuation),
                     int(r.stats.get("nodes", 0)))
    return {"answer": ans, "cpu": time.process_time() - c0}


def sequential_mapper(fn: Callable[[dict], dict], tasks: Sequence[dict]
                      ) -> Iterator[tuple[int, dict]]:
    """Run the cube tasks one after another in this process (the default mapper)."""
    for i, t in enumerate(tasks):
        yield i, fn(t)


def merge(objective: str, cubes: Sequence[Cube], answers: Sequence[CubeAnswer | None]
          ) -> tuple[str, int | None, int | None, bool, int | None]:
    """Merge cube answers (``None``: not solved) into ``(verdict, best cube index, value,
    optimal, bound)``, values counted from the root (path cost + the cube's value).

    A loss needs every cube lost; a win needs one; objective ``waste``: the best win is
    optimal iff its waste ≤ every other unlost cube's proven lower bound; ``bound`` is the
    minimum over unlost cubes of their proven lower bounds (the best win's value included)."""
    best: int | None = None
    best_val: int | None = None
    lower: int | None = None
    all_lost = True
    for i, (c, a) in enumerate(zip(cubes, answers, strict=True)):
        verdict = c.status if c.status != "open" else (a.verdict if a is not None else UNKNOWN)
        if verdict == LOSS:
            continue
        all_lost = False
        if c.status == WIN:
            val, lb = c.cost, c.cost
        elif a is not None and verdict == WIN:
            val = c.cost + (a.value or 0)
            lb = val if a.optimal else c.cost + (a.bound or 0)
        else:
            val, lb = None, c.cost + ((a.bound or 0) if a is not None else 0)
        if val is not None and (best_val is None or val < best_val):
            best, best_val = i, val
        lower = lb if lower is None else min(lower, lb)
    if all_lost:
        return LOSS, None, None, True, None
    if best is None:
        return UNKNOWN, None, None, False, lower if objective == "waste" else None
    if objective != "waste":
        return WIN, best, None, False, None
    assert best_val is not None and lower is not None
    return WIN, best, best_val, best_val <= lower, min(lower, best_val)


def solve_cubes(start: Deal | Game, objective: str = "none", cubes: int = 8,
                time_limit: float | None = None, node_limit: int | None = None,
                memory_limit_mb: int = 1024, mapper: Mapper | None = None,
                max_plies: int = 8) -> SolveResult:
    """Decide ``start`` (a deal or a fully known position) by cube-and-conquer (see the module
    docstring). ``objective``: ``none`` | ``waste``; ``cubes``: how many open cubes the split
    aims at; ``time_limit`` (s) one deadline for the whole answer; ``node_limit`` the nodes of
    all cubes together (shared out evenly); ``memory_limit_mb`` each cube's table;
    ``mapper``: runs the cube tasks (:func:`sequential_mapper` by default; Dask:
    :func:`studies.cubes.dask_mapper`).

    Returns a :class:`SolveResult` (``solver="cubes"``; the plan replayed by :mod:`model`
    from the root; ``stats``: ``cubes``, ``open``, ``solved``, ``nodes``, ``cpu_seconds``,
    ``seconds``, ``interrupted``). Ctrl-C keeps what the finished cubes proved (and marks
    ``stats["interrupted"]``). Raises ``ValueError`` for objective ``turns`` or a bad
    ``cubes``."""
    if objective not in OBJECTIVES or objective == "turns":
        raise ValueError(f"cubes solve objective none or waste, not {objective!r}")
    t0 = time.monotonic()
    deadline = time.time() + time_limit if time_limit is not None else None  # wall clock: workers share it
    all_cubes = split(start, cubes, max_plies)
    open_ix = [i for i, c in enumerate(all_cubes) if c.status == "open"]
    answers: list[CubeAnswer | None] = [None] * len(all_cubes)
    per_cube = None if node_limit is None else max(1, node_limit // max(1, len(open_ix)))
    if node_limit is not None and per_cube is not None and per_cube * len(open_ix) > node_limit:
        per_cube = 0  # more cubes than nodes: nothing can be searched within the limit
    stats: dict[str, Any] = {"cubes": len(all_cubes), "open": len(open_ix), "solved": 0,
                             "nodes": 0, "cpu_seconds": 0.0, "interrupted": False}
    incumbent: int | None = None
    if objective == "waste":
        won = [c.cost for c in all_cubes if c.status == WIN]
        incumbent = min(won) if won else None
    if per_cube != 0:
        tasks = [{"game": all_cubes[i].game, "objective": objective,
                  "deadline": deadline,
                  "node_limit": per_cube, "memory_limit_mb": memory_limit_mb}
                 for i in open_ix]
        # cheapest paths first: their wins are the likeliest incumbents
        order = sorted(range(len(open_ix)), key=lambda j: all_cubes[open_ix[j]].cost)
        run = [tasks[j] for j in order]
        try:
            for k, out in (mapper or sequential_mapper)(solve_cube, run):
                i = open_ix[order[k]]
                a: CubeAnswer = out["answer"]
                answers[i] = a
                stats["solved"] += 1
                stats["nodes"] += a.nodes
                stats["cpu_seconds"] += out["cpu"]
                if objective == "none" and a.verdict == WIN:
                    break  # a win needs one cube
                if a.verdict == WIN and a.value is not None:
                    v = all_cubes[i].cost + a.value
                    incumbent = v if incumbent is None else min(incumbent, v)
                if objective == "waste" and incumbent is not None and _settled(
                        all_cubes, answers, incumbent):
                    break
        except KeyboardInterrupt:
            stats["interrupted"] = True
    if objective == "waste" and incumbent is not None:
        for i in open_ix:  # path cost alone reaches the incumbent: no better win below it
            if answers[i] is None and all_cubes[i].cost >= incumbent:
                answers[i] = CubeAnswer(UNKNOWN, bound=incumbent - all_cubes[i].cost)
    verdict, best, value, optimal, bound = merge(objective, all_cubes, answers)
    stats["seconds"] = time.monotonic() - t0
    res = SolveResult(verdict, objective, deal=start if isinstance(start, Deal) else None,
                      solver="cubes", stats=stats,
                      start=start if isinstance(start, Game) else None)
    if verdict == WIN and best is not None:
        c = all_cubes[best]
        got = answers[best]
        moves = c.moves + (list(got.continuation) if got is not None and c.status != WIN else [])
        res.plan = checked_plan(start, moves, "cubes")
        res.continuation = moves
        res.value, res.optimal, res.bound = value, optimal, bound
    elif verdict == LOSS:
        res.optimal = True
    else:
        res.bound = bound
    return res


def _settled(cubes: Sequence[Cube], answers: Sequence[CubeAnswer | None], incumbent: int
             ) -> bool:
    """Every unsolved open cube's path cost already reaches ``incumbent``."""
    return all(a is not None or c.status != "open" or c.cost >= incumbent
               for c, a in zip(cubes, answers, strict=True))


__all__ = ["Cube", "CubeAnswer", "Mapper", "merge", "root_game", "sequential_mapper",
           "solve_cube", "solve_cubes", "split"]
