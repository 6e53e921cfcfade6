"""The rules of *Tranquility: The Ascent*: cards, deals, the mountain, moves, legality, costs,
rule options and notation. The single source of truth for every other package; it imports
nothing from them. Rulings R1–R13 are written up in ``docs/rules.md``."""

from model.cards import (
    BRIDGE_CARD,
    SUMMIT_CARD,
    Card,
    ascent,
    campfire,
    format_cards,
    parse_card,
    parse_cards,
)
from model.deal import Deal, SplitMix64, shuffle
from model.errors import (
    AscentError,
    CardSyntaxError,
    IllegalMoveError,
    InvalidDealError,
    RecordError,
    RuleOptionError,
)
from model.game import LOSS, WIN, Game, Placement
from model.moves import Move
from model.records import Plan, Replay, load, replay
from model.rules import STANDARD, RuleSet

__all__ = [
    "AscentError", "BRIDGE_CARD", "Card", "CardSyntaxError", "Deal", "Game", "IllegalMoveError",
    "InvalidDealError", "LOSS", "Move", "Placement", "Plan", "RecordError", "Replay", "RuleOptionError",
    "RuleSet", "STANDARD", "SUMMIT_CARD", "SplitMix64", "WIN", "ascent", "campfire", "format_cards",
    "load", "parse_card", "parse_cards", "replay", "shuffle",
]
