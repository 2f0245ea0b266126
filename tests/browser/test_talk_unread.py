"""Talk as people expect it, in two browsers: lines said while a reader's talk list is scrolled
up, while his tab is hidden or while the panel is out of his window are counted on the panel's
heading and before the tab's title (his own lines never); the panel says "n new ↓" when he
scrolled up; reading them clears both; a whisper between two others never counts; the window
never scrolls on a new line; each line shows its local time with the full date in a tooltip."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from playwright.sync_api import Page, expect

from server.live.sockets import NAMESPACE
from tests.browser.court_http import HttpCourt
from tests.browser.players import Person, open_seat, talk_to
from tests.live_server import LiveServer

STARK, LANNISTER, TYRELL = 0, 1, 2
ZONE = "Asia/Kathmandu"  # +05:45: a time shown in UTC or the server's zone would differ

LIST = "document.querySelector('[data-testid=talk-lines]')"
PANEL_IN_VIEW = "document.querySelector('#talk-panel').scrollIntoView({block: 'center'})"


def hidden(page: Page, hide: bool) -> None:
    """The tab hidden or shown again, as the browser tells the page."""
    state = "hidden" if hide else "visible"
    page.evaluate(
        """state => {
          const as = (get) => ({get, configurable: true});
          Object.defineProperty(document, 'visibilityState', as(() => state));
          Object.defineProperty(document, 'hidden', as(() => state === 'hidden'));
          document.dispatchEvent(new Event('visibilitychange'));
        }""",
        state,
    )


def unread(person: Person, count: int) -> None:
    """The badge and the title say `count` lines are unread (nothing when none)."""
    badge = person.page.locator("[data-testid=talk-unread]")
    if count:
        expect(badge).to_have_text(f"{count} unread")
        expect(person.page).to_have_title(re.compile(rf"^\({count}\) [^(]*Small Council$"))
    else:
        expect(badge).to_be_hidden()
        expect(person.page).to_have_title(re.compile(r"^[^(]*Small Council$"))


def lines_seen(person: Person, n: int) -> None:
    expect(person.page.locator("[data-testid=talk-line]")).to_have_count(n)


def test_unread_lines_are_counted_until_read_and_the_window_never_moves(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    server.app.extensions["talk"].rate.limits = [(100, 1.0)]  # many lines at once
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    stark = open_seat(chromium, "stark", url, game.id, game.tokens[STARK])
    lannister = open_seat(chromium, "lannister", url, game.id, game.tokens[LANNISTER])
    for person in (stark, lannister):
        expect(person.page.locator("#talk-panel")).to_be_visible()
    chatter = server.client(game.id, game.tokens[LANNISTER])
    tyrell = server.client(game.id, game.tokens[TYRELL])

    def say(n: int, tag: str) -> None:
        for i in range(n):
            ack = chatter.call("say", {"text": f"{tag} {i}"}, namespace=NAMESPACE)
            assert ack["ok"] is True, ack

    page = stark.page
    try:
        # The panel in view and following its newest line: every line is read as it comes.
        page.evaluate(PANEL_IN_VIEW)
        say(14, "warm-up")
        lines_seen(stark, 14)
        unread(stark, 0)
        assert page.evaluate(f"{LIST}.scrollHeight > {LIST}.clientHeight")

        # Scrolled up in the list: three new lines are counted and offered below; the list and
        # the window stay where the reader put them.
        page.evaluate(f"{LIST}.scrollTop = 0")
        window_y = page.evaluate("window.scrollY")
        say(3, "while scrolled up")
        lines_seen(stark, 17)
        unread(stark, 3)
        expect(page.locator("[data-testid=talk-jump]")).to_have_text("3 new ↓")
        assert page.evaluate(f"{LIST}.scrollTop") == 0
        assert page.evaluate("window.scrollY") == window_y
        page.locator("#talk-panel").screenshot(path=str(shots / "talk-unread.png"))
        page.locator("[data-testid=talk-jump]").click()
        unread(stark, 0)
        expect(page.locator("[data-testid=talk-jump]")).to_be_hidden()

        # The tab hidden: a line at the table and a whisper to Stark count; a whisper between
        # Tyrell and Lannister never reaches him, so never counts.
        hidden(page, True)
        say(1, "while hidden")
        ack = chatter.call("whisper", {"to": STARK, "text": "for Stark"}, namespace=NAMESPACE)
        assert ack["ok"] is True, ack
        ack = tyrell.call(
            "whisper", {"to": LANNISTER, "text": "not for Stark"}, namespace=NAMESPACE
        )
        assert ack["ok"] is True, ack
        say(1, "still hidden")
        lines_seen(stark, 20)
        unread(stark, 3)
        hidden(page, False)
        unread(stark, 0)

        # The panel out of the window: the title and the badge count; the window stays at the
        # top; coming to the panel reads them.
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(f"{LIST}.getBoundingClientRect().top > window.innerHeight")
        say(2, "while away")
        lines_seen(stark, 22)
        unread(stark, 2)
        assert page.evaluate("window.scrollY") == 0
        page.evaluate(PANEL_IN_VIEW)
        unread(stark, 0)

        # His own lines never count: Lannister's page, away from its panel, says a line; a
        # line of Tyrell's counts for him, and both for Stark, away too. Opened again, Stark's
        # page counts only what he had not read, until he reads it.
        page.evaluate("window.scrollTo(0, 0)")
        lannister.page.evaluate(PANEL_IN_VIEW)
        unread(lannister, 0)
        talk_to(lannister, "table", "my own line")
        lannister.page.evaluate("window.scrollTo(0, 0)")
        ack = tyrell.call("say", {"text": "from Tyrell"}, namespace=NAMESPACE)
        assert ack["ok"] is True, ack
        lines_seen(lannister, 25)
        unread(lannister, 1)
        lines_seen(stark, 24)
        unread(stark, 2)
        page.goto(url)
        lines_seen(stark, 24)
        unread(stark, 2)
        page.evaluate(PANEL_IN_VIEW)
        unread(stark, 0)
        page.goto(url)
        lines_seen(stark, 24)
        unread(stark, 0)
    finally:
        chatter.disconnect()
        tyrell.disconnect()
    assert stark.errors == [] and lannister.errors == []


def test_each_line_shows_its_local_time_with_the_full_date_in_a_tooltip(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    stark = open_seat(chromium, "stark", url, game.id, game.tokens[STARK])
    cdp = stark.context.new_cdp_session(stark.page)
    cdp.send("Emulation.setTimezoneOverride", {"timezoneId": ZONE})
    cdp.send("Emulation.setLocaleOverride", {"locale": "en-GB"})
    stark.page.reload()
    lannister = server.client(game.id, game.tokens[LANNISTER])
    try:
        ack = lannister.call("say", {"text": "What time is it?"}, namespace=NAMESPACE)
        assert ack["ok"] is True, ack
    finally:
        lannister.disconnect()
    said = datetime.fromisoformat(ack["line"]["said_at"]).astimezone(ZoneInfo(ZONE))

    shown = stark.page.locator("[data-testid=talk-line] time.talk-time")
    expect(shown).to_have_text(said.strftime("%H:%M"))
    assert shown.get_attribute("datetime") == ack["line"]["said_at"]
    tooltip = shown.get_attribute("title") or ""
    assert str(said.year) in tooltip and said.strftime("%A") in tooltip, tooltip
    assert said.strftime("%H:%M:%S") in tooltip, tooltip
    assert stark.errors == []
