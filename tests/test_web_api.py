"""The web app's JSON API through the ASGI test client (in-process): every answer agrees with
the rules engine, a game can be won through the API, and no bad request gets a 500."""

from __future__ import annotations

import json
import random
import re
import signal
import warnings

import pytest

from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.rules import RuleSet
from solver import solve
from web.app import MAX_BODY, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TINY = {"preset": "tiny"}


@pytest.fixture()
def client():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def new_game(client, seed=1, players=1, rules=TINY):
    r = client.post("/api/games", json={"seed": seed, "players": players, "rules": rules})
    assert r.status_code == 201, r.text
    return r.json()


def svg_cards(svg: str) -> dict[tuple[int, int], str | None]:
    out = {}
    for m in re.finditer(r'<g class="slot" data-row="(\d+)" data-slot="(\d+)"([^>]*)>', svg):
        card = re.search(r'data-card="([^"]+)"', m.group(3))
        out[(int(m.group(1)), int(m.group(2)))] = card.group(1) if card else None
    return out


def winning_plan(seed: int, players: int = 1, rules: RuleSet = RuleSet.tiny()) -> list[Move]:
    res = solve(Deal.from_seed(seed, players, rules), "none", node_limit=1_000_000)
    assert res.verdict == "win", f"seed {seed} is not a known win"
    return list(res.plan.moves)


def test_state_agrees_with_the_engine(client):
    state = new_game(client, seed=4, players=2)
    game = Game(Deal.from_seed(4, 2, RuleSet.tiny()))
    assert state["hands"] == [[c.text for c in h] for h in game.hands]
    assert state["decks"] == [len(d) for d in game.decks]
    assert state["to_move"] == 1 and state["turn"] == 0 and state["outcome"] is None
    expected = {}
    for pl in game.generate_placements():
        expected.setdefault(pl.card.text, []).append(
            {"row": pl.row, "slot": pl.slot, "to_row": pl.to_row, "to_slot": pl.to_slot,
             "cost": pl.cost})
    assert {card: [{k: v for k, v in t.items() if k != "why"} for t in ts]
            for card, ts in state["targets"].items()} == expected
    assert all(t["why"].endswith(")") for ts in state["targets"].values() for t in ts)
    assert all(v is None for v in svg_cards(state["svg"]).values())
    assert len(svg_cards(state["svg"])) == game.rules.mountain_slots
    assert set(state["card_svgs"]) == {c.text for h in game.hands for c in h}


def test_play_a_whole_game_to_a_win(client):
    plan = winning_plan(1)
    state = new_game(client, seed=1)
    game = Game(Deal.from_seed(1, 1, RuleSet.tiny()))
    for move in plan:
        if move.card is not None:  # what the page asks before offering the move
            ans = client.post(f"/api/games/{state['id']}/check",
                              json={"card": move.card.text, "row": move.row, "slot": move.slot,
                                    "to_row": move.to_row, "to_slot": move.to_slot}).json()
            assert ans["legal"] is True and ans["cost"] == len(move.discard)
        body = move.to_json()
        del body["player"]  # the page leaves player and kind out
        del body["kind"]
        r = client.post(f"/api/games/{state['id']}/moves", json=body)
        assert r.status_code == 200, r.text
        state = r.json()
        game.push(move)
        assert svg_cards(state["svg"]) == {
            (r_, s): (c.text if (c := game.card_at(r_, s)) else None)
            for r_ in range(1, game.rules.peak_row + 1)
            for s in range(1, game.rules.row_length(r_) + 1)}
    assert state["outcome"] == "win" and game.is_won()
    assert state["cards_out"] == len(game.out)
    assert state["message"].startswith("You won")
    assert [m["move"] for m in state["moves"]] == [m.to_json() for m in plan]
    over = client.post(f"/api/games/{state['id']}/moves", json={"kind": "discard", "discard": []})
    assert over.status_code == 409 and over.json()["ruling"] == "R10"  # as /advance: game over
    assert client.get(f"/api/games/{state['id']}/hint").status_code == 409


def test_illegal_moves_are_refused_with_the_ruling(client):
    state = new_game(client, seed=1)
    gid = state["id"]
    game = Game(Deal.from_seed(1, 1, RuleSet.tiny()))
    card = game.hands[0][0]
    ruling, reason = game.why_not(card, 2, 1)
    assert ruling is not None
    ans = client.post(f"/api/games/{gid}/check", json={"card": card.text, "row": 2, "slot": 1}).json()
    assert ans == {"legal": False, "ruling": ruling, "reason": reason}
    r = client.post(f"/api/games/{gid}/moves", json={"card": card.text, "row": 2, "slot": 1})
    assert r.status_code == 422
    assert r.json()["ruling"] == ruling and r.json()["reason"] == reason
    assert client.get(f"/api/games/{gid}").json()["turn"] == 0  # nothing changed
    missing = next(c for c in game.rules.composition() if c not in game.hands[0])
    ans = client.post(f"/api/games/{gid}/check", json={"card": missing.text, "row": 1, "slot": 1}).json()
    assert ans["legal"] is False and ans["ruling"] == "R11"


def test_undo_and_hint_and_reveal(client):
    plan = winning_plan(1)
    state = new_game(client, seed=1)
    gid = state["id"]
    assert client.post(f"/api/games/{gid}/undo").status_code == 409
    hint = client.get(f"/api/games/{gid}/hint").json()
    game = Game(Deal.from_seed(1, 1, RuleSet.tiny()))
    first = Move.from_json(hint["move"])
    game.check(first)  # the hint is a legal move
    assert hint["source"] in ("solver", "solution")
    client.post(f"/api/games/{gid}/moves", json=hint["move"])
    after = client.post(f"/api/games/{gid}/undo").json()
    assert after["turn"] == 0 and all(v is None for v in svg_cards(after["svg"]).values())
    step0 = client.get(f"/api/games/{gid}/solution/0").json()
    total = step0["total"]
    last = client.get(f"/api/games/{gid}/solution/{total}").json()
    assert last["outcome"] == "win" and step0["outcome"] is None
    assert client.get(f"/api/games/{gid}/solution/{total + 1}").status_code == 404
    assert total == len(plan) or last["outcome"] == "win"


def test_every_bad_request_is_a_json_4xx(client):
    gid = new_game(client)["id"]
    cases = [
        ("post", "/api/games", b"{not json", 400),
        ("post", "/api/games", b"[1, 2]", 400),
        ("post", "/api/games", b"", 400),
        ("post", "/api/games", json.dumps({"seed": "x"}).encode(), 400),
        ("post", "/api/games", json.dumps({"seed": -1}).encode(), 422),
        ("post", "/api/games", json.dumps({"seed": 1, "players": 9}).encode(), 422),
        ("post", "/api/games", json.dumps({"seed": 1, "rules": {"colour": "x"}}).encode(), 422),
        ("post", "/api/games", json.dumps({"daily": "2026-13-45"}).encode(), 400),
        ("post", "/api/games", json.dumps({"nothing": 1}).encode(), 400),
        ("post", "/api/games", b"{" * 100_000, 413),
        ("get", "/api/games/nope", None, 404),
        ("post", "/api/games/nope/moves", b"{}", 404),
        ("post", f"/api/games/{gid}/moves", b"{}", 422),  # a discard turn of no cards (R11)
        ("post", f"/api/games/{gid}/moves", json.dumps({"card": "99z", "row": 1, "slot": 1}).encode(), 400),
        ("post", f"/api/games/{gid}/moves", json.dumps({"card": "12r", "row": 1, "slot": 1}).encode(), 422),
        ("post", f"/api/games/{gid}/moves", json.dumps({"card": "1r", "row": "a", "slot": 1}).encode(), 400),
        ("post", f"/api/games/{gid}/check", json.dumps({"kind": "discard", "discard": []}).encode(), 400),
        ("post", f"/api/games/{gid}/check", b'"x"', 400),
        ("get", f"/api/games/{gid}/solution/abc", None, 400),
        ("get", f"/api/games/{gid}/solution/-1", None, 400),
        ("delete", f"/api/games/{gid}", None, 405),
        ("get", "/nowhere", None, 404),
        ("get", "/api/daily/yesterday", None, 400),
    ]
    for method, path, body, status in cases:
        r = client.request(method.upper(), path, content=body)
        assert r.status_code == status, (path, body and body[:60], r.status_code, r.text)
        data = r.json()
        assert data["status"] == status and data["error"], data
        assert "Traceback" not in r.text


def test_random_bodies_never_give_a_500(client):
    gid = new_game(client)["id"]
    rng = random.Random(13)
    values = [None, 0, -1, 1, 2, 3, 10**30, 1.5, True, "", "7r", "Cr", "B", "S", "1g", "x",
              [], ["1r"], ["1r", "2g"], {}, {"a": 1}]
    keys = ["card", "row", "slot", "to_row", "to_slot", "discard", "kind", "player"]
    for _ in range(150):
        body = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, len(keys)))}
        if rng.random() < 0.3:
            body["kind"] = rng.choice(["place", "campfire", "discard", "jump"])
        for path in ("moves", "check"):
            r = client.post(f"/api/games/{gid}/{path}", json=body)
            assert r.status_code < 500, (body, r.text)
            if r.status_code >= 400:
                assert "error" in r.json()
        if client.get(f"/api/games/{gid}").json()["turn"]:
            client.post(f"/api/games/{gid}/undo")


def test_page_and_static_files_need_nothing_from_the_internet(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    assert {"/static/play.js", "/static/play.css"} <= set(assets)
    for text in [page.text] + [client.get(a).text for a in assets]:
        assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I)
    api = client.get("/api").json()
    paths = {e["path"] for e in api["endpoints"]}
    assert {"/api/games", "/api/games/{id}/moves", "/api/daily/{date}"} <= paths


def test_old_games_are_dropped_beyond_the_cap():
    with TestClient(create_app(max_games=3)) as c:
        ids = [new_game(c)["id"] for _ in range(5)]
        assert c.get(f"/api/games/{ids[0]}").status_code == 404
        assert c.get(f"/api/games/{ids[-1]}").status_code == 200
    assert MAX_BODY >= 1024


def test_hint_off_the_solution_comes_from_the_solver(client):
    """Leave the solution's line; the hint is then the solver's next move from the position
    reached, and following hints wins."""
    state = new_game(client, seed=1)
    gid = state["id"]
    reference = Move.from_json(client.get(f"/api/games/{gid}/hint").json()["move"])
    game = Game(Deal.from_seed(1, 1, RuleSet.tiny()))
    for other in game.legal_moves():
        if other == reference:
            continue
        client.post(f"/api/games/{gid}/moves", json=other.to_json())
        game.push(other)
        r = client.get(f"/api/games/{gid}/hint")
        if r.status_code == 200:
            break
        assert r.status_code == 409  # a lost position: no winning move exists
        client.post(f"/api/games/{gid}/undo")
        game.pop()
    else:
        pytest.fail("no other first move keeps the deal winnable")
    for _ in range(40):
        hint = r.json()
        assert hint["source"] == "solver"
        move = Move.from_json(hint["move"])
        game.push(move)  # raises if the hint were illegal
        state = client.post(f"/api/games/{gid}/moves", json=hint["move"]).json()
        if state["outcome"]:
            break
        r = client.get(f"/api/games/{gid}/hint")
    assert state["outcome"] == "win" and game.is_won()


def test_serve_refuses_bad_options_in_one_line(tmp_path):
    import socket

    from tests.test_cli import assert_one_line_error, run

    help_ = run("serve", "--help")
    assert help_.exit_code == 0 and "Examples:" in help_.stdout and "127.0.0.1" in help_.stdout
    assert_one_line_error(run("serve", "--archive", str(tmp_path / "nope")), 2, "no such folder")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        taken = s.getsockname()[1]
        assert_one_line_error(run("serve", "--port", str(taken)), 2, "cannot listen")
    assert_one_line_error(run("serve", "--port", "70000"), 2, "70000")
    afile = tmp_path / "a-file"
    afile.write_text("not a folder", encoding="utf-8")
    assert_one_line_error(run("serve", "--data", str(afile)), 2, "not a folder")
    assert_one_line_error(run("serve", "--jobs", "0"), 2, "--jobs")


def test_serve_check_answers_over_http():
    from tests.test_cli import run

    result = run("serve", "--port", "0", "--check")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [ln.split(":")[0] for ln in lines[:5]] == [
        "GET /", "GET /static/play.js", "GET /static/play.css", "GET /api", "POST /api/games"]
    assert all(": 200," in ln or ": 201," in ln for ln in lines[:5])


def test_a_lost_game_says_so(client):
    """Discard two cards every turn, keeping the Summit: once the deck is out, the last card
    in hand is the Summit, which cannot be played (R10) nor discarded alone (R12)."""
    state = new_game(client, seed=2)
    gid = state["id"]
    game = Game(Deal.from_seed(2, 1, RuleSet.tiny()))
    while state["outcome"] is None:
        hand = state["hands"][0]
        keep = [c for c in hand if c != "S"]
        pick = (keep + ["S"])[:2]
        r = client.post(f"/api/games/{gid}/moves", json={"kind": "discard", "discard": pick})
        assert r.status_code == 200, r.text
        game.push(Move.from_json({"player": 1, "kind": "discard", "discard": pick}))
        state = r.json()
    assert state["outcome"] == game.outcome() == "loss"
    assert state["message"].startswith("Lost") and "R12" in state["message"]
    assert state["targets"] == {}
    assert client.get(f"/api/games/{gid}/hint").status_code == 409
    assert client.post(f"/api/games/{gid}/undo").json()["outcome"] is None


def puzzle_record(kind: str = "deal", skip: int = 4) -> dict:
    """A puzzle record of the shape ``ascent daily --json`` prints, made here from a solved
    tiny deal (par: the waste of that win)."""
    deal = Deal.from_seed(1, 1, RuleSet.tiny())
    plan = winning_plan(1)
    end = Game(deal)
    for m in plan:
        end.push(m)
    rec = {"date": "2026-12-01", "kind": kind, "size": "mini", "rules": deal.rules.to_dict(),
           "goal": "Win with as few cards out of the game as you can", "par": len(end.out),
           "par_proven": False, "grade": "easy",
           "key_moves": [m.to_json() for m in plan[5:7]],
           "solution": {"deal": {"players": 1, "decks": deal.deck_texts(), "seed": 1},
                        "rules": deal.rules.to_dict(), "moves": [m.to_json() for m in plan]}}
    if kind == "deal":
        rec["deal"] = {"players": 1, "decks": deal.deck_texts(), "seed": 1}
    else:
        start = Game(deal)
        for m in plan[:skip]:
            start.push(m)
        rec["position"] = start.copy().to_position()
    return rec


@pytest.mark.parametrize("kind", ["deal", "position"])
def test_a_puzzle_record_plays_with_goal_par_and_its_solution(client, kind):
    rec = puzzle_record(kind)
    r = client.post("/api/games", json={"puzzle": rec})
    assert r.status_code == 201, r.text
    state = r.json()
    gid = state["id"]
    assert state["goal"] == rec["goal"] and state["par"] == rec["par"]
    assert state["puzzle"]["date"] == "2026-12-01"
    solution = rec["solution"]["moves"][4 if kind == "position" else 0:]
    for expected in solution:
        hint = client.get(f"/api/games/{gid}/hint").json()
        assert hint["source"] == "solution" and hint["move"] == expected
        state = client.post(f"/api/games/{gid}/moves", json=hint["move"]).json()
    assert state["outcome"] == "win"
    assert state["message"].endswith(f"exactly par ({rec['par']}).")
    step = client.get(f"/api/games/{gid}/solution/{len(solution)}").json()
    assert step["total"] == len(solution) and step["outcome"] == "win"
    assert step["source"] == "solution"


def test_a_bad_puzzle_record_is_a_4xx(client):
    for bad in ([], {"deal": None}, {"deal": {"decks": [["7r"]]}}, {"position": {"mountain": 1}}):
        r = client.post("/api/games", json={"puzzle": bad})
        assert 400 <= r.status_code < 500 and r.json()["error"], (bad, r.text)


@pytest.fixture(scope="module")
def daily_archive(tmp_path_factory):
    """A frozen archive holding the real mini deal puzzle of 2026-12-01
    (:func:`puzzles.daily.puzzle_for`), written as ``ascent daily build`` lays it out."""
    import datetime

    from puzzles.archive import dumps_record, path_for
    from puzzles.daily import puzzle_for

    date = datetime.date(2026, 12, 1)
    record = puzzle_for(date, "deal", "mini")
    root = tmp_path_factory.mktemp("archive")
    path = path_for(root, date, "deal", "mini")
    path.parent.mkdir(parents=True)
    path.write_text(dumps_record(record), encoding="utf-8")
    return root, record


def test_daily_puzzle_from_the_archive_to_par(daily_archive):
    root, record = daily_archive
    with TestClient(create_app(archive=root)) as c:
        public = c.get("/api/daily/2026-12-01?kind=deal&size=mini").json()
        assert public == {k: v for k, v in record.items() if k not in ("solution", "key_moves")}
        assert c.get("/api/daily/2026-12-02?size=mini").status_code == 404
        assert c.get("/api/daily/2026-12-01?size=huge").status_code == 400
        r = c.post("/api/games", json={"daily": "2026-12-01", "kind": "deal", "size": "mini"})
        assert r.status_code == 201, r.text
        state = r.json()
        assert state["par"] == record["par"] and state["goal"] == record["goal"]["text"]
        gid = state["id"]
        for expected in record["solution"]["moves"]:
            hint = c.get(f"/api/games/{gid}/hint").json()
            assert hint["source"] == "solution" and hint["move"] == expected
            state = c.post(f"/api/games/{gid}/moves", json=expected).json()
        assert state["outcome"] == "win"
        assert state["cards_out"] == record["par"]
        assert state["message"].endswith(f"exactly par ({record['par']}).")


def test_a_published_puzzle_is_served_as_frozen_without_an_archive_option():
    """Without --archive the page serves a date of the published archive from it (a
    position/full puzzle would take minutes to make), never a newly generated record."""
    import datetime as dt

    from puzzles.archive import PUBLISHED
    from puzzles.check import find

    record = find(PUBLISHED, dt.date(2026, 12, 29), "position", "full")
    assert record is not None
    with TestClient(create_app()) as c:
        public = c.get("/api/daily/2026-12-29?kind=position&size=full").json()
        assert public == {k: v for k, v in record.items() if k not in ("solution", "key_moves")}


def test_the_page_names_the_mini_rules_as_the_command_line_does():
    """The page's rules line for the daily mini puzzle is the name ``ascent daily`` prints,
    and ``preset=`` accepts it back: the same game as the daily mini rules."""
    from puzzles.daily import MINI_RULES
    from tests.test_cli import run

    with TestClient(create_app()) as c:
        r = c.post("/api/games", json={"daily": "2026-12-01", "kind": "deal", "size": "mini"})
        assert r.status_code == 201, r.text
        name = r.json()["rules_text"]
    printed = run("daily", "--date", "2026-12-01", "--size", "mini")
    assert printed.exit_code == 0, printed.stderr
    assert f"rules: {name} (20 cards)" in printed.stdout
    assert name == "mini"
    assert RuleSet.from_options([f"preset={name}"]) == MINI_RULES


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_serve_stops_cleanly_on_ctrl_c_and_sigterm(tmp_path, signum):
    """Ctrl-C (SIGINT) and SIGTERM are how a server is stopped: uvicorn shuts down and
    ``ascent serve`` exits 0, without ``ascent: error: interrupted``. The signal goes to the
    child once its main loop runs and it has answered over HTTP."""
    import urllib.request

    from tests import signalling

    proc = signalling.start(["serve", "--port", "0", "--data", str(tmp_path), "--jobs", "1",
                             "--log-level", "warning"], "serving")
    signalling.wait_ready(proc, "serving", timeout=120)
    started = proc.stderr.readline()  # written before uvicorn starts, so already there
    url = re.search(r"serving on (http://\S+?)/? ", started).group(1)
    with urllib.request.urlopen(url + "/api", timeout=60) as r:
        assert r.status == 200
    proc.send_signal(signum)
    out, err = signalling.finish(proc)
    assert proc.returncode == 0, (proc.returncode, err)
    assert "interrupted" not in err and "Traceback" not in err, err
