"""Web page benchmark: time to first render, per-move round trip, and the page's size.

Run ``python -m benchmarks.web`` (``--help`` for the options). It starts ``ascent serve`` on
a free port of 127.0.0.1 and measures, on this machine:

* **first render**: Debian's Chromium (through Playwright, a fresh browser context each time,
  so nothing is cached) opens the page for a standard-rules deal; the time from navigation
  start until the page has drawn the mountain (``window.ascentFirstRender``, set by
  ``play.js`` after the first state is drawn), median of ``--loads`` loads;
* **per-move round trip**: ``--moves`` moves (default 100) sent as ``POST
  /api/games/{id}/moves`` over HTTP, each answered with the whole new state (mountain SVG,
  hands, targets); random legal moves of standard-rules deals (placements preferred), a new
  game when one ends; median, 95th percentile and mean;
* **state CPU**: CPU milliseconds of this process to build one game state in-process (the
  server's own share of a round trip, whatever else loads the machine);
* **page size**: the bytes of everything the first load fetched (HTML, script, style sheet,
  the first game state), uncompressed as served.

Outputs ``web.md`` (table with date, machine, command) and ``web.jsonl`` (one row per
measurement) in ``--out`` (default: a new folder ``benchmarks/out/web-<date>``; committed
results are written only when ``--out`` names their folder).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from model.deal import Deal
from model.game import Game

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server() -> tuple[subprocess.Popen, str]:
    """``ascent serve`` on a free port; returns the process and its URL once it answers."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--port", str(port),
                             "--log-level", "warning"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api", timeout=2):
                return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("ascent serve did not start") from None
            time.sleep(0.2)


def post(url: str, body: dict) -> tuple[float, dict, int]:
    """POST JSON; returns (seconds, answer, bytes of the answer)."""
    data = json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    t0 = time.perf_counter()
    with urllib.request.urlopen(req, timeout=60) as r:
        raw = r.read()
    return time.perf_counter() - t0, json.loads(raw), len(raw)


def first_render(url: str, loads: int, seed: int) -> tuple[list[float], dict[str, int]]:
    """Milliseconds to first render for ``loads`` fresh loads; bytes per resource of the
    first load."""
    from playwright.sync_api import sync_playwright

    times: list[float] = []
    sizes: dict[str, int] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for i in range(loads):
            ctx = browser.new_context(viewport={"width": 1200, "height": 900})
            page = ctx.new_page()
            responses = []
            if i == 0:
                page.on("response", lambda r, out=responses: out.append(r))
            page.goto(f"{url}/?seed={seed}")
            page.wait_for_selector("body[data-ready='1']")
            times.append(float(page.evaluate("window.ascentFirstRender")))
            for r in responses:
                path = r.url.replace(url, "") or "/"
                try:
                    sizes[f"{r.request.method} {path}"] = len(r.body())
                except Exception:  # noqa: BLE001 - a response without a body
                    pass
            ctx.close()
        browser.close()
    return times, sizes


def move_round_trips(url: str, moves: int, seed0: int) -> tuple[list[float], list[int]]:
    """Seconds and answer bytes of ``moves`` POSTed moves (random legal moves)."""
    times, sizes = [], []
    rng = random.Random(seed0)
    seed = seed0
    game = gid = None
    while len(times) < moves:
        if game is None or game.is_over():
            seed += 1
            _, state, _ = post(f"{url}/api/games", {"seed": seed})
            gid, game = state["id"], Game(Deal.from_seed(seed))
        legal = game.legal_moves()
        places = [m for m in legal if m.kind != "discard"]
        move = rng.choice(places or legal)
        dt, state, n = post(f"{url}/api/games/{gid}/moves", move.to_json())
        game.push(move)
        assert state["turn"] == game.turn, "the server and the engine disagree"
        times.append(dt)
        sizes.append(n)
    return times, sizes


def state_cpu_ms(samples: int = 20, seed: int = 1, moves: int = 30) -> float:
    """CPU milliseconds (this process) to build one game state, in-process: a standard deal
    after ``moves`` random moves; the median of ``samples``. The server's own cost of an
    answer, whatever else runs on the machine."""
    from web.games import GameStore

    game = Game(Deal.from_seed(seed))
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        places = [m for m in legal if m.kind != "discard"]
        game.push(rng.choice(places or legal))
    session = GameStore().add(game, "benchmark")
    times = []
    for _ in range(samples):
        t0 = time.process_time()
        session.state()
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times)


def machine() -> dict[str, str]:
    from benchmarks.solve import machine as m

    return m()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.web", description=__doc__.split("\n\n")[0])
    ap.add_argument("--loads", type=int, default=10, help="page loads for first render (default 10)")
    ap.add_argument("--moves", type=int, default=100, help="moves for the round trip (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="deal of the page loads (default 1)")
    ap.add_argument("--out", default=None, help="folder for web.md and web.jsonl "
                    "(default: a new folder under benchmarks/out/)")
    ap.add_argument("--note", default="", help="a line added to the Markdown header")
    args = ap.parse_args(argv)
    now = _dt.datetime.now(_dt.UTC)
    out = Path(args.out) if args.out else ROOT / "benchmarks" / "out" / f"web-{now:%Y%m%d-%H%M%S}"
    out.mkdir(parents=True, exist_ok=True)
    proc, url = start_server()
    try:
        renders, res_sizes = first_render(url, args.loads, args.seed)
        trips, answer_sizes = move_round_trips(url, args.moves, args.seed)
        cpu = state_cpu_ms()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    ms = [t * 1000 for t in trips]
    q = statistics.quantiles(ms, n=20) if len(ms) >= 2 else ms
    rows = [
        {"what": "first_render_ms", "median": statistics.median(renders), "min": min(renders),
         "max": max(renders), "n": len(renders)},
        {"what": "move_round_trip_ms", "median": statistics.median(ms), "p95": q[-1],
         "mean": statistics.fmean(ms), "n": len(ms),
         "answer_bytes_median": statistics.median(answer_sizes)},
        {"what": "state_cpu_ms", "median": cpu, "n": 20},
        {"what": "page_bytes", "total": sum(res_sizes.values()), "resources": res_sizes},
    ]
    m = machine()
    with open(out / "web.jsonl", "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps({**r, "date": f"{now:%Y-%m-%d %H:%M} UTC", "machine": m}) + "\n")
    lines = [
        "# Web page benchmark",
        "",
        f"- date: {now:%Y-%m-%d %H:%M} UTC",
        f"- machine: {m['arch']}, {m['cpu']}, {m['cores']} cores, {m['ram']} RAM, Python {m['python']}",
        f"- command: `python -m benchmarks.web {' '.join(argv if argv is not None else sys.argv[1:])}`".rstrip(),
        "- server: `ascent serve` (uvicorn, one process) on 127.0.0.1; browser: Debian's "
        "Chromium (headless) through Playwright",
    ]
    if args.note:
        lines.append(f"- {args.note}")
    lines += [
        "",
        "| measure | median | other | n |",
        "|---|---:|---|---:|",
        f"| time to first render (navigation start → mountain drawn), standard deal {args.seed} "
        f"| {statistics.median(renders):.0f} ms | min {min(renders):.0f} ms, max {max(renders):.0f} ms "
        f"| {len(renders)} |",
        f"| per-move round trip (POST move → whole new state), standard deals "
        f"| {statistics.median(ms):.1f} ms | p95 {q[-1]:.1f} ms, mean {statistics.fmean(ms):.1f} ms, "
        f"answer {statistics.median(answer_sizes) / 1024:.1f} KiB | {len(ms)} |",
        f"| CPU to build one game state in-process (standard deal after 30 moves; the "
        f"server's own share of a round trip) | {cpu:.1f} ms | | 20 |",
        f"| page size (everything the first load fetched, uncompressed) "
        f"| {sum(res_sizes.values()) / 1024:.1f} KiB | "
        + ", ".join(f"{k} {v / 1024:.1f} KiB" for k, v in sorted(res_sizes.items())) + " | 1 |",
        "",
    ]
    (out / "web.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    print(f"written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
