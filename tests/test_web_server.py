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
