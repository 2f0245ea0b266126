"""HTTP routes for playing: elections, titles, phases, facts and deadlines.

Each route is one command; the acting seat comes from the token. The same
commands travel over Socket.IO (court/sockets.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema

from court import schemas as s
from court.commands import (
    AcceptTitle,
    AdvancePhase,
    CloseOverdueStep,
    Command,
    Pass,
    RecordVillageControl,
    RefuseTitle,
    ResolveTitleOverflow,
    StandForElection,
)
from court.decree_payloads import DECREES
from court.fact_payloads import FACTS
from court.ids import HouseId, NobleId, TitleId, VillageId
from court.purchase_payloads import PURCHASES
from court.web import api, bp, caller, player, service

Build = Callable[[dict[str, Any]], Command]


def _command_route(path: str, summary: str, schema: type[Schema] | None, build: Build) -> None:
    def view(game_id: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        actor = caller(game_id) if build is _close else player(game_id)
        outcome = service().handle(game_id, build(body or {}), actor)
        return {"ok": True, "version": outcome.version}

    view.__name__ = "play_" + path.rsplit("/", 2)[-2] + "_" + path.rsplit("/", 1)[-1]
    api.route(
        bp,
        "/games/<game_id>/" + path,
        "POST",
        summary,
        body=schema,
        response=s.AckSchema,
        auth=True,
    )(view)


def _close(body: dict[str, Any]) -> Command:
    return CloseOverdueStep()


ROUTES: tuple[tuple[str, str, type[Schema] | None, Build], ...] = (
    (
        "election/stand",
        "Put forward one of your own eligible Lords in the open candidacy (R-7.1)",
        s.StandSchema,
        lambda b: StandForElection(noble=NobleId(b["noble"])),
    ),
    ("election/pass", "Pass in the open step: no candidate, or no marker", None, lambda b: Pass()),
    ("title/accept", "Take the title your Lord won (R-3.3)", None, lambda b: AcceptTitle()),
    ("title/refuse", "Refuse the title your Lord won (R-3.3)", None, lambda b: RefuseTitle()),
    (
        "title/overflow",
        "Pass a title of a full category to another Noble, or return it (R-3.2)",
        s.OverflowSchema,
        lambda b: ResolveTitleOverflow(
            title=TitleId(b["title"]), to=NobleId(b["to"]) if b["to"] else None
        ),
    ),
    (
        "facts/village",
        "Record who controls a village (host only)",
        s.VillageFactSchema,
        lambda b: RecordVillageControl(
            village=VillageId(b["village"]),
            house=HouseId(b["house"]) if b["house"] else None,
            cause=b["cause"],
        ),
    ),
    (
        "phase/advance",
        "Close the phase played at the table (host only, R-4.1)",
        None,
        lambda b: AdvancePhase(),
    ),
    ("steps/close-overdue", "Close a step whose deadline has passed (R-4.3)", None, _close),
    # Recorded facts of a Noble's life and Court Events (host only, section 9).
    *((path, summary, s.FACT_SCHEMAS[message], build) for path, message, summary, build in FACTS),
    # The decree steps of phase 1.
    *(
        (path, summary, s.DECREE_SCHEMAS[message], build)
        for path, message, summary, build in DECREES
    ),
    # Purchases at court in phase 4, and ransom.
    *(
        (path, summary, s.PURCHASE_SCHEMAS[message], build)
        for path, message, summary, build in PURCHASES
    ),
)

for _path, _summary, _schema, _build in ROUTES:
    _command_route(_path, _summary, _schema, _build)


@api.route(
    bp,
    "/games/<game_id>/election/ballot",
    "POST",
    "Place none, one or both of your markers face down (R-7.1); answers with your receipt",
    body=s.BallotSchema,
    response=s.BallotAckSchema,
    auth=True,
)
def place_ballot(game_id: str, body: dict[str, Any]) -> dict[str, Any]:
    markers = [(m["kind"], m["candidate"]) for m in body["markers"]]
    outcome, receipt = service().place_ballot(game_id, player(game_id), markers)
    return {"ok": True, "version": outcome.version, "receipt": receipt}


@api.route(
    bp,
    "/games/<game_id>/purchases/bid",
    "POST",
    "Place your sealed bid for the fourth Small Council seat (R-4.6); answers with your receipt",
    body=s.BidSchema,
    response=s.BidAckSchema,
    auth=True,
)
def place_bid(game_id: str, body: dict[str, Any]) -> dict[str, Any]:
    outcome, receipt = service().place_bid(game_id, player(game_id), body["amount"])
    return {"ok": True, "version": outcome.version, "receipt": receipt}
