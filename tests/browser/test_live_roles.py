"""What a page shows of its viewer's role follows the role live, without a reload: the host
role handed to another seat moves the host's controls (the host panel, the seat panel, the
webhook form) and the word "host" from the old host's open page to the new host's; a seat
handed to a new link turns the old device's open page into a spectator's at once."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import WAIT_MS, Person, open_seat
from tests.live_server import LiveServer

STARK, LANNISTER, TYRELL = 0, 1, 2


def hand(person: Person, seat: int, action: str) -> None:
    """The host's seat action on `seat` (`hand-host`, `hand-seat`), confirmed."""
    person.page.evaluate("document.querySelector('#host-seats').open = true")
    person.page.locator(f"#host-seats li[data-seat='{seat}'] .{action}").click()
    person.send("#confirm-yes")


def shows_host_controls(page: Page, house: str) -> None:
    name = f"Player of {house.lower()}"
    expect(page.locator("#connection")).to_have_text(
        f"Connected as {name} (House {house}), host.", timeout=WAIT_MS
    )
    expect(page.locator("#host-panel")).to_be_visible()
    expect(page.locator("#host-seats")).to_be_visible()
    expect(page.locator("#webhook-settings")).to_be_visible()
    expect(page.locator("#webhook-status")).to_have_text("No webhook is set.")


def shows_no_host_controls(page: Page, house: str) -> None:
    name = f"Player of {house.lower()}"
    expect(page.locator("#connection")).to_have_text(
        f"Connected as {name} (House {house}).", timeout=WAIT_MS
    )
    expect(page.locator("#host-panel")).to_be_hidden()
    expect(page.locator("#host-seats")).to_have_count(0)
    expect(page.locator("#webhook-settings")).to_be_hidden()


def test_a_live_host_hand_over_moves_the_host_controls_between_the_open_pages(
    chromium: Any, server: LiveServer
) -> None:
    """The host (Stark's seat) hands the host role to Tyrell while both pages are open, and
    Tyrell hands it back: each time, without a reload, the old host's page loses ", host", the
    host panel, the seat panel and the webhook form (and the URL it held), and the new host's
    page shows them, its webhook form reading the setting with its own token."""
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    host = open_seat(chromium, "host", url, game.id, game.host)
    tyrell = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    shows_host_controls(host.page, "Stark")
    shows_no_host_controls(tyrell.page, "Tyrell")
    host.page.fill("#webhook-url", "https://discord.com/api/webhooks/1/typed-not-saved")

    hand(host, TYRELL, "hand-host")

    shows_no_host_controls(host.page, "Stark")
    expect(host.page.locator("#webhook-url")).to_have_value("")
    shows_host_controls(tyrell.page, "Tyrell")

    hand(tyrell, STARK, "hand-host")

    shows_host_controls(host.page, "Stark")
    shows_no_host_controls(tyrell.page, "Tyrell")
    # The form's handlers were set once: a save sends one request (refused: the server posts
    # to no address of its own network).
    sent: list[str] = []
    host.page.on("request", lambda r: sent.append(r.method) if "/webhook" in r.url else None)
    host.page.fill("#webhook-url", "https://127.0.0.1/hook")
    host.page.locator("#webhook-form button[type=submit]").click()
    expect(host.page.locator("#webhook-status")).to_contain_text("Error")
    host.page.wait_for_timeout(300)
    assert sent == ["PUT"]
    assert [e for e in host.errors if "409" not in e] == [] and tyrell.errors == []


def test_a_seat_handed_to_a_new_link_turns_the_old_open_page_into_a_spectators(
    chromium: Any, server: LiveServer
) -> None:
    """The host hands Lannister's seat to Eve while Bob's page is open: Bob's page says so and
    is a spectator's at once: no talk panel, no seat of its own, no moves of the seat."""
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    host = open_seat(chromium, "host", url, game.id, game.host)
    bob = open_seat(chromium, "bob", url, game.id, game.tokens[LANNISTER])
    expect(bob.page.locator("#connection")).to_have_text(
        "Connected as Player of lannister (House Lannister)."
    )
    expect(bob.page.locator("#talk-panel")).to_be_visible()
    expect(bob.page.locator("#own-seat")).to_be_visible()
    host.page.evaluate("document.querySelector('#host-seats').open = true")
    host.page.fill(f"#hand-name-{LANNISTER}", "Eve")

    hand(host, LANNISTER, "hand-seat")

    expect(bob.page.locator("#notice")).to_contain_text("handed to a new link", timeout=WAIT_MS)
    expect(bob.page.locator("#connection")).to_have_text(
        "Connected as a spectator: you see only what is public."
    )
    expect(bob.page.locator("#talk-panel")).to_be_hidden()
    expect(bob.page.locator("#own-seat")).to_have_count(0)
    expect(bob.page.locator("#notify-panel")).to_be_hidden()
    expect(bob.page.locator(".house.mine")).to_have_count(0)
    assert bob.errors == []
