"""The review's chance line as an SVG chart, drawn with drawsvg: the same drawing for the web
page's review and for ``ascent review --plot``.

The chart plots, for every move ``k`` of a game, the team's chance to win before it (seen by
its player), as a line with its 95 % interval as a band; the chance after the move played as
dots; and the marked decisions as symbols (a chess annotator's sign beside each: ``?!``
inaccuracy ▲, ``?`` mistake ■, ``??`` blunder ◆ — the shape tells the mark without colour).
A grey band shows the window in which the game was lost (the open-hand analysis), a dashed
line the losing move when it is pinned.

The SVG is a ``role="group"`` (it holds focusable points, so it is not an image whose
children are presentational). Colours follow the reader's light or dark mode: the SVG holds a ``<style>`` with a
``prefers-color-scheme: dark`` block, and every stroke and fill is set by class, so the chart
embedded in a page or opened alone switches with the system. Each move's point is a
``<g class="point">`` with ``data-move`` (``k``), ``data-position`` (``k − 1``: the position
before the move, the one its "before" chance is about), ``tabindex="0"``, ``role="button"``
and an ``aria-label`` in words, so that a page can open that position on a click or Enter
(:mod:`web` does).

The input is plain data, so that this module stays a picture of numbers (it imports
nothing of the project): one :class:`ChartPoint` per move.

>>> svg = chance_chart([ChartPoint(1, 0.5, (0.4, 0.6), 0.5), ChartPoint(2, 0.4, (0.3, 0.5),
...                     0.1, "blunder")], title="Win chance")
>>> svg.startswith("<?xml") and svg.count('class="point') == 2 and "??" in svg
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import drawsvg as dw

#: the chance chart's size in user units (CSS pixels at 100 %)
WIDTH, HEIGHT = 720, 320
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 52, 40
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
#: the sign and the shape of each mark (as annotators write the signs)
MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
MARK_SHAPES = {"inaccuracy": "triangle", "mistake": "square", "blunder": "diamond"}

#: light colours, then the dark mode's, by class (CSS inside the SVG)
STYLE = """
.bg { fill: #ffffff; }
.axis, .tick { stroke: #6b6b6b; stroke-width: 1; }
.grid { stroke: #e3e3e3; stroke-width: 1; }
.label { fill: #333333; font-size: 13px; }
.title { fill: #111111; font-size: 13px; font-weight: bold; }
.band { fill: #0072B2; fill-opacity: 0.16; }
.window { fill: #888888; fill-opacity: 0.16; }
.losing { stroke: #555555; stroke-width: 1.5; stroke-dasharray: 5 4; }
.line { stroke: #0072B2; stroke-width: 2; fill: none; }
.after { fill: #333333; }
.hit { fill: transparent; cursor: pointer; }
.point:focus { outline: none; }
.point:focus .hit, .point:hover .hit { fill: #0072B2; fill-opacity: 0.18; }
.point:focus .hit { stroke: #0072B2; stroke-width: 2; }
.mark-inaccuracy { fill: #8A6100; }
.mark-mistake { fill: #B34700; }
.mark-blunder { fill: #B2182B; }
.sign { font-size: 12px; font-weight: bold; }
@media (prefers-color-scheme: dark) {
  .bg { fill: #1d1f21; }
  .axis, .tick { stroke: #a0a0a0; }
  .grid { stroke: #3a3d40; }
  .label { fill: #d8d8d8; }
  .title { fill: #f0f0f0; }
  .band { fill: #56B4E9; fill-opacity: 0.22; }
  .line { stroke: #56B4E9; }
  .after { fill: #e0e0e0; }
  .window { fill: #aaaaaa; fill-opacity: 0.18; }
  .losing { stroke: #bbbbbb; }
  .point:focus .hit, .point:hover .hit { fill: #56B4E9; }
  .point:focus .hit { stroke: #56B4E9; }
  .mark-inaccuracy { fill: #F0E442; }
  .mark-mistake { fill: #E69F00; }
  .mark-blunder { fill: #FF7F7F; }
}
"""


@dataclass(frozen=True)
class ChartPoint:
    """One move of the chart: its ``move`` number (from 1), the chance ``before`` it and that
    chance's 95 % ``interval`` (shares in 0..1), the chance ``after`` the move played, and
    its ``mark`` (``inaccuracy``, ``mistake``, ``blunder`` or ``None``) with the paired
    ``drop`` (shares) when marked, and the cards its player ``drawn`` after it (texts: what
    moves the chance from this move's "after" to the next move's "before")."""

    move: int
    before: float
    interval: tuple[float, float]
    after: float
    mark: str | None = None
    drop: float | None = None
    drawn: tuple[str, ...] = ()


def _x(k: float, n: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + span * (k - 0.5) / max(1, n)


def _y(p: float) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - min(1.0, max(0.0, p)))


def _symbol(kind: str, cx: float, cy: float, h: float, cls: str) -> dw.DrawingElement:
    if kind == "square":
        return dw.Rectangle(cx - h * 0.8, cy - h * 0.8, h * 1.6, h * 1.6, class_=cls)
    if kind == "diamond":
        return dw.Lines(cx, cy - h, cx + h, cy, cx, cy + h, cx - h, cy, close=True, class_=cls)
    return dw.Lines(cx, cy - h, cx + h, cy + h * 0.8, cx - h, cy + h * 0.8, close=True,
                    class_=cls)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def chance_chart(points: Sequence[ChartPoint], title: str = "",
                 window: tuple[int, int] | None = None, losing_move: int | None = None,
                 description: str = "") -> str:
    """The chance line of ``points`` (one a move, in order) as an SVG document (text).

    ``title`` heads the chart (and is its ``<title>``); ``window``: the moves ``(first,
    last)`` between which the game was lost, shaded; ``losing_move``: the pinned losing
    move, a dashed line; ``description``: the ``<desc>`` for screen readers (default: the
    chances in words). Raises ``ValueError`` for no point or a chance outside 0..1."""
    if not points:
        raise ValueError("the chart needs at least one move")
    for p in points:
        if not all(0.0 <= v <= 1.0 for v in (p.before, p.after, *p.interval)):
            raise ValueError(f"move {p.move}: a chance outside 0..1")
    n = max(p.move for p in points)
    d = dw.Drawing(WIDTH, HEIGHT, font_family=FONT, role="group", class_="chance-chart")
    d.view_box = (0, 0, WIDTH, HEIGHT)
    d.append(dw.Raw(f"<style>{STYLE}</style>"))
    d.append(dw.Title(title or "The chance to win, move by move"))
    desc = description or ("Chance to win before each move: " + ", ".join(
        f"move {p.move} {_pct(p.before)}" for p in points) + ".")
    d.append(dw.Raw(f"<desc>{_escape(desc)}</desc>"))
    d.append(dw.Rectangle(0, 0, WIDTH, HEIGHT, class_="bg"))
    if title:
        d.append(dw.Text(title, 13, 8, 18, class_="title"))
    # the legend, under the title on the right: line and band, dots, the marks, the window
    x: float = WIDTH - RIGHT
    items: list[tuple[str, str]] = [("line", "before (95 % band)"), ("after", "after")]
    items += [(f"mark-{m}", f"{MARK_SIGNS[m]} {m}") for m in MARK_SIGNS
              if any(p.mark == m for p in points)]
    if window is not None and window[0] != window[1]:
        items.append(("window", "lost in here"))
    for cls, words in reversed(items):
        x -= 7.5 * len(words) + 8
        d.append(dw.Text(words, 12, x, 40, class_="label"))
        x -= 14
        if cls == "line":
            d.append(dw.Line(x, 36, x + 11, 36, class_="line"))
        elif cls == "after":
            d.append(dw.Circle(x + 6, 36, 2.6, class_="after"))
        elif cls == "window":
            d.append(dw.Rectangle(x + 1, 30, 10, 12, class_="window"))
        else:
            d.append(_symbol(MARK_SHAPES[cls[5:]], x + 6, 36, 5, cls))
        x -= 6
    # the grid and the axes
    for pct in (0, 25, 50, 75, 100):
        y = _y(pct / 100)
        d.append(dw.Line(LEFT, y, WIDTH - RIGHT, y, class_="grid"))
        d.append(dw.Text(f"{pct}%", 13, LEFT - 6, y + 4, text_anchor="end", class_="label"))
    d.append(dw.Line(LEFT, _y(0), WIDTH - RIGHT, _y(0), class_="axis"))
    d.append(dw.Line(LEFT, _y(0), LEFT, _y(1), class_="axis"))
    step = max(1, round(n / 10 / 5) * 5) if n > 12 else 1
    for k in range(1, n + 1):
        if k == 1 or k % step == 0:
            x = _x(k, n)
            d.append(dw.Line(x, _y(0), x, _y(0) + 4, class_="tick"))
            d.append(dw.Text(str(k), 13, x, _y(0) + 17, text_anchor="middle", class_="label"))
    d.append(dw.Text("move", 13, (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 4, text_anchor="middle",
                     class_="label"))
    half = (WIDTH - LEFT - RIGHT) / max(1, n) / 2
    if window is not None:
        first, last = window
        d.append(dw.Rectangle(_x(first, n) - half, _y(1), (last - first + 1) * 2 * half,
                              _y(0) - _y(1), class_="window"))
    if losing_move is not None:
        x = _x(losing_move, n)
        d.append(dw.Line(x, _y(0), x, _y(1), class_="losing"))
    # the interval band of the chance before, and its line
    band = [(_x(p.move, n), _y(p.interval[1])) for p in points] + \
        [(_x(p.move, n), _y(p.interval[0])) for p in reversed(points)]
    d.append(dw.Lines(*[c for xy in band for c in xy], close=True, class_="band"))
    d.append(dw.Lines(*[c for p in points for c in (_x(p.move, n), _y(p.before))],
                      close=False, class_="line"))
    for p in points:
        x = _x(p.move, n)
        words = (f"move {p.move}: {_pct(p.before)} before (95 % interval "
                 f"{_pct(p.interval[0])}–{_pct(p.interval[1])}), {_pct(p.after)} after")
        if p.mark:
            words += f"; {p.mark} {MARK_SIGNS[p.mark]}" + (
                f", {100 * p.drop:.0f} points lost" if p.drop is not None else "")
        if p.drawn:
            words += f"; then drew {' '.join(p.drawn)}"
        g = dw.Group(class_="point" + (f" marked {p.mark}" if p.mark else ""),
                     tabindex="0", role="button", aria_label=words,
                     data_move=str(p.move), data_position=str(p.move - 1))
        g.append(dw.Rectangle(x - half, _y(1), 2 * half, _y(0) - _y(1), class_="hit"))
        g.append(dw.Circle(x, _y(p.after), 2.6, class_="after"))
        if p.mark:
            g.append(_symbol(MARK_SHAPES[p.mark], x, _y(p.after), 7, f"mark-{p.mark}"))
            g.append(dw.Text(MARK_SIGNS[p.mark], 12, x, _y(p.after) - 11, text_anchor="middle",
                             class_=f"sign mark-{p.mark}"))
        g.append(dw.Title(words))
        d.append(g)
    return d.as_svg()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


__all__ = ["ChartPoint", "MARK_SIGNS", "chance_chart"]
