"""Fixtures for the browser tests of `kawari web`.

The tests start `kawari web --port 0` themselves (loopback only), read the
address it prints, and drive Debian's Chromium through Playwright (no
`playwright install`: the browser is /usr/bin/chromium, or $CHROMIUM).
Without a Chromium the tests are skipped with a message; web-tests/run
installs one.
"""

import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "target" / "web-screenshots"
KAWARI = Path(os.environ.get("KAWARI_BIN", ROOT / "target" / "release" / "kawari"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Figures the tests measure (recorded in target/web-screenshots/timings.json,
# not asserted): ms from navigation to a usable board, and engine replies.
TIMINGS = {"ready_ms": [], "reply_over_budget_ms": []}


def log_file():
    """Where the server's log goes: $KAWARI_WEB_LOG (with RUST_LOG=debug it
    lists every request), else nowhere."""
    path = os.environ.get("KAWARI_WEB_LOG")
    return open(path, "w") if path else subprocess.DEVNULL


@pytest.fixture(scope="session")
def server():
    """A `kawari web --port 0` process; yields its base URL."""
    if not KAWARI.exists():
        pytest.skip(f"{KAWARI} is missing: run `cargo build --release` first")
    proc = subprocess.Popen(
        [str(KAWARI), "web", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=log_file(),
        text=True,
    )
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), f"unexpected first line {url!r}"
        yield url.rstrip("/")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        SHOTS.mkdir(parents=True, exist_ok=True)
        summary = {
            k: {
                "n": len(v),
                "median": statistics.median(v) if v else None,
                "max": max(v) if v else None,
            }
            for k, v in TIMINGS.items()
        }
        (SHOTS / "timings.json").write_text(json.dumps(summary, indent=2) + "\n")


@pytest.fixture(scope="session")
def browser():
    """Chromium through Playwright, or a skip when there is none."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(
            f"no Chromium at {CHROMIUM}: the browser tests need one (web-tests/run installs it)"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(
            "Python playwright is missing (pip install -r web-tests/requirements.txt)"
        )
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1280, "height": 800},
            accept_downloads=True,
        )
        try:
            yield ctx
        finally:
            ctx.close()


# Collects the page's script errors in the page itself: uncaught errors,
# unhandled promise rejections and console.error calls. (Playwright's own
# console and page-error listeners stalled Chromium 156's module loading now
# and then: a page's last module request never left the browser.)
ERROR_HOOK = """
window.__errors = [];
const keep = (text) => window.__errors.push(String(text));
window.addEventListener('error', (e) => keep('error: ' + (e.message || e.type)));
window.addEventListener('unhandledrejection', (e) => keep('unhandled rejection: ' + e.reason));
const consoleError = console.error.bind(console);
console.error = (...args) => { keep('console.error: ' + args.join(' ')); consoleError(...args); };
"""


class Watched:
    """A page whose script errors are collected (ERROR_HOOK)."""

    def __init__(self, page):
        self.page = page
        self.errors = []
        page.add_init_script(ERROR_HOOK)

    def collect(self):
        self.errors += self.page.evaluate("window.__errors || []")


@pytest.fixture
def open_page(server, browser):
    """Opens pages at a query string; after the test, every page must have
    logged no script error."""
    pages = []

    def opener(query="", expect_errors=()):
        page = browser.new_page()
        w = Watched(page)
        w.expected = expect_errors
        pages.append(w)
        page.goto(server + "/" + query)
        page.wait_for_selector("body[data-ready='1']", timeout=10_000)
        ready = page.evaluate("window.kawari.timings.ready")
        TIMINGS["ready_ms"].append(ready)
        return page

    yield opener
    problems = []
    for w in pages:
        w.collect()
        errors = [e for e in w.errors if not any(x in e for x in w.expected)]
        problems += errors
        for r in w.page.evaluate("window.kawari ? window.kawari.timings.replies : []"):
            if r.get("budget"):
                TIMINGS["reply_over_budget_ms"].append(r["ms"] - r["budget"])
        w.page.close()
    assert not problems, "script errors: " + "; ".join(problems)
