"""A person's key carries device keys (docs/protocol.md, "Signed moves"): a "my key" link made
on a device that keyed its seats carries, in its fragment, a key pair made there for the new
device, registered signed by the old device's key; the new device opens the link and signs its
moves with it, and the key pair never reaches the server. Revoking the key, or replacing it with
a new one, drops the device keys its link carried: a lost phone's key signs nothing after."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import Person, connected, open_person, wait_version
from tests.browser.signing_phone import signs_with_its_own_key
from tests.live_server import LiveServer


def test_a_key_link_brings_a_new_device_a_key_signed_by_the_old(
    chromium: Any, server: LiveServer
) -> None:
    """Given the host's seat keyed by his laptop (opened from the seat's link), when the laptop
    makes its key on the front page and a phone opens the key's link, then the phone's key is
    registered signed by the laptop's, and the phone records a fact the server takes signed by
    the phone's own key; the key pair travelled in no request; verify passes."""
    game, laptop, keys, link = keyed_laptop_with_key(chromium, server)
    phone = open_person(chromium, "phone", link)
    expect(phone.page.locator("#notice")).to_contain_text("This device now holds the key's seat")
    phone.page.goto(f"{server.url}/games/{game.id}")
    connected(phone, "Connected as")
    seed = link.rsplit(",", 1)[1]
    signs_with_its_own_key(game, phone, keys[1]["data"]["key_id"], seed, [laptop, phone])


def keyed_laptop_with_key(
    chromium: Any, server: LiveServer
) -> tuple[HttpCourt, Person, list[dict[str, Any]], str]:
    """A game whose host's seat his laptop keyed (opened from the seat's link), and the
    laptop's key made on the front page: its link carries a device key for a new device,
    registered signed by the laptop's. The game, the laptop, the two `DeviceKeyAdded` records
    and the key's link."""
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
    return game, laptop, keys, link


SAID = {
    "#revoke-key": "the device keys it carried sign nothing",
    "#new-key": "Your key gathers 1 seat",
    "elsewhere": "Your key was revoked or replaced",
}


@pytest.mark.parametrize("how", list(SAID), ids=["revoked", "replaced", "revoked elsewhere"])
def test_a_revoked_or_replaced_key_drops_the_device_keys_its_link_carried(
    chromium: Any, server: LiveServer, how: str
) -> None:
    """Given the laptop's key, whose link a phone opened and keyed itself with, when the laptop
    revokes the key or makes a new one (or the key is revoked with its link's secret, and the
    laptop's front page opens), then the phone's key is dropped in the log, signed by the
    laptop's key, and only the laptop's key (and a new link's) stands for the seat."""
    game, laptop, keys, link = keyed_laptop_with_key(chromium, server)
    laptop_key, phone_key = (k["data"]["key_id"] for k in keys)
    phone = open_person(chromium, "phone", link)
    expect(phone.page.locator("#notice")).to_contain_text("This device now holds the key's seat")

    if how == "elsewhere":
        secret = link.partition("#")[2].partition("&devices=")[0]
        headers = {"Authorization": f"Bearer {secret}"}
        revoked = requests.delete(f"{server.url}/api/keys/mine", headers=headers, timeout=10)
        assert revoked.status_code == 200, revoked.text
        laptop.page.goto(f"{server.url}/")
    else:
        laptop.page.click(how)
        laptop.page.click("#confirm-yes")
    expect(laptop.page.locator("#key-panel")).to_contain_text(SAID[how])
    if how == "#new-key":  # the panel said so already of the old key: wait for the new link
        expect(laptop.page.locator("#my-key-link")).not_to_have_value(link)

    records = game.records()
    dropped = [r for r in records if r["type"] == "DeviceKeyDropped"]
    assert [r["data"]["key_id"] for r in dropped] == [phone_key]
    signer = records[dropped[0]["version"] - 2]
    assert signer["type"] == "MoveSigned", signer
    assert (signer["data"]["key_id"], signer["data"]["message"]) == (laptop_key, "drop_device_key")
    standing = [d["key_id"] for d in game.view()["devices"]]
    assert laptop_key in standing and phone_key not in standing
    assert len(standing) == (2 if how == "#new-key" else 1)  # and a new link's key
    # (the front page's refused key is the browser's logged 401, the page working as it should)
    assert [e for e in laptop.errors if "status of 401" not in e or how != "elsewhere"] == []
