"""Private games in Chromium: a game made on the front page is unlisted; a stranger who opens its
page without the invite cannot take a seat, one who opens the host's invite link can; the front page
lists only listed games, and "Your games" shows the games this browser sits in."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.players import WAIT_MS, Person, open_person
from tests.live_server import LiveServer


def create(base: str, **body: Any) -> dict[str, Any]:
    response = requests.post(
        f"{base}/api/games", json={"players": 3, "host_name": "Eddard", **body}, timeout=5
    )
    response.raise_for_status()
    return response.json()


def host_creates_a_game(chromium: Any, base: str) -> tuple[Person, str, str]:
    """The host creates a game on the front page, leaving it unlisted; his page's invite link."""
    host = open_person(chromium, "host", f"{base}/")
    host.page.fill("#host-name", "Eddard")
    expect(host.page.locator("#listed")).not_to_be_checked()
    host.page.click("#create button[type=submit]")
    host.page.wait_for_url(f"{base}/games/*")
    game_id = host.page.url.rsplit("/", 1)[1]
    link = host.page.locator("#invite-url")
    expect(link).to_have_value(re.compile(rf"/games/{game_id}#invite=\w+$"), timeout=WAIT_MS)
    return host, game_id, link.input_value()


def test_a_stranger_needs_the_invite_link_to_take_a_seat(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    host, game_id, invite_url = host_creates_a_game(chromium, server.url)
    assert "#invite=" in invite_url
    host.shot(shots, "host-with-invite")

    stranger = open_person(chromium, "stranger", f"{server.url}/games/{game_id}")
    expect(stranger.page.locator("#private-game")).to_be_visible()
    expect(stranger.page.locator("#join-form")).to_have_count(0)
    stranger.shot(shots, "stranger-without-invite")

    friend = open_person(chromium, "friend", invite_url)
    friend.page.wait_for_function("!window.location.hash")
    assert "#invite" not in friend.page.url
    friend.page.fill("#join-name", "Cersei")
    friend.page.select_option("#join-house", "lannister")
    friend.page.click("#join-form button[type=submit]")
    expect(friend.page.locator("#notice")).to_contain_text("You sit at seat 1", timeout=WAIT_MS)
    invite = invite_url.split("#invite=", 1)[1]
    # the seat's browser is never told the invite again: it holds the one its link carried
    friend.page.reload()
    expect(friend.page.locator("#invite-url")).to_have_count(0)
    assert invite not in "\n".join(friend.frames) and invite not in stranger.received()
    assert not stranger.errors and not friend.errors and not host.errors


def test_the_front_page_lists_only_listed_games(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    listed = create(server.url, listed=True)["game_id"]
    private = create(server.url)["game_id"]

    stranger = open_person(chromium, "stranger", f"{server.url}/")
    expect(stranger.page.locator(f"#open-games li[data-game='{listed}']")).to_be_visible()
    expect(stranger.page.locator(f"#open-games li[data-game='{private}']")).to_have_count(0)
    stranger.shot(shots, "front-page")

    # the host of the private game lists it from his page; the front page then shows it
    host, game_id, _ = host_creates_a_game(chromium, server.url)
    host.send("#toggle-listing")
    expect(host.page.locator("#toggle-listing")).to_have_text("Take it off the front page")
    stranger.page.click("#refresh-games")
    expect(stranger.page.locator(f"#open-games li[data-game='{game_id}']")).to_be_visible()
    assert not stranger.errors and not host.errors


def test_your_games_shows_the_games_this_browser_sits_in(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    created = create(server.url)
    game_id = created["game_id"]
    player = open_person(chromium, "player", created["invite_url"])
    player.page.fill("#join-name", "Arya")
    player.page.select_option("#join-house", "stark")
    player.page.check("#join-remember")  # kept on this device, not for this tab alone
    player.page.click("#join-form button[type=submit]")
    expect(player.page.locator("#notice")).to_contain_text("You sit at seat", timeout=WAIT_MS)
    # a token of a game this server does not know, and one it refuses, kept on the device
    player.page.evaluate(
        """([game]) => {
            localStorage.setItem('seats:gone000000', JSON.stringify([{token: 'x', label: 'Old'}]));
            localStorage.setItem(`seats:${game}`, JSON.stringify([
                ...JSON.parse(localStorage.getItem(`seats:${game}`) ?? '[]'),
                {token: 'refused-token', label: 'Stale'}]));
        }""",
        [game_id],
    )

    player.page.goto(f"{server.url}/")
    mine = player.page.locator(f"#my-games li[data-game='{game_id}']")
    expect(mine).to_contain_text("Eddard's game")
    expect(mine).to_contain_text("in the lobby, 1 of 3 seats taken")
    expect(player.page.locator("#my-games li[data-game='gone000000']")).to_have_count(0)
    kept = player.page.evaluate(
        "(key) => [localStorage.getItem('seats:gone000000'), localStorage.getItem(key)]",
        f"seats:{game_id}",
    )
    assert kept[0] is None and "refused-token" not in kept[1] and "Arya" in kept[1]
    # the game is not listed, so only "Your games" shows it
    expect(player.page.locator(f"#open-games li[data-game='{game_id}']")).to_have_count(0)
    player.shot(shots, "your-games")

    stranger = open_person(chromium, "stranger", f"{server.url}/")
    expect(stranger.page.locator("#my-games")).to_contain_text("This browser holds no seat yet.")
    # Chromium logs the 404 and 401 of the two stale entries the page asked about; nothing else
    expected = ("status of 404 (NOT FOUND)", "status of 401 (UNAUTHORIZED)")
    assert len(player.errors) <= 2
    assert all(any(code in e for code in expected) for e in player.errors), player.errors
    assert not stranger.errors
