"""Table talk and whispers in three browsers: a whisper between two seats reaches those two pages
and no frame of the third browser; a line at the table reaches all three; a line is shown as text,
never as markup; the history shows each viewer's own lines beside the event the court stood at when
they were said."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import Person, open_seat
from tests.live_server import LiveServer

SECRET = "Meet me by the weirwood at dusk"
MARKUP = "<img src=x onerror=alert(1)><b>bold</b>"


def talk_to(person: Person, to: str, text: str) -> None:
    person.page.select_option("#talk-to", value=to)
    person.page.fill("#talk-text", text)
    person.page.locator(".talk-form button[type=submit]").click()
    expect(person.page.locator("#talk-text")).to_have_value("")


def test_a_whisper_between_two_browsers_never_reaches_the_third(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    stark, lannister, tyrell = (
        open_seat(chromium, name, url, game.id, game.tokens[seat])
        for seat, name in enumerate(("stark", "lannister", "tyrell"))
    )
    for person in (stark, lannister, tyrell):
        expect(person.page.locator("#talk-panel")).to_be_visible()

    talk_to(stark, "1", SECRET)
    lines = {p.name: p.page.locator("[data-testid=talk-lines]") for p in (stark, lannister, tyrell)}
    expect(lines["lannister"]).to_contain_text(SECRET)
    expect(lines["lannister"]).to_contain_text("whispered to")
    expect(lines["stark"]).to_contain_text(SECRET)

    talk_to(tyrell, "table", "The Reach sends its greetings")
    for person in (stark, lannister, tyrell):
        expect(lines[person.name]).to_contain_text("The Reach sends its greetings")
    talk_to(lannister, "table", MARKUP)
    for person in (stark, lannister, tyrell):
        expect(lines[person.name]).to_contain_text(MARKUP)
        assert (
            person.page.locator("[data-testid=talk-lines] img, [data-testid=talk-lines] b").count()
            == 0
        )
    lannister.shot(shots, "talk-panel")

    assert SECRET not in tyrell.received()
    assert SECRET not in "\n".join(tyrell.frames)

    # The history page of each viewer shows his own lines beside the events, and only his.
    lannister.page.goto(f"{url}/history")
    events = lannister.page.locator("#events")
    expect(events.locator("li.talk")).to_have_count(3)
    whisper = events.locator("li.talk.whisper")
    expect(whisper).to_contain_text(SECRET)
    assert whisper.get_attribute("data-court-version") == str(game.view()["game"]["version"])
    lannister.shot(shots, "talk-in-history")
    tyrell.page.goto(f"{url}/history")
    expect(tyrell.page.locator("#events li.talk")).to_have_count(2)
    assert SECRET not in tyrell.page.content()
    assert stark.errors == [] and lannister.errors == [] and tyrell.errors == []
