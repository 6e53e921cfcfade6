"""``openspiel-ismcts``: OpenSpiel's information-set MCTS (Cowling et al. 2012) as a silent bot.

It plays from the observation only: a world is drawn from the observation
(:func:`model.observation.sample_world`) and turned into a state of the registered game
(:mod:`bots.openspiel_game`); OpenSpiel's :class:`~open_spiel.python.algorithms.ismcts.ISMCTSBot`
searches with its own resampler set to draw further worlds consistent with the observation of
the player at each node, keyed by observation strings. Leaves are valued by a short greedy
playout (:class:`GreedyRolloutEvaluator`: 1 for a win, else the share of slots filled times
0.9), since uniformly random playouts of an 85-card game almost never reach the Summit. The
chosen action is the index of a move in the model's legal move list, which the observation
alone determines.

Needs the optional extra: ``pip install -e '.[openspiel]'``. Python ISMCTS on a Python game is
slow (about ``simulations`` × ``horizon`` model moves per turn): keep ``simulations`` small.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from bots import openspiel_game as og
from bots.greedy import GreedyPolicy
from model.game import WIN
from model.moves import Move
from model.observation import Observation, observe, sample_world


class GreedyRolloutEvaluator:
    """An OpenSpiel MCTS evaluator: uniform prior; value of a state = 1.0 for every player at a
    win, else 0.9 × (slots filled / slots) after at most ``horizon`` greedy moves."""

    def __init__(self, horizon: int = 8) -> None:
        self.horizon = horizon
        self.policy = GreedyPolicy()

    def evaluate(self, state) -> np.ndarray:
        game = state.game
        n = game.players
        pushed = 0
        try:
            while game.outcome() is None and pushed < self.horizon:
                game.push(self.policy.move(game, game.out))
                pushed += 1
            if game.outcome() == WIN:
                return np.ones(n)
            return np.full(n, 0.9 * game.filled_slots() / game.rules.mountain_slots)
        finally:
            for _ in range(pushed):
                game.pop()

    def prior(self, state):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def game_string(observation: Observation) -> str:
    """The ``pyspiel.load_game`` string of the observation's player count and rules."""
    rules = observation.rules
    opts = [f"preset:{rules.preset_name}"] + [o.replace("=", ":", 1) for o in rules.changed_options()]
    return f"{og.SHORT_NAME}(players={observation.players},rules={';'.join(opts)})"


class OpenSpielISMCTSBot:
    """The ``openspiel-ismcts`` bot (silent). ``simulations``: ISMCTS simulations per move;
    ``uct_c``: exploration constant; ``horizon``: greedy playout length at a leaf; ``seed``."""

    name = "openspiel-ismcts"
    sees_hidden_cards = False

    def __init__(self, simulations: int = 50, uct_c: float = 1.0, horizon: int = 8,
                 seed: int = 0) -> None:
        if simulations < 1:
            raise ValueError(f"simulations must be ≥ 1, not {simulations}")
        self.simulations = simulations
        self.uct_c = uct_c
        self.evaluator = GreedyRolloutEvaluator(horizon)
        self.seed = seed
        self._games: dict[str, pyspiel.Game] = {}

    def start(self, deal) -> None:  # noqa: D401 - silent bots are never given the deal
        """Silent: never called by :func:`bots.base.play_deal`."""

    def choose(self, observation: Observation) -> Move:
        """ISMCTS's move for ``observation``."""
        key = game_string(observation)
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = pyspiel.load_game(key)
        rng = random.Random(f"{self.seed}/{observation.seat}/{observation.turn}")
        world = sample_world(observation, rng)
        moves = world.legal_moves()
        if len(moves) == 1:
            return moves[0]
        state = og.state_of_world(game, world)
        bot = ismcts.ISMCTSBot(
            game, self.evaluator, self.uct_c, self.simulations,
            random_state=np.random.RandomState(rng.getrandbits(31)),
            use_observation_string=True, allow_inconsistent_action_sets=True,
        )
        bot.set_resampler(lambda st, player: og.state_of_world(
            game, sample_world(observe(st.game, seat=player), rng)))
        action = bot.step(state)
        return moves[action]
