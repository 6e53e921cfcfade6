"""``sampling``: perfect-information Monte Carlo over worlds consistent with the observation.

For each move (Ginsberg's GIB, the PIMC of card-game AIs):

1. the candidates are the ``candidates`` best moves of the greedy rules of thumb
   (:meth:`bots.greedy.GreedyPolicy.ranked`); when there is only one, or the Summit can be
   played, it is played at once;
2. ``worlds`` worlds are drawn by :func:`model.observation.sample_world` (each with its
   probability under the fair shuffle), stopping early when ``seconds`` per move have passed
   (at least one world is always drawn);
3. in each world every candidate is played and followed by a fast playout: the greedy policy in
   every seat, in that world (where it sees everything, as PIMC does), for at most ``horizon``
   turns;
4. a playout's value is ``WIN_VALUE`` for a win, else the slots filled plus ``CARD_VALUE`` per
   card still in the hands and decks (the budget left to fill the rest) unless the game is lost;
   the candidate with the best mean value over the same worlds is played (ties: greedy order).

The bot sees only the observation; the worlds are its guesses. ``seed`` makes its choices
repeatable: the random stream of a move depends on the seed, the seat and the turn only.
"""

from __future__ import annotations

import random
import time

from bots.greedy import GreedyPolicy
from bots.playout import greedy, played_out
from model.game import LOSS, WIN, Game
from model.moves import Move
from model.observation import Observation, sample_world

WIN_VALUE = 100.0
CARD_VALUE = 0.5


class SamplingBot:
    """The ``sampling`` bot (silent). Parameters: ``worlds`` (N ≥ 1, worlds per move),
    ``seconds`` (time per move, ``None`` for no limit; at least one world is always played),
    ``candidates`` (moves compared, ≥ 1), ``horizon`` (playout length in turns, ``None`` to the
    end), ``seed`` (int). Raises ``ValueError`` for a parameter out of range."""

    name = "sampling"
    sees_hidden_cards = False

    def __init__(self, worlds: int = 8, seconds: float | None = None, candidates: int = 4,
                 horizon: int | None = 12, seed: int = 0) -> None:
        if not isinstance(worlds, int) or worlds < 1:
            raise ValueError(f"worlds must be a whole number ≥ 1, not {worlds!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds per move must be > 0, not {seconds!r}")
        if not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"candidates must be a whole number ≥ 1, not {candidates!r}")
        if horizon is not None and horizon < 1:
            raise ValueError(f"horizon must be ≥ 1 turn, not {horizon!r}")
        self.worlds = worlds
        self.seconds = seconds
        self.candidates = candidates
        self.horizon = horizon
        self.seed = seed
        self.policy = GreedyPolicy()
        self.seat_policy = greedy(self.policy)
        self.worlds_played = 0  # total over the bot's life, for the seconds-per-world figure

    def start(self, deal) -> None:  # noqa: D401 - silent bots are never given the deal
        """Silent: never called by :func:`bots.base.play_deal`."""

    def choose(self, observation: Observation) -> Move:
        """The move with the best mean playout value over the sampled worlds."""
        t0 = time.perf_counter()
        ranked = self.policy.ranked(observation.view(), observation.out, limit=self.candidates)
        moves = [m for _, m in ranked]
        if len(moves) == 1 or ranked[0][0] >= 1e9:
            return moves[0]
        rng = random.Random(f"{self.seed}/{observation.seat}/{observation.turn}")
        totals = [0.0] * len(moves)
        n = 0
        while n < self.worlds:
            if n and self.seconds is not None and time.perf_counter() - t0 >= self.seconds:
                break
            world = sample_world(observation, rng)
            for i, m in enumerate(moves):
                totals[i] += self.playout(world, m)
            n += 1
        self.worlds_played += n
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return moves[best]

    def playout(self, world: Game, first: Move) -> float:
        """Play ``first`` and then the greedy policy in every seat of ``world`` for at most
        ``horizon`` turns (:func:`bots.playout.played_out`); the value described in the module
        docstring. ``world`` is given back unchanged."""
        world.push(first)
        try:
            rest = None if self.horizon is None else self.horizon - 1
            with played_out(world, self.seat_policy, rest) as outcome:
                if outcome == WIN:
                    return WIN_VALUE
                value = float(world.filled_slots())
                if outcome != LOSS:
                    left = sum(len(h) for h in world.hands) + sum(len(d) for d in world.decks)
                    value += CARD_VALUE * left
                return value
        finally:
            world.pop()
