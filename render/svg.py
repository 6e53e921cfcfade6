"""The mountain as an SVG picture, drawn with drawsvg.

Layout (units are SVG user units, 1 unit = 1 CSS pixel at 100 %): every slot is a diamond
(a card turned 45°) of half-diagonal :data:`R`; slot ``s`` of row ``r`` sits centred between
slots ``s`` and ``s+1`` of the row below (R3), so the rows stack into a pyramid with the
peak on top, as the table shows it. Beside the rows are their numbers; below the mountain,
one line per player (hand, cards left in the deck, ▶ for the player to move) and a status
line (turn, cards out of the game, slots filled, the outcome).

Colours (R1) are the Okabe–Ito palette; each card also shows its colour letter and a shape
per colour (see :data:`SHAPES`), so the picture reads the same without colour vision.

>>> from model.deal import Deal
>>> from model.game import Game
>>> from model.rules import RuleSet
>>> svg = game_svg(Game(Deal.from_seed(1, 1, RuleSet.tiny())))
>>> svg.startswith("<?xml") and svg.count('class="slot"') == 10
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import drawsvg as dw

from model.cards import COLOUR_NAMES, Card
from model.game import LOSS, WIN, Game

#: Okabe & Ito (2008) colour-blind-safe fills of the colour letters.
FILLS = {"r": "#D55E00", "g": "#009E73", "b": "#0072B2", "y": "#F0E442", "p": "#CC79A7"}
#: Text colour on each fill (dark text where the fill is light).
INKS = {"r": "#ffffff", "g": "#ffffff", "b": "#ffffff", "y": "#222222", "p": "#222222"}
#: One shape per colour letter, drawn on the card beside the letter.
SHAPES = {"r": "triangle", "g": "circle", "b": "square", "y": "diamond", "p": "star"}
BRIDGE_FILL = "#9a9a9a"
SUMMIT_FILL = "#3b3b3b"
EMPTY_FILL = "#f3f1ec"
EMPTY_STROKE = "#b8b2a6"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

R = 32          # half-diagonal of a slot's diamond
PITCH_X = 2 * R + 10   # centre-to-centre distance of two slots of a row
PITCH_Y = R + 12       # rise from one row to the next
MARGIN = 16
LABEL_W = 58    # room for the row numbers on the left
HAND_CARD = 38  # side of a hand card's square


def colour_name(letter: str) -> str:
    """``red`` for ``r`` and so on (the letter itself for an unknown one)."""
    return COLOUR_NAMES.get(letter, letter)


def card_label(card: Card) -> str:
    """Words for a card, for tooltips and screen readers: ``7 red``, ``Campfire green``,
    ``Bridge``, ``Summit``."""
    if card.is_ascent:
        return f"{card.value} {colour_name(card.colour)}"
    if card.is_campfire:
        return f"Campfire {colour_name(card.colour)}"
    return "Bridge" if card.is_bridge else "Summit"


def _shape(kind: str, cx: float, cy: float, size: float, fill: str) -> dw.DrawingElement:
    """A small shape of ``kind`` (see :data:`SHAPES`) centred on (cx, cy), ``size`` across."""
    h = size / 2
    if kind == "circle":
        return dw.Circle(cx, cy, h, fill=fill)
    if kind == "square":
        return dw.Rectangle(cx - h * 0.85, cy - h * 0.85, h * 1.7, h * 1.7, fill=fill)
    if kind == "diamond":
        return dw.Lines(cx, cy - h, cx + h, cy, cx, cy + h, cx - h, cy, close=True, fill=fill)
    if kind == "star":
        import math

        pts = []
        for i in range(10):
            rad = h if i % 2 == 0 else h * 0.45
            a = -math.pi / 2 + i * math.pi / 5
            pts += [cx + rad * math.cos(a), cy + rad * math.sin(a)]
        return dw.Lines(*pts, close=True, fill=fill)
    return dw.Lines(cx, cy - h, cx + h, cy + h * 0.8, cx - h, cy + h * 0.8, close=True, fill=fill)


def _text(text: str, size: float, x: float, y: float, fill: str, weight: str = "bold",
          anchor: str = "middle") -> dw.Text:
    """Text whose middle sits at ``y`` (the baseline is placed by hand, as CairoSVG ignores
    ``dominant-baseline``)."""
    return dw.Text(text, size, x, round(y + size * 0.36, 2), fill=fill, font_weight=weight,
                   text_anchor=anchor)  # font-family is set once on the <svg> element


def _card_face(card: Card, cx: float, cy: float, scale: float = 1.0) -> list[dw.DrawingElement]:
    """The marks inside a card centred on (cx, cy): value or kind letter, colour letter and
    colour shape; ``scale`` 1 fits a slot's diamond."""
    out: list[dw.DrawingElement] = []
    big, small = 19 * scale, 10 * scale
    if card.is_ascent:
        ink = INKS.get(card.colour, "#ffffff")
        out.append(_text(str(card.value), big, cx, cy - 3 * scale, ink))
        out.append(_shape(SHAPES.get(card.colour, "triangle"), cx - 6 * scale, cy + 14 * scale,
                          8 * scale, ink))
        out.append(_text(card.colour, small, cx + 6 * scale, cy + 14 * scale, ink))
    elif card.is_campfire:
        fill = FILLS.get(card.colour, "#777777")
        out.append(_text("C", big, cx, cy - 3 * scale, "#222222"))
        out.append(_shape(SHAPES.get(card.colour, "triangle"), cx - 6 * scale, cy + 14 * scale,
                          8 * scale, fill))
        out.append(_text(card.colour, small, cx + 6 * scale, cy + 14 * scale, "#222222"))
    elif card.is_bridge:
        out.append(dw.Path(stroke="#ffffff", stroke_width=2.5 * scale, fill="none").M(
            cx - 12 * scale, cy + 10 * scale).Q(cx, cy - 2 * scale, cx + 12 * scale, cy + 10 * scale))
        out.append(_text("B", big, cx, cy - 6 * scale, "#ffffff"))
    else:
        out.append(dw.Lines(cx - 11 * scale, cy + 13 * scale, cx, cy - 1 * scale,
                            cx + 11 * scale, cy + 13 * scale, close=True, fill="#ffffff"))
        out.append(_text("S", big * 0.8, cx, cy - 10 * scale, "#ffe9a8"))
    return out


def card_fill(card: Card) -> tuple[str, str, float]:
    """(fill, stroke, stroke width) of a card's background."""
    if card.is_ascent:
        return FILLS.get(card.colour, "#777777"), "#222222", 1.5
    if card.is_campfire:
        return "#fffdf6", FILLS.get(card.colour, "#777777"), 5.0
    if card.is_bridge:
        return BRIDGE_FILL, "#222222", 1.5
    return SUMMIT_FILL, "#d4a017", 3.0


def slot_centre(game: Game, row: int, slot: int) -> tuple[float, float]:
    """SVG coordinates of the centre of ``row``/``slot`` (1-based) in :func:`draw_game`."""
    rules = game.rules
    x = MARGIN + LABEL_W + R + (row - 1) * PITCH_X / 2 + (slot - 1) * PITCH_X
    y = MARGIN + 30 + R + (rules.peak_row - row) * PITCH_Y
    return x, y


def mountain_size(game: Game) -> tuple[float, float]:
    """Width and height of the mountain part of the picture (title included)."""
    rules = game.rules
    width = MARGIN * 2 + LABEL_W + rules.row_length(1) * PITCH_X
    height = MARGIN + 30 + 2 * R + rules.rows * PITCH_Y + 8
    return width, height


def _diamond(cx: float, cy: float, r: float, **attrs) -> dw.Lines:
    return dw.Lines(cx, cy - r, cx + r, cy, cx, cy + r, cx - r, cy, close=True, **attrs)


def draw_slot(game: Game, row: int, slot: int, marked: bool = False,
              interactive: bool = False) -> dw.Group:
    """One slot of the mountain: the card in it, or an empty diamond.

    With ``interactive`` the group carries ``class="slot"``, ``data-row``, ``data-slot`` and
    (when filled) ``data-card``, which the web page uses to send clicks to the server.
    ``marked`` draws a thick outline (the last move's slot).
    """
    cx, cy = slot_centre(game, row, slot)
    card = game.card_at(row, slot)
    what = card_label(card) if card is not None else "empty"
    where = "peak" if row == game.rules.peak_row else f"row {row} slot {slot}"
    attrs = {"class_": "slot", "data_row": row, "data_slot": slot, "id": f"slot-{row}-{slot}",
             "tabindex": 0, "role": "button"}  # its <title> names it
    if card is not None:
        attrs["data_card"] = card.text
    g = dw.Group(**attrs) if interactive else dw.Group(class_="slot")
    g.append(dw.Title(f"{where}: {what}"))
    if card is None:
        g.append(_diamond(cx, cy, R - 2, fill=EMPTY_FILL, stroke=EMPTY_STROKE, stroke_width=1.5,
                          stroke_dasharray="4 3"))
        if row == game.rules.peak_row:
            g.append(_text("peak", 10, cx, cy, "#9b9385", weight="normal"))
    else:
        fill, stroke, width = card_fill(card)
        g.append(_diamond(cx, cy, R - 2, fill=fill, stroke=stroke, stroke_width=width))
        for el in _card_face(card, cx, cy):
            g.append(el)
    if marked:
        g.append(_diamond(cx, cy, R + 2, fill="none", stroke="#111111", stroke_width=3,
                          class_="mark"))
    return g


def _hand_card(card: Card, x: float, y: float, side: float) -> dw.Group:
    g = dw.Group(class_="card")
    g.append(dw.Title(card_label(card)))
    fill, stroke, width = card_fill(card)
    g.append(dw.Rectangle(x, y, side, side, rx=5, fill=fill, stroke=stroke,
                          stroke_width=min(width, 3.5)))
    for el in _card_face(card, x + side / 2, y + side / 2 - 2, scale=side / 48):
        g.append(el)
    return g


def status_text(game: Game) -> str:
    """The status line: outcome if the game is over, else the turn and player to move; with
    the cards out of the game and the slots filled."""
    rules = game.rules
    over = game.outcome()
    if over == WIN:
        head = f"Won in {game.turn} turns"
    elif over == LOSS:
        head = f"Lost after {game.turn} turns: player {game.to_move + 1} cannot move"
    else:
        head = f"Turn {game.turn + 1}: player {game.to_move + 1} to move"
    return (f"{head} · {len(game.out)} cards out of the game · "
            f"{game.filled_slots()} of {rules.mountain_slots} slots filled")


def draw_game(game: Game, title: str | None = None, *, hands: bool = True,
              interactive: bool = False, marks: Iterable[tuple[int, int]] = ()) -> dw.Drawing:
    """The picture of ``game``: title, mountain (peak on top, row numbers on the left) and,
    with ``hands``, one line per player and a status line.

    ``title`` ``None`` gives "Mountain", ``""`` no heading at all. ``interactive`` adds the
    web page's hooks (see :func:`draw_slot`); ``marks`` are
    (row, slot) pairs to outline (the last move). Returns a :class:`drawsvg.Drawing`.
    """
    rules = game.rules
    marks = set(marks)
    width, height = mountain_size(game)
    line_h = HAND_CARD + 14
    extra = (game.players * line_h + 34) if hands else 0
    d = dw.Drawing(width, height + extra, id_prefix="m", font_family=FONT)
    d.append(dw.Rectangle(0, 0, width, height + extra, fill="#fffefb"))
    if title != "":  # "" leaves the heading out (the web page has its own)
        head = title or "Mountain"
        if rules.preset_name != "standard" or rules.changed_options():
            head += f"  (rules: {rules.describe()})"
        d.append(_text(head, 15, MARGIN, MARGIN + 6, "#222222", anchor="start"))
    for row in range(rules.peak_row, 0, -1):
        _, cy = slot_centre(game, row, 1)
        label = "peak" if row == rules.peak_row else f"row {row}"
        d.append(_text(label, 12, MARGIN, cy, "#6b6459", weight="normal", anchor="start"))
        for slot in range(1, rules.row_length(row) + 1):
            d.append(draw_slot(game, row, slot, (row, slot) in marks, interactive))
    if not hands:
        return d
    y = height
    over = game.outcome()
    for p in range(game.players):
        mark = "▶ " if p == game.to_move and over is None else ""
        d.append(_text(f"{mark}P{p + 1}", 13, MARGIN, y + HAND_CARD / 2, "#222222", anchor="start"))
        x = MARGIN + LABEL_W
        if not game.hands[p]:
            d.append(_text("(empty hand)", 12, x, y + HAND_CARD / 2, "#6b6459", weight="normal",
                           anchor="start"))
        for card in game.hands[p]:
            d.append(_hand_card(card, x, y, HAND_CARD))
            x += HAND_CARD + 6
        d.append(_text(f"deck: {len(game.decks[p])}", 12, max(x + 10, MARGIN + LABEL_W + 6 * 44),
                       y + HAND_CARD / 2, "#6b6459", weight="normal", anchor="start"))
        y += line_h
    colour = {"win": "#006b4f", "loss": "#a33c00"}.get(over or "", "#222222")
    d.append(_text(status_text(game), 12, MARGIN, y + 8, colour, anchor="start"))
    return d


def game_svg(game: Game, title: str | None = None, **kwargs) -> str:
    """:func:`draw_game` as SVG text (a standalone document)."""
    return draw_game(game, title, **kwargs).as_svg()


@lru_cache(maxsize=512)
def card_svg(card: Card, side: float = 48) -> str:
    """One card as a small square SVG ``side`` units across (the web page's hand); cached,
    as a card always looks the same."""
    d = dw.Drawing(side + 4, side + 4, font_family=FONT)
    d.append(_hand_card(card, 2, 2, side))
    svg = d.as_svg()
    return svg[svg.index("<svg"):]  # no XML declaration: it is inlined in HTML
