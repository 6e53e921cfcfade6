"""Abstractions searched exactly: a game that allows every move of the real one, and more,
searched by the same depth-first search (and the same compiled core). No win in the
abstraction means no win in the game.

The abstraction here is **colours ignored**: R5 (no two cards of one colour side by side)
never blocks a placement or a Bridge's replacement, and a Campfire may move a card of any
colour (R9). Costs are unchanged (R6 and R8 read values only). So every real move is a move
of the abstraction at the same cost, and every real line of play is an abstract line: an
abstract loss is a real loss, and an abstract optimum is a lower bound on the real one. Cards
that differ only in colour are one card in the abstraction (an Ascent card is its value, every
Campfire is one card), so hands, rows and keys merge: the abstract game has far fewer states
than the real one. The tests check both halves: from random positions every real legal
move is an abstract legal move of the same cost, and no abstract loss is a real win (naive
reference).

How it is used (switch ``abstraction`` of :func:`solver.solve`, on by default, objective
``none``): where the real search has not decided within its first slice, the abstract search
and the real search take turns in node slices (doubled each round; the abstract one
:data:`ABSTRACT_SHARE` of the real one), each on its own transposition table. An abstract
loss ends the solve with a proven loss (``stats["decided_by"]`` says ``abstraction``). An
abstract win proves nothing: the abstract plan may put two cards of one colour side by side.
That is where the abstraction is refined: here, by dropping it (the real search, whose table
already holds what its slices proved, goes on alone).
"""

from __future__ import annotations

import time
from typing import Any

from model.deal import Deal
from model.game import Game
from solver.state import INF, K_ASCENT, State, Stop

#: First node slice of the abstract and the real search when they take turns.
FIRST_SLICE = 1 << 17
#: The abstract search's slice is this share of the real search's (both doubled each
#: round): where the abstraction does not decide, the real search keeps most of the time.
#: Measured on the 4-row ladder deals with turns from the first node: the abstraction
#: proved 4 of 24 losses, none in fewer nodes than the real search alone.
ABSTRACT_SHARE = 0.25


def colour_classes(s: State) -> list[int]:
    """id → the id standing for its class in the colour-free abstraction: the first card type
    of the same kind and value (every Campfire one class; the dead id stays itself)."""
    t = s.t
    first: dict[tuple[int, int | None], int] = {}
    out = []
    for c in range(t.dead):
        k = (t.kind[c], t.value[c] if t.kind[c] == K_ASCENT else None)
        out.append(first.setdefault(k, c))
    out.append(t.dead)
    return out


def make_colourless(s: State) -> None:
    """Turn ``s`` (a search at its root, before its first run) into its colour-free
    abstraction: every card in decks, hands and rows becomes its class (:func:`colour_classes`)
    and colours no longer block a move (``State.colourless``). The root's waste so far
    (``spent0``) and the player to move are kept."""
    cls = colour_classes(s)
    peak = s.filled - sum(len(r) for r in s.rows)
    rows, hands, ptr, to_move = s.snapshot()
    s.decks = [tuple(cls[c] for c in d) for d in s.decks]
    s.first_pos = s.first_positions()
    s._canon_cache = {}
    s.colourless = True
    s.restore((tuple(tuple(cls[c] for c in r) for r in rows),
               tuple(tuple(sorted(cls[c] for c in h)) for h in hands), ptr, to_move))
    s.filled += peak


def abstract_search(real: Any) -> Any:
    """The colour-free abstraction of ``real`` (a :class:`solver.exhaustive.Search` at its
    root): a new search of the same class, start, objective and switches (its own
    transposition table, a quarter of the real one's size)."""
    start: Deal | Game = real.root
    sw = type(real.sw)(**vars(real.sw))
    sw.table_size = max(1024, real.sw.table_size // 4)  # a quarter of the real table
    a = type(real)(start, real.objective, sw, None, None)
    make_colourless(a)
    return a


class Abstraction:
    """The colour-free abstraction of one real search, run in slices (see the module
    docstring). ``verdict``: ``None`` while open, ``"loss"`` (proven: the real root is lost
    too) or ``"win"`` (the abstraction is too coarse here: dropped)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.search = abstract_search(real)
        self.root = self.search.snapshot()
        self.verdict: str | None = None
        self.nodes = 0
        self.seconds = 0.0

    def run_slice(self, size: int, deadline: float | None) -> str | None:
        """Run the abstract search for at most ``size`` more nodes (and until ``deadline``,
        :func:`time.monotonic`); returns and keeps the verdict (``None``: the slice ran out).
        Ctrl-C is passed on."""
        a = self.search
        t0 = time.monotonic()
        a.begin(deadline, max(1, size))
        try:
            ok = a.dfs(INF)
        except Stop:
            a.path.clear()
            a.restore(self.root)
            return None
        finally:
            self.nodes += a.nodes
            self.seconds += time.monotonic() - t0
        self.verdict = "win" if ok else "loss"
        if ok:
            a.path.clear()
            a.restore(self.root)
        return self.verdict

    def stats(self) -> dict:
        """``{"kind": "colours ignored", "verdict", "nodes", "seconds"}``."""
        return {"kind": "colours ignored", "verdict": self.verdict or "open",
                "nodes": self.nodes, "seconds": round(self.seconds, 3)}


__all__ = ["ABSTRACT_SHARE", "FIRST_SLICE", "Abstraction", "abstract_search", "colour_classes", "make_colourless"]
