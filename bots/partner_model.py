"""A partner model: how each partner plays, inferred from its moves, for the worlds and the tree.

Ad-hoc teamwork (Stone et al. 2010; Hanabi's cross-play, Hu et al. 2020) asks a bot to play
well with partners it was not built with. ``uct`` assumed that every partner plays the greedy
blueprint's first choice; a person does not. This module keeps a posterior over a few
**policy types**, each the blueprint with a share of other moves (:mod:`bots.people`):

========================  ================================================================
type                      a move is
========================  ================================================================
``greedy``                the blueprint's first choice (the old assumption)
``plausible`` 15/30/50 %  at that rate one of the blueprint's best 3, uniformly
``noisy`` 10/20/40 %      at that rate a uniformly random legal move
``uct-like`` 45 %         at that rate one of the blueprint's best 5 (``uct`` itself plays
                          the blueprint's first choice in 58 % of its moves, always one of
                          its best 5: 537 moves of 11 self-play games at 3 players)
========================  ================================================================

**The evidence** is public only: the partners' moves in the observation's history, the
mountain before each (replayed from the moves seen) and the cards seen out. What a partner
held when it moved is hidden, so it is taken from a *world* (a deal of the unseen cards drawn
from what the seat sees): the partner's hand in the world, going back move by move, minus
the cards it drew since (which of its cards those were is drawn at random: under the fair
shuffle every choice is equally likely) plus the cards each move spent. The likelihood of a
type in a world is the product over the partner's moves in the window (the last ``rounds``
rounds) of the chance the type gives the move seen (:func:`bots.people.move_probability`),
with a lapse (:data:`LAPSE`) for the guessed hands.
The window is read from the history at every decision, so the model is a function of the
observation alone (the page builds a new bot for every move).

* **The types' posterior**, per partner: the prior times, move by move, the chance of the
  move under the type averaged over the worlds (the moves taken as independent given the
  type: a Monte Carlo estimate that stays usable with a dozen worlds).
* **The worlds' weights** (which hands explain the partners' moves): a world's weight is the
  product over the partners of their likelihood under the posterior mixture; the bot then
  resamples its worlds by these weights. With the ``greedy`` type alone this is the hard
  filter of ``team``'s beliefs; with the others a world that a greedy partner could not have
  produced keeps a share of its weight, so a person never empties the pool.
* **The partners' moves in a search**: :meth:`PartnerBeliefs.sample_types` draws a type per
  partner from its posterior (once per iteration, as Thompson sampling does), and
  :func:`modelled_move` plays a move of that type in a world.

The check stops (what is left counts as no evidence) at a discard hidden by
``discards_seen=own``, at a partner whose deck is empty in the world (its last draws may have
been short), with goats, and where the history does not reach back to the game's start.
Nothing here reads the real game: every hand is a guess drawn from the observation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bots.greedy import GreedyPolicy
from bots.people import move_probability
from bots.team import mountains_before
from model.cards import Card
from model.game import Game
from model.moves import Move
from model.observation import Observation


@dataclass(frozen=True)
class PolicyType:
    """A partner's way of playing: the blueprint with a share ``rate`` of other moves of
    ``kind`` (``greedy``, ``plausible``: one of the blueprint's best ``top``; ``noisy``: any
    legal move). ``name`` labels it in reports."""

    name: str
    kind: str
    rate: float = 0.0
    top: int = 3

    def probability(self, move: Move, ranked: Sequence[Move], legal: int) -> float:
        """The chance this type plays ``move`` where the blueprint ranks ``ranked`` (best
        first) among ``legal`` legal moves."""
        return move_probability(move, ranked, legal, self.kind, self.rate, self.top)


#: The share of a move's chance, under every type, given to any legal move: the hand a world
#: gives a partner is a guess (and so is which of its cards it drew since), so even a greedy
#: partner's move is sometimes not greedy's first choice there; without it one such move
#: would rule the ``greedy`` type out for good.
LAPSE = 0.1

#: The types of the posterior, in a fixed order (the prior is uniform over them).
TYPES: tuple[PolicyType, ...] = (
    PolicyType("greedy", "greedy"),
    PolicyType("plausible-15", "plausible", 0.15),
    PolicyType("plausible-30", "plausible", 0.30),
    PolicyType("plausible-50", "plausible", 0.50),
    PolicyType("noisy-10", "noisy", 0.10),
    PolicyType("noisy-20", "noisy", 0.20),
    PolicyType("noisy-40", "noisy", 0.40),
    PolicyType("uct-like", "plausible", 0.45, 5),
)


def partner_likelihoods(observation: Observation, world: Game, rng: random.Random,
                        rounds: int, types: Sequence[PolicyType] = TYPES,
                        policy: GreedyPolicy | None = None) -> dict[int, dict[int, list[float]]]:
    """Per partner seat ``q`` (0-based) and per move of it in the last ``rounds`` rounds of
    ``observation.history`` (keyed by how many moves ago it was made, 0 the latest), the
    chance each of ``types`` (in that order) gives that move, with the hand the partner held
    taken from ``world`` (a world drawn for ``observation``; module docstring). ``rng``
    draws which cards were drawn after each move. A partner with no move checked gets no
    entry."""
    policy = policy or GreedyPolicy()
    rules = world.rules
    n = observation.players
    depth = min(len(observation.history), rounds * n)
    if n < 2 or depth == 0 or rules.goats_on:
        return {}
    befores = mountains_before(observation, depth)
    if befores is None:
        return {}
    top = max(t.top for t in types)
    out = list(world.out)
    hands = {q: list(world.hands[q]) for q in range(n) if q != observation.seat}
    live = {q: bool(world.decks[q]) for q in hands}
    found: dict[int, dict[int, list[float]]] = {}
    for k, (m, mountain) in enumerate(zip(reversed(observation.history[-depth:]), befores)):
        if m.discard and rules.discards_seen != "all":
            break
        for c in m.discard:  # the cards it spent were not out before it
            if c in out:
                out.remove(c)
        q = m.player - 1
        if q == observation.seat or not live[q]:
            continue
        spent: list[Card] = list(m.discard) + ([m.card] if m.card is not None else [])
        hand = hands[q]
        if len(hand) < len(spent):
            live[q] = False
            continue
        drawn = set(rng.sample(range(len(hand)), len(spent)))
        before = [c for i, c in enumerate(hand) if i not in drawn] + spent
        seats: list[list[Card]] = [[] for _ in range(n)]
        seats[q] = before
        pos = Game.from_parts(rules, mountain, seats, [[] for _ in range(n)], q, None, 0)
        ranked = [mv for _, mv in policy.ranked(pos, out, limit=top)]
        legal = max(1, len(pos.legal_moves()))
        found.setdefault(q, {})[k] = [(1 - LAPSE) * t.probability(m, ranked, legal) + LAPSE / legal
                                      for t in types]
        hands[q] = before
    return found


@dataclass
class PartnerBeliefs:
    """What the seat believes of its partners after :func:`infer`: ``posterior[q]`` the
    chance of each of ``types`` for partner seat ``q`` (0-based), and ``weights`` one weight
    per world given (summing to 1)."""

    types: tuple[PolicyType, ...]
    posterior: dict[int, list[float]]
    weights: list[float]

    def sample_types(self, rng: random.Random) -> dict[int, PolicyType]:
        """A type per partner seat drawn from its posterior (partners without evidence:
        from the prior, which :func:`infer` put in ``posterior`` too)."""
        return {q: rng.choices(self.types, weights=p)[0] for q, p in self.posterior.items()}

    def summary(self, q: int) -> str:
        """The most likely type of partner ``q`` and its chance, e.g. ``"plausible-30 0.41"``."""
        p = self.posterior[q]
        i = max(range(len(p)), key=p.__getitem__)
        return f"{self.types[i].name} {p[i]:.2f}"


def infer(observation: Observation, worlds: Sequence[Game], rng: random.Random,
          rounds: int = 2, types: Sequence[PolicyType] = TYPES,
          prior: Sequence[float] | None = None, type_worlds: int = 12,
          recent: int = 1) -> PartnerBeliefs:
    """The partners' type posterior and the worlds' weights (module docstring) from
    ``worlds`` (drawn for ``observation``; read, not changed).

    The posterior uses the first ``type_worlds`` worlds and the partners' moves of the last
    ``rounds`` rounds (2 by default: the hands before older moves are guessed back through
    every draw since, so their evidence blurs): each move's chance under a type is averaged
    over the worlds, and the moves' chances multiplied (the moves taken as independent given the type; a product of
    per-world chances averaged over a dozen worlds would be 0 for every deterministic type
    after a few moves). A world's weight uses the moves of the last ``recent`` rounds (the
    hands the world gives now explain those best: older moves were made from cards mostly
    spent since). ``prior``: one weight per type (default uniform). Raises ``ValueError``
    for a prior of the wrong length or without a positive weight."""
    types = tuple(types)
    prior = list(prior) if prior is not None else [1.0] * len(types)
    if len(prior) != len(types) or min(prior) < 0 or sum(prior) <= 0:
        raise ValueError("the prior needs one weight ≥ 0 per type, not all 0")
    total = sum(prior)
    prior = [x / total for x in prior]
    policy = GreedyPolicy()
    per_world = [partner_likelihoods(observation, w, rng, rounds if k < type_worlds else recent,
                                     types, policy)
                 for k, w in enumerate(worlds)]
    partners = [q for q in range(observation.players) if q != observation.seat]
    posterior: dict[int, list[float]] = {}
    for q in partners:
        post = list(prior)
        moves = {k for lk in per_world[:type_worlds] for k in lk.get(q, {})}
        for k in moves:
            seen = [lk[q][k] for lk in per_world[:type_worlds] if k in lk.get(q, {})]
            chance = [sum(x[i] for x in seen) / len(seen) for i in range(len(types))]
            new = [p * c for p, c in zip(post, chance)]
            z = sum(new)
            if z > 0:  # a move no type explains in any world is no evidence
                post = [x / z for x in new]
        posterior[q] = post
    near = recent * observation.players
    weights = []
    for lk in per_world:
        w = 1.0
        for q, moves_q in lk.items():
            for k, chances in moves_q.items():
                if k < near:
                    w *= sum(p * x for p, x in zip(posterior[q], chances))
        weights.append(w)
    z = sum(weights)
    weights = [x / z for x in weights] if z > 0 else [1.0 / max(1, len(worlds))] * len(worlds)
    return PartnerBeliefs(types, posterior, weights)


def modelled_move(world, kind: PolicyType, rng: random.Random) -> Move:
    """A move of the player to move in ``world`` (a :mod:`bots.fastplay` world) played as the
    type ``kind``: the blueprint's first choice, or at its rate one of its best ``top``
    (``plausible``) or of every move the blueprint ranks (``noisy``: each placement with its
    cheapest payment and the best discard turn, the compiled engine's list, which stands for
    the legal moves)."""
    if kind.kind == "greedy" or rng.random() >= kind.rate:
        return world.ranked(1)[0][1]
    ranked = world.ranked(kind.top if kind.kind == "plausible" else None)
    return rng.choice(ranked)[1]
