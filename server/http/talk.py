"""HTTP routes of table talk and whispers (server/service/talk.py): the lines the caller is party
to,
and the check of his channels' chains. Nobody else's lines are ever read for him."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields, validate

from court.talk import speaker
from server.http.api import Routes
from server.http.games import caller
from server.messages.fields import Shape
from server.service.talk import TalkService

routes = Routes("talk", __name__)

PAGE_MOST = 200


def talk_service() -> TalkService:
    return current_app.extensions["talk"]


class TalkQuerySchema(Shape):
    after = fields.Integer(load_default=0, validate=validate.Range(0, 2**63 - 1))
    limit = fields.Integer(load_default=PAGE_MOST, validate=validate.Range(1, PAGE_MOST))


class TalkLineSchema(Schema):
    position = fields.Integer(required=True)
    game_id = fields.String(required=True)
    channel = fields.String(required=True, metadata={"description": '"table" or a whisper'})
    number = fields.Integer(required=True, metadata={"description": "1, 2… in its channel"})
    court_version = fields.Integer(required=True)
    sender = fields.String(required=True, metadata={"description": '"seat:N" or "master"'})
    recipients = fields.List(fields.String(), required=True)
    said_at = fields.String(required=True)
    text = fields.String(required=True)
    prev_hash = fields.String(required=True)
    hash = fields.String(required=True)
    signature = fields.String(
        required=True,
        metadata={
            "description": "The server's Ed25519 signature (base64) of `small-council talk\\n"
            "{game_id}\\n{channel}\\n{number}\\n{hash}`, by the key of GET /api/signing-key"
        },
    )


class TalkPageSchema(Schema):
    lines = fields.List(fields.Nested(TalkLineSchema), required=True)
    next_after = fields.Integer(allow_none=True, required=True)


class ChannelCheckSchema(Schema):
    channel = fields.String(required=True)
    ok = fields.Boolean(required=True)
    lines = fields.Integer(required=True)
    head = fields.String(required=True)
    problem = fields.String(allow_none=True, required=True)
    unsigned = fields.Integer(
        required=True,
        metadata={
            "description": "How many of the channel's first lines carry no signature: said "
            "before the server signed talk lines (or their signatures were removed)"
        },
    )


class TalkChecksSchema(Schema):
    ok = fields.Boolean(required=True)
    channels = fields.List(fields.Nested(ChannelCheckSchema), required=True)


@routes.route(
    "/games/<game_id>/talk",
    "GET",
    "A page of the table talk and whispers the caller is party to, after position `after`",
    query=TalkQuerySchema,
    response=TalkPageSchema,
    auth=True,
)
def talk_lines(game_id: str, query: dict[str, Any]) -> dict[str, Any]:
    actor = caller(game_id)
    speaker(actor)
    limit = query["limit"]
    lines = talk_service().lines(game_id, actor, after=query["after"], limit=limit + 1)
    page = lines[:limit]
    return {
        "lines": [line.to_json() for line in page],
        "next_after": page[-1].position if len(lines) > limit else None,
    }


@routes.route(
    "/games/<game_id>/talk/verify",
    "GET",
    "The check of the hash chain of each talk channel the caller is party to",
    response=TalkChecksSchema,
    auth=True,
)
def talk_verify(game_id: str) -> dict[str, Any]:
    actor = caller(game_id)
    speaker(actor)
    checks = talk_service().verify(game_id, actor)
    return {"ok": all(c.ok for c in checks), "channels": [c.to_json() for c in checks]}
