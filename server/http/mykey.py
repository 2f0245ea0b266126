"""HTTP routes of a person's key (server/service/seat_keys.py): made from the seat tokens a device
holds,
opened with the link's secret (`Authorization: Bearer <key>`) on another device, grown with the
seats joined since by the device that made it (its maker's secret as the bearer token), and
revoked with either secret. A secret never travels in a URL the server sees: the link carries
its own in the fragment (`/key#<key>`), and no answer but the maker's has one."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields, validate

from court.errors import BadToken
from server.http import pages
from server.http.api import Routes
from server.http.games import bearer_token
from server.messages.fields import TOKEN_MAX, Id, List, Shape, String
from server.service.seat_keys import Held, SeatKeys

routes = Routes("mykey", __name__)

MINE = "/keys/mine"
# Who sends each route of a held key (the document's x-sender): the link's secret, the maker's,
# or either.
LINK, MAKER, EITHER = "key's link", "key's maker", "key"
# More seats than any person holds, and few enough that one request does little work.
SEATS_MAX = 100


class HeldSeatSchema(Shape):
    game_id = Id()
    token = String(
        max_length=TOKEN_MAX,
        required=True,
        validate=validate.Length(1, TOKEN_MAX),
        metadata={"description": "The seat's secret token, as the device holds it"},
    )


class HeldSeatsSchema(Shape):
    seats = List(fields.Nested(HeldSeatSchema), required=True, min_items=1, max_items=SEATS_MAX)


class KeySeatSchema(Schema):
    game_id = fields.String(required=True)
    title = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    status = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    house = fields.String(allow_none=True, required=True)
    house_name = fields.String(allow_none=True, required=True)
    player_name = fields.String(allow_none=True, required=True)
    label = fields.String(required=True)
    token = fields.String(
        required=True,
        metadata={
            "description": "The token to play the seat with: a link of the key's own (to the "
            "device that made the key, the token it sent)"
        },
    )
    url = fields.String(required=True)


class KeySeatsSchema(Schema):
    seats = fields.List(fields.Nested(KeySeatSchema), required=True)


class KeyMadeSchema(KeySeatsSchema):
    key = fields.String(
        required=True,
        metadata={"description": "The link's secret: opens the key's seats on another device"},
    )
    maker = fields.String(
        required=True,
        metadata={
            "description": "The maker's secret, for the device that made the key alone (never "
            "in a link): it adds seats to the key, and revokes it"
        },
    )
    url = fields.String(required=True, metadata={"description": "The key's link"})


class KeyRevokedSchema(Schema):
    revoked = fields.Boolean(required=True)


def seat_keys() -> SeatKeys:
    found: SeatKeys = current_app.extensions["seat_keys"]
    return found


def key() -> str:
    """The key's secret the request comes with: the link's, or the maker's."""
    secret = bearer_token()
    if secret is None:
        raise BadToken("key_required", "This needs your key (Authorization: Bearer <key>).")
    return secret


def held(body: dict[str, Any]) -> list[Held]:
    return [Held(s["game_id"], s["token"]) for s in body["seats"]]


def with_urls(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**e, "url": pages.game_url(e["game_id"])} for e in entries]


@routes.route(
    "/keys",
    "POST",
    "Make a key that gathers the seats of these tokens (a device's own), each with a link of "
    "its own: the link's secret and the maker's, once; every older key that gathered one of "
    "them stops working, and so do the links it handed out",
    body=HeldSeatsSchema,
    response=KeyMadeSchema,
    status=201,
    limit="seats",
    example={"seats": [{"game_id": "7690d987b78e", "token": "the-seat-token"}]},
)
def make_key(body: dict[str, Any]) -> dict[str, Any]:
    made = seat_keys().make(held(body))
    return {
        "key": made.link,
        "maker": made.maker,
        "url": pages.key_url(made.link),
        "seats": with_urls(made.seats),
    }


@routes.route(
    MINE,
    "GET",
    "The seats the key gathers, each with the token of its link, for a device to take them "
    "all (the link's secret as the bearer token); a seat handed to someone else, or whose "
    "link was dropped, has dropped out",
    response=KeySeatsSchema,
    auth=True,
    limit="messages",
    sender=LINK,
)
def open_key() -> dict[str, Any]:
    return {"seats": with_urls(seat_keys().open(key()))}


@routes.route(
    MINE,
    "PUT",
    "Gather more seats into the key, each with a link of its own (the maker's secret as the "
    "bearer token; the link's is refused, 403 key_maker_only): the device that made the key "
    "adds the seats it took since",
    body=HeldSeatsSchema,
    response=KeySeatsSchema,
    auth=True,
    limit="seats",
    sender=MAKER,
    example={"seats": [{"game_id": "7690d987b78e", "token": "the-seat-token"}]},
)
def grow_key(body: dict[str, Any]) -> dict[str, Any]:
    return {"seats": with_urls(seat_keys().add(key(), held(body)))}


@routes.route(
    MINE,
    "DELETE",
    "Revoke the key (either secret as the bearer token): its link opens nothing from now on, "
    "nor does any link it handed out for a seat; the seats' own tokens play on",
    response=KeyRevokedSchema,
    auth=True,
    limit="messages",
    sender=EITHER,
)
def revoke_key() -> dict[str, Any]:
    seat_keys().revoke(key())
    return {"revoked": True}
