"""The play page as a newcomer meets it, in Debian's Chromium at a desktop's 1280×900 and a
phone's 390×844: the walkthrough of the first visit (shown once, remembered), a whole silent
game played with the keyboard only (greedy team-mates, tiny rules), a card with no legal slot
explained as soon as it is picked, the legal slots marked with their cost and its reason,
strict numbers in the address, and an axe-core audit (no serious or critical violation) of the
front page, a game in progress, a finished game and its review. Screenshots of every state go
to ``test-artifacts/``. One server and one browser serve the module (tests/test_web_browser.py
has them); every wait is for a sign the page sets, never a sleep."""

from __future__ import annotations

import pytest

from bots.greedy import GreedyBot
from model.deal import Deal
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, Move
from model.observation import observe
from model.rules import RuleSet
from tests import test_web_browser
from tests.test_web_browser import (
    ARTIFACTS,
    catch_up,
    new_page,
    silent_url,
    slot_card,
    wait_my_turn_or_end,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]

axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")

#: The module's fixtures, those of tests/test_web_browser.py: one server, one browser.
server = test_web_browser.server
browser = test_web_browser.browser

SIZES = {
    "1280x900": {"viewport": {"width": 1280, "height": 900}},
    "390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
SILENT_SEED = 3  # tiny, 3 players: the greedy team loses it (the review has a losing move)
OPEN_SEED = 3    # tiny, 1 player: after 1g in row 1 slot 1, the 2g in hand has no legal slot


@pytest.fixture(params=list(SIZES))
def size(request) -> str:
    return request.param


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


def audit(page, where: str) -> None:
    """axe-core on the page as it stands: no serious or critical violation."""
    found = axe_api.Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3])
           for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, f"{where}: {bad}"


# ---- the keyboard ---------------------------------------------------------------------------

def focused(page) -> dict:
    return page.evaluate("""() => { const a = document.activeElement;
        return {id: a.id || '', card: a.dataset ? (a.dataset.card || '') : '',
                cls: a.getAttribute('class') || '', label: a.getAttribute('aria-label') || '',
                hand: !!(a.closest && a.closest('#hands'))}; }""")


def press_until(page, ok, key: str, most: int = 60) -> dict:
    """Press ``key`` until the focused element satisfies ``ok``."""
    for _ in range(most):
        a = focused(page)
        if ok(a):
            return a
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached the element; focus is on {focused(page)}")


def is_card(a: dict) -> bool:
    return "card" in a["cls"].split() and a["hand"]


def free_card(text: str):
    return lambda a: is_card(a) and a["card"] == text and not {"selected", "discard"} & set(a["cls"].split())


def key_move(page, move: Move) -> None:
    """Make ``move`` with the keyboard only: Tab into the hand, the arrow keys to the card,
    Enter; the arrow keys to its slot, Enter (a Campfire: the card it replaces, then where
    that card goes); the arrow keys and Enter for each discard; Enter on Confirm."""
    if move.kind == DISCARD:
        press_until(page, lambda a: a["id"] == "discard-two", "Tab")
        page.keyboard.press("Enter")
    else:
        press_until(page, is_card, "Tab")
        press_until(page, free_card(move.card.text), "ArrowRight")
        page.keyboard.press("Enter")
        press_until(page, lambda a: a["id"] == f"slot-{move.row}-{move.slot}", "ArrowRight")
        assert "costs" in focused(page)["label"]
        page.keyboard.press("Enter")
        if move.kind == CAMPFIRE and page.get_attribute("body", "data-choice") == "campfire-to":
            press_until(page, lambda a: a["id"] == f"slot-{move.to_row}-{move.to_slot}", "ArrowRight")
            page.keyboard.press("Enter")
    for card in move.discard:
        press_until(page, free_card(card.text), "ArrowRight")
        page.keyboard.press("Enter")
    assert focused(page)["id"] == "confirm"  # the page moves there once the move is whole
    page.keyboard.press("Enter")


def test_a_whole_silent_game_by_keyboard_with_the_audit(server, browser, size):
    """Greedy chooses the person's moves (from the seat's observation, as in the other
    browser tests); the keyboard makes them. The audit runs on the game in progress (a card
    picked, its slots marked), the finished game and the review."""
    page = new_page(browser, **SIZES[size])
    try:
        page.goto(silent_url(server, SILENT_SEED, pause=0))
        mirror = Game(Deal.from_seed(SILENT_SEED, 3, RuleSet.tiny()))
        audited = False
        while True:
            wait_my_turn_or_end(page)
            catch_up(mirror, page)
            if mirror.outcome() is not None:
                break
            move = GreedyBot().choose(observe(mirror))
            if not audited and move.kind != DISCARD:  # the game in progress, a card picked
                press_until(page, is_card, "Tab")
                press_until(page, free_card(move.card.text), "ArrowRight")
                page.keyboard.press("Enter")
                assert page.locator("#mountain .slot.legal").count() >= 1
                shot(page, f"page-playing-{size}.png")
                audit(page, "a game in progress")
                page.keyboard.press("Escape")
                audited = True
            turn = mirror.turn
            key_move(page, move)
            mirror.push(move)
            page.wait_for_function(f"+document.body.dataset.turn > {turn}")
        assert audited
        assert page.get_attribute("body", "data-outcome") == "loss"
        shot(page, f"page-finished-{size}.png")
        audit(page, "a finished game")
        press_until(page, lambda a: a["id"] == "review-open", "Tab")
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-review='done']", timeout=test_web_browser.REVIEW_WAIT_MS)
        lead = page.inner_text("#review-lead")
        losing = int(page.inner_text("#review-summary").split("move ")[1].split(" ")[0])
        assert lead.startswith(f"Move {losing} lost the game (T{losing} ")
        assert page.locator("#review-lead a.ruling").count() >= 1  # the ruling, linked
        shot(page, f"page-review-{size}.png")
        audit(page, "the review")
    finally:
        page.close()


def test_the_walkthrough_is_shown_once(server, browser, size):
    page = new_page(browser, walked=False, **SIZES[size])
    try:
        page.goto(silent_url(server, SILENT_SEED, pause=0))
        page.wait_for_selector("body[data-ready='1']")
        dialog = page.locator("#walkthrough")
        assert dialog.is_visible() and page.get_attribute("body", "data-walkthrough") == "open"
        shot(page, f"page-walkthrough-{size}.png")
        audit(page, "the front page with the walkthrough")
        if size.startswith("390"):  # dismissed at once
            page.keyboard.press("Escape")
        else:  # read to the end
            for step in (2, 3):
                page.click("#walk-next")
                assert page.locator(f".walk-step[data-step='{step}']").is_visible()
            assert page.inner_text("#walk-next") == "Start playing"
            page.click("#walk-next")
        page.wait_for_selector("body[data-walkthrough='closed']")
        assert not dialog.is_visible()
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.get_attribute("body", "data-walkthrough") == "closed" and not dialog.is_visible()
        page.click("#walk-open")  # and on demand
        assert dialog.is_visible()
        page.keyboard.press("Escape")
        page.click("#rules-open")  # the rules in brief: a drawing per ruling
        rules = page.locator("#rules-dialog .rule")
        assert rules.count() >= 10 and page.locator("#rules-dialog .rule svg").count() >= rules.count()
        assert page.locator("#rule-R6").is_visible()
        audit(page, "the rules in brief")
    finally:
        page.close()


def test_the_front_page(server, browser, size):
    page = new_page(browser, **SIZES[size])
    try:
        page.goto(f"{server}/?date=2026-12-01&kind=deal&size=mini")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#mountain .slot").count() > 0
        if size.startswith("390"):  # the side folds away on a phone, and opens from Menu
            assert not page.locator("#new-box").is_visible()
            page.click("#menu-open")
            assert page.locator("#new-box form").first.is_visible()
            assert page.get_attribute("#new-silent input[name=date]", "placeholder").startswith("yyyy-mm-dd")
        shot(page, f"page-front-{size}.png")
        audit(page, "the front page")
        small = page.evaluate("""() => [...document.querySelectorAll('button, summary, input, select')]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44 || r.width < 44).map(([n]) => n)""")
        assert small == [], f"touch targets under 44 px: {small}"
    finally:
        page.close()


def test_a_card_with_no_legal_slot_is_explained_when_picked(server, browser, size):
    page = new_page(browser, **SIZES[size])
    try:
        page.goto(f"{server}/?seed={OPEN_SEED}&rules=preset=tiny")
        page.wait_for_selector("body[data-ready='1']")
        game = Game(Deal.from_seed(OPEN_SEED, 1, RuleSet.tiny()))
        first = game.hands[0][0]
        page.click(f".hand[data-player='1'] button.card[data-card='{first.text}']")
        page.click("#slot-1-1")
        page.click("#confirm")
        page.wait_for_selector("body[data-turn='1']")
        game.push(Move("place", 1, first, 1, 1))
        assert slot_card(page, 1, 1) == first.text
        stuck = [c for c in game.hands[0] if game.explain(c)
                 and not any(p.card == c for p in game.generate_placements())]
        legal = {p.card: p for p in game.generate_placements()}
        assert stuck and legal
        card = stuck[0]
        ruling, reason = game.why_not(card, 1, 2)
        page.click(f".hand[data-player='1'] button.card[data-card='{card.text}']")
        assert page.get_attribute("#message", "data-ruling") == ruling  # at once, no slot clicked
        assert f"{card.text} has no legal slot: {reason} ({ruling})" in page.inner_text("#message")
        assert page.locator("#mountain .slot.legal").count() == 0
        assert page.get_attribute("#explain", "data-ruling") == ruling
        assert f"Row 1 slot 2: {reason} ({ruling})" in page.inner_text("#explain")
        shot(page, f"page-no-slot-{size}.png")
        # a card with slots: each is marked with its cost, named, and explained
        other = next(iter(legal.values()))
        page.click(f".hand[data-player='1'] button.card[data-card='{other.card.text}']")
        slot = page.locator(f"#slot-{other.row}-{other.slot}")
        assert "legal" in slot.get_attribute("class")
        assert slot.locator(".badge").text_content() == str(other.cost)
        label = slot.get_attribute("aria-label")
        assert label.endswith(f"row {other.row} slot {other.slot}, costs {other.cost}")
        assert f"{other.card.value} next to {game.card_at(1, 1).value}: " in page.inner_text("#explain")
        shot(page, f"page-legal-{size}.png")
    finally:
        page.close()


def test_numbers_in_the_address_are_strict(server, browser):
    """The server refuses a bad number of the address before the page is served; a number it
    parses but the game refuses (players=9) is said by the page; no game is started."""
    page = new_page(browser, **SIZES["390x844"])
    try:
        answer = page.goto(f"{server}/?seed=12abc&players=3&mode=silent")
        assert answer is not None and answer.status == 400
        page.wait_for_selector("body[data-ready='error']")
        assert 'seed must be a whole number ≥ 0, not "12abc"' in page.inner_text("#message")
        assert page.goto(f"{server}/?seed=4&players=3x&mode=silent").status == 400
        assert 'players must be a whole number ≥ 0, not "3x"' in page.inner_text("#message")
        page.goto(f"{server}/?seed=4&players=9&mode=silent")
        page.wait_for_selector("body[data-ready='error']")
        text = page.inner_text("#message")
        assert "Could not start the game: players must be 1 to 5, not 9" in text
        assert "/g/" not in page.url
        icon = page.get_attribute("link[rel='icon']", "href")
        assert icon == "/favicon.svg" and page.request.get(f"{server}{icon}").status == 200
    finally:
        page.close()


def test_a_tiny_deal_won_by_keyboard_campfire_included(server, browser):
    """The solver's winning plan of the open tiny deal (placements, Campfires and a discard
    turn), made with the keyboard only on a phone's screen."""
    from solver import solve
    from tests.test_web_browser import SEED

    deal = Deal.from_seed(SEED, 1, RuleSet.tiny())
    plan = solve(deal, "none", node_limit=1_000_000).plan.moves
    assert {m.kind for m in plan} >= {"place", "campfire", "discard"}
    page = new_page(browser, **SIZES["390x844"])
    try:
        page.goto(f"{server}/?seed={SEED}&rules=preset=tiny")
        page.wait_for_selector("body[data-ready='1']")
        game = Game(deal)
        for move in plan:
            key_move(page, move)
            game.push(move)
            page.wait_for_selector(f"body[data-turn='{game.turn}']")
        assert page.get_attribute("body", "data-outcome") == "win"
        assert all(slot_card(page, r, s) == (c.text if (c := game.card_at(r, s)) else None)
                   for r in range(1, game.rules.peak_row + 1)
                   for s in range(1, game.rules.row_length(r) + 1))
        shot(page, "page-won-by-keyboard-390x844.png")
    finally:
        page.close()
