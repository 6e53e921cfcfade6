"""Rule sets: the geometry, the deck composition and the rule options (rulings R1–R13).

A :class:`RuleSet` is plain, immutable data. The defaults are the rulings written up in
``docs/rules.md``; every ruling on which the seed texts are silent or disagree is an option
with named values, and three presets exist:

* ``standard``: the real game, 8 rows + peak, 85 cards (R1, R2);
* ``tiny``: 3 rows + peak, 20 cards, hand of 3, for exhaustive tests;
* ``mini``: 3 rows + peak, 20 cards in 3 colours, hand of 4: the daily puzzles' mini size.

A preset is a name for values, not part of the game: two rule sets with the same values are
equal whatever preset they were built from, and a rule set is described from the preset whose
values it has (:attr:`RuleSet.preset_name`), so every name printed is one ``preset=`` accepts:

>>> RuleSet.from_options(["rows=3", "values=5", "copies=1", "bridges=1", "summits=1",
...                       "hand_size=4"]).describe()
'mini'
>>> RuleSet.from_options(["preset=mini"]) == RuleSet.mini()
True

Options are given as ``K=V`` strings on the command line and as a JSON object in records:

>>> r = RuleSet.from_options(["bridge_replace_cost=left"])
>>> r.bridge_replace_cost
'left'
>>> RuleSet.from_options(["colour=x"])
Traceback (most recent call last):
...
model.errors.RuleOptionError: unknown rule option 'colour'; valid options: preset, rows, ...
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Iterable, Mapping

from model.cards import (
    BRIDGE_CARD,
    COLOUR_LETTERS,
    SUMMIT_CARD,
    Card,
    ascent,
    campfire,
)
from model.errors import InvalidDealError, RuleOptionError, quoted

#: Named values of the options that change a ruling; the first value is the default.
CHOICES: dict[str, tuple[str, ...]] = {
    # R6/R7: the cost of an Ascent card whose nearest non-Campfire left neighbour is a Bridge:
    # "zero" = costs nothing; "look-through" = the Bridge is skipped like a Campfire.
    "bridge_neighbour": ("zero", "look-through"),
    # R8: cost of playing onto a Bridge: "max" = greater of left and right differences;
    # "left" = left difference only (one reading of the Dutch text).
    "bridge_replace_cost": ("max", "left"),
    # R9: whether the card a Campfire moves pays its R6 cost at its new slot.
    "campfire_move_cost": ("paid", "free"),
    # R13: "round-robin" = one card at a time to each player; "blocks" = contiguous blocks.
    "dealing": ("round-robin", "blocks"),
    # V1: what a player sees of the cards that leave the game: "all" = every discard is seen
    # by every player; "own" = a player sees only their own discards and the replaced Bridges.
    # It changes no move, only the observation of a silent player (model.observation).
    "discards_seen": ("all", "own"),
}

#: Options of the optional Goats module (EN's "Goats (Optional)"; rulings G1–G7 in
#: ``docs/rules.md``). The first value is the default. Every value but ``goats=off`` is an
#: ASSUMPTION: the rules text leaves the detail open, and no public source gives the printed
#: cards. They are kept apart from :data:`CHOICES` so that code iterating over the base
#: rulings' options (solvers' capability tables, tests) is unchanged; they matter only with
#: ``goats=on``.
GOAT_CHOICES: dict[str, tuple[str, ...]] = {
    # G1: play with the Goats module at all; "off" is the base game, unchanged.
    "goats": ("off", "on"),
    # G1: which Ascent cards carry a goat icon: "lowest" = every card of value 1 (both copies,
    # every colour; 6 in the real game); "highest" = every card of the highest value (12s).
    "goat_cards": ("lowest", "highest"),
    # G2: how far one goat move goes: "step" = to a card in the row above that rests on the
    # goat's card; "far" = to any card higher up reached by a chain of such steps.
    "goat_move": ("step", "far"),
    # G3: "whole" = moving goats is the player's whole turn; "free" = it does not use the turn
    # (the same player moves again).
    "goat_turn": ("whole", "free"),
    # G4: "the top of the mountain": "row" = the highest row below the peak (row 8), and the
    # Summit waits for every goat; "summit" = on the Summit itself, after it is played.
    "goat_top": ("row", "summit"),
    # G5: a Campfire replaces the card a goat stands on: "moves" = the goat goes up with its
    # card; "stays" = the goat stays on the Campfire.
    "goat_campfire": ("moves", "stays"),
    # G6: whether a goat may stand on a Bridge: "allowed" | "forbidden".
    "goat_bridge": ("allowed", "forbidden"),
}

#: Every named option, the base rulings' (:data:`CHOICES`) and the Goats module's
#: (:data:`GOAT_CHOICES`): what a tool that varies rule options by name (``--vary``) looks
#: names up in.
ALL_CHOICES: dict[str, tuple[str, ...]] = {**CHOICES, **GOAT_CHOICES}

#: The base options that change which moves are legal or what they cost (R5–R13): what a
#: study or ``ascent variants`` varies by default. ``discards_seen`` (V1) is left out: it
#: changes only what a silent player sees, never the open-hand answer.
MOVE_RULINGS: tuple[str, ...] = tuple(k for k in CHOICES if k != "discards_seen")

#: Integer parameters (geometry and deck composition) with their allowed ranges.
INT_RANGES: dict[str, tuple[int, int]] = {
    "rows": (2, 8),
    "values": (1, 12),
    "colours": (2, 5),
    "copies": (1, 4),
    "campfires": (0, 5),
    "bridges": (0, 10),
    "summits": (1, 5),
    "hand_size": (2, 8),
}

#: What each option and parameter means, for ``--help`` and error messages.
DESCRIPTIONS: dict[str, str] = {
    "preset": "named base rule set: standard (the real game), tiny (3 rows, 20 cards, 2 colours) "
              "or mini (3 rows, 20 cards, 3 colours: the daily mini puzzles)",
    "rows": "mountain rows below the peak; row 1 has rows+1 slots (R2)",
    "values": "Ascent values 1..values (R1)",
    "colours": "number of colours, from r g b y p (R1)",
    "copies": "copies of each Ascent card (R1)",
    "campfires": "Campfires per colour (R1)",
    "bridges": "Bridges in the deck (R1)",
    "summits": "Summits in the deck (R1)",
    "hand_size": "cards a player draws up to (R11, R13)",
    "bridge_neighbour": "cost after a Bridge: zero | look-through (R6/R7)",
    "bridge_replace_cost": "cost of playing onto a Bridge: max | left (R8)",
    "campfire_move_cost": "the card a Campfire moves pays its cost: paid | free (R9)",
    "dealing": "how decks are dealt: round-robin | blocks (R13)",
    "discards_seen": "discards seen by every player or only by their owner: all | own (V1)",
    "goats": "the optional Goats module: off | on (G1)",
    "goat_cards": "cards with a goat icon: lowest (value 1) | highest (top value) (G1, assumption)",
    "goat_move": "a goat move goes one row up (step) or any rows up (far) (G2, assumption)",
    "goat_turn": "moving goats is the whole turn (whole) or free (G3, assumption)",
    "goat_top": "the goats' goal: the top row (row) or the Summit (summit) (G4, assumption)",
    "goat_campfire": "a goat on a card a Campfire replaces: moves | stays (G5, assumption)",
    "goat_bridge": "a goat may stand on a Bridge: allowed | forbidden (G6, assumption)",
}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Geometry, deck composition and rule options of one game.

    Geometry (R2): rows ``1..rows`` hold ``rows+1, rows, ..., 2`` slots; row ``rows+1`` is the
    peak with one slot for a Summit. Deck (R1): Ascent cards of values ``1..values`` in the
    first ``colours`` colour letters, ``copies`` of each; ``campfires`` Campfires per colour;
    ``bridges`` Bridges; ``summits`` Summits. ``preset`` records the preset the rule set was
    built from; it is a label, left out of equality and hashing (the values are the game).
    """

    preset: str = field(default="standard", compare=False)
    rows: int = 8
    values: int = 12
    colours: int = 3
    copies: int = 2
    campfires: int = 1
    bridges: int = 5
    summits: int = 5
    hand_size: int = 5
    bridge_neighbour: str = "zero"
    bridge_replace_cost: str = "max"
    campfire_move_cost: str = "paid"
    dealing: str = "round-robin"
    discards_seen: str = "all"
    goats: str = "off"
    goat_cards: str = "lowest"
    goat_move: str = "step"
    goat_turn: str = "whole"
    goat_top: str = "row"
    goat_campfire: str = "moves"
    goat_bridge: str = "allowed"

    # ---- presets and options -------------------------------------------------------------

    @classmethod
    def standard(cls) -> RuleSet:
        """The real game with the default rulings."""
        return cls()

    @classmethod
    def tiny(cls) -> RuleSet:
        """3 rows + peak (4+3+2+1 = 10 slots), values 1–4 in 2 colours, 2 copies, 1 Campfire
        per colour, 1 Bridge, 1 Summit: 16 + 2 + 1 + 1 = 20 cards; hands of 3."""
        return cls(
            preset="tiny", rows=3, values=4, colours=2, copies=2, campfires=1,
            bridges=1, summits=1, hand_size=3,
        )

    @classmethod
    def mini(cls) -> RuleSet:
        """3 rows + peak (10 slots), values 1–5 in 3 colours, 1 copy, 1 Campfire per colour,
        1 Bridge, 1 Summit: 15 + 3 + 1 + 1 = 20 cards; hands of 4. The daily puzzles' mini
        size (``ascent daily --size mini``)."""
        return cls(
            preset="mini", rows=3, values=5, colours=3, copies=1, campfires=1,
            bridges=1, summits=1, hand_size=4,
        )

    @classmethod
    def from_options(cls, options: Iterable[str] | Mapping[str, Any] | None = None) -> RuleSet:
        """Build a rule set from ``K=V`` strings or a mapping of option names to values.

        The ``preset`` option (``standard``, ``tiny`` or ``mini``) is applied first, then the others.
        Raises :class:`~model.errors.RuleOptionError` for an unknown name or value; the message
        lists the valid names or values.
        """
        if options is None:
            items: list[tuple[str, Any]] = []
        elif isinstance(options, Mapping):
            items = list(options.items())
        else:
            items = []
            for opt in options:
                if "=" not in opt:
                    raise RuleOptionError(f"rule option {quoted(opt)} is not of the form K=V")
                k, v = opt.split("=", 1)
                items.append((k.strip(), v.strip()))
        valid = ["preset", *INT_RANGES, *ALL_CHOICES]
        base = cls()
        rest = []
        for k, v in items:
            if k not in valid:
                raise RuleOptionError(
                    f"unknown rule option {quoted(k)}; valid options: {', '.join(valid)}"
                )
            if k == "preset":
                if not isinstance(v, str) or v not in PRESETS:
                    raise RuleOptionError(
                        f"unknown preset {quoted(v)}; valid presets: {', '.join(PRESETS)}"
                    )
                base = PRESETS[v]()
            else:
                rest.append((k, v))
        changes: dict[str, Any] = {}
        for k, v in rest:
            if k in INT_RANGES:
                lo, hi = INT_RANGES[k]
                try:
                    iv = int(v)
                    if isinstance(v, bool) or str(iv) != str(v).strip():
                        raise ValueError
                except (TypeError, ValueError, OverflowError):
                    raise RuleOptionError(
                        f"rule option {k} takes a whole number from {lo} to {hi}, not {quoted(v)}"
                    ) from None
                if not lo <= iv <= hi:
                    raise RuleOptionError(
                        f"rule option {k} takes a whole number from {lo} to {hi}, not {quoted(iv)}"
                    )
                changes[k] = iv
            elif k in GOAT_CHOICES:  # the Goats module's options (G1–G7)
                if v not in GOAT_CHOICES[k]:
                    raise RuleOptionError(
                        f"unknown value {v!r} for rule option {k}; valid values: "
                        + ", ".join(GOAT_CHOICES[k]))
                changes[k] = v
            else:
                if v not in CHOICES[k]:
                    raise RuleOptionError(
                        f"unknown value {quoted(v)} for rule option {k}; valid values: "
                        + ", ".join(CHOICES[k])
                    )
                changes[k] = v
        return replace(base, **changes)

    def to_dict(self) -> dict[str, Any]:
        """All options as a JSON-ready mapping; ``from_options(to_dict())`` gives back
        an equal rule set. The Goats module's options (G1–G7) are listed only when one of
        them differs from its default, and ``discards_seen`` (V1, which changes no move) only
        when it is not ``all``, so that records of the base game stay as they were."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        if d["discards_seen"] == CHOICES["discards_seen"][0]:
            del d["discards_seen"]
        if all(d[k] == v[0] for k, v in GOAT_CHOICES.items()):
            for k in GOAT_CHOICES:
                del d[k]
        return d

    # ---- the Goats module (G1–G7) --------------------------------------------------------

    @property
    def goats_on(self) -> bool:
        """Whether the optional Goats module is played (``goats=on``, G1)."""
        return self.goats == "on"

    def carries_goat(self, card: Card) -> bool:
        """G1: whether ``card`` has a goat icon (always ``False`` with ``goats=off``): an
        Ascent card of value 1 (``goat_cards=lowest``) or of value ``values``
        (``highest``). Both copies of a card are alike (R1)."""
        if not self.goats_on or not card.is_ascent:
            return False
        return card.value == (1 if self.goat_cards == "lowest" else self.values)

    @property
    def goat_top_row(self) -> int:
        """G4: the row the goats must reach: ``rows`` (``goat_top=row``) or the peak
        (``summit``)."""
        return self.rows if self.goat_top == "row" else self.peak_row

    def _changes_from(self, preset: str) -> list[str]:
        base = PRESETS[preset]()
        return [
            f"{f.name}={getattr(self, f.name)}"
            for f in fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        ]

    @property
    def preset_name(self) -> str:
        """The preset this rule set is described from: its own :attr:`preset`, unless its
        values are exactly another preset's (then that preset's name: the daily mini rules,
        written in records as ``standard`` with options, are ``mini``)."""
        if self._changes_from(self.preset):
            for name in PRESETS:
                if not self._changes_from(name):
                    return name
        return self.preset

    def changed_options(self) -> list[str]:
        """``K=V`` strings of the options that differ from the defaults of
        :attr:`preset_name`; ``preset=<preset_name>`` and these options rebuild the rule set."""
        return self._changes_from(self.preset_name)

    # ---- geometry (R2) -------------------------------------------------------------------

    @property
    def peak_row(self) -> int:
        """Row number of the peak (``rows + 1``; 9 in the real game)."""
        return self.rows + 1

    def row_length(self, row: int) -> int:
        """Slots in ``row`` (1-based): ``rows + 2 - row`` for rows ``1..rows``, 1 at the peak."""
        if row == self.peak_row:
            return 1
        if not 1 <= row <= self.rows:
            raise ValueError(f"no row {row}: rows are 1..{self.peak_row}")
        return self.rows + 2 - row

    @property
    def mountain_slots(self) -> int:
        """All slots including the peak (45 in the real game)."""
        return sum(self.row_length(r) for r in range(1, self.peak_row + 1))

    def max_row(self, value: int) -> int:
        """Highest row an Ascent card of ``value`` may occupy: ``min(value, rows)`` (R4)."""
        return min(value, self.rows)

    # ---- deck composition (R1) -----------------------------------------------------------

    @property
    def colour_letters(self) -> tuple[str, ...]:
        return COLOUR_LETTERS[: self.colours]

    def composition(self) -> list[Card]:
        """All cards in canonical order (the order the shuffle of R13 starts from):
        Ascent cards colour by colour (r, g, b, ...), values ascending, copies adjacent;
        then Campfires by colour; then Bridges; then Summits. 85 cards by default."""
        cards: list[Card] = []
        for col in self.colour_letters:
            for v in range(1, self.values + 1):
                cards.extend([ascent(v, col)] * self.copies)
        for col in self.colour_letters:
            cards.extend([campfire(col)] * self.campfires)
        cards.extend([BRIDGE_CARD] * self.bridges)
        cards.extend([SUMMIT_CARD] * self.summits)
        return cards

    def copies_of(self, card: Card) -> int:
        """How many of ``card`` the deck holds (0 if it is not in this deck)."""
        if card.is_ascent:
            ok = 1 <= card.value <= self.values and card.colour in self.colour_letters
            return self.copies if ok else 0
        if card.is_campfire:
            return self.campfires if card.colour in self.colour_letters else 0
        return self.bridges if card.is_bridge else self.summits

    def check_card(self, card: Card, where: str = "") -> None:
        """Raise :class:`~model.errors.InvalidDealError` if ``card`` is not in this deck."""
        if self.copies_of(card) == 0:
            at = f" {where}" if where else ""
            raise InvalidDealError(f"card {card.text}{at} is not in this deck ({self.describe()})")

    def describe(self) -> str:
        """One-line summary: the preset's name (:attr:`preset_name`, a name ``preset=``
        accepts) and the changed options, e.g. ``tiny dealing=blocks``."""
        ch = self.changed_options()
        return self.preset_name + (" " + " ".join(ch) if ch else "")


PRESETS = {"standard": RuleSet.standard, "tiny": RuleSet.tiny, "mini": RuleSet.mini}

STANDARD = RuleSet.standard()
