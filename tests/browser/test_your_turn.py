"""Being told it is your turn in the browser: the tab's title and icon change on the page of the
player the court waits on, and on no other; the host sets the game's webhook from the page, tests
it, and a local receiver is told when a turn passes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import MARK, WAIT_MS, Person, open_seat
from tests.live_server import LiveServer
from tests.server.notify.receiver import receiving

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")
LOCAL_RECEIVERS = {
    "WEBHOOK_ALLOW_HTTP": True,
    "WEBHOOK_ALLOW_PRIVATE": True,
    "NOTICES_POLL": 0.1,
    "WEBHOOK_BACKOFF": 0.1,
}


@pytest.fixture
def notifying_server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(tmp_path / "court.db", settings=LOCAL_RECEIVERS) as running:
        yield running


def icon(person: Person) -> str:
    href: str = person.page.evaluate("document.querySelector('link[rel=icon]').href")
    return href


def expect_turn(person: Person, mine: bool) -> None:
    title = person.page.title
    person.page.wait_for_function(
        "([mark, mine]) => document.title.startsWith(mark) === mine",
        arg=[MARK, mine],
        timeout=WAIT_MS,
    )
    assert title().startswith(MARK) is mine
    assert icon(person).endswith("/static/favicon-turn.svg" if mine else "/static/favicon.svg")


HOUSES = ("stark", "lannister", "tyrell")


def test_the_title_and_icon_tell_the_player_whose_turn_it_is_and_the_webhook_hears_it(
    chromium: Any, notifying_server: LiveServer
) -> None:
    table = HttpCourt(notifying_server.url)
    table.settle()
    url = f"{notifying_server.url}/games/{table.id}"
    people = {
        seat: open_seat(chromium, house, url, table.id, table.tokens[seat])
        for seat, house in enumerate(HOUSES)
    }
    host = people[0]  # Stark's player is the host
    with receiving() as receiver:
        page = host.page
        expect(page.locator("#webhook-settings")).to_be_visible()
        expect(page.locator("#webhook-status")).to_have_text("No webhook is set.")
        page.fill("#webhook-url", receiver.url)
        # Every move: the channel hears each turn, not only the first of a step.
        page.select_option("#webhook-digest", "moves")
        page.click("#webhook-form button[type=submit]")
        expect(page.locator("#webhook-status")).to_contain_text("Saved")
        page.click("#webhook-test")
        expect(page.locator("#webhook-status")).to_have_text("The test message arrived.")
        assert "this channel is set up" in receiver.texts()[-1]
        for seat in (1, 2):
            expect(people[seat].page.locator("#webhook-settings")).to_be_hidden()
            expect(people[seat].page.locator("#notify-panel")).to_be_visible()
        for person in people.values():
            expect_turn(person, False)

        table.record_villages("stark", NORTH)
        view = table.advance_until(
            lambda v: v["election"] and v["election"]["id"] == "warden-north"
        )
        first = view["election"]["current"]
        for seat, person in people.items():
            expect_turn(person, seat == first)
        told = "It is Player of {}'s turn: Warden of the North election, candidacy."
        # Notices within a few seconds go out as one post: the line is within a post.
        receiver.wait_for(lambda texts: any(told.format(HOUSES[first]) in t for t in texts))

        table.play("pass", {}, table.tokens[first])
        second = table.view()["election"]["current"]
        assert second not in (None, first)
        expect_turn(people[first], False)
        expect_turn(people[second], True)
        receiver.wait_for(lambda texts: any(told.format(HOUSES[second]) in t for t in texts))
    for seat, person in people.items():
        assert person.errors == [], person.errors
        if seat != 0:
            assert receiver.url not in person.received()
