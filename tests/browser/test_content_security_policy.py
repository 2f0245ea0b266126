"""The pages work under their Content-Security-Policy: Chromium reports no violation on the
lobby, a seat's table (its Socket.IO connection included) or the history, and a page framed
by another site is refused (the page itself loads: the first test)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import court, open_person, wait_version
from tests.live_server import LiveServer

# Kept by the page itself: every `securitypolicyviolation` event, as "directive blocked-uri".
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def violations(person: Any) -> list[str]:
    reported: list[str] = person.page.evaluate("window.__violations")
    console = [e for e in person.errors if "Content Security Policy" in e]
    return reported + console


def test_no_page_reports_a_policy_violation(chromium: Any, server: LiveServer) -> None:
    # given a started game
    game = HttpCourt(server.url)
    seat = min(game.tokens)
    # when a seat opens its table, then the history, and a visitor the lobby
    table = open_person(chromium, "seat", "about:blank")
    table.context.add_init_script(WATCH)
    token = game.tokens[seat]
    table.context.add_init_script(f"sessionStorage.setItem('token:{game.id}', {token!r})")
    table.page.goto(f"{server.url}/games/{game.id}")
    # the page got the court over Socket.IO
    expect(table.page.locator("#connection")).to_contain_text("Connected as")
    wait_version(table, court(server.url, game.id)["game"]["version"])
    try:
        assert violations(table) == []
        table.page.goto(f"{server.url}/games/{game.id}/history")
        table.page.wait_for_load_state("networkidle")
        assert violations(table) == []
        table.page.goto(f"{server.url}/")
        table.page.wait_for_load_state("networkidle")
        # then nothing was blocked, and no script of the page failed
        assert violations(table) == []
        assert table.errors == []
    finally:
        table.context.close()


def test_another_site_cannot_frame_a_page(chromium: Any, server: LiveServer) -> None:
    # given a page of another site that frames the game's table
    game = HttpCourt(server.url)
    framing = open_person(chromium, "framer", "about:blank")
    try:
        framing.page.set_content(f'<iframe src="{server.url}/games/{game.id}"></iframe>')
        # then Chromium shows its own error page in the frame instead (frame-ancestors)
        framed = framing.page.frames[-1]
        framed.wait_for_load_state()
        assert framed.url == "chrome-error://chromewebdata/"
    finally:
        framing.context.close()
