"""The device keys of the bench's seats, used as the court page uses its own
(static/lib/device.js, static/lib/signing.js; docs/protocol.md, "Signed moves"): a seat's page
registers an Ed25519 key with its token before its first move, salts its ballots and bids and
signs their commitments, and signs every move on the head it last applied; and every page
checks each `MoveSigned` it is pushed against the keys the log recorded, as the witness does
(static/lib/witness_moves.js).
"""

from __future__ import annotations

import base64
import secrets
from typing import Any

from nacl.signing import SigningKey

from court.model.devices import key_id_of, move_text, signed_by
from server.messages.catalogue import CATALOGUE
from server.messages.signed import sealed_payload, signed_payload

# What the page sends unsigned whatever its keys (static/lib/device.js UNSIGNED).
UNSIGNED = frozenset({"sync", "say", "whisper"})


class PageKey:
    """One holder's device key, as a seat's page keeps it."""

    def __init__(self, game_id: str, holder: str) -> None:
        self.game_id = game_id
        self.holder = holder
        self._private = SigningKey.generate()
        self.public_key = base64.b64encode(bytes(self._private.verify_key)).decode()
        self.key_id = str(key_id_of(self.public_key))

    def registration(self) -> dict[str, Any]:
        """The payload of the `add_device_key` a page sends with its token before its first
        move (the holder's first key needs no signature)."""
        return {"public_key": self.public_key}

    def signed(
        self, message: str, payload: dict[str, Any], head: dict[str, Any], sealed_ballots: bool
    ) -> dict[str, Any]:
        """`payload` as the page sends it: salted and committed when sealed, and signed on
        `head` (the checkpoint of the court the page last applied)."""
        if message in UNSIGNED:
            return payload
        body = sealed_payload(message, payload, sealed_ballots)
        nonce = secrets.token_urlsafe(16)
        version, hash_ = int(head["version"]), str(head["hash"])
        text = move_text(
            self.game_id,
            self.holder,
            message,
            signed_payload(CATALOGUE[message], body),
            version,
            hash_,
            nonce,
        )
        signature = base64.b64encode(self._private.sign(text).signature).decode()
        envelope = {
            "key_id": self.key_id,
            "version": version,
            "hash": hash_,
            "nonce": nonce,
            "signature": signature,
        }
        return {**body, "signed": envelope}


class MoveFold:
    """The keys the log recorded and each signed move checked against them: the witness's check
    of the players' signatures, one Ed25519 verification a signed move. The page folds the keys
    from version 1; the bench's pages start from the keys of the court they are welcomed with,
    which that fold gives, and go on from the records they are pushed. (The spans of records a
    signed move covers cost nothing and are left to the page's own tests.)"""

    def __init__(self) -> None:
        self.keys: dict[str, tuple[str, str]] = {}  # key id -> holder, public key (base64)
        self.unbelieved = 0  # signed moves whose signature did not check

    def known(self, devices: list[dict[str, Any]]) -> None:
        """The keys standing in a court view (`devices`), as the fold up to it gives them."""
        self.keys = {d["key_id"]: (d["holder"], d["public_key"]) for d in devices}

    def see(self, record: dict[str, Any]) -> None:
        kind, data = record["type"], record["data"]
        if kind == "DeviceKeyAdded":
            self.keys[data["key_id"]] = (data["holder"], data["public_key"])
        elif kind == "DeviceKeyDropped":
            self.keys.pop(data["key_id"], None)
        elif kind == "MoveSigned" and not self._believed(record["game_id"], data):
            self.unbelieved += 1

    def _believed(self, game_id: str, move: dict[str, Any]) -> bool:
        found = self.keys.get(move["key_id"])
        if found is None or found[0] != move["holder"]:
            return False
        text = move_text(
            game_id,
            move["holder"],
            move["message"],
            move["payload"],
            move["version"],
            move["hash"],
            move["nonce"],
        )
        return signed_by(found[1], move["signature"], text)
