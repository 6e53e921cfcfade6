"""The daily puzzle of a date: candidates, criteria, grade, the puzzle record.

:func:`puzzle_for` (``date``, ``kind``, ``size``) returns the **puzzle record**, the JSON of
``ascent daily --json`` and of the archive files (:mod:`puzzles.archive`)::

    {"date": "2026-12-01", "kind": "deal" | "position", "size": "full" | "mini",
     "rules": {...all 13 options...},
     "deal": {"players": 1, "decks": [[top card first, ...]], "seed": N}   (deal puzzles)
     "position": {...Game.to_position()...}                                 (position puzzles)
     "goal": {"text": "...", "max_out": par | null},
     "par": P, "par_proven": bool,
     "grade": "easy" | "medium" | "hard" | "expert", "score": S,
     "features": {...see puzzles.grade...},
     "key_moves": [{"move": {...}, "text": "T31 P2 place 7r → row 6 slot 1"}, ...],
     "solution": {game record of docs/rules.md: "deal", "rules", "moves", "start_move"},
     "generator": {"name": "ascent daily", "version": 1, "candidate": k, ...}}

Kinds and sizes:

* **deal** puzzles are solo deals with the whole deck order shown. Goal: reach the Summit
  with at most ``par`` cards out of the game (discards and replaced Bridges). ``par`` is the
  fewest the waste-optimising solver (:func:`solver.solve`, a deterministic node limit) found;
  ``par_proven`` says whether it proved that no win spends fewer.
* **position** puzzles are mid-game positions of real deals (1–5 players): the solver
  plays the deal until a few slots are left, a mostly greedy player takes over and loses,
  and the puzzle is the last moment its game could still be won (:func:`cut_position`).
  Goal: win from the position (every seat is played, all cards known). ``par``
  is the fewest cards out of the game on a winning line, proven by exhaustive search.
  The solution's game record starts at the deal; the puzzle starts after move
  ``solution.start_move``.
* **full** is the standard game. **mini** (:data:`MINI_RULES`) is 3 rows and a peak (10
  slots), values 1–5 in three colours, one copy each, one Campfire per colour, one Bridge,
  one Summit (20 cards), hands of 4: small enough that the waste optimum of a deal is proven
  within the node limit (rows 4–5 variants were measured and mostly were not, see the README).

Criteria (generator version 1), tried in the date's candidate order
(:mod:`puzzles.dates`), the first candidate meeting them in the date's band is the puzzle:

* deal: the solver wins; for ``mini`` the par is proven;
* position: the last winnable position of the player's lost game
  (:func:`cut_position`), where one of the cheapest moves loses ("the tempting cheap move
  loses", proven by the solver; the feature ``tempting_move``); at most half of the legal
  first moves keep a win ("only few lines"); the
  shortest win takes at least 3 moves; the exhaustive search stays under
  :data:`MAX_STATES` states.

Key moves: for a position, the dominator moves of the winning-state graph
(:mod:`puzzles.keymoves`), shared by every winning line. For a deal the full game is too big
to enumerate, so its ``key_moves`` are the moves of the par solution where the greedy player
would play something else (hints, not a claim that every par line shares them); the record
says which (``key_moves_source``).

Everything is deterministic: node limits (never time limits), SplitMix64 for every random
choice, the engine's move order; the record holds no timing, so a date gives byte-identical
JSON on any machine and any ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from typing import Any

from model.deal import Deal, SplitMix64
from model.game import Game
from model.moves import Move
from model.records import Plan, replay
from model.rules import RuleSet
from puzzles.dates import (
    KINDS,
    SIZES,
    band_for,
    candidate,
    check_date,
)
from puzzles.grade import THRESHOLDS, grade_of, score
from puzzles.keymoves import TooManyStates, state_key, win_graph
from puzzles.playouts import greedy_choices, greedy_move, playout, playouts
from solver.result import checked_plan

GENERATOR_NAME = "ascent daily"
#: Version 2 (issue 39 step 7): the par of a full deal is searched by :func:`puzzles.par.full_par`
#: (node-limited exhaustive search and LNS; proven where it can). Version 1 records (the
#: published archive) are frozen and are still re-evaluated with the version-1 par (the best
#: beam win) by :func:`evaluate` ``(..., version=1)``.
GENERATOR_VERSION = 2


def version_for(kind: str, size: str) -> int:
    """The generator version a new ``kind``/``size`` record is made with: 2 for full deals
    (the only records version 2 changes), 1 for the others (their records stay
    byte-identical to the published ones)."""
    return GENERATOR_VERSION if (kind, size) == ("deal", "full") else 1

#: The mini rule set (see the module docstring): the ``mini`` preset's values
#: (:meth:`RuleSet.mini`, equal to it), written in records as ``standard`` with these options,
#: as the published puzzles have them.
MINI_RULES = RuleSet.from_options({
    "rows": 3, "values": 5, "colours": 3, "copies": 1, "campfires": 1, "bridges": 1,
    "summits": 1, "hand_size": 4,
})
FULL_RULES = RuleSet.standard()
RULES = {"full": FULL_RULES, "mini": MINI_RULES}

#: Deterministic node limits of the solver per (kind, size). ``("position", "full")`` was
#: raised from 3,000 to 20,000 (and ``MAX_STATES["full"]`` from 5,000 to 30,000) when that
#: kind was calibrated, before any position/full puzzle was published: on the first 25
#: candidates of the calibration stream 1 met the criteria at 3,000 nodes and 5,000 states,
#: 3 at these limits (over the whole calibration 102 of 984, about 1 in 10).
NODE_LIMITS = {
    ("deal", "mini"): 40_000,
    ("position", "full"): 20_000,
    ("position", "mini"): 5_000,
}
#: The beams that play the deal before the player takes over (position puzzles).
CUT_BEAMS = {"full": ((8, 1), (32, 1)), "mini": ((16, 1), (64, 1))}
#: Empty slots (peak excluded) of a position puzzle: (fewest, most).
CUT_EMPTY = {"full": (2, 7), "mini": (2, 6)}

MAX_STATES = {"full": 30_000, "mini": 12_000}
PLAYOUTS = {"full": 4, "mini": 16}
MAX_CANDIDATES = 400
MAX_DEAL_HINTS = 8
#: The player of position puzzles' games makes a uniformly random move with chance
#: 1/EPSILON_DEN, else a noisy greedy one.
EPSILON_DEN = 3
#: Cheapest moves tried (engine's order) for a losing "tempting" one.
MAX_TEMPTING = 6
#: The solver's beam phase when looking for par (then the DFS to the node limit).
PAR_BEAMS = {"mini": ((8, 1), (64, 0))}
#: Beam widths tried, narrowest first, for the ``beam_width`` feature (one way to pay kept).
BEAM_LADDER = (1, 2, 4, 8, 16, 32)
#: The ladder stops after this width once a beam has won (the best of the wins is par).
LADDER_UNTIL = 16


#: Why candidates were turned down in this process (for the calibration report).
REJECTIONS: Counter = Counter()


def rejected(reason: str) -> None:
    """Count a rejected candidate under ``reason``."""
    REJECTIONS[reason] += 1


class GenerationError(RuntimeError):
    """No candidate of the date met the criteria within :data:`MAX_CANDIDATES`."""


def _solve(*args: Any, **kwargs: Any):
    """:func:`solver.solve`, but a Ctrl-C or SIGTERM that stopped the search is passed on
    (:meth:`~solver.result.SolveResult.passed_on`) instead of coming back as an ``unknown``
    verdict, which would only reject the candidate and go on to the next one."""
    from solver import solve

    return solve(*args, **kwargs).passed_on()


def check_kind_size(kind: str, size: str) -> None:
    """Raise ``ValueError`` for an unknown kind or size (the CLI turns it into exit 2)."""
    if kind not in KINDS:
        raise ValueError(f"unknown puzzle kind {kind!r}; valid kinds: {', '.join(KINDS)}")
    if size not in SIZES:
        raise ValueError(f"unknown puzzle size {size!r}; valid sizes: {', '.join(SIZES)}")


def _move_entry(game: Game, move: Move) -> dict[str, Any]:
    return {"move": move.to_json(), "text": game.move_text(move)}


# ---- deal puzzles ------------------------------------------------------------------------

def evaluate_deal(cand: dict[str, int], size: str,
                  version: int = GENERATOR_VERSION) -> dict[str, Any] | None:
    """Measure deal candidate ``cand`` (``{"seed", "players"}``): the partial record
    (rules, deal, goal, par, features, key moves, solution) or ``None`` if it fails the
    criteria. ``version``: the generator version whose par to compute (full deals: 1 = the
    best beam win, 2 = :func:`puzzles.par.full_par`)."""

    rules = RULES[size]
    deal = Deal.from_seed(cand["seed"], 1, rules)
    extra: dict[str, Any] = {}  # version-2 features of a full deal
    width, beam_waste, best = beam_ladder(deal)
    if size == "mini":  # par proven by the exhaustive search (within the node limit)
        res = _solve(deal, objective="waste", node_limit=NODE_LIMITS["deal", size],
                    beam_schedule=PAR_BEAMS[size])
        if res.verdict != "win" or res.plan is None or not res.optimal:
            return None
        par, par_moves, proven, nodes = int(res.value), list(res.plan.moves), True, res.stats["nodes"]
    else:  # full: from the best win of the solver's beams
        if best is None:
            return None
        par, par_moves, proven, nodes = best[0], best[1], False, 0
        if version >= 2:  # searched further, node-limited (puzzles.par); proven where it can
            from puzzles.par import full_par

            rep = full_par(deal, par, list(par_moves))
            par, par_moves, proven, nodes = rep.par, rep.moves, rep.proven, rep.nodes
            extra = {"par_beams": rep.beams, "par_bound": rep.bound}
    start = Game(deal)
    greedy = playout(start)
    n = PLAYOUTS[size]
    noisy = playouts(start, "greedy", cand["seed"] ^ 0x5DEECE66D, n)
    deck = len(rules.composition())
    slots = rules.mountain_slots
    features = {
        "par": par,
        "par_proven": proven,
        "solver_nodes": int(nodes),
        "greedy_waste": greedy.waste if greedy.won else None,
        "greedy_gap": (greedy.waste - par) if greedy.won else deck,
        "playouts": n,
        "playout_wins": sum(p.won for p in noisy),
        "playout_wins_within_par": sum(p.won and p.waste <= par for p in noisy),
        "playout_filled": round(sum(p.filled for p in noisy) / (n * slots), 4),
        "beam_width": width or None,
        "beam_gap": (beam_waste - par) if beam_waste is not None else None,
        **extra,
    }
    hints = deal_hints(deal, par_moves)
    checked = checked_plan(deal, par_moves, "daily")
    solution = Plan(deal, checked.moves, {"start_move": 0}).to_json()
    return {
        "rules": rules.to_dict(),
        "deal": {"players": 1, "decks": deal.deck_texts(), "seed": deal.seed},
        "goal": {"text": f"Reach the Summit with at most {par} cards out of the game "
                         "(discards and replaced Bridges).", "max_out": par},
        "par": par,
        "par_proven": proven,
        "features": features,
        "key_moves_source": "par line where the greedy player differs",
        "key_moves": hints,
        "solution": solution,
    }


def beam_ladder(deal: Deal) -> tuple[int, int | None, tuple[int, list[Move]] | None]:
    """The beam ladder of a deal: ``(width, its waste, (best waste, its moves))``, where
    ``width`` is the narrowest beam of :data:`BEAM_LADDER` (one way to pay kept) that wins
    (0 and ``None`` if none does) and the best is the cheapest win of the widths tried (up to
    :data:`LADDER_UNTIL` once one has won), or ``None``."""
    from solver.heuristic import heuristic_win

    width, beam_waste, best = 0, None, None
    for w in BEAM_LADDER:
        if width and w > LADDER_UNTIL:
            break
        mv = heuristic_win(deal, "waste", beam_schedule=((w, 1),))
        if mv is None:
            continue
        waste = len(replay(deal, mv).game.out)
        if not width:
            width, beam_waste = w, waste
        if best is None or waste < best[0]:
            best = (waste, list(mv))
    return width, beam_waste, best


def deal_hints(deal: Deal, par_moves: list[Move]) -> list[dict[str, Any]]:
    """The ``key_moves`` of a deal puzzle: the first :data:`MAX_DEAL_HINTS` moves of the par
    line ``par_moves`` (played from ``deal``) where the greedy player would play something
    else, each ``{"move": move JSON, "text": notation}``. Raises
    :class:`~model.errors.IllegalMoveError` for an illegal move among those it plays (it
    stops at the last hint: the rest of the line is not checked here)."""
    g = Game(deal)
    hints: list[dict[str, Any]] = []
    for m in par_moves:
        if len(hints) == MAX_DEAL_HINTS:
            break
        if greedy_move(g) != m:
            hints.append(_move_entry(g, m))
        g.push(m)  # checks the move (IllegalMoveError)
    return hints


# ---- position puzzles --------------------------------------------------------------------

def empty_slots(game: Game) -> int:
    """Empty slots of rows 1..rows (the peak not counted)."""
    r = game.rules
    return sum(r.row_length(i) - len(game.mountain[i - 1]) for i in range(1, r.rows + 1))


def losing_cheap_move(game: Game, limit: int) -> Move | None:
    """The first of the cheapest moves (:func:`puzzles.playouts.greedy_choices`, at most
    :data:`MAX_TEMPTING`, engine's order) after which the solver proves a loss, or ``None``."""
    for m in greedy_choices(game)[:MAX_TEMPTING]:
        after = game.copy()
        after.push(m)
        if not after.is_won() and _solve(after, node_limit=limit).verdict == "loss":
            return m
    return None


def cut_position(cand: dict[str, int], size: str) -> tuple[Deal, list[Move], Move] | None:
    """Where the candidate's puzzle starts: ``(deal, moves from the deal's start, the
    tempting losing move)``, or ``None``.

    The solver's beam (:func:`solver.heuristic_win`) plays the deal (every seat) until at
    most ``hi`` empty slots are left
    (``hi`` = ``CUT_EMPTY[size][1]``, less 1 on odd playout draws). From there a player
    takes over: at each turn, with chance 1/:data:`EPSILON_DEN` a uniformly random legal
    move, else a noisy greedy one (:mod:`puzzles.playouts`), every choice drawn from
    SplitMix64 seeded with the candidate's playout seed. If the player loses, the last
    position of its game from which the solver still proves a win is the puzzle (searched
    back from the end). It needs at least ``CUT_EMPTY[size][0]`` empty slots, and one of
    its cheapest moves must lose: the player's move there if it was one, else the first
    losing one of :func:`losing_cheap_move` (the tempting move)."""
    from solver.heuristic import heuristic_win

    rules = RULES[size]
    deal = Deal.from_seed(cand["seed"], cand["players"], rules)
    limit = NODE_LIMITS["position", size]
    line = heuristic_win(deal, beam_schedule=CUT_BEAMS[size])
    if line is None:
        rejected("deal not won")
        return None
    rng = SplitMix64(cand["playout"])
    lo, hi = CUT_EMPTY[size]
    hi -= rng.next() % 2
    g = Game(deal)
    moves: list[Move] = []
    for m in line:
        if empty_slots(g) <= hi:
            break
        g.push(m)
        moves.append(m)
    takeover = len(moves)
    while g.outcome() is None:
        explore = rng.next() % EPSILON_DEN == 0
        choices = g.legal_moves() if explore else greedy_choices(g)
        m = choices[rng.next() % len(choices)]
        g.push(m)
        moves.append(m)
    if g.is_won():
        rejected("player won")
        return None
    i = len(moves)
    while True:  # back from the end: the last position still won
        g.pop()
        i -= 1
        v = "win" if i == takeover else _solve(g.copy(), node_limit=limit).verdict
        if v == "unknown":
            rejected("solver limit")
            return None
        if v == "win":
            break
    if empty_slots(g) < lo:
        rejected("too few empty slots")
        return None
    pos = g.copy()
    tempting: Move | None = moves[i]
    if tempting not in greedy_choices(pos):  # a random move lost: is a cheap one losing?
        tempting = losing_cheap_move(pos, limit)
        if tempting is None:
            rejected("no losing cheap move")
            return None
    return deal, moves[:i], tempting


def evaluate_position(cand: dict[str, int], size: str) -> dict[str, Any] | None:
    """Measure position candidate ``cand`` (``{"seed", "players", "playout"}``): the partial
    record or ``None`` if it fails the criteria."""
    from model.records import replay

    cut = cut_position(cand, size)
    if cut is None:
        return None
    deal, prefix, tempting = cut
    game = replay(deal, prefix).game
    start = game.copy()
    try:
        wg = win_graph(start, MAX_STATES[size])
    except TooManyStates:
        rejected("too many states")
        return None
    first = wg.legal_count[wg.root]
    winning_first = len(wg.winning_first_moves())
    if not wg.winnable or tempting in wg.winning_first_moves():
        raise AssertionError("the exhaustive search disagrees with the solver")
    if 2 * winning_first > first:
        rejected("many winning first moves")
        return None
    par, line = wg.cheapest_line()
    shortest = _shortest(wg)
    if shortest < 3:
        rejected("short")
        return None
    keys = wg.key_moves()
    n = PLAYOUTS[size]
    noisy = playouts(start, "greedy", cand["playout"] ^ 0x5DEECE66D, n)
    p = wg.random_win_probability()
    features = {
        "players": deal.players,
        "empty_slots": empty_slots(start),
        "first_moves": first,
        "winning_first_moves": winning_first,
        "winning_lines": wg.winning_lines(),
        "shortest_win": shortest,
        "key_moves": len(keys),
        "states": wg.states,
        "par": par,
        "random_win": float(f"{float(p):.9g}"),
        "tempting_move": start.move_text(tempting),
        "playouts": n,
        "playout_wins": sum(x.won for x in noisy),
    }
    # key moves as text in their own positions: replay the cheapest line and the
    # dominator states (each key move's state lies on every winning line, so on this one)
    entries = []
    g = start.copy()
    pending = list(keys)
    for m in line:
        if pending and pending[0][0] == state_key(g):
            entries.append(_move_entry(g, pending[0][1]))
            pending.pop(0)
        g.push(m)
    assert not pending, "every key move lies on every winning line"
    solution = Plan(deal, prefix + line, {"start_move": len(prefix)}).to_json()
    return {
        "rules": deal.rules.to_dict(),
        "position": start.to_position(),
        "goal": {"text": f"Win from this position: reach the Summit, playing every seat "
                         f"(player {start.to_move + 1} moves first).", "max_out": None},
        "par": par,
        "par_proven": True,
        "features": features,
        "key_moves_source": "dominators of the winning-state graph",
        "key_moves": entries,
        "solution": solution,
    }


def _shortest(wg) -> int:
    memo: dict = {}

    def d(key: tuple) -> int:
        if key in memo:
            return memo[key]
        v = 0 if key in wg.won else 1 + min(d(c) for _m, c in wg.edges[key])
        memo[key] = v
        return v

    return d(wg.root)


# ---- the puzzle of a date ----------------------------------------------------------------

def evaluate(kind: str, size: str, cand: dict[str, int],
             version: int | None = None) -> dict[str, Any] | None:
    """The partial record of a candidate with its ``score`` (or ``None``: criteria fail),
    as generator ``version`` made it (only full deals differ between versions 1 and 2)."""
    if version is None:
        version = version_for(kind, size)
    rec = (evaluate_deal(cand, size, version) if kind == "deal"
           else evaluate_position(cand, size))
    if rec is not None:
        rec["score"] = score(kind, size, rec["features"])
    return rec


def puzzle_for(date: _dt.date, kind: str = "deal", size: str = "full",
               max_candidates: int = MAX_CANDIDATES) -> dict[str, Any]:
    """The puzzle record of ``date`` (a UTC calendar date) for ``kind`` (``deal`` |
    ``position``) and ``size`` (``full`` | ``mini``): the first candidate of the date's
    stream that meets the criteria and falls in the date's grade band.

    Raises ``ValueError`` (or :class:`puzzles.dates.DateError`) for bad input and
    :class:`GenerationError` when no candidate fits within ``max_candidates``.
    """
    check_kind_size(kind, size)
    check_date(date)
    band = band_for(date)
    for k in range(max_candidates):
        cand = candidate(date, kind, size, k)
        rec = evaluate(kind, size, cand)
        if rec is None or grade_of(kind, size, rec["score"]) != band:
            continue
        return record(date, kind, size, k, cand, rec)
    raise GenerationError(f"no {kind}/{size} candidate of {date.isoformat()} met the "
                          f"criteria of band {band} within {max_candidates} candidates")


def record(date: _dt.date, kind: str, size: str, k: int, cand: dict[str, int],
           rec: dict[str, Any], version: int | None = None) -> dict[str, Any]:
    """Assemble the puzzle record (key order fixed) from an evaluated candidate of
    generator ``version`` (``None``: :func:`version_for`)."""
    if version is None:
        version = version_for(kind, size)
    out: dict[str, Any] = {
        "date": date.isoformat(),
        "kind": kind,
        "size": size,
        "rules": rec["rules"],
    }
    out["deal" if kind == "deal" else "position"] = rec["deal" if kind == "deal" else "position"]
    out.update({
        "goal": rec["goal"],
        "par": rec["par"],
        "par_proven": rec["par_proven"],
        "grade": grade_of(kind, size, rec["score"]),
        "score": rec["score"],
        "features": rec["features"],
        "key_moves_source": rec["key_moves_source"],
        "key_moves": rec["key_moves"],
        "solution": rec["solution"],
        "generator": {
            "name": GENERATOR_NAME,
            "version": version,
            "candidate": k,
            "candidate_values": cand,
            "thresholds": list(THRESHOLDS[kind, size]),
        },
    })
    return out


__all__ = ["GENERATOR_VERSION", "version_for", "GenerationError", "MINI_RULES", "puzzle_for",
           "evaluate", "record"]
