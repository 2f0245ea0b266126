"""Your games on the front page says, per game, whose turn it is, lists the games waiting on
this browser's seat first, and marks the tab's title and icon while one does."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import MARK, WAIT_MS
from tests.live_server import LiveServer


def test_your_games_says_whose_turn_it_is_and_lists_yours_first(
    chromium: Any, server: LiveServer
) -> None:
    # Given two games this browser holds Lannister's seat in: the first waits on Stark (its
    # first decree step), the second, named, on Lannister (Stark passed)
    waiting = HttpCourt(server.url)
    mine = HttpCourt(server.url)
    mine.play("rename_game", {"name": "Tuesday at Casterly Rock"}, mine.host)
    mine.play("pass", {}, mine.tokens[0])
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(WAIT_MS)
    for game in (waiting, mine):
        kept = json.dumps([{"token": game.tokens[1], "label": "Player of lannister"}])
        context.add_init_script(f"localStorage.setItem('seats:{game.id}', {kept!r})")
    page = context.new_page()

    # When the front page opens
    page.goto(server.url + "/")

    # Then the game waiting on Lannister comes first and says so; the other names Stark
    games = page.locator("#my-games li[data-game]")
    expect(games).to_have_count(2)
    expect(games.nth(0)).to_have_attribute("data-game", mine.id)
    expect(games.nth(0)).to_have_attribute("data-turn", "yours")
    expect(games.nth(0)).to_contain_text("Your turn: act in the decree step or pass")
    expect(games.nth(1)).to_contain_text(
        "Player of stark (House Stark) acts in the decree step or passes"
    )
    expect(games.nth(1)).not_to_have_attribute("data-turn", "yours")
    # ... and the tab's title and icon tell it while the page is left open
    page.wait_for_function("mark => document.title.startsWith(mark)", arg=MARK)
    icon = "document.querySelector('link[rel=icon]').href"
    assert page.evaluate(icon).endswith("/static/favicon-turn.svg")

    # When Lannister plays his turn from elsewhere, the page, refreshed, marks nothing
    mine.play("pass", {}, mine.tokens[1])
    page.locator("#refresh-games").click()
    expect(page.locator("#my-games li[data-turn=yours]")).to_have_count(0)
    page.wait_for_function("mark => !document.title.startsWith(mark)", arg=MARK)
    assert page.evaluate(icon).endswith("/static/favicon.svg")
    context.close()
