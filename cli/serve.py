"""``ascent serve``: the play page and its JSON API on uvicorn."""

from __future__ import annotations

import os

import click

from cli.common import CliError


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (127.0.0.1: this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port, printed at start).")
@click.option("--archive", "archive", default=None, metavar="DIR",
              help="Serve the daily puzzles frozen in DIR (written by 'ascent daily build') "
                   "instead of making them on demand.")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              default="info", show_default=True, help="uvicorn's log level.")
def serve(host: str, port: int, archive: str | None, log_level: str) -> None:
    """Serve the page to play today's daily puzzle (UTC), any date of the archive, or any
    deal, in a browser: http://HOST:PORT/ (add ?date=YYYY-MM-DD, or ?seed=N&rules=preset=tiny).

    Every move is checked by the rules engine on the server; the JSON API is listed at
    /api and in docs/web.md. Stop with Ctrl-C.

    \b
    Examples:
      ascent serve
      ascent serve --port 8080 --archive puzzles-archive
    """
    if archive is not None and not os.path.isdir(archive):
        raise CliError(f"--archive {archive}: no such folder")
    _check_can_listen(host, port)
    import uvicorn

    from web.app import create_app

    app = create_app(archive=archive)
    click.echo(f"ascent: serving on http://{host}:{port}/ (Ctrl-C stops)", err=True)
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level)
    server = uvicorn.Server(config)
    try:
        server.run()
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    except SystemExit:  # uvicorn's own exit on a failed start (it has logged why)
        raise CliError(f"cannot listen on {host}:{port}") from None


def _check_can_listen(host: str, port: int) -> None:
    """Refuse a host or port that cannot be bound (in use, not an address of this machine)
    with one line, before uvicorn starts."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise CliError(f"--host {host}: not an address of this machine ({exc})") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as exc:
            raise CliError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
