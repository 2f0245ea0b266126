"""Reminders by mail from the page: a seat gives its address in its panel, the mail with the link
arrives at a local SMTP receiver, the link opened on another device (no seat there) confirms
it, the seat's page, left open, then shows it confirmed, an address at a name kept for tests is
refused for what it is, and the seat removes its address; no other page shows it."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_person, open_seat
from tests.live_server import LiveServer
from tests.server.notify.smtp import SmtpReceiver

ANN = "ann@example.org"


def test_a_seat_gives_confirms_and_removes_its_address_from_the_page(
    chromium: Any, mailing_server: LiveServer, smtp: SmtpReceiver
) -> None:
    table = HttpCourt(mailing_server.url)
    table.settle()
    url = f"{mailing_server.url}/games/{table.id}"
    ann = open_seat(chromium, "lannister", url, table.id, table.tokens[1])
    cat = open_seat(chromium, "tyrell", url, table.id, table.tokens[2])
    spectator = open_person(chromium, "spectator", url)
    page = ann.page

    expect(page.locator("#mail-settings")).to_be_visible()
    expect(page.locator("#mail-state")).to_have_text(
        "No address is given: the court mails you nothing."
    )
    page.fill("#mail-address", ANN)
    page.click("#mail-form button[type=submit]")
    expect(page.locator("#mail-status")).to_contain_text("A mail with a link is on its way")
    expect(page.locator("#mail-state")).to_contain_text(f"{ANN} is not confirmed yet")
    [mail] = smtp.wait_for_mail(ANN, "Confirm")
    link = next(line for line in mail.text.splitlines() if "#mail=" in line)

    phone = open_person(chromium, "phone", link)  # no seat on this device
    expect(phone.page.locator("#mail-link-status")).to_have_text(
        "Your address is confirmed: the court mails you when this page is closed."
    )
    assert "#mail=" not in phone.page.url
    # The seat's page, left open, shows the address confirmed without being reloaded
    expect(page.locator("#mail-state")).to_have_text(f"Reminders go to {ANN}.", timeout=10_000)
    page.reload()
    expect(page.locator("#mail-state")).to_have_text(f"Reminders go to {ANN}.")
    expect(cat.page.locator("#mail-state")).to_have_text(
        "No address is given: the court mails you nothing."
    )
    expect(spectator.page.locator("#mail-settings")).to_be_hidden()
    for other in (cat, spectator, phone):
        assert ANN not in other.page.content()
        assert ANN not in other.received()

    # An address ending in a name kept for tests is refused for what it is
    page.fill("#mail-address", "ann@court.test")
    page.click("#mail-form button[type=submit]")
    expect(page.locator("#mail-status")).to_contain_text("kept for tests and local networks")
    expect(page.locator("#mail-state")).to_have_text(f"Reminders go to {ANN}.")
    ann.errors.remove(
        "Failed to load resource: the server responded with a status of 400 (BAD REQUEST)"
    )

    page.click("#mail-remove")
    expect(page.locator("#mail-status")).to_have_text("Removed: the court mails you nothing more.")
    expect(page.locator("#mail-state")).to_have_text(
        "No address is given: the court mails you nothing."
    )
    for person in (ann, cat, spectator, phone):
        assert person.errors == [], person.errors


def test_an_address_confirmed_in_another_tab_shows_confirmed_in_the_seat_s_tab(
    chromium: Any, mailing_server: LiveServer, smtp: SmtpReceiver
) -> None:
    """The player opens the mailed link in a new tab of the same browser: the tab he gave the
    address in says it is confirmed at once, never "not confirmed" until he reloads."""
    table = HttpCourt(mailing_server.url)
    table.settle()
    url = f"{mailing_server.url}/games/{table.id}"
    ann = open_seat(chromium, "lannister", url, table.id, table.tokens[1])
    page = ann.page
    page.fill("#mail-address", ANN)
    page.click("#mail-form button[type=submit]")
    expect(page.locator("#mail-state")).to_contain_text(f"{ANN} is not confirmed yet")
    [mail] = smtp.wait_for_mail(ANN, "Confirm")
    link = next(line for line in mail.text.splitlines() if "#mail=" in line)

    other = ann.context.new_page()
    other.goto(link)
    expect(other.locator("#mail-link-status")).to_contain_text("Your address is confirmed")
    expect(page.locator("#mail-state")).to_have_text(f"Reminders go to {ANN}.")
    assert ann.errors == [], ann.errors
