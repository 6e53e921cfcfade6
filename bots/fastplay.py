"""Fast playouts for the silent bots: the game and the greedy policy in C, exactly as in Python.

The ``team`` bot judges a move by playing the game out in sampled worlds with
:class:`~bots.greedy.GreedyPolicy` in every seat. This module plays such playouts with the
compiled engine ``bots._playout`` (``bots/_playout.c``): the same moves in the same order as
:meth:`GreedyPolicy.ranked` on the equivalent :class:`~model.game.Game`, with bit-identical
scores (``tests/test_fastplay.py`` compares them from random positions of every preset and
every move-ruling option). Where the extension is not built, or for rules it does not handle
(:func:`supported`), the same API runs in pure Python over a :class:`Game` (:class:`PyWorld`).

* :func:`make_world` — a world (a full position) from a :class:`Game`;
* :class:`Sampler` — the worlds consistent with an :class:`~model.observation.Observation`
  (built from the observation alone: no bot ever reads a hidden card), drawn by a fair shuffle
  (splitmix64, Fisher–Yates) of the unseen cards into the hidden places
  (:func:`~model.observation.world_from_order`);
* :func:`evaluate` — each candidate move over the same sampled worlds, greedy playouts to the
  end (one C call for all worlds and moves when compiled).

The shuffle is the same in C and in Python (the same splitmix64 stream and rejection
sampling), so a seed gives the same world on both paths and :func:`evaluate` gives the same
numbers with or without the extension.
"""

from __future__ import annotations

import importlib
import random
import warnings
from pathlib import Path
from typing import Any, Collection, Sequence

from bots import greedy
from bots.greedy import GreedyPolicy
from bots.playout import greedy as greedy_seat
from bots.playout import play_out
from model.cards import ASCENT, BRIDGE, CAMPFIRE, COLOUR_LETTERS, SUMMIT, Card
from model.game import LOSS, WIN, Game, Placement
from model.moves import CAMPFIRE as CAMPFIRE_MOVE
from model.moves import DISCARD, PLACE, Move
from model.observation import Observation, hidden_places, unseen_cards, world_from_order
from model.rules import RuleSet
from solver.exhaustive import source_digest

#: The compiled engine's sources, in the order of setup.py's digest (``PLAYOUT_SOURCES``).
SOURCES = (Path(__file__).with_name("_playout.c"),
           Path(__file__).resolve().parents[1] / "solver" / "rules_core.h")


_playout: Any
try:  # the compiled engine is optional (setup.py builds it where a C compiler is found)
    _playout = importlib.import_module("bots._playout")
except ImportError:  # pragma: no cover - the build is optional
    _playout = None
    _STATUS = "Python playouts (the compiled engine bots/_playout.c is not built; `pip install -e .` builds it)"
else:
    if source_digest(SOURCES) not in (None, getattr(_playout, "SOURCE_HASH", "")):
        # an engine built from other sources (a checkout that moved on without a rebuild):
        # its playouts could differ from the model's, so it is not used
        _playout = None
        _STATUS = ("Python playouts (bots/_playout.c or solver/rules_core.h changed since the "
                   "compiled engine was built; `pip install -e .` rebuilds it)")
        warnings.warn("ascent: warning: the bots play out in " + _STATUS, RuntimeWarning,
                      stacklevel=2)
    else:
        _STATUS = "compiled playouts (bots/_playout.c)"
AVAILABLE = _playout is not None


def status() -> str:
    """Which playouts run, in words: ``"compiled playouts (bots/_playout.c)"``, or
    ``"Python playouts (...)"`` with the reason (not built, or built from other sources)."""
    return _STATUS

MASK64 = (1 << 64) - 1
#: Compiled sizes (bots/_playout.c): rows, hand size, players, Ascent values and colours.
MAX_ROWS, MAX_HAND, MAX_PLAYERS, MAX_VALUES, MAX_COLOURS = 8, 8, 5, 12, 5
#: Compiled size of the deck (MAXCARDS of bots/_playout.c): every card of the rules.
MAX_CARDS = 300
_OPTIONS = {"bridge_neighbour": ("zero", "look-through"), "bridge_replace_cost": ("max", "left"),
            "campfire_move_cost": ("paid", "free")}
_KINDS = {DISCARD: 0, PLACE: 1, CAMPFIRE_MOVE: 2}
_KIND_NAMES = {v: k for k, v in _KINDS.items()}


def card_id(card: Card) -> int:
    """The compiled engine's id of ``card`` (ids sort as :meth:`Card.sort_key`): an Ascent
    card ``(value-1)*5 + colour index``, a Campfire ``60 + colour index``, Bridge 65, Summit 66."""
    if card.kind == ASCENT:
        return (card.value - 1) * 5 + COLOUR_LETTERS.index(card.colour)
    if card.kind == CAMPFIRE:
        return 60 + COLOUR_LETTERS.index(card.colour)
    return 65 if card.kind == BRIDGE else 66


CARDS: list[Card] = ([Card(ASCENT, v, c) for v in range(1, 13) for c in COLOUR_LETTERS]
                     + [Card(CAMPFIRE, 0, c) for c in COLOUR_LETTERS] + [Card(BRIDGE), Card(SUMMIT)])
_IDS = {c: i for i, c in enumerate(CARDS)}


def supported(rules: RuleSet) -> bool:
    """Whether the compiled engine plays ``rules``: goats off, sizes within its arrays (rows ≤ 8,
    hand ≤ 8, values ≤ 12, colours ≤ 5, at most 300 cards in all) and known values of the
    move-ruling options (bridge_neighbour, bridge_replace_cost, campfire_move_cost; dealing and
    discards_seen do not change play)."""
    cards = rules.colours * (rules.values * rules.copies + rules.campfires) + rules.bridges + rules.summits
    return (rules.goats == "off" and 2 <= rules.rows <= MAX_ROWS and 1 <= rules.hand_size <= MAX_HAND
            and rules.values <= MAX_VALUES and rules.colours <= MAX_COLOURS and cards <= MAX_CARDS
            and all(getattr(rules, k) in v for k, v in _OPTIONS.items()))


def _params(rules: RuleSet, players: int) -> tuple:
    """The C engine's parameters: the rules and greedy's constants (read now, so a tuned
    constant is played by both paths alike)."""
    return (rules.rows, rules.hand_size, rules.summits, players,
            int(rules.bridge_neighbour == "look-through"), int(rules.bridge_replace_cost == "left"),
            int(rules.campfire_move_cost == "free"), float(greedy.SLOT_VALUE),
            float(greedy.BRIDGE_PENALTY), float(greedy.LAST_SUMMIT), float(greedy.FLEX),
            float(greedy.REPLACE_BONUS), int(greedy.MAX_BRIDGES), int(greedy.PLACE_BRIDGES))


def _ids(cards: Sequence[Card]) -> list[int]:
    return [_IDS[c] for c in cards]


def _cards(ids: Sequence[int]) -> list[Card]:
    return [CARDS[i] for i in ids]


def move_to_c(move: Move) -> tuple:
    """A :class:`Move` as the engine's tuple ``(kind, card, row, slot, to_row, to_slot, discard)``."""
    card = -1 if move.card is None else _IDS[move.card]
    return (_KINDS[move.kind], card, move.row, move.slot, move.to_row, move.to_slot,
            tuple(_ids(move.discard)))


def move_from_c(t: Sequence[Any], player: int) -> Move:
    """The :class:`Move` of the engine's tuple, by ``player`` (1-based)."""
    kind, card, row, slot, to_row, to_slot, disc = t
    if kind == 0:
        return Move(DISCARD, player, discard=tuple(_cards(disc)))
    return Move(_KIND_NAMES[kind], player, CARDS[card], row, slot, to_row, to_slot,
                tuple(_cards(disc)))


def _mask(seats: Collection[int]) -> int:
    """The bit mask of 0-based ``seats`` (bit p: seat p) for the compiled playout."""
    mask = 0
    for p in seats:
        if not 0 <= p < MAX_PLAYERS:
            raise ValueError(f"seat {p!r} is not a 0-based seat below {MAX_PLAYERS}")
        mask |= 1 << p
    return mask


#: The largest ``top`` / ``limit`` the compiled engine takes (a C int); any larger one asks
#: for the whole ranking anyway.
_C_INT_MAX = 2**31 - 1


def _check_departures(rate: float, seats: Collection[int], top: int) -> int:
    """The seats' bit mask, after checking the playout's departure arguments (at every rate,
    in both worlds): ``ValueError`` for a rate outside 0..1 (or NaN), ``top`` < 1 or a seat
    out of range."""
    if not 0 <= rate <= 1 or top < 1:
        raise ValueError("playout: rate must be in [0, 1] and top >= 1")
    return _mask(seats)


def _outcome_text(code: int) -> str | None:
    return WIN if code == 1 else LOSS if code == 2 else None


class FastWorld:
    """A position held by the compiled engine (see :func:`make_world`). ``push`` does not check
    the move's legality: give it only legal moves of the player to move (as ``Game.push_unchecked``);
    a move naming a card not in the hand or a slot off the mountain is a ``ValueError``."""

    __slots__ = ("_w", "rules")

    def __init__(self, w: Any, rules: RuleSet) -> None:
        self._w = w
        self.rules = rules

    @property
    def to_move(self) -> int:
        """0-based seat to move."""
        return int(self._w.to_move)

    @property
    def turn(self) -> int:
        """Moves made so far."""
        return int(self._w.turn)

    @property
    def players(self) -> int:
        """Number of players."""
        return int(self._w.players)

    def copy(self) -> FastWorld:
        """An independent copy."""
        return FastWorld(self._w.copy(), self.rules)

    def outcome(self) -> str | None:
        """``WIN``, ``LOSS`` or ``None``, as :meth:`Game.outcome`."""
        return _outcome_text(self._w.outcome())

    def ranked(self, limit: int | None = None) -> list[tuple[float, Move]]:
        """``GreedyPolicy().ranked(game, game.out, limit)`` of the equivalent game."""
        player = self.to_move + 1
        return [(score, move_from_c(t, player))
                for score, t in self._w.ranked(min(limit or 0, _C_INT_MAX))]

    def placements(self) -> list[Placement]:
        """The legal placements of the player to move with their costs, as the engine generates
        them (:meth:`Game.generate_placements` of the equivalent game, in the engine's order)."""
        return [Placement(CARDS[c], row, slot, cost, to_row, to_slot, bool(onto))
                for c, row, slot, cost, to_row, to_slot, onto in self._w.placements()]

    def push(self, move: Move) -> None:
        """Apply ``move`` (a LEGAL move of the player to move; its legality is not checked, only
        that its cards are in the hand and its slots on the mountain: else ``ValueError``),
        draw, pass the turn."""
        self._w.push(move_to_c(move))

    def playout(self, rate: float = 0.0, seats: Collection[int] = (), top: int = 3,
                seed: int = 0) -> tuple[bool, int]:
        """Greedy in every seat to the end: (won, cards out at the end). Changes the world.
        The 0-based ``seats`` depart from the blueprint at chance ``rate`` (0..1): such a move
        is drawn uniformly from its best ``top``, as the ``plausible`` stand-in
        (:mod:`bots.people`), from the random stream of ``seed``; rate 0 is greedy exactly.
        Raises ``ValueError`` for a rate outside 0..1, ``top`` < 1 or a seat out of range."""
        mask = _check_departures(rate, seats, top)
        if not rate or not mask:
            won, n_out = self._w.playout()
        else:
            won, n_out = self._w.playout(rate, min(top, _C_INT_MAX), mask, seed & (2**64 - 1))
        return bool(won), int(n_out)

    def playout_moves(self) -> list[Move]:
        """The moves :meth:`playout` would make, in order; the world is left unchanged."""
        moves = []
        players = self.players
        seat = self.to_move
        for t in self._w.playout_moves():
            moves.append(move_from_c(t, seat + 1))
            seat = (seat + 1) % players
        return moves

    def filled_slots(self) -> int:
        """Cards on the mountain, the peak included (:meth:`Game.filled_slots`)."""
        return sum(len(r) for r in self._w.state()[0])

    def to_game(self) -> Game:
        """The equivalent model position (:meth:`Game.from_parts`, no move history)."""
        mountain, hands, decks, out, to_move, turn = self._w.state()
        return Game.from_parts(self.rules, [_cards(r) for r in mountain], [_cards(h) for h in hands],
                               [_cards(d) for d in decks], to_move, _cards(out), turn)


class PyWorld:
    """The pure-Python world: a :class:`Game` copy played by :class:`GreedyPolicy` (same API
    as :class:`FastWorld`; ``push`` applies unchecked, by ``Game.push_unchecked``)."""

    __slots__ = ("game", "policy", "seat_policy")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.policy = GreedyPolicy()
        self.seat_policy = greedy_seat(self.policy)

    @property
    def to_move(self) -> int:
        """0-based seat to move."""
        return self.game.to_move

    @property
    def turn(self) -> int:
        """Moves made so far."""
        return self.game.turn

    @property
    def players(self) -> int:
        """Number of players."""
        return self.game.players

    def copy(self) -> PyWorld:
        """An independent copy."""
        return PyWorld(self.game.copy())

    def outcome(self) -> str | None:
        """``WIN``, ``LOSS`` or ``None`` (:meth:`Game.outcome`)."""
        return self.game.outcome()

    def ranked(self, limit: int | None = None) -> list[tuple[float, Move]]:
        """``GreedyPolicy().ranked(game, game.out, limit)``."""
        return self.policy.ranked(self.game, self.game.out, limit)

    def placements(self) -> list[Placement]:
        """The legal placements of the player to move with their costs
        (:meth:`Game.generate_placements`)."""
        return list(self.game.generate_placements())

    def push(self, move: Move) -> None:
        """Apply ``move`` (a legal move of the player to move; not checked)."""
        self.game.push_unchecked(move)

    def playout(self, rate: float = 0.0, seats: Collection[int] = (), top: int = 3,
                seed: int = 0) -> tuple[bool, int]:
        """Greedy in every seat to the end (:func:`bots.playout.play_out`): (won, cards out
        at the end). Changes the world. ``rate``, ``seats``, ``top``: departures as
        :meth:`FastWorld.playout` (drawn from Python's ``random.Random(seed)``, so not the
        compiled engine's draws)."""
        _check_departures(rate, seats, top)
        g = self.game
        if not rate or not seats:
            play_out(g, self.seat_policy)
        else:
            rng = random.Random(seed)
            departing = frozenset(seats)
            while g.outcome() is None:
                if g.to_move in departing and rng.random() < rate:
                    move = rng.choice(self.policy.ranked(g, g.out, top))[1]
                else:
                    move = self.seat_policy(g)
                g.push_unchecked(move)
        return g.outcome() == WIN, len(g.out)

    def playout_moves(self) -> list[Move]:
        """The moves :meth:`playout` would make, in order; the world is left unchanged."""
        g = self.game.copy()  # without the move history: its move stack is the playout's
        play_out(g, self.seat_policy)
        return list(g.move_stack)

    def filled_slots(self) -> int:
        """Cards on the mountain, the peak included (:meth:`Game.filled_slots`)."""
        return self.game.filled_slots()

    def to_game(self) -> Game:
        """A copy of the position."""
        return self.game.copy()


World = FastWorld | PyWorld


def _compiled(rules: RuleSet) -> bool:
    return AVAILABLE and supported(rules)


def make_world(game: Game) -> World:
    """A world of the position of ``game`` (not changed, not kept): a :class:`FastWorld` when
    the extension is built and :func:`supported` says yes, else a :class:`PyWorld`."""
    if not _compiled(game.rules):
        return PyWorld(game.copy())
    assert _playout is not None
    w = _playout.World(_params(game.rules, game.players), [_ids(r) for r in game.mountain],
                       [_ids(h) for h in game.hands], [_ids(d) for d in game.decks], _ids(game.out),
                       game.to_move, game.turn)
    return FastWorld(w, game.rules)


# ---- the fair shuffle: splitmix64 and Fisher–Yates (the same stream as bots/_playout.c) ------

def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def world_seed(seed: int, i: int) -> int:
    """The seed of world ``i`` of :func:`evaluate` with ``seed`` (a 64-bit mix of both)."""
    return _mix64((seed & MASK64) ^ _mix64((i + 0x632BE59BD9B4E019) & MASK64))


def shuffled(cards: Sequence[Card], seed: int) -> list[Card]:
    """``cards`` in a uniformly random order drawn from ``seed`` (any int, taken mod 2**64):
    Fisher–Yates from the last position down, each index by rejection sampling from a
    splitmix64 stream (no modulo bias); the C engine draws the same order."""
    a = list(cards)
    st = _mix64(seed & MASK64)
    for i in range(len(a) - 1, 0, -1):
        bound = i + 1
        threshold = (1 << 64) % bound
        while True:
            st = (st + 0x9E3779B97F4A7C15) & MASK64
            x = _mix64(st)
            if x >= threshold:
                break
        j = x % bound
        a[i], a[j] = a[j], a[i]
    return a


class Sampler:
    """The worlds consistent with ``observation`` (ruling V1), built from the observation alone.

    The unseen cards (:func:`~model.observation.unseen_cards`, canonical order) and the hidden
    places are computed once. :meth:`draw` puts the unseen cards in a uniformly random order
    (:func:`shuffled` of ``seed``) into the hidden places as :func:`world_from_order` does.
    Raises :class:`~model.errors.InvalidDealError` for an observation no game could give.
    """

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self.unseen = unseen_cards(observation)
        self.places = hidden_places(observation)
        self._c: Any = None
        obs = observation
        if _compiled(obs.rules):
            assert _playout is not None
            self._c = _playout.Sampler(_params(obs.rules, obs.players), [_ids(r) for r in obs.mountain],
                                       _ids(obs.hand), _ids(obs.out), _ids(self.unseen), obs.seat,
                                       list(obs.hand_sizes), list(obs.deck_sizes), obs.turn)

    def order(self, seed: int) -> list[Card]:
        """The order of the unseen cards that :meth:`draw` uses for ``seed``."""
        return shuffled(self.unseen, seed)

    def draw(self, seed: int) -> World:
        """The world of the fair shuffle seeded by ``seed`` (any int, taken mod 2**64)."""
        if self._c is not None and AVAILABLE:
            return FastWorld(self._c.draw(seed & MASK64), self.observation.rules)
        return PyWorld(world_from_order(self.observation, self.order(seed)))

    def from_order(self, order: Sequence[Card]) -> World:
        """``make_world(world_from_order(observation, order))``; ``order`` a permutation of the
        unseen cards."""
        if self._c is not None and AVAILABLE:
            return FastWorld(self._c.from_order(_ids(order)), self.observation.rules)
        return PyWorld(world_from_order(self.observation, order))


def evaluate(observation: Observation, moves: Sequence[Move], worlds: int,
             seed: int) -> list[tuple[int, int, int]]:
    """Each of ``moves`` (legal moves of ``observation.player``) over the same ``worlds`` sampled
    worlds (world ``i`` drawn by :meth:`Sampler.draw` with :func:`world_seed` ``(seed, i)``:
    common random numbers), the move pushed and then greedy in every seat to the end. Returns
    per move, in the order given, (wins, plays, cards out summed over the playouts' ends).
    One C call when compiled; the Python path gives the same numbers. ``ValueError`` for a
    negative ``worlds`` (and, compiled, for a move naming a card not in the hand or a slot off
    the mountain)."""
    if worlds < 0:
        raise ValueError(f"worlds must be ≥ 0, not {worlds}")
    sampler = Sampler(observation)
    if sampler._c is not None and AVAILABLE:
        res = sampler._c.evaluate([move_to_c(m) for m in moves], worlds, seed & MASK64)
        return [(int(w), int(p), int(o)) for w, p, o in res]
    totals = [[0, 0, 0] for _ in moves]
    for i in range(worlds):
        base = sampler.draw(world_seed(seed, i))
        for k, m in enumerate(moves):
            w = base.copy()
            w.push(m)
            won, n_out = w.playout()
            totals[k][0] += int(won)
            totals[k][1] += 1
            totals[k][2] += n_out
    return [(a, b, c) for a, b, c in totals]
