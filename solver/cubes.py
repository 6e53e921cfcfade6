"""Cube-and-conquer (issue 39 step 6): split a proof into independent sub-positions (cubes),
solve each with the ordinary DFS (:func:`solver.exhaustive.solve`), merge the verdicts
soundly. This module holds the split, the per-cube task and the merge; it imports no Dask
(the layers keep Dask in :mod:`studies`): :func:`solve_cubes` takes a ``mapper`` that runs
the cube tasks, sequentially in this process by default, on Dask workers through
:func:`studies.cubes.dask_mapper`.

The game is cooperative with every card known (one planner plays every seat), so a position
is won iff one of its moves leads to a won position, lost iff every move does:

* **split**: breadth-first from the root, expand the shallowest open cube into its legal
  moves until there are ``cubes`` open cubes, ``max_plies`` plies, or the deadline. Equal
  positions (:meth:`model.game.Game.key`) are one cube (the cheaper path kept: the waste
  still to spend depends only on the position). A child already won or lost is closed at
  once.
* **conquer**: each open cube is solved from its position, cheapest path first, a task
  drawn only when a worker is free; ``node_limit`` is shared out (the sum over cubes never
  exceeds it) and ``time_limit`` is one deadline for the whole answer (no cube starts after
  it). With objective ``waste`` a cube whose path cost alone already reaches the
  incumbent's waste is closed without a search (waste never goes down along a line), and a
  cube started once a win is known looks only for a cheaper win (:func:`solve_below`).
  By default objective ``waste`` runs the bound-raising schedule instead (the root's
  beams, then the lowest cube bound raised one card at a time: :func:`solve_cubes`).
* **merge** (:func:`merge`): a loss needs every cube proven lost; a win needs one cube's win,
  replayed by :mod:`model` from the ROOT (path + continuation) before it is returned. The
  waste optimum is proven when the best win's waste is ≤ every other cube's proven lower
  bound (path cost + the cube's bound). A cube that ran out makes the answer ``unknown``
  (or a win not proven optimal) with the proven bound the minimum over cubes, and never
  below the root's static bound.
"""
from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.records import replay
from solver.budget import Budget
from solver.result import LOSS, OBJECTIVES, UNKNOWN, WIN, SolveResult, checked_plan

#: a mapper runs ``fn`` on every task of an iterable, drawing a task only when a worker is
#: free for it (so that a task drawn later sees a better incumbent, and none is drawn after
#: the deadline), and yields ``(k, result)`` as each finishes, ``k`` the task's place in the
#: order drawn. A source may yield ``None`` for "nothing to start until a task in flight
#: comes back" (only while one is in flight); the mapper then draws again after the next
#: result
Mapper = Callable[[Callable[[dict], dict], Iterable[dict | None]], Iterator[tuple[int, dict]]]


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


def split(start: Deal | Game, cubes: int, max_plies: int = 8,
          deadline: float | None = None) -> list[Cube]:
    """Expand ``start`` breadth-first, one open cube at a time (the shallowest first, moves in
    :meth:`Game.legal_moves` order), until there are at least ``cubes`` open cubes, none is
    shallower than ``max_plies`` plies, or the wall clock (:func:`time.time`) passes
    ``deadline``. So there are fewer than ``cubes`` + (the widest position's moves) open
    cubes. Returns every leaf cube, open and closed, in a deterministic order (the closed
    ones, then the open ones breadth-first).

    Equal positions (:meth:`Game.key`) are one cube, the cheaper path kept (the waste still
    to spend depends only on the position); a cheaper path to a position already expanded
    becomes a cube of its own (its subtree is searched again, at the lower cost).

    ``cubes`` ≥ 1 (1 gives the root alone). Raises ``ValueError`` for ``cubes`` < 1 or
    ``max_plies`` < 0."""
    if cubes < 1 or max_plies < 0:
        raise ValueError(f"cubes must be ≥ 1 and max_plies ≥ 0, not {cubes}, {max_plies}")
    root = root_game(start)
    base = len(root.out)
    first = Cube([], root, 0, _closed(root))
    queue: deque[Cube] = deque([first] if first.status == "open" else [])
    closed: list[Cube] = [] if first.status == "open" else [first]
    leaf: dict[tuple, Cube] = {root.key(): first}  # position → its leaf cube
    expanded: dict[tuple, int] = {}  # position → path cost it was expanded at
    while queue and len(queue) < cubes:
        if len(queue[0].moves) >= max_plies or (deadline is not None and time.time() >= deadline):
            break
        c = queue.popleft()
        k0 = c.game.key()
        del leaf[k0]
        expanded[k0] = c.cost
        for m in c.game.legal_moves():
            g = c.game.copy()
            g.push(m)
            child = Cube(c.moves + [m], g.copy(), len(g.out) - base, _closed(g))
            k = g.key()
            old = leaf.get(k)
            if old is not None:  # one leaf per position, the cheaper path kept
                if child.cost < old.cost:
                    old.moves, old.game, old.cost = child.moves, child.game, child.cost
                continue
            if k in expanded and expanded[k] <= child.cost:
                continue  # searched below already, at no greater cost
            leaf[k] = child
            (queue if child.status == "open" else closed).append(child)
    return closed + list(queue)


def _closed(g: Game) -> str:
    if g.is_won():
        return WIN
    if g.is_lost() or not g.legal_moves():
        return LOSS
    return "open"


def solve_cube(task: dict) -> dict:
    """The per-cube task (runs on a worker): ``task`` = ``{"game": Game, "objective": str,
    "deadline": epoch seconds (time.time()) | None, "node_limit": n | None,
    "memory_limit_mb": MB, "cap": waste | None}``. Returns ``{"answer": CubeAnswer,
    "cpu": CPU seconds, "interrupted": bool}``.

    Without ``cap`` the cube is solved by :func:`solver.exhaustive.solve`. With ``cap``
    (objective ``waste``: the incumbent's waste less the cube's path cost) only a win
    cheaper than ``cap`` is looked for (:func:`solve_below`). A deadline already passed
    gives ``unknown`` without a search."""
    c0 = time.process_time()
    left = None if task["deadline"] is None else task["deadline"] - time.time()
    if left is not None and left <= 0:
        return {"answer": CubeAnswer(UNKNOWN), "cpu": 0.0, "interrupted": False}
    if task.get("cap") is not None:
        try:
            ans = solve_below(task["game"], task["cap"], left, task["node_limit"],
                              task["memory_limit_mb"])
        except KeyboardInterrupt:
            return {"answer": CubeAnswer(UNKNOWN), "cpu": time.process_time() - c0,
                    "interrupted": True}
        return {"answer": ans, "cpu": time.process_time() - c0, "interrupted": False}
    from solver.exhaustive import solve

    r = solve(task["game"], task["objective"], time_limit=left,
              node_limit=task["node_limit"], memory_limit_mb=task["memory_limit_mb"],
              furthest="off", lns=False)
    ans = CubeAnswer(r.verdict, r.value, r.optimal, r.bound, list(r.continuation),
                     int(r.stats.get("nodes", 0)))
    return {"answer": ans, "cpu": time.process_time() - c0,
            "interrupted": bool(r.stats.get("interrupted"))}


def solve_below(game: Game, cap: int, time_limit: float | None, node_limit: int | None,
                memory_limit_mb: int = 1024) -> CubeAnswer:
    """The cheapest win from ``game`` (a fully known position) if one costs less than ``cap``
    cards of waste (counted from ``game``), else a proof that none does: the bottom-up and
    top-down searches of :func:`solver.frontier.improve` with ``cap`` as a virtual
    incumbent (no beams: the incumbent is another cube's win).

    Returns a :class:`CubeAnswer`: ``win`` (``optimal`` when the search finished; else
    ``bound`` is what the table proves); ``unknown`` with ``bound`` ≥ ``cap`` when no win
    costs less than ``cap`` (whether or not one exists at all: a loss is never claimed);
    ``unknown`` with a smaller ``bound`` when a limit ran out first. ``time_limit`` in
    seconds and ``node_limit`` in nodes cover the whole call. Raises ``KeyboardInterrupt``
    on Ctrl-C."""
    from solver.exhaustive import Search, core_will_run, table_entries_for
    from solver.frontier import improve
    from solver.state import Stop, Switches

    sw = Switches()
    sw.table_size = table_entries_for(memory_limit_mb, core_will_run(sw))
    deadline = None if time_limit is None else time.monotonic() + time_limit
    s = Search(game, "waste", sw, deadline, node_limit)
    start = s.snapshot()
    best: list[tuple] = []
    value = cap
    finished = False
    try:
        best, value = improve(s, [], cap)
        finished = True
    except Stop:
        s.path.clear()
        s.restore(start)
        line = list(s.win_line)
        if line and s.line_cost(line) < cap:
            best, value = line, s.line_cost(line)
    bound = s.root_bound()
    if not best:
        return CubeAnswer(UNKNOWN, bound=max(bound, cap) if finished else bound,
                          nodes=s.nodes)
    moves = s.to_moves(best)
    return CubeAnswer(WIN, value, finished, value if finished else min(bound, value),
                      moves, s.nodes)


def raise_cube(task: dict) -> dict:
    """The per-cube task of the bound-raising schedule (runs on a worker): ``task`` =
    ``{"game": Game, "budget": the cube's proven lower bound b, "ceiling": c, "top": T |
    None, "deadline": epoch seconds | None, "node_limit": n | None, "memory_limit_mb": MB}``.
    Let b' = max(b, the position's static bound).

    * Bottom-up (``top`` None): ask the exact DFS "is there a win of waste ≤ b'?" for b' =
      b', b' + 1, … up to ``ceiling`` in one table. No win proves b' + 1; a win is the
      cube's optimum (nothing cheaper exists there).
    * Top-down (``top`` = T ≥ b'): ask "is there a win of waste ≤ T?" once. A win improves
      the incumbent (optimal when it costs b'); none proves T + 1.
    * The root's wide beams (``task = {"game": the root, "wide_beams": the incumbent's
      moves, "deadline", "node_limit"}``): :func:`root_beams` with ``wide``; a win is not
      proven optimal (``bound`` 0).

    Returns ``{"answer": CubeAnswer, "cpu": CPU seconds, "interrupted": bool, "ran_out":
    bool}``: ``win`` (its continuation, ``bound`` b' or its value) or ``unknown`` with the
    bound proven (b' when a limit ran out before any budget finished). Never claims a loss."""
    from solver.exhaustive import Search, core_will_run, table_entries_for
    from solver.state import Stop, Switches

    c0 = time.process_time()

    def out(ans: CubeAnswer, interrupted: bool = False, ran_out: bool = False) -> dict:
        return {"answer": ans, "cpu": time.process_time() - c0, "interrupted": interrupted,
                "ran_out": ran_out}

    if "wide_beams" in task:  # the root's wide beams: a win cheaper than the incumbent
        moves, value, nodes, stopped = root_beams(task["game"], task["deadline"],
                                                  task["node_limit"], True, task["wide_beams"])
        if moves is None:
            return out(CubeAnswer(UNKNOWN, nodes=nodes), interrupted=stopped)
        return out(CubeAnswer(WIN, value, False, 0, moves, nodes), interrupted=stopped)

    left = None if task["deadline"] is None else task["deadline"] - time.time()
    if left is not None and left <= 0:
        return out(CubeAnswer(UNKNOWN, bound=task["budget"]), ran_out=True)
    sw = Switches()
    sw.table_size = table_entries_for(task["memory_limit_mb"], core_will_run(sw))
    s = Search(task["game"], "waste", sw, None if left is None else time.monotonic() + left,
               task["node_limit"])
    b = max(task["budget"], s.root_bound())
    top = task.get("top")
    budget = b if top is None else top
    try:
        while True:
            if budget < b:  # top-down below the proven bound: nothing to ask
                return out(CubeAnswer(UNKNOWN, bound=b, nodes=s.nodes))
            if s.dfs(budget):
                v = s.line_cost(s.win_line)
                if v < b:  # b was proven: a cheaper win would be a false bound
                    raise AssertionError(f"a win of waste {v} below the proven bound {b}")
                return out(CubeAnswer(WIN, v, v <= b, b, s.to_moves(s.win_line), s.nodes))
            b = max(budget + 1, b)
            if top is not None or b > task.get("ceiling", -1):  # no ceiling: one budget
                return out(CubeAnswer(UNKNOWN, bound=b, nodes=s.nodes))
            budget = b
    except Stop:
        return out(CubeAnswer(UNKNOWN, bound=b, nodes=s.nodes), ran_out=True)
    except KeyboardInterrupt:
        return out(CubeAnswer(UNKNOWN, bound=b, nodes=s.nodes), interrupted=True)


def root_beams(start: Deal | Game, deadline: float | None, node_limit: int | None,
               wide: bool = False, best: list[Move] | None = None
               ) -> tuple[list[Move] | None, int | None, int, bool]:
    """The search's beams from the root, within ``deadline`` (epoch seconds) and
    ``node_limit``: the default beams (:data:`solver.beam.DEFAULT_BEAM_SCHEDULE`: the
    bound-raising schedule's first phase), or the wide ones (``wide``:
    :data:`solver.beam.WIDE_BEAM_SCHEDULE`, a task of its second phase) looking for a win
    cheaper than ``best`` (moves from the root). Returns (the best win's moves or ``None``,
    its waste or ``None``, nodes spent, whether Ctrl-C stopped it); a limit or Ctrl-C that
    stops the beams keeps the wins found."""
    from solver.beam import DEFAULT_BEAM_SCHEDULE, WIDE_BEAM_SCHEDULE
    from solver.exhaustive import Search
    from solver.state import Switches

    left = None if deadline is None else deadline - time.time()
    if (left is not None and left <= 0) or node_limit == 0:
        return None, None, 0, False
    s = Search(root_game(start), "waste", Switches(table_size=1 << 16),
               None if left is None else time.monotonic() + left, node_limit)
    try:
        line = s.beams(WIDE_BEAM_SCHEDULE if wide else DEFAULT_BEAM_SCHEDULE,
                       None if best is None else s.from_moves(best))
    except KeyboardInterrupt:
        line, s.interrupted = None, True
    if line is not None and best is not None and s.line_cost(line) >= s.line_cost(
            s.from_moves(best)):
        line = None  # nothing cheaper than the incumbent given
    if line is None:
        return None, None, s.nodes, s.interrupted
    return s.to_moves(line), s.line_cost(line), s.nodes, s.interrupted


#: Nodes of a cube's first top-down slice in the bound-raising schedule; a slice that runs
#: out doubles that cube's next one (as :data:`solver.frontier.FIRST_SLICE` at the root).
TOP_SLICE = 4096


def _raise_bounds(all_cubes: list[Cube], open_ix: list[int], answers: list[CubeAnswer | None],
                  incumbent: int, deadline: float | None, node_limit: int | None,
                  memory_limit_mb: int, mapper: Mapper, stats: dict[str, Any],
                  top_down: bool = False, wide_beams: bool = True, root: Game | None = None,
                  root_win: list[Move] | None = None) -> tuple[list[Move], int] | None:
    """The second phase of the bound-raising schedule (:func:`raise_cube`), the bottom-up and
    top-down proof of :func:`solver.frontier.improve` spread over the cubes: tasks are drawn
    when a worker is free. A bottom-up task raises the cube with the lowest proven bound
    (path cost + its bound) up to the next cube's level in one table; with ``top_down``,
    every other task is top-down instead (the lowest cube not in flight asked for a win
    below the incumbent, on a node slice that doubles each time it runs out); with
    ``wide_beams``, the second task drawn is the ``root``'s wide beams below the incumbent
    ``root_win`` (moves from the root), on half the time and nodes left, as in
    :meth:`solver.exhaustive.Search.run`. It ends when every open cube's bound reaches the
    best win (``incumbent``, from the root's beams or a cube), a limit runs out, or Ctrl-C
    (``stats["interrupted"]``; what finished is kept, the wide beams' win included).

    Fills ``answers`` in place: a cube's best win with its proven bound, else its proven
    bound. Returns the wide beams' win (moves, waste) if it is cheaper than ``incumbent``,
    else ``None``."""
    lb = {i: 0 for i in open_ix}
    win: dict[int, CubeAnswer] = {}  # the best win found in each cube
    top_slice = {i: TOP_SLICE for i in open_ix}
    state: dict[int, str] = {}  # cube → "flight" | "done" | "stalled"
    drawn: list[tuple[int, bool]] = []  # (cube, top-down) of each task drawn
    allotted: list[int] = []
    spent = reserved = 0
    best = incumbent
    found: tuple[list[Move], int] | None = None

    def level(j: int) -> int:
        return all_cubes[j].cost + lb[j]

    def tasks() -> Iterator[dict | None]:
        nonlocal reserved
        while True:
            if deadline is not None and time.time() >= deadline:
                return
            cand = sorted((i for i in open_ix if i not in state and level(i) < best),
                          key=lambda j: (level(j), all_cubes[j].cost, j))
            flying = sum(v == "flight" for v in state.values())
            n: int | None = None
            if node_limit is not None:
                n = (node_limit - spent - reserved) // max(1, len(cand))
            if not cand or n == 0:
                if not flying:
                    return
                yield None  # nothing to start until a task in flight comes back
                continue
            if wide_beams and root is not None and -1 not in state and len(drawn) == 1:
                now = time.time()
                half = None if n is None else max(1, n * len(cand) // 2)  # of the free nodes
                state[-1] = "flight"
                drawn.append((-1, True))
                allotted.append(half or 0)
                reserved += half or 0
                yield {"game": root, "wide_beams": root_win, "node_limit": half,
                       "deadline": None if deadline is None else now + (deadline - now) / 2}
                continue
            i = cand[0]
            top = top_down and len(drawn) % 2 == 1
            cost = all_cubes[i].cost
            task: dict[str, Any] = {"game": all_cubes[i].game, "budget": lb[i],
                                    "deadline": deadline, "memory_limit_mb": memory_limit_mb}
            if top:
                task["top"] = best - 1 - cost
                n = top_slice[i] if n is None else min(n, top_slice[i])
            else:  # up to the next cube's level, below the best win
                nxt = level(cand[1]) if len(cand) > 1 else best - 1
                task["ceiling"] = min(best - 1, nxt) - cost
            task["node_limit"] = n
            state[i] = "flight"
            drawn.append((i, top))
            allotted.append(n or 0)
            reserved += n or 0
            yield task

    try:
        for k, out in mapper(raise_cube, tasks()):
            i, top = drawn[k]
            a: CubeAnswer = out["answer"]
            spent += a.nodes
            reserved -= allotted[k]
            stats["solved"] += 1
            stats["nodes"] += a.nodes
            stats["cpu_seconds"] += out["cpu"]
            if i == -1:  # the root's wide beams: once
                state[-1] = "done"
                if a.verdict == WIN and a.value is not None and a.value < best:
                    best, found = a.value, (list(a.continuation), a.value)
                if out["interrupted"]:
                    raise KeyboardInterrupt
                continue
            raised = (a.bound or 0) > lb[i]
            lb[i] = max(lb[i], a.bound or 0)
            if a.verdict == WIN and a.value is not None:
                if i not in win or a.value < (win[i].value or 0):
                    win[i] = a
                best = min(best, all_cubes[i].cost + a.value)
            if i in win and (win[i].value or 0) <= lb[i]:
                state[i] = "done"  # the cube's optimum
            elif top and out["ran_out"]:
                top_slice[i] *= 2
                del state[i]
            elif out["ran_out"] and not raised:
                state[i] = "stalled"  # a limit ran out at this bound
            else:
                del state[i]
            if out["interrupted"]:
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        stats["interrupted"] = True
    finally:
        for i in open_ix:
            if i in win:
                w = win[i]
                answers[i] = CubeAnswer(WIN, w.value, (w.value or 0) <= lb[i],
                                        min(lb[i], w.value or 0), w.continuation, w.nodes)
            else:
                answers[i] = CubeAnswer(UNKNOWN, bound=lb[i])
    return found


def sequential_mapper(fn: Callable[[dict], dict], tasks: Iterable[dict | None]
                      ) -> Iterator[tuple[int, dict]]:
    """Run the cube tasks one after another in this process (the default mapper), drawing
    each task only when the one before it is done."""
    for i, t in enumerate(tasks):
        if t is None:  # nothing is in flight here: a task source must not wait on itself
            raise RuntimeError("a task source yielded None with no task in flight")
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
    if all_lost and cubes:
        return LOSS, None, None, True, None
    if all_lost:  # no cube at all proves nothing
        return UNKNOWN, None, None, False, None
    if best is None:
        return UNKNOWN, None, None, False, lower if objective == "waste" else None
    if objective != "waste":
        return WIN, best, None, False, None
    assert best_val is not None and lower is not None
    return WIN, best, best_val, best_val <= lower, min(lower, best_val)


def solve_cubes(start: Deal | Game, objective: str = "none", cubes: int = 8,
                time_limit: float | None = None, node_limit: int | None = None,
                memory_limit_mb: int = 1024, mapper: Mapper | None = None,
                max_plies: int = 8, raise_bounds: bool = True,
                top_down: bool = False, wide_beams: bool = True) -> SolveResult:
    """Decide ``start`` (a deal or a fully known position) by cube-and-conquer (see the module
    docstring). ``objective``: ``none`` | ``waste``; ``cubes``: how many open cubes the split
    aims at; ``time_limit`` (s) one deadline for the whole answer (the split included: no
    cube is started after it); ``node_limit`` the nodes of all cubes together (shared out
    evenly); ``memory_limit_mb`` each cube's table; ``mapper``: runs the cube tasks
    (:func:`sequential_mapper` by default; Dask: :func:`studies.cubes.dask_mapper`).

    Objective ``waste``, two schedules:

    * ``raise_bounds`` (the default, when the root's beams or the split find a win): the
      root's beams give the incumbent (:func:`root_beams`, on at most half the node limit),
      then the lowest proven bound over the cubes is raised one card at a time
      (:func:`raise_cube`), so that every worker works where the merged bound is, and a
      cube's first bottom-up win is its optimum. Switches: ``wide_beams`` (on by default: the
      root's wide beams as one task, on half the time left) and ``top_down`` (off by
      default, measured to add nothing: every other task asks the lowest cube for a win
      below the incumbent, on a node slice that doubles);
    * otherwise (no win known, or ``raise_bounds=False``): each cube is solved
      (:func:`solve_cube`), cheapest path first; a cube started once a win is known looks
      only for a cheaper win (:func:`solve_below`).

    Returns a :class:`SolveResult` (``solver="cubes"``; the plan replayed by :mod:`model`
    from the root; ``bound`` never below the root's own static bound; ``stats``: ``cubes``,
    ``open``, ``solved`` (tasks finished), ``capped`` (cubes searched below an incumbent),
    ``schedule`` (``raise`` | ``solve``), ``nodes``, ``cpu_seconds``, ``seconds``,
    ``interrupted``, ``budget``). Ctrl-C keeps what the
    finished cubes proved (and marks ``stats["interrupted"]``). With more than one worker
    the cubes finish in an order the clock decides, so the node counts, and which of two
    equally cheap wins is shown, may differ between runs; the verdict of a finished proof
    and the optimum do not. Raises ``ValueError`` for objective ``turns``, ``cubes`` < 1,
    ``max_plies`` < 0 or ``node_limit`` < 0."""
    if objective not in OBJECTIVES or objective == "turns":
        raise ValueError(f"cubes solve objective none or waste, not {objective!r}")
    if cubes < 1 or max_plies < 0 or (node_limit is not None and node_limit < 0):
        raise ValueError(f"cubes must be ≥ 1, max_plies and node_limit ≥ 0, not {cubes}, "
                         f"{max_plies}, {node_limit}")
    t0 = time.monotonic()
    deadline = time.time() + time_limit if time_limit is not None else None  # wall clock: workers share it
    stats: dict[str, Any] = {"cubes": 0, "open": 0, "solved": 0, "capped": 0,
                             "nodes": 0, "cpu_seconds": 0.0, "interrupted": False}
    beam: tuple[list[Move], int] | None = None
    root = root_game(start)
    # interrupted before the split ends: the root is the one open cube (never "every cube
    # lost" over no cubes)
    all_cubes = [Cube([], root.copy(), 0, _closed(root))]
    try:
        if objective == "waste" and raise_bounds and not root.is_over():
            # first, so that the split cannot take the time the incumbent needs
            moves, value, nodes, stopped = root_beams(
                root, deadline, None if node_limit is None else node_limit // 2)
            stats["nodes"] += nodes
            if moves is not None and value is not None:
                beam = (moves, value)
            if stopped:
                raise KeyboardInterrupt
        all_cubes = split(root, cubes, max_plies, deadline)
    except KeyboardInterrupt:
        stats["interrupted"] = True
    open_ix = [i for i, c in enumerate(all_cubes) if c.status == "open"]
    answers: list[CubeAnswer | None] = [None] * len(all_cubes)
    stats.update(cubes=len(all_cubes), open=len(open_ix))
    incumbent: int | None = None
    if objective == "waste":
        won = [c.cost for c in all_cubes if c.status == WIN]
        incumbent = min(won) if won else None
    if beam is not None:
        incumbent = beam[1] if incumbent is None else min(incumbent, beam[1])
    raising = objective == "waste" and raise_bounds and incumbent is not None
    stats["schedule"] = "raise" if raising else "solve"
    left = None if node_limit is None else node_limit - stats["nodes"]  # after the beams
    if raising and open_ix and not stats["interrupted"]:
        assert incumbent is not None
        wide = _raise_bounds(all_cubes, open_ix, answers, incumbent, deadline, left,
                             memory_limit_mb, mapper or sequential_mapper, stats, top_down,
                             wide_beams, root, None if beam is None else beam[0])
        if wide is not None:
            beam = wide
    elif not raising and open_ix and not stats["interrupted"]:
        _solve_each(all_cubes, open_ix, answers, objective, incumbent, deadline, left,
                    memory_limit_mb, mapper or sequential_mapper, stats)
    verdict, best, value, optimal, bound = merge(objective, all_cubes, answers)
    from_root: list[Move] | None = None
    if beam is not None and (value is None or beam[1] < value):
        # the root's beams won more cheaply than any cube: the cubes' bound still holds
        if verdict == LOSS:
            raise AssertionError("every cube proven lost, yet the root's beams won")
        from_root, value = beam
        verdict, best = WIN, None
        optimal = bound is not None and value <= bound
        bound = value if bound is None else min(bound, value)
    if objective == "waste" and verdict != LOSS:
        root_lb = root_bound(root)
        bound = root_lb if bound is None else max(bound, root_lb)
        if value is not None and value <= bound:
            optimal, bound = True, value
    stats["seconds"] = time.monotonic() - t0
    budget = Budget(node_limit, None if time_limit is None else t0 + time_limit,
                    memory_limit_mb)
    budget.charge("cubes", stats["nodes"], stats["seconds"],
                  "interrupted" if stats["interrupted"] else verdict)
    stats["budget"] = budget.to_stats()
    res = SolveResult(verdict, objective, deal=start if isinstance(start, Deal) else None,
                      solver="cubes", stats=stats,
                      start=start if isinstance(start, Game) else None)
    if verdict == WIN and from_root is not None:
        res.plan = checked_plan(start, from_root, "cubes")
        res.continuation = from_root
        res.value, res.optimal, res.bound = value, optimal, bound
    elif verdict == WIN and best is not None:
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


def root_bound(start: Deal | Game) -> int:
    """The static lower bound on the waste still to spend from ``start`` (the search's
    bounds at its root, before any search; see :meth:`solver.exhaustive.Search.root_bound`)."""
    from solver.exhaustive import Search
    from solver.state import Switches

    s = Search(root_game(start), "waste", Switches(table_size=1024), None, 0)
    return s.root_bound()


def _solve_each(all_cubes: list[Cube], open_ix: list[int], answers: list[CubeAnswer | None],
                objective: str, incumbent: int | None, deadline: float | None,
                node_limit: int | None, memory_limit_mb: int, mapper: Mapper,
                stats: dict[str, Any]) -> None:
    """The solve-each schedule (objective ``none``; ``waste`` with no win known, or
    ``raise_bounds=False``): each open cube solved by :func:`solve_cube`, cheapest path
    first, ``node_limit`` shared out evenly; with objective ``waste`` a cube drawn once a win
    is known looks only for a cheaper one, and a cube whose path cost alone reaches the
    incumbent is closed without a search. Stops at the first win (``none``), once no open
    cube can hold a cheaper win (``waste``), at the deadline or on Ctrl-C
    (``stats["interrupted"]``). Fills ``answers`` in place."""
    per_cube = None if node_limit is None else max(1, node_limit // max(1, len(open_ix)))
    if node_limit is not None and per_cube is not None and per_cube * len(open_ix) > node_limit:
        per_cube = 0  # more cubes than nodes: nothing can be searched within the limit
    # cheapest paths first: their wins are the likeliest incumbents
    order = sorted(open_ix, key=lambda i: all_cubes[i].cost)
    drawn: list[int] = []  # the cube of each task drawn, in the order drawn

    def tasks() -> Iterator[dict]:
        for i in order:
            if deadline is not None and time.time() >= deadline:
                return  # no cube is started after the deadline
            cap = None
            if objective == "waste" and incumbent is not None:
                if all_cubes[i].cost >= incumbent:
                    continue  # closed below without a search
                cap = incumbent - all_cubes[i].cost
                stats["capped"] += 1
            drawn.append(i)
            yield {"game": all_cubes[i].game, "objective": objective, "deadline": deadline,
                   "node_limit": per_cube, "memory_limit_mb": memory_limit_mb, "cap": cap}

    if per_cube != 0:
        try:
            for k, out in mapper(solve_cube, tasks()):
                i = drawn[k]
                a: CubeAnswer = out["answer"]
                answers[i] = a
                stats["solved"] += 1
                stats["nodes"] += a.nodes
                stats["cpu_seconds"] += out["cpu"]
                if out["interrupted"]:
                    raise KeyboardInterrupt
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


def _settled(cubes: Sequence[Cube], answers: Sequence[CubeAnswer | None], incumbent: int
             ) -> bool:
    """Every unsolved open cube's path cost already reaches ``incumbent``."""
    return all(a is not None or c.status != "open" or c.cost >= incumbent
               for c, a in zip(cubes, answers, strict=True))


__all__ = ["TOP_SLICE", "Cube", "CubeAnswer", "Mapper", "merge", "raise_cube", "root_beams", "root_bound",
           "root_game", "sequential_mapper", "solve_below", "solve_cube", "solve_cubes",
           "split"]
