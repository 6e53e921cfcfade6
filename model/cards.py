"""Cards and card text (ruling R1).

Card text, the notation used everywhere (command line, JSON records, tests):

=============  ===========================  ========
card           text                         example
=============  ===========================  ========
Ascent card    value then colour letter     ``7r``, ``12g``, ``3b``
Campfire       ``C`` then colour letter     ``Cr``, ``Cg``, ``Cb``
Bridge         ``B``                        ``B``
Summit         ``S``                        ``S``
=============  ===========================  ========

Colour letters are ``r`` (red), ``g`` (green), ``b`` (blue); small test geometries may use
further letters (``y``, ``p``). Parsing is case-insensitive for the kind letters and exact
for the colour letters' set; formatting always gives the canonical text, so
``format_card(parse_card(t)) == t`` for every canonical ``t``.

>>> parse_card("7r")
Card('7r')
>>> parse_card("Cg").is_campfire
True
>>> [str(c) for c in parse_cards("12g B S")]
['12g', 'B', 'S']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from model.errors import CardSyntaxError

ASCENT = "ascent"
CAMPFIRE = "campfire"
BRIDGE = "bridge"
SUMMIT = "summit"

#: Colour letters in canonical order; a rule set uses a prefix of these.
COLOUR_LETTERS = ("r", "g", "b", "y", "p")
COLOUR_NAMES = {"r": "red", "g": "green", "b": "blue", "y": "yellow", "p": "purple"}

_KIND_ORDER = {ASCENT: 0, CAMPFIRE: 1, BRIDGE: 2, SUMMIT: 3}


@dataclass(frozen=True, slots=True)
class Card:
    """One card type. The two copies of an Ascent card are equal: cards are types, not
    physical cards, so a hand is a multiset of :class:`Card`.

    ``kind`` is one of ``"ascent"``, ``"campfire"``, ``"bridge"``, ``"summit"``; ``value`` is
    1.. for Ascent cards and 0 otherwise; ``colour`` is a colour letter for Ascent cards and
    Campfires and ``""`` otherwise (R1).
    """

    kind: str
    value: int = 0
    colour: str = ""

    @property
    def is_ascent(self) -> bool:
        return self.kind == ASCENT

    @property
    def is_campfire(self) -> bool:
        return self.kind == CAMPFIRE

    @property
    def is_bridge(self) -> bool:
        return self.kind == BRIDGE

    @property
    def is_summit(self) -> bool:
        return self.kind == SUMMIT

    @property
    def has_colour(self) -> bool:
        """Ascent cards and Campfires have a colour for R5; Bridges and Summits do not."""
        return self.colour != ""

    @property
    def text(self) -> str:
        """Canonical card text (``7r``, ``Cg``, ``B``, ``S``)."""
        if self.kind == ASCENT:
            return f"{self.value}{self.colour}"
        if self.kind == CAMPFIRE:
            return f"C{self.colour}"
        return "B" if self.kind == BRIDGE else "S"

    def sort_key(self) -> tuple[int, int, int]:
        """Canonical order: Ascent cards by value then colour, then Campfires, Bridges,
        Summits."""
        col = COLOUR_LETTERS.index(self.colour) if self.colour else 0
        return (_KIND_ORDER[self.kind], self.value, col)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"


BRIDGE_CARD = Card(BRIDGE)
SUMMIT_CARD = Card(SUMMIT)


def ascent(value: int, colour: str) -> Card:
    """The Ascent card of ``value`` (int ≥ 1) and ``colour`` (a colour letter)."""
    return Card(ASCENT, value, colour)


def campfire(colour: str) -> Card:
    """The Campfire of ``colour`` (a colour letter)."""
    return Card(CAMPFIRE, 0, colour)


#: Longer tokens are never card text; they are refused before being looked at (and before
#: the parse cache, which must not keep megabyte-long keys).
MAX_TOKEN = 16


@lru_cache(maxsize=4096)
def _parse(token: str) -> Card:
    t = token.strip()
    if not t:
        raise CardSyntaxError(token, reason="empty")
    if not t.isascii():  # no look-alikes: '²r', '٣r', '７r', 'ſ' (which upper-cases to 'S')
        raise CardSyntaxError(token, reason="card text is ASCII")
    head = t[0].upper()
    if len(t) == 1 and head == "B":
        return BRIDGE_CARD
    if len(t) == 1 and head == "S":
        return SUMMIT_CARD
    if head == "C" and len(t) == 2:
        col = t[1].lower()
        if col in COLOUR_LETTERS:
            return campfire(col)
        raise CardSyntaxError(token, reason=f"unknown colour {t[1]!r}")
    # ASCII digits only, and at most 9 of them: parsing stays linear in the token's length
    # (a 400,000-digit token took seconds) and int() never sees 4,300 digits
    i = 0
    while i < len(t) and i < 10 and "0" <= t[i] <= "9":
        i += 1
    digits, rest = t[:i], t[i:].lower()
    if i >= 10:
        raise CardSyntaxError(token, reason="value too large")
    if digits and len(rest) == 1 and rest in COLOUR_LETTERS:
        value = int(digits)
        if value < 1 or digits.startswith("0"):
            raise CardSyntaxError(token, reason="value must be a whole number ≥ 1")
        return ascent(value, rest)
    raise CardSyntaxError(
        token, reason="expected an Ascent card like 7r, a Campfire like Cg, B or S"
    )


def parse_card(token: str, position: int | None = None) -> Card:
    """Parse one card text into a :class:`Card`.

    Raises :class:`~model.errors.CardSyntaxError` naming ``token`` (and ``position``, 1-based,
    if given) when it is not card text. Whether the card exists in a given deck composition is
    checked by :meth:`model.rules.RuleSet.check_card`, not here.
    """
    if not isinstance(token, str):
        raise CardSyntaxError(repr(token), position, "not a string")
    if len(token) > MAX_TOKEN and len(token.strip()) > MAX_TOKEN:
        raise CardSyntaxError(token, position, "too long to be card text")
    try:
        return _parse(token)
    except CardSyntaxError as exc:
        raise CardSyntaxError(token, position, exc.reason) from None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a whitespace- or comma-separated string (or a list of tokens) of card texts.

    Errors name the failing token and its 1-based position.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(tok, i + 1) for i, tok in enumerate(tokens)]


def format_card(card: Card) -> str:
    """Canonical card text of ``card``; inverse of :func:`parse_card`."""
    return card.text


def format_cards(cards: Iterable[Card]) -> str:
    """Space-separated card text."""
    return " ".join(c.text for c in cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in canonical order (see :meth:`Card.sort_key`)."""
    return sorted(cards, key=Card.sort_key)
