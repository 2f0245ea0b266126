"""Browser tests: the real server on a free loopback port in a thread, and Debian's Chromium
driven by Playwright (never a browser download). Without /usr/bin/chromium they are skipped
with the reason shown, unless CI is set: then they fail."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import LiveServer
from tests.server.notify.smtp import SmtpReceiver, smtp_receiving
from tests.services import free_port

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _missing() -> str | None:
    if not CHROMIUM.exists():
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (make test installs it)"
    return None


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so the browser tests must run, but {missing}")
        pytest.skip(f"browser tests skipped: {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """Closes every browser context a test opened once it ends: a page left open keeps its
    timers running and its socket reconnecting to a server that is gone, for the rest of the
    session, and slows every later test on that worker."""
    yield
    if "chromium" not in request.fixturenames:
        return
    browser = request.getfixturevalue("chromium")
    for context in list(browser.contexts):
        context.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(tmp_path / "court.db") as running:
        yield running


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Path:
    folder = SCREENSHOTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def smtp() -> Iterator[SmtpReceiver]:
    with smtp_receiving() as receiver:
        yield receiver


@pytest.fixture
def mailing_server(tmp_path: Path, smtp: SmtpReceiver) -> Iterator[LiveServer]:
    port = free_port()  # the mails link to PUBLIC_URL: the server's own address
    settings = {
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": smtp.port,
        "SMTP_SECURITY": "none",
        "MAIL_FROM": "court@example.org",
        "NOTICES_POLL": 0.1,
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    with LiveServer(tmp_path / "court.db", settings=settings, port=port) as running:
        yield running
