"""The analysis board: the best next moves of a position and where a game was lost.

* :func:`hint`: every placement of the player to move (a discard-2 turn counts as one),
  rated by the verdict and the best objective value after it, the way a chess engine's
  multi-line view rates moves; when a placement can be paid in several ways, the solver
  picks the way to pay (the best one it finds).
* :func:`analyse`: the verdict before and after every move of a played game, the first move
  after which the game could no longer be won (*the losing move*, with what should have
  been played instead and the winning line from there) and, for ``waste``, the cards each
  move gave away against best play.

Both run on one :class:`~solver.session.Session` (one transposition table for all the
positions of the game). :func:`analyse` walks the game backwards: the last positions are the
smallest searches and their proofs cut the earlier ones; and once a position is a win, every
earlier one is a win too (the game's own moves lead to it), while every position after a
loss is a loss, so for ``none`` few positions need a search of their own (see
:func:`analyse`). A limit that runs out gives ``unknown`` for that position, never a guess.

Values count from the position rated: for :func:`hint`, the value of a move includes the
move's own cost (cards it discards, a Bridge it replaces; ``turns``: 1).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.records import replay
from solver.reasons import (
    LossReason,
    abstraction_reason,
    relaxation_reason,
    search_reason,
    static_reason,
)
from solver.result import LOSS, OBJECTIVES, UNKNOWN, WIN, SolveResult
from solver.session import Session

#: ``hint``: share of the time limit for the position itself (the rest goes to its moves).
ROOT_SHARE = 0.3
VERDICT_ORDER = {WIN: 0, UNKNOWN: 1, LOSS: 2}


def move_cost(game: Game, move: Move, objective: str) -> int:
    """What ``move`` (legal in ``game``) costs under ``objective``: cards it takes out of
    the game (``waste``), 1 (``turns``) or 0 (``none``)."""
    if objective == "turns":
        return 1
    if objective != "waste":
        return 0
    return len(move.discard) + (1 if _onto_bridge(game, move) else 0)


def _onto_bridge(game: Game, move: Move) -> bool:
    if move.kind != "place" or move.card is None or not move.card.is_ascent:
        return False
    under = game.card_at(move.row, move.slot)
    return under is not None and under.is_bridge


def placement_key(move: Move) -> tuple:
    """Moves that differ only in the cards they discard share this key (one placement)."""
    return (move.kind, move.card, move.row, move.slot, move.to_row, move.to_slot)


@dataclass
class MoveRating:
    """One placement of :func:`hint`: ``move`` (with the way to pay the solver chose),
    ``verdict`` after it, ``value`` (the objective from the position rated, this move
    included; ``None`` for ``none`` or without a win), ``optimal`` (``value`` proven best
    for this placement), ``bound`` (proven lower bound, or ``None``), ``line`` (the move
    and the solver's continuation), ``choices`` (ways to pay this placement)."""

    move: Move
    verdict: str
    value: int | None = None
    optimal: bool = False
    bound: int | None = None
    line: list[Move] = field(default_factory=list)
    choices: int = 1
    derived: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move.to_json(), "verdict": self.verdict, "value": self.value,
                "optimal": self.optimal, "bound": self.bound, "choices": self.choices,
                "line": [m.to_json() for m in self.line]}


@dataclass
class Hint:
    """The answer of :func:`hint`: the position's own answer (``verdict``, ``value``,
    ``optimal``, ``bound``, ``best_progress``, ``best_line``: its solve), and ``moves``
    rated best first (only the winning ones unless every move was asked for); ``reason``:
    why a lost position is lost (:class:`solver.reasons.LossReason`, ``None`` otherwise)."""

    position: Game
    objective: str
    verdict: str
    value: int | None
    optimal: bool
    bound: int | None
    best_progress: int
    best_line: list[Move]
    moves: list[MoveRating]
    stats: dict[str, Any]
    reason: LossReason | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"verdict", "objective", "value", "optimal", "bound", "best_progress",
        "moves": [{"move", "verdict", "value", "optimal", "bound", "choices", "line"}, …],
        "reason": {"kind", "text", "specific"} | null, "position", "stats"}`` (moves best
        first)."""
        return {
            "verdict": self.verdict,
            "objective": {"name": self.objective, "value": self.value,
                          "optimal": self.optimal, "counted_from": "position"},
            "bound": self.bound,
            "best_progress": {"slots": self.best_progress,
                              "moves": [m.to_json() for m in self.best_line]},
            "moves": [r.to_json() for r in self.moves],
            "reason": self.reason.to_json() if self.reason is not None else None,
            "position": self.position.to_position(),
            "stats": self.stats,
        }


def _sort_key(r: MoveRating, order: int) -> tuple:
    value = r.value if r.value is not None else (r.bound if r.bound is not None else 1 << 30)
    return (VERDICT_ORDER[r.verdict], value, order)


def hint(game: Game, objective: str = "none", time_limit: float | None = 10.0,
         all_moves: bool = False, session: Session | None = None,
         memory_limit_mb: int = 2048) -> Hint:
    """Rate the moves of the player to move in ``game`` (a fully known position).

    The position is solved first (``ROOT_SHARE`` of ``time_limit`` seconds; ``None``: no
    limit); then each placement, its ways to pay tried in the engine's order (``none``:
    until one wins; otherwise all, keeping the best value), with an equal share of what is
    left of the time. A lost position needs no more search: every move loses (with
    ``all_moves`` they are listed as such). ``session``: reuse a search (same game).
    Raises ``ValueError`` for an unknown objective.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    t0 = time.monotonic()
    deadline = t0 + time_limit if time_limit is not None else None
    session = session or Session(game, objective, memory_limit_mb)
    nodes = 0

    def left() -> float | None:
        return None if deadline is None else max(0.01, deadline - time.monotonic())

    # Ctrl-C or SIGTERM: the hint stops and returns what it has (stats["interrupted"])
    root = session.solve(game, None if time_limit is None else time_limit * ROOT_SHARE,
                         pass_interrupt=False)
    interrupted = bool(root.stats.get("interrupted"))
    nodes += root.stats.get("nodes", 0)
    groups: dict[tuple, list[Move]] = {}
    for mv in game.legal_moves():
        groups.setdefault(placement_key(mv), []).append(mv)
    first = root.continuation[0] if root.verdict == WIN and root.continuation else None
    keys = list(groups)
    if first is not None:  # the solver's own best move first
        keys.sort(key=lambda k: k != placement_key(first))
    ratings: list[MoveRating] = []
    if root.verdict == LOSS:
        if all_moves:  # every child of a lost position is lost
            ratings = [MoveRating(groups[k][0], LOSS, choices=len(groups[k]), line=[groups[k][0]],
                                  derived=True) for k in keys]
    else:
        for i, key in enumerate(keys):
            share = left()
            is_first = first is not None and key == placement_key(first)
            if interrupted and is_first and first is not None:
                # interrupted: the root's best line so far still rates its first move
                ratings.append(MoveRating(first, WIN, root.value, root.optimal,
                                          root.bound if root.optimal else None,
                                          list(root.continuation), len(groups[key])))
                continue
            if interrupted or (deadline is not None and time.monotonic() >= deadline):
                mv = groups[key][0]  # out of time, or interrupted: not rated
                ratings.append(MoveRating(mv, UNKNOWN, choices=len(groups[key]), line=[mv],
                                          derived=True))
                continue
            if share is not None:
                share = share / (len(keys) - i)
            try:
                r = _rate(game, groups[key], objective, session, share,
                          root if is_first else None)
            except KeyboardInterrupt:
                interrupted = True
                mv = groups[key][0]
                ratings.append(MoveRating(mv, UNKNOWN, choices=len(groups[key]), line=[mv],
                                          derived=True))
                continue
            nodes += r[1]
            ratings.append(r[0])
    order = {id(r): i for i, r in enumerate(ratings)}
    ratings.sort(key=lambda r: _sort_key(r, order[id(r)]))
    verdict, value, optimal, bound = root.verdict, root.value, root.optimal, root.bound
    if verdict == UNKNOWN and ratings:
        # the position's own search ran out, its moves' searches may still decide it: a
        # winning move makes it a win, every move lost makes it a loss
        if ratings[0].verdict == WIN:
            verdict, value = WIN, ratings[0].value
            optimal = objective != "none" and all(
                r.optimal for r in ratings if r.verdict == WIN) and all(
                r.verdict == LOSS for r in ratings if r.verdict != WIN)
            optimal = optimal and ratings[0].optimal
            bound = value if optimal else bound
        elif all(r.verdict == LOSS for r in ratings):
            verdict = LOSS
    if not all_moves:
        ratings = [r for r in ratings if r.verdict == WIN]
    stats = {"seconds": round(time.monotonic() - t0, 3), "nodes": nodes,
             "solves": session.solves, "placements": len(groups),
             "table_entries": len(session.search.tt),
             **({"interrupted": True} if interrupted else {})}
    return Hint(game, objective, verdict, value, optimal, bound,
                root.best_progress, root.continuation if root.verdict != WIN else [],
                ratings, stats, _hint_reason(root, verdict, game))


def _hint_reason(root: SolveResult, verdict: str, game: Game) -> LossReason | None:
    """Why the hinted position is lost: its solve's reason, or (every move was proven lost
    by a search of its own) a bound's or the next turns' reason."""
    if verdict != LOSS:
        return None
    return root.reason or static_reason(game) or search_reason(game)


def _rate(game: Game, moves: list[Move], objective: str, session: Session,
          time_limit: float | None, root: SolveResult | None) -> tuple[MoveRating, int]:
    """Rate one placement (its ways to pay ``moves``). ``root``: the position's own win
    whose first move is this placement (its line is reused for ``none`` and, when
    optimal, for the other objectives)."""
    if root is not None and (objective == "none" or root.optimal):
        return MoveRating(root.continuation[0], WIN, root.value, root.optimal, root.bound,
                          list(root.continuation), len(moves)), 0
    t0 = time.monotonic()
    nodes = 0
    tried: list[tuple[Move, int, SolveResult]] = []
    for i, mv in enumerate(moves):
        share = None
        if time_limit is not None:
            if tried and time.monotonic() - t0 >= time_limit:
                break  # out of time: the ways to pay not tried stay unknown
            share = max(0.01, (time_limit - (time.monotonic() - t0)) / (len(moves) - i))
        child = game.copy()
        child.push(mv)
        res = session.solve(child, share, furthest="off")
        nodes += res.stats.get("nodes", 0)
        tried.append((mv, move_cost(game, mv, objective), res))
        if objective == "none" and res.verdict == WIN:
            break
    complete = len(tried) == len(moves)
    wins = [(cost + (res.value or 0), i) for i, (_, cost, res) in enumerate(tried)
            if res.verdict == WIN]
    if not wins:
        verdict = LOSS if complete and all(r.verdict == LOSS for _, _, r in tried) else UNKNOWN
        if not any(r.verdict == verdict for _, _, r in tried):  # not all ways tried
            mv = tried[0][0]
            return MoveRating(mv, UNKNOWN, None, False, None, [mv], len(moves)), nodes
        mv, _, res = next(t for t in tried if t[2].verdict == verdict)
        return MoveRating(mv, verdict, None, False, None, [mv] + res.continuation,
                          len(moves)), nodes
    value, i = min(wins)
    mv, cost, res = tried[i]
    rating = MoveRating(mv, WIN, None, False, None, [mv] + res.continuation, len(moves))
    if objective != "none":
        # proven best for this placement when no other way to pay can do better
        lows = [None if r.bound is None else c + r.bound for _, c, r in tried
                if r.verdict != LOSS]
        bound = (None if not complete or any(b is None for b in lows)
                 else min(b for b in lows if b is not None))
        rating.value = value
        rating.bound = bound
        rating.optimal = bound == value
    return rating, nodes


# ---- analyse -----------------------------------------------------------------------------


@dataclass
class PositionVerdict:
    """One position of an analysed game (after ``index`` moves): ``verdict``, ``value``
    (objective from there, ``None`` unless a win was found), ``optimal``, ``bound``,
    ``derived`` (no search: a later position is a win, so this one is too), the solve's
    ``continuation``, ``nodes`` and ``seconds`` (all its solves together); ``proof``: how a
    verdict was proven (``bound``: a bound at the position, no search; ``search``: the
    exhaustive search; ``loss-model``: the CP-SAT loss model's infeasibility;
    ``abstraction``: the colour-free abstraction's exhaustive search; ``derived``;
    ``None`` for unknown); ``reason``: for the first proven loss, why
    (:class:`solver.reasons.LossReason`); ``stats``: the last solve's counters."""

    index: int
    verdict: str
    value: int | None = None
    optimal: bool = False
    bound: int | None = None
    derived: bool = False
    continuation: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    proof: str | None = None
    reason: LossReason | None = None
    stats: dict[str, Any] = field(default_factory=dict, repr=False)

    def to_state(self) -> dict[str, Any]:
        """What :func:`analyse` needs to reuse this solve later (``known``): the JSON of
        :meth:`to_json` with the ``continuation``'s moves, read back by
        :meth:`from_state`."""
        return {**self.to_json(), "reason": None,
                "continuation": [m.to_json() for m in self.continuation]}

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> PositionVerdict:
        """The verdict written by :meth:`to_state`. Raises ``KeyError``, ``TypeError`` or
        ``ValueError`` for a malformed one."""
        if data["verdict"] not in (WIN, LOSS, UNKNOWN):
            raise ValueError(f"unknown verdict {data['verdict']!r}")
        return cls(int(data["index"]), data["verdict"], data.get("value"),
                   bool(data.get("optimal")), data.get("bound"), bool(data.get("derived")),
                   [Move.from_json(m) for m in data.get("continuation", [])],
                   int(data.get("nodes", 0)), float(data.get("seconds", 0.0)),
                   data.get("proof"))

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "verdict": self.verdict, "value": self.value,
                "optimal": self.optimal, "bound": self.bound, "derived": self.derived,
                "proof": self.proof,
                "reason": self.reason.to_json() if self.reason is not None else None,
                "nodes": self.nodes, "seconds": self.seconds}


@dataclass
class Analysis:
    """The answer of :func:`analyse`.

    ``positions[i]``: the position after ``i`` moves (0: the start). ``moves[k-1]`` is move
    ``k`` (counted from 1). ``losing_move``: the first move whose position before is a win
    and after is a loss (``None`` if there is none: the game was won, or lost from the
    start, or a limit left a verdict unknown there); ``first_proven_loss``: the first move
    after which a loss is proven; ``best_instead`` and ``winning_line``: what the solver
    would have played before the losing move, and its winning line from there.
    ``spent_extra[k-1]``: for ``waste``, the cards move ``k`` gave away against best play
    (for ``turns``, the turns it lost; ``None`` unless both values are proven). ``reason``:
    why the position after the first proven loss cannot be won
    (:class:`solver.reasons.LossReason`, or ``None``)."""

    start: Deal | Game
    moves: list[Move]
    objective: str
    positions: list[PositionVerdict]
    spent_extra: list[int | None]
    losing_move: int | None
    first_proven_loss: int | None
    best_instead: Move | None
    winning_line: list[Move]
    stats: dict[str, Any]
    reason: LossReason | None = None

    @property
    def window(self) -> tuple[int, int] | None:
        """``(first, last)``: the moves between which the game was lost, counted from 1:
        ``first`` is the move after the last position found winnable (move 1 when none was),
        ``last`` the first move after which a loss is proven (:attr:`first_proven_loss`).
        The game was lost by one of the moves ``first``..``last``; when the losing move is
        pinned, ``first == last == losing_move``. ``None`` when no loss is proven along the
        game or the start itself is lost (no move lost it)."""
        if self.losing_move is not None:
            return self.losing_move, self.losing_move
        if self.first_proven_loss is None or self.positions[0].verdict == LOSS:
            return None
        last_win = max((p.index for p in self.positions[:self.first_proven_loss]
                        if p.verdict == WIN), default=0)
        return last_win + 1, self.first_proven_loss

    def to_json(self) -> dict[str, Any]:
        """``{"moves": [{"index", "move", "before", "after", "spent_extra"}, …],
        "losing_move", "window": [first, last] | null (:attr:`window`), "first_proven_loss",
        "reason": {"kind", "text", "specific"} | null,
        "best_instead", "winning_line", "objective", "positions", "stats"}`` (moves counted
        from 1)."""
        rows = []
        for k, mv in enumerate(self.moves, start=1):
            rows.append({"index": k, "move": mv.to_json(),
                         "before": self.positions[k - 1].verdict,
                         "after": self.positions[k].verdict,
                         "spent_extra": self.spent_extra[k - 1]})
        return {
            "objective": self.objective,
            "moves": rows,
            "losing_move": self.losing_move,
            "window": list(self.window) if self.window is not None else None,
            "first_proven_loss": self.first_proven_loss,
            "reason": self.reason.to_json() if self.reason is not None else None,
            "best_instead": self.best_instead.to_json() if self.best_instead else None,
            "winning_line": [m.to_json() for m in self.winning_line],
            "positions": [p.to_json() for p in self.positions],
            "stats": self.stats,
        }


def window_text(window: tuple[int, int] | list[int] | None) -> str | None:
    """The window of :attr:`Analysis.window` in words: ``"lost by move 34"`` when it is one
    move, ``"lost between move 32 and move 38"`` otherwise; ``None`` without a window.

    >>> window_text((32, 38)), window_text([34, 34]), window_text(None)
    ('lost between move 32 and move 38', 'lost by move 34', None)
    """
    if window is None:
        return None
    first, last = window
    return f"lost by move {first}" if first == last else \
        f"lost between move {first} and move {last}"


#: ``analyse`` with objective ``none``: the share of ``time_per_move`` of the first pass over
#: the game (the rest goes to the positions between the last win and the first loss).
FIRST_PASS_SHARE = 0.2
#: A position whose time left is below this many seconds gets no more search.
MIN_SECONDS = 0.05


class _BudgetSpent(Exception):
    """:func:`analyse`'s ``time_limit`` ran out (caught inside it)."""


def _solve_positions(solve_at, found: dict[int, PositionVerdict], n: int, reuse: bool,
                     objective: str, time_per_move: float | None,
                     spent: list[float]) -> None:
    """:func:`analyse`'s order of solving positions 0..``n`` (``solve_at(i, seconds)``
    solves one into ``found``; ``spent[i]``: its seconds so far). For ``none`` with reuse:
    the verdicts run win…, unknown…, loss… along the game (a position before a win is a
    win, one after a loss is a loss), so a first pass of :data:`FIRST_PASS_SHARE` of the
    time solves backwards from the end while losses are proven, then bisects the earlier
    positions for the last win; then the window between the last win and the first loss
    gets what is left of each position's time, from both ends inwards (a loss proven just
    before the first loss, or a win found just after the last win, narrows it). Otherwise
    every position, the last first."""
    if not reuse or objective != "none":
        for i in range(n, -1, -1):  # every position, the last first
            solve_at(i, time_per_move)
        return
    first = None if time_per_move is None else time_per_move * FIRST_PASS_SHARE
    # the positions at the end whose loss a bound proves need no search (found already)
    i = min(found) - 1 if found else n
    while i >= 0 and solve_at(i, first).verdict == LOSS:
        i -= 1
    if i >= 0 and found[i].verdict == UNKNOWN:
        lo, hi = 0, i - 1  # bisect the positions before the first unknown for the last win
        while lo <= hi:
            mid = (lo + hi + 1) // 2
            if solve_at(mid, first).verdict == WIN:
                lo = mid + 1
            else:
                hi = mid - 1
    if time_per_move is None:
        return
    tried: set[int] = set()
    from_loss = True
    while True:
        wins = [j for j, p in found.items() if p.verdict == WIN]
        losses = [j for j, p in found.items() if p.verdict == LOSS]
        w = max(wins) if wins else -1
        ell = min(losses) if losses else n + 1
        open_ = [j for j in range(w + 1, min(ell, n + 1)) if j not in tried
                 and time_per_move - spent[j] > MIN_SECONDS]
        if not open_:
            return
        j = open_[-1] if from_loss else open_[0]
        from_loss = not from_loss
        tried.add(j)
        solve_at(j, time_per_move - spent[j])


def _fill_in(found: dict[int, PositionVerdict], moves: list[Move], games: list[Game],
             objective: str) -> list[PositionVerdict]:
    """Every position's verdict from the ones solved (``found``): a position before a win
    is a win (the game's own moves lead to it; its value is theirs plus the win's), a
    position after a loss is a loss; the rest stay ``unknown`` (``derived``)."""
    n = len(moves)
    pos: list[PositionVerdict | None] = [found.get(i) for i in range(n + 1)]
    for i in range(n, 0, -1):
        later, p = pos[i], pos[i - 1]
        if later is not None and later.verdict == WIN and (p is None or p.verdict != WIN):
            cost = move_cost(games[i - 1], moves[i - 1], objective)
            value = None if later.value is None or objective == "none" else cost + later.value
            pos[i - 1] = PositionVerdict(i - 1, WIN, value, False,
                                         p.bound if p is not None else None, True,
                                         moves[i - 1:i] + later.continuation,
                                         p.nodes if p is not None else 0,
                                         p.seconds if p is not None else 0.0, "derived")
    for i in range(1, n + 1):
        before = pos[i - 1]
        old = pos[i]
        if before is not None and before.verdict == LOSS and (old is None or old.verdict != LOSS):
            pos[i] = PositionVerdict(i, LOSS, derived=True,
                                     nodes=old.nodes if old is not None else 0,
                                     seconds=old.seconds if old is not None else 0.0,
                                     proof="derived")
    return [p if p is not None else PositionVerdict(i, UNKNOWN, derived=True)
            for i, p in enumerate(pos)]


def positions_of(start: Deal | Game, moves: Sequence[Move]) -> list[Game]:
    """The game after 0, 1, …, ``len(moves)`` of ``moves`` from ``start`` (each a
    :class:`Game` with its history). Raises :class:`~model.errors.IllegalMoveError` (with
    the 1-based move number) at the first illegal move."""
    out = []
    for i in range(len(moves) + 1):
        rep = replay(start, moves[:i])
        if rep.error is not None:
            raise rep.error
        out.append(rep.game)
    return out


def analyse(start: Deal | Game, moves: Sequence[Move], objective: str = "none",
            time_per_move: float | None = 10.0, reuse: bool = True,
            memory_limit_mb: int = 2048,
            progress: Callable[[int, int], None] | None = None,
            switches: dict[str, bool] | None = None,
            known: dict[int, PositionVerdict] | None = None,
            solved: Callable[[PositionVerdict], None] | None = None,
            time_limit: float | None = None) -> Analysis:
    """Analyse the game of ``moves`` played from ``start`` (a deal or a position).

    Each position solved gets ``time_per_move`` seconds (``None``: no limit). With
    ``reuse`` (the default) one :class:`Session` serves all positions. For ``none`` the
    verdicts along a game run win…, unknown…, loss… (a position before a win is a win,
    one after a loss is a loss), so the positions are solved from the last backwards while
    their losses are proven, and when a limit leaves one unknown, the earlier ones are
    bisected for the last win; the others are ``derived`` (an unknown never solved stays
    unknown). For ``waste``/``turns`` every position is solved, the last first. Without
    ``reuse`` every position is solved afresh by a search of its own (for measuring what
    the reuse saves). ``progress(decided, positions)``, when given, is called after each
    position solved: ``decided`` counts the positions whose verdict is known so far (for
    ``none``: those up to the last win found and from the first loss found; otherwise those
    solved), out of ``positions`` (``len(moves) + 1``). ``switches``: search switches by name
    for every solve (ablations; default: all the defaults). ``known``: the positions solved
    by an earlier, stopped analysis of the same game (by index; :meth:`PositionVerdict.
    from_state`): a proven verdict is reused as it is, and an unknown one counts its
    seconds as spent (so a resumed analysis does not redo its work); ``solved(verdict)``,
    when given, is called with each position's verdict as it is solved (to keep it for
    ``known``). ``time_limit``: seconds for the whole analysis (each solve gets at most what
    is left; once it is spent the positions not decided stay unknown and
    ``stats["budget_spent"]`` is true). Raises
    :class:`~model.errors.IllegalMoveError` for an illegal move of the game and
    ``ValueError`` for an unknown objective.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    t0 = time.monotonic()
    moves = list(moves)
    games = positions_of(start, moves)
    n = len(moves)
    found: dict[int, PositionVerdict] = {}
    spent_s = [0.0] * (n + 1)
    session = (Session(start, objective, memory_limit_mb, furthest="off", switches=switches)
               if reuse else None)

    def report() -> None:
        if progress is None:
            return
        if objective == "none":
            w = max((j for j, p in found.items() if p.verdict == WIN), default=-1)
            ell = min((j for j, p in found.items() if p.verdict == LOSS), default=n + 1)
            progress(min(n + 1, w + 1 + (n + 1 - ell)), n + 1)
        else:
            progress(len(found), n + 1)

    def solve_at(i: int, seconds: float | None) -> PositionVerdict:
        if time_limit is not None:
            left = time_limit - (time.monotonic() - t0)
            if left <= MIN_SECONDS:
                raise _BudgetSpent
            seconds = left if seconds is None else min(seconds, left)
        old_known = (known or {}).get(i)
        if old_known is not None and i not in found and (
                old_known.verdict != UNKNOWN
                or (seconds is not None and old_known.seconds >= seconds - MIN_SECONDS)):
            found[i] = old_known  # an earlier solve of this very position
            spent_s[i] = old_known.seconds
            report()
            return old_known
        sess = session or Session(games[i], objective, memory_limit_mb, furthest="off",
                                  switches=switches)
        t = time.monotonic()
        res = sess.solve(games[i], seconds, explain=False)
        spent_s[i] += time.monotonic() - t
        old = found.get(i)
        nodes = res.stats.get("nodes", 0) + (old.nodes if old is not None else 0)
        lm = res.stats.get("loss_model")
        ab = res.stats.get("abstraction")
        proof = (None if res.verdict == UNKNOWN else
                 "loss-model" if lm and lm.get("status") == "INFEASIBLE" and res.verdict == LOSS
                 else "abstraction" if res.verdict == LOSS
                 and res.stats.get("decided_by") == "abstraction"
                 else "search")
        found[i] = PositionVerdict(i, res.verdict, res.value, res.optimal, res.bound, False,
                                   list(res.continuation), nodes, round(spent_s[i], 3),
                                   proof, None, {"pruned": res.stats.get("pruned"),
                                                 "nodes": res.stats.get("nodes"),
                                                 "table_hits": res.stats.get("table_hits"),
                                                 **({"loss_model": lm} if lm else {}),
                                                 **({"abstraction": ab} if ab else {})})
        if solved is not None:
            solved(found[i])
        report()
        return found[i]

    interrupted = budget_spent = False
    try:
        if objective == "none":
            # the positions at the end that a bound alone proves lost, from the last backwards
            for i in range(n, -1, -1):
                r = static_reason(games[i])
                if r is None:
                    break
                found[i] = PositionVerdict(i, LOSS, proof="bound", reason=r)
        _solve_positions(solve_at, found, n, reuse, objective, time_per_move, spent_s)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: keep the positions solved so far
        interrupted = True
    except _BudgetSpent:  # the whole analysis's time_limit: keep what was solved
        budget_spent = True
    positions = _fill_in(found, moves, games, objective)
    spent: list[int | None] = []
    for k in range(1, n + 1):
        a, b = positions[k - 1], positions[k]
        extra = None
        if (objective != "none" and a.verdict == WIN and b.verdict == WIN and a.optimal
                and b.optimal and a.value is not None and b.value is not None):
            extra = move_cost(games[k - 1], moves[k - 1], objective) + b.value - a.value
        spent.append(extra)
    losing = next((k for k in range(1, n + 1) if positions[k - 1].verdict == WIN
                   and positions[k].verdict == LOSS), None)
    first_loss = next((k for k in range(1, n + 1) if positions[k].verdict == LOSS), None)
    reason = None
    if first_loss is not None and not positions[first_loss].derived:
        reason = _reason_of(positions[first_loss], games[first_loss])
        positions[first_loss].reason = reason
    best_instead = None
    line: list[Move] = []
    if losing is not None:
        line = list(positions[losing - 1].continuation)
        best_instead = line[0] if line else None
    stats = {"seconds": round(time.monotonic() - t0, 3),
             "nodes": sum(p.nodes for p in positions),
             "solved_positions": sum(not p.derived for p in positions),
             "reuse": reuse, **({"interrupted": True} if interrupted else {}),
             **({"budget_spent": True} if budget_spent else {})}
    return Analysis(start, moves, objective, positions, spent, losing, first_loss,
                    best_instead, line, stats, reason)


def _reason_of(p: PositionVerdict, game: Game) -> LossReason:
    """Why the proven loss ``p`` (the position ``game``) cannot be won: its bound's reason,
    the loss model's rule groups, or what the search found (:mod:`solver.reasons`)."""
    if p.reason is not None:
        return p.reason
    lm = p.stats.get("loss_model")
    if lm and lm.get("status") == "INFEASIBLE":
        return relaxation_reason(lm.get("groups") or [])
    if p.proof == "abstraction":
        return static_reason(game) or abstraction_reason(game, p.stats)
    return static_reason(game) or search_reason(game, p.stats)


__all__ = ["Analysis", "Hint", "MoveRating", "PositionVerdict", "analyse",
           "hint", "move_cost", "placement_key", "positions_of"]
