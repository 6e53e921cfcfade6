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

With ``--load`` it runs the **load test** instead: ``--clients`` (default 50) clients at once,
threads of this process, against one ``ascent serve --jobs J --queue Q``; each makes
``--rounds`` moves of its own with a think time of 0.3–1.5 s before each, and asks a hint
every ``--hint-every`` moves (even clients: open standard deals, whose hints are solver jobs of
up to 8 s in the pool; odd ones: the silent game with 3 players and the page's default
team-mates, the bot the server picks when none is asked for (``best`` today; ``--bot NAME``
to choose), each bot move an ``/advance`` after the page's pause of ``--bot-pause`` s, asked
again after ``Retry-After`` on a 503). A sampler reads ``/api/status`` every 0.1 s; a move
counts as made "while the pool was full" when the last sample before it had every solver
worker busy. It reports the answers by status (a 503 is the pool's designed refusal, or a
bot still thinking; any other 5xx an error), the moves' round trips (all, the silent games'
alone, and while the pool was full: median, p99), the hints answered and refused, and the
bots' own latency beside them (from the server's ``/api/status``: the bot's wall and CPU
time per move in its worker, and the time from the bot's turn to its move ready).
Bounded: ``--seconds`` (default 120) stops the clients; 127.0.0.1 only. Outputs
``web-load.md`` and ``web-load.jsonl``.

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
import threading
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


def start_server(extra: list[str] | None = None) -> tuple[subprocess.Popen, str]:
    """``ascent serve`` on a free port (``extra``: more options); returns the process and its
    URL once it answers."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--port", str(port),
                             "--log-level", "warning", *(extra or [])], cwd=ROOT,
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


# ---- the load test -----------------------------------------------------------------------

def request(url: str, method: str = "GET", body: dict | None = None,
            timeout: float = 60) -> tuple[float, int, dict]:
    """One request; returns (seconds, status, answer JSON) — an HTTP error status too."""
    import urllib.error

    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw, code = r.read(), r.status
    except urllib.error.HTTPError as exc:
        raw, code = exc.read(), exc.code
    dt = time.perf_counter() - t0
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = {}
    return dt, code, answer


def pick_move(state: dict, rng: random.Random) -> dict:
    """A legal move from a state's ``targets`` (placements preferred; a placement's cost paid
    with the first other cards of the hand), else a discard of two cards."""
    hand = state["hands"][state["to_move"] - 1]
    options = [(card, t) for card, ts in state["targets"].items() for t in ts]
    if options:
        card, t = rng.choice(options)
        rest = list(hand)
        rest.remove(card)
        move = {"card": card, "row": t["row"], "slot": t["slot"], "discard": rest[: t["cost"]]}
        if t["to_row"]:
            move["to_row"], move["to_slot"] = t["to_row"], t["to_slot"]
        return move
    return {"kind": "discard", "discard": hand[:2]}


class LoadLog:
    """What the clients saw: (kind, start time, seconds, status) per request; the pool's
    samples (time, running, waiting)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float, float, int]] = []
        self.samples: list[tuple[float, int, int]] = []
        self.bots: set[str] = set()
        self.lock = threading.Lock()

    def add(self, kind: str, t0: float, dt: float, code: int) -> None:
        with self.lock:
            self.rows.append((kind, t0, dt, code))


def load_client(url: str, i: int, log: LoadLog, stop: float, rounds: int, hint_every: int,
                think: tuple[float, float], bot: str | None = None, bot_pause: float = 0.9) -> None:
    """One client: ``rounds`` of its own moves (with a think time between them), a hint
    every ``hint_every`` moves; even clients play open standard deals (hints by the solver,
    in the pool), odd ones the silent game with 3 players and the team-mates ``bot`` (``None``:
    the server's default, as the page asks), each bot move asked with ``/advance`` after
    ``bot_pause`` seconds as the page does (again after ``Retry-After`` on a 503). A game
    that ends is followed by a new one."""
    rng = random.Random(1000 + i)
    silent = i % 2 == 1
    done = 0
    state: dict = {}
    while done < rounds and time.monotonic() < stop:
        if not state or state.get("outcome"):
            body: dict = ({"seed": 500 + i * 7 + done, "players": 3, "seat": 1, "mode": "silent"}
                          if silent else {"seed": 500 + i * 7 + done})
            if silent and bot:
                body["bot"] = bot
            t0 = time.monotonic()
            dt, code, state = request(f"{url}/api/games", "POST", body)
            log.add("new game", t0, dt, code)
            if code != 201:
                return
            if silent:
                with log.lock:
                    log.bots.add(state.get("bot", "?"))
        gid = state["id"]
        if silent and state["bots_turn"]:
            time.sleep(bot_pause)  # the page's pause between two bot moves
            t0 = time.monotonic()
            dt, code, new = request(f"{url}/api/games/{gid}/advance", "POST")
            log.add("bot move", t0, dt, code)
            if code == 200:
                state = new
            elif code == 503:
                time.sleep(float(new.get("retry_after", 1)))
            elif code == 409:  # the game moved on: draw what is there
                _, code, new = request(f"{url}/api/games/{gid}")
                if code == 200:
                    state = new
            continue
        time.sleep(rng.uniform(*think))  # a person thinks
        if done % hint_every == hint_every - 1:
            t0 = time.monotonic()
            dt, code, _ = request(f"{url}/api/games/{gid}/hint")
            log.add("hint", t0, dt, code)
        t0 = time.monotonic()
        dt, code, new = request(f"{url}/api/games/{gid}/moves", "POST", pick_move(state, rng))
        log.add("silent move" if silent else "move", t0, dt, code)
        if code == 200:
            state = new
        done += 1


def pool_sampler(url: str, log: LoadLog, stop: threading.Event, every: float = 0.1) -> None:
    while not stop.is_set():
        _, code, st = request(f"{url}/api/status", timeout=10)
        if code == 200:
            with log.lock:
                log.samples.append((time.monotonic(), st["pool"]["running"], st["pool"]["waiting"]))
        stop.wait(every)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``; 0 elsewhere)."""
    import os

    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` (nearest rank)."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * len(s) + 0.5)) - 1))]


def run_load(clients: int, rounds: int, seconds: float, hint_every: int, jobs: int,
             queue: int, think: tuple[float, float], bots: int = 2, bot: str | None = None,
             bot_pause: float = 0.9) -> dict:
    """The load test: ``clients`` at once against one ``ascent serve --jobs J --queue Q
    --bots B`` on 127.0.0.1, each ``rounds`` moves within ``seconds``; returns the figures."""
    import tempfile

    load_before = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    with tempfile.TemporaryDirectory(prefix="ascent-load-") as data:
        proc, url = start_server(["--data", data, "--jobs", str(jobs), "--queue", str(queue),
                                  "--bots", str(bots)])
        log = LoadLog()
        stop_sampling = threading.Event()
        sampler = threading.Thread(target=pool_sampler, args=(url, log, stop_sampling), daemon=True)
        try:
            sampler.start()
            cpu0 = cpu_seconds(proc.pid)
            t_start = time.monotonic()
            stop = t_start + seconds
            threads = [threading.Thread(target=load_client, daemon=True,
                                        args=(url, i, log, stop, rounds, hint_every, think, bot,
                                              bot_pause))
                       for i in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=seconds + 120)
            wall = time.monotonic() - t_start
            server_cpu = cpu_seconds(proc.pid) - cpu0
            _, _, final = request(f"{url}/api/status", timeout=30)
            stop_sampling.set()
            sampler.join(timeout=15)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    full_times = [(t, running >= jobs) for t, running, _ in log.samples]

    def pool_full_at(t0: float) -> bool:
        last = None
        for t, full in full_times:
            if t > t0:
                break
            last = full
        return bool(last)

    by_kind: dict[str, list[tuple[float, float, int]]] = {}
    for kind, t0, dt, code in log.rows:
        by_kind.setdefault(kind, []).append((t0, dt, code))
    codes: dict[str, dict[str, int]] = {}
    for kind, rows in by_kind.items():
        c: dict[str, int] = {}
        for _, _, code in rows:
            c[str(code)] = c.get(str(code), 0) + 1
        codes[kind] = c
    person = by_kind.get("move", []) + by_kind.get("silent move", [])
    moves = [dt * 1000 for _, dt, code in person if code == 200]
    silent_moves = [dt * 1000 for _, dt, code in by_kind.get("silent move", []) if code == 200]
    moves_full = [dt * 1000 for t0, dt, code in person if code == 200 and pool_full_at(t0)]
    advances = [dt * 1000 for _, dt, code in by_kind.get("bot move", []) if code == 200]
    mates = final.get("teammates", {})
    hints_ok = [dt * 1000 for _, dt, code in by_kind.get("hint", []) if code in (200, 409)]
    busy = [dt * 1000 for _, dt, code in by_kind.get("hint", []) if code == 503]
    errors = sum(1 for _, _, _, code in log.rows if code >= 500 and code != 503)
    full_share = (sum(1 for _, full in full_times if full) / len(full_times)) if full_times else 0.0
    return {
        "what": "load", "clients": clients, "rounds": rounds, "seconds_limit": seconds,
        "wall_seconds": round(wall, 1), "jobs": jobs, "queue": queue, "think_s": list(think),
        "hint_every": hint_every, "requests": len(log.rows), "codes": codes,
        "server_errors_5xx_not_503": errors,
        "bots": sorted(log.bots), "bot_workers": bots, "bot_pause_s": bot_pause,
        "moves": len(moves), "move_p50_ms": pct(moves, 0.5), "move_p99_ms": pct(moves, 0.99),
        "silent_moves": len(silent_moves), "silent_move_p50_ms": pct(silent_moves, 0.5),
        "silent_move_p99_ms": pct(silent_moves, 0.99),
        "advances": len(advances), "advance_p50_ms": pct(advances, 0.5),
        "advance_p99_ms": pct(advances, 0.99),
        "bot_made": mates.get("made"), "bot_ready_ms": mates.get("ready_ms"),
        "bot_wall_ms": mates.get("bot_wall_ms"), "bot_cpu_ms": mates.get("bot_cpu_ms"),
        "move_max_ms": max(moves) if moves else float("nan"),
        "moves_while_pool_full": len(moves_full), "move_full_p50_ms": pct(moves_full, 0.5),
        "move_full_p99_ms": pct(moves_full, 0.99),
        "hints_answered": len(hints_ok), "hint_p50_ms": pct(hints_ok, 0.5),
        "hint_max_ms": max(hints_ok) if hints_ok else float("nan"),
        "hints_refused_503": len(busy), "refusal_p99_ms": pct(busy, 0.99),
        "pool_full_share": round(full_share, 3), "pool_samples": len(full_times),
        "server_cpu_seconds": round(server_cpu, 1),
        "server_cpu_per_request_ms": round(server_cpu * 1000 / max(1, len(log.rows) + len(full_times)), 2),
        "load_average_before": load_before,
        "load_average_after": Path("/proc/loadavg").read_text().split()[0]
        if Path("/proc/loadavg").exists() else "?",
    }


def lat(summary: dict | None, key: str) -> str:
    """One figure of a latency summary of ``/api/status`` (``{"p50", "p99", "max", "n"}``)."""
    value = (summary or {}).get(key)
    return "–" if value is None else f"{value:.0f}" if isinstance(value, float) else str(value)


def load_markdown(r: dict, now: _dt.datetime, m: dict[str, str], argv: list[str]) -> list[str]:
    c = r["codes"]
    return [
        "# Web server load test",
        "",
        f"- date: {now:%Y-%m-%d %H:%M} UTC",
        f"- machine: {m['arch']}, {m['cpu']}, {m['cores']} cores, {m['ram']} RAM, Python {m['python']}",
        f"- command: `python -m benchmarks.web {' '.join(argv)}`".rstrip(),
        f"- server: `ascent serve --jobs {r['jobs']} --queue {r['queue']} --bots {r['bot_workers']}` "
        f"(uvicorn, one process, {r['jobs']} solver and {r['bot_workers']} bot worker processes) on "
        "127.0.0.1; the clients are threads of the benchmark on the same machine",
        f"- {r['clients']} clients at once, each {r['rounds']} moves of its own (a think time of "
        f"{r['think_s'][0]}–{r['think_s'][1]} s before each), a hint every {r['hint_every']} "
        "moves; even clients play open standard deals (the hint is a solver job, up to 8 s), odd "
        f"ones the silent game, 3 players, team-mates: {', '.join(r['bots']) or '?'} (the page's "
        f"default), each bot move an `/advance` after the page's pause of {r['bot_pause_s']} s; "
        f"limit {r['seconds_limit']:.0f} s, took {r['wall_seconds']} s",
        "",
        "| measure | value |",
        "|---|---:|",
        f"| requests | {r['requests']} |",
        "| answers by kind and status | " + "; ".join(
            f"{k}: " + ", ".join(f"{code} ×{n}" for code, n in sorted(v.items())) for k, v in sorted(c.items()))
        + " |",
        f"| 5xx other than the pool's 503 | {r['server_errors_5xx_not_503']} |",
        f"| moves answered | {r['moves']} |",
        f"| move round trip, all: median / p99 / max | {r['move_p50_ms']:.1f} / {r['move_p99_ms']:.1f} / "
        f"{r['move_max_ms']:.1f} ms |",
        f"| the silent games' moves alone: n, median / p99 | {r['silent_moves']}, "
        f"{r['silent_move_p50_ms']:.1f} / {r['silent_move_p99_ms']:.1f} ms |",
        f"| moves made while every solver worker was busy | {r['moves_while_pool_full']} |",
        f"| move round trip while the pool was full: median / p99 | {r['move_full_p50_ms']:.1f} / "
        f"{r['move_full_p99_ms']:.1f} ms |",
        f"| share of the pool samples (every 0.1 s) with every worker busy | {r['pool_full_share']:.0%} |",
        f"| hints answered (200, or 409: no win found) / refused with 503 | {r['hints_answered']} / "
        f"{r['hints_refused_503']} |",
        f"| hint answered: median / max | {r['hint_p50_ms']:.0f} / {r['hint_max_ms']:.0f} ms |",
        f"| a 503's round trip, p99 | {r['refusal_p99_ms']:.1f} ms |",
        f"| bot moves made (`/advance` answered 200): n, round trip median / p99 | {r['advances']}, "
        f"{r['advance_p50_ms']:.0f} / {r['advance_p99_ms']:.0f} ms |",
        f"| the bots' own latency, per move made in the server (n {lat(r['bot_wall_ms'], 'n')}): "
        f"the bot's wall time median / p99 | {lat(r['bot_wall_ms'], 'p50')} / "
        f"{lat(r['bot_wall_ms'], 'p99')} ms |",
        f"| the bot's CPU time median / p99 | {lat(r['bot_cpu_ms'], 'p50')} / "
        f"{lat(r['bot_cpu_ms'], 'p99')} ms |",
        f"| from the bot's turn to its move ready (waiting for a bot worker included) median / p99 "
        f"| {lat(r['bot_ready_ms'], 'p50')} / {lat(r['bot_ready_ms'], 'p99')} ms |",
        f"| the server process's CPU (its solver workers not counted): seconds, and per request "
        f"(the sampler's included) | {r['server_cpu_seconds']} s, {r['server_cpu_per_request_ms']} ms |",
        f"| the machine's load average (1 min) before / at the end | {r['load_average_before']} / "
        f"{r['load_average_after']} |",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.web", description=__doc__.split("\n\n")[0])
    ap.add_argument("--loads", type=int, default=10, help="page loads for first render (default 10)")
    ap.add_argument("--moves", type=int, default=100, help="moves for the round trip (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="deal of the page loads (default 1)")
    ap.add_argument("--out", default=None, help="folder for web.md and web.jsonl "
                    "(default: a new folder under benchmarks/out/)")
    ap.add_argument("--note", default="", help="a line added to the Markdown header")
    ap.add_argument("--load", action="store_true",
                    help="run the load test instead (web-load.md, web-load.jsonl)")
    ap.add_argument("--clients", type=int, default=50, help="load: clients at once (default 50)")
    ap.add_argument("--rounds", type=int, default=12, help="load: moves per client (default 12)")
    ap.add_argument("--seconds", type=float, default=120,
                    help="load: the clients stop after this many seconds (default 120)")
    ap.add_argument("--hint-every", type=int, default=3, help="load: a hint every N moves (default 3)")
    ap.add_argument("--jobs", type=int, default=2, help="load: the server's solver workers (default 2)")
    ap.add_argument("--queue", type=int, default=4, help="load: the server's solver queue (default 4)")
    ap.add_argument("--bots", type=int, default=2, help="load: the server's bot workers (default 2)")
    ap.add_argument("--bot", default=None, help="load: the silent games' team-mates (default: the "
                    "page's default, the bot the server picks)")
    ap.add_argument("--bot-pause", type=float, default=0.9,
                    help="load: seconds before each /advance, as the page pauses (default 0.9)")
    ap.add_argument("--force", action="store_true", help="write over the files of --out")
    args = ap.parse_args(argv)
    now = _dt.datetime.now(_dt.UTC)
    out = Path(args.out) if args.out else ROOT / "benchmarks" / "out" / f"web-{now:%Y%m%d-%H%M%S}"
    out.mkdir(parents=True, exist_ok=True)
    if args.load:
        md, jl = out / "web-load.md", out / "web-load.jsonl"
        if (md.exists() or jl.exists()) and not args.force:
            raise SystemExit(f"{md} exists: give a new --out, or --force")
        r = run_load(args.clients, args.rounds, args.seconds, args.hint_every, args.jobs,
                     args.queue, (0.3, 1.5), args.bots, args.bot, args.bot_pause)
        m = machine()
        jl.write_text(json.dumps({**r, "date": f"{now:%Y-%m-%d %H:%M} UTC", "machine": m}) + "\n",
                      encoding="utf-8")
        lines = load_markdown(r, now, m, argv if argv is not None else sys.argv[1:])
        if args.note:
            lines.insert(5, f"- {args.note}")
        md.write_text("\n".join(lines), encoding="utf-8")
        print("\n".join(lines))
        print(f"written to {out}", file=sys.stderr)
        return 1 if r["server_errors_5xx_not_503"] else 0
    import tempfile

    scratch = tempfile.TemporaryDirectory(prefix="ascent-web-")
    proc, url = start_server(["--data", scratch.name])
    try:
        renders, res_sizes = first_render(url, args.loads, args.seed)
        trips, answer_sizes = move_round_trips(url, args.moves, args.seed)
        cpu = state_cpu_ms()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        scratch.cleanup()
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
