"""The play page in a real browser: Playwright for Python driving Debian's Chromium
(``/usr/bin/chromium``, installed by ``.ci/run``; no browser download) against ``ascent
serve`` on 127.0.0.1. It plays a tiny-rules deal to a win by clicking, sees an illegal click
refused with its ruling, takes a move back, asks for a hint and the solution, and keeps a
screenshot in ``test-artifacts/`` (or ``$ASCENT_ARTIFACTS``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from model.deal import Deal
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, Move
from model.rules import RuleSet
from solver import solve

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("ASCENT_ARTIFACTS", ROOT / "test-artifacts"))
SEED = 1  # a tiny-rules deal whose win uses placements, Campfires and a discard turn

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    if os.environ.get("CI"):
        raise RuntimeError(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """``ascent serve`` on a free port of 127.0.0.1, stopped after the tests."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    out = proc.stdout.read().decode() if proc.stdout else ""
                    raise RuntimeError(f"ascent serve did not start: {out}") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def page(browser):
    pg = browser.new_page(viewport={"width": 1200, "height": 900})
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


def click_move(page, move: Move) -> None:
    """Make ``move`` the way a person does: card, slot(s), discards, Confirm."""
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
    page.wait_for_selector(f"body[data-turn='{turn + 1}']")


def slot_card(page, row: int, slot: int) -> str | None:
    return page.get_attribute(f"#slot-{row}-{slot}", "data-card")


def test_play_a_tiny_deal_to_a_win_by_clicking(server, page):
    deal = Deal.from_seed(SEED, 1, RuleSet.tiny())
    res = solve(deal, "none", time_limit=20)
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
