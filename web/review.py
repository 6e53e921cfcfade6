"""The review of a finished game, as the page shows it: the open-hand verdict of every position
(:func:`solver.analysis.analyse`), the losing move with its reason when one is proven
(:mod:`solver.reasons`), the winning line from the last winnable position, and, where the
project has it, the silent review's win chance along the game (``bots.review``).

The review is made after the game is over, so it may show every card: the winning line uses
the other players' hands and the decks as they were.
"""

from __future__ import annotations

from typing import Any, Callable

from model.deal import Deal
from model.game import Game, count_text
from model.moves import Move
from solver.result import LOSS, UNKNOWN, WIN
from web import games


def review_data(start: Deal | Game, moves: list[Move], seconds: float,
                silent_bot: str | None = None,
                progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """The review of the game of ``moves`` from ``start``, ``seconds`` per position solved:

    ``{"status": "done", "moves": [{"index", "text", "player", "before", "after"}, …],
    "start_verdict", "losing_move", "losing_text", "window": [first, last] | null (the moves
    between which the game was lost: :attr:`solver.analysis.Analysis.window`),
    "window_text" (``"lost between move 32 and move 38"``), "reason": {"kind", "text",
    "specific"} | null, "why" (the reason, naming its position: ``"Why the position after
    move 38 cannot be won: …"``), "first_proven_loss", "best_instead", "line_from" (the
    position of the winning line, moves made),
    "winning_line": [{"move", "text"}, …], "unknown" (positions left unknown), "summary",
    "seconds", "silent": {...} | null, "marks": [...]}``. ``marks``: the silent review's
    named mistakes (``[{"index", "mark", "sign", "sure", "drop", "interval", "worlds",
    "alternative"}, …]``, biggest drop first; :mod:`bots.mistakes`), ``[]`` without a silent
    review; each move of ``silent`` carries its ``mark``, ``sure`` and ``paired``
    comparison. Every line shown is replayed by :mod:`model` here.
    Raises :class:`~model.errors.IllegalMoveError` if ``moves`` do not replay.
    ``progress``, when given, is told ``{"phase": "open", "done", "positions"}`` after each
    position solved (``done``: positions whose verdict is known so far) and ``{"phase":
    "silent", ...}`` when the silent review starts."""
    from solver.analysis import analyse, positions_of, window_text

    def told(done: int, total: int) -> None:
        if progress is not None:
            progress({"phase": "open", "done": done, "positions": total})

    a = analyse(start, moves, "none", time_per_move=seconds, memory_limit_mb=512, progress=told)
    games = positions_of(start, moves)
    rows = []
    for k, m in enumerate(moves, start=1):
        rows.append({"index": k, "text": games[k - 1].move_text(m), "player": m.player,
                     "before": a.positions[k - 1].verdict, "after": a.positions[k].verdict})
    wins = [p.index for p in a.positions if p.verdict == WIN]
    line_from = max(wins) if wins else None
    line: list[Move] = []
    if line_from is not None and line_from < len(moves):
        line = list(a.positions[line_from].continuation)
        g = games[line_from].copy()
        for m in line:  # the rules engine replays every line before it is shown
            g.push(m)
        if not g.is_won():
            line = []
    texts = []
    if line and line_from is not None:
        at = games[line_from].copy()
        for m in line:
            texts.append({"move": m.to_json(), "text": at.move_text(m)})
            at.push(m)
    unknown = sum(p.verdict == UNKNOWN for p in a.positions)
    end = games[-1]
    if end.is_won():
        summary = "Won: every position along the game was a win."
    elif a.positions[0].verdict == LOSS:
        summary = "The deal could not be won from the start, whatever was played (open hands)."
    elif a.losing_move is not None:
        summary = (f"Lost by move {a.losing_move} ({rows[a.losing_move - 1]['text']}): the game "
                   "could be won before it and not after.")
    elif a.window is not None:
        first, last = a.window
        summary = (f"The game was {window_text(a.window)}: "
                   + (f"the position before move {first} could be won, " if first > 1
                      or a.positions[0].verdict == WIN else "")
                   + f"the one after move {last} cannot, and the analysis ran out of time on "
                   f"the {count_text(last - first, 'position')} between, so the losing move "
                   "itself is not pinned.")
    else:
        summary = ("The analysis ran out of time before it found where the game was lost "
                   f"({count_text(unknown, 'position')} unknown).")
    why = None
    if a.reason is not None and a.first_proven_loss is not None:
        why = (f"Why the position after move {a.first_proven_loss} cannot be won: "
               f"{a.reason.text}")
    if silent_bot and progress is not None:
        progress({"phase": "silent", "done": len(moves) + 1, "positions": len(moves) + 1})
    silent = silent_review(start, moves, silent_bot) if silent_bot else None
    return {
        "status": "done",
        "moves": rows,
        "start_verdict": a.positions[0].verdict,
        "losing_move": a.losing_move,
        "losing_text": rows[a.losing_move - 1]["text"] if a.losing_move else None,
        "window": list(a.window) if a.window is not None else None,
        "window_text": window_text(a.window),
        "reason": a.reason.to_json() if a.reason is not None else None,
        "why": why,
        "first_proven_loss": a.first_proven_loss,
        "best_instead": texts[0]["text"] if texts and a.losing_move else None,
        "line_from": line_from if line else None,
        "winning_line": texts,
        "unknown": unknown,
        "summary": summary,
        "seconds": a.stats.get("seconds"),
        "silent": silent,
        "marks": list(silent.get("marks", [])) if silent else [],
    }


#: Seconds the silent review may spend on a whole game.
SILENT_REVIEW_SECONDS = 30.0


def silent_review(start: Deal | Game, moves: list[Move], bot: str) -> dict[str, Any] | None:
    """The silent review's answer (``bots.review.review_game(start, moves, bot=...)``: the
    team's chance to win before and after each move, from the mover's observation, and the
    marks of the decisions whose paired comparison separated, in
    :data:`SILENT_REVIEW_SECONDS` at most: each decision's share of that time, so a
    comparison stops after fewer looks than on the command line and marks less) as JSON,
    or ``None`` where the project has no silent review."""
    try:
        from bots.review import review_game  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    res = review_game(start, moves, bot=bot, time_limit=SILENT_REVIEW_SECONDS, open_hand=False)
    data = res.to_json() if hasattr(res, "to_json") else res
    return data if isinstance(data, dict) else {"value": data}


def line_step(start: Game, line: list[Move], k: int) -> dict[str, Any]:
    """Step ``k`` (0 = the position before the line) of a review's winning line from
    ``start``: ``{"step", "total", "text", "move", "cards_out", "outcome", "svg"}``.
    Raises ``IndexError`` for a ``k`` out of range."""
    if not 0 <= k <= len(line):
        raise IndexError(f"the winning line has steps 0..{len(line)}, not {k}")
    return games.line_step(start, line, k, "Winning line", hands=True,
                           before="the position before the winning line")


__all__ = ["line_step", "review_data", "silent_review"]
