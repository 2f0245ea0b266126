"""What a declaration in the catalogue holds: a message's name, who may send it, its payload's
shape, the command it builds and the answer it gets. HTTP routes, Socket.IO handlers, the
OpenAPI document, the `moves` of a court view and docs/protocol.md are all made from these."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any

from marshmallow import Schema, ValidationError, fields

from court.commands import Actor, Command, Signature
from court.events import SeatHanded, SeatJoined
from court.log.receipts import receipt_of
from court.views.padding import PAD, padded_receipt
from server.messages.signed import SIGNED, wire_schema

if TYPE_CHECKING:
    from server.service.court_service import CourtService, Outcome

Payload = dict[str, Any]
Answer = dict[str, Any]


class Sender(StrEnum):
    """Who may send a message, as far as the wire can tell; the rules say the rest."""

    SEAT = "seat"  # a seated player's token (or connection)
    HOST = "host"  # the host's or the game master's token
    ANYONE = "anyone"  # no token needed: a spectator too


class AckSchema(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)


@cache
def schema_of(schema: type[Schema]) -> Schema:
    """The one instance of a schema class that loads every payload of its shape: building a
    schema binds and copies each of its fields, which cost more than the load itself. A
    schema holds no state of a load (marshmallow 4 has no context), so threads share it."""
    return schema()


@dataclass(frozen=True, slots=True)
class Message:
    """One command a client can send, the same over HTTP and Socket.IO.

    `build` turns the checked payload into the command (by default the command's fields are
    the payload's, lists made tuples); the service's one `handle` sends it, drawing the
    secrets the command needs; `answer` declares what the answer tells of the outcome
    (`reply`); `payload_of` is the inverse of `build` for a listed move (by default the
    command's values of the payload's fields)."""

    name: str
    command: type[Command]
    who: str
    summary: str
    schema: type[Schema] | None = None
    sender: Sender = Sender.SEAT
    build: Callable[[Payload], Command] | None = None
    answer: type[Schema] = AckSchema
    payload_of: Callable[[Any], Payload] | None = None
    status: int = 200  # the HTTP status of a success
    # A payload of the right shape, shown in the OpenAPI document; the hostile sweeps start
    # from it so that one bad field is all that is wrong with a request.
    example: Payload | None = None
    # A sealed choice: the fields its signature leaves out (the player's secrets, which travel
    # beside it) and the field of commitments to them that a signed move must carry.
    openings: tuple[str, ...] = ()
    commitment: str | None = None

    @property
    def wire(self) -> type[Schema]:
        """The payload's schema with the optional `signed` field (server/messages/signed.py)."""
        return wire_schema(self)

    @property
    def sample(self) -> Payload:
        """The example payload: `{}` for a message that takes no fields."""
        return dict(self.example or {})

    @property
    def route(self) -> str:
        """The HTTP route under /api: POST with the payload as its JSON body."""
        return f"/games/<game_id>/commands/{self.name}"

    def load(self, payload: Any) -> Payload:
        """The payload checked for shape (never for rules); ValidationError otherwise."""
        if payload is None:
            payload = {}
        if not isinstance(payload, dict):
            raise ValidationError({"_payload": ["Send a JSON object."]})
        if self.schema is None and set(payload) - {SIGNED}:
            raise ValidationError({"_payload": ["This message takes no fields."]})
        return schema_of(self.wire).load(payload)

    def to_command(self, body: Payload) -> Command:
        if self.build is not None:
            return self.build(body)
        # The schema checked each field's shape; lists arrive where the command keeps tuples.
        given: Payload = {
            k: tuple(v) if isinstance(v, list) else v
            for k, v in body.items()
            if k not in (PAD, SIGNED)
        }
        return self.command(**given)

    def send(self, service: CourtService, game_id: str, actor: Actor, body: Payload) -> Answer:
        """Apply the checked payload as `actor`, signed when it came signed (`signed_of`); the
        answer both adapters give."""
        outcome = service.handle(game_id, self.to_command(body), actor, signed_of(body))
        return self.reply(outcome)

    def reply(self, outcome: Outcome) -> Answer:
        """`{ok, version}`, and what the answer's schema declares of what the outcome tells
        its sender (`told`); a receipt's answer padded to its width (court/views/padding.py)."""
        declared = self.answer._declared_fields
        answer: Answer = {"ok": True, "version": outcome.version}
        answer.update((k, v) for k, v in told(outcome).items() if k in declared)
        return padded_receipt(answer) if PAD in declared else answer

    def payload(self, command: Command) -> Payload:
        """The payload that sends this command: how a listed move is shown to a client."""
        if self.payload_of is not None:
            return self.payload_of(command)
        if self.schema is None:
            return {}
        found: Payload = {}
        for name, field in self.schema._declared_fields.items():
            if name == PAD:  # the client's own padding: no field of the command
                continue
            value = getattr(command, name)
            if value is None and not field.allow_none:
                continue  # optional, left out rather than sent as null
            found[name] = list(value) if isinstance(value, tuple) else value
        return found


def told(outcome: Outcome) -> Answer:
    """What an outcome tells the sender alone: the new token drawn or made for him, the seat
    (and House) it took or handed, the receipt of a sealed choice (court/log/receipts.py)."""
    found: Answer = {}
    if outcome.token is not None:
        found["token"] = outcome.token
    seated = next((e for e in outcome.events if isinstance(e, SeatJoined | SeatHanded)), None)
    if seated is not None:
        found["seat"] = seated.seat
        found["house"] = seated.house
    receipt = receipt_of(outcome.records)
    if receipt is not None:
        found["receipt"] = receipt
    return found


def signed_of(body: Payload) -> Signature | None:
    """The signature a loaded payload came with, if any."""
    found = body.get(SIGNED)
    return found if isinstance(found, Signature) else None
