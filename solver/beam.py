"""The beam: a fast heuristic phase that looks for a first (and, for ``waste``, a cheap) win.

Layer by layer (one turn each) it keeps the ``width`` states that have spent the fewest
cards (a Bridge on the mountain counts as a card to spend; ties: most cards placed; 2–5
players: a penalty for a player about to run out of cards), each placement expanded with
only its first ways to pay. :data:`DEFAULT_BEAM_SCHEDULE` runs beams of growing width.
Heuristic: a beam that finds nothing proves nothing; the exhaustive search
(:mod:`solver.exhaustive`) decides. :func:`solver.heuristic.heuristic_win` runs the beams
alone.
"""

from __future__ import annotations

from solver.bounds import Bounds
from solver.state import INF, M_DISCARD, NodeLimits, Stop

DEFAULT_BEAM_SCHEDULE: tuple[tuple[int, int], ...] = (
    (8, 2), (16, 1), (64, 2), (64, 1), (256, 1), (256, 2))

#: Wider beams that :func:`solver.solve` runs after the default schedule for ``waste`` and
#: ``turns`` when the compiled core runs the beam (about 3 s on a standard solo deal; the
#: pure-Python beam would take minutes): on solo seeds 1–3 they found wins of 18, 20 and 21
#: cards where the default schedule's best were 19, 23 and 24.
WIDE_BEAM_SCHEDULE: tuple[tuple[int, int], ...] = ((4096, 2), (16384, 2))


class Beam(Bounds, NodeLimits):
    """Beam search on a :class:`~solver.state.State` (with its bounds); uses the search's
    node counter and limits (``nodes``, ``next_check``, ``_check_limits``)."""

    nodes: int
    next_check: int
    best_progress: int
    best_line: list[tuple]
    win_line: list[tuple]
    stopped: bool
    interrupted: bool

    beam_spent = 1
    beam_real = 1
    beam_bridge = 5

    def beam(self, width: int, cap: int = INF) -> bool:
        """Beam search by turns: keep the ``width`` states that have spent the fewest cards
        (a Bridge on the mountain counts as a card to spend; ties: most cards placed).

        For ``none`` and ``turns`` the first win is returned (layers are turns, so it is the
        beam's fewest-turn win); for ``waste`` the beam runs on and keeps its cheapest win,
        dropping states that cannot beat it. Only wins of objective value < ``cap`` count.
        Sets ``win_line``; returns True if a win was found. Heuristic: a failure proves
        nothing.
        """
        start = self.snapshot()
        layer: list[tuple[tuple, list[tuple]]] = [(start, [])]
        total = self._slots_total
        found = False
        waste_mode = self.objective == "waste"
        try:
            while layer:
                seen: dict[bytes, tuple] = {}
                for snap, line in layer:
                    self.restore(snap)
                    flags = self.dead_flags()
                    for mv in self._beam_children(flags):
                        self.nodes += 1
                        if self.nodes >= self.next_check:
                            self._check_limits()
                        rec = self.apply(mv)
                        if self.filled == total:
                            win = line + [mv]
                            value = self.line_cost(win)
                            if value < cap:
                                self.win_line = win
                                cap = value
                                found = True
                                if not waste_mode:
                                    return True
                            self.undo(mv, rec)
                            continue
                        if self.filled > self.best_progress:
                            self.best_progress = self.filled
                            self.best_line = line + [mv]
                        spent = self.spent()
                        if waste_mode and spent + self.n_bridges >= cap:
                            self.undo(mv, rec)
                            continue
                        if not self.bound_fails(INF) and self._can_move():
                            f2 = self.dead_flags()
                            k = self.key(f2)
                            if k not in seen:
                                real = self.filled - self.n_bridges
                                score = (spent * self.beam_spent + self.n_bridges * self.beam_bridge
                                         - real * self.beam_real + self._slack_penalty(), -real)
                                seen[k] = (score, self.snapshot(), line, mv)
                        self.undo(mv, rec)
                best = sorted(seen.values(), key=lambda e: e[0])[:width]
                layer = [(snap, line + [mv]) for _, snap, line, mv in best]
            return found
        except (Stop, KeyboardInterrupt) as exc:
            if isinstance(exc, KeyboardInterrupt):
                self.interrupted = True
            if found:  # keep the win found before the limit ran out
                self.stopped = True
                return True
            raise Stop from None
        finally:
            self.restore(start)

    beam_discard_choices = 2

    def _beam_children(self, flags) -> list[tuple]:
        """The beam's moves: :meth:`children`, keeping for each placement only its first
        ``beam_discard_choices`` ways to pay (in move order) and the first few discard-2
        moves. Heuristic: the exact search expands every choice."""
        keep = self.beam_discard_choices
        if not keep:
            return self.children(flags)
        out = []
        seen: dict[tuple, int] = {}
        for mv in self.children(flags):
            head = mv[:6]
            n = seen.get(head, 0)
            if n < (keep + 1 if mv[0] == M_DISCARD else keep):
                seen[head] = n + 1
                out.append(mv)
        return out

    beam_slack = 3
    beam_slack_floor = 2

    def _slack_penalty(self) -> int:
        """Beam only, 2–5 players: penalise states where some player is near running out of
        cards for the turns the game still needs (R12 ends the game for everyone)."""
        if self.P == 1 or not self.beam_slack:
            return 0
        n = self._slots_below_peak - self.filled + self.n_bridges + 1
        worst = INF
        for q in range(self.P):
            turns = (n - (q - self.to_move) % self.P + self.P - 1) // self.P
            slack = len(self.hands[q]) + len(self.decks[q]) - self.ptr[q] - turns
            if slack < worst:
                worst = slack
        short = self.beam_slack_floor - worst
        return self.beam_slack * short if short > 0 else 0

    def beams(self, schedule: tuple[tuple[int, int], ...],
              best: list[tuple] | None = None) -> list[tuple] | None:
        """The heuristic phase: run the beams of ``schedule`` (pairs of width and ways to
        pay kept per placement) in order and return the best winning line found (``None``
        if none), starting from the incumbent ``best`` if one is given. Stops at the first
        win for ``none``, or once a win meets the proven bound. A limit that runs out sets
        ``stopped`` and keeps the wins found."""
        try:
            for width, choices in schedule:
                self.beam_discard_choices = choices
                cap = self.line_cost(best) if best is not None else INF
                if self.beam(width, cap):
                    best = self.win_line
                    if (self.objective == "none" or self.line_cost(best) <= self.root_bound()
                            or self.stopped):
                        break
        except Stop:
            self.stopped = True
        return best
