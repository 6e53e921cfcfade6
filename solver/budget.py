"""One budget for the whole solve (issue 39, step 2).

A :class:`Budget` is made once by :func:`solver.exhaustive.solve` and every phase of the
solve draws from it: the search's run (beams, DFS slices, the colour-free abstraction, the
loss model, the furthest-line search: all counted in the one :class:`~solver.exhaustive.Search`
node counter), the LNS windows (:mod:`solver.lns`) and the resumed proof. ``--node-limit N``
thus caps the whole solve: the nodes of all phases together are at most ``N`` (each phase
starts with what is left as its own node limit, and a phase is not started when nothing is
left, so there is no check-interval slack). Running out anywhere gives ``unknown`` (or a
win not proven optimal) with what was found kept.

Each phase leaves a :class:`PhaseRecord` (name, nodes, seconds, outcome); the solve's
``stats["budget"]`` holds the limit, the total spent and the records.

>>> b = Budget(node_limit=100, deadline=None)
>>> b.nodes_left()
100
>>> b.charge("search", 60, 0.01, "win")
>>> b.nodes_left(), b.spent
(40, 60)
>>> b.out_of_nodes()
False
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class PhaseRecord:
    """What one phase of a solve did. ``name``: ``search`` (the search's run: beams, DFS,
    abstraction, loss model, furthest line), ``lns`` or ``resume``; ``nodes``: nodes it
    counted; ``seconds``: wall-clock seconds on :func:`time.monotonic`; ``outcome``: a word
    the phase chose (``win``, ``loss``, ``unknown``, ``improved``, ``closed``, ``skipped``)."""

    name: str
    nodes: int
    seconds: float
    outcome: str


@dataclass
class Budget:
    """The limits of one solve, shared by its phases.

    ``node_limit``: nodes for the whole solve (``None``: no limit); ``deadline``: an instant
    on :func:`time.monotonic` (the solver's clock; ``None``: no limit); ``memory_mb``: the
    transposition table's cap (the table is sized from it once; a full table drops its older
    half, so memory never stops a solve). ``spent``: nodes charged so far by
    :meth:`charge`; ``phases``: their :class:`PhaseRecord` in order."""

    node_limit: int | None
    deadline: float | None
    memory_mb: int = 2048
    spent: int = 0
    phases: list[PhaseRecord] = field(default_factory=list)

    def nodes_left(self) -> int | None:
        """Nodes still available (≥ 0), or ``None`` without a node limit."""
        if self.node_limit is None:
            return None
        return max(0, self.node_limit - self.spent)

    def out_of_nodes(self) -> bool:
        """True when a node limit is set and fully spent: no phase may start."""
        left = self.nodes_left()
        return left is not None and left <= 0

    def seconds_left(self, now: float | None = None) -> float | None:
        """Seconds to the deadline (may be ≤ 0), or ``None`` without a time limit."""
        if self.deadline is None:
            return None
        return self.deadline - (time.monotonic() if now is None else now)

    def charge(self, name: str, nodes: int, seconds: float, outcome: str) -> None:
        """Record that phase ``name`` spent ``nodes`` nodes in ``seconds`` seconds, ending
        with ``outcome``. Raises ``ValueError`` for negative nodes."""
        if nodes < 0:
            raise ValueError(f"a phase cannot spend {nodes} nodes")
        self.spent += nodes
        self.phases.append(PhaseRecord(name, nodes, round(seconds, 3), outcome))

    def to_stats(self) -> dict:
        """``{"node_limit", "nodes_spent", "phases": [PhaseRecord as dicts]}`` for the JSON."""
        return {"node_limit": self.node_limit, "nodes_spent": self.spent,
                "phases": [asdict(p) for p in self.phases]}


__all__ = ["Budget", "PhaseRecord"]
