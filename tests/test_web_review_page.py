"""The review's chance chart and "learn from your mistakes" in Debian's Chromium, at a
desktop's 1280×900 and a phone's 390×844, light and dark: the chart is drawn from the
server's SVG, a point opens its position, each marked move opens as an exercise whose answer
is judged by the server, and axe-core finds no serious or critical violation with the chart
and the exercise open.

The server runs in this process (uvicorn in a thread), so that the review's evaluator can be
replaced by one under which every alternative wins and every move played loses (the
evaluator is the one pluggable function, :func:`bots.review.evaluator_for`): every compared
decision is then marked, and the learn flow has marks to show whatever the sampled worlds."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

from bots.greedy import GreedyBot
from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.observation import observe
from model.rules import RuleSet
from tests import test_web_browser
from tests.test_web_browser import ARTIFACTS, free_port, new_page

pytestmark = [pytest.mark.slow, pytest.mark.browser]

axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")
uvicorn = pytest.importorskip("uvicorn")

browser = test_web_browser.browser

SIZES = {
    "1280x900-light": {"viewport": {"width": 1280, "height": 900}, "color_scheme": "light"},
    "390x844-dark": {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                     "has_touch": True, "color_scheme": "dark"},
}
SEED = 3  # tiny, 3 players: the greedy team loses it


def call(url: str, method: str = "GET", body: object = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def marked_server(tmp_path_factory):
    """The app on uvicorn in a thread, every compared decision a blunder; and a finished,
    reviewed silent game on it: ``(url, game id, review)``."""
    import bots.review
    from web.app import create_app

    real = bots.review.evaluator_for

    def evaluator_for(estimator):
        def evaluate(world, moves, seed):
            return [k == 0 for k in range(len(moves))]  # moves = [alternative, played]
        return evaluate

    bots.review.evaluator_for = evaluator_for
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(data=tmp_path_factory.mktemp("d")),
                                           host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        gid = call(f"{url}/api/games", "POST", {"seed": SEED, "players": 3, "seat": 1,
                                                "mode": "silent", "bot": "greedy",
                                                "rules": {"preset": "tiny"}})["id"]
        mirror = Game(Deal.from_seed(SEED, 3, RuleSet.tiny()))
        while mirror.outcome() is None:
            move = GreedyBot().choose(observe(mirror))
            call(f"{url}/api/games/{gid}/{'moves' if mirror.to_move == 0 else 'advance'}",
                 "POST", move.to_json())
            mirror.push(move)
        call(f"{url}/api/games/{gid}/review", "POST")
        while (r := call(f"{url}/api/games/{gid}/review"))["status"] == "running":
            assert time.monotonic() < deadline + 120
            time.sleep(0.1)
        assert r["status"] == "done" and r["marks"] and r["chart"]
        yield url, gid, r
    finally:
        server.should_exit = True
        thread.join(10)
        bots.review.evaluator_for = real


def audit(page, where: str) -> None:
    found = axe_api.Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3])
           for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, f"{where}: {bad}"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_chart_opens_positions_and_the_learn_flow_judges_answers(marked_server, browser,
                                                                      size):
    url, gid, r = marked_server
    page = new_page(browser, **SIZES[size])
    try:
        page.goto(f"{url}/g/{gid}")
        page.wait_for_selector("#review-open:not([hidden])")
        page.click("#review-open")
        page.wait_for_selector("body[data-review='done']", timeout=test_web_browser.REVIEW_WAIT_MS)
        # the chart: one point a move, the marks as symbols, the colours of the scheme
        points = page.locator("#review-chart-svg .point")
        assert points.count() == len(r["moves"])
        assert page.locator("#review-chart-svg .point.marked").count() == len(r["marks"])
        bg = page.evaluate("""() => getComputedStyle(
            document.querySelector('#review-chart-svg .bg')).fill""")
        dark = size.endswith("dark")
        channels = [int(x) for x in bg.replace("rgb(", "").replace(")", "").split(",")]
        assert (max(channels) < 80) if dark else (min(channels) > 200), bg
        # a point opens the position before its move; Enter on a focused point too
        points.nth(2).click()
        page.wait_for_selector("body[data-review-position='2']")
        assert "after move 2" in page.inner_text("#review-position-text")
        points.nth(4).focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-review-position='4']")
        # learn from your mistakes: the first mark, the review's own move as the answer
        mark = r["marks"][0]
        k = mark["index"]
        page.click(f"#learn-marks button:has-text('Move {k} ')")
        page.wait_for_selector(f"body[data-learn='{k}']")
        options = page.eval_on_selector_all("#learn-move option", "os => os.map(o => o.value)")
        wanted = next(o for o in options
                      if Move.from_json(json.loads(o)) == Move.from_json(mark["alternative"]))
        page.select_option("#learn-move", wanted)
        page.click("#learn-try")
        page.wait_for_selector("body[data-learn-verdict]")
        assert page.get_attribute("body", "data-learn-verdict") == "review"
        answer = page.inner_text("#learn-answer")
        assert answer.startswith("The review's own move.") and "The review's move:" in answer
        audit(page, f"the review with its chart and an exercise open ({size})")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#review-panel").screenshot(path=str(ARTIFACTS / f"review-learn-{size}.png"))
        page.locator("#review-chart").screenshot(path=str(ARTIFACTS / f"review-chart-{size}.png"))
    finally:
        page.close()
