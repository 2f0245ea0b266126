"""HTTP route of the history page: every record as one sentence about the court as it stood
right after it, with the round and phase it happened in."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields, validate

from court.commands import Actor
from court.log.provenance import Kind
from court.views.changes import changes
from server.http import schemas as s
from server.http.api import Routes
from server.http.games import reader, service
from server.messages.fields import VERSION_MAX, Shape
from server.messages.views import observe, signed
from server.service.replay import Head

routes = Routes("history", __name__)


class HashedSchema(Schema):
    """The rest of what a record's hash covers (server/http/witness.py, ChainRecordSchema)."""

    schema_version = fields.Integer(required=True)
    data_json = fields.String(
        metadata={
            "description": "The public part's canonical JSON, as hashed; left out where "
            "the canonical JSON of the entry's `data` is that text (docs/protocol.md)"
        }
    )
    private_sha256 = fields.String(
        required=True, metadata={"description": "SHA-256 of the private part's JSON; '' for none"}
    )


class HistoryEntrySchema(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    recorded_at = fields.String(required=True)
    hash = fields.String(required=True)
    round = fields.Integer(required=True)
    phase = fields.String(allow_none=True, required=True)
    data = fields.Dict(required=True)
    text = fields.String(required=True)
    kind = fields.String(required=True, metadata={"enum": [k.value for k in Kind]})
    rules = fields.List(fields.String(), required=True)
    hashed = fields.Nested(
        HashedSchema,
        required=True,
        metadata={"description": "With the entry's own fields: what its hash covers"},
    )


class HistorySentencesSchema(Schema):
    version = fields.Integer(required=True)
    entries = fields.List(fields.Nested(HistoryEntrySchema), required=True)
    next_after = fields.Integer(allow_none=True, required=True)


def sentences(viewer: Actor, head: Head, after: int, limit: int) -> dict[str, Any]:
    """A page of the history, each record told with the court as it stood right after it, as
    the observer tells it (court/views/observer.py)."""
    observer = observe(viewer, head.state)
    told = service().told(head.state.game_id, after=after, limit=limit, newest=head)
    entries = [observer.entry(record, state) for record, state in told]
    last = entries[-1]["version"] if entries else after
    return {
        "version": head.version,
        "entries": entries,
        "next_after": last if last < head.version else None,
    }


@routes.route(
    "/games/<game_id>/history",
    "GET",
    "A page of the history as sentences, each told as the court stood right after it",
    query=s.HistoryQuerySchema,
    response=HistorySentencesSchema,
    auth=True,
)
def history_sentences(game_id: str, query: dict[str, Any]) -> dict[str, Any]:
    actor, head = reader(game_id)
    limit = min(query["limit"], current_app.config["HISTORY_PAGE_LIMIT"])
    return sentences(actor, head, query["after"], limit)


class ChangesQuerySchema(Shape):
    since = fields.Integer(load_default=1, data_key="from", validate=validate.Range(1, VERSION_MAX))
    until = fields.Integer(
        load_default=None, data_key="to", validate=validate.Range(1, VERSION_MAX)
    )


class ChangeSchema(Schema):
    kind = fields.String(
        required=True,
        metadata={
            "enum": [
                "title",
                "council",
                "noble",
                "marriage",
                "alliance",
                "treasury",
                "village",
                "sept",
            ]
        },
    )
    text = fields.String(required=True)


class ChangesSchema(Schema):
    since = fields.Integer(required=True, data_key="from")
    until = fields.Integer(required=True, data_key="to")
    changes = fields.List(fields.Nested(ChangeSchema), required=True)
    checkpoints = fields.List(
        fields.Nested(s.CheckpointSchema),
        required=True,
        metadata={"description": "The server's signed checkpoints of versions `from` and `to`"},
    )


@routes.route(
    "/games/<game_id>/changes",
    "GET",
    "What changed at court from version `from` (1 when left out) to version `to` (the "
    "latest when left out), in sentences: titles, the fourth council seat, statuses, "
    "treasuries, marriages, villages",
    query=ChangesQuerySchema,
    response=ChangesSchema,
    auth=True,
)
def court_changes(game_id: str, query: dict[str, Any]) -> dict[str, Any]:
    _, head = reader(game_id)
    court = service()
    since, until = query["since"], query["until"] or head.version
    before, after = court.state_at(game_id, since, head), court.state_at(game_id, until, head)
    told = changes(before.state, after.state)
    return {
        "since": since,
        "until": until,
        "changes": [c.to_json() for c in told],
        "checkpoints": [signed(court, before), signed(court, after)],
    }
