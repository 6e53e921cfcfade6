"""The one playout of the bots: a world played on to its end, a policy in each seat.

A *world* is a full position (a :class:`~model.game.Game`: a sampled guess of the hidden
cards, never the real game). The bots that judge a move by playing worlds out (``sampling``,
``team``, ``determinized`` with ``rollout``, :mod:`bots.advice` and the Python engine of
:mod:`bots.fastplay`) all do it here, over the public API of the game: :meth:`Game.outcome`,
:meth:`Game.push_unchecked` (or :meth:`Game.push` with ``checked``) and :meth:`Game.pop`.

* :func:`play_out` — play the world on until it ends (R10 win, R12 loss) or for at most
  ``horizon`` moves; the moves stay made;
* :func:`played_out` — the same as a context: the outcome inside, every move taken back after;
* :func:`greedy` — the seat policy of :class:`~bots.greedy.GreedyPolicy` (it reads only the
  mountain, the mover's own hand and the cards out: no seat of a playout is clairvoyant).

>>> from model.deal import Deal
>>> g = Game(Deal.from_seed(3, 2))
>>> with played_out(g, greedy()) as outcome:
...     outcome in ("win", "loss"), g.turn > 0
(True, True)
>>> g.turn
0
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator, Sequence

from bots.greedy import GreedyPolicy
from model.game import Game
from model.moves import Move

SeatPolicy = Callable[[Game], Move]
"""A seat's policy in a playout: the move of the player to move in the world given."""


def greedy(policy: GreedyPolicy | None = None) -> SeatPolicy:
    """The seat policy ``policy.move(world, world.out)`` (default a new :class:`GreedyPolicy`):
    its moves come from the model's own legal list, so :func:`play_out` may apply them
    unchecked."""
    policy = policy or GreedyPolicy()

    def move(world: Game) -> Move:
        return policy.move(world, world.out)

    return move


def play_out(world: Game, policy: SeatPolicy | Sequence[SeatPolicy], horizon: int | None = None,
             checked: bool = False) -> int:
    """Play ``world`` on: while it is not over and fewer than ``horizon`` moves (``None``: no
    limit) were made, the policy of the seat to move (``policy``: one for every seat, or a
    sequence indexed by the 0-based seat) gives the move and it is applied. A policy's moves
    must be legal moves of this very position (as :func:`greedy`'s are): they are applied by
    :meth:`Game.push_unchecked`, or checked by :meth:`Game.push` with ``checked`` (then an
    illegal move raises :class:`~model.errors.IllegalMoveError`). Returns the number of moves
    made (``world.pop()`` that many times takes them back). Whatever a policy or the check
    raises, the moves made so far are taken back first: the world is then as it was given."""
    policies = [policy] * world.players if callable(policy) else list(policy)
    push = world.push if checked else world.push_unchecked
    made = 0
    try:
        while (horizon is None or made < horizon) and world.outcome() is None:
            push(policies[world.to_move](world))
            made += 1
    except BaseException:
        for _ in range(made):
            world.pop()
        raise
    return made


@contextmanager
def played_out(world: Game, policy: SeatPolicy | Sequence[SeatPolicy], horizon: int | None = None,
               checked: bool = False) -> Iterator[str | None]:
    """:func:`play_out` as a context: yields the outcome at the playout's end (``"win"``,
    ``"loss"``, or ``None`` when ``horizon`` cut it short) with the moves made, and takes
    them back when the block is left (also on an exception): ``world`` is given back
    unchanged."""
    made = play_out(world, policy, horizon, checked)
    try:
        yield world.outcome()
    finally:
        for _ in range(made):
            world.pop()
