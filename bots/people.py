"""Stand-ins for people at a silent table: ``plausible`` and ``noisy``.

Both play the greedy blueprint (:class:`bots.greedy.GreedyPolicy`) from the seat's own
observation (ruling V1) and depart from it at a ``rate``, as people do. They are the
partners of the mixed-table benchmarks (Hanabi's cross-play: a team-mate that is not the
policy the searcher assumes) and the types of the partner model (:mod:`bots.partner_model`):

* ``plausible`` (default ``rate`` 0.3): with probability ``rate`` a move drawn uniformly from
  the blueprint's ``top`` (3) best-ranked moves (each placement with its cheapest payment, the
  best discard turn), else the blueprint's first choice. A person who sees the sensible moves
  and does not always pick the one the blueprint would.
* ``noisy`` (default ``rate`` 0.2): with probability ``rate`` a uniformly random legal move
  (:meth:`Observation.legal_moves`: every placement with every payment, every pair of cards
  for a discard turn), else the blueprint's first choice. A careless person.

The Summit is played whenever it can be (the blueprint's only move then), except by a
``noisy`` departure. A move's random draw depends only on the ``seed`` and on what the seat
sees (turn, seat, hand, mountain), so a game is repeatable and no hidden card is read.
:func:`move_probability` gives the chance of a move under either policy, for the partner
model.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from bots.greedy import GreedyPolicy
from model.moves import Move
from model.observation import Observation

#: the stand-ins, by name: their default rate
PEOPLE = {"plausible": 0.3, "noisy": 0.2}


def _check_rate(rate: object) -> float:
    if (not isinstance(rate, (int, float)) or isinstance(rate, bool)
            or not 0.0 <= float(rate) <= 1.0 or math.isnan(float(rate))):
        raise ValueError(f"rate must be a number from 0 to 1, not {rate!r}")
    return float(rate)


def move_probability(move: Move, ranked: Sequence[Move], legal: int, kind: str,
                     rate: float, top: int = 3) -> float:
    """The chance that the stand-in ``kind`` (``"greedy"``, ``"plausible"``, ``"noisy"``)
    with departure ``rate`` plays ``move`` where the blueprint ranks ``ranked`` (best first,
    at least ``top`` long or the whole ranking) and there are ``legal`` legal moves (discard
    pairs expanded). ``greedy`` is the blueprint alone (``rate`` ignored). A move outside the
    ranking has the chance of a ``noisy`` departure only."""
    first = 1.0 if ranked and move == ranked[0] else 0.0
    if kind == "greedy":
        return first
    if kind == "plausible":
        best = list(ranked[:top])
        return (1 - rate) * first + (rate / len(best) if move in best else 0.0)
    if kind == "noisy":
        return (1 - rate) * first + rate / max(1, legal)
    raise ValueError(f"unknown policy kind {kind!r}")


class _Person:
    name = "person"
    sees_hidden_cards = False
    top = 1  # the blueprint's moves a choice needs

    def __init__(self, rate: float, seed: int = 0) -> None:
        self.rate = _check_rate(rate)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        self.seed = seed
        self.policy = GreedyPolicy()
        self.departures = 0  # moves that were not the blueprint's draw, over the bot's life

    def start(self, deal) -> None:  # noqa: D401 - silent bots are never given the deal
        """Silent: never called by :func:`bots.base.play_deal`."""

    def _rng(self, observation: Observation) -> random.Random:
        view = (observation.turn, observation.seat, observation.hand, observation.mountain)
        return random.Random(f"{self.name}/{self.seed}/{view!r}")

    def choose(self, observation: Observation) -> Move:
        """The blueprint's first choice, or at the ``rate`` a departure (module docstring)."""
        ranked = self.policy.ranked(observation.view(), observation.out, limit=self.top)
        rng = self._rng(observation)
        if rng.random() >= self.rate:
            return ranked[0][1]
        self.departures += 1
        return self._depart(observation, [m for _, m in ranked], rng)

    def _depart(self, observation: Observation, ranked: list[Move], rng: random.Random) -> Move:
        raise NotImplementedError


class PlausibleBot(_Person):
    """``plausible``: greedy, except that a share ``rate`` (0..1, default 0.3) of its moves
    are drawn uniformly from the blueprint's ``top`` (≥ 1, default 3) best-ranked moves.
    ``seed``: int. ``ValueError`` for a parameter out of range."""

    name = "plausible"

    def __init__(self, rate: float = PEOPLE["plausible"], top: int = 3, seed: int = 0) -> None:
        super().__init__(rate, seed)
        if not isinstance(top, int) or isinstance(top, bool) or top < 1:
            raise ValueError(f"top must be a whole number ≥ 1, not {top!r}")
        self.top = top

    def _depart(self, observation: Observation, ranked: list[Move], rng: random.Random) -> Move:
        return rng.choice(ranked)


class NoisyBot(_Person):
    """``noisy``: greedy, except that a share ``rate`` (0..1, default 0.2) of its moves are a
    uniformly random legal move. ``seed``: int. ``ValueError`` for a parameter out of range."""

    name = "noisy"

    def __init__(self, rate: float = PEOPLE["noisy"], seed: int = 0) -> None:
        super().__init__(rate, seed)

    def _depart(self, observation: Observation, ranked: list[Move], rng: random.Random) -> Move:
        return rng.choice(observation.legal_moves())
