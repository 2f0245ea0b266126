"""Messages of seats and of the game's flow: join, leave, start, pass, close a phase or an
overdue step."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from court.commands import (
    AdvancePhase,
    ChangeListing,
    CloseOverdueStep,
    CloseTablePhases,
    JoinSeat,
    LeaveSeat,
    Pass,
    RenameGame,
    StartGame,
)
from court.ids import Seat
from server.messages.fields import (
    NAME,
    TOKEN_MAX,
    VERSION_MAX,
    Bool,
    GameName,
    Id,
    Int,
    List,
    Shape,
    Text,
)
from server.messages.message import Message, Payload, Sender


class JoinSeatSchema(Shape):
    house = Id()
    player_name = Text(required=True, validate=NAME)
    # The secret of the host's invite link: an unlisted game needs it.
    invite = Text(max_length=TOKEN_MAX, allow_none=True, load_default=None)


class SeatJoinedSchema(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    house = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's secret token"})


SEAT_ORDER_MIN, SEAT_ORDER_MAX = 3, 6  # every seat once, 3 to 6 players


class StartGameSchema(Shape):
    seat_order = List(
        Int(validate=validate.Range(0, VERSION_MAX)),
        min_items=SEAT_ORDER_MIN,
        max_items=SEAT_ORDER_MAX,
    )


def start(body: Payload) -> StartGame:
    order = body.get("seat_order")
    return StartGame(seat_order=tuple(Seat(x) for x in order) if order else None)


class ChangeListingSchema(Shape):
    listed = Bool(required=True)


class RenameGameSchema(Shape):
    name = GameName(required=True)


GAME: tuple[Message, ...] = (
    Message(
        "join",
        JoinSeat,
        "a spectator, before the start",
        "Take a free seat and House (an unlisted game's with the `invite` of the host's link); "
        "the answer holds the seat's secret token, and a live connection moves to the seat's "
        "room",
        JoinSeatSchema,
        Sender.ANYONE,
        answer=SeatJoinedSchema,
        status=201,
        example={"house": "baratheon", "player_name": "Stannis"},
        openings=("invite",),
    ),
    Message("leave", LeaveSeat, "a seat, before the start", "Give up your seat"),
    # Private games: off the front page unless the host lists them.
    Message(
        "change_listing",
        ChangeListing,
        "host, before the start",
        "List the game on the front page (`listed: true`: anyone may join) or take it off "
        "(`false`: joining needs the invite)",
        ChangeListingSchema,
        Sender.HOST,
        example={"listed": False},
    ),
    Message(
        "rename_game",
        RenameGame,
        "host",
        "Give the game a new name, shown in titles, lists and notices (1 to 60 characters); "
        "the history tells the old name and the new",
        RenameGameSchema,
        Sender.HOST,
        example={"name": "The Red Wedding"},
    ),
    Message(
        "start",
        StartGame,
        "host",
        "Start the game, in the seat order given or the table's (R-1.1)",
        StartGameSchema,
        Sender.HOST,
        build=start,
    ),
    Message(
        "pass",
        Pass,
        "the seat whose turn it is",
        "In a decree step: do nothing this turn; in a candidacy: no candidate; in a ballot: "
        "no marker",
    ),
    Message(
        "advance_phase",
        AdvancePhase,
        "host",
        "Close a phase played at the table: cards, movement, battles, the Wall (R-4.1); the "
        "server runs phases 1, 3, 4 and 8",
        sender=Sender.HOST,
    ),
    Message(
        "close_table_phases",
        CloseTablePhases,
        "host",
        "Close the phase played at the table and each one after it up to the next phase the "
        "server runs: movement, battles and the Wall in one (R-4.1); refused with one phase to "
        "close",
        sender=Sender.HOST,
    ),
    Message(
        "close_overdue",
        CloseOverdueStep,
        "anyone",
        "Close a step past its deadline; the server also does this by itself (R-4.3)",
        sender=Sender.ANYONE,
    ),
)
