"""What a page shows of its viewer's role follows the role live, without a reload: the host
role handed to another seat moves the host's controls (the host panel, the seat panel, the
webhook form) and the word "host" from the old host's open page to the new host's; a seat
handed to a new link turns the old device's open page into a spectator's at once, its mail
address gone from it; a page that takes a seat offers the seat's reminders by mail."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.court_http import HttpCourt, listed_lobby
from tests.browser.players import WAIT_MS, Person, court, open_person, open_seat
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


def test_the_mail_settings_follow_the_seat_the_page_holds(
    chromium: Any,
    mailing_server: LiveServer,
) -> None:
    """In the lobby the host's page (no seat yet) offers no reminders and asks nothing it would
    be refused; once he takes a seat on it, it offers them. Bob gives an address; his seat is
    handed to a new link while his page is open: the address leaves his page."""
    created = listed_lobby(mailing_server.url)
    game_id, host_token = created["game_id"], created["host_token"]
    url = f"{mailing_server.url}/games/{game_id}"
    host = open_seat(chromium, "host", url, game_id, host_token)
    expect(host.page.locator("#connection")).to_have_text("Connected as the host.")
    expect(host.page.locator("#mail-settings")).to_be_hidden()

    host.page.locator("#join-form button[type=submit]").click()

    expect(host.page.locator("#connection")).to_contain_text(", host.", timeout=WAIT_MS)
    expect(host.page.locator("#mail-settings")).to_be_visible()
    expect(host.page.locator("#mail-state")).to_have_text(
        "No address is given: the court mails you nothing."
    )
    bob = open_person(chromium, "bob", url)
    bob.page.fill("#join-name", "Bob")
    bob.page.locator("#join-form button[type=submit]").click()
    expect(bob.page.locator("#mail-settings")).to_be_visible(timeout=WAIT_MS)
    bob.page.fill("#mail-address", "bob@example.org")
    bob.page.click("#mail-form button[type=submit]")
    expect(bob.page.locator("#mail-state")).to_contain_text("bob@example.org is not confirmed")
    seat = next(
        s["seat"] for s in court(mailing_server.url, game_id)["seats"] if s["player_name"] == "Bob"
    )

    hand(host, seat, "hand-seat")

    expect(bob.page.locator("#connection")).to_have_text(
        "Connected as a spectator: you see only what is public.", timeout=WAIT_MS
    )
    expect(bob.page.locator("#mail-settings")).to_be_hidden()
    assert "bob@example.org" not in bob.page.evaluate(
        "document.querySelector('#mail-address').value + document.body.innerText"
    )
    assert host.errors == [] and bob.errors == []
