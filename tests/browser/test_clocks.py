"""The clocks variant in the browser (R-4.3): the host sets the time banks in minutes and seconds in
the lobby; the page shows each player's time left, the current step's kind first, and counts down
for the player whose clock runs, and only for him; the clock's start and stop lines fold under the
event that caused them in the latest events, and a turn that ended on the clock is no tick."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import join, open_person, open_seat
from tests.live_server import LiveServer


def _post(server: LiveServer, path: str, body: Any, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = requests.post(f"{server.url}{path}", json=body, headers=headers, timeout=5)
    assert response.ok, response.text
    return response.json()


def _seconds(text: str) -> int:
    found = re.search(r"(\d+):(\d\d) left", text)
    assert found is not None, text
    return int(found.group(1)) * 60 + int(found.group(2))


def test_the_page_shows_each_players_time_and_counts_down_the_running_clock(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    host = open_person(chromium, "stark", f"{server.url}/")
    page = host.page
    page.fill("#host-name", "Eddard")
    page.check("#variant-clocks")
    page.check("#listed")  # the other players join over HTTP without the invite
    page.fill("#clock-decree", "2:75")
    page.click("text=Create the game")  # the form refuses 75 seconds beside the minutes
    expect(page.locator("#clock-decree:invalid")).to_have_count(1)
    assert page.url == f"{server.url}/"
    page.fill("#clock-decree", "2:30")
    host.shot(shots, "01-lobby-clocks")
    page.click("text=Create the game")
    page.wait_for_url("**/games/*")
    game_id = page.url.rsplit("/", 1)[-1]
    join(host, "Eddard", "stark")
    tokens = {}
    for house in ("lannister", "tyrell"):
        joined = _post(
            server, f"/api/games/{game_id}/commands/join", {"house": house, "player_name": house}
        )
        tokens[joined["seat"]] = joined["token"]
    host.send("[data-message=start]")

    # Seat 0 opens the marriages: his decree clock runs from 2:30, the others' wait.
    mine = page.locator("[data-testid=clock-0-decree] time")
    expect(mine).to_have_text(re.compile(r"2:[23]\d left"))
    expect(page.locator("[data-testid=running-clock-0]")).to_be_visible()
    expect(page.locator("[data-testid=clock-1-decree]")).to_have_text("Decree steps: 2:30 left")
    expect(page.locator("[data-testid=clock-1-decree]")).to_have_class(re.compile("current"))
    first = _seconds(mine.inner_text())
    page.wait_for_timeout(2200)
    assert _seconds(mine.inner_text()) < first  # it counts down, live
    expect(page.locator("[data-testid=clock-1-decree] time")).to_have_count(0)
    host.shot(shots, "02-clock-running")

    # Seat 0 passes: his clock stops with what he has left, seat 1's runs.
    host.send("[data-message=pass]")
    expect(page.locator("[data-testid=running-clock-1]")).to_be_visible()
    expect(page.locator("[data-testid=running-clock-0]")).to_have_count(0)
    expect(page.locator("[data-testid=clock-0-decree] time")).to_have_count(0)
    left = _seconds(page.locator("[data-testid=clock-0-decree]").inner_text())
    assert 130 <= left < 150
    expect(page.locator("[data-testid=clock-1-decree] time")).to_have_text(
        re.compile(r"2:[23]\d left")
    )
    assert host.errors == []


def test_clock_lines_fold_in_the_feed_and_a_run_out_bank_is_no_tick(
    chromium: Any, server: LiveServer
) -> None:
    # Eight seconds a bank: time enough for the page to show Tyrell's turn while his runs,
    # and the clocks start only once the page is open, so a slow browser start costs nothing.
    banks = {"candidacy": 0, "ballot": 0, "decree": 8, "title_choice": 0, "purchase": 0}
    game = HttpCourt(server.url, variants={"clocks": True}, clocks=banks, start=False)
    person = open_seat(chromium, "stark", f"{server.url}/games/{game.id}", game.id, game.tokens[0])
    page = person.page
    expect(page.locator("#connection")).to_contain_text("Connected as Player of stark")
    game.start()
    game.play("pass", {}, game.tokens[0])
    # Lannister lets his bank run out; Tyrell's clock runs now.
    deadline = time.monotonic() + 20
    while game.view()["decree"]["current"] != 2:
        assert time.monotonic() < deadline, "Lannister's clock never ran out"
        time.sleep(0.1)
    order = page.locator("#moves-panel .decree p.muted")
    expect(order).to_contain_text("Player of stark (House Stark) — you ✓")
    expect(order).to_contain_text("Player of lannister (House Lannister) ⌛ time ran out")
    expect(order).not_to_contain_text("Player of lannister (House Lannister) ✓")

    feed = page.locator("#feed")
    expect(feed).to_contain_text("The clock ran out")
    lines = page.locator("#feed > li").all_inner_texts()
    clock = re.compile(r"clock runs|clock stopped|time for the .* has run out")
    assert not any(clock.search(line.split("\n")[0]) for line in lines), lines
    folded = page.locator("#feed details.clock-lines")
    expect(folded.first).to_be_attached()
    folded.first.locator("summary").click()
    expect(folded.first).to_contain_text("clock")
    assert person.errors == []
