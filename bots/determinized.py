"""``determinized``: a silent player that searches sampled worlds with the compiled beam.

For each move (determinized search, the perfect-information Monte Carlo of card-game AIs,
with the open-hand solver's beam as the evaluator):

1. the candidates are the legal moves as the greedy rules of thumb rank them
   (:meth:`bots.greedy.GreedyPolicy.ranked`: every placement with its cheapest payment, and
   the best discard turn), the ``candidates`` best kept; a lone candidate or the Summit is
   played at once;
2. ``worlds`` worlds are drawn by :func:`model.observation.sample_world` (the fair-shuffle
   posterior of the unseen cards, ruling V1, R13); every candidate is evaluated in the same
   worlds (common random numbers);
3. in a world, the candidate is played and the position after it is handed to the beam of
   the open-hand search (:meth:`solver.exhaustive.Search.beams`, schedule ``schedule``, in the
   compiled core where it is built). The world's value is graded, so that worlds are not all
   0 or 1: a win found is worth ``1 + SPARE_VALUE × spare / cards`` (``spare``: cards still
   in hands and decks when the Summit is placed; ``cards``: the cards left now), a world
   without a win found ``LOSS_VALUE × furthest slots filled / slots``; a world lost at once
   is worth its slots filled likewise;
4. the candidate with the best mean value is played (ties: greedy order). With ``seconds``
   set, worlds stop being drawn once that time has passed (at least ``min_worlds``).

The bot sees only the observation: the worlds are its guesses and the beam plays each guess
with every card of it known (so it over-rates moves that need luck; the greedy pruning and
the common worlds keep that in check). ``seed`` makes its choices repeatable: the random
stream of a move depends on the seed, the seat, the turn and the cards in view only.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bots.greedy import GreedyPolicy
from bots.playout import greedy, played_out
from model.game import LOSS, WIN, Game
from model.moves import Move
from model.observation import Observation, sample_world
from solver.exhaustive import Search
from solver.state import M_BRIDGE_REPLACE, Switches

SPARE_VALUE = 0.2
LOSS_VALUE = 0.3
#: beam widths (and ways to pay kept per placement) run in each world after each candidate
DEFAULT_SCHEDULE: tuple[tuple[int, int], ...] = ((16, 1),)
_TABLE = 1 << 12  # the beam keeps no table; the smallest table the core accepts is plenty


@dataclass(frozen=True)
class WorldValue:
    """One candidate's evaluation in one world: ``won`` (the beam found a win after it),
    ``slots`` (slots filled at the win, or the furthest the beam reached), ``spare`` (cards
    in hands and decks when the Summit went up; 0 without a win) and ``value`` (the graded
    value of the module docstring)."""

    won: bool
    slots: int
    spare: int
    value: float


def evaluate_world(world: Game, schedule: tuple[tuple[int, int], ...] = DEFAULT_SCHEDULE
                   ) -> WorldValue:
    """The graded value of the fully known position ``world`` (a sampled world after a
    candidate move): the beams of ``schedule`` run from it with every card known. Reads the
    world only (it is a guess, never the real game); leaves it unchanged."""
    total = world.rules.mountain_slots
    left = sum(len(h) for h in world.hands) + sum(len(d) for d in world.decks)
    outcome = world.outcome()
    if outcome == WIN:
        return WorldValue(True, total, left, 1.0 + SPARE_VALUE * left / max(1, left))
    if outcome == LOSS:
        filled = world.filled_slots()
        return WorldValue(False, filled, 0, LOSS_VALUE * filled / total)
    s = Search(world, "none", Switches(table_size=_TABLE), None, None)
    line = s.beams(schedule)
    if line is not None:
        placed = total - world.filled_slots()
        out = sum(len(m[6]) + (1 if m[0] == M_BRIDGE_REPLACE else 0) for m in line)
        spare = max(0, left - placed - out)
        return WorldValue(True, total, spare, 1.0 + SPARE_VALUE * spare / max(1, left))
    furthest = max(s.best_progress, world.filled_slots())
    return WorldValue(False, furthest, 0, LOSS_VALUE * furthest / total)


class DeterminizedBot:
    """The ``determinized`` bot (silent; also ``best``). Parameters: ``worlds`` (N ≥ 1, worlds
    per move), ``candidates`` (K ≥ 1, the greedy's best K compared), ``seconds`` (time per
    move or ``None``; at least ``min_worlds`` worlds are played), ``schedule`` (beam widths
    and ways to pay, see :mod:`solver.beam`), ``seed`` (int), ``rollout`` (also add, in each
    world, the value of a greedy playout to the end: 1 for a win, else ``LOSS_VALUE`` × the
    share of slots filled; about 3 times slower, off by default: not measured to help).
    Raises ``ValueError`` for a parameter out of range."""

    name = "determinized"
    sees_hidden_cards = False

    def __init__(self, worlds: int = 8, candidates: int = 5, seconds: float | None = None,
                 schedule: tuple[tuple[int, int], ...] = DEFAULT_SCHEDULE, seed: int = 0,
                 min_worlds: int = 2, rollout: bool = False) -> None:
        if not isinstance(worlds, int) or worlds < 1:
            raise ValueError(f"worlds must be a whole number ≥ 1, not {worlds!r}")
        if not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"candidates must be a whole number ≥ 1, not {candidates!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds per move must be > 0, not {seconds!r}")
        if not schedule or any(w < 1 or c < 0 for w, c in schedule):
            raise ValueError(f"schedule must be pairs (width ≥ 1, ways ≥ 0), not {schedule!r}")
        self.worlds = worlds
        self.candidates = candidates
        self.seconds = seconds
        self.schedule: tuple[tuple[int, int], ...] = tuple((int(w), int(c)) for w, c in schedule)
        self.seed = seed
        self.min_worlds = max(1, min(min_worlds, worlds))
        self.rollout = rollout
        self.policy = GreedyPolicy()
        self.worlds_played = 0  # over the bot's life, for the seconds-per-world figure

    def start(self, deal) -> None:  # noqa: D401 - silent bots are never given the deal
        """Silent: never called by :func:`bots.base.play_deal`."""

    def candidate_moves(self, observation: Observation) -> list[Move]:
        """The moves compared: the greedy ranking's best ``candidates`` (the Summit alone
        when it can be played). At least one unless the game is over."""
        ranked = self.policy.ranked(observation.view(), observation.out, limit=self.candidates)
        if ranked and ranked[0][0] >= 1e9:
            return [ranked[0][1]]
        return [m for _, m in ranked]

    def rng_for(self, observation: Observation) -> random.Random:
        """The random stream of one decision: from the seed, the seat, the turn and the cards
        in view (so a bot asked twice about one observation answers the same)."""
        view = (observation.turn, observation.seat, observation.hand, observation.mountain)
        return random.Random(f"{self.seed}/{view!r}")

    def choose(self, observation: Observation) -> Move:
        """The candidate with the best mean graded value over the sampled worlds."""
        t0 = time.perf_counter()
        moves = self.candidate_moves(observation)
        if len(moves) == 1:
            return moves[0]
        rng = self.rng_for(observation)
        totals = [0.0] * len(moves)
        n = 0
        while n < self.worlds:
            if (n >= self.min_worlds and self.seconds is not None
                    and time.perf_counter() - t0 >= self.seconds):
                break
            world = sample_world(observation, rng)
            for i, m in enumerate(moves):
                world.push(m)
                try:
                    totals[i] += evaluate_world(world, self.schedule).value
                    if self.rollout:
                        totals[i] += self._rollout(world)
                finally:
                    world.pop()
            n += 1
        self.worlds_played += n
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return moves[best]

    def _rollout(self, world: Game) -> float:
        """The greedy policy in every seat of ``world`` to the end (each seat reads only its
        own hand, the mountain and the cards out): 1 for a win, else ``LOSS_VALUE`` × the
        share of slots filled (:func:`bots.playout.played_out`). The world is given back
        unchanged."""
        with played_out(world, greedy(self.policy)) as outcome:
            if outcome == WIN:
                return 1.0
            return LOSS_VALUE * world.filled_slots() / world.rules.mountain_slots
