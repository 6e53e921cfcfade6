"""``ascent serve``: the play page and its JSON API on uvicorn."""

from __future__ import annotations

import os
import socket

import click

from cli.common import CliError
from cli.options import PORT


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (127.0.0.1: this machine only).")
@click.option("--port", type=PORT, default=8000, show_default=True,
              help="Port to listen on (0: any free port, printed at start).")
@click.option("--archive", "archive", default=None, metavar="DIR",
              help="Serve the daily puzzles frozen in DIR (written by 'ascent daily build') "
                   "instead of making them on demand. [default: the published archive, "
                   "puzzles/archive/, for its dates; others are made on demand]")
@click.option("--data", "data", default=None, metavar="DIR",
              help="Keep the games and reviews in DIR/games.sqlite3, so that they survive a "
                   "restart. [default: the per-user data folder, ~/.local/share/ascent; "
                   "with --check a temporary folder]")
@click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Solver jobs (hints, reviews, slow bots, puzzles made on demand) run at "
                   "once, each in a worker process.")
@click.option("--queue", type=click.IntRange(0, 1000), default=4, show_default=True,
              help="Solver jobs that may wait for a worker; beyond that the API answers 503 "
                   "with Retry-After.")
@click.option("--bots", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Worker processes for the bots' moves of silent games (made in the "
                   "background as soon as a bot's turn comes, apart from the solver jobs).")
@click.option("--keep-games", "keep_games", default=None, metavar="FILE",
              help="Keep every finished silent game (deal, every seat's moves, outcome) in the "
                   "local SQLite file FILE, for studies of how people play (web/kept.py "
                   "documents the format). Off by default.")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              default="info", show_default=True, help="uvicorn's log level.")
@click.option("--check", is_flag=True,
              help="Start the server, fetch the page, its script and style, /api and a new "
                   "game once over HTTP, print what answered, and stop (a smoke test).")
def serve(host: str, port: int, archive: str | None, data: str | None, jobs: int, queue: int,
          bots: int, keep_games: str | None, log_level: str, check: bool) -> None:
    """Serve the page to play today's daily puzzle (UTC), any date of the archive, or any
    deal, in a browser: http://HOST:PORT/ (add ?date=YYYY-MM-DD, or ?seed=N&rules=preset=tiny),
    or the real game with hidden cards and bot team-mates: ?mode=silent&players=3 (today's
    daily challenge) or ?seed=N&players=P&seat=K&mode=silent.

    Every move is checked by the rules engine on the server; the JSON API is listed at
    /api and in docs/web.md. Games are kept in SQLite under --data and reopen from their
    link /g/ID after a restart. Stop with Ctrl-C (or SIGTERM): the server shuts down and
    exits 0.

    \b
    Examples:
      ascent serve --port 0 --check
    Then, to play: ascent serve, and open http://127.0.0.1:8000/?seed=1
    """
    if archive is not None and not os.path.isdir(archive):
        raise CliError(f"--archive {archive}: no such folder")
    import tempfile

    from web.store import default_data_dir

    if data is not None and os.path.exists(data) and not os.path.isdir(data):
        raise CliError(f"--data {data}: not a folder")
    scratch = tempfile.TemporaryDirectory(prefix="ascent-serve-") if check and data is None else None
    folder = scratch.name if scratch is not None else (data or str(default_data_dir()))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise CliError(f"--data {folder}: cannot create the folder ({exc.strerror or exc})") from None
    sock = _bind(host, port)
    import sqlite3

    import uvicorn

    from web.app import create_app
    from web.kept import KeptGamesError

    try:
        app = create_app(archive=archive, data=folder, workers=jobs, queue=queue, processes=True,
                         bot_workers=bots, keep_games=keep_games)
    except KeptGamesError as exc:
        sock.close()
        raise CliError(f"--keep-games {exc}") from None
    except sqlite3.Error as exc:
        sock.close()
        raise CliError(f"--data {folder}: cannot open the games' database ({exc})") from None
    actual = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{actual}"
    # --check answers on standard output and stops: uvicorn keeps its hands off logging
    # (its handlers would hold a stream that is gone once the check returns)
    config = (uvicorn.Config(app, log_config=None, log_level="warning") if check
              else uvicorn.Config(app, log_level=log_level))
    server = uvicorn.Server(config)
    if check:
        try:
            _check(server, sock, url)
        finally:
            if scratch is not None:
                scratch.cleanup()
        return
    click.echo(f"ascent: serving on {url}/ (Ctrl-C stops); games kept in {folder}", err=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM once uvicorn had taken the signals over: it shut down cleanly,
        # then raised the signal again as it returned. Stopping is the normal end of a
        # server: exit 0, as uvicorn does. A signal before that (start-up) is an interrupt.
        if not server.should_exit:
            raise
    except OSError as exc:
        raise CliError(f"cannot serve on {host}:{actual} ({exc.strerror or exc})") from None
    except SystemExit:  # uvicorn's own exit on a failed start (it has logged why)
        raise CliError(f"cannot serve on {host}:{actual}") from None
    click.echo("ascent: the server stopped", err=True)


def _bind(host: str, port: int) -> socket.socket:
    """A listening-ready socket bound to ``host``/``port``; a port in use or a host that is
    not an address of this machine is a one-line :class:`CliError`."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise CliError(f"--host {host}: not an address of this machine ({exc})") from None
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as exc:
        sock.close()
        raise CliError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    return sock


def _check(server, sock: socket.socket, url: str) -> None:
    """Run ``server`` in a thread, fetch the page's files and start a game over HTTP, stop
    it; one line per answer. :class:`CliError` if anything fails."""
    import json
    import threading
    import time
    import urllib.request

    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise CliError(f"the server did not start on {url}")
            time.sleep(0.05)
        requests = [("GET", "/", None), ("GET", "/static/play.js", None),
                    ("GET", "/static/play.css", None), ("GET", "/api", None),
                    ("POST", "/api/games", {"seed": 1, "rules": {"preset": "tiny"}})]
        for method, path, body in requests:
            data = json.dumps(body).encode() if body is not None else None
            req = urllib.request.Request(url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    size = len(r.read())
                    click.echo(f"{method} {path}: {r.status}, {size} bytes")
            except OSError as exc:
                raise CliError(f"{method} {url}{path} failed: {exc}") from None
        click.echo(f"ascent: the server answered on {url}/; stopped")
    finally:
        server.should_exit = True
        thread.join(timeout=10)  # the server is down before the check returns
