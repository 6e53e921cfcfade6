"""A game review from the players' point of view: the win chance before and after every move.

:func:`review_game` goes through a played game move by move. At each position the mover's
observation alone (ruling V1) is handed to :func:`bots.advice.advise`, which rates the move
played, the move the strong bot (``bot``, default ``uct``) would play there and the greedy ranking's best
``candidates`` (in the same sampled worlds, each world played on by the estimator: see
:mod:`bots.advice`). For every move:

* ``chance_before``: the chance of the bot's own choice (the mover's chance before the move,
  playing on as the bot would), with its 95 % Wilson interval;
* ``chance_after``: the chance after the move played;
* ``chance_best`` and ``best_move``: the best move found and its chance;
* ``drop`` = ``chance_best − chance_after`` (what the move played cost, by this estimate).

``costly`` lists the moves whose drop is at least :data:`COSTLY_DROP` and whose interval
lies below the best move's (the best move separated from it), biggest drops first.

**The marks** (``marks=True``, the default): the rated moves above are a screen that names
the best alternative to the move played (the best-rated other move). The move played and
that alternative are then compared in *fresh* worlds, paired (the same world and the same
future randomness for both: :func:`bots.mistakes.compare_moves`), worlds added in looks
until the 95 % interval of the drop is clear of 0 or below 5 points, or ``paired_cap``
worlds; fresh worlds, because the alternative was picked as the best of the screen and
would look better than it is in the worlds that picked it. A decision is marked
``inaccuracy``, ``mistake`` or ``blunder`` (lichess's 5 / 10 / 15 points of the chance to
win) alone when the interval's lower end is above 0 (:mod:`bots.mistakes`). **Game-wide**
(``fdr=True``, the default), a mark is then kept only when it survives Benjamini–Hochberg
at 5 % false discoveries over every decision compared in the game
(:func:`apply_game_fdr`): each decision's p-value is the one-sided exact McNemar p-value,
the smallest over its looks times the looks its cap allows (:attr:`bots.mistakes.Comparison.
p_value`), and its q-value its BH-adjusted p-value; ``sure`` is 1 − q (1 − p with
``fdr=False``). The worlds are played on by the estimator's policy
(:func:`bots.mistakes.playout_evaluator`). With
``open_hand`` the game is also analysed with every card known (:func:`solver.analysis.
analyse`): whether the deal was winnable, the open-hand losing move and why the position
after it is lost.

>>> from model.deal import Deal
>>> from model.rules import RuleSet
>>> from bots import make_bot
>>> from bots.base import play_deal
>>> game = play_deal(Deal.from_seed(3, 1, RuleSet.tiny()), make_bot("greedy"))
>>> r = review_game(game.plan.start, game.plan.moves, worlds=8, open_hand=False)
>>> len(r.moves) == len(game.plan.moves), r.to_json()["moves"][0]["index"]
(True, 1)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from bots.advice import ESTIMATOR_TEXT, ESTIMATORS, MoveChance, advise, rated_moves
from bots.calibration import Calibration, calibration_for
from bots.mistakes import (
    CAP_WORLDS,
    FDR_LEVEL,
    FIRST_WORLDS,
    MARK_SIGNS,
    Comparison,
    WorldEvaluator,
    bh_qvalues,
    compare_moves,
    playout_evaluator,
)
from model.deal import Deal
from model.files import link_new
from model.game import Game
from model.moves import Move
from model.observation import observe

#: a move is costly when the best move found wins at least this much more often
COSTLY_DROP = 0.05
DEFAULT_WORLDS = 48
#: seconds per position for the open-hand verdicts (solver.analysis.analyse)
OPEN_HAND_SECONDS = 1.0


@dataclass
class MoveReview:
    """One move of a reviewed game (``index`` from 1, the ``player`` 1-based, the ``move``
    and its ``text``): the three rated moves of the position before it (:mod:`bots.review`
    docstring); ``worlds`` played per rated move; ``paired``: the comparison with the best
    alternative (or ``None``: not tested); ``q_value``: its Benjamini–Hochberg q-value over
    the game (:func:`apply_game_fdr`); ``fdr``: whether the mark must survive it."""

    index: int
    player: int
    move: Move
    text: str
    before: MoveChance
    after: MoveChance
    best: MoveChance
    bot_move: Move
    worlds: int
    paired: Comparison | None = None
    q_value: float | None = None
    fdr: bool = True
    drawn: list[str] = field(default_factory=list)
    calibration: Calibration | None = None

    def shown(self, r: MoveChance) -> float:
        """The chance of ``r`` as the review shows it: calibrated for the team that played
        (:mod:`bots.calibration`) when the review has a calibration, else the estimator's."""
        return self.calibration(r.chance) if self.calibration is not None else r.chance

    def shown_interval(self, r: MoveChance) -> tuple[float, float]:
        """The 95 % interval of :meth:`shown` (the ends mapped; the map is monotone)."""
        lo, hi = r.interval
        return self.calibration.interval(lo, hi) if self.calibration is not None else (lo, hi)

    @property
    def mark_alone(self) -> str | None:
        """The decision's own mark (:attr:`bots.mistakes.Comparison.mark`), before the
        game-wide control."""
        return self.paired.mark if self.paired is not None else None

    @property
    def mark(self) -> str | None:
        """``inaccuracy``, ``mistake``, ``blunder`` or ``None``: :attr:`mark_alone`, kept
        with ``fdr`` only when the q-value is at most :data:`bots.mistakes.FDR_LEVEL`."""
        if self.mark_alone is None:
            return None
        if self.fdr and (self.q_value is None or self.q_value > FDR_LEVEL):
            return None
        return self.mark_alone

    @property
    def sure(self) -> float | None:
        """How sure the alternative is better: 1 − q with ``fdr`` (once the q-value is
        known), else 1 − the decision's p-value; ``None`` when not tested."""
        if self.paired is None:
            return None
        if self.fdr and self.q_value is not None:
            return 1.0 - self.q_value
        return self.paired.sure

    @property
    def screen_drop(self) -> float:
        """The screen's drop: the best rated move's chance − the move played's (the worlds
        that picked the alternative; biased up, so not the number shown)."""
        return self.best.chance - self.after.chance

    @property
    def drop(self) -> float:
        """The decision's one number: the paired comparison's drop (alternative's chance −
        the move played's, in fresh paired worlds) when it was compared, else the screen's
        (:attr:`screen_drop`)."""
        return self.paired.drop if self.paired is not None else self.screen_drop

    @property
    def drop_interval(self) -> tuple[float, float] | None:
        """The 95 % interval of :attr:`drop` (the paired comparison's), ``None`` when the
        decision was not compared."""
        return self.paired.interval if self.paired is not None else None

    @property
    def costly(self) -> bool:
        """The decision is marked (:attr:`mark`): the costly decisions are the marks."""
        return self.mark is not None

    def to_state(self) -> dict[str, Any]:
        """Everything of this move's review, exactly (counts, not shares), as JSON, read back
        by :meth:`from_state` (a stopped review keeps its moves reviewed so far and resumes
        with them: :func:`review_game`'s ``done``)."""
        def chance(r: MoveChance) -> list[Any]:
            return [r.move.to_json(), r.worlds, r.wins, r.out_total, r.slots_total]

        p = self.paired
        return {"index": self.index, "player": self.player, "move": self.move.to_json(),
                "text": self.text, "before": chance(self.before), "after": chance(self.after),
                "best": chance(self.best), "bot_move": self.bot_move.to_json(),
                "worlds": self.worlds,
                "paired": None if p is None else {
                    "played": p.played.to_json(), "alternative": p.alternative.to_json(),
                    "counts": [p.both, p.alt_only, p.played_only, p.neither],
                    "interval": list(p.interval), "stopped": p.stopped, "seconds": p.seconds,
                    "looks": [p.looks_allowed, p.looks_made], "p_looks": p.p_looks}}

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> MoveReview:
        """The move review written by :meth:`to_state`. Raises ``KeyError``, ``TypeError``
        or ``ValueError`` for a malformed one."""
        def chance(x: list[Any]) -> MoveChance:
            return MoveChance(Move.from_json(x[0]), int(x[1]), int(x[2]), int(x[3]), int(x[4]))

        q = data.get("paired")
        paired = None
        if q is not None:
            both, alt_only, played_only, neither = (int(c) for c in q["counts"])
            paired = Comparison(Move.from_json(q["played"]), Move.from_json(q["alternative"]),
                                both, alt_only, played_only, neither,
                                (float(q["interval"][0]), float(q["interval"][1])),
                                str(q["stopped"]), float(q["seconds"]), int(q["looks"][0]),
                                int(q["looks"][1]), float(q["p_looks"]))
        return cls(int(data["index"]), int(data["player"]), Move.from_json(data["move"]),
                   str(data["text"]), chance(data["before"]), chance(data["after"]),
                   chance(data["best"]), Move.from_json(data["bot_move"]), int(data["worlds"]),
                   paired)

    def to_json(self) -> dict[str, Any]:
        def iv(r: MoveChance) -> list[float]:
            return [round(x, 4) for x in self.shown_interval(r)]

        return {"index": self.index, "player": self.player, "move": self.move.to_json(),
                "text": self.text, "chance_before": round(self.shown(self.before), 4),
                "interval_before": iv(self.before), "bot_move": self.bot_move.to_json(),
                "chance_after": round(self.shown(self.after), 4), "interval_after": iv(self.after),
                "chance_best": round(self.shown(self.best), 4), "interval_best": iv(self.best),
                "estimate": {"before": round(self.before.chance, 4),
                             "after": round(self.after.chance, 4),
                             "best": round(self.best.chance, 4)},
                "best_move": self.best.move.to_json(), "drop": round(self.drop, 4),
                "drop_interval": None if self.drop_interval is None
                else [round(x, 4) for x in self.drop_interval],
                "screen_drop": round(self.screen_drop, 4), "drawn": list(self.drawn),
                "cards_out_after": round(self.after.cards_out, 2), "worlds": self.worlds,
                "tested": self.paired is not None, "mark": self.mark,
                "sure": None if self.sure is None else round(self.sure, 4),
                "p_value": self.paired.p_value if self.paired is not None else None,
                "q_value": self.q_value, "mark_alone": self.mark_alone,
                "mark_survived": None if self.mark_alone is None else self.mark is not None,
                "paired": self.paired.to_json() if self.paired is not None else None}


@dataclass
class GameReview:
    """The answer of :func:`review_game`: ``players``, the ``moves`` reviewed
    (:class:`MoveReview`, in game order), the ``estimator`` (:data:`bots.advice.ESTIMATORS`)
    and ``bot``, ``open_hand`` (``None`` unless asked: ``winnable`` (the start's open-hand
    verdict: ``win``, ``loss`` or ``unknown``), ``losing_move`` (1-based or ``None``),
    ``best_instead``, ``reason``), ``outcome`` (``win``, ``loss`` or ``None`` mid-game),
    ``complete`` (every move reviewed: ``False`` after an interrupt), ``stats`` and ``fdr``
    (the marks are kept by the game-wide control: :func:`apply_game_fdr`)."""

    players: int
    moves: list[MoveReview]
    estimator: str
    bot: str
    open_hand: dict[str, Any] | None
    outcome: str | None
    complete: bool
    stats: dict[str, Any] = field(default_factory=dict)
    fdr: bool = True
    calibration: Calibration | None = None

    @property
    def costly(self) -> list[MoveReview]:
        """The costly moves: exactly the marked ones (:attr:`marked`), biggest paired drop
        first."""
        return self.marked

    @property
    def removed(self) -> list[MoveReview]:
        """The decisions marked alone whose mark the game-wide control removed."""
        return [m for m in self.moves if m.mark_alone and not m.mark]

    @property
    def marked(self) -> list[MoveReview]:
        """The marked decisions (:attr:`MoveReview.mark`: with ``fdr``, the surviving
        marks only), biggest paired drop first."""
        return sorted((m for m in self.moves if m.mark and m.paired is not None),
                      key=lambda m: (-m.paired.drop, m.index))  # type: ignore[union-attr]

    def to_json(self) -> dict[str, Any]:
        """``{"players", "bot", "estimator", "estimator_text", "outcome", "complete",
        "moves": [{"index", "player", "move", "text", "chance_before", "interval_before",
        "bot_move", "chance_after", "interval_after", "chance_best", "interval_best",
        "best_move", "drop", "cards_out_after", "worlds", "tested", "mark", "sure",
        "p_value", "q_value", "mark_alone", "mark_survived", "paired": {"mark", "sure",
        "p_value", "looks", "drop", "interval", "worlds", "alternative", "chance_played",
        "chance_alternative", "discordant", "stopped"} | null}, …], "costly": [index, …]
        (biggest drops first), "fdr", "marks": [{"index", "mark", "sign", "sure", "p_value",
        "q_value", "drop", "interval", "worlds", "alternative"}, …] (biggest paired drop
        first), "open_hand": {"winnable", "losing_move", "best_instead", "reason"} | null,
        "stats"}``. Chances are shares in 0..1. A move's ``tested``: it was compared;
        ``p_value``: its p-value adjusted for its looks; ``q_value``: its BH q-value over the
        game (both ``null`` untested); ``mark_alone``: the mark of the decision alone;
        ``mark_survived``: whether that mark is kept (``null`` without one); ``mark`` and
        ``sure`` (1 − q, or 1 − p with ``fdr`` off) are the review's. The ``paired`` part
        is the decision alone."""
        marks = []
        for m in self.marked:
            p = m.paired
            assert p is not None and m.mark is not None and m.sure is not None
            marks.append({"index": m.index, "mark": m.mark, "sign": MARK_SIGNS[m.mark],
                          "sure": round(m.sure, 4), "p_value": p.p_value,
                          "q_value": m.q_value, "drop": round(p.drop, 4),
                          "interval": [round(x, 4) for x in p.interval], "worlds": p.worlds,
                          "alternative": p.alternative.to_json()})
        c = self.calibration
        return {"players": self.players, "bot": self.bot, "estimator": self.estimator,
                "estimator_text": ESTIMATOR_TEXT[self.estimator]
                + (f", calibrated for {c.team} team-mates" if c is not None else ""),
                "team": c.team if c is not None else None,
                "calibration": c.to_json() if c is not None else None,
                "outcome": self.outcome,
                "complete": self.complete, "moves": [m.to_json() for m in self.moves],
                "costly": [m.index for m in self.costly], "fdr": self.fdr, "marks": marks,
                "open_hand": self.open_hand, "stats": self.stats}


def review_game(start: Deal | Game, moves: Sequence[Move], bot: str = "uct",
                worlds: int = DEFAULT_WORLDS, time_limit: float | None = None,
                progress: Callable[[int, int], None] | None = None, open_hand: bool = True,
                estimator: str = "greedy", candidates: int = 4, seed: int = 0,
                workers: int = 1, marks: bool = True,
                paired_cap: int = CAP_WORLDS, fdr: bool = True,
                done: dict[int, MoveReview] | None = None,
                reviewed: Callable[[MoveReview], None] | None = None,
                team: str | None = None) -> GameReview:
    """Review the game of ``moves`` played from ``start`` (a deal or a fully known position).

    Each position gets ``worlds`` sampled worlds per rated move (fewer when the best move
    separates early; with ``time_limit`` seconds for the whole review, each position gets an
    equal share of what is left, at least one world a rated move and the paired comparison's
    first look, so a small limit can be exceeded; in one process the shares adapt to the time
    the positions before took). ``bot`` (a silent bot of :func:`bots.make_bot`,
    default ``uct``, the strongest measured) names the move the chance before follows;
    ``estimator`` (one of :data:`bots.advice.ESTIMATORS`) how a world is played on;
    ``candidates``: the greedy's best K also rated; ``workers``: processes reviewing
    positions side by side (1: this process); ``marks``: compare the move played with the
    best alternative in paired worlds and mark the mistakes (module docstring), up to
    ``paired_cap`` worlds a decision; ``fdr``: keep only the marks that survive the
    game-wide control (:func:`apply_game_fdr`; ``False``: each decision alone, for
    comparison). The answer does not depend on ``workers`` (each position's worlds come from ``seed`` and its index).
    ``progress(done, total)`` is called as moves are reviewed. ``done``: the moves already
    reviewed by a stopped review of the same game with the same settings (by 0-based move
    index, :meth:`MoveReview.from_state`): kept as they are, not reviewed again;
    ``reviewed(move_review)``, when given, is called with each move's review as it is made
    (in this process; to keep it for ``done``). ``team``: the bot that sat in the other
    seats (``uct``, …): the chances shown are then calibrated for it
    (:func:`bots.calibration.calibration_for`; none where the project has no calibration
    for it); the paired drops and the marks stay the estimator's. A ``KeyboardInterrupt`` ends
    the review with the moves reviewed so far (``complete=False``; no open-hand verdicts).
    Raises :class:`~model.errors.IllegalMoveError` for an illegal move of the game (replayed
    by :mod:`model` first), ``ValueError`` for an unknown bot or estimator, a bot that sees
    hidden cards, ``workers`` < 1 or ``paired_cap`` < 1."""
    t0 = time.monotonic()
    if estimator not in ESTIMATORS:
        raise ValueError(f"unknown estimator {estimator!r}; valid: {', '.join(ESTIMATORS)}")
    if bot == "cheat":
        raise ValueError(f"the review follows a silent bot; {bot!r} sees hidden cards")
    if workers < 1:
        raise ValueError(f"workers must be ≥ 1, not {workers}")
    if paired_cap < 1:
        raise ValueError(f"paired_cap must be ≥ 1, not {paired_cap}")
    _silent_bot(bot, seed)  # an unknown name fails here, before any work
    from solver.analysis import positions_of

    moves = list(moves)
    games = positions_of(start, moves)  # raises IllegalMoveError at the first illegal move
    share = None if time_limit is None else max(0.0, time_limit) * workers / max(1, len(moves))
    tasks = [(i, bot, worlds, share, estimator, candidates, seed, paired_cap if marks else 0)
             for i in range(len(moves))]
    found: dict[int, MoveReview] = {i: m for i, m in (done or {}).items()
                                     if 0 <= i < len(moves) and m.move == moves[i]}
    tasks = [t for t in tasks if t[0] not in found]
    complete = True
    try:
        if workers == 1 or len(tasks) < 2:
            for n, t in enumerate(tasks):
                if time_limit is not None:  # what is left, shared over the moves left: a
                    # position that overran its share (its minimum of worlds) is made up for
                    left = max(0.0, time_limit) - (time.monotonic() - t0)
                    t = t[:3] + (max(0.0, left) / (len(tasks) - n),) + t[4:]
                found[t[0]] = _review_position(games[t[0]], moves[t[0]], *t[1:])
                if reviewed is not None:
                    reviewed(found[t[0]])
                if progress is not None:
                    progress(len(found), len(moves))
        else:
            _review_in_pool(start, moves, tasks, workers, found, progress, reviewed)
    except KeyboardInterrupt:
        complete = False
    reviews = [found[i] for i in sorted(found)]
    calibration = calibration_for(team, estimator)
    for m in reviews:
        m.drawn = cards_drawn(games[m.index - 1], games[m.index], m.player - 1)
        m.calibration = calibration
    if complete and len(reviews) != len(moves):  # pragma: no cover - a worker's answer lost
        complete = False
    apply_game_fdr(reviews, fdr)  # over the decisions compared (so far, if interrupted)
    seconds = time.monotonic() - t0
    verdicts = None
    if open_hand and complete:
        verdicts = open_hand_verdicts(start, moves)
    last = games[-1]
    return GameReview(
        players=last.players, moves=reviews, estimator=estimator, bot=bot,
        open_hand=verdicts, outcome=last.outcome(), complete=complete, fdr=fdr,
        calibration=calibration,
        stats={"seconds": round(time.monotonic() - t0, 3), "review_seconds": round(seconds, 3),
               "worlds_per_move": worlds, "candidates": candidates, "workers": workers,
               "paired_cap": paired_cap if marks else 0,
               "paired_worlds": sum(m.paired.worlds for m in reviews if m.paired),
               "fdr": fdr, "fdr_level": FDR_LEVEL,
               "compared": sum(1 for m in reviews if m.paired is not None),
               "marks_alone": sum(1 for m in reviews if m.mark_alone),
               "marks": sum(1 for m in reviews if m.mark)})


def cards_drawn(before: Game, after: Game, seat: int) -> list[str]:
    """The cards seat ``seat`` (0-based) drew from its deck with the move from ``before`` to
    ``after`` (R11: a hand is drawn back up after a turn), top card first: what changed the
    next "before" chance beside the move (and the next mover's point of view)."""
    if len(after.decks[seat]) == len(before.decks[seat]):
        return []
    n = len(before.decks[seat]) - len(after.decks[seat])
    return [c.text for c in before.decks[seat][:n]]


def apply_game_fdr(reviewed: Sequence[MoveReview], fdr: bool = True) -> None:
    """Give every compared decision of ``reviewed`` (those with a ``paired`` comparison) its
    Benjamini–Hochberg q-value (:func:`bots.mistakes.bh_qvalues`) over the p-values of all
    of them (:attr:`bots.mistakes.Comparison.p_value`: one-sided exact McNemar, the
    smallest over the looks times the looks allowed), and set each move's ``fdr``: with it,
    a decision's mark is kept only when its q is at most :data:`bots.mistakes.FDR_LEVEL`
    (5 % false discoveries among the game's marks). Moves not compared get no q-value."""
    tested = [m for m in reviewed if m.paired is not None]
    qs = bh_qvalues([m.paired.p_value for m in tested])  # type: ignore[union-attr]
    for m, q in zip(tested, qs):
        m.q_value = q
    for m in reviewed:
        m.fdr = fdr


def _silent_bot(bot: str, seed: int):
    from bots import make_bot

    b = make_bot(bot, seed=seed) if bot in ("sampling", "determinized", "best", "team", "uct") else make_bot(bot)
    if getattr(b, "sees_hidden_cards", False):  # pragma: no cover - cheat, refused above
        raise ValueError(f"the review follows a silent bot; {bot!r} sees hidden cards")
    return b


def _review_position(game: Game, mv: Move, bot: str, worlds: int, share: float | None,
                     estimator: str, candidates: int, seed: int,
                     paired_cap: int = 0) -> MoveReview:
    """One move of the review: the position ``game`` before ``mv`` (with its history)."""
    t0 = time.monotonic()
    i = len(game.move_stack)
    obs = observe(game)
    bot_move = _silent_bot(bot, seed).choose(obs)
    if share is not None:  # the position's share covers the bot's choice too
        share = max(0.0, share - (time.monotonic() - t0))
    rate: list[Move] = []
    for m in [mv, bot_move] + rated_moves(obs, candidates):
        if m not in rate:
            rate.append(m)
    adv = advise(obs, rate, estimator=estimator, worlds=worlds, time_limit=share,
                 seed=seed * 100003 + i)
    if adv.stats.get("interrupted"):  # the review stops here: this move is not reviewed
        raise KeyboardInterrupt
    rated = {r.move: r for r in adv.moves}
    paired = None
    others = [r.move for r in adv.moves if r.move != mv]
    if paired_cap and others:
        # the position's share of a time limit is split: what the screen left (the first
        # look of the comparison is always played)
        rest = None if share is None else max(0.0, share - adv.stats["seconds"])
        paired = compare_moves(obs, mv, others[0], evaluator_for(estimator),
                               first=min(FIRST_WORLDS, paired_cap), cap=paired_cap,
                               seed=seed * 100003 + i, time_limit=rest)
    return MoveReview(i + 1, mv.player, mv, game.move_text(mv), rated[bot_move], rated[mv],
                      adv.moves[0], bot_move, adv.worlds, paired)


def evaluator_for(estimator: str) -> WorldEvaluator:
    """The :data:`bots.mistakes.WorldEvaluator` of the paired comparison for ``estimator``
    (today :func:`bots.mistakes.playout_evaluator`: the estimator's policy in every seat).
    The one place to plug another team-mate model in."""
    return playout_evaluator(estimator)


def _review_task(plan_json: dict[str, Any], task: tuple) -> MoveReview:
    """A worker process's part: replay the record to the position, review its move."""
    from model.records import Plan, replay

    plan = Plan.from_json(plan_json)
    i = task[0]
    rep = replay(plan.start, plan.moves[:i])
    assert rep.error is None and rep.game is not None
    return _review_position(rep.game, plan.moves[i], *task[1:])


def _review_in_pool(start: Deal | Game, moves: list[Move], tasks: list[tuple], workers: int,
                    found: dict[int, MoveReview],
                    progress: Callable[[int, int], None] | None,
                    reviewed: Callable[[MoveReview], None] | None = None) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from model.records import Plan

    plan_json = Plan(start, moves).to_json() if isinstance(start, Deal) else \
        Plan(None, moves, {}, start).to_json()
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        futures = {pool.submit(_review_task, plan_json, t): t[0] for t in tasks}
        for f in as_completed(futures):
            found[futures[f]] = f.result()
            if reviewed is not None:
                reviewed(found[futures[f]])
            if progress is not None:
                progress(len(found), len(moves))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def open_hand_verdicts(start: Deal | Game, moves: Sequence[Move],
                       seconds: float = OPEN_HAND_SECONDS) -> dict[str, Any]:
    """The open-hand verdicts of :func:`solver.analysis.analyse` (objective ``none``,
    ``seconds`` per position): ``{"winnable": verdict of the start, "losing_move": 1-based
    or None, "window": [first, last] or None (:attr:`solver.analysis.Analysis.window`: the
    moves between which the game was lost), "best_instead": move JSON or None, "reason":
    text or None, "first_proven_loss", "seconds"}``."""
    from solver.analysis import analyse

    a = analyse(start, moves, "none", seconds)
    return {"winnable": a.positions[0].verdict, "losing_move": a.losing_move,
            "window": list(a.window) if a.window is not None else None,
            "best_instead": a.best_instead.to_json() if a.best_instead else None,
            "reason": a.reason.text if a.reason is not None else None,
            "first_proven_loss": a.first_proven_loss,
            "seconds": round(a.stats.get("seconds", 0.0), 3)}


def review_chart(review: GameReview, window: tuple[int, int] | list[int] | None = None,
                 losing_move: int | None = None) -> str:
    """The chance line of ``review`` as the SVG chart of :func:`render.chart.chance_chart`
    (the chance before each move with its 95 % band, after the move played, the marks as
    symbols): the one drawing of the web page's review and of ``ascent review --plot``.
    ``window`` / ``losing_move``: where the game was lost (default: the review's open-hand
    losing move, when it has one). Raises ``ValueError`` for a review with no move."""
    from render.chart import ChartPoint, chance_chart

    oh = review.open_hand or {}
    if losing_move is None and window is None:
        losing_move = oh.get("losing_move")
        window = oh.get("window")
    points = [ChartPoint(m.index, m.shown(m.before), m.shown_interval(m.before),
                         m.shown(m.after), m.mark, m.drop if m.mark else None,
                         tuple(m.drawn))
              for m in review.moves]
    c = review.calibration
    title = (f"Win chance over the game ({review.players} player"
             f"{'s' if review.players > 1 else ''}, {review.outcome or 'unfinished'}"
             + (f"; calibrated for {c.team} team-mates)" if c is not None else ")"))
    return chance_chart(points, title, tuple(window) if window else None,  # type: ignore[arg-type]
                        losing_move)


def plot_review(review: GameReview, path: str | os.PathLike, fmt: str | None = None) -> None:
    """Draw the chance chart of ``review`` (:func:`review_chart`) into the new file ``path``
    (SVG, or PNG through CairoSVG, by its suffix or ``fmt``), written whole through a
    temporary file (:func:`model.files.link_new`). Raises :class:`FileExistsError` if
    ``path`` exists, ``ValueError`` for a format other than png or svg, :class:`OSError` if
    it cannot be written, ``RuntimeError`` if PNG is asked and cairo cannot be loaded."""
    fmt = (fmt or os.path.splitext(str(path))[1].lstrip(".")).lower()
    if fmt not in ("png", "svg"):
        raise ValueError(f"plot format must be png or svg, not {fmt or 'none'!r}")
    svg = review_chart(review)
    if fmt == "png":
        from render.png import svg_to_png

        data = svg_to_png(svg)
    else:
        data = svg.encode("utf-8")
    link_new(path, lambda fh: fh.write(data))
