"""Pictures of the game: the mountain, the hands and the decks as SVG (drawn with
`drawsvg <https://pypi.org/project/drawsvg/>`_) and PNG (through
`CairoSVG <https://pypi.org/project/CairoSVG/>`_), single frames or one frame per move of a
plan, and an animated SVG of a whole plan.

A package over :mod:`model` only: it reads a :class:`model.game.Game` and never decides a
rule. Colours are the Okabe–Ito palette (readable with every common colour-vision
deficiency), and every coloured card also carries its colour letter and a shape of its own
(red ▲, green ●, blue ■, yellow ◆, purple ★), so no information is carried by colour alone.

* :func:`render.svg.draw_game` / :func:`render.svg.game_svg`: one position;
* :func:`render.svg.card_svg`: one card (the web page's hand);
* :func:`render.png.svg_to_png`: PNG bytes of an SVG;
* :func:`render.frames.plan_frames` / :func:`render.frames.animated_svg`: a plan move by move;
* :func:`render.files.write_new`: write a file whole or not at all, never over an existing one.
"""

from render.svg import card_svg, draw_game, game_svg

__all__ = ["card_svg", "draw_game", "game_svg"]
