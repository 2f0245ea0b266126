"""Messages that move seats and the host role between players and devices: a seat handed to a
new token and claimed by its new player under his own name, the host role handed or voted
over, a player removed."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from court.commands import ClaimSeat, HandHost, HandSeat, RemoveSeat, VoteForHost
from court.ids import Seat
from server.messages.fields import NAME, VERSION_MAX, Int, Shape, Text
from server.messages.message import Message, Payload, Sender


def _seat(**kwargs: object) -> fields.Integer:
    return Int(validate=validate.Range(0, VERSION_MAX), **kwargs)


class SeatSchema(Shape):
    seat = _seat(required=True)


class HandSeatSchema(Shape):
    seat = _seat(required=True)
    player_name = Text(load_default=None, allow_none=True, validate=NAME)


class ClaimSeatSchema(Shape):
    player_name = Text(required=True, validate=NAME)


class VoteForHostSchema(Shape):
    seat = _seat(required=True, allow_none=True)


class SeatHandedSchema(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's new secret token"})


def _vote(body: Payload) -> VoteForHost:
    seat = body["seat"]
    return VoteForHost(seat=None if seat is None else Seat(seat))


SEATS: tuple[Message, ...] = (
    Message(
        "hand_seat",
        HandSeat,
        "host",
        "Give a seat a new secret token, in the lobby or in play: the old token stops at once; "
        "the answer holds the token, to the host only. The new token opens nothing the seat "
        "held sealed before (markers, a bid, whispers) until the reveal. The seat starts "
        "afresh (R-9.2): every vote and answer it cast is dropped, its clock banks are full, "
        "and it counts for no vote until its new player opens the link and says his name "
        "(`claim_seat`; `player_name` is shown until then)",
        HandSeatSchema,
        Sender.HOST,
        answer=SeatHandedSchema,
        example={"seat": 1, "player_name": "Eve"},
    ),
    Message(
        "claim_seat",
        ClaimSeat,
        "a seat handed to a new player, once, when he opens his link",
        "Say your own name for the seat handed to you (1 to 40 characters, checked as a name "
        "at joining is): until you have, the seat keeps its old player's name and counts for "
        "no vote and no majority of the table (R-9.2); refused for a seat that is not waiting "
        "for its player (`seat_claimed`)",
        ClaimSeatSchema,
        example={"player_name": "Eve"},
    ),
    Message(
        "hand_host",
        HandHost,
        "host",
        "Hand the host role to another seat; the old host keeps his seat without the host's powers",
        SeatSchema,
        Sender.HOST,
        example={"seat": 1},
    ),
    Message(
        "vote_host",
        VoteForHost,
        "a seat other than the host's, in a started game",
        "Vote to make a seat the host (`seat: null` withdraws the vote): only once the host "
        "has had no connection for the profile's `host_role.takeover_after` (10 minutes unless "
        "the game says otherwise); a strict majority of the other seats' votes cast since his "
        "absence began makes it the host (`HostTakenOver` names the voters). Refused in the "
        "lobby (`game_lobby`) and while the host is connected (`host_present`)",
        VoteForHostSchema,
        build=_vote,
        example={"seat": 1},
    ),
    Message(
        "remove_seat",
        RemoveSeat,
        "host, before the start",
        "Remove a seated player: his token stops working and his House is free",
        SeatSchema,
        Sender.HOST,
        example={"seat": 1},
    ),
)
