"""Advice from what a player sees: each move's estimated win chance from one observation.

:func:`advise` rates moves of the player to move from that player's
:class:`~model.observation.Observation` alone (ruling V1): it draws worlds from the
fair-shuffle posterior of the unseen cards (:func:`model.observation.sample_world`, R13),
plays each rated move in each world and then finds out whether that world is won. How it
finds out is the *estimator*:

* ``best``: every seat of the world is played on by the ``determinized`` bot (the strong
  silent bot before ``uct``; in a fast configuration: :data:`PLAYOUT_BEST`), each seat seeing
  only its own observation of the world: the chance that a silent team of that bot wins from here;
* ``greedy``: the same with the ``greedy`` bot in every seat (about 50 times faster; a weaker
  team, so lower chances);
* ``beam``: the open-hand beam of the solver in each world (:func:`bots.determinized.
  evaluate_world`): the chance that the position, once the cards are dealt, can be won by a
  player who sees them; an upper estimate of what a silent team wins.

A move's chance is its share of worlds won with the 95 % Wilson score interval
(:func:`studies.stats.wilson`); its expected cards out is the mean over the worlds of the
cards out of the game at the end of the world's play. Every move is rated in the same worlds
(common random numbers). Rounds of one world each run until ``worlds`` worlds, the time
limit, or the best move is *separated* (its interval's lower end above every other move's
upper end, after at least ``min_worlds`` worlds), or every move has lost (or won) every
world after ``min_worlds`` (``alike``).

>>> from model.deal import Deal
>>> from model.game import Game
>>> from model.observation import observe
>>> from model.rules import RuleSet
>>> g = Game(Deal.from_seed(3, 1, RuleSet.tiny()))
>>> a = advise(observe(g), estimator="greedy", worlds=4, seed=1)
>>> a.worlds, len(a.moves) >= 1, 0.0 <= a.moves[0].chance <= 1.0
(4, True, True)
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from bots import fastplay
from bots.determinized import DeterminizedBot, evaluate_world
from bots.greedy import GreedyPolicy
from bots.playout import played_out
from model.game import WIN, Game
from model.moves import Move
from model.observation import Observation, observe, sample_world
from studies.stats import wilson

ESTIMATORS = ("best", "greedy", "beam")
#: the strong bot's configuration for playouts (a world's play to the end is ~40 moves)
PLAYOUT_BEST: dict[str, Any] = {"worlds": 2, "candidates": 3, "schedule": ((8, 2),)}
ESTIMATOR_TEXT = {
    "best": "worlds sampled from the fair-shuffle posterior, each played on by the "
            "determinized bot (fast configuration) in every seat",
    "greedy": "worlds sampled from the fair-shuffle posterior, each played on by the greedy "
              "bot in every seat",
    "beam": "worlds sampled from the fair-shuffle posterior, each decided by the open-hand "
            "beam (sees the sampled cards: an upper estimate)",
}


@dataclass
class MoveChance:
    """One rated move: ``worlds`` played, ``wins`` among them, ``chance`` = wins / worlds,
    ``interval`` its 95 % Wilson interval (shares in 0..1), ``cards_out`` the mean cards out
    of the game at the end of the worlds' play, ``slots`` the mean slots filled then."""

    move: Move
    worlds: int = 0
    wins: int = 0
    out_total: int = 0
    slots_total: int = 0

    @property
    def chance(self) -> float:
        return self.wins / self.worlds if self.worlds else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.worlds)

    @property
    def cards_out(self) -> float:
        return self.out_total / self.worlds if self.worlds else 0.0

    @property
    def slots(self) -> float:
        return self.slots_total / self.worlds if self.worlds else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"move": self.move.to_json(), "chance": round(self.chance, 4),
                "interval": [round(lo, 4), round(hi, 4)], "worlds": self.worlds,
                "wins": self.wins, "cards_out": round(self.cards_out, 2),
                "slots": round(self.slots, 2)}


@dataclass
class Advice:
    """The answer of :func:`advise`: the ``player`` to move (1-based), the ``estimator``
    (one of :data:`ESTIMATORS`) and its description, the rated ``moves`` best first (chance,
    then cards out fewer, then greedy order), ``worlds`` played per move, ``separated``
    (the best move's interval clear of every other's), ``stopped`` (``worlds``, ``time``,
    ``separated``, ``alike`` or ``interrupted``), ``stats`` (``seconds``; ``interrupted``:
    True after a Ctrl-C, the worlds played so far kept)."""

    player: int
    estimator: str
    moves: list[MoveChance]
    worlds: int
    separated: bool
    stopped: str
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> MoveChance:
        return self.moves[0]

    def to_json(self) -> dict[str, Any]:
        """``{"player", "estimator", "estimator_text", "worlds", "separated", "stopped",
        "moves": [{"move", "chance", "interval", "worlds", "wins", "cards_out", "slots"}],
        "stats"}`` (best first)."""
        return {"player": self.player, "estimator": self.estimator,
                "estimator_text": ESTIMATOR_TEXT[self.estimator], "worlds": self.worlds,
                "separated": self.separated, "stopped": self.stopped,
                "moves": [m.to_json() for m in self.moves], "stats": self.stats}


def rated_moves(observation: Observation, limit: int | None = None) -> list[Move]:
    """The moves :func:`advise` rates by default: every placement with the greedy's cheapest
    payment and the greedy's best discard turn, in greedy order (:meth:`bots.greedy.
    GreedyPolicy.ranked`), the first ``limit`` kept. The Summit, when it can be played,
    alone (it wins, R10)."""
    ranked = GreedyPolicy().ranked(observation.view(), observation.out)
    if ranked and ranked[0][0] >= 1e9:
        return [ranked[0][1]]
    moves = [m for _, m in ranked]
    return moves[:limit] if limit else moves


class WorldPlayer:
    """Plays a world on to its end with one estimator (see the module docstring)."""

    def __init__(self, estimator: str, seed: int = 0) -> None:
        if estimator not in ESTIMATORS:
            raise ValueError(f"unknown estimator {estimator!r}; valid: {', '.join(ESTIMATORS)}")
        self.estimator = estimator
        self.bot = DeterminizedBot(seed=seed, **PLAYOUT_BEST) if estimator == "best" else None

    def finish(self, world: Game) -> tuple[bool, int, int]:
        """``(won, cards out at the end, slots filled at the end)`` of ``world`` played on;
        the world is given back as it was."""
        if self.estimator == "beam":
            v = evaluate_world(world)
            left = sum(len(h) for h in world.hands) + sum(len(d) for d in world.decks)
            placed = v.slots - world.filled_slots()
            out = len(world.out) + (left - placed - v.spare if v.won else 0)
            return v.won, out, v.slots
        if self.bot is None:  # greedy: the compiled playout (bots.fastplay), the same moves
            w = fastplay.make_world(world)
            won, out = w.playout()
            return won, out, w.filled_slots()
        bot = self.bot

        def best(position: Game) -> Move:  # the mover's observation only (V1)
            return bot.choose(observe(position))

        with played_out(world, best, checked=True) as outcome:
            return outcome == WIN, len(world.out), world.filled_slots()


def _separated(rated: Sequence[MoveChance]) -> bool:
    if len(rated) < 2:
        return True
    top = max(rated, key=lambda r: r.chance)
    lo = top.interval[0]
    return all(r is top or r.interval[1] < lo for r in rated)


def advise(observation: Observation, moves: Sequence[Move] | None = None,
           estimator: str = "best", worlds: int = 200, time_limit: float | None = None,
           min_worlds: int = 10, seed: int = 0,
           progress: Callable[[int, float], None] | None = None) -> Advice:
    """Rate ``moves`` (default :func:`rated_moves`) of the player to move in
    ``observation``: up to ``worlds`` worlds each, stopping at ``time_limit`` seconds (at
    least one world is always played) or once the best move is separated (after
    ``min_worlds``). ``seed`` fixes the worlds drawn. ``progress(worlds, seconds)`` is called
    after each round. Raises ``ValueError`` for an unknown estimator, a game that is over
    (no move to rate), a move that is not legal there, or a limit out of range."""
    t0 = time.monotonic()
    if worlds < 1:
        raise ValueError(f"worlds must be ≥ 1, not {worlds}")
    legal = observation.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no move to rate")
    if moves is None:
        moves = rated_moves(observation)
    else:
        for m in moves:
            if m not in legal:
                raise ValueError(f"{m} is not a legal move of player "
                                 f"{observation.player} here")
    player = WorldPlayer(estimator, seed)
    rated = [MoveChance(m) for m in moves]
    rng = random.Random(f"advice/{seed}")
    try:
        n, stopped, separated = _rounds(observation, rated, player, rng, worlds, time_limit,
                                        min_worlds, t0, progress)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the worlds played so far are kept
        n = min(r.worlds for r in rated)
        if n == 0:  # a move with no world yet: nothing to rate it by
            raise
        separated, stopped = _separated(rated), "interrupted"
    if stopped != "interrupted" and n >= worlds and separated and len(rated) > 1:
        stopped = "separated" if n >= min_worlds else stopped
    order = {id(r): i for i, r in enumerate(rated)}
    rated.sort(key=lambda r: (-r.chance, r.cards_out, order[id(r)]))
    stats: dict[str, Any] = {"seconds": round(time.monotonic() - t0, 3)}
    if stopped == "interrupted":
        stats["interrupted"] = True
    return Advice(observation.player, estimator, rated, n, separated and len(rated) > 1,
                  stopped, stats)


def _rounds(observation: Observation, rated: list[MoveChance], player: WorldPlayer,
            rng: random.Random, worlds: int, time_limit: float | None, min_worlds: int,
            t0: float, progress: Callable[[int, float], None] | None
            ) -> tuple[int, str, bool]:
    """:func:`advise`'s rounds (one world drawn, every move of ``rated`` played in it):
    (rounds played, why they stopped, separated)."""
    n = 0
    stopped = "worlds"
    separated = len(rated) < 2
    while n < worlds:
        if n and time_limit is not None and time.monotonic() - t0 >= time_limit:
            stopped = "time"
            break
        if n >= min_worlds and separated:
            stopped = "separated"
            break
        if n >= min_worlds and len({(r.wins == 0, r.wins == r.worlds) for r in rated}) == 1 \
                and (rated[0].wins == 0 or rated[0].wins == rated[0].worlds):
            stopped = "alike"  # every move lost (or won) every world so far
            break
        world = sample_world(observation, rng)
        for r in rated:
            world.push(r.move)
            try:
                won, out, slots = player.finish(world)
            finally:
                world.pop()
            r.worlds += 1
            r.wins += won
            r.out_total += out
            r.slots_total += slots
        n += 1
        separated = _separated(rated)
        if progress is not None:
            progress(n, time.monotonic() - t0)
    return n, stopped, separated
