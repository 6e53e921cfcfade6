"""The play page in a real browser: Playwright for Python driving Debian's Chromium
(``/usr/bin/chromium``, installed by ``.ci/run``; no browser download) against ``ascent
serve`` on 127.0.0.1 (a child process, its games in a temporary ``--data`` folder). It plays a
tiny-rules deal to a win by clicking, sees an illegal click refused with its ruling, takes a
move back, asks for a hint and the solution; it plays the real game (silent, 3 players, the
greedy bot in the other seats) to its end while the bots move, opens the review and steps
through the winning line; it reloads in the middle of a game and goes on, and restarts the
server and finds the game again. Screenshots (1280×900 and a phone's 390×844) are kept in
``test-artifacts/`` (or ``$ASCENT_ARTIFACTS``). Every wait is for a sign on the page (an
attribute the script sets once it has drawn an answer), never a sleep."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bots.greedy import GreedyBot
from model.deal import Deal
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, Move
from model.observation import observe
from model.rules import RuleSet
from solver import solve

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("ASCENT_ARTIFACTS", ROOT / "test-artifacts"))
SEED = 1  # a tiny-rules deal whose win uses placements, Campfires and a discard turn
#: How long a test waits for the server's review of a finished game (milliseconds): a bound
#: on a hang, not a measure of speed. The review is real work (an analysis of every position,
#: web.jobs.REVIEW_SECONDS at most each); Playwright's default 30 s was exceeded when other
#: work loaded the 2 cores (load ~6), and the baseline's slowest review took 33 s at load ~4.
REVIEW_WAIT_MS = 300_000

# slow: each test starts a server and Chromium (pytest -m "not slow" skips them)
pytestmark = [pytest.mark.slow, pytest.mark.browser]

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    if os.environ.get("CI"):
        raise RuntimeError(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data: Path) -> tuple[subprocess.Popen, str]:
    """``ascent serve`` on a free port of 127.0.0.1 with its games in ``data``; returns the
    process and its URL once ``/api`` answers."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--log-level", "warning",
         "--data", str(data)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api", timeout=2) as r:
                if r.status == 200:
                    return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                out = proc.stdout.read().decode() if proc.stdout else ""
                raise RuntimeError(f"ascent serve did not start: {out}") from None
            time.sleep(0.2)


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``ascent serve`` on a free port of 127.0.0.1, stopped after the tests."""
    proc, url = start_server(tmp_path_factory.mktemp("serve-data"))
    try:
        yield url
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


#: A script run before the page's own: the walkthrough of a first visit counts as seen.
WALKED = "localStorage.setItem('ascent.walkthrough', 'done')"


def new_page(browser, walked: bool = True, **options):
    """A page in a fresh browser context (its own localStorage); with ``walked`` the
    first visit's walkthrough is marked as seen before the page loads. The context closes
    with the browser."""
    context = browser.new_context(**options)
    pg = context.new_page()
    if walked:
        pg.add_init_script(WALKED)
    return pg


@pytest.fixture()
def page(browser):
    pg = new_page(browser, viewport={"width": 1200, "height": 900})
    yield pg
    pg.close()


def open_game(page, server: str) -> None:
    page.goto(f"{server}/?seed={SEED}&rules=preset=tiny")
    page.wait_for_selector("body[data-ready='1']")


def hand_button(page, player: int, card: str, skip_marked: bool = True):
    """The first button of ``card`` in the player's hand not yet chosen (selected or marked
    for discard)."""
    buttons = page.locator(f".hand[data-player='{player}'] button.card[data-card='{card}']")
    for i in range(buttons.count()):
        b = buttons.nth(i)
        cls = b.get_attribute("class") or ""
        if not skip_marked or ("selected" not in cls and "discard" not in cls):
            return b
    raise AssertionError(f"no free {card} in player {player}'s hand")


def click_move(page, move: Move, wait: bool = True) -> None:
    """Make ``move`` the way a person does: card, slot(s), discards, Confirm; with ``wait``,
    until the page shows the next turn."""
    turn = int(page.get_attribute("body", "data-turn"))
    if move.kind == DISCARD:
        page.click("#discard-two")
    else:
        hand_button(page, move.player, move.card.text, skip_marked=False).click()
        page.click(f"#slot-{move.row}-{move.slot}")
        if move.kind == CAMPFIRE:
            page.click(f"#slot-{move.to_row}-{move.to_slot}")
        page.wait_for_function("document.getElementById('pending').textContent.length > 0")
    for card in move.discard:
        hand_button(page, move.player, card.text).click()
    page.click("#confirm")
    if wait:
        page.wait_for_selector(f"body[data-turn='{turn + 1}']")


def slot_card(page, row: int, slot: int) -> str | None:
    return page.get_attribute(f"#slot-{row}-{slot}", "data-card")


def test_play_a_tiny_deal_to_a_win_by_clicking(server, page):
    deal = Deal.from_seed(SEED, 1, RuleSet.tiny())
    res = solve(deal, "none", node_limit=1_000_000)
    assert res.verdict == "win"
    plan = res.plan.moves
    assert {m.kind for m in plan} >= {"place", "campfire", "discard"}
    open_game(page, server)
    game = Game(deal)
    for move in plan:
        click_move(page, move)
        game.push(move)
        for r in range(1, game.rules.peak_row + 1):  # the page shows the engine's mountain
            for s in range(1, game.rules.row_length(r) + 1):
                card = game.card_at(r, s)
                assert slot_card(page, r, s) == (card.text if card else None), (r, s)
    outcome = page.locator("#outcome")
    outcome.wait_for(state="visible")
    assert "You won" in outcome.inner_text()
    assert f"Cards out: {len(game.out)}" in page.inner_text("#counter")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "web-win.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_illegal_click_is_refused_with_its_ruling_and_undo(server, page):
    open_game(page, server)
    game = Game(Deal.from_seed(SEED, 1, RuleSet.tiny()))
    card = game.hands[0][0]
    ruling, reason = game.why_not(card, 2, 1)
    assert ruling == "R3"
    hand_button(page, 1, card.text).click()
    page.click("#slot-2-1")
    page.wait_for_selector("#message[data-ruling]")
    assert page.get_attribute("#message", "data-ruling") == ruling
    assert f"Refused ({ruling}): {reason}" in page.inner_text("#message")
    assert page.get_attribute("body", "data-turn") == "0"
    assert slot_card(page, 2, 1) is None
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-refused.png"), full_page=True)
    # now a legal move, then undo
    move = next(m for m in game.legal_moves() if m.kind == "place")
    click_move(page, move)
    assert slot_card(page, move.row, move.slot) == move.card.text
    page.click("#undo")
    page.wait_for_selector("body[data-turn='0']")
    assert slot_card(page, move.row, move.slot) is None
    assert page.locator(".hand[data-player='1'] button.card").count() == len(game.hands[0])


def test_hint_and_reveal(server, page):
    open_game(page, server)
    page.click("#hint")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('Hint')")
    text = page.inner_text("#message")
    assert "place" in text or "discard" in text or "campfire" in text
    page.click("#reveal")
    page.locator("#reveal-panel").wait_for(state="visible")
    page.wait_for_function("document.getElementById('reveal-text').textContent.includes('Step 1 of')")
    page.click("#reveal-next")
    page.wait_for_function("document.getElementById('reveal-text').textContent.includes('Step 2 of')")
    assert page.locator("#reveal-svg svg").count() == 1


def test_the_deal_shows_its_deck_with_the_next_card_marked(server, page):
    open_game(page, server)
    deck = Deal.from_seed(SEED, 1, RuleSet.tiny()).decks[0]
    game = Game(Deal.from_seed(SEED, 1, RuleSet.tiny()))
    shown = page.locator(".hand[data-player='1'] .deck-card").all_inner_texts()
    assert [t.replace("next", "").strip() for t in shown] == [c.text for c in game.decks[0]]
    assert page.inner_text(".hand[data-player='1'] .deck-card.next").endswith(deck[len(game.hands[0])].text)


# ---- the real game -------------------------------------------------------------------------

SILENT_SEED = 3  # tiny, 3 players: greedy in every seat loses it, after a winnable start


def silent_url(server: str, seed: int, seat: int = 1, pause: int = 150) -> str:
    return (f"{server}/?seed={seed}&players=3&seat={seat}&mode=silent&rules=preset=tiny"
            f"&bot=greedy&pause={pause}")


def wait_my_turn_or_end(page) -> None:
    page.wait_for_function(
        "document.body.dataset.ready === '1' && "
        "(document.body.dataset.yourTurn === '1' || document.body.dataset.outcome !== '')")


def catch_up(mirror: Game, page, seat: int = 0) -> None:
    """Play the bots' moves on ``mirror`` (greedy from each seat's observation, as the server
    does) up to the turn the page shows, and check the page's mountain against it."""
    bot = GreedyBot()
    turn = int(page.get_attribute("body", "data-turn"))
    while mirror.turn < turn:
        assert mirror.to_move != seat
        mirror.push(bot.choose(observe(mirror)))
    for r in range(1, mirror.rules.peak_row + 1):
        for s in range(1, mirror.rules.row_length(r) + 1):
            card = mirror.card_at(r, s)
            assert slot_card(page, r, s) == (card.text if card else None), (r, s)


def my_move(page, mirror: Game) -> None:
    """The person's move (chosen with the greedy rule from the seat's own observation),
    clicked; waits until the page shows a later turn."""
    move = GreedyBot().choose(observe(mirror))
    turn = mirror.turn
    click_move(page, move, wait=False)  # the bots may move next: the turn jumps
    mirror.push(move)
    page.wait_for_function(f"+document.body.dataset.turn > {turn}")


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
    return path


def test_play_the_real_game_to_its_end_and_step_through_the_review(server, browser):
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    try:
        page.goto(silent_url(server, SILENT_SEED))
        mirror = Game(Deal.from_seed(SILENT_SEED, 3, RuleSet.tiny()))
        while True:
            wait_my_turn_or_end(page)
            catch_up(mirror, page)
            if mirror.outcome() is not None:
                break
            others = page.locator(".hand .hidden-hand").count()
            assert others == 2 and page.locator(".hand button.card").count() == len(mirror.hands[0])
            my_move(page, mirror)
        assert page.get_attribute("body", "data-outcome") == mirror.outcome() == "loss"
        assert page.locator("#moves li").count() == mirror.turn  # the bots' moves are listed too
        share = page.inner_text("#share-text")
        assert share == f"Ascent deal {SILENT_SEED} (tiny) · 3 players · {mirror.filled_slots()} of 10 slots"
        assert "/g/" in page.url
        page.click("#review-open")
        page.wait_for_selector("body[data-review='done']", timeout=REVIEW_WAIT_MS)
        summary = page.inner_text("#review-summary")
        losing = int(summary.split("move ")[1].split(" ")[0])
        assert summary.startswith("Lost by move") and page.locator("#review-moves li.losing").count() == 1
        assert "the losing move" in page.locator("#review-moves li").nth(losing - 1).text_content()  # folded
        assert page.inner_text("#review-reason").startswith(f"Why the position after move {losing} ")
        if importlib.util.find_spec("bots.review") is not None:  # the silent review's line
            assert page.inner_text("#review-silent").startswith("Silent review (the best bot's view")
        page.wait_for_selector("body[data-line-step='0']")
        total = int(page.inner_text("#line-text").split(" of ")[1].split(":")[0])
        line = Game(Deal.from_seed(SILENT_SEED, 3, RuleSet.tiny()))
        for m in mirror.move_stack[: losing - 1]:
            line.push(m)
        for k in range(1, total + 1):
            page.click("#line-next")
            page.wait_for_selector(f"body[data-line-step='{k}']")
        assert page.locator("#line-next").is_disabled()
        assert "Won in" in page.inner_html("#line-svg")  # the line ends on the Summit
        shot(page, "web-silent-review-1280x900.png")
        page.click("#line-prev")
        page.wait_for_selector(f"body[data-line-step='{total - 1}']")
    finally:
        page.close()


def test_reload_in_the_middle_of_a_game_and_go_on(server, browser):
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page.goto(silent_url(server, 5, seat=2))
        mirror = Game(Deal.from_seed(5, 3, RuleSet.tiny()))
        wait_my_turn_or_end(page)
        catch_up(mirror, page, seat=1)
        my_move(page, mirror)
        wait_my_turn_or_end(page)
        catch_up(mirror, page, seat=1)
        link = page.url
        assert "/g/" in link and mirror.outcome() is None
        shot(page, "web-silent-390x844.png")
        page.reload()
        wait_my_turn_or_end(page)
        assert page.url == link and int(page.get_attribute("body", "data-turn")) == mirror.turn
        catch_up(mirror, page, seat=1)
        my_move(page, mirror)
        wait_my_turn_or_end(page)
        catch_up(mirror, page, seat=1)
    finally:
        page.close()


def test_a_restart_of_the_server_keeps_the_game(browser, tmp_path):
    proc, url = start_server(tmp_path)
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    try:
        page.goto(silent_url(url, 5))
        mirror = Game(Deal.from_seed(5, 3, RuleSet.tiny()))
        wait_my_turn_or_end(page)
        my_move(page, mirror)
        wait_my_turn_or_end(page)
        catch_up(mirror, page)
        gid = page.url.split("/g/")[1].split("?")[0]
        stop_server(proc)
        proc, url = start_server(tmp_path)
        page.goto(f"{url}/g/{gid}?pause=150")
        wait_my_turn_or_end(page)
        assert int(page.get_attribute("body", "data-turn")) == mirror.turn
        catch_up(mirror, page)
        my_move(page, mirror)
        wait_my_turn_or_end(page)
        catch_up(mirror, page)
    finally:
        page.close()
        stop_server(proc)
