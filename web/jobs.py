"""The solver work of the server as plain module-level functions, so that a worker process of
:class:`web.pool.JobPool` can run them (their arguments and answers are pickled): a bot's move
from an observation, and the review of a finished game.

A bot is given the :class:`~model.observation.Observation` of its seat and nothing else (ruling
V1); its move is checked by the rules engine when the server makes it
(:meth:`web.games.SilentGame.play_bot`).
"""

from __future__ import annotations

import inspect
import time
from typing import Any

from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.observation import Observation

#: Seconds a ``sampling`` team-mate thinks per move on the web page.
BOT_SECONDS = 1.0
#: Seconds :func:`solver.analysis.analyse` may spend per position of a review.
REVIEW_SECONDS = 2.0


def bot_params(name: str, seed: int) -> dict[str, Any]:
    """The parameters of the web page's team-mate ``name``: a fixed ``seed`` (the same game
    gets the same moves again) and :data:`BOT_SECONDS` per move, where the bot takes them."""
    from bots import make_bot

    probe = make_bot(name)
    accepted = inspect.signature(type(probe).__init__).parameters
    params: dict[str, Any] = {}
    if "seed" in accepted:
        params["seed"] = seed
    if "seconds" in accepted:
        params["seconds"] = BOT_SECONDS
    return params


def bot_move(obs: Observation, name: str, seed: int) -> Move:
    """The move the bot ``name`` (a silent bot of :data:`bots.BOT_NAMES`) chooses from the
    observation ``obs`` of the seat to move, with :func:`bot_params`. Raises ``ValueError``
    for an unknown bot."""
    from bots import make_bot

    return make_bot(name, **bot_params(name, seed)).choose(obs)


def timed_bot_move(obs: Observation, name: str, seed: int) -> tuple[Move, float, float]:
    """:func:`bot_move` and what it took where it ran: ``(move, wall seconds, CPU seconds)``
    (the bots' own latency, reported beside the server's in ``/api/status``)."""
    t0, c0 = time.perf_counter(), time.process_time()
    move = bot_move(obs, name, seed)
    return move, time.perf_counter() - t0, time.process_time() - c0


def review(start: Deal | Game, moves: list[Move], seconds: float = REVIEW_SECONDS,
           silent_bot: str | None = None,
           known: dict[str, Any] | None = None, team: str | None = None) -> dict[str, Any]:
    """The review of a finished game (see :func:`web.review.review_data`), its progress
    (with each position's result, to keep for a resume) passed on by
    :func:`web.pool.report_progress`; ``known``: the results kept from a stopped review;
    ``team``: the team-mates' bot (the chances calibrated for it)."""
    from web.pool import report_progress
    from web.review import review_data

    return review_data(start, moves, seconds, silent_bot, progress=report_progress,
                       known=known, team=team)


def learn(start: Deal | Game, moves: list[Move], k: int, answer: Move,
          alternative: Move) -> dict[str, Any]:
    """Judge a player's answer for the marked move ``k`` (:func:`web.review.judge_answer`)."""
    from web.review import judge_answer

    return judge_answer(start, moves, k, answer, alternative)


__all__ = ["BOT_SECONDS", "REVIEW_SECONDS", "bot_move", "bot_params", "learn", "review",
           "timed_bot_move"]
