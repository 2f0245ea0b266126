"""The host's recorded facts of a Noble's life and Court Events (section 9): each checked
payload turned into its command, for the HTTP routes and the Socket.IO messages alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from court.commands import (
    AddNoble,
    Command,
    GrantMotherOfDragons,
    HeirBorn,
    JoinSmallCouncil,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordWallSupplies,
)
from court.ids import HouseId, NobleId, TitleId

Payload = dict[str, Any]


def capture(b: Payload) -> RecordCapture:
    return RecordCapture(
        noble=NobleId(b["noble"]),
        captor_house=HouseId(b["captor_house"]),
        by=NobleId(b["by"]) if b["by"] else None,
        cause=b["cause"],
    )


def release(b: Payload) -> RecordRelease:
    return RecordRelease(noble=NobleId(b["noble"]), cause=b["cause"])


def escape(b: Payload) -> RecordEscape:
    return RecordEscape(noble=NobleId(b["noble"]), cause=b["cause"])


def death(b: Payload) -> RecordDeath:
    return RecordDeath(noble=NobleId(b["noble"]), kind=b["kind"], cause=b["cause"])


def add_noble(b: Payload) -> AddNoble:
    return AddNoble(
        house=HouseId(b["house"]),
        noble_id=NobleId(b["noble_id"]),
        name=b["name"],
        gender=b["gender"],
        attributes=tuple(b["attributes"]),
        cause=b["cause"],
    )


def join_small_council(b: Payload) -> JoinSmallCouncil:
    return JoinSmallCouncil(
        noble=NobleId(b["noble"]), master_title=TitleId(b["master_title"]), cause=b["cause"]
    )


def mother_of_dragons(b: Payload) -> GrantMotherOfDragons:
    return GrantMotherOfDragons(noble=NobleId(b["noble"]), cause=b["cause"])


def heir_born(b: Payload) -> HeirBorn:
    return HeirBorn(noble=NobleId(b["noble"]), cause=b["cause"])


def wall_supplies(b: Payload) -> RecordWallSupplies:
    return RecordWallSupplies(amount=b["amount"], to_house=HouseId(b["to_house"]), cause=b["cause"])


# (HTTP path under /games/<id>/, Socket.IO message, summary, builder); the schemas
# (court/schemas.py) stay with the adapters.
FACTS: tuple[tuple[str, str, str, Callable[[Payload], Command]], ...] = (
    (
        "facts/capture",
        "record_capture",
        "Record a Noble taken captive by another House (host only, R-8.1, R-5.4)",
        capture,
    ),
    ("facts/release", "record_release", "Record a captive released (host only, R-8.1)", release),
    ("facts/escape", "record_escape", "Record a captive escaped (host only, R-8.1)", escape),
    (
        "facts/death",
        "record_death",
        "Record a Noble's death: battle, justice, assassination, uprising, wall or other "
        "(host only, R-1.4, R-3.8, R-6.2, R-6.5)",
        death,
    ),
    (
        "facts/add-noble",
        "add_noble",
        "Court Event: a new Noble comes into play for a House (host only, R-1.2)",
        add_noble,
    ),
    (
        "facts/join-small-council",
        "join_small_council",
        "Court Event: a Warden joins the Small Council with a free Master title "
        "(host only, R-3.5, R-3.2)",
        join_small_council,
    ),
    (
        "facts/mother-of-dragons",
        "grant_mother_of_dragons",
        "Court Event: a Lady in play becomes Mother of Dragons (host only, R-3.1)",
        mother_of_dragons,
    ),
    (
        "facts/heir-born",
        "heir_born",
        "Court Event: a Lord in play becomes the Heir, prince of Westeros (host only, R-3.9)",
        heir_born,
    ),
    (
        "facts/wall-supplies",
        "record_wall_supplies",
        "Record the Wall's supplies the Lord Commander gave a House (host only, R-8.5)",
        wall_supplies,
    ),
)
