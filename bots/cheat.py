"""``cheat``: the open-hand solver as a player, the upper bound of every silent bot.

It is *not* silent: before the game it is given the whole deal (every deck, in order) and
solves it with :func:`solver.solve` (the DFS with its beam phase, objective ``none``). On a win
it plays the solver's plan, which :mod:`model` has replayed; on a proven loss or an
``unknown`` (the time limit ran out) it plays the solver's furthest line and then the greedy
rules of thumb. Its result on a deal is the open-hand verdict that the price of silence is
measured against.
"""

from __future__ import annotations

from bots.greedy import GreedyPolicy
from model.deal import Deal
from model.moves import Move
from model.observation import Observation


class CheatBot:
    """The ``cheat`` bot. ``time_limit``: seconds for the solve of each deal (``None``: no
    limit). After :meth:`start`, ``verdict`` is the solver's verdict (``win``/``loss``/
    ``unknown``)."""

    name = "cheat"
    sees_hidden_cards = True

    def __init__(self, time_limit: float | None = 10.0) -> None:
        self.time_limit = time_limit
        self.line: list[Move] = []
        self.verdict: str | None = None
        self.policy = GreedyPolicy()

    def start(self, deal: Deal) -> None:
        """Solve ``deal`` with every card known (the solver's plan is replayed by :mod:`model`)."""
        from solver import solve

        result = solve(deal, time_limit=self.time_limit)
        self.verdict = result.verdict
        self.line = list(result.plan.moves) if result.plan is not None else list(result.best_line)

    def choose(self, observation: Observation) -> Move:
        """The solver's move at this turn, or the greedy move once its line is played out."""
        if observation.turn < len(self.line):
            return self.line[observation.turn]
        return self.policy.move(observation.view(), observation.out)
