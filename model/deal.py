"""Deals: the portable shuffle and the personal decks (ruling R13).

Deal number ``N`` is rebuilt by any program as follows (documented in ``docs/rules.md``):

1. Start from the canonical card order of :meth:`model.rules.RuleSet.composition`.
2. Seed SplitMix64 with ``N`` (as an unsigned 64-bit integer).
3. Fisher–Yates (Durstenfeld) from the back: for ``i = n-1`` down to ``1``, draw
   ``x = next()`` and swap positions ``i`` and ``x mod (i + 1)``.
4. Deal the shuffled list, first card first, into the players' decks: ``round-robin``
   (card ``k`` to player ``k mod P``) or ``blocks`` (player 1 takes the first
   ``ceil``-sized block; the first ``n mod P`` players get one card more). Each deck keeps the
   order the cards were dealt in, top card first.

SplitMix64 (Steele, Lea, Flood 2014), with all arithmetic mod 2**64::

    state += 0x9E3779B97F4A7C15
    z = state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    return z ^ (z >> 31)

>>> SplitMix64(0).next() == 0xE220A8397B1DCDAF
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from model.cards import Card
from model.errors import InvalidDealError, quoted
from model.rules import STANDARD, RuleSet

MASK64 = (1 << 64) - 1


class SplitMix64:
    """The SplitMix64 generator: 64-bit state, one 64-bit output per :meth:`next`."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output (an int in ``[0, 2**64)``)."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def shuffle(cards: Sequence[Card], seed: int) -> list[Card]:
    """Fisher–Yates shuffle of ``cards`` driven by SplitMix64(``seed``); returns a new list."""
    out = list(cards)
    rng = SplitMix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = rng.next() % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deal_out(cards: Sequence[Card], players: int, dealing: str) -> list[list[Card]]:
    """Split the shuffled ``cards`` into ``players`` decks (top card first) by ``dealing``
    (``"round-robin"`` or ``"blocks"``), R13."""
    n = len(cards)
    if dealing == "round-robin":
        return [list(cards[p::players]) for p in range(players)]
    decks = []
    start = 0
    for p in range(players):
        size = n // players + (1 if p < n % players else 0)
        decks.append(list(cards[start : start + size]))
        start += size
    return decks


MAX_PLAYERS = 5


@dataclass(frozen=True)
class Deal:
    """The start of one game: the rule set and each player's deck, top card first.

    ``decks`` is a tuple of ``players`` tuples of :class:`~model.cards.Card`. ``seed`` is the
    deal number it was made from, or ``None`` for a deal typed in from a table.
    """

    players: int
    decks: tuple[tuple[Card, ...], ...]
    rules: RuleSet = field(default=STANDARD)
    seed: int | None = None

    @classmethod
    def from_seed(cls, seed: int, players: int = 1, rules: RuleSet = STANDARD) -> Deal:
        """Deal number ``seed`` (any integer ≥ 0) for ``players`` (1–5) players (R13)."""
        check_players(players)
        if not isinstance(seed, int) or seed < 0 or seed > MASK64:
            raise InvalidDealError(f"seed must be a whole number from 0 to 2**64-1, not {quoted(seed)}")
        cards = shuffle(rules.composition(), seed)
        decks = deal_out(cards, players, rules.dealing)
        return cls(players, tuple(tuple(d) for d in decks), rules, seed)

    @classmethod
    def from_decks(cls, decks: Sequence[Sequence[Card]], rules: RuleSet = STANDARD) -> Deal:
        """A deal typed in from a real table: one deck per player, top card first.

        Raises :class:`~model.errors.InvalidDealError` unless the decks together hold exactly
        the rule set's composition (85 cards by default), naming the first card that is extra
        or missing.
        """
        check_players(len(decks))
        deal = cls(len(decks), tuple(tuple(d) for d in decks), rules)
        check_complete([c for d in deal.decks for c in d], rules, "the decks")
        return deal

    def deck_texts(self) -> list[list[str]]:
        """Decks as lists of card text, top card first."""
        return [[c.text for c in d] for d in self.decks]


def check_players(players: int) -> None:
    """Raise :class:`InvalidDealError` unless 1 ≤ ``players`` ≤ 5 (R13)."""
    if not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise InvalidDealError(f"players must be 1 to {MAX_PLAYERS}, not {quoted(players)}")


def count_cards(cards: Sequence[Card]) -> dict[Card, int]:
    counts: dict[Card, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return counts


def check_subset(cards: Sequence[Card], rules: RuleSet, what: str) -> dict[Card, int]:
    """Raise :class:`InvalidDealError` if ``cards`` hold a card not in the deck or more copies
    of one than the deck has (R1); every such card is named in one message, e.g.
    ``the decks hold 3 copies of 7r; the deck has 2``. Returns the counts."""
    counts = count_cards(cards)
    extra = []
    for card, n in sorted(counts.items(), key=lambda kv: kv[0].sort_key()):
        rules.check_card(card, f"in {what}")
        if n > rules.copies_of(card):
            extra.append(f"{n} copies of {card.text}; the deck has {rules.copies_of(card)}")
    if extra:
        raise InvalidDealError(f"{what} hold {' · '.join(extra)}")
    return counts


def check_complete(cards: Sequence[Card], rules: RuleSet, what: str) -> None:
    """Raise :class:`InvalidDealError` unless ``cards`` are exactly the rule set's deck. One
    message names every extra and every missing card, e.g. ``the decks hold 3
    copies of 7r; the deck has 2 · missing: 10r (1 of 2) (85 cards given, 85 needed)``."""
    counts = count_cards(cards)
    for card in sorted(counts, key=Card.sort_key):
        rules.check_card(card, f"in {what}")
    extra = [f"{n} copies of {c.text}; the deck has {rules.copies_of(c)}"
             for c, n in sorted(counts.items(), key=lambda kv: kv[0].sort_key())
             if n > rules.copies_of(c)]
    missing = []
    seen = set()
    for card in rules.composition():
        if card in seen:
            continue
        seen.add(card)
        have, need = counts.get(card, 0), rules.copies_of(card)
        if have < need:
            missing.append(f"{card.text} ({have} of {need})")
    if not extra and not missing:
        return
    parts = []
    if extra:
        parts.append(f"{what} hold {' · '.join(extra)}")
    if missing:
        parts.append(("missing: " if extra else f"{what} miss ") + ", ".join(missing))
    raise InvalidDealError(" · ".join(parts)
                           + f" ({len(cards)} cards given, {len(rules.composition())} needed)")
