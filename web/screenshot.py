"""The README's screenshot of the play page: ``python -m web.screenshot OUT.png``.

Starts ``ascent serve`` on a free port of 127.0.0.1, opens the mini deal puzzle of
``--date`` in Debian's Chromium (Playwright), plays the first ``--moves`` moves of its
solution by clicking, then clicks the card and slot of the next move whose cost is at least
one, so that the picture shows a cost waiting for its discards, and saves the page. The
output file is never written over.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m web.screenshot", description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="PNG file to write (must not exist)")
    ap.add_argument("--date", default="2026-12-01", help="daily puzzle date (default 2026-12-01)")
    ap.add_argument("--moves", type=int, default=3, help="solution moves to play first (default 3)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    if out.exists():
        ap.error(f"{out} exists; it is never written over")
    import datetime

    from playwright.sync_api import sync_playwright

    from model.moves import Move
    from puzzles.daily import puzzle_for

    record = puzzle_for(datetime.date.fromisoformat(args.date), "deal", "mini")
    solution = [Move.from_json(m) for m in record["solution"]["moves"]]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    import tempfile

    scratch = tempfile.TemporaryDirectory(prefix="ascent-screenshot-")  # the game is not kept
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--port", str(port),
                             "--log-level", "warning", "--data", scratch.name], cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(f"{url}/api", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1180, "height": 820})
            page.goto(f"{url}/?date={args.date}&kind=deal&size=mini")
            page.wait_for_selector("body[data-ready='1']", timeout=600_000)

            def pick(card: str, exclude: set[int]) -> int:
                buttons = page.locator(f".hand[data-player='1'] button.card[data-card='{card}']")
                for i in range(buttons.count()):
                    idx = int(buttons.nth(i).get_attribute("data-index"))
                    if idx not in exclude:
                        buttons.nth(i).click()
                        return idx
                raise SystemExit(f"{card} is not in the hand")

            def play(move: Move, confirm: bool) -> None:
                used: set[int] = set()
                if move.kind == "discard":
                    page.click("#discard-two")
                else:
                    used.add(pick(move.card.text, set()))
                    page.click(f"#slot-{move.row}-{move.slot}")
                    if move.kind == "campfire":
                        page.click(f"#slot-{move.to_row}-{move.to_slot}")
                    page.wait_for_function("document.getElementById('pending').textContent.length > 0")
                if confirm:
                    for card in move.discard:
                        used.add(pick(card.text, used))
                    turn = page.get_attribute("body", "data-turn")
                    page.click("#confirm")
                    page.wait_for_selector(f"body:not([data-turn='{turn}'])")

            for move in solution[: args.moves]:
                play(move, True)
            nxt = next((m for m in solution[args.moves:] if m.kind == "place" and m.discard), None)
            if nxt is not None and nxt == solution[args.moves]:
                play(nxt, False)
            page.screenshot(path=str(out))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        scratch.cleanup()
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
