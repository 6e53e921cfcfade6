"""The page's edges, in Debian's Chromium at a desktop's 1280×900 and a phone's 390×844
(issue 40, item 7): Back after moves and a stale tab re-sync with the server, a double
Confirm makes one move, on a phone the mountain's and the hand's text is at least 12 px, a
slot at least 44 px and the cards' ink at least 4.5:1 on their colour, the dock covers
neither the reasons nor row 1 and the goal is shown, the keyboard's focus on a slot is
visible, the drawings follow dark mode, every bot move is announced, ``?`` lists the
keys, the Rules dialog holds R1–R13 and V1 from the server, the front page is the real
game, and an unknown address is an HTML 404 page. axe-core audits the dialogs and the review
in dark mode. One server and one browser serve the module (tests/test_web_browser.py has
them); every wait is for a sign the page sets, never a sleep."""

from __future__ import annotations

import json
import re

import pytest

from bots.greedy import GreedyBot
from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.observation import observe
from model.rules import RuleSet
from tests import test_web_browser
from tests.test_web_browser import (
    catch_up,
    click_move,
    new_page,
    silent_url,
    wait_my_turn_or_end,
)
from tests.test_web_page import SIZES, audit, shot

pytestmark = [pytest.mark.slow, pytest.mark.browser]

#: The module's fixtures, those of tests/test_web_browser.py: one server, one browser.
server = test_web_browser.server
browser = test_web_browser.browser

TINY_SEED = 1     # the open tiny deal of tests/test_web_browser.py
SILENT_SEED = 3   # tiny, 3 players, greedy team-mates: a lost game with a review
PHONE = "390x844"


@pytest.fixture(params=list(SIZES))
def size(request) -> str:
    return request.param


def greedy_move(game: Game) -> Move:
    return GreedyBot().choose(observe(game))


def open_tiny(page, server: str) -> Game:
    page.goto(f"{server}/?seed={TINY_SEED}&rules=preset=tiny")
    page.wait_for_selector("body[data-ready='1']")
    return Game(Deal.from_seed(TINY_SEED, 1, RuleSet.tiny()))


def api_post(page, url: str, body: dict) -> dict:
    answer = page.request.post(url, data=json.dumps(body), headers={"Content-Type": "application/json"})
    assert answer.ok, answer.text()
    return answer.json()


def turn(page) -> int:
    return int(page.get_attribute("body", "data-turn"))


# ---- Back, stale tabs, and a double Confirm --------------------------------------------------

def test_back_after_moves_shows_the_game_as_the_server_has_it(server, browser, size):
    """Moves made, the page reloaded (its state asked for at turn 2), more moves, the page
    left for another address, a move made meanwhile elsewhere (as another tab would), then
    Back: the page shows the latest turn, not the state the browser kept from turn 2, and
    the next move is accepted."""
    page = new_page(browser, **SIZES[size])
    try:
        game = open_tiny(page, server)
        for k in range(3):
            if k == 2:
                page.reload()
                page.wait_for_selector(f"body[data-turn='{game.turn}']")
            move = greedy_move(game)
            click_move(page, move)
            game.push(move)
        gid = page.url.split("/g/")[1].split("?")[0]
        page.goto(f"{server}/api")
        move = greedy_move(game)
        api_post(page, f"{server}/api/games/{gid}/moves", move.to_json())
        game.push(move)
        page.go_back()
        page.wait_for_selector(f"body[data-turn='{game.turn}']")
        assert f"/g/{gid}" in page.url
        assert page.locator("#moves li").count() == game.turn
        move = greedy_move(game)
        click_move(page, move)
        game.push(move)
        assert turn(page) == game.turn == 5
        assert page.get_attribute("#message", "class") != "error"
        assert page.locator("#moves li").count() == 5
    finally:
        page.close()


def test_a_stale_tab_is_refused_then_resyncs(server, browser):
    """Two tabs on one game: the second moves; the first, not told, tries the same card on
    the same slot; the server refuses, and the page draws the game as it is now."""
    first = new_page(browser, **SIZES["1280x900"])
    try:
        game = open_tiny(first, server)
        link = first.url
        second = first.context.new_page()
        second.goto(link)
        second.wait_for_selector("body[data-ready='1']")
        move = greedy_move(game)
        click_move(second, move)
        game.push(move)
        click_move(first, move, wait=False)
        first.wait_for_selector(f"body[data-turn='{game.turn}']")
        assert "The game had moved on" in first.inner_text("#message")
        assert first.get_attribute("#message", "class") != "error"
        move = greedy_move(game)
        click_move(first, move)
        game.push(move)
        assert turn(first) == game.turn
    finally:
        first.context.close()


def test_a_double_confirm_makes_one_move(server, browser, size):
    page = new_page(browser, **SIZES[size])
    try:
        game = open_tiny(page, server)
        errors: list[str] = []
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        # a double click
        move = greedy_move(game)
        choose(page, move)
        page.dblclick("#confirm")
        game.push(move)
        page.wait_for_selector(f"body[data-turn='{game.turn}']")
        # Enter twice on Confirm
        move = greedy_move(game)
        choose(page, move)
        page.focus("#confirm")
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        game.push(move)
        page.wait_for_selector(f"body[data-turn='{game.turn}']")
        page.wait_for_selector("body:not([data-sending])")
        # the second Enter found Confirm disabled, or (the answer in already) picked a card
        assert page.get_attribute("#message", "class") != "error", page.inner_text("#message")
        assert page.locator("#moves li").count() == game.turn == 2
        assert errors == []  # no second move was sent and refused
    finally:
        page.close()


def choose(page, move: Move) -> None:
    """Everything of ``move`` but Confirm (see click_move)."""
    if move.card is None:
        page.click("#discard-two")
    else:
        page.click(f".hand[data-player='1'] button.card[data-card='{move.card.text}']")
        page.click(f"#slot-{move.row}-{move.slot}")
        if move.to_row:
            page.click(f"#slot-{move.to_row}-{move.to_slot}")
    for card in move.discard:
        test_web_browser.hand_button(page, 1, card.text).click()
    page.wait_for_selector("#confirm:not([disabled])")


# ---- a phone's sizes, contrast and layout -----------------------------------------------------

#: Every text of a card (the mountain's slots, the hand's cards): its text and size in CSS px.
TEXT_SIZES = """() => [...document.querySelectorAll('#mountain .slot text, #hands button.card svg text')]
    .map((t) => { const m = t.getScreenCTM();
                  return [t.textContent, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)]; })"""

#: Every card face's contrast: [card, text, ratio] of each mark on it against its face.
CONTRASTS = """() => {
  const rgb = (s) => (s.match(/\\d+(\\.\\d+)?/g) || []).slice(0, 3).map(Number);
  const lum = (c) => {
    const v = c.map((x) => x / 255).map((x) => x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const out = [];
  for (const g of document.querySelectorAll('#mountain .slot[data-card], #hands button.card g.card')) {
    const face = g.querySelector(':scope > path, :scope > rect');
    const bg = rgb(getComputedStyle(face).fill);
    for (const t of g.querySelectorAll(':scope > text:not(.caption)')) {
      const card = g.dataset.card || g.closest('button').dataset.card;
      out.push([card, t.textContent, ratio(rgb(getComputedStyle(t).fill), bg)]);
    }
  }
  return out;
}"""


def standard_game_mid_way(page, server: str, moves: int = 14) -> Game:
    """An open standard deal (1 player) after ``moves`` greedy moves made through the API,
    opened on the page: a mountain of 45 slots with cards of every colour in it."""
    made = api_post(page, f"{server}/api/games", {"seed": 5, "players": 1})
    game = Game(Deal.from_seed(5, 1, RuleSet()))
    for _ in range(moves):
        move = greedy_move(game)
        api_post(page, f"{server}/api/games/{made['id']}/moves", move.to_json())
        game.push(move)
    page.goto(f"{server}/g/{made['id']}")
    page.wait_for_selector(f"body[data-turn='{game.turn}']")
    return game


def test_on_a_phone_the_text_slots_and_ink_are_large_and_clear(server, browser):
    page = new_page(browser, **SIZES[PHONE])
    try:
        game = standard_game_mid_way(page, server)
        colours = {c.colour for r in range(1, 9) for s in range(1, 10)
                   if (c := game.card_at(r, s)) is not None and c.is_ascent}
        assert colours == {"r", "g", "b"}
        sizes = page.evaluate(TEXT_SIZES)
        assert len(sizes) >= 2 * game.filled_slots() + len(game.hands[0])
        small = [(t, round(px, 1)) for t, px in sizes if px < 12]
        assert small == [], f"card text under 12 px: {small}"
        slots = page.evaluate("""() => [...document.querySelectorAll('#mountain .slot > path:first-of-type')]
            .map((p) => { const r = p.getBoundingClientRect(); return Math.min(r.width, r.height); })""")
        assert len(slots) == 45 and min(slots) >= 44, min(slots)
        faint = [(c, t, round(x, 2)) for c, t, x in page.evaluate(CONTRASTS) if x < 4.5]
        assert faint == [], f"card ink under 4.5:1: {faint}"
        # the mountain scrolls sideways rather than shrink its slots
        assert page.evaluate("document.getElementById('mountain').scrollWidth") > 390
        # the goal is shown at the top
        goal = page.locator("#goal")
        assert goal.is_visible() and goal.inner_text().startswith("Goal: ")
        box = goal.bounding_box()
        assert box is not None and 0 <= box["y"] < 844
        shot(page, "edges-phone-mountain-390x844.png")
    finally:
        page.close()


def test_on_a_phone_the_dock_covers_neither_the_reasons_nor_row_1(server, browser):
    page = new_page(browser, **SIZES[PHONE])
    try:
        game = standard_game_mid_way(page, server, moves=6)
        card = next(p.card for p in game.generate_placements())
        page.click(f"#hands button.card[data-card='{card.text}']")
        page.wait_for_selector("#explain-list li")
        for target in ("#explain-list li:last-child", "#slot-1-1", "#slot-1-9", "#explain-head"):
            seen = page.evaluate("""(sel) => { const el = document.querySelector(sel);
                el.scrollIntoView({block: 'end'});
                const r = el.getBoundingClientRect(), dock = document.getElementById('dock').getBoundingClientRect();
                const x = Math.min(Math.max(r.left + r.width / 2, 1), innerWidth - 1), y = r.top + r.height / 2;
                const hit = document.elementFromPoint(x, y);
                return {bottom: r.bottom, dockTop: dock.top, inDock: !!(hit && hit.closest('#dock'))}; }""", target)
            assert seen["bottom"] <= seen["dockTop"] + 0.5 and not seen["inDock"], (target, seen)
        shot(page, "edges-phone-reasons-390x844.png")
    finally:
        page.close()


# ---- the keyboard's focus, dark mode ---------------------------------------------------------

def test_the_focus_on_a_slot_is_visible(server, browser, size):
    page = new_page(browser, **SIZES[size])
    try:
        game = open_tiny(page, server)
        card = next(p.card for p in game.generate_placements())
        for _ in range(40):  # Tab into the hand, then along it to the card
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.closest && !!document.activeElement.closest('#hands')"):
                break
        for _ in range(8):
            if page.evaluate("document.activeElement.dataset.card") == card.text:
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")  # the card: the focus goes to its first legal slot
        looks = page.evaluate("""() => { const a = document.activeElement, p = a.querySelector('path');
            const probe = document.createElement('div');
            probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--focus');
            document.body.appendChild(probe); const focus = getComputedStyle(probe).color; probe.remove();
            return {cls: a.getAttribute('class'), visible: a.matches(':focus-visible'),
                    stroke: getComputedStyle(p).stroke, width: parseFloat(getComputedStyle(p).strokeWidth),
                    focus}; }""")
        assert "legal" in looks["cls"] and looks["visible"], looks
        assert looks["stroke"] == looks["focus"] and looks["width"] >= 6, looks
        page.keyboard.press("Escape")  # the focus leaves: the slot's own marks come back
        idle = page.evaluate("getComputedStyle(document.querySelector('#mountain .slot > path')).stroke")
        assert idle != looks["focus"]
    finally:
        page.close()


LUMINANCE = """([sel, prop]) => { const el = document.querySelector(sel); if (!el) return null;
  const c = (getComputedStyle(el)[prop].match(/\\d+(\\.\\d+)?/g) || []).slice(0, 3).map(Number).map((x) => x / 255)
    .map((x) => x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; }"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_drawings_follow_dark_mode(server, browser, size, scheme):
    page = new_page(browser, color_scheme=scheme, **SIZES[size])
    try:
        game = open_tiny(page, server)
        move = greedy_move(game)
        click_move(page, move)
        dark = scheme == "dark"

        def lum(sel: str, prop: str = "fill") -> float:
            value = page.evaluate(LUMINANCE, [sel, prop])
            assert value is not None, sel
            return value

        assert (lum("body", "backgroundColor") < 0.05) == dark
        drawn = {"the mountain's ground": lum("#mountain svg > rect.bg"),
                 "an empty slot": lum("#mountain .slot > path.empty")}
        for what, value in drawn.items():
            assert (value < 0.1) if dark else (value > 0.8), (what, value)
        assert (lum("#mountain .last-move", "stroke") > 0.5) == dark  # the last move's outline
        assert (lum("#mountain .row-label") > 0.3) == dark
        page.click("#reveal")  # the solution's drawing
        page.wait_for_selector("#reveal-svg svg")
        assert (lum("#reveal-svg svg > rect.bg") < 0.1) == dark
        page.wait_for_selector("body[data-rules]")
        page.click("#rules-open")
        assert (lum("#rules-dialog .pic-ok") > 0.3) == dark  # the rules' ✓ and ✗
        if dark:
            shot(page, f"edges-dark-{size}.png")
    finally:
        page.close()


# ---- bots announced, keys, rules, the front page, 404 -------------------------------------------

def test_every_bot_move_is_announced(server, browser, size):
    """Seat 2, so that a bot moves first: every bot move, the first included, is in the
    live log (text, role=log, aria-live) until the person's next move."""
    page = new_page(browser, **SIZES[size])
    try:
        page.goto(silent_url(server, SILENT_SEED, seat=2, pause=0))
        mirror = Game(Deal.from_seed(SILENT_SEED, 3, RuleSet.tiny()))
        log = page.locator("#bot-moves")
        assert log.get_attribute("role") == "log" and log.get_attribute("aria-live") == "polite"
        first = True
        while True:
            wait_my_turn_or_end(page)
            mine = len(mirror.move_stack)
            catch_up(mirror, page, seat=1)
            said = page.locator("#bot-moves li").all_inner_texts()
            texts = [t.split(": ", 1)[1] for t in said]
            listed = page.locator("#moves li").all_inner_texts()
            since = [t for t, m in zip(listed[mine:], mirror.move_stack[mine:]) if m.player != 2]
            assert texts == since and len(said) == len(since), (said, since)
            assert all(t.startswith(f"Player {t.split()[1]} (the greedy bot): T") for t in said)
            if first:
                assert said and said[0].startswith("Player 1 (the greedy bot): T1 P1 ")
                first = False
            if mirror.outcome() is not None:
                break
            move = greedy_move(mirror)
            click_move(page, move, wait=False)
            mirror.push(move)
            page.wait_for_function(f"+document.body.dataset.turn > {mirror.turn - 1}")
        bots = sum(1 for m in mirror.move_stack if m.player != 2)
        assert int(page.get_attribute("body", "data-announced")) == bots
    finally:
        page.close()


def test_question_mark_lists_the_keys(server, browser, size):
    page = new_page(browser, **SIZES[size])
    try:
        open_tiny(page, server)
        dialog = page.locator("#keys-dialog")
        assert not dialog.is_visible()
        page.keyboard.press("?")
        assert dialog.is_visible()
        keys = page.inner_text("#keys-dialog dl")
        for key in ("Tab", "Enter", "Escape", "?"):
            assert key in keys
        audit(page, "the keyboard shortcuts")
        page.keyboard.press("Escape")
        assert not dialog.is_visible()
    finally:
        page.close()


def test_the_rules_dialog_holds_r1_to_r13_from_the_server(server, browser, size):
    page = new_page(browser, **SIZES[size])
    try:
        open_tiny(page, server)
        page.wait_for_selector("body[data-rules]")
        served = {r["id"]: r for r in page.request.get(f"{server}/api/rules").json()["rulings"]}
        page.click("#rules-open")
        text = page.inner_text("#rules-dialog")
        assert "R1…" not in text and "docs/rules.md" not in text
        for i in list(range(1, 14)):
            rid = f"R{i}"
            sec = page.locator(f"#rules-dialog #rule-{rid}")
            assert sec.locator("h3").inner_text() == f"{rid}: {served[rid]['title']}"
            first = served[rid]["parts"][0]["blocks"][0]["p"]
            assert sec.locator("p").first.inner_text() == first
        assert page.locator("#rule-V1").count() == 1
        assert page.locator("#rules-goats .rule-more").count() == 7  # G1–G7, folded
        page.locator("#rule-R6 details summary").click()
        assert "Options" in page.inner_text("#rule-R6 details")
        audit(page, "the rules")
        page.keyboard.press("Escape")
        assert not page.locator("#rules-dialog").is_visible()
    finally:
        page.close()


def test_the_front_page_is_the_real_game(server, browser):
    page = new_page(browser, **SIZES["1280x900"])
    try:
        page.goto(f"{server}/")
        page.wait_for_selector("body[data-ready='1']")
        assert page.get_attribute("body", "data-mode") == "silent"
        assert page.inner_text("#title").startswith("Daily challenge ")
        page.goto(f"{server}/?mode=open")
        page.wait_for_selector("body[data-ready='1']")
        assert page.get_attribute("body", "data-mode") == "open"
        assert page.inner_text("#title").startswith("Daily puzzle ")
    finally:
        page.close()


def test_an_unknown_address_is_an_html_404_page(server, browser):
    page = new_page(browser, **SIZES[PHONE])
    try:
        answer = page.goto(f"{server}/nope")
        assert answer is not None and answer.status == 404
        assert answer.headers["content-type"].startswith("text/html")
        assert page.locator("h1").inner_text() == "No such page"
        assert page.locator("a").first.inner_text() == "Play the real game"
        audit(page, "the 404 page")
    finally:
        page.close()


# ---- the review in dark mode -----------------------------------------------------------------

@pytest.fixture(scope="module")
def finished_silent_game(server):
    """A silent tiny game (you in seat 1, greedy team-mates) played to its loss through the
    API, the person's moves chosen by the greedy rule from the seat's observation."""
    import urllib.request

    def post(path: str, body: dict | None = None) -> dict:
        req = urllib.request.Request(f"{server}{path}", data=json.dumps(body or {}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.load(r)

    state = post("/api/games", {"seed": SILENT_SEED, "players": 3, "seat": 1, "mode": "silent",
                                "bot": "greedy", "rules": {"preset": "tiny"}})
    mirror = Game(Deal.from_seed(SILENT_SEED, 3, RuleSet.tiny()))
    while state["outcome"] is None:
        if state["your_turn"]:
            move = greedy_move(mirror)
            state = post(f"/api/games/{state['id']}/moves", move.to_json())
        else:
            state = post(f"/api/games/{state['id']}/advance")
        while mirror.turn < state["turn"]:
            mirror.push(greedy_move(mirror))
    assert state["outcome"] == "loss"
    return state["id"]


def test_the_review_in_dark_mode_passes_the_audit(server, browser, size, finished_silent_game):
    page = new_page(browser, color_scheme="dark", **SIZES[size])
    try:
        page.goto(f"{server}/g/{finished_silent_game}")
        page.wait_for_selector("body[data-ready='1']")
        if page.locator("#review-open").is_visible():
            page.click("#review-open")
        page.wait_for_selector("body[data-review='done']", timeout=test_web_browser.REVIEW_WAIT_MS)
        page.wait_for_selector("body[data-line-step='0']")
        assert re.match(r"Move \d+ lost the game", page.inner_text("#review-lead"))
        ground = page.evaluate(LUMINANCE, ["#line-svg svg > rect.bg", "fill"])
        assert ground is not None and ground < 0.1
        shot(page, f"edges-review-dark-{size}.png")
        audit(page, "the review in dark mode")
    finally:
        page.close()
