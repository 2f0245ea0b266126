"""The sale of the fourth Small Council seat in the browser (R-4.6): a sealed bid stays with its
bidder until every bidder has bid or passed; then everyone sees the bids, and the buyer seats a
Warden through the action panel, choosing only among the moves the server lists."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_person, open_seat, wait_version
from tests.live_server import LiveServer

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")
WEST = ("casterly-rock", "lannisport", "the-crag", "pyke", "lordsport")


def test_a_sealed_bid_is_seen_by_its_bidder_only_until_the_reveal(
    chromium: Any, server: LiveServer, shots: Path
) -> None:
    game = HttpCourt(server.url)
    game.settle()
    game.record_villages("stark", NORTH)
    game.record_villages("lannister", WEST)
    view = game.advance_until(lambda v: v["auction"] is not None)
    assert sorted(view["auction"]["waiting"]) == [0, 1]
    url = f"{server.url}/games/{game.id}"
    stark = open_seat(chromium, "stark", url, game.id, game.tokens[0])
    lannister = open_seat(chromium, "lannister", url, game.id, game.tokens[1])
    spectator = open_person(chromium, "spectator", url)
    for person in (stark, lannister, spectator):
        wait_version(person, view["game"]["version"])
        # Phase 4's steps have no number in the rules: the sale is named alone.
        expect(person.page.locator("[data-testid=step]")).to_have_text(
            "Sale of the fourth council seat"
        )

    stark.page.fill("#bid-amount", "3")
    stark.send("form[data-message=place_bid] button[type=submit]")
    notice = stark.page.locator("#notice")
    expect(notice).to_contain_text("Your sealed bid of 3 Gold Dragons is placed.")
    salt = re.search(r"salt (\w+)", notice.inner_text()).group(1)  # type: ignore[union-attr]
    for other in (lannister, spectator):
        expect(other.page.locator("[data-testid=auction]")).to_contain_text(
            "Bid: Player of stark (House Stark)"
        )
        seen = other.received()
        assert "BidPlaced" in seen, other.name  # the push itself did arrive
        assert salt not in seen, other.name
        assert '"amount": 3' not in seen and '"amount":3' not in seen, other.name
    stark.shot(shots, "01-bid-placed")

    lannister.send("#move-pass_bid")

    for person in (stark, lannister, spectator):
        expect(person.page.locator("#feed")).to_contain_text(
            "Bids revealed: Player of stark (House Stark) 3."
        )
    stark.choose("#choose_council_seat-noble", "eddard-stark")
    stark.choose("#choose_council_seat-title", "master-of-coin")
    stark.send("form[data-message=choose_council_seat] button[type=submit]")
    expect(
        spectator.page.locator("[data-house=stark] li.noble", has_text="Eddard Stark")
    ).to_contain_text("Master of Coin")
    spectator.shot(shots, "02-council-seat-taken")
    for person in (stark, lannister, spectator):
        assert person.errors == [], (person.name, person.errors)
