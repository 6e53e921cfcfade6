"""The ASGI app (Starlette): the play page and its JSON API.

The routes are a table (:data:`ROUTES`) of small endpoint functions of this module, each
reading the one shared :class:`AppState` (``request.app.state.ascent``), so that each can be
read and tested on its own. ``create_app(archive=None, data=None, ...)`` builds the state
and returns the app; ``ascent serve`` runs it on uvicorn. The API (documented in
``docs/web.md`` and at ``GET /api``):

==========================================  ===============================================
``GET  /api``                               this list, as JSON
``GET  /api/daily/{date}``                  the daily puzzle of ``date`` (``YYYY-MM-DD`` or
                                            ``today``, UTC); ``?kind=deal|position``
                                            ``&size=full|mini``; without its solution
``POST /api/games``                         start a game: ``{"daily": DATE, "kind", "size"}``,
                                            ``{"seed": N, "players": P, "rules": {...}}`` or
                                            ``{"puzzle": RECORD}`` (a puzzle record); the
                                            real game: ``{"seed": N, "players": P, "seat": K,
                                            "mode": "silent", "bot": NAME}`` or
                                            ``{"daily": DATE, "mode": "silent", ...}``
``GET  /api/games/{id}``                    the game's state (mountain SVG, hands, targets;
                                            a silent game: the seat's observation only)
``POST /api/games/{id}/check``              would ``{"card","row","slot"[,"to_row","to_slot"]}``
                                            be legal, and what does it cost
``GET  /api/games/{id}/explain?card=7r``    every legal slot of a card with its cost and
                                            why, or the ruling refusing it
``POST /api/games/{id}/moves``              make a move (record shape; ``player`` and
                                            ``kind`` may be left out)
``POST /api/games/{id}/advance``            a silent game: the bot to move makes its move
                                            (prepared off the request path,
                                            :mod:`web.teammates`)
``POST /api/games/{id}/undo``               take back the last move (open games)
``GET  /api/games/{id}/hint``               the next move (solution, solver or key move)
``GET  /api/games/{id}/solution/{k}``       step ``k`` of the solution, with its picture
``POST /api/games/{id}/review``             start the review of a finished game (background)
``GET  /api/games/{id}/review``             its progress, or the review
``GET  /api/games/{id}/review/line/{k}``    step ``k`` of the review's winning line
``GET  /api/games/{id}/review/position/{k}`` the position after ``k`` moves (the chart's points)
``GET  /api/games/{id}/review/learn/{k}``   marked move ``k`` as an exercise: its position
``POST /api/games/{id}/review/learn/{k}``   judge a better move for it (the paired test)
``GET  /api/status``                        the solver pool's counts, the bots, the bots'
                                            latency
``GET  /api/rules``                         the rulings' text (R1–R13, V1, G1–G7) from
                                            ``docs/rules.md`` (:mod:`web.rulings`)
``GET  /g/{id}``                            the page of a game (a link that lasts); 404
                                            (HTML or JSON) for a game not kept
``GET  /``                                  the page; 400 for a bad number in its address
                                            (:mod:`web.pages`)
``GET  /favicon.ico``                       the icon (SVG)
==========================================  ===============================================

Games are kept in SQLite (:mod:`web.store`) and survive a restart, and so does a review
in progress. Solver work (hints, solutions, reviews, puzzles made on demand) runs in one
bounded pool (:mod:`web.pool`): beyond it the answer is 503 with ``Retry-After``. The bots'
moves of silent games have a pool of their own (:mod:`web.teammates`).

Every answer under ``/api/games`` is ``Cache-Control: no-store`` (a game's state changes
with every move; a browser's Back must not show an old one). Errors are JSON
``{"error": "...", "status": N}`` (plus ``ruling`` and ``reason`` for an
illegal move): 400 malformed request, 404 unknown game/date/path, 405 wrong method, 409 the
game refuses (nothing to undo, game over with ``ruling`` R10/R12, no hint), 413 body too
large, 422 an illegal move or impossible input, 503 the solver pool is full or a bot still
thinks (``Retry-After``). An unexpected failure is a JSON 500 without a traceback. A browser
(``Accept: text/html``) asking for an unknown path gets a small HTML 404 page instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import functools
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from model.cards import parse_card
from model.errors import AscentError, IllegalMoveError, RecordError
from model.game import Game
from model.moves import Move
from model.observation import observe
from web.games import (
    SOLVER_SECONDS,
    Conflict,
    GameStore,
    NotFound,
    OpenGame,
    SilentGame,
    WebGame,
    default_bot,
    default_solver,
    game_from_seed,
    puzzle_from_record,
    reveal_step,
    silent_bots,
    silent_game,
)
from web.jobs import REVIEW_SECONDS, bot_move
from web.jobs import learn as learn_job
from web.jobs import review as review_job
from web.pages import check_page_query, error_page, wants_html, whole_number
from web.pool import Busy, Cancelled, JobError, JobPool
from web.review import (
    OPEN_SECONDS,
    REVIEW_BUDGET,
    learn_position,
    line_step,
    marked_move,
    review_position,
)
from web.rulings import RulesMissing, rulings
from web.store import DB_NAME, GameDB
from web.teach import explain_card
from web.teammates import TeamMates

STATIC = Path(__file__).with_name("static")
MAX_BODY = 64 * 1024
#: Seconds ``/advance`` waits for a bot still thinking before it answers 503 (Retry-After 1).
ADVANCE_WAIT = 20.0
log = logging.getLogger("ascent.web")

API = [
    {"method": "GET", "path": "/api", "does": "this list"},
    {"method": "GET", "path": "/api/daily/{date}",
     "does": "the daily puzzle of date (YYYY-MM-DD or today, UTC) without its solution",
     "query": {"kind": "deal|position (default deal)", "size": "full|mini (default mini)"}},
    {"method": "POST", "path": "/api/games",
     "does": "start a game",
     "body": ['{"daily": "YYYY-MM-DD"|"today", "kind": "deal", "size": "mini"}',
              '{"seed": N, "players": P, "rules": {"preset": "tiny", ...}}',
              '{"puzzle": {a puzzle record of ascent daily --json}}',
              '{"seed": N, "players": 3, "seat": 1, "mode": "silent", "bot": "best"}',
              '{"daily": "YYYY-MM-DD"|"today", "mode": "silent", "players": 3, "seat": 1}']},
    {"method": "GET", "path": "/api/games/{id}", "does": "the game's state"},
    {"method": "POST", "path": "/api/games/{id}/check",
     "does": "legality and cost of a placement",
     "body": ['{"card": "7r", "row": 1, "slot": 3}',
              '{"card": "Cr", "row": 1, "slot": 2, "to_row": 3, "to_slot": 1}']},
    {"method": "GET", "path": "/api/games/{id}/explain",
     "does": "a card of the hand of the player to move: every legal slot with its cost and why, "
             "or the ruling that refuses it, and every candidate slot refused",
     "query": {"card": "a card text of the hand, e.g. 7r"}},
    {"method": "POST", "path": "/api/games/{id}/moves",
     "does": "make a move (checked by the rules engine)",
     "body": ['{"card": "7r", "row": 1, "slot": 3, "discard": ["2g"]}',
              '{"kind": "discard", "discard": ["3r", "S"]}']},
    {"method": "POST", "path": "/api/games/{id}/advance",
     "does": "a silent game: the bot to move makes its move"},
    {"method": "POST", "path": "/api/games/{id}/undo", "does": "take back the last move"},
    {"method": "GET", "path": "/api/games/{id}/hint", "does": "the next move"},
    {"method": "GET", "path": "/api/games/{id}/solution/{k}",
     "does": "step k of the solution (0 = start), with its picture"},
    {"method": "POST", "path": "/api/games/{id}/review",
     "does": "start the review of a finished game (in the background)"},
    {"method": "GET", "path": "/api/games/{id}/review", "does": "the review, or its progress"},
    {"method": "GET", "path": "/api/games/{id}/review/line/{k}",
     "does": "step k of the review's winning line, with its picture"},
    {"method": "GET", "path": "/api/games/{id}/review/position/{k}",
     "does": "the position after k moves of a reviewed game, every card shown"},
    {"method": "GET", "path": "/api/games/{id}/review/learn/{k}",
     "does": "marked move k as an exercise: the position as its player saw it"},
    {"method": "POST", "path": "/api/games/{id}/review/learn/{k}",
     "does": "judge a move for marked move k with the review's paired test"},
    {"method": "GET", "path": "/api/status", "does": "the solver pool's counts and the bots"},
    {"method": "GET", "path": "/api/rules",
     "does": "the rulings R1–R13, V1 and G1–G7: each part (Ruling, Texts, Options, Examples) "
             "as paragraphs and lists, from docs/rules.md"},
    {"method": "GET", "path": "/g/{id}", "does": "the page of a game"},
]


def error(status: int, message: str, **extra: Any) -> JSONResponse:
    """A JSON error response ``{"error": message, "status": status, ...extra}``."""
    return JSONResponse({"error": message, "status": status, **extra}, status_code=status)


async def read_json(request: Request) -> Any:
    """The request body as JSON; :class:`RecordError` if it is not, :class:`HTTPException`
    413 if it is larger than :data:`MAX_BODY`."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise HTTPException(413, f"request body over {MAX_BODY} bytes")
    if not body.strip():
        raise RecordError("the request needs a JSON body")
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:
        why = str(exc).splitlines()[0][:120]
        if "integer string conversion" in why:  # CPython's limit on the digits of a number
            why = "a number with more than 4300 digits"
        raise RecordError(f"malformed JSON: {why}") from None


def parse_date(text: str) -> dt.date:
    """``today`` (UTC) or an ISO date; :class:`RecordError` otherwise."""
    if text == "today":
        return dt.datetime.now(dt.UTC).date()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise RecordError(f"date must be YYYY-MM-DD or today, not {text[:40]!r}") from None


class GameOver(Conflict):
    """A move or a bot's move asked of a finished game: 409 like every refusal of the game's
    state, with the ruling that ended it (``R10`` won, ``R12`` lost) and the reason."""

    def __init__(self, game: Any) -> None:
        over = game.outcome()
        self.ruling = "R10" if over == "win" else "R12"
        self.reason = f"the game is already {'won' if over == 'win' else 'lost'}"
        super().__init__(f"the game is over ({over}): no move can be made")


# ---- the shared state of the app ------------------------------------------------------------

@dataclass
class AppState:
    """What every endpoint shares (``request.app.state.ascent``): the games (``store``, kept in
    ``db``), the solver pool, the hint/solution solver, the bots of silent games
    (:class:`web.teammates.TeamMates`, with their own pool), the puzzle archive, the reviews
    running, and the daily puzzles made on demand (``cache``; ``making``: those being made)."""

    db: GameDB
    store: GameStore
    pool: JobPool
    solve: Callable[[Any, float], Any]
    teammates: TeamMates
    archive_dir: Path | None = None
    review_seconds: float = REVIEW_SECONDS
    cache: dict[tuple[str, str, str], dict] = field(default_factory=dict)
    making: dict[tuple[str, str, str], asyncio.Future] = field(default_factory=dict)
    reviews: dict[str, asyncio.Task] = field(default_factory=dict)  # running, by game id
    kept: Any = None  # web.kept.KeptGames with --keep-games: finished silent games are kept

    def archived(self, date: dt.date, kind: str, size: str) -> dict | None:
        """The puzzle record of date/kind/size from the archive when one is served, or from
        the published archive, or made earlier; ``None`` when it must be made. Raises
        :class:`RecordError` for a bad kind or size, :class:`NotFound` for a date outside
        the puzzles' range or missing from the archive."""
        if kind not in ("deal", "position"):
            raise RecordError(f"kind must be deal or position, not {kind[:20]!r}")
        if size not in ("full", "mini"):
            raise RecordError(f"size must be full or mini, not {size[:20]!r}")
        from puzzles import archive as arch
        from puzzles.check import find
        from puzzles.dates import DateError, check_date

        try:
            check_date(date)
        except DateError as exc:
            raise NotFound(str(exc)) from None
        if self.archive_dir is not None:
            try:
                rec = find(self.archive_dir, date, kind, size)
            except arch.ArchiveError as exc:
                raise Conflict(str(exc)) from None
            if rec is None:
                raise NotFound(f"no {kind} {size} puzzle for {date} in the archive")
            return rec
        if arch.PUBLISHED.is_dir():  # a published puzzle is served as it was frozen
            try:
                rec = find(arch.PUBLISHED, date, kind, size)
            except arch.ArchiveError as exc:
                raise Conflict(str(exc)) from None
            if rec is not None:
                return rec
        return self.cache.get((date.isoformat(), kind, size))

    async def puzzle_record(self, date: dt.date, kind: str, size: str) -> dict:
        """The puzzle record of date/kind/size (:meth:`archived`), else made by
        :func:`puzzles.daily.puzzle_for` in the solver pool (seconds to minutes) and kept in
        memory; one job makes it while the other requests for it wait for that job."""
        rec = await run_in_threadpool(self.archived, date, kind, size)
        if rec is not None:
            return rec
        from puzzles import daily

        key = (date.isoformat(), kind, size)
        if key not in self.making:
            async def make() -> dict:
                try:
                    made = await self.pool.run(daily.puzzle_for, date, kind, size)
                except daily.GenerationError as exc:
                    raise NotFound(str(exc)) from None
                except JobError as exc:
                    if exc.kind == "GenerationError":
                        raise NotFound(str(exc)) from None
                    raise
                self.cache[key] = made
                return made

            fut = asyncio.ensure_future(make())
            self.making[key] = fut
            fut.add_done_callback(lambda _f: self.making.pop(key, None))
        return await asyncio.shield(self.making[key])


def app_state(request: Request) -> AppState:
    """The :class:`AppState` of the app that serves ``request``."""
    st: AppState = request.app.state.ascent
    return st


# ---- helpers of the endpoints -----------------------------------------------------------------

Endpoint = Callable[[Request], Awaitable[Response]]


def guarded(handler: Endpoint) -> Endpoint:
    """``handler`` with the project's errors turned into JSON answers: :class:`NotFound`
    404, :class:`Conflict` 409, an illegal move 422 (with ``ruling`` and ``reason``),
    :class:`RecordError` 400, another :class:`AscentError` 422, an :class:`HTTPException`
    its status, :class:`Busy` 503 with ``Retry-After``, :class:`Cancelled` 499."""

    @functools.wraps(handler)
    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except NotFound as exc:
            return error(404, str(exc))
        except GameOver as exc:
            return error(409, str(exc), ruling=exc.ruling, reason=exc.reason)
        except Conflict as exc:
            return error(409, str(exc))
        except IllegalMoveError as exc:
            return error(422, str(exc), ruling=exc.ruling, reason=exc.reason)
        except RecordError as exc:
            return error(400, str(exc))
        except AscentError as exc:  # impossible deal, rule option, card not in this deck
            return error(422, str(exc))
        except HTTPException as exc:
            return error(exc.status_code, str(exc.detail))
        except Busy as exc:
            resp = error(503, str(exc), retry_after=exc.retry_after)
            resp.headers["Retry-After"] = str(exc.retry_after)
            return resp
        except Cancelled as exc:  # the client is gone: nobody reads this
            return error(499, str(exc))

    return run


async def locked(s: WebGame, work: Callable[[], Any]) -> Any:
    """Run ``work`` under the game's lock in a worker thread, so that a long hint of one
    game never stalls the server's event loop (other games, other requests)."""

    def run() -> Any:
        with s.lock:
            return work()

    return await run_in_threadpool(run)


async def changed(st: AppState, s: WebGame, change: Callable[[], None]) -> dict[str, Any]:
    """Make ``change`` to game ``s`` under its lock (:func:`locked`), save the game, and
    return its new state."""

    def work() -> dict[str, Any]:
        change()
        st.store.save(s)
        if st.kept is not None:
            st.kept.finished(s)
        return s.state()

    return await locked(s, work)


async def game_of(request: Request) -> WebGame:
    """The game of the path's ``{id}`` (:class:`NotFound` if there is none)."""
    return await run_in_threadpool(app_state(request).store.get, request.path_params["id"])


def step_number(request: Request) -> int:
    """The path's ``{k}``: a whole number ≥ 0 of at most 6 digits (:class:`RecordError`)."""
    raw = request.path_params["k"]
    if not raw.isdigit() or len(raw) > 6:
        raise RecordError(f"step must be a whole number ≥ 0, not {raw[:20]!r}")
    return int(raw)


def answer_state(st: AppState, s: WebGame, state: dict[str, Any], status_code: int = 200) -> Response:
    """A game's ``state`` as the answer. In a silent game whose bot is to move, that bot's
    move is started in the background now (:meth:`TeamMates.prepare`), and ``bot_ready``
    says whether it is made already (``null`` when no bot is to move)."""
    if isinstance(s, SilentGame):
        ready = None
        if state.get("bots_turn"):
            st.teammates.prepare(s, state["turn"])
            ready = st.teammates.ready(s.id, state["turn"])
        state["bot_ready"] = ready
    return JSONResponse(state, status_code=status_code)


# ---- the page ---------------------------------------------------------------------------------

#: The page's HTML is asked for again on every visit (it names the script's modules).
PAGE_HEADERS = {"Cache-Control": "no-cache"}


class NoStore:
    """ASGI middleware: every answer under ``/api/games`` says ``Cache-Control: no-store``,
    so that a browser never shows a game's old state (Back, a restored tab)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/games"):
            await self.app(scope, receive, send)
            return

        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"cache-control"]
                message = {**message, "headers": [*headers, (b"cache-control", b"no-store")]}
            await send(message)

        await self.app(scope, receive, send_no_store)


def page_error(request: Request, status_code: int, title: str, message: str) -> Response:
    """An error of an address of the page: a small HTML page for a browser
    (:func:`web.pages.wants_html`), else JSON ``{"error", "status"}``."""
    if wants_html(request.headers.get("accept")):
        return HTMLResponse(error_page(status_code, title, message), status_code=status_code)
    return error(status_code, message)


async def index(request: Request) -> Response:
    """``GET /``: the page (static HTML), once its address is checked
    (:func:`web.pages.check_page_query`: ``?seed=12abc`` is a 400 naming the value)."""
    try:
        check_page_query(request.query_params)
    except RecordError as exc:
        return page_error(request, 400, "Bad address", str(exc))
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8",
                        headers=PAGE_HEADERS)


async def game_page(request: Request) -> Response:
    """``GET /g/{id}``: the page of a game kept by the server, else 404 (an HTML page for a
    browser, JSON for another client)."""
    try:
        await game_of(request)
        check_page_query(request.query_params)
    except NotFound as exc:
        return page_error(request, 404, "No such game", str(exc))
    except RecordError as exc:
        return page_error(request, 400, "Bad address", str(exc))
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8",
                        headers=PAGE_HEADERS)


async def favicon(request: Request) -> Response:
    """``GET /favicon.ico`` (and ``/favicon.svg``): the site's icon, an SVG."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})


async def api(request: Request) -> Response:
    """``GET /api``: the endpoints, as JSON."""
    return JSONResponse({"endpoints": API})


@guarded
async def rules_text(request: Request) -> Response:
    """``GET /api/rules``: the rulings' text (:func:`web.rulings.rulings`); 404 when this
    copy of ascent has no ``docs/rules.md``."""
    try:
        found = await run_in_threadpool(rulings)
    except RulesMissing as exc:
        raise NotFound(str(exc)) from None
    return JSONResponse({"rulings": found, "source": "docs/rules.md"},
                        headers={"Cache-Control": "public, max-age=3600"})


async def status(request: Request) -> Response:
    """``GET /api/status``: the solver pool's counts, the games kept, the bots."""
    st = app_state(request)
    return JSONResponse({"pool": st.pool.status(), "games": len(st.store), "bots": silent_bots(),
                         "default_bot": default_bot(),
                         "default_bots": {str(p): default_bot(p) for p in range(1, 6)},
                         "teammates": st.teammates.status()})


@guarded
async def daily_get(request: Request) -> Response:
    """``GET /api/daily/{date}``: the daily puzzle record without its solution."""
    date = parse_date(request.path_params["date"])
    q = request.query_params
    rec = await app_state(request).puzzle_record(date, q.get("kind", "deal"), q.get("size", "mini"))
    public = {k: v for k, v in rec.items() if k not in ("solution", "key_moves")}
    return JSONResponse(public)


# ---- games ------------------------------------------------------------------------------------

@guarded
async def games_new(request: Request) -> Response:
    """``POST /api/games``: start a game (a deal, a daily puzzle, a puzzle record, or the
    real game); 201 and its state."""
    st = app_state(request)
    store = st.store
    body = await read_json(request)
    if not isinstance(body, dict):
        raise RecordError("the body is a JSON object: {\"seed\": N} or {\"daily\": DATE}")
    for key in ("seed", "players", "seat"):  # the page may pass its address's text on
        if isinstance(body.get(key), str):
            body[key] = whole_number(key, body[key])
    mode = body.get("mode", "open")
    if mode not in ("open", "silent"):
        raise RecordError(f"mode must be open or silent, not {str(mode)[:20]!r}")
    if mode == "silent":
        req = dict(body)
        if "daily" in req:
            if not isinstance(req["daily"], str):
                raise RecordError("daily is a date YYYY-MM-DD or today")
            req["challenge"] = parse_date(req.pop("daily")).isoformat()
        elif "seed" not in req:
            raise RecordError("a silent game needs {\"seed\": N} or {\"daily\": DATE}")
        game, title, recipe = silent_game(req)
        sil = recipe["silent"]

        def make_silent() -> WebGame:
            return store.add(game, title, None, recipe, {"seat": sil["seat"] - 1,
                                                         "bot": sil["bot"],
                                                         "challenge": sil["challenge"]})

        s = await run_in_threadpool(make_silent)
    elif "daily" in body:
        if not isinstance(body["daily"], str):
            raise RecordError("daily is a date YYYY-MM-DD or today")
        date = parse_date(body["daily"])
        rec = await st.puzzle_record(date, str(body.get("kind", "deal")),
                                     str(body.get("size", "mini")))
        game, title, pz = puzzle_from_record(rec)
        s = await run_in_threadpool(store.add, game, title, pz, {"puzzle": rec})
    elif "puzzle" in body:
        game, title, pz = puzzle_from_record(body["puzzle"])
        s = await run_in_threadpool(store.add, game, title, pz, {"puzzle": body["puzzle"]})
    elif "seed" in body:
        game, title = game_from_seed(body["seed"], body.get("players", 1), body.get("rules"))
        recipe = {"seed": body["seed"], "players": game.players, "rules": game.rules.to_dict()}
        s = await run_in_threadpool(store.add, game, title, None, recipe)
    else:
        raise RecordError("start a game with {\"seed\": N, ...}, {\"daily\": DATE, ...} "
                          "or {\"puzzle\": RECORD}")
    return answer_state(st, s, await locked(s, s.state), 201)


@guarded
async def game_get(request: Request) -> Response:
    """``GET /api/games/{id}``: the game's state."""
    s = await game_of(request)
    return answer_state(app_state(request), s, await locked(s, s.state))


@guarded
async def game_check(request: Request) -> Response:
    """``POST /api/games/{id}/check``: would this placement be legal, and its cost."""
    s = await game_of(request)
    body = await read_json(request)
    return JSONResponse(await locked(s, lambda: s.check(body)))


@guarded
async def game_explain(request: Request) -> Response:
    """``GET /api/games/{id}/explain?card=7r``: what the card may do now
    (:func:`web.teach.explain_card` with every refused slot): 400 for a missing or bad card
    text, 409 when the game is over or (a silent game) a bot is to move; a card not in the
    hand is answered with ruling ``R11`` and no slot."""
    s = await game_of(request)
    raw = request.query_params.get("card")
    if raw is None:
        raise RecordError("give the card: ?card=7r (a card of the hand)")
    try:
        card = parse_card(raw)
    except (AscentError, ValueError):
        raise RecordError(f"card must be a card text such as 7r, Cg, B or S, not {raw[:20]!r}") from None

    def work() -> dict:
        g = s.game
        if g.outcome() is not None:
            raise GameOver(g)
        s.person_to_move()
        if card not in g.hands[g.to_move]:
            reason = f"{card} is not in the hand"
            return {"card": card.text, "slots": [], "ruling": "R11", "reason": reason,
                    "text": f"No slot takes {card}: {reason} (R11).", "refused": []}
        return explain_card(g, card)

    return JSONResponse(await locked(s, work))


@guarded
async def game_move(request: Request) -> Response:
    """``POST /api/games/{id}/moves``: make the person's move; the new state."""
    st = app_state(request)
    s = await game_of(request)
    body = await read_json(request)

    def play() -> None:
        if s.game.outcome() is not None:  # the same answer as /advance and /hint: the game refuses
            raise GameOver(s.game)
        s.play(body)

    return answer_state(st, s, await changed(st, s, play))


@guarded
async def game_undo(request: Request) -> Response:
    """``POST /api/games/{id}/undo``: take back the last move of an open game."""
    st = app_state(request)
    s = await game_of(request)

    return JSONResponse(await changed(st, s, s.undo))


async def bot_choice(request: Request, s: SilentGame, seat_to_move: bool) -> tuple[Move, int]:
    """The bot's move for the seat to move (a bot's seat, or the person's for a hint)
    from that seat's observation only (V1), and the turn it is for; a slow bot runs in
    the pool."""
    pool = app_state(request).pool

    def ask() -> tuple[Any, int]:
        g = s.game
        if g.outcome() is not None:
            raise GameOver(g)
        if seat_to_move != (g.to_move == s.seat):
            raise Conflict("it is your turn" if g.to_move == s.seat
                           else f"it is player {g.to_move + 1}'s turn (the {s.bot} bot)")
        return observe(g), g.turn

    obs, turn = await locked(s, ask)
    seed = (s.recipe.get("silent", {}).get("seed", 0) * 1009 + turn) % (1 << 62)
    if s.bot == "greedy":  # microseconds: no pool
        move = await run_in_threadpool(bot_move, obs, s.bot, seed)
    else:
        move = await pool.run(bot_move, obs, s.bot, seed, disconnected=request.is_disconnected)
    return move, turn


def bot_to_move(s: WebGame) -> int:
    """The turn of a silent game whose bot is to move (read under the game's lock);
    :class:`GameOver` or :class:`Conflict` (the person's turn, an open game) otherwise."""
    g = s.game
    if not isinstance(s, SilentGame):
        raise Conflict("an open game has no bots")
    if g.outcome() is not None:
        raise GameOver(g)
    if g.to_move == s.seat:
        raise Conflict("it is your turn")
    return g.turn


@guarded
async def game_advance(request: Request) -> Response:
    """``POST /api/games/{id}/advance``: a silent game's bot to move makes its move (the
    move prepared in the background since the turn came, :mod:`web.teammates`; waited for
    at most :data:`ADVANCE_WAIT` seconds, then 503 with ``Retry-After``)."""
    st = app_state(request)
    s = await game_of(request)
    turn = await locked(s, lambda: bot_to_move(s))
    assert isinstance(s, SilentGame)  # bot_to_move refuses an open game
    move = await st.teammates.move(s, turn, ADVANCE_WAIT)
    if move is None:
        raise Busy(f"player {s.game.to_move + 1} (the {s.bot} bot) is still thinking", 1)

    def play() -> None:
        if s.game.turn != turn:
            raise Conflict("the game moved on meanwhile")
        s.play_bot(move)

    return answer_state(st, s, await changed(st, s, play))


@guarded
async def game_hint(request: Request) -> Response:
    """``GET /api/games/{id}/hint``: the next move (a silent game: the bot's move for the
    person's seat; else the solution's, the solver's or a key move)."""
    st = app_state(request)
    s = await game_of(request)
    if isinstance(s, SilentGame):
        move, _ = await bot_choice(request, s, seat_to_move=True)
        text = await locked(s, lambda: s.game.move_text(move))
        return JSONResponse({"move": move.to_json(), "text": text, "source": f"{s.bot} bot"})
    assert isinstance(s, OpenGame)  # a game is open or silent
    step = await locked(s, s.hint_step)
    if isinstance(step, dict):
        return JSONResponse(step)
    which, position, done = step
    cont = await st.pool.run(st.solve, position, SOLVER_SECONDS,
                             disconnected=request.is_disconnected)

    def work() -> dict:
        ans = s.hint_found(which, done, cont)
        st.store.save(s)
        return ans

    return JSONResponse(await locked(s, work))


@guarded
async def game_solution(request: Request) -> Response:
    """``GET /api/games/{id}/solution/{k}``: step ``k`` of the solution, with its picture."""
    st = app_state(request)
    s = await game_of(request)
    k = step_number(request)
    if not isinstance(s, OpenGame):
        raise Conflict("a silent game shows no solution: its review opens once it is over")
    if s.reference is None:
        line = await st.pool.run(st.solve, await locked(s, s.start_game), SOLVER_SECONDS,
                                 disconnected=request.is_disconnected)
        if not line:
            raise Conflict("no solution known: the solver found no win in time")

        def keep() -> None:
            if s.reference is None:
                s.reference, s.reference_source = list(line), "solver"
                st.store.save(s)

        await locked(s, keep)
    return JSONResponse(await locked(s, lambda: reveal_step(s, k, st.solve)))


# ---- reviews ----------------------------------------------------------------------------------

def review_status(s: WebGame) -> dict[str, Any]:
    """The review's JSON: ``{"status": "none", "over"}``; while it runs ``{"status":
    "running", "phase": "open"|"silent", "done", "positions", "progress", "estimate",
    "elapsed", "started", "resumed", "kept"}`` (``done`` of ``positions``: in the ``open``
    phase, the positions whose open-hand verdict is known so far; in the ``silent`` phase,
    the moves judged from their player's view; ``progress``: their share, 0..1; ``kept``:
    how many positions' results are kept for a resume, ``{"open", "silent"}``); else the
    stored answer (``done``, ``busy`` or ``failed``)."""
    r = s.review
    if r is None:
        return {"status": "none", "over": s.game.outcome() is not None}
    if r["status"] == "running":
        done, total = r.get("done", 0), r.get("positions", 1)
        kept = r.get("kept") or {}
        return {**r, "done": done, "phase": r.get("phase", "open"),
                "progress": round(done / max(1, total), 3),
                "elapsed": round(time.time() - r["started"], 1),
                "kept": {k: len(kept.get(k) or {}) for k in ("open", "silent")}}
    return r


async def start_review(st: AppState, s: WebGame, start: Any, moves: list[Move],
                       resumed: bool = False) -> None:
    """Start the review of ``s`` in the background (:func:`run_review`), marked running in
    the game and in the file (so that a restart of the server resumes it). Raises
    :class:`Busy` when the solver pool is full."""
    pool = st.pool
    if pool.admitted >= pool.workers + pool.queue:
        raise Busy("the server is busy: every solver worker is taken and the queue is full",
                   pool.retry_after())
    kept = (s.review or {}).get("kept") if resumed else None
    s.review = {"status": "running", "started": time.time(), "positions": len(moves) + 1,
                "done": 0, "phase": "open", "resumed": resumed,
                "estimate": REVIEW_BUDGET if isinstance(s, SilentGame) else OPEN_SECONDS,
                "kept": kept if isinstance(kept, dict) else {"open": {}, "silent": {}}}
    running = s.review
    task = asyncio.ensure_future(run_review(st, s, start, moves))
    st.reviews[s.id] = task
    task.add_done_callback(lambda _t: st.reviews.pop(s.id, None))
    await run_in_threadpool(st.store.db.put_review, s.id, dict(running))


async def run_review(st: AppState, s: WebGame, start: Any, moves: list[Move]) -> None:
    """Make the review of ``s`` in the pool, its progress kept in ``s.review`` as the job
    tells it, and keep the answer (in the game and the file); ``busy`` or ``failed``
    when it could not be made."""
    mine = s.review
    assert mine is not None
    kept = mine["kept"]
    known = {"open": list(kept["open"].values()), "silent": list(kept["silent"].values())}
    saving: list[asyncio.Future] = []
    running = [True]

    def told(p: Any) -> None:
        if running[0] and s.review is mine and isinstance(p, dict):
            mine.update({k: p[k] for k in ("phase", "done", "positions") if k in p})
            # each position's result is kept in the file as it comes (the row written
            # whole), so that a restart resumes the review where it stopped
            new = False
            if isinstance(p.get("solved"), dict):
                kept["open"][str(p["solved"]["index"])] = p["solved"]
                new = True
            if isinstance(p.get("reviewed"), dict):
                kept["silent"][str(p["reviewed"]["index"])] = p["reviewed"]
                new = True
            if new:  # a deep copy: the thread writes it while the next results come in
                saving.append(asyncio.ensure_future(
                    run_in_threadpool(st.store.db.put_review, s.id, copy.deepcopy(mine))))

    data: dict[str, Any]
    try:
        follow = "best" if isinstance(s, SilentGame) and "best" in silent_bots() else None
        team = s.bot if isinstance(s, SilentGame) else None
        data = await st.pool.run(review_job, start, moves, st.review_seconds, follow, known,
                                 team, progress=told)
    except Busy as exc:
        data = {"status": "busy", "error": str(exc), "retry_after": exc.retry_after}
    except asyncio.CancelledError:  # the server stops: the file keeps it running, resumed later
        raise
    except Exception as exc:  # noqa: BLE001 - a failed review is shown as failed, and logged
        log.exception("review of game %s failed", s.id)
        data = {"status": "failed", "error": f"the review failed ({type(exc).__name__})"}
    running[0] = False  # no result kept after this: no late partial over the answer
    await asyncio.gather(*saving, return_exceptions=True)
    s.review = data
    await run_in_threadpool(st.store.db.put_review, s.id, data)


async def review_of(st: AppState, s: WebGame) -> dict[str, Any]:
    """The review's JSON (:func:`review_status`), after resuming a review that was running
    when the server stopped (it is marked running in the file but runs nowhere here)."""
    r = s.review
    if r is not None and r.get("status") == "running" and s.id not in st.reviews:
        start, moves = await locked(s, lambda: (s.start_point(), list(s.game.move_stack)))
        try:
            await start_review(st, s, start, moves, resumed=True)
        except Busy as exc:
            s.review = {"status": "busy", "error": str(exc), "retry_after": exc.retry_after}
    return review_status(s)


@guarded
async def review_post(request: Request) -> Response:
    """``POST /api/games/{id}/review``: start the review of a finished game (202), or the
    review when it runs or is done."""
    st = app_state(request)
    s = await game_of(request)
    if s.game.outcome() is None:
        raise Conflict("the review opens once the game is over")
    if s.review is not None and s.review["status"] in ("running", "done"):
        return JSONResponse(await review_of(st, s))
    start, moves = await locked(s, lambda: (s.start_point(), list(s.game.move_stack)))
    await start_review(st, s, start, moves)
    return JSONResponse(review_status(s), status_code=202)


@guarded
async def review_get(request: Request) -> Response:
    """``GET /api/games/{id}/review``: the review, or its progress."""
    s = await game_of(request)
    if s.game.outcome() is None:
        raise Conflict("the review opens once the game is over")
    return JSONResponse(await review_of(app_state(request), s))


def done_review(s: WebGame) -> dict[str, Any]:
    """The done review of ``s`` (:class:`Conflict` while there is none)."""
    r = s.review
    if s.game.outcome() is None or r is None or r.get("status") != "done":
        raise Conflict("no review of this game yet")
    return r


@guarded
async def review_position_get(request: Request) -> Response:
    """``GET /api/games/{id}/review/position/{k}``: the position after ``k`` moves of a
    reviewed game (:func:`web.review.review_position`), what a point of the chart opens."""
    s = await game_of(request)
    k = step_number(request)
    done_review(s)

    def show() -> dict[str, Any]:
        try:
            return review_position(s.start_point(), list(s.game.move_stack), k)
        except IndexError as exc:
            raise NotFound(str(exc)) from None

    return JSONResponse(await locked(s, show))


def _marked(s: WebGame, request: Request) -> tuple[int, dict[str, Any]]:
    k = step_number(request)
    try:
        return k, marked_move(done_review(s), k)
    except LookupError as exc:
        raise NotFound(str(exc)) from None


@guarded
async def learn_get(request: Request) -> Response:
    """``GET /api/games/{id}/review/learn/{k}``: marked move ``k`` as an exercise
    (:func:`web.review.learn_position`): its position as its player saw it."""
    s = await game_of(request)
    k, mark = _marked(s, request)

    def show() -> dict[str, Any]:
        return {**learn_position(s.start_point(), list(s.game.move_stack), k),
                "mark": mark["mark"], "sign": mark["sign"]}

    return JSONResponse(await locked(s, show))


@guarded
async def learn_post(request: Request) -> Response:
    """``POST /api/games/{id}/review/learn/{k}`` with a move (the JSON of the moves
    endpoint; ``player`` defaults to the mover of move ``k``): judged against the move
    played with the review's paired test (:func:`web.review.judge_answer`), in the solver
    pool; the answer names the review's move. 404 for a move that is not marked, 400 for
    a malformed move, 422 (with ruling and reason) for an illegal one."""
    st = app_state(request)
    s = await game_of(request)
    k, mark = _marked(s, request)
    body = await read_json(request)
    if not isinstance(body, dict):
        raise RecordError("a move is a JSON object")

    def parse() -> tuple[Any, list[Move], Move, Move]:
        moves = list(s.game.move_stack)
        start = s.start_point()
        answer = s.parse_move({**body, "player": body.get("player", moves[k - 1].player)})
        g = start.copy() if isinstance(start, Game) else Game(start)
        for m in moves[:k - 1]:
            g.push(m)
        g.check(answer)  # an illegal answer: 422 with its ruling, before any work
        return start, moves, answer, Move.from_json(mark["alternative"])

    start, moves, answer, alternative = await locked(s, parse)
    data = await st.pool.run(learn_job, start, moves, k, answer, alternative)
    return JSONResponse({**data, "mark": mark["mark"], "sign": mark["sign"]})


@guarded
async def review_line(request: Request) -> Response:
    """``GET /api/games/{id}/review/line/{k}``: step ``k`` of the review's winning line."""
    s = await game_of(request)
    k = step_number(request)
    r = s.review
    if s.game.outcome() is None or r is None or r.get("status") != "done":
        raise Conflict("no review of this game yet")
    if r.get("line_from") is None:
        raise NotFound("the review has no winning line")
    line = [Move.from_json(m["move"]) for m in r["winning_line"]]

    def step() -> dict:
        g = s.start_game()
        for m in s.game.move_stack[: r["line_from"]]:
            g.push(m)
        try:
            return line_step(g, line, k)
        except IndexError as exc:
            raise NotFound(str(exc)) from None

    return JSONResponse(await locked(s, step))


# ---- errors and the app -----------------------------------------------------------------------

async def not_found(request: Request, exc: Exception) -> Response:
    """An unknown path (404) or a wrong method (405), as JSON; an unknown path asked by a
    browser (``Accept: text/html``, outside ``/api``) as a small HTML page."""
    status_code = getattr(exc, "status_code", 404)
    detail = getattr(exc, "detail", "not found")
    if (status_code == 404 and not request.url.path.startswith("/api")
            and wants_html(request.headers.get("accept"))):
        return HTMLResponse(error_page(404, "No such page", f"There is nothing at "
                                       f"{request.url.path[:80]} on this server."), 404)
    return error(status_code, f"{request.method} {request.url.path}: {detail}")


async def server_error(request: Request, exc: Exception) -> Response:
    """An unexpected failure: a JSON 500 without a traceback (the log has it)."""
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return error(500, f"internal error ({type(exc).__name__}); the server log has the details")


#: The routes: each a small endpoint of this module over the shared :class:`AppState`.
ROUTES = [
    Route("/", index),
    Route("/g/{id}", game_page),
    Route("/favicon.ico", favicon),
    Route("/favicon.svg", favicon),
    Route("/api", api),
    Route("/api/status", status),
    Route("/api/rules", rules_text),
    Route("/api/daily/{date}", daily_get),
    Route("/api/games", games_new, methods=["POST"]),
    Route("/api/games/{id}", game_get),
    Route("/api/games/{id}/check", game_check, methods=["POST"]),
    Route("/api/games/{id}/explain", game_explain),
    Route("/api/games/{id}/moves", game_move, methods=["POST"]),
    Route("/api/games/{id}/advance", game_advance, methods=["POST"]),
    Route("/api/games/{id}/undo", game_undo, methods=["POST"]),
    Route("/api/games/{id}/hint", game_hint),
    Route("/api/games/{id}/solution/{k}", game_solution),
    Route("/api/games/{id}/review", review_get, methods=["GET"]),
    Route("/api/games/{id}/review", review_post, methods=["POST"]),
    Route("/api/games/{id}/review/line/{k}", review_line),
    Route("/api/games/{id}/review/position/{k}", review_position_get),
    Route("/api/games/{id}/review/learn/{k}", learn_get, methods=["GET"]),
    Route("/api/games/{id}/review/learn/{k}", learn_post, methods=["POST"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


def create_app(archive: str | Path | None = None,
               solver: Callable | None = None, max_games: int = 500,
               data: str | Path | None = None, workers: int = 2, queue: int = 4,
               processes: bool = False, review_seconds: float = REVIEW_SECONDS,
               bot_workers: int = 2, keep_games: str | Path | None = None) -> Starlette:
    """The Starlette app: :data:`ROUTES` over one :class:`AppState`. ``archive``: a folder
    written by ``ascent daily build`` to serve puzzles from (else they come from the
    published archive :data:`puzzles.archive.PUBLISHED` when it holds the date, and are made
    on demand by :mod:`puzzles.daily` otherwise); ``solver``: the hint/solution solver
    ``(game, seconds) -> moves | None`` (default :func:`web.games.default_solver`); ``data``:
    the folder of the games' SQLite file (:mod:`web.store`; ``None``: in memory);
    ``workers``/``queue``: the bounds of the solver pool (:class:`web.pool.JobPool`),
    ``processes``: its jobs in worker processes (else threads; a ``solver`` given here
    always runs in threads); ``review_seconds``: the analysis time per position of a
    review; ``bot_workers``: the bots' own pool (:mod:`web.teammates`; its queue holds at
    most one move per game kept); ``keep_games``: an SQLite file where finished silent
    games are kept (:mod:`web.kept`; raises :class:`web.kept.KeptGamesError`)."""
    db = GameDB(Path(data) / DB_NAME if data is not None else None, max_games)
    st = AppState(db=db, store=GameStore(max_games, db),
                  pool=JobPool(workers, queue, processes=processes and solver is None),
                  solve=solver or default_solver,
                  teammates=TeamMates(JobPool(bot_workers, max(1, max_games), processes=processes)),
                  archive_dir=Path(archive) if archive is not None else None,
                  review_seconds=review_seconds)
    if keep_games is not None:
        from web.kept import KeptGames

        st.kept = KeptGames(keep_games)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            for t in list(st.reviews.values()):
                t.cancel()
            st.teammates.close()
            st.pool.close()
            st.db.close()
            if st.kept is not None:
                st.kept.close()

    app = Starlette(routes=ROUTES, lifespan=lifespan, middleware=[Middleware(NoStore)],
                    exception_handlers={HTTPException: not_found, Exception: server_error})
    app.state.ascent = st
    app.state.store = st.store
    app.state.pool = st.pool
    return app
