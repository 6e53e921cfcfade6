"""Files: game records (plans), positions and typed-in deals, as JSON or text.

Game record / plan (decks top card first; ``moves`` as in :mod:`model.moves`)::

    {"deal": {"players": P, "decks": [["7r", "S", ...], ...], "seed": 12},
     "rules": {"preset": "standard", ...},
     "moves": [...]}

Position (see :meth:`model.game.Game.to_position`)::

    {"position": {"rules": {...}, "players": P, "to_move": 1, "mountain": [[...], ...],
                  "hands": [[...], ...], "decks": [[...], ...], "out": [...]}}

Record from a position (a position has no deal history; a plan found from it, or a game
played on from it, is the position and the moves from there)::

    {"position": {...}, "moves": [...]}

A deal typed in from a real table may also be plain text: one line per player's deck, top
card first, cards separated by spaces or commas, optionally after a label ``P1:``; blank
lines and ``#`` comments are skipped; a line ``rules: K=V K=V`` sets rule options.

>>> from model.deal import Deal
>>> plan = Plan(Deal.from_seed(3, 2), [])
>>> Plan.from_json(plan.to_json()).deal.decks == plan.deal.decks
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from model.cards import Card, parse_card
from model.deal import Deal
from model.errors import (
    AscentError,
    CardSyntaxError,
    IllegalMoveError,
    RecordError,
    json_error_text,
    quoted,
)
from model.game import Game
from model.moves import Move
from model.rules import RuleSet

#: The largest input (file or standard input) that is read, in bytes: 8 MiB. A full game
#: record is a few tens of kilobytes; anything larger is refused with one line before it is
#: read whole (``ascent show /dev/zero`` grew until MemoryError).
MAX_INPUT_BYTES = 8 * 1024 * 1024


def read_bytes(path: str | Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of ``path`` (``-`` for standard input), at most ``limit`` of them.

    Raises :class:`RecordError` with one line naming the input when it does not exist, is a
    folder, cannot be read, standard input is closed, or it holds more than ``limit`` bytes
    (a regular file is refused from its size before anything is read; a pipe or device after
    ``limit + 1`` bytes)."""
    import os
    import stat
    import sys

    if str(path) == "-":
        stream = sys.stdin
        if stream is None or getattr(stream, "closed", False):
            raise RecordError("<stdin>: standard input is closed")
        name = "<stdin>"
        try:
            buf = getattr(stream, "buffer", None)
            if buf is not None:
                data = buf.read(limit + 1)
            else:  # a text stream without bytes underneath (embedding, tests)
                data = stream.read(limit + 1).encode("utf-8", "surrogateescape")
        except (OSError, ValueError) as exc:
            raise RecordError(f"{name}: cannot read ({exc.__class__.__name__})") from None
    else:
        name = str(path)
        try:
            with open(path, "rb") as fh:
                st = os.fstat(fh.fileno())
                if stat.S_ISDIR(st.st_mode):
                    raise IsADirectoryError
                if stat.S_ISREG(st.st_mode) and st.st_size > limit:
                    raise RecordError(_too_large(name, limit, st.st_size))
                data = fh.read(limit + 1)
        except RecordError:
            raise
        except FileNotFoundError:
            raise RecordError(f"{name}: no such file") from None
        except IsADirectoryError:
            raise RecordError(f"{name}: is a directory, not a file") from None
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
            why = getattr(exc, "strerror", None) or exc.__class__.__name__
            raise RecordError(f"{name}: cannot read ({why})") from None
    if len(data) > limit:
        raise RecordError(_too_large(name, limit))
    return data


def _too_large(name: str, limit: int, size: int | None = None) -> str:
    has = f" ({size:,} bytes)" if size is not None else ""
    return (f"{name}: too large{has}; inputs are limited to {limit // (1024 * 1024)} MB "
            f"({limit:,} bytes)")


def read_text(path: str | Path, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of ``path`` (``-`` for standard input) read by :func:`read_bytes`; a
    leading byte-order mark is dropped for files and standard input alike. Raises
    :class:`RecordError` (one line) for anything unreadable, too large or not UTF-8."""
    data = read_bytes(path, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        name = "<stdin>" if str(path) == "-" else str(path)
        raise RecordError(f"{name}: not UTF-8 text (byte {exc.start + 1})") from None


def _no_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise RecordError(f"the number {text[:20]} is out of range")
    return value


def parse_json(text: str, source: str = "input") -> Any:
    """Parse JSON, raising :class:`RecordError` with the line and column of a syntax error.
    ``NaN``, ``Infinity`` and numbers too large for a float are refused (they are not JSON,
    and no field of a record takes them)."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except RecordError as exc:
        raise RecordError(f"{source}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source}: {json_error_text(exc)}") from None
    except RecursionError:
        raise RecordError(f"{source}: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise RecordError(f"{source}: unreadable JSON ({str(exc).splitlines()[0][:80]})") from None


def _cards(raw: Any, what: str) -> list:
    if not isinstance(raw, list):
        raise RecordError(f"{what} must be a list of card texts")
    try:
        return [parse_card(t, i + 1) for i, t in enumerate(raw)]
    except CardSyntaxError as exc:
        raise RecordError(f"{what}: {exc}") from None


def _card_lists(raw: Any, what: str, item: str) -> list[list]:
    """The lists of card texts of the field ``what``. An error names the list as the game
    numbers it, from 1, never as a JSON index: ``item`` is a template such as ``"deck {}"``
    (``deal.decks, deck 2``), ``"row {}"`` or ``"P{}'s hand"``."""
    if not isinstance(raw, list):
        raise RecordError(f"{what} must be a list of lists of card texts")
    return [_cards(x, f"{what}, {item.format(i + 1)}") for i, x in enumerate(raw)]


def rules_from_data(raw: Any) -> RuleSet:
    """A :class:`RuleSet` from a record's ``rules`` object (missing: the standard rules)."""
    if raw is None:
        return RuleSet.standard()
    if not isinstance(raw, dict):
        raise RecordError("rules must be a JSON object of option names to values")
    return RuleSet.from_options(raw)


def deal_from_data(raw: Any, rules: RuleSet) -> Deal:
    """A :class:`Deal` from a record's ``deal`` object; the decks must hold the whole deck."""
    if not isinstance(raw, dict):
        raise RecordError("deal must be a JSON object with players and decks")
    decks = _card_lists(raw.get("decks"), "deal.decks", "deck {}")
    players = raw.get("players", len(decks))
    if players != len(decks):
        raise RecordError(f"deal.players is {quoted(players)} but {len(decks)} decks are given")
    seed = raw.get("seed")
    deal = Deal.from_decks(decks, rules)
    if (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0
            and Deal.from_seed(seed, players, rules).decks == deal.decks):
        deal = Deal(deal.players, deal.decks, rules, seed)
    return deal


def deal_to_data(deal: Deal) -> dict[str, Any]:
    d: dict[str, Any] = {"players": deal.players, "decks": deal.deck_texts()}
    if deal.seed is not None:
        d["seed"] = deal.seed
    return d


@dataclass
class Plan:
    """A start and a sequence of moves from it (a game record or a solver's plan).

    The start is a deal (``deal``; the usual game record) or, for a record that starts
    mid-game, a position (``position``, a :class:`Game` without history; ``deal`` is then
    ``None``). Exactly one of the two is set."""

    deal: Deal | None
    moves: list[Move] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    position: Game | None = None

    @property
    def start(self) -> Deal | Game:
        """The deal, or the position, the moves start from."""
        if self.deal is not None:
            return self.deal
        assert self.position is not None, "a Plan needs a deal or a position"
        return self.position

    @property
    def rules(self) -> RuleSet:
        return self.start.rules

    @property
    def players(self) -> int:
        return self.start.players

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data: keys ``deal``, ``rules``, ``moves``, then extras;
        from a position: ``position`` (with its rules), ``moves``, then extras."""
        d: dict[str, Any]
        if self.deal is None:
            assert self.position is not None
            d = {"position": self.position.to_position(),
                 "moves": [m.to_json() for m in self.moves]}
        else:
            d = {
                "deal": deal_to_data(self.deal),
                "rules": self.deal.rules.to_dict(),
                "moves": [m.to_json() for m in self.moves],
            }
        d.update(self.extra)
        return d

    @classmethod
    def from_json(cls, data: Any) -> Plan:
        """Parse a record (from a deal, or from a position: ``{"position", "moves"}``);
        :class:`RecordError` (or another :class:`AscentError`) if bad."""
        if not isinstance(data, dict) or ("deal" not in data and "position" not in data):
            raise RecordError("a plan is a JSON object with keys deal, rules and moves "
                              "(or position and moves)")
        raw_moves = data.get("moves", [])
        if not isinstance(raw_moves, list):
            raise RecordError("moves must be a list")
        moves = [Move.from_json(m, i + 1) for i, m in enumerate(raw_moves)]
        if "deal" not in data:
            position = position_from_data(data["position"])
            extra = {k: v for k, v in data.items() if k not in ("position", "moves")}
            return cls(None, moves, extra, position)
        rules = rules_from_data(data.get("rules"))
        deal = deal_from_data(data["deal"], rules)
        extra = {k: v for k, v in data.items() if k not in ("deal", "rules", "moves")}
        return cls(deal, moves, extra)

    def replay(self, upto: int | None = None) -> Replay:
        """Replay the first ``upto`` moves (all by default) through :class:`Game`."""
        return replay(self.start, self.moves[:upto] if upto is not None else self.moves)


@dataclass
class Replay:
    """What replaying a plan gave: the game after the last legal move, how many moves were
    legal, and the error of the first illegal one (``None`` if all were legal)."""

    game: Game
    legal_moves: int
    error: IllegalMoveError | None

    @property
    def outcome(self) -> str | None:
        return self.game.outcome()


def replay(start: Deal | Game, moves: Sequence[Move]) -> Replay:
    """Push ``moves`` from the start of ``start`` (a deal, or a position: a copy of it, the
    given :class:`Game` is left as it is); stops at the first illegal move and reports its
    1-based number and ruling."""
    game = start.copy() if isinstance(start, Game) else Game(deal=start)
    for i, m in enumerate(moves):
        try:
            game.push(m)
        except IllegalMoveError as exc:
            return Replay(game, i, IllegalMoveError(exc.ruling, exc.reason, i + 1))
    return Replay(game, len(moves), None)


def position_from_data(data: Any) -> Game:
    """A :class:`Game` from position data (the ``position`` object or the object itself)."""
    if isinstance(data, dict) and "position" in data:
        data = data["position"]
    if not isinstance(data, dict):
        raise RecordError("a position is a JSON object with mountain, hands and decks")
    rules = rules_from_data(data.get("rules"))
    for key in ("mountain", "hands", "decks"):
        if key not in data:
            raise RecordError(f"a position needs the key {key!r}")
    mountain = _card_lists(data["mountain"], "mountain", "row {}")
    hands = _card_lists(data["hands"], "hands", "P{}'s hand")
    players = data.get("players", len(hands))
    if players != len(hands) or isinstance(players, bool):
        raise RecordError(f"players is {quoted(players)} but {len(hands)} hands are given")
    decks = _card_lists(data["decks"], "decks", "P{}'s deck")
    out = _cards(data["out"], "out") if data.get("out") is not None else None
    to_move = data.get("to_move", 1)
    turn = data.get("turn", 0)
    over = to_move is None  # after the winning Summit no player is to move (R10)
    if over:
        to_move = 1
    if not isinstance(to_move, int) or isinstance(to_move, bool):
        raise RecordError(f"to_move must be a player number (or null once the game is won), "
                          f"not {quoted(to_move)}")
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
        raise RecordError(f"turn must be a whole number ≥ 0, not {quoted(turn)}")
    goats = _goats(data["goats"]) if data.get("goats") is not None else None
    game = Game.from_parts(rules, mountain, hands, decks, to_move - 1, out, turn, goats)
    if over and not game.is_won():
        raise RecordError("to_move is null, but no Summit stands on the peak: the game goes on, "
                          "so a player is to move")
    return game


def _goats(raw: Any) -> list[tuple[int, int]]:
    """A position's ``goats``: a list of ``[row, slot]`` pairs, one per goat (G1)."""
    ok = isinstance(raw, list) and all(
        isinstance(g, list) and len(g) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in g)
        for g in raw)
    if not ok:
        raise RecordError("goats must be a list of [row, slot] pairs of whole numbers ≥ 1")
    return [(g[0], g[1]) for g in raw]


_DECK_LABEL = re.compile(r"[Pp]([0-9]+)\s*:")


def parse_deal_text(text: str, rules: RuleSet | None = None) -> Deal:
    """A deal typed in as text: one deck per line, top card first (see module docstring).

    A line may start with its player's label ``P1:``, ``P2:``... (as ``ascent deal``
    writes it); labels must come in order, and a labelled line with no cards is an empty
    deck. Raises :class:`RecordError` naming the line of a bad card or label."""
    decks: list[list[Card]] = []
    options: list[str] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().startswith("rules:"):
            options.extend(line.split(":", 1)[1].split())
            continue
        label = _DECK_LABEL.match(line)
        if label:  # "P2: 7r S ...": the label must follow the order of the lines
            number = label.group(1)
            if len(number) > 3 or int(number) != len(decks) + 1:
                shown = f"P{number}" if len(number) <= 3 else quoted("P" + number)
                raise RecordError(f"line {lineno}: deck label {shown} where "
                                  f"P{len(decks) + 1} was expected")
            line = line[label.end():]
        try:
            from model.cards import parse_cards

            decks.append(parse_cards(line))
        except CardSyntaxError as exc:
            raise RecordError(f"line {lineno}: {exc}") from None
    if not decks:
        raise RecordError("no deck found: give one line of card texts per player")
    if options and rules is not None:
        raise RecordError("the deal text sets its own rules (a rules: line) and rule options "
                          "were given too; keep one of them")
    base = RuleSet.from_options(options) if options else (rules or RuleSet.standard())
    return Deal.from_decks(decks, base)


def plan_of_answer(data: dict[str, Any]) -> Plan:
    """The plan of a solver's ``--json`` answer: its winning plan, or else its furthest line
    (``best_progress.moves``) from the start of its deal."""
    if isinstance(data.get("plan"), dict):
        return Plan.from_json(data["plan"])
    best = data.get("best_progress")
    moves = best.get("moves", []) if isinstance(best, dict) else []
    if "deal" not in data and "position" in data:  # an answer from a bare position
        return Plan.from_json({"position": data["position"], "moves": moves})
    if "deal" not in data:
        raise RecordError("a solver answer without a win needs its deal (the key deal)")
    return Plan.from_json({"deal": data["deal"], "rules": data.get("rules"), "moves": moves})


def load(path: str | Path, rules: RuleSet | None = None) -> tuple[str, Any]:
    """Read a file and say what it holds: ``("plan", Plan)``, ``("position", Game)`` or
    ``("deal", Deal)``. JSON (text starting with ``{`` or ``[``, or any file named
    ``*.json``) is recognised by its keys; other text is read as a typed-in deal; a
    solver's ``--json`` answer is read as its plan (see :func:`plan_of_answer`); a record
    from a position (``{"position", "moves"}``) as a plan from that position; the output of
    ``ascent replay --json`` as its final position. Errors are :class:`AscentError` with a
    one-line message naming the file."""
    text = read_text(path)
    stripped = text.lstrip()
    try:
        # a file named .json is JSON: its syntax error is the message, not a bad card
        if (stripped.startswith("{") or stripped.startswith("[")
                or str(path).lower().endswith(".json")):
            data = parse_json(text, str(path))
            if isinstance(data, dict) and "verdict" in data and "best_progress" in data:
                return "plan", plan_of_answer(data)
            if (isinstance(data, dict) and isinstance(data.get("position"), dict)
                    and not isinstance(data.get("moves"), list)):
                # e.g. the output of `ascent replay --json`: its final position
                return "position", position_from_data(data)
            if isinstance(data, dict) and "moves" in data:
                return "plan", Plan.from_json(data)
            if isinstance(data, dict) and ("position" in data or "mountain" in data):
                return "position", position_from_data(data)
            if isinstance(data, dict) and "deal" in data:
                return "plan", Plan.from_json(data)
            if isinstance(data, dict) and "decks" in data:
                r = rules or rules_from_data(data.get("rules"))
                return "deal", deal_from_data(data, r)
            raise RecordError("JSON with none of the keys moves, position, mountain, deal, decks")
        return "deal", parse_deal_text(text, rules)
    except AscentError as exc:
        msg = str(exc)
        if not msg.startswith(str(path)):
            msg = f"{path}: {msg}"
        raise RecordError(msg) from None


def dumps(data: Any) -> str:
    """JSON text as the project writes it: two-space indent, key order kept, UTF-8."""
    return json.dumps(data, indent=2, ensure_ascii=False)
