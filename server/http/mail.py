"""HTTP routes of a seat's reminders by mail (server/notify/reminders.py): the seat's own token
gives, reads and removes its address; the link mailed to it verifies it. No other token reads
an address back, and no answer but the seat's own holds one."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields, validate

from court.commands import Actor
from court.errors import BadToken, NotAllowed
from server.http.api import Routes
from server.http.games import caller, service
from server.messages.fields import Shape, String
from server.notify.reminders import Reminders

routes = Routes("mail", __name__)

ROUTE = "/games/<game_id>/mail"
# The longest address a player may type: the court refuses more than 254 with a sentence
# (server/notify/mail.py), and the shape check refuses what is plainly no address at all.
TYPED_MAX = 320
CODE_MAX = 100


class MailSchema(Shape):
    address = String(max_length=TYPED_MAX, required=True, validate=validate.Length(1, TYPED_MAX))


class MailCodeSchema(Shape):
    # The code of a mailed link is URL-safe base64 (secrets.token_urlsafe).
    code = String(
        max_length=CODE_MAX,
        required=True,
        validate=[
            validate.Length(1, CODE_MAX),
            validate.Regexp(
                r"^[A-Za-z0-9_-]+\Z", error="A link's code is letters, digits, - and _."
            ),
        ],
    )


class MailSetSchema(Schema):
    address = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The seat's address, to its own token only; or null"},
    )
    verified = fields.Boolean(required=True)
    mail = fields.Boolean(required=True, metadata={"description": "Whether the server sends mail"})


class MailRemovedSchema(Schema):
    removed = fields.Boolean(required=True)


class MailVerifiedSchema(Schema):
    ok = fields.Boolean(required=True)


def reminders() -> Reminders:
    found: Reminders = current_app.extensions["reminders"]
    return found


def seat(game_id: str) -> Actor:
    actor = caller(game_id)
    if actor.spectator:
        raise BadToken("token_required", "This needs your seat token (Authorization: Bearer ...).")
    if actor.seat is None:
        raise NotAllowed(
            "seat_required", "Only a seated player gives an address for reminders by mail."
        )
    return actor


@routes.route(
    ROUTE,
    "GET",
    "The seat's address for reminders by mail and whether it is verified (the seat only)",
    response=MailSetSchema,
    auth=True,
    guard=seat,
    sender="seat",
)
def get_mail(game_id: str, actor: Actor) -> dict[str, Any]:
    return reminders().status(game_id, actor, service().current(game_id).state)


@routes.route(
    ROUTE,
    "PUT",
    "Give the seat's address for reminders by mail (the seat only): a mail with a link that "
    "verifies it goes out at once; reminders go to a verified address alone",
    body=MailSchema,
    response=MailSetSchema,
    limit="messages",
    auth=True,
    guard=seat,
    sender="seat",
    example={"address": "ann@example.org"},
)
def set_mail(game_id: str, actor: Actor, body: dict[str, Any]) -> dict[str, Any]:
    state = service().current(game_id).state
    return reminders().set_address(game_id, actor, body["address"], state=state)


@routes.route(
    ROUTE,
    "DELETE",
    "Remove the seat's address: no more mail goes to it (the seat only)",
    response=MailRemovedSchema,
    auth=True,
    guard=seat,
    sender="seat",
)
def remove_mail(game_id: str, actor: Actor) -> dict[str, Any]:
    return {"removed": reminders().remove(game_id, actor)}


@routes.route(
    ROUTE + "/verify",
    "POST",
    "Verify a seat's address with the code of the link mailed to it (no token needed: the "
    "code is the proof)",
    body=MailCodeSchema,
    response=MailVerifiedSchema,
    limit="messages",
    guard=caller,
    example={"code": "the-code-of-the-mailed-link"},
)
def verify_mail(game_id: str, actor: Actor, body: dict[str, Any]) -> dict[str, Any]:
    reminders().verify(game_id, body["code"])
    return {"ok": True}
