"""The signature a device sends beside any command (docs/protocol.md, "Signed moves"): the
optional `signed` field every message's payload takes, checked for shape here once for the
whole catalogue, and the move it signed: the payload as sent, without its padding and without
the openings of a sealed choice, which travel beside the signed commitments and are stored
only in the private part of the record that places them."""

from __future__ import annotations

import secrets
from typing import Any, Protocol

from marshmallow import Schema, fields, post_load, validate

from court.commands import Signature
from court.decide.council_seat import bid_commitment
from court.views.padding import PAD
from elections.markers import commitment
from server.messages.fields import VERSION_MAX, Int, Shape, String, WholeMatch, unopened

SIGNED = "signed"
HEX16 = WholeMatch(r"^[0-9a-f]{16}$", error="16 lower-case hexadecimal digits.")
HEX64 = WholeMatch(r"^[0-9a-f]{64}$", error="64 lower-case hexadecimal digits.")
NONCE = WholeMatch(r"^[A-Za-z0-9_-]{16,64}$", error="16 to 64 letters, digits, - or _.")
BASE64_SIGNATURE = WholeMatch(r"^[A-Za-z0-9+/]{86}==$", error="An Ed25519 signature in base64.")


class Message(Protocol):
    """What is read here of a catalogue's message (server/messages/message.py)."""

    @property
    def name(self) -> str: ...
    @property
    def schema(self) -> type[Schema] | None: ...
    @property
    def openings(self) -> tuple[str, ...]: ...
    @property
    def commitment(self) -> str | None: ...


class SignedSchema(Shape):
    """What a device signed beside the payload: its key, the head it last saw, a nonce."""

    key_id = String(max_length=16, validate=HEX16, required=True)
    version = Int(required=True, validate=validate.Range(0, VERSION_MAX))
    hash = String(max_length=64, validate=HEX64, required=True)
    nonce = String(max_length=64, validate=NONCE, required=True)
    signature = String(max_length=88, validate=BASE64_SIGNATURE, required=True)


def sealed_payload(message: str, payload: dict[str, Any], sealed_ballots: bool) -> dict[str, Any]:
    """A payload as a device sends it before signing (static/lib/signing.js `sealed`): a bid or
    a ballot salted on the device, with the commitments its signature covers beside the
    openings (the markers in the order of their commitments, each candidate hidden in a
    sealed ballot); any other payload as it is. For the clients the tests and benches play."""
    if message == "place_bid":
        salt = secrets.token_hex(16)
        return {**payload, "salt": salt, "commitment": bid_commitment(payload["amount"], salt)}
    if message != "place_ballot" or not payload.get("markers"):
        return payload
    markers = [{**m, "salt": secrets.token_hex(16)} for m in payload["markers"]]
    placed = sorted(
        ((commitment(m["kind"], m["candidate"], m["salt"]), m) for m in markers),
        key=lambda pair: pair[0],
    )
    committed = [
        {"commitment": c, "candidate": None if sealed_ballots else m["candidate"]}
        for c, m in placed
    ]
    return {**payload, "markers": markers, "committed": committed}


def signed_payload(message: Message, raw: dict[str, Any]) -> dict[str, Any]:
    """The part of a payload as sent that its signature covers: all of it but the signature,
    the padding and the openings of a sealed choice (`message.openings`)."""
    left_out = {SIGNED, PAD, *message.openings}
    return {key: value for key, value in raw.items() if key not in left_out}


_WIRE: dict[str, type[Schema]] = {}


def wire_schema(message: Message) -> type[Schema]:
    """The message's payload schema with the optional `signed` field; a loaded payload holds
    the `Signature` made of it and of the payload as sent (None when unsigned). One class per
    message, made the first time it is asked for."""
    found = _WIRE.get(message.name)
    if found is None:
        found = _WIRE[message.name] = _wire(message)
    return found


def _wire(message: Message) -> type[Schema]:
    base = message.schema or Shape

    @post_load(pass_original=True)
    def signature(self: Schema, data: dict[str, Any], original: Any, **_: Any) -> dict[str, Any]:
        envelope = data.get(SIGNED)
        if envelope is None:
            return data
        if message.commitment is not None and data.get(message.commitment) is None:
            raise unopened(
                f"A signed {message.name} carries the commitments `{message.commitment}` "
                "(the openings beside them, which the signature leaves out): a signature "
                "never covers a secret."
            )
        payload = signed_payload(message, original)
        return {**data, SIGNED: Signature(message=message.name, payload=payload, **envelope)}

    attributes = {
        # Absent when unsigned, never null: a null would document `signed` as any object.
        SIGNED: fields.Nested(SignedSchema, load_default=None, allow_none=False),
        "_signature": signature,
    }
    name = "".join(part.title() for part in message.name.split("_"))
    return type(f"{name}PayloadSchema", (base,), attributes)
