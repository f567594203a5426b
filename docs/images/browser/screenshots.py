"""Take the guide's screenshots of the real page (docs/guides/browser.md):
``python docs/images/browser/screenshots.py`` (the ``web`` extra, Playwright
and Debian's ``chromium``). It serves the page on a free loopback port,
plays a few turns of Ban-sugoroku against the network, asks a hint, then
analyses a match file, and writes the PNG files beside this script."""
from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from bansugoroku_fast.web.app import LOOPBACK_HOSTS, create_app

HERE = Path(__file__).resolve().parent
MATCH = HERE.parent.parent.parent / "tests" / "data" / "gnubg" / "analysis_5.mat"


def main() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(allowed_hosts=list(LOOPBACK_HOSTS)), host="127.0.0.1",
                                           port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
        page = browser.new_page(viewport={"width": 1200, "height": 820})
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("#new-game-dialog[open]")
        page.select_option("select[name=policy]", "net1")
        page.screenshot(path=HERE / "new-game.png")
        page.select_option("select[name=speed]", "0")
        page.locator("#new-game-dialog details").evaluate("details => { details.open = true; }")
        page.fill("input[name=seed]", "12")
        page.click("#start-game")
        for _ in range(6):
            page.wait_for_selector("body:not(.busy)")
            page.keyboard.press("1")
        page.wait_for_selector("body:not(.busy)")
        page.keyboard.press("h")
        page.wait_for_selector("#hints:not([hidden])")
        page.locator("#board rect.hit.source").first.click()
        page.screenshot(path=HERE / "play.png")
        page.keyboard.press("Escape")
        page.keyboard.press("a")
        page.set_input_files("#match-file", str(MATCH))
        page.click("#analyse-start")
        page.wait_for_selector("#analysis:not([hidden])")
        page.keyboard.press("m")
        page.wait_for_selector("#candidates li.played")
        page.screenshot(path=HERE / "analyse.png", full_page=True)
        browser.close()
    server.should_exit = True


if __name__ == "__main__":
    main()
