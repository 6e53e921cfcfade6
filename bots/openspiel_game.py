"""*The Ascent* registered with OpenSpiel's Python API (optional extra ``.[openspiel]``).

``import bots.openspiel_game`` registers the game ``python_ascent`` with
:func:`pyspiel.register_game`; then ``pyspiel.load_game("python_ascent(players=2)")`` (or with
``rules=preset:tiny`` and further ``K:V`` options separated by ``;``) gives a game that OpenSpiel's
algorithms run on:

* **imperfect information** (``IMPERFECT_INFORMATION``), one state per position of the real
  game (:class:`model.game.Game` holds it; every move goes through :meth:`Game.push`);
* **the shuffle as an explicit chance node**: the first ``n`` (85) moves are chance moves, each
  dealing the next card of the shuffled deck, an outcome per card type with probability
  (copies left) / (cards left); the cards are then dealt to the decks as R13 says;
* **identical utility**: 1 for every player at a win, 0 at a loss (``IDENTICAL``, terminal);
* a player action is the index of the move in :meth:`Game.legal_moves` (canonical order);
  legality depends only on the mountain and the mover's hand, both in the mover's information
  state, so the index means the same move in every world a player cannot tell apart;
* **information state string** of a player: their observation (:mod:`model.observation`, ruling
  V1) plus every hand they have held (perfect recall); **observation string**: the observation
  without the history;
* ``resample_from_infostate`` deals the hidden cards again with
  :func:`model.observation.sample_world` (a state of the sampled world, for ISMCTS).

Without OpenSpiel installed, importing this module raises ``ImportError``.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from model.cards import Card, format_cards
from model.deal import Deal, deal_out
from model.game import WIN, Game
from model.observation import observe, sample_world
from model.rules import RuleSet

SHORT_NAME = "python_ascent"
#: Upper bound on the legal moves of one position (hand of up to 8, expanded discards).
MAX_ACTIONS = 4096

_DEFAULT_PARAMS = {"players": 1, "rules": ""}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Tranquility: The Ascent (python, ascent project)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.IDENTICAL,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=_DEFAULT_PARAMS,
)


def rules_of(text: str) -> RuleSet:
    """The rule set of the game parameter ``rules``: ``K:V`` options (OpenSpiel's game strings
    keep ``=`` for their own parameters) separated by ``;`` (``""``: the standard rules), e.g.
    ``python_ascent(players=2,rules=preset:tiny;dealing:blocks)``. Raises
    :class:`~model.errors.RuleOptionError`."""
    opts = [t.replace(":", "=", 1) for t in text.replace(";", " ").split() if t]
    return RuleSet.from_options(opts)


class GameData:
    """The parameters of one game as plain immutable data (shared, never copied, by the
    states: OpenSpiel clones states with ``copy.deepcopy``)."""

    def __init__(self, players: int, rules: RuleSet) -> None:
        self.rules = rules
        self.n_players = players
        self.composition = rules.composition()
        self.card_types: list[Card] = sorted(set(self.composition), key=Card.sort_key)

    def __deepcopy__(self, memo):
        return self


class AscentGame(pyspiel.Game):
    """The game object: parameters ``players`` (1–5) and ``rules`` (see :func:`rules_of`)."""

    def __init__(self, params=None):
        params = {**_DEFAULT_PARAMS, **(params or {})}
        players = int(params["players"])
        if not 1 <= players <= 5:
            raise ValueError(f"players must be 1 to 5, not {players}")
        self.data = GameData(players, rules_of(str(params["rules"])))
        n = len(self.data.composition)
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS,
            max_chance_outcomes=len(self.data.card_types),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=2 * n + 1,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        """The state before the shuffle (a chance node)."""
        return AscentState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Strings only: the information state (perfect recall) or the observation."""
        perfect = iig_obs_type is None or iig_obs_type.perfect_recall
        return AscentObserver(perfect)


class AscentState(pyspiel.State):
    """A state: the cards dealt so far (chance phase), then the :class:`Game`."""

    def __init__(self, game: AscentGame):
        super().__init__(game)
        self._g = game.data
        self.dealt: list[Card] = []
        self.left = {c: self._g.composition.count(c) for c in self._g.card_types}
        self.game: Game | None = None
        self.hands_seen: list[list[str]] = [[] for _ in range(self._g.n_players)]

    # ---- chance ---------------------------------------------------------------------------

    def current_player(self):
        """Chance while dealing, then the player to move, or TERMINAL."""
        if self.game is None:
            return pyspiel.PlayerId.CHANCE
        if self.game.outcome() is not None:
            return pyspiel.PlayerId.TERMINAL
        return self.game.to_move

    def chance_outcomes(self):
        """(card type index, probability) of the next card of the shuffle."""
        total = sum(self.left.values())
        return [(i, self.left[c] / total) for i, c in enumerate(self._g.card_types) if self.left[c]]

    def _legal_actions(self, player):
        assert self.game is not None and player == self.game.to_move
        return list(range(len(self.game.legal_moves())))

    def _apply_action(self, action):
        if self.game is None:
            card = self._g.card_types[action]
            if self.left.get(card, 0) <= 0:
                raise pyspiel.SpielError(f"no {card} left to deal")
            self.left[card] -= 1
            self.dealt.append(card)
            if len(self.dealt) == len(self._g.composition):
                decks = deal_out(self.dealt, self._g.n_players, self._g.rules.dealing)
                self.game = Game(Deal(self._g.n_players, tuple(tuple(d) for d in decks), self._g.rules))
                self._note_hands()
            return
        moves = self.game.legal_moves()
        if not 0 <= action < len(moves):
            raise pyspiel.SpielError(f"action {action} is not legal ({len(moves)} legal moves)")
        self.game.push(moves[action])
        self._note_hands()

    def _note_hands(self):
        assert self.game is not None  # called once the deal is dealt
        for p in range(self._g.n_players):
            text = format_cards(self.game.hands[p])
            if not self.hands_seen[p] or self.hands_seen[p][-1] != text:
                self.hands_seen[p].append(text)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._g.card_types[action]}"
        if self.game is None:
            return f"action {action}"
        moves = self.game.legal_moves()
        return str(moves[action]) if 0 <= action < len(moves) else f"action {action}"

    def is_terminal(self):
        return self.game is not None and self.game.outcome() is not None

    def returns(self):
        """1.0 for every player at a win, else 0.0 (identical utility)."""
        won = self.game is not None and self.game.outcome() == WIN
        return [1.0 if won else 0.0] * self._g.n_players

    # ---- strings --------------------------------------------------------------------------

    def observation_text(self, player: int, perfect_recall: bool) -> str:
        """The observation of ``player`` as text (see the module docstring)."""
        if self.game is None:
            return f"p{player + 1} dealing {len(self.dealt)}/{len(self._g.composition)}"
        o = observe(self.game, seat=player)
        rows = " / ".join(format_cards(r) or "-" for r in o.mountain)
        text = (f"p{player + 1} turn {o.turn} to_move p{self.game.to_move + 1} | mountain {rows} | "
                f"hand {format_cards(o.hand)} | hands {list(o.hand_sizes)} decks {list(o.deck_sizes)} | "
                f"out {format_cards(o.out)} +{o.out_unseen}")
        if perfect_recall:
            text += " | held " + " ; ".join(self.hands_seen[player])
            text += " | moves " + " ; ".join(str(m) for m in o.history)
        return text

    def information_state_string(self, player=None):
        p = self.current_player() if player is None else player
        return self.observation_text(p, True)

    def observation_string(self, player=None):
        p = self.current_player() if player is None else player
        return self.observation_text(p, False)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state of a world consistent with ``player_id``'s observation (hidden hands and
        every deck dealt again, :func:`model.observation.sample_world`)."""
        if self.game is None:
            return self.clone()
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else random.getrandbits(31)
        return state_of_world(self.get_game(), sample_world(observe(self.game, seat=player_id), random.Random(seed)),
                              self.hands_seen)

    def __str__(self):
        if self.game is None:
            return f"dealing {len(self.dealt)}/{len(self._g.composition)}: {format_cards(self.dealt)}"
        return str(self.game.to_position())


def state_of_world(game: AscentGame, world: Game, hands_seen=None) -> AscentState:
    """An :class:`AscentState` at the position ``world`` (a sampled world or any position; it
    has no chance history). ``hands_seen`` copies the players' held-hand logs."""
    state = AscentState(game)  # game: the AscentGame
    data = state._g
    state.dealt = list(data.composition)
    state.left = dict.fromkeys(data.card_types, 0)
    state.game = world
    state.hands_seen = [list(h) for h in (hands_seen or [[] for _ in range(data.n_players)])]
    state._note_hands()
    return state


class AscentObserver:
    """OpenSpiel's PyObserver for strings (no tensors)."""

    def __init__(self, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return state.observation_text(player, self.perfect_recall)


pyspiel.register_game(_GAME_TYPE, AscentGame)
