"""The ASGI app (Starlette): the play page and its JSON API.

``create_app(archive=None)`` returns the app; ``ascent serve`` runs it on uvicorn. The API
(documented in ``docs/web.md`` and at ``GET /api``):

==========================================  ===============================================
``GET  /api``                               this list, as JSON
``GET  /api/daily/{date}``                  the daily puzzle of ``date`` (``YYYY-MM-DD`` or
                                            ``today``, UTC); ``?kind=deal|position``
                                            ``&size=full|mini``; without its solution
``POST /api/games``                         start a game: ``{"daily": DATE, "kind", "size"}``,
                                            ``{"seed": N, "players": P, "rules": {...}}`` or
                                            ``{"puzzle": RECORD}`` (a puzzle record)
``GET  /api/games/{id}``                    the game's state (mountain SVG, hands, targets)
``POST /api/games/{id}/check``              would ``{"card","row","slot"[,"to_row","to_slot"]}``
                                            be legal, and what does it cost
``POST /api/games/{id}/moves``              make a move (record shape; ``player`` and
                                            ``kind`` may be left out)
``POST /api/games/{id}/undo``               take back the last move
``GET  /api/games/{id}/hint``               the next move (solution, solver or key move)
``GET  /api/games/{id}/solution/{k}``       step ``k`` of the solution, with its picture
==========================================  ===============================================

Errors are JSON ``{"error": "...", "status": N}`` (plus ``ruling`` and ``reason`` for an
illegal move): 400 malformed request, 404 unknown game/date/path, 405 wrong method, 409 the
game refuses (nothing to undo, game over, no hint), 413 body too large, 422 an illegal move
or impossible input. An unexpected failure is a JSON 500 without a traceback.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from model.errors import AscentError, IllegalMoveError, RecordError
from web.games import (
    Conflict,
    GameStore,
    NotFound,
    default_solver,
    game_from_seed,
    puzzle_from_record,
    reveal_step,
)

STATIC = Path(__file__).with_name("static")
MAX_BODY = 64 * 1024
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
              '{"puzzle": {a puzzle record of ascent daily --json}}']},
    {"method": "GET", "path": "/api/games/{id}", "does": "the game's state"},
    {"method": "POST", "path": "/api/games/{id}/check",
     "does": "legality and cost of a placement",
     "body": ['{"card": "7r", "row": 1, "slot": 3}',
              '{"card": "Cr", "row": 1, "slot": 2, "to_row": 3, "to_slot": 1}']},
    {"method": "POST", "path": "/api/games/{id}/moves",
     "does": "make a move (checked by the rules engine)",
     "body": ['{"card": "7r", "row": 1, "slot": 3, "discard": ["2g"]}',
              '{"kind": "discard", "discard": ["3r", "S"]}']},
    {"method": "POST", "path": "/api/games/{id}/undo", "does": "take back the last move"},
    {"method": "GET", "path": "/api/games/{id}/hint", "does": "the next move"},
    {"method": "GET", "path": "/api/games/{id}/solution/{k}",
     "does": "step k of the solution (0 = start), with its picture"},
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
        raise RecordError(f"malformed JSON: {str(exc).splitlines()[0][:120]}") from None


def parse_date(text: str) -> dt.date:
    """``today`` (UTC) or an ISO date; :class:`RecordError` otherwise."""
    if text == "today":
        return dt.datetime.now(dt.UTC).date()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise RecordError(f"date must be YYYY-MM-DD or today, not {text[:40]!r}") from None


def create_app(archive: str | Path | None = None,
               solver: Callable | None = None, max_games: int = 500) -> Starlette:
    """The Starlette app. ``archive``: a folder written by ``ascent daily build`` to serve
    puzzles from (else they come from the published archive :data:`puzzles.archive.PUBLISHED`
    when it holds the date, and are made on demand by :mod:`puzzles.daily` otherwise); ``solver``: the
    hint/solution solver ``(game, seconds) -> moves | None`` (default
    :func:`web.games.default_solver`)."""
    store = GameStore(max_games)
    solve = solver or default_solver
    archive_dir = Path(archive) if archive is not None else None

    cache: dict[tuple[str, str, str], dict] = {}
    cache_locks: dict[tuple[str, str, str], threading.Lock] = {}
    cache_guard = threading.Lock()

    def puzzle_record(date: dt.date, kind: str, size: str) -> dict:
        """The puzzle record of date/kind/size: from the archive when one is served, else
        made by :func:`puzzles.daily.puzzle_for` (seconds to minutes) and kept in memory;
        one request makes it while the others for the same puzzle wait."""
        if kind not in ("deal", "position"):
            raise RecordError(f"kind must be deal or position, not {kind[:20]!r}")
        if size not in ("full", "mini"):
            raise RecordError(f"size must be full or mini, not {size[:20]!r}")
        from puzzles import archive as arch
        from puzzles import daily
        from puzzles.check import find
        from puzzles.dates import DateError, check_date

        try:
            check_date(date)
        except DateError as exc:
            raise NotFound(str(exc)) from None
        if archive_dir is not None:
            try:
                rec = find(archive_dir, date, kind, size)
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
        key = (date.isoformat(), kind, size)
        with cache_guard:
            lock = cache_locks.setdefault(key, threading.Lock())
        with lock:
            if key not in cache:
                try:
                    cache[key] = daily.puzzle_for(date, kind, size)
                except daily.GenerationError as exc:
                    raise NotFound(str(exc)) from None
            return cache[key]

    def guarded(handler: Callable[..., Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except NotFound as exc:
                return error(404, str(exc))
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
        run.__name__ = handler.__name__
        return run

    async def locked(s, work: Callable[[], Any]) -> Any:
        """Run ``work`` under the game's lock in a worker thread, so that a long hint of one
        game never stalls the server's event loop (other games, other requests)."""

        def run() -> Any:
            with s.lock:
                return work()

        return await run_in_threadpool(run)

    def session(request: Request):
        return store.get(request.path_params["id"])

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def api(request: Request) -> Response:
        return JSONResponse({"endpoints": API})

    async def daily_get(request: Request) -> Response:
        date = parse_date(request.path_params["date"])
        q = request.query_params
        rec = await run_in_threadpool(puzzle_record, date, q.get("kind", "deal"),
                                      q.get("size", "mini"))
        public = {k: v for k, v in rec.items() if k not in ("solution", "key_moves")}
        return JSONResponse(public)

    async def games_new(request: Request) -> Response:
        body = await read_json(request)
        if not isinstance(body, dict):
            raise RecordError("the body is a JSON object: {\"seed\": N} or {\"daily\": DATE}")
        if "daily" in body:
            if not isinstance(body["daily"], str):
                raise RecordError("daily is a date YYYY-MM-DD or today")
            date = parse_date(body["daily"])
            rec = await run_in_threadpool(puzzle_record, date, str(body.get("kind", "deal")),
                                          str(body.get("size", "mini")))
            game, title, pz = puzzle_from_record(rec)
            s = store.add(game, title, pz)
        elif "puzzle" in body:
            game, title, pz = puzzle_from_record(body["puzzle"])
            s = store.add(game, title, pz)
        elif "seed" in body:
            game, title = game_from_seed(body["seed"], body.get("players", 1), body.get("rules"))
            s = store.add(game, title)
        else:
            raise RecordError("start a game with {\"seed\": N, ...}, {\"daily\": DATE, ...} "
                              "or {\"puzzle\": RECORD}")
        return JSONResponse(await locked(s, s.state), status_code=201)

    async def game_get(request: Request) -> Response:
        s = session(request)
        return JSONResponse(await locked(s, s.state))

    async def game_check(request: Request) -> Response:
        s = session(request)
        body = await read_json(request)
        return JSONResponse(await locked(s, lambda: s.check(body)))

    async def game_move(request: Request) -> Response:
        s = session(request)
        body = await read_json(request)

        def work() -> dict:
            s.play(body)
            return s.state()

        return JSONResponse(await locked(s, work))

    async def game_undo(request: Request) -> Response:
        s = session(request)

        def work() -> dict:
            s.undo()
            return s.state()

        return JSONResponse(await locked(s, work))

    async def game_hint(request: Request) -> Response:
        s = session(request)
        return JSONResponse(await locked(s, lambda: s.hint(solve)))

    async def game_solution(request: Request) -> Response:
        s = session(request)
        raw = request.path_params["k"]
        if not raw.isdigit() or len(raw) > 6:
            raise RecordError(f"step must be a whole number ≥ 0, not {raw[:20]!r}")

        return JSONResponse(await locked(s, lambda: reveal_step(s, int(raw), solve)))

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        detail = getattr(exc, "detail", "not found")
        return error(status, f"{request.method} {request.url.path}: {detail}")

    async def server_error(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error(500, f"internal error ({type(exc).__name__}); the server log has the details")

    routes = [
        Route("/", index),
        Route("/api", api),
        Route("/api/daily/{date}", guarded(daily_get)),
        Route("/api/games", guarded(games_new), methods=["POST"]),
        Route("/api/games/{id}", guarded(game_get)),
        Route("/api/games/{id}/check", guarded(game_check), methods=["POST"]),
        Route("/api/games/{id}/moves", guarded(game_move), methods=["POST"]),
        Route("/api/games/{id}/undo", guarded(game_undo), methods=["POST"]),
        Route("/api/games/{id}/hint", guarded(game_hint)),
        Route("/api/games/{id}/solution/{k}", guarded(game_solution)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found,
                                                        Exception: server_error})
    app.state.store = store
    return app
