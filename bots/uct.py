"""``uct``: information-set Monte Carlo tree search over the seat's own decisions, with the
partners played by the blueprint.

It is single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) in its
open-loop form, with the partners fixed to the blueprint as in SPARTA's single-agent search
(Lerer et al. 2020):

* **Worlds.** Every iteration draws a fresh world from what the seat sees
  (:class:`bots.fastplay.Sampler`: the fair-shuffle posterior of the unseen cards, ruling V1,
  R13), so futures are sampled independently and no decision is fitted to one deal. With
  ``beliefs`` on, a pool of worlds filtered by the partners' moves
  (:func:`bots.team.sample_worlds`) is cycled instead.
* **The tree holds only this seat's decisions.** A node is the sequence of this seat's own
  moves since the root; the partners' moves in between are played by the blueprint
  (:class:`bots.greedy.GreedyPolicy`, each from its own hand: the blueprint never reads
  another hand), so a node mixes every world in which the seat made those moves (open loop).
  The moves of a node are the blueprint's best ``candidates`` at the root (from the
  observation) and its best ``depth_candidates`` below (from the world of the iteration: the
  seat's later hands differ between worlds, so a move is scored only in the worlds where it
  is legal, with availability counts in UCB1, as ISMCTS does).
* **Selection, expansion, playout.** Untried moves first (in the blueprint's order), else
  UCB1 with availability: ``mean + c * sqrt(ln(available) / visits)``; one node is added per
  iteration, and from it the game is played out by the blueprint in every seat (the compiled
  playout of :mod:`bots.fastplay` when it is available). The reward is 1 for a win, else 0.
* **The move played** is the root move visited most; ties go to the blueprint's order.

The search reads only the observation (worlds are guesses, never the real game). Its random
stream depends on the seed and on what the seat sees, so a move is repeatable. The number of
``iterations`` fixes the work per move, not the time, so results do not depend on the
machine's speed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from bots import fastplay
from bots.greedy import GreedyPolicy
from bots.partner_model import PartnerBeliefs, PolicyType, infer, modelled_move
from bots.team import sample_worlds
from model.game import WIN
from model.moves import Move
from model.observation import Observation


@dataclass
class _Edge:
    """Statistics of one move at one node: ``visits``, summed ``reward``, ``available``
    (iterations in which the move was legal when the node was reached) and the child node."""

    visits: int = 0
    reward: float = 0.0
    available: int = 0
    child: _Node | None = None


@dataclass
class _Node:
    """A node of the seat's own decisions: its moves' edges, keyed by the move."""

    edges: dict[Move, _Edge] = field(default_factory=dict)


@dataclass(frozen=True)
class RootValue:
    """One root move after the search: ``move``, ``visits`` and ``wins`` (playouts won
    through it), in the blueprint's order."""

    move: Move
    visits: int
    wins: float

    @property
    def share(self) -> float:
        """Wins per visit, in 0..1 (0 when unvisited)."""
        return self.wins / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class IterationBudget:
    """How many iterations one decision gets (issue 41 item 3: iterations spent where they
    matter). ``iterations``: the allowance a decision starts with; ``max_iterations``: at
    most this many in all (``None``: exactly ``iterations``, the fixed budget); ``close``
    (0 < close ≤ 1): a decision is close while the runner-up root move's visits are at
    least ``close`` times the leader's; ``every``: iterations between two looks at the root
    (0, the default: a twentieth of ``iterations``, at least 1).

    With a maximum, a decision stops as soon as the runner-up cannot reach ``close`` times
    the leader's visits within the allowance left (so the move is the one the whole
    allowance would pick, and no extension could come); at the end of an allowance a
    decision still close gets ``iterations`` more, up to ``max_iterations``. Only the root's
    own visit counts are read: nothing hidden."""

    iterations: int
    max_iterations: int | None = None
    close: float = 0.8
    every: int = 0

    def __post_init__(self) -> None:
        if self.max_iterations is not None and (
                not isinstance(self.max_iterations, int) or isinstance(self.max_iterations, bool)
                or self.max_iterations < self.iterations):
            raise ValueError(f"max_iterations must be a whole number ≥ iterations "
                             f"({self.iterations}), not {self.max_iterations!r}")
        if (not isinstance(self.close, (int, float)) or isinstance(self.close, bool)
                or not 0 < self.close <= 1):
            raise ValueError(f"close must be a number in (0, 1], not {self.close!r}")
        if not isinstance(self.every, int) or isinstance(self.every, bool) or self.every < 0:
            raise ValueError(f"every must be a whole number ≥ 0, not {self.every!r}")
        if self.every == 0:
            object.__setattr__(self, "every", max(1, self.iterations // 20))

    def next_stop(self, done: int, allowance: int, visits: list[int]) -> int | None:
        """After ``done`` iterations of an ``allowance``, with the root moves' ``visits``:
        the new allowance (``done`` to stop now), or ``None`` to go on without a look."""
        if self.max_iterations is None:
            return allowance
        if done < allowance and done % self.every:
            return None
        top = sorted(visits, reverse=True) + [0]
        leader, runner = top[0], top[1]
        if runner + (allowance - done) < self.close * leader:
            return done  # decided: neither the move nor an extension can change
        if done >= allowance and allowance < self.max_iterations and runner >= self.close * leader:
            return min(self.max_iterations, allowance + self.iterations)
        return allowance


class UctBot:
    """The ``uct`` bot (silent). Parameters: ``iterations`` (≥ 1 worlds, one per iteration),
    ``candidates`` (≥ 1 root moves: the blueprint's best K), ``depth_candidates`` (≥ 1 moves
    at the seat's later decisions), ``exploration`` (the UCB1 constant, a finite c ≥ 0), ``beliefs``
    (filter worlds by the partners' moves: a pool of ``pool`` worlds, cycled), ``flat``
    (the tree cut to its root: UCB1 over the root moves, every iteration a playout after
    one of them; for the ablation), ``model`` (the partner model of
    :mod:`bots.partner_model`: ``pool`` worlds drawn and weighed by how well they explain
    the partners' moves of the last ``model_rounds`` rounds, resampled and cycled when
    ``model_worlds``; with ``model_tree`` the partners play a type drawn from their posterior
    in the tree and for ``model_horizon`` more moves after it, 0: one round, before the
    blueprint's playout), ``max_iterations``, ``close`` (the :class:`IterationBudget`:
    ``None``, the default, is exactly ``iterations`` a decision), ``departures`` (0..1, default
    0: off; the partners expected to play like people: in the tree's partner moves and in the
    playouts, each partner's move is at that chance drawn uniformly from the blueprint's best
    ``departure_top``, as the ``plausible`` stand-in of :mod:`bots.people`; without the partner
    model's tree), ``seed`` (int). Raises
    ``ValueError`` for a parameter out of range."""

    name = "uct"
    sees_hidden_cards = False

    def __init__(self, iterations: int = 1600, candidates: int = 5, depth_candidates: int = 3,
                 exploration: float = 0.7, beliefs: bool = False, pool: int = 32,
                 flat: bool = False, model: bool = False, model_worlds: bool = True,
                 model_tree: bool = True, model_rounds: int = 2, model_horizon: int = 0,
                 max_iterations: int | None = None, close: float = 0.8,
                 departures: float = 0.0, departure_top: int = 3, seed: int = 0) -> None:
        for label, v in (("iterations", iterations), ("candidates", candidates),
                         ("depth_candidates", depth_candidates), ("pool", pool),
                         ("model_rounds", model_rounds), ("departure_top", departure_top)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{label} must be a whole number ≥ 1, not {v!r}")
        if (not isinstance(exploration, (int, float)) or isinstance(exploration, bool)
                or not 0 <= exploration < math.inf):
            raise ValueError(f"exploration must be a finite number ≥ 0, not {exploration!r}")
        if (not isinstance(departures, (int, float)) or isinstance(departures, bool)
                or not 0 <= departures <= 1):
            raise ValueError(f"departures must be a number from 0 to 1, not {departures!r}")
        self.departures = float(departures)
        self.departure_top = departure_top
        self.iterations = iterations
        self.budget = IterationBudget(iterations, max_iterations, close)
        self.candidates = candidates
        self.depth_candidates = depth_candidates
        self.exploration = float(exploration)
        self.beliefs = bool(beliefs)
        self.pool = pool
        self.flat = bool(flat)
        if not isinstance(model_horizon, int) or isinstance(model_horizon, bool) or model_horizon < 0:
            raise ValueError(f"model_horizon must be a whole number ≥ 0, not {model_horizon!r}")
        self.model = bool(model)
        self.model_worlds = bool(model_worlds)
        self.model_tree = bool(model_tree)
        self.model_rounds = model_rounds
        self.model_horizon = model_horizon
        self.partners: PartnerBeliefs | None = None  # the partner model after the last search
        self.seed = seed
        self.policy = GreedyPolicy()
        self.playouts = 0  # over the bot's life
        self.last: list[RootValue] = []  # the root's statistics after the last search

    def start(self, deal) -> None:  # noqa: D401 - silent bots are never given the deal
        """Silent: never called by :func:`bots.base.play_deal`."""

    def choose(self, observation: Observation) -> Move:
        """The root move visited most by the search (module docstring); a lone move or the
        Summit is played at once."""
        ranked = self.policy.ranked(observation.view(), observation.out, limit=self.candidates)
        if len(ranked) == 1 or ranked[0][0] >= 1e9:
            self.last = [RootValue(ranked[0][1], 0, 0.0)]
            return ranked[0][1]
        self.last = self.search(observation, [m for _, m in ranked])
        best = max(range(len(self.last)), key=lambda i: (self.last[i].visits, -i))
        return self.last[best].move

    def search(self, observation: Observation, moves: list[Move]) -> list[RootValue]:
        """Run the search from ``observation`` with the root moves ``moves`` (legal moves of
        ``observation.player``, best first); one :class:`RootValue` per move, in that order."""
        view = (observation.turn, observation.seat, observation.hand, observation.mountain)
        rng = random.Random(f"uct/{self.seed}/{view!r}")
        me = observation.seat
        draw = self._world_source(observation, rng)
        root = _Node({m: _Edge() for m in moves})
        c = self.exploration
        modelled = self.model and self.model_tree and self.partners is not None
        horizon = self.model_horizon or observation.players
        partners = [q for q in range(observation.players) if q != me]
        departing = self.departures > 0 and bool(partners)
        people = PolicyType("departures", "plausible", self.departures, self.departure_top)
        allowance, i = self.iterations, 0
        while i < allowance:
            world = draw(i)
            partner = self._partner_policy(rng) if modelled else None
            node = root
            path: list[_Edge] = []
            first = True
            while True:
                if first:
                    options = moves
                    first = False
                else:
                    ranked = world.ranked(self.depth_candidates)
                    if ranked[0][0] >= 1e9:  # the Summit: the game is won
                        world.push(ranked[0][1])
                        break
                    options = [m for _, m in ranked]
                edges = [node.edges.setdefault(m, _Edge()) for m in options]
                for e in edges:
                    e.available += 1
                k = next((j for j, e in enumerate(edges) if e.visits == 0), None)
                if k is None:
                    k = max(range(len(edges)), key=lambda j: (
                        edges[j].reward / edges[j].visits
                        + c * math.sqrt(math.log(edges[j].available) / edges[j].visits), -j))
                edge = edges[k]
                path.append(edge)
                world.push(options[k])
                expanded = edge.visits == 0
                # the partners play the blueprint (or their modelled type) until this seat
                # moves again or the game ends
                while world.outcome() is None and world.to_move != me:
                    if partner:
                        world.push(partner(world))
                    elif departing:
                        world.push(modelled_move(world, people, rng))
                    else:
                        world.push(world.ranked(1)[0][1])
                if expanded or self.flat or world.outcome() is not None:
                    break
                if edge.child is None:
                    edge.child = _Node()
                node = edge.child
            if partner is not None:  # the modelled partners for a round more, then the blueprint
                for _ in range(horizon):
                    if world.outcome() is not None:
                        break
                    world.push(world.ranked(1)[0][1] if world.to_move == me else partner(world))
            if world.outcome() is None:
                if departing and partner is None:
                    won, _ = world.playout(self.departures, partners, self.departure_top,
                                           rng.getrandbits(63))
                else:
                    won, _ = world.playout()
            else:
                won = world.outcome() == WIN
            self.playouts += 1
            for e in path:
                e.visits += 1
                e.reward += 1.0 if won else 0.0
            i += 1
            if self.budget.max_iterations is not None:
                stop = self.budget.next_stop(i, allowance, [root.edges[m].visits for m in moves])
                if stop is not None:
                    allowance = stop
        self.iterations_used = i
        return [RootValue(m, root.edges[m].visits, root.edges[m].reward) for m in moves]

    def _world_source(self, observation: Observation, rng: random.Random
                      ) -> Callable[[int], fastplay.World]:
        """``draw(i)``: the world of iteration ``i``, from the observation only (fresh
        fair-shuffle worlds; with ``beliefs``, a pool filtered by the partners' moves)."""
        self.partners = None
        if self.beliefs:
            games, _ = sample_worlds(observation, min(self.pool, self.iterations), rng, True,
                                     policy=self.policy)
            pool = [fastplay.make_world(g) for g in games]
            return lambda i: pool[i % len(pool)].copy()
        sampler = fastplay.Sampler(observation)
        base = rng.getrandbits(62)
        if self.model and observation.players > 1:
            drawn = [sampler.draw(base - 1 - k) for k in range(self.pool)]
            self.partners = infer(observation, [w.to_game() for w in drawn], rng,
                                  self.model_rounds)
            if self.model_worlds:  # the worlds resampled by how well they explain the partners
                chosen = rng.choices(drawn, weights=self.partners.weights, k=self.pool)
                return lambda i: chosen[i % len(chosen)].copy()
        return lambda i: sampler.draw(base + i)

    def _partner_policy(self, rng: random.Random) -> Callable[[fastplay.World], Move]:
        """The partners' policy of one iteration: a type per partner drawn from the partner
        model's posterior, played by :func:`bots.partner_model.modelled_move`."""
        assert self.partners is not None
        kinds = self.partners.sample_types(rng)
        return lambda world: modelled_move(world, kinds[world.to_move], rng)
