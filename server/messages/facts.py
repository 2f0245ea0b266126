"""Messages of the host's recorded facts (section 9): gold and villages, a Noble's capture,
release, escape and death, and the Court Events that bring Nobles and titles into play."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from court.commands import (
    AddNoble,
    AdjustGold,
    DeathKind,
    GrantMotherOfDragons,
    HeirBorn,
    JoinSmallCouncil,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordVillageControl,
    RecordVillages,
    RecordWallSupplies,
    VillageChange,
)
from server.messages.fields import NAME, Cause, Choice, Id, Int, List, Shape, Text
from server.messages.message import Message, Sender

ATTRIBUTES = ["bastard", "hard_to_marry", "heart_breaker", "cruel", "immune_to_justice"]
ATTRIBUTES_MAX = len(ATTRIBUTES)


class AdjustGoldSchema(Shape):
    house = Id()
    amount = Int(required=True, validate=validate.Range(-1000, 1000))
    cause = Cause()


class VillageFactSchema(Shape):
    village = Id()
    house = Id(allow_none=True)
    cause = Cause()


# More villages than any map holds: a longer list is refused before any item is built.
VILLAGES_MAX = 64


class VillageChangeSchema(Shape):
    village = Id()
    house = Id(required=True, allow_none=True)


class VillagesFactSchema(Shape):
    changes = List(fields.Nested(VillageChangeSchema), max_items=VILLAGES_MAX, required=True)
    cause = Cause()


def _villages(body: dict[str, Any]) -> RecordVillages:
    changes = tuple(VillageChange(village=c["village"], house=c["house"]) for c in body["changes"])
    return RecordVillages(changes=changes, cause=body["cause"])


class NobleFactSchema(Shape):
    """A fact about one Noble: release, escape, Mother of Dragons, Heir born."""

    noble = Id()
    cause = Cause()


class CaptureFactSchema(Shape):
    noble = Id()
    house = Id()
    by = Id(load_default=None, allow_none=True)
    cause = Cause()


class DeathFactSchema(Shape):
    noble = Id()
    kind = Choice([k.value for k in DeathKind], required=True)
    cause = Cause()


class AddNobleSchema(Shape):
    house = Id()
    noble = Id()
    name = Text(required=True, validate=NAME)
    gender = Choice(["lord", "lady"], required=True)
    attributes = List(Choice(ATTRIBUTES), max_items=ATTRIBUTES_MAX, load_default=list)
    cause = Cause()


class JoinCouncilSchema(Shape):
    noble = Id()
    title = Id()
    cause = Cause()


class WallSuppliesSchema(Shape):
    amount = Int(required=True, validate=validate.Range(1, 100))
    house = Id()
    cause = Cause()


HOST = "host or game master"

RECORD_VILLAGES = Message(
    "record_villages",
    RecordVillages,
    HOST,
    "Who controls several villages now, in one record: one fact per village whose "
    "controller changes; nothing changed is refused (section 9)",
    VillagesFactSchema,
    Sender.HOST,
    build=_villages,
    example={"changes": [{"village": "winterfell", "house": "stark"}], "cause": "Battle"},
)

_ONE_EACH: tuple[Message, ...] = tuple(
    Message(name, command, HOST, summary, schema, Sender.HOST, example=example)
    for name, command, schema, summary, example in (
        (
            "record_gold",
            AdjustGold,
            AdjustGoldSchema,
            "Gold Dragons won or lost outside the court",
            {"house": "stark", "amount": 1, "cause": "Tax"},
        ),
        (
            "record_village",
            RecordVillageControl,
            VillageFactSchema,
            "Who controls a village now",
            {"village": "winterfell", "house": "stark", "cause": "Battle"},
        ),
        (
            "record_capture",
            RecordCapture,
            CaptureFactSchema,
            "A Noble in play taken captive by another House; a `cruel` or `heart_breaker` "
            "captor ends the captive's alliance (R-8.1, R-5.4)",
            {"noble": "robb-stark", "house": "lannister", "by": None, "cause": "x"},
        ),
        (
            "record_release",
            RecordRelease,
            NobleFactSchema,
            "A captive released (R-8.1)",
            {"noble": "robb-stark", "cause": "x"},
        ),
        (
            "record_escape",
            RecordEscape,
            NobleFactSchema,
            "A captive escaped (R-8.1)",
            {"noble": "robb-stark", "cause": "x"},
        ),
        (
            "record_death",
            RecordDeath,
            DeathFactSchema,
            "A living Noble died: titles return, the alliance ends, a widowed Queen protects; "
            "Justice only on a non-immune Outlaw, Uprising only on the Gods-cursed "
            "(R-1.4, R-3.8, R-6.2, R-6.5)",
            {"noble": "robb-stark", "kind": "battle", "cause": "x"},
        ),
        (
            "add_noble",
            AddNoble,
            AddNobleSchema,
            "Court Event: a new Noble comes into play (R-1.2, R-1.3)",
            {
                "house": "stark",
                "noble": "rickon-stark",
                "name": "Rickon Stark",
                "gender": "lord",
                "attributes": [],
                "cause": "x",
            },
        ),
        (
            "join_small_council",
            JoinSmallCouncil,
            JoinCouncilSchema,
            "Court Event: a Warden takes a free Master title; a full High slot makes his "
            "player pass or return one (R-3.5, R-3.2)",
            {"noble": "robb-stark", "title": "master-of-coin", "cause": "x"},
        ),
        (
            "grant_mother_of_dragons",
            GrantMotherOfDragons,
            NobleFactSchema,
            "Court Event: a Lady in play becomes Mother of Dragons (R-3.1)",
            {"noble": "sansa-stark", "cause": "x"},
        ),
        (
            "heir_born",
            HeirBorn,
            NobleFactSchema,
            "Court Event: a Lord in play becomes the Heir, one at a time (R-3.9)",
            {"noble": "bran-stark", "cause": "x"},
        ),
        (
            "record_wall_supplies",
            RecordWallSupplies,
            WallSuppliesSchema,
            "The Lord Commander's Wall supplies paid to a House (Night's Watch only, R-8.5)",
            {"amount": 1, "house": "stark", "cause": "x"},
        ),
    )
)

# The villages recorded at once stand next to the one village recorded alone.
FACTS: tuple[Message, ...] = (*_ONE_EACH[:2], RECORD_VILLAGES, *_ONE_EACH[2:])
