"""The page's edges on the server's side (in process, through the ASGI test client): a game's
state is never cached by a browser (``Cache-Control: no-store`` on every answer under
``/api/games``), the rulings' text is served from its one source (``docs/rules.md``,
:mod:`web.rulings`), and an unknown path is an HTML 404 page for a browser but JSON for an
API client. The browser's side of the same edges is tests/test_web_edges.py."""

from __future__ import annotations

import re
import warnings

import pytest

from model.deal import Deal
from model.game import Game
from model.rules import RuleSet
from web import rulings as rulings_mod
from web.app import create_app
from web.rulings import RULES_MD, parse, plain, rulings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture()
def client():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def test_every_answer_about_a_game_is_no_store(client):
    made = client.post("/api/games", json={"seed": 1, "players": 1, "rules": {"preset": "tiny"}})
    gid = made.json()["id"]
    move = Game(Deal.from_seed(1, 1, RuleSet.tiny())).legal_moves()[0]
    answers = {
        "new": made,
        "state": client.get(f"/api/games/{gid}"),
        "move": client.post(f"/api/games/{gid}/moves", json=move.to_json()),
        "refused move": client.post(f"/api/games/{gid}/moves", json=move.to_json()),
        "undo": client.post(f"/api/games/{gid}/undo"),
        "review": client.get(f"/api/games/{gid}/review"),
        "unknown game": client.get("/api/games/0123456789abcdef"),
    }
    assert [a.status_code for a in answers.values()] == [201, 200, 200, 422, 200, 409, 404]
    for name, a in answers.items():
        assert a.headers["cache-control"] == "no-store", name
    silent = client.post("/api/games", json={"seed": 3, "players": 3, "seat": 2, "mode": "silent",
                                             "bot": "greedy", "rules": {"preset": "tiny"}})
    advanced = client.post(f"/api/games/{silent.json()['id']}/advance")
    assert advanced.status_code == 200 and advanced.headers["cache-control"] == "no-store"
    # the page itself is asked for again on every visit; the rules may be kept an hour
    assert client.get("/").headers["cache-control"] == "no-cache"
    assert client.get(f"/g/{gid}").headers["cache-control"] == "no-cache"
    assert "no-store" not in client.get("/api/rules").headers["cache-control"]


def test_an_unknown_path_is_an_html_page_for_a_browser_and_json_otherwise(client):
    page = client.get("/nope", headers=HTML)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "There is nothing at /nope on this server." in page.text
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', page.text)
    assert links[0] == ("/", "Play the real game")  # the real game first
    api = client.get("/nope", headers={"Accept": "application/json"})
    assert api.status_code == 404 and api.json() == {"error": "GET /nope: Not Found", "status": 404}
    assert client.get("/nope").json()["status"] == 404  # no Accept: JSON
    # the API's own paths stay JSON, even for a browser
    under_api = client.get("/api/nope", headers=HTML)
    assert under_api.status_code == 404 and under_api.json()["status"] == 404
    # a wrong method stays a JSON 405
    assert client.delete("/", headers=HTML).status_code == 405


def test_the_rulings_are_served_from_docs_rules_md(client):
    answer = client.get("/api/rules")
    assert answer.status_code == 200
    found = answer.json()["rulings"]
    ids = [r["id"] for r in found]
    assert ids == [f"R{i}" for i in range(1, 14)] + ["V1"] + [f"G{i}" for i in range(1, 8)]
    text = RULES_MD.read_text(encoding="utf-8")
    for r in found:
        assert f"### {r['id']}: {r['title']}" in text
        assert r["parts"][0]["label"] == "Ruling", r["id"]
        first = r["parts"][0]["blocks"][0]["p"]
        # the ruling's first words are the file's, after "**Ruling.**"
        head = text.split(f"### {r['id']}: ")[1].split("**Ruling.** ")[1]
        assert plain(head.split("\n\n")[0]).startswith(first[:60]), r["id"]
    r6 = next(r for r in found if r["id"] == "R6")
    assert [p["label"] for p in r6["parts"]] == ["Ruling", "Texts", "Options", "Examples"]
    assert {"ol"} <= {k for b in r6["parts"][0]["blocks"] for k in b}  # the numbered walk


def test_parse_takes_the_marks_off_and_keeps_lists():
    md = """# Title

### R4: Height *(the rows)*

**Ruling.** A card of value *v* goes in rows 1 to `v`, see [R2](#r2).
It continues here.

- one **bold** item
  that wraps;
- two.

**Example.** None.

### Not a ruling

**Ruling.** ignored
"""
    assert parse(md) == [{"id": "R4", "title": "Height (the rows)", "parts": [
        {"label": "Ruling", "blocks": [
            {"p": "A card of value v goes in rows 1 to v, see R2. It continues here."},
            {"ul": ["one bold item that wraps;", "two."]}]},
        {"label": "Examples", "blocks": [{"p": "None."}]}]}]


def test_without_docs_the_rules_are_a_404_not_a_500(client, monkeypatch, tmp_path):
    monkeypatch.setattr(rulings_mod, "RULES_MD", tmp_path / "missing.md")
    rulings.cache_clear()
    try:
        answer = client.get("/api/rules")
        assert answer.status_code == 404
        assert "docs/rules.md" in answer.json()["error"]
    finally:
        rulings.cache_clear()
