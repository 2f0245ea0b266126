"""A person's key carries device keys (docs/protocol.md, "Signed moves"): a "my key" link made
on a device that keyed its seats carries, in its fragment, a key pair made there for the new
device, registered signed by the old device's key; the new device opens the link and signs its
moves with it, and the key pair never reaches the server."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import connected, open_person, wait_version
from tests.browser.signing_phone import signs_with_its_own_key
from tests.live_server import LiveServer


def test_a_key_link_brings_a_new_device_a_key_signed_by_the_old(
    chromium: Any, server: LiveServer
) -> None:
    """Given the host's seat keyed by his laptop (opened from the seat's link), when the laptop
    makes its key on the front page and a phone opens the key's link, then the phone's key is
    registered signed by the laptop's, and the phone records a fact the server takes signed by
    the phone's own key; the key pair travelled in no request; verify passes."""
    game = HttpCourt(server.url)
    version = game.view()["game"]["version"]
    laptop = open_person(chromium, "laptop", f"{server.url}/games/{game.id}#token={game.host}")
    wait_version(laptop, version + 1)
    first = [r for r in game.records() if r["type"] == "DeviceKeyAdded"]
    assert [r["data"]["proof"] for r in first] == ["token"]

    laptop.page.goto(f"{server.url}/")
    laptop.page.click("#make-key")
    expect(laptop.page.locator("#key-panel")).to_contain_text("Your key gathers 1 seat")
    laptop.page.click("#my-key summary")
    made = laptop.page.locator("#my-key-link")
    expect(made).to_have_value(re.compile(r"/key#[^&]+&devices=[^;]+,seat%3A0,[A-Za-z0-9_-]{43}$"))
    link = made.input_value()
    keys = [r for r in game.records() if r["type"] == "DeviceKeyAdded"]
    assert [k["data"]["proof"] for k in keys] == ["token", first[0]["data"]["key_id"]]

    phone = open_person(chromium, "phone", link)
    expect(phone.page.locator("#notice")).to_contain_text("This device now holds the key's seat")
    phone.page.goto(f"{server.url}/games/{game.id}")
    connected(phone, "Connected as")
    seed = link.rsplit(",", 1)[1]
    signs_with_its_own_key(game, phone, keys[1]["data"]["key_id"], seed, [laptop, phone])
