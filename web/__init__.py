"""The web page: play a daily puzzle, any deal, or the real game with bot team-mates in a
browser, and see the review after it.

A Starlette app (:func:`web.app.create_app`) served by uvicorn (``ascent serve``): the page
(``web/static``: HTML, CSS and a small script, nothing from the internet) draws the mountain
as SVG from :mod:`render` and sends every click to the JSON API; every move is checked by
:mod:`model` on the server (:mod:`web.games`). Games are kept in SQLite (:mod:`web.store`);
solver work runs in one bounded pool (:mod:`web.pool`, the jobs in :mod:`web.jobs`); the review
is :mod:`web.review`. The API is documented in ``docs/web.md``.
"""
