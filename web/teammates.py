"""The bots' moves of silent games, made off the request path.

When a silent game comes to a bot's turn (the game starts with a bot to move, the person
moves, a bot's move is made), :meth:`TeamMates.prepare` starts that bot's move at once in the
background: the bot gets its seat's observation (ruling V1) and thinks in a pool of its own
(:class:`web.pool.JobPool`, separate from the solver pool of hints and reviews, so that bots
never wait behind a review nor take a hint's place). The person's move has been answered by
then. ``POST /api/games/{id}/advance`` (the page asks for it after a pause) makes the move that
was prepared, waiting for it only while the bot still thinks; the move goes through the rules
engine like any other (:meth:`web.games.SilentGame.play_bot`). So one game's bots never delay
another player's move, and a bot's thinking overlaps the page's pause.

At most one move is prepared per game (for the turn the game is at); a move prepared for a
turn the game has left is dropped. The ``greedy`` bot (microseconds) runs in a thread of the
server instead of the pool.
"""

from __future__ import annotations

import asyncio
import collections
import time
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool

from model.moves import Move
from model.observation import observe
from web.games import Conflict, SilentGame
from web.jobs import timed_bot_move
from web.pool import JobPool

#: Samples of the bots' latency kept for ``/api/status`` (the most recent).
SAMPLES = 20_000
#: Prepared moves kept before those already made for games nobody asks about are dropped.
KEEP = 2_000


def quantile(values: list[float], q: float) -> float | None:
    """The ``q``-quantile (0..1, nearest rank) of ``values``; ``None`` for none."""
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * len(s) + 0.5)) - 1))]


def _retrieve(task: asyncio.Task) -> None:
    """Mark a failed move's error as seen (it is raised to the next ``/advance``, if any)."""
    if not task.cancelled():
        task.exception()


@dataclass
class Prepared:
    """The move being made for game ``sid`` at ``turn`` (``task``), from when (monotonic)."""

    turn: int
    task: asyncio.Task
    since: float


class TeamMates:
    """The bots of silent games (see the module docstring): ``pool`` runs the slow bots'
    moves. Used from the event loop only."""

    def __init__(self, pool: JobPool) -> None:
        self.pool = pool
        self._prepared: dict[str, Prepared] = {}
        self.made = 0
        self.failed = 0
        self.dropped = 0
        # per move: seconds from prepare to ready, the bot's wall and CPU seconds
        self._ready: collections.deque[float] = collections.deque(maxlen=SAMPLES)
        self._wall: collections.deque[float] = collections.deque(maxlen=SAMPLES)
        self._cpu: collections.deque[float] = collections.deque(maxlen=SAMPLES)

    def prepare(self, s: SilentGame, turn: int) -> None:
        """Start the move of the bot to move in ``s`` at ``turn`` unless it is started
        already (the caller read ``turn`` and that a bot is to move under the game's lock)."""
        old = self._prepared.get(s.id)
        if old is not None:
            if old.turn == turn:
                return
            if not old.task.done():
                old.task.cancel()
                self.dropped += 1
        if len(self._prepared) >= KEEP:  # games left with a bot's move made and never asked for
            for sid in [k for k, p in self._prepared.items() if p.task.done()]:
                del self._prepared[sid]
        task = asyncio.ensure_future(self._make(s, turn))
        task.add_done_callback(_retrieve)
        self._prepared[s.id] = Prepared(turn, task, time.monotonic())

    def ready(self, sid: str, turn: int) -> bool:
        """Whether the move of game ``sid`` at ``turn`` is made and waits to be played."""
        p = self._prepared.get(sid)
        return p is not None and p.turn == turn and p.task.done() and not p.task.cancelled() \
            and p.task.exception() is None

    async def move(self, s: SilentGame, turn: int, wait: float) -> Move | None:
        """The bot's move of ``s`` at ``turn``: the prepared one (started now if it was
        not), waiting at most ``wait`` seconds; ``None`` if it is not ready by then (it goes
        on being made). A bot that failed raises its error (and is asked again next time)."""
        self.prepare(s, turn)
        p = self._prepared[s.id]
        done, _ = await asyncio.wait({p.task}, timeout=wait)
        if not done:
            return None
        if self._prepared.get(s.id) is p:
            del self._prepared[s.id]
        if p.task.cancelled():
            raise Conflict("the game moved on meanwhile")
        return p.task.result()

    async def _make(self, s: SilentGame, turn: int) -> Move:
        t0 = time.monotonic()

        def look() -> Any:
            with s.lock:
                g = s.game
                if g.turn != turn or not s.bots_turn():
                    return None
                return observe(g)

        obs = await run_in_threadpool(look)
        if obs is None:
            raise Conflict("the game moved on meanwhile")
        seed = (s.recipe.get("silent", {}).get("seed", 0) * 1009 + turn) % (1 << 62)
        try:
            if s.bot == "greedy":  # microseconds: no pool
                move, wall, cpu = await run_in_threadpool(timed_bot_move, obs, s.bot, seed)
            else:
                move, wall, cpu = await self.pool.run(timed_bot_move, obs, s.bot, seed)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.failed += 1
            if self._prepared.get(s.id) is not None and self._prepared[s.id].turn == turn:
                del self._prepared[s.id]  # asked again on the next /advance
            raise
        self.made += 1
        self._ready.append(time.monotonic() - t0)
        self._wall.append(wall)
        self._cpu.append(cpu)
        return move

    def status(self) -> dict[str, Any]:
        """``{"pool": the bot pool's counts, "thinking", "made", "failed", "dropped",
        "ready_ms", "bot_wall_ms", "bot_cpu_ms"}``: the last three as ``{"p50", "p99",
        "max", "n"}`` over the most recent moves (``ready``: from the turn reached to the
        move ready, the wait for a worker included; ``bot``: the bot's own time)."""
        def summary(values: collections.deque[float]) -> dict[str, Any]:
            v = [x * 1000 for x in values]
            if not v:
                return {"p50": None, "p99": None, "max": None, "n": 0}
            return {"p50": round(quantile(v, 0.5) or 0.0, 1),
                    "p99": round(quantile(v, 0.99) or 0.0, 1), "max": round(max(v), 1),
                    "n": len(v)}

        return {"pool": self.pool.status(),
                "thinking": sum(not p.task.done() for p in self._prepared.values()),
                "made": self.made, "failed": self.failed, "dropped": self.dropped,
                "ready_ms": summary(self._ready), "bot_wall_ms": summary(self._wall),
                "bot_cpu_ms": summary(self._cpu)}

    def close(self) -> None:
        """Cancel the moves being made and stop the pool."""
        for p in self._prepared.values():
            p.task.cancel()
        self._prepared.clear()
        self.pool.close()


__all__ = ["KEEP", "SAMPLES", "Prepared", "TeamMates", "quantile"]
