"""The page speaks to the viewer in the second person: "you answer", "you accept or refuse it",
never "you answers"; while a marriage proposal waits, the decree heading names the seat that must
answer (R-5.2), not the proposer."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_seat
from tests.live_server import LiveServer

STARK, TYRELL = 0, 2
NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")
# "you" followed by a verb in the third person, as a sentence about someone else would have it.
WRONG = r"\byou (answers|accepts|refuses|proposes|chooses|bought and chooses|is|has)\b"


def second_person(page: Page) -> None:
    text = page.locator("main").inner_text()
    assert not page.evaluate(f"t => /{WRONG}/i.test(t)", text), text


def propose(game: HttpCourt) -> None:
    """Passes the decree turns until Stark's, who proposes Robb to Margaery."""
    for _ in range(20):
        decree = game.view()["decree"]
        if decree["step"] == "marriages" and decree["current"] == STARK:
            body = {"noble": "robb-stark", "to": "margaery-tyrell"}
            game.play("propose_marriage", body, game.tokens[STARK])
            return
        game.play("pass", {}, game.tokens[decree["current"]])
    raise AssertionError("Stark never had a turn in the marriages step")


def test_a_marriage_proposal_tells_the_answering_seat_it_is_his_turn(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    propose(game)
    url = f"{server.url}/games/{game.id}"
    tyrell = open_seat(chromium, "tyrell", url, game.id, game.tokens[TYRELL])
    stark = open_seat(chromium, "stark", url, game.id, game.tokens[STARK])
    heading = "#moves-panel .decree p:first-child"
    expect(tyrell.page.locator(heading)).to_contain_text("turn of Player of tyrell")
    expect(stark.page.locator(heading)).to_contain_text("turn of Player of tyrell")
    expect(tyrell.page.locator("#moves-panel .decree")).to_contain_text(
        "Player of stark (House Stark) proposes Robb Stark to marry Margaery Tyrell; you answer."
    )
    expect(stark.page.locator("#moves-panel .decree")).to_contain_text(
        "You propose Robb Stark to marry Margaery Tyrell; Player of tyrell (House Tyrell) answers."
    )
    second_person(tyrell.page)
    second_person(stark.page)
    assert tyrell.errors == [] and stark.errors == []


def test_the_winner_offered_a_title_is_told_he_accepts_or_refuses_it(
    chromium: Any, server: LiveServer
) -> None:
    game = HttpCourt(server.url)
    game.record_villages("stark", NORTH)
    offered = game.advance_until(lambda v: (v["pending"] or {}).get("kind") == "acceptance")
    seat = offered["pending"]["seat"]
    url = f"{server.url}/games/{game.id}"
    winner = open_seat(chromium, "winner", url, game.id, game.tokens[seat])
    expect(winner.page.locator("#election-panel")).to_contain_text("you accept or refuse it.")
    second_person(winner.page)
    other = open_seat(chromium, "other", url, game.id, game.tokens[(seat + 1) % 3])
    expect(other.page.locator("#election-panel")).to_contain_text(") accepts or refuses it.")
    assert winner.errors == [] and other.errors == []
