"""Messages of the decree steps of phase 1 (R-5, R-6, R-8.4): marriages, R'hllor, pardons,
the Wall, title concessions and desertion."""

from __future__ import annotations

from court.commands import (
    AnswerMarriage,
    ConcedeTitle,
    Desert,
    Divorce,
    EmbraceRhllor,
    HandConversion,
    Pardon,
    ProposeMarriage,
    SendToWall,
)
from server.messages.fields import Bool, Id, Shape
from server.messages.message import Message


class NobleChoiceSchema(Shape):
    noble = Id()


class ProposeMarriageSchema(Shape):
    noble = Id()
    to = Id()


class AnswerMarriageSchema(Shape):
    accept = Bool(required=True)


class EmbraceSchema(Shape):
    hand_converts = Bool(load_default=False)
    burn = Id(load_default=None, allow_none=True)


class HandConversionSchema(Shape):
    convert = Bool(required=True)
    burn = Id(load_default=None, allow_none=True)


class ConcedeSchema(Shape):
    title = Id()
    to = Id()


DECREES: tuple[Message, ...] = (
    Message(
        "propose_marriage",
        ProposeMarriage,
        "the seat whose turn it is in 1.1.1",
        "Propose one of your unmarried Nobles to one of another House (R-5.1)",
        ProposeMarriageSchema,
        example={"noble": "robb-stark", "to": "cersei-lannister"},
    ),
    Message(
        "answer_marriage",
        AnswerMarriage,
        "the seat asked",
        "Accept or decline; on acceptance the fee is paid and, with 4-6 players, the players "
        "are allied (R-5.3)",
        AnswerMarriageSchema,
        example={"accept": True},
    ),
    Message(
        "divorce",
        Divorce,
        "the Master of Laws' seat, in its turn of 1.1.1",
        "Divorce a couple; their alliance ends (R-5.4)",
        NobleChoiceSchema,
        example={"noble": "robb-stark"},
    ),
    Message(
        "embrace_rhllor",
        EmbraceRhllor,
        "the Protector's seat, in 1.1.2",
        "Embrace R'hllor; the two fields only when the same player holds the Hand (R-6.2)",
        EmbraceSchema,
    ),
    Message(
        "hand_conversion",
        HandConversion,
        "the Hand's seat, after an embrace",
        "Convert too, and burn an untitled Noble, or not (R-6.2)",
        HandConversionSchema,
        example={"convert": False},
    ),
    Message(
        "pardon",
        Pardon,
        "the Master of Laws', then the King's seat, in 1.1.3",
        "Lift one Outlaw mark (R-6.3)",
        NobleChoiceSchema,
        example={"noble": "robb-stark"},
    ),
    Message(
        "send_to_wall",
        SendToWall,
        "the Hand's seat, in 1.1.4",
        "Declare a Noble Outlaw, or send him to the Wall with the Night's Watch (R-6.4)",
        NobleChoiceSchema,
        example={"noble": "robb-stark"},
    ),
    Message(
        "concede_title",
        ConcedeTitle,
        "the seat whose turn it is in 1.1.5",
        "Hand a non-Royal title to another of your own Nobles (variant, R-6.6)",
        ConcedeSchema,
        example={"title": "warden-north", "to": "robb-stark"},
    ),
    Message(
        "desert",
        Desert,
        "the seat whose turn it is in 1.2.1",
        "One of your Brothers breaks his oath (Night's Watch, R-8.4)",
        NobleChoiceSchema,
        example={"noble": "benjen-stark"},
    ),
)
