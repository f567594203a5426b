"""The page of ``bansugoroku serve`` used as a person uses it: headless
Chromium (Debian's ``chromium``) driven by Playwright for Python plays a
whole game of Ban-sugoroku against the network by clicks, drags and keys,
undoes, asks a hint, offers and takes the cube in backgammon, opens a match
file and steps through its analysis; no page logs a console error.

Skips where Chromium, Playwright or the ``web`` extra is missing.
"""
from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

from bansugoroku_fast import Position  # noqa: E402
from bansugoroku_fast.web.app import LOOPBACK_HOSTS, create_app  # noqa: E402

MATCHES = Path(__file__).parent / "data" / "gnubg"
#: The longest wait for one thing on the page (a whole analysis at most).
PATIENCE_MS = 60_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server():
    """The server on a free loopback port, in a thread, for this module's tests."""
    port = free_port()
    config = uvicorn.Config(create_app(allowed_hosts=list(LOOPBACK_HOSTS)), host="127.0.0.1", port=port,
                            log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    for _ in range(200):
        if running.started:
            break
        time.sleep(0.05)
    assert running.started, "the server did not start"
    yield f"http://127.0.0.1:{port}/"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    """A fresh page of the server; at the end, no console error nor page error."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    opened = context.new_page()
    opened.set_default_timeout(PATIENCE_MS)
    problems: list[str] = []
    opened.on("console", lambda message: problems.append(f"{message.type}: {message.text}")
              if message.type in ("error", "warning") else None)
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.goto(server)
    opened.wait_for_selector("#new-game-dialog[open]")
    yield opened
    context.close()
    assert problems == []


def board(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    rows = np.zeros((2, 26), dtype=np.int8)
    for row, stones in ((0, mine), (1, theirs)):
        for point, count in stones.items():
            rows[row, point] = count
        rows[row, 0] = 15 - rows[row].sum()
    return Position(rows)


def new_game(page, *, variant: str = "ban-sugoroku", seed: int | None = None, speed: str = "80",
             position: str = "", computer_seat: str = "1", policy: str = "net") -> None:
    """Fill the New game dialog (opened by the N key if closed) and start."""
    if not page.locator("#new-game-dialog[open]").count():
        page.keyboard.press("n")
    page.check(f"input[name=variant][value={variant}]")
    page.select_option("select[name=policy]", policy)
    page.select_option("select[name=computer_seat]", computer_seat)
    page.select_option("select[name=speed]", speed)
    page.locator("#new-game-dialog details").evaluate("details => { details.open = true; }")
    page.fill("input[name=seed]", "" if seed is None else str(seed))
    page.fill("input[name=position]", position)
    page.click("#start-game")
    settle(page)


def settle(page) -> str:
    """Wait until the page is idle; the game's phase."""
    page.wait_for_selector("#play-view[data-phase]")
    page.wait_for_selector("body:not(.busy)")
    return str(page.get_attribute("#play-view", "data-phase"))


def move_by_board(page, drag: bool) -> None:
    """Make the first listed move on the board: a click on the stone then on its target, or a drag."""
    source = page.locator("#board rect.hit.source").first
    point = source.get_attribute("data-point")
    source.click()
    target = page.locator("#board rect.hit.target").first
    assert page.locator(f'#board rect.hit.picked[data-point="{point}"]').count() == 1
    if drag:
        page.locator("#board rect.hit.picked").first.click()   # a second click keeps it picked
        box = page.locator(f'#board rect.hit[data-point="{point}"]').bounding_box()
        goal = target.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=4)
        page.mouse.up()
    else:
        target.click()


def test_a_whole_game_of_ban_sugoroku_against_the_network(page):
    new_game(page, seed=3)
    assert "Ban-sugoroku" in page.inner_text("#game-title")
    undone = hinted = False
    turns = 0
    for _ in range(1000):
        phase = settle(page)
        if phase == "over":
            break
        if phase == "roll":
            page.keyboard.press("r")
            continue
        assert phase == "move"
        turns += 1
        if not hinted:
            page.keyboard.press("h")
            settle(page)
            assert page.locator("#hint-list li").count() >= 1
            hinted = True
        moves_before = page.locator("#moves button").count()
        if not undone and len(page.inner_text("#dice").split()) == 2:
            move_by_board(page, drag=False)
            settle(page)
            if page.get_attribute("#play-view", "data-phase") == "move" and page.locator("#undo:enabled").count():
                page.keyboard.press("u")
                settle(page)
                assert page.locator("#moves button").count() == moves_before
                undone = True
            continue
        if turns % 3 == 0:
            move_by_board(page, drag=True)
        else:
            page.keyboard.press("1")
    else:
        raise AssertionError("the game did not end")
    assert undone and hinted
    result = page.inner_text("#result")
    assert "point" in result and ("You win" in result or "The computer wins" in result)
    assert page.locator("#history li").count() >= 10
    page.keyboard.press("Enter")            # the next game of the match
    settle(page)
    assert "game 2" in page.inner_text("#game-title")


def test_the_cube_offered_taken_and_passed_in_backgammon(page):
    # The computer, on roll, 5 pips ahead in a bear-off race: it doubles (cube_decision), you take.
    race = board({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1})
    new_game(page, variant="backgammon", seed=1, computer_seat="0", position=race.id)
    assert settle(page) == "answer"
    assert "doubles to 2" in page.inner_text("#message")
    page.keyboard.press("t")
    settle(page)
    assert "cube 2, yours" in page.inner_text("#counts")
    # You, on roll, 42 pips against 57, every stone home: you double, the computer passes.
    race = board({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2})
    new_game(page, variant="backgammon", seed=1, position=race.id)
    assert page.locator("#double:enabled").count() == 1
    page.keyboard.press("d")
    assert settle(page) == "over"
    assert "You win 1 point" in page.inner_text("#result")


def show_analyse_view(page) -> None:
    """Leave the New game dialog (Escape) and show the analyse view (A)."""
    page.keyboard.press("Escape")
    page.wait_for_selector("#new-game-dialog:not([open])", state="attached")
    page.keyboard.press("a")
    page.wait_for_selector("#analyse-view:not([hidden])")


def test_a_match_file_analysed_and_stepped_through(page, tmp_path):
    show_analyse_view(page)
    assert page.is_visible("#analyse-view")
    # a player named with markup: the page shows it as text
    text = (MATCHES / "auto5.mat").read_text().replace("gnubg", "<img src=x onerror=alert(1)>gnubg")
    path = tmp_path / "auto5.mat"
    path.write_text(text)
    page.set_input_files("#match-file", str(path))
    page.click("#analyse-start")
    page.wait_for_selector("#analysis:not([hidden])")
    assert "<img src=x onerror=alert(1)>gnubg" in page.inner_text("#stats")
    assert page.locator("#analysis img").count() == 0
    rows = page.locator("#decisions tbody tr")
    assert rows.count() > 100
    assert page.locator("#plot circle").count() > 50
    page.wait_for_selector("#detail-board svg")
    first = page.inner_text("#detail-title")
    page.keyboard.press("j")
    page.keyboard.press("j")
    page.wait_for_function("t => document.getElementById('detail-title').textContent !== t", arg=first)
    page.keyboard.press("m")                # the next marked decision
    page.wait_for_selector("#decisions tr.selected")
    assert page.locator("#decisions tr.selected td").last.inner_text() in ("doubtful", "bad", "very bad")
    page.wait_for_selector("#candidates li.played")
    page.check("#marked-only")
    assert 0 < rows.count() < 100


def test_a_long_analysis_shows_its_progress_and_is_cancelled(page):
    show_analyse_view(page)
    page.set_input_files("#match-file", str(MATCHES / "analysis_7.mat"))
    page.select_option("#analyse-ply", "1")
    page.click("#analyse-start")
    page.wait_for_selector("#progress-box:not([hidden])")
    page.keyboard.press("c")
    page.wait_for_function("() => document.getElementById('analyse-message').textContent.includes('cancelled')")
    assert page.is_hidden("#progress-box")


def test_the_game_just_played_is_analysed_from_the_play_view(page):
    new_game(page, seed=8, speed="0", policy="heuristic")
    for _ in range(1000):
        phase = settle(page)
        if phase == "over":
            break
        page.keyboard.press("r" if phase == "roll" else "1")
    page.keyboard.press("x")
    page.wait_for_selector("#analysis:not([hidden])")
    assert "the game just played" in page.inner_text("#analysis-title")
    assert "You" in page.inner_text("#stats")
