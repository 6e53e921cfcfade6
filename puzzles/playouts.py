"""Playouts over :class:`model.game.Game`: the greedy player and seeded random players.

These measure how hard a puzzle is for a player who does not search (the grade's features,
:mod:`puzzles.grade`). They are deterministic: every random choice comes from the project's
SplitMix64 (:mod:`model.deal`) seeded by the caller, and moves are listed in the engine's
own order (:meth:`model.game.Game.legal_moves`), so the same seed gives the same playout on
any machine and any ``PYTHONHASHSEED``.

* **greedy**: at each turn play a cheapest placement (fewest discards; the Summit first,
  then the highest row, then the engine's order); discard two cards only when no card can
  be placed. It never pays or discards with a Summit when it has another choice; otherwise
  the cards paid or discarded are the first in the engine's order (lowest cards first).
* **noisy greedy** (``rng`` given): the same, but the placement is drawn uniformly among
  all placements of the cheapest cost, and the cards to pay with among all choices.
* **random**: a uniformly random legal move (a discard turn counts as one move per pair).
"""

from __future__ import annotations

from dataclasses import dataclass

from model.deal import SplitMix64
from model.game import WIN, Game
from model.moves import DISCARD, Move


@dataclass(frozen=True)
class Playout:
    """The end of one playout: ``won``, ``waste`` (cards out of the game at the end),
    ``moves`` made (from the start position) and ``filled`` mountain slots at the end (peak
    included)."""

    won: bool
    waste: int
    moves: int
    filled: int


def _keeps_summit(move: Move) -> bool:
    return not any(c.is_summit for c in move.discard)


def greedy_choices(game: Game) -> list[Move]:
    """The moves the greedy player considers now: the cheapest placements (the Summit alone
    when it can be played), or, when nothing can be placed, every discard turn; in both
    cases the ones that keep the Summits in hand when there are such."""
    moves = game.legal_moves()
    places = [m for m in moves if m.kind != DISCARD]
    if not places:
        keep = [m for m in moves if _keeps_summit(m)]
        return keep or moves
    summit = [m for m in places if m.card is not None and m.card.is_summit]
    if summit:
        return summit[:1]
    cheapest = min(len(m.discard) for m in places)
    best = [m for m in places if len(m.discard) == cheapest]
    keep = [m for m in best if _keeps_summit(m)]
    return keep or best


def greedy_move(game: Game) -> Move | None:
    """The deterministic greedy move (see module docstring), or ``None`` if none is legal."""
    choices = greedy_choices(game)
    if not choices:
        return None
    top = max(m.row for m in choices)
    return next(m for m in choices if m.row == top)


def playout(game: Game, policy: str = "greedy", rng: SplitMix64 | None = None,
            max_moves: int = 10_000) -> Playout:
    """Play ``game`` (a copy; the argument is not changed) to its end with ``policy``:
    ``"greedy"`` (deterministic without ``rng``, noisy greedy with it) or ``"random"``
    (needs ``rng``). Returns a :class:`Playout`."""
    g = game.copy()
    start_out = len(g.out)
    n = 0
    while n < max_moves and g.outcome() is None:
        if policy == "greedy":
            if rng is None:
                move = greedy_move(g)
            else:
                choices = greedy_choices(g)
                move = choices[rng.next() % len(choices)] if choices else None
        elif policy == "random":
            assert rng is not None, "a random playout needs an rng"
            moves = g.legal_moves()
            move = moves[rng.next() % len(moves)] if moves else None
        else:
            raise ValueError(f"unknown playout policy {policy!r}")
        if move is None:
            break
        g.push(move)
        n += 1
    return Playout(g.outcome() == WIN, len(g.out) - start_out, n, g.filled_slots())


def playouts(game: Game, policy: str, seed: int, count: int) -> list[Playout]:
    """``count`` playouts of ``policy`` from ``game``, the random choices drawn from one
    SplitMix64 seeded with ``seed``."""
    rng = SplitMix64(seed)
    return [playout(game, policy, rng) for _ in range(count)]
