"""A player's second device in browser tests: the HTTP client that plays a seat beside its page.
Once the page keyed the seat, the client's key comes signed by the page's own (a new device),
and every move it sends is signed as a page signs it, its ballots and bids salted here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import expect

from server.messages.catalogue import CATALOGUE
from server.messages.signed import sealed_payload, signed_payload
from tests.court.signing import Device

# The page's key signs the phone's registration (static/lib/device_keys.js, static/lib/signing.js).
REGISTER = """async ([gameId, holder, publicKey, head]) => {
  const { deviceKey } = await import("/static/lib/device_keys.js");
  const { signedPayload } = await import("/static/lib/signing.js");
  const key = await deviceKey(gameId, holder);
  if (!key) return null;
  const payload = { public_key: publicKey };
  return signedPayload(key, { gameId, holder, message: "add_device_key", payload, head });
}"""


@dataclass
class Phones:
    """The pages that may key a seat (`pages`: a Playwright page of the game's origin, by
    seat) and the phones keyed from them."""

    pages: dict[int, Any] = field(default_factory=dict)
    phones: dict[int, Device] = field(default_factory=dict)

    def phone(self, game: Any, seat: int, view: dict[str, Any]) -> Device | None:
        """The seat's phone, keyed from its page once the page keyed the seat; None while the
        seat has no key (it plays unsigned)."""
        holder = f"seat:{seat}"
        if seat in self.phones or not any(d["holder"] == holder for d in view["devices"]):
            return self.phones.get(seat)
        page = self.pages.get(seat)
        assert page is not None, f"seat {seat} is keyed by a page the test did not name"
        device = Device(60 + seat)
        head = {"version": view["checkpoint"]["version"], "hash": view["checkpoint"]["hash"]}
        body = page.evaluate(REGISTER, [game.id, holder, device.public_key, head])
        assert body is not None, "the page holds no key of its seat"
        game.send("add_device_key", body, game.tokens[seat])
        self.phones[seat] = device
        return device


def signed_body(
    device: Device, game_id: str, seat: int, message: str, body: Any, view: dict[str, Any]
) -> dict[str, Any]:
    """`body` as the phone sends it: salted and committed when sealed, signed on the head."""
    head = {"version": view["checkpoint"]["version"], "head": view["checkpoint"]["hash"]}
    sent = sealed_payload(message, dict(body), view["game"]["variants"]["sealed_ballots"])
    found = CATALOGUE[message]
    payload = signed_payload(found, sent)
    openings = {k: sent[k] for k in found.openings if k in sent}
    return device.body(game_id, f"seat:{seat}", message, payload, openings=openings, **head)


def signs_with_its_own_key(
    game: Any, phone: Any, key_id: str, seed: str, people: list[Any]
) -> None:
    """The new device's page records a fact, which the server takes signed by `key_id` (the
    key made for it on the old device); `seed` reached the server in no request of `people`'s
    browsers, and verify passes."""
    page = phone.page
    page.locator("details[data-message=record_gold] summary").click()
    phone.choose("#record_gold-house", "lannister")
    page.fill("#record_gold-amount", "2")
    phone.send("details[data-message=record_gold] button[type=submit]")
    expect(page.locator("#notice")).to_contain_text("Done")
    signed = [r for r in game.records() if r["type"] == "MoveSigned"]
    assert signed[-1]["data"]["message"] == "record_gold"
    assert signed[-1]["data"]["key_id"] == key_id
    for person in people:
        assert all(seed not in url for _, url in person.requests)
        assert not person.errors, (person.name, person.errors)
    checked = game._call("GET", f"/api/games/{game.id}/verify")
    assert checked["ok"], checked
