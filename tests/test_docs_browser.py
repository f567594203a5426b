"""The built documentation site, read as a reader reads it: in headless
Chromium (Debian's ``chromium``, driven by Playwright), 1280 pixels wide.

The site must be built first, and named by ``BSF_DOCS_SITE``; otherwise
these tests skip (the suite runs before CI builds the site)::

    python -m sphinx -W -b html -q docs docs/_build/html
    BSF_DOCS_SITE=docs/_build/html python -m pytest -q tests/test_docs_browser.py

The links and anchors are checked in the HTML files themselves; a browser
checks what only a browser sees: code blocks that scroll sideways, the copy
button, the search page, console errors and images that fail to load.
"""
from __future__ import annotations

import functools
import os
import threading
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

SITE = Path(os.environ["BSF_DOCS_SITE"]).resolve() if os.environ.get("BSF_DOCS_SITE") else None
CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT = 1280, 900
pytestmark = pytest.mark.skipif(SITE is None or not (SITE / "index.html").is_file(),
                                reason="needs a built site named by BSF_DOCS_SITE (docs/_build/html)")


def pages() -> list[Path]:
    """Every HTML page of the site but Sphinx's own (search, index, module index)."""
    assert SITE is not None
    own = {"search.html", "genindex.html", "py-modindex.html"}
    return sorted(page for page in SITE.rglob("*.html")
                  if page.name not in own and not {"_modules", "_sources", "_static"} & set(page.parts))


def guide_pages() -> list[Path]:
    assert SITE is not None
    return sorted((SITE / "guides").glob("*.html"))


# --- links and anchors, from the files ----------------------------------------------------------------

class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("id", "name"):
            if values.get(name):
                self.ids.add(values[name] or "")
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")


def parsed(page: Path, cache: dict[Path, _Anchors]) -> _Anchors:
    if page not in cache:
        parser = _Anchors()
        parser.feed(page.read_text(encoding="utf-8"))
        cache[page] = parser
    return cache[page]


def test_every_internal_link_and_anchor_resolves():
    cache: dict[Path, _Anchors] = {}
    broken = []
    checked = 0
    for page in pages():
        for link in parsed(page, cache).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("mailto:"):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            checked += 1
            if not target.is_file():
                broken.append(f"{page.relative_to(SITE)}: {link} (no such file)")
            elif parts.fragment and target.suffix == ".html" \
                    and unquote(parts.fragment) not in parsed(target, cache).ids:
                broken.append(f"{page.relative_to(SITE)}: {link} (no such anchor)")
    assert checked > 1000
    assert broken == []


# --- in the browser -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site_url():
    """The site served over HTTP on this machine, as a reader's browser gets it
    (a page from a web server is a secure context: the clipboard works)."""
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"needs Debian's chromium ({CHROMIUM})")
    with playwright_api.sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where Chromium's sandbox will not start.
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser, site_url):
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, base_url=site_url)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    opened = context.new_page()
    opened.console_errors = []
    opened.on("console", lambda message: message.type == "error" and opened.console_errors.append(message.text))
    opened.on("pageerror", lambda error: opened.console_errors.append(str(error)))
    yield opened
    context.close()


def visit(page, path: Path, query: str = "") -> None:
    """Open the site's page ``path`` (a file of the built site)."""
    assert SITE is not None
    page.goto("/" + path.relative_to(SITE).as_posix() + query, wait_until="load")


def test_no_code_block_of_the_guides_scrolls_sideways(page):
    """At 1280 px every line of every code block of the guides shows whole."""
    wide = []
    for path in guide_pages():
        visit(page, path)
        overflowing = page.eval_on_selector_all(
            "div.highlight pre",
            "blocks => blocks.filter(b => b.scrollWidth > b.clientWidth + 1)"
            ".map(b => b.innerText.split('\\n').reduce((a, l) => l.length > a.length ? l : a, ''))")
        wide += [f"{path.name}: {line}" for line in overflowing]
    assert len(guide_pages()) >= 10
    assert wide == []


def test_the_copy_button_copies_a_doctest_without_prompts_or_output(page):
    visit(page, SITE / "guides" / "getting-started.html")
    blocks = page.locator("div.highlight")
    doctest = next(i for i in range(blocks.count()) if ">>> start.id" in blocks.nth(i).inner_text())
    block = blocks.nth(doctest)
    block.hover()
    button = block.locator("button.copybtn")
    assert button.count() == 1
    button.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    lines = copied.splitlines()
    assert "start = Position.initial()" in lines and "start.pip_counts" in lines  # prompts taken off
    assert "'4HPwATDgc/ABMA'" not in copied and "(167, 167)" not in copied  # no output
    exec(compile(copied, "the copied block", "exec"), {})  # and it runs as Python


def test_the_search_page_finds_a_function(page):
    visit(page, SITE / "search.html", "?q=legal_plays")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for(timeout=60_000)
    titles = results.all_inner_texts()
    assert any("legal_plays" in title for title in titles), titles[:10]


def test_no_page_logs_an_error_and_every_image_loads(page):
    broken = []
    for path in pages():
        visit(page, path)
        page.wait_for_load_state("load")
        failed = page.eval_on_selector_all(
            "img", "images => images.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
        broken += [f"{path.relative_to(SITE)}: image {source}" for source in failed]
        broken += [f"{path.relative_to(SITE)}: console: {error}" for error in page.console_errors]
        page.console_errors.clear()
    assert len(pages()) >= 40
    assert broken == []
