"""A seat played by the bot, from the players' pages (docs/rules-map.md, "A seat played by the
bot"): Martell's page closes, Lannister (a phone, dark theme) and Tyrell vote for the bot from
the table's panel; every page marks Martell's House card as played by the bot and tells the
bot's moves as its own; Martell opens his own link again and the seat is his."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import WAIT_MS, confirm, connected, fits, open_seat
from tests.live_server import LiveServer

HOUSES = ("stark", "lannister", "tyrell", "martell")
STARK, LANNISTER, TYRELL, MARTELL = 0, 1, 2, 3


@pytest.fixture
def bot_server(tmp_path: Path) -> Any:
    with LiveServer(tmp_path / "court.db", settings={"BOT_PAUSE_SECONDS": 0.3}) as running:
        yield running


def play_until_the_bot_moved(game: HttpCourt) -> None:
    """The others pass their decree turns and the host closes the table's phases; Martell's
    turn is the bot's, and the page must show its move."""
    limit = time.monotonic() + 30
    while not any(r["type"] == "BotPlayed" for r in game.records()):
        assert time.monotonic() < limit, "the bot never moved"
        view = game.view()
        decree = view["decree"]
        if decree and decree["current"] == MARTELL:
            time.sleep(0.1)  # the bot's turn
        elif decree and decree["current"] is not None:
            game.play("pass", {}, game.tokens[decree["current"]])
        else:
            game.play("advance_phase", {}, game.host)


def test_the_table_votes_the_bot_in_and_its_player_takes_his_seat_back(
    chromium: Any, bot_server: LiveServer, shots: Path
) -> None:
    server = bot_server
    game = HttpCourt(server.url, houses=HOUSES, table_votes={"replace_after": 0})
    url = f"{server.url}/games/{game.id}"
    host = open_seat(chromium, "host", url, game.id, game.host, width=1366)
    lannister = open_seat(
        chromium, "lannister", url, game.id, game.tokens[LANNISTER], width=390, color_scheme="dark"
    )
    tyrell = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    martell = open_seat(chromium, "martell", url, game.id, game.tokens[MARTELL])
    game.phones.pages.update({0: host.page, LANNISTER: lannister.page, TYRELL: tyrell.page})
    for person, house in ((host, "Stark"), (lannister, "Lannister"), (tyrell, "Tyrell")):
        connected(person, f"(House {house})")
    connected(martell, "(House Martell)")
    martell.context.close()

    row = f"#replace-votes li[data-seat='{MARTELL}']"
    for person in (host, lannister, tyrell):
        expect(person.page.locator(f"{row} .vote-bot")).to_be_visible()
    confirm(lannister, f"{row} .vote-bot")
    expect(host.page.locator(row)).to_contain_text("1 for the bot")
    fits(lannister)
    lannister.page.locator("#table-votes-panel").screenshot(path=str(shots / "bot-vote.png"))
    confirm(tyrell, f"{row} .vote-bot")
    badge = f"[data-testid='bot-{MARTELL}']"
    for person in (host, lannister, tyrell):
        expect(person.page.locator(badge)).to_contain_text("played by the bot")
        # The bot plays already: only a new link is left to vote for.
        expect(person.page.locator(f"{row} .vote-bot")).to_have_count(0)

    play_until_the_bot_moved(game)
    for person in (host, lannister, tyrell):
        expect(person.page.locator("body")).to_contain_text(
            "move here was played by the bot", timeout=WAIT_MS
        )
    fits(lannister)
    lannister.page.screenshot(path=str(shots / "bot-plays-phone-dark.png"), full_page=True)

    back = open_seat(chromium, "martell back", url, game.id, game.tokens[MARTELL])
    connected(back, "(House Martell)")
    for person in (host, lannister, tyrell, back):
        expect(person.page.locator(badge)).to_have_count(0)
    expect(host.page.locator("body")).to_contain_text("is back and plays House Martell again")
    assert game.view()["table"]["bots"] == []
    for person in (host, lannister, tyrell, back):
        assert not person.errors, (person.name, person.errors)
