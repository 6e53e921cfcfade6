"""The one interface every bot plays behind, and the loop that plays a deal with one bot in
every seat.

A *silent* bot (``greedy``, ``sampling``, ``openspiel-ismcts``) sees only the
:class:`~model.observation.Observation` of the player to move (ruling V1: its own hand, the
mountain, the cards out, hand and deck sizes, whose turn it is) and answers one
:class:`~model.moves.Move`::

    class Bot(Protocol):
        name: str
        def choose(self, observation: Observation) -> Move: ...

The ``cheat`` bot is the open-hand solver: it is given the whole deal (:meth:`Bot.start`) and is
the upper bound, not a silent player. :func:`play_deal` calls :meth:`start` with the deal only
for bots that declare ``sees_hidden_cards = True``.

Every move a bot returns is pushed through :meth:`model.game.Game.push`, which checks it
(a bot that returns an illegal move raises :class:`~model.errors.IllegalMoveError`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from model.deal import Deal
from model.game import WIN, Game
from model.moves import Move
from model.observation import Observation, observe
from model.records import Plan


class Bot(Protocol):
    """A player of one seat (any seat: bots are stateless between moves or reset by
    :meth:`start`). ``choose`` returns a legal move of the player to move."""

    name: str
    sees_hidden_cards: bool

    def start(self, deal: Deal) -> None:
        """Called once before a game; silent bots ignore it (they are never given the deal)."""

    def choose(self, observation: Observation) -> Move:
        """The move of ``observation.player`` (1-based) in the position it describes."""


@dataclass
class GameResult:
    """One game played by bots.

    ``outcome``: ``"win"`` or ``"loss"``; ``slots``: mountain slots filled at the end (peak
    included; 45 at a win in the real game); ``out``: cards out of the game at the end;
    ``turns``: moves made; ``seconds``: wall time of the game (bots' thinking included);
    ``plan``: the game record (deal and moves), replayable by :func:`model.records.replay`.
    """

    outcome: str
    slots: int
    out: int
    turns: int
    seconds: float
    plan: Plan
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def won(self) -> bool:
        return self.outcome == WIN


def play_deal(deal: Deal, bot: Bot, max_turns: int | None = None) -> GameResult:
    """Play ``deal`` with ``bot`` in every seat until the game ends (R10 win, R12 loss):
    :func:`play_table` with the same bot in each seat."""
    return play_table(deal, [bot] * deal.players, max_turns)


def play_table(deal: Deal, seats: Sequence[Bot], max_turns: int | None = None) -> GameResult:
    """Play ``deal`` with ``seats[k]`` in seat ``k + 1`` (one bot per seat, a mixed table;
    the same object may sit in several seats) until the game ends (R10 win, R12 loss).

    Each turn the bot of the player to move gets that player's observation (:func:`observe`),
    never the game; its move is checked and applied by :meth:`Game.push`. ``max_turns``
    (default: the number of cards, which no game can exceed since every move takes a card out
    of a hand for good) guards against a bug. Raises :class:`~model.errors.IllegalMoveError`
    if a bot returns an illegal move, ``ValueError`` unless there is one bot per seat."""
    if len(seats) != deal.players:
        raise ValueError(f"{deal.players} seats need {deal.players} bots, not {len(seats)}")
    t0 = time.perf_counter()
    game = Game(deal)
    started: set[int] = set()
    for bot in seats:
        if getattr(bot, "sees_hidden_cards", False) and id(bot) not in started:
            bot.start(deal)
            started.add(id(bot))
    limit = max_turns if max_turns is not None else len(deal.rules.composition()) + 1
    while game.outcome() is None and game.turn < limit:
        move = seats[game.to_move].choose(observe(game))
        game.push(move)
    outcome = game.outcome() or "loss"
    return GameResult(
        outcome=outcome,
        slots=game.filled_slots(),
        out=len(game.out),
        turns=game.turn,
        seconds=time.perf_counter() - t0,
        plan=Plan(deal, list(game.move_stack)),
    )


BotFactory = Callable[[], Bot]
