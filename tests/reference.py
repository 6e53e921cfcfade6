"""A naive reference solver: plain exhaustive search over :class:`model.Game`.

Why it is obviously correct
---------------------------
It uses nothing but the rules engine's own public interface: :meth:`Game.outcome` to stop,
:meth:`Game.legal_moves` to branch, :meth:`Game.push`/:meth:`Game.pop` to move (``push``
re-checks every move, so nothing illegal can be played). From every position it tries
*every* legal move and recurses, with no pruning, no transposition table, no dominance, no
bounds and no move ordering that could hide anything. The game is finite (every move takes at
least one card out of a hand for good, and hands refill only from the finite decks), so the
recursion ends, and it visits every line of play from the deal. Therefore:

* the verdict is ``win`` iff some line of legal moves ends in a win, else ``loss``;
* for ``waste`` and ``turns`` the value is the minimum over *all* winning lines of
  ``len(game.out)`` (cards out of the game at the win) or ``len(moves)``.

It is exponential and only meant for tiny games (see :mod:`tests.strategies`).

From a position (a :class:`Game`) the same search runs on a copy of it, and the
objectives count from there: the cards that leave the game from the position on, the moves
made from it.
"""

from __future__ import annotations

from typing import Iterator

from model.deal import Deal
from model.game import Game
from model.moves import Move

OBJECTIVES = ("none", "waste", "turns")


def _value(game: Game, objective: str, base: tuple[int, int] = (0, 0)) -> int:
    """The objective value of the won ``game`` (0 for ``none``, which only asks for a win),
    counted from a start where ``base`` = (cards out, moves made)."""
    if objective == "waste":
        return len(game.out) - base[0]
    if objective == "turns":
        return len(game.move_stack) - base[1]
    return 0


def _best(game: Game, objective: str, base: tuple[int, int] = (0, 0)
          ) -> tuple[int, list[Move]] | None:
    """Best (value, line) over every line from ``game``'s position, or ``None`` if no line
    wins. The line is the list of moves from here. For ``none`` the first win found is
    returned (any win is optimal)."""
    result = game.outcome()
    if result == "win":
        return _value(game, objective, base), []
    if result == "loss":
        return None
    best: tuple[int, list[Move]] | None = None
    for move in game.legal_moves():
        game.push(move)
        sub = _best(game, objective, base)
        game.pop()
        if sub is not None and (best is None or sub[0] < best[0]):
            best = (sub[0], [move] + sub[1])
            if objective == "none":
                break
    return best


def _start_game(start: Deal | Game) -> Game:
    """A fresh :class:`Game` at ``start`` (the given game is never changed)."""
    return start.copy() if isinstance(start, Game) else Game(start)


def reference_search(deal: Deal | Game, objective: str = "none"
                     ) -> tuple[str, int | None, list[Move] | None]:
    """Exhaustively solve ``deal`` (a deal, or a :class:`Game` position: solved from there,
    values counted from there): ``(verdict, value, line)``.

    ``verdict`` is ``"win"`` or ``"loss"`` (never unknown: the search is complete);
    ``value`` is the minimal waste (``len(game.out)`` at the win) or minimal number of moves
    for ``objective`` ``"waste"``/``"turns"``, ``None`` for ``"none"`` or a loss; ``line`` is
    one winning move list from the start that achieves ``value`` (``None`` for a loss).
    Raises ``ValueError`` for an unknown objective.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    game = _start_game(deal)
    best = _best(game, objective, (len(game.out), 0))
    if best is None:
        return "loss", None, None
    value, line = best
    return "win", (None if objective == "none" else value), line


def reference_solve(deal: Deal | Game, objective: str = "none") -> tuple[str, int | None]:
    """``(verdict, value)`` of :func:`reference_search` (see there)."""
    verdict, value, _ = reference_search(deal, objective)
    return verdict, value


def winning_lines(deal: Deal | Game, limit: int | None = None) -> Iterator[list[Move]]:
    """Every winning line of ``deal`` (move lists from the start, or from a position), in
    legal-move order, up to ``limit`` of them. Same plain search, used to check the optima
    against all wins."""
    game = _start_game(deal)
    line: list[Move] = []
    count = 0

    def walk() -> Iterator[list[Move]]:
        nonlocal count
        result = game.outcome()
        if result == "win":
            count += 1
            yield list(line)
            return
        if result == "loss":
            return
        for move in game.legal_moves():
            if limit is not None and count >= limit:
                return
            game.push(move)
            line.append(move)
            yield from walk()
            line.pop()
            game.pop()

    yield from walk()


def count_nodes(deal: Deal | Game) -> int:
    """Positions visited by a full search of ``deal`` (the start included): the size of the
    game tree, for choosing test configurations."""
    game = _start_game(deal)

    def walk() -> int:
        n = 1
        if game.outcome() is not None:
            return n
        for move in game.legal_moves():
            game.push(move)
            n += walk()
            game.pop()
        return n

    return walk()


def first_losing_move(start: Deal | Game, moves: list[Move]) -> int | None:
    """The 1-based number of the first move of ``moves`` (played from ``start``) before which
    the game could still be won and after which it cannot: the naive answer to "which move
    lost the game". ``None`` if there is no such move."""
    game = _start_game(start)
    before = _best(game.copy(), "none") is not None
    for i, move in enumerate(moves, start=1):
        game.push(move)
        after = _best(game.copy(), "none") is not None
        if before and not after:
            return i
        before = after
    return None
