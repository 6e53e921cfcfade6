"""The server side of the play page, route by route, through the ASGI test client: the page's
address checked strictly, 404 for an unknown game (HTML for a browser, JSON otherwise), the
favicon, one status (409) for a game that is over, and no bad input that loses a game."""

from __future__ import annotations

import warnings

import pytest

from web.app import create_app
from web.pages import whole_number

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TINY = {"preset": "tiny"}
HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@pytest.fixture()
def client():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def test_an_unknown_game_is_a_404_page_for_a_browser_and_json_for_the_api(client):
    page = client.get("/g/0123456789abcdef", headers=HTML)
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert "No such game" in page.text and "0123456789abcdef" in page.text
    api = client.get("/g/0123456789abcdef", headers={"Accept": "application/json"})
    assert api.status_code == 404 and api.json()["status"] == 404 and api.json()["error"]
    gid = client.post("/api/games", json={"seed": 1, "rules": TINY}).json()["id"]
    ok = client.get(f"/g/{gid}", headers=HTML)
    assert ok.status_code == 200 and "/static/play.js" in ok.text


@pytest.mark.parametrize("query, named", [
    ("seed=12abc", '"12abc"'), ("seed=-1", '"-1"'), ("seed=1e3", '"1e3"'), ("seed=", '""'),
    ("players=3x", '"3x"'), ("seat=%201", '" 1"'), ("pause=fast", '"fast"'),
    ("date=2026-13-01", '"2026-13-01"'), ("mode=loud", '"loud"'), ("kind=maze", '"maze"'),
    ("size=huge", '"huge"'), ("bot=cheat", '"cheat"'), ("seed=" + "9" * 21, "at most 20 digits"),
])
def test_a_bad_number_in_the_page_address_is_a_clear_400(client, query, named):
    page = client.get(f"/?{query}", headers=HTML)
    assert page.status_code == 400 and "text/html" in page.headers["content-type"]
    assert named.replace('"', "&quot;") in page.text and "Bad address" in page.text
    api = client.get(f"/?{query}")
    assert api.status_code == 400 and named in api.json()["error"]


def test_good_page_addresses_are_served(client):
    for query in ("", "seed=12", "seed=7&players=2&rules=preset=tiny", "mode=silent&players=3&seat=2",
                  "date=2026-12-02&mode=silent&bot=greedy&pause=0", "date=today&kind=position&size=full",
                  "walkthrough=1"):
        r = client.get(f"/?{query}", headers=HTML)
        assert r.status_code == 200 and "/static/play.js" in r.text, query


def test_numbers_as_text_are_taken_only_when_they_are_whole_numbers(client):
    a = client.post("/api/games", json={"seed": "12", "players": "2", "rules": TINY})
    b = client.post("/api/games", json={"seed": 12, "players": 2, "rules": TINY})
    assert a.status_code == b.status_code == 201
    assert a.json()["hands"] == b.json()["hands"]
    for body in ({"seed": "12abc"}, {"seed": "1", "players": "2x"}, {"seed": " 1"},
                 {"seed": "1", "mode": "silent", "seat": "one"}):
        r = client.post("/api/games", json={"rules": TINY, **body})
        assert r.status_code == 400 and "whole number" in r.json()["error"], (body, r.text)
    assert whole_number("seed", "007") == 7
    with pytest.raises(Exception, match="not true"):
        whole_number("seed", True)


def test_the_favicon_is_served(client):
    for path in ("/favicon.ico", "/favicon.svg"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.text.startswith("<svg")


def test_a_move_on_a_finished_game_is_409_as_advance(client):
    state = client.post("/api/games", json={"seed": 2, "rules": TINY}).json()
    gid = state["id"]
    while state["outcome"] is None:  # discard two a turn, the Summit last: a loss (R12)
        hand = state["hands"][0]
        pick = ([c for c in hand if c != "S"] + ["S"])[:2]
        state = client.post(f"/api/games/{gid}/moves", json={"kind": "discard", "discard": pick}).json()
    r = client.post(f"/api/games/{gid}/moves", json={"kind": "discard", "discard": ["S", "1r"]})
    assert r.status_code == 409 and r.json()["ruling"] == "R12", r.text
    assert client.post(f"/api/games/{gid}/advance").status_code == 409
    assert client.get(f"/api/games/{gid}").json()["turn"] == state["turn"]  # nothing lost


def test_a_bot_thinks_off_the_request_path_and_advance_makes_its_move(monkeypatch):
    """A slow bot (held here until the test lets it go) thinks in the background from the
    moment its turn comes: other games' moves are answered meanwhile, /advance answers 503
    with Retry-After while it thinks (the game unchanged), then makes exactly its move."""
    import threading

    import web.app
    import web.teammates
    from web.jobs import timed_bot_move

    release, started = threading.Event(), threading.Event()

    def held(obs, name, seed):
        if name == "sampling":
            started.set()
            assert release.wait(60)
        return timed_bot_move(obs, "greedy", seed)

    monkeypatch.setattr(web.teammates, "timed_bot_move", held)
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        slow = c.post("/api/games", json={"seed": 3, "players": 3, "seat": 2, "mode": "silent",
                                          "bot": "sampling", "rules": TINY})
        assert slow.status_code == 201 and slow.json()["bots_turn"]
        assert slow.json()["bot_ready"] is False
        gid = slow.json()["id"]
        assert started.wait(30)  # the bot thinks, though nobody asked /advance yet
        other = c.post("/api/games", json={"seed": 5, "players": 3, "seat": 1, "mode": "silent",
                                           "bot": "greedy", "rules": TINY}).json()
        hint = c.get(f"/api/games/{other['id']}/hint").json()
        moved = c.post(f"/api/games/{other['id']}/moves", json=hint["move"])
        assert moved.status_code == 200 and moved.json()["turn"] == 1
        assert not release.is_set()  # answered while the slow bot still thinks
        status = c.get("/api/status").json()["teammates"]
        assert status["thinking"] >= 1 and status["pool"]["running"] == 1
        monkeypatch.setattr(web.app, "ADVANCE_WAIT", 0.05)
        busy = c.post(f"/api/games/{gid}/advance")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "1", busy.text
        assert c.get(f"/api/games/{gid}").json()["turn"] == 0  # nothing lost, nothing made
        release.set()
        monkeypatch.setattr(web.app, "ADVANCE_WAIT", 30.0)
        state = c.post(f"/api/games/{gid}/advance").json()
        assert state["turn"] == 1 and state["moves"][0]["bot"] and state["your_turn"]
        assert state["bot_ready"] is None
        status = c.get("/api/status").json()["teammates"]
        assert status["made"] >= 2 and status["bot_cpu_ms"]["n"] >= 2


@pytest.mark.parametrize("processes", [False, True])
def test_a_job_reports_its_progress_to_the_server(processes):
    import asyncio

    from tests import web_jobs
    from web.pool import JobPool

    async def scenario() -> list[int]:
        pool = JobPool(workers=1, queue=0, processes=processes)
        seen: list[int] = []
        try:
            assert await pool.run(web_jobs.counting, 5, progress=seen.append) == 5
            await asyncio.sleep(0.05)  # the last reports are called soon after on the loop
            assert await pool.run(web_jobs.counting, 2) == 2  # nobody listening: ignored
        finally:
            pool.close()
        return seen

    assert asyncio.run(scenario()) == [0, 1, 2, 3, 4]


def lost_game(c, seed: int = 3) -> str:
    """A finished silent tiny game (greedy everywhere), played through the API."""
    from bots.greedy import GreedyBot
    from model.deal import Deal
    from model.game import Game
    from model.observation import observe
    from model.rules import RuleSet

    gid = c.post("/api/games", json={"seed": seed, "players": 3, "seat": 1, "mode": "silent",
                                      "bot": "greedy", "rules": TINY}).json()["id"]
    mirror = Game(Deal.from_seed(seed, 3, RuleSet.tiny()))
    while mirror.outcome() is None:
        move = GreedyBot().choose(observe(mirror))
        path = "moves" if mirror.to_move == 0 else "advance"
        assert c.post(f"/api/games/{gid}/{path}", json=move.to_json()).status_code == 200
        mirror.push(move)
    return gid


def test_review_progress_counts_positions_decided():
    """The review's progress is the count of positions whose verdict is known, reported as
    the analysis goes: never falling, never above the positions, and at the end the
    positions the review does not leave unknown."""
    from model.deal import Deal
    from model.moves import Move
    from model.rules import RuleSet
    from web.review import review_data

    with TestClient(create_app()) as c:
        gid = lost_game(c)
        moves = [Move.from_json(m["move"]) for m in c.get(f"/api/games/{gid}").json()["moves"]]
    seen: list[dict] = []
    data = review_data(Deal.from_seed(3, 3, RuleSet.tiny()), moves, 2.0, None, progress=seen.append)
    done = [p["done"] for p in seen]
    assert seen and all(p["phase"] == "open" and p["positions"] == len(moves) + 1 for p in seen)
    assert done == sorted(done) and done[-1] <= len(moves) + 1
    assert done[-1] == len(moves) + 1 - data["unknown"]


def test_a_review_running_when_the_server_stops_resumes_after_a_restart(tmp_path, monkeypatch):
    import threading
    import time

    import web.app

    real = web.app.review_job
    hold = threading.Event()

    def held(*args, **kwargs):
        assert hold.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(web.app, "review_job", held)
    try:
        with TestClient(create_app(data=tmp_path)) as c:
            gid = lost_game(c)
            started = c.post(f"/api/games/{gid}/review")
            assert started.status_code == 202
            first = started.json()
            assert first["status"] == "running" and first["done"] == 0 and first["progress"] == 0
            assert first["positions"] == len(c.get(f"/api/games/{gid}").json()["moves"]) + 1
    finally:  # the server stopped with the review running; the held thread may end now
        monkeypatch.setattr(web.app, "review_job", real)
        hold.set()
    with TestClient(create_app(data=tmp_path)) as c:
        again = c.get(f"/api/games/{gid}/review").json()
        assert again["status"] == "running" and again["resumed"] is True, again
        deadline = time.monotonic() + 120
        while again["status"] == "running" and time.monotonic() < deadline:
            assert 0 <= again["done"] <= again["positions"]
            time.sleep(0.05)
            again = c.get(f"/api/games/{gid}/review").json()
        assert again["status"] == "done" and again["losing_move"] is not None
    with TestClient(create_app(data=tmp_path)) as c:  # kept once done
        assert c.get(f"/api/games/{gid}/review").json() == again


def test_a_stopped_review_reuses_the_results_it_kept():
    """The results a review reports as it goes (each position's open-hand verdict, each
    move's silent review), given back to a new review of the same game, are not computed
    again, and the answer is the same."""
    from model.deal import Deal
    from model.moves import Move
    from model.rules import RuleSet
    from web.review import review_data

    with TestClient(create_app()) as c:
        gid = lost_game(c)
        moves = [Move.from_json(m["move"]) for m in c.get(f"/api/games/{gid}").json()["moves"]]
    deal = Deal.from_seed(3, 3, RuleSet.tiny())
    seen: list[dict] = []
    whole = review_data(deal, moves, 2.0, "best", progress=seen.append)
    kept = {"open": [p["solved"] for p in seen if "solved" in p],
            "silent": [p["reviewed"] for p in seen if "reviewed" in p]}
    assert kept["open"] and len(kept["silent"]) == len(moves)
    assert [p["done"] for p in seen if p["phase"] == "silent"] == list(range(1, len(moves) + 1))
    half = {"open": kept["open"], "silent": kept["silent"][: len(moves) // 2]}
    again: list[dict] = []
    resumed = review_data(deal, moves, 2.0, "best", progress=again.append, known=half)
    assert not [p for p in again if "solved" in p]  # every position it needed was kept
    assert sorted(p["reviewed"]["index"] for p in again if "reviewed" in p) == \
        list(range(len(moves) // 2 + 1, len(moves) + 1))
    for r in (whole, resumed):
        r["silent"].pop("stats"), r.pop("seconds")
    assert resumed == whole
    assert whole["chart"].count('class="point') == len(moves)


def test_a_restarted_review_is_given_the_results_kept_in_the_file(tmp_path, monkeypatch):
    """A review running when the server stopped, with some results kept in the file, is
    resumed after a restart with those results (and reports how many it kept)."""
    import time

    import web.app
    from model.deal import Deal
    from model.moves import Move
    from model.rules import RuleSet
    from web.review import review_data

    with TestClient(create_app(data=tmp_path)) as c:
        gid = lost_game(c)
        moves = [Move.from_json(m["move"]) for m in c.get(f"/api/games/{gid}").json()["moves"]]
        seen: list[dict] = []
        review_data(Deal.from_seed(3, 3, RuleSet.tiny()), moves, 2.0, "best",
                    progress=seen.append)
        kept = {"open": {str(p["solved"]["index"]): p["solved"] for p in seen if "solved" in p},
                "silent": {str(p["reviewed"]["index"]): p["reviewed"] for p in seen[:-3]
                           if "reviewed" in p}}
        c.app.state.ascent.store.db.put_review(gid, {
            "status": "running", "started": time.time(), "positions": len(moves) + 1,
            "done": 0, "phase": "silent", "resumed": False, "estimate": 18.0, "kept": kept})
    real = web.app.review_job
    given: list[dict] = []

    def spy(start, moves, seconds, follow, known, team):
        given.append(known)
        return real(start, moves, seconds, follow, known, team)

    monkeypatch.setattr(web.app, "review_job", spy)
    with TestClient(create_app(data=tmp_path)) as c:
        r = c.get(f"/api/games/{gid}/review").json()
        assert r["status"] == "running" and r["resumed"] is True
        assert r["kept"] == {"open": len(kept["open"]), "silent": len(kept["silent"])}
        deadline = time.monotonic() + 120
        while r["status"] == "running" and time.monotonic() < deadline:
            time.sleep(0.05)
            r = c.get(f"/api/games/{gid}/review").json()
        assert r["status"] == "done" and r["losing_move"] is not None
    assert given and sorted(k["index"] for k in given[0]["silent"]) == \
        sorted(int(i) for i in kept["silent"])
    assert len(given[0]["open"]) == len(kept["open"])


def test_random_input_to_the_new_routes_is_a_json_4xx_and_loses_no_game(client):
    """Random query values to the page's address, /g/{id} and /explain, random bodies to
    /advance and /review: never a 5xx, every error JSON (or the HTML page for a browser),
    and the games unchanged."""
    import random

    rng = random.Random(23)
    open_ = client.post("/api/games", json={"seed": 1, "rules": TINY}).json()
    sil = client.post("/api/games", json={"seed": 5, "players": 3, "seat": 1, "mode": "silent",
                                          "bot": "greedy", "rules": TINY}).json()
    values = ["", "0", "1", "12abc", "-1", "1e3", "७", "%00", "x" * 300, "today", "silent",
              "7r", "Cr", "S", "B", "99z", "[]", "{}", "null", "true", " 1", "1 ", "0x10"]
    keys = ["seed", "players", "seat", "pause", "date", "mode", "kind", "size", "bot", "card", "rules"]
    for _ in range(120):
        query = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(1, 4))}
        for path in ("/", f"/g/{open_['id']}", f"/g/{sil['id']}", f"/api/games/{open_['id']}/explain",
                     f"/api/games/{sil['id']}/explain", "/g/nope"):
            headers = HTML if rng.random() < 0.5 else {}
            r = client.get(path, params=query, headers=headers)
            assert r.status_code < 500, (path, query, r.text)
            if r.status_code >= 400 and "application/json" in r.headers["content-type"]:
                assert r.json()["error"] and r.json()["status"] == r.status_code
        for path in ("advance", "review"):
            r = client.post(f"/api/games/{open_['id']}/{path}", content=rng.choice(values))
            assert 400 <= r.status_code < 500 and r.json()["error"], (path, r.text)
    assert client.get(f"/api/games/{open_['id']}").json() == open_
    assert client.get(f"/api/games/{sil['id']}").json()["turn"] == sil["turn"]


def test_serve_refuses_a_bad_bots_option_in_one_line():
    from tests.test_cli import assert_one_line_error, run

    assert_one_line_error(run("serve", "--bots", "0"), 2, "--bots")
    assert "--bots" in run("serve", "--help").stdout


def test_the_load_report_names_the_team_mates_and_the_bots_latency():
    """The load benchmark's Markdown from a run's figures, with and without bot moves."""
    import datetime as dt

    from benchmarks.web import load_markdown

    nan = float("nan")
    r = {"codes": {"move": {"200": 3}}, "jobs": 2, "queue": 4, "bot_workers": 2, "clients": 2,
         "rounds": 1, "think_s": [0.3, 1.5], "hint_every": 3, "bots": ["best"], "bot_pause_s": 0.9,
         "seconds_limit": 10, "wall_seconds": 5.0, "requests": 3, "server_errors_5xx_not_503": 0,
         "moves": 3, "move_p50_ms": 10.0, "move_p99_ms": 20.0, "move_max_ms": 21.0,
         "silent_moves": 0, "silent_move_p50_ms": nan, "silent_move_p99_ms": nan,
         "moves_while_pool_full": 0, "move_full_p50_ms": nan, "move_full_p99_ms": nan,
         "pool_full_share": 0.0, "hints_answered": 0, "hints_refused_503": 0, "hint_p50_ms": nan,
         "hint_max_ms": nan, "refusal_p99_ms": nan, "advances": 0, "advance_p50_ms": nan,
         "advance_p99_ms": nan, "bot_ready_ms": None, "bot_wall_ms": None, "bot_cpu_ms": None,
         "server_cpu_seconds": 0.1, "server_cpu_per_request_ms": 1.0,
         "load_average_before": "1.00", "load_average_after": "1.10"}
    m = {"arch": "x86_64", "cpu": "cpu", "cores": "2", "ram": "1 GB", "python": "3.11"}
    now = dt.datetime(2026, 12, 4, 5, 0)
    text = "\n".join(load_markdown(r, now, m, ["--load"]))
    assert "team-mates: best" in text and "wall time median / p99 | – / – ms" in text
    r["bot_wall_ms"] = {"p50": 120.4, "p99": 180.0, "max": 190.0, "n": 7}
    text = "\n".join(load_markdown(r, now, m, ["--load"]))
    assert "(n 7)" in text and "| 120 / 180 ms |" in text and "1.00 / 1.10" in text


def test_the_default_team_mate_follows_the_table_size(client) -> None:
    """No ``bot`` asked (absent, or the page's empty choice): each table gets the bot measured
    best at its size (:func:`web.games.default_bot`), and ``/api/status`` lists them."""
    from web.games import default_bot

    assert client.get("/?mode=silent&players=5&bot=").status_code == 200
    by_count = client.get("/api/status").json()["default_bots"]
    assert by_count == {str(p): default_bot(p) for p in range(1, 6)}
    from web.games import DEFAULT_BOTS

    assert by_count == {str(p): b for p, b in DEFAULT_BOTS.items()}
    for players in (3, 5):
        g = client.post("/api/games", json={"seed": 2, "players": players, "mode": "silent",
                                            "rules": TINY}).json()
        assert g["bot"] == default_bot(players)


def test_learn_from_your_mistakes_judges_answers_with_the_paired_test(monkeypatch):
    """With an evaluator under which every alternative wins and every move played loses,
    every compared decision is marked; the exercise of a marked move shows its position as
    its player saw it, and judges answers with the same paired test. Bad input is a 4xx with
    a reason."""
    import time

    import bots.review
    from model.deal import Deal
    from model.game import Game
    from model.moves import Move
    from model.rules import RuleSet

    def evaluator_for(estimator):
        def evaluate(world, moves, seed):
            return [k == 0 for k in range(len(moves))]  # moves = [alternative, played]
        return evaluate

    monkeypatch.setattr(bots.review, "evaluator_for", evaluator_for)
    with TestClient(create_app()) as c:
        gid = lost_game(c)
        moves = [Move.from_json(m["move"]) for m in c.get(f"/api/games/{gid}").json()["moves"]]
        assert c.get(f"/api/games/{gid}/review/learn/1").status_code == 409  # no review yet
        c.post(f"/api/games/{gid}/review")
        deadline = time.monotonic() + 120
        while (r := c.get(f"/api/games/{gid}/review").json())["status"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert r["status"] == "done" and r["marks"], r.get("summary")
        mark = r["marks"][0]
        k = mark["index"]
        game = Game(Deal.from_seed(3, 3, RuleSet.tiny()))
        for m in moves[:k - 1]:
            game.push(m)
        ex = c.get(f"/api/games/{gid}/review/learn/{k}").json()
        assert ex["player"] == game.to_move + 1 == moves[k - 1].player
        assert ex["hand"] == [x.text for x in game.hands[game.to_move]]  # the mover's only
        assert set(ex["targets"]) <= set(ex["hand"]) and ex["mark"] == mark["mark"]
        alternative = Move.from_json(mark["alternative"])
        judged = c.post(f"/api/games/{gid}/review/learn/{k}", json=alternative.to_json()).json()
        assert judged["verdict"] == "review" and judged["interval"][0] > 0
        assert judged["review_move"]["move"] == mark["alternative"]
        assert judged["played"]["move"] == moves[k - 1].to_json()
        same = c.post(f"/api/games/{gid}/review/learn/{k}", json=moves[k - 1].to_json()).json()
        assert same["verdict"] == "played" and same["gain"] == 0
        # bad input: a 4xx with a reason, never a 5xx
        illegal = [m for m in ({"kind": "place", "card": x.text, "row": 9, "slot": 9}
                               for x in game.hands[game.to_move])]
        bad = c.post(f"/api/games/{gid}/review/learn/{k}", json=illegal[0])
        assert bad.status_code in (400, 422) and bad.json()["error"]
        for body in ([], "7r", {"card": "Zz"}, {"kind": "goat"}, None):
            res = c.post(f"/api/games/{gid}/review/learn/{k}", json=body)
            assert 400 <= res.status_code < 500 and res.json()["error"], body
        unmarked = next(i for i in range(1, len(moves) + 1)
                        if i not in {m["index"] for m in r["marks"]})
        for path in (f"learn/{unmarked}", f"learn/{len(moves) + 1}", "learn/0", "learn/x1",
                     f"position/{len(moves) + 1}", "position/-1"):
            res = c.get(f"/api/games/{gid}/review/{path}")
            assert 400 <= res.status_code < 500 and res.json()["error"], path
        res = c.post(f"/api/games/{gid}/review/learn/{unmarked}", json=moves[0].to_json())
        assert res.status_code == 404
        for p in (0, k - 1, len(moves)):
            pos = c.get(f"/api/games/{gid}/review/position/{p}").json()
            assert pos["position"] == p and pos["svg"].startswith("<?xml")
