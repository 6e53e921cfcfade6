"""The graph of winning states of a position, its key moves (dominators) and exact odds.

From a fully known position, :func:`win_graph` explores every line (memoized on
:meth:`model.game.Game.key`, which holds everything that decides the future) and keeps the
**winning states** (states from which some line still wins) with the moves between them.
The game graph is acyclic: every move takes at least one card out of the hands and decks.

**Key moves.** Every move from a winning state to a winning state is split by an *edge node*
(its state and move), and every won state points to one sink ``WIN``. A key move is an edge
node that dominates ``WIN`` from the start: every winning line passes through it, i.e. makes
that move from that state. They are read off the dominator tree (networkx
``immediate_dominators``) by walking from ``WIN`` up to the start, so they come in the order
a winning line meets them. A move that every line makes, but from different states (two
independent moves played in either order), is not a key move: it is not forced at one point.

Also exact, from the same exploration:

* ``winning_lines``: the number of distinct winning move sequences (paths to ``WIN``);
* ``random_win``: the probability that a player choosing uniformly among the legal moves at
  every turn wins (:meth:`WinGraph.random_win_probability`);
* ``winning_first_moves`` / ``first_moves``.

The exploration is exhaustive, so it is for late positions with few empty slots; ``max_states``
caps it (:class:`TooManyStates`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import networkx as nx

from model.cards import Card
from model.game import Game
from model.moves import Move

WIN_NODE = ("WIN",)


class TooManyStates(RuntimeError):
    """The exploration met more than ``max_states`` distinct states."""


@dataclass
class WinGraph:
    """The explored game graph from one start position.

    ``root``: the start's key; ``winning``: keys of the winning states; ``edges[key]``: the
    list of ``(move, child_key)`` for every legal move from a winning state to a winning
    state; ``legal_count[key]``: the number of legal moves of every explored state;
    ``won``: keys of the states where the Summit stands; ``spent[key, i]``: cards the
    ``i``-th winning move of ``key`` takes out of the game; ``states``: states explored.
    """

    root: str
    winning: set = field(default_factory=set)
    edges: dict = field(default_factory=dict)
    legal_count: dict = field(default_factory=dict)
    won: set = field(default_factory=set)
    spent: dict = field(default_factory=dict)
    states: int = 0

    @property
    def winnable(self) -> bool:
        return self.root in self.winning

    def digraph(self) -> nx.DiGraph[Any]:
        """The networkx graph: state keys, edge nodes ``("move", key, i)`` for the ``i``-th
        winning move of ``key``, and the sink :data:`WIN_NODE`."""
        g: nx.DiGraph[Any] = nx.DiGraph()
        g.add_node(self.root)
        for key, out in self.edges.items():
            for i, (_move, child) in enumerate(out):
                e = ("move", key, i)
                g.add_edge(key, e)
                g.add_edge(e, child)
        for key in self.won:
            g.add_edge(key, WIN_NODE)
        return g

    def key_moves(self) -> list[tuple[str, Move]]:
        """The key moves, in the order a winning line meets them: ``(state key, move)``.
        Empty when the start cannot be won."""
        if not self.winnable:
            return []
        g = self.digraph()
        idom = nx.immediate_dominators(g, self.root)
        chain: list[tuple[str, Move]] = []
        node: Any = WIN_NODE  # a state key (str), an edge node or the sink (tuples)
        while node != self.root:
            node = idom[node]
            if isinstance(node, tuple) and len(node) == 3 and node[0] == "move":
                _, key, i = node
                chain.append((key, self.edges[key][i][0]))
        chain.reverse()
        return chain

    def winning_lines(self) -> int:
        """The number of distinct winning move sequences from the start."""
        memo: dict = {}

        def count(key: str) -> int:
            if key in memo:
                return memo[key]
            n = 1 if key in self.won else sum(count(c) for _m, c in self.edges.get(key, ()))
            memo[key] = n
            return n

        return count(self.root) if self.winnable else 0

    def random_win_probability(self) -> Fraction:
        """The exact chance that uniformly random legal moves win from the start."""
        memo: dict = {}

        def p(key: str) -> Fraction:
            if key in memo:
                return memo[key]
            if key in self.won:
                v = Fraction(1)
            elif key not in self.winning:
                v = Fraction(0)
            else:
                v = sum((p(c) for _m, c in self.edges[key]), Fraction(0)) / self.legal_count[key]
            memo[key] = v
            return v

        return p(self.root)

    def winning_first_moves(self) -> list[Move]:
        """The legal first moves that keep a win possible."""
        return [m for m, _c in self.edges.get(self.root, [])]

    def lines(self, limit: int = 1000) -> list[list[tuple[str, Move]]]:
        """Up to ``limit`` winning lines, each a list of ``(state key, move)`` (for tests)."""
        out: list = []

        def walk(key: str, acc: list) -> None:
            if len(out) >= limit:
                return
            if key in self.won:
                out.append(list(acc))
                return
            for m, c in self.edges.get(key, ()):
                acc.append((key, m))
                walk(c, acc)
                acc.pop()

        if self.winnable:
            walk(self.root, [])
        return out

    def cheapest_line(self) -> tuple[int, list[Move]]:
        """``(waste, moves)``: a winning line with the fewest cards out of the game (the
        first such in the engine's move order). Raises ``ValueError`` if none wins."""
        if not self.winnable:
            raise ValueError("the position cannot be won")
        memo: dict = {}

        def best(key: str) -> int:
            if key in memo:
                return memo[key]
            if key in self.won:
                v = 0
            else:
                v = min(self.spent[key, i] + best(c)
                        for i, (_m, c) in enumerate(self.edges[key]))
            memo[key] = v
            return v

        total = best(self.root)
        line = []
        key = self.root
        while key not in self.won:
            for i, (m, c) in enumerate(self.edges[key]):
                if self.spent[key, i] + best(c) == memo[key]:
                    line.append(m)
                    key = c
                    break
        return total, line


def state_key(game: Game) -> str:
    """A compact key of everything that decides the future of ``game`` (the same
    information as :meth:`model.game.Game.key`, as one string: strings cache their hash,
    tuples of cards do not)."""
    parts = [" ".join([_text(c) for c in r]) for r in game.mountain]
    parts += [" ".join([_text(c) for c in h]) for h in game.hands]
    parts += [" ".join([_text(c) for c in d]) for d in game.decks]
    parts.append(str(game.to_move))
    return "|".join(parts)


_TEXTS: dict[int, tuple[Card, str]] = {}


def _text(card: Card) -> str:
    """``card.text``, cached by object identity (checked, so a reused id is harmless)."""
    hit = _TEXTS.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    _TEXTS[id(card)] = (card, card.text)
    return card.text


def win_graph(game: Game, max_states: int = 200_000) -> WinGraph:
    """Explore every line from ``game`` (a copy is used) and return its :class:`WinGraph`;
    states are keyed by :func:`state_key`. Raises :class:`TooManyStates` past
    ``max_states`` distinct states.

    The moves explored are the engine's :meth:`~model.game.Game.legal_moves`, applied
    without checking them a second time."""
    g = game.copy()
    graph = WinGraph(root=state_key(g))
    seen: dict[str, bool] = {}

    def explore(key: str) -> bool:
        if key in seen:
            return seen[key]
        if len(seen) >= max_states:
            raise TooManyStates(f"more than {max_states} states")
        if g.is_won():
            seen[key] = True
            graph.won.add(key)
            graph.winning.add(key)
            return True
        moves = g.legal_moves()
        graph.legal_count[key] = len(moves)
        good = []
        for m in moves:
            before = len(g.out)
            g._apply(m)  # a legal move of the engine's own list: push() would check again
            child = state_key(g)
            spent = len(g.out) - before
            ok = explore(child)
            g.pop()
            if ok:
                good.append((m, child))
                graph.spent[key, len(good) - 1] = spent
        seen[key] = bool(good)
        if good:
            graph.winning.add(key)
            graph.edges[key] = good
        return bool(good)

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        explore(graph.root)
    finally:
        sys.setrecursionlimit(old)
    graph.states = len(seen)
    return graph
