"""The real game on the web page (silent mode: one seat's observation, bots in the other
seats), the daily challenge, the review after a game, games kept in SQLite across restarts,
and the bounded solver pool (503 with Retry-After, a client that goes away cancels its job).
In-process through the ASGI test client, tiny rules."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import threading
import time
import warnings

import pytest

from bots.greedy import GreedyBot
from model.cards import parse_card
from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.observation import observe
from model.rules import RuleSet
from puzzles.dates import challenge_seed, parse_date
from render.svg import card_label
from tests import web_jobs
from web.app import create_app
from web.pool import Busy, Cancelled, JobError, JobPool

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TINY = {"preset": "tiny"}
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(\d{1,2}[rgby]|C[rgby])(?![A-Za-z0-9])")
LONE_TOKEN = re.compile(r'(?:"|data-card=")(B|S)"')


def cards_named(text: str) -> set[str]:
    """Every card text a response names: number cards and Campfires anywhere (JSON, move
    texts, SVG attributes), Bridges and Summits as a JSON string or an SVG ``data-card``."""
    return set(CARD_TOKEN.findall(text)) | set(LONE_TOKEN.findall(text))


def visible(game: Game, seat: int) -> set[str]:
    """The card texts ``seat`` may know of (V1): own hand, mountain, cards out."""
    obs = observe(game, seat)
    return {c.text for c in obs.hand} | {c.text for r in obs.mountain for c in r} | {
        c.text for c in obs.out}


def hidden_only(game: Game, seat: int) -> set[str]:
    """Card texts of which every copy still in play is hidden from ``seat``."""
    hidden = {c.text for p, h in enumerate(game.hands) if p != seat for c in h}
    hidden |= {c.text for d in game.decks for c in d}
    return hidden - visible(game, seat)


@pytest.fixture()
def client():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def silent(client, seed=3, players=3, seat=2, bot="greedy", rules=TINY):
    r = client.post("/api/games", json={"seed": seed, "players": players, "seat": seat,
                                        "mode": "silent", "bot": bot, "rules": rules})
    assert r.status_code == 201, r.text
    return r.json()


def truth(client, gid: str) -> Game:
    return client.app.state.store.get(gid).game


def test_the_detector_sees_a_hidden_card_in_an_open_state(client):
    """The check below could fail: the open page of the same deal names cards that seat 2
    cannot see (every copy of them is in another hand or a deck)."""
    state = silent(client)
    game = truth(client, state["id"])
    hidden = hidden_only(game, 1)
    assert state["bot"] == "greedy"
    assert hidden, "no card is hidden from seat 2: the test below would prove nothing"
    open_ = client.post("/api/games", json={"seed": 3, "players": 3, "rules": TINY}).text
    assert cards_named(open_) & hidden


@pytest.mark.parametrize("rules", [TINY, {"preset": "tiny", "discards_seen": "own"}])
def test_a_silent_game_never_sends_a_hidden_card(client, rules):
    """Every answer while the game is on names only cards the seat may know (V1); under
    ``discards_seen=own`` the others' discards are not among them."""
    state = silent(client, rules=rules)
    gid = state["id"]
    seat = 1
    assert state["mode"] == "silent" and state["seat"] == 2 and state["bot"] == "greedy"
    assert state["hands"][0] is None and state["hands"][2] is None
    assert "deck_cards" not in state
    responses = 0
    leaks: list[tuple[str, set[str]]] = []

    def look(what: str, r) -> None:
        nonlocal responses
        responses += 1
        game = truth(client, gid)
        if game.outcome() is None:  # the review may show every card once the game is over
            named = cards_named(r.text) - visible(game, seat)
            named |= {t for t in hidden_only(game, seat) if card_label(parse_card(t)) in r.text}
            if named:
                leaks.append((what, named))

    look("start", client.get(f"/api/games/{gid}"))
    while True:
        game = truth(client, gid)
        if game.outcome() is not None:
            break
        for path, method in (("", "GET"), ("/undo", "POST"), ("/solution/1", "GET"),
                             ("/review", "GET"), ("/review", "POST"), ("/review/line/0", "GET")):
            r = client.request(method, f"/api/games/{gid}{path}")
            assert r.status_code in (200, 409), (path, r.text)
            look(path or "state", r)
        if game.to_move != seat:
            look("move refused", client.post(f"/api/games/{gid}/moves",
                                             json={"kind": "discard", "discard": ["1r", "1g"]}))
            r = client.post(f"/api/games/{gid}/advance")
            assert r.status_code == 200, r.text
            look("advance", r)
            continue
        look("advance refused", client.post(f"/api/games/{gid}/advance"))
        for card in {c.text for c in game.hands[seat]}:  # every slot and refusal explained
            r = client.get(f"/api/games/{gid}/explain", params={"card": card})
            assert r.status_code == 200, r.text
            look("explain", r)
        hint = client.get(f"/api/games/{gid}/hint")
        assert hint.status_code == 200 and hint.json()["source"] == "greedy bot"
        look("hint", hint)
        move = Move.from_json(hint.json()["move"])
        if move.card is not None:
            look("check", client.post(f"/api/games/{gid}/check", json={
                "card": move.card.text, "row": move.row, "slot": move.slot,
                "to_row": move.to_row, "to_slot": move.to_slot}))
        r = client.post(f"/api/games/{gid}/moves", json=hint.json()["move"])
        assert r.status_code == 200, r.text
        look("move", r)
    assert responses > 30 and not leaks, leaks[:3]
    end = client.get(f"/api/games/{gid}").json()
    assert end["outcome"] == game.outcome() and end["share"].startswith("Ascent deal 3 (")


def test_a_silent_game_refuses_what_the_seat_may_not_do(client):
    state = silent(client, seat=2)
    gid = state["id"]
    assert state["bots_turn"] and not state["your_turn"] and state["targets"] == {}
    assert client.post(f"/api/games/{gid}/moves", json={"kind": "discard", "discard": []}).status_code == 409
    assert client.post(f"/api/games/{gid}/check", json={"card": "1r", "row": 1, "slot": 1}).status_code == 409
    assert client.get(f"/api/games/{gid}/hint").status_code == 409
    state = client.post(f"/api/games/{gid}/advance").json()
    assert state["your_turn"] and state["turn"] == 1
    assert client.post(f"/api/games/{gid}/advance").status_code == 409
    assert client.post(f"/api/games/{gid}/undo").status_code == 409
    assert client.get(f"/api/games/{gid}/solution/0").status_code == 409
    for bad in ({"bot": "cheat"}, {"bot": "nobody"}, {"seat": 4}, {"seat": 0}, {"players": "x"}):
        body = {"seed": 1, "players": 3, "mode": "silent", "rules": TINY, **bad}
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and r.json()["error"], (bad, r.text)
    assert client.post("/api/games", json={"mode": "loud", "seed": 1}).status_code == 400
    plain = client.post("/api/games", json={"seed": 1, "players": 2, "mode": "silent", "rules": TINY}).json()
    from web.games import DEFAULT_BOTS

    assert plain["bot"] == DEFAULT_BOTS[2]
    assert client.post("/api/games", json={"mode": "silent", "players": 3}).status_code == 400


def test_the_bots_play_their_seats_as_the_bot_would(client):
    """Every bot move the server makes is the move of the chosen bot from that seat's
    observation (here greedy, which has no randomness), and the state follows the engine."""
    state = silent(client, seed=5, players=3, seat=1)
    gid = state["id"]
    mirror = Game(Deal.from_seed(5, 3, RuleSet.tiny()))
    bot = GreedyBot()
    while mirror.outcome() is None:
        move = bot.choose(observe(mirror))
        if mirror.to_move == 0:
            state = client.post(f"/api/games/{gid}/moves", json=move.to_json()).json()
        else:
            state = client.post(f"/api/games/{gid}/advance").json()
            assert state["last_move"] == move.to_json()
        mirror.push(move)
        assert state["turn"] == mirror.turn and state["decks"] == [len(d) for d in mirror.decks]
        assert state["hand_sizes"] == [len(h) for h in mirror.hands]
        assert state["hands"][0] == [c.text for c in mirror.hands[0]]
        assert sorted(state["out"]) == sorted(c.text for c in mirror.out)
    assert state["outcome"] == mirror.outcome()


def test_the_daily_challenge_and_its_share_line(client):
    r = client.post("/api/games", json={"daily": "2026-12-02", "mode": "silent", "players": 3,
                                        "bot": "greedy"})
    assert r.status_code == 201, r.text
    state = r.json()
    assert state["challenge"] == "2026-12-02" and state["rules_text"] == "standard"
    assert state["title"].startswith("Daily challenge 2026-12-02, 3 players")
    mirror = Game(Deal.from_seed(challenge_seed(parse_date("2026-12-02")), 3))
    assert state["hands"][0] == [c.text for c in mirror.hands[0]]
    gid = state["id"]
    bot = GreedyBot()
    while state["outcome"] is None:
        move = bot.choose(observe(mirror))
        path = "moves" if mirror.to_move == 0 else "advance"
        state = client.post(f"/api/games/{gid}/{path}", json=move.to_json()).json()
        mirror.push(move)
    if mirror.is_won():
        tail = f"Summit in {mirror.turn} turns, {len(mirror.out)} cards out"
    else:
        tail = f"{mirror.filled_slots()} of 45 slots"
    assert state["share"] == f"Ascent 2026-12-02 · 3 players · {tail}"
    other = client.post("/api/games", json={"daily": "2026-12-03", "mode": "silent", "players": 3}).json()
    assert other["hands"][0] != state["hands"][0] or other["title"] != state["title"]
    assert client.post("/api/games", json={"daily": "2026-13-01", "mode": "silent"}).status_code == 400


def lost_tiny_game(client, seed: int):
    """A finished silent tiny game (greedy everywhere) and the engine's copy."""
    state = silent(client, seed=seed, players=3, seat=1)
    gid = state["id"]
    bot = GreedyBot()
    mirror = Game(Deal.from_seed(seed, 3, RuleSet.tiny()))
    while mirror.outcome() is None:
        move = bot.choose(observe(mirror))
        path = "moves" if mirror.to_move == 0 else "advance"
        client.post(f"/api/games/{gid}/{path}", json=move.to_json())
        mirror.push(move)
    return gid, mirror


def wait_review(client, gid: str) -> dict:
    deadline = time.monotonic() + 120
    while True:
        r = client.get(f"/api/games/{gid}/review").json()
        if r["status"] != "running" or time.monotonic() > deadline:
            return r
        time.sleep(0.05)


def test_the_review_names_the_losing_move_and_plays_the_winning_line(client):
    from solver.analysis import analyse

    seed = 3
    gid, mirror = lost_tiny_game(client, seed)
    deal = Deal.from_seed(seed, 3, RuleSet.tiny())
    expected = analyse(deal, mirror.move_stack, "none", time_per_move=None)
    assert expected.losing_move is not None, "pick a seed whose game greedy loses"
    started = client.post(f"/api/games/{gid}/review")
    assert started.status_code == 202 and started.json()["status"] == "running"
    r = wait_review(client, gid)
    assert r["status"] == "done", r
    assert r["losing_move"] == expected.losing_move
    assert [m["after"] for m in r["moves"]] == [p.verdict for p in expected.positions[1:]]
    assert r["reason"] == (expected.reason.to_json() if expected.reason else None)
    assert r["line_from"] == expected.losing_move - 1
    total = len(r["winning_line"])
    game = Game(deal)
    for m in mirror.move_stack[: r["line_from"]]:
        game.push(m)
    for k in range(total + 1):
        step = client.get(f"/api/games/{gid}/review/line/{k}").json()
        assert step["step"] == k and step["total"] == total
        if k:
            game.push(Move.from_json(r["winning_line"][k - 1]["move"]))
            assert step["move"] == r["winning_line"][k - 1]["move"]
        assert step["cards_out"] == len(game.out)
    assert game.is_won() and step["outcome"] == "win"
    assert client.get(f"/api/games/{gid}/review/line/{total + 1}").status_code == 404
    assert client.post(f"/api/games/{gid}/review").json()["status"] == "done"  # not twice
    if importlib.util.find_spec("bots.review") is not None:  # the silent review, where it exists
        sil = r["silent"]
        assert sil["bot"] == "best" and len(sil["moves"]) == len(mirror.move_stack)
        assert [m["move"] for m in sil["moves"]] == [m.to_json() for m in mirror.move_stack]
        assert all(0 <= m["chance_before"] <= 1 for m in sil["moves"])
        assert r["marks"] == sil["marks"]  # the named mistakes, each a separated drop
        assert all("mark" in m and "paired" in m for m in sil["moves"])
        assert all(m["interval"][0] > 0 for m in r["marks"])
    else:
        assert r["silent"] is None


def test_games_and_reviews_survive_a_restart(tmp_path):
    with TestClient(create_app(data=tmp_path)) as c:
        gid, mirror = lost_tiny_game(c, 3)
        c.post(f"/api/games/{gid}/review")
        review = wait_review(c, gid)
        assert review["status"] == "done"
        open_ = c.post("/api/games", json={"seed": 1, "rules": TINY}).json()
        hint = c.get(f"/api/games/{open_['id']}/hint").json()
        before = c.post(f"/api/games/{open_['id']}/moves", json=hint["move"]).json()
        mid = silent(c, seed=5, seat=1)
        move = GreedyBot().choose(observe(Game(Deal.from_seed(5, 3, RuleSet.tiny()))))
        mid = c.post(f"/api/games/{mid['id']}/moves", json=move.to_json()).json()
    assert (tmp_path / "games.sqlite3").exists()
    with TestClient(create_app(data=tmp_path)) as c:
        again = c.get(f"/api/games/{gid}").json()
        assert again["turn"] == mirror.turn and again["outcome"] == mirror.outcome()
        assert c.get(f"/api/games/{gid}/review").json() == review
        assert c.get(f"/api/games/{open_['id']}").json() == before
        assert c.get(f"/api/games/{mid['id']}").json() == mid
        state = c.post(f"/api/games/{mid['id']}/advance").json()  # and it goes on
        assert state["turn"] == mid["turn"] + 1
        page = c.get(f"/g/{mid['id']}")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_the_oldest_games_are_dropped_from_the_file(tmp_path):
    with TestClient(create_app(data=tmp_path, max_games=3)) as c:
        ids = [c.post("/api/games", json={"seed": i, "rules": TINY}).json()["id"] for i in range(5)]
        c.post(f"/api/games/{ids[2]}/moves", json={"kind": "discard", "discard": []})  # refused: no change
    with TestClient(create_app(data=tmp_path, max_games=3)) as c:
        assert [c.get(f"/api/games/{i}").status_code for i in ids] == [404, 404, 200, 200, 200]
        assert c.get("/api/status").json()["games"] == 3


def test_deal_puzzles_and_open_games_show_every_deck_in_order(client):
    state = client.post("/api/games", json={"seed": 4, "players": 2, "rules": TINY}).json()
    game = Game(Deal.from_seed(4, 2, RuleSet.tiny()))
    assert state["deck_cards"] == [[c.text for c in d] for d in game.decks]
    move = game.legal_moves()[0]
    state = client.post(f"/api/games/{state['id']}/moves", json=move.to_json()).json()
    game.push(move)
    assert state["deck_cards"] == [[c.text for c in d] for d in game.decks]


def blocking_solver(started: threading.Event, release: threading.Event):
    def solve(game, seconds):
        started.set()
        release.wait(60)
        return None
    return solve


def test_a_full_pool_answers_503_with_retry_after_and_moves_go_on():
    started, release = threading.Event(), threading.Event()
    app = create_app(solver=blocking_solver(started, release), workers=1, queue=0)
    with TestClient(app, raise_server_exceptions=False) as c:
        a = c.post("/api/games", json={"seed": 1, "rules": TINY}).json()["id"]
        b = c.post("/api/games", json={"seed": 2, "rules": TINY}).json()["id"]
        answers = {}
        t = threading.Thread(target=lambda: answers.setdefault("a", c.get(f"/api/games/{a}/hint")))
        t.start()
        assert started.wait(30)
        busy = c.get(f"/api/games/{b}/hint")
        assert busy.status_code == 503, busy.text
        assert int(busy.headers["Retry-After"]) >= 1 and busy.json()["error"]
        game = Game(Deal.from_seed(2, 1, RuleSet.tiny()))
        moved = c.post(f"/api/games/{b}/moves", json=game.legal_moves()[0].to_json())
        assert moved.status_code == 200  # a move needs no solver
        status = c.get("/api/status").json()["pool"]
        assert status["running"] == 1 and status["refused"] == 1
        release.set()
        t.join(60)
        assert answers["a"].status_code == 409  # the solver found nothing: no hint
        assert c.get("/api/status").json()["pool"]["running"] == 0


def test_the_pool_bounds_its_queue_and_cancels_a_waiting_job():
    async def scenario() -> None:
        pool = JobPool(workers=1, queue=1)
        release = threading.Event()
        first = asyncio.ensure_future(pool.run(release.wait, 60))
        while pool.running < 1:
            await asyncio.sleep(0)
        gone = {"flag": False}

        async def disconnected() -> bool:
            return gone["flag"]

        second = asyncio.ensure_future(pool.run(web_jobs.add, 1, 2, disconnected=disconnected))
        while pool.admitted < 2:
            await asyncio.sleep(0)
        with pytest.raises(Busy) as busy:
            await pool.run(web_jobs.add, 3, 4)
        assert busy.value.retry_after >= 1
        gone["flag"] = True
        with pytest.raises(Cancelled):
            await second
        assert pool.admitted == 1 and pool.cancelled == 1
        release.set()
        assert await first is True
        assert await pool.run(web_jobs.add, 5, 6) == 11
        pool.close()

    asyncio.run(scenario())


def test_a_client_that_goes_away_kills_its_running_job(tmp_path):
    """Process workers: the job runs in a child; the client goes away once the job has
    started (its mark is on disk); the worker is killed, and the next job gets a new one."""
    started, release = tmp_path / "started", tmp_path / "release"

    async def scenario() -> int:
        pool = JobPool(workers=1, queue=0, processes=True)
        try:
            async def disconnected() -> bool:
                return started.exists()

            with pytest.raises(Cancelled):
                await pool.run(web_jobs.hold, str(started), str(release), disconnected=disconnected)
            pid = int(started.read_text())
            assert pool.status()["cancelled"] == 1 and pool.running == 0
            assert await pool.run(web_jobs.add, 2, 3) == 5
            with pytest.raises(JobError) as err:
                await pool.run(web_jobs.fail, "no such thing")
            assert err.value.kind == "LookupError"
            return pid
        finally:
            release.write_text("", encoding="utf-8")
            pool.close()

    pid = asyncio.run(scenario())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the killed worker is gone (and reaped)


def test_random_bodies_to_a_silent_game_never_give_a_500(client):
    import random

    gid = silent(client, seat=1)["id"]
    rng = random.Random(17)
    values = [None, 0, -1, 1, 2, 3, 10**30, 1.5, True, "", "1r", "Cr", "B", "S", "x",
              [], ["1r"], ["1r", "2g"], {}, {"a": 1}]
    keys = ["card", "row", "slot", "to_row", "to_slot", "discard", "kind", "player"]
    for _ in range(80):
        body = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, len(keys)))}
        for path in ("moves", "check", "advance", "review"):
            r = client.post(f"/api/games/{gid}/{path}", content=json.dumps(body))
            assert r.status_code < 500, (path, body, r.text)
    for body in ({"mode": "silent", "seed": 1, "players": 9}, {"mode": "silent", "daily": 7},
                 {"mode": "silent", "seed": 1, "bot": ["x"]}, {"mode": None, "seed": 1},
                 {"mode": "silent", "seed": 1, "seat": True}):
        r = client.post("/api/games", json=body)
        assert 400 <= r.status_code < 500, (body, r.text)



def test_error_messages_quote_the_value_as_json() -> None:
    from web.games import json_text

    assert json_text(None) == "null" and json_text(True) == "true"
    assert json_text("x" * 100).endswith("…") and len(json_text("x" * 100)) == 41
