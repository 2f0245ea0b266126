"""A ballot receipt is shown beside the election it belongs to only (R-7.1 step 3): not during
the reveal of another election the seat voted in from another device, not in a later round;
and it tells the player where to check it with a page he can open."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import open_seat, wait_version
from tests.browser.to_the_ballot import EAST, NORTH, STARK, stark_to_vote
from tests.live_server import LiveServer


def test_a_receipt_shows_only_beside_its_own_election(chromium: Any, server: LiveServer) -> None:
    game = HttpCourt(server.url)
    game.settle()
    game.record_villages("stark", NORTH)
    game.record_villages("lannister", EAST)
    view = game.advance_until(stark_to_vote("warden-north"))
    url = f"{server.url}/games/{game.id}"
    laptop = open_seat(chromium, "laptop", url, game.id, game.tokens[STARK])
    game.phones.pages[STARK] = laptop.page
    wait_version(laptop, view["game"]["version"])
    page = laptop.page
    mine = next(c["noble"] for c in view["election"]["candidates"] if c["seat"] == STARK)
    page.select_option("#marker-for", mine)
    laptop.send("form.ballot button[type=submit]")
    receipt = page.locator("[data-testid=receipt]")
    expect(receipt).to_contain_text("Your receipt for Warden of the North")
    receipt.locator("summary").click()
    assert "docs/protocol.md" not in receipt.inner_text()
    check = receipt.locator("a")
    expect(check).to_have_attribute("href", f"/games/{game.id}/history")

    # The East election: Stark votes from his phone (over HTTP); the laptop sees the reveal.
    east = game.advance_until(
        lambda v: (
            (v["pending"] or {}).get("kind") == "acceptance"
            and v["pending"]["election"] == "warden-east"
        )
    )
    wait_version(laptop, east["game"]["version"])
    expect(page.locator("[data-testid=winner]")).to_contain_text("Warden of the East")
    expect(receipt).to_have_count(0)

    later = game.advance_until(lambda v: v["game"]["round"] == 3)
    wait_version(laptop, later["game"]["version"])
    expect(page.locator("[data-testid=no-election]")).to_be_visible()
    expect(receipt).to_have_count(0)
    assert laptop.errors == []
