"""A page that loses its connection catches up by itself: after the reconnection it has every
event it missed, in order, without a reload; seats show who is connected."""

from __future__ import annotations

from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import WAIT_MS, court, open_person, open_seat, wait_version
from tests.live_server import LiveServer


def record_gold(base: str, game_id: str, host: str, amount: int) -> None:
    response = requests.post(
        f"{base}/api/games/{game_id}/commands/record_gold",
        json={"house": "lannister", "amount": amount, "cause": "a tourney"},
        headers={"Authorization": f"Bearer {host}"},
        timeout=5,
    )
    assert response.ok, response.text


def test_a_page_catches_up_after_a_lost_connection_without_a_reload(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    game_id, host = game.id, game.host
    url = f"{server.url}/games/{game_id}"
    player = open_seat(chromium, "lannister", url, game_id, game.tokens[1])
    page = player.page
    expect(page.locator("#connection")).to_contain_text("Connected as Player of lannister")
    seen = court(server.url, game_id)["game"]["version"]
    wait_version(player, seen)
    treasury = page.locator("[data-house=lannister] .treasury")
    before = int(treasury.inner_text().split()[1])
    page.evaluate("window.sameDocument = true")
    watcher = open_person(chromium, "spectator", url)
    expect(watcher.page.locator("[data-testid=presence-1]")).to_have_text("● connected")

    player.context.set_offline(True)
    expect(page.locator("#connection")).to_contain_text("reconnecting", timeout=WAIT_MS)
    expect(watcher.page.locator("[data-testid=presence-1]")).to_have_text("○ not connected")
    for amount in (2, 3):
        record_gold(server.url, game_id, host, amount)
    head = court(server.url, game_id)["game"]["version"]
    assert head > seen
    player.context.set_offline(False)

    expect(page.locator("#connection")).to_contain_text("Connected as", timeout=3 * WAIT_MS)
    wait_version(player, head)
    expect(treasury).to_have_text(f"Treasury: {before + 5} Gold Dragons")
    for version in range(seen + 1, head + 1):
        expect(page.locator(f"#feed li[data-version='{version}']")).to_have_count(1)
    expect(page.locator("#feed")).to_contain_text("gained 3 Gold Dragons (a tourney)")
    assert page.evaluate("window.sameDocument") is True
    expect(watcher.page.locator("[data-testid=presence-1]")).to_have_text("● connected")
    assert player.errors == [] or all("ERR_INTERNET_DISCONNECTED" in e for e in player.errors)
