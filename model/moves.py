"""Moves and their JSON form (ruling R11).

A move is one turn of one player:

* ``discard``: discard exactly two cards (R11);
* ``place``: play a card from the hand into a slot, paying its cost with ``discard``; used for
  Ascent cards (into the next slot of a row, R3–R6, or onto a Bridge, R8), Bridges (R7) and
  the Summit (row ``peak``, slot 1, R10);
* ``campfire``: play a Campfire onto the Ascent card at ``row``/``slot``; that card moves to
  ``to_row``/``to_slot`` and pays its cost there with ``discard`` (R9).

* ``goat`` (only with ``goats=on``, rulings G1–G7): move the goats on the card at
  ``row``/``slot`` up to the card at ``to_row``/``to_slot``; no card, ``discard`` is ``[]``.

Players, rows and slots count from 1. JSON (a move as a game record holds it)::

    {"player": 1, "kind": "discard", "discard": ["3r", "S"]}
    {"player": 1, "kind": "place", "card": "7r", "row": 1, "slot": 4, "discard": ["2g"]}
    {"player": 1, "kind": "campfire", "card": "Cr", "row": 2, "slot": 3,
     "to_row": 4, "to_slot": 1, "discard": []}
    {"player": 1, "kind": "goat", "row": 1, "slot": 2, "to_row": 2, "to_slot": 1,
     "discard": []}

Fields a move does not use (``card``, ``row``, ``slot`` of a discard; ``to_row``,
``to_slot`` of a place move) may be left out or written empty (``0``, ``null``, ``""``,
``[]``), as programs that always write every field do; a discard may also name one of its
discarded cards as its ``card``. Any other value in an unused field contradicts the move
and is refused.

>>> m = Move.from_json({"player": 1, "kind": "place", "card": "7r", "row": 1, "slot": 4,
...                     "discard": ["2g"]})
>>> m.to_json() == {"player": 1, "kind": "place", "card": "7r", "row": 1, "slot": 4,
...                 "discard": ["2g"]}
True
>>> str(m)
'P1 place 7r → row 1 slot 4, discard 2g'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from model.cards import Card, parse_card, sort_cards
from model.errors import RecordError, quoted

DISCARD = "discard"
PLACE = "place"
CAMPFIRE = "campfire"
GOAT = "goat"
KINDS = (DISCARD, PLACE, CAMPFIRE, GOAT)


def _is_empty(value: Any) -> bool:
    """An unused field written by a program that always writes every field: missing,
    ``null``, ``0``, ``""`` or ``[]`` (not ``false``, which is no row or slot)."""
    return value is None or (value == 0 and not isinstance(value, bool)) or value in ("", [])


def _texts(raw: Any) -> list[str]:
    return [t for t in raw if isinstance(t, str)] if isinstance(raw, list) else []


@dataclass(frozen=True, slots=True)
class Move:
    """One turn. ``discard`` is kept in canonical card order, so equal moves compare equal.

    ``card`` is ``None`` for a discard move; ``row``/``slot`` are 0 for a discard;
    ``to_row``/``to_slot`` are 0 except for a campfire or goat move; ``card`` is ``None``
    for a goat move too (G2).
    """

    kind: str
    player: int
    card: Card | None = None
    row: int = 0
    slot: int = 0
    to_row: int = 0
    to_slot: int = 0
    discard: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "discard", tuple(sort_cards(self.discard)))

    # ---- JSON ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The move as a JSON-ready dict of the record shape (see module docstring)."""
        d: dict[str, Any] = {"player": self.player, "kind": self.kind}
        if self.kind not in (DISCARD, GOAT):
            d["card"] = self.card.text if self.card else None
        if self.kind != DISCARD:
            d["row"] = self.row
            d["slot"] = self.slot
        if self.kind in (CAMPFIRE, GOAT):
            d["to_row"] = self.to_row
            d["to_slot"] = self.to_slot
        d["discard"] = [c.text for c in self.discard]
        return d

    @classmethod
    def from_json(cls, d: Any, number: int | None = None) -> Move:
        """Parse one move dict. Raises :class:`~model.errors.RecordError` (or
        :class:`~model.errors.CardSyntaxError`) naming the move ``number`` and the bad field."""
        at = f"move {number}: " if number is not None else ""
        if not isinstance(d, Mapping):
            raise RecordError(f"{at}a move must be a JSON object, not {type(d).__name__}")
        kind = d.get("kind")
        if kind not in KINDS:
            raise RecordError(f"{at}kind must be one of {', '.join(KINDS)}, not {quoted(kind)}")

        def whole(key: str) -> int:
            v = d.get(key)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise RecordError(f"{at}{key} must be a whole number ≥ 1, not {quoted(v)}")
            return v

        player = whole("player")
        if kind == GOAT:  # G2: the goats of row/slot move to to_row/to_slot; no card
            if d.get("card") not in (None, ""):
                raise RecordError(f"{at}a goat move plays no card (got {d['card']!r})")
            if d.get("discard", []) != []:
                raise RecordError(f"{at}a goat move discards nothing: discard must be []")
            return cls(GOAT, player, None, whole("row"), whole("slot"), whole("to_row"),
                       whole("to_slot"))
        unused = {DISCARD: ("card", "row", "slot", "to_row", "to_slot"),
                  PLACE: ("to_row", "to_slot"), CAMPFIRE: ()}[kind]
        for key in unused:  # empty values of unused fields are accepted
            if not _is_empty(d.get(key)) and not (
                    kind == DISCARD and key == "card" and d.get(key) in _texts(d.get("discard"))):
                raise RecordError(f"{at}a {kind} move has no {key} (got {quoted(d[key])}); "
                                  "leave it out or give it empty (0, null, [] or \"\")")
        def discards() -> tuple[Card, ...]:
            if "discard" not in d:
                raise RecordError(f"{at}discard is missing (an empty list when nothing is paid)")
            raw = d["discard"]
            if not isinstance(raw, list):
                raise RecordError(f"{at}discard must be a list of card texts")
            try:
                return tuple(parse_card(t, i + 1) for i, t in enumerate(raw))
            except ValueError as exc:
                raise RecordError(f"{at}discard: {exc}") from None

        if kind == DISCARD:
            return cls(DISCARD, player, discard=discards())
        try:
            card = parse_card(d.get("card"))  # type: ignore[arg-type]
        except ValueError as exc:
            raise RecordError(f"{at}card: {exc}") from None
        row, slot = whole("row"), whole("slot")
        if kind == CAMPFIRE:
            to_row, to_slot = whole("to_row"), whole("to_slot")
            return cls(CAMPFIRE, player, card, row, slot, to_row, to_slot, discards())
        return cls(PLACE, player, card, row, slot, discard=discards())

    # ---- text ----------------------------------------------------------------------------

    def __str__(self) -> str:
        who = f"P{self.player}"
        disc = " ".join(c.text for c in self.discard)
        if self.kind == DISCARD:
            return f"{who} discard {disc}"
        tail = f", discard {disc}" if disc else ""
        if self.kind == GOAT:
            return (f"{who} goat row {self.row} slot {self.slot} → "
                    f"row {self.to_row} slot {self.to_slot}{tail}")
        if self.kind == CAMPFIRE:
            return (
                f"{who} campfire {self.card} on row {self.row} slot {self.slot}, "
                f"card moves → row {self.to_row} slot {self.to_slot}{tail}"
            )
        return f"{who} place {self.card} → row {self.row} slot {self.slot}{tail}"
