"""People at the table in the browser: one page each, in its own browser context, with every
Socket.IO frame it received kept so a test can check what reached that browser at all; and
what a person does there (join, place a ballot, talk, confirm an action)."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import BrowserContext, Page, expect

WAIT_MS = 10_000
# The seats of a three-player game, and what a tab's title opens with when the seat is awaited.
STARK, LANNISTER, TYRELL = 0, 1, 2
MARK = "● Your turn — "


@dataclass
class Person:
    name: str
    context: BrowserContext
    page: Page
    frames: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requests: list[tuple[str, str]] = field(default_factory=list)  # (method, url) sent

    def received(self) -> str:
        """Everything this browser was sent over Socket.IO, and what its pages stored."""
        stored = self.page.evaluate("JSON.stringify([{...localStorage}, {...sessionStorage}])")
        return "\n".join([*self.frames, stored, self.page.content()])

    def send(self, selector: str) -> None:
        """Clicks a control that sends a message, and waits for the server's answer."""
        self.page.locator(selector).click()
        expect(self.page.locator("#notice")).not_to_have_text("Sending…", timeout=WAIT_MS)

    def choose(self, select: str, value: Any) -> None:
        """Picks a value in a select of the action panels (their option values are JSON)."""
        self.page.select_option(select, value=json.dumps(value))

    def reload_after_outage(self) -> None:
        """Reloads a page that was open while its server was down, keeping only the errors of
        the reloaded document: the old one's failed loads and reconnects may still be reported
        until the new document commits."""

        def committed(frame: Any) -> None:
            if frame == self.page.main_frame:
                self.errors.clear()

        self.page.on("framenavigated", committed)
        try:
            self.page.reload()
        finally:
            self.page.remove_listener("framenavigated", committed)

    def shot(self, folder: Path, name: str) -> None:
        self.page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


# Chromium logs these when the server's WebSocket sends a data or close frame after the page
# closed the socket on purpose (a page reconnects with its new token after joining or leaving
# a seat); the page has already dropped that socket and catches up on the new one, so they
# are no error of the page.
_CLOSED_SOCKET = ("failed: Data frame received after close", "failed: Close received after close")


def _page_error(message: Any) -> bool:
    return message.type == "error" and not any(text in message.text for text in _CLOSED_SOCKET)


def open_person(
    browser: Any, name: str, url: str, width: int = 1280, color_scheme: str = "light"
) -> Person:
    context = browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=color_scheme
    )
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    person = Person(name, context, page)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: person.frames.append(str(f))))
    page.on("request", lambda r: person.requests.append((r.method, r.url)))
    page.on("pageerror", lambda e: person.errors.append(str(e)))
    page.on("console", lambda m: person.errors.append(m.text) if _page_error(m) else None)
    page.goto(url)
    return person


def open_seat(browser: Any, name: str, url: str, game_id: str, token: str, **screen: Any) -> Person:
    """A page that already holds a seat token in its tab, as after joining; `screen` its
    width and colour scheme (`open_person`)."""
    person = open_person(browser, name, "about:blank", **screen)
    person.context.add_init_script(f"sessionStorage.setItem('token:{game_id}', {token!r})")
    person.page.goto(url)
    return person


def court(base: str, game_id: str) -> dict[str, Any]:
    """The public court, as a spectator sees it, to know whose turn it is."""
    response = requests.get(f"{base}/api/games/{game_id}", timeout=5)
    response.raise_for_status()
    return response.json()


def wait_version(person: Person, version: int) -> None:
    """Until the page shows the court at `version` or later."""
    person.page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=version]')?.textContent) >= v",
        arg=version,
        timeout=WAIT_MS,
    )


def assert_shown_no_markers(person: Person, salts: list[str]) -> None:
    """Neither the salts nor the kinds of another seat's markers reached this browser: no
    record's private part (which holds the salts) and no own markers in a court view or in a
    change of one (the only places a kind travels before the reveal)."""
    seen = person.received()
    compact = seen.replace('\\"', '"').replace('": ', '":').replace('", "', '","')
    assert not any(salt in seen for salt in salts), person.name
    assert '"my_markers":[{' not in compact, person.name
    assert '/election/my_markers","value":[{' not in compact, person.name


def connected(person: Person, text: str) -> None:
    expect(person.page.locator("#connection")).to_contain_text(text, timeout=WAIT_MS)


def host_panel(person: Person) -> None:
    person.page.locator("#host-seats summary").click()


def fits(person: Person) -> None:
    """The panel stays inside the window: nothing scrolls sideways."""
    width = person.page.evaluate("window.innerWidth")
    assert person.page.evaluate("document.scrollingElement.scrollWidth") <= width, person.name


def join(person: Person, name: str, house: str) -> None:
    page = person.page
    page.fill("#join-name", name)
    page.select_option("#join-house", house)
    page.click("#join-form button[type=submit]")
    # Joining takes the HTTP answer and a new connection with the seat's token.
    expect(page.locator("#connection")).to_contain_text(
        f"Connected as {name} (House", timeout=WAIT_MS
    )


def place(person: Person, for_: str, decoy: str) -> None:
    person.page.select_option("#marker-for", for_)
    person.page.select_option("#marker-decoy", decoy)
    person.send("form.ballot button[type=submit]")
    expect(person.page.locator("#notice")).to_contain_text("Your receipt")


def tokens(person: Person, noble: str, face: str) -> Any:
    return person.page.locator(f"#election-panel [data-testid=tokens-{noble}] .token.{face}")


def forge_signatures(page: Page, game_id: str) -> None:
    """The court views this page reads come with a checkpoint signed by no key."""

    def tampered(route: Any) -> None:
        view = route.fetch().json()
        view["checkpoint"]["signature"] = base64.b64encode(bytes(64)).decode()
        route.fulfill(json=view)

    page.route(f"**/api/games/{game_id}/versions/*", tampered)


def talk_to(person: Person, to: str, text: str) -> None:
    person.page.select_option("#talk-to", value=to)
    person.page.fill("#talk-text", text)
    person.page.locator(".talk-form button[type=submit]").click()
    expect(person.page.locator("#talk-text")).to_have_value("")


def confirm(person: Person, selector: str) -> None:
    """Clicks a table action, which asks first, and confirms it."""
    person.page.locator(selector).click()
    expect(person.page.locator("dialog.confirm")).to_be_visible()
    person.send("#confirm-yes")
