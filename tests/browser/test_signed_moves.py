"""Moves signed on the player's own device, in Chromium (docs/protocol.md, "Signed moves"): the
page keys its seat when it first holds it, signs what it sends on the head it last applied, and
salts its own ballot, signing only its commitments (R-7.1 step 3); the signed text, the
commitments and the key id the page computes are the server's, byte for byte."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from court.decide.council_seat import bid_commitment
from court.model.devices import key_id_of, move_text
from elections.markers import commitment
from tests.browser.court_http import HttpCourt
from tests.browser.players import open_person, open_seat, wait_version
from tests.browser.signing_phone import signs_with_its_own_key
from tests.browser.to_the_ballot import NORTH, STARK, stark_to_vote
from tests.court.signing import Device
from tests.live_server import LiveServer
from tests.server.tools.cli.court_shell import Played, append_forged

LANNISTER = 1
LANNISTER_PHONE = Device(41)

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
          const s = await import("/static/lib/signing.js");
          const k = await import("/static/lib/device_keys.js");
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
    """Given Stark's page resuming his seat, when it places a ballot, it first registers a key
    made on the device, and the server takes the ballot signed; the record carries the
    commitments the device signed, and after the reveal the receipt's salts open them; verify
    passes."""
    game = HttpCourt(server.url)
    game.settle()
    game.record_villages("stark", NORTH)
    view = game.advance_until(stark_to_vote("warden-north"))
    url = f"{server.url}/games/{game.id}"
    laptop = open_seat(chromium, "laptop", url, game.id, game.tokens[STARK])
    page = laptop.page
    wait_version(laptop, view["game"]["version"])
    assert records_of(game, "DeviceKeyAdded") == [], "a page resuming a seat keys it at its move"

    mine = next(c["noble"] for c in view["election"]["candidates"] if c["seat"] == STARK)
    page.select_option("#marker-for", mine)
    laptop.send("form.ballot button[type=submit]")
    expect(page.locator("[data-testid=receipt]")).to_contain_text("Your receipt")
    added = records_of(game, "DeviceKeyAdded")
    assert [(r["seat"], r["data"]["holder"]) for r in added] == [(STARK, "seat:0")]

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


def test_a_forged_move_of_a_keyed_seat_fails_verify_and_raises_the_banner_on_a_fresh_page(
    chromium: Any, server: LiveServer, tmp_path: Path
) -> None:
    """Given Lannister's seat keyed by his device, when the operator inserts a record of
    Lannister's (a vote for a new host) chained and hashed as the server would, then `flask
    court verify` names its version, and a page of Tyrell's opened afterwards, which never saw
    that version, raises the banner naming it."""
    game = HttpCourt(server.url)
    game.play("add_device_key", {"public_key": LANNISTER_PHONE.public_key}, game.tokens[LANNISTER])
    db = tmp_path / "court.db"
    played = Played(id=game.id, db=db, host_token=game.host, tokens={}, started=0, gold=(0, 0))
    vote = {"seat": LANNISTER, "for_seat": 2, "at": None, "host_away_since": None}

    forged = append_forged(played, "HostVoteCast", vote, LANNISTER)
    result = server.app.test_cli_runner().invoke(args=["court", "verify", game.id])

    assert result.exit_code == 1
    assert f"(version {forged}): signatures: a move of seat 1 that no key of seat 1 signed" in (
        result.output
    ), result.output
    tyrell = open_seat(chromium, "tyrell", f"{server.url}/games/{game.id}", game.id, game.tokens[2])
    banner = tyrell.page.locator("#witness")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-version", str(forged))
    expect(banner).to_contain_text("no key of seat 1 signed")


def test_an_unkeyed_seats_moves_are_marked_unsigned(chromium: Any, server: LiveServer) -> None:
    """A seat whose player keyed no device (an API client that signs nothing) plays on, and the
    court page marks its moves unsigned; a keyed seat's signed moves carry no such mark."""
    game = HttpCourt(server.url)
    game.record_villages("stark", NORTH[:1])
    url = f"{server.url}/games/{game.id}"
    stark = open_seat(chromium, "stark", url, game.id, game.host)
    unsigned = stark.page.locator("#feed li[data-version] > [data-testid=unsigned]")
    expect(unsigned.first).to_be_visible()
    expect(stark.page.locator("#witness")).to_be_hidden()


def test_a_new_device_gets_a_key_vouched_for_by_the_old_and_signs_an_accepted_move(
    chromium: Any, server: LiveServer
) -> None:
    """Given the host's seat keyed by his laptop (opened from the seat's link), when the laptop
    makes a link for a new device and the phone opens it, then the phone's key is registered
    signed by the laptop's, the link's key never reached the server, and the phone records a
    fact that the server takes signed by the phone's own key; verify passes."""
    game = HttpCourt(server.url)
    version = game.view()["game"]["version"]
    link = f"{server.url}/games/{game.id}#token={game.host}"
    laptop = open_person(chromium, "laptop", link)
    wait_version(laptop, version + 1)
    first = records_of(game, "DeviceKeyAdded")
    assert [r["data"]["proof"] for r in first] == ["token"]
    laptop.page.locator("#own-seat summary").click()
    laptop.page.locator("#make-device-link").click()
    made = laptop.page.locator("#device-link")
    expect(made).to_have_value(re.compile(r"#token=.+&device=[A-Za-z0-9_-]{43}$"))
    new_link = made.input_value()

    phone = open_person(chromium, "phone", new_link)
    expect(phone.page.locator("#connection")).to_contain_text("Connected as")
    assert "&device=" not in phone.page.url
    keys = records_of(game, "DeviceKeyAdded")
    assert [k["data"]["proof"] for k in keys] == ["token", first[0]["data"]["key_id"]]
    seed = new_link.rsplit("&device=", 1)[1]
    signs_with_its_own_key(game, phone, keys[1]["data"]["key_id"], seed, [laptop, phone])


def test_a_lost_devices_key_is_dropped_from_another_device_of_the_player(
    chromium: Any, server: LiveServer
) -> None:
    """Given the host's seat keyed by his laptop and by a phone the laptop vouched for, when
    the laptop's seat panel drops the phone's key (a lost phone), then the log records it
    dropped, signed by the laptop's key, and the panel lists the laptop's own key alone; the
    laptop's own key is never offered to drop."""
    game = HttpCourt(server.url)
    version = game.view()["game"]["version"]
    laptop = open_person(chromium, "laptop", f"{server.url}/games/{game.id}#token={game.host}")
    wait_version(laptop, version + 1)
    laptop.page.locator("#own-seat summary").click()
    laptop.page.locator("#make-device-link").click()
    phone = open_person(chromium, "phone", laptop.page.locator("#device-link").input_value())
    expect(phone.page.locator("#connection")).to_contain_text("Connected as")
    laptop_key, phone_key = (r["data"]["key_id"] for r in records_of(game, "DeviceKeyAdded"))

    keys = laptop.page.locator("#device-keys li")
    expect(keys).to_have_count(2)
    expect(keys.filter(has_text="(this device)")).to_have_attribute("data-key", laptop_key)
    expect(laptop.page.locator(f"#device-keys li[data-key='{laptop_key}'] button")).to_have_count(0)
    laptop.page.locator(f"#device-keys li[data-key='{phone_key}'] button.drop-key").click()
    laptop.page.locator("#confirm-yes").click()

    expect(laptop.page.locator("#device-keys")).to_have_count(0)  # one key left: no list
    dropped = records_of(game, "DeviceKeyDropped")
    assert [r["data"]["key_id"] for r in dropped] == [phone_key]
    signer = game.records()[dropped[0]["version"] - 2]
    assert (signer["type"], signer["data"]["key_id"]) == ("MoveSigned", laptop_key)
    assert [d["key_id"] for d in game.view()["devices"]] == [laptop_key]
    assert laptop.errors == []
