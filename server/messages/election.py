"""Messages of an election (R-7.1) and of the title it gives (R-3.2, R-3.3): stand, place a
ballot with a receipt, accept or refuse the title, pass on a title too many."""

from __future__ import annotations

from marshmallow import Schema, fields, validates_schema

from court.commands import (
    AcceptTitle,
    MarkerChoice,
    PlaceBallot,
    RefuseTitle,
    ResolveTitleOverflow,
    StandForElection,
)
from court.ids import NobleId
from server.messages.fields import Choice, Id, List, Pad, Salt, Shape, String, unopened
from server.messages.message import Message, Payload
from server.messages.signed import HEX64


class StandSchema(Shape):
    noble = Id()


MARKERS_MAX = 2  # a for and a decoy marker (R-7.1 step 3)


class MarkerSchema(Shape):
    kind = Choice(["for", "decoy"], required=True)
    candidate = Id()
    # Drawn by the player's device when it signs the ballot; else the server draws it.
    salt = Salt()


class CommittedSchema(Shape):
    """A marker as the record publishes it, which a signing device signs in place of it."""

    commitment = String(max_length=64, validate=HEX64, required=True)
    candidate = Id(load_default=None, allow_none=True)


class BallotSchema(Shape):
    markers = List(fields.Nested(MarkerSchema), max_items=MARKERS_MAX, required=True)
    committed = List(
        fields.Nested(CommittedSchema),
        max_items=MARKERS_MAX,
        load_default=None,
        allow_none=True,
    )
    pad = Pad()

    @validates_schema
    def _salted(self, data: Payload, **_: object) -> None:
        """The markers' salts come all from the client or all from the server; commitments
        only with the salts they were made with, one for each marker."""
        salts = [m.get("salt") is not None for m in data.get("markers", ())]
        if any(salts) and not all(salts):
            raise unopened("Give every marker its salt, or none.")
        committed = data.get("committed")
        if committed is not None and (len(committed) != len(salts) or not all(salts)):
            raise unopened("One commitment for each marker, each marker with its salt.")


class OverflowSchema(Shape):
    title = Id()
    to = Id(load_default=None, allow_none=True)


class ReceiptMarkerSchema(Schema):
    kind = fields.String(required=True)
    candidate = fields.String(required=True)
    salt = fields.String(required=True)


class ReceiptSchema(Schema):
    election = fields.String(required=True)
    version = fields.Integer(required=True)
    record_hash = fields.String(required=True)
    commitments = fields.List(fields.String(), required=True)
    markers = fields.List(fields.Nested(ReceiptMarkerSchema), required=True)


class BallotAckSchema(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    receipt = fields.Nested(ReceiptSchema, required=True)
    pad = fields.String(required=True)


def ballot_command(body: Payload) -> PlaceBallot:
    """The ballot of a payload: its markers' salts the client's (a signed ballot's) or none,
    for the service to draw."""
    committed = body.get("committed")
    return PlaceBallot(
        markers=tuple(
            MarkerChoice(
                kind=m["kind"], candidate=NobleId(m["candidate"]), salt=m.get("salt") or ""
            )
            for m in body["markers"]
        ),
        committed=None if committed is None else tuple(committed),
    )


def ballot_payload(command: PlaceBallot) -> Payload:
    return {"markers": [{"kind": m.kind, "candidate": m.candidate} for m in command.markers]}


ELECTION: tuple[Message, ...] = (
    Message(
        "stand",
        StandForElection,
        "the seat whose turn it is in a candidacy",
        "Put forward one of your own eligible Lords in the open candidacy (R-7.1 step 2)",
        StandSchema,
        example={"noble": "robb-stark"},
    ),
    Message(
        "place_ballot",
        PlaceBallot,
        "the seat whose turn it is in a ballot",
        "Place none, one or both of your markers face down (R-7.1 step 3); the answer adds "
        "your receipt, to you only",
        BallotSchema,
        build=ballot_command,
        answer=BallotAckSchema,
        payload_of=ballot_payload,
        example={"markers": [{"kind": "for", "candidate": "robb-stark"}]},
        openings=("markers",),
        commitment="committed",
    ),
    Message("accept_title", AcceptTitle, "the winner's seat", "Take the title won (R-3.3)"),
    Message(
        "refuse_title",
        RefuseTitle,
        "the winner's seat",
        "Refuse the title won; it stays on the board (R-3.3)",
    ),
    Message(
        "resolve_title_overflow",
        ResolveTitleOverflow,
        "the seat holding one title too many",
        "Pass that title to a Noble who could hold it, or return it (`to: null`) (R-3.2)",
        OverflowSchema,
        example={"title": "warden-north", "to": None},
    ),
)
