"""Games on the web page: one :class:`WebGame` per game, by id, kept by :class:`GameStore`
in memory and in SQLite (:mod:`web.store`), so that a game outlives the server.

Every move goes through :meth:`model.game.Game.push` (the one rules engine); the page holds no
rules. A game knows where it started (a deal, or a puzzle's position; its *recipe*), the
puzzle's goal and par when it is a puzzle, and a reference line (the puzzle's solution, or the
solver's plan) for hints and "reveal". It is one of two kinds: an :class:`OpenGame` (every
card shown, undo, hints, the solution) or a :class:`SilentGame` (the real game, ruling V1),
which answers with the observation of the person's seat only and whose other seats bots play.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from model.cards import parse_card, sort_cards
from model.deal import Deal
from model.errors import AscentError, IllegalMoveError, RecordError
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move
from model.observation import observe
from model.records import deal_from_data, position_from_data, rules_from_data
from model.rules import RuleSet
from render.frames import move_marks
from render.svg import card_svg, game_svg
from web.store import GameDB
from web.teach import no_slot, targets

#: Seconds the solver may spend on one hint or on the solution of a game without one.
SOLVER_SECONDS = 8.0
#: Games kept (in the SQLite file and in memory); the one changed least recently goes first.
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
class WebGame:
    """One game in play on the page (the base of :class:`OpenGame` and :class:`SilentGame`):
    ``game`` (its moves since the start are ``game.move_stack``), a title, the puzzle data
    if any, the ``recipe`` it was made from (the JSON that rebuilds its start, see
    :func:`start_from_recipe`), its review, and a lock (requests of one game run one at a
    time). What differs between the modes (the state shown, who may move, undo, hints)
    is in the two subclasses; ``mode`` names the mode in the JSON."""

    mode: ClassVar[str] = ""

    id: str
    game: Game
    title: str
    puzzle: Puzzle
    start_turn: int = 0
    reference: list[Move] | None = None
    reference_source: str = ""
    hint_line: list[Move] | None = None  # the solver's last winning line (hints follow it)
    recipe: dict[str, Any] = field(default_factory=dict)
    review: dict[str, Any] | None = None  # the review's status or answer (see web.review)
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: float = field(default_factory=time.monotonic)
    _texts: list[tuple[Move, str, Move, str]] = field(default_factory=list, repr=False)

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

    def start_point(self) -> Deal | Game:
        """The start as :func:`solver.analysis.analyse` takes it: the deal, or a copy of the
        puzzle's position."""
        return self.game.deal if self.game.deal is not None else self.start_game()

    def bots_turn(self) -> bool:
        """Whether a bot is to move (never in an open game)."""
        return False

    def seen(self, move: Move) -> Move:
        """``move`` as the person sees it (every card, in an open game)."""
        return move

    def history(self) -> list[tuple[Move, str, Move, str]]:
        """Per move made: the move, its text, the move as the person sees it
        (:meth:`seen`) and that move's text. Kept from one call to the next: only the moves
        made since are described (the game is taken back to each and played forward again
        by the rules engine)."""
        g, done = self.game, self.game.move_stack
        keep = 0
        while keep < min(len(self._texts), len(done)) and self._texts[keep][0] == done[keep]:
            keep += 1
        del self._texts[keep:]
        if keep < len(done):
            later = [g.pop() for _ in range(len(done) - keep)][::-1]
            for m in later:
                seen = self.seen(m)
                self._texts.append((m, g.move_text(m), seen, g.move_text(seen)))
                g.push(m)
        return self._texts

    def to_data(self) -> dict[str, Any]:
        """The JSON that :func:`game_from_data` rebuilds this game from (kept by
        :class:`web.store.GameDB`)."""
        return {"v": 1, "title": self.title, "recipe": self.recipe,
                "moves": [m.to_json() for m in self.game.move_stack],
                "reference": None if self.reference is None else [m.to_json() for m in self.reference],
                "reference_source": self.reference_source,
                "hint_line": None if self.hint_line is None else [m.to_json() for m in self.hint_line]}

    def state(self) -> dict[str, Any]:
        """The JSON the page draws from (see ``docs/web.md``)."""
        raise NotImplementedError

    def _shared_state(self, to_play: bool, last: Move | None) -> dict[str, Any]:
        """The fields of :meth:`state` both modes share: the mountain, the turn, the
        outcome; ``targets`` and ``no_slot`` of the hand to move when ``to_play``; the
        picture marks ``last``, the last move as the person saw it."""
        g = self.game
        return {
            "id": self.id,
            "mode": self.mode,
            "title": self.title,
            "rules": g.rules.to_dict(),
            "rules_text": g.rules.describe(),
            "players": g.players,
            "to_move": g.to_move + 1,
            "turn": g.turn,
            "filled": g.filled_slots(),
            "slots": g.rules.mountain_slots,
            "outcome": g.outcome(),
            "last_move": last.to_json() if last else None,
            "targets": (legal := targets(g) if to_play else {}),
            "no_slot": no_slot(g, g.hands[g.to_move], legal) if to_play else {},
            "svg": game_svg(g, "", hands=False, interactive=True, marks=move_marks(last)),
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

    def person_to_move(self) -> None:
        """:class:`Conflict` unless the person may move now (always, in an open game)."""

    def check(self, data: Any) -> dict[str, Any]:
        """Would this placement be legal now? ``{"legal": true, "cost": N, "text": ...}`` or
        ``{"legal": false, "ruling": "R5", "reason": ...}``; the discards are not needed
        (the cost says how many to choose). Raises :class:`RecordError` for a malformed
        request, :class:`Conflict` when the person may not move (:meth:`person_to_move`)."""
        if not isinstance(data, dict):
            raise RecordError("a check is a JSON object with card, row, slot")
        g = self.game
        over = g.outcome()
        if over is not None:
            return {"legal": False, "ruling": "R10" if over == "win" else "R12",
                    "reason": f"the game is over ({over})"}
        self.person_to_move()
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
        :class:`RecordError` for a malformed one; :class:`Conflict` when the person may not
        move, :meth:`person_to_move`)."""
        self.person_to_move()
        self.game.push(self.parse_move(data))

    def play_bot(self, move: Move) -> None:
        """Make the bot's ``move`` (checked by the rules engine like any other);
        :class:`Conflict` unless a bot is to move."""
        if not self.bots_turn():
            raise Conflict("an open game has no bots")
        self.game.push(move)

    def undo(self) -> None:
        """Take back the last move; :class:`Conflict` if none was made."""
        if not self.game.move_stack:
            raise Conflict("nothing to undo")
        self.game.pop()


@dataclass
class OpenGame(WebGame):
    """A game with every card shown (a deal or a daily puzzle): every hand, every deck in
    order; undo, hints from the reference line or the solver, and the solution."""

    mode: ClassVar[str] = "open"

    def state(self) -> dict[str, Any]:
        """The JSON the page draws from (see ``docs/web.md``): every card."""
        g = self.game
        over = g.outcome()
        last = g.move_stack[-1] if g.move_stack else None
        hand_cards = sorted({c for h in g.hands for c in h}, key=lambda c: c.sort_key())
        pz = self.puzzle
        return {
            **self._shared_state(over is None, last),
            "hands": [[c.text for c in h] for h in g.hands],
            "decks": [len(d) for d in g.decks],
            "deck_cards": [[c.text for c in d] for d in g.decks],
            "cards_out": len(g.out),
            "message": outcome_message(g, pz),
            "goal": pz.goal,
            "par": pz.par,
            "par_proven": pz.par_proven,
            "puzzle": {"date": pz.date, "kind": pz.kind, "size": pz.size, "grade": pz.grade}
            if pz.date else None,
            "can_undo": bool(g.move_stack),
            "moves": [{"text": text, "move": m.to_json()} for m, text, _, _ in self.history()],
            "card_svgs": {c.text: card_svg(c, 46) for c in hand_cards},
        }

    # ---- hints and the solution -----------------------------------------------------------

    def on_reference(self) -> bool:
        ref = self.reference
        done = self.game.move_stack
        return ref is not None and len(done) < len(ref) and ref[: len(done)] == done

    def hint_step(self) -> dict[str, Any] | tuple[str, Game, list[Move]]:
        """The first half of a hint: the answer when it needs no search (the reference
        line's or the solver's last line's next move), else what to solve:
        ``("reference", start, [])`` at the start of a deal without a reference line, or
        ``("line", position, moves made)``. Raises :class:`Conflict` when the game is over."""
        g = self.game
        if g.outcome() is not None:
            raise Conflict(f"the game is over ({g.outcome()})")
        if self.reference is None and not g.move_stack and not self.reference_source:
            return ("reference", g.copy(), [])
        if self.on_reference():
            assert self.reference is not None
            return self._hint(self.reference[len(g.move_stack)], self.reference_source)
        line, done = self.hint_line, g.move_stack
        if line is not None and len(done) < len(line) and line[: len(done)] == done:
            return self._hint(line[len(done)], "solver")
        return ("line", g.copy(), list(done))

    def hint_found(self, which: str, done: list[Move], cont: list[Move] | None) -> dict[str, Any]:
        """The second half of a hint: the solver's answer ``cont`` (a winning continuation
        or ``None``) for what :meth:`hint_step` asked. Falls back on the puzzle's next key
        move still legal; :class:`Conflict` when no hint is known or the game moved on."""
        g = self.game
        if which == "reference":
            self.reference_source = "solver"
            if cont:
                self.reference = list(cont)
            if self.on_reference():
                assert self.reference is not None
                return self._hint(self.reference[len(g.move_stack)], "solver")
        elif g.move_stack != done:
            raise Conflict("the game moved on while the hint was found; ask again")
        elif cont:
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

    def hint(self, solver: Callable[[Game, float], list[Move] | None]) -> dict[str, Any]:
        """The next move, solving in this thread when needed (:meth:`hint_step`, then
        ``solver(position, seconds)`` and :meth:`hint_found`). Raises :class:`Conflict`."""
        step = self.hint_step()
        if isinstance(step, dict):
            return step
        which, position, done = step
        ans = self.hint_found(which, done, solver(position, SOLVER_SECONDS))
        return ans

    def _hint(self, move: Move, source: str) -> dict[str, Any]:
        return {"move": move.to_json(), "text": self.game.move_text(move), "source": source}


@dataclass
class SilentGame(WebGame):
    """The real game (ruling V1): the person plays seat ``seat`` (0-based) and sees only
    that seat's observation (:mod:`model.observation`); the other seats are played by the
    bot ``bot``. ``challenge`` is the date of a daily challenge, else ``""``. No undo and
    no solution while it is on."""

    mode: ClassVar[str] = "silent"

    seat: int = 0
    bot: str = ""
    challenge: str = ""

    def bots_turn(self) -> bool:
        """Whether a bot is to move (the game on, another seat to move)."""
        return self.game.outcome() is None and self.game.to_move != self.seat

    def seen(self, move: Move) -> Move:
        """``move`` as the person's seat saw it (V1): under ``discards_seen=own`` another
        seat's discards blanked."""
        if (self.game.rules.discards_seen != "all" and move.player != self.seat + 1
                and move.discard):
            return Move(move.kind, move.player, move.card, move.row, move.slot, move.to_row,
                        move.to_slot, ())
        return move

    def state(self) -> dict[str, Any]:
        """The state as the person's seat sees it (ruling V1,
        :func:`model.observation.observe`): the own hand, the mountain, the cards seen out,
        every hand's and deck's size, the moves as that seat saw them; never another hand
        or a deck's order. ``hands`` holds the seat's hand and ``None`` for the others."""
        g = self.game
        over = g.outcome()
        obs = observe(g, self.seat)
        mine = over is None and g.to_move == self.seat
        last = obs.history[-1] if obs.history else None
        history = [{"text": text, "move": seen.to_json(), "bot": real.player != self.seat + 1}
                   for real, _, seen, text in self.history()]
        hands: list[list[str] | None] = [None] * g.players
        hands[self.seat] = [c.text for c in obs.hand]
        return {
            **self._shared_state(mine, last),
            "seat": self.seat + 1,
            "bot": self.bot,
            "challenge": self.challenge or None,
            "your_turn": mine,
            "bots_turn": self.bots_turn(),
            "hands": hands,
            "hand_sizes": list(obs.hand_sizes),
            "decks": list(obs.deck_sizes),
            "out": [c.text for c in obs.out],
            "out_unseen": obs.out_unseen,
            "cards_out": len(obs.out) + obs.out_unseen,
            "message": silent_message(g, self.seat),
            "share": share_line(self) if over is not None else None,
            "goal": "Reach the Summit together, without talking (V1)",
            "par": None,
            "par_proven": False,
            "puzzle": None,
            "can_undo": False,
            "moves": history,
            "card_svgs": {c.text: card_svg(c, 46) for c in sort_cards(set(obs.hand))},
        }

    def person_to_move(self) -> None:
        """:class:`Conflict` unless the person's seat is to move (or the game is over)."""
        g = self.game
        if g.outcome() is None and g.to_move != self.seat:
            raise Conflict(f"it is player {g.to_move + 1}'s turn (the {self.bot} bot); "
                           f"you play player {self.seat + 1}")

    def play_bot(self, move: Move) -> None:
        """Make the bot's ``move`` (checked by the rules engine like any other);
        :class:`Conflict` unless a bot is to move."""
        if not self.bots_turn():
            raise Conflict("no bot is to move")
        self.game.push(move)

    def undo(self) -> None:
        """Always :class:`Conflict`: a card seen cannot be unseen."""
        raise Conflict("a silent game has no undo: the cards drawn have been seen")


def new_game(sid: str, game: Game, title: str, puzzle: Puzzle | None = None,
             recipe: dict[str, Any] | None = None,
             silent: dict[str, Any] | None = None) -> WebGame:
    """A :class:`SilentGame` of ``game`` when ``silent`` (its ``seat``, ``bot`` and
    ``challenge``) is given, else an :class:`OpenGame`; the puzzle's solution, if any, is
    its reference line."""
    common: dict[str, Any] = {"start_turn": game.turn, "recipe": recipe or {}}
    pz = puzzle or Puzzle()
    w: WebGame = (SilentGame(sid, game, title, pz, **common, **silent) if silent
                  else OpenGame(sid, game, title, pz, **common))
    if pz.solution:
        w.reference, w.reference_source = list(pz.solution), "solution"
    return w


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


def silent_message(game: Game, seat: int) -> str:
    """The win/loss message of a silent game (no undo); ``""`` while it goes on."""
    over = game.outcome()
    if over is None:
        return ""
    if over == "win":
        return (f"Summit! The team won in {game.turn} turns with {len(game.out)} cards out of "
                "the game.")
    who = "you" if game.to_move == seat else f"player {game.to_move + 1}"
    return (f"Lost after {game.turn} turns: {who} could neither play a card nor discard two "
            f"(R12); {game.filled_slots()} of {game.rules.mountain_slots} slots filled. "
            "The review shows where it was lost.")


def share_line(session: SilentGame) -> str:
    """The result line to share: ``Ascent 2026-12-02 · 3 players · Summit in 52 turns, 18
    cards out`` or ``… · 41 of 45 slots`` (a deal number instead of the date outside the
    daily challenge)."""
    g = session.game
    what = session.challenge or f"deal {session.recipe.get('silent', {}).get('seed', '?')}"
    rules = "" if g.rules.describe() == "standard" else f" ({g.rules.describe()})"
    players = f"{g.players} player{'s' if g.players > 1 else ''}"
    if g.outcome() == "win":
        result = f"Summit in {g.turn} turns, {len(g.out)} cards out"
    else:
        result = f"{g.filled_slots()} of {g.rules.mountain_slots} slots"
    return f"Ascent {what}{rules} · {players} · {result}"


class GameStore:
    """Games (:class:`WebGame`) by id, kept in a :class:`web.store.GameDB` (SQLite; at most ``max_games``,
    the one changed least recently goes first) and, the ``in_memory`` (default
    ``max_games``) most recently used, in memory; a game not in memory is rebuilt from the
    file (after a restart)."""

    def __init__(self, max_games: int = MAX_GAMES, db: GameDB | None = None,
                 in_memory: int | None = None) -> None:
        self.max_games = max_games
        self.db = db if db is not None else GameDB(None, max_games)
        self.db.max_games = max_games
        # every game kept is held in memory too unless told otherwise: a game rebuilt from the
        # file while a request still holds its old copy would lose that request's move
        self.in_memory = max(1, min(in_memory or max_games, max_games))
        self._games: OrderedDict[str, WebGame] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game: Game, title: str, puzzle: Puzzle | None = None,
            recipe: dict[str, Any] | None = None,
            silent: dict[str, Any] | None = None) -> WebGame:
        """A new game of ``game`` (its start) under a fresh random id (:func:`new_game`:
        a :class:`SilentGame` when ``silent`` gives its ``seat``, ``bot`` and ``challenge``,
        else an :class:`OpenGame`), written to the database."""
        s = new_game(secrets.token_hex(8), game, title, puzzle, recipe, silent)
        self._keep(s)
        self.save(s)
        return s

    def _keep(self, s: WebGame) -> None:
        with self._lock:
            self._games[s.id] = s
            self._games.move_to_end(s.id)
            while len(self._games) > self.in_memory:
                self._games.popitem(last=False)

    def save(self, s: WebGame) -> None:
        """Write ``s`` to the database (after every change); drops the oldest games beyond
        ``max_games`` from memory too."""
        for gid in self.db.put(s.id, s.to_data()):
            with self._lock:
                self._games.pop(gid, None)

    def get(self, sid: str) -> WebGame:
        """The game of id ``sid``, from memory or rebuilt from the database;
        :class:`NotFound` if there is none (or it was dropped)."""
        with self._lock:
            s = self._games.get(sid)
            if s is not None:
                self._games.move_to_end(sid)
        if s is None:
            data = self.db.get(sid) if _ID_RE.fullmatch(sid) else None
            if data is None:
                raise NotFound(f"no game {sid[:40]!r} (the server keeps the last {self.max_games} games)")
            s = game_from_data(sid, data)
            s.review = self.db.get_review(sid)
            self._keep(s)
        s.used = time.monotonic()
        return s

    def __len__(self) -> int:
        return len(self.db)


_ID_RE = re.compile(r"[0-9a-f]{16}")


# ---- starting games ------------------------------------------------------------------------

def json_text(value: Any, most: int = 40) -> str:
    """``value`` as the client wrote it in JSON (``null``, ``true``, ``"abc"``), cut to
    ``most`` characters with an ellipsis: for error messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    return text if len(text) <= most else text[:most] + "…"


def game_from_seed(seed: Any, players: Any = 1, rules: Any = None) -> tuple[Game, str]:
    """The start of deal ``seed`` for ``players`` under ``rules`` (a JSON object of rule
    options, or a ``K=V`` string list). Raises :class:`AscentError` for bad values."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"seed must be a whole number, not {json_text(seed)}")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError(f"players must be a whole number, not {json_text(players)}")
    if isinstance(rules, list):
        ruleset = RuleSet.from_options([str(r) for r in rules])
    else:
        ruleset = rules_from_data(rules)
    deal = Deal.from_seed(seed, players, ruleset)
    title = f"Deal {seed}" + (f", {players} players" if players > 1 else "")
    return Game(deal), title


def silent_bots() -> list[str]:
    """The bots a silent game may have as team-mates: every bot of :data:`bots.BOT_NAMES`
    that sees only its seat's observation (V1), so not ``cheat``."""
    from bots import BOT_NAMES

    return [n for n in BOT_NAMES if n != "cheat"]


#: the page's default team-mate at each table size: the silent bot that won most on the same
#: fresh deals (benchmarks/team.py, docs/results.md), ``greedy`` where no search beat it.
#: ``uct`` at every size: ``adhoc`` (uct with the partner model) did not win more beside a
#: stand-in for a person (docs/results.md, mixed tables) and costs about twice the CPU
DEFAULT_BOTS: dict[int, str] = {p: "uct" for p in range(1, 6)}


def default_bot(players: int | None = None) -> str:
    """The team-mates' bot when none is asked for at ``players`` (1–5; ``None``: the page's
    default of 3): :data:`DEFAULT_BOTS`, or ``greedy`` for a bot this install lacks."""
    n = 3 if players is None else players
    bot = DEFAULT_BOTS.get(n, "greedy")
    return bot if bot in silent_bots() else "greedy"


def silent_game(body: dict[str, Any]) -> tuple[Game, str, dict[str, Any]]:
    """The start, title and recipe of a silent game from a request: ``{"seed": N,
    "players": P, "seat": K, "bot": NAME, "rules": {...}}`` or, for the daily challenge,
    ``{"challenge": "YYYY-MM-DD", "players": P, "seat": K, "bot": NAME}`` (the date's
    standard deal, :func:`puzzles.dates.challenge_seed`). ``seat`` counts from 1 (default
    1), ``players`` defaults to 3 and ``bot`` to :func:`default_bot`. Raises
    :class:`RecordError` or :class:`AscentError` for bad values."""
    players = body.get("players", 3)
    seat = body.get("seat", 1)
    bot = body.get("bot") or default_bot(players if isinstance(players, int) else None)
    for name, v in (("players", players), ("seat", seat)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise RecordError(f"{name} must be a whole number, not {json_text(v)}")
    if not isinstance(bot, str) or bot not in silent_bots():
        raise RecordError(f"bot must be one of {', '.join(silent_bots())}, not {json_text(bot)}")
    challenge = body.get("challenge")
    if challenge is not None:
        from puzzles.dates import DateError, challenge_seed, parse_date

        if not isinstance(challenge, str):
            raise RecordError("challenge is a date YYYY-MM-DD")
        seed: Any
        try:
            seed = challenge_seed(parse_date(challenge))
        except DateError as exc:
            raise RecordError(str(exc)) from None
        rules: Any = None
    else:
        seed, rules = body.get("seed"), body.get("rules")
    game, title = game_from_seed(seed, players, rules)
    if not 1 <= seat <= game.players:
        raise RecordError(f"seat must be 1..{game.players}, not {seat}")
    if challenge is not None:
        title = f"Daily challenge {challenge}, {players} player{'s' if players > 1 else ''}"
    title += f" · you are P{seat}, the {bot} bot plays the others" if players > 1 else " · solo, hidden deck"
    recipe = {"silent": {"seed": seed, "players": players, "rules": game.rules.to_dict(),
                         "seat": seat, "bot": bot, "challenge": challenge or ""}}
    return game, title, recipe


def start_from_recipe(recipe: dict[str, Any]) -> tuple[Game, str, Puzzle, dict[str, Any] | None]:
    """The start, title, puzzle and silent parameters (``seat``, ``bot``, ``challenge``;
    ``None`` for an open game) of a game from the recipe it was made from: ``{"seed": N, "players": P,
    "rules": {...}}``, ``{"puzzle": RECORD}`` or ``{"silent": {...}}``. Raises
    :class:`RecordError` for a recipe that is none of these."""
    if "silent" in recipe:
        sil = recipe["silent"]
        game, title = game_from_seed(sil["seed"], sil["players"], sil["rules"])
        return game, title, Puzzle(), {"seat": sil["seat"] - 1, "bot": sil["bot"],
                                       "challenge": sil.get("challenge", "")}
    if "puzzle" in recipe:
        game, title, pz = puzzle_from_record(recipe["puzzle"])
        return game, title, pz, None
    if "seed" in recipe:
        game, title = game_from_seed(recipe["seed"], recipe.get("players", 1), recipe.get("rules"))
        return game, title, Puzzle(), None
    raise RecordError("a stored game needs a recipe: seed, puzzle or silent")


def game_from_data(sid: str, data: dict[str, Any]) -> WebGame:
    """The game ``sid`` rebuilt from :meth:`WebGame.to_data`'s JSON: its start from the
    recipe, then its moves replayed by the rules engine (an
    :class:`~model.errors.IllegalMoveError` if one does not replay)."""
    game, _, pz, silent = start_from_recipe(data["recipe"])
    s = new_game(sid, game, data.get("title", ""), pz, data["recipe"], silent)
    for i, m in enumerate(data.get("moves", [])):
        game.push(Move.from_json(m, i + 1))
    if data.get("reference") is not None:
        s.reference = [Move.from_json(m) for m in data["reference"]]
    s.reference_source = data.get("reference_source", s.reference_source)
    if data.get("hint_line") is not None:
        s.hint_line = [Move.from_json(m) for m in data["hint_line"]]
    return s


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


def solution_line(session: OpenGame,
                  solver: Callable[[Game, float], list[Move] | None]) -> list[Move]:
    """The reference line from the game's start: the puzzle's solution, or else the
    solver's winning plan (cached on the game). Raises :class:`Conflict` if none."""
    if session.reference is None:
        start = session.start_game()
        line = solver(start, SOLVER_SECONDS)
        if not line:
            raise Conflict("no solution known: the solver found no win in time")
        session.reference, session.reference_source = list(line), "solver"
    return session.reference


def reveal_step(session: OpenGame, k: int,
                solver: Callable[[Game, float], list[Move] | None]) -> dict[str, Any]:
    """Step ``k`` (0 = the start) of the solution: the move just made, the picture after it,
    and the total number of moves. Raises :class:`NotFound` for a ``k`` out of range."""
    line = solution_line(session, solver)
    if not 0 <= k <= len(line):
        raise NotFound(f"the solution has steps 0..{len(line)}, not {k}")
    return {**line_step(session.start_game(), line, k, "Solution", hands=False,
                        before="the start"), "source": session.reference_source}


def line_step(start: Game, line: list[Move], k: int, title: str, hands: bool,
              before: str) -> dict[str, Any]:
    """Step ``k`` (0 = ``start``, called ``before``) of ``line`` played from ``start``:
    ``{"step", "total", "text", "move", "cards_out", "outcome", "svg"}``, the picture titled
    ``title`` (with the hands when ``hands``). The caller checks ``0 <= k <= len(line)``."""
    g = start.copy()
    text = before
    for m in line[:k]:
        text = g.move_text(m)
        g.push(m)
    last = line[k - 1] if k else None
    return {"step": k, "total": len(line), "text": text,
            "move": last.to_json() if last else None, "cards_out": len(g.out),
            "outcome": g.outcome(),
            "svg": game_svg(g, f"{title}, step {k} of {len(line)}", hands=hands,
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
