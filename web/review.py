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

#: Seconds the open-hand analysis of a review may spend on the whole game.
OPEN_SECONDS = 5.0
#: Seconds a whole review may take (the open-hand analysis, then the silent review in what
#: is left, at least :data:`SILENT_MIN_SECONDS`; a decision's first look may overrun its
#: share): a 50-move game in under 20 s.
REVIEW_BUDGET = 16.0
SILENT_MIN_SECONDS = 4.0


def review_data(start: Deal | Game, moves: list[Move], seconds: float,
                silent_bot: str | None = None,
                progress: Callable[[dict[str, Any]], None] | None = None,
                known: dict[str, Any] | None = None,
                budget: float = REVIEW_BUDGET, team: str | None = None) -> dict[str, Any]:
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
    ``chart``: the silent review's chance chart (SVG text, :func:`bots.review.review_chart`)
    or ``null``. Raises :class:`~model.errors.IllegalMoveError` if ``moves`` do not replay.

    Time: the open-hand analysis gets ``seconds`` a position and :data:`OPEN_SECONDS` in
    all, the silent review what is left of ``budget`` seconds (at least
    :data:`SILENT_MIN_SECONDS`). ``progress``, when given, is told ``{"phase": "open",
    "done", "positions"}`` as positions are decided (``done``: positions whose verdict is
    known so far), with ``"solved"``: the state of the position just solved
    (:meth:`solver.analysis.PositionVerdict.to_state`); then ``{"phase": "silent", "done",
    "positions"}`` as moves are reviewed (``done`` of ``positions`` moves), with
    ``"reviewed"``: the move's state (:meth:`bots.review.MoveReview.to_state`). ``known``:
    those states kept from a review that was stopped (``{"open": [state, …], "silent":
    [state, …]}``, or dicts of them): reused, not computed again. ``team``: the bot of the
    team-mates, for the chances calibrated for it (:mod:`bots.calibration`)."""
    import time

    from solver.analysis import PositionVerdict, analyse, positions_of, window_text

    t0 = time.monotonic()
    counts = {"done": 0, "positions": len(moves) + 1}

    def told(done: int, total: int) -> None:
        counts.update(done=done, positions=total)

    def solved(p: PositionVerdict) -> None:
        if progress is not None:
            progress({"phase": "open", "done": counts["done"], "positions": counts["positions"],
                      "solved": p.to_state()})

    old_open = {int(v["index"]): PositionVerdict.from_state(v)
                for v in _states((known or {}).get("open"))}
    a = analyse(start, moves, "none", time_per_move=seconds, memory_limit_mb=512,
                progress=told, known=old_open, solved=solved, time_limit=OPEN_SECONDS)
    if progress is not None:
        progress({"phase": "open", "done": counts["done"], "positions": counts["positions"]})
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
    silent = chart = None
    if silent_bot:
        old = {int(v["index"]) - 1: v for v in _states((known or {}).get("silent"))}
        left = max(SILENT_MIN_SECONDS, budget - (time.monotonic() - t0))
        res = silent_review(start, moves, silent_bot, left, old, progress, team)
        if res is not None:
            from bots.review import review_chart

            silent = res.to_json()
            chart = review_chart(res, a.window, a.losing_move) if res.moves else None
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
        "chart": chart,
    }


def _states(kept: Any) -> list[dict[str, Any]]:
    """The states of ``known["open"]`` or ``known["silent"]`` (a list, a dict of them, or
    nothing)."""
    if isinstance(kept, dict):
        return list(kept.values())
    return list(kept or [])


def silent_review(start: Deal | Game, moves: list[Move], bot: str, seconds: float,
                  known: dict[int, dict[str, Any]] | None = None,
                  progress: Callable[[dict[str, Any]], None] | None = None,
                  team: str | None = None) -> Any:
    """The silent review (:func:`bots.review.review_game` with ``bot``, ``seconds`` for the
    whole game: each decision's share of it, so a comparison stops after fewer looks than
    on the command line and marks less; no open-hand analysis), reusing the moves of
    ``known`` (:meth:`bots.review.MoveReview.to_state`, by 0-based move index) and telling
    ``progress`` each move reviewed (see :func:`review_data`); ``team``: the team-mates' bot,
    for the chances calibrated for it (:mod:`bots.calibration`); ``None`` where the project
    has no silent review."""
    try:
        from bots.review import MoveReview, review_game
    except ImportError:  # pragma: no cover - the silent review is part of the project
        return None
    done = {i: MoveReview.from_state(v) for i, v in (known or {}).items()}
    count = [len(done)]

    def reviewed(m: Any) -> None:
        count[0] += 1
        if progress is not None:
            progress({"phase": "silent", "done": count[0], "positions": len(moves),
                      "reviewed": m.to_state()})

    return review_game(start, moves, bot=bot, time_limit=seconds, open_hand=False,
                       done=done, reviewed=reviewed, team=team)


def line_step(start: Game, line: list[Move], k: int) -> dict[str, Any]:
    """Step ``k`` (0 = the position before the line) of a review's winning line from
    ``start``: ``{"step", "total", "text", "move", "cards_out", "outcome", "svg"}``.
    Raises ``IndexError`` for a ``k`` out of range."""
    if not 0 <= k <= len(line):
        raise IndexError(f"the winning line has steps 0..{len(line)}, not {k}")
    return games.line_step(start, line, k, "Winning line", hands=True,
                           before="the position before the winning line")




# ---- learn from your mistakes ---------------------------------------------------------------

#: The learn exercise's paired comparison: at most this many worlds, this many seconds.
LEARN_WORLDS = 128
LEARN_SECONDS = 4.0


def review_position(start: Deal | Game, moves: list[Move], p: int) -> dict[str, Any]:
    """The position after ``p`` moves of a reviewed game (0: the start), every card shown
    (the game is over): ``{"position", "total", "text", "move", "cards_out", "outcome",
    "to_move", "svg"}``. Raises ``IndexError`` for a ``p`` outside 0..len(moves)."""
    if not 0 <= p <= len(moves):
        raise IndexError(f"the game has positions 0..{len(moves)}, not {p}")
    game = start.copy() if isinstance(start, Game) else Game(start)
    data = games.line_step(game, moves, p, "The game", hands=True, before="the start")
    g = game.copy()
    for m in moves[:p]:
        g.push(m)
    return {"position": p, "total": len(moves), "text": data["text"], "move": data["move"],
            "cards_out": data["cards_out"], "outcome": data["outcome"],
            "to_move": g.to_move + 1 if g.outcome() is None else None, "svg": data["svg"]}


def marked_move(review: dict[str, Any], k: int) -> dict[str, Any]:
    """The mark of move ``k`` in a done review's JSON (``{"index", "mark", "alternative",
    …}``). Raises ``LookupError`` when move ``k`` is not a marked decision."""
    for m in review.get("marks") or []:
        if m.get("index") == k:
            return dict(m)
    marked = ", ".join(str(m["index"]) for m in review.get("marks") or []) or "none"
    raise LookupError(f"move {k} is not a marked decision of the review (marked: {marked})")


def learn_position(start: Deal | Game, moves: list[Move], k: int) -> dict[str, Any]:
    """The exercise of marked move ``k``: the position before it as its player saw it (their
    own hand only, ruling V1: the other hands and the decks stay hidden, as when the move
    was made): ``{"index", "player", "text" (what was played, hidden until answered: not
    included), "svg", "hand", "card_svgs", "targets", "no_slot", "moves"}`` (``targets``:
    each card's legal slots, as the play page gets them; ``moves``: every legal move
    ``{"move", "text"}``, for a list to choose from). Raises ``IndexError`` for a ``k`` outside
    1..len(moves)."""
    from render.svg import card_svg, game_svg
    from web.teach import no_slot, targets

    if not 1 <= k <= len(moves):
        raise IndexError(f"the game has moves 1..{len(moves)}, not {k}")
    g = start.copy() if isinstance(start, Game) else Game(start)
    for m in moves[:k - 1]:
        g.push(m)
    hand = g.hands[g.to_move]
    legal = targets(g)
    return {"index": k, "player": g.to_move + 1, "turn": g.turn,
            "svg": game_svg(g, f"Before move {k}: player {g.to_move + 1} to move", hands=False),
            "hand": [c.text for c in hand],
            "card_svgs": {c.text: card_svg(c, 46) for c in set(hand)},
            "targets": legal, "no_slot": no_slot(g, hand, legal),
            "moves": [{"move": m.to_json(), "text": g.move_text(m)} for m in g.legal_moves()]}


def judge_answer(start: Deal | Game, moves: list[Move], k: int, answer: Move,
                 alternative: Move, estimator: str = "greedy", seed: int = 0,
                 worlds: int = LEARN_WORLDS, seconds: float = LEARN_SECONDS) -> dict[str, Any]:
    """Judge the player's ``answer`` for move ``k`` (1-based) of the game with the review's
    own paired test (:func:`bots.mistakes.compare_moves`, the review's evaluator
    :func:`bots.review.evaluator_for`): the answer and the move played in the same fresh
    worlds drawn from the mover's observation, up to ``worlds`` worlds or ``seconds``.
    ``{"index", "answer": {"move", "text", "chance"}, "played": {"move", "text", "chance"},
    "review_move": {"move", "text"}, "gain", "interval" (the answer's chance − the move
    played's, 95 %), "worlds", "verdict", "words"}``; ``verdict``: ``better`` (the interval
    above 0), ``worse`` (below 0), ``even`` (neither), ``played`` (the move played again) or
    ``review`` (the review's own move; still tested). Raises
    :class:`~model.errors.IllegalMoveError` for an answer that is not legal there and
    ``IndexError`` for a ``k`` outside 1..len(moves)."""
    from bots.mistakes import compare_moves
    from bots.review import evaluator_for
    from model.observation import observe

    if not 1 <= k <= len(moves):
        raise IndexError(f"the game has moves 1..{len(moves)}, not {k}")
    g = start.copy() if isinstance(start, Game) else Game(start)
    for m in moves[:k - 1]:
        g.push(m)
    g.check(answer)  # raises IllegalMoveError with the ruling and reason
    played = moves[k - 1]
    c = compare_moves(observe(g), played, answer, evaluator_for(estimator),
                      first=min(16, worlds), cap=worlds, seed=seed * 100003 + k,
                      time_limit=seconds)
    lo, hi = c.interval
    if answer == played:
        verdict, words = "played", "That is the move that was played."
    elif lo > 0:
        verdict, words = "better", (f"Better than the move played: {100 * c.drop:+.0f} points "
                                    f"of the chance to win [{100 * lo:+.0f}, {100 * hi:+.0f}].")
    elif hi < 0:
        verdict, words = "worse", (f"Worse than the move played: {100 * c.drop:+.0f} points "
                                   f"[{100 * lo:+.0f}, {100 * hi:+.0f}].")
    else:
        verdict, words = "even", (f"No clear difference from the move played in "
                                  f"{c.worlds} worlds: {100 * c.drop:+.0f} points "
                                  f"[{100 * lo:+.0f}, {100 * hi:+.0f}].")
    if answer == alternative and answer != played:
        verdict, words = "review", "The review's own move. " + words
    return {"index": k, "answer": {"move": answer.to_json(), "text": g.move_text(answer),
                                   "chance": round(c.chance_alternative, 4)},
            "played": {"move": played.to_json(), "text": g.move_text(played),
                       "chance": round(c.chance_played, 4)},
            "review_move": {"move": alternative.to_json(), "text": g.move_text(alternative)},
            "gain": round(c.drop, 4), "interval": [round(lo, 4), round(hi, 4)],
            "worlds": c.worlds, "verdict": verdict, "words": words}


__all__ = ["LEARN_SECONDS", "LEARN_WORLDS", "OPEN_SECONDS", "REVIEW_BUDGET", "judge_answer",
           "learn_position", "line_step", "marked_move", "review_data", "review_position",
           "silent_review"]
