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
* ``resample_from_infostate(player, sampler)`` gives a state with the **same information
  state string for that player**, history of moves included, and other hidden cards: the
  hidden cards of now are drawn by :func:`model.observation.sample_world` (the fair-shuffle
  posterior), then the seen moves are walked back to the start (each other player's draws
  chosen at random among the cards of their sampled hand, unseen discards under
  ``discards_seen=own`` taken from the sampled unseen cards, the player's own hands and
  draws as they were), and the game is replayed forward through OpenSpiel's
  ``apply_action``: the resampled state has a full chance and action history of a game
  that could have been dealt (so ``history()``, clones and serialization hold), and any
  OpenSpiel algorithm (e.g. the stock ``ISMCTSBot`` with information-state keys) runs on it
  unchanged. It reads only what that player has seen (``tests/test_openspiel.py``: no-peek).

Without OpenSpiel installed, importing this module raises ``ImportError``.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any, cast

import pyspiel

from model.cards import Card, format_cards
from model.deal import Deal, deal_out
from model.game import WIN, Game
from model.moves import GOAT, Move
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
        #: the full-information position the play started from (``None``: from the deal)
        self.start: Game | None = None
        #: after the start and after each move: (every hand, every deck size). A resampler
        #: reads only its own player's hands and the sizes (public) from it.
        self.log: list[tuple[tuple[tuple[Card, ...], ...], tuple[int, ...]]] = []

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
        self.log.append((tuple(tuple(h) for h in self.game.hands),
                         tuple(len(d) for d in self.game.decks)))
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
        """A state of another game that ``player_id`` cannot tell from this one: the same
        information state string (observation, hands held and moves seen), other hidden
        cards (see the module docstring). ``probability_sampler``: a callable giving floats in
        [0, 1) (OpenSpiel's ``UniformProbabilitySampler``), or anything else for Python's
        random generator. Reads only what ``player_id`` has seen."""
        if callable(probability_sampler):
            seed = int(probability_sampler() * 2**53)
        else:
            seed = random.getrandbits(53)
        return resample(self, player_id, random.Random(seed))

    def __str__(self):
        if self.game is None:
            return f"dealing {len(self.dealt)}/{len(self._g.composition)}: {format_cards(self.dealt)}"
        return str(self.game.to_position())


def resample(state: AscentState, player: int, rng: random.Random) -> AscentState:
    """:meth:`AscentState.resample_from_infostate` with the random generator ``rng``.

    While dealing, the cards dealt so far are drawn again from the shuffle. In play: the
    hidden cards of now by :func:`sample_world`, then back move by move to the start (the
    player's own hands from the state's log; another player's draws at a move: cards of their
    sampled hand at random; an unseen discard: one of the sampled unseen cards out), and the
    game replayed from there. Raises ``ValueError`` for a player out of range."""
    data = state._g
    if not 0 <= player < data.n_players:
        raise ValueError(f"player must be 0..{data.n_players - 1}, not {player}")
    game = state.get_game()
    new = AscentState(game)
    if state.game is None:
        for _ in range(len(state.dealt)):
            left = [c for c in data.card_types for _ in range(new.left[c])]
            new.apply_action(data.card_types.index(rng.choice(left)))
        return new
    obs = observe(state.game, seat=player)
    world = sample_world(obs, rng)
    hands = [list(h) for h in world.hands]
    decks = [list(d) for d in world.decks]
    unseen_out = list(world.out[len(obs.out):])  # the sampled unseen discards (own)
    history = list(obs.history)
    base = len(state.log) - 1 - len(history)  # log index of the start of the history
    assert base >= 0
    for t in reversed(range(len(history))):
        m = history[t]
        q = m.player - 1
        hands_b, decks_b = state.log[base + t]
        hands_a, decks_a = state.log[base + t + 1]
        drawn_n = decks_b[q] - decks_a[q]
        placed = [m.card] if m.card is not None and m.kind != GOAT else []
        n_disc = len(hands_b[q]) - len(hands_a[q]) + drawn_n - len(placed)
        if len(m.discard) != n_disc:  # discards unseen by the player (discards_seen=own)
            assert q != player and not m.discard
            m = Move(m.kind, m.player, m.card, m.row, m.slot, m.to_row, m.to_slot,
                     tuple(unseen_out.pop() for _ in range(n_disc)))
            history[t] = m
        used = placed + list(m.discard)
        if q == player:
            drawn = list((Counter(hands_a[q]) - (Counter(hands_b[q]) - Counter(used))).elements())
            hands[q] = list(hands_b[q])
        else:
            drawn = rng.sample(hands[q], drawn_n)
            hands[q] = list((Counter(hands[q]) - Counter(drawn)).elements()) + used
        rng.shuffle(drawn)  # the order within one draw is never seen
        decks[q] = drawn + decks[q]
    assert not unseen_out
    if state.start is None:
        for c in shuffle_of(data, [hands[q] + decks[q] for q in range(data.n_players)]):
            new.apply_action(data.card_types.index(c))
    else:
        s0 = state.start
        start = Game.from_parts(data.rules, s0.mountain, hands, decks, s0.to_move, s0.out,
                                s0.turn, s0.goats if data.rules.goats_on else None)
        new = _at_position(game, start)
    for m in history:
        new.apply_action(action_of(new, m))
    return new


def shuffle_of(data: GameData, decks: list[list[Card]]) -> list[Card]:
    """The shuffled deck that :func:`model.deal.deal_out` deals into ``decks`` (top card
    first) under the rules' dealing (R13). Raises ``ValueError`` if ``decks`` do not hold
    the whole composition."""
    n = len(data.composition)
    slots: list[list[Any]] = deal_out(cast(Any, list(range(n))), data.n_players,
                                      data.rules.dealing)
    dealt: dict[int, Card] = {}
    for q in range(data.n_players):
        if len(decks[q]) != len(slots[q]):
            raise ValueError("the decks are not a full deal of these rules")
        dealt.update(zip(slots[q], decks[q]))
    return [dealt[i] for i in range(n)]


def action_of(state: AscentState, move: Move) -> int:
    """The action (index in the legal move list) of ``move`` in ``state``; ``ValueError``
    if it is not legal there."""
    assert state.game is not None
    for i, m in enumerate(state.game.generate_legal_moves()):
        if m == move:
            return i
    raise ValueError(f"{move} is not legal here")


def _at_position(game: AscentGame, position: Game) -> AscentState:
    state = AscentState(game)
    data = state._g
    state.dealt = list(data.composition)
    state.left = dict.fromkeys(data.card_types, 0)
    state.start = position.copy()
    state.game = position.copy()
    state._note_hands()
    return state


def state_of_world(game: AscentGame, world: Game) -> AscentState:
    """An :class:`AscentState` at the position ``world`` (a sampled world, or any game).
    A game played from a deal (``world.deal`` set) is replayed from its shuffle, chance
    history included; otherwise the state starts at the position before ``world``'s moves
    (a full-information start; no chance history) and replays them. ``world`` is not
    changed."""
    moves = list(world.move_stack)
    data = game.data
    if world.deal is not None:
        state = AscentState(game)
        for c in shuffle_of(data, [list(d) for d in world.deal.decks]):
            state.apply_action(data.card_types.index(c))
    else:
        start = copy.deepcopy(world)
        while start.move_stack:
            start.pop()
        state = _at_position(game, start)
    for m in moves:
        state.apply_action(action_of(state, m))
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
