"""The par of a full-size deal puzzle (generator version 2): proven where the search can,
else the best win a node-limited search finds, large-neighbourhood search included.

Everything here is bounded by **node limits, never time**, so the same deal gives the same
par, line and ``par_proven`` on any machine and load (issue 39 step 7). Two parts, each
with its own switch (:class:`ParSwitches`), composed in :func:`full_par`:

* ``search``: the waste-optimising exhaustive search (:func:`solver.solve`, objective
  ``waste``, ``lns=False``) from the deal for :data:`PAR_NODES` nodes, its incumbent seeded by
  its own beams. When it proves its win optimal, the par is proven.
* ``lns``: a node-limited large-neighbourhood search on the best line so far: the suffix of
  the line from move ``i`` (``i`` = the last quarter, half, three quarters of the line) is
  solved again from its position (:func:`solver.solve`, ``waste``, :data:`LNS_WINDOW_NODES`
  nodes); a cheaper continuation is spliced in (the whole line replayed by :mod:`model`).
  ``rounds`` rounds, the window's nodes doubling each round (the time-limited LNS of
  :mod:`solver.lns` gives wall-clock slices, which would make the par depend on the machine).

The par is proven when the search proved its win optimal, or when the best line's waste
equals the search's proven lower bound (``bound``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from model.deal import Deal
from model.moves import Move
from model.records import replay

#: Nodes of the exhaustive search from the deal (about 1.5 CPU s on this machine).
PAR_NODES = 3_000_000
#: Nodes of one LNS window in the first round (doubled each later round).
LNS_WINDOW_NODES = 250_000
LNS_ROUNDS = 2


@dataclass(frozen=True)
class ParSwitches:
    """Which parts :func:`full_par` runs (the ablation's rows)."""

    search: bool = True
    lns: bool = True


@dataclass
class ParReport:
    """What :func:`full_par` found: ``par`` (cards out of the game), ``moves`` (its winning
    line from the deal, replayed by :mod:`model`), ``proven``, ``bound`` (proven lower bound
    on the waste, 0 if none), ``nodes`` (search + LNS nodes), ``beams`` (the beams-only par
    it started from), ``search`` (the search's own par or ``None``), ``lns`` (windows and
    improvements)."""

    par: int
    moves: list[Move]
    proven: bool
    bound: int
    nodes: int
    beams: int
    search: int | None = None
    lns: dict[str, Any] = field(default_factory=dict)


def _waste(deal: Deal, moves: list[Move]) -> int | None:
    r = replay(deal, moves)
    if r.error is not None or r.outcome != "win":
        return None
    return len(r.game.out)


def _solve(*args: Any, **kwargs: Any):
    from solver import solve

    return solve(*args, **kwargs).passed_on()


def full_par(deal: Deal, beams_par: int, beams_moves: list[Move],
             switches: ParSwitches = ParSwitches(), par_nodes: int = PAR_NODES,
             window_nodes: int = LNS_WINDOW_NODES, rounds: int = LNS_ROUNDS) -> ParReport:
    """The par of ``deal`` starting from the beams' best win (``beams_par`` cards out,
    line ``beams_moves``): see the module docstring. Node limits only: deterministic.
    Never returns a par above ``beams_par``; every line it returns wins under :mod:`model`.
    Raises ``ValueError`` when ``beams_moves`` does not win with ``beams_par`` cards out."""
    if _waste(deal, list(beams_moves)) != beams_par:
        raise ValueError("the beams' line does not win with the par it claims")
    best, line = beams_par, list(beams_moves)
    rep = ParReport(best, line, False, 0, 0, beams_par)
    if switches.search:
        res = _solve(deal, objective="waste", node_limit=par_nodes, lns=False)
        rep.nodes += int(res.stats.get("nodes", 0))
        if res.verdict == "win" and res.plan is not None:
            rep.search = int(res.value)
            rep.bound = int(res.bound if res.bound is not None else 0)
            if res.optimal:
                rep.bound = int(res.value)
            if int(res.value) < best:
                best, line = int(res.value), list(res.plan.moves)
    windows, improvements = 0, []
    if switches.lns:
        nodes = window_nodes
        for _ in range(rounds):
            if best <= rep.bound:
                break
            n = len(line)
            stride = max(1, n // 4)
            for i in range(n - stride, 0, -stride):
                if best <= rep.bound or i >= len(line):
                    break
                windows += 1
                position = replay(deal, line[:i]).game
                spent = len(position.out)
                res = _solve(position, objective="waste", node_limit=nodes, lns=False)
                rep.nodes += int(res.stats.get("nodes", 0))
                if res.verdict != "win" or res.continuation is None:
                    continue
                cand = line[:i] + list(res.continuation)
                w = _waste(deal, cand)
                if w is not None and w < best:
                    improvements.append({"window": i, "before": best - spent,
                                         "after": w - spent})
                    best, line = w, cand
            nodes *= 2
    rep.lns = {"windows": windows, "improvements": improvements}
    rep.par, rep.moves = best, line
    rep.proven = best <= rep.bound
    return rep
