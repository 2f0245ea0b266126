"""A player's device in engine tests: an Ed25519 key pair made from a fixed seed, which
registers its public key and signs moves as a browser or an API client does
(docs/protocol.md, "Signed moves")."""

from __future__ import annotations

import base64
import itertools
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from court.commands import AddDeviceKey, Command, Signature, SignedMove
from court.log.chain import GENESIS
from court.model.devices import key_id_of, move_text

_nonces = itertools.count(1)


class Device:
    """A device whose key is made from `seed` (one byte, repeated): the same seed, the same
    key, in every run."""

    def __init__(self, seed: int) -> None:
        self.key = Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32)
        raw = self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.public_key = base64.b64encode(raw).decode()
        key_id = key_id_of(self.public_key)
        assert key_id is not None
        self.key_id = key_id

    def registers(self) -> AddDeviceKey:
        return AddDeviceKey(public_key=self.public_key)

    def signature(
        self,
        game_id: str,
        holder: str,
        message: str,
        payload: dict[str, Any],
        *,
        version: int = 0,
        head: str = GENESIS,
        nonce: str | None = None,
    ) -> Signature:
        nonce = nonce or f"nonce-{next(_nonces):012d}"
        text = move_text(game_id, holder, message, payload, version, head, nonce)
        return Signature(
            key_id=self.key_id,
            message=message,
            payload=payload,
            version=version,
            hash=head,
            nonce=nonce,
            signature=base64.b64encode(self.key.sign(text)).decode(),
        )

    def signs(
        self,
        command: Command,
        game_id: str,
        holder: str,
        message: str,
        payload: dict[str, Any] | None = None,
        **head: Any,
    ) -> SignedMove:
        """`command` signed as sent in `message` with `payload`, on a head the log holds."""
        signature = self.signature(game_id, holder, message, payload or {}, **head)
        return SignedMove(command=command, signature=signature, seen=True)

    def body(
        self, game_id: str, holder: str, message: str, payload: dict[str, Any], **head: Any
    ) -> dict[str, Any]:
        """The payload as a client sends it, signed (`openings`: fields sent beside the
        signature, which it leaves out)."""
        openings = head.pop("openings", {})
        sig = self.signature(game_id, holder, message, payload, **head)
        envelope = {
            "key_id": sig.key_id,
            "version": sig.version,
            "hash": sig.hash,
            "nonce": sig.nonce,
            "signature": sig.signature,
        }
        return {**payload, **openings, "signed": envelope}
