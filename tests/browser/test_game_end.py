"""Every ended game shows its end (R-4.8, R-4.7, R-9.2): a game with a last round says from the
start which round is the last; Stark buys the only Fief title of the table, and round 1's
victory check, the last, ends the game with Stark the winner. Every page (each seat's, a
spectator's, the history, the front page's "Your games") then shows at its top who won, how
the game ended and the standings; no move and no host tool is left on the game page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import WAIT_MS, Person, open_person, open_seat
from tests.live_server import LiveServer

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")
STARK, LANNISTER = 0, 1


def banner_says_stark_won(person: Person) -> None:
    banner = person.page.locator("[data-testid=ending]").first
    expect(banner).to_be_visible(timeout=WAIT_MS)
    expect(banner.locator("[data-testid=ending-winners]")).to_have_text(
        "The game is over: Player of stark won."
    )
    expect(banner.locator("[data-testid=ending-how]")).to_have_text("The last round was played.")
    expect(banner.locator("[data-testid=ending-text]")).to_contain_text(
        "Round 1 was the last: Player of stark (House Stark) won with the most victory points"
    )
    standings = banner.locator("[data-testid=standings] li")
    expect(standings).to_have_count(3)
    expect(standings.first).to_contain_text("House Stark · Player of stark: 1 VP · winner")
    expect(standings.nth(1)).to_contain_text(": 0 VP")


def test_a_game_won_at_its_last_round_shows_its_end_on_every_page(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    game = HttpCourt(server.url, last_round=1)
    url = f"{server.url}/games/{game.id}"
    host = open_seat(chromium, "host", url, game.id, game.host, width=1366)
    lannister = open_seat(chromium, "lannister", url, game.id, game.tokens[LANNISTER], width=390)
    watcher = open_person(chromium, "watcher", url)
    for person in (host, lannister, watcher):
        expect(person.page.locator("[data-testid=round]")).to_have_text("1 of 1", timeout=WAIT_MS)
        expect(person.page.locator("[data-testid=ending]")).to_have_count(0)
    expect(host.page.locator("#host-seats")).to_have_count(1)

    game.record_villages("stark", NORTH)
    game.advance_until(lambda v: v["purchases"] and v["purchases"]["current"] == STARK)
    game.play("buy_fief_title", {"title": "fief-winterfell", "noble": "robb-stark"}, game.host)
    ended = game.advance_until(lambda v: v["game"]["status"] == "ended")
    assert ended["ending"]["winners"] == [STARK] and ended["ending"]["how"] == "last_round"

    for person in (host, lannister, watcher):
        banner_says_stark_won(person)
        expect(person.page.locator("#play")).to_be_hidden()
        expect(person.page.locator("[data-message]")).to_have_count(0)
        expect(person.page).to_have_title(f"Over · Game {game.id} · Small Council")
    expect(host.page.locator("#host-seats")).to_have_count(0)
    expect(host.page.locator(".hand-seat")).to_have_count(0)
    host.shot(shots, "ended-host-laptop")
    lannister.shot(shots, "ended-phone")

    history = open_person(chromium, "reader", f"{url}/history")
    banner_says_stark_won(history)
    history.shot(shots, "ended-history")

    lannister.page.goto(f"{server.url}/")
    mine = lannister.page.locator(f"#my-games li[data-game='{game.id}']")
    expect(mine).to_contain_text("ended", timeout=WAIT_MS)
    banner_says_stark_won(lannister)
    lannister.shot(shots, "ended-front-page")
    for person in (host, lannister, watcher, history):
        assert not person.errors, (person.name, person.errors)
