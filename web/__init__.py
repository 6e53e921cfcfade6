"""The web page: play a daily puzzle (or any deal) in a browser.

A Starlette app (:func:`web.app.create_app`) served by uvicorn (``ascent serve``): the page
(``web/static``: HTML, CSS and a small script, nothing from the internet) draws the mountain
as SVG from :mod:`render` and sends every click to the JSON API; every move is checked by
:mod:`model` on the server (:mod:`web.games`). The API is documented in ``docs/web.md``.
"""
