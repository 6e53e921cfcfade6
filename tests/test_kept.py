"""``ascent serve --keep-games FILE`` (web/kept.py): a finished silent game's moves are kept in
the local SQLite file in the documented format (and replay), unfinished and open games are
not, nothing is kept without the flag, and a file that is not such a database is refused."""

from __future__ import annotations

import json
import sqlite3
import warnings
from pathlib import Path

import pytest

from bots.greedy import GreedyBot
from model.deal import Deal
from model.game import Game
from model.observation import observe
from model.records import Plan, replay
from model.rules import RuleSet
from tests.test_cli import assert_one_line_error, run
from web.app import create_app
from web.kept import COLUMNS, TABLE, KeptGames, KeptGamesError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TINY = RuleSet.tiny().to_dict()


def _play_to_the_end(c: TestClient, seed: int) -> str:
    r = c.post("/api/games", json={"seed": seed, "players": 3, "seat": 1, "mode": "silent",
                                   "bot": "greedy", "rules": TINY})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    mirror = Game(Deal.from_seed(seed, 3, RuleSet.tiny()))
    bot = GreedyBot()
    while mirror.outcome() is None:
        move = bot.choose(observe(mirror))
        path = "moves" if mirror.to_move == 0 else "advance"
        body = {"json": move.to_json()} if path == "moves" else {}
        assert c.post(f"/api/games/{gid}/{path}", **body).status_code == 200
        mirror.push(move)
    return gid


def test_finished_silent_games_are_kept_in_the_documented_format(tmp_path: Path) -> None:
    db = tmp_path / "people.sqlite3"
    with TestClient(create_app(keep_games=db)) as c:
        gid = _play_to_the_end(c, 5)
        c.post("/api/games", json={"seed": 6, "players": 3, "mode": "silent", "bot": "greedy",
                                   "rules": TINY})  # not finished: not kept
        c.post("/api/games", json={"seed": 6, "rules": TINY})  # an open game: not kept
    con = sqlite3.connect(db)
    assert [r[1] for r in con.execute(f"PRAGMA table_info({TABLE})")] == list(COLUMNS)
    rows = con.execute(f"SELECT * FROM {TABLE}").fetchall()
    assert len(rows) == 1
    row = dict(zip(COLUMNS, rows[0]))
    assert (row["id"], row["players"], row["seat"], row["bot"]) == (gid, 3, 1, "greedy")
    plan = Plan.from_json(json.loads(row["record"]))
    assert replay(plan.deal, plan.moves).outcome == row["outcome"]
    assert len(plan.moves) == row["moves"] and row["finished"].endswith("Z")


def test_nothing_is_kept_without_the_flag_and_bad_files_are_refused(tmp_path: Path) -> None:
    with TestClient(create_app()) as c:
        _play_to_the_end(c, 5)
        assert c.app.state.ascent.kept is None
    text = tmp_path / "notes.txt"
    text.write_text("mine")
    with pytest.raises(KeptGamesError):
        KeptGames(text)
    assert text.read_text() == "mine"
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute(f"CREATE TABLE {TABLE} (x TEXT)")
    with pytest.raises(KeptGamesError):
        KeptGames(other)
    res = run("serve", "--port", "0", "--check", "--keep-games", str(text))
    assert_one_line_error(res, 2, "--keep-games")
