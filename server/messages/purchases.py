"""Messages of phase 4, purchases at court (R-3.6, R-4.6): Septs, Fief titles, the sealed sale
of the fourth council seat; and of ransom, at any time (R-8.2)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate, validates_schema

from court.commands import (
    AcceptRansom,
    BuildSept,
    BuyFiefTitle,
    ChooseCouncilSeat,
    EndPurchases,
    GrantFiefTitle,
    OfferRansom,
    PassBid,
    PlaceBid,
    RefuseRansom,
    WithdrawRansom,
)
from server.messages.fields import (
    GOLD_MAX,
    VERSION_MAX,
    Id,
    Int,
    List,
    Pad,
    Salt,
    Shape,
    String,
    unopened,
)
from server.messages.message import Message, Payload
from server.messages.signed import HEX64


class SeptSchema(Shape):
    village = Id()


class FiefPurchaseSchema(Shape):
    title = Id()
    noble = Id()


class BidSchema(Shape):
    amount = Int(required=True, validate=validate.Range(0, GOLD_MAX))
    # Drawn by the player's device when it signs the bid, with the commitment it signs;
    # else the server draws the salt.
    salt = Salt()
    commitment = String(max_length=64, validate=HEX64, load_default=None)
    pad = Pad()

    @validates_schema
    def _salted(self, data: Payload, **_: object) -> None:
        if data.get("commitment") is not None and data.get("salt") is None:
            raise unopened("A commitment comes with the salt it was made with.")


class CouncilSeatSchema(Shape):
    noble = Id()
    title = Id()


CAPTIVES_MAX = 20  # more than any game holds


class RansomOfferSchema(Shape):
    captive = Id()
    gold = Int(load_default=0, validate=validate.Range(0, GOLD_MAX))
    captives = List(Id(required=False), max_items=CAPTIVES_MAX, load_default=list)


class RansomAnswerSchema(Shape):
    offer = Int(required=True, validate=validate.Range(1, VERSION_MAX))


class BidReceiptSchema(Schema):
    version = fields.Integer(required=True)
    record_hash = fields.String(required=True)
    commitment = fields.String(required=True)
    amount = fields.Integer(required=True)
    salt = fields.String(required=True)


class BidAckSchema(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    receipt = fields.Nested(BidReceiptSchema, required=True)
    pad = fields.String(required=True)


def bid_command(body: Payload) -> PlaceBid:
    """The bid of a payload: its salt the client's (a signed bid's) or none, for the service
    to draw."""
    return PlaceBid(
        amount=body["amount"], salt=body.get("salt") or "", commitment=body.get("commitment")
    )


TURN = "the seat whose purchase turn it is, in phase 4"
CAPTOR = "the captor's seat"

PURCHASES: tuple[Message, ...] = (
    Message(
        "build_sept",
        BuildSept,
        TURN,
        "Build a Sept for 4 GD in a village your House controls; never after R-6.2 (R-4.6)",
        SeptSchema,
        example={"village": "winterfell"},
    ),
    Message(
        "buy_fief_title",
        BuyFiefTitle,
        TURN,
        "Buy a free Fief title for one of your Nobles when your House holds every village of "
        "the Fiefdom; a full Fief slot makes you pass or return one (R-3.6, R-3.2)",
        FiefPurchaseSchema,
        example={"title": "fief-winterfell", "noble": "robb-stark"},
    ),
    Message(
        "grant_fief_title",
        GrantFiefTitle,
        "the King's seat, in its purchase turn",
        "The King (in play, free, no Outlaw) grants a free Fief title to a Noble of any House "
        "who could stand for it, one a round (R-3.6, R-3.10)",
        FiefPurchaseSchema,
        example={"title": "fief-winterfell", "noble": "robb-stark"},
    ),
    Message(
        "end_purchases",
        EndPurchases,
        TURN,
        "You are done with your purchases; the turn passes on, and the phase ends after the "
        "last player (R-4.1)",
    ),
    Message(
        "place_bid",
        PlaceBid,
        "a seat in the sale of the fourth council seat",
        "One sealed bid, at most your treasury (R-4.6, R-2.1); the answer adds your receipt "
        '{version, record_hash, commitment, amount, salt}, to you only; commitment = SHA-256("'
        'bid:<amount>:<salt>")',
        BidSchema,
        build=bid_command,
        answer=BidAckSchema,
        payload_of=lambda bid: {"amount": bid.amount},
        example={"amount": 3},
        openings=("amount", "salt"),
        commitment="commitment",
    ),
    Message(
        "pass_bid",
        PassBid,
        "a seat in the sale",
        "No bid; when the last seat bids or passes every bid is revealed at once (R-4.6)",
    ),
    Message(
        "choose_council_seat",
        ChooseCouncilSeat,
        "the buyer of the council seat",
        "Seat one of your Wardens with a free Master title (R-3.5)",
        CouncilSeatSchema,
        example={"noble": "robb-stark", "title": "master-of-coin"},
    ),
    Message(
        "offer_ransom",
        OfferRansom,
        "the captive's seat, any time",
        "Offer Gold Dragons and/or captives you hold for one of your captives (R-8.2)",
        RansomOfferSchema,
        example={"captive": "robb-stark", "gold": 2, "captives": []},
    ),
    Message(
        "accept_ransom",
        AcceptRansom,
        CAPTOR,
        "Accept a ransom offered to you: gold and Nobles change hands at once (R-8.2)",
        RansomAnswerSchema,
        example={"offer": 1},
    ),
    Message(
        "refuse_ransom",
        RefuseRansom,
        CAPTOR,
        "Refuse a ransom offered to you (R-8.2)",
        RansomAnswerSchema,
        example={"offer": 1},
    ),
    Message(
        "withdraw_ransom",
        WithdrawRansom,
        "the offering seat",
        "Take back a ransom offer you made (R-8.2)",
        RansomAnswerSchema,
        example={"offer": 1},
    ),
)
