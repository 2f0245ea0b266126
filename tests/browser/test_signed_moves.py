"""Moves signed on the player's own device, in Chromium (docs/protocol.md, "Signed moves"): the
page keys its seat when it first holds it, signs what it sends on the head it last applied, and
salts its own ballot, signing only its commitments (R-7.1 step 3); the signed text, the
commitments and the key id the page computes are the server's, byte for byte."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from playwright.sync_api import expect

from court.decide.council_seat import bid_commitment
from court.model.devices import key_id_of, move_text
from elections.markers import commitment
from tests.browser.court_http import HttpCourt
from tests.browser.players import open_person, open_seat, wait_version
from tests.browser.test_receipts import NORTH, STARK, stark_to_vote
from tests.live_server import LiveServer

PAYLOAD = {
    "house": "lannister",
    "amount": 2,
    "cause": "Won à la table \u00e9 \u2014 ok",
    "z": [1, None],
}


def test_the_page_signs_the_text_the_server_checks(chromium: Any, server: LiveServer) -> None:
    """The move's text, a marker's and a bid's commitment and a key id, computed by the page,
    are the server's own (court/model/devices.py, elections/markers.py)."""
    page = open_person(chromium, "any", server.url).page
    found = page.evaluate(
        """async ([payload]) => {
          const s = await import("/static/signing.js");
          const k = await import("/static/device_keys.js");
          return {
            text: s.moveText(
              "g1", "seat:2", "record_gold", payload, 57, "ab".repeat(32), "n-0123456789abcdef"
            ),
            marker: await s.markerCommitment("for", "eddard-stark", "0f".repeat(16)),
            bid: await s.bidCommitment(3, "a1".repeat(16)),
            keyId: await k.keyIdOf(btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))),
          };
        }""",
        [PAYLOAD],
    )
    text = move_text("g1", "seat:2", "record_gold", PAYLOAD, 57, "ab" * 32, "n-0123456789abcdef")
    assert found["text"].encode() == text
    assert found["marker"] == commitment("for", "eddard-stark", "0f" * 16)
    assert found["bid"] == bid_commitment(3, "a1" * 16)
    assert found["keyId"] == key_id_of("BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=")


def records_of(game: HttpCourt, type_: str) -> list[dict[str, Any]]:
    return [r for r in game.records() if r["type"] == type_]


def test_a_pages_ballot_is_signed_salted_on_the_device_and_its_receipt_checks(
    chromium: Any, server: LiveServer
) -> None:
    """Given Stark's page opened on his seat, it registers a key made on the device; when it
    places a ballot, the server takes it signed, the record carries the commitments the device
    signed, and after the reveal the receipt's salts open them; verify passes."""
    game = HttpCourt(server.url)
    game.settle()
    game.record_villages("stark", NORTH)
    view = game.advance_until(stark_to_vote("warden-north"))
    url = f"{server.url}/games/{game.id}"
    laptop = open_seat(chromium, "laptop", url, game.id, game.tokens[STARK])
    page = laptop.page
    expect(page.locator("#marker-for")).to_be_visible()
    wait_version(laptop, view["game"]["version"] + 1)
    added = records_of(game, "DeviceKeyAdded")
    assert [(r["seat"], r["data"]["holder"]) for r in added] == [(STARK, "seat:0")]

    mine = next(c["noble"] for c in view["election"]["candidates"] if c["seat"] == STARK)
    page.select_option("#marker-for", mine)
    laptop.send("form.ballot button[type=submit]")
    expect(page.locator("[data-testid=receipt]")).to_contain_text("Your receipt")

    signed = records_of(game, "MoveSigned")
    assert [(s["data"]["message"], s["seat"]) for s in signed] == [("place_ballot", STARK)]
    assert signed[0]["data"]["key_id"] == added[0]["data"]["key_id"]
    placed = next(r for r in records_of(game, "BallotPlaced") if r["seat"] == STARK)
    assert "salt" not in json.dumps(signed[0]["data"]), "the signature covers no secret"
    committed = [c["commitment"] for c in signed[0]["data"]["payload"]["committed"]]
    assert committed == [m["commitment"] for m in placed["data"]["markers"]]

    def revealed(v: dict[str, Any]) -> bool:
        now = v["election"]
        return bool(v["pending"]) or now is None or now["stage"] != "ballot"

    game.settle(revealed)
    receipt = json.loads(page.evaluate(f"localStorage.getItem('receipt:{game.id}:{STARK}')"))
    opened = sorted(
        hashlib.sha256(f"{m['kind']}:{m['candidate']}:{m['salt']}".encode()).hexdigest()
        for m in receipt["markers"]
    )
    assert opened == sorted(committed)
    reveal = records_of(game, "BallotsRevealed")[-1]
    assert all(m["salt"] in json.dumps(reveal["data"]) for m in receipt["markers"])
    checked = game._call("GET", f"/api/games/{game.id}/verify")
    assert checked["ok"], checked
    assert not laptop.errors, laptop.errors
