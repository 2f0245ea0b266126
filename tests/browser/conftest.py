"""Browser tests: the real server on a free loopback port in a thread, and Debian's Chromium
driven by Playwright (never a browser download). Without /usr/bin/chromium they are skipped
with the reason shown, unless CI is set: then they fail."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from werkzeug.serving import make_server

from app import create_app

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


class Server:
    """The app served by werkzeug (threads, as `make run` does) on 127.0.0.1 and a free port."""

    def __init__(self, db: Path) -> None:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
        self.app = create_app({"DATABASE_URL": f"sqlite:///{db}"})
        self.http = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.http.server_port}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 10
        while True:
            try:
                if requests.get(f"{self.url}/healthz", timeout=1).ok:
                    return self
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server at {self.url} did not answer within 10 s")
            time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        self.http.shutdown()
        self.thread.join(timeout=10)
        self.app.extensions["deadlines"].stop()
        self.app.extensions["court_store"].close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "court.db") as running:
        yield running


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Path:
    folder = SCREENSHOTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
