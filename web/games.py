"""Games in play on the web page: one :class:`Session` per game, kept in memory by id.

Every move goes through :meth:`model.game.Game.push` (the one rules engine); the page holds no
rules. A session knows where it started (a deal, or a puzzle's position), the puzzle's goal
and par when it is a puzzle, and a reference line (the puzzle's solution, or the solver's
plan) for hints and "reveal".
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from model.cards import parse_card
from model.deal import Deal
from model.errors import AscentError, IllegalMoveError, RecordError
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move
from model.records import deal_from_data, position_from_data, rules_from_data
from model.rules import RuleSet
from render.frames import move_marks
from render.svg import card_svg, game_svg

#: Seconds the solver may spend on one hint or on the solution of a game without one.
SOLVER_SECONDS = 8.0
#: Games kept in memory; the least recently used is dropped beyond this.
MAX_GAMES = 500


class NotFound(LookupError):
    """No game (or no such thing in a game) of that id: HTTP 404."""


class Conflict(RuntimeError):
    """The request is well-formed but the game's state refuses it (nothing to undo, the game
    is over, no hint known): HTTP 409."""


@dataclass
class Puzzle:
    """What a daily puzzle adds to a game: its date, kind and size, goal text, par (cards
    out of the game), whether par is proven, and its solution line and key moves (as
    :class:`Move` lists from the puzzle's start)."""

    date: str = ""
    kind: str = ""
    size: str = ""
    goal: str = "Put a Summit on the peak"
    par: int | None = None
    par_proven: bool = False
    solution: list[Move] = field(default_factory=list)
    key_moves: list[Move] = field(default_factory=list)
    grade: Any = None


@dataclass
class Session:
    """One game in play: ``game`` (its moves since ``start`` are ``game.move_stack``), a
    title, the puzzle data if any, and a lock (requests of one game run one at a time)."""

    id: str
    game: Game
    title: str
    puzzle: Puzzle
    start_turn: int = 0
    reference: list[Move] | None = None
    reference_source: str = ""
    hint_line: list[Move] | None = None  # the solver's last winning line (hints follow it)
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: float = field(default_factory=time.monotonic)

    # ---- reading -------------------------------------------------------------------------

    def start_game(self) -> Game:
        """A fresh copy of the starting position (the deal, or the puzzle's position)."""
        g = self.game
        moves = list(g.move_stack)
        for _ in moves:
            g.pop()
        start = g.copy() if g.deal is None else Game(g.deal)
        for m in moves:
            g.push(m)
        return start

    def state(self) -> dict[str, Any]:
        """The JSON the page draws from (see ``docs/web.md``)."""
        g = self.game
        over = g.outcome()
        last = g.move_stack[-1] if g.move_stack else None
        hand_cards = sorted({c for h in g.hands for c in h}, key=lambda c: c.sort_key())
        targets: dict[str, list[dict[str, int]]] = {}
        if over is None:
            for pl in g.generate_placements():
                targets.setdefault(pl.card.text, []).append(
                    {"row": pl.row, "slot": pl.slot, "to_row": pl.to_row, "to_slot": pl.to_slot,
                     "cost": pl.cost})
        history = []
        replay = self.start_game()
        for m in g.move_stack:
            history.append({"text": replay.move_text(m), "move": m.to_json()})
            replay.push(m)
        pz = self.puzzle
        return {
            "id": self.id,
            "title": self.title,
            "rules": g.rules.to_dict(),
            "rules_text": g.rules.describe(),
            "players": g.players,
            "to_move": g.to_move + 1,
            "turn": g.turn,
            "hands": [[c.text for c in h] for h in g.hands],
            "decks": [len(d) for d in g.decks],
            "cards_out": len(g.out),
            "filled": g.filled_slots(),
            "slots": g.rules.mountain_slots,
            "outcome": over,
            "message": outcome_message(g, pz),
            "goal": pz.goal,
            "par": pz.par,
            "par_proven": pz.par_proven,
            "puzzle": {"date": pz.date, "kind": pz.kind, "size": pz.size, "grade": pz.grade}
            if pz.date else None,
            "can_undo": bool(g.move_stack),
            "moves": history,
            "last_move": last.to_json() if last else None,
            "targets": targets,
            "svg": game_svg(g, "", hands=False, interactive=True,
                            marks=move_marks(last)),
            "card_svgs": {c.text: card_svg(c, 46) for c in hand_cards},
        }

    # ---- moves ---------------------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        """A :class:`Move` from request JSON: the record shape of :mod:`model.moves`, where
        ``player`` defaults to the player to move and ``kind`` to ``discard`` (no card),
        ``campfire`` (a Campfire) or ``place``. Raises :class:`RecordError`."""
        if not isinstance(data, dict):
            raise RecordError("a move is a JSON object")
        d = dict(data)
        d.setdefault("player", self.game.to_move + 1)
        d.setdefault("discard", [])
        if "kind" not in d:
            card = d.get("card")
            if card is None:
                d["kind"] = DISCARD
            else:
                try:
                    d["kind"] = CAMPFIRE if parse_card(card).is_campfire else PLACE
                except (AscentError, TypeError):
                    d["kind"] = PLACE  # from_json names the bad card
        if d["kind"] == PLACE:
            for k in ("to_row", "to_slot"):
                if d.get(k) in (0, None):
                    d.pop(k, None)
        return Move.from_json(d)

    def check(self, data: Any) -> dict[str, Any]:
        """Would this placement be legal now? ``{"legal": true, "cost": N, "text": ...}`` or
        ``{"legal": false, "ruling": "R5", "reason": ...}``; the discards are not needed
        (the cost says how many to choose). Raises :class:`RecordError` for a malformed
        request."""
        if not isinstance(data, dict):
            raise RecordError("a check is a JSON object with card, row, slot")
        g = self.game
        over = g.outcome()
        if over is not None:
            return {"legal": False, "ruling": "R10" if over == "win" else "R12",
                    "reason": f"the game is over ({over})"}
        probe = dict(data)
        probe.pop("discard", None)
        move = self.parse_move({**probe, "discard": []})
        if move.kind == DISCARD:
            raise RecordError("check a placement: give card, row and slot")
        hand = g.hands[g.to_move]
        if move.card not in hand:
            return {"legal": False, "ruling": "R11", "reason": f"{move.card} is not in the hand"}
        ruling, info = g.why_not(move.card, move.row, move.slot, move.to_row, move.to_slot)
        if ruling is not None:
            return {"legal": False, "ruling": ruling, "reason": str(info)}
        cost = int(info)
        return {"legal": True, "cost": cost, "text": g.move_text(move),
                "discard_from": [c.text for c in _without(hand, move.card)]}

    def play(self, data: Any) -> None:
        """Check and make one move (raises :class:`IllegalMoveError` naming the ruling, or
        :class:`RecordError` for a malformed one)."""
        self.game.push(self.parse_move(data))

    def undo(self) -> None:
        """Take back the last move; :class:`Conflict` if none was made."""
        if not self.game.move_stack:
            raise Conflict("nothing to undo")
        self.game.pop()

    # ---- hints and the solution -----------------------------------------------------------

    def on_reference(self) -> bool:
        ref = self.reference
        done = self.game.move_stack
        return ref is not None and len(done) < len(ref) and ref[: len(done)] == done

    def hint(self, solver: Callable[[Game, float], list[Move] | None]) -> dict[str, Any]:
        """The next move: from the reference line while the game follows it, else the
        solver's next move from the current position (``solver(game, seconds)`` returns a
        winning continuation or ``None``), else the puzzle's next key move not yet made.
        Raises :class:`Conflict` when the game is over or no hint is known."""
        g = self.game
        if g.outcome() is not None:
            raise Conflict(f"the game is over ({g.outcome()})")
        if self.reference is None:
            try:
                solution_line(self, solver)
            except Conflict:
                pass
        if self.on_reference():
            move = self.reference[len(g.move_stack)]
            return self._hint(move, self.reference_source)
        line, done = self.hint_line, g.move_stack
        if line is not None and len(done) < len(line) and line[: len(done)] == done:
            return self._hint(line[len(done)], "solver")
        cont = solver(g.copy(), SOLVER_SECONDS)
        if cont:
            self.hint_line = list(done) + list(cont)
            return self._hint(cont[0], "solver")
        made = set(g.move_stack)
        for move in self.puzzle.key_moves:
            if move not in made:
                try:
                    g.check(move)
                except IllegalMoveError:
                    continue
                return self._hint(move, "key move")
        raise Conflict("no winning move found from here in time; try undo")

    def _hint(self, move: Move, source: str) -> dict[str, Any]:
        return {"move": move.to_json(), "text": self.game.move_text(move), "source": source}


def _without(hand: list, card: Any) -> list:
    rest = list(hand)
    rest.remove(card)
    return rest


def outcome_message(game: Game, puzzle: Puzzle) -> str:
    """The win/loss message, measured against par when there is one; ``""`` while the game
    goes on."""
    over = game.outcome()
    if over is None:
        return ""
    out = len(game.out)
    if over == "win":
        text = f"You won in {game.turn} turns with {out} cards out of the game"
        if puzzle.par is not None:
            if out < puzzle.par:
                text += f", {puzzle.par - out} under par ({puzzle.par})!"
            elif out == puzzle.par:
                text += f", exactly par ({puzzle.par})."
            else:
                text += f", {out - puzzle.par} over par ({puzzle.par})."
        else:
            text += "."
        return text
    return (f"Lost: player {game.to_move + 1} can neither play a card nor discard two (R12). "
            "Undo and try another way.")


class GameStore:
    """Sessions by id, at most ``max_games`` (the least recently used goes first)."""

    def __init__(self, max_games: int = MAX_GAMES) -> None:
        self.max_games = max_games
        self._games: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game: Game, title: str, puzzle: Puzzle | None = None) -> Session:
        """A new :class:`Session` of ``game`` (its start) under a fresh random id; the
        puzzle's solution, if any, becomes its reference line."""
        sid = secrets.token_hex(8)
        s = Session(sid, game, title, puzzle or Puzzle(), start_turn=game.turn)
        if s.puzzle.solution:
            s.reference, s.reference_source = list(s.puzzle.solution), "solution"
        with self._lock:
            self._games[sid] = s
            while len(self._games) > self.max_games:
                self._games.popitem(last=False)
        return s

    def get(self, sid: str) -> Session:
        """The session of id ``sid``; :class:`NotFound` if there is none (or it was dropped)."""
        with self._lock:
            s = self._games.get(sid)
            if s is None:
                raise NotFound(f"no game {sid!r} (games are kept in memory while the server runs)")
            self._games.move_to_end(sid)
        s.used = time.monotonic()
        return s

    def __len__(self) -> int:
        return len(self._games)


# ---- starting games ------------------------------------------------------------------------

def game_from_seed(seed: Any, players: Any = 1, rules: Any = None) -> tuple[Game, str]:
    """The start of deal ``seed`` for ``players`` under ``rules`` (a JSON object of rule
    options, or a ``K=V`` string list). Raises :class:`AscentError` for bad values."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"seed must be a whole number, not {seed!r}")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError(f"players must be a whole number, not {players!r}")
    if isinstance(rules, list):
        ruleset = RuleSet.from_options([str(r) for r in rules])
    else:
        ruleset = rules_from_data(rules)
    deal = Deal.from_seed(seed, players, ruleset)
    title = f"Deal {seed}" + (f", {players} players" if players > 1 else "")
    return Game(deal), title


def puzzle_from_record(record: Any) -> tuple[Game, str, Puzzle]:
    """The starting game, title and :class:`Puzzle` of a daily puzzle record (the JSON of
    ``ascent daily --json``: date, kind, size, rules, deal or position, goal, par,
    par_proven, grade, key_moves, solution). Raises :class:`RecordError` if malformed."""
    if not isinstance(record, dict):
        raise RecordError("a puzzle record is a JSON object")
    rules = rules_from_data(record.get("rules"))
    if record.get("position") is not None:
        pos = record["position"]
        if isinstance(pos, dict) and "rules" not in pos and "position" not in pos:
            pos = {**pos, "rules": rules.to_dict()}
        game = position_from_data(pos)
    elif record.get("deal") is not None:
        game = Game(deal_from_data(record["deal"], rules))
    else:
        raise RecordError("a puzzle record needs a deal or a position")
    solution = _moves_of(record.get("solution"), game)
    key_moves = _moves_of(record.get("key_moves"), game, lenient=True)
    goal = record.get("goal")
    if isinstance(goal, dict):
        goal = goal.get("text") or ", ".join(f"{k}: {v}" for k, v in goal.items())
    par = record.get("par")
    pz = Puzzle(
        date=str(record.get("date", "")), kind=str(record.get("kind", "")),
        size=str(record.get("size", "")), goal=str(goal or "Put a Summit on the peak"),
        par=par if isinstance(par, int) and not isinstance(par, bool) else None,
        par_proven=bool(record.get("par_proven")), solution=solution, key_moves=key_moves,
        grade=record.get("grade"),
    )
    title = f"Daily puzzle {pz.date}" + (f" ({pz.kind}, {pz.size})" if pz.kind else "")
    return game, title, pz


def _moves_of(raw: Any, start: Game, lenient: bool = False) -> list[Move]:
    """Moves from a record field: a game record (``{"moves": [...]}``, possibly from a deal
    whose first moves lead to ``start``), or a list of moves or of ``{"move": ...}``."""
    if raw is None:
        return []
    skip = 0
    if isinstance(raw, dict):  # a game record; "start_move": where the puzzle starts in it
        sm = raw.get("start_move")
        skip = sm if isinstance(sm, int) and not isinstance(sm, bool) and sm > 0 else 0
        raw = raw.get("moves", [])
    if not isinstance(raw, list):
        return []
    moves = []
    for i, m in enumerate(raw):
        if isinstance(m, dict) and isinstance(m.get("move"), dict):
            m = m["move"]
        try:
            moves.append(Move.from_json(m, i + 1))
        except AscentError:
            if lenient:
                continue
            raise
    if lenient:
        return moves
    for line in (moves[skip:] if skip else None, moves, moves[start.turn:] if start.turn else None):
        if line is not None and _replays(start, line):
            return line  # from the start, or a full game record from the deal that led here
    return []  # a solution that does not replay from here is not offered


def _replays(start: Game, moves: list[Move]) -> bool:
    """Whether ``moves`` are legal one after the other from ``start`` (checked by
    :mod:`model` on a copy)."""
    game = start.copy() if start.deal is None or start.move_stack else Game(start.deal)
    try:
        for m in moves:
            game.push(m)
    except IllegalMoveError:
        return False
    return True


def solution_line(session: Session,
                  solver: Callable[[Game, float], list[Move] | None]) -> list[Move]:
    """The reference line from the session's start: the puzzle's solution, or else the
    solver's winning plan (cached on the session). Raises :class:`Conflict` if none."""
    if session.reference is None:
        start = session.start_game()
        line = solver(start, SOLVER_SECONDS)
        if not line:
            raise Conflict("no solution known: the solver found no win in time")
        session.reference, session.reference_source = list(line), "solver"
    return session.reference


def reveal_step(session: Session, k: int,
                solver: Callable[[Game, float], list[Move] | None]) -> dict[str, Any]:
    """Step ``k`` (0 = the start) of the solution: the move just made, the picture after it,
    and the total number of moves. Raises :class:`NotFound` for a ``k`` out of range."""
    line = solution_line(session, solver)
    if not 0 <= k <= len(line):
        raise NotFound(f"the solution has steps 0..{len(line)}, not {k}")
    game = session.start_game()
    text = "the start"
    for m in line[:k]:
        text = game.move_text(m)
        game.push(m)
    last = line[k - 1] if k else None
    return {"step": k, "total": len(line), "text": text,
            "move": last.to_json() if last else None, "source": session.reference_source,
            "cards_out": len(game.out), "outcome": game.outcome(),
            "svg": game_svg(game, f"Solution, step {k} of {len(line)}", hands=False,
                            marks=move_marks(last))}


def default_solver(game: Game, seconds: float) -> list[Move] | None:
    """A winning continuation from ``game`` (a deal's start or any mid-game position) found
    by :func:`solver.solve` within ``seconds``, replayed by :mod:`model` before it is
    returned; ``None`` if no win was found in time (or none exists)."""
    import solver

    res = solver.solve(game, "none", time_limit=seconds, memory_limit_mb=256)
    if res.verdict != "win":
        return None
    line = list(res.continuation)
    check = game.copy()
    for m in line:
        check.push(m)  # the rules engine replays every plan before it is shown
    return line if check.is_won() else None
