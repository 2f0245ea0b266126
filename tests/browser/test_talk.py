"""Table talk and whispers in three browsers: a whisper between two seats reaches those two pages
and no frame of the third browser; a line at the table reaches all three; a line is shown as text,
never as markup; the history shows each viewer's own lines beside the event the court stood at when
they were said; a whisper rewritten in the database, its chain recomputed, raises the banner on
every page of its two parties and fails the server's check."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

from server.live.sockets import NAMESPACE
from tests.browser.court_http import HttpCourt
from tests.browser.players import open_seat, talk_to, wait_version
from tests.live_server import LiveServer
from tests.server.tools.cli.court_shell import rewrite_talk

SECRET = "Meet me by the weirwood at dusk"
MARKUP = "<img src=x onerror=alert(1)><b>bold</b>"


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


# Where the window and the talk list stand: the window's scroll, and whether the list's newest
# line is inside the list's own visible box.
POSITION = """() => {
  const list = document.querySelector('[data-testid=talk-lines]');
  const last = list.lastElementChild.getBoundingClientRect(), box = list.getBoundingClientRect();
  return {y: window.scrollY, newest: last.bottom <= box.bottom + 1 && last.top >= box.top - 1,
          scrolls: list.scrollHeight > list.clientHeight};
}"""


def test_live_updates_keep_the_window_where_it_is_and_the_newest_line_inside_the_panel(
    chromium: Any, server: LiveServer
) -> None:
    server.app.extensions["talk"].rate.limits = [(100, 1.0)]  # many lines at once
    game = HttpCourt(server.url)
    url = f"{server.url}/games/{game.id}"
    for width in (1280, 390):
        stark = open_seat(chromium, f"stark-{width}", url, game.id, game.tokens[0])
        page = stark.page
        expect(page.locator("#talk-panel")).to_be_visible()
        lannister = server.client(game.id, game.tokens[1])
        try:
            for n in range(16):
                ack = lannister.call("say", {"text": f"line {n} at {width}"}, namespace=NAMESPACE)
                assert ack["ok"] is True, ack
            expect(page.locator("[data-testid=talk-line]").last).to_contain_text(f"15 at {width}")
            assert page.evaluate(POSITION)["scrolls"] is True
            # The reader is at the top of the page; a push of a new court version and a new
            # talk line arrive: the window stays, the list shows its newest line.
            page.evaluate("window.scrollTo(0, 0)")
            assert page.evaluate("window.scrollY") == 0
            version = game.view()["game"]["version"]
            game.play("record_gold", {"house": "tyrell", "amount": 1, "cause": "tax"}, game.host)
            wait_version(stark, version + 1)
            lannister.call("say", {"text": f"after the push at {width}"}, namespace=NAMESPACE)
            expect(page.locator("[data-testid=talk-line]").last).to_contain_text("after the push")
        finally:
            lannister.disconnect()
        position = page.evaluate(POSITION)
        assert position["y"] == 0 and position["newest"] is True, position
        assert stark.errors == []
        stark.context.close()


def test_a_whisper_rewritten_in_the_database_is_caught_by_the_pages_and_the_check(
    chromium: Any, tmp_path: Path
) -> None:
    db = tmp_path / "court.db"
    channel = "whisper:seat:0|seat:1"
    # Given a whisper between Stark and Lannister, answered, seen on both their pages
    with LiveServer(db, deadlines=False) as server:
        port = server.http.server_port
        game = HttpCourt(server.url)
        url = f"{server.url}/games/{game.id}"
        stark, lannister = (
            open_seat(chromium, name, url, game.id, game.tokens[seat])
            for seat, name in enumerate(("stark", "lannister"))
        )
        talk_to(stark, "1", SECRET)
        talk_to(lannister, "0", "I will come")
        for person in (stark, lannister):
            person.page.wait_for_function(
                "([id, channel]) => (JSON.parse(localStorage.getItem("
                "'small-council.witness-talk.' + id)) || {})[channel]?.number === 2",
                arg=[game.id, channel],
            )
            expect(person.page.locator("#witness")).to_be_hidden()

    # When its first line is rewritten in the database, the channel's chain recomputed
    rewrite_talk(db, game.id, channel, 1, "Meet me at the Eyrie")
    with LiveServer(db, deadlines=False, port=port) as server:
        # Then the pages that saw it, and a new page of Stark's that never did, raise the banner
        fresh = open_seat(chromium, "stark-again", url, game.id, game.tokens[0])
        for person in (stark, lannister, fresh):
            if person is not fresh:
                person.reload_after_outage()
            banner = person.page.locator("#witness")
            expect(banner).to_be_visible()
            expect(banner).to_have_attribute("data-problem", "talk")
            expect(banner).to_contain_text(f"Line 1 of the whispers ({channel})")
            assert not person.errors, person.errors
        # ... and the server's check of the channel says it was changed
        checked = requests.get(
            f"{server.url}/api/games/{game.id}/talk/verify",
            headers={"Authorization": f"Bearer {game.tokens[1]}"},
            timeout=10,
        ).json()
        assert checked["ok"] is False
        whisper = next(c for c in checked["channels"] if c["channel"] == channel)
        assert whisper["problem"] == "line 1 is not signed by the server's key: it was changed"


def test_lines_said_before_the_server_signed_talk_show_unsigned_and_raise_no_banner(
    chromium: Any, tmp_path: Path
) -> None:
    db = tmp_path / "court.db"
    # Given a table talk whose first two lines were said before the server signed talk lines
    # (an upgraded database: they have no signature row) and a third said since
    with LiveServer(db, deadlines=False) as server:
        port = server.http.server_port
        game = HttpCourt(server.url)
        url = f"{server.url}/games/{game.id}"
        stark = open_seat(chromium, "stark", url, game.id, game.tokens[0])
        for text in ("Before signatures", "Still before", "Signed at last"):
            talk_to(stark, "table", text)
        expect(stark.page.locator("[data-testid=talk-line]")).to_have_count(3)
        stark.context.close()
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM talk_signatures WHERE position IN (1, 2)")
    conn.close()

    with LiveServer(db, deadlines=False, port=port) as server:
        # When a page of another seat opens, then the two lines are marked unsigned, the third
        # is not, and no banner shows
        lannister = open_seat(chromium, "lannister", url, game.id, game.tokens[1])
        lines = lannister.page.locator("[data-testid=talk-line]")
        expect(lines).to_have_count(3)
        lannister.page.wait_for_function(
            "(id) => (JSON.parse(localStorage.getItem("
            "'small-council.witness-talk.' + id)) || {}).table?.signed_from === 3",
            arg=game.id,
        )
        for n, marked in enumerate((True, True, False)):
            expect(lines.nth(n).locator(".talk-unsigned")).to_have_count(int(marked))
        expect(lannister.page.locator("#witness")).to_be_hidden()
        assert lannister.errors == []

    # And when the signed line loses its signature too, that page raises the banner naming it
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM talk_signatures WHERE position = 3")
    conn.close()
    with LiveServer(db, deadlines=False, port=port) as server:
        lannister.page.reload()
        banner = lannister.page.locator("#witness")
        expect(banner).to_be_visible()
        expect(banner).to_have_attribute("data-problem", "talk")
        expect(banner).to_contain_text("Line 3 of the table talk")
        expect(banner).to_contain_text("carries no signature")
