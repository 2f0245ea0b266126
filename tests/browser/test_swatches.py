"""A House's colours show as a small flag wherever its name is listed: the open games of the
front page, the join form of a game in its lobby, and the map's legend."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.court_http import HttpCourt, listed_lobby
from tests.browser.players import open_person
from tests.live_server import LiveServer

SIZES = "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])"


def flags(page: Page, where: str, count: int) -> None:
    """At least `count` swatches under `where`, each one drawn at least 8 px wide and high."""
    swatches = page.locator(f"{where} .swatch")
    expect(swatches.first).to_be_attached()
    sizes = swatches.evaluate_all(SIZES)
    assert len(sizes) >= count, sizes
    assert all(width >= 8 and height >= 8 for width, height in sizes), (where, sizes)


def test_house_colours_show_in_the_lists_the_form_and_the_legend(
    chromium: Any, server: LiveServer
) -> None:
    lobby = listed_lobby(server.url)
    front = open_person(chromium, "visitor", server.url)
    expect(front.page.locator(f"[data-game='{lobby['game_id']}']")).to_be_visible()
    flags(front.page, f"[data-game='{lobby['game_id']}']", 3)
    front.page.goto(f"{server.url}/games/{lobby['game_id']}")
    expect(front.page.locator("#join-form")).to_be_visible()
    flags(front.page, "#join-form", 3)

    game = HttpCourt(server.url)
    front.page.goto(f"{server.url}/games/{game.id}")
    expect(front.page.locator(".map-legend")).to_be_visible()
    flags(front.page, ".map-legend", 4)
    assert front.errors == []
