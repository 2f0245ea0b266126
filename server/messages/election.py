"""Messages of an election (R-7.1) and of the title it gives (R-3.2, R-3.3): stand, place a
ballot with a receipt, accept or refuse the title, pass on a title too many."""

from __future__ import annotations

from marshmallow import Schema, fields

from court.commands import (
    AcceptTitle,
    Actor,
    PlaceBallot,
    RefuseTitle,
    ResolveTitleOverflow,
    StandForElection,
)
from court.views.padding import padded_receipt
from server.messages.fields import Choice, Id, List, Pad, Shape
from server.messages.message import Answer, Message, Payload
from server.service.court_service import CourtService


class StandSchema(Shape):
    noble = Id()


MARKERS_MAX = 2  # a for and a decoy marker (R-7.1 step 3)


class MarkerSchema(Shape):
    kind = Choice(["for", "decoy"], required=True)
    candidate = Id()


class BallotSchema(Shape):
    markers = List(fields.Nested(MarkerSchema), max_items=MARKERS_MAX, required=True)
    pad = Pad()


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


def place_ballot(service: CourtService, game_id: str, actor: Actor, body: Payload) -> Answer:
    markers = [(m["kind"], m["candidate"]) for m in body["markers"]]
    outcome, receipt = service.place_ballot(game_id, actor, markers)
    return padded_receipt({"ok": True, "version": outcome.version, "receipt": receipt})


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
        run=place_ballot,
        answer=BallotAckSchema,
        payload_of=ballot_payload,
        example={"markers": [{"kind": "for", "candidate": "robb-stark"}]},
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
